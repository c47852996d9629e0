"""The import smoke of a repository in its new environment: each of its own top-level modules
imported (nothing else run) by the new interpreter, in a subprocess with a timeout, the repository
on sys.path and as the working folder. The first error of each failed import is explained through
the cause catalogue. This is the one place the doctor runs a scanned repository's code."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from theanodoctor import proc

TIMEOUT = 180.0  # a first `import theano` compiles its C helpers


class Imported(NamedTuple):
    module: str
    path: str
    status: str              # "ok" | "error" | "timeout"
    error: str | None        # the exception line
    cause: str | None        # the catalogue's cause id
    explanation: str | None  # its title and remedy
    seconds: float

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_dict(self) -> dict[str, Any]:
        return {**self._asdict(), "ok": self.ok}


def _last_error(text: str) -> str | None:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    errors = [line for line in lines if not line.startswith((" ", "\t")) and ("Error" in line or "Exception" in line)]
    found = errors or lines
    return found[-1] if found else None


def explain_failure(output: str) -> tuple[str | None, str | None]:
    """(cause id, "title: remedy") for the first finding the catalogue recognises, else (None, None)."""
    from theanodoctor.explain import explain_text

    found = explain_text(output, context=("theano",)).recognised
    if not found:
        return None, None
    return found[0].cause, f"{found[0].title}: {found[0].remedy}"


def import_one(python: str, repo: str, module: str, env: Mapping[str, str], timeout: float = TIMEOUT) -> Imported:
    code = f"import sys; sys.path.insert(0, {repo!r}); import {module}"
    done = proc.run([python, "-c", code], timeout, env={**env, "PYTHONDONTWRITEBYTECODE": "1"}, cwd=repo)
    if done.status == "timeout":
        return Imported(module, "", "timeout", f"no answer within {timeout:g} s", None, None, done.elapsed_s)
    if not done.ran:
        return Imported(module, "", "error", done.error, None, None, done.elapsed_s)
    if done.returncode == 0:
        return Imported(module, "", "ok", None, None, None, done.elapsed_s)
    output = done.stderr + done.stdout
    cause, explanation = explain_failure(output)
    return Imported(module, "", "error", _last_error(output), cause, explanation, done.elapsed_s)


def import_smoke(python: str, repo: str, modules: Sequence[dict[str, Any]], settings: Mapping[str, str],
                 timeout: float = TIMEOUT) -> tuple[Imported, ...]:
    """Each module of the scan (``{"name", "path"}``), imported on its own, in order."""
    env = {**os.environ, **settings, "MPLBACKEND": "Agg"}  # a plotting import must not look for a display
    return tuple(import_one(python, repo, str(m["name"]), env, timeout)._replace(path=str(m.get("path") or ""))
                 for m in modules if m.get("name"))
