"""Where `fix` keeps its state (journals, backups, the run lock), and run ids sortable by time."""

from __future__ import annotations

import datetime as _dt
import os
import sys

STATE_ENV = "THEANODOCTOR_STATE_DIR"  # overrides the folder (tests, shared machines)


def state_dir() -> str:
    """Per user: %LOCALAPPDATA%\\theanodoctor on Windows, $XDG_STATE_HOME/theanodoctor or
    ~/.local/state/theanodoctor elsewhere."""
    override = os.environ.get(STATE_ENV)
    if override:
        return override
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Local")
        return os.path.join(base, "theanodoctor")
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "theanodoctor")


def runs_dir(root: str | None = None) -> str:
    return os.path.join(root or state_dir(), "runs")


def new_run_id() -> str:
    """``20261130T123307.123456Z-<pid>``: lexical order is time order."""
    now = _dt.datetime.now(_dt.timezone.utc)
    return now.strftime("%Y%m%dT%H%M%S.%fZ") + f"-{os.getpid()}"
