"""A repository's lock: exact pins, each with its reason, the settings the code needs, the evidence
behind each constraint, and conflicts with ways out. Plain values; the work is in project.py."""

from __future__ import annotations

from typing import Any, NamedTuple

from theanodoctor.resolver.model import Cite, Conflict


class LockPin(NamedTuple):
    name: str     # "numpy", "Lasagne"
    spec: str     # "==1.12.1", or a URL ("git+https://...@<commit>")
    reason: str
    cites: tuple[Cite, ...] = ()

    @property
    def line(self) -> str:
        """The requirement line pip installs it from."""
        return f"{self.name} @ {self.spec}" if "://" in self.spec else f"{self.name}{self.spec}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "spec": self.spec, "line": self.line, "reason": self.reason,
                "cites": [c.to_dict() for c in self.cites]}


class Setting(NamedTuple):
    name: str     # "KERAS_BACKEND", "theanorc:global.device"
    value: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return self._asdict()


class ProjectLock(NamedTuple):
    root: str
    as_of: str | None
    as_of_source: str | None
    python: str | None          # "2.7"
    theano: str | None          # "0.8.2"
    device: str                 # "cpu" | "cuda" (gpuarray) | "gpu" (the old backend)
    pins: tuple[LockPin, ...]
    settings: tuple[Setting, ...]
    constraints: tuple[dict[str, Any], ...]   # the scan's, with their evidence
    conflicts: tuple[Conflict, ...]
    notes: tuple[str, ...]
    modules: tuple[dict[str, Any], ...]       # the repository's own top-level modules (import smoke)
    resolver: str | None                      # the as-of tool, "pip 26.3"
    gpu_pins: tuple[tuple[str, str, str], ...] = ()  # (name, value, reason): cuda, cudnn, driver, ...

    @property
    def resolved(self) -> bool:
        return not self.conflicts

    @property
    def exit_code(self) -> int:
        return 0 if self.resolved else 1

    def requirements(self) -> str:
        """The lock as a pip requirements file (every line exact)."""
        head = [f"# lock for {self.root} (as of {self.as_of}), Python {self.python}",
                "# written by `theanodoctor resolve --project --emit pip`"]
        body = []
        for p in self.pins:
            if p.name != "python":
                body += [f"# {p.reason}", p.line]
        return "\n".join(head + body) + "\n"

    def to_dict(self) -> dict[str, Any]:
        return {"resolved": self.resolved, "exit_code": self.exit_code, "project": self.root, "as_of": self.as_of,
                "as_of_source": self.as_of_source, "python": self.python, "theano": self.theano,
                "device": self.device, "resolver": self.resolver,
                "pins": [p.to_dict() for p in self.pins], "settings": [s.to_dict() for s in self.settings],
                "gpu": [{"name": n, "value": v, "reason": r} for n, v, r in self.gpu_pins],
                "constraints": list(self.constraints), "conflicts": [c.to_dict() for c in self.conflicts],
                "notes": list(self.notes), "modules": list(self.modules)}
