"""Text for `resolve --project` (the lock, its reasons and the evidence behind each constraint, or
the conflicts with ways out) and for `provision --project`'s import smoke. Returns text."""

from __future__ import annotations

from typing import Any


def _evidence(items: list[dict[str, Any]]) -> str:
    shown = [f"{e.get('file')}:{e.get('line')}" for e in items[:3] if isinstance(e, dict)]
    return ", ".join(shown) + (f" (+{len(items) - 3} more)" if len(items) > 3 else "")


def render_lock(lock: Any, verbose: bool = False) -> str:
    lines = [f"project: {lock.root} (as of {lock.as_of}, from {lock.as_of_source})"]
    if lock.constraints:
        lines.append("constraints the scan found:")
        for c in lock.constraints:
            lines.append(f"  [{c.get('strength')}] {c.get('subject')} {c.get('spec') or ''}: {c.get('reason') or ''}"
                         f"  <- {_evidence(list(c.get('evidence') or []))}")
    if lock.pins:
        lines.append("lock:" if lock.resolved else "pinned so far:")
        width = max(len(p.name) for p in lock.pins)
        for p in lock.pins:
            lines.append(f"  {p.name:<{width}} {p.spec:<12} {p.reason}")
            if verbose and p.cites:
                lines += [f"  {'':<{width}} {'':<12} <- {c.label()}: {c.source}" for c in p.cites]
    for name, value, reason in lock.gpu_pins:
        lines.append(f"  {name:<9} {value:<12} {reason}")
    for s in lock.settings:
        lines.append(f"setting: {s.name}={s.value}  ({s.reason})")
    for conflict in lock.conflicts:
        lines.append("conflict: " + " + ".join(conflict.inputs))
        lines += [f"  why: {r.text}" for r in conflict.why]
        lines += [f"  way out: {w}" for w in conflict.ways_out]
    lines += [f"note: {n}" for n in lock.notes]
    verdict = (f"resolved: Theano {lock.theano} on Python {lock.python}, device={lock.device}"
               + (f"; unpinned requirements resolved as of {lock.as_of} by {lock.resolver}" if lock.resolver else "")
               if lock.resolved else f"conflict: {len(lock.conflicts)} (see the ways out above)")
    return "\n".join(lines + [verdict]) + "\n"


def render_imports(results: Any) -> str:
    lines = []
    for r in results:
        if r.ok:
            lines.append(f"import {r.module}: ok ({r.seconds:.1f} s)")
            continue
        lines.append(f"import {r.module}: {r.status}: {r.error}")
        lines.append(f"  cause: {r.explanation}" if r.explanation else
                     "  cause: not in the catalogue (`theanodoctor explain` on the full output may say more)")
    return "\n".join(lines) + ("\n" if lines else "")
