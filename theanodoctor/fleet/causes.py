"""Failures grouped by root cause across checks, one count per machine and cause.

Two checks often see one cause: numpy 1.24 removed `np.bool`, so `theano-import` fails and
`python-stack` knows the combination is broken. When the cause catalogue (profiles/causes.yaml,
the one `explain` uses) recognises what a result says, with high confidence, the result joins
that cause's group, whatever check said it. Otherwise results group by check, status and cause
text, with patch versions read as ``1.24.x``; the versions the machines really have are listed
inside the group.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from theanodoctor.engine import Result

PROBLEM_STATUSES = ("error", "crash", "timeout", "warn")
ORDER = {s: i for i, s in enumerate(("error", "crash", "timeout", "failed", "warn"))}
# Facts whose values are listed inside a group when one machine's message names them (by this word).
VERSION_FACTS = {"Python": "python", "Theano": "theano", "numpy": "numpy", "scipy": "scipy", "pygpu": "pygpu",
                 "NVIDIA driver": "driver", "CUDA toolkit": "cuda", "cuDNN": "cudnn", "C++ compiler": "g\\+\\+"}
_PATCH = re.compile(r"\b(\d+\.\d+)\.\d+\b")


class FailureGroup(NamedTuple):
    cause_id: str | None  # the catalogue's id, None when no known cause was recognised
    checks: tuple[str, ...]  # the checks (and "smoke-test") that reported it
    status: str  # the worst status among them
    cause: str
    remedy: str
    machines: tuple[str, ...]
    example: str  # one machine's message
    versions: dict[str, dict[str, int]]  # fact -> value -> machines, for the facts the cause names


class _Group:
    __slots__ = ("cause_id", "checks", "statuses", "cause", "remedy", "example", "members", "versions")

    def __init__(self, cause_id: str | None, cause: str, remedy: str, example: str) -> None:
        self.cause_id, self.cause, self.remedy, self.example = cause_id, cause, remedy, example
        self.checks: dict[str, None] = {}
        self.statuses: set[str] = set()
        self.members: list[int] = []
        self.versions: dict[str, Counter[str]] = {}


@lru_cache(maxsize=4096)
def _known_cause(text: str) -> tuple[str, str, str] | None:
    """(id, cause, remedy) of the catalogue's cause for a check's words, when stated with high
    confidence and specific (a generic symptom groups nothing)."""
    from theanodoctor import kb_causes

    found = kb_causes.diagnose(text)
    if found is None or found.confidence != "high" or kb_causes.causes()[found.id].generic:
        return None
    return found.id, found.cause, found.remedy


class Grouper:
    """Fed one machine at a time; keeps only the groups and the machines' row numbers."""

    def __init__(self) -> None:
        self._groups: dict[tuple[str, ...], _Group] = {}

    def _add(self, key: tuple[str, ...], row: int, check: str, status: str, values: dict[str, str],
             make: Any) -> None:
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = make()
        group.checks[check] = None
        group.statuses.add(status)
        if group.members and group.members[-1] == row:
            return  # this machine is already counted for this cause
        group.members.append(row)
        for fact in VERSION_FACTS:
            group.versions.setdefault(fact, Counter())[values.get(fact, "?")] += 1

    def add(self, row: int, results: Sequence[Result], smoke: dict[str, Any] | None, values: dict[str, str]) -> None:
        for result in results:
            if result.status not in PROBLEM_STATUSES:
                continue
            out = result.outcome
            known = _known_cause(f"{out.message}\n{out.cause}")
            if known is not None:
                key: tuple[str, ...] = ("cause", known[0])
                self._add(key, row, result.id, result.status, values,
                          lambda k=known, o=out: _Group(k[0], k[1], k[2], o.message))
            else:
                text = out.cause or out.message
                key = ("check", result.id, result.status, _PATCH.sub(r"\1.x", text))
                self._add(key, row, result.id, result.status, values,
                          lambda t=text, o=out: _Group(None, t, o.remedy, o.message))
        if smoke and smoke.get("exit_code"):
            diagnosis = smoke.get("diagnosis") if isinstance(smoke.get("diagnosis"), dict) else {}
            verdict = str(smoke.get("verdict"))
            cause_id = diagnosis.get("id")
            key = ("cause", cause_id) if cause_id else ("check", "smoke-test", str(diagnosis.get("cause") or verdict))
            self._add(key, row, "smoke-test", "failed", values,
                      lambda: _Group(cause_id, str(diagnosis.get("cause") or verdict), diagnosis.get("remedy") or "",
                                     verdict))

    def groups(self, names: Sequence[str]) -> tuple[FailureGroup, ...]:
        found = []
        for group in self._groups.values():
            versions = {fact: dict(sorted(counts.items())) for fact, counts in group.versions.items()
                        if re.search(rf"\b{VERSION_FACTS[fact]}(?![\w+])", group.example, re.I)
                        and set(counts) != {"?"}}
            status = min(group.statuses, key=lambda s: ORDER.get(s, 9))
            found.append(FailureGroup(group.cause_id, tuple(group.checks), status, group.cause, group.remedy,
                                      tuple(names[i] for i in group.members), group.example, versions))
        return tuple(sorted(found, key=lambda g: (ORDER.get(g.status, 9), -len(g.machines), g.checks)))
