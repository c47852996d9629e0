"""`provision` plans and command lines: venv + pip dry runs, and the conda path through a fake
`conda` on PATH that records every command line it is given (conda is not installed here)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.cli_helpers import doctor
from tests.legacy_envs import find_interpreter

FAKE_CONDA = """#!/bin/sh
# records each call (one argument a line, then ---) and answers like conda would
for arg in "$@"; do printf '%s\\n' "$arg" >> "{record}"; done
echo --- >> "{record}"
if [ "$1 $2" = "env list" ]; then
  echo '{{"envs": ["/opt/conda", "/opt/conda/envs/taken"]}}'
  exit 0
fi
if [ "$1 $2" = "env create" ]; then
  cp "$4" "{record}.yml"
  echo "CondaHTTPError: offline" >&2
  exit 1
fi
exit 0
"""


@pytest.fixture
def fake_conda(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """A `conda` script first on PATH; returns (env for the CLI, the record file)."""
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir()
    record = tmp_path / "conda-calls.txt"
    script = bin_dir / "conda"
    script.write_text(FAKE_CONDA.format(record=record))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}, record


def _calls(record: Path) -> list[list[str]]:
    text = record.read_text() if record.exists() else ""
    return [c.strip("\n").split("\n") for c in text.split("---\n") if c.strip()]


def test_venv_dry_run_prints_the_exact_commands_and_touches_nothing(tmp_path: Path, guard_home: Path) -> None:
    python = str(find_interpreter("3.7"))
    prefix = tmp_path / "env37"
    run = doctor("provision", "--profile", "cpu-py37", "--python", python, "--prefix", str(prefix),
                 "--method", "venv", "--dry-run", "--format", "json")
    assert run.code == 0, run.err
    doc = run.json()
    plan = doc["plan"]
    requirements = plan["files"][0]
    assert plan["method"] == "venv" and requirements.endswith("requirements.txt")
    assert plan["commands"] == [
        [python, "-m", "venv", str(prefix)],
        [str(prefix / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
         "-r", requirements],
    ]
    assert not prefix.exists() and not Path(requirements).exists()
    assert not (guard_home / ".local").exists()
    text = doctor("provision", "--profile", "cpu-py37", "--python", python, "--prefix", str(prefix),
                  "--method", "venv", "--dry-run")
    assert text.code == 0 and f"run: {python} -m venv {prefix}" in text.out
    assert "numpy==1.16.6" in text.out and "--device cpu" in text.out


def test_conda_dry_run_command_line(fake_conda: tuple[dict[str, str], Path]) -> None:
    env, record = fake_conda
    run = doctor("provision", "--profile", "win10-cuda10.2-py37", "--name", "theano37", "--dry-run",
                 "--format", "json", env=env)
    assert run.code == 0, run.err
    plan = run.json()["plan"]
    conda = str(Path(env["PATH"].split(os.pathsep)[0]) / "conda")
    assert plan["method"] == "conda"
    assert plan["commands"] == [[conda, "env", "create", "--file", plan["files"][0], "--name", "theano37"]]
    assert _calls(record) == [["env", "list", "--json"]]  # only the read-only look at existing envs


def test_the_help_examples_dry_run_without_conda(tmp_path: Path) -> None:
    """`provision --help`'s conda example, as a dry run on a machine with no conda on PATH: it shows
    the commands conda would run and says conda is missing, instead of refusing --name."""
    bare = tmp_path / "bin"
    bare.mkdir()
    env = {"PATH": str(bare)}  # no conda, no mamba
    run = doctor("provision", "--os", "windows", "--gpu", "GTX 1660 SUPER", "--name", "theano37", "--dry-run",
                 "--format", "json", env=env)
    assert run.code == 0, run.err
    plan = run.json()["plan"]
    assert plan["method"] == "conda"
    assert plan["commands"][0][:3] == ["conda", "env", "create"]
    assert any("neither mamba nor conda is on PATH" in n for n in plan["notes"])
    applied = doctor("provision", "--cpu-only", "--name", "theano37", "--format", "json", env=env)
    assert applied.code == 2 and "--name names a conda env" in applied.json()["error"]["message"]


def test_conda_command_actually_run(fake_conda: tuple[dict[str, str], Path], tmp_path: Path) -> None:
    env, record = fake_conda
    prefix = tmp_path / "envs" / "theano37"
    run = doctor("provision", "--profile", "linux-cuda10.2-py37", "--prefix", str(prefix), "--format", "json",
                 env=env)
    assert run.code == 3, run.err  # the fake conda fails its `env create`: a provisioning step failed
    assert run.json()["error"]["kind"] == "provision"
    calls = _calls(record)
    assert len(calls) == 1 and calls[0][:3] == ["env", "create", "--file"]
    assert calls[0][4:] == ["--prefix", str(prefix)]
    written = yaml.safe_load(Path(f"{record}.yml").read_text())
    assert {"python=3.7", "numpy=1.16.6", "pygpu=0.7.6", "libgpuarray=0.7.6"} <= set(
        d for d in written["dependencies"] if isinstance(d, str))
    log = Path(calls[0][3]).with_name("provision.log").read_text()
    assert f"$ {env['PATH'].split(os.pathsep)[0]}/conda env create --file {calls[0][3]}" in log
    assert "CondaHTTPError: offline" in log and "[exit 1" in log


def test_a_stack_for_another_os_is_planned_but_never_built(fake_conda: tuple[dict[str, str], Path],
                                                           tmp_path: Path) -> None:
    env, record = fake_conda
    prefix = tmp_path / "envs" / "theano37"
    run = doctor("provision", "--profile", "win10-cuda10.2-py37", "--prefix", str(prefix), "--format", "json",
                 env=env)
    assert run.code == 2, run.err
    assert "this stack is for windows and this machine runs linux" in run.json()["error"]["message"]
    assert _calls(record) == [] and not prefix.exists()


def test_conda_refuses_an_existing_env(fake_conda: tuple[dict[str, str], Path]) -> None:
    env, record = fake_conda
    run = doctor("provision", "--cpu-only", "--name", "taken", env=env)
    assert run.code == 2 and "a conda env named taken exists" in run.err
    assert [c[:2] for c in _calls(record)] == [["env", "list"]]
    forced = doctor("provision", "--cpu-only", "--name", "taken", "--force", "--dry-run", "--format", "json",
                    env=env)
    assert forced.code == 0 and forced.json()["plan"]["commands"][0][-1] == "--yes"


@pytest.mark.parametrize("setup", [
    lambda p: (p.mkdir(), (p / "data.txt").write_text("mine")),
    lambda p: p.write_text("a file"),
])
def test_refuses_a_non_empty_prefix(tmp_path: Path, setup: Callable[[Path], object]) -> None:
    prefix = tmp_path / "taken"
    setup(prefix)
    run = doctor("provision", "--cpu-only", "--python", str(find_interpreter("3.7")), "--prefix", str(prefix),
                 "--method", "venv")
    assert run.code == 2 and "is not empty" in run.err
    assert not prefix.is_dir() or [p.name for p in prefix.iterdir()] == ["data.txt"]


def test_an_interpreter_of_another_python_conflicts_with_the_profile(tmp_path: Path) -> None:
    """The interpreter's version is a constraint: Python 3.9 cannot hold the Python 3.7 stack."""
    run = doctor("provision", "--profile", "cpu-py37", "--python", str(find_interpreter("3.9")),
                 "--prefix", str(tmp_path / "env"), "--method", "venv")
    assert run.code == 1
    assert "conflict 1: --python 3.9" in run.out and "the stack has Python 3.7" in run.out
    assert not (tmp_path / "env").exists()


