"""Each machine judged once per configuration: the checks are pure functions of the facts, so
machines whose documents are the same but for host name, date and timings (``load.configuration``)
are judged once and share the result."""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, NamedTuple

from theanodoctor.engine import Check, Options
from theanodoctor.facts import Facts
from theanodoctor.fleet.causes import Contribution, contributions
from theanodoctor.fleet.config_sources import theano_settings
from theanodoctor.fleet.keyfacts import key_facts
from theanodoctor.report import judge

CACHED = 64  # configurations kept; a fleet has few, and memory stays bounded if it has many


class Judged(NamedTuple):
    values: tuple[str, ...]  # the compared facts, in columns order
    columns: tuple[str, ...]
    verdict: str
    checks_exit: int
    strict_exit: int
    statuses: tuple[str, ...]
    causes: tuple[Contribution, ...]  # what its problems add to the failure groups


def fleet_facts(facts: Facts) -> list[tuple[str, str]]:
    """The key facts and the effective Theano settings, as compared between machines."""
    return [(k.label, k.value) for k in key_facts(facts)] + theano_settings(facts)


class Judge:
    def __init__(self, checks: Sequence[Check], options: Options) -> None:
        self._checks, self._options = checks, options
        self._cache: OrderedDict[bytes, Judged] = OrderedDict()
        self._strings: dict[Any, Any] = {}  # one object for equal values across configurations

    def _shared(self, value: Any) -> Any:
        return self._strings.setdefault(value, value)

    def __call__(self, facts: Facts, key: bytes) -> Judged:
        found = self._cache.get(key) if key else None
        if found is not None:
            self._cache.move_to_end(key)
            return found
        report = judge(facts, self._checks, self._options)
        pairs = fleet_facts(facts)
        found = Judged(self._shared(tuple(sys.intern(v) for _, v in pairs)),
                       self._shared(tuple(label for label, _ in pairs)), sys.intern(report.verdict),
                       report.exit_code(), report.exit_code(strict=True),
                       self._shared(tuple(sys.intern(r.status) for r in report.results)),
                       contributions(report.results))
        if key:
            self._cache[key] = found
        if len(self._cache) > CACHED:
            self._cache.popitem(last=False)
        return found
