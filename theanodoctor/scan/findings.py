"""What the readers collect while one scan runs (mutable, private to the scan), before the
summary is inferred from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from packaging.utils import canonicalize_name

from theanodoctor.scan.model import Constraint, Evidence, Problem, Requirement
from theanodoctor.scan.reqs import Parsed

# Requirements on these subjects become constraints with their own names
SUBJECTS = {"python": "python", "theano": "theano", "numpy": "numpy", "scipy": "scipy"}


class Setting(NamedTuple):
    """One Theano config option set somewhere: a .theanorc line or an item of a THEANO_FLAGS string."""
    key: str  # the dotted name, lower-cased (`lib.cnmem`, `device`)
    value: str
    evidence: Evidence


class Use(NamedTuple):
    """One use of a module or attribute in the code: `theano.tensor.signal.pool.pool_2d`, with the
    keyword names when it is called."""
    name: str
    keywords: tuple[str, ...]
    evidence: Evidence
    guarded: bool = False  # inside a `try:` with an except: the code has a fallback


@dataclass
class Findings:
    requirements: list[Requirement] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    settings: list[Setting] = field(default_factory=list)
    uses: list[Use] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    python2_only: list[Evidence] = field(default_factory=list)  # a Python-2-only line per file
    python3_only: list[Evidence] = field(default_factory=list)  # a Python-3-only line per file
    python_files: int = 0
    runs_at_import: set[str] = field(default_factory=set)  # top-level files with statements beyond definitions
    keras_backend: list[tuple[str, Evidence]] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)  # YYYY-MM-DD written in the files

    def require(self, parsed: Parsed, where: Evidence, source: str) -> None:
        """A declared dependency; a pinned one on python/theano/numpy/scipy is also a constraint."""
        self.requirements.append(Requirement(parsed.name, parsed.spec, where))
        subject = SUBJECTS.get(parsed.name, parsed.name)
        if parsed.spec:
            self.constrain(subject, parsed.spec, "stated", where, f"declared in {source}")

    def constrain(self, subject: str, spec: str, strength: str, where: Evidence, reason: str) -> None:
        self.constraints.append(Constraint(canonicalize_name(subject) if subject not in SUBJECTS else subject,
                                           spec, strength, (where,), reason))
