"""Repairs of config files Theano reads (Theano rel-1.0.5 theano/configparser.py): encoding, inline
comments, the removed ``gpu`` device, options Theano ignores, Theano-PyMC's ``__`` names. Each edits a Draft."""

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


def fix_enum_case(ctx: Context, draft: Draft) -> None:
    """An enum value Theano refuses only for its case (`dnn.enabled = false`): it takes the
    spelling Theano lists (`False`), the one fix of the value that is certain."""
    reg = registry(ctx.facts)
    for line in draft.rc.parsed():
        if line.key is None or line.section is None or line.value is None:
            continue
        key = reg.lookup(line.section, line.key)
        options = reg.options.get(key or "", ())
        value = line.value.strip()
        near = [o for o in options if o.lower() == value.lower() and o != value]
        if key and value not in options and len(near) == 1 and draft.rc.set(line.section, line.key, near[0]):
            draft.note("theanorc-enum-case", f"[{line.section}] {line.key} = {value} -> {near[0]} (Theano's values "
                                             f"are case-sensitive: {', '.join(options)})")


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
        if old is None or old.option != "":
            continue
        moved = _move_known_keys(ctx, draft, name)
        if draft.rc.remove_section(name):
            draft.note("theanorc-obsolete", f"drop the [{name}] section: {old.message.split(';')[0]}" + moved)


def _move_known_keys(ctx: Context, draft: Draft, name: str) -> str:
    """Keys of a removed section that Theano knows in another one (`[nvcc] optimizer_including`,
    `[nvcc] cxxflags`, written there by mistake) move there instead of being dropped."""
    reg = registry(ctx.facts)
    moved = []
    for line in draft.rc.parsed():
        if line.section != name or line.key is None:
            continue
        homes = [k for k in reg.same_option(line.key) if reg.split(k)[0] != name]
        top = [k for k in homes if reg.split(k)[0] == "global"]
        homes = top if len(top) == 1 else homes  # [global] is where a stray key was meant to go
        if len(homes) != 1:
            continue
        section, option = reg.split(homes[0])
        if draft.rc.get(section, option) is not None:
            continue  # the file sets it where Theano reads it already: that value is kept
        draft.rc.set(section, option, (line.value or "").strip())
        moved.append(f"[{section}] {option}")
    return f"; moved {', '.join(moved)} (Theano reads {'them' if len(moved) > 1 else 'it'} there)" if moved else ""


def cnmem_as_preallocate(value: str, preallocate_set: bool) -> tuple[str, str]:
    """What `lib.cnmem = value` becomes: ("carry", the number for gpuarray.preallocate), or
    ("nan" | "off" | "kept", value) when nothing is carried. cnmem's number means the same in
    preallocate: 0 < N <= 1 that share of GPU memory (capped at 0.95), N > 1 that many MB (both
    options' docs, profiles/theano_config.yaml)."""
    value = value.strip()
    try:
        number = float(value)
    except ValueError:
        return "nan", value
    if number <= 0:
        return "off", value
    return ("kept", value) if preallocate_set else ("carry", value)


def cnmem_share(value: str) -> str:
    return "the same share of GPU memory" if float(value) <= 1 else f"the same {value} MB of GPU memory"


def _carry_cnmem(ctx: Context, draft: Draft, value: str) -> str:
    kind, value = cnmem_as_preallocate(value, draft.rc.get("gpuarray", "preallocate") is not None)
    if kind == "nan":
        return f" (its value {value!r} is not a number, so nothing is carried over)"
    if kind == "off":
        return " (0 turned the pool off; preallocate's default 0 keeps the allocation cache without preallocating)"
    if kind == "kept":
        return " (the file already sets [gpuarray] preallocate, which is kept)"
    draft.rc.set("gpuarray", "preallocate", value)
    return f" (set [gpuarray] preallocate = {value}: {cnmem_share(value)})"


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
