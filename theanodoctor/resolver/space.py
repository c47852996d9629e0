"""The candidate stacks: every Python side (python_side.py) times every GPU side (gpu_side.py),
plus the one rule across them (where pygpu comes from). Each side is built once and combined with
integer masks, so the whole table is cheap."""

from __future__ import annotations

import functools
from typing import NamedTuple

from packaging.specifiers import SpecifierSet

from theanodoctor import kb_era, kb_stacks, knowledge
from theanodoctor.resolver import cites
from theanodoctor.resolver.gpu_side import GpuSide, gpu_sides
from theanodoctor.resolver.inputs import BIT, Constraints
from theanodoctor.resolver.model import Reason
from theanodoctor.resolver.python_side import PySide, py_sides
from theanodoctor.resolver.violation import Violation, matches

PYGPU_07 = SpecifierSet(">=0.7.0,<0.8.0")


class Candidate(NamedTuple):
    py: PySide
    gpu: GpuSide
    cross: tuple[Violation, ...]
    block: int       # inputs that rule it out, OR-ed
    intrinsic: bool  # impossible whatever the inputs
    backend: str | None = None  # the GPU back-end (profiles/theano_releases.yaml ids); None on the CPU

    @property
    def old_backend(self) -> bool:
        return self.backend == kb_era.OLD_BACKEND

    def violations(self) -> tuple[Violation, ...]:
        return self.py.violations + self.gpu.violations + self.cross



@knowledge.derived
def pygpu_source(python: str, os_name: str, allowed: SpecifierSet | None = None) -> kb_stacks.PygpuSource | None:
    """Where the pygpu ``allowed`` (default: 0.7.x, Theano 1.0's) comes from for this Python and OS."""
    allowed = allowed or PYGPU_07
    return next((s for s in kb_stacks.pygpu_sources() if os_name in s.os and matches(s.python, python)
                 and matches(allowed, s.version)), None)


@knowledge.derived
def backend_pygpu(backend: str | None) -> SpecifierSet | None:
    row = next((b for b in kb_era.backends() if b.id == backend), None)
    return row.pygpu if row else None


@functools.cache
def _pygpu_rule(python: str, os_name: str, allowed: SpecifierSet,
                sources: tuple[kb_stacks.PygpuSource, ...]) -> tuple[Violation, ...]:
    """Cached per table (``sources`` is the loaded table itself)."""
    if pygpu_source(python, os_name, allowed) is not None:
        return ()
    wanted = [s for s in sources if matches(allowed, s.version)]
    ranges = "; ".join(f"{s.channel}: Python {s.python}" for s in wanted)
    text = (f"pygpu {allowed} (the GPU back-end's) is not on PyPI and its conda builds cover {ranges}: "
            f"none for Python {python}")
    return (Violation(0, True, BIT["python"] | BIT["device"] | BIT["cuda"],
                      Reason(text, tuple(cites.pygpu(s) for s in wanted))),)


def _old_rules(py: PySide, gpu: GpuSide, cons: Constraints) -> tuple[Violation, ...]:
    """What rules the old back-end (device=gpu, Theano <= 0.9) out on a GPU side."""
    rules = kb_era.old_backend()
    about = BIT["cuda"] | BIT["gpu"] | BIT["theano"] | BIT["device"]
    found = []
    if gpu.cuda not in rules.cuda_known:
        found.append(Violation(0, True, about, Reason(
            f"the old GPU back-end of Theano <= 0.9 (device=gpu) is known to work with CUDA "
            f"{', '.join(rules.cuda_known)} only (it compiles its kernels with that CUDA's nvcc)",
            (cites.old_backend("cuda_known", rules.cuda_source),)), OLD_WAYS_OUT))
    if gpu.cudnn and not cons.cudnn and int(gpu.cudnn.split(".")[0]) > 5:
        found.append(Violation(0, True, BIT["cudnn"], Reason(
            f"the old back-end officially supports cuDNN up to {rules.cudnn_max_official} (newer ones are warned)",
            (cites.old_backend("cudnn_max_official", rules.cudnn_source),))))
    return tuple(found)


OLD_WAYS_OUT = ("run on the CPU (--cpu-only), or use the gpuarray back-end (device=cuda) of Theano 0.9.0 (pygpu 0.6) "
                "or Theano 1.0.5 (pygpu 0.7), porting code that imports theano.sandbox.cuda")


def combine(py: PySide, gpu: GpuSide, backend: str | None = None, cons: Constraints | None = None) -> Candidate:
    backend = (backend or "gpuarray-0.7") if gpu.cuda else None
    if not gpu.cuda:
        cross: tuple[Violation, ...] = ()
    elif backend == kb_era.OLD_BACKEND:
        cross = _old_rules(py, gpu, cons or Constraints())
    else:
        cross = _pygpu_rule(py.python, gpu.os, backend_pygpu(backend) or PYGPU_07, kb_stacks.pygpu_sources())
    block, intrinsic = 0, False
    for violation in py.violations + gpu.violations + cross:
        block |= violation.mask
        intrinsic = intrinsic or violation.mask == 0
    return Candidate(py, gpu, cross, block, intrinsic, backend)


@knowledge.derived
def gpu_backends(flavour: str, theano: str) -> tuple[str, ...]:
    """The usable GPU back-ends of a release, the old one first (what its code expects)."""
    release = kb_era.release(flavour, theano)
    if release is None:
        return ("gpuarray-0.7",)
    usable = {b.id for b in kb_era.backends() if b.usable}
    return tuple(sorted((b for b in release.backends if b in usable), key=lambda b: b != kb_era.OLD_BACKEND))


def space(cons: Constraints) -> list[Candidate]:
    gpus = gpu_sides(cons)
    found = []
    for py in py_sides(cons):
        backends = gpu_backends(py.flavour, py.theano)
        for gpu in gpus:
            if gpu.cuda is None:
                found.append(combine(py, gpu))
            else:
                found += [combine(py, gpu, b, cons) for b in backends]
    return found
