"""The older Theano releases for real: Theano 0.8.2 on Python 2.7, 0.9.0 on Python 3.6 and 1.0.3
with numpy 1.16.2 / 1.16.6, each with the numpy and scipy of its time (tests/legacy_envs.py). The
era rows of profiles/theano_releases.yaml and theano_compat.yaml cite these tests; then `check`
judges those environments by their own release's rules (the old GPU back-end through a toolkit tree
with a fake nvcc, since this machine has no GPU)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.cli_helpers import doctor, result

# A graph with an elementwise C op, a reduction and its gradient: C compilation, not only numpy.
COMPUTE = """
import numpy, theano, theano.tensor as T
x = T.matrix('x')
cost = T.nnet.sigmoid(x).sum()
f = theano.function([x], [cost, T.grad(cost, x)])
data = numpy.arange(6, dtype=theano.config.floatX).reshape(2, 3) / 6.0
got, grad = f(data)
s = 1 / (1 + numpy.exp(-data))
assert numpy.allclose(got, s.sum()) and numpy.allclose(grad, s * (1 - s)), (got, grad)
print('VERSIONS %s %s %s' % (theano.__version__, numpy.__version__, __import__('scipy').__version__))
"""


def _run(python: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "THEANO_FLAGS": f"base_compiledir={home / '.theano'}"}
    env.pop("THEANORC", None)
    return subprocess.run([python, "-c", COMPUTE], capture_output=True, text=True, env=env, timeout=600)


def test_theano082_on_python27_computes(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    run = _run(legacy_python("theano082_py27"), tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "VERSIONS 0.8.2 1.11.0 0.17.1" in run.stdout


def test_theano090_on_python36_computes(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    run = _run(legacy_python("theano090_py36"), tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "VERSIONS 0.9.0 1.12.1 0.19.0" in run.stdout


@pytest.mark.parametrize(("name", "versions"), [("py27", "1.0.5 1.16.6 1.2.1"), ("healthy37", "1.0.5 1.16.6 1.2.1"),
                                              ("pymc39", "1.1.2 1.21.6 1.7.3")])
def test_verified_stack_computes(name: str, versions: str, legacy_python: Callable[[str], str],
                                 tmp_path: Path) -> None:
    """The `verified` rows of profiles/theano_compat.yaml that cite this test: the stack compiles and computes."""
    run = _run(legacy_python(name), tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert f"VERSIONS {versions}" in run.stdout


def test_theano103_fails_with_numpy_1_16_2(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    run = _run(legacy_python("theano103_np1162"), tmp_path)
    assert run.returncode != 0
    assert "module 'numpy.core.multiarray' has no attribute '_get_ndarray_c_version'" in run.stderr


def test_theano103_works_with_numpy_1_16_6(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    run = _run(legacy_python("theano103_np116"), tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "VERSIONS 1.0.3 1.16.6 1.2.1" in run.stdout


# --- `check` on those environments ---------------------------------------------------------------

def _toolkit(root: Path, version: str = "8.0", full: str = "8.0.61") -> Path:
    """A folder laid out like a CUDA toolkit, with an nvcc that answers --version like the real one."""
    (root / "bin").mkdir(parents=True)
    (root / "include").mkdir()
    (root / "include" / "cuda.h").write_text("/* stand-in */\n")
    (root / "version.txt").write_text(f"CUDA Version {full}\n")
    nvcc = root / "bin" / "nvcc"
    nvcc.write_text("#!/bin/sh\necho 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
                    f"echo 'Cuda compilation tools, release {version}, V{full}'\n")
    nvcc.chmod(nvcc.stat().st_mode | stat.S_IEXEC)
    return root


def _check(python: str, home: Path, flags: str, path: str | None = None) -> tuple[int, dict[str, Any]]:
    env = {"HOME": str(home), "THEANO_FLAGS": f"base_compiledir={home / '.theano'},{flags}".rstrip(",")}
    if path is not None:
        env["PATH"] = path
    run = doctor("check", "--python", python, "--format", "json", env=env)
    return run.code, json.loads(run.out)


def test_check_judges_theano09_device_gpu_by_the_old_backend(legacy_python: Callable[[str], str],
                                                              tmp_path: Path) -> None:
    kit = _toolkit(tmp_path / "cuda-8.0")
    path = f"{kit / 'bin'}{os.pathsep}{os.environ['PATH']}"
    code, doc = _check(legacy_python("theano090_py36"), tmp_path, "device=gpu,lib.cnmem=0.5,floatX=float32", path)
    device = result(doc, "theano-device")
    assert "the old GPU back-end of Theano 0.9.0" in device["message"], device
    assert "removed" not in device["message"] and device["status"] in ("ok", "warn")
    assert any(str(kit / "bin" / "nvcc") in d for d in device["details"])
    flags = result(doc, "theano-flags")
    assert flags["status"] == "ok" and "lib.cnmem" in flags["message"]  # a 0.9 option, not "not recognised"
    stack = result(doc, "python-stack")
    assert stack["status"] == "ok" and "verified" in stack["message"]
    # nvcc is run by this back-end, so its host-compiler limit is an error here (CUDA 8.0: GCC <= 5; g++ here: 12)
    host = result(doc, "nvcc-host-compiler")
    assert host["status"] == "error" and "old CUDA back-end" in host["message"], host
    assert result(doc, "linux-cuda-libs")["status"] == "skipped"


def test_check_theano09_device_gpu_without_nvcc(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    code, doc = _check(legacy_python("theano090_py36"), tmp_path, "device=gpu", "/usr/bin:/bin")
    device = result(doc, "theano-device")
    assert device["status"] == "error" and "nvcc is not found" in device["message"]
    assert "nvcc compiler not found on $PATH" in device["cause"] and code == 1


def test_check_theano08_config_file_keeps_its_own_options(legacy_python: Callable[[str], str],
                                                          tmp_path: Path) -> None:
    (tmp_path / ".theanorc").write_text("[global]\ndevice = cpu\n\n[lib]\ncnmem = 0.8\n\n[nvcc]\nfastmath = True\n")
    code, doc = _check(legacy_python("theano082_py27"), tmp_path, "")
    keys = result(doc, "theanorc-unknown-keys")
    assert keys["status"] == "ok", keys


def test_check_theano103_with_numpy_1_16_2_names_the_release_rule(legacy_python: Callable[[str], str],
                                                                   tmp_path: Path) -> None:
    code, doc = _check(legacy_python("theano103_np1162"), tmp_path, "")
    stack = result(doc, "python-stack")
    assert stack["status"] == "error" and "_get_ndarray_c_version" in stack["cause"]
    assert code == 1


def test_check_theano103_with_numpy_1_16_6_is_verified(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    code, doc = _check(legacy_python("theano103_np116"), tmp_path, "")
    stack = result(doc, "python-stack")
    assert stack["status"] == "ok" and "a verified combination" in stack["message"]


def test_fix_leaves_a_theano09_config_alone(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    rc = "[global]\ndevice = gpu\nfloatX = float32\n\n[lib]\ncnmem = 0.8\n\n[nvcc]\nfastmath = True\n"
    (tmp_path / ".theanorc").write_text(rc)
    env = {"HOME": str(tmp_path), "THEANO_FLAGS": f"base_compiledir={tmp_path / '.theano'}"}
    old = doctor("fix", "--python", legacy_python("theano090_py36"), "--dry-run", env=env)
    assert "theanorc-device" not in old.out and "theanorc-obsolete" not in old.out, old.out
    new = doctor("fix", "--python", legacy_python("healthy37"), "--dry-run", env=env)
    assert "[global] device = gpu -> cuda" in new.out and "drop [lib] cnmem = 0.8" in new.out
    assert (tmp_path / ".theanorc").read_text() == rc


def test_resolve_from_a_theano09_machine_keeps_its_release(legacy_python: Callable[[str], str],
                                                           tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "THEANO_FLAGS": f"base_compiledir={tmp_path / '.theano'}"}
    run = doctor("resolve", "--from-machine", "--python", legacy_python("theano090_py36"), "--format", "json", env=env)
    doc = json.loads(run.out)
    assert doc["constraints"]["theano"] == "0.9.0" and doc["constraints"]["python"] == "3.6"
    pins = {p["name"]: p["value"] for p in doc["pins"]}
    found = (pins["theano"], pins["numpy"], pins["scipy"], pins["device"])
    assert found == ("Theano==0.9.0", "1.12.1", "0.19.0", "cpu")
