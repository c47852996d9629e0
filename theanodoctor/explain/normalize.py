"""Turn one raw log line into the text segments the signatures are matched against.

Real logs carry messages inside Python reprs: ``b'Could not load "nvrtc64_70.dll": The
specified module could not be found.\\r\\n'``, or Theano's compile errors joined into one
tuple repr (``'Compilation failed ...: C:\\\\Users\\\\...\\\\mod.cpp:1:0: sorry ...\\r. '``).
Such a line is also handed out split at its escaped line breaks (each piece keeps the physical
line number); doubled backslashes of Windows paths become single ones; terminal colour codes,
the quote marks of a log pasted into a reply, the backticks around a line posted as inline
code, the asterisks around one posted in bold and the `#` of a thread's title that is an exception line
(`# AttributeError: ...`, as stored threads begin) are dropped. A plain Windows path
(``C:\\CUDA\\v10.2\\bin\\nvrtc64_102_0.dll``) holds a ``\\n`` that is no line break, so only
lines that look like a repr are split."""

from __future__ import annotations

import re

# Terminal control: colour (CSI) and title (OSC) sequences, then any other control character, so
# a log's bytes can never drive the user's terminal when evidence is printed back.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# Logs pasted into GitHub replies arrive quoted ("> "); Python's prompt (">>> ") goes too.
_QUOTED = re.compile(r"^(?:\s*>)+ ?")
# A markdown heading that is an exception line (a thread's title); never a C preprocessor line
_HEADING = re.compile(r"^\s*#{1,6} +(?=[\w.]*(?:Error|Exception|Warning)\s*:)")
# An escaped line break inside a repr, with Theano's ". " joiner (compile_stderr.replace('\n', '. ')).
_ESCAPED_BREAK = re.compile(r"(?:\\r)?\\n|\\r(?:\. )?")
_REPR_LIKE = re.compile(r"\\r\\n|\\n['\"]|\bb['\"]|\\r\. |', '|\\n\\n")
_ESCAPED_QUOTE = re.compile(r"\\([\"'])")
_DOUBLE_BACKSLASH = re.compile(r"\\\\")


def plain(line: str) -> str:
    """``line`` without terminal control (an IPython traceback pasted from a terminal is coloured)."""
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    if _CONTROL.search(line):
        line = _CONTROL.sub("", line)
    return line


def segments(line: str) -> list[str]:
    line = plain(line)
    if ">" in line and line.lstrip().startswith(">"):  # (a substring test first: most lines have none)
        line = _QUOTED.sub("", line)
    if "#" in line:  # (one substring test on the lines without it)
        line = _HEADING.sub("", line)
    # a line posted as `inline code`, or the last line of a span of it (its one closing backtick)
    if "`" in line and (line.lstrip().startswith("`") or line.rstrip().endswith("`") and line.count("`") % 2):
        line = line.strip().strip("`")
    if "**" in line and (line.lstrip().startswith("**") or line.rstrip().endswith("**")):  # posted in **bold**
        line = line.strip().strip("*")
    if "\\" not in line:
        return [line.strip()]
    whole = _clean(line)
    if not _REPR_LIKE.search(line):
        return [whole]
    parts = [_clean(p) for p in _ESCAPED_BREAK.split(line)]
    return [p for p in parts if p] + [whole]


def _clean(text: str) -> str:
    return _DOUBLE_BACKSLASH.sub(r"\\", _ESCAPED_QUOTE.sub(r"\1", text)).strip()
