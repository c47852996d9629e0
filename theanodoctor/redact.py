"""Redact a snapshot (or any text made from one) for sharing.

Home folders become ``~``, user and host names become ``<redacted>`` (inside other paths and
texts too), serial numbers are removed and each GPU UUID becomes ``GPU-<redacted-N>`` (the same N
wherever it appears, so CUDA_VISIBLE_DEVICES still names the right GPU). The identities come
from the snapshot itself (its hostname, homes, lock owners, GPU entries) and from the process running the doctor,
so a snapshot made elsewhere is redacted as well as one made here. The facts that matter for a
diagnosis (versions, GPU names, compute capabilities, file names) stay.
"""

from __future__ import annotations

import getpass
import os
import re
import socket
from collections.abc import Iterable
from typing import Any

REDACTED = "<redacted>"
_DROPPED_KEYS = {"serial", "board_serial"}
_UUID_KEYS = {"uuid", "gpu_uuid"}
_HOST_KEYS = {"hostname", "owner_host"}
# /home/<user>, /Users/<user>, C:\Users\<user>: whoever owns a home seen in the snapshot.
_HOME_OWNER = re.compile(r"(?:^|[\s\"'=:;(])(?:[A-Za-z]:)?[\\/](?:home|Users)[\\/]([^\\/\s\"';:,]+)", re.IGNORECASE)
# Accounts that identify nobody; "root" also names a Theano option (`[cuda] root`).
_NOT_USERS = {"public", "default", "shared", "all users", "default user", "root"}
_NOT_HOSTS = {"localhost"}
_GPU_ID = re.compile(r"\b(GPU|MIG)-[0-9a-fA-F]{4}[0-9a-fA-F-]*(?:/\d+/\d+)?(?![\w-])")
# Theano's compile lock line: <pid>_<10 digits>_<hostname>.
_LOCK_LINE = re.compile(r"\b(\d+_\d{9,11}_)[^\s'\"),]+")
_COMPILEDIR = re.compile(r"compiledir_[^\s\\/'\"`|,;)]+")  # ends where markdown or a flag list goes on
_MIN_WORD = 3  # a shorter user name would blank out ordinary words
_MIN_HOST = 4  # short host names ("vm", "gpu") are removed only where a host name must be


def _safe(func: Any) -> str:
    try:
        return str(func() or "")
    except Exception:  # no user name in containers, etc.
        return ""


def strings(value: Any) -> Iterable[str]:
    """Every string inside nested JSON-like data (dict values and list items)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, str):
        yield value


def _values_of(value: Any, keys: set[str]) -> Iterable[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in keys and isinstance(item, str) and item:
                yield item
            else:
                yield from _values_of(item, keys)
    elif isinstance(value, list):
        for item in value:
            yield from _values_of(item, keys)


def _path_pattern(path: str) -> re.Pattern[str]:
    """A home path, matched with either separator (and any case on Windows)."""
    body = "".join(r"[\\/]" if ch in "\\/" else re.escape(ch) for ch in path.rstrip("\\/"))
    windows = "\\" in path or re.match(r"^[A-Za-z]:", path) is not None
    # Not inside a longer path, but right after a compiler flag (-L/home/alice/lib, -I/home/alice/inc).
    start = r"(?:(?<![\w.~-])|(?<=(?<![^\s,=\"'`(])-[A-Za-z]))"
    return re.compile(start + body + r"(?![^\\/\s\"':;,)])", re.IGNORECASE if windows else 0)


class Redactor:
    """The rules for one snapshot: ``data()`` for JSON, ``text()`` for anything rendered."""

    def __init__(self, homes: Iterable[str] = (), users: Iterable[str] = (), hosts: Iterable[str] = (),
                 secrets: Iterable[str] = (), uuids: Iterable[str] = ()) -> None:
        self.homes = sorted({h.rstrip("\\/") for h in homes if h and h.strip("\\/~")}, key=len, reverse=True)
        self.users = sorted({u for u in users if len(u) >= _MIN_WORD}, key=len, reverse=True)
        self.hosts = sorted({h for h in hosts if h}, key=len, reverse=True)
        self.secrets = sorted({s for s in secrets if len(s) >= 4}, key=len, reverse=True)
        self.uuids: dict[str, str] = {}
        for uuid in uuids:
            kind = uuid.split("-", 1)[0].upper()
            self.uuids.setdefault(uuid.lower(), f"{kind}-<redacted-{len(self.uuids) + 1}>")
        self._rules = [(_path_pattern(h), "~") for h in self.homes]
        self._rules += [(re.compile(re.escape(s)), REDACTED) for s in self.secrets]
        # Host names end at anything but a letter or digit (they hide in "<pid>_<n>_host", "-host-").
        self._rules += [(re.compile(r"(?<![A-Za-z0-9])" + re.escape(h) + r"(?![A-Za-z0-9])", re.IGNORECASE),
                         REDACTED) for h in self.hosts if len(h) >= _MIN_HOST]
        # User names are bounded like words in a path, so "cuda.root" survives a user called root.
        self._rules += [(re.compile(r"(?<![\w.-])" + re.escape(u) + r"(?![\w.-])"), REDACTED) for u in self.users]

    def text(self, value: str) -> str:
        value = _GPU_ID.sub(self._gpu_id, value)
        value = _LOCK_LINE.sub(lambda m: m.group(1) + REDACTED, value)
        value = _COMPILEDIR.sub(self._compiledir_name, value)
        for pattern, new in self._rules:
            value = pattern.sub(new, value)
        return value

    def _gpu_id(self, match: re.Match[str]) -> str:
        """The same stand-in for a UUID and its abbreviations (CUDA_VISIBLE_DEVICES allows them)."""
        core, slash, tail = match.group(0).partition("/")
        hits = {stand_in for uuid, stand_in in self.uuids.items() if uuid.startswith(core.lower())}
        return (hits.pop() if len(hits) == 1 else f"{match.group(1)}-{REDACTED}") + slash + tail

    def _compiledir_name(self, match: re.Match[str]) -> str:
        name = match.group(0)
        for host in self.hosts:  # a compiledir_format with %(hostname)s, however short the name
            name = re.sub(r"(?<=[-_])" + re.escape(host) + r"(?=[-_]|$)", REDACTED, name)
        return name

    def data(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: self._field(k, v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.data(v) for v in value]
        if isinstance(value, str):
            return self.text(value)
        return value

    def _field(self, key: str, value: Any) -> Any:
        if key in _DROPPED_KEYS and isinstance(value, str):
            return None
        if key in _HOST_KEYS and isinstance(value, str) and value:
            return REDACTED
        return self.data(value)


def redactor_for(data: Any) -> Redactor:
    """Rules built from the snapshot's own identities plus the running process's."""
    here_home = os.path.expanduser("~")
    homes = [h for h in _values_of(data, {"home"})] + ([here_home] if here_home != "~" else [])
    users = {m.group(1) for s in strings(data) for m in _HOME_OWNER.finditer(s)}
    users.add(_safe(getpass.getuser))
    users = {u for u in users if u.lower() not in _NOT_USERS}
    hosts = set(_values_of(data, _HOST_KEYS)) | {_safe(socket.gethostname)}
    hosts |= {h.split(".")[0] for h in hosts}  # the short name of a fully qualified one
    secrets = set(_values_of(data, _DROPPED_KEYS))
    uuids = [u for u in _values_of(data, _UUID_KEYS) if _GPU_ID.fullmatch(u)]
    return Redactor(homes, users - {""}, hosts - _NOT_HOSTS - {""}, secrets, uuids)


def redact(data: Any) -> Any:
    return redactor_for(data).data(data)
