"""Proof that a folder is a Theano compiledir, who holds its compile lock, and deletion that
never leaves it: the guards every cache repair re-checks right before it acts
(Theano rel-1.0.5 theano/configdefaults.py:1839-1940).

Deletion walks with ``os.scandir``/``lstat`` semantics: a symlink is unlinked, never followed,
so a link inside the cache pointing at the user's files removes the link only.
"""

from __future__ import annotations

import os
import stat
from typing import NamedTuple

# What Theano creates in every compiledir; a folder named compiledir_* holding none of these
# is not proven to be one.
MARKERS = ("__init__.py", "cutils_ext", "lazylinker_ext", "scan_perform", "gpuarray_kernels", "lock_dir")
MODULE_FILES = ("key.pkl", "delete.me")


class Proof(NamedTuple):
    ok: bool
    why: str


def _is_link_like(path: str) -> bool:
    """A symlink, or on Windows any reparse point (a junction is not a symlink to os.path.islink)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    reparse = getattr(stat, "FILE_ATTRIBUTE_REPARSE_POINT", 0)
    return stat.S_ISLNK(st.st_mode) or bool(getattr(st, "st_file_attributes", 0) & reparse)


def _is_real_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode) and not _is_link_like(path)
    except OSError:
        return False


def is_module_dir(path: str) -> bool:
    """``tmpXXXXXXXX/`` holding ``key.pkl`` (or ``delete.me``, left by theano-cache clear)."""
    return (os.path.basename(path).startswith("tmp") and _is_real_dir(path)
            and any(os.path.isfile(os.path.join(path, f)) and not os.path.islink(os.path.join(path, f))
                    for f in MODULE_FILES))


def prove_compiledir(path: str, home: str | None = None) -> Proof:
    """A compiledir is a real folder named ``compiledir_*`` holding Theano's markers; never a
    home folder, a file-system root or a symlink."""
    norm = os.path.normpath(os.path.abspath(path))
    home = home or os.path.expanduser("~")
    if _is_link_like(path):
        return Proof(False, f"{path} is a symlink or junction; only real folders are cleared")
    if not _is_real_dir(path):
        return Proof(False, f"{path} is not a folder")
    if norm == os.path.normpath(os.path.abspath(home)) or os.path.dirname(norm) == norm:
        return Proof(False, f"{path} is a home or root folder")
    if not os.path.basename(norm).startswith("compiledir_"):
        return Proof(False, f"{path} is not named compiledir_* (Theano's compiledir names)")
    try:
        names = set(os.listdir(path))
    except OSError as exc:
        return Proof(False, f"{path} cannot be listed: {exc.strerror or exc}")
    markers = sorted(names & set(MARKERS))
    if not markers and not any(n.startswith("tmp") and is_module_dir(os.path.join(path, n)) for n in names):
        return Proof(False, f"{path} holds none of Theano's files ({', '.join(MARKERS)}, tmp*/key.pkl)")
    return Proof(True, f"named compiledir_* and holds {', '.join(markers) or 'compiled modules'}")


class LockState(NamedTuple):
    held: bool  # a lock file or folder exists
    owner_pid: int | None
    same_host: bool | None
    alive: bool | None  # None: cannot be told (another host, no owner)
    raw: str | None
    pymc_holders: tuple[int, ...]

    @property
    def live(self) -> bool:
        """Someone may be compiling right now: never touch the cache then."""
        return bool(self.pymc_holders) or (self.held and self.alive is not False)


def lock_state(compiledir: str) -> LockState:
    from theanodoctor.host.compiledir import lock_holders, parse_lock

    lock_dir = os.path.join(compiledir, "lock_dir")
    raw = None
    try:
        with open(os.path.join(lock_dir, "lock"), encoding="utf-8", errors="replace") as fh:
            raw = fh.readline(500).strip()
    except OSError:
        pass
    pymc = os.path.join(compiledir, ".lock")
    holders = tuple(lock_holders(pymc) or ()) if os.path.exists(pymc) else ()
    if raw is None:
        return LockState(os.path.isdir(lock_dir), None, None, None, None, holders)
    info = parse_lock(raw)  # already asks psutil whether a same-host owner is alive
    return LockState(True, info["owner_pid"], info["same_host"], info["alive"], raw, holders)


_FD_OK = os.scandir in os.supports_fd and os.open in os.supports_dir_fd and hasattr(os, "O_DIRECTORY")


def _open_dir(name: str, dir_fd: int | None = None) -> int:
    """Open a folder without following a symlink (ELOOP/ENOTDIR for a link or a file)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    return os.open(name, flags, dir_fd=dir_fd)


