"""What a resolution is made of: pins with their reasons, caveats, conflicts with ways out. Every
reason cites the table rows it rests on (file + row key + that row's source)."""

from __future__ import annotations

from typing import Any, NamedTuple

from theanodoctor.resolver.inputs import Constraints


class Cite(NamedTuple):
    table: str  # "profiles/cuda_driver.yaml"
    key: str    # the row, as the table names it: "CUDA 10.2 (10.2.89)", "cc=8.6"
    source: str

    def label(self) -> str:
        return f"{self.table} [{self.key}]"

    def to_dict(self) -> dict[str, str]:
        return self._asdict()


class Reason(NamedTuple):
    text: str
    cites: tuple[Cite, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "cites": [c.to_dict() for c in self.cites]}


class Pin(NamedTuple):
    name: str   # python, numpy, scipy, theano, pygpu, cuda, cudnn, driver, compiler
    value: str  # "3.7", "1.16.6", ">= 441.22", "none"
    reason: Reason

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, **self.reason.to_dict()}


class Caveat(NamedTuple):
    id: str
    reason: Reason
    fix_id: str | None = None  # the `theanodoctor fix` id that applies it

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "fix_id": self.fix_id, **self.reason.to_dict()}


class Conflict(NamedTuple):
    inputs: tuple[str, ...]  # the smallest set of inputs that cannot hold together, as typed
    why: tuple[Reason, ...]
    ways_out: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"inputs": list(self.inputs), "why": [r.to_dict() for r in self.why],
                "ways_out": list(self.ways_out)}


class Resolution(NamedTuple):
    constraints: Constraints
    pins: tuple[Pin, ...]
    caveats: tuple[Caveat, ...]
    conflicts: tuple[Conflict, ...]
    stack: str | None    # the named stack the pins equal, if any
    profile: str | None  # the profile that was asked for (resolve --profile)
    os: str | None = None  # the OS the pins are for

    @property
    def resolved(self) -> bool:
        return not self.conflicts

    @property
    def exit_code(self) -> int:
        return 0 if self.resolved else 1

    def pin(self, name: str) -> str | None:
        return next((p.value for p in self.pins if p.name == name), None)

    @property
    def gpu(self) -> bool:
        return self.pin("cuda") not in (None, "none")

    def to_dict(self) -> dict[str, Any]:
        return {
            "resolved": self.resolved, "exit_code": self.exit_code,
            "constraints": self.constraints.to_dict(), "profile": self.profile, "stack": self.stack, "os": self.os,
            "device": (self.pin("device") or ("cuda" if self.gpu else "cpu")) if self.resolved else None,
            "pins": [p.to_dict() for p in self.pins], "caveats": [c.to_dict() for c in self.caveats],
            "conflicts": [c.to_dict() for c in self.conflicts],
        }
