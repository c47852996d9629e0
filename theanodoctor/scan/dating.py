"""The date a repository speaks for: its last commit when it has a `.git`, else the newest date
its files carry (their modification times, and ISO dates written in them)."""

from __future__ import annotations

import datetime
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

_ISO = re.compile(r"\b(20[01]\d|202\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b")


def git_date(root: Path, timeout: float = 5.0) -> datetime.date | None:
    """The committer date of HEAD, via `git log` with a timeout; None without git or a history."""
    if not (root / ".git").exists():
        return None
    try:
        # no pager, no fsmonitor hook from the repository's own config; another owner's clone is fine
        proc = subprocess.run(["git", "--no-pager", "-c", "core.fsmonitor=false", "-c", "safe.directory=*",
                               "-C", str(root), "log", "-1", "--format=%cI"], capture_output=True,
                              timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    try:
        return datetime.datetime.fromisoformat(proc.stdout.decode(errors="replace").strip()).date()
    except ValueError:
        return None


def dates_in(text: str) -> list[str]:
    return ["-".join(m.groups()) for m in _ISO.finditer(text)]


def files_date(mtimes: Iterable[float], written: Iterable[str], today: datetime.date) -> datetime.date | None:
    """The newest of the files' modification times and the dates written in them, never after today."""
    candidates = [datetime.date.fromtimestamp(t) for t in mtimes]
    for value in written:
        try:
            candidates.append(datetime.date.fromisoformat(value))
        except ValueError:
            continue
    candidates = [d for d in candidates if d <= today]
    return max(candidates) if candidates else None
