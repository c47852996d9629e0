"""What a log shows about the code and the interpreter around an exception: the source line a
traceback prints above the exception line (the line a SyntaxError's caret points into), and the
Python version its paths or banner name.

Python prints a frame as a ``File "...", line N`` header followed by the source line, then (for
a SyntaxError, and under every frame from 3.11 on) a line of carets or tildes; the exception
line follows. Only a line in that position is taken for code, so prose pasted before an error
is never read as source. IPython's frames (numbered source lines, an arrow at the current one,
a blank line) are read the same way: the arrow's line is the code."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .normalize import segments

LOOK_BACK = 4  # lines above the exception line: the code line, its caret line, and the header
# IPython 8 writes `Cell In[3], line 1`; a post's copy may start the header at `line 236, in f`
_FRAME_HEADER = re.compile(r'^(?:(?:File "[^"]*"|Cell In ?\[\d*\]), line \d+|line \d+, in [\w<>.]+\s*$)')
_CARET_LINE = re.compile(r"^[\s^~]*[\^~][\s^~]*$")
# IPython before 8 prints a frame as `path in func(args)` and numbered source lines around the
# current one, which an arrow marks (`--> 258     mode='concat')`), then a blank line.
IPYTHON_BACK = 8  # the arrow line, up to 5 numbered lines after it, a blank line
_IPYTHON_CURRENT = re.compile(r"^\s*-+>\s*\d+\s(?P<code>.*\S)")
_IPYTHON_CONTEXT = re.compile(r"^\s+\d+(?:\s|$)")
_FENCE = re.compile(r"^\s*```\s*$")  # a post's markdown fence, pasted between a frame and its error
CODE_BACK = max(LOOK_BACK, IPYTHON_BACK)  # the lines above an exception that shown_code reads
# A Python's own path or banner: /lib/python2.7/, \Python27\, python3.6/site-packages,
# `Python 3.8.5 (default, ...` printed by the interpreter or a notebook.
PYTHON_IN_PATH = re.compile(r"[/\\][Pp]ython(?P<major>[23])\.?(?P<minor>\d{1,2})(?:m|t|d|dm)?[/\\]")
PYTHON_BANNER = re.compile(r"\bPython (?P<major>[23])\.(?P<minor>\d{1,2})\.\d+\S* \((?:default|main|tags/|v\d)")
# Anaconda2 / Miniconda2 install Python 2.7 (their own base, not an environment under envs/)
CONDA2 = re.compile(r"[/\\](?:ana|mini)conda2[/\\](?!envs[/\\])", re.I)
HINT_TEXTS = ("site-packages", "/lib/python", "\\python", "python 2.", "python 3.", "conda2")  # lower-cased


def shown_code(lines: Sequence[str], index: int) -> str | None:
    """The source line shown above the exception at ``lines[index]``, or None when the lines
    above it are not a traceback's frame (header, code, optional caret line, optional blank line)."""
    frame = _frame_above(lines, index)
    return frame[1] if frame else _ipython_code(lines[max(0, index - IPYTHON_BACK):index])


def shown_header(lines: Sequence[str], index: int) -> str | None:
    """The header (``File "...", line N, in f``) of the frame whose source line is shown above the
    exception at ``lines[index]``: the file that raised; None where no such frame is shown."""
    frame = _frame_above(lines, index)
    return frame[0] if frame else None


def _frame_above(lines: Sequence[str], index: int) -> tuple[str, str] | None:
    above = [_text(line) for line in lines[max(0, index - LOOK_BACK):index]]
    if len(above) > 2 and not above[-1] and _FRAME_HEADER.match(above[-3]):
        above.pop()  # Spyder's and IPython's consoles put a blank line after each frame
    while above and _CARET_LINE.match(above[-1]):
        above.pop()
    if len(above) < 2 or not above[-1] or not _FRAME_HEADER.match(above[-2]):
        return None
    return above[-2], above[-1]


def frame_codes(lines: Sequence[str], index: int) -> list[str]:
    """The source lines of the frames a traceback shows in the lines above ``lines[index]`` (its
    last few frames, nearest first): the code that called into the library which raised."""
    return [_text(lines[i]) for i in range(index - 1, max(0, index - CODE_BACK) - 1, -1) if is_code(lines, i)]


def is_code(lines: Sequence[str], index: int) -> bool:
    """Whether ``lines[index]`` is the source line of a traceback's frame: under a ``File "...",
    line N`` header, or IPython's arrow line."""
    return bool(index > 0 and _FRAME_HEADER.match(_text(lines[index - 1])) or _IPYTHON_CURRENT.match(lines[index]))


def in_frame_code(lines: Sequence[str], index: int) -> bool:
    """Whether ``lines[index]`` is code a traceback's frame quotes: its source line, or one of the
    numbered lines IPython prints around it."""
    return is_code(lines, index) or bool(_IPYTHON_CONTEXT.match(lines[index]))


def without_comment(code: str) -> str:
    """A source line without its trailing ``#`` comment (a ``#`` inside a string literal stays)."""
    quote = ""
    for at, char in enumerate(code):
        if quote:
            quote = "" if char == quote and code[at - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif char == "#":
            return code[:at].rstrip()
    return code


def _ipython_code(above: Sequence[str]) -> str | None:
    """The arrow-marked line of the IPython frame right above the exception, or None."""
    current = ipython_current(above)
    return current[1] if current else None


def ipython_current(above: Sequence[str]) -> tuple[int, str] | None:
    """(how many lines up, the code) of the arrow-marked line of the IPython frame right above the
    exception (below it only its numbered lines, blank ones and a post's markdown fence), or None."""
    for back, line in enumerate(reversed(above), 1):
        line = line.rstrip()
        current = _IPYTHON_CURRENT.match(line)
        if current:
            return back, current["code"].strip()
        if line and not _IPYTHON_CONTEXT.match(line) and not _FENCE.match(line):
            return None
    return None


def python_hint(line: str) -> str | None:
    """A Python version (major.minor) a log line names by its paths (an Anaconda2 base: 2.7) or banner."""
    found = PYTHON_IN_PATH.search(line) or PYTHON_BANNER.search(line)
    if found:
        return f"{found['major']}.{found['minor']}"
    return "2.7" if CONDA2.search(line) else None


def _text(line: str) -> str:
    parts = segments(line)
    return parts[-1] if parts else ""
