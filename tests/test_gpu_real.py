"""The GPU path judged against the real libgpuarray 0.7.6 and pygpu 0.7.6, on Python 2.7 and 3.7.

The environments hold Debian 12's libgpuarray + pygpu (tests/pygpu_build.py) under real Theano
1.0.5. Only the NVIDIA driver libraries are test doubles (tests/driver_standins.py): they let the
real loader and init code of libgpuarray run and fail the way it does on a user's machine. For
each case the test captures what `import theano` really prints, and asserts that `check` gives the
right verdict, cause and remedy, and that `explain` on the captured output names the same cause.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Callable, NamedTuple

import pytest

from tests import legacy_envs
from tests.cli_helpers import doctor, result
from tests.driver_standins import driver_folder
from tests.explain_tables import traceback_of
from tests.pygpu_build import unpacked_debs
from tests.test_checks import judge, snapshot
from tests.test_checks import result as judged
from theanodoctor.explain import explain_text

PYTHONS = ("gpu37", "gpu27")


class Case(NamedTuple):
    flags: str
    layout: dict[str, str] | None  # stand-in file names in the driver folder; None (ALL): all three
    env: dict[str, str]            # what the stand-in driver reports (STANDIN_CUDA_*)
    cause: str | None              # the known failure theano-device and explain name
    device: str                    # theano-device status
    libs: str                      # linux-cuda-libs status
    libs_detail: str               # text one of its details contains


ALL = None  # marker: the three stand-ins under their unversioned names
CASES = {
    "no-driver": Case("device=cuda", {}, {}, "libcuda-missing", "error", "error",
                      'libcuda.so: the target failed with `Could not load "libcuda.so"`'),
    "libcuda-so1-only": Case("device=cuda", {"libcuda.so.1": "libcuda.so", "libnvrtc.so": "libnvrtc.so",
                                             "libcublas.so": "libcublas.so"}, {},
                             "libcuda-missing", "error", "error",
                             "libcuda.so.1 is there but not the unversioned libcuda.so"),
    "zero-devices": Case("device=cuda", ALL, {"STANDIN_CUDA_DEVICES": "0"}, "no-cuda-device-opened", "error", "ok",
                         "libcuda.so: loaded by the target from"),
    "bad-ordinal": Case("device=cuda3", ALL, {"STANDIN_CUDA_DEVICES": "2"}, "cuda-bad-ordinal", "error", "ok",
                        "libnvrtc.so: loaded by the target from"),
    "no-nvrtc": Case("device=cuda", {"libcuda.so": "libcuda.so", "libcublas.so": "libcublas.so"}, {},
                     "cuda-lib-not-found-linux", "error", "error",
                     'libnvrtc.so: in none of the LD_LIBRARY_PATH folders'),
    "no-cublas": Case("device=cuda", {"libcuda.so": "libcuda.so", "libnvrtc.so": "libnvrtc.so"}, {},
                      "cublas-dll-name", "error", "error",
                      "the target failed for lack of it (`Missing Blas library`)"),
    "gpu-too-old-device-cuda": Case("device=cuda", ALL, {"STANDIN_CUDA_CC": "2.0"}, "no-cuda-device-opened",
                                    "error", "ok", "libcuda.so: loaded by the target from"),
    "gpu-too-old-device-cuda0": Case("device=cuda0", ALL, {"STANDIN_CUDA_CC": "2.0"}, "gpu-too-old",
                                     "error", "ok", "libcuda.so: loaded by the target from"),
    "driver-version-fails": Case("device=cuda", ALL, {"STANDIN_CUDA_VERSION_ERROR": "999"},
                                 "cuda-driver-version-failed", "error", "ok", "libcuda.so: loaded by the target from"),
    "no-unified-addressing": Case("device=cuda0", ALL, {"STANDIN_CUDA_NO_UVA": "1"}, "cuda-no-unified-addressing",
                                  "error", "ok", "libnvrtc.so: loaded by the target from"),
    "stub-libcuda": Case("device=cuda", ALL, {"STANDIN_CUDA_INIT_ERROR": "34"}, "cuda-stub-library", "error", "ok",
                         "libcuda.so: loaded by the target from"),
}
# The driver's CUDA version changes nothing on Linux: the same three names, 9.0 to 12.x.
DRIVER_VERSIONS = ("9000", "9020", "10020", "11020", "12040")


def _env(case: Case, standins: Path, tmp_path: Path) -> dict[str, str]:
    folder = driver_folder(standins, tmp_path / "driver", case.layout)
    return {"LD_LIBRARY_PATH": str(folder), "THEANO_FLAGS": case.flags, **case.env}


def _captured(python: str, env: dict[str, str], tmp_path: Path, code: str = "import theano") -> Path:
    """What a user sees running `python -c CODE` in that environment, saved as a log file."""
    proc = subprocess.run([python, "-c", code], capture_output=True, env={**os.environ, **env}, timeout=300)
    log = tmp_path / "captured.log"
    log.write_bytes(proc.stdout + proc.stderr)
    return log


def _explained(log: Path) -> list[str]:
    run = doctor("explain", str(log), "--format", "json")
    doc = json.loads(run.out)["explain"]
    return [f["cause"] for f in doc["findings"] if f["confidence"] == "high" and not f.get("consequence_of")]


def _check(python: str, env: dict[str, str]) -> dict[str, Any]:
    run = doctor("check", "--python", python, "--format", "json", env=env)
    assert "Traceback" not in run.err, run.err
    doc: dict[str, Any] = json.loads(run.out)
    assert doc["exit_code"] == run.code
    return doc


def _known(outcome: dict[str, Any]) -> str | None:
    found = [d for d in outcome["details"] if d.startswith("known failure: ")]
    return found[0].split()[2] if found else None


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("env_name", PYTHONS)
def test_init_failures_of_the_real_library(env_name: str, name: str, legacy_python: Callable[[str], str],
                                           standins: Path, theano_home: Path, tmp_path: Path) -> None:
    case = CASES[name]
    python = legacy_python(env_name)
    env = _env(case, standins, tmp_path)
    doc = _check(python, env)
    device = result(doc, "theano-device")
    assert device["status"] == case.device, device
    assert _known(device) == case.cause, device
    assert "silently runs everything on the CPU" in device["message"]
    assert "pygpu is not on PyPI" not in device["remedy"]  # pygpu itself is fine in every case
    assert device["fix_id"] in (None, "cuda-soname-links")  # never the Windows DLL repair on Linux
    # The exception libgpuarray raised is quoted, not only Theano's ERROR line.
    assert any("GpuArrayException" in d for d in device["details"]), device["details"]
    libs = result(doc, "linux-cuda-libs")
    assert libs["status"] == case.libs and any(case.libs_detail in d for d in libs["details"]), libs
    path = result(doc, "gpu-path")
    assert path["message"].startswith("CPU only: pygpu 0.7.6 could not initialize the GPU"), path
    assert doc["exit_code"] == 1
    # `explain` on what the user saw names the same cause first.
    assert _explained(_captured(python, env, tmp_path))[0] == case.cause


def test_the_missing_link_fix_lets_the_real_library_load_libcuda(legacy_python: Callable[[str], str], standins: Path,
                                                                  theano_home: Path, tmp_path: Path) -> None:
    case = CASES["libcuda-so1-only"]
    python = legacy_python("gpu37")
    env = _env(case, standins, tmp_path)
    before = result(_check(python, env), "linux-cuda-libs")
    assert before["fix_id"] == "cuda-soname-links" and "ln -s" in before["remedy"]
    fixed = doctor("fix", "--python", python, "--only", "cuda-soname-links", "--yes", env=env)
    # The link is made, but this shell's LD_LIBRARY_PATH does not hold its folder yet: still broken
    # (exit 1), and the run says what is left to do instead of calling its own repair missing.
    assert fixed.code == 1, fixed.out + fixed.err
    assert "linux-cuda-libs: libgpuarray cannot load libcuda.so (its repair ran; it takes effect once the " \
           "environment changes printed above are made" in fixed.out
    assert "not in this plan" not in fixed.out
    link = theano_home / "cuda-links" / "libcuda.so"
    assert link.is_symlink() and os.readlink(link) == str(tmp_path / "driver" / "libcuda.so.1")
    env["LD_LIBRARY_PATH"] = f"{link.parent}:{env['LD_LIBRARY_PATH']}"
    after = _check(python, env)
    assert result(after, "theano-device")["status"] == "ok"
    assert result(after, "linux-cuda-libs")["status"] == "ok"
    loaded = after["facts"]["target"]["stages"]["pygpu"]["gpu_libraries_loaded"]["libcuda.so"]
    assert loaded == [str(tmp_path / "driver" / "libcuda.so.1")]  # found through the link
    link.unlink()


@pytest.mark.parametrize("version", DRIVER_VERSIONS)
@pytest.mark.parametrize("env_name", PYTHONS)
def test_a_working_driver_of_each_version(env_name: str, version: str, legacy_python: Callable[[str], str],
                                          standins: Path, theano_home: Path, tmp_path: Path) -> None:
    env = _env(Case("device=cuda", ALL, {"STANDIN_CUDA_DRIVER_VERSION": version,
                                         "STANDIN_CUDA_DEVICE_NAME": "Stand-in GPU"}, None, "ok", "ok", ""),
               standins, tmp_path)
    doc = _check(legacy_python(env_name), env)
    assert result(doc, "theano-device")["status"] == "ok"
    path = result(doc, "gpu-path")
    assert path["message"].startswith("device=cuda with pygpu 0.7.6 on Stand-in GPU"), path
    assert "NVML and nvidia-smi did not list it" in path["message"]
    assert result(doc, "nvidia-driver")["status"] == "warn"  # no NVML here, but the driver works
    libs = result(doc, "linux-cuda-libs")
    assert libs["status"] == "ok"
    loaded = doc["facts"]["target"]["stages"]["pygpu"]["gpu_libraries_loaded"]
    folder = tmp_path / "driver"
    # Whatever the driver's version, the unversioned names are what it loaded.
    assert {k: v for k, v in loaded.items() if v} == {n: [str(folder / n)] for n in
                                                       ("libcuda.so", "libnvrtc.so", "libcublas.so")}


@pytest.mark.parametrize("env_name", PYTHONS)
def test_a_primary_context_opened_first_with_other_flags(env_name: str, legacy_python: Callable[[str], str],
                                                         standins: Path, theano_home: Path, tmp_path: Path) -> None:
    """The stand-in driver says the primary context is already active (flags 0, as another CUDA
    library leaves it); with gpuarray.sched=multi the real libgpuarray refuses to share it."""
    python = legacy_python(env_name)
    env = _env(Case("device=cuda0,gpuarray.sched=multi", ALL, {"STANDIN_CUDA_PRIMARY_ACTIVE": "1"},
                    None, "", "", ""), standins, tmp_path)
    log = _captured(python, env, tmp_path)
    assert "device is already active and has unsupported flags" in log.read_text(errors="replace")
    assert _explained(log)[0] == "gpu-context-flags-clash"
    device = result(_check(python, env), "theano-device")
    assert device["status"] == "error" and _known(device) == "gpu-context-flags-clash", device
    # the default scheduling asks for no flags: the same driver state is fine
    env["THEANO_FLAGS"] = "device=cuda0"
    assert result(_check(python, env), "theano-device")["status"] == "ok"


@pytest.mark.parametrize("env_name", PYTHONS)
def test_an_unusable_kernel_cache_folder_is_only_a_warning(env_name: str, legacy_python: Callable[[str], str],
                                                           standins: Path, theano_home: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    env = _env(Case(f"device=cuda,gpuarray.cache_path={blocker}", ALL, {}, None, "", "", ""), standins, tmp_path)
    python = legacy_python(env_name)
    log = _captured(python, env, tmp_path, "import theano; print('imported on ' + theano.config.device)")
    text = log.read_text(errors="replace")
    # libgpuarray v0.7.6 src/cache/disk.c:456 through src/gpuarray_buffer_cuda.c:319; the GPU still opens
    assert "Error initializing disk cache, disabling: Cache path exists but is not a directory" in text
    assert "imported on cuda" in text and "Mapped name None to device cuda" in text
    # beside it, the real start-up also says this environment has no cuDNN (cudnn.h)
    findings = {f["cause"]: f for f in json.loads(doctor("explain", str(log), "--format", "json").out)
                ["explain"]["findings"]}
    cache = findings["gpuarray-kernel-cache-unusable"]
    assert cache["confidence"] == "high" and cache["warning"] is True
    assert "Cache path exists but is not a directory" in cache["evidence"][0]["note"]


@pytest.fixture(scope="session")
def opencl_loader(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with `libOpenCL.so`, the real ICD loader (Debian's ocl-icd-libopencl1)."""
    tree = unpacked_debs(legacy_envs.cache_root())
    real = tree / "usr" / "lib" / "x86_64-linux-gnu" / "libOpenCL.so.1"
    assert real.exists(), real
    folder = tmp_path_factory.mktemp("opencl")
    (folder / "libOpenCL.so").symlink_to(real)
    return folder


