"""Typed loader for ``profiles/port_rules.yaml``: the rewrites `port` applies (module moves,
keyword renames, removed calls, config options) and the uses it only lists. Read once; a
malformed row raises ``KnowledgeError`` naming file and line."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from theanodoctor.knowledge import KnowledgeError, choice, rows, strings, table, text, where

NAME = "port_rules.yaml"
KINDS = ("module", "call", "function", "removed", "flag", "manual")
_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(\.\*)?$")
_SOURCE = re.compile(r"https://github\.com/\S+/(blob|tree)/\S+")


class Rule(NamedTuple):
    id: str
    kind: str
    old: str  # module / function / option; "" for call rules (see names)
    new: str
    names: dict[str, str] | None  # module: kept names (old -> new); None: every name ("*")
    calls: tuple[str, ...]  # call: the functions it applies to
    keep: int  # call/function: leading positional arguments left as they are
    positional: tuple[str, ...]
    rename: dict[str, str]
    allowed: frozenset[str]
    explicit: dict[str, str]
    same_positions: bool  # call: positions mean the same in both signatures (keywords only for style)
    needs: str  # a package the ported code needs
    says: str
    old_source: str
    new_source: str

    @property
    def source(self) -> str:
        return f"old: {self.old_source}; new: {self.new_source}"


def _mapping(row: Any, key: str) -> dict[str, str]:
    value = row.get(key) or {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise KnowledgeError(f"{where(NAME, row)}: `{key}` must map names to names")
    return dict(value)


def _dotted(row: Any, key: str, required: bool = True) -> str:
    value = text(NAME, row, key, required)
    if value and not _DOTTED.match(value):
        raise KnowledgeError(f"{where(NAME, row)}: `{key}` must be a dotted name, not {value!r}")
    return value


def _rule(row: Any) -> Rule:
    kind = choice(NAME, row, "kind", KINDS)
    names: dict[str, str] | None = None
    if kind == "module":
        names = None if row.get("names") == "*" else _mapping(row, "names")
    for key in ("old_source", "new_source"):
        if not _SOURCE.search(text(NAME, row, key)):
            raise KnowledgeError(f"{where(NAME, row)}: `{key}` must name the upstream file at its tag (a github URL)")
    keep = row.get("keep", 0)
    if not isinstance(keep, int) or keep < 0:
        raise KnowledgeError(f"{where(NAME, row)}: `keep` must be a count of positional arguments")
    rule = Rule(
        id=text(NAME, row, "id"), kind=kind, old=_dotted(row, "old", kind != "call"),
        new=_dotted(row, "new", kind in ("module", "function")), names=names,
        calls=strings(NAME, row, "names") if kind == "call" else (), keep=keep,
        positional=strings(NAME, row, "positional"), rename=_mapping(row, "rename"),
        allowed=frozenset(strings(NAME, row, "allowed")), explicit=_mapping(row, "explicit"),
        same_positions=row.get("same_positions") is True,
        needs=text(NAME, row, "needs", required=False), says=" ".join(text(NAME, row, "says").split()),
        old_source=text(NAME, row, "old_source"), new_source=text(NAME, row, "new_source"))
    if kind == "call" and not rule.calls:
        raise KnowledgeError(f"{where(NAME, row)}: a call rule names the functions it applies to (`names`)")
    if kind in ("call", "function") and not rule.allowed:
        raise KnowledgeError(f"{where(NAME, row)}: a {kind} rule lists the keywords it understands (`allowed`)")
    unknown = (set(rule.positional) | set(rule.rename.values()) | set(rule.explicit)) - rule.allowed
    if unknown:
        raise KnowledgeError(f"{where(NAME, row)}: {', '.join(sorted(unknown))} not among `allowed`")
    return rule


@table
def rules() -> tuple[Rule, ...]:
    found = tuple(_rule(row) for row in rows(NAME, "rules"))
    ids = [r.id for r in found]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise KnowledgeError(f"profiles/{NAME}: repeated rule ids: {', '.join(repeated)}")
    return found


def rule_ids() -> tuple[str, ...]:
    return tuple(r.id for r in rules())
