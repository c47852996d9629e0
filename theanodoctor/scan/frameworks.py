"""The frameworks table (profiles/frameworks.yaml): which imports and requirement names are
which framework over Theano, and the Theano / Python each release of it needs."""

from __future__ import annotations

from typing import NamedTuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from theanodoctor.knowledge import KnowledgeError, choice, rows, source, strings, table, text, where

TABLE = "frameworks.yaml"


class Pairing(NamedTuple):
    when: str  # the framework's versions it applies to: a specifier, "any", or "git"
    since: str  # for git rows: the branch from this date (YYYY-MM-DD, "" = always) ...
    until: str  # ... to this one (exclusive)
    with_theano: bool  # applies only when the framework runs on Theano (Keras' backend)
    subject: str
    spec: str
    strength: str
    says: str
    source: str


class Framework(NamedTuple):
    name: str
    imports: tuple[str, ...]
    says: str
    source: str
    pairings: tuple[Pairing, ...]
    git: str = ""  # its repository as a pip git URL
    on_pypi: tuple[str, ...] | None = None  # the releases PyPI has (() = none; None = the table does not say)
    tag: str = ""  # the git tag to install when it is not on PyPI
    backend_setting: str = ""  # where the framework reads its backend (Keras)


@table
def frameworks() -> tuple[Framework, ...]:
    found = []
    for row in rows(TABLE, "frameworks"):
        pairings = []
        for pair in row.get("pairings") or []:
            when = str(pair.get("when", ""))
            if when not in ("any", "git"):
                try:
                    SpecifierSet(when)
                except InvalidSpecifier as exc:
                    raise KnowledgeError(f"{where(TABLE, pair)}: `when` must be any, git or a version range") from exc
            since, until = (str(pair.get(k, "")) for k in ("since", "until"))
            pairings.append(Pairing(when, since, until, bool(pair.get("with_theano")), text(TABLE, pair, "subject"),
                                    text(TABLE, pair, "spec"), choice(TABLE, pair, "strength", ("hard", "stated")),
                                    text(TABLE, pair, "says"), source(TABLE, pair, "source")))
        on_pypi = strings(TABLE, row, "on_pypi") if "on_pypi" in row else None
        found.append(Framework(text(TABLE, row, "name"), strings(TABLE, row, "imports"), text(TABLE, row, "says"),
                               source(TABLE, row, "source"), tuple(pairings), str(row.get("git") or ""), on_pypi,
                               str(row.get("tag") or ""), str(row.get("backend_setting") or "")))
    return tuple(found)


class Ceiling(NamedTuple):
    name: str
    imports: tuple[str, ...]
    last: str  # the last release with Python 2.7 wheels
    source: str


@table
def python2_ceilings() -> tuple[Ceiling, ...]:
    return tuple(Ceiling(text(TABLE, row, "name"), strings(TABLE, row, "imports"), text(TABLE, row, "last"),
                         source(TABLE, row, "source"))
                 for row in rows(TABLE, "python2_ceilings"))


def by_import(root: str) -> Framework | None:
    return next((f for f in frameworks() if root in f.imports), None)


def by_name(name: str) -> Framework | None:
    return next((f for f in frameworks() if f.name == name), None)


def applies(pairing: Pairing, spec: str, runs_on_theano: bool, as_of: str) -> bool:
    """Whether a pairing row applies to a framework the repository asks for with ``spec`` ("" for
    unpinned, a specifier, or a git URL). An unpinned or open range matches only `any` rows and
    the rows of the versions it can be: an exact pin picks its own rows; a git dependency the
    rows of the branch at the repository's date ``as_of``."""
    if pairing.with_theano and not runs_on_theano:
        return False
    if pairing.when == "any":
        return True
    if "://" in spec or spec.startswith("git+"):
        # a git row describes the branch head: a URL pinned to another commit or tag is not it
        ref = spec.split("#", 1)[0].rsplit("@", 1)[1] if "@" in spec.split("://", 1)[-1] else ""
        return pairing.when == "git" and ref in ("", "master", "main") and \
            (pairing.since or "0") <= as_of < (pairing.until or "9")
    if pairing.when == "git" or not spec:
        return False
    pinned = _pinned(spec)
    return pinned is not None and pinned in SpecifierSet(pairing.when)


def _pinned(spec: str) -> Version | None:
    if not spec.startswith("==") or "," in spec:
        return None
    try:
        return Version(spec[2:].rstrip(".*"))
    except InvalidVersion:
        return None
