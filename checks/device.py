"""Theano's ``device`` setting, and whether a working GPU path exists at all."""

from __future__ import annotations

from theanodoctor import kb_causes
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped
from theanodoctor.facts import Facts, section

from . import old_backend
from .common import (
    config_value,
    flavour,
    gpu_device,
    gpuarray_device,
    old_backend_device,
    probe_ran,
    source_label,
    stage,
)

PYGPU_REMEDY = (
    "pygpu is not on PyPI: install pygpu 0.7.x from conda-forge "
    "(`conda install -c conda-forge pygpu`, Python 3.7-3.10) or build libgpuarray + pygpu 0.7.6 "
    "from source; or set device=cpu if you mean to run on the CPU."
)


def pygpu_problem(facts: Facts) -> str | None:
    """Why pygpu cannot serve Theano here, or None when it is active."""
    pygpu = stage(facts, "pygpu")
    if pygpu.get("ok"):
        if pygpu.get("pygpu_activated") is False:
            return f"pygpu {pygpu.get('version') or ''} could not initialize the GPU".replace("  ", " ")
        return None
    err = pygpu.get("error")
    if isinstance(err, dict) and err.get("type") not in ("ImportError", "ModuleNotFoundError"):
        return f"pygpu is broken ({err.get('type')}: {err.get('message')})"
    return "pygpu is not installed"


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
    if gpu_device(device):
        problem = pygpu_problem(facts)
        imported = stage(facts, "theano_import")
        if problem and imported.get("ok"):
            known = kb_causes.diagnose("\n".join(str(line) for line in imported.get("log", [])))
            return error(
                f"{origin}, but {problem}: Theano silently runs everything on the CPU",
                cause=known.cause if known else "Theano falls back to the CPU when pygpu fails; "
                "theano.config.device still reads cuda.",
                remedy=known.remedy if known else PYGPU_REMEDY,
                fix_id=known.fix if known else None,
                details=tuple(str(line).splitlines()[0] for line in imported.get("log", []) if "pygpu" in str(line)
                              or "GpuArrayException" in str(line))
                + ((f"known failure: {known.id} (source: {known.source})",) if known else ()),
            )
    return ok(origin)


@check("gpu-path", "A working GPU path exists (device, pygpu, driver)", area="gpu")
def gpu_path(facts: Facts, options: Options) -> Outcome:
    device, _ = config_value(facts, "device")
    reasons = []
    if not probe_ran(facts) or not stage(facts, "theano_import").get("ok"):
        reasons.append("Theano does not import in the target")
    elif old_backend_device(facts, device):
        judged = old_backend.judge(facts, f"device={device}")
        if judged.status == "error":
            reasons.append(judged.message)
    elif not gpuarray_device(device):
        reasons.append(f"Theano is configured for device={device or 'cpu'}")
    else:
        problem = pygpu_problem(facts)
        if problem:
            reasons.append(problem)
    nvidia = section(facts, "nvidia")
    if nvidia.get("status") != "ok" or not nvidia.get("gpus"):
        reasons.append("no NVIDIA GPU is visible")
    if not reasons:
        gpu = (nvidia.get("gpus") or [{}])[0].get("name")
        if old_backend_device(facts, device):
            return ok(f"device={device} (the old back-end, nvcc-compiled) on {gpu}", data={"gpu_ready": True})
        return ok(f"device={device} with pygpu {stage(facts, 'pygpu').get('version', '?')} on {gpu}",
                  data={"gpu_ready": True})
    message = "no working GPU path: " + "; ".join(reasons)
    if options.require_gpu:
        return error(message, remedy="Fix the errors above; a GPU is required (--require-gpu).",
                     data={"gpu_ready": False})
    return ok("CPU only: " + "; ".join(reasons), data={"gpu_ready": False})
