"""Run an external program with a timeout; every outcome comes back as a value.

Used by the host probes and the target-interpreter probe alike. Never ``shell=True``; output is
decoded with errors replaced; a hang is killed (with its whole process group) at the timeout.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from theanodoctor.stop import deferred

# Enough to keep a useful head and tail of a noisy target without holding megabytes.
MAX_KEPT_CHARS = 20_000
# Children started here run in their own process group, out of reach of the terminal's Ctrl-C
# and of a CI runner's kill of the doctor: kill_all() takes them down when the doctor exits.
# After that, a probe thread still running (threads are not waited for) starts nothing new.
_STARTED: set[subprocess.Popen[bytes]] = set()
_REGISTRY = threading.Lock()
_CLOSED = threading.Event()


class ProcResult(NamedTuple):
    status: str  # "ok" (ran and exited, any code), "timeout", "not-found", "error"
    returncode: int | None
    stdout: str
    stderr: str
    elapsed_s: float
    error: str | None = None

    @property
    def ran(self) -> bool:
        return self.status == "ok"


def clip(text: str, limit: int = MAX_KEPT_CHARS) -> str:
    """Keep the head and tail of ``text``; the middle of megabytes of noise is rarely the clue."""
    if len(text) <= limit:
        return text
    half = limit // 2
    dropped = len(text) - 2 * half
    return f"{text[:half]}\n[... {dropped} characters left out ...]\n{text[-half:]}"


def decode(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", errors="replace")


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass


def start(
    cmd: Sequence[str],
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``cmd`` in its own process group (so a timeout can kill its children too). A stop
    signal arriving meanwhile waits until the child is registered for killing."""
    with deferred(), _REGISTRY:
        if _CLOSED.is_set():
            raise OSError("not started: the doctor is exiting")
        child = subprocess.Popen(
            list(cmd),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            start_new_session=(os.name == "posix"),
        )
        _STARTED.add(child)
    return child


def forget(child: subprocess.Popen[bytes]) -> None:
    """``child`` has been waited for: kill_all() no longer needs to know it."""
    _STARTED.discard(child)


def kill_all() -> None:
    """Kill every child process group still running; the doctor is exiting (maybe interrupted), so
    no child is started after this."""
    with _REGISTRY:
        _CLOSED.set()
        for child in list(_STARTED):
            if child.poll() is None:
                kill_group(child)
            _STARTED.discard(child)


class Milestone(NamedTuple):
    """A point the process must reach early: a target that has not printed ``marker`` (and, once
    it has, satisfied ``reached`` over its whole stdout) within ``within`` seconds is hung."""

    within: float
    marker: bytes
    reached: Callable[[bytes], bool]
    what: str  # "the first stage", for the message


def finish(proc: subprocess.Popen[bytes], timeout: float, started: float,
           keep: int = MAX_KEPT_CHARS) -> ProcResult:
    """Wait for a started process; kill it at the timeout and keep what it printed."""
    return _guarded(proc, lambda: _finish(proc, timeout, started, keep))


def _guarded(proc: subprocess.Popen[bytes], wait: Callable[[], ProcResult]) -> ProcResult:
    """``wait()`` for the process; if the wait itself is cut short (the doctor is stopped), the
    process group is killed first."""
    try:
        result = wait()
    except BaseException:
        kill_group(proc)
        raise
    forget(proc)
    return result


def _finish(proc: subprocess.Popen[bytes], timeout: float, started: float, keep: int) -> ProcResult:
    try:
        out, err = proc.communicate(timeout=max(0.0, timeout - (time.monotonic() - started)))
    except subprocess.TimeoutExpired:
        kill_group(proc)
        out, err = proc.communicate()
        return _result(proc, out, err, started, keep, f"no answer within {timeout:g} s; killed")
    return _result(proc, out, err, started, keep)


def _result(proc: subprocess.Popen[bytes], out: bytes, err: bytes, started: float, keep: int,
            error: str | None = None) -> ProcResult:
    """What a waited-for process gave: killed (``error`` says why) or ended with its exit code."""
    elapsed = time.monotonic() - started
    stdout, stderr = clip(decode(out), keep), clip(decode(err), keep)
    if error:
        return ProcResult("timeout", None, stdout, stderr, elapsed, error)
    return ProcResult("ok", proc.returncode, stdout, stderr, elapsed)


def _pump(fd: int, sink: list[bytes], milestone: Milestone | None, progress: threading.Event) -> None:
    tail = b""
    while data := os.read(fd, 1 << 16):
        sink.append(data)
        if milestone is not None and not progress.is_set() and milestone.marker in tail + data \
                and milestone.reached(b"".join(sink)):
            progress.set()
        tail = data[-len(milestone.marker):] if milestone is not None else b""
    progress.set()  # the end of output is progress too: the process is done or dying


class Watched:
    """A started process whose output is read from the start, so that a milestone is judged by
    when the process reached it, not by when the doctor came to wait for it (the doctor may wait
    on other probes first)."""

    def __init__(self, proc: subprocess.Popen[bytes], milestone: Milestone) -> None:
        assert proc.stdout is not None and proc.stderr is not None
        self.proc, self.milestone = proc, milestone
        self.out: list[bytes] = []
        self.err: list[bytes] = []
        self.progress, ignored = threading.Event(), threading.Event()
        self.readers = [
            threading.Thread(target=_pump, args=(proc.stdout.fileno(), self.out, milestone, self.progress),
                             daemon=True),
            threading.Thread(target=_pump, args=(proc.stderr.fileno(), self.err, None, ignored), daemon=True)]
        for reader in self.readers:
            reader.start()

    def finish(self, timeout: float, started: float, keep: int = MAX_KEPT_CHARS) -> ProcResult:
        """Wait for the process (as :func:`finish`): killed when it has not reached the milestone
        within its time, or not ended within ``timeout``, both counted from ``started``."""
        return _guarded(self.proc, lambda: self._finish(timeout, started, keep))

    def _finish(self, timeout: float, started: float, keep: int) -> ProcResult:
        proc, milestone = self.proc, self.milestone
        error = None
        if not self.progress.wait(max(0.0, min(milestone.within, timeout) - (time.monotonic() - started))):
            error = f"no answer for {milestone.what} within {min(milestone.within, timeout):g} s; killed"
        else:
            try:
                proc.wait(timeout=max(0.0, timeout - (time.monotonic() - started)))
            except subprocess.TimeoutExpired:
                error = f"no answer within {timeout:g} s; killed"
        if error:
            kill_group(proc)
            proc.wait()
        for reader in self.readers:
            reader.join(timeout=5)  # a grandchild that left the group may hold a pipe open
        if not any(reader.is_alive() for reader in self.readers):
            assert proc.stdout is not None and proc.stderr is not None
            proc.stdout.close()
            proc.stderr.close()
        return _result(proc, b"".join(self.out), b"".join(self.err), started, keep, error)


def run(
    cmd: Sequence[str],
    timeout: float,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    keep: int = MAX_KEPT_CHARS,
) -> ProcResult:
    started = time.monotonic()
    try:
        proc = start(cmd, env=env, cwd=cwd)
    except FileNotFoundError as exc:
        return ProcResult("not-found", None, "", "", time.monotonic() - started, str(exc))
    except OSError as exc:  # permission denied, exec format error, ...
        return ProcResult("error", None, "", "", time.monotonic() - started, str(exc))
    return finish(proc, timeout, started, keep)
