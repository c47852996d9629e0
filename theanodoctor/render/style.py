"""What the terminal can show: colour, Unicode glyphs, width (NO_COLOR / FORCE_COLOR honoured)."""

from __future__ import annotations

import os
import sys
from typing import NamedTuple, TextIO


class Style(NamedTuple):
    color: bool
    unicode: bool
    width: int | None  # None: do not wrap (piped output)


def _can_encode(stream: TextIO, text: str) -> bool:
    try:
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _ascii_locale(env: dict[str, str]) -> bool:
    """LC_ALL=C (or POSIX) asks for plain ASCII, even though Python itself then writes UTF-8
    (PEP 538/540): the terminal behind such a locale may not show other characters."""
    value = env.get("LC_ALL") or env.get("LC_CTYPE") or env.get("LANG") or ""
    return value in ("C", "POSIX")


def detect(stream: TextIO | None = None, env: dict[str, str] | None = None) -> Style:
    stream = stream or sys.stdout
    env = dict(os.environ) if env is None else env
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if env.get("NO_COLOR"):
        color = False
    elif env.get("FORCE_COLOR"):
        color = True
    else:
        color = tty and env.get("TERM") != "dumb"
    width = None
    if tty:
        try:
            width = os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            width = 100
    return Style(color=color, unicode=_can_encode(stream, "✓✗⚠…") and not _ascii_locale(env), width=width)
