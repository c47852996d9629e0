"""Environment changes the doctor never makes itself (PATH, LD_LIBRARY_PATH, packages,
THEANO_FLAGS): the commands the checks suggested, and a corrected THEANO_FLAGS, gathered into
the plan as advice to run by hand."""

from __future__ import annotations

from theanodoctor.checks.common import env_var, flag_items
from theanodoctor.checks.config_keys import registry

from theanodoctor.repair.action import Action

from .context import Context, Note
from .shells import set_commands


def _flags_advice(ctx: Context) -> list[Action]:
    """THEANO_FLAGS with the removed gpu device and (Theano-PyMC) dotted names corrected."""
    text = env_var(ctx.facts, "THEANO_FLAGS")
    if not text:
        return []
    dunder = registry(ctx.facts).sep == "__"
    entries: list[str] = []
    fixes: list[str] = []
    for key, value in flag_items(text):
        if dunder and "." in key and ctx.wants("theanorc-pymc-names"):
            key, fixes = key.replace(".", "__"), fixes + ["theanorc-pymc-names"]
        if key in ("device", "init_gpu_device") and (value or "").startswith("gpu") and ctx.wants("theanorc-device"):
            value, fixes = "cuda" + (value or "")[len("gpu"):], fixes + ["theanorc-device"]
        entries.append(key if value is None else f"{key}={value}")
    if not fixes:
        return []
    flags = ",".join(entries)
    return [Action("advice", "THEANO_FLAGS", tuple(dict.fromkeys(fixes)),
                   f"THEANO_FLAGS={text} overrides the config files: change it to {flags}",
                   commands=set_commands("THEANO_FLAGS", flags, ctx.windows))]


def plan_advice(ctx: Context) -> tuple[list[Action], list[Note]]:
    actions = _flags_advice(ctx)
    for fix_id in ("env-packages", "env-path"):
        if not ctx.wants(fix_id):
            continue
        for result in ctx.findings(fix_id):
            commands = tuple(("shell", c) for c in result.outcome.commands)
            what = result.outcome.remedy or result.outcome.message
            actions.append(Action("advice", result.id, (fix_id,), f"{result.id}: {what}", commands=commands))
    return actions, []
