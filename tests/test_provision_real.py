"""End to end, for real: provision the CPU-only Python 3.7 stack with the pyenv Python 3.7 through
venv + pip into a temporary folder, then `check` is clean and `smoke-test --device cpu` passes on
it. Downloads come from pip's normal cache. A missing Python 3.7 fails the test (never a skip)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.cli_helpers import doctor
from tests.legacy_envs import REAL_HOME, find_interpreter


def test_provision_cpu_stack_with_venv_and_pip(tmp_path: Path, guard_home: Path) -> None:
    python = str(find_interpreter("3.7"))  # raises MissingInterpreter: the test fails, loudly
    prefix = tmp_path / "theano37"
    env = {"PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR") or str(REAL_HOME / ".cache" / "pip")}
    run = doctor("provision", "--cpu-only", "--python", python, "--prefix", str(prefix), "--method", "venv",
                 "--format", "json", env=env, timeout=1500)
    assert run.code == 0, run.out[-3000:] + run.err[-3000:]
    doc = run.json()
    assert doc["resolution"]["stack"] == "cpu-py37"
    new_python = prefix / "bin" / "python"
    assert doc["python"] == str(new_python) and new_python.is_file()
    assert doc["check"]["exit_code"] == 0 and doc["check"]["verdict"].startswith("CPU only")
    assert doc["smoke"]["exit_code"] == 0 and doc["smoke"]["device"] == "cpu"
    # the log of every command lies in the state dir under the (temporary) home
    log = Path(doc["plan"]["log"])
    assert log.is_relative_to(guard_home) and "-m pip install" in log.read_text()
    assert "\n[global]\ndevice = cpu\n" in (prefix / "theanorc").read_text()

    # and the doctor's own commands agree, run as a user would
    check = doctor("check", "--python", str(new_python), "--format", "json", timeout=600)
    assert check.code == 0, check.out[-3000:]
    statuses = {c["id"]: c["status"] for c in check.json()["checks"]}
    assert statuses["python-stack"] == "ok" and statuses["theano-import"] == "ok"
    smoke = doctor("smoke-test", "--python", str(new_python), "--device", "cpu", "--size", "256",
                   "--repeats", "1", "--keep-cache", "--format", "json", timeout=900)
    assert smoke.code == 0, smoke.out[-3000:]
    assert smoke.json()["smoke"]["verdict"].startswith("Passed")
