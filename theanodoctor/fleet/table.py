"""Merge many machines into one view: a row per machine (key facts, check verdict, smoke test,
exit code), the key facts that differ between machines, and the failures grouped by cause.

Every machine is judged here, by this doctor's checks with the same options, so the rows are
comparable whatever doctor version or options each machine ran with. A machine that sent
nothing usable (an unreadable or empty file, or an expected host with no file at all) is a
row too, with its reason, and fails the run.

The documents are read one at a time and each is reduced to a small row before the next is
read, so memory stays flat however large the fleet is.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from theanodoctor.engine import Check, Options
from theanodoctor.fleet.causes import FailureGroup, Grouper
from theanodoctor.fleet.judged import Judge
from theanodoctor.fleet.keyfacts import machine_name
from theanodoctor.fleet.load import Document, Problem
from theanodoctor.report import EXIT_BLOCKING, EXIT_USAGE, gate_exit

MISSING = "missing"
UNUSABLE = "unusable"


class Machine(NamedTuple):
    name: str
    path: str  # "" for an expected host that sent no file
    kind: str  # snapshot, check, preflight; or missing, unusable
    values: tuple[str, ...]  # key fact values, in Fleet.columns order (empty when no report)
    verdict: str  # the checks' verdict, or why there is no usable report
    exit_code: int
    statuses: tuple[str, ...]  # check statuses, in Fleet.check_ids order
    smoke: tuple[str, int | None] | None  # (verdict, exit code) of the smoke test a document carried
    members: tuple[str, ...] = ()  # --by-config: the machines this row stands for

    @property
    def reported(self) -> bool:
        return self.kind not in (MISSING, UNUSABLE)

    @property
    def smoke_verdict(self) -> str:
        return self.smoke[0] if self.smoke else "-"


class Fleet(NamedTuple):
    machines: tuple[Machine, ...]
    columns: tuple[str, ...]
    check_ids: tuple[str, ...]
    differing: tuple[str, ...]
    groups: tuple[FailureGroup, ...]
    problems: tuple[Problem, ...]
    expected: int  # hosts named by --expect (0: none named)

    @property
    def reported(self) -> list[Machine]:
        return [m for m in self.machines if m.reported]

    def facts(self, machine: Machine) -> dict[str, str]:
        return dict(zip(self.columns, machine.values))

    @property
    def exit_code(self) -> int:
        """2: nothing to judge; else the worst machine's code (a machine without a report: 1)."""
        if not self.reported and not self.expected:
            return EXIT_USAGE
        return max((m.exit_code for m in self.machines), default=0)


class _Seen(NamedTuple):
    host: str | None
    path: str


def _exit(doc: Document, checks_exit: int) -> int:
    smoke_exit = doc.smoke.get("exit_code") if doc.smoke else None
    code = gate_exit(checks_exit, smoke_exit if isinstance(smoke_exit, int) else None,
                     smoke_required=doc.kind == "preflight")
    return max(code, doc.own_exit or 0)  # a preflight document's own verdict stands


def _names(seen: Sequence[_Seen]) -> list[str]:
    """The host name when the snapshot kept it, else the file name; the file tells apart two
    documents from one host."""
    stems = [os.path.splitext(os.path.basename(s.path))[0] for s in seen]
    names = [s.host or stem for s, stem in zip(seen, stems)]
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    unique = [name if counts[name] == 1 or name == stem else f"{name} ({stem})" for name, stem in zip(names, stems)]
    counts = {}
    for name in unique:
        counts[name] = counts.get(name, 0) + 1
    return [name if counts[name] == 1 else f"{name} ({s.path})" for name, s in zip(unique, seen)]


def _aliases(machine: Machine, host: str | None) -> set[str]:
    """The names an expected host may go by: the host name (also without its domain), the file
    name, and the folder a per-host fetch put the file in."""
    found = {os.path.splitext(os.path.basename(machine.path))[0], os.path.basename(os.path.dirname(machine.path))}
    if host:
        found |= {host, host.split(".")[0]}
    return {name for name in found if name}


def _with_expected(machines: list[Machine], hosts: list[str | None], expected: Sequence[str]) -> list[Machine]:
    """One row per expected host that no document or unusable file stands for."""
    covered: set[str] = set()
    for machine, host in zip(machines, hosts):
        covered |= _aliases(machine, host)
    missing = [h for h in dict.fromkeys(expected) if h not in covered and h.split(".")[0] not in covered]
    return machines + [Machine(h, "", MISSING, (), "no report from this machine (expected, no file found)",
                               EXIT_BLOCKING, (), None) for h in missing]


def merge(found: Iterable[Document | Problem], checks: Sequence[Check], options: Options | None = None,
          strict: bool = False, expected: Sequence[str] = ()) -> Fleet:
    judge = Judge(checks, options or Options())
    smokes: dict[Any, Any] = {}  # one object for equal smoke results
    grouper: Grouper | None = None
    rows: list[Machine] = []
    seen: list[_Seen] = []
    problems: list[Problem] = []
    columns: tuple[str, ...] = ()
    for item in found:
        if isinstance(item, Problem):
            problems.append(item)
            rows.append(Machine("", item.path, UNUSABLE, (), item.reason, EXIT_BLOCKING, (), None))
            seen.append(_Seen(None, item.path))
            continue
        judged = judge(item.facts, item.config)
        if grouper is None:
            columns, grouper = judged.columns, Grouper(judged.columns)
        grouper.add(len(rows), judged.causes, item.smoke, judged.values)
        smoke = (str(item.smoke.get("verdict")), item.smoke.get("exit_code")) if item.smoke else None
        rows.append(Machine("", item.path, item.kind, judged.values, judged.verdict,
                            _exit(item, judged.strict_exit if strict else judged.checks_exit), judged.statuses,
                            smokes.setdefault(smoke, smoke)))
        seen.append(_Seen(machine_name(item.facts), item.path))
    names = _names(seen)
    rows = [m._replace(name=name) for m, name in zip(rows, names)]
    rows = _with_expected(rows, [s.host for s in seen], expected)
    reported = [m for m in rows if m.reported]
    differing = tuple(c for i, c in enumerate(columns) if len({m.values[i] for m in reported}) > 1)
    groups = grouper.groups(names) if grouper else ()
    return Fleet(tuple(rows), columns, tuple(c.id for c in checks), differing, groups,
                 tuple(problems), len(set(expected)))


def by_config(fleet: Fleet) -> Fleet:
    """Identical machines (same facts, verdicts, check statuses and exit code) as one row."""
    rows: dict[tuple[Any, ...], list[Machine]] = {}
    for m in fleet.machines:
        key = (m.kind, m.values, m.verdict, m.exit_code, m.statuses, m.smoke) if m.reported else (id(m),)
        rows.setdefault(key, []).append(m)
    merged = [same[0]._replace(members=tuple(m.name for m in same)) if len(same) > 1 else same[0]
              for same in rows.values()]
    return fleet._replace(machines=tuple(merged))


def problems_only(fleet: Fleet) -> Fleet:
    return fleet._replace(machines=tuple(m for m in fleet.machines if m.exit_code))
