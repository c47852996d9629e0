"""Theano's compile cache folder: size, compiled modules, and who holds the compile lock.

Theano 1.0.5 locks with ``<compiledir>/lock_dir/lock`` holding ``<pid>_<10 digits>_<hostname>``
and only detects a dead owner when ``owner.split('_')[2]`` equals its own hostname, so a host
name with ``_`` in it makes every stale lock wait the full ``compile.timeout``.
Theano-PyMC uses ``<compiledir>/.lock`` (the ``filelock`` package) instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import time

import psutil

from theanodoctor.facts import Json, envelope
from theanodoctor.host.common import describe

NOTABLE = ("cutils_ext", "lazylinker_ext", "scan_perform", "gpuarray_kernels")
MAX_FILES = 200_000


def parse_lock(raw: str, hostname: str | None = None) -> Json:
    """Split ``<pid>_<digits>_<hostname>`` (the host name may itself contain ``_``)."""
    hostname = hostname or socket.gethostname()
    parts = raw.split("_", 2)
    pid = int(parts[0]) if parts[0].isdigit() else None
    owner_host = parts[2] if len(parts) == 3 else None
    same_host = None if owner_host is None else owner_host == hostname
    theano_parts = raw.split("_")
    return {
        "owner_pid": pid,
        "owner_host": owner_host,
        "same_host": same_host,
        "alive": psutil.pid_exists(pid) if same_host and pid is not None else None,
        # What Theano 1.0.5 compares: only the text up to the next "_".
        "theano_sees_same_host": len(theano_parts) > 2 and theano_parts[2] == hostname,
    }


def _lock(compiledir: str) -> Json:
    lock_dir = os.path.join(compiledir, "lock_dir")
    path = os.path.join(lock_dir, "lock")
    info: Json = {"path": path, "dir_exists": os.path.isdir(lock_dir),
                  "exists": os.path.isfile(path), "raw": None, "age_s": None,
                  "owner_pid": None, "owner_host": None, "same_host": None, "alive": None,
                  "theano_sees_same_host": None, "error": None}
    if not info["exists"]:
        return info
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            raw = fh.readline(500).strip()
        info["age_s"] = round(time.time() - os.path.getmtime(path), 1)
    except OSError as exc:
        info["error"] = describe(exc)
        return info
    info["raw"] = raw
    info.update(parse_lock(raw))
    return info


def lock_holders(path: str, proc_locks: str = "/proc/locks") -> list[int] | None:
    """Processes holding an OS lock (flock/fcntl) on ``path``, from the kernel's own table.

    Theano-PyMC's ``.lock`` (the ``filelock`` package) is such a lock: the file stays after a
    release, so only this says whether it is held. None where the table cannot be read."""
    try:
        st = os.stat(path)
        with open(proc_locks, encoding="ascii", errors="replace") as fh:
            lines = fh.readlines()
    except OSError:
        return None
    wanted = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    pids: list[int] = []
    for line in lines:
        fields = line.split()
        # "1: FLOCK  ADVISORY  WRITE 4242 fd:01:393231 0 EOF" ("->" marks a waiter)
        if "->" in fields:
            continue
        if len(fields) >= 6 and fields[5] == wanted and fields[4].isdigit():
            pids.append(int(fields[4]))
    return sorted(set(pids))


def _pymc_lock(compiledir: str) -> Json:
    path = os.path.join(compiledir, ".lock")
    exists = os.path.exists(path)
    if not exists:
        return {"path": path, "exists": False}
    return {"path": path, "exists": True, "held_by": lock_holders(path)}


def _walk(root: str, deadline: float, max_files: int) -> tuple[int, int, str | None]:
    """(bytes, files, why the count stopped early or None); never follows symlinks."""
    size = files = 0
    stack = [root]
    while stack:
        try:
            with os.scandir(stack.pop()) as it:
                for item in it:
                    if item.is_dir(follow_symlinks=False):
                        stack.append(item.path)
                        continue
                    files += 1
                    size += item.stat(follow_symlinks=False).st_size
                    if files >= max_files:
                        return size, files, f"stopped counting after {max_files} files"
                    if time.monotonic() > deadline:
                        return size, files, "stopped counting at the time limit"
        except OSError:
            continue  # one unreadable folder must not hide the rest
    return size, files, None


# Theano writes these strings into every module's key (gof/cc.py `cmodule_key_`): a module is
# only reused when they match, so modules made for another numpy C ABI or compiler are dead weight.
_KEY_MARKERS = {"abi": b"NPY_ABI_VERSION=", "compiler": b"c_compiler_str="}
MAX_KEYS = 300
MAX_KEY_BYTES = 1_000_000


def _pickled_string(data: bytes, start: int) -> str | None:
    """The pickled str that begins at ``start``, using the length its opcode carries.

    The pickle is never loaded: key.pkl files may come from anywhere (a shared compiledir)."""
    op1 = data[start - 2] if start >= 2 else None
    op4 = data[start - 5] if start >= 5 else None
    if op1 in (0x8C, ord("U")):  # SHORT_BINUNICODE (protocol 4), SHORT_BINSTRING (Python 2)
        length = data[start - 1]
    elif op4 in (ord("X"), ord("T")):  # BINUNICODE, BINSTRING: 4-byte little-endian length
        length = int.from_bytes(data[start - 4:start], "little")
    else:
        return None
    if length > 1000:
        return None
    return data[start:start + length].decode("utf-8", errors="replace")


def key_markers(data: bytes) -> dict[str, set[str]]:
    """NPY_ABI_VERSION / c_compiler_str values found in the bytes of one key.pkl."""
    found: dict[str, set[str]] = {name: set() for name in _KEY_MARKERS}
    for name, marker in _KEY_MARKERS.items():
        at = data.find(marker)
        while at >= 0:
            value = _pickled_string(data, at)
            if value is not None and value.startswith(marker.decode()):
                found[name].add(value[len(marker):])
            at = data.find(marker, at + 1)
    return found


def _module_keys(path: str, modules: list[str], deadline: float) -> Json:
    """Which numpy ABI and compiler the compiled modules were built for (a sample)."""
    abi: dict[str, int] = {}
    compilers: dict[str, int] = {}
    read = unmarked = 0
    for name in modules[:MAX_KEYS]:
        if time.monotonic() > deadline:
            break
        try:
            with open(os.path.join(path, name, "key.pkl"), "rb") as fh:
                data = fh.read(MAX_KEY_BYTES)
        except OSError:
            continue
        read += 1
        markers = key_markers(data)
        if not markers["abi"]:
            unmarked += 1
        for value in markers["abi"]:
            abi[value] = abi.get(value, 0) + 1
        for value in markers["compiler"]:
            compilers[value] = compilers.get(value, 0) + 1
    return {"modules_read": read, "modules_total": len(modules), "without_marker": unmarked,
            "abi_versions": abi, "compilers": compilers}


def _is_module(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "key.pkl"))


def _existing_ancestor(path: str) -> str:
    while not os.path.exists(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return path


def probe_compiledir(path: str | None, timeout: float = 2.0,
                     max_files: int = MAX_FILES) -> Json:
    """``path`` is the target's ``theano.config.compiledir``; ``timeout`` caps the size walk."""
    started = time.monotonic()
    if not path:
        return envelope("skipped", "no compiledir known (Theano's config was not read)",
                        path=path)
    try:
        exists = os.path.isdir(path)
        # Theano creates a missing compiledir: what matters then is the nearest existing parent.
        probe_at = path if exists else _existing_ancestor(path)
        data: Json = {
            "path": path, "exists": exists,
            "writable": os.access(probe_at, os.W_OK | os.X_OK),
            "size_bytes": None, "file_count": None, "truncated": None,
            "module_count": 0, "entries": [], "delete_me_count": 0,
            "lock": _lock(path),
            "pymc_lock": _pymc_lock(path),
            "free_disk_bytes": shutil.disk_usage(probe_at).free,
        }
        if exists:
            names = sorted(os.listdir(path))
            subdirs = [n for n in names if os.path.isdir(os.path.join(path, n))]
            modules = [n for n in subdirs
                       if n.startswith("tmp") and _is_module(os.path.join(path, n))]
            data["module_count"] = len(modules)
            data["entries"] = [n for n in NOTABLE if n in subdirs]
            # theano-cache clear renames busy folders to *.delete.me; a module may hold delete.me.
            data["delete_me_count"] = sum(n.endswith(".delete.me") for n in names) + sum(
                os.path.exists(os.path.join(path, n, "delete.me")) for n in modules)
            deadline = started + timeout
            data["size_bytes"], data["file_count"], data["truncated"] = _walk(
                path, deadline, max_files)
            data["module_keys"] = _module_keys(path, modules, time.monotonic() + timeout)
        return envelope("ok", None, time.monotonic() - started, **data)
    except Exception as exc:
        return envelope("error", describe(exc), time.monotonic() - started, path=path)