def _empty_fd(fd: int) -> int:
    """Delete everything in the open folder ``fd``, by name relative to it (nothing is looked up
    by path, so a folder swapped for a symlink meanwhile cannot lead elsewhere)."""
    removed = 0
    with os.scandir(fd) as entries:
        found = sorted((e.inode(), e.name, e.is_dir(follow_symlinks=False)) for e in entries)
    for _, name, is_dir in found:  # inode order, as `rm -rf` deletes: fewer disk seeks
        if is_dir:
            sub = _open_dir(name, fd)
            try:
                removed += _empty_fd(sub)
            finally:
                os.close(sub)
            os.rmdir(name, dir_fd=fd)
        else:
            os.unlink(name, dir_fd=fd)
        removed += 1
    return removed


def _empty_path(folder: str) -> int:
    """The same by path, where the OS has no ``dir_fd`` calls (Windows). A link or junction is
    removed itself (rmdir for a folder-like one), never entered."""
    removed = 0
    with os.scandir(folder) as entries:
        names = [(e.path, e.is_dir(follow_symlinks=False)) for e in entries]
    for path, is_dir in names:
        if _is_link_like(path):
            (os.rmdir if os.name == "nt" and is_dir else os.unlink)(path)
        elif is_dir:
            removed += _empty_path(path)
            os.rmdir(path)
        else:
            os.unlink(path)
        removed += 1
    return removed


def remove_tree(path: str) -> int:
    """Delete ``path`` and everything under it without following any symlink; returns the
    number of entries removed. ``path`` itself must be a real folder."""
    if not _is_real_dir(path):
        raise OSError(f"{path} is not a real folder; nothing removed")
    if _FD_OK:
        fd = _open_dir(path)
        try:
            removed = _empty_fd(fd)
        finally:
            os.close(fd)
    else:
        removed = _empty_path(path)
    os.rmdir(path)
    return removed + 1


def _module_fd(name: str, parent: int) -> int | None:
    """The open module folder ``name`` if it is a real folder holding a module marker."""
    try:
        fd = _open_dir(name, parent)
    except OSError:
        return None  # gone, a symlink, or not a folder: never followed
    for marker in MODULE_FILES:
        try:
            if stat.S_ISREG(os.stat(marker, dir_fd=fd, follow_symlinks=False).st_mode):
                return fd
        except OSError:
            continue
    os.close(fd)
    return None


def remove_modules(compiledir: str, names: list[str] | tuple[str, ...]) -> int:
    """Delete the module folders ``names`` of ``compiledir``, each re-checked right before
    (a direct child named tmp*, a real folder, holding key.pkl or delete.me)."""
    names = [n for n in names if n.startswith("tmp") and os.path.basename(n) == n and n not in (".", "..")]
    if not _FD_OK:
        folders = [os.path.join(compiledir, n) for n in names]
        return sum(1 for f in folders if is_module_dir(f) and remove_tree(f))
    removed = 0
    parent = _open_dir(compiledir)
    try:
        for name in names:
            fd = _module_fd(name, parent)
            if fd is None:
                continue
            try:
                _empty_fd(fd)
            finally:
                os.close(fd)
            os.rmdir(name, dir_fd=parent)
            removed += 1
    finally:
        os.close(parent)
    return removed
