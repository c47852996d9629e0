"""One `fix` run at a time: a lock file created exclusively in the state folder.

The file names its owner (pid and host); a lock left by a dead process on this host is taken
over, one held by a live process refuses the second run.
"""

from __future__ import annotations

import os
import socket

import psutil


class LockBusy(Exception):
    """Another fix run holds the lock."""


def _owner() -> str:
    return f"{os.getpid()} {socket.gethostname()}"


def _stale(text: str) -> bool:
    pid, _, host = text.strip().partition(" ")
    if host != socket.gethostname() or not pid.isdigit():
        return False  # another machine's run (shared home): cannot tell, so never take it over
    return not psutil.pid_exists(int(pid))


class RunLock:
    def __init__(self, folder: str) -> None:
        self.path = os.path.join(folder, "fix.lock")
        self.held = False

    def acquire(self) -> RunLock:
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                try:
                    with open(self.path, encoding="utf-8", errors="replace") as fh:
                        text = fh.read(200)
                except FileNotFoundError:
                    continue
                if text and _stale(text):
                    os.unlink(self.path)
                    continue
                pid = text.split(" ")[0] or "?"
                raise LockBusy(f"another `theanodoctor fix` (process {pid}) is running; "
                               f"wait for it (lock: {self.path})") from None
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(_owner())
            self.held = True
            return self
        raise LockBusy(f"could not take the lock {self.path}")

    def release(self) -> None:
        if not self.held:
            return
        try:
            with open(self.path, encoding="utf-8", errors="replace") as fh:
                mine = fh.read(200).strip() == _owner()
            if mine:
                os.unlink(self.path)
        except OSError:
            pass
        self.held = False

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
