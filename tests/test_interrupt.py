"""A doctor stopped by Ctrl-C (SIGINT), a CI runner's SIGTERM or a closed terminal's SIGHUP, at
any point of a long command, ends at once with the shell's exit code (128 + the signal), one line
and no traceback, leaves no process it started running and no file half-written.

Every signal is sent at a point the test has proof of, never after a sleep: the doctor has
installed its handlers (``SigCgt`` in ``/proc/PID/status``), the target has started (its wrapper
wrote its pid), the target is inside ``import theano`` or a later stage (a fake ``theano`` wrote a
marker and waits), the doctor printed its progress line, or a fake ``conda`` is running.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc to prove a point")

STOPS = {"SIGINT": signal.SIGINT, "SIGTERM": signal.SIGTERM, "SIGHUP": signal.SIGHUP}
# Generous bounds for a loaded machine; a run that reaches one has failed, whatever the reason.
PATIENCE = 180.0

# A fake `theano` package: it writes `marker-<pid>`, then waits, fails fast or imports (empty).
# HANG_WHEN and FAIL_WHEN are evaluated inside the target: `True`, or a test on the .theanorc or a call count.
FAKE_THEANO = """\
import os, sys, time
_dir = {marker_dir!r}
_count = len([n for n in os.listdir(_dir) if n.startswith('marker-')])
_rc = os.path.join(os.path.expanduser('~'), '.theanorc')
_text = open(_rc).read() if os.path.exists(_rc) else ''
open(os.path.join(_dir, 'marker-%d' % os.getpid()), 'w').close()
if {hang_when}:
    time.sleep(600)
if {fail_when}:
    raise ImportError('fake theano: not hanging this time')
