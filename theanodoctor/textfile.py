"""Write a text file atomically: a temporary file in the same folder, flushed, then renamed into
place, so a reader (or a crash) sees the old file or the new one, never half of one."""

from __future__ import annotations

import os
import tempfile


def write_text_atomically(path: str, text: str, replace: bool = True) -> None:
    """Write ``text`` to ``path``. With ``replace=False`` an existing ``path`` is never replaced,
    even one that appears during the write: FileExistsError."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".theanodoctor-", suffix=".tmp")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # like a file opened for writing, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _link_new(tmp: str, path: str) -> None:
    """Move ``tmp`` to ``path`` unless ``path`` appeared since the caller's check (a hard link never
    replaces a file; os.replace would); where hard links are refused, the rename it is."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:
        os.replace(tmp, path)
        return
    os.unlink(tmp)
