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


class Contribution(NamedTuple):
    """What one check result adds to the groups (worked out once per configuration)."""

    key: tuple[str, ...]
    check: str
    status: str
    cause_id: str | None
    cause: str
    remedy: str
    example: str


class _Group:
    __slots__ = ("first", "checks", "statuses", "members", "values")

    def __init__(self, first: Contribution) -> None:
        self.first = first
        self.checks: dict[str, None] = {}
        self.statuses: set[str] = set()
        self.members: list[int] = []
        self.values: Counter[tuple[str, ...]] = Counter()  # the machines' compared facts


@lru_cache(maxsize=4096)
def _known_cause(text: str) -> tuple[str, str, str] | None:
    """(id, cause, remedy) of the catalogue's cause for a check's words, when stated with high
    confidence and specific (a generic symptom groups nothing)."""
    from theanodoctor import kb_causes
    from theanodoctor.diagnose import diagnose

    found = diagnose(text)
    if found is None or found.confidence != "high" or kb_causes.causes()[found.id].generic:
        return None
    return found.id, found.cause, found.remedy


def contributions(results: Sequence[Result]) -> tuple[Contribution, ...]:
    found = []
    for result in results:
        if result.status not in PROBLEM_STATUSES:
            continue
        out = result.outcome
        known = _known_cause(f"{out.message}\n{out.cause}")
        if known is not None:
            found.append(Contribution(("cause", known[0]), result.id, result.status, *known, out.message))
        else:
            text = out.cause or out.message
            key = ("check", result.id, result.status, _PATCH.sub(r"\1.x", text))
            found.append(Contribution(key, result.id, result.status, None, text, out.remedy, out.message))
    return tuple(found)


def _smoke(smoke: dict[str, Any]) -> Contribution:
    found = smoke.get("diagnosis")
    diagnosis: dict[str, Any] = found if isinstance(found, dict) else {}
    verdict = str(smoke.get("verdict"))
    cause_id = diagnosis.get("id")
    cause = str(diagnosis.get("cause") or verdict)
    key = ("cause", cause_id) if cause_id else ("check", "smoke-test", cause)
    return Contribution(key, "smoke-test", "failed", cause_id, cause, diagnosis.get("remedy") or "", verdict)


class Grouper:
    """Fed one machine at a time; keeps only the groups and the machines' row numbers."""

    def __init__(self, columns: Sequence[str] = ()) -> None:
        self._groups: dict[tuple[str, ...], _Group] = {}
        self.columns = tuple(columns)

    def add(self, row: int, found: Sequence[Contribution], smoke: dict[str, Any] | None,
            values: tuple[str, ...]) -> None:
        if smoke and smoke.get("exit_code"):
            found = (*found, _smoke(smoke))
        for item in found:
            group = self._groups.get(item.key)
            if group is None:
                group = self._groups[item.key] = _Group(item)
            group.checks[item.check] = None
            group.statuses.add(item.status)
            if group.members and group.members[-1] == row:
                continue  # this machine is already counted for this cause
            group.members.append(row)
            group.values[values] += 1

    def _versions(self, group: _Group) -> dict[str, dict[str, int]]:
        versions: dict[str, dict[str, int]] = {}
        for fact, word in VERSION_FACTS.items():
            if fact not in self.columns or not re.search(rf"\b{word}(?![\w+])", group.first.example, re.I):
                continue
            counts: Counter[str] = Counter()
            index = self.columns.index(fact)
            for values, n in group.values.items():
                counts[values[index]] += n
            if set(counts) != {"?"}:
                versions[fact] = dict(sorted(counts.items()))
        return versions

    def groups(self, names: Sequence[str]) -> tuple[FailureGroup, ...]:
        found = []
        for group in self._groups.values():
            first = group.first
            status = min(group.statuses, key=lambda s: ORDER.get(s, 9))
            found.append(FailureGroup(first.cause_id, tuple(group.checks), status, first.cause, first.remedy,
                                      tuple(names[i] for i in group.members), first.example, self._versions(group)))
        return tuple(sorted(found, key=lambda g: (ORDER.get(g.status, 9), -len(g.machines), g.checks)))
