"""Plan the config-file repairs: which files to edit, each edited once by every wanted repair,
and the misnamed ``.theanorc.txt.txt`` renamed (Windows)."""

from __future__ import annotations

import os
from typing import Callable

from theanodoctor.checks.config_files import rc_files, rc_section
from theanodoctor.checks.lib_folders import subpath

from theanodoctor.repair.action import Action
from theanodoctor.repair.fsops import sha256_file

from . import rc_repairs, rc_write
from .context import Context, Note
from .rc_draft import Draft

# Order matters: decode first, then split comments off values before values are judged.
REPAIRS: tuple[tuple[str, Callable[[Context, Draft], None]], ...] = (
    ("theanorc-encoding", rc_repairs.fix_encoding),
    ("theanorc-inline-comment", rc_repairs.fix_inline_comments),
    ("theanorc-device", rc_repairs.fix_device),
    ("theanorc-enum-case", rc_repairs.fix_enum_case),
    ("theanorc-obsolete", rc_repairs.fix_obsolete),
    ("theanorc-pymc-names", rc_repairs.fix_pymc_names),
)
WRITERS: tuple[tuple[str, Callable[[Context, Draft], None]], ...] = (
    ("theanorc-write", rc_write.write_for_toolkit),
    ("blas-ldflags", rc_write.write_blas_ldflags),
)


def write_target(ctx: Context) -> str:
    """The file new settings go to: the last file Theano reads that exists (its values win),
    else the first one it would read (``~/.theanorc``, or what THEANORC names)."""
    files = rc_files(ctx.facts)
    present = [str(f["path"]) for f in files if f.get("exists") and f.get("readable") and f.get("path")]
    if present:
        return present[-1]
    if files and files[0].get("path"):
        return str(files[0]["path"])
    return subpath(ctx.home, ".theanorc")


def _here(path: str, ctx: Context) -> str | None:
    """The file on this machine a snapshot's path stands for. A redacted report writes the home
    folder as ``~``: it is taken as this machine's home only when the file there has exactly the
    content the report recorded (a report made here), never by guess."""
    if not path.startswith("~"):
        return path
    local = os.path.expanduser(path)
    recorded = next((f for f in rc_files(ctx.facts) if f.get("path") == path), None)
    if recorded is None or not recorded.get("exists"):
        return None
    try:
        with open(local, "rb") as handle:
            data = handle.read(int(recorded.get("size") or 0) + 1)
    except OSError:
        return None
    head = recorded.get("text_head")
    return local if isinstance(head, str) and len(data) == recorded.get("size") and \
        data.decode("utf-8", "replace") == head else None


def plan_rc(ctx: Context) -> tuple[list[Action], list[Note]]:
    notes: list[Note] = []
    paths = [str(f["path"]) for f in rc_files(ctx.facts) if f.get("exists") and f.get("path")]
    target = write_target(ctx)
    if target not in paths:
        paths.append(target)
    actions = []
    listed = {str(f.get("path")) for f in rc_files(ctx.facts) if f.get("exists")}
    for recorded in paths:
        path = _here(recorded, ctx)
        if path is None:
            notes.append(Note("theanorc-write", f"needs the machine: {recorded} is redacted in the report (its "
                                                "home folder is written as ~) and no file with that content is in "
                                                "this home; run `theanodoctor fix` on the machine the report "
                                                "came from, or plan from `report --no-redact`"))
            continue
        if path != recorded:
            notes.append(Note("theanorc-write", f"{recorded} of the redacted report is {path} here: same content"))
        if not os.path.isabs(path) or not os.path.isdir(os.path.dirname(path)) or (
                recorded in listed and not os.path.lexists(path)):
            # A snapshot from another machine: its files are not here to edit.
            notes.append(Note("theanorc-write", f"needs the machine: {path} is not on this machine, so its "
                                                "repairs cannot be planned here"))
            continue
        if os.path.lexists(path) and not os.path.isfile(path):  # configparser skips it; so does the doctor
            notes.append(Note("theanorc-write", f"{path} is not a regular file (a folder?); Theano skips it, and "
                                                "it is not edited"))
            continue
        draft = Draft.read(path)
        if not draft.editable:
            notes.append(Note("theanorc-encoding", f"refused: {path} is neither UTF-8 nor UTF-16, so its repairs "
                                                   "cannot be made safely; not edited (re-save it as UTF-8)"))
            continue
        for fix_id, repair in REPAIRS:
            if ctx.wants(fix_id):
                repair(ctx, draft)
        if path == target:
            for fix_id, writer in WRITERS:
                if ctx.wants(fix_id):
                    writer(ctx, draft)
        notes += [Note(fix_id, f"refused: {why}") for fix_id, why in draft.refusals]
        action = draft.action()
        if action and os.path.islink(path):
            # A write replaces the link with a file (a dotfile manager's link is lost) and editing
            # the target changes a file that may be shared or managed elsewhere: say so instead.
            real = os.path.realpath(path)
            notes.append(Note(action.fix_ids[0], f"refused: {path} is a symbolic link to {real}; not edited "
                                                 f"through the link (planned: {'; '.join(action.notes)}). Edit "
                                                 f"{real} by hand, or run fix with THEANORC={real}"))
        elif action:
            actions.append(action)
    return actions, notes


def plan_rename(ctx: Context) -> tuple[list[Action], list[Note]]:
    if not ctx.wants("theanorc-rename") or not ctx.windows:
        return [], []
    actions, notes = [], []
    for path in rc_section(ctx.facts).get("lookalikes") or []:
        path = str(path)
        if not path.lower().endswith(".theanorc.txt.txt"):
            continue
        dest = path[: -len(".txt")]
        if os.path.lexists(dest):
            notes.append(Note("theanorc-rename", f"{path} is misnamed, but {dest} exists too: merge them by hand"))
            continue
        actions.append(Action("rename", path, ("theanorc-rename",), f"rename {os.path.basename(path)} to "
                              f"{os.path.basename(dest)} (Explorer hid the extension; Theano reads {dest})",
                              before=sha256_file(path), target=dest))
    return actions, notes