@pytest.mark.parametrize("with_loader", [False, True], ids=["no-libOpenCL", "no-ICD"])
@pytest.mark.parametrize("env_name", PYTHONS)
def test_opencl_device(env_name: str, with_loader: bool, opencl_loader: Path, legacy_python: Callable[[str], str],
                       theano_home: Path, tmp_path: Path) -> None:
    vendors = tmp_path / "vendors"  # no ICD registered: the loader reads only this (empty) folder
    vendors.mkdir()
    env = {"THEANO_FLAGS": "device=opencl0:0", "OCL_ICD_VENDORS": str(vendors),
           "LD_LIBRARY_PATH": str(opencl_loader if with_loader else tmp_path)}
    python = legacy_python(env_name)
    doc = _check(python, env)
    device = result(doc, "theano-device")
    cause = "opencl-no-platform" if with_loader else "opencl-library-missing"
    assert device["status"] == "error" and _known(device) == cause, device
    assert device["message"].startswith("device=opencl0:0 (from THEANO_FLAGS), but pygpu 0.7.6 could not")
    assert "cuda" not in device["message"] + device["cause"].lower().replace("device=cuda", "")
    assert result(doc, "nvidia-driver")["status"] == "ok"  # the NVIDIA driver is not needed for OpenCL
    assert result(doc, "linux-cuda-libs")["status"] == "skipped"
    assert _explained(_captured(python, env, tmp_path))[0] == cause


