"""Run the real CLI in a subprocess, as a user would, and read its JSON report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, NamedTuple


class Run(NamedTuple):
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def doctor(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> Run:
    full_env = dict(os.environ)
    full_env.pop("THEANODOCTOR_DEBUG", None)
    full_env.update(env or {})
    proc = subprocess.run(
        [sys.executable, "-m", "theanodoctor", *args],
        capture_output=True, env=full_env, timeout=timeout,
    )
    return Run(proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace"))


def statuses(doc: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: c["status"] for c in doc["checks"]}


def result(doc: dict[str, Any], check_id: str) -> dict[str, Any]:
    found = [c for c in doc["checks"] if c["id"] == check_id]
    assert len(found) == 1, f"{check_id} not in {sorted(statuses(doc))}"
    return found[0]
