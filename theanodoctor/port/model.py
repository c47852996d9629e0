"""What porting one file found: the changes it makes and the uses it leaves to the user."""

from __future__ import annotations

from typing import Any, NamedTuple


class Change(NamedTuple):
    rule: str
    line: int
    what: str

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


class Manual(NamedTuple):
    """A use `port` does not rewrite: where, the code, and what to do by hand."""

    rule: str
    line: int
    code: str
    what: str

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


class Ported(NamedTuple):
    text: str
    changes: tuple[Change, ...]
    manual: tuple[Manual, ...]
