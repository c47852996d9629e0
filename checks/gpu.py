"""The GPUs themselves: architecture vs toolkit, visibility, memory, other processes."""

from __future__ import annotations

import math

from theanodoctor import kb_cuda
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts, Json, section

from .common import config_value, source_label
from .cuda_toolkits import in_use_line, kit_version, toolkit_in_use
from .gpu_common import (
    TheanoGpu,
    device_ordinal,
    device_setting,
    gpu_cc,
    gpu_label,
    not_needed,
    theano_gpu,
    visible_gpus,
)

NVRTC = ("libgpuarray compiles every kernel at run time with NVRTC for the device's compute_XY, so the "
         "NVRTC it loads must know this GPU; this matters even without nvcc.")
NO_CUDNN_7 = ("Theano can use cuDNN 5-7 only, and no cuDNN 7 is built for CUDA 11 or newer: with such a "
              "toolkit Theano runs without cuDNN (set dnn.enabled=False).")


def _arch_error(gpu: Json, cc: str, version: str, verdict: kb_cuda.ArchVerdict, how: str) -> Outcome:
    arch = verdict.arch
    assert arch is not None
    name = f"{gpu.get('name')} (compute capability {cc}, {arch.sm})"
    if verdict.needs.startswith("CUDA >="):
        cause = f"CUDA {version} cannot compile for {arch.sm}: {arch.family} support arrived in CUDA {arch.added}."
        remedy = f"Use CUDA {arch.added} or newer for this GPU."
        if (kb_cuda.minor_of(arch.added) or (0, 0)) >= (11, 0):
            remedy += " " + NO_CUDNN_7
    else:
        cause = (f"CUDA {version} no longer compiles for {arch.sm}: the last CUDA with {arch.family} {arch.sm} "
                 f"is {arch.last}.")
        first = f"CUDA {arch.added}" if arch.added else "a toolkit"
        remedy = f"Use {first} to CUDA {arch.last} for this GPU."
        if (kb_cuda.minor_of(arch.last) or (0, 0)) >= (10, 2):
            remedy += " cuDNN 7, the newest cuDNN Theano can use, is built for CUDA 8.0 - 10.2."
    return error(f"{name} needs {verdict.needs}; the toolkit in use is CUDA {version}",
                 cause=f"{cause} {NVRTC}", remedy=remedy,
                 details=(f"compute capability {how}", f"{arch.sm}: {arch.span()} (source: {arch.source})"))


def _chosen(facts: Facts, options: Options) -> tuple[TheanoGpu, Json] | Outcome:
    """(Theano's GPU and how it was chosen, the GPU), or the skipped outcome saying why there is none."""
    gate = not_needed(facts, options)
    if gate:
        return gate
    chosen = theano_gpu(facts)
    if chosen.gpu is None:
        return skipped(chosen.how)
    return chosen, chosen.gpu


@check("gpu-arch", "The toolkit in use supports the GPU's architecture", area="gpu")
def gpu_arch(facts: Facts, options: Options) -> Outcome:
    found = _chosen(facts, options)
    if isinstance(found, Outcome):
        return found
    chosen, gpu = found
    use = toolkit_in_use(facts)
    version = kit_version(use)
    if use.kit is None or version is None:
        return skipped(f"no toolkit version to compare with: {use.why_none or 'the toolkit version is unknown'}")
    cc, how = gpu_cc(gpu)
    if cc is None:
        return skipped(f"the compute capability of {gpu_label(gpu)} is unknown: {how}")
    verdict = kb_cuda.arch_support(cc, version)
    details = (f"Theano's GPU: {gpu_label(gpu)}, {chosen.how}", in_use_line(use))
    if verdict.supported is None:
        return warn(f"compute capability {cc} of {gpu_label(gpu)} is not in profiles/gpu_arch.yaml: cannot tell "
                    f"whether CUDA {version} supports it",
                    remedy="Check NVIDIA's CUDA release notes for this GPU, and report it so the table can grow.",
                    details=details)
    if not verdict.supported:
        outcome = _arch_error(gpu, cc, version, verdict, how)
        return error(outcome.message, cause=outcome.cause, remedy=outcome.remedy, details=details + outcome.details)
    others = []
    for other in visible_gpus(facts).gpus or []:
        if other is gpu:
            continue
        other_cc, _ = gpu_cc(other)
        if other_cc and kb_cuda.arch_support(other_cc, version).supported is False:
            others.append(f"{gpu_label(other)} (compute capability {other_cc}) is not supported by CUDA {version}")
    arch = verdict.arch
    span = f"{arch.sm}: {arch.span()}" if arch else ""
    message = f"{gpu_label(gpu)}, compute capability {cc}, is supported by CUDA {version}"
    if others:
        return warn(message + f"; but {others[0]}",
                    cause="Theano runs on one GPU; a device setting that picks the other one would fail.",
                    remedy="Keep Theano on the supported GPU (device=cudaN or CUDA_VISIBLE_DEVICES).",
                    details=details + tuple(others))
    return ok(message, details=details + (f"compute capability {how}", span))


