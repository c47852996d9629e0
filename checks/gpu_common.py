"""What the GPU-side checks share: whether the CUDA path matters at all, which GPUs CUDA can
see, and which one Theano will run on.

No checks live here (importing it registers nothing), so every check module can use it without
changing the report order."""

from __future__ import annotations

import re
from typing import NamedTuple

from theanodoctor import kb_cuda
from theanodoctor.engine import Options, Outcome, skipped
from theanodoctor.facts import Facts, Json, section

from .common import config_value, env_var, old_backend_device, stage, target_os

# --- does the CUDA path matter here? ------------------------------------------------------------

def device_setting(facts: Facts) -> str:
    device, _ = config_value(facts, "device")
    return (device or "cpu").strip()


def _kind(value: str) -> str | None:
    if value.startswith("cuda"):
        return "cuda"
    if value.startswith("opencl"):
        return "opencl"
    return "old" if value.startswith("gpu") else None


class Backend(NamedTuple):
    kind: str | None  # "cuda", "opencl", "old" (the removed device=gpu*), None: the CPU
    setting: str      # the setting that chooses it, as a user writes it ("device=cuda0")
    key: str = "device"  # the config key of that setting


def gpu_backend(facts: Facts) -> Backend:
    """Which GPU back-end Theano's settings use: ``device``, else ``init_gpu_device``, else the
    first ``contexts`` entry (``dev0->cuda0;dev1->cuda1`` maps names to devices; Theano 1.0
    gpuarray/__init__.py initialises each of them at import, with or without ``device``)."""
    device = device_setting(facts)
    if _kind(device):
        return Backend(_kind(device), f"device={device}")
    init, _ = config_value(facts, "init_gpu_device")
    if init and _kind(init.strip()):
        return Backend(_kind(init.strip()), f"init_gpu_device={init.strip()}", "init_gpu_device")
    contexts, _ = config_value(facts, "contexts")
    for entry in (contexts or "").split(";"):
        target = entry.partition("->")[2]
        if _kind(target.strip()):
            return Backend(_kind(target.strip()), f"contexts={(contexts or '').strip()}", "contexts")
    return Backend(None, f"device={device}")


def wants_cuda(facts: Facts, options: Options) -> bool:
    """Theano is set up for the CUDA back-end (device=cuda*, or through init_gpu_device or
    contexts; the old device=gpu* means the same intent), or the user asked for a GPU."""
    return options.require_gpu or gpu_backend(facts).kind in ("cuda", "old")


def not_needed(facts: Facts, options: Options) -> Outcome | None:
    """A skipped outcome when the CUDA path is not used, else None."""
    if wants_cuda(facts, options):
        return None
    return skipped(f"not needed: Theano is configured for {gpu_backend(facts).setting}, so the CUDA path "
                   "is not used (--require-gpu judges it anyway)")


def wants_gpu(facts: Facts, options: Options) -> bool:
    """A GPU device is configured (cuda*, opencl*, the old gpu*; by device, init_gpu_device or
    contexts) or --require-gpu: the gate of the library and cuDNN checks."""
    return gpu_backend(facts).kind is not None or options.require_gpu


def libgpuarray_gate(facts: Facts, options: Options) -> Outcome | None:
    """The skipped outcome of the libgpuarray loader checks when nothing will load libgpuarray: no GPU
    device, or the old back-end of Theano <= 0.9 (it links the CUDA libraries when nvcc builds its
    modules); None when they apply."""
    if not wants_gpu(facts, options):
        return not_gpu(facts)
    device, _ = config_value(facts, "device")
    if old_backend_device(facts, device) and not options.require_gpu:
        return skipped(f"device={device}: Theano's old back-end does not use libgpuarray (its modules are linked "
                       "against the CUDA libraries by nvcc)")
    return None


def not_gpu(facts: Facts) -> Outcome:
    """The skipped outcome of the library and cuDNN checks when ``wants_gpu`` is False."""
    return skipped(f"{gpu_backend(facts).setting}: Theano loads no CUDA library; judge them with "
                   "--require-gpu or device=cuda")


