"""One config file being repaired: its bytes as found, the text being edited, and what each
fix changed. All edits to one file become one atomic write (so the plan's hashes hold)."""

from __future__ import annotations

import difflib
import os

from theanodoctor.host.theanorc import encoding_of
from theanodoctor.repair.action import Action
from theanodoctor.repair.fsops import sha256_bytes

from .rc_text import RcText

_ENCODE = {"utf-8": "utf-8", "utf-8-bom": "utf-8-sig", "utf-16-le": "utf-16", "utf-16-be": "utf-16"}


def _lines(text: str) -> list[str]:
    """Lines for the preview, each ending in \\n whatever the file uses (a lone \\r would
    rewind the terminal's line)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").splitlines(keepends=True)


class Draft:
    def __init__(self, path: str, data: bytes | None) -> None:
        self.path = path
        self.original = data
        label, self.bom, codec = encoding_of(data) if data else ("utf-8", False, "utf-8")
        self.encoding = label or "utf-8"
        self.editable = codec is not None
        text = data.decode(codec or "utf-8", errors="replace") if data else ""
        self.original_text = text[1:] if text.startswith("\ufeff") else text  # utf-16 keeps no BOM; utf-8-sig may
        self.rc = RcText(self.original_text)
        self.to_utf8 = False
        self.changes: list[tuple[str, str]] = []  # (fix id, what)
        self.refusals: list[tuple[str, str]] = []  # (fix id, why a wanted change is not made)

    @classmethod
    def read(cls, path: str) -> Draft:
        try:
            with open(path, "rb") as fh:
                return cls(path, fh.read())
        except FileNotFoundError:
            return cls(path, None)

    def note(self, fix_id: str, what: str) -> None:
        self.changes.append((fix_id, what))

    def data(self) -> bytes:
        text = self.rc.text()
        if self.to_utf8 or self.original is None:
            return text.encode("utf-8")
        codec = _ENCODE.get(self.encoding, "utf-8")
        if self.encoding in ("utf-16-le", "utf-16-be") and not self.bom:
            codec = self.encoding
        return text.encode(codec)

    def action(self) -> Action | None:
        if not self.changes:
            return None
        new = self.data()
        if new == self.original:
            return None
        old_text = self.original_text
        diff = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                       for line in difflib.unified_diff(_lines(old_text), _lines(self.rc.text()),
                                                        fromfile=f"{self.path} (now)", tofile=f"{self.path} (after)"))
        verb = "create" if self.original is None else "edit"
        return Action("write", self.path, tuple(dict.fromkeys(f for f, _ in self.changes)),
                      f"{verb} {os.path.basename(self.path)}: " + "; ".join(w for _, w in self.changes),
                      before=sha256_bytes(self.original) if self.original is not None else None,
                      content=new, preview=diff or "(text unchanged; only the bytes: see the summary)",
                      notes=tuple(w for _, w in self.changes))
