"""Run the smoke script in the target interpreter, stage by stage, with timeouts.

The script runs every stage in one process (a warm compile cache makes a restart cost a whole
``import theano``), and reports each stage as it ends. A stage that hangs past its timeout or
crashes the interpreter is recorded as failed here, and the script is started again for the
stages after it. Nothing here raises for target misbehaviour.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from theanodoctor import proc
from theanodoctor.probe.runner import _Answer, _last_line, _not_startable, _signal_name

SMOKE_SCRIPT = Path(__file__).with_name("target_smoke.py")
SMOKE_VERSION = 1
STAGES = ("matmul", "conv", "elemwise", "softmax_xent", "grad", "scan")
_TAIL = 4000


class SmokeAnswer(_Answer):
    version_key = "smoke_version"
    version = SMOKE_VERSION


class Options(NamedTuple):
    device: str | None = None  # --device; None keeps what the user's config says
    flags: str | None = None  # --flags, appended last to THEANO_FLAGS
    size: int = 2048
    repeats: int = 3
    keep_cache: bool = False
    stage_timeout: float = 300.0
    timeout: float = 900.0
    stages: tuple[str, ...] = STAGES


class RunRecord(NamedTuple):
    """Every stage record (real or made up here for a hang/crash) plus how the run went."""

    python: str
    stages: dict[str, Any]
    flags: str
    fresh_cache: bool
    elapsed_s: float
    restarts: int
    problem: str | None  # the target never spoke the protocol (not a Python, refused, ...)


def theano_flags(base: str | None, options: Options, compiledir: str | None) -> str:
    """The user's flags first, ours after them (right-most wins in Theano)."""
    parts = [base] if base else []
    if compiledir:
        parts.append(f"base_compiledir={compiledir}")
    if options.device:
        parts.append(f"device={options.device}")
    if options.flags:
        parts.append(options.flags)
    return ",".join(p.strip(",") for p in parts if p.strip(","))


class _Attempt(NamedTuple):
    answer: SmokeAnswer
    returncode: int | None
    stderr: str
    timed_out: str | None  # "stage" or "run"


def _pump(stream: Any, sink: list[bytes], notify: queue.Queue[int] | None) -> None:
    for line in iter(stream.readline, b""):
        sink.append(line)
        if notify is not None:
            notify.put(1)
    if notify is not None:
        notify.put(0)  # end of output


def _attempt(python: str, stages: Sequence[str], config: dict[str, Any], env: Mapping[str, str],
             stage_timeout: float, deadline: float) -> _Attempt:
    cookie = os.urandom(16).hex()
    child = proc.start([python, str(SMOKE_SCRIPT), cookie, json.dumps({**config, "stages": list(stages)})],
                       env=env)
    out: list[bytes] = []
    err: list[bytes] = []
    lines: queue.Queue[int] = queue.Queue()
    readers = [threading.Thread(target=_pump, args=(child.stdout, out, lines), daemon=True),
               threading.Thread(target=_pump, args=(child.stderr, err, None), daemon=True)]
    for reader in readers:
        reader.start()
    try:
        return _follow(child, cookie, out, err, lines, readers, stage_timeout, deadline)
    except BaseException:  # the doctor is being stopped: the target goes first
        proc.kill_group(child)
        child.wait()  # gone before the caller removes the compile dir it was writing into
        raise
    finally:
        proc.forget(child)


def _follow(child: Any, cookie: str, out: list[bytes], err: list[bytes], lines: queue.Queue[int],
            readers: list[threading.Thread], stage_timeout: float, deadline: float) -> _Attempt:
    running, stage_started, timed_out, seen = None, time.monotonic(), None, 0
    marker = cookie.encode()
    while True:
        now = time.monotonic()
        limit = min(stage_started + stage_timeout, deadline)
        try:
            more = lines.get(timeout=max(0.0, limit - now))
        except queue.Empty:
            timed_out = "run" if deadline <= stage_started + stage_timeout else "stage"
            proc.kill_group(child)
            break
        if not more:
            break
        fresh, seen = out[seen:], len(out)
        if any(marker in line for line in fresh):
            current = SmokeAnswer(proc.decode(b"".join(out)), cookie).running
            if current != running:
                running, stage_started = current, time.monotonic()
    child.wait()
    for reader in readers:
        reader.join(timeout=5)
    stdout = proc.decode(b"".join(out))
    return _Attempt(SmokeAnswer(stdout, cookie), child.returncode, proc.decode(b"".join(err)), timed_out)


def _failure(kind: str, message: str, stderr: str) -> dict[str, Any]:
    return {"ok": False, "error": {"type": kind, "message": message}, "stderr": stderr[-_TAIL:],
            "log": [], "stdout": ""}


def _interrupted(name: str, attempt: _Attempt, options: Options) -> dict[str, Any]:
    if attempt.timed_out == "stage":
        return _failure("Timeout", f"no result within {options.stage_timeout:g} s; killed", attempt.stderr)
    if attempt.timed_out == "run":
        return _failure("Timeout", f"the whole run's limit ({options.timeout:g} s) was reached; killed",
                        attempt.stderr)
    sig = _signal_name(attempt.returncode)
    how = f"killed by {sig}" if sig else f"exited with code {attempt.returncode}"
    return _failure("Crash", f"the interpreter {how} during this stage", attempt.stderr)


def run_smoke(python: str, options: Options, env: Mapping[str, str] | None = None) -> RunRecord:
    started = time.monotonic()
    deadline = started + options.timeout
    base_env = dict(os.environ if env is None else env)
    problem = _not_startable(python)
    compiledir = None if options.keep_cache else tempfile.mkdtemp(prefix="theanodoctor-smoke-")
    flags = theano_flags(base_env.get("THEANO_FLAGS"), options, compiledir)
    child_env = {**base_env, "THEANO_FLAGS": flags, "PYTHONIOENCODING": "utf-8"}
    config = {"size": options.size, "repeats": options.repeats}
    records: dict[str, Any] = {}
    restarts = 0
    try:
        remaining = list(options.stages)
        while problem is None:
            try:
                attempt = _attempt(python, remaining, config, child_env, options.stage_timeout, deadline)
            except OSError as exc:
                problem = f"{python} could not be started: {exc.strerror or exc}"
                break
            answer = attempt.answer
            for name, record in answer.stages.items():
                records.setdefault(name, record)  # a restart's own import stage adds nothing new
            if answer.done:
                break
            if not answer.documents:
                hint = _last_line(attempt.stderr, answer.extra_stdout)
                problem = (f"{python} did not run the smoke script (exit code {attempt.returncode})"
                           + (f"; last output: {hint}" if hint else ""))
                break
            stopped = answer.interrupted_stage
            if stopped is None:
                break
            records.setdefault(stopped, _interrupted(stopped, attempt, options))
            remaining = [s for s in remaining if s not in records]
            if stopped == "import" or not remaining or time.monotonic() >= deadline:
                break
            restarts += 1
    finally:
        if compiledir:
            shutil.rmtree(compiledir, ignore_errors=True)
    return RunRecord(python, records, flags, compiledir is not None,
                     round(time.monotonic() - started, 3), restarts, problem)

