"""Run the real CLI in a subprocess, as a user would."""

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
