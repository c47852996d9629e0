"""Apply a plan through the journal: re-check each action's precondition right before it,
back up, act atomically, verify, record.

Test seam: ``THEANODOCTOR_TEST_KILL=after:N`` (or ``before:N``) makes the process SIGKILL
itself after step N completed (or after step N's ``begin`` record, before it acts), so tests
can kill a real run between two actions; ``inside:N`` kills it inside step N's atomic write,
once the temporary file is written and before the rename; ``stop:N`` stops it (SIGSTOP) after
step N instead, so a test can start a second run while the first holds the lock.
"""

from __future__ import annotations

import os
import signal
from typing import Any, NamedTuple

from . import compiledir as cdir
from . import fsops
from .action import Action
from .fsops import atomic_write, link_or_copy, make_dirs, missing_dirs, sha256_file
from .journal import Journal

KILL_ENV = "THEANODOCTOR_TEST_KILL"


class StepResult(NamedTuple):
    step: int
    action: Action
    status: str  # applied, skipped, failed
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "kind": self.action.kind, "path": self.action.path,
                "fix_ids": list(self.action.fix_ids), "status": self.status, "message": self.message}


def _maybe_die(when: str, step: int) -> None:
    asked = os.environ.get(KILL_ENV)
    if asked == f"{when}:{step}":
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))
    if asked == f"stop:{step}" and when == "after" and hasattr(signal, "SIGSTOP"):
        os.kill(os.getpid(), signal.SIGSTOP)


def _cache_guard(action: Action) -> str | None:
    proof = cdir.prove_compiledir(action.path)
    if not proof.ok:
        return f"refused: {proof.why}"
    lock = cdir.lock_state(action.path)
    if action.kind == "unlock":
        if cdir._is_link_like(os.path.join(action.path, "lock_dir")):  # its lock file lies elsewhere
            return "refused: lock_dir is a symlink or junction; nothing outside the compiledir is removed"
        if not lock.held:
            return "the lock is gone already"
        if lock.alive and not action.force:
            return f"refused: process {lock.owner_pid} holds the lock and is alive"
        if lock.alive is None and not action.force:
            return "refused: whether the lock's owner is alive cannot be told (another host?); --force overrides"
        return None
    if lock.live and not action.force:
        who = f"process {lock.owner_pid}" if lock.owner_pid else ", ".join(map(str, lock.pymc_holders)) or "someone"
        return f"refused: the compile lock is held by {who}, which may be compiling now"
    return None


def precondition(action: Action) -> str | None:
    """Why the action must not run now (None: it may)."""
    kind, path = action.kind, action.path
    if not os.path.isabs(path):
        return f"{path} is not a path on this machine (a snapshot from another one?)"
    if kind in ("clear", "purge", "unlock"):
        return _cache_guard(action)
    if kind == "write" and sha256_file(path) != action.before:
        return f"{path} changed since the plan was made; left alone"
    if kind == "rename":
        if sha256_file(path) != action.before:
            return f"{path} changed since the plan was made; left alone"
        if action.target and os.path.lexists(action.target):
            return f"{action.target} exists; never overwritten"
    if kind in ("link", "symlink") and os.path.lexists(path):
        return f"{path} exists; never overwritten"
    if kind == "link" and (action.before is None or sha256_file(action.source or "") != action.before):
        return f"{action.source} is missing or changed since the plan was made"
    return None


def _folder(path: str) -> str:
    return os.path.dirname(os.path.abspath(path))


def _perform(action: Action) -> str:
    """Do it; returns a line for the report. Raises OSError on failure."""
    kind, path = action.kind, action.path
    if kind == "write":
        make_dirs(_folder(path))
        atomic_write(path, action.content or b"")
        return "written"
    if kind == "rename":
        os.rename(path, action.target or "")
        return f"renamed to {action.target}"
    if kind == "link":
        make_dirs(_folder(path))
        how = link_or_copy(action.source or "", path)
        if sha256_file(path) != action.before:
            os.unlink(path)
            raise OSError(f"{path} does not match {action.source} after the {how}; removed again")
        return f"{how} of {action.source}, verified by hash"
    if kind == "symlink":
        make_dirs(_folder(path))
        os.symlink(action.target or "", path)
        return f"symlink to {action.target}"
    if kind == "clear":
        return f"{cdir.remove_modules(path, action.items)} module folder(s) removed"
    if kind == "purge":
        entries = cdir.remove_tree(path)
        return f"{entries} entries removed"
    if kind == "unlock":
        lock_dir = os.path.join(path, "lock_dir")
        if os.path.lexists(os.path.join(lock_dir, "lock")):
            os.unlink(os.path.join(lock_dir, "lock"))
        os.rmdir(lock_dir)
        return f"{lock_dir} removed"
    raise ValueError(f"cannot apply a {kind} action")


def _expected_after(action: Action) -> str | None:
    if action.kind == "write":
        return fsops.sha256_bytes(action.content or b"")
    if action.kind in ("rename", "link"):  # the same bytes under another name
        return action.before
    if action.kind == "symlink":
        return "link:" + (action.target or "")
    return None


def apply_actions(actions: list[Action], journal: Journal) -> list[StepResult]:
    results: list[StepResult] = []
    for step, action in enumerate((a for a in actions if a.applies), 1):
        problem = precondition(action)
        if problem:
            journal.append({"type": "done", "step": step, "result": "skipped", "message": problem})
            results.append(StepResult(step, action, "skipped", problem))
            continue
        record: dict[str, Any] = {"type": "begin", "step": step, "kind": action.kind, "path": action.path,
                                  "target": action.target, "source": action.source, "before": action.before,
                                  "after": _expected_after(action), "made_dirs": missing_dirs(_folder(action.path)),
                                  "backup": None, "new": None, "fix_ids": list(action.fix_ids)}
        if action.kind == "write":
            if action.before is not None:
                record["backup"] = journal.keep("backups", step, source=action.path)
            record["new"] = journal.keep("new", step, data=action.content)
        journal.append(record)
        _maybe_die("before", step)
        fsops.before_replace = (lambda _tmp, n=step: _maybe_die("inside", n)) if os.environ.get(KILL_ENV) else None
        try:
            message = _perform(action)
            status = "applied"
        except OSError as exc:
            message, status = f"failed: {exc.strerror or exc}", "failed"
        found = sha256_file(action.path) if action.kind in ("write", "link", "symlink") else None
        journal.append({"type": "done", "step": step, "result": status, "message": message, "after_found": found})
        results.append(StepResult(step, action, status, message))
        _maybe_die("after", step)
    status = "complete" if all(r.status == "applied" for r in results) else "partial"
    journal.append({"type": "end", "status": status})
    return results
