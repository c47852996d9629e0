"""Run the stdlib probe script inside a target interpreter and read its answer.

The target may be anything a user points at: a healthy Python, a Python whose ``import theano``
segfaults or hangs, a shell script printing garbage. Every outcome comes back as a result
envelope (see :func:`theanodoctor.facts.envelope`); nothing here raises for target misbehaviour.
Starting is cheap, so callers can start the probe first and gather host facts while it runs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from theanodoctor import proc

if TYPE_CHECKING:
    from theanodoctor.facts import Json

PROBE_SCRIPT = Path(__file__).with_name("target_probe.py")
PROBE_VERSION = 1
# The whole output is parsed before clipping: with megabytes of noise around it, the answer
# may sit anywhere. What is kept afterwards is clipped as usual.
_READ_LIMIT = 1 << 62
# A stage's own record can be huge too: the probe passes on verbatim what a noisy
# `import theano` printed (or logged) while captured. Bounded like the process output.
_MAX_ITEMS = 1000
# Only `import theano` (it may compile C modules) needs minutes. The first stage reads facts of
# the interpreter itself and takes well under a second; a target that has not finished it in this
# many seconds is hung (a wrapper waiting on a lock, a broken sitecustomize, not a Python at all).
FIRST_STAGE_S = 8.0


def _cmd(python: str, cookie: str) -> list[str]:
    # No -E / -s / -I: THEANO_FLAGS, PYTHONPATH and the user site are part of what we diagnose.
    return [python, str(PROBE_SCRIPT), cookie]


def _not_startable(python: str) -> str | None:
    if not os.path.exists(python):
        return f"{python} does not exist"
    if os.path.isdir(python):
        return f"{python} is a folder, not a Python interpreter"
    if not os.access(python, os.X_OK):
        return f"{python} is not executable"
    return None


def _signal_name(returncode: int | None) -> str | None:
    if returncode is None or returncode >= 0:
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def _last_line(*texts: str, limit: int = 200) -> str:
    for chunk in texts:
        lines = [line.strip() for line in chunk.splitlines() if line.strip()]
        if lines:
            return lines[-1][:limit]
    return ""


def _bounded(value: Any) -> Any:
    if isinstance(value, str):
        return proc.clip(value)
    if isinstance(value, list):
        return [_bounded(v) for v in value[:_MAX_ITEMS]]
    if isinstance(value, dict):
        return {k: _bounded(v) for k, v in value.items()}
    return value


class _Answer:
    """What the probe wrote between the cookies, merged over all its documents. Another script
    speaking the same protocol (the smoke test) subclasses it with its own version key."""

    version_key = "probe_version"
    version = PROBE_VERSION

    def __init__(self, stdout: str, cookie: str) -> None:
        pattern = re.compile(re.escape(cookie[::-1]) + r"(.*?)" + re.escape(cookie) + "\n?", re.S)
        self.stages: Json = {}
        self.documents = 0
        self.running: str | None = None
        self.done = False
        self.refused: str | None = None
        for match in pattern.finditer(stdout):
            self._take(match.group(1))
        self.extra_stdout = pattern.sub("", stdout)  # exactly what the target itself printed

    def _take(self, raw: str) -> None:
        try:
            doc = json.loads(raw)
        except ValueError:
            return
        if not isinstance(doc, dict) or doc.get(self.version_key) != self.version:
            return
        self.documents += 1
        if isinstance(doc.get("stages"), dict):
            self.stages.update(_bounded(doc["stages"]))
        if isinstance(doc.get("running"), str):
            self.running = doc["running"]
        self.done = self.done or doc.get("done") is True
        if isinstance(doc.get("refused"), str):
            self.refused = doc["refused"]

    @property
    def interrupted_stage(self) -> str | None:
        return None if self.done or self.running in self.stages else self.running


def _judge(python: str, timeout: float, result: proc.ProcResult,
           answer: _Answer) -> tuple[str, str | None]:
    """The status and the sentence a user reads."""
    stage = answer.interrupted_stage
    during = f" during the {stage} stage" if stage else ""
    sig = _signal_name(result.returncode)
    if result.status == "timeout" and not answer.stages and not answer.refused:
        return "timeout", (f"{python} did not finish the probe's first stage (interpreter facts) within "
                           f"{min(FIRST_STAGE_S, timeout):g} s; it was killed as hung (only `import theano` "
                           f"is given the long allowance, {timeout:g} s)")
    if result.status == "timeout":
        return "timeout", (f"{python} did not finish the probe within {timeout:g} s{during}; "
                           "it was killed")
    if answer.refused:
        return "error", answer.refused
    if answer.done:
        return "ok", None
    if sig:
        return "crash", f"{python} was killed by {sig}{during or ' before the probe started'}"
    if answer.documents:
        return "crash", (f"{python} exited with code {result.returncode}{during} "
                         "before the probe finished")
    hint = _last_line(result.stderr, result.stdout)
    return "error", (f"{python} did not run the probe (exit code {result.returncode}); it may "
                     "not be a Python interpreter" + (f" (last output: {hint})" if hint else ""))


class ProbeHandle:
    """A running probe; :meth:`wait` returns its envelope (computed once)."""

    def __init__(self, python: str, timeout: float, env: Mapping[str, str] | None) -> None:
        self.python = python
        self.timeout = timeout
        self.cookie = os.urandom(16).hex()
        self.started = time.monotonic()
        self._watched: proc.Watched | None = None
        self._result: Json | None = None
        # A bare name ("python3.7") is looked up on PATH like a shell would.
        executable = python if os.path.dirname(python) else shutil.which(python) or python
        problem = _not_startable(executable)
        if problem:
            self._result = self._envelope("not-found", problem)
            return
        child_env = {**(os.environ if env is None else env), "PYTHONIOENCODING": "utf-8"}
        try:
            # read from the start: the first stage is judged by when the target reached it
            self._watched = proc.Watched(proc.start(_cmd(executable, self.cookie), env=child_env),
                                         self._first_stage())
        except FileNotFoundError:
            self._result = self._envelope("not-found", f"{python} does not exist")
        except OSError as exc:  # exec format error, a bad #! line, ...
            self._result = self._envelope(
                "error", f"{python} could not be started: {exc.strerror or exc}")

    def _envelope(self, status: str, error: str | None, returncode: int | None = None,
                  stages: Json | None = None, extra_stdout: str = "", stderr: str = "",
                  interrupted_stage: str | None = None) -> Json:
        from theanodoctor.facts import envelope  # not at import: starting a probe stays cheap

        return envelope(status, error, time.monotonic() - self.started, python=self.python,
                        returncode=returncode, signal=_signal_name(returncode),
                        interrupted_stage=interrupted_stage, stages=stages or {},
                        extra_stdout=extra_stdout, stderr=stderr)

    def _first_stage(self) -> proc.Milestone:
        def reached(stdout: bytes) -> bool:
            answer = _Answer(proc.decode(stdout), self.cookie)
            return bool(answer.stages or answer.refused or answer.done)

        return proc.Milestone(FIRST_STAGE_S, self.cookie.encode(), reached, "the first stage")

    def cancel(self) -> None:
        """Stop a probe whose answer is no longer wanted (kills its whole process group)."""
        if self._watched is not None and self._result is None:
            self._watched.finish(0.0, self.started)  # kills it unless it has already ended
        self._result = self._result or self._envelope("skipped", "cancelled")

    def wait(self) -> Json:
        if self._result is None:
            assert self._watched is not None
            result = self._watched.finish(self.timeout, self.started, keep=_READ_LIMIT)
            answer = _Answer(result.stdout, self.cookie)
            status, error = _judge(self.python, self.timeout, result, answer)
            self._result = self._envelope(
                status, error, result.returncode, answer.stages, proc.clip(answer.extra_stdout),
                proc.clip(result.stderr), answer.interrupted_stage)
        return self._result


def start_probe(python: str, timeout: float = 60.0,
                env: Mapping[str, str] | None = None) -> ProbeHandle:
    """Start the probe now. ``env`` is the child's whole environment (default: ours), as with
    subprocess; THEANO_FLAGS, THEANORC, HOME and PYTHONPATH in it are what the target sees."""
    return ProbeHandle(python, timeout, env)


def probe_target(python: str, timeout: float = 60.0,
                 env: Mapping[str, str] | None = None) -> Json:
    return start_probe(python, timeout, env).wait()