@pytest.mark.parametrize("env_name", ["gpu37_nomako", "gpu27_nomako"])
def test_pygpu_without_mako(env_name: str, legacy_python: Callable[[str], str], standins: Path,
                            theano_home: Path, tmp_path: Path) -> None:
    python = legacy_python(env_name)
    env = _env(Case("device=cuda", ALL, {}, None, "", "", ""), standins, tmp_path)
    doc = _check(python, env)
    device = result(doc, "theano-device")
    assert device["status"] == "error" and _known(device) == "pygpu-dependency-missing", device
    assert "pygpu is installed but does not import" in device["message"] and "mako" in device["message"]
    assert "pip install Mako" in device["remedy"]
    version = result(doc, "pygpu-version")
    assert "pygpu imports mako" in version["cause"] and "libgpuarray" not in version["cause"]
    assert "pip install Mako" in version["remedy"]
    assert _explained(_captured(python, env, tmp_path, "import pygpu"))[0] == "pygpu-dependency-missing"


@pytest.mark.parametrize("env_name", PYTHONS)
def test_smoke_test_fails_on_a_gpu_that_computes_nothing(env_name: str, legacy_python: Callable[[str], str],
                                                         standins: Path, theano_home: Path, tmp_path: Path) -> None:
    """The stand-in runs every kernel and computes nothing: every stage runs on the GPU, and the
    comparison with numpy must fail it."""
    env = _env(Case("device=cuda", ALL, {}, None, "", "", ""), standins, tmp_path)
    run = doctor("smoke-test", "--python", legacy_python(env_name), "--size", "64", "--repeats", "1",
                 "--format", "json", env=env, timeout=900)
    smoke = json.loads(run.out)["smoke"]
    assert run.code == 1 and smoke["verdict"].startswith("Failed"), run.out
    for stage in smoke["stages"]:
        assert stage["ran_on"] == "gpu" and not stage["passed"], stage
    matmul = next(s for s in smoke["stages"] if s["name"] == "matmul")
    assert "differs from numpy" in matmul["error"]