# --- what the target said while it opened the GPU -------------------------------------------------

MAPPED = re.compile(r"Mapped name (?P<name>\S+) to device (?P<device>\S+): (?P<gpu>.+)")


def gpu_init_output(facts: Facts) -> str:
    """What the target printed while Theano and pygpu opened the GPU: the log, stderr, and the
    exception pygpu's import raised (with the files it came through)."""
    imported = stage(facts, "theano_import")
    lines = [str(x) for x in imported.get("log") or []] + [str(imported.get("stderr") or "")]
    err = stage(facts, "pygpu").get("error")
    if isinstance(err, dict):
        lines.append(f"{err.get('type')}: {err.get('message')}")
        lines += [str(f.get("file")) for f in err.get("frames") or [] if isinstance(f, dict)]
    return "\n".join(lines)


def quoted_gpu_lines(facts: Facts) -> tuple[str, ...]:
    """The log records about pygpu quoted for a finding: their first line, and the exception line
    that ends a record with a traceback (`GpuArrayException: ...`)."""
    quoted: list[str] = []
    for record in stage(facts, "theano_import").get("log") or []:
        lines = [line for line in str(record).splitlines() if line.strip()]
        if not lines or not any(w in str(record) for w in ("pygpu", "GpuArrayException")):
            continue
        quoted.append(lines[0])
        last = lines[-1].strip()
        if len(lines) > 1 and ("Exception" in last or "Error" in last) and last != "NoneType: None":
            quoted.append(last)
    return tuple(dict.fromkeys(quoted))


def mapped_gpu(facts: Facts) -> str | None:
    """The GPU Theano reported opening (`Mapped name None to device cuda0: <name> (<bus id>)`)."""
    found = MAPPED.search(str(stage(facts, "theano_import").get("stderr") or ""))
    return f"{found['gpu'].strip()} as {found['device']}" if found else None


def cuda_gpu_opened(facts: Facts) -> str | None:
    """The GPU libgpuarray opened through the CUDA driver in the target, or None."""
    if gpu_backend(facts).kind != "cuda" or stage(facts, "pygpu").get("pygpu_activated") is not True:
        return None
    return mapped_gpu(facts) or "a GPU"


def wsl(facts: Facts) -> Json | None:
    """WSL's marks found by the host probe (kernel version string, driver folder), or None."""
    found = section(facts, "system").get("wsl")
    return found if isinstance(found, dict) else None


def os_label(facts: Facts) -> str:
    return target_os(facts) or "this OS"


# --- GPUs CUDA can see, and the one Theano uses --------------------------------------------------

class Visibility(NamedTuple):
    gpus: list[Json] | None      # in CUDA's order; None when it cannot be told
    value: str | None            # CUDA_VISIBLE_DEVICES, None when unset
    invalid: str | None          # the first entry CUDA cannot use; it and all after it are ignored
    ignored: tuple[str, ...]
    why_unknown: str


def _uuid_match(entry: str, gpus: list[Json]) -> list[Json] | None:
    """GPUs whose UUID starts with ``entry`` (abbreviations are allowed); None when some GPU's
    UUID is not in the facts (a redacted report), so it cannot be told."""
    if any(not g.get("uuid") for g in gpus):
        return None
    return [g for g in gpus if str(g["uuid"]).lower().startswith(entry.lower())]


