"""The Theano release a repository gets (the era tables, profiles/theano_releases.yaml): the newest
the code's markers allow on the Python it needs, its declared floors as resolver inputs, and the
numpy ceiling the compat rules (profiles/theano_compat.yaml) put on that release as a cap."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from packaging.requirements import Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from theanodoctor import kb_era, knowledge
from theanodoctor.resolver import cites
from theanodoctor.resolver.model import Cite, Conflict, Reason

ERA = "profiles/theano_releases.yaml"


class Choice(NamedTuple):
    flavour: str
    version: str
    python: str
    python_reason: str
    reason: str
    requires: tuple[str, ...]   # its install_requires (floors), as resolver lines
    caps: tuple[str, ...]       # "numpy<1.16.0": what the compat rules say breaks it
    cites: tuple[Cite, ...]
    release: kb_era.Release


def _closeness(python: str) -> tuple[bool, int]:
    """Python 3 before 2, then nearest 3.7 (the best-trodden Theano Python, as the stack resolver ranks)."""
    major, minor = (int(p) for p in python.split(".")[:2])
    return major != 3, abs(major * 100 + minor - 307)


@knowledge.table
def python_dates() -> dict[str, tuple[str, str]]:
    """"3.7" -> (its x.y.0 date, source), from profiles/python_releases.yaml."""
    name = "python_releases.yaml"
    return {knowledge.text(name, row, "python"): (knowledge.text(name, row, "date"),
                                                  knowledge.source(name, row, "source"))
            for row in knowledge.rows(name, "releases")}


def _python(release: kb_era.Release, major: int | None, day: dt.date) -> tuple[str, str] | None:
    """The Python to pin: one that existed at ``day`` when there is one (the packages resolved as of
    then have wheels for it), then a combination reproduced with this release, else the era row's pin
    for that major, else the declared minor of that major nearest 3.7."""
    dates = python_dates()
    existed = {p for p, (date, _) in dates.items() if date <= day.isoformat()}
    for then in (True, False):
        found = _python_among(release, major, existed if then else None)
        if found:
            python, why = found
            if then and python in dates:
                why += f"; Python {python} existed by {day.isoformat()} ({python}.0: {dates[python][0]}, " \
                       f"{dates[python][1]})"
            return python, why
    return None


def _python_among(release: kb_era.Release, major: int | None, existed: set[str] | None) -> tuple[str, str] | None:
    def fits(python: str) -> bool:
        return (major is None or python.startswith(f"{major}.")) and (existed is None or python in existed)

    verified = sorted((v for v in knowledge.verified_stacks() if (v.flavour, v.theano) ==
                       (release.flavour, release.version) and fits(v.python)), key=lambda v: _closeness(v.python))
    if verified:
        v = verified[0]
        return v.python, f"{release.label} on Python {v.python} with numpy {v.numpy} was reproduced ({v.source})"
    for pin in sorted((p for p in release.pins if fits(p.python)), key=lambda p: _closeness(p.python)):
        return pin.python, f"{release.label} on Python {pin.python}: the era row's pin ({pin.source})"
    declared = sorted((p for p in release.python if fits(p)), key=_closeness)
    if not declared:
        return None
    return declared[0], f"{release.label} declares Python {', '.join(release.python)} ({release.python_source})"


def caps(release: kb_era.Release, python: str) -> tuple[tuple[str, ...], tuple[Cite, ...]]:
    """One numpy ceiling: below the lowest numpy a compat rule says breaks this release."""
    lows: list[tuple[Version, knowledge.CompatRule]] = []
    for rule in knowledge.compat_rules():
        if rule.flavour != release.flavour or rule.numpy is None or rule.result != "broken":
            continue
        if rule.theano is not None and not rule.theano.contains(release.version, prereleases=True):
            continue
        if rule.python is not None and not rule.python.contains(python):
            continue
        floors = [Version(s.version) for s in rule.numpy if s.operator in (">=", ">")]
        if floors:
            lows.append((min(floors), rule))
    if not lows:
        return (), ()
    low, rule = min(lows, key=lambda item: item[0])
    return (f"numpy<{low}",), (cites.rule(rule),)


def _requires(release: kb_era.Release) -> tuple[str, ...]:
    found = [f"numpy{release.numpy}", f"scipy{release.scipy}"]
    six = re.search(r"six>=([\d.]+)", release.requires_source)
    return tuple(found + ([f"six>={six.group(1)}"] if six else []))


class Line(NamedTuple):
    """What the scan says about Theano: the hard markers' range, the pins of its dependency files
    (both as specifiers, None: nothing), and the sentences that name a version (reported only)."""
    hard: SpecifierSet | None
    pinned: SpecifierSet | None
    said: tuple[str, ...]

    def label(self) -> str:
        return str(self.hard) if self.hard else "any"


_PROSE = re.compile(r"(^|/)(readme|install|docs?/)|\.(md|rst)$", re.I)


def theano_line(constraints: Sequence[dict[str, Any]]) -> Line:
    hard: SpecifierSet | None = None
    pinned: SpecifierSet | None = None
    said: list[str] = []
    for c in constraints:
        spec = str(c.get("spec") or "")
        if str(c.get("subject")).lower() != "theano" or "://" in spec or "git" in spec:
            continue
        try:
            found = SpecifierSet(spec)
        except InvalidSpecifier:
            continue
        files = [str(e.get("file")) for e in c.get("evidence") or [] if isinstance(e, dict)]
        if c.get("strength") == "hard":
            hard = found if hard is None else hard & found
        elif c.get("strength") == "stated" and files and all(_PROSE.search(f) for f in files):
            said.append(f"{', '.join(files[:2])} says Theano {spec}")
        elif c.get("strength") == "stated":
            pinned = found if pinned is None else pinned & found
    return Line(hard, pinned, tuple(said))


def _within(spec: SpecifierSet | None, version: str) -> bool:
    return spec is None or spec.contains(version, prereleases=True)


def choose(line: Line, major: int | None, day: dt.date) -> Choice | Conflict:
    """The newest final release the hard markers allow for the Python major the code needs (among
    them the ones its dependency files pin, when any is); without any, the newest released by the
    repository's date (what its authors had)."""
    allowed = [r for r in kb_era.releases() if r.flavour == "Theano" and not r.pre and _within(line.hard, r.version)]
    usable = [(r, p) for r, p in ((r, _python(r, major, day)) for r in allowed) if p is not None]
    if not usable:
        return Conflict((f"Theano {line.label()}",) + ((f"Python {major}",) if major else ()), (Reason(
            f"no Theano release in {ERA} lies in {line.label()}" + (f" and declares Python {major}" if major
                                                                   else "")),),
            ("check the markers `theanodoctor scan` lists: code using APIs of different eras needs porting",))
    pinned = [(r, p) for r, p in usable if _within(line.pinned, r.version)]
    if line.pinned is not None and pinned:
        usable, why = pinned, f"the Theano the repository pins ({line.pinned}) within what its code allows"
    else:  # the newest runs best on today's compilers and numpy wheels
        why = f"the newest Theano the code's markers allow ({line.label()})"
    best, picked = max(usable, key=lambda item: Version(item[0].version))
    assert picked is not None
    python, python_reason = picked
    if major == 2:
        python_reason = f"the code parses only as Python 2; {python_reason}"
    found_caps, cap_cites = caps(best, python)
    row = Cite(ERA, best.label, f"{best.date_source}; {best.requires_source}")
    return Choice(best.flavour, best.version, python, python_reason, f"{why}; released {best.date}; source only "
                  "on PyPI (pip builds it)", _requires(best), found_caps, (row, *cap_cites), best)


def cap_clash(req: Requirement, choice: Choice) -> Conflict | None:
    """A repository pin beyond what the chosen Theano tolerates (numpy==1.16.1 with Theano 0.9)."""
    pinned = [s.version for s in req.specifier if s.operator == "=="]
    for cap in choice.caps:
        capped = Requirement(cap)
        if pinned and canonicalize_name(capped.name) == canonicalize_name(req.name) \
                and not capped.specifier.contains(pinned[0], prereleases=True):
            return Conflict((f"{req} (the repository's pin)", f"Theano {choice.version}"), (Reason(
                f"Theano {choice.version} needs {cap}", choice.cites[1:]),),
                (f"drop the pin and let the doctor pick {capped.name} ({cap})",
                 "keep the pin with a newer Theano, if the code's markers allow one"))
    return None


def cap_note(key: str, choice: Choice) -> str:
    found = [c for c in choice.caps if canonicalize_name(Requirement(c).name) == key]
    return f"; capped at {', '.join(found)} for Theano {choice.version}" if found else ""
