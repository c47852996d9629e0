"""Plan a port of a repository: every Python file and .theanorc it holds, read with scan's walker
(no symlinked folder followed; binary, huge, non-UTF-8 files skipped with a reason), each file's
edits as one write action for the safe file layer (its hash is the precondition)."""

from __future__ import annotations

import dataclasses
import difflib
import os
from pathlib import Path
from typing import Any, NamedTuple

from theanodoctor.kb_port import Rule
from theanodoctor.repair.action import Action
from theanodoctor.repair.fsops import sha256_bytes
from theanodoctor.scan.files import RepoFile, kind_of, read_bytes, walk
from theanodoctor.scan.flags import shell_flags
from theanodoctor.scan.model import Problem

from .flags import port_flags
from .model import Change, Manual
from .pyfile import port_source
from .rcfile import port_rc


class FileResult(NamedTuple):
    rel: str
    changes: tuple[Change, ...]
    manual: tuple[Manual, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.rel, "changes": [c.to_dict() for c in self.changes],
                "manual": [m.to_dict() for m in self.manual]}


class PortPlan(NamedTuple):
    root: str
    actions: tuple[Action, ...]
    files: tuple[FileResult, ...]
    skipped: tuple[Problem, ...]
    needs: tuple[str, ...]  # packages the ported code imports
    rules: tuple[Rule, ...]

    @property
    def cited(self) -> list[Rule]:
        """The rules the plan's changes and hand-work items rest on."""
        rules = [c.rule for f in self.files for c in f.changes] + [m.rule for f in self.files for m in f.manual]
        used = {i.strip() for rule in rules for i in rule.split(",")}
        return [r for r in self.rules if r.id in used]

    @property
    def manual(self) -> list[tuple[str, Manual]]:
        return [(f.rel, m) for f in self.files for m in f.manual]

    @property
    def changed(self) -> list[FileResult]:
        return [f for f in self.files if f.changes]


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").splitlines(keepends=True)


def diff(rel: str, old: str, new: str) -> str:
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in difflib.unified_diff(_lines(old), _lines(new), fromfile=f"a/{rel}", tofile=f"b/{rel}"))


def _read(file: RepoFile, problems: list[Problem]) -> bytes | None:
    if file.path.is_symlink():
        problems.append(Problem(file.rel, "a symlink: not followed (its target is ported where it lies in the tree)"))
        return None
    return read_bytes(file, problems)


def _python(file: RepoFile, data: bytes, rules: tuple[Rule, ...], problems: list[Problem]
            ) -> tuple[Action | None, FileResult | None]:
    bom = data.startswith(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        problems.append(Problem(file.rel, "not UTF-8: left alone (port rewrites UTF-8 source only)"))
        return None, None
    try:
        ported = port_source(text, rules)
    except RecursionError:  # fissix's tree is walked recursively: code nested thousands deep
        problems.append(Problem(file.rel, "nested too deeply for the syntax tree: left alone"))
        return None, None
    if ported is None:
        problems.append(Problem(file.rel, "not Python 2 or 3 that the lossless reader reads back byte for byte: "
                                          "left alone"))
        return None, None
    result = FileResult(file.rel, ported.changes, ported.manual)
    if ported.text == text:
        return None, result
    content = (b"\xef\xbb\xbf" if bom else b"") + ported.text.encode("utf-8")
    ids = tuple(dict.fromkeys(i.strip() for c in ported.changes for i in c.rule.split(",")))
    return Action("write", str(file.path.resolve()), ids, f"port {file.rel}: {len(ported.changes)} edit(s)",
                  before=sha256_bytes(data), content=content, preview=diff(file.rel, text, ported.text),
                  notes=tuple(f"line {c.line}: {c.what}" for c in ported.changes)), result


def _theanorc(file: RepoFile, data: bytes, rules: tuple[Rule, ...]) -> tuple[Action | None, FileResult | None]:
    action, edits, partial = port_rc(str(file.path.resolve()), data, {r.id for r in rules})
    changes = tuple(Change(rule, 0, what) for rule, what in edits)
    manual = tuple(Manual("theanorc", 0, file.rel, why) for why in partial)
    if action is not None:
        action = dataclasses.replace(action, preview=action.preview.replace(f"{action.path} (now)", f"a/{file.rel}")
                                     .replace(f"{action.path} (after)", f"b/{file.rel}"))
    return action, FileResult(file.rel, changes, manual) if changes or manual else None


def _script(file: RepoFile, data: bytes, rules: tuple[Rule, ...]) -> FileResult | None:
    """THEANO_FLAGS in shell scripts and Dockerfiles: listed with the value to write (port edits
    Python and .theanorc files only)."""
    wanted = {r.id for r in rules}
    items = []
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
        flags = shell_flags(line)
        ported = port_flags(flags, wanted) if flags else None
        if ported:
            new, edits = ported
            items.append(Manual(edits[0][0], number, line.strip()[:160], f"THEANO_FLAGS here: write {new} "
                                "(port rewrites Python and .theanorc files, not scripts): "
                                + "; ".join(what for _, what in edits)))
    return FileResult(file.rel, (), tuple(items)) if items else None


READ = ("python", "setup.py", "theanorc", "script", "docker")


def _files(root: Path, problems: list[Problem]) -> list[RepoFile]:
    if root.is_file():
        kind = kind_of(root.name) or ""
        return [RepoFile(root.name, root, kind, root.stat().st_size)] if kind in READ else []
    return [f for f in walk(root, problems) if f.kind in READ]


def make_plan(path: str, rules: tuple[Rule, ...]) -> PortPlan:
    root = Path(path).resolve()
    problems: list[Problem] = []
    actions: list[Action] = []
    results: list[FileResult] = []
    for file in _files(root, problems):
        data = _read(file, problems)
        if data is None:
            continue
        if file.kind in ("script", "docker"):
            action, result = None, _script(file, data, rules)
        elif file.kind == "theanorc":
            action, result = _theanorc(file, data, rules)
        else:
            action, result = _python(file, data, rules, problems)
        if action is not None:
            actions.append(action)
        if result is not None and (result.changes or result.manual):
            results.append(result)
    used = {i.strip() for f in results for c in f.changes for i in c.rule.split(",")}
    needs = tuple(sorted({r.needs for r in rules if r.needs and r.id in used}))
    return PortPlan(os.fspath(root), tuple(actions), tuple(results), tuple(problems), needs, rules)
