"""Environment changes the doctor never makes itself (PATH, LD_LIBRARY_PATH, packages): the
commands the checks suggested, gathered into the plan as advice to run by hand."""

from __future__ import annotations

from theanodoctor.repair.action import Action

from .context import Context, Note


def plan_advice(ctx: Context) -> tuple[list[Action], list[Note]]:
    actions = []
    for fix_id in ("env-packages", "env-path"):
        if not ctx.wants(fix_id):
            continue
        for result in ctx.findings(fix_id):
            commands = tuple(("shell", c) for c in result.outcome.commands)
            what = result.outcome.remedy or result.outcome.message
            actions.append(Action("advice", result.id, (fix_id,), f"{result.id}: {what}", commands=commands))
    return actions, []
