"""The shapes a real post gives a log, for the explain tests and benchmarks/bench_explain_paste.py:
a blog, a forum or a mail archive's page, the old Windows console's copy, a CI runner's time
stamps, a reply's quote marks, a markdown code block."""

from __future__ import annotations

import html
import re
from collections.abc import Callable


def web(text: str) -> str:
    """Curly quotes, HTML entities and non-breaking spaces for ASCII ones."""
    quoted = re.sub(r'"([^"\n]*)"', "\u201c\\1\u201d", text).replace("'", "\u2019")
    return html.escape(quoted, quote=False).replace(" ", "\u00a0")


def console(text: str, width: int = 80) -> str:
    """Each long line cut into rows of the console's width."""
    return "\n".join("\n".join(line[i:i + width] for i in range(0, len(line), width)) or line
                     for line in text.split("\n"))


def ci(text: str) -> str:
    return "\n".join(f"2021-03-04T10:11:{n % 60:02d}.1234567Z {line}" for n, line in enumerate(text.split("\n")))


def quoted(text: str) -> str:
    return "\n".join("> " + line for line in text.split("\n"))


def indented(text: str) -> str:
    return "\n".join("    " + line for line in text.split("\n"))


PASTES: dict[str, Callable[[str], str]] = {"web": web, "console": console, "ci": ci, "quoted": quoted,
                                           "indented": indented}
