"""The candidate stacks: every Python side (python_side.py) times every GPU side (gpu_side.py),
plus the one rule across them (where pygpu comes from). Each side is built once and combined with
integer masks, so the whole table is cheap."""

from __future__ import annotations

import functools
from typing import NamedTuple

from theanodoctor import kb_stacks
from theanodoctor.resolver import cites
from theanodoctor.resolver.gpu_side import GpuSide, gpu_sides
from theanodoctor.resolver.inputs import BIT, Constraints
from theanodoctor.resolver.model import Reason
from theanodoctor.resolver.python_side import PySide, py_sides
from theanodoctor.resolver.violation import Violation, matches


class Candidate(NamedTuple):
    py: PySide
    gpu: GpuSide
    cross: tuple[Violation, ...]
    block: int       # inputs that rule it out, OR-ed
    intrinsic: bool  # impossible whatever the inputs

    def violations(self) -> tuple[Violation, ...]:
        return self.py.violations + self.gpu.violations + self.cross



def pygpu_source(python: str, os_name: str) -> kb_stacks.PygpuSource | None:
    return next((s for s in kb_stacks.pygpu_sources() if os_name in s.os and matches(s.python, python)), None)


@functools.cache
def _pygpu_rule(python: str, os_name: str, sources: tuple[kb_stacks.PygpuSource, ...]) -> tuple[Violation, ...]:
    """Cached per table (``sources`` is the loaded table itself)."""
    if pygpu_source(python, os_name) is not None:
        return ()
    ranges = "; ".join(f"{s.channel}: Python {s.python}" for s in sources)
    text = (f"pygpu 0.7.x (Theano's GPU back-end) is not on PyPI and its conda builds cover {ranges}: "
            f"none for Python {python}")
    return (Violation(0, True, BIT["python"] | BIT["device"] | BIT["cuda"],
                      Reason(text, tuple(cites.pygpu(s) for s in sources))),)


def combine(py: PySide, gpu: GpuSide) -> Candidate:
    cross = _pygpu_rule(py.python, gpu.os, kb_stacks.pygpu_sources()) if gpu.cuda else ()
    block, intrinsic = 0, False
    for violation in py.violations + gpu.violations + cross:
        block |= violation.mask
        intrinsic = intrinsic or violation.mask == 0
    return Candidate(py, gpu, cross, block, intrinsic)


def space(cons: Constraints) -> list[Candidate]:
    gpus = gpu_sides(cons)
    return [combine(py, gpu) for py in py_sides(cons) for gpu in gpus]
