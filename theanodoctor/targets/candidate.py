"""A found environment, and the rule that picks the one to check.

Selection rule (:func:`choose`), simple and deterministic:

1. an interpreter the user named with ``--python`` always wins, Theano or not;
2. else an explicitly activated environment that has Theano: ``VIRTUAL_ENV`` before
   ``CONDA_PREFIX`` (a venv activated inside a conda shell is the one in front of PATH);
3. else the first environment with Theano, in discovery order;
4. else ``None``: no environment with Theano was found.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

SOURCES = ("--python", "CONDA_PREFIX", "VIRTUAL_ENV", "conda-envs", "conda-env-dir", "pyenv",
           "PATH")


@dataclass(frozen=True)
class Candidate:
    python: str  # interpreter path as found (a venv's bin/python is kept, not resolved)
    prefix: str  # the environment folder
    source: str  # one of SOURCES
    python_version: str | None = None
    theano: str | None = None
    theano_pymc: str | None = None
    numpy: str | None = None
    site_packages: list[str] = field(default_factory=list, hash=False)

    @property
    def has_theano(self) -> bool:
        return self.theano is not None or self.theano_pymc is not None

    @property
    def flavour(self) -> str | None:
        # Both install the same `theano` package; the fork's metadata is the more specific clue.
        if self.theano_pymc is not None:
            return "Theano-PyMC"
        if self.theano is not None:
            return "Theano"
        return None

    @property
    def active(self) -> bool:
        """Named by the user or activated in the calling shell."""
        return self.source in ("--python", "VIRTUAL_ENV", "CONDA_PREFIX")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["has_theano"] = self.has_theano
        data["flavour"] = self.flavour
        return data


def choose(candidates: Iterable[Candidate]) -> Candidate | None:
    """The environment to check; the rule is in the module docstring."""
    ordered = list(candidates)
    for candidate in ordered:
        if candidate.source == "--python":
            return candidate
    for source in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        for candidate in ordered:
            if candidate.source == source and candidate.has_theano:
                return candidate
    for candidate in ordered:
        if candidate.has_theano:
            return candidate
    return None
