"""Theano's ``device`` setting, and whether a working GPU path exists at all."""

from __future__ import annotations

import re

from theanodoctor.diagnose import diagnose
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped
from theanodoctor.facts import Facts, section

from . import old_backend
from .common import config_value, flavour, old_backend_device, probe_ran, source_label, stage, target_os
from .gpu_common import gpu_backend, gpu_init_output, mapped_gpu, quoted_gpu_lines

PYGPU_REMEDY = (
    "pygpu is not on PyPI: install pygpu 0.7.x from conda-forge "
    "(`conda install -c conda-forge pygpu`, Python 3.7-3.10) or build libgpuarray + pygpu 0.7.6 "
    "from source; or set device=cpu if you mean to run on the CPU."
)
INIT_REMEDY = ("Read the exception pygpu raised (quoted below, or run `python -c \"import pygpu; "
               "pygpu.init('cuda0')\"` in the environment): it names what failed.")
# Theano rel-1.0.5 configdefaults.py:105-125 (DeviceParam): cpu, cuda*, opencl* pass; gpu* and
# everything else raise at import.
# Repairs that act on one OS only: a cause found in a log names them whatever the target's OS.
OS_OF_FIX = {"cuda-dll-aliases": "Windows", "cuda-soname-links": "Linux"}
INVALID_DEVICE = ('Theano 1.0 refuses it when it imports: `ValueError: Invalid value ("{device}") for '
                  'configuration variable "device". Valid options start with one of "cpu", "opencl" or "cuda".`')


def pygpu_problem(facts: Facts) -> str | None:
    """Why pygpu cannot serve Theano here, or None when it is active."""
    pygpu = stage(facts, "pygpu")
    if pygpu.get("ok"):
        if pygpu.get("pygpu_activated") is False:
            return f"pygpu {pygpu.get('version') or ''} could not initialize the GPU".replace("  ", " ")
        return None
    err = pygpu.get("error")
    if not isinstance(err, dict):
        return "pygpu is not installed"
    text = f"{err.get('type')}: {str(err.get('message') or '').splitlines()[0] if err.get('message') else ''}"
    if err.get("type") in ("ImportError", "ModuleNotFoundError"):
        missing = re.search(r"No module named '?([\w.]+)", str(err.get("message") or ""))
        if missing and missing.group(1).split(".")[0] == "pygpu":
            return "pygpu is not installed"
        return f"pygpu is installed but does not import ({text})"
    return f"pygpu is broken ({text})"


@check("theano-device", "Theano's device setting can work", area="config")
def theano_device(facts: Facts, options: Options) -> Outcome:
    if not probe_ran(facts) or flavour(facts) is None:
        return skipped("no Theano in the target")
    device, source = config_value(facts, "device")
    device = (device or "cpu").strip()
    where = source_label(source, "the default")
    origin = f"device={device} (from {where})"
    if old_backend_device(facts, device):
        return old_backend.judge(facts, origin)
    if device.startswith("gpu"):
        return error(f"{origin} selects the old GPU back-end, removed in Theano 1.0",
                     cause="Theano 1.0 refuses it: `ValueError: You are tring to use the old GPU back-end. "
                           "It was removed from Theano. Use device=cuda* now.`",
                     remedy=f"Set device={device.replace('gpu', 'cuda', 1)} in {where}.")
    if device == "opencl":
        return error(f"{origin} is incomplete: OpenCL devices are named openclP:D (e.g. opencl0:0)",
                     remedy="Use device=opencl0:0 (platform 0, device 0) or device=cuda.")
    if device != "cpu" and not device.startswith(("cuda", "opencl")):
        return error(f"{origin} is not a device Theano knows: it takes cpu, cuda, cudaN or openclP:D",
                     cause=INVALID_DEVICE.format(device=device),
                     remedy=f"Set device=cpu (or cuda / cuda0 for the GPU) in {where}.")
    backend = gpu_backend(facts)
    if backend.kind is None:
        return ok(origin)
    _, key_source = config_value(facts, backend.key)
    chosen = f"{backend.setting} (from {source_label(key_source, 'the default')})"
    problem = pygpu_problem(facts)
    if problem is None or not stage(facts, "theano_import").get("ok"):
        return ok(chosen if backend.key == "device" else f"{chosen}: Theano opens that GPU at import "
                  f"(the GPU back-end is used although device={device})")
    known = diagnose(gpu_init_output(facts))
    remedy = PYGPU_REMEDY if problem == "pygpu is not installed" else INIT_REMEDY
    return error(
        f"{chosen}, but {problem}: Theano silently runs everything on the CPU",
        cause=known.cause if known else "Theano falls back to the CPU when pygpu fails; "
        "theano.config.device still reads what was set.",
        remedy=known.remedy if known else remedy,
        fix_id=known.fix if known and OS_OF_FIX.get(known.fix or "", target_os(facts)) == target_os(facts) else None,
        details=quoted_gpu_lines(facts) + ((f"known failure: {known.id} (source: {known.source})",) if known else ()),
    )


def _no_target(facts: Facts) -> str | None:
    """Why no Theano in a target can be judged, or None when the probe ran and Theano imported."""
    status = section(facts, "target").get("status")
    if status in ("skipped", "missing", "not-found", None):
        return "no target Python was probed (see target-probe)"
    if status != "ok":
        return "the target probe did not finish (see target-probe)"
    if not stage(facts, "theano_import").get("ok"):
        return "Theano does not import in the target"
    return None


@check("gpu-path", "A working GPU path exists (device, pygpu, driver)", area="gpu")
def gpu_path(facts: Facts, options: Options) -> Outcome:
    backend = gpu_backend(facts)
    reasons = []
    device, _ = config_value(facts, "device")
    old = backend.kind == "old" and old_backend_device(facts, device)
    blocked = _no_target(facts)
    if blocked:
        reasons.append(blocked)
    elif old:
        judged = old_backend.judge(facts, backend.setting)
        if judged.status == "error":
            reasons.append(judged.message)
    elif backend.kind is None:
        reasons.append(f"Theano is configured for {backend.setting}")
    elif backend.kind == "old":
        reasons.append(f"{backend.setting} is the GPU back-end Theano 1.0 removed")
    else:
        problem = pygpu_problem(facts)
        if problem:
            reasons.append(problem)
    nvidia = section(facts, "nvidia")
    listed = nvidia.get("status") == "ok" and bool(nvidia.get("gpus"))
    opened = mapped_gpu(facts) if stage(facts, "pygpu").get("pygpu_activated") is True else None
    if backend.kind != "opencl" and not listed and not opened:
        reasons.append("no NVIDIA GPU is visible")
    if not reasons:
        if listed:
            gpu = (nvidia.get("gpus") or [{}])[0].get("name")
            where = f"on {gpu}"
        else:
            where = (f"on {opened}" if opened else "") + (
                " (opened by libgpuarray in the target; NVML and nvidia-smi did not list it)"
                if backend.kind == "cuda" else "")
        if old:
            return ok(f"{backend.setting} (the old back-end, nvcc-compiled) {where}".rstrip(), data={"gpu_ready": True})
        return ok(f"{backend.setting} with pygpu {stage(facts, 'pygpu').get('version', '?')} {where}".rstrip(),
                  data={"gpu_ready": True})
    message = "no working GPU path: " + "; ".join(reasons)
    if options.require_gpu:
        return error(message, remedy="Fix the errors above; a GPU is required (--require-gpu).",
                     data={"gpu_ready": False})
    return ok("CPU only: " + "; ".join(reasons), data={"gpu_ready": False})
