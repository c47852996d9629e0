"""Run the real CLI in a subprocess, as a user would, and read its JSON report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any, Callable, NamedTuple


class Run(NamedTuple):
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def doctor(*args: str, env: dict[str, str] | None = None, timeout: float = 300, no_stdin: bool = False) -> Run:
    """``no_stdin``: stdin is /dev/null (never a terminal, whatever runs the tests)."""
    full_env = dict(os.environ)
    full_env.pop("THEANODOCTOR_DEBUG", None)
    full_env.update(env or {})
    proc = subprocess.run(
        [sys.executable, "-m", "theanodoctor", *args],
        capture_output=True, env=full_env, timeout=timeout, stdin=subprocess.DEVNULL if no_stdin else None,
    )
    return Run(proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace"))


def statuses(doc: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: c["status"] for c in doc["checks"]}


def result(doc: dict[str, Any], check_id: str) -> dict[str, Any]:
    found = [c for c in doc["checks"] if c["id"] == check_id]
    assert len(found) == 1, f"{check_id} not in {sorted(statuses(doc))}"
    return found[0]


def on_a_terminal(args: list[str], answer: bytes, env: dict[str, str],
                  before_answer: Callable[[], None] | None = None) -> tuple[int, bytes]:
    """Run the CLI with stdin/stdout/stderr on a pseudo-terminal; once it asks "Apply this plan?",
    call ``before_answer`` (if given) and answer."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "theanodoctor", *args], stdin=slave, stdout=slave, stderr=slave,
                            env={**os.environ, **env})
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 120  # a guard against a hang, not a timing assertion
    while b"Apply this plan?" not in seen:
        assert time.monotonic() < deadline and proc.poll() is None, seen.decode(errors="replace")
        seen += os.read(master, 4096)
    if before_answer is not None:
        before_answer()
    os.write(master, answer)
    code = proc.wait(timeout=120)
    try:
        while chunk := os.read(master, 4096):
            seen += chunk
    except OSError:
        pass
    os.close(master)
    return code, seen
