"""Conditions of a cause on the facts a log shows (`explain/context.py` reads them): the
`needs`, `excludes`, `confirmed_by` and `informational_if` fields of ``causes.yaml``.

A condition is ``FACT OP VALUE`` (``theano >= 1.0``, ``platform = windows``, ``backend != old``)
or a bare ``FACT`` (the log shows it at all: ``cudnn``). It holds, fails, or is unknown (None)
when the log does not show the fact, or shows it less precisely than the condition asks
(``python >= 3.7`` against a log that only shows "python3")."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from packaging.version import InvalidVersion, Version

VERSIONS = ("python", "theano", "theano-pymc", "numpy", "keras", "lasagne", "pymc3", "cudnn")
CHOICES = {"platform": ("windows", "macos", "linux"), "backend": ("old", "new"), "device": ("cpu",),
           "keras_backend": ("theano", "tensorflow", "cntk"),
           # floatX as the log sets it; "unset": flags that set device=gpu and no floatX (context.py)
           "floatx": ("float16", "float32", "float64", "unset"),
           # "theano": the code the log shows calls Theano (T.flatten(...), theano.function, import theano)
           "code": ("theano",)}
FACTS = VERSIONS + tuple(CHOICES)
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_FORM = re.compile(r"^\s*(?P<fact>[a-z_-]+)\s*(?:(?P<op>!=|<=|>=|=|<|>)\s*(?P<value>\S+))?\s*$")


class Condition(NamedTuple):
    fact: str
    op: str  # "" for a bare fact: the log shows it
    value: str

    def __str__(self) -> str:
        return f"{self.fact} {self.op} {self.value}" if self.op else self.fact


def parse(text: str) -> Condition:
    """Raises ValueError with the reason when ``text`` is no condition."""
    found = _FORM.match(text)
    if not found or found["fact"] not in FACTS:
        raise ValueError(f"{text!r} is not `FACT OP VALUE` with FACT one of {', '.join(FACTS)}")
    fact, op, value = found["fact"], found["op"] or "", found["value"] or ""
    if op and fact in CHOICES and (value not in CHOICES[fact] or op not in ("=", "!=")):
        raise ValueError(f"{text!r}: {fact} is compared with = or != to one of {', '.join(CHOICES[fact])}")
    if op and fact in VERSIONS:
        try:
            Version(value)
        except InvalidVersion as exc:
            raise ValueError(f"{text!r}: {value!r} is not a version") from exc
    return Condition(fact, op, value)


def holds(condition: Condition, facts: Mapping[str, str]) -> bool | None:
    """True, False, or None when the facts do not decide."""
    seen = facts.get(condition.fact)
    if seen is None:
        return None
    if not condition.op:
        return True
    if condition.fact not in VERSIONS:
        return _OPS[condition.op](seen, condition.value)
    try:
        have, want = Version(seen), Version(condition.value)
    except InvalidVersion:
        return None
    if len(have.release) < len(want.release):  # "3" against "3.7": only the major decides, and only sometimes
        shown = Version(".".join(map(str, want.release[:len(have.release)])))
        if have != shown:
            return _OPS[condition.op](have, shown)
        return None
    return _OPS[condition.op](have, want)
