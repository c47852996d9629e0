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
                knowledge.text(TABLE, row, "source"))
        for row in knowledge.rows(TABLE, "removed")
    )


@knowledge.table
def fallback_kinds() -> dict[str, KeyKind]:
    return {
        kind.key: kind for kind in (
            KeyKind(knowledge.text(TABLE, row, "key"), knowledge.choice(TABLE, row, "kind", KINDS),
                    knowledge.strings(TABLE, row, "options"), knowledge.text(TABLE, row, "source"))
            for row in knowledge.rows(TABLE, "fallback_keys"))
    }


# -- the keys Theano knows ------------------------------------------------------------------

class Registry(NamedTuple):
    """Theano's config keys as the target reported them (``complete``) or the fallback table."""

    keys: frozenset[str]
    kinds: dict[str, str]
    options: dict[str, tuple[str, ...]]
    sep: str
    complete: bool

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
        close = difflib.get_close_matches(name, sorted(self.keys), n=1, cutoff=0.8)
        return close[0] if close else None


def _dunder(facts: Facts) -> bool:
    naming = stage(facts, "theano_config").get("flag_naming")
    if naming in ("dotted", "dunder"):
        return naming == "dunder"
    if flavour(facts) != PYMC:
        return False
    version = dist_version(facts, PYMC) or ""
    try:  # Theano-PyMC renamed its keys in 1.0.12 (FACTS.md s1)
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
