"""The doctor never shows a traceback and keeps its report whole when the target or the machine
misbehaves: a file that is not Python, a hang, a segfault in ``import theano``, megabytes of
output, a broken ``.theanorc``, an ``nvidia-smi`` that hangs or fails. Every fault is real: shell
scripts in tmp_path, a fake ``theano`` package put first on PYTHONPATH, files on disk.
"""

from __future__ import annotations

import ctypes.util
import os
import shutil
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.cli_helpers import Run, doctor, result, statuses
from theanodoctor.probe.runner import FIRST_STAGE_S

pytestmark = pytest.mark.skipif(os.name != "posix", reason="fake interpreters are shell scripts")

# Checks that judge only the host: they must be in the report whatever the target did.
HOST_CHECKS = {"nvidia-driver", "cxx-compiler", "gpu-path"}
MB = 1024 * 1024


def _has_nvidia_driver() -> bool:
    return bool(shutil.which("nvidia-smi") or ctypes.util.find_library("nvidia-ml"))


# On a machine with a driver, NVML answers before any fake nvidia-smi is asked.
needs_no_driver = pytest.mark.skipif(_has_nvidia_driver(), reason="this machine has an NVIDIA driver")


# --------------------------------------------------------------------------- helpers


def run_check(*args: str, fmt: str = "json", env: dict[str, str] | None = None,
              timeout: float = 120) -> tuple[Run, dict[str, Any] | None]:
    run = doctor("check", *args, "--format", fmt, env=env, timeout=timeout)
    assert "Traceback" not in run.err and "Traceback" not in run.out, run.err
    if fmt != "json":
        assert run.out.rstrip().splitlines()[-1].startswith("Verdict: "), run.out
        return run, None
    doc = run.json()
    assert doc["schema_version"] == 1 and doc["exit_code"] == run.code
    assert isinstance(doc["facts"], dict)
    return run, doc




def script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def fake_theano(tmp_path: Path, source: str) -> dict[str, str]:
    """Environment that makes the target import ``source`` as its ``theano`` package."""
    package = tmp_path / "fake" / "theano"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(source)
    return {"PYTHONPATH": str(package.parent)}


# A fake that hangs sleeps far longer than the backstop a test run gets: a run that ends at all
# was cut by the doctor, which no load on the machine can fake.
BACKSTOP_S = 600
HANG_S = 100 * BACKSTOP_S


def assert_gone(pid_file: Path) -> None:
    """The process whose pid the fake wrote was killed and reaped, not left running."""
    pid = int(pid_file.read_text().strip())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail(f"process {pid} is still running")


# --------------------------------------------------------------------------- the target


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_a_path_that_is_not_python(tmp_path: Path, fmt: str) -> None:
    fake = script(tmp_path / "bin" / "python", 'echo "%$#@! not a probe answer {]"\necho "oops" >&2\nexit 79\n')
    run, doc = run_check("--python", str(fake), fmt=fmt)
    assert run.code == 3
    if doc is None:
        assert run.out.rstrip().endswith("Verdict: Incomplete: 1 check could not finish")
        assert "target-probe: the probe could not run in" in run.out
        assert "nvidia-driver: " in run.out and "cxx-compiler: " in run.out
        return
    assert doc["verdict"] == "Incomplete: 1 check could not finish"
    probe = result(doc, "target-probe")
    assert probe["status"] == "crash"
    assert "exit code 79" in probe["cause"] and "not be a Python interpreter" in probe["cause"]
    assert "last output: oops" in probe["cause"]
    assert HOST_CHECKS <= set(statuses(doc))
    assert statuses(doc)["python-stack"] == "skipped" and statuses(doc)["theano-import"] == "skipped"
    target = doc["facts"]["target"]
    assert target["returncode"] == 79 and target["stages"] == {}
    assert "not a probe answer" in target["extra_stdout"] and "oops" in target["stderr"]
    assert doc["facts"]["compilers"]["status"] == "ok"  # the host facts are all there


