"""Theano's config keys: the registry the target reported (or the fallback table when
``import theano`` failed), and the options Theano 1.0 removed (``profiles/theano_config.yaml``).
No checks live here."""

from __future__ import annotations

import difflib
from typing import NamedTuple

from theanodoctor import kb_era, knowledge
from theanodoctor.facts import Facts

from .common import PYMC, dist_version, flavour, knows_option, stage

TABLE = "theano_config.yaml"
KINDS = ("enum", "device", "bool", "int", "float", "str", "other")


class Removed(NamedTuple):
    section: str
    option: str  # "" = the whole section
    message: str
    remedy: str
    source: str


class KeyKind(NamedTuple):
    key: str
    kind: str
    options: tuple[str, ...]
    source: str


@knowledge.table
def removed_options() -> tuple[Removed, ...]:
    return tuple(
        Removed(knowledge.text(TABLE, row, "section"), knowledge.text(TABLE, row, "option", required=False),
                knowledge.text(TABLE, row, "message"), knowledge.text(TABLE, row, "remedy"),
                knowledge.source(TABLE, row, "source"))
        for row in knowledge.rows(TABLE, "removed")
    )


@knowledge.table
def fallback_kinds() -> dict[str, KeyKind]:
    return {
        kind.key: kind for kind in (
            KeyKind(knowledge.text(TABLE, row, "key"), knowledge.choice(TABLE, row, "kind", KINDS),
                    knowledge.strings(TABLE, row, "options"), knowledge.source(TABLE, row, "source"))
            for row in knowledge.rows(TABLE, "fallback_keys"))
    }


class ReleaseKeys(NamedTuple):
    """Every option one release registers: key -> kind, enum key -> its values."""

    flavour: str
    version: str
    kinds: dict[str, str]
    options: dict[str, tuple[str, ...]]
    source: str


@knowledge.table
def release_tables() -> tuple[ReleaseKeys, ...]:
    found = []
    for row in knowledge.rows(TABLE, "releases"):
        keys, enum = row.get("keys"), row.get("enum") or {}
        if not isinstance(keys, dict) or not isinstance(enum, dict):
            raise knowledge.KnowledgeError(f"{knowledge.where(TABLE, row)}: keys and enum must be mappings")
        found.append(ReleaseKeys(knowledge.text(TABLE, row, "flavour"), knowledge.text(TABLE, row, "version"),
                                 {str(k): str(v) for k, v in keys.items()},
                                 {str(k): tuple(map(str, v)) for k, v in enum.items()},
                                 knowledge.source(TABLE, row, "source")))
    return tuple(found)


def release_keys(flav: str | None, version: str | None) -> ReleaseKeys | None:
    """The options release ``version`` of ``flav`` knows, when a table has that release: the one
    question the config checks ask when the target cannot answer it itself."""
    return next((r for r in release_tables() if r.flavour == flav and r.version == version), None)


# -- the keys Theano knows ------------------------------------------------------------------

class Registry(NamedTuple):
    """Theano's config keys as the target reported them (``complete``) or the fallback table."""

    keys: frozenset[str]
    kinds: dict[str, str]
    options: dict[str, tuple[str, ...]]
    sep: str
    complete: bool
    table: str | None = None  # the release table used because the target could not say (its source)

    def split(self, key: str) -> tuple[str, str]:
        head, found, option = key.rpartition(self.sep)
        return (head if found else "global"), option

    def name(self, sect: str, option: str) -> str:
        return option if sect == "global" else f"{sect}{self.sep}{option}"

    def lookup(self, sect: str, option: str) -> str | None:
        """The key a file's [section] option feeds (sections are case-sensitive, options not)."""
        for key in self.keys:
            s, o = self.split(key)
            if s == sect and o.lower() == option.lower():
                return key
        return None

    def same_option(self, option: str) -> list[str]:
        """Keys, in any section, whose option is ``option`` (sorted)."""
        return sorted(k for k in self.keys if self.split(k)[1].lower() == option.lower())

    def closest(self, name: str) -> str | None:
        """The key spelled most like ``name``, if one is close."""
        lowered = {k.lower(): k for k in sorted(self.keys)}  # option names are case-insensitive
        close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.75)
        return lowered[close[0]] if close else None


def _dunder(facts: Facts) -> bool:
    naming = stage(facts, "theano_config").get("flag_naming")
    if naming in ("dotted", "dunder"):
        return naming == "dunder"
    if flavour(facts) != PYMC:
        return False
    version = dist_version(facts, PYMC) or ""
    try:  # Theano-PyMC renamed its keys in 1.0.12 (commit ed5bc1b07)
        return tuple(int(p) for p in version.split(".")[:3]) >= (1, 0, 12)
    except ValueError:
        return True


def registry(facts: Facts) -> Registry:
    config = stage(facts, "theano_config")
    sep = "__" if _dunder(facts) else "."
    known = config.get("known_keys")
    if isinstance(known, list) and known:  # an empty list is no registry (hand-made snapshots)
        kinds = config.get("known_kinds")
        kinds = kinds if isinstance(kinds, dict) else {}
        options = config.get("enum_options")
        options = options if isinstance(options, dict) else {}
        return Registry(frozenset(str(k) for k in known), {str(k): str(v) for k, v in kinds.items()},
                        {str(k): tuple(map(str, v)) for k, v in options.items() if isinstance(v, list)},
                        sep, True)
    flav = flavour(facts)
    release = release_keys(flav, dist_version(facts, flav) if flav else None)
    if release is not None and sep == ".":
        return Registry(frozenset(release.kinds), dict(release.kinds), dict(release.options), sep, True,
                        f"{release.flavour} {release.version}'s own list of options ({release.source})")
    table = {k.key.replace(".", sep): k for k in fallback_kinds().values()}
    return Registry(frozenset(table), {k: v.kind for k, v in table.items()},
                    {k: v.options for k, v in table.items() if v.options}, sep, False)


def removed_entry(sect: str, option: str) -> Removed | None:
    """A removed option's row, whatever the release (see ``removed_for``)."""
    for row in removed_options():
        if row.section == sect and (not row.option or row.option == option.lower()):
            return row
    return None


def removed_for(facts: Facts, sect: str, option: str) -> Removed | None:
    """``removed_entry`` unless the installed release still has the option (``[lib] cnmem``,
    ``[nvcc] flags`` on Theano <= 0.9, by profiles/theano_releases.yaml); ``option`` "" asks about
    the whole section (known when the release has any option in it)."""
    old = removed_entry(sect, option)
    if old is None:
        return None
    if option:
        known = knows_option(facts, f"{sect}.{option.lower()}")
    else:
        known = any(knows_option(facts, key) for key in kb_era.option_spans() if key.startswith(sect + "."))
    return None if known else old


def kind_of(reg: Registry, key: str | None) -> str | None:
    return reg.kinds.get(key) if key else None
