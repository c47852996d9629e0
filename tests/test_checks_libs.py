"""The library, cuDNN and compiler checks: judged on hand-built snapshots, on one-fact variations
of them, and on facts the real host probes produce from temp-dir trees laid out like Windows and
Linux CUDA installs (probed with os_name="Windows" / "Linux")."""

from __future__ import annotations

import copy
import importlib.util
import json
import logging
import sys
from pathlib import Path
from typing import Any

import pytest

from theanodoctor import engine
from theanodoctor.engine import Options
from theanodoctor.facts import Facts, envelope
from theanodoctor.host.compilers import probe_compilers
from theanodoctor.host.cuda import probe_cuda
from theanodoctor.host.cudnn import probe_cudnn
from theanodoctor.host.envvars import probe_env
from theanodoctor.probe.runner import PROBE_SCRIPT

SNAPSHOTS = Path(__file__).parent / "snapshots"
KIT = r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v10.2"
BIN = KIT + r"\bin"
USER = r"C:\Users\alice\cuda-dll-aliases"
MINE = ("gpuarray-dll-names", "cuda10-dll-aliases", "cudart-dll", "linux-cuda-libs", "cudnn-present",
        "cudnn-version", "cudnn-cuda-match", "cudnn-library", "cudnn-config", "cxx-compiler", "cxx-bitness",
        "cxx-order", "python-headers", "libpython", "nvcc-host-compiler")


def snapshot(name: str) -> dict[str, Any]:
    return json.loads((SNAPSHOTS / f"{name}.json").read_text())


def outcome(data: dict[str, Any], check_id: str, require_gpu: bool = False) -> engine.Outcome:
    facts = Facts.from_dict(data) if isinstance(data, dict) else data
    check = next(c for c in engine.all_checks() if c.id == check_id)
    (res,) = engine.run_checks(facts, [check], Options(require_gpu=require_gpu))
    return res.outcome


def text_of(out: engine.Outcome) -> str:
    return "\n".join([out.message, out.cause, out.remedy, *out.commands, *out.details])


def stages(data: dict[str, Any]) -> dict[str, Any]:
    return data["target"]["stages"]


def config(data: dict[str, Any], key: str, value: str, source: str = "THEANO_FLAGS") -> dict[str, Any]:
    stages(data)["theano_config"]["values"][key] = {"registered": True, "source": source, "value": value}
    return data


def dll_dir(data: dict[str, Any], folder: str) -> dict[str, Any]:
    return next(d for d in stages(data)["interpreter"]["dll_dirs"] if d["dir"] == folder)


# -- registration ------------------------------------------------------------------------------

def test_checks_are_registered_with_areas_and_titles():
    checks = {c.id: c for c in engine.all_checks()}
    areas = {cid: checks[cid].area for cid in MINE}
    assert {cid for cid, area in areas.items() if area == "libraries"} == {
        "gpuarray-dll-names", "cuda10-dll-aliases", "cudart-dll", "linux-cuda-libs"}
    assert {cid for cid, area in areas.items() if area == "cudnn"} == {
        "cudnn-present", "cudnn-version", "cudnn-cuda-match", "cudnn-library", "cudnn-config"}
    assert all(checks[cid].title and "\n" not in checks[cid].title for cid in MINE)


@pytest.mark.parametrize("name", sorted(p.stem for p in SNAPSHOTS.glob("*.json")))
def test_no_snapshot_crashes_these_checks(name):
    for cid in MINE:
        assert outcome(snapshot(name), cid).status != "crash", cid


def test_missing_sections_skip_never_ok():
    for cid in MINE:
        assert outcome({"schema_version": 1}, cid, require_gpu=True).status == "skipped", cid


# -- gpuarray-dll-names --------------------------------------------------------------------------

def test_cuda102_with_cublas10_and_no_alias_is_an_error_naming_the_copies():
    out = outcome(snapshot("windows_cuda102_cublas10_no_alias"), "gpuarray-dll-names")
    assert out.status == "error" and out.fix_id == "cuda-dll-aliases"
    assert 'pygpu fails with `Could not load "nvrtc64_70.dll"`' in out.message
    assert "nvrtc64_102.dll, nvrtc64_91.dll, nvrtc64_90.dll, nvrtc64_80.dll, nvrtc64_75.dll, nvrtc64_70.dll" \
        in out.message
    assert "Missing: nvrtc64_102.dll, cublas64_102.dll." in out.remedy
    assert BIN + r"\nvrtc64_102_0.dll -> nvrtc64_102.dll" in out.remedy
    assert BIN + r"\cublas64_10.dll -> cublas64_102.dll" in out.remedy
    assert "needs administrator rights" in out.remedy and USER.replace(r"C:\Users\alice", "%USERPROFILE%") \
        in out.remedy and "add that folder to PATH" in out.remedy
    assert f'copy "{BIN}\\nvrtc64_102_0.dll" "%USERPROFILE%\\cuda-dll-aliases\\nvrtc64_102.dll"' in out.commands
    assert "driver's CUDA version" in out.cause


def test_aliases_in_a_user_folder_on_path_are_found_there():
    out = outcome(snapshot("windows_cuda102_aliases_user_folder"), "gpuarray-dll-names")
    assert out.status == "ok"
    assert out.message == (rf"NVRTC loads from {USER}\nvrtc64_102.dll; cuBLAS from {USER}\cublas64_102.dll")


