"""Load the YAML knowledge tables of ``theanodoctor.profiles`` once, typed, with file:line errors.

``load_table`` and the small validators (``rows``, ``text``, ``source``, ``strings``, ``spec``,
``version_range``, ``choice``) are shared by every typed table loader; each raises
``KnowledgeError`` naming file and line."""

from __future__ import annotations

import functools
import re
from importlib import resources
from typing import Any, Callable, NamedTuple, TypeVar

import yaml
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from theanodoctor import sources

T = TypeVar("T")
TABLES: list[functools._lru_cache_wrapper[Any]] = []
DERIVED: list[functools._lru_cache_wrapper[Any]] = []


def table(loader: Callable[[], T]) -> functools._lru_cache_wrapper[T]:
    """A typed table loader: parsed once (cached) and known to :func:`preload`."""
    cached = functools.cache(loader)
    TABLES.append(cached)
    return cached


def derived(function: Callable[..., T]) -> functools._lru_cache_wrapper[T]:
    """A lookup cached per argument over the tables (cleared with them by :func:`forget`)."""
    cached = functools.cache(function)
    DERIVED.append(cached)
    return cached


def forget() -> None:
    """Drop every parsed table (tests that swap the profiles folder)."""
    for loader in TABLES + DERIVED:
        loader.cache_clear()
    load_table.cache_clear()
    table_text.cache_clear()


def preload() -> None:
    """Parse every registered table now (the CLI does this while the target probe runs)."""
    for loader in TABLES:
        loader()


class KnowledgeError(ValueError):
    """A malformed knowledge table: says which file and line."""


class Regex:
    """A regular expression of a table, compiled on its first use: the catalogue holds hundreds,
    and a log reaches only the few whose literal texts it holds (explain/scan.py), so compiling
    them all at load would be most of a short `explain`'s time. ``where`` names the row; a pattern
    that does not compile raises KnowledgeError (tests/test_knowledge.py compiles every one)."""

    __slots__ = ("pattern", "flags", "where", "_compiled")

    def __init__(self, pattern: str, flags: int = 0, where: str = "") -> None:
        self.pattern, self.flags, self.where = pattern, flags, where
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            try:
                self._compiled = re.compile(self.pattern, self.flags)
            except re.error as exc:
                raise KnowledgeError(f"{self.where}: the regex does not compile: {exc}") from exc
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled().search(text)

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


class _Map(dict):  # type: ignore[type-arg]
    line = 0


class _LineLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """A SafeLoader whose mappings remember the line they start on."""


def _construct_map(loader: _LineLoader, node: yaml.MappingNode) -> Any:
    mapping = _Map(loader.construct_mapping(node, deep=True))
    mapping.line = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_map)


