"""`theanodoctor smoke-test`: real Theano work in real legacy environments, misbehaving fake
targets, and recorded GPU-machine stage records for the branch that cannot run here."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.cli_helpers import doctor
from theanodoctor.smoke.result import compiler_message, judge
from theanodoctor.smoke.runner import STAGES, Options, RunRecord, theano_flags

posix_only = pytest.mark.skipif(os.name != "posix", reason="fake interpreters are scripts with #!")


def stages_of(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in doc["smoke"]["stages"]}


def passed(doc: dict[str, Any]) -> dict[str, bool]:
    return {name: s["passed"] for name, s in stages_of(doc).items()}


# -- pure parts -----------------------------------------------------------------------------------

def test_flags_keep_the_users_first_and_ours_after() -> None:
    options = Options(device="cuda0", flags="floatX=float32")
    assert theano_flags("blas.ldflags=,device=cpu", options, "/tmp/x") == (
        "blas.ldflags=,device=cpu,base_compiledir=/tmp/x,device=cuda0,floatX=float32")
    assert theano_flags(None, Options(), None) == ""


def test_compiler_message_is_the_error_line() -> None:
    message = ("The following error happened while compiling the node. mod.cpp:374:60: error: "
               "'PyArray_Descr' has no member named 'elsize'.   374 |   strides = x;")
    assert compiler_message(message) == "error: 'PyArray_Descr' has no member named 'elsize'"
    assert compiler_message("fatal error: longintrepr.h: No such file or directory.  compilation "
                            "terminated.") == "fatal error: longintrepr.h: No such file or directory"
    assert compiler_message("ValueError: nothing compiled") is None


def _record(on_gpu: bool, **extra: Any) -> dict[str, Any]:
    ops = ["GpuDot22", "GpuArrayType", "HostFromGpu"] if on_gpu else ["Dot22", "TensorType"]
    return {"ok": True, "error": None, "compile_s": 0.5, "first_run_s": 0.01, "run_s": 0.002,
            "ops": ops, "on_gpu": on_gpu, "log": [], "stdout": "", "stderr": "", **extra}


def _gpu_run(on_gpu: bool, import_said: str) -> RunRecord:
    """Stage records as the smoke script writes them on a GPU machine (hand-written)."""
    stages: dict[str, Any] = {
        "import": {"ok": True, "error": None, "python": "3.7.16", "numpy": "1.16.6", "theano": "1.0.5",
                   "device": "cuda", "floatX": "float32", "pygpu_activated": on_gpu, "log": [],
                   "stdout": "", "stderr": import_said},
    }
    for name in STAGES:
        stages[name] = _record(on_gpu)
    stages["matmul"]["cpu"] = {"ok": True, "run_s": 0.05, "compile_s": 0.01, "on_gpu": False}
    stages["conv"]["cudnn"] = on_gpu
    return RunRecord("/envs/gpu/bin/python", stages, "device=cuda", True, 12.0, 0, None)


def test_gpu_machine_record_passes_with_speedup_and_cudnn() -> None:
    said = ("Mapped name None to device cuda0: NVIDIA H200 (0000:00:05.0)\n"
            "Using cuDNN version 7605 on context None\n")
    result = judge(_gpu_run(True, said), None)
    assert result.exit_code == 0, result.verdict
    assert result.expects_gpu and all(s.ran_on == "gpu" for s in result.stages)
    assert result.gpu["matmul_speedup"] == 25.0
    assert result.gpu["cudnn"] == "Using cuDNN version 7605 on context None"
    assert result.gpu["conv_uses_cudnn"] is True
    from theanodoctor.render.smoke import render_smoke

    text = render_smoke(result)
    assert "speed-up over the CPU: 25x" in text and "cuDNN: Using cuDNN version 7605" in text
    json.dumps(result.to_dict())


def test_gpu_machine_record_without_cudnn_says_why() -> None:
    said = "Can not use cuDNN on context None: cannot compile with cuDNN.\n"
    result = judge(_gpu_run(True, said), "cuda0")
    assert result.exit_code == 0
    assert result.gpu["cudnn"].startswith("Can not use cuDNN on context None: cannot compile")


def test_silent_cpu_fallback_is_a_failure() -> None:
    said = ("ERROR (theano.gpuarray): pygpu was configured but could not be imported or is too old "
            "(version 0.7 or higher required)\n")
    result = judge(_gpu_run(False, said), None)
    assert result.exit_code == 1
    assert result.verdict == "device=cuda but everything ran on the CPU"
    assert all(not s.passed and "ran on the CPU" in (s.error or "") for s in result.stages)
    assert result.diagnosis and result.diagnosis["id"].startswith("pygpu")


# -- misbehaving targets (fake interpreters speaking the protocol) --------------------------------

FAKE = '''
import json, os, signal, sys, time
cookie, config = sys.argv[2], json.loads(sys.argv[3])
def emit(doc):
    doc["smoke_version"] = 1
    sys.stdout.write(cookie[::-1] + json.dumps(doc) + cookie + "\\n"); sys.stdout.flush()
def ok(name):
    emit({"running": name})
    emit({"stages": {name: {"ok": True, "error": None, "on_gpu": False, "ops": [], "compile_s": 0.1,
                            "run_s": 0.01, "first_run_s": 0.02}}})
ok("import")
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(",".join(config["stages"]) + "\\n")
for name in config["stages"]:
    if name == "conv":
        emit({"running": name}); time.sleep(60)
    elif name == "elemwise":
        emit({"running": name}); sys.stderr.write("about to crash\\n"); sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    else:
        ok(name)
emit({"done": True})
'''


@posix_only
def test_hang_and_crash_fail_their_stages_and_later_stages_still_run(tmp_path: Path) -> None:
    fake = tmp_path / "python"
    fake.write_text(f"#!{sys.executable}\n{FAKE}")
    fake.chmod(0o755)
    log = tmp_path / "attempts.log"
    run = doctor("smoke-test", "--python", str(fake), "--stage-timeout", "3", "--format", "json",
                 env={"FAKE_LOG": str(log)}, timeout=60)
    assert run.code == 1, run.err
    doc = run.json()
    stages = stages_of(doc)
    assert passed(doc) == {"matmul": True, "conv": False, "elemwise": False, "softmax_xent": True,
                           "grad": True, "scan": True}
    assert stages["conv"]["error"].startswith("Timeout: no result within 3 s")
    assert "killed by SIGSEGV" in stages["elemwise"]["error"]
    assert doc["smoke"]["restarts"] == 2
    assert log.read_text().splitlines() == [",".join(STAGES), "elemwise,softmax_xent,grad,scan",
                                            "softmax_xent,grad,scan"]


@posix_only
def test_whole_run_timeout_marks_the_rest_not_run(tmp_path: Path) -> None:
    fake = tmp_path / "python"
    fake.write_text(f"#!{sys.executable}\n{FAKE}")
    fake.chmod(0o755)
    run = doctor("smoke-test", "--python", str(fake), "--timeout", "2", "--format", "json",
                 env={"FAKE_LOG": str(tmp_path / "log")}, timeout=60)
    assert run.code == 1
    stages = stages_of(run.json())
    assert "whole run's limit (2 s)" in stages["conv"]["error"]
    assert stages["scan"]["error"] == "not run: the run stopped before it"


@posix_only
def test_not_a_python_is_a_doctor_failure_with_json(tmp_path: Path) -> None:
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\necho garbage; exit 4\n")
    fake.chmod(0o755)
    run = doctor("smoke-test", "--python", str(fake), "--format", "json", timeout=60)
    assert run.code == 3
    assert "did not run the smoke script" in run.json()["smoke"]["verdict"]


def test_bad_device_is_a_usage_error_with_json() -> None:
    run = doctor("smoke-test", "--device", "gpu0", "--format", "json")
    assert run.code == 2
    assert run.json()["error"]["kind"] == "usage"


def test_smoke_script_parses_on_python_27(legacy_python: Callable[[str], str]) -> None:
    import subprocess

    script = Path(__file__).resolve().parent.parent / "theanodoctor" / "smoke" / "target_smoke.py"
    code = "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')"
    subprocess.run([legacy_python("py27"), "-c", code, str(script)], check=True)


# -- real legacy environments ---------------------------------------------------------------------

SMOKE = ("smoke-test", "--keep-cache", "--size", "256", "--format", "json")


def test_healthy37_passes_every_stage_on_cpu(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    run = doctor(*SMOKE, "--python", legacy_python("healthy37"))
    assert run.code == 0, run.out + run.err
    doc = run.json()
    assert doc["schema_version"] and doc["exit_code"] == 0
    assert all(passed(doc).values()) and list(passed(doc)) == list(STAGES)
    assert {s["ran_on"] for s in doc["smoke"]["stages"]} == {"cpu"}
    assert stages_of(doc)["conv"]["details"]["shape"] == [1, 4, 60, 60]
    losses = stages_of(doc)["grad"]["details"]["losses"]
    assert losses[-1] < losses[0]


def test_device_cuda_without_pygpu_reports_the_cpu_fallback(
        legacy_python: Callable[[str], str], theano_home: Path) -> None:
    run = doctor(*SMOKE, "--python", legacy_python("healthy37"), "--device", "cuda")
    assert run.code == 1, run.out + run.err
    smoke = run.json()["smoke"]
    assert smoke["verdict"] == "device=cuda but everything ran on the CPU"
    assert smoke["diagnosis"]["id"].startswith("pygpu")
    assert "device=cuda,blas" not in smoke["flags"] and smoke["flags"].endswith("device=cuda")


def test_numpy2_false_green_is_caught(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    run = doctor(*SMOKE, "--python", legacy_python("numpy2_311"), "--flags", "blas.ldflags=")
    assert run.code == 1, run.out + run.err
    doc = run.json()
    result = passed(doc)
    assert result["matmul"] and result["conv"]
    assert not (result["elemwise"] or result["softmax_xent"] or result["grad"])
    assert "has no member named" in stages_of(doc)["elemwise"]["compiler"]


def test_python311_fails_scan_only(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    run = doctor(*SMOKE, "--python", legacy_python("py311_np123"), "--flags", "blas.ldflags=")
    assert run.code == 1, run.out + run.err
    doc = run.json()
    assert [name for name, ok in passed(doc).items() if not ok] == ["scan"]
    assert "longintrepr.h" in stages_of(doc)["scan"]["compiler"]


def test_numpy124_fails_at_import_with_the_known_cause(
        legacy_python: Callable[[str], str], theano_home: Path) -> None:
    run = doctor(*SMOKE, "--python", legacy_python("numpy124"))
    assert run.code == 1, run.out + run.err
    smoke = run.json()["smoke"]
    assert smoke["verdict"].startswith("Broken: import theano failed")
    assert smoke["diagnosis"]["id"] == "numpy-bool-alias"
    assert all(s["error"] == "not run: import theano failed" for s in smoke["stages"])


def test_check_smoke_uses_a_fresh_cache_and_removes_it(
        legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    """The default (fresh compile dir, every op compiles) once, through `check --smoke`."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    run = doctor("check", "--smoke", "--python", legacy_python("healthy37"), "--format", "json",
                 env={"TMPDIR": str(scratch)})
    doc = run.json()
    assert doc["smoke"]["fresh_cache"] is True
    assert all(s["passed"] for s in doc["smoke"]["stages"])
    assert "base_compiledir=" + str(scratch) in doc["smoke"]["flags"]
    assert not list(scratch.glob("theanodoctor-smoke-*"))
    assert doc["exit_code"] == run.code and "checks" in doc


def test_text_output_has_a_line_per_stage_and_a_verdict(
        legacy_python: Callable[[str], str], theano_home: Path) -> None:
    run = doctor("smoke-test", "--keep-cache", "--size", "64", "--python", legacy_python("healthy37"),
                 env={"NO_COLOR": "1"})
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    for name in STAGES:
        assert any(name in line and "compile" in line for line in lines)
    assert lines[-1].startswith("Verdict: Passed: all 6 stages")
