"""Checks judged on hand-built snapshots (Windows and GPU machines this Linux box is not) and on
small variations of them, one branch at a time."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from theanodoctor import engine
from theanodoctor.engine import Options
from theanodoctor.facts import Facts
from theanodoctor.report import Report

SNAPSHOTS = Path(__file__).parent / "snapshots"


def snapshot(name: str) -> dict[str, Any]:
    return json.loads((SNAPSHOTS / f"{name}.json").read_text())


def judge(data: dict[str, Any], require_gpu: bool = False) -> Report:
    facts = Facts.from_dict(data)
    options = Options(require_gpu=require_gpu)
    return Report(facts, tuple(engine.run_checks(facts, engine.all_checks(), options)), options)


def result(report: Report, check_id: str) -> engine.Result:
    return next(r for r in report.results if r.id == check_id)


@pytest.mark.parametrize(
    "name, verdict, failing",
    [
        ("windows_cuda102_nvrtc_missing", "Broken: 2 errors", {"theano-device", "gpuarray-dll-names"}),
        ("windows_cuda102_ready", "Ready for GPU", set()),
        ("linux_rtx3090_pygpu_missing", "Broken: 1 error", {"theano-device"}),
        # warnings: no cuDNN (conv runs without it), g++ 11 is too new for CUDA 10.2's nvcc
        ("linux_gtx1080ti_cuda102_ready", "Ready for GPU (2 warnings)", set()),
    ],
)
def test_snapshots_get_their_verdict(name, verdict, failing):
    report = judge(snapshot(name))
    assert report.verdict == verdict
    assert {r.id for r in report.results if r.status == "error"} == failing
    assert not [r for r in report.results if r.status == "crash"]


def test_windows_nvrtc_failure_names_the_dll_trap():
    outcome = result(judge(snapshot("windows_cuda102_nvrtc_missing")), "theano-device").outcome
    assert "could not initialize the GPU" in outcome.message
    assert "nvrtc64_10X_0.dll" in outcome.cause
    assert any("nvrtc-dll-name" in d for d in outcome.details)
    assert "silently runs everything on the CPU" in outcome.message


def test_silent_cpu_fallback_when_pygpu_is_missing():
    outcome = result(judge(snapshot("linux_rtx3090_pygpu_missing")), "theano-device").outcome
    assert "pygpu is not installed" in outcome.message and "THEANO_FLAGS" in outcome.message
    assert "not on PyPI" in outcome.remedy


def test_require_gpu_turns_cpu_only_into_an_error():
    data = snapshot("linux_rtx3090_pygpu_missing")
    assert result(judge(data), "gpu-path").status == "ok"
    assert result(judge(data, require_gpu=True), "gpu-path").status == "error"
    ready = judge(snapshot("linux_gtx1080ti_cuda102_ready"), require_gpu=True)
    assert ready.verdict.startswith("Ready for GPU") and ready.exit_code() == 0


def _with(data: dict[str, Any], path: tuple, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def _stages(*path: str) -> tuple:
    return ("target", "stages", *path)


@pytest.mark.parametrize(
    "python, numpy, flag_source, status, needle",
    [
        ("3.7.16", "1.16.6", None, "ok", "verified combination"),
        ("3.8.18", "1.18.5", None, "ok", "not a verified combination"),
        ("3.9.18", "1.24.4", None, "error", "has no attribute 'bool'"),
        ("3.9.18", "1.23.5", None, "error", "blas_opt_info"),
        ("3.9.18", "1.23.5", "THEANO_FLAGS", "ok", "no known problem"),
        ("3.11.7", "1.21.6", None, "warn", "longintrepr.h"),
        ("3.11.7", "2.0.2", None, "error", "elsize"),
        ("3.12.1", "1.26.4", None, "error", "SafeConfigParser"),
    ],
)
def test_python_stack_rules(python, numpy, flag_source, status, needle):
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data = _with(data, _stages("interpreter", "version"), python)
    data = _with(data, _stages("distributions", "versions", "numpy"), numpy)
    values = data["target"]["stages"]["theano_config"]["values"]
    if flag_source:
        values["blas.ldflags"] = {"value": "", "source": flag_source}
    outcome = result(judge(data), "python-stack").outcome
    assert outcome.status == status
    assert needle in outcome.message + outcome.cause


def test_pymc_needs_the_dunder_flag_when_import_failed():
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    stages = data["target"]["stages"]
    stages["distributions"]["versions"].update({"Theano": None, "Theano-PyMC": "1.1.2", "numpy": "1.23.5"})
    stages["distributions"]["theano_owner"] = "Theano-PyMC"
    stages["interpreter"]["version"] = "3.9.18"
    stages["theano_import"] = {"ok": False, "error": {"type": "AttributeError", "message": "blas_opt_info"}}
    del stages["theano_config"]
    data["env"]["vars"]["THEANO_FLAGS"] = "blas.ldflags="
    assert result(judge(data), "python-stack").status == "error"  # dotted name does not help PyMC
    data["env"]["vars"]["THEANO_FLAGS"] = "floatX=float32,blas__ldflags="
    assert result(judge(data), "python-stack").status == "ok"


def test_blas_flag_in_a_config_file_counts_when_import_failed():
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    stages = data["target"]["stages"]
    stages["distributions"]["versions"]["numpy"] = "1.22.4"
    stages["theano_import"] = {"ok": False, "error": {"type": "AttributeError", "message": "blas_opt_info"}}
    del stages["theano_config"]
    assert result(judge(data), "python-stack").status == "error"
    data["theanorc"]["files"][0]["parse"]["sections"]["blas"] = {"ldflags": ""}
    assert result(judge(data), "python-stack").status == "ok"


@pytest.mark.parametrize(
    "message, known",
    [
        ("module 'numpy' has no attribute 'bool'.", "numpy-bool-alias"),
        ("File contains no section headers.\nfile: '/home/bob/.theanorc', line: 1\n'\\ufeff[global]\\n'",
         "theanorc-bom"),
        ("something new", None),
    ],
)
def test_theano_import_failure_is_diagnosed(message, known):
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data = _with(data, _stages("theano_import"), {"ok": False, "error": {
        "type": "AttributeError", "message": message,
        "frames": [{"file": "theano/scalar/basic.py", "line": 2323, "function": "__init__"}]}})
    outcome = result(judge(data), "theano-import").outcome
    assert outcome.status == "error"
    assert message.splitlines()[0] in outcome.message
    if known:
        assert any(known in d for d in outcome.details)
    else:
        assert "not a failure this doctor knows" in outcome.cause and "theanodoctor report" in outcome.remedy
    assert any("basic.py:2323" in d for d in outcome.details)


@pytest.mark.parametrize("device, status, needle", [
    ("gpu", "error", "old GPU back-end"),
    ("gpu1", "error", "device=cuda1"),
    ("opencl", "error", "opencl0:0"),
    ("cpu", "ok", "device=cpu"),
    ("cuda1", "ok", "device=cuda1"),
])
def test_device_values(device, status, needle):
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data = _with(data, _stages("theano_config", "values", "device"), {"value": device, "source": "THEANO_FLAGS"})
    outcome = result(judge(data), "theano-device").outcome
    assert outcome.status == status
    assert needle in outcome.message + outcome.remedy


def test_device_from_config_file_when_import_failed():
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data = _with(data, _stages("theano_import"), {"ok": False, "error": {"type": "ValueError", "message": "x"}})
    del data["target"]["stages"]["theano_config"]
    data["theanorc"]["files"][0]["parse"]["sections"]["global"]["device"] = "gpu0"
    outcome = result(judge(data), "theano-device").outcome
    assert outcome.status == "error" and "/home/bob/.theanorc" in outcome.message


@pytest.mark.parametrize("status, device, opened, expected", [
    ("missing", "cpu", False, "ok"),
    ("missing", "cuda", False, "error"),
    # NVML and nvidia-smi silent, but libgpuarray opened the GPU through the driver (tests/test_gpu_real.py).
    ("missing", "cuda", True, "warn"),
    ("missing", "opencl0:0", False, "ok"),
    ("timeout", "cpu", False, "timeout"),
    ("error", "cpu", False, "error"),
])
def test_driver_states(status, device, opened, expected):
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["nvidia"] = {"status": status, "error": "no NVIDIA driver found (test)", "gpus": []}
    data = _with(data, _stages("theano_config", "values", "device"), {"value": device, "source": "THEANO_FLAGS"})
    data = _with(data, _stages("pygpu", "pygpu_activated"), opened)
    assert result(judge(data), "nvidia-driver").status == expected


def test_compiler_states():
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    values = data["target"]["stages"]["theano_config"]["values"]
    values["cxx"] = {"value": "", "source": "default"}
    outcome = result(judge(data), "cxx-compiler").outcome
    assert outcome.status == "error" and "g++ not detected" in outcome.cause and "apt install g++" in outcome.remedy
    values["cxx"] = {"value": "", "source": "THEANO_FLAGS"}
    assert result(judge(data), "cxx-compiler").status == "warn"
    win = snapshot("windows_cuda102_ready")
    win["target"]["stages"]["theano_config"]["values"]["cxx"] = {"value": "", "source": "default"}
    assert "m2w64-toolchain" in result(judge(win), "cxx-compiler").outcome.remedy
    # without Theano's own answer the host probe decides
    del win["target"]["stages"]["theano_import"]
    win["compilers"]["cxx"] = []
    assert result(judge(win), "cxx-compiler").status == "error"


@pytest.mark.parametrize("status, expected", [
    ("timeout", "timeout"), ("crash", "crash"), ("error", "crash"), ("not-found", "crash"), ("skipped", "error"),
])
def test_target_probe_failures(status, expected):
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["target"] = {"status": status, "error": "it went wrong", "stages": {}}
    report = judge(data)
    assert result(report, "target-probe").status == expected
    # checks that need the target say skipped, never ok
    for cid in ("python-stack", "theano-import", "theano-device"):
        assert result(report, cid).status == "skipped", cid


def test_missing_sections_make_checks_skip_not_crash():
    report = judge({"schema_version": 1})
    assert not [r.id for r in report.results if r.status == "crash"]
    assert result(report, "nvidia-driver").status == "skipped"


@pytest.mark.parametrize("python, needle", [("3.13.0", "SafeConfigParser"), ("3.8.18", "pip install Theano==1.0.5")])
def test_no_theano_installed_says_whether_it_can_be(python, needle):
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    stages = data["target"]["stages"]
    stages["interpreter"]["version"] = python
    stages["distributions"]["versions"].update({"Theano": None, "Theano-PyMC": None})
    stages["distributions"]["theano_owner"] = None
    outcome = result(judge(data), "python-stack").outcome
    assert outcome.status == "error"
    assert needle in outcome.cause + outcome.remedy