def test_an_interpreter_that_hangs_is_stopped(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    # it would hang far longer than the run's backstop: the run ending at all shows it was cut
    # (no wall-clock bound to assert, so a loaded machine cannot make this fail)
    fake = script(tmp_path / "bin" / "python", f'echo $$ > "{pid_file}"\nexec sleep {HANG_S}\n')
    run, doc = run_check("--python", str(fake), "--timeout", "2", timeout=BACKSTOP_S)
    assert run.code == 3 and doc is not None
    assert doc["verdict"] == "Incomplete: 1 check could not finish"
    probe = result(doc, "target-probe")
    assert probe["status"] == "timeout" and "did not answer within the timeout" in probe["message"]
    assert "within 2 s" in probe["cause"]
    assert doc["facts"]["target"]["status"] == "timeout"
    assert HOST_CHECKS <= set(statuses(doc))
    assert_gone(pid_file)


def test_an_interpreter_that_never_answers_is_judged_hung_in_seconds(tmp_path: Path) -> None:
    """Only `import theano` gets the long allowance (--timeout, 120 s by default): a target that has
    not finished the first stage (interpreter facts) within FIRST_STAGE_S is hung."""
    pid_file = tmp_path / "pid"
    fake = script(tmp_path / "bin" / "python", f'echo $$ > "{pid_file}"\nexec sleep 600\n')
    run, doc = run_check("--python", str(fake), timeout=60)
    assert run.code == 3 and doc is not None
    probe = result(doc, "target-probe")
    assert probe["status"] == "timeout"
    assert f"first stage (interpreter facts) within {FIRST_STAGE_S:g} s" in probe["cause"]
    assert doc["facts"]["target"]["elapsed_s"] < 120
    assert_gone(pid_file)


def test_a_slow_import_theano_keeps_the_long_allowance(tmp_path: Path, legacy_python: Callable[[str], str]) -> None:
    env = fake_theano(tmp_path, f"import time\ntime.sleep({FIRST_STAGE_S + 2})\n")
    run, doc = run_check("--python", legacy_python("healthy37"), "--only", "theano-import", env=env)
    assert doc is not None and doc["facts"]["target"]["status"] == "ok", doc["facts"]["target"]
    assert doc["facts"]["target"]["stages"]["theano_import"]["ok"] is True


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_segfault_in_import_theano(tmp_path: Path, legacy_python: Callable[[str], str], fmt: str) -> None:
    env = fake_theano(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    run, doc = run_check("--python", legacy_python("healthy37"), fmt=fmt, env=env)
    # The crash is a finding about the environment (exit 1), not a failure of the doctor.
    assert run.code == 1
    if doc is None:
        assert "killed by SIGSEGV during the theano_import stage" in run.out
        assert "`import theano` crashed the interpreter (killed by SIGSEGV)" in run.out
        assert run.out.rstrip().endswith("Verdict: Broken: 1 error")
        return
    assert result(doc, "theano-import")["status"] == "error"
    assert result(doc, "python-stack")["status"] == "ok"  # versions were read before the crash
    probe = result(doc, "target-probe")
    assert probe["status"] == "crash"
    assert "killed by SIGSEGV during the theano_import stage" in probe["cause"]
    target = doc["facts"]["target"]
    assert target["status"] == "crash" and target["signal"] == "SIGSEGV" and target["returncode"] == -11
    assert target["interrupted_stage"] == "theano_import"
    # What the probe learned before the crash is kept.
    assert target["stages"]["interpreter"]["version"] == "3.7.16"
    assert target["stages"]["numpy_import"]["version"] == "1.16.6"
    assert target["stages"]["distributions"]["theano_dir"] == env["PYTHONPATH"]
    assert "theano_import" not in target["stages"]
    assert HOST_CHECKS <= set(statuses(doc))


NOISY_THEANO = {
    # Python-level output: the probe captures it into the stage's record.
    "print": "import sys\n"
             "line = 'x' * 1023 + '\\n'\n"
             "for _ in range(5 * 1024):\n"
             "    sys.stdout.write(line)\n"
             "    sys.stderr.write(line)\n",
    # Straight to the file descriptors, as C code does: it reaches the runner around the answer.
    "fd": "import os\n"
          "block = b'y' * 1023 + b'\\n'\n"
          "for _ in range(5 * 1024):\n"
          "    os.write(1, block)\n"
          "    os.write(2, block)\n",
    # Through Theano's logger: one list entry per line.
    "log": "import logging\n"
           "log = logging.getLogger('theano')\n"
           "for i in range(100000):\n"
           "    log.warning('noise line %06d ' + 'z' * 30, i)\n",
}


@pytest.mark.parametrize("channel", list(NOISY_THEANO))
def test_a_target_that_prints_megabytes(tmp_path: Path, legacy_python: Callable[[str], str],
                                        channel: str) -> None:
    env = fake_theano(tmp_path, NOISY_THEANO[channel] + "raise ImportError('fake theano printed too much')\n")
    run, doc = run_check("--python", legacy_python("healthy37"), env=env)
    assert len(run.out) < MB and len(run.err) < MB
    # The probe finished; the import failure is an ordinary, unknown error: exit 1, not 3.
    assert run.code == 1 and doc is not None
    assert doc["verdict"] == "Broken: 1 error"
    assert doc["facts"]["target"]["status"] == "ok"
    imported = result(doc, "theano-import")
    assert imported["status"] == "error"
    assert imported["message"] == "import theano fails: ImportError: fake theano printed too much"
    stage = doc["facts"]["target"]["stages"]["theano_import"]
    if channel == "print":
        for key in ("stdout", "stderr"):
            assert stage[key].startswith("x" * 100) and "characters left out" in stage[key]
    elif channel == "fd":
        for key in ("extra_stdout", "stderr"):
            assert "y" * 100 in doc["facts"]["target"][key]
            assert "characters left out" in doc["facts"]["target"][key]
    else:
        assert stage["log"][0].startswith("WARNING (theano): noise line 000000 ")
        assert 0 < len(stage["log"]) < 100000
    text = doctor("check", "--python", legacy_python("healthy37"), env=env)
    assert text.code == 1 and len(text.out) < MB and "Traceback" not in text.err


# --------------------------------------------------------------------------- .theanorc files


@pytest.mark.parametrize(
    ("encoding", "host_encoding", "error_type", "signature"),
    [
        ("utf-16", "utf-16-le", "UnicodeDecodeError", "theanorc-utf16"),  # Notepad's "Unicode"
        ("utf-8-sig", "utf-8-bom", "MissingSectionHeaderError", "theanorc-bom"),  # UTF-8 with BOM
    ],
)
def test_theanorc_saved_by_notepad(guard_home: Path, legacy_python: Callable[[str], str],
                                   encoding: str, host_encoding: str, error_type: str,
                                   signature: str) -> None:
    # A real ~/.theanorc in a fresh home: Theano fails on it before compiling anything.
    rc = guard_home / ".theanorc"
    rc.write_bytes("[global]\ndevice = cpu\nfloatX = float32\n".encode(encoding))
    run, doc = run_check("--python", legacy_python("healthy37"))
    assert run.code == 1 and doc is not None
    imported = result(doc, "theano-import")
    assert imported["status"] == "error"
    assert error_type in imported["message"]
    assert any(f"known failure: {signature} " in d for d in imported["details"]), imported["details"]
    files = doc["facts"]["theanorc"]["files"]
    assert [f["path"] for f in files] == [str(rc)]
    assert files[0]["encoding"] == host_encoding and files[0]["bom"] is True
    assert files[0]["parse"]["ok"] is False and files[0]["parse"]["error_type"] == error_type


def test_theanorc_that_is_a_directory(tmp_path: Path, legacy_python: Callable[[str], str],
                                      theano_home: Path) -> None:
    """Real Theano skips a config "file" it cannot read (configparser ignores OSError): the import
    works and the folder changes nothing. The host's reading of it records why it was skipped."""
    folder = tmp_path / ".theanorc"
    folder.mkdir()
    run, doc = run_check("--python", legacy_python("healthy37"), env={"THEANORC": str(folder)})
    assert run.code == 0 and doc is not None
    # Theano ignores it silently; the doctor says so.
    assert doc["verdict"] == "CPU only (1 warning)"
    assert statuses(doc)["theano-import"] == "ok" and statuses(doc)["theanorc-files"] == "warn"
    config = doc["facts"]["target"]["stages"]["theano_config"]
    assert config["files"] == [str(folder)] and config["files_present"] == []
    assert config["values"]["device"]["source"] == "default"
    files = doc["facts"]["theanorc"]["files"]
    assert len(files) == 1 and files[0]["readable"] is False
    assert "IsADirectoryError" in files[0]["error"]


# --------------------------------------------------------------------------- the NVIDIA driver


@needs_no_driver
def test_no_nvidia_driver_is_fine_for_cpu(legacy_python: Callable[[str], str]) -> None:
    run, doc = run_check("--python", legacy_python("notheano38"), "--only", "nvidia-driver")
    assert run.code == 0 and doc is not None
    driver = result(doc, "nvidia-driver")
    assert driver["status"] == "ok" and driver["message"].startswith("no NVIDIA driver")
    assert doc["facts"]["nvidia"]["status"] == "missing" and doc["facts"]["nvidia"]["gpus"] == []


@needs_no_driver
def test_nvidia_smi_that_hangs(tmp_path: Path, legacy_python: Callable[[str], str],
                               theano_home: Path) -> None:
    pid_file = tmp_path / "smi.pid"
    smi = script(tmp_path / "fakebin" / "nvidia-smi", f'echo $$ > "{pid_file}"\nexec sleep {HANG_S}\n')
    env = {"PATH": f"{smi.parent}{os.pathsep}{os.environ['PATH']}"}
    # --timeout: a slow `import theano` under load must not be a second unfinished check here
    run, doc = run_check("--python", legacy_python("healthy37"), "--timeout", "500", env=env,
                         timeout=BACKSTOP_S)  # ended: it was cut
    assert run.code == 3 and doc is not None
    assert doc["verdict"] == "Incomplete: 1 check could not finish", (statuses(doc), doc["facts"]["target"]["error"])
    nvidia = doc["facts"]["nvidia"]
    assert nvidia["status"] == "timeout" and nvidia["source"] == "nvidia-smi"
    assert "did not answer within the timeout" in nvidia["error"]
    driver = result(doc, "nvidia-driver")
    assert driver["status"] == "timeout"
    # Everything else was still judged (GPU-only checks skip on a CPU-only setup).
    others = {k: v for k, v in statuses(doc).items() if k != "nvidia-driver"}
    assert set(others.values()) <= {"ok", "skipped"} and others["theano-import"] == "ok"
    assert_gone(pid_file)


@needs_no_driver
def test_nvidia_smi_that_cannot_reach_the_driver(tmp_path: Path, legacy_python: Callable[[str], str]) -> None:
    smi = script(tmp_path / "fakebin" / "nvidia-smi",
                 'echo "NVIDIA-SMI has failed because it couldn\'t communicate with the NVIDIA driver. '
                 'Make sure that the latest NVIDIA driver is installed and running."\nexit 9\n')
    env = {"PATH": f"{smi.parent}{os.pathsep}{os.environ['PATH']}"}
    run, doc = run_check("--python", legacy_python("notheano38"), "--only", "nvidia-driver", env=env)
    assert run.code == 1 and doc is not None
    assert doc["verdict"] == "Broken: 1 error"
    driver = result(doc, "nvidia-driver")
    assert driver["status"] == "error"
    assert "exit 9" in driver["cause"] and "couldn't communicate with the NVIDIA driver" in driver["cause"]
    assert doc["facts"]["nvidia"]["status"] == "error"
