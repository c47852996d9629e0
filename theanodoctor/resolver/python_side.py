"""The Python side of a candidate: Theano flavour, Python, numpy, scipy, and the table rules
(theano_compat.yaml, scipy_numpy.yaml, the last wheels per Python) that rule it out."""

from __future__ import annotations

from typing import NamedTuple

from theanodoctor import kb_era, kb_stacks, knowledge
from theanodoctor.resolver import cites
from theanodoctor.resolver.inputs import BIT, Constraints
from theanodoctor.resolver.model import Reason
from theanodoctor.resolver.violation import Violation, asked, matches, vkey


class PySide(NamedTuple):
    flavour: str
    theano: str
    python: str
    numpy: str | None
    scipy: str | None
    verified: knowledge.Verified | None
    violations: tuple[Violation, ...]



Option = tuple[str | None, str | None, knowledge.Verified | None]


def _rows_at(release: kb_era.Release, python: str) -> list[Option]:
    """The numpy/scipy pairs known at this Python: the release's own verified rows and era pins
    first, then any other release's (rules and the release's ranges judge those)."""
    own: list[Option] = []
    other: list[Option] = []
    for row in knowledge.verified_stacks():
        if row.python == python:
            mine = (row.flavour, row.theano) == (release.flavour, release.version)
            (own if mine else other).append((row.numpy, row.scipy, row if mine else None))
    for era in kb_era.releases():
        for pin in era.pins:
            if pin.python == python:
                (own if era is release else other).append((pin.numpy, pin.scipy, None))
    found: dict[tuple[str | None, str | None], knowledge.Verified | None] = {}
    for numpy, scipy, verified in own + other:
        found.setdefault((numpy, scipy), verified)
    return [(n, s, v) for (n, s), v in found.items()]


def scipy_for(numpy: str, python: str) -> str | None:
    """The newest scipy with wheels for this Python whose numpy range holds ``numpy``."""
    last = kb_stacks.last_wheels().get(python)
    fits = [p.pin for p in kb_stacks.scipy_pairs() if p.pin and matches(p.numpy, numpy)
            and (p.python is None or matches(p.python, python + ".0"))
            and (last is None or vkey(p.pin) <= vkey(last.scipy))]
    return max(fits, key=vkey) if fits else None


def _numpy_options(release: kb_era.Release, python: str, given: str | None) -> list[Option]:
    found = _rows_at(release, python)
    last = kb_stacks.last_wheels().get(python)
    if not found and last is not None:  # no row here: the last numpy/scipy wheels this Python has
        found.append((last.numpy, last.scipy, None))
    if given and all(given != n for n, _, _ in found):
        found.append((given, scipy_for(given, python) or (found[0][1] if found else None), None))
    return found or [(None, None, None)]


def _scipy_violations(numpy: str, scipy: str) -> list[Violation]:
    return [Violation(0, True, BIT["numpy"] | BIT["python"],
                      Reason(f"scipy {scipy} (the verified scipy for this Python) needs numpy {pair.numpy}",
                             (cites.scipy_pair(pair),)))
            for pair in kb_stacks.scipy_pairs() if matches(pair.scipy, scipy) and not matches(pair.numpy, numpy)]


def _flavoured(flavour: str, theano: str, message: str) -> str:
    """A rule's message, saying which flavour it is about unless it already does."""
    return message if message.startswith(flavour) else f"{flavour} {theano}: {message}"


def _release_rules(release: kb_era.Release, python: str, numpy: str, scipy: str, verified: bool) -> list[Violation]:
    """What the release's own row rules out: its numpy/scipy floors and, for a release whose rules
    were not reproduced across versions, a numpy newer than any known to work and an undeclared Python."""
    about = BIT["python"] | BIT["numpy"]  # what a conflict over these rules is about (not the release itself)
    cite = (cites.release(release),)
    found = [Violation(0, True, about, Reason(f"{release.label} requires {name} {allowed} ({release.requires_source})",
                                              cite))
             for name, allowed, version in (("numpy", release.numpy, numpy), ("scipy", release.scipy, scipy))
             if not matches(allowed, version)]
    if release.reproduced or verified:
        return found
    if release.numpy_known and vkey(numpy) > vkey(release.numpy_known):
        found.append(Violation(0, True, about, Reason(
            f"numpy {numpy} is newer than any numpy known to work with {release.label} (the newest known: "
            f"{release.numpy_known}; {release.numpy_known_source})", cite)))
    tried = sorted({p.python for p in release.pins}, key=vkey)
    if python not in release.python and python not in tried:
        found.append(Violation(0, True, about, Reason(
            f"{release.label} declares Python {', '.join(release.python)} ({release.python_source})"
            + (f" and is pinned here on Python {', '.join(tried)}" if tried else "")
            + "; on any other Python it is not known to work", cite)))
    return found


