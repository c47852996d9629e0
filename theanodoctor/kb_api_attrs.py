"""Which releases of Theano, Lasagne and Keras give the instances of a class an attribute:
``profiles/api_attrs.yaml``, written by tools/api_attrs.py from the release trees.

``lookup("Conv2DLayer", "flip_filters")`` gives one :class:`AttributeEra` for each module whose
``Conv2DLayer`` does not have ``flip_filters`` in every release read: the releases with the class
and, among them, those whose instances have it, cited where it is bound."""

from __future__ import annotations

import re
from typing import NamedTuple

from theanodoctor.kb_api_eras import Project, read_project, release_indices
from theanodoctor.kb_api_keywords import row_eras
from theanodoctor.knowledge import load_table, table, table_text

API_ATTRS = "api_attrs.yaml"


class AttributeEra(NamedTuple):
    project: Project
    module: str
    cls: str
    attribute: str
    span: tuple[int, ...]  # releases with the class
    have: tuple[int, ...]  # of those, the releases whose instances have the attribute
    cite: str  # "<Project> <tag> <file>:<line>" where it is bound at its first release (or its last)


@table
def projects() -> dict[str, tuple[Project, dict[str, list[str]]]]:
    data = load_table(API_ATTRS)
    return {key: (read_project(API_ATTRS, key, row, {}), row.get("classes") or {})
            for key, row in (data.get("projects") or {}).items()}


@table
def class_names() -> frozenset[str]:
    """The classes listed, read from the table's text without parsing it: the common messages
    (`'NoneType' object has no attribute ...`) are told apart without the large parse."""
    return frozenset(re.findall(r"^      (\w+):$", table_text(API_ATTRS), re.M))


def lookup(cls: str, attribute: str, module: str | None = None) -> tuple[AttributeEra, ...]:
    """``module``: only the class of that module. Without one, a class of a module that lives only
    before the project's judged line (Keras 0.x) is left out where a class of that name in another
    module lives on it (Keras 1's `keras.engine.training.Model`): a message naming the class means
    the later one, which the early one's attributes say nothing of."""
    if cls not in class_names():
        return ()
    return tuple(AttributeEra(project, found, cls, attribute, span, have, cite)
                 for project, classes in projects().values()
                 for rows in (classes.get(cls) or [],)
                 for found, span, have, cite in row_eras(project, rows, attribute)
                 if found == module or (module is None and not _superseded(project, rows, found, span)))


def _superseded(project: Project, rows: list[str], module: str, span: tuple[int, ...]) -> bool:
    """``module``'s class ends before the judged line and another module's class of its name reaches it."""
    first = project.judged_from
    return bool(first) and span[-1] < first and any(
        release_indices(row.split()[1], project.releases)[-1] >= first
        for row in rows if row.split(" ", 1)[0] != module)


@table
def module_classes() -> dict[str, tuple[str, ...]]:
    """Module -> the classes the table lists in it."""
    found: dict[str, list[str]] = {}
    for _, classes in projects().values():
        for cls, rows in classes.items():
            for row in rows:
                found.setdefault(row.split(" ", 1)[0], []).append(cls)
    return {module: tuple(names) for module, names in found.items()}