def test_conflicting_constraints_build_nothing(tmp_path: Path) -> None:
    run = doctor("provision", "--gpu", "RTX 3090", "--cuda", "10.2", "--prefix", str(tmp_path / "env"),
                 "--method", "venv")
    assert run.code == 1 and "conflict 1" in run.out
    assert not (tmp_path / "env").exists()


def test_venv_for_a_gpu_stack_says_pygpu_cannot_come_from_pip(tmp_path: Path) -> None:
    run = doctor("provision", "--profile", "linux-cuda10.2-py37", "--python", str(find_interpreter("3.7")),
                 "--prefix", str(tmp_path / "env"), "--method", "venv", "--dry-run", "--format", "json")
    assert run.code == 0
    assert any("pygpu 0.7.6 is not on PyPI" in n for n in run.json()["plan"]["notes"])


def test_an_interpreter_that_does_not_run_is_a_usage_error(tmp_path: Path) -> None:
    fake = tmp_path / "python3.7"
    fake.write_text("#!/bin/sh\necho 'not a python' >&2\nexit 127\n")
    fake.chmod(0o755)
    run = doctor("provision", "--cpu-only", "--python", str(fake), "--prefix", str(tmp_path / "env"),
                 "--method", "venv", "--format", "json")
    assert run.code == 2 and "is not a Python that runs here" in run.json()["error"]["message"]
