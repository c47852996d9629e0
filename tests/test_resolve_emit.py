"""The emitted files parse back (yaml, requirement lines, ConfigParser) and say what they must;
`resolve` / `profiles` through the real CLI: exit codes, JSON, --output."""

from __future__ import annotations

import configparser
import os
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

from tests.cli_helpers import doctor
from theanodoctor.resolver import emit
from theanodoctor.resolver.inputs import build
from theanodoctor.resolver.resolve import check_profile, resolve


def _requirements(text: str) -> dict[str, Requirement]:
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    found = [Requirement(line) for line in lines]
    return {r.name: r for r in found}


def test_conda_env_for_the_windows_guides_stack() -> None:
    res = check_profile("win10-cuda10.2-py37", build())
    doc = yaml.safe_load(emit.conda_env(res))
    assert doc["name"] == "theano-win10-cuda10.2-py37"
    assert doc["channels"] == ["conda-forge"]
    deps = doc["dependencies"]
    assert {"python=3.7", "numpy=1.16.6", "scipy=1.2.1", "pygpu=0.7.6", "libgpuarray=0.7.6",
            "m2w64-toolchain", "libpython", "pip"} <= {d for d in deps if isinstance(d, str)}
    pip = next(d["pip"] for d in deps if isinstance(d, dict))
    assert [str(Requirement(r)) for r in pip] == ["Theano==1.0.5"]


def test_conda_env_for_python311_gpu_uses_anaconda_main() -> None:
    res = resolve(build(os="linux", python="3.10", cuda="10.2"))
    assert "defaults" not in yaml.safe_load(emit.conda_env(res))["channels"]
    cpu = yaml.safe_load(emit.conda_env(resolve(build(cpu_only=True))))
    assert not any(str(d).startswith("pygpu") for d in cpu["dependencies"])


def test_pip_requirements_pin_exactly_and_say_pygpu_is_not_on_pypi() -> None:
    gpu = emit.pip_requirements(check_profile("linux-pymc-cuda10.2-py39", build()))
    reqs = _requirements(gpu)
    assert set(reqs) == {"numpy", "scipy", "Theano-PyMC"}
    assert all(len(r.specifier) == 1 and next(iter(r.specifier)).operator == "==" for r in reqs.values())
    assert str(reqs["numpy"].specifier) == "==1.21.6"
    assert "pygpu 0.7.6 is not on PyPI" in gpu and "conda" in gpu and "source" in gpu
    assert "pygpu" not in emit.pip_requirements(resolve(build(cpu_only=True)))


def test_theanorc_parses_and_matches_the_stack() -> None:
    parser = configparser.ConfigParser()
    parser.read_string(emit.theanorc(resolve(build(os="windows", gpu="RTX 3090"))))
    assert parser["global"]["device"] == "cuda"
    assert parser["cuda"]["root"].endswith("CUDA\\v11.1")
    assert parser["dnn"]["enabled"] == "False"  # no cuDNN 5-7 for CUDA 11.1
    cpu = configparser.ConfigParser()
    cpu.read_string(emit.theanorc(resolve(build(cpu_only=True, python="3.9", numpy="1.22.4"))))
    assert cpu["global"]["device"] == "cpu"
    assert cpu["blas"]["ldflags"] == ""  # numpy 1.22: Theano's import needs blas.ldflags set
    linux = configparser.ConfigParser()
    linux.read_string(emit.theanorc(check_profile("linux-cuda10.2-py37", build())))
    assert linux["cuda"]["root"] == "/usr/local/cuda-10.2" and not linux.has_section("dnn")


