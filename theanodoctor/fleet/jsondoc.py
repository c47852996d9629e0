"""The fleet view as JSON, written a machine at a time: a large fleet's document is never held
in memory whole."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from theanodoctor.fleet.table import Fleet, Machine


def _machine(fleet: Fleet, m: Machine) -> dict[str, Any]:
    return {"name": m.name, "file": m.path or None, "kind": m.kind, "facts": fleet.facts(m), "verdict": m.verdict,
            "exit_code": m.exit_code, "checks": dict(zip(fleet.check_ids, m.statuses)),
            "smoke": {"verdict": m.smoke[0], "exit_code": m.smoke[1]} if m.smoke else None,
            **({"machines": list(m.members)} if m.members else {})}


def to_dict(fleet: Fleet) -> dict[str, Any]:
    """Everything but the machines (``json_chunks`` writes those one at a time)."""
    reported = fleet.reported
    return {
        "expected": fleet.expected,
        "without_report": sum(len(m.members) or 1 for m in fleet.machines if not m.reported),
        "differing": list(fleet.differing),
        "same": {c: reported[0].values[i] for i, c in enumerate(fleet.columns) if c not in fleet.differing}
        if reported else {},
        "failures": [g._asdict() for g in fleet.groups],
        "unreadable": [p._asdict() for p in fleet.problems],
    }


def json_chunks(fleet: Fleet, head: dict[str, Any]) -> Iterator[str]:
    """The fleet's JSON document in pieces, one machine a piece; ``head`` comes first
    (schema_version, exit_code)."""
    yield json.dumps(head, indent=2)[:-2] + ',\n  "machines": ['
    for i, machine in enumerate(fleet.machines):  # one line each: quick to write, easy to grep
        yield ("," if i else "") + "\n    " + json.dumps(_machine(fleet, machine), default=str)
    rest = json.dumps(to_dict(fleet), indent=2, default=str)
    yield ("\n  ]," if fleet.machines else "],") + rest[1:] + "\n"
