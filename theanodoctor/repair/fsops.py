"""The only file operations `fix` uses: hashing, atomic writes, verified links and copies.

An atomic write goes to a temporary file in the same folder, is flushed to disk, then replaces
the target with ``os.replace``: a reader (or a crash) sees the old file or the new one, never
half of one.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
from typing import Callable

CHUNK = 1 << 20
# Test seam (see repair.apply): called with the temporary file, fully written, before the rename.
before_replace: Callable[[str], None] | None = None


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str) -> str | None:
    """Hash of a regular file's bytes; None when nothing is there. A symlink is hashed as
    ``link:<target>`` so it never passes for the file it points at."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return "link:" + os.readlink(path)
    if not stat.S_ISREG(st.st_mode):
        return "not-a-file"
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def _fsync_dir(folder: str) -> None:
    if os.name == "nt":  # folders cannot be opened for fsync there; NTFS journals the rename
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str, data: bytes, like: str | None = None) -> None:
    """Write ``data`` to ``path`` atomically; keep the permission bits of ``like`` (default: the
    file being replaced)."""
    folder = os.path.dirname(os.path.abspath(path))
    mode = None
    try:
        mode = stat.S_IMODE(os.stat(like or path).st_mode)
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(prefix=".theanodoctor-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        if before_replace is not None:
            before_replace(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(folder)


def missing_dirs(folder: str) -> list[str]:
    """The folders ``make_dirs(folder)`` would create, outermost first."""
    made: list[str] = []
    current = os.path.abspath(folder)
    while not os.path.isdir(current):
        made.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return list(reversed(made))


def make_dirs(folder: str) -> None:
    """Create ``folder`` and missing parents (one by one, as the journal recorded them)."""
    for path in missing_dirs(folder):
        os.mkdir(path)


def link_or_copy(source: str, dest: str) -> str:
    """Place ``source``'s bytes at the new name ``dest`` (never overwriting): a hard link when the
    file system allows, else a copy written atomically. Returns "hard link" or "copy"."""
    if os.path.lexists(dest):
        raise FileExistsError(f"{dest} exists; never overwritten")
    try:
        os.link(source, dest)
        return "hard link"
    except OSError:
        pass
    folder = os.path.dirname(os.path.abspath(dest))
    fd, tmp = tempfile.mkstemp(prefix=".theanodoctor-", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        shutil.copyfile(source, tmp)
        shutil.copymode(source, tmp)
        if os.path.lexists(dest):
            raise FileExistsError(f"{dest} appeared meanwhile; never overwritten")
        if os.name == "nt":
            os.rename(tmp, dest)  # refuses an existing destination on Windows
        else:
            os.replace(tmp, dest)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
    return "copy"
