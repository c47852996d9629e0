"""The API-marker table (profiles/theano_api.yaml) and its matching: a use of a module, a call
with a keyword, or a config setting becomes a constraint on the Theano release."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from packaging.version import Version

from theanodoctor.knowledge import KnowledgeError, choice, load_table, rows, source, table, text, version_range, where
from theanodoctor.scan.findings import Setting, Use

TABLE = "theano_api.yaml"


class Marker(NamedTuple):
    id: str
    kind: str  # module | call | setting
    name: str  # dotted name; for settings a regex over the option name
    keyword: str  # call: a regex over keyword names
    value: str  # setting: a regex over the value
    spec: str
    strength: str
    says: str
    source: str


@table
def markers() -> tuple[Marker, ...]:
    found = []
    for row in rows(TABLE, "markers"):
        kind = choice(TABLE, row, "kind", ("module", "call", "setting"))
        version_range(TABLE, row, "spec")  # validated; kept as written, in the order its source reads
        marker = Marker(
            id=text(TABLE, row, "id"), kind=kind, name=text(TABLE, row, "name"),
            keyword=text(TABLE, row, "keyword", required=kind == "call"),
            value=text(TABLE, row, "value", required=kind == "setting"),
            spec=str(row["spec"]), strength=choice(TABLE, row, "strength", ("hard", "soft")),
            says=text(TABLE, row, "says"), source=source(TABLE, row, "source"))
        for pattern in (marker.keyword, marker.value) + ((marker.name,) if kind == "setting" else ()):
            try:
                re.compile(pattern)
            except re.error as exc:
                raise KnowledgeError(f"{where(TABLE, row)}: not a regular expression: {pattern!r}") from exc
        found.append(marker)
    return tuple(found)


@table
def releases() -> tuple[Version, ...]:
    data = load_table(TABLE).get("releases", {})
    versions = data.get("versions") if isinstance(data, dict) else None
    if not isinstance(versions, list) or not versions:
        raise KnowledgeError(f"profiles/{TABLE}: `releases.versions` must list the Theano releases")
    return tuple(sorted(Version(str(v)) for v in versions))


def tracked_roots() -> frozenset[str]:
    return frozenset(m.name.split(".")[0] for m in markers() if m.kind != "setting")


@table
def _by_name() -> dict[str, tuple[Marker, ...]]:
    found: dict[str, list[Marker]] = {}
    for marker in markers():
        if marker.kind != "setting":
            found.setdefault(marker.name, []).append(marker)
    return {name: tuple(found[name]) for name in found}


def is_marked(name: str) -> bool:
    """Whether a marker names this module or attribute, or a module above it."""
    table = _by_name()
    parts = name.split(".")
    return any(".".join(parts[:depth]) in table for depth in range(len(parts), 1, -1))


def match_use(use: Use) -> Iterator[Marker]:
    """Module markers of the name or a module above it; call markers of the name, by keyword."""
    parts = use.name.split(".")
    table = _by_name()
    for depth in range(len(parts), 0, -1):
        for marker in table.get(".".join(parts[:depth]), ()):
            if marker.kind == "module":
                yield marker
            elif depth == len(parts) and any(re.fullmatch(marker.keyword, k) for k in use.keywords):
                yield marker


def match_setting(setting: Setting) -> Iterator[Marker]:
    for marker in markers():
        if marker.kind == "setting" and re.fullmatch(marker.name, setting.key) and \
                re.fullmatch(marker.value, setting.value.strip(), re.I):
            yield marker