def test_nvrtc_found_but_cublas_missing_is_the_missing_blas_error():
    data = snapshot("windows_cuda102_aliases_user_folder")
    stages(data)["pygpu"]["pygpu_activated"] = False
    dll_dir(data, USER)["dlls"].remove("cublas64_102.dll")
    out = outcome(data, "gpuarray-dll-names")
    assert out.status == "error"
    assert rf"NVRTC loads from {USER}\nvrtc64_102.dll" in out.message and "Missing Blas library" in out.message
    assert "Missing: cublas64_102.dll." in out.remedy and "cublas64_10.dll -> cublas64_102.dll" in out.remedy


def test_the_names_follow_the_driver_not_the_toolkit():
    data = snapshot("windows_cuda102_cublas10_no_alias")
    data["nvidia"]["cuda_driver_version"] = "11.4"
    out = outcome(data, "gpuarray-dll-names")
    assert out.status == "error" and "nvrtc64_114.dll" in out.message
    assert "nvrtc64_102_0.dll -> nvrtc64_114.dll" in out.remedy and "cublas64_10.dll -> cublas64_114.dll" in out.remedy


def test_an_older_nvrtc_found_by_the_fallbacks_is_fine():
    data = snapshot("windows_cuda102_cublas10_no_alias")
    dll_dir(data, BIN)["dlls"] += ["nvrtc64_90.dll", "cublas64_90.dll"]
    out = outcome(data, "gpuarray-dll-names")
    assert out.status == "ok"
    assert "CUDA 9.0's NVRTC, after nvrtc64_102.dll was not found" in out.message
    assert rf"cuBLAS from {BIN}\cublas64_90.dll" in out.message


def test_an_old_snapshot_judges_from_the_host_path_and_says_what_it_could_not_see():
    out = outcome(snapshot("windows_cuda102_nvrtc_missing"), "gpuarray-dll-names")
    assert out.status == "error"
    assert any(d.startswith(r"contents not known: C:\Users\alice\Anaconda3\envs\theano37") for d in out.details)
    assert any("the host PATH" in d for d in out.details)


def test_a_target_that_initialised_the_gpu_overrides_what_the_doctor_could_not_see():
    data = snapshot("windows_cuda102_nvrtc_missing")
    stages(data)["pygpu"]["pygpu_activated"] = True
    out = outcome(data, "gpuarray-dll-names")
    assert out.status == "ok" and "pygpu initialised the GPU" in out.message
    assert any("libgpuarray will not find NVRTC" in d for d in out.details)


def test_toolkit_bin_missing_from_path_is_said():
    data = snapshot("windows_cuda102_cublas10_no_alias")
    stages(data)["interpreter"]["dll_dirs"] = [d for d in stages(data)["interpreter"]["dll_dirs"] if d["dir"] != BIN]
    out = outcome(data, "gpuarray-dll-names")
    assert out.status == "error" and f"{BIN} itself is not on PATH either" in out.remedy


@pytest.mark.parametrize("change, reason", [
    (lambda d: d.update(snapshot("linux_gtx1080ti_cuda102_ready")), "Windows only"),
    (lambda d: config(d, "device", "cpu"), "device=cpu"),
    (lambda d: d["nvidia"].update(cuda_driver_version=None), "driver's CUDA version is unknown"),
    (lambda d: d["nvidia"].update(cuda_driver_version="twelve"), "is not a version number"),
])
def test_gpuarray_dll_names_skips_with_a_reason(change, reason):
    data = snapshot("windows_cuda102_cublas10_no_alias")
    change(data)
    out = outcome(data, "gpuarray-dll-names")
    assert out.status == "skipped" and reason in out.message


def test_require_gpu_judges_a_cpu_config_too():
    data = config(snapshot("windows_cuda102_cublas10_no_alias"), "device", "cpu")
    assert outcome(data, "gpuarray-dll-names", require_gpu=True).status == "error"


# -- cuda10-dll-aliases, cudart-dll ----------------------------------------------------------------

def test_guide_aliases_missing_is_a_warning_only():
    out = outcome(snapshot("windows_cuda102_cublas10_no_alias"), "cuda10-dll-aliases")
    assert out.status == "warn"
    assert out.message.startswith("cublas64_100.dll, cudart64_100.dll, cufft64_100.dll, curand64_100.dll, "
                                  "cusolver64_100.dll not on PATH")
    assert "pygpu/libgpuarray does not" in out.cause
    assert BIN + r"\cudart64_102.dll -> cudart64_100.dll" in out.remedy


def test_guide_aliases_present_in_the_user_folder():
    out = outcome(snapshot("windows_cuda102_aliases_user_folder"), "cuda10-dll-aliases")
    assert out.status == "ok" and "cusolver64_100.dll" in out.message
    assert rf"cublas64_100.dll: {USER}\cublas64_100.dll" in out.details


@pytest.mark.parametrize("version, status, needle", [
    ("10.0", "ok", "CUDA 10.0 ships the 10.0 names itself"),
    ("11.8", "skipped", "concern CUDA 10.1/10.2 toolkits"),
    (None, "skipped", "version of the toolkit"),
])
def test_guide_aliases_by_toolkit_version(version, status, needle):
    data = snapshot("windows_cuda102_cublas10_no_alias")
    data["cuda"]["toolkits"][0]["version"] = version
    out = outcome(data, "cuda10-dll-aliases")
    assert out.status == status and needle in out.message


