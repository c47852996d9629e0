"""Read a log of any size as numbered text lines, with bounded memory.

Bytes in, text out: the encoding is sniffed from the first bytes (Windows PowerShell writes
UTF-16 with a BOM when output is redirected; Notepad may add a UTF-8 BOM), undecodable bytes
are replaced, and a line longer than ``MAX_LINE`` characters is handed out in pieces that keep
its line number, so one 50 MB line never sits in memory at once."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any, BinaryIO

from theanodoctor.host.theanorc import encoding_of

MAX_LINE = 16_384
CHUNK = 1 << 20  # characters read at a time


def sniff_encoding(head: bytes) -> str:
    """The codec for a log starting with ``head``: the same rule as for a Theano config file
    (BOMs, BOM-less UTF-16 seen by its NUL bytes); UTF-8 when nothing else fits. A head of NULs
    alone is no UTF-16: a log truncated under a writer (logrotate's copytruncate) starts so."""
    if not head.strip(b"\0"):
        return "utf-8"
    return encoding_of(head)[2] or "utf-8"


class _Prefixed(io.RawIOBase):
    """Bytes already read (the sniffed head), then the rest of the stream."""

    def __init__(self, head: bytes, rest: Any) -> None:  # an io.BufferedReader
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.head[:len(buffer)] or self.rest.read1(len(buffer))
        self.head = self.head[len(data):] if self.head else b""
        buffer[:len(data)] = data
        return len(data)


def _text(stream: BinaryIO) -> io.TextIOWrapper:
    buffered = stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(stream)  # type: ignore[arg-type,type-var]
    head = buffered.peek(4)[:4]
    if len(head) < 4:  # a pipe may hand out its first bytes one at a time: wait for 4 (or the end)
        head = buffered.read(4)
        buffered = io.BufferedReader(_Prefixed(head, buffered))
    return io.TextIOWrapper(buffered, encoding=sniff_encoding(head), errors="replace", newline=None)


def _cap(block: list[tuple[int, str]], max_line: int) -> list[tuple[int, str]]:
    capped = []
    for number, line in block:
        if len(line) <= max_line:
            capped.append((number, line))
        else:
            capped.extend((number, line[i:i + max_line]) for i in range(0, len(line), max_line))
    return capped


def numbered_blocks(stream: BinaryIO, max_line: int = MAX_LINE, chunk: int = CHUNK) -> Iterator[list[tuple[int, str]]]:
    """Blocks of (line number, text), read ``chunk`` characters at a time; numbering and
    splitting stay in C for ordinary lines (this is the hot loop on big logs)."""
    text = _text(stream)
    number, carry, continuing = 0, "", False  # continuing: carry's line was partly handed out
    while True:
        data = text.read(chunk)
        if not data:
            break
        lines = (carry + data).split("\n")
        carry = lines.pop()
        block: list[tuple[int, str]] = []
        if lines:
            first = number if continuing else number + 1
            block = list(zip(range(first, first + len(lines)), lines))
            number, continuing = first + len(lines) - 1, False
            if max(map(len, lines)) > max_line:
                block = _cap(block, max_line)
        if len(carry) > max_line:
            if not continuing:
                number, continuing = number + 1, True
            cut = len(carry) - len(carry) % max_line
            block += [(number, carry[i:i + max_line]) for i in range(0, cut, max_line)]
            carry = carry[cut:]
        if block:
            yield block
    if carry:
        yield [(number if continuing else number + 1, carry)]


def numbered_lines(stream: BinaryIO, max_line: int = MAX_LINE) -> Iterator[tuple[int, str]]:
    """(line number, text) for every line; pieces of an over-long line share its number."""
    for block in numbered_blocks(stream, max_line):
        yield from block


def text_lines(source: str) -> Iterator[tuple[int, str]]:
    """The same for text already in memory (`--text`, captured output in the checks)."""
    return numbered_lines(io.BytesIO(source.encode("utf-8", errors="replace")))
