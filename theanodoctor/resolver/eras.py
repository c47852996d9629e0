"""The Theano release a repository gets: the newest the code's markers allow on the Python it
needs, with the numpy/scipy ceilings of that release (the era tables) as resolver caps."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from theanodoctor.resolver.model import Cite, Conflict, Reason


class Release(NamedTuple):
    flavour: str
    version: str
    released: str                  # "2016-03-21"
    pythons: tuple[str, ...]       # minors it runs on, best first
    requires: tuple[str, ...]      # its setup.py install_requires
    caps: tuple[str, ...]          # "numpy<1.16": what breaks it beyond
    cites: tuple[Cite, ...]


class Choice(NamedTuple):
    flavour: str
    version: str
    python: str
    python_reason: str
    reason: str
    requires: tuple[str, ...]
    caps: tuple[str, ...]
    cites: tuple[Cite, ...]


def releases() -> tuple[Release, ...]:
    from theanodoctor import kb_eras

    return kb_eras.releases()


def _in(version: str, low: str | None, high: str | None) -> bool:
    v = Version(version)
    return (low is None or v >= Version(low)) and (high is None or v <= Version(high))


def choose(low: str | None, high: str | None, major: int | None, day: dt.date) -> Choice | Conflict:
    """The newest release in [low, high] for the Python major the code needs; without markers, the
    newest released by the repository's date (what its authors had)."""
    allowed = [r for r in releases() if r.flavour == "Theano" and _in(r.version, low, high)]
    fits = [r for r in allowed if major is None or any(p.startswith(f"{major}.") for p in r.pythons)]
    if not fits:
        span = f"{low or 'any'} - {high or 'any'}"
        return Conflict((f"Theano {span}", f"Python {major}"), (Reason(
            f"no Theano release in the tables lies in {span}" + (f" and runs on Python {major}" if major else "")),),
            ("check the markers `theanodoctor scan` lists; code using APIs of different eras needs porting",))
    dated = [r for r in fits if r.released <= day.isoformat()]
    if low is None and high is None and dated:
        fits, why = dated, f"the newest Theano released by {day.isoformat()} (no API marker limits it)"
    else:
        why = f"the newest Theano the code's markers allow ({low or 'any'} - {high or 'any'})"
    best = max(fits, key=lambda r: Version(r.version))
    python = next(p for p in best.pythons if major is None or p.startswith(f"{major}."))
    python_reason = (f"the code parses only as Python 2; Theano {best.version} runs on {', '.join(best.pythons)}"
                     if major == 2 else f"the Python Theano {best.version} runs best on "
                     f"(it runs on {', '.join(best.pythons)})")
    return Choice(best.flavour, best.version, python, python_reason, why, best.requires, best.caps, best.cites)


def cap_clash(req: Requirement, choice: Choice) -> Conflict | None:
    """A repository pin outside what the chosen Theano tolerates (e.g. numpy==1.16.1 with Theano 0.9)."""
    pinned = [s.version for s in req.specifier if s.operator == "=="]
    for cap in choice.caps:
        capped = Requirement(cap)
        if canonicalize_name(capped.name) == canonicalize_name(req.name) and pinned and \
                not SpecifierSet(str(capped.specifier)).contains(pinned[0], prereleases=True):
            return Conflict((f"{req} (the repository's pin)", f"Theano {choice.version}"), (Reason(
                f"Theano {choice.version} needs {cap}", choice.cites),),
                (f"drop the pin and let the doctor pick {capped.name} ({cap})",
                 "keep the pin with a newer Theano, if the code's markers allow one"))
    return None


def cap_note(key: str, choice: Choice) -> str:
    caps = [c for c in choice.caps if canonicalize_name(Requirement(c).name) == key]
    return f"; capped at {', '.join(caps)} for Theano {choice.version}" if caps else ""
