"""Small file-system helpers that are bounded and never raise: odd machines (unreadable
folders, a FIFO where a file should be, huge listings) must not stop discovery."""

from __future__ import annotations

import os

# Bounds that keep discovery fast on odd machines (a conda install with a huge envs/ folder,
# a multi-megabyte environments.txt).
_MAX_DIR_ENTRIES = 20_000
_MAX_TEXT_BYTES = 256 * 1024


def _is_windows(os_name: str | None) -> bool:
    if os_name is None:
        return os.name == "nt"
    name = os_name.lower()
    return name.startswith("win") or name == "nt"


def _read_text(path: str, limit: int = _MAX_TEXT_BYTES) -> str:
    """The head of a text file, or "" when it cannot be read; never raises."""
    try:
        if not os.path.isfile(path):  # a folder or a FIFO in its place must not block us
            return ""
        with open(path, "rb") as fh:
            return fh.read(limit).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return ""


def _list_dir(path: str, limit: int = _MAX_DIR_ENTRIES) -> list[os.DirEntry[str]]:
    """Sorted entries of a folder (at most ``limit``), or [] when it cannot be read."""
    try:
        with os.scandir(path) as it:
            entries = []
            for entry in it:
                entries.append(entry)
                if len(entries) >= limit:
                    break
    except (OSError, ValueError):
        return []
    return sorted(entries, key=lambda e: e.name)


def _is_dir(path: str) -> bool:
    try:
        return os.path.isdir(path)
    except (OSError, ValueError):
        return False


def _same_key(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def _runnable(path: str, windows: bool) -> bool:
    try:
        if not os.path.isfile(path):
            return False
        return windows or os.name != "posix" or os.access(path, os.X_OK)
    except (OSError, ValueError):
        return False
