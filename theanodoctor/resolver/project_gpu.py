"""The GPU side of a repository's lock: the CPU when no GPU is asked for or found; for Theano 1.0
the stack resolver's CUDA/cuDNN/pygpu pins; for code on the old backend (`theano.sandbox.cuda`,
Theano <= 0.9) its own limits, with ways out when the GPU is beyond them."""

from __future__ import annotations

from typing import Any, NamedTuple

from packaging.version import Version

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
    from theanodoctor import kb_cuda, kb_era

    limits = kb_era.old_backend()
    if old and gpu.cc and not any(kb_cuda.arch_support(gpu.cc, cuda).supported for cuda in limits.cuda_known):
        known = ", ".join(limits.cuda_known)
        why = Reason(f"the code imports the old GPU backend ({where}), which {limits.arch}; the CUDA versions "
                     f"known to work with it ({known}) do not know sm_{gpu.cc.replace('.', '')}",
                     (Cite(ERA, "old_backend.cuda_known", limits.cuda_source),
                      Cite(ERA, "old_backend.arch", limits.arch_source)))
        return GpuSide("cpu", (), (), (Conflict((str(gpu.label), f"theano.sandbox.cuda ({where})"), (why,), (
            "run it on the CPU: --cpu-only (device=cpu)",
            "port it to the gpuarray backend (device=cuda) with `theanodoctor port` (planned: a later issue)",
        )),), ())
    if old and Version(choice.version) < Version("0.10"):
        return GpuSide("gpu", (("device", "gpu", f"the old backend (device=gpu), as the code needs ({where})"),
                               ("cuda", " or ".join(limits.cuda_known), limits.cuda_source)),
                       (Setting("theanorc:global.device", "gpu", "the old backend the code imports"),
                        Setting("theanorc:global.floatX", "float32", limits.float32_only)), (),
                       (limits.nvcc,) + _unknown_cuda(gpu.options.get("cuda"), limits.cuda_known))
    return _gpuarray(choice, gpu)


def _unknown_cuda(cuda: str | None, known: tuple[str, ...]) -> tuple[str, ...]:
    if not cuda or any(cuda == k or cuda.startswith(k + ".") for k in known):
        return ()
    return (f"--cuda {cuda}: the tables know the old backend to work with CUDA {' and '.join(known)} only; "
            f"whether CUDA {cuda} works with it is not known",)


def _gpuarray(choice: Choice, gpu: Any) -> GpuSide:
    """Theano 1.0.x on the GPU: CUDA, cuDNN, pygpu, driver and compiler from the stack resolver."""
    from theanodoctor.resolver.inputs import InputError, build
    from theanodoctor.resolver.resolve import resolve

    try:
        cons = build(python=choice.python, theano="1.0.5", cc=gpu.cc, **gpu.options)
    except InputError as exc:
        return GpuSide("cpu", (), (), (Conflict((gpu.label,), (Reason(str(exc)),), ("--cpu-only",)),), ())
    res = resolve(cons)
    if not res.resolved:
        return GpuSide("cpu", (), (), res.conflicts, ())
    pins = tuple((p.name, p.value, p.reason.text) for p in res.pins
                 if p.name in ("pygpu", "cuda", "cudnn", "driver", "compiler"))
    return GpuSide("cuda", (("device", "cuda", f"the gpuarray backend on {gpu.label}"),) + pins,
                   (Setting("theanorc:global.device", "cuda", "Theano 1.0's GPU backend"),), (),
                   ("pygpu is not on PyPI: a venv cannot install it; provision with conda for the GPU",))
