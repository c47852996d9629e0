"""Which releases of Theano, Lasagne and Keras let a call pass a keyword:
``profiles/api_keywords.yaml``, written by tools/api_keywords.py from the release trees.

``lookup("scan", "strict")`` gives one :class:`KeywordEra` for each module whose ``scan`` does not
take ``strict`` in every release read: the releases where the call exists without ``**kwargs``
(only there can Python refuse a keyword) and, among them, those that take it, cited at the `def`
a user can open."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from theanodoctor.kb_api_eras import Project, read_project, release_indices
from theanodoctor.knowledge import derived, load_table, table

API_KEYWORDS = "api_keywords.yaml"


class KeywordEra(NamedTuple):
    project: Project
    module: str
    call: str  # as the table names it: `scan`, `Dense.__init__`
    keyword: str
    span: tuple[int, ...]  # releases with the call, taking no **kwargs
    have: tuple[int, ...]  # of those, the releases that take the keyword
    cite: str  # "<Project> <tag> <file>:<line>" of the `def` at the first release with it (or the last)


@table
def projects() -> dict[str, tuple[Project, dict[str, list[str]]]]:
    data = load_table(API_KEYWORDS)
    return {key: (read_project(API_KEYWORDS, key, row, {}), row.get("calls") or {})
            for key, row in (data.get("projects") or {}).items()}


def lookup(call: str, keyword: str, forwarded: bool = False) -> tuple[KeywordEra, ...]:
    """``call`` as Python prints it (``scan``, ``__init__``, ``fit``; 3.10+ ``Dense.__init__``):
    every listed call of that name (an unqualified method name stands for any class's).
    ``forwarded``: the keyword reached a base class that refuses what it does not know (Keras'
    `Layer`), so a release whose call takes **kwargs still refuses it: the span keeps those."""
    return tuple(era for name in _names(call) for era in _eras(name, keyword, forwarded))


@derived
def _names(call: str) -> tuple[str, ...]:
    names = {name for _, calls in projects().values() for name in calls}
    return tuple(sorted(n for n in names if n == call or ("." not in call and n.endswith("." + call))))


def _eras(name: str, keyword: str, forwarded: bool) -> list[KeywordEra]:
    return [KeywordEra(project, module, name, keyword, span, have, cite)
            for project, calls in projects().values()
            for module, span, have, cite in row_eras(project, calls.get(name, ()), keyword, forwarded)]


Row = tuple[str, tuple[int, ...], tuple[int, ...], str]


def row_eras(project: Project, rows: Iterable[str], word: str, forwarded: bool = False) -> list[Row]:
    """(module, span, have, cite) of each row "MODULE RANGES [**RANGES] | WORD RANGES FILE:LINE | ..."
    that lists ``word`` (this table's and profiles/api_attrs.yaml's form): the releases with the call
    or class, less those that take any keyword (**kwargs) unless ``forwarded``; of those, the ones
    with ``word``; and the source of the FILE:LINE."""
    found = []
    for row in rows:
        head, *tokens = row.split(" | ")
        module, spans, *varkw = head.split()
        exists = release_indices(spans, project.releases)
        anything = set(release_indices(varkw[0][2:], project.releases)) if varkw and not forwarded else set()
        span = tuple(i for i in exists if i not in anything)
        for token in tokens:
            listed, have, where = token.split()
            if listed == word and span:
                with_it = release_indices(have, project.releases)
                # FILE:LINE is at the first release with the word, or at the last where only the
                # older releases have it (tools/api_keywords.py, tools/api_attrs.py)
                cited = with_it[0] if with_it[0] != exists[0] else with_it[-1]
                found.append((module, span, tuple(i for i in with_it if i in span),
                              f"{project.label} {project.tags[cited]} {where}"))
    return found
