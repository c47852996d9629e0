"""What the tables of upstream messages in the explain tests share: the first cause `explain`
states for a text, the check that each finding of a table can be opened and acted on, and the
output of a real interpreter running a snippet that fails (with real releases put in front of its
environment's own), and the message texts of a real release's source."""

from __future__ import annotations

import ast
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from tests import legacy_envs
from theanodoctor.explain import explain_text
from theanodoctor.sources import problem

# Keras on Theano's Python implementations (no C compile: the refusals come before any)
KERAS_THEANO = {"KERAS_BACKEND": "theano", "THEANO_FLAGS": "cxx="}
# Keras 2.2.4 with the two packages it pins (its setup.py)
KERAS_224 = ("keras==2.2.4", "keras_applications==1.0.6", "keras_preprocessing==1.0.5")


def in_front(python: str, *requirements: str) -> dict[str, str]:
    """The environment variable that puts real releases in front of the environment's own."""
    return {"PYTHONPATH": str(legacy_envs.release(python, *requirements))}


def found(text: str) -> list[tuple[str, str]]:
    """Each finding's cause and confidence, in order."""
    return [(f.cause, f.confidence) for f in explain_text(text).findings]


def first_cause(text: str) -> list[str]:
    """The first cause stated with confidence (high or medium), as a list of at most one."""
    return [f.cause for f in explain_text(text).recognised][:1]


def assert_sourced(cases: list[tuple[str, str]]) -> None:
    """Each text's first finding has a remedy, and its cause's and signatures' sources are ones a
    user can open (theanodoctor/sources.py)."""
    for text, cause in cases:
        finding = explain_text(text).recognised[0]
        assert finding.remedy and problem(finding.source) is None, cause
        assert finding.signature_sources and all(problem(s) is None for s in finding.signature_sources), cause


def traceback_of(python: str, code: str, cwd: Path, env: Mapping[str, str] | None = None,
                 timeout: float = 300) -> str:
    """What ``python`` prints (stdout and stderr, as a user pastes them) for ``code`` run as a
    script in ``cwd`` (so that, as in real logs, the traceback shows the source lines), with
    ``env`` added to the environment; the snippet must fail."""
    (cwd / "snippet.py").write_text(code + "\n", encoding="utf-8")
    proc = subprocess.run([python, "snippet.py"], cwd=cwd, capture_output=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    assert proc.returncode != 0, f"{code!r} ran without an error"
    return (proc.stdout + proc.stderr).decode("utf-8", "replace")


def printed(python: str, code: str, **env: str) -> str:
    """What a snippet that runs prints on stdout (``env`` added to the environment)."""
    return subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=600, check=True,
                          env={**os.environ, **env}).stdout


def string_constants(source: Path) -> list[str]:
    """The string constants of a real release's Python file, read as Python: a message whose pieces
    are split over adjacent literals is one string."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
