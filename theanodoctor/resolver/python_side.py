"""The Python side of a candidate: Theano flavour, Python, numpy, scipy, and the table rules
(theano_compat.yaml, scipy_numpy.yaml, the last wheels per Python) that rule it out."""

from __future__ import annotations

from typing import NamedTuple

from theanodoctor import kb_stacks, knowledge
from theanodoctor.resolver import cites
from theanodoctor.resolver.inputs import BIT, THEANO_CHOICES, Constraints
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



def _numpy_options(python: str, flavour: str, given: str | None
                   ) -> list[tuple[str | None, str | None, knowledge.Verified | None]]:
    rows = [v for v in knowledge.verified_stacks() if v.python == python]
    options: dict[tuple[str, str], knowledge.Verified | None] = {}
    for row in rows:
        pair = (row.numpy, row.scipy)
        if row.flavour == flavour or pair not in options:
            options[pair] = row if row.flavour == flavour else None
    found: list[tuple[str | None, str | None, knowledge.Verified | None]] = [
        (n, s, v) for (n, s), v in options.items()]
    if given and all(given != n for n, _, _ in found):
        found.append((given, rows[0].scipy if rows else None, None))
    return found or [(None, None, None)]


def _scipy_violations(numpy: str, scipy: str) -> list[Violation]:
    return [Violation(0, True, BIT["numpy"] | BIT["python"],
                      Reason(f"scipy {scipy} (the verified scipy for this Python) needs numpy {pair.numpy}",
                             (cites.scipy_pair(pair),)))
            for pair in kb_stacks.scipy_pairs() if matches(pair.scipy, scipy) and not matches(pair.numpy, numpy)]


def _flavoured(flavour: str, theano: str, message: str) -> str:
    """A rule's message, saying which flavour it is about unless it already does."""
    return message if message.startswith(flavour) else f"{flavour} {theano}: {message}"


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
                and matches(rule.python, python) and (rule.numpy is None or matches(rule.numpy, numpy))):
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
                  and matches(rule.python, python)]
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


def py_sides(cons: Constraints) -> list[PySide]:
    pythons = sorted({v.python for v in knowledge.verified_stacks()} | ({cons.python} if cons.python else set()),
                     key=vkey)
    return [py_side(flavour, theano, python, numpy, scipy, verified, cons)
            for flavour, theano in THEANO_CHOICES.values()
            for python in pythons
            for numpy, scipy, verified in _numpy_options(python, flavour, cons.numpy)]
