"""Is there an NVIDIA driver, which GPUs does it show, and is it new enough for the toolkit?"""

from __future__ import annotations

from theanodoctor import kb_cuda
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts, section

from .common import target_os
from .cuda_toolkits import InUse, in_use_line, kit_label, kit_version, toolkit_in_use
from .gpu_common import cuda_gpu_opened, gpu_backend, not_needed, os_label, wants_gpu, wsl

SMI_NOTE = ("The driver's CUDA version (nvidia-smi's \"CUDA Version\") is the highest CUDA the driver "
            "supports, not a toolkit that is installed.")
INSUFFICIENT = ("CUDA reports a driver that is too old for the toolkit as `CUDA driver version is "
                "insufficient for CUDA runtime version`.")


def describe_gpus(nvidia: dict) -> tuple[str, ...]:
    return tuple(
        f"GPU {g.get('index')}: {g.get('name')} (compute capability {g.get('compute_capability') or '?'}, "
        f"{g.get('memory_total_mb') or '?'} MB)"
        for g in nvidia.get("gpus") or []
    )


WSL_DRIVER = ("This is WSL2: its GPU comes from the NVIDIA driver of Windows. Install or update the NVIDIA driver "
              "on Windows, and install no Linux NVIDIA driver inside WSL (NVIDIA, CUDA on WSL User Guide, "
              "docs.nvidia.com/cuda/wsl-user-guide).")


def _install_remedy(facts: Facts) -> str:
    use = toolkit_in_use(facts)
    version = kit_version(use)
    need = kb_cuda.driver_need(version, use.kit.get("version_full"), target_os(facts)) if use.kit and version else None
    minimum = need and (need.release or need.hard)
    if minimum:
        return (f"Install the NVIDIA driver for your GPU: the toolkit here ({kit_label(use.kit or {})}) needs "
                f">= {minimum.version} on {target_os(facts)} ({minimum.what}; {minimum.source}). "
                "Or use device=cpu.")
    return "Install the NVIDIA driver for your GPU, or use device=cpu."


@check("nvidia-driver", "An NVIDIA driver is present and answers", area="gpu")
def nvidia_driver(facts: Facts, options: Options) -> Outcome:
    nvidia = section(facts, "nvidia")
    status = nvidia.get("status")
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
        opened = cuda_gpu_opened(facts)
        if opened:
            return warn(f"NVML and nvidia-smi did not answer, but the CUDA driver works: libgpuarray opened {opened} "
                        "in the target",
                        cause=nvidia.get("error") or "",
                        remedy="Nothing blocks Theano; without NVML or nvidia-smi the doctor cannot read the driver "
                               "version, so the checks that compare it with the toolkit are skipped.")
        if wants_gpu(facts, options) and (gpu_backend(facts).kind != "opencl" or options.require_gpu):
            return error("no NVIDIA driver found, but a GPU is required",
                         cause=nvidia.get("error") or "", remedy=WSL_DRIVER if wsl(facts) else _install_remedy(facts))
        return ok(f"no NVIDIA driver: fine for {gpu_backend(facts).setting}, no CUDA path",
                  details=(nvidia.get("error") or "",))
    if status == "skipped":
        return Outcome("skipped", nvidia.get("error") or "not probed")
    return error("the NVIDIA driver is installed but does not work",
                 cause=nvidia.get("error") or f"probe status {status!r}",
                 remedy="Check `nvidia-smi`; a driver/kernel-module mismatch after an update needs a reboot.")


def _driver_and_toolkit(facts: Facts, options: Options) -> tuple[str, InUse, str] | Outcome:
    """(driver version, toolkit in use, its version) or the skipped outcome saying what is missing."""
    gate = not_needed(facts, options)
    if gate:
        return gate
    nvidia = section(facts, "nvidia")
    driver = nvidia.get("driver_version")
    if nvidia.get("status") != "ok" or not driver:
        return skipped("no NVIDIA driver version was reported (see nvidia-driver)")
    use = toolkit_in_use(facts)
    if use.kit is None:
        return skipped(f"no CUDA toolkit to compare the driver with: {use.why_none}")
    version = kit_version(use)
    if version is None:
        return skipped(f"the version of the toolkit in use is unknown ({use.kit.get('root')}: "
                       f"{use.kit.get('version_error') or 'no version'})")
    return str(driver), use, version