@check("cuda-visible-devices", "CUDA_VISIBLE_DEVICES leaves a GPU for Theano", area="gpu")
def cuda_visible_devices(facts: Facts, options: Options) -> Outcome:
    gate = not_needed(facts, options)
    if gate:
        return gate
    env = section(facts, "env")
    if env.get("status") != "ok":
        return skipped(f"the environment variables were not probed ({env.get('error') or env.get('status')})")
    vis = visible_gpus(facts)
    device = device_setting(facts)
    ordinal = device_ordinal(device)
    shown = f"CUDA_VISIBLE_DEVICES={vis.value!r}" if vis.value is not None else "CUDA_VISIBLE_DEVICES is not set"
    if vis.gpus and ordinal is not None and ordinal >= len(vis.gpus):
        names = ", ".join(gpu_label(g) for g in vis.gpus)
        return error(f"device={device}, but only {len(vis.gpus)} GPU(s) are visible ({shown}): {names}",
                     cause="CUDA numbers the GPUs it can see from 0 (cuda0, cuda1, ...); with "
                           "CUDA_VISIBLE_DEVICES set, in the order that lists them.",
                     remedy=f"Use device=cuda0 ... cuda{len(vis.gpus) - 1}, or change CUDA_VISIBLE_DEVICES.",
                     commands=("nvidia-smi -L",))
    if vis.value is None:
        if vis.gpus is None:
            return ok("CUDA_VISIBLE_DEVICES is not set: CUDA sees every GPU")
        return ok(f"CUDA_VISIBLE_DEVICES is not set: CUDA sees all {len(vis.gpus)} GPU(s)")
    rules = ("CUDA reads CUDA_VISIBLE_DEVICES as a comma-separated list of GPU indexes (nvidia-smi's "
             "numbering) or UUIDs; an empty value hides every GPU, and at the first entry that names no GPU "
             "CUDA stops reading, so that entry and all after it are ignored (NVIDIA CUDA Programming Guide, "
             "CUDA Environment Variables).")
    remedy = ("Unset CUDA_VISIBLE_DEVICES, or set it to GPU indexes or UUIDs that `nvidia-smi -L` lists.")
    if vis.gpus is None:
        return skipped(f"{shown}: {vis.why_unknown}")
    if not vis.gpus:
        why = "is empty" if not vis.value.strip() else f"starts with {vis.invalid!r}, which names no GPU"
        return error(f"{shown} hides every GPU from CUDA: it {why}",
                     cause=rules + " Theano then cannot use the GPU at all.",
                     remedy=remedy, commands=("nvidia-smi -L",))
    names = ", ".join(gpu_label(g) for g in vis.gpus)
    if vis.invalid is not None:
        return warn(f"{shown}: CUDA ignores {', '.join(repr(e) for e in vis.ignored)}; only {names} visible",
                    cause=rules, remedy=remedy, commands=("nvidia-smi -L",))
    return ok(f"{shown}: CUDA sees {names} (cuda0 is the first of them)")


def _preallocation(value: float, total: int | None) -> tuple[float | None, str]:
    """(MB preallocated at start-up, the rule applied) for gpuarray.preallocate
    (Theano rel-1.0.5 theano/gpuarray/__init__.py:89-152)."""
    if value > 1:
        return value, f"{value:g} > 1 means {value:g} MB"
    if total is None:
        return None, "0 < p <= 1 is a fraction of the GPU's total memory, which was not reported"
    share = min(value, 0.95)
    return share * total, f"0 < p <= 1 means min(p, 0.95) x total = {share:g} x {total} MB"