def test_write_new_is_atomic_and_never_overwrites_unasked(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "environment.yml"
    emit.write_new(str(target), "one\n")
    with pytest.raises(Exception, match="exists; use --force"):
        emit.write_new(str(target), "two\n")
    assert target.read_text() == "one\n"
    emit.write_new(str(target), "two\n", force=True)
    assert target.read_text() == "two\n"
    assert [p.name for p in folder.iterdir()] == ["environment.yml"]  # no temp file left
    umask = os.umask(0o022)
    try:
        emit.write_new(str(folder / "requirements.txt"), "numpy==1.16.6\n")
    finally:
        os.umask(umask)
    assert (folder / "requirements.txt").stat().st_mode & 0o777 == 0o644  # not mkstemp's 0600


def test_write_new_never_clobbers_a_file_created_after_its_check(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "environment.yml"
    target.write_text("someone else's\n")
    monkeypatch.setattr(emit.os.path, "lexists", lambda _: False)  # the file appears right after the check
    with pytest.raises(Exception, match="exists; use --force"):
        emit.write_new(str(target), "ours\n")
    assert target.read_text() == "someone else's\n"
    assert [p.name for p in tmp_path.iterdir() if p.name != "home"] == ["environment.yml"]


def test_output_that_is_a_folder_is_a_usage_error_even_with_force(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "keep").write_text("mine\n")
    for extra in ([], ["--force"]):
        run = doctor("resolve", "--cpu-only", "--emit", "pip", "--output", str(folder), *extra, "--format", "json")
        assert run.code == 2, run.err
        assert "is a folder" in run.json()["error"]["message"]
    assert [p.name for p in folder.iterdir()] == ["keep"]  # nothing replaced, no temp file left


# --- through the CLI ---------------------------------------------------------------------------

@pytest.mark.parametrize("args, code", [
    (["--os", "windows", "--gpu", "GTX 1660 SUPER"], 0),
    (["--gpu", "RTX 3090", "--cuda", "10.2"], 1),
    (["--gpu", "GTX 1660"], 2),
    (["--python", "/usr/bin/python3"], 2),
    (["--output", "x.yml"], 2),
    (["--profile", "nope"], 2),
    (["--theano", "Theano-PyMC==1.1.2", "--cpu-only"], 0),
    (["--theano", "1.0.7"], 2),
])
def test_cli_exit_codes_and_json_on_every_path(args: list[str], code: int) -> None:
    run = doctor("resolve", *args, "--format", "json")
    assert run.code == code, run.err
    doc = run.json()
    assert doc["schema_version"] == 1 and doc["exit_code"] == code
    if code == 2:
        assert doc["error"]["kind"] == "usage"


def test_cli_text_conflict_and_close_matches() -> None:
    run = doctor("resolve", "--gpu", "RTX 3090", "--cuda", "10.2")
    assert run.code == 1
    assert "conflict 1: --cuda 10.2 + --gpu \"RTX 3090\" (sm_86)" in run.out
    assert "needs CUDA >= 11.1" in run.out and "profiles/gpu_arch.yaml" in run.out
    bad = doctor("resolve", "--gpu", "GTX 1660")
    assert bad.code == 2 and "GeForce GTX 1660 SUPER" in bad.err


def test_cli_text_keeps_brackets_and_pairs_ways_out() -> None:
    run = doctor("resolve", "--os", "windows", "--gpu", "RTX 3090", "--cuda", "10.2", "--cudnn", "7.6.5")
    assert run.code == 1
    assert ("use CUDA 11.1 instead of 10.2 (with --gpu \"RTX 3090\" (sm_86)), and run without cuDNN "
            "(CUDA 11.1, `[dnn] enabled = False`)") in run.out


def test_cli_emit_to_stdout_and_output(tmp_path: Path) -> None:
    run = doctor("resolve", "--cpu-only", "--emit", "pip")
    assert run.code == 0 and _requirements(run.out)["Theano"].specifier.contains("1.0.5")
    assert "resolved:" in run.err
    out = tmp_path / "environment.yml"
    first = doctor("resolve", "--profile", "win10-cuda10.2-py37", "--emit", "conda", "--output", str(out))
    assert first.code == 0 and yaml.safe_load(out.read_text())["name"] == "theano-win10-cuda10.2-py37"
    again = doctor("resolve", "--cpu-only", "--emit", "conda", "--output", str(out))
    assert again.code == 2 and "--force" in again.err
    assert "pygpu=0.7.6" in out.read_text()
    forced = doctor("resolve", "--cpu-only", "--emit", "conda", "--output", str(out), "--force")
    assert forced.code == 0 and "pygpu" not in out.read_text()


def test_cli_profiles_lists_every_stack() -> None:
    run = doctor("profiles", "--format", "json")
    assert run.code == 0
    ids = [s["id"] for s in run.json()["stacks"]]
    assert {"win10-cuda10.2-py37", "win10-cuda10.1-py37", "linux-cuda10.2-py37", "cpu-py37",
            "cpu-pymc-py39"} <= set(ids)
    assert all(s["source"] for s in run.json()["stacks"])
    text = doctor("profiles")
    assert text.code == 0 and "win10-cuda10.2-py37" in text.out
