"""Pick the best candidate the inputs allow, or find the smallest sets of inputs that cannot hold
together, say why (the table rules behind them) and what would work instead."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from theanodoctor import kb_cuda, kb_era, kb_stacks, knowledge
from theanodoctor.resolver.gpu_side import driver_minimum
from theanodoctor.resolver.inputs import BIT, KEYS, Constraints
from theanodoctor.resolver.model import Conflict, Reason
from theanodoctor.resolver.python_side import PySide
from theanodoctor.resolver.space import Candidate, backend_pygpu, gpu_backends, pygpu_source
from theanodoctor.resolver.violation import OS_LABEL, vkey

GPU_INPUTS = BIT["cuda"] | BIT["cudnn"] | BIT["gpu"] | BIT["driver"]


def feasible(candidates: Sequence[Candidate], active: int) -> list[Candidate]:
    return [c for c in candidates if not c.intrinsic and not c.block & active]


@knowledge.table
def _stack_keys() -> dict[tuple[str | None, ...], tuple[int, kb_stacks.Stack]]:
    """Each named stack under its pins (a CPU-only stack for `any` OS under None)."""
    found: dict[tuple[str | None, ...], tuple[int, kb_stacks.Stack]] = {}
    for index, stack in enumerate(kb_stacks.stacks()):
        key = (stack.flavour, stack.theano, stack.python, stack.numpy, stack.scipy, stack.cuda, stack.cudnn,
               None if stack.os == "any" else stack.os)
        found.setdefault(key, (index, stack))
    return found


def _stack_entry(candidate: Candidate) -> tuple[int, kb_stacks.Stack] | None:
    py, gpu = candidate.py, candidate.gpu
    pins = (py.flavour, py.theano, py.python, py.numpy, py.scipy, gpu.cuda, gpu.cudnn)
    keys = _stack_keys()
    return keys.get((*pins, gpu.os)) or (keys.get((*pins, None)) if gpu.cuda is None else None)


def stack_of(candidate: Candidate) -> kb_stacks.Stack | None:
    """The named stack whose pins the candidate equals."""
    entry = _stack_entry(candidate)
    return entry[1] if entry else None


def _rank(candidate: Candidate) -> int:
    entry = _stack_entry(candidate)
    return entry[0] if entry else len(_stack_keys())


def score(candidate: Candidate, cons: Constraints) -> tuple:  # type: ignore[type-arg]
    """Lower is better: this OS, plain Theano (auto means Theano-PyMC only when plain Theano cannot
    hold), a named stack, a verified Python stack, cuDNN 7 when a CUDA with it knows the GPU (then
    the newest such CUDA), else the oldest CUDA that knows it."""
    py, gpu = candidate.py, candidate.gpu
    cuda = vkey(gpu.cuda) if gpu.cuda else ()
    return (gpu.os != (cons.os or cons.host_os), py.flavour != "Theano", _release_rank(py), _rank(candidate),
            py.verified is None, not _own_pin(py), _backend_rank(candidate),
            gpu.cuda is not None and gpu.cudnn is None,
            tuple(-p for p in cuda) if gpu.cudnn else cuda,
            gpu.cuda is not None and not _channel(candidate).startswith("conda-forge"), abs(_number(py.python) - 307))


def _release_rank(py: PySide) -> int:
    return _release_index(py.flavour, py.theano)


@knowledge.derived
def _release_index(flavour: str, theano: str) -> int:
    """0 for the newest release of each flavour (what auto means), then older ones newest first."""
    versions = sorted((kb_era.vkey(r.version) for r in kb_era.releases() if r.flavour == flavour), reverse=True)
    have = kb_era.vkey(theano)
    return versions.index(have) if have in versions else len(versions)


def _own_pin(py: PySide) -> bool:
    """The Python/numpy/scipy are the release's own (verified or its era pin), not borrowed."""
    return py.verified is not None or _is_era_pin(py.flavour, py.theano, py.python, py.numpy, py.scipy)


@knowledge.derived
def _is_era_pin(flavour: str, theano: str, python: str, numpy: str | None, scipy: str | None) -> bool:
    release = kb_era.release(flavour, theano)
    return bool(release and any((p.python, p.numpy, p.scipy) == (python, numpy, scipy) for p in release.pins))


def _backend_rank(candidate: Candidate) -> int:
    """The old back-end first where the release has it (what code of that time expects)."""
    if candidate.gpu.cuda is None:
        return 0
    order = gpu_backends(candidate.py.flavour, candidate.py.theano)
    return order.index(candidate.backend) if candidate.backend in order else len(order)


def _number(python: str) -> int:
    major, minor = (vkey(python) + (0, 0))[:2]
    return major * 100 + minor


def _channel(candidate: Candidate) -> str:
    source = pygpu_source(candidate.py.python, candidate.gpu.os, backend_pygpu(candidate.backend))
    return source.id if source else ""


def best(candidates: Sequence[Candidate], active: int, cons: Constraints) -> Candidate | None:
    found = feasible(candidates, active)
    return min(found, key=lambda c: score(c, cons)) if found else None


def bits(mask: int) -> list[int]:
    return [BIT[k] for k in KEYS if mask & BIT[k]]


