"""THEANO_FLAGS strings (`device=gpu,floatX=float32,lib.cnmem=0.8`): the old back-end's options
rewritten the way fix rewrites them in .theanorc (fixes/rc_repairs.py): device=gpuN -> cudaN,
lib.cnmem -> gpuarray.preallocate (same number), nvcc.* dropped."""

from __future__ import annotations

import re

from theanodoctor.fixes.rc_repairs import cnmem_as_preallocate, cnmem_share
from theanodoctor.scan.flags import flag_pairs

_GPU = re.compile(r"gpu(\d*)")


def _cnmem(value: str, keys: set[str]) -> tuple[str | None, str]:
    kind, value = cnmem_as_preallocate(value, "gpuarray.preallocate" in keys)
    if kind == "nan":
        return f"lib.cnmem={value}", f"lib.cnmem={value} kept: not a number, so nothing can be carried over"
    if kind == "off":
        return None, f"lib.cnmem={value} dropped (0 turned the pool off; preallocate's default keeps it off)"
    if kind == "kept":
        return None, f"lib.cnmem={value} dropped (gpuarray.preallocate is set already and kept)"
    return f"gpuarray.preallocate={value}", f"lib.cnmem={value} -> gpuarray.preallocate={value} ({cnmem_share(value)})"


def port_flags(value: str, wanted: set[str]) -> tuple[str, list[tuple[str, str]]] | None:
    """The rewritten flags and (rule id, what) per edit; None when the string is not THEANO_FLAGS
    or nothing in it changes."""
    pairs = flag_pairs(value)
    if pairs is None:
        return None
    keys = {k.lower() for k, _ in pairs}
    items: list[str] = []
    edits: list[tuple[str, str]] = []
    for key, val in pairs:
        lower = key.lower()
        gpu = _GPU.fullmatch(val.strip())
        rule = {"device": "device-gpu", "init_gpu_device": "init-gpu-device-gpu"}.get(lower)
        if rule and gpu and rule in wanted:
            items.append(f"{key}=cuda{gpu.group(1)}")
            edits.append((rule, f"{key}={val} -> {key}=cuda{gpu.group(1)}"))
        elif lower == "lib.cnmem" and "lib-cnmem" in wanted:
            item, what = _cnmem(val.strip(), keys)
            if item is not None:
                items.append(item)
            edits.append(("lib-cnmem", what))
        elif lower.startswith("nvcc.") and "nvcc-flags" in wanted:
            edits.append(("nvcc-flags", f"{key}={val} dropped"))
        else:
            items.append(f"{key}={val}")
    if not edits or items == [f"{k}={v}" for k, v in pairs]:
        return None
    return ",".join(items), edits
