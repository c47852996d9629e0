"""The Theano releases a set of constraints leaves: the lowest and the highest known release
that every hard and stated constraint allows (hard ones win when the two disagree)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from theanodoctor.scan.model import Constraint, Evidence, Problem


class TheanoRange(NamedTuple):
    low: str | None  # None: nothing bounds this side
    high: str | None
    evidence: tuple[Evidence, ...]
    problems: tuple[Problem, ...]


def theano_range(constraints: Sequence[Constraint], releases: Sequence[Version],
                 borrowed: Sequence[Constraint] = ()) -> TheanoRange:
    """``borrowed``: what the frameworks' own files state; where their pins disagree with the
    repository's, only their hard rows stay."""
    ranged = _ranged(constraints) + _ranged(borrowed)
    problems: list[Problem] = []
    allowed = _allowed(ranged, releases)
    if not allowed:
        ranged = _ranged(constraints) + [(c, s) for c, s in _ranged(borrowed) if c.strength == "hard"]
        allowed = _allowed(ranged, releases)
    if not allowed and ranged:
        hard = [(c, s) for c, s in ranged if c.strength == "hard"]
        allowed = _allowed(hard, releases)
        problems.append(Problem(_where(ranged), "the stated Theano versions contradict what the code needs: "
                                "the code's markers (hard) decide" if allowed else
                                "no Theano release satisfies every hard constraint together"))
        ranged = hard
    if not allowed:
        return TheanoRange(None, None, (), tuple(problems))
    lower = [(c, s) for c, s in ranged if _cuts(s, releases, allowed, low=True)]
    upper = [(c, s) for c, s in ranged if _cuts(s, releases, allowed, low=False)]
    where = tuple(e for c, _ in lower + upper for e in c.evidence)
    return TheanoRange(str(allowed[0]) if lower else None, str(allowed[-1]) if upper else None,
                       tuple(dict.fromkeys(where))[:10], tuple(problems))


def _ranged(constraints: Sequence[Constraint]) -> list[tuple[Constraint, SpecifierSet]]:
    return [(c, s) for c in constraints if c.subject == "theano" and c.strength != "soft"
            for s in [_spec(c.spec)] if s is not None]


def _allowed(ranged: Sequence[tuple[Constraint, SpecifierSet]], releases: Sequence[Version]) -> list[Version]:
    return [v for v in releases if all(s.contains(v, prereleases=True) for _, s in ranged)]


def _cuts(spec: SpecifierSet, releases: Sequence[Version], allowed: Sequence[Version], low: bool) -> bool:
    """Whether this constraint excludes a release below (low) or above the allowed ones."""
    side = [v for v in releases if (v < allowed[0] if low else v > allowed[-1])]
    return any(not spec.contains(v, prereleases=True) for v in side)


def _spec(text: str) -> SpecifierSet | None:
    if "://" in text or text.startswith("git+"):
        return None
    try:
        return SpecifierSet(text)
    except InvalidSpecifier:
        return None


def _where(ranged: Sequence[tuple[Constraint, SpecifierSet]]) -> str:
    return ranged[0][0].evidence[0].file if ranged and ranged[0][0].evidence else "."
