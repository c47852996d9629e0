"""`port` keeps the numbers: each program under tests/port_corpus/programs runs unported in the real
environment of its era (Theano 0.8.2 on Python 2.7, Theano 0.9.0 on Python 3.6) and, after
`theanodoctor port --yes` on a copy, in a real Theano 1.0.5 environment on the same seeded inputs;
every saved output and gradient must match (exactly for pooling and the MLPs). Each program is also
run unported under 1.0.5, to show the port is needed there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from tests.cli_helpers import doctor
from tests.port_proof import CORPUS, Ran, compare_outputs, copy_tree, env_homes, run_in_env

PROGRAMS = CORPUS / "programs"
CASES: dict[str, dict[str, Any]] = yaml.safe_load((PROGRAMS / "cases.yaml").read_text(encoding="utf-8"))["programs"]
NUMERIC = sorted(n for n, c in CASES.items() if "manual" not in c)
MANUAL = sorted(n for n, c in CASES.items() if "manual" in c)
ULPS = 8  # "close": within this many units in the last place of an array's largest value (2.5 measured)


def script(folder: Path) -> Path:
    (found,) = folder.glob("*.py")
    return found


def run_program(python: str, folder: Path, out: Path, home: Path) -> Ran:
    out.mkdir(parents=True, exist_ok=True)
    return run_in_env(python, [script(folder).name, str(out)], folder, home)


_ORIGINAL: dict[str, Path] = {}


@pytest.fixture(scope="session")
def env_home(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    return env_homes(tmp_path_factory.mktemp("env-homes"))


@pytest.fixture
def original_outputs(tmp_path_factory: pytest.TempPathFactory, legacy_python: Callable[[str], str],
                     env_home: Callable[[str], Path]) -> Callable[[str], Path]:
    """The outputs of a program run unported in the environment of its era (once a session)."""
    def outputs(name: str) -> Path:
        if name not in _ORIGINAL:
            env = CASES[name]["old_env"]
            base = tmp_path_factory.mktemp(f"original-{name}")
            out = base / "out"
            ran = run_program(legacy_python(env), copy_tree(PROGRAMS / name, base / name), out, env_home(env))
            assert ran.code == 0, f"{name} fails in {env}, the release it was written for:\n{ran.out[-3000:]}"
            assert list(out.glob("*.npy")), ran.out
            _ORIGINAL[name] = out
        return _ORIGINAL[name]
    return outputs


def ported_copy(name: str, dest: Path) -> tuple[Path, dict[str, Any], int]:
    folder = copy_tree(PROGRAMS / name, dest)
    before = script(folder).read_bytes()
    run = doctor("port", str(folder), "--yes", "--format", "json")
    assert run.code in (0, 1), run.err
    assert script(folder).read_bytes() != before, f"port changed nothing in {name}"
    return folder, run.json(), run.code


def test_every_program_folder_has_a_case():
    folders = sorted(p.name for p in PROGRAMS.iterdir() if p.is_dir())
    assert folders == sorted(CASES)
    assert all(len(list((PROGRAMS / n).glob("*.py"))) == 1 for n in folders)


@pytest.mark.parametrize("name", sorted(CASES))
def test_unported_program_needs_the_port_in_theano_105(name, tmp_path, legacy_python, env_home):
    case = CASES[name]
    folder = copy_tree(PROGRAMS / name, tmp_path / name)
    ran = run_program(legacy_python(case["new_env"]), folder, tmp_path / "out", env_home(case["new_env"]))
    (kind, pattern), = case["unported"].items()
    assert re.search(pattern, ran.out), ran.out[-3000:]
    assert (ran.code != 0) if kind == "fails" else (ran.code == 0)


@pytest.mark.parametrize("name", NUMERIC)
def test_ported_program_computes_what_the_original_computed(name, tmp_path, legacy_python, env_home,
                                                            original_outputs):
    case = CASES[name]
    folder, report, code = ported_copy(name, tmp_path / name)
    assert code == 0 and not any(f["manual"] for f in report["files"]), report["files"]
    new_python = legacy_python(case["new_env"])
    ran = run_program(new_python, folder, tmp_path / "ported-out", env_home(case["new_env"]))
    assert ran.code == 0, ran.out[-3000:]
    (_, pattern), = case["unported"].items()
    assert not re.search(pattern, ran.out), "the ported program still hits what port should have changed"
    doc = compare_outputs(new_python, original_outputs(name), tmp_path / "ported-out", env_home(case["new_env"]))
    assert doc["only_first"] == [] and doc["only_second"] == [] and doc["arrays"]
    for array, found in doc["arrays"].items():
        assert found["same_type"], (array, found)
        if case["compare"] == "exact" or "finite" not in found:  # integers and flags: always exact
            assert found["exact"], (array, found)
        else:
            assert found["finite"] and found["ulps"] <= ULPS, (array, found)


@pytest.mark.parametrize("name", MANUAL)
def test_what_port_cannot_rewrite_is_listed_not_guessed(name, tmp_path, legacy_python, env_home):
    """dnn_available() took no argument in the old backend and needs a context name in gpuarray:
    port must list it (and the sandbox.cuda import that stays), exit 1, and not claim the program works."""
    case = CASES[name]
    folder, report, code = ported_copy(name, tmp_path / name)
    assert code == 1
    listed = {m["rule"] for f in report["files"] for m in f["manual"]}
    assert set(case["manual"]) <= listed, listed
    ran = run_program(legacy_python(case["new_env"]), folder, tmp_path / "out", env_home(case["new_env"]))
    (_, pattern), = case["unported"].items()
    assert ran.code != 0 and re.search(pattern, ran.out), ran.out[-3000:]
