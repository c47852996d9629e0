"""What `scan` finds, as frozen values: evidence (file, line, text), the constraints inferred from
it, the declared requirements, and the summary (Python major, Theano range, frameworks)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STRENGTHS = ("hard", "stated", "soft")  # hard: code that cannot run outside the range


@dataclass(frozen=True)
class Evidence:
    file: str  # relative to the scanned folder, with forward slashes
    line: int
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "text": self.text}

    def where(self) -> str:
        return f"{self.file}:{self.line}"


def evidence(file: str, line: int, text: str) -> Evidence:
    """Evidence with the line trimmed (and cut to 200 characters: minified or generated code)."""
    text = text.strip()
    return Evidence(file, line, text if len(text) <= 200 else text[:197] + "...")


def evidence_of(file: str, lines: list[str], needle: str) -> Evidence:
    """The first line of ``lines`` holding ``needle`` (line 1 with the needle itself if none does)."""
    needle = needle.strip()
    for number, line in enumerate(lines, 1):
        if needle and needle in line:
            return evidence(file, number, line)
    return evidence(file, 1, needle)


@dataclass(frozen=True)
class Constraint:
    subject: str  # python, theano, numpy, scipy, cuda, cudnn, or a canonical package name
    spec: str  # a PEP 440 specifier, or for a git dependency its URL
    strength: str  # one of STRENGTHS
    evidence: tuple[Evidence, ...]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"subject": self.subject, "spec": self.spec, "strength": self.strength,
                "evidence": [e.to_json() for e in self.evidence], "reason": self.reason}


@dataclass(frozen=True)
class Requirement:
    name: str  # canonical (PEP 503) name
    spec: str  # "" when unpinned, a PEP 440 specifier, or a URL
    evidence: Evidence

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "spec": self.spec, "evidence": [self.evidence.to_json()]}


@dataclass(frozen=True)
class Framework:
    name: str
    spec: str  # "" when the repository says nothing about the version
    evidence: tuple[Evidence, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "spec": self.spec, "evidence": [e.to_json() for e in self.evidence]}


@dataclass(frozen=True)
class Module:
    name: str
    path: str
    runs_at_import: bool = False  # a script: importing it may run more than imports and definitions

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "path": self.path, "runs_at_import": self.runs_at_import}


@dataclass(frozen=True)
class Problem:
    file: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "message": self.message}


@dataclass(frozen=True)
class ScanResult:
    python_major: int | None
    python_evidence: tuple[Evidence, ...]
    theano_min: str | None  # the lowest Theano release the hard and stated constraints allow (inclusive)
    theano_max: str | None  # the highest one (inclusive); None where nothing bounds that side
    theano_evidence: tuple[Evidence, ...]
    frameworks: tuple[Framework, ...]
    as_of: str  # YYYY-MM-DD
    as_of_source: str  # git | files | option
    constraints: tuple[Constraint, ...]
    requirements: tuple[Requirement, ...]
    modules: tuple[Module, ...]
    problems: tuple[Problem, ...]
    python_files: int = 0
    python2_files: int = 0
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"scan": {
            "python": {"major": self.python_major, "evidence": [e.to_json() for e in self.python_evidence],
                       "files": self.python_files, "python2_only_files": self.python2_files},
            "theano": {"min": self.theano_min, "max": self.theano_max,
                       "evidence": [e.to_json() for e in self.theano_evidence]},
            "frameworks": [f.to_json() for f in self.frameworks],
            "as_of": self.as_of,
            "as_of_source": self.as_of_source,
            "constraints": [c.to_json() for c in self.constraints],
            "requirements": [r.to_json() for r in self.requirements],
            "modules": [m.to_json() for m in self.modules],
            "problems": [p.to_json() for p in self.problems],
            "notes": list(self.notes),
        }}
