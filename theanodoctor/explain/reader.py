"""Read a log of any size as numbered text lines, with bounded memory.

Bytes in, text out: the encoding is sniffed from the first bytes (Windows PowerShell writes
UTF-16 with a BOM when output is redirected; Notepad may add a UTF-8 BOM), undecodable bytes
are replaced, and a line longer than ``MAX_LINE`` characters is handed out in pieces that keep
its line number, so one 50 MB line never sits in memory at once."""

from __future__ import annotations

import codecs
import io
from collections.abc import Iterator
from typing import BinaryIO

MAX_LINE = 16_384


def sniff_encoding(head: bytes) -> str:
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    # UTF-16 without BOM: every other byte of ASCII text is NUL.
    if len(head) >= 4 and head[1:4:2] == b"\0\0" and head[0:4:2] != b"\0\0":
        return "utf-16-le"
    if len(head) >= 4 and head[0:4:2] == b"\0\0" and head[1:4:2] != b"\0\0":
        return "utf-16-be"
    return "utf-8"


def numbered_lines(stream: BinaryIO, max_line: int = MAX_LINE) -> Iterator[tuple[int, str]]:
    """(line number, text) for every line; pieces of an over-long line share its number."""
    buffered = stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(stream)  # type: ignore[arg-type]
    encoding = sniff_encoding(buffered.peek(4)[:4])
    text = io.TextIOWrapper(buffered, encoding=encoding, errors="replace", newline=None)
    number, continued = 0, False
    while True:
        piece = text.readline(max_line)
        if not piece:
            return
        if not continued:
            number += 1
        continued = not piece.endswith("\n")
        yield number, piece.rstrip("\n")


def text_lines(source: str) -> Iterator[tuple[int, str]]:
    """The same for text already in memory (`--text`, captured output in the checks)."""
    return numbered_lines(io.BytesIO(source.encode("utf-8", errors="replace")))