def test_cudart_dll():
    data = snapshot("windows_cuda102_cublas10_no_alias")
    out = outcome(data, "cudart-dll")
    assert out.status == "ok" and out.message == rf"cudart64_102.dll loads from {BIN}\cudart64_102.dll"
    off_path = copy.deepcopy(data)
    stages(off_path)["interpreter"]["dll_dirs"] = [
        d for d in stages(off_path)["interpreter"]["dll_dirs"] if d["dir"] != BIN]
    out = outcome(off_path, "cudart-dll")
    assert out.status == "warn" and "not on PATH" in out.message and f"Add {BIN} to PATH" in out.remedy
    broken = copy.deepcopy(data)
    broken["cuda"]["toolkits"][0]["libraries"].remove("cudart64_102.dll")
    out = outcome(broken, "cudart-dll")
    assert out.status == "warn" and "install looks incomplete" in out.message
    none = copy.deepcopy(data)
    none["cuda"]["toolkits"] = []
    assert outcome(none, "cudart-dll").status == "skipped"


# -- linux-cuda-libs -------------------------------------------------------------------------------

def _linux(activated: bool = False) -> dict[str, Any]:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    stages(data)["pygpu"]["pygpu_activated"] = activated
    return data


def test_linux_libs_resolved_in_the_target():
    out = outcome(_linux(activated=True), "linux-cuda-libs")
    assert out.status == "ok" and "pygpu initialised the GPU" in out.message


def test_linux_libs_from_ld_library_path():
    out = outcome(_linux(), "linux-cuda-libs")
    assert out.status == "ok"
    assert out.message == ("libnvrtc.so: /usr/local/cuda-10.2/lib64/libnvrtc.so (LD_LIBRARY_PATH); "
                           "libcublas.so: /usr/local/cuda-10.2/lib64/libcublas.so (LD_LIBRARY_PATH)")
    assert any(d.startswith("libcuda.so: comes with the driver") and "system folders were not looked at" in d
               for d in out.details)


def test_linux_libs_only_in_lib64_depend_on_ld_so_conf():
    data = _linux()
    data["env"]["ld_library_path"] = []
    out = outcome(data, "linux-cuda-libs")
    assert out.status == "warn"
    assert any("which is not on LD_LIBRARY_PATH" in d and "ld.so.conf" in d for d in out.details)
    assert "export LD_LIBRARY_PATH=/usr/local/cuda-10.2/lib64:$LD_LIBRARY_PATH" in out.remedy


def test_linux_missing_dev_symlink_and_a_confirmed_failure():
    data = _linux()
    data["env"]["ld_library_path"] = []
    data["cuda"]["toolkits"][0]["libraries"].remove("libnvrtc.so")
    out = outcome(data, "linux-cuda-libs")
    assert out.status == "warn"
    assert "ln -s /usr/local/cuda-10.2/lib64/libnvrtc.so.10.2 ~/cuda-links/libnvrtc.so" in out.remedy
    stages(data)["theano_import"]["log"] = [
        "GpuArrayException: b'Could not load \"libnvrtc.so\": libnvrtc.so: cannot open shared object file'"]
    out = outcome(data, "linux-cuda-libs")
    assert out.status == "error" and out.message.startswith("libgpuarray cannot load libnvrtc.so")


def test_linux_libcuda_failure_from_the_log_is_an_error():
    data = _linux()
    stages(data)["theano_import"]["log"] = [
        "GpuArrayException: b'Could not load \"libcuda.so\": libcuda.so: cannot open shared object file'"]
    out = outcome(data, "linux-cuda-libs")
    assert out.status == "error" and "libcuda.so" in out.message


def test_linux_libs_skip_on_windows_and_for_cpu():
    assert outcome(snapshot("windows_cuda102_ready"), "linux-cuda-libs").status == "skipped"
    assert outcome(config(_linux(), "device", "cpu"), "linux-cuda-libs").status == "skipped"


# -- cuDNN -----------------------------------------------------------------------------------------

def test_cudnn765_in_the_toolkit():
    data = snapshot("windows_cudnn765_in_toolkit")
    assert outcome(data, "cudnn-present").status == "ok"
    out = outcome(data, "cudnn-version")
    assert out.status == "warn" and "Your cuDNN version is more recent than Theano." in out.cause
    out = outcome(data, "cudnn-cuda-match")
    assert out.status == "ok" and "a cuDNN 7.6.5 build exists for CUDA 10.2 and it sits in that toolkit" in out.message
    out = outcome(data, "cudnn-library")
    assert out.status == "ok" and out.message.startswith("cudnn64_7.dll at")
    out = outcome(data, "cudnn-config")
    assert out.status == "ok" and out.message.startswith("dnn.enabled=True: Theano uses cuDNN 7.6.5")


def test_cudnn8_headers_are_unusable():
    data = snapshot("linux_cudnn8_headers")
    out = outcome(data, "cudnn-version")
    assert out.status == "error"
    assert out.message == ("cuDNN 8.0.5 (8005) is unusable by Theano: its C code calls cuDNN 7 functions "
                           "cuDNN 8 removed")
    assert "Install cuDNN 7.6.5 for CUDA 10.2" in out.remedy
    out = outcome(data, "cudnn-config")
    assert out.status == "warn" and "dnn.enabled=auto will pick up cuDNN 8.0.5" in out.message
    assert outcome(data, "cudnn-library").status == "ok"
    assert outcome(data, "cudnn-cuda-match").status == "ok"