def visible_gpus(facts: Facts) -> Visibility:
    """Which GPUs a CUDA program sees under CUDA_VISIBLE_DEVICES. Rules from NVIDIA's CUDA
    Programming Guide, "CUDA Environment Variables": unset -> all; empty -> none; integer
    indices are nvidia-smi's ordinals; UUIDs (``GPU-...``, abbreviations allowed) must name one
    GPU; at the first invalid entry CUDA stops reading, so only the entries before it count."""
    nvidia = section(facts, "nvidia")
    known = nvidia.get("status") == "ok" and isinstance(nvidia.get("gpus"), list)
    gpus: list[Json] = [g for g in nvidia.get("gpus") or [] if isinstance(g, dict)] if known else []
    value = env_var(facts, "CUDA_VISIBLE_DEVICES")
    if value is None:
        if not known:
            return Visibility(None, None, None, (), "no GPU list from the driver")
        return Visibility(gpus, None, None, (), "")
    entries = [e.strip() for e in value.split(",")]
    chosen: list[Json] = []
    for pos, entry in enumerate(entries):
        match: list[Json] | None
        if re.fullmatch(r"\d+", entry):
            if not known:
                return Visibility(None, value, None, (), "the driver reported no GPU list to match the indexes")
            match = [gpus[int(entry)]] if int(entry) < len(gpus) else []
        elif entry.upper().startswith(("GPU-", "MIG-")):
            if not known:
                return Visibility(None, value, None, (), "the driver reported no GPU list to match the UUIDs")
            uuid = entry[4:].split("/")[0] if entry.upper().startswith("MIG-") else entry
            match = _uuid_match(uuid, gpus)
            if match is None:
                return Visibility(None, value, None, (), "the GPU UUIDs are not in the facts (redacted report?)")
        else:
            match = []
        if len(match) != 1:
            return Visibility(chosen, value, entry, tuple(entries[pos:]), "")
        if match[0] not in chosen:
            chosen.append(match[0])
    return Visibility(chosen, value, None, (), "")


def device_ordinal(device: str) -> int | None:
    match = re.fullmatch(r"(?:cuda|gpu)(\d+)", device)
    return int(match.group(1)) if match else None


class TheanoGpu(NamedTuple):
    gpu: Json | None
    how: str  # how it was chosen, or why there is none


def theano_gpu(facts: Facts) -> TheanoGpu:
    """The GPU Theano's device setting selects among the visible ones: device=cudaN is the N-th;
    device=cuda is the first one libgpuarray can open (it tries them in order)."""
    nvidia = section(facts, "nvidia")
    if nvidia.get("status") != "ok":
        return TheanoGpu(None, "no working NVIDIA driver was reported (see nvidia-driver)")
    vis = visible_gpus(facts)
    if vis.gpus is None:
        return TheanoGpu(None, f"cannot tell which GPUs are visible: {vis.why_unknown}")
    if not vis.gpus:
        if vis.value is not None:
            return TheanoGpu(None, f"CUDA_VISIBLE_DEVICES={vis.value!r} hides every GPU (see cuda-visible-devices)")
        return TheanoGpu(None, "the driver reports no GPU")
    device = device_setting(facts)
    ordinal = device_ordinal(device)
    order = ""
    mixed = len({(g.get("name"), g.get("compute_capability")) for g in vis.gpus}) > 1
    if mixed and vis.value is None and env_var(facts, "CUDA_DEVICE_ORDER") != "PCI_BUS_ID":
        order = (" (assuming CUDA numbers the GPUs as nvidia-smi does: set CUDA_DEVICE_ORDER=PCI_BUS_ID, "
                 "CUDA's default is FASTEST_FIRST)")
    if ordinal is None:
        return TheanoGpu(vis.gpus[0], f"device={device}: the first visible GPU libgpuarray can open{order}")
    if ordinal >= len(vis.gpus):
        return TheanoGpu(None, f"device={device}, but only {len(vis.gpus)} GPU(s) are visible "
                               "(see cuda-visible-devices)")
    return TheanoGpu(vis.gpus[ordinal], f"device={device}{order}")


def gpu_label(gpu: Json) -> str:
    return f"GPU {gpu.get('index')} ({gpu.get('name') or 'unnamed'})"


def gpu_cc(gpu: Json) -> tuple[str | None, str]:
    """(compute capability, where it comes from): the driver's answer, else the name table."""
    cc = gpu.get("compute_capability")
    if isinstance(cc, str) and re.fullmatch(r"\d+\.\d+", cc.strip()):
        return cc.strip(), "reported by the driver"
    entry = kb_cuda.cc_from_name(gpu.get("name"))
    if entry is not None:
        return entry.cc, f"from its name ({entry.name}: {entry.source})"
    return None, "not reported by the driver, and the name is not in profiles/gpu_names.yaml"
