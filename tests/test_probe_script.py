"""The stdlib probe script, run for real inside the legacy environments it must understand."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests import legacy_envs
from theanodoctor.facts import dig
from theanodoctor.probe.runner import PROBE_SCRIPT, probe_target

PYTHONS = ("2.7", "3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13")

Probe = Callable[..., dict[str, Any]]


@pytest.fixture
def probe(legacy_python: Callable[[str], str]) -> Probe:
    """``probe("healthy37", THEANO_FLAGS="...")`` -> the envelope of a real probe run."""

    def run(name: str, **env: str) -> dict[str, Any]:
        result = probe_target(legacy_python(name), timeout=300, env={**os.environ, **env})
        assert result["status"] == "ok", result
        return result

    return run


def stage(result: dict[str, Any], name: str) -> dict[str, Any]:
    value = result["stages"][name]
    assert isinstance(value, dict)
    return value


def test_script_compiles_with_python27(tmp_path: Path) -> None:
    copy = tmp_path / PROBE_SCRIPT.name  # py_compile writes a .pyc beside the file
    shutil.copy(PROBE_SCRIPT, copy)
    py27 = str(legacy_envs.find_interpreter("2.7"))
    subprocess.run([py27, "-m", "py_compile", str(copy)], check=True)


@pytest.mark.parametrize("version", PYTHONS)
def test_script_runs_on_every_supported_python(version: str) -> None:
    result = probe_target(str(legacy_envs.find_interpreter(version)), timeout=120)
    assert result["status"] == "ok", result
    interpreter = stage(result, "interpreter")
    assert interpreter["ok"] and interpreter["version"].startswith(version + ".")
    assert interpreter["bits"] in (32, 64)
    assert set(result["stages"]) == {"interpreter", "distributions", "numpy_import",
                                     "theano_import", "theano_config", "pygpu"}


def test_healthy37(probe: Probe, theano_home: Path) -> None:
    result = probe("healthy37")
    interpreter = stage(result, "interpreter")
    assert interpreter["version"] == "3.7.16" and interpreter["is_venv"]
    assert dig(result, "stages", "distributions", "packages", "numpy", "version") == "1.16.6"
    assert dig(result, "stages", "distributions", "versions") == {
        "numpy": "1.16.6", "scipy": "1.2.1", "Theano": "1.0.5", "six": "1.17.0",
        "Theano-PyMC": None, "pygpu": None, "mkl-service": None, "aesara": None, "pytensor": None}
    assert dig(result, "stages", "distributions", "theano_owner") == "Theano"
    assert dig(result, "stages", "numpy_import", "version") == "1.16.6"
    theano = stage(result, "theano_import")
    assert theano["ok"] and theano["version"] == "1.0.5" and theano["error"] is None
    config = stage(result, "theano_config")
    assert config["flag_naming"] == "dotted"
    assert "gpuarray.preallocate" in config["known_keys"]
    assert config["values"]["device"] == {"name": "device", "value": "cpu", "source": "default",
                                          "registered": True}
    assert config["values"]["base_compiledir"]["value"] == str(theano_home / ".theano")
    assert config["files"] == [str(theano_home / ".theanorc")]
    assert stage(result, "pygpu")["skipped"]


def test_py27_runs_the_same_stages(probe: Probe, theano_home: Path) -> None:
    result = probe("py27")
    assert stage(result, "interpreter")["version"] == "2.7.18"
    assert stage(result, "interpreter")["is_venv"]
    assert dig(result, "stages", "distributions", "packages", "numpy", "version") == "1.16.6"
    assert dig(result, "stages", "theano_import", "version") == "1.0.5"
    assert dig(result, "stages", "theano_config", "values", "floatX", "value") == "float64"


def test_theano_flags_are_honoured_and_named_as_source(probe: Probe, theano_home: Path) -> None:
    result = probe("healthy37", THEANO_FLAGS="device=cpu,floatX=float64,floatX=float32,nope.x=1")
    config = stage(result, "theano_config")
    assert config["values"]["floatX"]["value"] == "float32"  # right-most wins
    assert config["values"]["floatX"]["source"] == "THEANO_FLAGS"
    assert config["values"]["device"]["source"] == "THEANO_FLAGS"
    assert config["values"]["mode"]["source"] == "default"
    assert config["flags_unrecognised"] == ["nope.x"]
    messages = [w["message"] for w in stage(result, "theano_import")["warnings"]]
    assert "Theano does not recognise this flag: nope.x" in messages


def test_theanorc_in_home_is_named_as_source(
    probe: Probe, theano_home: Path, guard_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(guard_home))
    rc = guard_home / ".theanorc"
    compiledir = theano_home / ".theano"  # reuse the session's compiled modules
    rc.write_text(f"[global]\nfloatX = float32\nbase_compiledir = {compiledir}\n")
    (guard_home / ".theanorc.txt").write_text("[global]\nfloatX = float16\n")  # Windows only
    config = stage(probe("healthy37"), "theano_config")
    assert config["files"] == [str(rc)] and config["files_present"] == [str(rc)]
    assert config["values"]["floatX"] == {"name": "floatX", "value": "float32",
                                          "source": f"file:{rc}", "registered": True}
    assert config["values"]["base_compiledir"]["value"] == str(compiledir)
    assert config["values"]["device"]["source"] == "default"


def test_theanorc_list_later_file_wins(probe: Probe, theano_home: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "first.rc", tmp_path / "second.rc"
    first.write_text("[global]\nfloatX = float16\ndevice = cpu\n")
    second.write_text("[global]\nfloatX = float32\n")
    config = stage(probe("healthy37", THEANORC=f"{first}{os.pathsep}{second}"), "theano_config")
    assert config["files"] == [str(first), str(second)]
    assert config["values"]["floatX"]["source"] == f"file:{second}"
    assert config["values"]["device"]["source"] == f"file:{first}"


def test_old_gpu_backend_is_refused_at_import(probe: Probe, theano_home: Path) -> None:
    result = probe("healthy37", THEANO_FLAGS="device=gpu")
    error = stage(result, "theano_import")["error"]
    assert error["type"] == "ValueError"
    assert error["message"].startswith("You are tring to use the old GPU back-end. It was "
                                       "removed from Theano. Use device=cuda* now.")
    assert error["frames"] and error["frames"][-1]["file"].endswith("configdefaults.py")
    assert stage(result, "theano_config")["skipped"]
    assert stage(result, "numpy_import")["ok"]  # earlier facts survive


def test_cuda_without_pygpu_falls_back_silently(probe: Probe, theano_home: Path) -> None:
    result = probe("healthy37", THEANO_FLAGS="device=cuda")
    theano = stage(result, "theano_import")
    assert theano["ok"]
    assert any(line.startswith("ERROR (theano.gpuarray): pygpu was configured but could not be "
                               "imported") for line in theano["log"])
    assert dig(result, "stages", "theano_config", "values", "device", "value") == "cuda"
    pygpu = stage(result, "pygpu")
    assert pygpu["ok"] is False and pygpu["error"]["type"] == "ModuleNotFoundError"
    assert pygpu["gpuarray_imported"] is True and pygpu["pygpu_activated"] is False


def test_numpy124_breaks_import_on_np_bool(probe: Probe, theano_home: Path) -> None:
    result = probe("numpy124")
    assert dig(result, "stages", "distributions", "packages", "numpy", "version") == "1.24.4"
    error = stage(result, "theano_import")["error"]
    assert error["type"] == "AttributeError"
    assert "module 'numpy' has no attribute 'bool'" in error["message"]


def test_numpy123_breaks_on_blas_probe_unless_ldflags_set(probe: Probe, theano_home: Path) -> None:
    result = probe("numpy123")
    error = stage(result, "theano_import")["error"]
    assert error["type"] == "AttributeError" and "blas_opt_info" in error["message"]
    assert "blas_opt_info" not in stage(result, "numpy_import")["config_info_names"]
    fixed = probe("numpy123", THEANO_FLAGS="blas.ldflags=")
    assert stage(fixed, "theano_import")["ok"]
    ldflags = dig(fixed, "stages", "theano_config", "values", "blas.ldflags")
    assert ldflags["source"] == "THEANO_FLAGS"


def test_theano_pymc_uses_dunder_names(probe: Probe, theano_home: Path,
                                       legacy_python: Callable[[str], str]) -> None:
    result = probe("pymc39", THEANO_FLAGS="gpuarray__preallocate=0.5,blas.ldflags=")
    dists = stage(result, "distributions")
    assert dists["packages"]["Theano"] is None
    assert dists["theano_owner"] == "Theano-PyMC"
    assert stage(result, "theano_import")["version"] == "1.1.2"
    config = stage(result, "theano_config")
    assert config["flag_naming"] == "dunder"
    assert "blas__ldflags" in config["known_keys"]
    assert config["values"]["gpuarray.preallocate"] == {
        "name": "gpuarray__preallocate", "value": "0.5", "source": "THEANO_FLAGS",
        "registered": True}
    assert config["values"]["blas.ldflags"]["source"] == "default"  # the dotted flag is ignored
    assert config["flags_unrecognised"] == ["blas.ldflags"]
    # The metadata scan agrees with importlib.metadata where that exists.
    code = ("import importlib.metadata as m, json; "
            "print(json.dumps({n: m.version(n) for n in ('numpy', 'scipy', 'Theano-PyMC')}))")
    out = subprocess.run([legacy_python("pymc39"), "-c", code], capture_output=True, check=True)
    for name, version in json.loads(out.stdout).items():
        assert dists["packages"][name]["version"] == version


def test_no_theano_is_a_fact_not_a_failure(probe: Probe) -> None:
    result = probe("notheano38")
    assert all(v is None for v in stage(result, "distributions")["packages"].values())
    assert stage(result, "distributions")["theano_owner"] is None
    for name in ("numpy_import", "theano_import"):
        assert stage(result, name)["error"]["type"] in ("ModuleNotFoundError", "ImportError")
    assert stage(result, "theano_config")["skipped"] == "import theano failed"


def test_unknown_theano_layout_gives_partial_facts(probe: Probe, tmp_path: Path) -> None:
    package = tmp_path / "theano"
    package.mkdir()
    (package / "__init__.py").write_text(
        "__version__ = '9.9'\n"
        "class _Config(object):\n    device = 'cpu'\n"
        "config = _Config()\n"
        "class configparser(object):\n    pass\n")
    result = probe("notheano38", PYTHONPATH=str(tmp_path), THEANO_FLAGS="device=cpu")
    assert stage(result, "theano_import")["version"] == "9.9"
    config = stage(result, "theano_config")
    assert config["ok"] and config["known_keys"] is None and config["flag_naming"] == "dotted"
    assert config["values"]["device"] == {"name": "device", "value": "cpu",
                                          "source": "THEANO_FLAGS", "registered": None}
    assert config["values"]["floatX"]["value"] is None
    problems = "\n".join(config["problems"])
    assert "config registry: AttributeError" in problems and "floatX: AttributeError" in problems