def test_cudnn8_on_windows_is_not_even_found_by_name():
    data = snapshot("windows_cudnn765_in_toolkit")
    install = data["cudnn"]["installs"][0]
    install.update(version="8.0.5", major=8, minor=0, patch=5, version_number=8005,
                   libraries=["cudnn.lib", "cudnn64_8.dll", "cudnn_ops_infer64_8.dll"])
    out = outcome(data, "cudnn-version")
    assert out.status == "error" and any("cudnn64_7.dll, cudnn64_6.dll, cudnn64_5.dll" in d for d in out.details)
    out = outcome(data, "cudnn-library")
    assert out.status == "error" and "only looks for cudnn64_7.dll" in out.message
    out = outcome(data, "cudnn-config")  # dnn.enabled=True
    assert out.status == "error" and "You enabled cuDNN, but we aren't able to use it" in out.cause


@pytest.mark.parametrize("version, number, status, needle", [
    ("4.0.7", 4007, "error", "cuDNN version is too old. Update to v5* or higher, was 4007."),
    ("5.1.10", 5110, "ok", "cuDNN 5.1.10 (5110)"),
    ("7.1.4", 7104, "ok", "cuDNN 7.1.4 (7104)"),
    ("7.2.1", 7201, "warn", "more recent than Theano"),
])
def test_cudnn_versions(version, number, status, needle):
    data = snapshot("windows_cudnn765_in_toolkit")
    major, minor, patch = (int(p) for p in version.split("."))
    data["cudnn"]["installs"][0].update(version=version, major=major, minor=minor, patch=patch,
                                        version_number=number)
    out = outcome(data, "cudnn-version")
    assert out.status == status and needle in text_of(out)


def test_cudnn_header_without_version_macros():
    data = snapshot("linux_cudnn8_headers")
    data["cudnn"]["installs"][0].update(version=None, major=None, minor=None, patch=None, version_number=None,
                                        header="/usr/local/cuda-10.2/include/cudnn.h")
    out = outcome(data, "cudnn-version")
    assert out.status == "warn" and "defines no CUDNN_MAJOR" in out.message
    assert outcome(data, "cudnn-cuda-match").status == "skipped"
    assert outcome(data, "cudnn-library").status == "skipped"


@pytest.mark.parametrize("kit_version, status, needle", [
    ("8.0", "error", "no cuDNN 7.6.5 build exists for CUDA 8.0"),
    ("10.0", "warn", "a cuDNN 7.6.5 build for CUDA 10.0 is expected but not confirmed"),
    ("10.2", "ok", "a cuDNN 7.6.5 build exists for CUDA 10.2"),
])
def test_cudnn_cuda_match_against_the_builds_table(kit_version, status, needle):
    data = snapshot("windows_cudnn765_in_toolkit")
    data["cuda"]["toolkits"][0]["version"] = kit_version
    out = outcome(data, "cudnn-cuda-match")
    assert out.status == status and needle in out.message


def test_cudnn_cuda_match_without_a_table_row_says_it_cannot_know():
    data = snapshot("windows_cudnn765_in_toolkit")
    data["cudnn"]["installs"][0]["version"] = "7.3.1"
    out = outcome(data, "cudnn-cuda-match")
    assert out.status == "skipped" and "cannot be known" in out.message


def test_cudnn_in_another_toolkit_than_the_one_in_use():
    data = snapshot("windows_cudnn765_in_toolkit")
    other = copy.deepcopy(data["cuda"]["toolkits"][0])
    other.update(root=KIT.replace("v10.2", "v10.1"), version="10.1", bin_dir=BIN.replace("v10.2", "v10.1"))
    data["cuda"]["toolkits"].append(other)
    data["cudnn"]["installs"][0].update(root=other["root"], in_toolkit=other["root"])
    config(data, "dnn.base_path", other["root"])
    out = outcome(data, "cudnn-cuda-match")
    assert out.status == "warn" and "sits in the CUDA 10.1 toolkit, but Theano uses CUDA 10.2" in out.message


@pytest.mark.parametrize("drop, needle", [
    ("cudnn64_7.dll", r"\bin has no cudnn64_7.dll"),
    ("cudnn.lib", r"\lib\x64 has no cudnn.lib"),
])
def test_cudnn_library_on_windows(drop, needle):
    data = snapshot("windows_cudnn765_in_toolkit")
    data["cudnn"]["installs"][0]["libraries"].remove(drop)
    out = outcome(data, "cudnn-library")
    assert out.status == "error" and needle in out.message
    assert outcome(data, "cudnn-config").status == "error"  # dnn.enabled=True


def test_cudnn_library_on_linux_needs_the_unversioned_name_and_a_matching_version():
    data = snapshot("linux_cudnn8_headers")
    install = data["cudnn"]["installs"][0]
    install["library_files"] = [f for f in install["library_files"] if not f.endswith("/libcudnn.so")]
    install["libraries"].remove("libcudnn.so")
    out = outcome(data, "cudnn-library")
    assert out.status == "error" and "not the unversioned libcudnn.so" in out.message
    mixed = snapshot("linux_cudnn8_headers")
    mixed["cudnn"]["installs"][0].update(version="7.6.5", major=7, minor=6, patch=5, version_number=7605)
    mixed["cudnn"]["installs"][0]["libraries"] = ["libcudnn.so", "libcudnn.so.7", "libcudnn.so.7.5.0"]
    out = outcome(mixed, "cudnn-library")
    assert out.status == "error"
    assert "Mixed dnn version. The header is version 7.6.5 while the library is version libcudnn.so.7.5.0." \
        in out.cause


