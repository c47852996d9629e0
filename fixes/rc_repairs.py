"""Repairs of config files Theano reads (FACTS.md s2): encoding, inline comments, the removed
``gpu`` device, options Theano ignores, Theano-PyMC's ``__`` names. Each edits a Draft."""

from __future__ import annotations

from theanodoctor.checks.common import old_backend_device
from theanodoctor.checks.config_keys import registry, removed_for

from .context import Context
from .rc_draft import Draft
from .rc_text import INLINE_COMMENT

ENCODING_LABELS = {"utf-8-bom": "UTF-8 with BOM", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16"}


def fix_encoding(ctx: Context, draft: Draft) -> None:
    if draft.original is None or draft.encoding not in ENCODING_LABELS:
        return
    draft.to_utf8 = True
    draft.note("theanorc-encoding", f"re-save as UTF-8 without BOM (was {ENCODING_LABELS[draft.encoding]}, "
                                    "which Theano cannot read)")


def fix_inline_comments(ctx: Context, draft: Draft) -> None:
    for line in reversed(draft.rc.parsed()):
        if line.key and line.value and INLINE_COMMENT.search(line.value):
            if draft.rc.split_inline_comment(line.at):
                draft.note("theanorc-inline-comment",
                           f"[{line.section}] {line.key}: move the inline comment onto its own line")


DEVICE_KEYS = ("device", "init_gpu_device")


def fix_device(ctx: Context, draft: Draft) -> None:
    # configparser hands Theano a [DEFAULT] value for every section that lacks its own.
    for sect in ("global", "DEFAULT"):
        for key in DEVICE_KEYS:
            value = draft.rc.get(sect, key)
            if value and value.startswith("gpu") and not old_backend_device(ctx.facts, value):
                new = "cuda" + value[len("gpu"):]
                draft.rc.set(sect, key, new)
                draft.note("theanorc-device", f"[{sect}] {key} = {value} -> {new} (the old GPU back-end was "
                                              "removed in Theano 1.0; `device=cuda*` is the gpuarray back-end)")


def fix_obsolete(ctx: Context, draft: Draft) -> None:
    for line in reversed(draft.rc.parsed()):
        if line.key is None or line.section is None:
            continue
        old = removed_for(ctx.facts, line.section, line.key)
        if old is None or old.option == "":
            continue
        draft.rc.remove(line.section, line.key)
        if line.section == "lib" and line.key == "cnmem":
            carried = _carry_cnmem(ctx, draft, line.value or "")
            draft.note("theanorc-obsolete", f"drop [lib] cnmem = {line.value}: Theano 1.0 ignores it; "
                                            "`[gpuarray] preallocate` replaced it" + carried)
        else:
            draft.note("theanorc-obsolete", f"drop [{line.section}] {line.key}: Theano 1.0 ignores it")
        if draft.rc.section_is_empty(line.section):
            draft.rc.remove_section(line.section)
    for name in draft.rc.sections():
        old = removed_for(ctx.facts, name, "")
        if old is not None and old.option == "" and draft.rc.remove_section(name):
            draft.note("theanorc-obsolete", f"drop the [{name}] section: {old.message.split(';')[0]}")


def _carry_cnmem(ctx: Context, draft: Draft, value: str) -> str:
    """cnmem's fraction means the same in preallocate (0 < p <= 1: that share of GPU memory)."""
    try:
        number = float(value)
    except ValueError:
        return ""
    if not 0 < number <= 1 or draft.rc.get("gpuarray", "preallocate") is not None:
        return ""
    draft.rc.set("gpuarray", "preallocate", value.strip())
    return f" (set [gpuarray] preallocate = {value.strip()}: the same share of GPU memory)"


def fix_pymc_names(ctx: Context, draft: Draft) -> None:
    if registry(ctx.facts).sep != "__":
        return
    sections = draft.rc.sections()
    for name in sections:
        if "." in name and name.replace(".", "__") in sections:
            # A second [dnn__conv] makes configparser refuse the whole file: worse than now.
            draft.refusals.append(("theanorc-pymc-names", f"[{name}] and [{name.replace('.', '__')}] are both in "
                                   f"{draft.path}: renaming would repeat a section; move [{name}]'s options by hand"))
            continue
        if "." in name and draft.rc.rename_section(name, name.replace(".", "__")):
            draft.note("theanorc-pymc-names", f"[{name}] -> [{name.replace('.', '__')}] (Theano-PyMC's "
                                              "`__` names for nested sections)")