# --------------------------------------------------------------------------- settings that pick the back-end


@pytest.mark.parametrize("layout", [ALL, {}], ids=["driver", "no-driver"])
def test_contexts_use_the_gpu_back_end_without_device(layout: dict[str, str] | None,
                                                      legacy_python: Callable[[str], str], standins: Path,
                                                      theano_home: Path, tmp_path: Path) -> None:
    env = _env(Case("contexts=dev0->cuda0", layout, {}, None, "", "", ""), standins, tmp_path)
    doc = _check(legacy_python("gpu37"), env)
    device = result(doc, "theano-device")
    assert device["message"].startswith("contexts=dev0->cuda0 (from THEANO_FLAGS)"), device
    if layout is ALL:
        assert device["status"] == "ok" and "Theano opens that GPU at import" in device["message"]
        assert result(doc, "gpu-path")["message"].startswith("contexts=dev0->cuda0 with pygpu 0.7.6 on Stand-in GPU")
    else:
        assert device["status"] == "error" and _known(device) == "libcuda-missing"
        assert result(doc, "linux-cuda-libs")["status"] == "error"  # judged although device=cpu


def test_a_device_theano_rejects_is_an_error(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    doc = _check(legacy_python("gpu37"), {"THEANO_FLAGS": "device=cpu0"})
    assert result(doc, "theano-import")["status"] == "error"
    device = result(doc, "theano-device")
    assert device["status"] == "error" and "is not a device Theano knows" in device["message"]
    assert 'Invalid value ("cpu0") for configuration variable "device"' in device["cause"]
    # The cause quoted is what this Theano really says.
    assert 'Invalid value ("cpu0") for configuration variable "device"' in " ".join(
        result(doc, "theano-import")["details"] + [result(doc, "theano-import")["message"]])


@pytest.mark.parametrize("device", ["opencl0", "gpu0"])
def test_a_device_name_pygpu_refuses(device: str, legacy_python: Callable[[str], str], theano_home: Path,
                                     tmp_path: Path) -> None:
    log = traceback_of(legacy_python("gpu37"), f"import pygpu\npygpu.init('{device}')", tmp_path)
    assert "OpenCL name incorrect" in log or "Unknown device format" in log
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised][:1] == [("device-name-invalid", "high")]
    # the message quoted in a post's sentence is not this run's refusal
    told = "A malformed name still returns `" + log.strip().splitlines()[-1] + "`, but opencl0:0 fails too.\n"
    assert "device-name-invalid" not in {f.cause for f in explain_text(told).recognised}


