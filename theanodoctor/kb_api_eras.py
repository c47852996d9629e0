"""Which releases of Theano, Lasagne, Keras, Blocks, Fuel and PyMC3 have a module or a module-level name:
``profiles/api_eras.yaml``, written by tools/api_eras.py from the release trees.

``lookup("theano.tensor.nnet", "relu")`` gives the releases that have it and where it is bound at
the releases that bound its range (a source a user can open: the upstream file at the tag with
its line); ``None`` when the module or name is in no release read (user code, another library)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from packaging.version import InvalidVersion, Version

from theanodoctor.knowledge import KnowledgeError, derived, load_table, table, table_text

API_ERAS = "api_eras.yaml"


class Project(NamedTuple):
    key: str  # the import name: theano, lasagne, keras, blocks, fuel
    label: str  # Theano, Lasagne, Keras, Blocks, Fuel
    releases: tuple[str, ...]  # oldest first
    tags: tuple[str, ...]  # the git tag (or commit) of each release
    modules: dict[str, Any]  # module -> its row (parsed on lookup: the table is large)
    judged_from: int = 0  # the releases before it decide only what the later ones leave open (Keras 0.x)

    def version(self, index: int) -> Version:
        return Version(self.releases[index])


class Era(NamedTuple):
    project: Project
    module: str
    name: str | None  # None: the module itself
    have: tuple[int, ...]  # indices of the releases that have it
    cites: dict[int, str]  # release index -> "<Project> <tag> <file>:<line>"
    condition: str = ""  # at its newest release it is bound only under this `if` (the same form)

    def span(self) -> str:
        return ranges(self.have, self.project.releases)

    def newest_before(self, version: Version) -> int | None:
        older = [i for i in self.have if self.project.version(i) < version]
        return older[-1] if older else None

    def oldest_after(self, version: Version) -> int | None:
        newer = [i for i in self.have if self.project.version(i) > version]
        return newer[0] if newer else None

    def has(self, version: Version) -> bool:
        return any(self.project.version(i) == version for i in self.have)


@table
def projects() -> dict[str, Project]:
    data = load_table(API_ERAS)
    return {key: read_project(API_ERAS, key, row, row["modules"]) for key, row in (data.get("projects") or {}).items()}


def read_project(table_name: str, key: str, row: Any, modules: dict[str, Any]) -> Project:
    """One project's row of a release table (this one, api_keywords.yaml): its releases and tags."""
    releases, tags = tuple(row["releases"]), tuple(row["tags"])
    if len(releases) != len(tags) or not releases:
        raise KnowledgeError(f"profiles/{table_name}: {key}: releases and tags must pair up")
    first = row.get("judged_from")
    if first is not None and first not in releases:
        raise KnowledgeError(f"profiles/{table_name}: {key}: judged_from {first} is no release read")
    return Project(key, row["label"], releases, tags, modules, releases.index(first) if first else 0)


@table
def project_keys() -> frozenset[str]:
    """The projects' keys, read from the table's text without parsing it: a module of another
    library (`numpy.bool` in a log) is told apart without the large parse."""
    return frozenset(re.findall(r"^  (\w+):\n    label:", table_text(API_ERAS), re.M))


def project_of(module: str) -> Project | None:
    key = module.split(".")[0]
    return projects().get(key) if key in project_keys() else None


def lookup(module: str, name: str | None = None) -> Era | None:
    """The releases with ``module`` (``name`` None) or with ``name`` in it; a name the module
    never binds but that is a module of its own (``from theano.tensor.signal import downsample``)
    is looked up as that module."""
    project = project_of(module)
    row = project.modules.get(module) if project else None
    if project is None:
        return None
    if row is None:
        return None
    have = release_indices(row["in"], project.releases)
    if name is None:
        return Era(project, module, None, have, _module_cites(project, row, have))
    if name in (row.get("always") or "").split():
        return Era(project, module, name, tuple(range(len(project.releases))), {})
    value = _names(project.key, module).get(name)
    if value is None:
        return lookup(f"{module}.{name}") if f"{module}.{name}" in project.modules else None
    return name_era(project, row, module, name, value)