@pytest.mark.parametrize("enabled, status, needle", [
    ("auto", "ok", "conv will not use it"),
    ("False", "ok", "Disabled by dnn.enabled flag"),
    ("True", "error", "You enabled cuDNN, but we aren't able to use it: Theano finds no cuDNN"),
    ("no_check", "error", "no_check assumes a usable cuDNN"),
    ("true", "skipped", "not a value Theano accepts"),
])
def test_cudnn_config_without_cudnn(enabled, status, needle):
    data = config(snapshot("windows_cuda102_aliases_user_folder"), "dnn.enabled", enabled)
    out = outcome(data, "cudnn-config")
    assert out.status == status and needle in text_of(out)


def test_cudnn_present_without_cudnn():
    data = config(snapshot("windows_cuda102_aliases_user_folder"), "dnn.enabled", "auto")
    out = outcome(data, "cudnn-present")
    assert out.status == "warn" and "no cuDNN found" in out.message
    assert "Install cuDNN 7.6.5 for CUDA 10.2" in out.remedy and "administrator rights" in out.remedy
    assert outcome(config(data, "dnn.enabled", "False"), "cudnn-present").status == "ok"
    cuda118 = snapshot("linux_rtx3090_pygpu_missing")
    out = outcome(cuda118, "cudnn-present")
    assert out.status == "warn" and "No cuDNN 5-7 build exists for CUDA 11.8" in out.remedy


def test_cudnn_found_but_not_where_theano_looks():
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["cudnn"]["installs"] = [{
        "root": "/opt/cudnn-7.6.5", "header": "/opt/cudnn-7.6.5/include/cudnn.h", "version": "7.6.5", "major": 7,
        "minor": 6, "patch": 5, "version_number": 7605, "has_cudnn_h": True,
        "libraries": ["libcudnn.so", "libcudnn.so.7"], "library_files": [], "in_toolkit": None}]
    out = outcome(data, "cudnn-present")
    assert out.status == "warn" and "but not where Theano looks" in out.message
    assert "[dnn] base_path = /opt/cudnn-7.6.5" in out.remedy
    assert "cuda.root /usr/local/cuda-10.2 has no include/cudnn.h" in out.cause
    assert outcome(data, "cudnn-version").status == "skipped"
    # pointing dnn.base_path at it makes it the one Theano uses
    data["env"]["vars"]["THEANO_FLAGS"] = "dnn.base_path=/opt/cudnn-7.6.5"
    out = outcome(data, "cudnn-present")
    assert out.status == "ok" and "dnn.base_path = /opt/cudnn-7.6.5 (THEANO_FLAGS)" in out.message


def test_debian_system_cudnn_is_used_with_an_empty_base_path():
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["cudnn"]["installs"] = [{
        "root": "/usr", "header": "/usr/include/cudnn.h", "version": "7.6.5", "major": 7, "minor": 6, "patch": 5,
        "version_number": 7605, "has_cudnn_h": True, "libraries": ["libcudnn.so", "libcudnn.so.7.6.5"],
        "library_files": ["/usr/lib/x86_64-linux-gnu/libcudnn.so", "/usr/lib/x86_64-linux-gnu/libcudnn.so.7.6.5"],
        "in_toolkit": None}]
    out = outcome(data, "cudnn-present")
    assert out.status == "ok" and "compiler's default paths" in out.message
    assert outcome(data, "cudnn-library").status == "ok"


# -- compiler ----------------------------------------------------------------------------------------

def test_32bit_mingw_with_64bit_python():
    data = snapshot("windows_mingw32_python64")
    out = outcome(data, "cxx-bitness")
    assert out.status == "error"
    assert out.message.startswith(r"g++ 6.3.0 at C:\MinGW\bin\g++.exe builds 32-bit code (mingw32)")
    assert "target Python is 64-bit" in out.message
    assert "conda install m2w64-toolchain" in out.remedy and "A 64-bit g++ is already here" in out.remedy
    out = outcome(data, "cxx-order")
    assert out.status == "warn" and r"comes before MinGW's g++ (C:\MinGW\bin)" in out.message


def test_cxx_bitness_variations():
    data = snapshot("windows_cuda102_cublas10_no_alias")
    assert outcome(data, "cxx-bitness").status == "ok"
    stages(data)["interpreter"]["bits"] = 32
    assert outcome(data, "cxx-bitness").status == "warn"
    data["compilers"]["cxx"][0]["bits"] = None
    assert outcome(data, "cxx-bitness").status == "skipped"
    data["compilers"]["status"] = "error"
    assert outcome(data, "cxx-bitness").status == "skipped"


def test_cxx_order_variations():
    data = snapshot("windows_mingw32_python64")
    path = data["env"]["path"]
    path[0], path[1] = path[1], path[0]
    out = outcome(data, "cxx-order")
    assert out.status == "ok" and out.message.startswith("MinGW's g++")
    assert outcome(snapshot("windows_cuda102_ready"), "cxx-order").message == "no cl.exe (MSVC) on PATH"
    assert outcome(snapshot("linux_gtx1080ti_cuda102_ready"), "cxx-order").status == "skipped"


