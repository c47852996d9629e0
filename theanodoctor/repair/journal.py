"""The journal of one fix run: a JSON-lines file written before and after every action, with
the backups of replaced files and the new contents beside it.

``<state>/runs/<run_id>/journal.jsonl`` holds, in order: one ``run`` record (the plan), then per
step a ``begin`` record (kind, paths, hash before, hash expected after, backup) written and
flushed to disk *before* the action, and a ``done`` record (result, hash after) written after
it; an ``end`` record closes the run. A run killed part-way has a ``begin`` without ``done``:
undo still knows what that step may have changed.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
from typing import Any, NamedTuple

from .state import runs_dir

JOURNAL = "journal.jsonl"


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


class Journal:
    def __init__(self, run_id: str, root: str | None = None) -> None:
        self.run_id = run_id
        self.dir = os.path.join(runs_dir(root), run_id)
        self.path = os.path.join(self.dir, JOURNAL)

    def start(self, plan: list[dict[str, Any]], target: str | None) -> None:
        os.makedirs(os.path.join(self.dir, "backups"), exist_ok=True)
        os.makedirs(os.path.join(self.dir, "new"), exist_ok=True)
        self.append({"type": "run", "run_id": self.run_id, "started": _now(), "target": target,
                     "steps": len(plan), "plan": plan})

    def append(self, record: dict[str, Any]) -> None:
        line = json.dumps({**record, "at": record.get("at") or _now()}, sort_keys=True) + "\n"
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())

    def keep(self, folder: str, step: int, data: bytes | None = None, source: str | None = None) -> str:
        """Store bytes (or a copy of ``source``) under the run folder; returns the path relative
        to it. Flushed to disk before the action it protects."""
        rel = os.path.join(folder, f"{step:04d}")
        full = os.path.join(self.dir, rel)
        if source is not None:
            shutil.copyfile(source, full)
        else:
            with open(full, "wb") as fh:
                fh.write(data or b"")
        with open(full, "rb+") as fh:
            os.fsync(fh.fileno())
        return rel

    def file(self, rel: str) -> str:
        return os.path.join(self.dir, rel)


def read_records(run_dir: str) -> list[dict[str, Any]]:
    """Every complete record; a line cut short by a crash is ignored."""
    records = []
    try:
        with open(os.path.join(run_dir, JOURNAL), encoding="utf-8", errors="replace") as fh:  # damaged: skipped
            for line in fh:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if isinstance(record, dict):
                    records.append(record)
    except OSError:
        pass
    return records


class RunSummary(NamedTuple):
    run_id: str
    started: str | None
    target: str | None
    status: str  # complete, partial, interrupted, undone, undo-partial, planned
    steps: int
    applied: int
    fix_ids: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {**self._asdict(), "fix_ids": list(self.fix_ids)}


def summarize(run_id: str, records: list[dict[str, Any]]) -> RunSummary:
    head = next((r for r in records if r.get("type") == "run"), {})
    done = [r for r in records if r.get("type") == "done"]
    begun = {r.get("step") for r in records if r.get("type") == "begin"}
    end = next((r for r in reversed(records) if r.get("type") == "end"), None)
    undo = next((r for r in reversed(records) if r.get("type") == "undo-end"), None)
    if undo:
        status = "undone" if undo.get("status") == "complete" else "undo-partial"
    elif end:
        status = str(end.get("status"))
    else:
        status = "interrupted" if begun else "planned"
    fixes = tuple(dict.fromkeys(f for step in head.get("plan") or [] for f in step.get("fix_ids") or []))
    return RunSummary(run_id, head.get("started"), head.get("target"), status, int(head.get("steps") or 0),
                      sum(1 for r in done if r.get("result") == "applied"), fixes)


def list_runs(root: str | None = None) -> list[RunSummary]:
    folder = runs_dir(root)
    try:
        names = sorted(n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n, JOURNAL)))
    except OSError:
        return []
    return [summarize(n, read_records(os.path.join(folder, n))) for n in names]