def smallest_conflict(candidates: Sequence[Candidate], active: int) -> int | None:
    """The smallest set of active inputs that rules out every candidate (None: some candidate is
    feasible). Candidates are reduced to the distinct sets of inputs that block them. The implicit
    wish for a GPU stack is always part of it and never reported (--cpu-only is a way out)."""
    blocks = {c.block & active for c in candidates if not c.intrinsic}
    if 0 in blocks:
        return None
    soft = active & BIT["device"]
    given = bits(active & ~soft)
    for size in range(1, len(given) + 1):
        for combo in itertools.combinations(given, size):
            chosen = sum(combo)
            if all(b & (chosen | soft) for b in blocks):
                return chosen
    return active & ~soft


def _why(candidates: Sequence[Candidate], conflict: int) -> tuple[list[Reason], list[str]]:
    """The table rules that rule out the candidates matching every input of the conflict."""
    reasons: dict[str, Reason] = {}
    remedies: list[str] = []
    for candidate in candidates:
        found = candidate.violations()
        if not all(v.mask == 0 or (v.rule and v.mask & conflict) for v in found):
            continue
        for violation in found:
            if violation.rule and violation.about & conflict and violation.reason.text not in reasons:
                reasons[violation.reason.text] = violation.reason
                if violation.remedy and violation.remedy not in remedies:
                    remedies.append(violation.remedy)
    return list(reasons.values())[:6], remedies


def _arch_span(cuda: str) -> str:
    known = [a for a in kb_cuda.architectures().values() if kb_cuda.arch_support(a.cc, cuda).supported]
    return f"{known[0].sm} - {known[-1].sm}" if known else "none in the tables"


def _way_out(key: str, found: Candidate, cons: Constraints) -> str:
    py, gpu = found.py, found.gpu
    cuda = f"CUDA {gpu.cuda}" if gpu.cuda else "a CPU-only stack"
    if key == "cuda" and gpu.cuda is None:
        return f"drop --cuda {cons.cuda}: a CPU-only stack"
    if key == "cuda":
        return f"use {cuda} instead of {cons.cuda}" + (f" (with {cons.label('gpu')})" if cons.cc else "")
    if key == "gpu":
        return (f"a GPU that CUDA {cons.cuda} knows ({_arch_span(cons.cuda)})" if cons.cuda
                else f"a different GPU ({cuda} then works)")
    if key == "driver":
        need = driver_minimum(gpu.cuda, gpu.os) if gpu.cuda else None
        return (f"update the driver to {need.version} or newer ({cuda} on {OS_LABEL[gpu.os]})" if need
                else "update the driver")
    if key == "python":
        return f"use Python {py.python} instead of {cons.python}"
    if key == "numpy":
        return f"use numpy {py.numpy} instead of {cons.numpy}"
    if key == "theano":
        return f"use {py.flavour} {py.theano}"
    if key == "cudnn":
        if gpu.cudnn:
            return f"use cuDNN {gpu.cudnn} ({cuda})"
        return f"run without cuDNN ({cuda}, `[dnn] enabled = False`)"
    if key == "os":
        return f"on {OS_LABEL[gpu.os]}"
    if key == "device":
        return f"--cpu-only (Theano on the CPU: Python {py.python}, numpy {py.numpy})"
    return f"drop --cpu-only ({cuda})"


def _key(bit: int) -> str:
    return KEYS[bit.bit_length() - 1]


def explain(candidates: Sequence[Candidate], conflict: int, base: int, cons: Constraints) -> Conflict:
    """One conflict: its inputs, the rules behind it, and for each input what works without it."""
    soft = base & BIT["device"]
    reasons, remedies = _why(candidates, conflict | soft)
    ways: list[str] = []
    for bit in bits(conflict | soft):
        # --cpu-only also sets aside every GPU input; without --os this machine's OS is preferred
        dropped = bit | (GPU_INPUTS if bit == BIT["device"] else 0)
        asked = cons._replace(os=None) if bit == BIT["os"] else cons
        found = best(candidates, (base | conflict) & ~dropped, asked)
        if found is not None:
            ways.append(_way_out(_key(bit), found, cons))
            continue
        # another input holds it too: name the pair that works together
        for other in bits(base & ~soft & ~dropped):
            found = best(candidates, (base | conflict) & ~dropped & ~other, asked)
            if found is not None:
                ways.append(f"{_way_out(_key(bit), found, cons)}, and {_way_out(_key(other), found, cons)}")
                break
    ways += [r for r in remedies if r not in ways]
    if not reasons:
        reasons = [Reason("no stack in the tables satisfies these inputs together")]
    labels = tuple(cons.label(KEYS[b.bit_length() - 1]) for b in bits(conflict & ~soft))
    return Conflict(labels, tuple(reasons), tuple(ways))


def conflicts(candidates: Sequence[Candidate], active: int, cons: Constraints) -> list[Conflict]:
    """Every independent conflict: find the smallest, set its inputs aside, look again."""
    found: list[int] = []
    remaining = active
    while True:
        conflict = smallest_conflict(candidates, remaining)
        if conflict is None:
            break
        found.append(conflict)
        remaining &= ~conflict
        if not conflict:
            break
    return [explain(candidates, c, remaining, cons) for c in found]