def test_python_headers():
    data = snapshot("linux_cudnn8_headers")
    assert outcome(data, "python-headers").status == "ok"
    stages(data)["interpreter"]["has_python_h"] = False
    out = outcome(data, "python-headers")
    assert out.status == "error" and "`fatal error: Python.h: No such file or directory`" in out.cause
    assert "sudo apt install python3.7-dev" in out.remedy
    assert outcome(snapshot("linux_gtx1080ti_cuda102_ready"), "python-headers").status == "skipped"
    data["target"]["status"] = "timeout"
    assert outcome(data, "python-headers").status == "skipped"


@pytest.mark.parametrize("files, status, needle", [
    (["python3.lib", "python37.lib"], "ok", "python37.lib in"),
    (["libpython37.a"], "ok", "libpython37.a in"),
    (["python3.lib"], "error", "no python37.lib or libpython37.a in"),
    (None, "error", "(the folder does not exist)"),
])
def test_libpython(files, status, needle):
    data = snapshot("windows_cuda102_cublas10_no_alias")
    stages(data)["interpreter"]["python_libs"]["files"] = files
    out = outcome(data, "libpython")
    assert out.status == status and needle in out.message
    if status == "error":
        assert "`-lpython37`" in out.cause and out.commands == ("conda install libpython",)


def test_libpython_skips():
    assert outcome(snapshot("linux_cudnn8_headers"), "libpython").status == "skipped"
    assert "older probe" in outcome(snapshot("windows_cuda102_ready"), "libpython").message


@pytest.mark.parametrize("gcc, cuda, full, status, needle", [
    ("11.4.0", "10.2", "10.2.89", "warn",
     "nvcc refuses it: `#error -- unsupported GNU version! gcc versions later than 8 are not supported!`"),
    ("8.4.0", "10.2", "10.2.89", "ok", "within what CUDA 10.2's nvcc accepts (GCC <= 8)"),
    ("10.3.0", "11.4", "11.4.0", "ok", "GCC 6-10"),
    ("11.1.0", "11.4", "11.4.3", "ok", "GCC 6-11.1"),
    ("11.1.0", "11.4", None, "warn", "newer than CUDA 11.4's nvcc accepts"),
    ("5.4.0", "11.8", "11.8.89", "warn", "older than CUDA 11.8's nvcc accepts (GCC 6-11)"),
    ("12.2.0", "11.8", "11.8.89", "warn", "gcc versions later than 11 are not supported!"),
])
def test_nvcc_host_compiler(gcc, cuda, full, status, needle):
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["compilers"]["cxx"][0]["version"] = gcc
    data["cuda"]["nvcc_on_path_version"].update(version=cuda, version_full=full)
    out = outcome(data, "nvcc-host-compiler")
    assert out.status == status and needle in text_of(out)
    if status == "warn":
        assert "it never runs nvcc" in out.cause and "-ccbin" in out.remedy
    if full is None:
        assert any("depends on the update release" in d for d in out.details)


def test_nvcc_host_compiler_is_an_error_only_for_the_old_nvcc_backend():
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    stages(data)["distributions"]["versions"]["Theano"] = "0.9.0"
    config(data, "device", "gpu0")
    out = outcome(data, "nvcc-host-compiler")
    assert out.status == "error" and "old CUDA back-end" in out.message


def test_nvcc_host_compiler_skips():
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["cuda"]["nvcc_on_path"] = None
    assert "does not use nvcc" in outcome(data, "nvcc-host-compiler").message
    out = outcome(snapshot("windows_two_cuda_bins_wrong_order"), "nvcc-host-compiler")
    assert out.status == "skipped" and "Visual Studio 2017 to 2019" in out.message


# -- real probes on temp trees ---------------------------------------------------------------------

CUDNN7_H = "#define CUDNN_MAJOR 7\n#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 5\n"
CUDNN8_H = '#include "cudnn_version.h"\n'
CUDNN8_VERSION_H = "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 0\n#define CUDNN_PATCHLEVEL 5\n"
PYLIB = f"python{sys.version_info[0]}{sys.version_info[1]}"
FAKE_GXX = '#!/bin/sh\ncase "$1" in\n  -dumpmachine) echo {target};;\n  *) echo {version};;\nesac\n'


