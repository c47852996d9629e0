"""A repair step as data: what it does, to which path, what it expects to find there, and how
it looks in the plan. The runner applies actions only through ``repair.apply``.

Kinds:
- ``write``   replace (or create, ``before=None``) ``path`` with ``content``
- ``rename``  rename ``path`` to ``target`` (which must not exist)
- ``link``    place ``source``'s bytes under the new name ``path`` (hard link, else copy)
- ``symlink`` create the symlink ``path`` -> ``target``
- ``clear``   delete the module folders ``items`` of the compiledir ``path``
- ``purge``   delete the compiledir ``path`` itself
- ``unlock``  delete the stale compile lock of the compiledir ``path``
- ``advice``  never applied: ``commands`` to run by hand (PATH, packages)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

KINDS = ("write", "rename", "link", "symlink", "clear", "purge", "unlock", "advice")
NOT_UNDOABLE = ("clear", "purge", "unlock")


@dataclass(frozen=True)
class Action:
    kind: str
    path: str
    fix_ids: tuple[str, ...]
    summary: str
    before: str | None = None  # sha256 expected at ``path`` (``source`` for link); None: absent
    content: bytes | None = None
    source: str | None = None
    target: str | None = None
    items: tuple[str, ...] = ()
    preview: str = ""
    notes: tuple[str, ...] = ()
    commands: tuple[tuple[str, str], ...] = ()  # (shell, command) for advice
    force: bool = False  # cache: act even while the lock's owner cannot be proven dead

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown action kind {self.kind!r}")

    @property
    def applies(self) -> bool:
        return self.kind != "advice"

    @property
    def undoable(self) -> bool:
        return self.kind not in NOT_UNDOABLE and self.applies

    def to_dict(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "kind": self.kind, "path": self.path, "fix_ids": list(self.fix_ids), "summary": self.summary,
            "before_sha256": self.before, "undoable": self.undoable, "notes": list(self.notes),
        }
        if self.source:
            doc["source"] = self.source
        if self.target:
            doc["target"] = self.target
        if self.items:
            doc["items"] = len(self.items)
        if self.preview:
            doc["preview"] = self.preview
        if self.commands:
            doc["commands"] = [{"shell": s, "command": c} for s, c in self.commands]
        return doc
