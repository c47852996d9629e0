"""The host side of the probe against targets that misbehave for real: fake interpreters as
shell scripts, and real interpreters whose ``import theano`` hangs, exits or segfaults."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from theanodoctor.probe.runner import FIRST_STAGE_S, PROBE_SCRIPT, probe_target, start_probe
from theanodoctor.proc import MAX_KEPT_CHARS

pytestmark = pytest.mark.skipif(os.name != "posix", reason="fake interpreters are sh scripts")

EARLY_STAGES = {"interpreter", "distributions", "numpy_import"}


def fake_python(folder: Path, body: str, name: str = "python") -> str:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def fake_theano(folder: Path, init: str) -> dict[str, str]:
    """A ``theano`` package that misbehaves on import; returns the env that puts it first."""
    package = folder / "fake" / "theano"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("import os, signal, sys, time\n" + init + "\n")
    return {**os.environ, "PYTHONPATH": str(package.parent)}


ENVELOPE_KEYS = {"status", "error", "elapsed_s", "python", "returncode", "signal",
                 "interrupted_stage", "stages", "extra_stdout", "stderr"}


def assert_well_formed(result: dict[str, object]) -> None:
    """Same shape on every path, and an error a user can read: a sentence, not a traceback."""
    assert set(result) == ENVELOPE_KEYS
    assert "Traceback" not in str(result["error"])


def test_probe_script_ships_inside_the_package() -> None:
    assert PROBE_SCRIPT.is_file() and PROBE_SCRIPT.parent.name == "probe"


def test_runner_import_stays_light() -> None:
    code = ("import sys, theanodoctor.probe.runner; "
            "print(sorted(m for m in ('rich', 'click', 'yaml') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_hang_is_killed_at_timeout(tmp_path: Path) -> None:
    python = fake_python(tmp_path, "sleep 30")
    started = time.monotonic()
    handle = start_probe(python, timeout=1)
    assert time.monotonic() - started < 0.5  # starting does not wait
    result = handle.wait()
    assert result["status"] == "timeout"
    assert result["elapsed_s"] < 5 and time.monotonic() - started < 5
    assert result["returncode"] is None and result["stages"] == {}
    assert "within 1 s" in result["error"]
    assert_well_formed(result)
    assert handle.wait() is result  # computed once


def test_garbage_printer_is_not_a_python(tmp_path: Path) -> None:
    python = fake_python(tmp_path, "echo 'garbage {\"not\": json'; echo 'oops' >&2; exit 79")
    result = probe_target(python, timeout=10)
    assert result["status"] == "error"
    assert result["returncode"] == 79
    assert "garbage" in result["extra_stdout"] and "oops" in result["stderr"]
    assert "exit code 79" in result["error"] and "oops" in result["error"]
    assert_well_formed(result)


def test_segfault_names_the_signal(tmp_path: Path) -> None:
    code = "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"
    python = fake_python(tmp_path, f'exec "{sys.executable}" -c "{code}"')
    result = probe_target(python, timeout=10)
    assert result["status"] == "crash"
    assert result["returncode"] == -11 and result["signal"] == "SIGSEGV"
    assert "SIGSEGV" in result["error"] and "before the probe started" in result["error"]


def test_env_is_the_whole_child_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("THEANO_FLAGS", "device=gpu")
    python = fake_python(tmp_path, 'echo "flags=[$THEANO_FLAGS] home=[$HOME] '
                                   'io=[$PYTHONIOENCODING]"')
    assert "flags=[device=gpu]" in probe_target(python)["extra_stdout"]
    out = probe_target(python, env={"HOME": "/nowhere"})["extra_stdout"]
    assert out == "flags=[] home=[/nowhere] io=[utf-8]\n"


def test_missing_path_is_not_found(tmp_path: Path) -> None:
    result = probe_target(str(tmp_path / "no-such-python"))
    assert result["status"] == "not-found" and "does not exist" in result["error"]
    assert_well_formed(result)
    assert probe_target("no-such-python-on-path-xyz")["status"] == "not-found"


def test_plain_file_is_not_executable(tmp_path: Path) -> None:
    path = tmp_path / "python"
    path.write_text("print('hi')\n")
    path.chmod(0o644)
    result = probe_target(str(path))
    assert result["status"] == "not-found" and "not executable" in result["error"]


def test_executable_without_interpreter_line(tmp_path: Path) -> None:
    path = tmp_path / "python"
    path.write_bytes(b"\x7fELF garbage")
    path.chmod(0o755)
    result = probe_target(str(path))
    assert result["status"] == "error" and "could not be started" in result["error"]


def test_megabytes_of_noise_around_a_valid_run(
    tmp_path: Path, legacy_python: Callable[[str], str], theano_home: Path
) -> None:
    python = fake_python(
        tmp_path,
        "yes 'noise on stdout' | head -c 5000000\n"
        "yes 'noise on stderr' | head -c 5000000 >&2\n"
        f'exec "{legacy_python("healthy37")}" "$@"',
    )
    result = probe_target(python, timeout=300)
    assert result["status"] == "ok", result["error"]
    assert_well_formed(result)
    assert result["stages"]["theano_import"]["version"] == "1.0.5"
    for key in ("extra_stdout", "stderr"):
        assert "noise on" in result[key]
        assert len(result[key]) <= MAX_KEPT_CHARS + 100
        assert "characters left out" in result[key]


def test_segfault_in_import_theano_keeps_earlier_facts(
    tmp_path: Path, legacy_python: Callable[[str], str]
) -> None:
    env = fake_theano(tmp_path, "os.kill(os.getpid(), signal.SIGSEGV)")
    result = probe_target(legacy_python("healthy37"), timeout=60, env=env)
    assert result["status"] == "crash" and result["signal"] == "SIGSEGV"
    assert result["interrupted_stage"] == "theano_import"
    assert "SIGSEGV during the theano_import stage" in result["error"]
    assert set(result["stages"]) == EARLY_STAGES
    assert result["stages"]["numpy_import"]["version"] == "1.16.6"
    assert result["stages"]["distributions"]["theano_dir"] == env["PYTHONPATH"]
    assert_well_formed(result)


def test_hard_exit_in_import_theano_is_a_crash(
    tmp_path: Path, legacy_python: Callable[[str], str]
) -> None:
    env = fake_theano(tmp_path, "os._exit(0)")
    result = probe_target(legacy_python("healthy37"), timeout=60, env=env)
    assert result["status"] == "crash" and result["returncode"] == 0
    assert "exited with code 0 during the theano_import stage" in result["error"]


def test_hang_in_import_theano_keeps_earlier_facts(
    tmp_path: Path, legacy_python: Callable[[str], str]
) -> None:
    env = fake_theano(tmp_path, "time.sleep(30)")
    result = probe_target(legacy_python("healthy37"), timeout=5, env=env)
    assert result["status"] == "timeout"
    assert result["interrupted_stage"] == "theano_import"
    assert set(result["stages"]) == EARLY_STAGES


def test_a_doctor_that_waits_late_still_sees_the_first_stage_in_time(
    tmp_path: Path, legacy_python: Callable[[str], str]
) -> None:
    # The doctor may wait on its host probes (a hanging nvidia-smi) longer than the first stage's
    # allowance before it waits for the target; what counts is when the target reached the stage,
    # so the target's output is read from its start, not from the doctor's wait.
    release = tmp_path / "go"
    env = fake_theano(tmp_path, f"while not os.path.exists({str(release)!r}): time.sleep(0.05)")
    handle = start_probe(legacy_python("healthy37"), timeout=120, env=env)
    assert handle._watched is not None and handle._watched.progress.wait(60)  # read while nobody waited
    handle.started -= FIRST_STAGE_S + 5  # the doctor comes to wait only after the stage's allowance
    release.touch()
    result = handle.wait()
    assert result["status"] == "ok", result["error"]
    assert EARLY_STAGES <= set(result["stages"])


def test_target_output_is_kept_as_facts(
    tmp_path: Path, legacy_python: Callable[[str], str]
) -> None:
    env = fake_theano(tmp_path, (
        "print('hello from theano')\n"
        "sys.stderr.write('theano complains\\n')\n"
        "os.write(1, b'straight to fd 1\\n')\n"
        "os.write(2, b'straight to fd 2\\n')\n"
        "import logging\n"
        "logging.getLogger('theano.gof').warning('compiler missing')\n"
        "sys.exit(5)"))
    result = probe_target(legacy_python("healthy37"), timeout=60, env=env)
    assert result["status"] == "ok" and result["returncode"] == 0
    theano = result["stages"]["theano_import"]
    assert theano["ok"] is False and theano["error"]["type"] == "SystemExit"
    assert theano["error"]["message"] == "5"
    assert theano["stdout"] == "hello from theano\n"
    assert theano["stderr"] == "theano complains\n"
    assert theano["log"] == ["WARNING (theano.gof): compiler missing"]
    assert result["extra_stdout"] == "straight to fd 1\n"  # no protocol residue
    assert "straight to fd 2" in result["stderr"]
    assert result["stages"]["pygpu"]["skipped"]


def test_too_old_python_is_refused_by_the_gate(
    tmp_path: Path, legacy_python: Callable[[str], str]
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import sys\nsys.version_info = (2, 6, 9, 'final', 0)\n")
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = probe_target(legacy_python("notheano38"), timeout=30, env=env)
    assert result["status"] == "error"
    assert result["error"] == "Python 2.6.9 is too old: the probe needs Python 2.7 or newer"
    assert result["returncode"] == 3 and result["stages"] == {}