@functools.cache
def table_text(name: str) -> str:
    """The text of ``profiles/<name>``, read once (a table's keys read from it and its parse share it)."""
    try:
        return resources.files("theanodoctor.profiles").joinpath(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KnowledgeError(f"profiles/{name}: cannot read: {exc}") from exc


@functools.cache
def load_table(name: str) -> Any:
    """Parse ``profiles/<name>`` (safe YAML) once; every mapping knows its line number. Several
    typed tables come from one file, so the parse is shared (callers must not change it)."""
    text = table_text(name)
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - _LineLoader is a SafeLoader
    except yaml.YAMLError as exc:
        raise KnowledgeError(f"profiles/{name}: not valid YAML: {exc}") from exc


def where(name: str, row: Any) -> str:
    return f"profiles/{name}:{getattr(row, 'line', '?')}"


def rows(name: str, key: str) -> list[Any]:
    data = load_table(name)
    rows = data.get(key) if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise KnowledgeError(f"profiles/{name}: expected a list under `{key}:`")
    for row in rows:
        if not isinstance(row, dict):
            raise KnowledgeError(f"{where(name, row)}: each `{key}` entry must be a mapping")
    return rows


def text(name: str, row: Any, key: str, required: bool = True) -> str:
    value = row.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise KnowledgeError(f"{where(name, row)}: `{key}` must be a non-empty string")
    return value.strip()


def source(name: str, row: Any, key: str = "source", required: bool = True) -> str:
    """A ``text`` shown to users as where a fact comes from: it must keep :data:`sources.RULE`."""
    value = text(name, row, key, required)
    why = sources.problem(value) if value else None
    if why:
        raise KnowledgeError(f"{where(name, row)}: `{key}` {why}")
    return value


def strings(name: str, row: Any, key: str) -> tuple[str, ...]:
    value = row.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise KnowledgeError(f"{where(name, row)}: `{key}` must be a list of strings")
    return tuple(value)


def spec(name: str, row: Any, key: str) -> SpecifierSet | None:
    value = row.get(key)
    if value is None:
        return None
    try:
        return SpecifierSet(str(value))
    except InvalidSpecifier as exc:
        raise KnowledgeError(f"{where(name, row)}: `{key}` is not a version range: {value!r}") from exc


def version_range(name: str, row: Any, key: str) -> SpecifierSet:
    """A required ``spec``."""
    value = spec(name, row, key)
    if value is None:
        raise KnowledgeError(f"{where(name, row)}: `{key}` is required (a version range)")
    return value


def choice(name: str, row: Any, key: str, choices: tuple[str, ...]) -> str:
    value = row.get(key)
    if value not in choices:
        raise KnowledgeError(f"{where(name, row)}: `{key}` must be one of {', '.join(choices)}")
    return str(value)


FLAVOURS = ("Theano", "Theano-PyMC")
NEWEST = {"Theano": "1.0.5", "Theano-PyMC": "1.1.2"}  # what the rows without a release are about


class CompatRule(NamedTuple):
    flavour: str
    theano: SpecifierSet | None  # the releases it applies to (None: every release)
    python: SpecifierSet | None
    numpy: SpecifierSet | None
    unless_flag: str
    result: str  # "broken" | "degraded"
    message: str
    remedy: str
    commands: tuple[str, ...]
    source: str


class Verified(NamedTuple):
    flavour: str
    theano: str
    python: str
    numpy: str
    scipy: str
    source: str


@table
def compat_rules() -> tuple[CompatRule, ...]:
    name = "theano_compat.yaml"
    return tuple(
        CompatRule(
            flavour=choice(name, row, "flavour", FLAVOURS),
            theano=spec(name, row, "theano"),
            python=spec(name, row, "python"),
            numpy=spec(name, row, "numpy"),
            unless_flag=text(name, row, "unless_flag", required=False),
            result=choice(name, row, "result", ("broken", "degraded")),
            message=text(name, row, "message"),
            remedy=text(name, row, "remedy"),
            commands=strings(name, row, "commands"),
            source=source(name, row),
        )
        for row in rows(name, "rules")
    )


@table
def verified_stacks() -> tuple[Verified, ...]:
    name = "theano_compat.yaml"
    return tuple(
        Verified(
            flavour=(flavour := choice(name, row, "flavour", FLAVOURS)),
            theano=text(name, row, "theano", required=False) or NEWEST[flavour],
            **{k: text(name, row, k) for k in ("python", "numpy", "scipy")}, source=source(name, row),
        )
        for row in rows(name, "verified")
    )


def in_range(allowed: SpecifierSet | None, version: str | None) -> bool:
    """``version`` in ``allowed`` (None: any), pre-releases included (Theano 0.10.0b4)."""
    if allowed is None:
        return True
    if not version:
        return False
    try:
        return allowed.contains(Version(version), prereleases=True)
    except InvalidVersion:
        return False


def applies(rule: CompatRule, theano: str | None) -> bool:
    """Whether a rule covers this release of its flavour (an unknown release: rules without a range)."""
    return rule.theano is None or (theano is not None and in_range(rule.theano, theano))
