"""Redact a snapshot for sharing: home folder -> ~, user and host names and GPU UUIDs removed."""

from __future__ import annotations

import getpass
import os
import re
import socket
from typing import Any

_SECRET_KEYS = {"uuid", "serial", "hostname", "owner_host"}
REDACTED = "<redacted>"


def _identities() -> list[tuple[re.Pattern[str], str]]:
    rules = []
    home = os.path.expanduser("~").rstrip("/\\")
    if home and home != "~":
        rules.append((re.compile(re.escape(home)), "~"))  # first: the home path holds the user name
    for name in (_safe(getpass.getuser), _safe(socket.gethostname)):
        if len(name) >= 3:  # a shorter name would blank out ordinary words
            rules.append((re.compile(r"(?<![\w.-])" + re.escape(name) + r"(?![\w.-])"), REDACTED))
    return rules


def _safe(func: Any) -> str:
    try:
        return str(func())
    except Exception:  # no user name in containers, etc.
        return ""


def redact(data: Any) -> Any:
    return _walk(data, _identities())


def _walk(value: Any, rules: list[tuple[re.Pattern[str], str]]) -> Any:
    if isinstance(value, dict):
        return {k: (REDACTED if k in _SECRET_KEYS and value[k] else _walk(v, rules)) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, rules) for v in value]
    if isinstance(value, str):
        for pattern, new in rules:
            value = pattern.sub(new, value)
        return value
    return value