@check("driver-min-version", "The driver is new enough for the CUDA toolkit in use", area="gpu")
def driver_min_version(facts: Facts, options: Options) -> Outcome:
    found = _driver_and_toolkit(facts, options)
    if isinstance(found, Outcome):
        return found
    driver, use, version = found
    os_name = target_os(facts)
    need = kb_cuda.driver_need(version, use.kit.get("version_full") if use.kit else None, os_name)
    if need is None:
        return skipped(f"the driver table has columns for Linux and Windows only, not {os_label(facts)}")
    hard = need.hard or need.release
    if hard is None:
        return skipped(f"CUDA {version} has no {os_name} minimum in profiles/cuda_driver.yaml")
    driver_v = kb_cuda.vtuple(driver)
    if driver_v is None:
        return skipped(f"the driver version {driver!r} is not a version number")
    branch = "" if hard.exact else " (a driver branch: the exact point release is not in the table)"
    details = (in_use_line(use),
               f"{hard.what}: driver >= {hard.version} on {os_name}{branch} (source: {hard.source})")
    if kb_cuda.vcmp(driver_v, kb_cuda.vtuple(hard.version) or ()) < 0:
        return error(
            f"driver {driver} is too old for CUDA {version}: {os_name} needs >= {hard.version}{branch}",
            cause=f"{hard.what} needs an NVIDIA driver >= {hard.version} on {os_name} ({hard.source}). "
                  + INSUFFICIENT,
            remedy=f"Update the NVIDIA driver to {hard.version} or newer, or use a CUDA toolkit this driver "
                   "supports (see driver-cuda-version).",
            details=details)
    release = need.release
    if release and kb_cuda.vcmp(driver_v, kb_cuda.vtuple(release.version) or ()) < 0:
        basis = (" (the driver bundled with that installer; NVIDIA's own table row is not verified)"
                 if release.basis == "installer" else "")
        return warn(
            f"driver {driver} runs CUDA {version} only under minor-version compatibility: "
            f"{release.what} lists >= {release.version}{basis}",
            cause=f"Below {release.version}, CUDA {version} runs through minor-version compatibility "
                  f"(>= {hard.version} for {hard.what}), which NVIDIA describes as 'with limited feature-set' "
                  "(PTX JIT needs a new enough driver); libgpuarray compiles every kernel at run time through "
                  "NVRTC.",
            remedy=f"Update the NVIDIA driver to {release.version} or newer.",
            details=details + (f"{release.what}: >= {release.version} (source: {release.source})",))
    return ok(f"driver {driver} >= {hard.version}, the minimum for CUDA {version} on {os_name}{branch}",
              details=details)


@check("driver-cuda-version", "The driver supports the CUDA version of the toolkit in use", area="gpu")
def driver_cuda_version(facts: Facts, options: Options) -> Outcome:
    found = _driver_and_toolkit(facts, options)
    if isinstance(found, Outcome):
        return found
    driver, use, version = found
    supports = section(facts, "nvidia").get("cuda_driver_version")
    have, want = kb_cuda.minor_of(supports), kb_cuda.minor_of(version)
    if have is None or want is None:
        return skipped("the driver did not report the highest CUDA version it supports "
                       "(an old nvidia-smi prints no \"CUDA Version\")")
    details = (SMI_NOTE, in_use_line(use))
    if have >= want:
        return ok(f"driver {driver} supports CUDA up to {supports}; the toolkit in use is CUDA {version}",
                  details=details)
    if have[0] == want[0] and want[0] >= 11:
        return warn(
            f"driver {driver} supports CUDA up to {supports}, older than the toolkit in use (CUDA {version}): "
            "it can only run under minor-version compatibility",
            cause=SMI_NOTE + f" Within CUDA {want[0]}.x a driver for an older minor version runs newer toolkits "
                  "'with limited feature-set' (NVIDIA; PTX JIT needs a new enough driver), and libgpuarray "
                  "compiles every kernel at run time through NVRTC.",
            remedy=f"Update the NVIDIA driver to one that supports CUDA {version} (see driver-min-version), "
                   f"or use CUDA {supports}.",
            details=details)
    return error(
        f"driver {driver} supports CUDA only up to {supports}, but the toolkit in use is CUDA {version}",
        cause=SMI_NOTE + " " + INSUFFICIENT,
        remedy=f"Update the NVIDIA driver to one that supports CUDA {version} (see driver-min-version for the "
               f"minimum), or use a toolkit no newer than CUDA {supports}.",
        details=details)
