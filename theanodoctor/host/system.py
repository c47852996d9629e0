"""The operating system and the doctor's own Python."""

from __future__ import annotations

import os
import platform
import socket
import struct
import sys
import time

from theanodoctor.facts import Json, envelope
from theanodoctor.host.common import describe


def _os_release() -> str | None:
    # Linux distribution name ("Debian GNU/Linux 12 (bookworm)"); Python 3.10+ only.
    reader = getattr(platform, "freedesktop_os_release", None)
    if reader is None:
        return None
    try:
        return str(reader().get("PRETTY_NAME")) or None
    except OSError:
        return None


# WSL2: the Windows NVIDIA driver's Linux side (libcuda, NVML, nvidia-smi) is mounted here, and
# /proc/driver/nvidia does not exist (NVIDIA, CUDA on WSL User Guide).
WSL_LIB = "/usr/lib/wsl/lib"
_WSL_FILES = ("libcuda.so", "libnvidia-ml.so", "nvidia-smi", "libnvcuvid.so", "libdxcore.so")


def probe_wsl(proc_version: str = "/proc/version", lib_dir: str = WSL_LIB) -> Json | None:
    """WSL's marks: "microsoft" or "WSL" in the kernel's version string, the driver folder; None
    when neither is there."""
    try:
        with open(proc_version, encoding="utf-8", errors="replace") as handle:
            kernel = handle.readline().strip()
    except OSError:
        kernel = ""
    marked = "microsoft" in kernel.lower() or "wsl" in kernel.lower()
    try:
        files: list[str] | None = sorted(n for n in os.listdir(lib_dir) if n.startswith(_WSL_FILES))
    except OSError:
        files = None
    if not marked and files is None:
        return None
    return {"kernel": kernel or None, "kernel_says_wsl": marked, "lib_dir": lib_dir if files is not None else None,
            "lib_files": files or []}


def probe_system(proc_version: str = "/proc/version", wsl_lib: str = WSL_LIB) -> Json:
    started = time.monotonic()
    try:
        data = {
            "os": platform.system(),
            "release": platform.release(),
            "version": platform.version(),
            "machine": platform.machine(),
            "platform": platform.platform(),
            "distribution": _os_release(),
            "wsl": probe_wsl(proc_version, wsl_lib) if platform.system() == "Linux" else None,
            "hostname": socket.gethostname(),
            "doctor_python": {
                "version": platform.python_version(),
                "executable": sys.executable,
                "bits": struct.calcsize("P") * 8,
            },
        }
    except Exception as exc:  # platform calls can fail in odd sandboxes; report, never raise
        return envelope("error", describe(exc), time.monotonic() - started)
    return envelope("ok", None, time.monotonic() - started, **data)