@pytest.mark.parametrize("status, reason", [
    ("skipped", "no target Python was probed (see target-probe)"),
    ("timeout", "the target probe did not finish (see target-probe)"),
])
def test_gpu_path_without_a_target(status: str, reason: str) -> None:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["target"] = {"status": status, "error": "test", "stages": {}}
    outcome = judged(judge(data), "gpu-path").outcome
    assert outcome.message == f"CPU only: {reason}"


@pytest.mark.parametrize("env_name", PYTHONS)
def test_a_kernel_the_driver_cannot_load(env_name: str, legacy_python: Callable[[str], str], standins: Path,
                                         theano_home: Path, tmp_path: Path) -> None:
    """The stand-in driver refuses every module with 209, as a driver does whose PTX JIT library is
    missing or that has no image for the GPU: from the log alone either may be the cause."""
    env = _env(Case("device=cuda0", ALL, {"STANDIN_CUDA_MODULE_ERROR": "209"}, None, "", "", ""), standins, tmp_path)
    log = _captured(legacy_python(env_name), env, tmp_path)
    assert "cuModuleLoadData: CUDA_ERROR_NO_BINARY_FOR_GPU: no kernel image is available" in log.read_text()
    findings = {f["cause"]: f["confidence"] for f in
                json.loads(doctor("explain", str(log), "--format", "json").out)["explain"]["findings"]}
    assert findings["gpu-arch-unsupported"] == findings["ptx-jit-compiler-missing"] == "low", findings
