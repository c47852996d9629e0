"""Driver, GPU and toolkit checks, judged on hand-built snapshots, one-fact variations of them,
and facts from the real host probes run against temp-dir trees laid out like CUDA installs."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from theanodoctor import engine
from theanodoctor.engine import Options
from theanodoctor.facts import Facts, envelope
from theanodoctor.host.cuda import probe_cuda
from theanodoctor.host.envvars import probe_env

SNAPSHOTS = Path(__file__).parent / "snapshots"
MINE = ("driver-min-version", "driver-cuda-version", "gpu-arch", "cuda-visible-devices", "gpu-memory",
        "gpu-processes", "cuda-toolkit", "cuda-path-order", "cuda-path-env", "cuda-lib-path")
WIN_CUDA = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA"
LINUX = "linux_gtx1080ti_cuda102_ready"
WINDOWS = "windows_cuda102_ready"


def snapshot(name: str) -> dict[str, Any]:
    return json.loads((SNAPSHOTS / f"{name}.json").read_text())


def outcome(data: dict[str, Any] | Facts, check_id: str, require_gpu: bool = False) -> engine.Outcome:
    """Run one check the way the engine does (a crash becomes a result, and fails the test)."""
    facts = data if isinstance(data, Facts) else Facts.from_dict(data)
    chk = next(c for c in engine.all_checks() if c.id == check_id)
    [result] = engine.run_checks(facts, [chk], Options(require_gpu=require_gpu))
    assert result.status != "crash", result.outcome
    return result.outcome


def statuses(data: dict[str, Any]) -> dict[str, str]:
    return {cid: outcome(data, cid).status for cid in MINE}


def text(out: engine.Outcome) -> str:
    return "\n".join([out.message, out.cause, out.remedy, *out.details])


def values(data: dict[str, Any]) -> dict[str, Any]:
    return data["target"]["stages"]["theano_config"]["values"]


def set_device(data: dict[str, Any], device: str) -> dict[str, Any]:
    values(data)["device"] = {"value": device, "source": "THEANO_FLAGS"}
    return data


# --- the situations the issue names, as snapshot files -------------------------------------------

OK_ALL = dict.fromkeys(MINE, "ok")


@pytest.mark.parametrize("name, expected", [
    (LINUX, OK_ALL),
    (WINDOWS, {**OK_ALL, "cuda-lib-path": "skipped"}),
    ("windows_cuda102_nvrtc_missing", {**OK_ALL, "cuda-lib-path": "skipped"}),
    ("linux_rtx3090_pygpu_missing", {**OK_ALL, "gpu-processes": "warn"}),
    ("windows_rtx3090_cuda102", {**OK_ALL, "gpu-arch": "error", "cuda-lib-path": "skipped"}),
    ("linux_k80_cuda120", {**OK_ALL, "gpu-arch": "error", "driver-min-version": "error",
                           "driver-cuda-version": "error"}),
    ("linux_driver_too_old_cuda102", {**OK_ALL, "driver-min-version": "error", "driver-cuda-version": "error"}),
    ("linux_cuda_visible_devices_hidden", {**OK_ALL, "cuda-visible-devices": "error", "gpu-arch": "skipped",
                                           "gpu-memory": "skipped", "gpu-processes": "skipped"}),
    ("windows_two_cuda_bins_wrong_order", {**OK_ALL, "cuda-path-order": "warn", "cuda-lib-path": "skipped"}),
])
def test_snapshot_statuses(name, expected):
    assert statuses(snapshot(name)) == expected


def test_rtx3090_with_cuda102_on_windows_says_which_cuda_it_needs():
    out = outcome(snapshot("windows_rtx3090_cuda102"), "gpu-arch")
    assert out.message == ("NVIDIA GeForce RTX 3090 (compute capability 8.6, sm_86) needs CUDA >= 11.1; "
                           "the toolkit in use is CUDA 10.2")
    assert "NVRTC" in out.cause and "even without nvcc" in out.cause
    assert "Use CUDA 11.1 or newer" in out.remedy and "dnn.enabled=False" in out.remedy
    assert any("reported by the driver" in d for d in out.details)
    assert any("gpu_arch.yaml" in d or "source:" in d for d in out.details)


def test_k80_with_cuda12_says_at_most_11_8():
    data = snapshot("linux_k80_cuda120")
    out = outcome(data, "gpu-arch")
    assert out.message.startswith("Tesla K80 (compute capability 3.7, sm_37) needs CUDA <= 11.8")
    assert "last CUDA with Kepler sm_37 is 11.8" in out.cause
    assert "Use CUDA 6.5 to CUDA 11.8" in out.remedy and "cuDNN 7" in out.remedy
    driver = outcome(data, "driver-min-version")
    assert "470.182.03 is too old for CUDA 12.0: Linux needs >= 525.60.13" in driver.message


def test_driver_too_old_names_minimum_toolkit_and_source():
    data = snapshot("linux_driver_too_old_cuda102")
    out = outcome(data, "driver-min-version")
    assert out.message == "driver 418.87.01 is too old for CUDA 10.2: Linux needs >= 440.33"
    assert "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html Table 2" in out.cause
    assert "insufficient for CUDA runtime version" in out.cause
    smi = outcome(data, "driver-cuda-version")
    assert "supports CUDA only up to 10.1, but the toolkit in use is CUDA 10.2" in smi.message
    assert "highest CUDA the driver supports, not a toolkit that is installed" in smi.cause


def test_hidden_gpus_are_an_error_with_the_rule():
    out = outcome(snapshot("linux_cuda_visible_devices_hidden"), "cuda-visible-devices")
    assert out.message == "CUDA_VISIBLE_DEVICES='-1' hides every GPU from CUDA: it starts with '-1', which names no GPU"
    assert "stops reading" in out.cause and "nvidia-smi -L" in out.remedy
    assert out.commands == ("nvidia-smi -L",)


def test_wrong_path_order_on_windows():
    data = snapshot("windows_two_cuda_bins_wrong_order")
    out = outcome(data, "cuda-path-order")
    assert out.message.startswith(f"PATH finds {WIN_CUDA}\\v11.8\\bin (CUDA 11.8) before {WIN_CUDA}\\v10.2\\bin "
                                  "(CUDA 10.2), the toolkit in use (Theano's cuda.root")
    assert "Windows looks for each DLL in the PATH folders in order" in out.cause
    assert out.remedy.startswith(f"Move {WIN_CUDA}\\v10.2\\bin before {WIN_CUDA}\\v11.8\\bin")
    # the same machine with the folders the other way round is fine
    path = data["env"]["path"]
    path[3:5], path[5:7] = path[5:7], path[3:5]
    assert outcome(data, "cuda-path-order").status == "ok"


# --- driver-min-version / driver-cuda-version --------------------------------------------------

@pytest.mark.parametrize("name, driver, status", [
    (LINUX, "440.33", "ok"),
    (LINUX, "440.32.99", "error"),
    (WINDOWS, "441.22", "ok"),
    (WINDOWS, "440.33.01", "error"),  # enough on Linux, not on Windows: the minimums differ per OS
])
def test_driver_minimum_per_os(name, driver, status):
    data = snapshot(name)
    data["nvidia"]["driver_version"] = driver
    out = outcome(data, "driver-min-version")
    assert out.status == status
    os_name, minimum = ("Linux", "440.33") if name == LINUX else ("Windows", "441.22")
    assert f"{minimum}" in out.message and os_name in out.message


def _with_toolkit(data: dict[str, Any], version: str, full: str | None = None) -> dict[str, Any]:
    kit = data["cuda"]["toolkits"][0]
    kit["version"], kit["version_full"] = version, full
    return data


@pytest.mark.parametrize("version, driver, status, needles", [
    ("11.8", "535.104.05", "ok", ["535.104.05 >= 450.80.02"]),
    ("11.8", "460.32.03", "warn", ["minor-version compatibility", "520.61.05", "limited feature-set",
                                   "bundled with that installer"]),
    ("11.8", "450.80.01", "error", ["Linux needs >= 450.80.02"]),
    ("11.2", "460.27.03", "ok", ["460.27.03 >= 450.80.02"]),
    ("13.0", "575.57.08", "error", [">= 580", "driver branch"]),
    ("13.0", "580.65.06", "ok", ["driver branch"]),
])
def test_driver_minimum_for_newer_toolkits(version, driver, status, needles):
    data = _with_toolkit(snapshot(LINUX), version)
    data["nvidia"]["driver_version"] = driver
    out = outcome(data, "driver-min-version")
    assert out.status == status
    for needle in needles:
        assert needle in text(out)


@pytest.mark.parametrize("change, reason", [
    (lambda d: d.update(nvidia={"status": "missing", "error": "none", "gpus": []}), "no NVIDIA driver version"),
    (lambda d: d["cuda"].update(toolkits=[]), "no CUDA toolkit was found"),
    (lambda d: _with_toolkit(d, None), "version of the toolkit in use is unknown"),
    (lambda d: _with_toolkit(d, "6.5"), "CUDA 6.5 has no Linux minimum"),
    (lambda d: d["target"]["stages"]["interpreter"].update(system="Darwin"), "Linux and Windows only"),
    (lambda d: set_device(d, "cpu"), "not needed: Theano is configured for device=cpu"),
])
def test_driver_minimum_skips_with_a_reason(change, reason):
    data = snapshot(LINUX)
    change(data)
    out = outcome(data, "driver-min-version")
    assert out.status == "skipped" and reason in out.message


def test_require_gpu_judges_a_cpu_configuration():
    data = set_device(snapshot("linux_driver_too_old_cuda102"), "cpu")
    assert outcome(data, "driver-min-version").status == "skipped"
    assert outcome(data, "driver-min-version", require_gpu=True).status == "error"


@pytest.mark.parametrize("supports, version, status", [
    ("10.2", "10.2", "ok"),
    ("12.2", "10.2", "ok"),
    ("11.4", "11.8", "warn"),
    ("11.4", "12.0", "error"),
    ("10.1", "10.2", "error"),
    (None, "10.2", "skipped"),
])
def test_driver_cuda_version(supports, version, status):
    data = _with_toolkit(snapshot(LINUX), version)
    data["nvidia"]["cuda_driver_version"] = supports
    out = outcome(data, "driver-cuda-version")
    assert out.status == status
    if status != "skipped":
        assert "not a toolkit that is installed" in text(out)  # what nvidia-smi's number means
    if status == "warn":
        assert "minor-version compatibility" in out.message


def test_missing_driver_remedy_comes_from_the_table():
    for name, minimum in ((LINUX, ">= 440.33 on Linux"), (WINDOWS, ">= 441.22 on Windows")):
        data = snapshot(name)
        data["nvidia"] = {"status": "missing", "error": "no NVIDIA driver found", "gpus": []}
        data["target"]["stages"]["pygpu"]["pygpu_activated"] = False  # without a driver no GPU opens
        out = outcome(data, "nvidia-driver")
        assert out.status == "error" and minimum in out.remedy
        assert "docs.nvidia.com/deploy/cuda-compatibility" in out.remedy
    data = snapshot(LINUX)
    data["nvidia"] = {"status": "missing", "error": "no NVIDIA driver found", "gpus": []}
    data["target"]["stages"]["pygpu"]["pygpu_activated"] = False
    data["cuda"]["toolkits"] = []
    assert outcome(data, "nvidia-driver").remedy == "Install the NVIDIA driver for your GPU, or use device=cpu."


# --- gpu-arch ------------------------------------------------------------------------------------

def test_arch_falls_back_to_the_name_table():
    data = snapshot("windows_rtx3090_cuda102")
    data["nvidia"]["gpus"][0]["compute_capability"] = None  # old nvidia-smi
    out = outcome(data, "gpu-arch")
    assert out.status == "error" and "needs CUDA >= 11.1" in out.message
    assert any("from its name (RTX 3090" in d for d in out.details)
    data["nvidia"]["gpus"][0]["name"] = "NVIDIA Mystery Card"
    out = outcome(data, "gpu-arch")
    assert out.status == "skipped" and "not in profiles/gpu_names.yaml" in out.message


def test_arch_unknown_capability_is_a_warning():
    data = snapshot(LINUX)
    data["nvidia"]["gpus"][0]["compute_capability"] = "9.9"
    out = outcome(data, "gpu-arch")
    assert out.status == "warn" and "9.9" in out.message and "cannot tell" in out.message


def _two_gpus(data: dict[str, Any]) -> dict[str, Any]:
    second = copy.deepcopy(data["nvidia"]["gpus"][0])
    second.update(index=1, name="NVIDIA GeForce RTX 3090", compute_capability="8.6",
                  uuid="GPU-9a1f0000-0000-0000-0000-000000000000", memory_free_mb=1000, memory_total_mb=24576,
                  processes=[{"pid": 77, "name": "python", "used_mb": 23000}])
    data["nvidia"]["gpus"].append(second)
    return data


def test_arch_judges_theanos_gpu_and_mentions_the_others():
    data = _two_gpus(snapshot(LINUX))  # GPU 0: GTX 1080 Ti (fine); GPU 1: RTX 3090 (needs 11.1)
    out = outcome(data, "gpu-arch")
    assert out.status == "warn" and "GPU 1 (NVIDIA GeForce RTX 3090)" in out.message
    assert any("CUDA_DEVICE_ORDER=PCI_BUS_ID" in d for d in out.details)  # two GPUs: the numbering is assumed
    set_device(data, "cuda1")
    out = outcome(data, "gpu-arch")
    assert out.status == "error" and "needs CUDA >= 11.1" in out.message
    data["env"]["vars"]["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"
    assert not any("CUDA_DEVICE_ORDER" in d for d in outcome(data, "gpu-arch").details)
    data["env"]["vars"]["CUDA_VISIBLE_DEVICES"] = "1"  # cuda1 no longer exists; cuda0 is the RTX 3090
    assert outcome(data, "gpu-arch").status == "skipped"
    set_device(data, "cuda0")
    assert outcome(data, "gpu-arch").status == "error"


# --- cuda-visible-devices ------------------------------------------------------------------------

@pytest.mark.parametrize("value, device, status, needle", [
    (None, "cuda", "ok", "not set"),
    ("", "cuda", "error", "it is empty"),
    ("-1", "cuda", "error", "starts with '-1'"),
    ("NoDevFiles", "cuda", "error", "starts with 'NoDevFiles'"),
    ("2", "cuda", "error", "starts with '2'"),
    ("GPU-ffff", "cuda", "error", "starts with 'GPU-ffff'"),
    ("GPU-1c2d", "cuda", "ok", "CUDA sees GPU 0 (GeForce GTX 1080 Ti)"),
    ("MIG-GPU-1c2d/1/0", "cuda", "ok", "CUDA sees GPU 0"),
    ("0", "cuda", "ok", "CUDA sees GPU 0"),
    ("0,-1,1", "cuda", "warn", "CUDA ignores '-1', '1'"),
    ("0", "cuda1", "error", "device=cuda1, but only 1 GPU(s) are visible (CUDA_VISIBLE_DEVICES='0')"),
    (None, "cuda3", "error", "device=cuda3, but only 1 GPU(s) are visible (CUDA_VISIBLE_DEVICES is not set)"),
])
def test_cuda_visible_devices(value, device, status, needle):
    data = set_device(snapshot(LINUX), device)
    if value is not None:
        data["env"]["vars"]["CUDA_VISIBLE_DEVICES"] = value
    out = outcome(data, "cuda-visible-devices")
    assert out.status == status
    assert needle in out.message


def test_visible_devices_order_and_redacted_uuids():
    data = _two_gpus(snapshot(LINUX))
    data["env"]["vars"]["CUDA_VISIBLE_DEVICES"] = "1,0"
    out = outcome(data, "cuda-visible-devices")
    assert out.status == "ok" and "GPU 1 (NVIDIA GeForce RTX 3090), GPU 0" in out.message
    # device=cuda now means the RTX 3090, and its memory is what gpu-memory judges
    assert "GPU 1" in outcome(data, "gpu-memory").message
    for gpu in data["nvidia"]["gpus"]:
        gpu["uuid"] = None  # a redacted report
    data["env"]["vars"]["CUDA_VISIBLE_DEVICES"] = "GPU-9a1f"
    out = outcome(data, "cuda-visible-devices")
    assert out.status == "skipped" and "redacted" in out.message


def test_visible_devices_without_facts():
    data = snapshot(LINUX)
    data["env"] = {"status": "error", "error": "boom"}
    assert outcome(data, "cuda-visible-devices").status == "skipped"
    data = snapshot(LINUX)
    data["nvidia"] = {"status": "missing", "error": "none", "gpus": []}
    data["env"]["vars"]["CUDA_VISIBLE_DEVICES"] = "-1"  # hides everything whatever the GPUs are
    assert outcome(data, "cuda-visible-devices").status == "error"
    data["env"]["vars"]["CUDA_VISIBLE_DEVICES"] = "0"  # cannot tell without the GPU list
    assert outcome(data, "cuda-visible-devices").status == "skipped"


# --- gpu-memory ----------------------------------------------------------------------------------

@pytest.mark.parametrize("prealloc, free, status, needle", [
    ("-1", 10900, "ok", "allocation cache is off"),
    ("0", 10900, "ok", "nothing is preallocated"),
    ("0.8", 10900, "ok", "preallocates 8942 MB"),
    ("0.99", 10700, "ok", "preallocates 10619 MB"),  # capped at 0.95 of 11178 MB
    ("0.9", 9000, "error", "asks for 10060 MB at start-up, but only 9000 MB are free"),
    ("2048", 10900, "ok", "preallocates 2048 MB"),
    ("12000", 10900, "error", "asks for 12000 MB"),
    ("lots", 10900, "skipped", "not a number"),
    ("0.5", None, "skipped", "free memory"),
])
def test_gpu_memory(prealloc, free, status, needle):
    data = snapshot(LINUX)
    values(data)["gpuarray.preallocate"] = {"value": prealloc, "source": "file:/home/bob/.theanorc"}
    data["nvidia"]["gpus"][0]["memory_free_mb"] = free
    out = outcome(data, "gpu-memory")
    assert out.status == status
    assert needle in out.message
    if status == "error":
        assert "Lower gpuarray.preallocate in /home/bob/.theanorc" in out.remedy
        assert "Theano rel-1.0.5 theano/gpuarray/__init__.py:89-152" in out.cause


def test_gpu_memory_error_suggests_a_value_that_fits():
    data = snapshot(LINUX)
    values(data)["gpuarray.preallocate"] = {"value": "0.9", "source": "THEANO_FLAGS"}
    data["nvidia"]["gpus"][0].update(memory_free_mb=5589,
                                     processes=[{"pid": 4242, "name": "python", "used_mb": 5000}])
    out = outcome(data, "gpu-memory")
    assert out.status == "error" and "for example 0.45" in out.remedy and "Other processes hold 5000 MB" in out.cause


# --- gpu-processes -------------------------------------------------------------------------------

def test_gpu_processes():
    out = outcome(snapshot("linux_rtx3090_pygpu_missing"), "gpu-processes")
    assert out.status == "warn"
    assert out.message == ("1 other process holds 512 MB on GPU 0 (NVIDIA GeForce RTX 3090): "
                           "pid 2211 /usr/lib/xorg/Xorg: 512 MB")
    data = snapshot(LINUX)
    data["nvidia"]["gpus"][0]["processes"] = [{"pid": 9, "name": "python.exe", "used_mb": None},
                                              {"pid": 10, "name": None, "used_mb": 300}]
    out = outcome(data, "gpu-processes")
    assert out.status == "warn" and "2 other processes hold 300 MB" in out.message
    assert "pid 9 python.exe: ? MB (not reported)" in out.message and "pid 10 (name unknown): 300 MB" in out.message
    del data["nvidia"]["gpus"][0]["processes"]
    assert outcome(data, "gpu-processes").status == "skipped"
    # processes on a GPU Theano does not use do not count
    data = _two_gpus(snapshot(LINUX))
    assert outcome(data, "gpu-processes").status == "ok"
    assert outcome(set_device(data, "cuda1"), "gpu-processes").status == "warn"


# --- cuda-toolkit --------------------------------------------------------------------------------

def test_cuda_toolkit_reports_the_rule():
    out = outcome(snapshot(WINDOWS), "cuda-toolkit")
    assert out.status == "ok"
    assert out.message == (f"the toolkit in use is CUDA 10.2 at {WIN_CUDA}\\v10.2, chosen by Theano's cuda.root, "
                           "from C:\\Users\\alice\\.theanorc.txt")
    assert any("found via CUDA_PATH, CUDA_PATH_V10_2, default-dir, path-bin" in d for d in out.details)


def test_cuda_toolkit_cuda_root_that_is_no_toolkit():
    # a PATH nvcc that is a wrapper script in /usr/local/bin makes Theano's cuda.root /usr/local
    data = snapshot(LINUX)
    values(data)["cuda.root"] = {"value": "/usr/local", "source": "default"}
    data["cuda"]["nvcc_on_path"] = "/usr/local/bin/nvcc"
    data["cuda"]["nvcc_on_path_version"]["toolkit"] = None
    out = outcome(data, "cuda-toolkit")
    assert out.status == "warn"
    assert "Theano's cuda.root=/usr/local" in out.message and "is not one of the toolkits found" in out.message
    assert "the newest toolkit found" in out.message and "dnn.base_path" in out.cause
    assert any("/usr/local/bin/nvcc" in d and "outside every toolkit folder" in d for d in out.details)
    assert outcome(set_device(data, "cpu"), "cuda-toolkit").status == "ok"  # not needed: no warning


def test_cuda_toolkit_missing_and_rejected():
    data = snapshot(LINUX)
    data["cuda"]["toolkits"] = []
    out = outcome(data, "cuda-toolkit")
    assert out.status == "warn" and out.message == "no CUDA toolkit found"
    assert outcome(set_device(data, "cpu"), "cuda-toolkit").status == "ok"
    data = snapshot(WINDOWS)
    gone = f"{WIN_CUDA}\\v9.0"
    values(data)["cuda.root"] = {"value": gone, "source": "default"}
    data["cuda"]["rejected"] = [{"path": gone, "source": "CUDA_ROOT", "why": "does not exist"}]
    out = outcome(data, "cuda-toolkit")
    assert out.status == "warn" and f"cuda.root={gone}" in out.message and "does not exist" in out.message
    assert "chosen by CUDA_PATH" in out.message
    data["cuda"] = {"status": "error", "error": "boom"}
    assert outcome(data, "cuda-toolkit").status == "skipped"


# --- cuda-path-env ---------------------------------------------------------------------------------

def test_cuda_path_env_rejected_variable():
    data = snapshot(WINDOWS)
    data["cuda"]["rejected"] = [{"path": "D:\\CUDA\\v9.0", "source": "CUDA_PATH_V9_0", "why": "does not exist"}]
    out = outcome(data, "cuda-path-env")
    assert out.status == "warn" and out.message == "CUDA_PATH_V9_0=D:\\CUDA\\v9.0 does not exist"


def test_cuda_path_env_disagreements():
    data = snapshot("windows_two_cuda_bins_wrong_order")
    v102, v118 = f"{WIN_CUDA}\\v10.2", f"{WIN_CUDA}\\v11.8"
    data["env"]["vars"]["CUDA_ROOT"] = v102
    out = outcome(data, "cuda-path-env")
    assert out.status == "warn"
    assert "CUDA_ROOT names CUDA 10.2" in out.message and "Theano takes CUDA_ROOT" in out.message
    del data["env"]["vars"]["CUDA_ROOT"]
    data["env"]["path"] = [p for p in data["env"]["path"] if not p.startswith(v118)]
    out = outcome(data, "cuda-path-env")
    assert out.status == "warn"
    assert out.message == (f"CUDA_PATH names CUDA 11.8 at {v118}, but PATH has the bin folder of CUDA 10.2 at {v102} "
                           "instead")
    data["env"]["path"] = [p for p in data["env"]["path"] if not p.startswith(WIN_CUDA)]
    out = outcome(data, "cuda-path-env")
    assert out.status == "warn" and "its bin folder is not on PATH" in out.message


def test_cuda_path_env_windows_needs_a_variable():
    data = snapshot(WINDOWS)
    data["env"]["vars"] = {}
    values(data)["cuda.root"] = {"value": "", "source": "default"}
    out = outcome(data, "cuda-path-env")
    assert out.status == "warn" and "neither CUDA_PATH nor CUDA_ROOT is set" in out.message
    assert "nvcc.exe" in out.message
    values(data)["cuda.root"] = {"value": f"{WIN_CUDA}\\v10.2", "source": "THEANO_FLAGS"}
    assert outcome(data, "cuda-path-env").status == "ok"


def test_cuda_path_env_ok_messages():
    linux = outcome(snapshot(LINUX), "cuda-path-env")
    assert linux.message == "no CUDA_ROOT or CUDA_PATH set; nothing to disagree with PATH"
    assert outcome(snapshot(WINDOWS), "cuda-path-env").message == f"CUDA_PATH={WIN_CUDA}\\v10.2 agrees with PATH"


# --- cuda-lib-path ---------------------------------------------------------------------------------

def _second_linux_kit(data: dict[str, Any], version: str = "11.8") -> dict[str, Any]:
    kit = copy.deepcopy(data["cuda"]["toolkits"][0])
    root = f"/usr/local/cuda-{version}"
    kit.update(root=root, aliases=[], bin_dir=root + "/bin", lib_dir=root + "/lib64", version=version,
               sources=["default-dir"])
    data["cuda"]["toolkits"].append(kit)
    return data


@pytest.mark.parametrize("ld_path, status, needle", [
    (["/usr/local/cuda-10.2/lib64"], "ok", "/usr/local/cuda-10.2/lib64 is on LD_LIBRARY_PATH (entry 1)"),
    (["/opt/x", "/usr/local/cuda/lib64/"], "ok", "(entry 2)"),  # through the symlink, trailing slash
    (["/usr/local/cuda-10.2/targets/x86_64-linux/lib"], "ok", "is on LD_LIBRARY_PATH"),
    ([], "warn", "unless it is listed in ld.so.conf"),
    (["/usr/local/cuda-11.8/lib64", "/usr/local/cuda-10.2/lib64"], "warn",
     "lists /usr/local/cuda-11.8/lib64 (CUDA 11.8 at /usr/local/cuda-11.8) before the toolkit in use"),
    (["/usr/local/cuda-11.8/lib64"], "warn", "would load from CUDA 11.8"),
])
def test_cuda_lib_path(ld_path, status, needle):
    data = _second_linux_kit(snapshot(LINUX))
    data["env"]["ld_library_path"] = ld_path
    out = outcome(data, "cuda-lib-path")
    assert out.status == status
    assert needle in out.message
    if status == "warn":
        assert "libnvrtc.so and libcublas.so" in out.cause and "ldconfig" in out.remedy


def test_cuda_lib_path_is_linux_only():
    out = outcome(snapshot(WINDOWS), "cuda-lib-path")
    assert out.status == "skipped" and out.message.startswith("Linux only")


# --- whether the CUDA path matters at all ----------------------------------------------------------

@pytest.mark.parametrize("device", ["cpu", "opencl0:0"])
def test_cpu_configuration_skips_the_cuda_checks(device):
    data = set_device(snapshot("linux_driver_too_old_cuda102"), device)
    for cid in MINE:
        out = outcome(data, cid)
        if cid == "cuda-toolkit":
            assert out.status == "ok"
        else:
            assert out.status == "skipped" and "not needed" in out.message, cid


def test_missing_sections_skip_never_ok():
    empty = {"schema_version": 1}
    for cid in MINE:
        assert outcome(empty, cid).status == "skipped", cid
        assert outcome(empty, cid, require_gpu=True).status == "skipped", cid


def test_old_gpu_device_name_still_counts_as_wanting_cuda():
    data = set_device(snapshot("linux_driver_too_old_cuda102"), "gpu0")
    assert outcome(data, "driver-min-version").status == "error"


# --- facts from the real host probes on temp trees -----------------------------------------------

FAKE_NVCC = """\
#!/bin/sh
echo "Cuda compilation tools, release {v}, V{v}.0"
"""


def cuda_tree(base: Path, name: str, version: str, os_name: str) -> Path:
    """A CUDA-like folder: bin/nvcc (bin/nvcc.exe on Windows) and version.json."""
    root = base / name
    (root / "bin").mkdir(parents=True)
    nvcc = root / "bin" / ("nvcc.exe" if os_name == "Windows" else "nvcc")
    nvcc.write_text(FAKE_NVCC.format(v=version))
    nvcc.chmod(0o755)
    (root / "version.json").write_text(json.dumps({"cuda": {"name": "CUDA SDK", "version": f"{version}.0"}}))
    (root / ("lib/x64" if os_name == "Windows" else "lib64")).mkdir(parents=True)
    return root


def probed(env: dict[str, str], os_name: str) -> Facts:
    return Facts(
        system=envelope("ok", os=os_name),
        env=probe_env(env, os_name),
        cuda=probe_cuda(env, os_name, roots=[]),
        nvidia=envelope("missing", "no NVIDIA driver (test)", gpus=[]),
    )


@pytest.mark.parametrize("os_name", ["Linux", "Windows"])
def test_path_order_from_the_real_probe(tmp_path, os_name):
    old = cuda_tree(tmp_path, "cuda-10.2", "10.2", os_name)
    new = cuda_tree(tmp_path, "cuda-11.8", "11.8", os_name)
    sep = ";" if os_name == "Windows" else ":"
    env = {"PATH": sep.join([str(new / "bin"), str(old / "bin"), "/usr/bin"]),
           "CUDA_PATH": str(old), "THEANO_FLAGS": "device=cuda,floatX=float32"}
    facts = probed(env, os_name)
    assert [k["version"] for k in facts.cuda["toolkits"]] == ["10.2", "11.8"]
    assert facts.cuda["theano_cuda_root"]["source"] == "CUDA_PATH"
    out = outcome(facts, "cuda-path-order")
    assert out.status == "warn"
    assert out.message == (f"PATH finds {new / 'bin'} (CUDA 11.8) before {old / 'bin'} (CUDA 10.2), the toolkit in "
                           "use (Theano's cuda.root, from CUDA_PATH (Theano's rule applied by the host probe))")
    toolkit = outcome(facts, "cuda-toolkit")
    assert toolkit.status == "ok" and f"CUDA 10.2 at {old}" in toolkit.message
    # right order: fine
    env["PATH"] = sep.join([str(old / "bin"), str(new / "bin")])
    assert outcome(probed(env, os_name), "cuda-path-order").status == "ok"


def test_missing_cuda_root_folder_from_the_real_probe(tmp_path):
    kit = cuda_tree(tmp_path, "cuda-10.2", "10.2", "Linux")
    env = {"PATH": f"{kit / 'bin'}:/usr/bin", "CUDA_ROOT": str(tmp_path / "cuda-9.0"), "THEANO_FLAGS": "device=cuda",
           "LD_LIBRARY_PATH": str(kit / "lib64")}
    facts = probed(env, "Linux")
    assert facts.cuda["rejected"] == [{"path": str(tmp_path / "cuda-9.0"), "source": "CUDA_ROOT",
                                       "why": "does not exist"}]
    out = outcome(facts, "cuda-path-env")
    assert out.status == "warn"
    assert out.message == f"CUDA_ROOT={tmp_path / 'cuda-9.0'} does not exist (Theano takes cuda.root from it)"
    toolkit = outcome(facts, "cuda-toolkit")
    assert toolkit.status == "warn" and "does not exist" in toolkit.message
    assert f"CUDA 10.2 at {kit}, chosen by the newest toolkit found" in toolkit.message
    lib = outcome(facts, "cuda-lib-path")
    assert lib.status == "ok" and str(kit / "lib64") in lib.message
