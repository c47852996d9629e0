"""Each machine judged once per configuration: the checks are pure functions of the facts, so
machines whose facts are the same are judged once and share the result.

"The same" leaves out what differs between identical machines and what no judgment in the
fleet view reads: the host name (a check never reads it; where it shows inside a path, such as
a compiledir name, that path still differs) and the probes' timings (``elapsed_s``: the only
check that reads one puts it in the message of a passing check, which a fleet view never shows).
"""

from __future__ import annotations

import json
import sys
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, NamedTuple

from theanodoctor.engine import Check, Options, Result
from theanodoctor.facts import SECTIONS, Facts
from theanodoctor.fleet.config_sources import theano_settings
from theanodoctor.fleet.keyfacts import key_facts
from theanodoctor.report import judge

CACHED = 64  # configurations kept; a fleet has few, and memory stays bounded if it has many
UNCOMPARED = ("elapsed_s",)


class Judged(NamedTuple):
    values: tuple[str, ...]  # the compared facts, in columns order
    columns: tuple[str, ...]
    verdict: str
    checks_exit: int
    strict_exit: int
    statuses: tuple[str, ...]
    results: tuple[Result, ...]


def _without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if k not in UNCOMPARED}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def configuration(facts: Facts) -> str:
    """What identical machines share: the facts without host name and timings, as one string."""
    data = {name: getattr(facts, name) for name in SECTIONS}
    system = dict(data.get("system") or {})
    system.pop("hostname", None)
    data["system"] = system
    return json.dumps(_without_timings(data), sort_keys=True, default=str)


def fleet_facts(facts: Facts) -> list[tuple[str, str]]:
    """The key facts and the effective Theano settings, as compared between machines."""
    return [(k.label, k.value) for k in key_facts(facts)] + theano_settings(facts)


class Judge:
    def __init__(self, checks: Sequence[Check], options: Options) -> None:
        self._checks, self._options = checks, options
        self._cache: OrderedDict[str, Judged] = OrderedDict()
        self._strings: dict[Any, Any] = {}  # one object for equal values across configurations

    def _shared(self, value: Any) -> Any:
        return self._strings.setdefault(value, value)

    def __call__(self, facts: Facts) -> Judged:
        key = configuration(facts)
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            return found
        report = judge(facts, self._checks, self._options)
        pairs = fleet_facts(facts)
        found = Judged(self._shared(tuple(sys.intern(v) for _, v in pairs)),
                       self._shared(tuple(label for label, _ in pairs)), sys.intern(report.verdict),
                       report.exit_code(), report.exit_code(strict=True),
                       self._shared(tuple(sys.intern(r.status) for r in report.results)), report.results)
        self._cache[key] = found
        if len(self._cache) > CACHED:
            self._cache.popitem(last=False)
        return found