def touch(path: Path, text: str = "", executable: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if executable:
        path.chmod(0o755)
    return path


@pytest.fixture
def target_probe():
    """The stdlib probe script loaded as a module, to call its Windows-only helpers."""
    spec = importlib.util.spec_from_file_location("_probe_under_test", PROBE_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    logging.getLogger("theano").removeHandler(module.LOG)


def windows_target(monkeypatch, probe, folders: list[Path], include: Path, device: str = "cuda") -> dict:
    """The target section a Windows probe would send, its Windows-only fields computed for real."""
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("PATH", ":".join(str(f) for f in folders))  # os.pathsep of this machine
    interpreter = {"ok": True, "system": "Windows", "bits": 64, "version": "3.7.16",
                   "include_dir": str(include), "has_python_h": (include / "Python.h").is_file(),
                   "python_libs": probe.python_libs(str(include)), "dll_dirs": probe.windows_dll_dirs()}
    monkeypatch.setattr(sys, "platform", "linux")
    return envelope("ok", stages={
        "interpreter": interpreter,
        "distributions": {"ok": True, "theano_owner": "Theano", "versions": {"Theano": "1.0.5", "pygpu": "0.7.6"}},
        "theano_import": {"ok": True, "log": []},
        "pygpu": {"ok": True, "pygpu_activated": False},
        "theano_config": {"ok": True, "values": {"device": {"value": device, "source": "THEANO_FLAGS"}}},
    })


@pytest.fixture
def windows_machine(tmp_path: Path, monkeypatch, target_probe):
    program_files = tmp_path / "Program Files"
    kit = program_files / "NVIDIA GPU Computing Toolkit" / "CUDA" / "v10.2"
    for dll in ("cublas64_10.dll", "cublasLt64_10.dll", "nvrtc64_102_0.dll", "nvrtc-builtins64_102.dll",
                "cudart64_102.dll", "cufft64_10.dll", "curand64_10.dll", "cusolver64_10.dll", "cusparse64_10.dll",
                "nvcc.exe"):
        touch(kit / "bin" / dll)
    touch(kit / "version.txt", "CUDA Version 10.2.89\n")
    touch(kit / "include" / "cuda.h")
    env_root = tmp_path / "envs" / "theano37"
    touch(env_root / "include" / "Python.h")
    touch(env_root / "libs" / f"{PYLIB}.lib")  # the probe names it after the Python running it
    user = tmp_path / "alice" / "cuda-dll-aliases"
    user.mkdir(parents=True)
    gxx32 = touch(tmp_path / "MinGW" / "bin" / "g++.exe", FAKE_GXX.format(target="mingw32", version="6.3.0"), True)

    def facts(path: list[Path], device: str = "cuda") -> Facts:
        env = {"PATH": ";".join(str(p) for p in path), "CUDA_PATH": str(kit), "ProgramFiles": str(program_files)}
        cuda = probe_cuda(env, os_name="Windows", roots=[])
        return Facts(
            system=envelope("ok", os="Windows"), env=probe_env(env, os_name="Windows"),
            nvidia=envelope("ok", driver_version="441.22", cuda_driver_version="10.2", gpus=[]),
            cuda=cuda, cudnn=probe_cudnn(cuda["toolkits"], env=env, os_name="Windows"),
            compilers=probe_compilers(env, os_name="Windows", python_prefix=str(env_root)),
            target=windows_target(monkeypatch, target_probe, path, env_root / "include", device),
        )

    return facts, kit, user, env_root, gxx32


def test_real_windows_tree_from_missing_names_to_a_user_folder_copy(windows_machine):
    facts, kit, user, _, _ = windows_machine
    out = outcome(facts([kit / "bin", user]), "gpuarray-dll-names")
    assert out.status == "error"
    assert f"{kit / 'bin' / 'nvrtc64_102_0.dll'} -> nvrtc64_102.dll" in out.remedy
    assert f"{kit / 'bin' / 'cublas64_10.dll'} -> cublas64_102.dll" in out.remedy
    assert "administrator rights" in out.remedy  # the tree sits under a "Program Files" folder
    assert outcome(facts([kit / "bin", user]), "cuda10-dll-aliases").status == "warn"
    # what the remedy says, done for real: copies in the user folder on PATH
    for name in ("nvrtc64_102.dll", "cublas64_102.dll"):
        touch(user / name)
    out = outcome(facts([kit / "bin", user]), "gpuarray-dll-names")
    assert out.status == "ok"
    assert out.message == f"NVRTC loads from {user / 'nvrtc64_102.dll'}; cuBLAS from {user / 'cublas64_102.dll'}"
    assert outcome(facts([kit / "bin", user]), "cudart-dll").message == \
        f"cudart64_102.dll loads from {kit / 'bin' / 'cudart64_102.dll'}"
    for name in ("cublas64_100.dll", "cudart64_100.dll", "cufft64_100.dll", "curand64_100.dll",
                 "cusolver64_100.dll"):
        touch(user / name)
    assert outcome(facts([kit / "bin", user]), "cuda10-dll-aliases").status == "ok"


def test_real_windows_tree_cudnn765_then_cudnn8(windows_machine):
    facts, kit, user, _, _ = windows_machine
    touch(kit / "include" / "cudnn.h", CUDNN7_H)
    touch(kit / "bin" / "cudnn64_7.dll")
    touch(kit / "lib" / "x64" / "cudnn.lib")
    judged = facts([kit / "bin", user])
    assert outcome(judged, "cudnn-present").status == "ok"
    assert outcome(judged, "cudnn-version").status == "warn"
    assert outcome(judged, "cudnn-cuda-match").status == "ok"
    assert outcome(judged, "cudnn-library").status == "ok"
    assert outcome(judged, "cudnn-config").status == "ok"
    # cuDNN 8 copied over it: header moved to cudnn_version.h, DLL renamed
    touch(kit / "include" / "cudnn.h", CUDNN8_H)
    touch(kit / "include" / "cudnn_version.h", CUDNN8_VERSION_H)
    (kit / "bin" / "cudnn64_7.dll").rename(kit / "bin" / "cudnn64_8.dll")
    judged = facts([kit / "bin", user])
    assert outcome(judged, "cudnn-version").status == "error"
    assert outcome(judged, "cudnn-library").status == "error"
    assert outcome(judged, "cudnn-config").status == "warn"  # auto


def test_real_windows_compilers_32bit_mingw_shadows_conda_mingw(windows_machine):
    facts, kit, _, env_root, gxx32 = windows_machine
    touch(env_root / "Library" / "mingw-w64" / "bin" / "g++.exe",
          FAKE_GXX.format(target="x86_64-w64-mingw32", version="5.3.0"), True)
    out = outcome(facts([gxx32.parent, kit / "bin"], device="cpu"), "cxx-bitness")
    assert out.status == "error" and f"{gxx32} builds 32-bit code (mingw32)" in out.message
    assert "A 64-bit g++ is already here" in out.remedy
    # off PATH, Theano falls back to conda's 64-bit MinGW
    out = outcome(facts([kit / "bin"], device="cpu"), "cxx-bitness")
    assert out.status == "ok" and "x86_64-w64-mingw32" in out.message
    judged = facts([kit / "bin"], device="cpu")
    assert outcome(judged, "python-headers").status == "ok"
    assert outcome(judged, "libpython").message == f"{PYLIB}.lib in {env_root / 'libs'}"
    (env_root / "libs" / f"{PYLIB}.lib").unlink()
    assert outcome(facts([kit / "bin"], device="cpu"), "libpython").status == "error"


def test_probe_fields_are_none_off_windows(target_probe):
    assert target_probe.python_libs("/usr/include/python3.7m") is None
    assert target_probe.windows_dll_dirs() is None


def test_probe_lists_unreadable_path_folders_as_unknown(tmp_path, monkeypatch, target_probe):
    touch(tmp_path / "a" / "NVRTC64_102.DLL")
    touch(tmp_path / "a" / "zlib.dll")
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("PATH", f"{tmp_path / 'a'}:{tmp_path / 'gone'}:")
    found = target_probe.windows_dll_dirs()
    assert found == [{"dir": str(tmp_path / "a"), "dlls": ["NVRTC64_102.DLL"]},
                     {"dir": str(tmp_path / "gone"), "dlls": None}]


@pytest.fixture
def linux_machine(tmp_path: Path):
    kit = tmp_path / "cuda-10.2"
    touch(kit / "version.json", json.dumps({"cuda": {"version": "10.2.89"}}))
    touch(kit / "include" / "cuda.h")
    for lib in ("libcudart.so.10.2", "libnvrtc.so.10.2", "libcublas.so.10"):
        touch(kit / "lib64" / lib)

    def facts(ld_path: list[Path], activated: bool = False) -> Facts:
        env = {"PATH": "/usr/bin", "LD_LIBRARY_PATH": ":".join(str(p) for p in ld_path), "CUDA_ROOT": str(kit)}
        cuda = probe_cuda(env, os_name="Linux", roots=[str(kit)])
        target = envelope("ok", stages={
            "interpreter": {"ok": True, "system": "Linux", "bits": 64},
            "pygpu": {"ok": True, "pygpu_activated": activated},
            "theano_config": {"ok": True, "values": {"device": {"value": "cuda", "source": "THEANO_FLAGS"}}},
        })
        return Facts(system=envelope("ok", os="Linux"), env=probe_env(env, os_name="Linux"), cuda=cuda,
                     cudnn=probe_cudnn(cuda["toolkits"], env=env, os_name="Linux", system_roots=[]), target=target)

    return facts, kit


def test_real_linux_tree_dev_symlinks(linux_machine):
    facts, kit = linux_machine
    out = outcome(facts([kit / "lib64"]), "linux-cuda-libs")
    assert out.status == "warn"
    assert f"ln -s {kit / 'lib64' / 'libnvrtc.so.10.2'} ~/cuda-links/libnvrtc.so" in out.remedy
    assert f"ln -s {kit / 'lib64' / 'libcublas.so.10'} ~/cuda-links/libcublas.so" in out.remedy
    for name, target in (("libnvrtc.so", "libnvrtc.so.10.2"), ("libcublas.so", "libcublas.so.10")):
        (kit / "lib64" / name).symlink_to(target)
    out = outcome(facts([kit / "lib64"]), "linux-cuda-libs")
    assert out.status == "ok" and f"libnvrtc.so: {kit / 'lib64' / 'libnvrtc.so'} (LD_LIBRARY_PATH)" in out.message
    assert outcome(facts([]), "linux-cuda-libs").status == "warn"


def test_real_linux_tree_cudnn8_in_the_toolkit(linux_machine):
    facts, kit = linux_machine
    touch(kit / "include" / "cudnn.h", CUDNN8_H)
    touch(kit / "include" / "cudnn_version.h", CUDNN8_VERSION_H)
    for lib in ("libcudnn.so.8.0.5", "libcudnn.so.8", "libcudnn.so"):
        touch(kit / "lib64" / lib)
    judged = facts([kit / "lib64"])
    out = outcome(judged, "cudnn-present")  # Theano's dnn.base_path: cuda.root (CUDA_ROOT) with include/cudnn.h
    assert out.status == "ok" and f"dnn.base_path defaults to cuda.root {kit}" in out.message
    out = outcome(judged, "cudnn-version")
    assert out.status == "error" and "cuDNN 8.0.5 (8005) is unusable by Theano" in out.message
    assert outcome(judged, "cudnn-library").status == "ok"
    assert outcome(judged, "cudnn-config").status == "warn"
