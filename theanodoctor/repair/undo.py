"""Undo a fix run from its journal: restore byte-identical originals from the backups, and
remove only what the run created while its hash still matches what the run wrote. Anything
changed since is left alone and reported."""

from __future__ import annotations

import os
from typing import Any, NamedTuple

from .fsops import atomic_write, sha256_bytes, sha256_file
from .journal import Journal, read_records

NOT_UNDOABLE = {
    "clear": "deleted compiled modules are not restored (Theano recompiles what it needs)",
    "purge": "a deleted compiledir is not restored (Theano recreates it)",
    "unlock": "a stale lock is not put back",
}


class UndoResult(NamedTuple):
    step: int
    path: str
    status: str  # restored, removed, nothing, conflict, not-undoable, failed
    message: str

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


class UnknownRun(ValueError):
    pass


def _undo_write(journal: Journal, rec: dict[str, Any]) -> tuple[str, str]:
    path, before, after = rec["path"], rec.get("before"), rec.get("after")
    now = sha256_file(path)
    if now == before:
        return "nothing", "already as before the run"
    if now != after:
        return "conflict", "changed since the run wrote it; left alone"
    if before is None:
        os.unlink(path)
        return "removed", "created by the run; removed"
    with open(journal.file(rec["backup"]), "rb") as fh:
        original = fh.read()
    if sha256_bytes(original) != before:
        return "failed", "the backup does not match the recorded hash; left alone"
    atomic_write(path, original)
    return "restored", f"restored from {journal.file(rec['backup'])}"


def _undo_rename(rec: dict[str, Any]) -> tuple[str, str]:
    path, target, before = rec["path"], rec.get("target") or "", rec.get("before")
    if sha256_file(path) == before and not os.path.lexists(target):
        return "nothing", "not renamed"
    if os.path.lexists(path) or sha256_file(target) != before:
        return "conflict", f"{target} changed or {path} exists again; left alone"
    os.rename(target, path)
    return "restored", f"renamed back from {target}"


def _undo_created(rec: dict[str, Any]) -> tuple[str, str]:
    path = rec["path"]
    now = sha256_file(path)
    if now is None:
        return "nothing", "not created"
    if now != rec.get("after"):
        return "conflict", "not what the run created; left alone"
    os.unlink(path)
    return "removed", "created by the run; removed"


def _drop_leftovers(path: str) -> None:
    """Temporary files a run killed inside an atomic write left beside ``path`` (only one fix
    runs at a time, so any such file is a dead run's)."""
    folder = os.path.dirname(path)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.startswith(".theanodoctor-") and name.endswith(".tmp"):
            try:
                os.unlink(os.path.join(folder, name))
            except OSError:
                pass


def _remove_empty(folders: list[str]) -> None:
    for folder in reversed(folders):
        try:
            os.rmdir(folder)
        except OSError:
            break  # not empty (something else lives there now) or gone: keep it


def _later_paths(run_id: str, root: str | None) -> dict[str, str]:
    """Paths that later runs (not undone) acted on -> the latest such run: undoing this run
    there would take back their work, so those runs must be undone first."""
    from .journal import list_runs, runs_dir

    found: dict[str, str] = {}
    for run in list_runs(root):
        if run.run_id <= run_id or run.status == "undone":
            continue
        for rec in read_records(os.path.join(runs_dir(root), run.run_id)):
            if rec.get("type") == "begin":
                for key in ("path", "target"):
                    if rec.get(key):
                        found[str(rec[key])] = run.run_id
    return found


def undo_run(run_id: str, root: str | None = None) -> list[UndoResult]:
    journal = Journal(run_id, root)
    records = read_records(journal.dir)
    if not records:
        raise UnknownRun(f"no fix run {run_id!r} (see `theanodoctor fix --history`)")
    begun = [r for r in records if r.get("type") == "begin"]
    later = _later_paths(run_id, root)
    results = []
    for rec in reversed(begun):
        step, kind = int(rec["step"]), rec.get("kind")
        try:
            touched = later.get(str(rec["path"])) or later.get(str(rec.get("target") or ""))
            if touched:
                status, message = "conflict", f"the later run {touched} changed it too: undo that run first"
            elif kind in NOT_UNDOABLE:
                status, message = "not-undoable", NOT_UNDOABLE[str(kind)]
            elif kind == "write":
                status, message = _undo_write(journal, rec)
            elif kind == "rename":
                status, message = _undo_rename(rec)
            else:
                status, message = _undo_created(rec)
            if kind in ("write", "link"):
                _drop_leftovers(str(rec["path"]))
            if status in ("removed", "restored", "nothing"):
                _remove_empty(rec.get("made_dirs") or [])
        except OSError as exc:
            status, message = "failed", f"failed: {exc.strerror or exc}"
        journal.append({"type": "undo", "step": step, "result": status, "message": message})
        results.append(UndoResult(step, str(rec["path"]), status, message))
    ok = all(r.status in ("restored", "removed", "nothing", "not-undoable") for r in results)
    journal.append({"type": "undo-end", "status": "complete" if ok else "partial"})
    return results


def latest_run(root: str | None = None) -> str | None:
    from .journal import list_runs

    runs = [r for r in list_runs(root) if r.status not in ("undone", "planned")]
    return runs[-1].run_id if runs else None
