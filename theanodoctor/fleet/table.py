"""Merge many machines into one view: a row per machine (key facts, check verdict, smoke test),
the key facts that differ between machines, and the failures grouped by cause.

Every machine is judged here, by this doctor's checks with the same options, so the rows are
comparable whatever doctor version or options each machine ran with.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, NamedTuple

from theanodoctor.engine import Check, Options
from theanodoctor.fleet.keyfacts import key_facts, machine_name
from theanodoctor.fleet.load import Document, Problem
from theanodoctor.report import Report, judge

PROBLEM_STATUSES = ("error", "crash", "timeout", "warn")


class Machine(NamedTuple):
    name: str
    path: str
    kind: str
    facts: dict[str, str]  # key fact label -> value
    report: Report
    smoke: dict[str, Any] | None

    @property
    def smoke_verdict(self) -> str:
        return str(self.smoke.get("verdict")) if self.smoke else "-"

    @property
    def exit_code(self) -> int:
        smoke_code = self.smoke.get("exit_code") if self.smoke else 0
        return max(self.report.exit_code(), smoke_code if isinstance(smoke_code, int) else 0)


class FailureGroup(NamedTuple):
    check: str
    status: str
    cause: str
    remedy: str
    machines: tuple[str, ...]
    example: str  # one machine's message


class Fleet(NamedTuple):
    machines: tuple[Machine, ...]
    columns: tuple[str, ...]
    differing: tuple[str, ...]
    groups: tuple[FailureGroup, ...]
    problems: tuple[Problem, ...]


def _names(documents: Sequence[Document]) -> list[str]:
    """The host name when the snapshot kept it, else the file name; the file tells apart two
    documents from one host."""
    stems = [os.path.splitext(os.path.basename(d.path))[0] for d in documents]
    names = [machine_name(d.facts) or stem for d, stem in zip(documents, stems)]
    unique = [name if names.count(name) == 1 or name == stem else f"{name} ({stem})"
              for name, stem in zip(names, stems)]
    return [name if unique.count(name) == 1 else f"{name} ({doc.path})" for name, doc in zip(unique, documents)]


def _groups(machines: Sequence[Machine]) -> tuple[FailureGroup, ...]:
    found: dict[tuple[str, str, str], list[tuple[Machine, str, str]]] = {}
    for machine in machines:
        for result in machine.report.results:
            if result.status in PROBLEM_STATUSES:
                out = result.outcome
                key = (result.id, result.status, out.cause or out.message)
                found.setdefault(key, []).append((machine, out.message, out.remedy))
        smoke = machine.smoke or {}
        if smoke.get("exit_code"):
            diagnosis = smoke.get("diagnosis") or {}
            key = ("smoke-test", "failed", diagnosis.get("cause") or str(smoke.get("verdict")))
            found.setdefault(key, []).append((machine, str(smoke.get("verdict")), diagnosis.get("remedy") or ""))
    groups = [FailureGroup(check, status, cause, members[0][2], tuple(m.name for m, _, _ in members), members[0][1])
              for (check, status, cause), members in found.items()]
    order = {s: i for i, s in enumerate(("error", "crash", "timeout", "failed", "warn"))}
    return tuple(sorted(groups, key=lambda g: (order.get(g.status, 9), -len(g.machines), g.check)))


def merge(documents: Sequence[Document], problems: Sequence[Problem], checks: Sequence[Check],
          options: Options | None = None) -> Fleet:
    options = options or Options()
    machines = []
    for name, doc in zip(_names(documents), documents):
        report = judge(doc.facts, checks, options)
        machines.append(Machine(name, doc.path, doc.kind, {k.label: k.value for k in key_facts(doc.facts)},
                                report, doc.smoke))
    columns = tuple(machines[0].facts) if machines else ()
    differing = tuple(c for c in columns if len({m.facts.get(c) for m in machines}) > 1)
    return Fleet(tuple(machines), columns, differing, _groups(machines), tuple(problems))


def to_dict(fleet: Fleet) -> dict[str, Any]:
    return {
        "machines": [{"name": m.name, "file": m.path, "kind": m.kind, "facts": m.facts, "verdict": m.report.verdict,
                      "exit_code": m.exit_code, "summary": dict(sorted(m.report.counts().items())),
                      "checks": {r.id: r.status for r in m.report.results},
                      "smoke": {"verdict": m.smoke.get("verdict"), "exit_code": m.smoke.get("exit_code")}
                      if m.smoke else None} for m in fleet.machines],
        "differing": list(fleet.differing),
        "same": {c: fleet.machines[0].facts[c] for c in fleet.columns if c not in fleet.differing}
        if fleet.machines else {},
        "failures": [g._asdict() for g in fleet.groups],
        "unreadable": [p._asdict() for p in fleet.problems],
    }