"""


class Target:
    """A real legacy interpreter behind a wrapper that records the pid of every start, with a fake
    theano first on PYTHONPATH."""

    def __init__(self, tmp_path: Path, real_python: str, hang_when: str, fail_when: str = "True") -> None:
        self.dir = tmp_path / "target"
        (self.dir / "fake" / "theano").mkdir(parents=True)
        (self.dir / "fake" / "theano" / "__init__.py").write_text(
            FAKE_THEANO.format(marker_dir=str(self.dir), hang_when=hang_when, fail_when=fail_when))
        self.pids = self.dir / "pids"
        self.python = self.dir / "bin" / "python"
        self.python.parent.mkdir()
        self.python.write_text(f'#!/bin/sh\necho $$ >> "{self.pids}"\nexec "{real_python}" "$@"\n')
        self.python.chmod(0o755)
        self.env = {"PYTHONPATH": str(self.dir / "fake")}

    def started(self) -> bool:
        return recorded(self.pids)

    def markers(self) -> int:
        return len(list(self.dir.glob("marker-*")))

    def all_pids(self) -> list[int]:
        found = [int(p) for p in self.pids.read_text().split()] if self.pids.exists() else []
        return found + [int(m.name.split("-")[1]) for m in self.dir.glob("marker-*")]


class Doctor:
    """The real CLI in a subprocess; its stderr is followed line by line."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        full = {k: v for k, v in os.environ.items() if k != "THEANODOCTOR_DEBUG"}
        full.update(env)
        self.proc = subprocess.Popen([sys.executable, "-m", "theanodoctor", *args], env=full,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.err_lines: list[str] = []
        self.out_lines: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(stream, sink), daemon=True)
                         for stream, sink in ((self.proc.stderr, self.err_lines), (self.proc.stdout, self.out_lines))]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream: Any, sink: list[str]) -> None:
        for line in iter(stream.readline, b""):
            sink.append(line.decode(errors="replace"))

    @property
    def out(self) -> str:
        return "".join(self.out_lines)

    @property
    def err(self) -> str:
        return "".join(self.err_lines)

    def handlers_installed(self) -> bool:
        """The doctor catches SIGTERM: its own handlers are in place (bit 15 of SigCgt)."""
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return False
        caught = next(int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigCgt:"))
        return bool(caught >> (signal.SIGTERM - 1) & 1)

    def wait_for(self, proven: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + PATIENCE
        while not proven():
            assert self.proc.poll() is None, f"the doctor ended (exit {self.proc.returncode}) before {what}: {self.err}"
            assert time.monotonic() < deadline, f"never reached: {what}"
            time.sleep(0.02)

    def stop(self, stop: signal.Signals | None = None) -> int:
        if stop is not None:
            self.proc.send_signal(stop)
        try:
            self.proc.wait(timeout=PATIENCE)
        finally:
            self.proc.kill()
        for reader in self._readers:
            reader.join(timeout=10)
        return self.proc.returncode


def assert_stopped_cleanly(doctor: Doctor, code: int, stop: signal.Signals, pids: list[int]) -> None:
    assert code == 128 + stop, (code, doctor.err)
    assert "Traceback" not in doctor.err and "Traceback" not in doctor.out, doctor.err
    assert doctor.err.rstrip().splitlines()[-1] == f"theanodoctor: stopped by {stop.name} (exit code {code})"
    for pid in pids:
        assert_gone(pid)


def assert_gone(pid: int) -> None:
    """Killed and reaped (the doctor has exited, so a zombie child is reaped by init at once)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return
        if state in ("Z", "X"):
            return
        assert time.monotonic() < deadline, f"process {pid} is still running ({state})"
        time.sleep(0.05)


def fake_on_path(tmp_path: Path, name: str, script: str) -> tuple[Path, str]:
    """A program ``name`` (``script``, which records each pid it runs as in ``{pids}``) first on a
    PATH: that file of pids, and the PATH."""
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir(exist_ok=True)
    pids = tmp_path / f"{name}-pids"
    program = bin_dir / name
    program.write_text(script.format(pids=pids))
    program.chmod(0o755)
    return pids, f"{bin_dir}{os.pathsep}{os.environ['PATH']}"


def recorded(pids: Path) -> bool:
    return pids.exists() and pids.read_text().endswith("\n")


def nice_of(pid: int) -> int:
    """The niceness of a process (of its main thread), from /proc/PID/stat."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def no_temp_files(folder: Path) -> list[str]:
    return [p.name for p in folder.rglob("*") if ".theanodoctor-" in p.name or p.name.endswith(".tmp")]


# --------------------------------------------------------------------------- check


CHECK_POINTS = ["handlers", "target-started", "importing", "importing-after-progress-line"]


@pytest.mark.parametrize("point", CHECK_POINTS)
@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_check_stopped(tmp_path: Path, legacy_python: Callable[[str], str], guard_home: Path,
                       point: str, stop: str) -> None:
    target = Target(tmp_path, legacy_python("healthy37"), "True")
    rc = guard_home / ".theanorc"
    rc.write_bytes(b"[global]\nfloatX = float32\n")
    before = sorted(p.name for p in guard_home.rglob("*"))
    fmt = "json" if point == "importing" else "text"
    doctor = Doctor(["check", "--python", str(target.python), "--format", fmt], target.env)
    proofs = {
        "handlers": doctor.handlers_installed,
        "target-started": target.started,
        "importing": lambda: target.markers() == 1,
        "importing-after-progress-line": lambda: target.markers() == 1 and "checking " in doctor.err,
    }
    doctor.wait_for(proofs[point], point)
    code = doctor.stop(STOPS[stop])
    assert_stopped_cleanly(doctor, code, STOPS[stop], target.all_pids())
    if fmt == "json":  # the JSON document still comes, with the same exit code
        doc = json.loads(doctor.out)
        assert doc["exit_code"] == code and doc["error"]["kind"] == "interrupted"
    assert sorted(p.name for p in guard_home.rglob("*")) == before  # check writes nothing
    assert rc.read_bytes() == b"[global]\nfloatX = float32\n"


def test_a_second_signal_does_not_cut_the_cleanup_short(tmp_path: Path, legacy_python: Callable[[str], str]) -> None:
    target = Target(tmp_path, legacy_python("healthy37"), "True")
    doctor = Doctor(["check", "--python", str(target.python)], target.env)
    doctor.wait_for(lambda: target.markers() == 1 and "checking " in doctor.err, "importing")
    doctor.proc.send_signal(signal.SIGINT)
    code = doctor.stop(signal.SIGINT)
    assert_stopped_cleanly(doctor, code, signal.SIGINT, target.all_pids())


FAKE_GXX = """#!/bin/sh
echo $$ >> "{pids}"
exec sleep 600
"""


def test_check_stopped_while_a_host_probe_runs(tmp_path: Path, legacy_python: Callable[[str], str]) -> None:
    # The host probes run on threads the doctor's exit does not wait for, and once it is stopped
    # they start nothing new: the compiler probe's second call (`g++ -dumpmachine`) never runs.
    target = Target(tmp_path, legacy_python("healthy37"), "True")
    gxx_pids, path = fake_on_path(tmp_path, "g++", FAKE_GXX)
    doctor = Doctor(["check", "--python", str(target.python)], {**target.env, "PATH": path})
    doctor.wait_for(lambda: recorded(gxx_pids), "g++ started")
    # (on a machine so loaded that the probe's own timeout ended the first call first, the second is
    # the one running now: it is taken as started before the stop)
    before = [int(p) for p in gxx_pids.read_text().split()]
    # The host probes yield to the target probe; the doctor's main thread, which acts on a stop, does not.
    assert (nice_of(doctor.proc.pid), nice_of(before[-1])) == (os.nice(0), 19)
    code = doctor.stop(signal.SIGTERM)
    started = [int(p) for p in gxx_pids.read_text().split()]
    assert_stopped_cleanly(doctor, code, signal.SIGTERM, target.all_pids() + started)
    assert started == before  # nothing started once it was stopped


# --------------------------------------------------------------------------- smoke-test


@pytest.mark.parametrize("point", ["target-started", "importing"])
@pytest.mark.parametrize("stop", ["SIGINT", "SIGHUP"])
def test_smoke_test_stopped(tmp_path: Path, legacy_python: Callable[[str], str], point: str, stop: str) -> None:
    target = Target(tmp_path, legacy_python("healthy37"), "True")
    tmpdir = tmp_path / "tmpdir"
    tmpdir.mkdir()
    doctor = Doctor(["smoke-test", "--python", str(target.python)], {**target.env, "TMPDIR": str(tmpdir)})
    proofs = {"target-started": target.started,
              "importing": lambda: target.markers() == 1 and "smoke-testing " in doctor.err}
    doctor.wait_for(proofs[point], point)
    code = doctor.stop(STOPS[stop])
    assert_stopped_cleanly(doctor, code, STOPS[stop], target.all_pids())
    assert list(tmpdir.iterdir()) == []  # the fresh compile dir is gone with its target


# --------------------------------------------------------------------------- preflight


@pytest.mark.parametrize("point", ["check-importing", "smoke-importing"])
def test_preflight_stopped(tmp_path: Path, legacy_python: Callable[[str], str], point: str) -> None:
    # The check's probe is the first import of theano, the smoke test's the second.
    hang = "True" if point == "check-importing" else "_count >= 1"
    target = Target(tmp_path, legacy_python("healthy37"), hang, fail_when="False")
    tmpdir = tmp_path / "tmpdir"
    tmpdir.mkdir()
    junit = tmp_path / "out" / "junit.xml"
    junit.parent.mkdir()
    doctor = Doctor(["preflight", "--python", str(target.python), "--junit", str(junit)],
                    {**target.env, "TMPDIR": str(tmpdir)})
    doctor.wait_for(lambda: target.markers() == (1 if point == "check-importing" else 2), point)
    code = doctor.stop(signal.SIGTERM)
    assert_stopped_cleanly(doctor, code, signal.SIGTERM, target.all_pids())
    assert list(junit.parent.iterdir()) == []  # no report, not even half of one
    assert list(tmpdir.iterdir()) == []


# --------------------------------------------------------------------------- fix


RC_BEFORE = b"[global]\ndevice = gpu\nfloatX = float32\n"


@pytest.mark.parametrize("point", ["first-probe", "probe-after-applying"])
@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_fix_stopped(tmp_path: Path, legacy_python: Callable[[str], str], guard_home: Path,
                     point: str, stop: str) -> None:
    # Before the repair the fake theano fails fast (as Theano 1.0.5 does on device=gpu); after it,
    # or from the start at the first point, it hangs.
    hang = "True" if point == "first-probe" else "'device = gpu' not in _text"
    target = Target(tmp_path, legacy_python("healthy37"), hang)
    rc = guard_home / ".theanorc"
    rc.write_bytes(RC_BEFORE)
    state = tmp_path / "state"
    env = {**target.env, "THEANODOCTOR_STATE_DIR": str(state)}
    doctor = Doctor(["fix", "--python", str(target.python), "--yes", "--only", "theanorc-device"], env)
    doctor.wait_for(lambda: target.markers() == (1 if point == "first-probe" else 2), point)
    code = doctor.stop(STOPS[stop])
    assert_stopped_cleanly(doctor, code, STOPS[stop], target.all_pids())
    assert no_temp_files(guard_home) == [] and no_temp_files(tmp_path / "target") == []
    history = Doctor(["fix", "--history", "--format", "json"], env)
    assert history.stop() == 0, history.err
    runs = json.loads(history.out)["runs"]
    if point == "first-probe":
        assert rc.read_bytes() == RC_BEFORE and runs == []
        return
    assert rc.read_bytes() == b"[global]\ndevice = cuda\nfloatX = float32\n"  # whole, not half
    assert [r["status"] for r in runs] == ["complete"]
    undo = Doctor(["fix", "--undo", "--format", "json"], env)
    assert undo.stop() == 0, undo.err
    assert rc.read_bytes() == RC_BEFORE


# --------------------------------------------------------------------------- provision


FAKE_CONDA = """#!/bin/sh
if [ "$1 $2" = "env list" ]; then echo '{{"envs": []}}'; exit 0; fi
echo $$ >> "{pids}"
exec sleep 600
"""


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_provision_stopped_while_conda_runs(tmp_path: Path, stop: str) -> None:
    pids, path = fake_on_path(tmp_path, "conda", FAKE_CONDA)
    prefix = tmp_path / "envs" / "theano37"
    doctor = Doctor(["provision", "--profile", "linux-cuda10.2-py37", "--prefix", str(prefix)], {"PATH": path})
    doctor.wait_for(lambda: recorded(pids), "conda env create")
    code = doctor.stop(STOPS[stop])
    assert_stopped_cleanly(doctor, code, STOPS[stop], [int(p) for p in pids.read_text().split()])
    assert not prefix.exists()


# The handler runs inside the finalizer: raise_signal() calls it before returning. The finalizer's
# Stopped is dropped by Python, and the doctor must still stop where the main thread waits next.
SWALLOWED = """\
import signal, time
from theanodoctor import stop
stop.install()

class Finalized:
    def __del__(self):
        signal.raise_signal(signal.{stop})

try:
    Finalized()
    print("the finalizer is done", flush=True)
    time.sleep(60)
    print("not stopped")
except stop.Stopped as exc:
    print("stopped by", exc.name)
"""


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_swallowed_by_a_finalizer_is_not_lost(stop: str) -> None:
    done = subprocess.run([sys.executable, "-c", SWALLOWED.format(stop=stop)], capture_output=True, text=True,
                          timeout=PATIENCE)
    assert done.stdout.splitlines() == ["the finalizer is done", f"stopped by {stop}"], done
    assert "Exception ignored" not in done.stderr, done.stderr
