"""`fix` as text: the plan (each action, its file, a diff for edits, advice as commands), what
was applied, the checks before and after, the run history and undo results. Returns text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import click

from theanodoctor.render.style import Style

VERBS = {"write": "write", "rename": "rename", "link": "alias", "symlink": "link", "clear": "clear",
         "purge": "purge", "unlock": "unlock", "advice": "run by hand"}


def _bold(text: str, style: Style, colour: str | None = None) -> str:
    return click.style(text, bold=True, fg=colour) if style.color else text


def _arrow(style: Style) -> str:
    return "→" if style.unicode else "->"


def render_plan(plan: Any, style: Style) -> str:
    lines: list[str] = []
    applied = plan.applicable
    advice = [a for a in plan.actions if not a.applies]
    refused = [n for n in plan.notes if n.refused]
    if not plan.actions and refused:  # not "nothing to fix": a needed repair was refused (exit 1)
        lines.append(f"Nothing applied: {len(refused)} repair{'s' if len(refused) != 1 else ''} refused "
                     "(see the notes below).")
    elif not plan.actions:
        lines.append("Nothing to fix: no planned repair applies here.")
    if applied:
        lines.append(_bold(f"Plan: {len(applied)} action{'s' if len(applied) != 1 else ''}", style))
    for n, action in enumerate(applied, 1):
        undo = "" if action.undoable else "  [not undoable]"
        lines.append(f"{n}. [{', '.join(action.fix_ids)}] {VERBS[action.kind]} {action.path}{undo}")
        lines.append(f"   {action.summary}")
        if action.target and action.kind == "rename":
            lines.append(f"   {_arrow(style)} {action.target}")
        if action.source:
            lines.append(f"   from {action.source}")
        lines += [f"   note: {note}" for note in action.notes if action.kind != "write"]
        if action.preview:
            lines += ["   " + line for line in action.preview.rstrip("\n").splitlines()]
    if advice:
        lines.append(_bold("Environment changes to make yourself (the doctor never runs these):", style))
    for action in advice:
        lines.append(f"- [{', '.join(action.fix_ids)}] {action.summary}")
        lines += [f"    {shell}: {command}" for shell, command in action.commands]
    for note in plan.notes:
        lines.append(f"note [{note.fix_id}]: {note.message}")
    return "\n".join(lines)


def render_steps(run_id: str, steps: Sequence[Any], style: Style) -> str:
    colours = {"applied": "green", "skipped": "yellow", "failed": "red"}
    lines = [_bold(f"Run {run_id}:", style)]
    for step in steps:
        lines.append(f"{step.step}. {_bold(step.status, style, colours.get(step.status))} {step.action.path}: "
                     f"{step.message}")
    lines.append(f"Undo with: theanodoctor fix --undo {run_id}")
    return "\n".join(lines)


def render_before_after(rows: Iterable[dict[str, Any]], style: Style) -> str:
    rows = list(rows)
    if not rows:
        return ""
    lines = [_bold("Checks before and after:", style)]
    for row in rows:
        mark = "" if row["before"] == row["after"] else "  (changed)"
        lines.append(f"  {row['id']}: {row['before']} {_arrow(style)} {row['after']}{mark}")
        if row["after"] in ("warn", "error") and row.get("message"):
            lines.append(f"      {row['message']}")
    return "\n".join(lines)


def render_blocking(blocking: Sequence[Any], printed: set[str], applied: set[str], style: Style,
                    after: bool) -> str:
    """What stays an error: each with what the user has to do (run the printed commands, finish a
    repair that needs an environment change, or edit by hand what no repair covers)."""
    if not blocking:
        return ""
    count = f"{len(blocking)} blocking error{'s' if len(blocking) != 1 else ''}"
    head = f"Still broken: {count} remain{'s' if len(blocking) == 1 else ''} after this run"
    lines = [_bold(head if after else f"This plan leaves {count}", style, "red")]
    for result in blocking:
        fix_id = result.outcome.fix_id
        pending = fix_id in applied and bool(printed)  # a link made, the loader path still to set
        todo = ("run the commands printed above" if fix_id in printed else
                (f"its repair {'ran' if after else 'is in this plan'}; it takes effect once the environment "
                 "changes printed above are made (in a new shell), then check again") if pending else
                f"its repair {fix_id} ran, yet the check still fails: do what the arrow says" if fix_id in applied
                else f"its repair {fix_id} is not in this plan (see the notes)" if fix_id else
                "no repair of `fix` covers it: do what the arrow says")
        lines.append(f"  {result.id}: {result.outcome.message} ({todo})")
        if result.outcome.remedy and fix_id not in printed and not pending:
            lines.append(f"      {_arrow(style)} {result.outcome.remedy}")
    return "\n".join(lines)


def render_history(runs: Sequence[Any], style: Style) -> str:
    if not runs:
        return "No fix runs recorded."
    lines = [_bold("Fix runs (oldest first):", style)]
    for run in runs:
        lines.append(f"  {run.run_id}  {run.status:<12} {run.applied}/{run.steps} applied  "
                     f"{', '.join(run.fix_ids) or '-'}")
    return "\n".join(lines)


def render_undo(run_id: str, results: Sequence[Any], style: Style) -> str:
    lines = [_bold(f"Undo of {run_id}:", style)]
    lines += [f"  step {r.step} {r.status}: {r.path}: {r.message}" for r in results]
    if not results:
        lines.append("  the run changed nothing")
    return "\n".join(lines)
