"""Environment variables that change how Theano, CUDA and the loaders behave."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

from theanodoctor.facts import Json, envelope
from theanodoctor.host.common import (
    WINDOWS,
    describe,
    normalize_env,
    os_name_or_current,
    pathsep,
    split_paths,
)

# Reported when set. CUDA_PATH_V* (one per installed toolkit on Windows) are added by prefix.
WATCHED = (
    "CUDA_PATH", "CUDA_ROOT", "CUDA_HOME", "CUDNN_PATH", "CUDNN_HOME",
    "THEANO_FLAGS", "THEANORC", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
    "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME",
    "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "LOCALAPPDATA", "MKL_THREADING_LAYER",
    "OMP_NUM_THREADS",
)


# The libraries libgpuarray dlopen()s (and their versioned files): listed for each LD_LIBRARY_PATH
# folder, so the checks know what the loader will find there.
GPU_LIBRARY_PREFIXES = ("libcuda.so", "libnvrtc.so", "libnvrtc-builtins.so", "libcublas.so", "libOpenCL.so",
                        "libcudnn.so")


def ld_library_files(folders: list[str]) -> list[Json]:
    """Each folder with the GPU libraries in it; ``files`` is None when it cannot be read."""
    listed: list[Json] = []
    for folder in folders:
        try:
            names: list[str] | None = sorted(n for n in os.listdir(folder) if n.startswith(GPU_LIBRARY_PREFIXES))
        except OSError:
            names = None
        listed.append({"dir": folder, "files": names})
    return listed


def probe_env(env: Mapping[str, str] | None = None, os_name: str | None = None) -> Json:
    started = time.monotonic()
    os_name = os_name_or_current(os_name)
    try:
        values = normalize_env(os.environ if env is None else env, os_name)
        names = [n for n in WATCHED if n in values]
        names += sorted(n for n in values if n.startswith("CUDA_PATH_V"))
        # LD_LIBRARY_PATH is a POSIX variable: always ':'-separated.
        ld_path = [p for p in values.get("LD_LIBRARY_PATH", "").split(":") if p]
        return envelope(
            "ok", None, time.monotonic() - started,
            pathsep=pathsep(os_name),
            path=split_paths(values.get("PATH"), os_name),
            ld_library_path=ld_path if os_name != WINDOWS else [],
            ld_library_files=ld_library_files(ld_path) if os_name != WINDOWS else [],
            vars={n: values[n] for n in names},
        )
    except Exception as exc:  # a mapping with non-string values, ...
        return envelope("error", describe(exc), time.monotonic() - started)
