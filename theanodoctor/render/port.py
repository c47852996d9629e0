"""`port` as text: the plan (a unified diff per file), and the report of what changed and what is
left to do by hand (printed, and written as a file like tf_upgrade_v2's report.txt). Returns text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from theanodoctor.render.fix import _bold
from theanodoctor.render.style import Style

DEVICE_RULE = "sandbox-cuda-use"


def render_plan(plan: Any, style: Style) -> str:
    if not plan.actions:
        return "Nothing to rewrite: no use of a removed Theano API that port can rewrite was found."
    lines = [_bold(f"Plan: {len(plan.actions)} file{'s' if len(plan.actions) != 1 else ''} to rewrite", style)]
    for action in plan.actions:
        lines.append(f"[{', '.join(action.fix_ids)}] {action.summary}")
        lines += [line.rstrip("\n") for line in action.preview.splitlines()]
    return "\n".join(lines)


def render_report(plan: Any, applied: str, steps: Sequence[Any] = ()) -> str:
    """The report: ``applied`` says what happened to the plan (applied in run X, dry run, not applied)."""
    lines = ["theanodoctor port report", "========================", f"Folder: {plan.root}", f"Plan: {applied}", ""]
    edits = sum(len(f.changes) for f in plan.changed)
    lines.append(f"Changed: {edits} edit{'s' if edits != 1 else ''} in {len(plan.changed)} "
                 f"file{'s' if len(plan.changed) != 1 else ''}")
    for result in plan.changed:
        for change in result.changes:
            where = f"{result.rel}:{change.line}" if change.line else result.rel
            lines.append(f"  {where}: [{change.rule}] {change.what}")
    failed = [s for s in steps if s.status != "applied"]
    if failed:
        lines += ["", f"Not written ({len(failed)}):"]
        lines += [f"  {s.action.path}: {s.message}" for s in failed]
    manual = plan.manual
    lines += ["", f"To do by hand: {len(manual)} use{'s' if len(manual) != 1 else ''} port does not rewrite"]
    for rel, item in manual:
        lines.append(f"  {rel}:{item.line}: [{item.rule}] {item.code}" if item.line else f"  {rel}: [{item.rule}]")
        lines.append(f"      {item.what}")
    if any(c.rule == DEVICE_RULE for f in plan.changed for c in f.changes):
        lines += ["", "Device: theano.sandbox.cuda.use(...) calls were taken out. Theano 1.0.5 takes the device "
                      "before `import theano`: THEANO_FLAGS=device=cuda0 (or [global] device = cuda0 in .theanorc)."]
    if plan.needs:
        lines += ["", f"Needs: the ported code imports {', '.join(plan.needs)}: "
                      f"pip install {' '.join(plan.needs)}"]
    cited = plan.cited
    if cited:
        lines += ["", "Sources (each rule: the old API at its tag, the new one at rel-1.0.5):"]
        lines += [f"  {r.id}: {r.source}" for r in cited]
    if plan.skipped:
        lines += ["", f"Files not read ({len(plan.skipped)}):"]
        lines += [f"  {p.file}: {p.message}" for p in plan.skipped]
    return "\n".join(lines) + "\n"
