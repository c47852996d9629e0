"""The NVIDIA driver and GPUs: NVML first (in a thread, with a timeout), else nvidia-smi.

``cuda_driver_version`` is the highest CUDA the *driver* supports (what libgpuarray derives DLL
names from), not the installed toolkit.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import time
from typing import Any, Callable

from theanodoctor import proc
from theanodoctor.facts import Json, envelope
from theanodoctor.host.common import call_with_timeout, describe, first_line
from theanodoctor.host.system import WSL_LIB

# NVML's ways of saying "there is no (loaded) driver here".
_NO_DRIVER = {"NVMLError_LibraryNotFound", "NVMLError_DriverNotLoaded", "NVMLError_NotFound"}
_GPU_FIELDS = ("index", "name", "uuid", "pci.bus_id", "driver_version", "memory.total",
               "memory.free", "memory.used", "compute_cap")
_CUDA_LINE = re.compile(r"CUDA Version\s*:\s*([0-9]+(?:\.[0-9]+)?)")


# On Linux a loaded NVIDIA kernel driver shows /proc/driver/nvidia (containers see the host's);
# WSL2 has no such folder but exposes the GPU as /dev/dxg. Without either, NVML cannot answer,
# and loading pynvml (~60 ms of CPU) would only slow the target probe running beside us.
_LINUX_DRIVER_MARKS = ("/proc/driver/nvidia", "/dev/dxg")


def _default_nvml() -> Any:
    if os.name == "posix" and os.uname().sysname == "Linux" and not any(
            os.path.exists(mark) for mark in _LINUX_DRIVER_MARKS):
        raise ImportError("NVIDIA kernel driver not loaded (no /proc/driver/nvidia)")
    import pynvml  # lazily: only the driver probe needs it

    return pynvml


def _text(value: Any) -> str:
    # nvidia-ml-py < 11.515 returns bytes, later versions str.
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _maybe(fn: Callable[..., Any], *args: Any) -> Any:
    # One unsupported query (old GPU, WDDM) must not lose the rest of the device.
    try:
        return fn(*args)
    except Exception:
        return None


def cuda_version_from_int(value: int | None) -> str | None:
    """12020 -> "12.2" (NVML / cuDriverGetVersion encoding)."""
    if not value:
        return None
    return f"{value // 1000}.{(value % 1000) // 10}"


def _mb(nbytes: int | None) -> int | None:
    return None if nbytes is None else int(nbytes) // (1024 * 1024)


def _nvml_gpu(nvml: Any, index: int) -> Json:
    handle = nvml.nvmlDeviceGetHandleByIndex(index)
    mem = _maybe(nvml.nvmlDeviceGetMemoryInfo, handle)
    cc = _maybe(nvml.nvmlDeviceGetCudaComputeCapability, handle)
    pci = _maybe(nvml.nvmlDeviceGetPciInfo, handle)
    processes = []
    for p in _maybe(nvml.nvmlDeviceGetComputeRunningProcesses, handle) or []:
        name = _maybe(nvml.nvmlSystemGetProcessName, p.pid)
        processes.append({"pid": p.pid, "name": None if name is None else _text(name),
                          "used_mb": _mb(getattr(p, "usedGpuMemory", None))})
    name, uuid = _maybe(nvml.nvmlDeviceGetName, handle), _maybe(nvml.nvmlDeviceGetUUID, handle)
    return {
        "index": index,
        "name": None if name is None else _text(name),
        "uuid": None if uuid is None else _text(uuid),
        "pci_bus_id": None if pci is None else _text(pci.busId),
        "compute_capability": None if cc is None else f"{cc[0]}.{cc[1]}",
        "memory_total_mb": _mb(getattr(mem, "total", None)),
        "memory_free_mb": _mb(getattr(mem, "free", None)),
        "memory_used_mb": _mb(getattr(mem, "used", None)),
        "processes": processes,
    }


def _nvml_snapshot(loader: Callable[[], Any]) -> Json:
    nvml = loader()
    nvml.nvmlInit()
    try:
        return {
            "driver_version": _text(nvml.nvmlSystemGetDriverVersion()),
            "cuda_driver_version": cuda_version_from_int(
                _maybe(nvml.nvmlSystemGetCudaDriverVersion)),
            "gpus": [_nvml_gpu(nvml, i) for i in range(nvml.nvmlDeviceGetCount())],
        }
    finally:
        _maybe(nvml.nvmlShutdown)


def _cell(value: str) -> str | None:
    value = value.strip()
    return None if not value or value.startswith("[") else value  # "[N/A]", "[Not Supported]"


def _int(value: str) -> int | None:
    cell = _cell(value)
    try:
        return None if cell is None else int(float(cell))
    except ValueError:
        return None


def _smi_failure(result: proc.ProcResult, smi: str) -> tuple[str, str]:
    if result.status == "timeout":
        return "timeout", f"{smi} did not answer within the timeout and was killed"
    if result.status != "ok":
        return "error", f"{smi} could not run: {result.error}"
    said = first_line(result.stdout) or first_line(result.stderr) or "no output"
    return "error", f"{smi} failed (exit {result.returncode}): {said}"


def _smi_snapshot(smi: str, timeout: float) -> tuple[proc.ProcResult, Json | None]:
    fields = list(_GPU_FIELDS)
    result = proc.run([smi, f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits"],
                      timeout)
    if result.ran and result.returncode != 0 and "compute_cap" in result.stdout + result.stderr:
        fields.remove("compute_cap")  # drivers before ~510 do not know this field
        result = proc.run(
            [smi, f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits"], timeout)
    if not result.ran or result.returncode != 0:
        return result, None
    gpus: list[Json] = []
    driver = None
    for row in csv.reader(result.stdout.splitlines(), skipinitialspace=True):
        if len(row) != len(fields):
            continue
        cells = dict(zip(fields, row))
        driver = driver or _cell(cells["driver_version"])
        gpus.append({
            "index": _int(cells["index"]), "name": _cell(cells["name"]),
            "uuid": _cell(cells["uuid"]), "pci_bus_id": _cell(cells["pci.bus_id"]),
            "compute_capability": _cell(cells.get("compute_cap", "")),
            "memory_total_mb": _int(cells["memory.total"]),
            "memory_free_mb": _int(cells["memory.free"]),
            "memory_used_mb": _int(cells["memory.used"]),
            "processes": [],
        })
    apps = proc.run([smi, "--query-compute-apps=gpu_uuid,pid,process_name,used_memory",
                     "--format=csv,noheader,nounits"], timeout)
    if apps.ran and apps.returncode == 0:
        by_uuid = {g["uuid"]: g for g in gpus}
        for row in csv.reader(apps.stdout.splitlines(), skipinitialspace=True):
            if len(row) == 4 and row[0].strip() in by_uuid:
                by_uuid[row[0].strip()]["processes"].append(
                    {"pid": _int(row[1]), "name": _cell(row[2]), "used_mb": _int(row[3])})
    plain = proc.run([smi], timeout)
    match = _CUDA_LINE.search(plain.stdout) if plain.ran else None
    return result, {"driver_version": driver, "gpus": gpus,
                    "cuda_driver_version": match.group(1) if match else None}


def _default_smi(wsl_lib: str = WSL_LIB) -> str:
    # Drivers before ~R450 on Windows installed nvidia-smi.exe outside PATH.
    if os.name == "nt":
        legacy = os.path.join(os.environ.get("ProgramFiles", r"C:\Program Files"),
                              "NVIDIA Corporation", "NVSMI", "nvidia-smi.exe")
        if os.path.isfile(legacy):
            return legacy
    # WSL2 mounts the Windows driver's nvidia-smi in its driver folder, which may not be on PATH.
    wsl_smi = os.path.join(wsl_lib, "nvidia-smi")
    if os.name == "posix" and shutil.which("nvidia-smi") is None and os.path.isfile(wsl_smi):
        return wsl_smi
    return "nvidia-smi"


def probe_nvidia(timeout: float = 5.0, smi: str | None = None,
                 nvml: Callable[[], Any] | None = None, wsl_lib: str = WSL_LIB) -> Json:
    """``nvml`` returns the pynvml module (or an object with its API); injectable for tests."""
    started = time.monotonic()
    smi = smi or _default_smi(wsl_lib)
    status, value = call_with_timeout(lambda: _nvml_snapshot(nvml or _default_nvml), timeout)
    if status == "ok":
        return envelope("ok", None, time.monotonic() - started, source="nvml", nvml_error=None,
                        **value)
    no_driver = status == "error" and (type(value).__name__ in _NO_DRIVER
                                       or isinstance(value, ImportError))
    nvml_error = (f"NVML did not answer within {timeout:g} s" if status == "timeout"
                  else describe(value))
    nothing: Json = {"nvml_error": nvml_error, "driver_version": None,
                     "cuda_driver_version": None, "gpus": []}
    try:
        result, data = _smi_snapshot(smi, timeout)
    except Exception as exc:  # unexpected output shape: still a result
        return envelope("error", f"reading {smi} output failed: {describe(exc)}",
                        time.monotonic() - started, source="nvidia-smi", **nothing)
    elapsed = time.monotonic() - started
    if data is not None:
        return envelope("ok", None, elapsed, source="nvidia-smi", nvml_error=nvml_error, **data)
    if result.status == "not-found" and no_driver:
        return envelope("missing", f"no NVIDIA driver found (NVML: {nvml_error}; "
                        f"{smi}: not found)", elapsed, source=None, **nothing)
    smi_status, smi_error = _smi_failure(result, smi)
    return envelope("timeout" if status == "timeout" else smi_status,
                    f"{smi_error} (NVML: {nvml_error})", elapsed, source="nvidia-smi", **nothing)
