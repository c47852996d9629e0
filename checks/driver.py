"""Is there an NVIDIA driver, and which GPUs does it show?"""

from __future__ import annotations

from theanodoctor.engine import Options, Outcome, check, error, ok
from theanodoctor.facts import Facts, section

from .common import config_value, gpu_device


def describe_gpus(nvidia: dict) -> tuple[str, ...]:
    return tuple(
        f"GPU {g.get('index')}: {g.get('name')} (compute capability {g.get('compute_capability') or '?'}, "
        f"{g.get('memory_total_mb') or '?'} MB)"
        for g in nvidia.get("gpus") or []
    )


@check("nvidia-driver", "An NVIDIA driver is present and answers", area="gpu")
def nvidia_driver(facts: Facts, options: Options) -> Outcome:
    nvidia = section(facts, "nvidia")
    status = nvidia.get("status")
    device, _ = config_value(facts, "device")
    wants_gpu = gpu_device(device) or options.require_gpu
    if status == "ok":
        gpus = describe_gpus(nvidia)
        return ok(
            f"driver {nvidia.get('driver_version')} (supports CUDA up to {nvidia.get('cuda_driver_version') or '?'}), "
            f"{len(gpus)} GPU{'s' if len(gpus) != 1 else ''}",
            details=gpus + (f"read through {nvidia.get('source')}",),
        )
    if status == "timeout":
        return Outcome("timeout", "the NVIDIA driver did not answer in time",
                       cause=nvidia.get("error") or "",
                       remedy="A hung driver or GPU: check `nvidia-smi` by hand; a reboot may be needed.")
    if status == "missing":
        if wants_gpu:
            return error("no NVIDIA driver found, but a GPU is required",
                         cause=nvidia.get("error") or "",
                         remedy="Install the NVIDIA driver for your GPU (CUDA 10.2 needs >= 440.33 on "
                                "Linux, >= 441.22 on Windows), or use device=cpu.")
        return ok("no NVIDIA driver: fine for device=cpu, no GPU path", details=(nvidia.get("error") or "",))
    if status == "skipped":
        return Outcome("skipped", nvidia.get("error") or "not probed")
    return error("the NVIDIA driver is installed but does not work",
                 cause=nvidia.get("error") or f"probe status {status!r}",
                 remedy="Check `nvidia-smi`; a driver/kernel-module mismatch after an update needs a reboot.")
