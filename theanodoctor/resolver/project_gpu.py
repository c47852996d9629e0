"""The GPU side of a repository's lock: the CPU when no GPU is asked for or found; code importing
the old backend (`theano.sandbox.cuda`) on a GPU that backend cannot drive is a conflict naming
where; else the stack resolver's pins for the chosen release (the old backend's CUDA/cuDNN/nvcc for
Theano <= 0.9, gpuarray with pygpu for 1.0)."""

from __future__ import annotations

from typing import Any, NamedTuple

from theanodoctor import kb_cuda, kb_era
from theanodoctor.resolver.eras import Choice
from theanodoctor.resolver.lock import Setting
from theanodoctor.resolver.model import Cite, Conflict, Reason

OLD_BACKEND_MARK = "sandbox.cuda"
ERA = "profiles/theano_releases.yaml"


class GpuSide(NamedTuple):
    device: str
    pins: tuple[tuple[str, str, str], ...]
    settings: tuple[Setting, ...]
    conflicts: tuple[Conflict, ...]
    notes: tuple[str, ...]


def old_backend_uses(scan: dict[str, Any]) -> list[dict[str, Any]]:
    """The evidence that the code imports the old GPU backend."""
    found: list[dict[str, Any]] = []
    for item in scan.get("constraints") or []:
        for e in item.get("evidence") or []:
            if isinstance(e, dict) and OLD_BACKEND_MARK in str(e.get("text") or "") and e not in found:
                found.append(e)
    return found


def _cpu(reason: str, notes: tuple[str, ...] = ()) -> GpuSide:
    return GpuSide("cpu", (("device", "cpu", reason),),
                   (Setting("theanorc:global.device", "cpu", reason),), (), notes)


def gpu_side(choice: Choice, gpu: Any, scan: dict[str, Any]) -> GpuSide:
    old = old_backend_uses(scan)
    where = ", ".join(f"{e.get('file')}:{e.get('line')}" for e in old[:3])
    if gpu.cpu_only:
        return _cpu("--cpu-only")
    if gpu.cc is None and not gpu.options:
        return _cpu("no NVIDIA GPU was found on this machine (give --gpu, --arch or --cuda for another one)")
    limits = kb_era.old_backend()
    if old and gpu.cc and not any(kb_cuda.arch_support(gpu.cc, cuda).supported for cuda in limits.cuda_known):
        known = ", ".join(limits.cuda_known)
        why = Reason(f"the code imports the old GPU backend ({where}). {limits.arch}; the CUDA versions known "
                     f"to work with it ({known}) do not know sm_{gpu.cc.replace('.', '')}",
                     (Cite(ERA, "old_backend.cuda_known", limits.cuda_source),
                      Cite(ERA, "old_backend.arch", limits.arch_source)))
        return GpuSide("cpu", (), (), (Conflict((str(gpu.label), f"theano.sandbox.cuda ({where})"), (why,), (
            "run it on the CPU: --cpu-only (device=cpu)",
            "port it to the gpuarray backend (device=cuda) with `theanodoctor port` (planned: a later issue)",
        )),), ())
    return _stack(choice, gpu)


def _as_project(conflict: Conflict, choice: Choice) -> Conflict:
    """A stack conflict in the repository's terms: the Theano and Python were chosen from its code, not
    typed, so they are named as such, and a way out that changes them is not one."""
    mine = {f"--theano {choice.version}": f"Theano {choice.version} (what the code's markers allow)",
            f"--python {choice.python}": f"Python {choice.python} (what the code needs)"}
    ways = tuple(w for w in conflict.ways_out if not w.startswith(("use Theano", "use Python")))
    return conflict._replace(inputs=tuple(mine.get(i, i) for i in conflict.inputs), ways_out=ways)


def _stack(choice: Choice, gpu: Any) -> GpuSide:
    """The GPU side of the chosen release from the stack resolver: the old back-end (CUDA 7.5/8.0,
    cuDNN <= 5.1, nvcc) for Theano <= 0.9, gpuarray with pygpu for 1.0; its conflicts as they are."""
    from theanodoctor.resolver.inputs import InputError, build
    from theanodoctor.resolver.resolve import resolve

    try:
        cons = build(python=choice.python, theano=choice.version, cc=gpu.cc, **gpu.options)
    except InputError as exc:
        return GpuSide("cpu", (), (), (Conflict((str(gpu.label),), (Reason(str(exc)),), ("--cpu-only",)),), ())
    res = resolve(cons)
    if not res.resolved:
        return GpuSide("cpu", (), (), tuple(_as_project(c, choice) for c in res.conflicts), ())
    device = res.pin("device") or ("cuda" if res.gpu else "cpu")
    pins = tuple((p.name, p.value, p.reason.text) for p in res.pins
                 if p.name in ("device", "pygpu", "cuda", "cudnn", "driver", "compiler") and p.value != "none")
    settings = [Setting("theanorc:global.device", device, f"the GPU back-end of Theano {choice.version}")]
    notes = [c.reason.text for c in res.caveats]
    if device == "gpu":
        settings.append(Setting("theanorc:global.floatX", "float32", "the old back-end supports float32 only"))
    return GpuSide(device, pins, tuple(settings), (), tuple(notes))