@check("gpu-memory", "The GPU has the free memory gpuarray.preallocate asks for", area="gpu")
def gpu_memory(facts: Facts, options: Options) -> Outcome:
    found = _chosen(facts, options)
    if isinstance(found, Outcome):
        return found
    chosen, gpu = found
    raw, source = config_value(facts, "gpuarray.preallocate")
    try:
        value = float(raw if raw not in (None, "") else 0)
    except (TypeError, ValueError):
        return skipped(f"gpuarray.preallocate={raw!r} (from {source_label(source)}) is not a number")
    free, total = gpu.get("memory_free_mb"), gpu.get("memory_total_mb")
    label = f"{gpu_label(gpu)}, {chosen.how}"
    if value < 0:
        return ok(f"gpuarray.preallocate={raw}: the allocation cache is off, nothing is preallocated",
                  details=(label,))
    if value == 0:
        return ok(f"gpuarray.preallocate={raw or 0}: nothing is preallocated"
                  + (f"; {free} MB free on {gpu_label(gpu)}" if free is not None else ""), details=(label,))
    need, rule = _preallocation(value, total)
    if need is None:
        return skipped(f"gpuarray.preallocate={raw}: {rule}")
    if free is None:
        return skipped(f"gpuarray.preallocate={raw} asks for {need:.0f} MB, but the free memory of "
                       f"{gpu_label(gpu)} was not reported")
    details = (label, f"gpuarray.preallocate={raw} from {source_label(source)}: {rule}",
               f"free {free} MB of {total if total is not None else '?'} MB")
    if need > free:
        if total and value <= 1:
            fits = math.floor(free / total * 0.9 * 100) / 100
            suggestion = f"for example {fits:g}" if fits > 0 else "0"
        else:
            suggestion = f"for example {int(free * 0.9)} (MB)" if free > 0 else "0"
        held = sum(p.get("used_mb") or 0 for p in gpu.get("processes") or [])
        return error(
            f"gpuarray.preallocate={raw} asks for {need:.0f} MB at start-up, but only {free} MB are free on "
            f"{gpu_label(gpu)}",
            cause=f"Theano preallocates that memory when it opens the GPU ({rule}; Theano rel-1.0.5 "
                  "theano/gpuarray/__init__.py:89-152)."
                  + (f" Other processes hold {held} MB of it (see gpu-processes)." if held else ""),
            remedy=f"Lower gpuarray.preallocate in {source_label(source)} ({suggestion}), set it to 0 to preallocate "
                   "nothing, or free memory on the GPU.",
            details=details)
    return ok(f"gpuarray.preallocate={raw} preallocates {need:.0f} MB; {free} MB are free on {gpu_label(gpu)}",
              details=details)


@check("gpu-processes", "No other process holds memory on Theano's GPU", area="gpu")
def gpu_processes(facts: Facts, options: Options) -> Outcome:
    found = _chosen(facts, options)
    if isinstance(found, Outcome):
        return found
    chosen, gpu = found
    processes = gpu.get("processes")
    if not isinstance(processes, list):
        return skipped(f"the driver did not list the processes on {gpu_label(gpu)}")
    if not processes:
        return ok(f"no other process holds memory on {gpu_label(gpu)}")

    def mb(p: Json) -> str:
        return f"{p['used_mb']} MB" if isinstance(p.get("used_mb"), int) else "? MB (not reported)"

    lines = tuple(f"pid {p.get('pid')} {p.get('name') or '(name unknown)'}: {mb(p)}" for p in processes)
    held = sum(p.get("used_mb") or 0 for p in processes)
    plural = "es" if len(processes) != 1 else ""
    return warn(f"{len(processes)} other process{plural} hold{'s' if not plural else ''} {held} MB on "
                f"{gpu_label(gpu)}: " + "; ".join(lines),
                cause="Memory held by other processes is not available to Theano (its preallocation and every "
                      "allocation share what is free).",
                remedy="Stop the processes you do not need, or run Theano on another GPU (device=cudaN or "
                       "CUDA_VISIBLE_DEVICES).",
                commands=("nvidia-smi",), details=(f"{gpu_label(gpu)}, {chosen.how}",) + lines,
                data={"processes": [dict(p) for p in processes]})

