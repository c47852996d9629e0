"""What every repair plans from: the facts, the check results, which fixes may run, and the
toolkit `--cuda` targets. Repairs read the OS and the paths from the facts, never from the
machine the doctor runs on, so a Windows snapshot plans Windows repairs anywhere."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, NamedTuple

from theanodoctor.checks.common import WINDOWS, target_os

from theanodoctor.engine import Result
from theanodoctor.facts import Facts, Json, section
from theanodoctor.repair.action import Action


class Note(NamedTuple):
    fix_id: str
    message: str

    @property
    def refused(self) -> bool:
        return self.message.startswith("refused")

    def to_dict(self) -> dict[str, Any]:
        return {**self._asdict(), "refused": self.refused}


class Plan(NamedTuple):
    actions: tuple[Action, ...]
    notes: tuple[Note, ...]

    @property
    def applicable(self) -> list[Action]:
        return [a for a in self.actions if a.applies]


@dataclass(frozen=True)
class Context:
    facts: Facts
    results: tuple[Result, ...]
    wanted: frozenset[str]
    cuda: Json | None = None  # the toolkit --cuda names
    force: bool = False

    @property
    def os_name(self) -> str:
        return target_os(self.facts) or ("Windows" if os.name == "nt" else "Linux")

    @property
    def windows(self) -> bool:
        return self.os_name == WINDOWS

    @property
    def home(self) -> str:
        home = section(self.facts, "theanorc").get("home")
        return str(home) if home else os.path.expanduser("~")

    def wants(self, fix_id: str) -> bool:
        return fix_id in self.wanted

    def findings(self, fix_id: str) -> list[Result]:
        return [r for r in self.results if r.outcome.fix_id == fix_id and r.status in ("warn", "error")]
