"""The resolver's entry points: constraints -> ``Resolution`` (pins with reasons, or conflicts
with ways out), and a named stack checked against the tables and the constraints."""

from __future__ import annotations

from theanodoctor import kb_stacks
from theanodoctor.resolver import solve
from theanodoctor.resolver.caveats import caveats
from theanodoctor.resolver.gpu_side import gpu_side
from theanodoctor.resolver.inputs import BIT, KEYS, Constraints, InputError
from theanodoctor.resolver.model import Conflict, Reason, Resolution
from theanodoctor.resolver.pins import pins
from theanodoctor.resolver.python_side import py_side
from theanodoctor.resolver.space import Candidate, combine, space


def resolve(cons: Constraints) -> Resolution:
    candidates = space(cons)
    active = cons.active()
    found = solve.best(candidates, active, cons)
    if found is None:
        conflicts = solve.conflicts(candidates, active, cons) or [
            Conflict((), (Reason("no stack in the tables satisfies these inputs"),), ())]
        return Resolution(cons, (), (), tuple(conflicts), None, None)
    stack = solve.stack_of(found)
    return Resolution(cons, pins(found, cons), caveats(found), (), stack.id if stack else None, None, found.gpu.os)


def stack_candidate(stack: kb_stacks.Stack, cons: Constraints) -> Candidate:
    """A named stack as a candidate, judged by the same rules as any other."""
    import theanodoctor.knowledge as knowledge

    verified = next((v for v in knowledge.verified_stacks() if (v.flavour, v.python, v.numpy, v.scipy)
                     == (stack.flavour, stack.python, stack.numpy, stack.scipy)), None)
    py = py_side(stack.flavour, stack.theano, stack.python, stack.numpy, stack.scipy, verified, cons)
    os_name = stack.os if stack.os != "any" else (cons.os or cons.host_os)
    from theanodoctor import kb_libs

    row = kb_libs.build_for(stack.cudnn) if stack.cudnn else None
    return combine(py, gpu_side(os_name, stack.cuda, stack.cudnn, row, cons))


def check_profile(stack_id: str, cons: Constraints) -> Resolution:
    """``resolve --profile ID``: the stack's pins, and a conflict for every input (or table rule)
    it breaks. The profile itself decides GPU or CPU, so only an explicit --cpu-only counts."""
    stack = kb_stacks.stack(stack_id)
    if stack is None:
        known = ", ".join(s.id for s in kb_stacks.stacks())
        raise InputError(f"--profile {stack_id!r}: no such stack in profiles/stacks.yaml (known: {known})")
    candidate = stack_candidate(stack, cons)
    active = cons.active() & ~BIT["device"]
    found = []
    for violation in candidate.violations():
        if violation.mask and not violation.mask & active:
            continue
        key = KEYS[violation.mask.bit_length() - 1] if violation.mask else None
        inputs = (cons.label(key),) if key else ()
        why = violation.reason if violation.rule else Reason(f"the stack has {violation.reason.text}")
        ways = (f"drop {cons.label(key)}, or resolve without --profile",) if key else ()
        found.append(Conflict(inputs, (why,), ways + ((violation.remedy,) if violation.remedy else ())))
    if found:
        return Resolution(cons, (), (), tuple(found), None, stack.id)
    return Resolution(cons, pins(candidate, cons), caveats(candidate), (), stack.id, stack.id, candidate.gpu.os)
