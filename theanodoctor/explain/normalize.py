"""Turn raw log lines into the text segments the signatures are matched against.

Real logs carry messages inside Python reprs: ``b'Could not load "nvrtc64_70.dll": The
specified module could not be found.\\r\\n'``, or Theano's compile errors joined into one
tuple repr (``'Compilation failed ...: C:\\\\Users\\\\...\\\\mod.cpp:1:0: sorry ...\\r. '``).
Such a line is also handed out split at its escaped line breaks (each piece keeps the physical
line number); doubled backslashes of Windows paths become single ones; terminal colour codes, a
time stamp a CI runner put before each line, the quote marks of a log pasted into a reply, the
backticks around a line posted as inline code, the asterisks around one posted in bold and the `#`
of a thread's title that is an exception line (`# AttributeError: ...`, as stored threads begin)
are dropped. Text that passed through a web page is read as it was typed: HTML entities a scrape
or a mail archive left (`&quot;`), non-breaking and other typographic spaces, and the curly quotes
a blog or a word processor puts for ASCII ones; such a line is also handed out as it was pasted,
tried after, since a typographic quote can itself be the fault (a flag pasted with them). A
plain Windows path (``C:\\CUDA\\v10.2\\bin\\nvrtc64_102_0.dll``) holds a ``\\n`` that is no line
break, so only lines that look like a repr are split. Before any of this, the rows the old Windows
console cut from one long line are joined again (``unwrapped``, over a block of lines)."""

from __future__ import annotations

import html
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
# A time stamp a CI runner or a logger put before each line (`2021-03-04T10:11:12.1234567Z `)
_STAMP = re.compile(r"^\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?\s+")
# A named or numbered entity, with its semicolon (C++'s `&` never takes that shape)
_ENTITY = re.compile(r"&(?:[A-Za-z]{2,8}|#\d{2,7}|#[xX][0-9A-Fa-f]{2,6});")
_TYPOGRAPHY = str.maketrans(dict.fromkeys("\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
                                          "\u202f\u205f\u3000", " ")
                            | dict.fromkeys("\u2018\u2019\u201a\u201b", "'")
                            | dict.fromkeys("\u201c\u201d\u201e\u201f", '"'))


# The old Windows console copies a long line as rows of exactly its width (80 columns), cut
# mid-word; a row that ends so and a next one that goes on mid-word are one line. Only where the
# log shows that pattern twice (one row of 80 characters is often just a row of 80 characters) or
# the row is an error message's, and never into a line that starts a record of its own.
_CONSOLE_WIDTH = 80
_PASTE_PREFIX = re.compile(r"^(?:(?:\s*>)+ ?| {4}|\t)?")
_ROW_SIZES = frozenset(range(_CONSOLE_WIDTH, _CONSOLE_WIDTH + 9))  # a row with a paste's prefix
# (a word of its own after a cut is a new line: a cut falls mid-word, so only a camel-case name goes
# on with a capital and a space)
_RECORD_START = re.compile(r"(?:Traceback|File \"|During handling|The above exception|"
                           r"[A-Z]\w*(?:Error|Exception|Warning)\b|(?:ERROR|WARNING|INFO|DEBUG) \(|"
                           r"[\w./\\:-]+:\d+:|\w[\w.]*\(\d+\)|\$ |>>> |In \[|```|[A-Z][A-Za-z]+[ :])")
# an exception's message, Theano's logger's or its old back-end's banner: cut once, still read whole
_MESSAGE_ROW = re.compile(r"\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning)\s*:|(?:ERROR|WARNING) \(theano|"
                          r"Using gpu device")


def unwrapped(texts: list[str]) -> list[str]:
    """``texts`` with each console-wrapped line whole on its first row and the rows it took
    after it left empty, so that every line keeps its number."""
    if _ROW_SIZES.isdisjoint(map(len, texts)):  # (in C: most blocks hold no row of that size)
        return texts
    near = [i for i, size in enumerate(map(len, texts[:-1])) if size in _ROW_SIZES]
    if not near:
        return texts
    cuts = [(i, prefix) for i in near if (prefix := _wrap_prefix(texts[i], texts[i + 1])) is not None]
    if len(cuts) < 2:
        cuts = [(i, prefix) for i, prefix in cuts if _MESSAGE_ROW.match(texts[i], len(prefix))]
        if not cuts:
            return texts
    joined = list(texts)
    for i, prefix in reversed(cuts):  # from the end, so that a line wrapped twice is joined whole
        joined[i] += joined[i + 1][len(prefix):]
        joined[i + 1] = ""
    return joined


def _wrap_prefix(row: str, next_row: str) -> str | None:
    """The paste's prefix (a quote mark, a code block's indentation) when ``row`` is a console row
    cut mid-word that ``next_row`` goes on; None when it is not."""
    if len(row) < _CONSOLE_WIDTH or row[-1:].isspace():
        return None
    prefix = _PASTE_PREFIX.match(row)[0]  # type: ignore[index]
    if len(row) - len(prefix) != _CONSOLE_WIDTH or not next_row.startswith(prefix) or not row.strip(row[-1]):
        return None  # (a rule of dashes is no cut row)
    rest = next_row[len(prefix):]
    if rest[:1] == " ":  # the cut fell before a space; more would be an indented line of its own
        rest = rest[1:]
    return prefix if rest and not rest[0].isspace() and not _RECORD_START.match(rest) else None


def plain(line: str) -> str:
    """``line`` without terminal control (an IPython traceback pasted from a terminal is coloured)."""
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    if _CONTROL.search(line):
        line = _CONTROL.sub("", line)
    return line


def as_typed(text: str) -> str:
    """``text`` (a line or a block of lines) with a web page's entities and typography read as
    ASCII; never a line break more or less."""
    if "&" in text:
        text = _ENTITY.sub(_entity, text)
    return text if text.isascii() else text.translate(_TYPOGRAPHY)


def _entity(found: re.Match[str]) -> str:
    char = html.unescape(found[0])
    return found[0] if _CONTROL.search(char) or "\n" in char else char


def segments(line: str) -> list[str]:
    line = plain(line)
    typed = as_typed(line)
    parts = _segments(typed)
    # the line as pasted too, after the typed one: a typographic quote may be the fault itself
    return parts if typed == line else parts + [_segments(line)[-1], parts[-1]]


def _segments(line: str) -> list[str]:
    if line[:1].isdigit() or line[:1] == "[":
        line = _STAMP.sub("", line)
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