def name_era(project: Project, row: Any, module: str, name: str, value: str) -> Era:
    """The era a table row's "RANGES [FILE]:LINE ... [?[FILE]:LINE]" gives ``name`` (this table's
    names, theano_config_eras.yaml's configuration names); ``row``'s path serves a cite without a file."""
    spans, *tokens = value.split()
    have = release_indices(spans, project.releases)
    bounds = ([have[0]] if have[0] != 0 else []) + ([have[-1]] if have[-1] != len(project.releases) - 1 else [])
    cites = {i: _cite(project, row, i, t) for i, t in zip(bounds, (t for t in tokens if not t.startswith("?")))}
    condition = next((_cite(project, row, have[-1], t[1:]) for t in tokens if t.startswith("?")), "")
    return Era(project, module, name, have, cites, condition)


def _cite(project: Project, row: Any, index: int, token: str) -> str:
    file, _, line = token.rpartition(":")
    return f"{project.label} {project.tags[index]} {file or _path_at(row, index, project)}:{line}"


@derived
def _names(key: str, module: str) -> dict[str, str]:
    """Name -> "RANGES CITE ..." of one module's `names` rows ("NAME RANGES CITE ...")."""
    rows = projects()[key].modules[module].get("names") or []
    return dict(row.split(" ", 1) for row in rows)


def owners(name: str) -> tuple[str, ...]:
    """The modules that bind ``name`` in some releases but not in every one, of the projects where
    no module binds it in every release of the judged line (there a missing ``name`` is no matter
    of the release)."""
    partial, always = _owners()
    return tuple(m for m in partial.get(name, ()) if m.split(".")[0] not in always.get(name, ()))


@derived
def _owners() -> tuple[dict[str, list[str]], dict[str, set[str]]]:
    partial: dict[str, list[str]] = {}
    always: dict[str, set[str]] = {}
    for project in projects().values():
        line = set(range(project.judged_from, len(project.releases)))
        for module, row in project.modules.items():
            for text in row.get("names") or []:
                name, spans = text.split(" ", 2)[:2]
                partial.setdefault(name, []).append(module)
                if line <= set(release_indices(spans, project.releases)):
                    always.setdefault(name, set()).add(project.key)
            for name in (row.get("always") or "").split():
                always.setdefault(name, set()).add(project.key)
    return partial, always


def parse_version(text: str) -> Version | None:
    try:
        return Version(text.replace("beta", "b"))
    except InvalidVersion:
        return None


def _module_cites(project: Project, row: Any, have: tuple[int, ...]) -> dict[int, str]:
    return {i: f"{project.label} {project.tags[i]} {_path_at(row, i, project)}:1" for i in (have[0], have[-1])}


def _path_at(row: Any, index: int, project: Project) -> str:
    for path, span in (row.get("paths") or {}).items():
        if index in release_indices(span, project.releases):
            return str(path)
    return str(row["path"])


def release_indices(spans: str, releases: tuple[str, ...]) -> tuple[int, ...]:
    where = {r: i for i, r in enumerate(releases)}
    found: list[int] = []
    for span in str(spans).split(","):
        first, _, last = span.partition("-")
        found.extend(range(where[first], where[last or first] + 1))
    return tuple(found)


def ranges(indices: Sequence[int], releases: Sequence[str], sep: str = ", ") -> str:
    """Release indices as spans of the release names: "0.7-0.8.2, 1.0.0" (the table uses sep ",")."""
    spans: list[list[int]] = []
    for i in indices:
        if spans and spans[-1][1] == i - 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    return sep.join(releases[a] if a == b else f"{releases[a]}-{releases[b]}" for a, b in spans)