def py_side(flavour: str, theano: str, python: str, numpy: str | None, scipy: str | None,
            verified: knowledge.Verified | None, cons: Constraints) -> PySide:
    found: list[Violation] = []
    if cons.theano and (flavour, theano) != cons.flavour():
        found.append(asked("theano", f"{flavour} {theano}"))
    if cons.python and python != cons.python:
        found.append(asked("python", f"Python {python}"))
    if cons.numpy and numpy != cons.numpy:
        found.append(asked("numpy", f"numpy {numpy}"))
    about = BIT["python"] | BIT["numpy"] | BIT["theano"]
    for rule in knowledge.compat_rules():
        if (rule.flavour == flavour and rule.result == "broken" and not rule.unless_flag
                and knowledge.applies(rule, theano) and matches(rule.python, python)
                and (rule.numpy is None or matches(rule.numpy, numpy))):
            text = _flavoured(flavour, theano, rule.message.format(python=python, numpy=numpy))
            found.append(Violation(0, True, about, Reason(text, (cites.rule(rule),)), rule.remedy))
    if (numpy is None or scipy is None) and not any(v.mask == 0 for v in found):
        found.append(Violation(0, True, BIT["python"] | BIT["numpy"], Reason(
            f"profiles/theano_compat.yaml has no verified numpy/scipy for Python {python} (the verified "
            f"ones: Python {', '.join(sorted({v.python for v in knowledge.verified_stacks()}, key=vkey))})")))
        found += [Violation(0, True, about, Reason(_flavoured(flavour, theano, rule.message.format(python=python)),
                                                   (cites.rule(rule),)), rule.remedy)
                  for rule in knowledge.compat_rules()
                  if rule.flavour == flavour and rule.result == "degraded" and rule.numpy is None
                  and knowledge.applies(rule, theano) and matches(rule.python, python)]
    release = kb_era.release(flavour, theano)
    if release is not None and numpy and scipy:
        found += _release_rules(release, python, numpy, scipy, verified is not None)
    if cons.numpy and numpy == cons.numpy and scipy:
        found += _scipy_violations(numpy, scipy)
    last = kb_stacks.last_wheels().get(python)
    if last and numpy and vkey(numpy) > vkey(last.numpy):
        found.append(Violation(0, True, BIT["numpy"] | BIT["python"], Reason(
            f"Python {python} has numpy wheels up to numpy {last.numpy} (scipy {last.scipy})", (cites.wheels(last),))))
    if last and numpy and last.first_numpy and vkey(numpy) < vkey(last.first_numpy):
        found.append(Violation(0, True, BIT["numpy"] | BIT["python"], Reason(
            f"Python {python} has numpy wheels from numpy {last.first_numpy} on (an older one would have to build "
            "from source)", (cites.wheels(last),))))
    return PySide(flavour, theano, python, numpy, scipy, verified, tuple(found))


def releases_in_play(cons: Constraints) -> list[kb_era.Release]:
    """The releases the resolver weighs: the newest of each flavour (auto); with --theano the one
    asked for first and the newest of each older line too, so a conflict can name another release as
    a way out."""
    lines: dict[tuple[str, tuple[int, ...]], kb_era.Release] = {}
    for row in kb_era.releases():
        if not row.pre:
            line = (row.flavour, kb_era.vkey(row.version).release[:1 if row.flavour == "Theano-PyMC" else 2])
            if line not in lines or kb_era.vkey(row.version) > kb_era.vkey(lines[line].version):
                lines[line] = row
    asked_for = kb_era.by_key(cons.theano or "")
    newest = {r.flavour: r for r in sorted(lines.values(), key=lambda r: kb_era.vkey(r.version))}
    # the one asked for first, then the newest of each flavour, then the older lines, newest first:
    # conflicts name the reasons of the first candidates
    found = [asked_for] if asked_for else []
    found += [r for r in (newest.get("Theano"), newest.get("Theano-PyMC")) if r and r not in found]
    if asked_for is None:  # auto never picks an older release over the newest one that holds
        return found
    found += [r for r in sorted(lines.values(), key=lambda r: kb_era.vkey(r.version), reverse=True) if r not in found]
    return found


def py_sides(cons: Constraints) -> list[PySide]:
    found = []
    for release in releases_in_play(cons):
        pythons = {v.python for v in knowledge.verified_stacks()} | {p.python for p in release.pins}
        pythons |= {cons.python} if cons.python else set()
        for python in sorted(pythons, key=vkey):
            for numpy, scipy, verified in _numpy_options(release, python, cons.numpy):
                found.append(py_side(release.flavour, release.version, python, numpy, scipy, verified, cons))
    return found
