"""`theanodoctor preflight` end to end against real environments (a healthy one passes, a broken
one fails with the smoke test skipped), its JUnit XML read back with an XML parser, the GitHub
annotations and job summary, and the exit-code rules on hand-built reports and smoke records."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.cli_helpers import doctor
from theanodoctor import engine
from theanodoctor.facts import Facts
from theanodoctor.preflight import Preflight, fatal_reason, profile_check
from theanodoctor.render.github import command, escape_data, escape_property, render_github
from theanodoctor.render.junit import render_junit
from theanodoctor.report import Report
from theanodoctor.smoke.result import judge
from theanodoctor.smoke.runner import STAGES, RunRecord

SNAPSHOTS = Path(__file__).parent / "snapshots"
FAST = ("--device", "cpu", "--keep-cache", "--size", "64", "--repeats", "1")
# ::error title=...::message, with the message and the properties escaped (no raw newline or %).
ANNOTATION = re.compile(r"^::(error|warning|notice)(?: title=(?P<title>[^:,\r\n]*))?::(?P<msg>[^\r\n]*)$")


def suites(path: Path) -> tuple[ET.Element, dict[str, ET.Element]]:
    root = ET.parse(path).getroot()
    return root, {s.get("name", ""): s for s in root.iter("testsuite")}


def case(suite: ET.Element, name: str) -> ET.Element:
    [found] = [c for c in suite.iter("testcase") if c.get("name") == name]
    return found


def assert_counts_add_up(root: ET.Element) -> None:
    assert root.tag == "testsuites"
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root.iter("testsuite"):
        cases = list(suite.iter("testcase"))
        assert int(suite.get("tests", -1)) == len(cases)
        for key, tag in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
            assert int(suite.get(key, -1)) == sum(1 for c in cases if c.find(tag) is not None)
            total[key] += int(suite.get(key, 0))
        total["tests"] += len(cases)
        assert float(suite.get("time", -1)) == pytest.approx(sum(float(c.get("time", -1)) for c in cases), abs=1e-5)
        assert all(float(c.get("time", -1)) >= 0 for c in cases)
    assert {k: int(root.get(k, -1)) for k in total} == total


def test_healthy_env_passes(legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path) -> None:
    junit = tmp_path / "reports" / "preflight.xml"
    junit.parent.mkdir()
    run = doctor("preflight", "--python", legacy_python("healthy37"), *FAST, "--junit", str(junit),
                 "--profile", "cpu-py37")
    assert run.code == 0, run.out + run.err
    assert run.out.rstrip().splitlines()[-1].startswith("Preflight: Passed: checks say CPU only; smoke test passed")
    root, by_name = suites(junit)
    assert_counts_add_up(root)
    assert int(root.get("failures", -1)) == 0 and int(root.get("errors", -1)) == 0
    checks, smoke = by_name["theanodoctor.check"], by_name["theanodoctor.smoke-test"]
    assert [c.get("name") for c in smoke.iter("testcase")] == list(STAGES)
    assert all(float(c.get("time", 0)) > 0 for c in smoke.iter("testcase"))  # compile + run, measured
    assert len(list(checks.iter("testcase"))) == len(engine.all_checks()) + 1  # + profile-match
    assert case(checks, "profile-match").find("failure") is None
    stack = case(checks, "python-stack")
    assert stack.get("classname") == "theanodoctor.check.python" and stack.find("failure") is None
    assert "a verified combination" in (stack.findtext("system-out") or "")
    assert list(tmp_path.joinpath("reports").iterdir()) == [junit]  # no temporary file left behind


def test_broken_env_fails_and_skips_the_smoke_test(legacy_python: Callable[[str], str], theano_home: Path,
                                                   tmp_path: Path) -> None:
    junit = tmp_path / "preflight.xml"
    run = doctor("preflight", "--python", legacy_python("numpy124"), *FAST, "--junit", str(junit),
                 "--format", "json")
    assert run.code == 1, run.err
    doc = run.json()
    assert doc["exit_code"] == 1 and doc["preflight"]["passed"] is False
    assert doc["smoke"] is None and "import theano already fails" in doc["preflight"]["smoke_skipped"]
    assert doc["verdict"] == "Broken: 2 errors"
    root, by_name = suites(junit)
    assert_counts_add_up(root)
    checks = by_name["theanodoctor.check"]
    assert int(checks.get("failures", -1)) == 2
    failure = case(checks, "theano-import").find("failure")
    assert failure is not None
    assert "module 'numpy' has no attribute 'bool'" in failure.get("message", "")
    assert "why: numpy 1.24 removed the aliases `np.bool`" in (failure.text or "")
    assert "fix: Install numpy 1.21.6 in that environment" in (failure.text or "")
    skipped = case(by_name["theanodoctor.smoke-test"], "smoke-test").find("skipped")
    assert skipped is not None and "import theano already fails" in skipped.get("message", "")
    # the JSON is a report `check --from` reads
    saved = tmp_path / "preflight.json"
    saved.write_text(run.out)
    again = doctor("check", "--from", str(saved), "--format", "json")
    assert again.code == 1 and again.json()["verdict"] == "Broken: 2 errors"


def test_in_github_actions(legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)}
    run = doctor("preflight", "--python", legacy_python("numpy124"), *FAST, env=env)
    assert run.code == 1
    annotations = [line for line in run.out.splitlines() if line.startswith("::")]
    assert len(annotations) == 3
    for line in annotations:
        assert ANNOTATION.match(line), line
    titles = [ANNOTATION.match(line).group("title") for line in annotations]  # type: ignore[union-attr]
    assert titles == ["theanodoctor python-stack (error)", "theanodoctor theano-import (error)",
                      "theanodoctor preflight"]
    assert "%0Awhy: numpy 1.24 removed" in annotations[1]
    text = summary.read_text()
    assert text.startswith("earlier step\n## ❌ theanodoctor preflight: failed")  # appended, not replaced
    assert "Skipped: import theano already fails" in text and "`theano-import`" in text
    # with --format json the annotations leave stdout alone
    as_json = doctor("preflight", "--python", legacy_python("numpy124"), *FAST, "--format", "json", env=env)
    assert as_json.json()["exit_code"] == 1
    assert sum(1 for line in as_json.err.splitlines() if ANNOTATION.match(line)) == 3


def test_format_github_and_junit_on_stdout(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    run = doctor("preflight", "--python", legacy_python("notheano38"), *FAST, "--format", "github")
    assert run.code == 1
    lines = run.out.splitlines()
    assert lines and all(ANNOTATION.match(line) for line in lines)
    assert "Theano is not installed in the target" in lines[-1]
    xml = doctor("preflight", "--python", legacy_python("notheano38"), *FAST, "--format", "junit")
    assert xml.code == 1
    root = ET.fromstring(xml.out)
    assert_counts_add_up(root)
    assert int(root.get("failures", -1)) >= 1


def test_redact_every_output(legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path) -> None:
    junit = tmp_path / "j.xml"
    run = doctor("preflight", "--python", legacy_python("healthy37"), *FAST, "--format", "json", "--redact",
                 "--junit", str(junit))
    assert run.code == 0, run.err
    doc = run.json()
    assert doc["facts"]["system"]["hostname"] == "<redacted>"
    assert doc["facts"]["compiledir"]["path"].startswith("~/.theano/compiledir_")
    assert doc["smoke"]["exit_code"] == 0
    for text in (run.out, junit.read_text()):
        assert str(theano_home) not in text
    assert "~/.theano/compiledir_" in junit.read_text()


def test_usage_errors_exit_2_before_probing(tmp_path: Path) -> None:
    run = doctor("preflight", "--python", str(tmp_path / "nope"), "--junit", str(tmp_path / "x.xml"))
    assert run.code == 2
    run = doctor("preflight", "--junit", str(tmp_path / "missing" / "x.xml"), "--format", "json")
    assert run.code == 2 and run.json()["error"]["kind"] == "usage" and "--junit" in run.json()["error"]["message"]
    run = doctor("preflight", "--device", "gpu")
    assert run.code == 2 and "cpu, cuda, cudaN" in run.err
    run = doctor("preflight", "--profile", "no-such-stack", "--format", "json")
    assert run.code == 2 and "cpu-py37" in run.json()["error"]["message"]  # the known names, listed
    helped = doctor("preflight", "--help")
    assert helped.code == 0 and "3  the doctor, the target probe or the smoke script" in helped.out


# --------------------------------------------------------------------------- judged by hand


def report(name: str, require_gpu: bool = False) -> Report:
    facts = Facts.load(str(SNAPSHOTS / f"{name}.json"))
    options = engine.Options(require_gpu=require_gpu)
    return Report(facts, tuple(engine.run_checks(facts, engine.all_checks(), options)), options)


def smoke(records: dict[str, Any], device: str = "cuda", problem: str | None = None) -> Any:
    return judge(RunRecord("/envs/theano/bin/python", records, "device=" + device, True, 12.5, 0, problem), device)


def gpu_stage(**extra: Any) -> dict[str, Any]:
    return {"ok": True, "on_gpu": True, "compile_s": 0.5, "run_s": 0.01, "first_run_s": 0.02, **extra}


IMPORTED = {"ok": True, "python": "3.7.16", "numpy": "1.16.6", "theano": "1.0.5", "device": "cuda"}


def test_profile_check_names_every_pin_that_differs() -> None:
    facts = Facts.load(str(SNAPSHOTS / "linux_gtx1080ti_cuda102_ready.json"))
    [result] = engine.run_checks(facts, [profile_check("win10-cuda10.2-py37")])
    assert result.status == "error" and result.id == "profile-match"
    assert result.outcome.message.endswith("pins of the stack win10-cuda10.2-py37 differ: os, cudnn")
    assert "theanodoctor provision --profile win10-cuda10.2-py37" in result.outcome.remedy
    [linux] = engine.run_checks(facts, [profile_check("linux-cuda10.2-py37")])  # same stack but no cuDNN found
    assert [m["name"] for m in linux.outcome.data["mismatches"]] == ["cudnn"]
    assert linux.outcome.details == ("cuDNN not found where Theano looks; the stack pins 7.6.5",)


def test_exit_codes_combine() -> None:
    ready = report("linux_gtx1080ti_cuda102_ready")  # two warnings: preflight is strict
    assert ready.exit_code() == 0 and ready.exit_code(strict=True) == 1
    passed = smoke({"import": IMPORTED, **{s: gpu_stage() for s in STAGES}})
    assert passed.exit_code == 0
    assert Preflight(ready, passed, None).exit_code == 1
    assert "preflight fails on warnings" in Preflight(ready, passed, None).verdict
    fallback = smoke({"import": IMPORTED, **{s: {**gpu_stage(), "on_gpu": False} for s in STAGES}})
    assert fallback.exit_code == 1 and Preflight(ready, fallback, None).exit_code == 1
    not_run = smoke({}, problem="the interpreter could not be started")
    assert Preflight(ready, not_run, None).exit_code == 3
    broken = report("linux_driver_too_old_cuda102")
    assert Preflight(broken, None, "import theano already fails").exit_code == 1


def test_junit_of_a_gpu_run_with_a_timeout_and_a_compiler_error(tmp_path: Path) -> None:
    records = {"import": IMPORTED, "matmul": gpu_stage(), "conv": gpu_stage(),
               "elemwise": {"ok": False, "on_gpu": True, "compile_s": 1.5,
                            "error": {"type": "Exception", "message": "Compilation failed (return status=1): "
                                      "mod.cpp:12: error: 'PyArray_Descr' has no member named 'elsize'. "
                                      "compilation terminated."}},
               "softmax_xent": {"ok": False, "error": {"type": "Timeout", "message": "no result within 5 s; killed"}}}
    result = smoke(records)
    ready = report("linux_gtx1080ti_cuda102_ready")
    path = tmp_path / "j.xml"
    path.write_text(render_junit(ready, result))
    root, by_name = suites(path)
    assert_counts_add_up(root)
    stages = by_name["theanodoctor.smoke-test"]
    assert [int(stages.get(k, -1)) for k in ("tests", "failures", "errors", "skipped")] == [6, 1, 1, 2]
    assert float(case(stages, "matmul").get("time", 0)) == pytest.approx(0.53)
    failure = case(stages, "elemwise").find("failure")
    assert failure is not None and "has no member named 'elsize'" in failure.get("message", "")
    error = case(stages, "softmax_xent").find("error")
    assert error is not None and error.get("message", "").startswith("Timeout: no result within 5 s")
    assert case(stages, "scan").find("skipped") is not None  # the run stopped before it
    warned = case(by_name["theanodoctor.check"], "cudnn-present").find("failure")
    assert warned is not None and warned.get("message", "").startswith("warn: no cuDNN found")


def test_junit_survives_characters_xml_cannot_carry() -> None:
    records = {"import": IMPORTED, **{s: gpu_stage() for s in STAGES}}
    records["conv"] = {"ok": False, "error": {"type": "RuntimeError", "message": "\x1b[31mboom\x00 & <done>"}}
    root = ET.fromstring(render_junit(report("linux_gtx1080ti_cuda102_ready"), smoke(records)))
    [failure] = [c.find("failure") for c in root.iter("testcase") if c.get("name") == "conv"]
    assert failure is not None and "?[31mboom? & <done>" in failure.get("message", "")


def test_github_escaping() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert command("warning", "x: y, z", "t:1,2") == "::warning title=t%3A1%2C2::x: y, z"
    text = render_github(report("windows_cuda102_nvrtc_missing"), None, "Failed: x", False)
    lines = text.splitlines()
    assert all(ANNOTATION.match(line) for line in lines)
    levels = [ANNOTATION.match(line).group(1) for line in lines]  # type: ignore[union-attr]
    assert levels == ["error", "warning", "error", "error"]  # two errors, one warning, the verdict
    assert "title=theanodoctor cuda10-dll-aliases (warn)::" in lines[1]
    assert "::error title=theanodoctor preflight::Failed: x" == lines[-1]


def test_fatal_reasons() -> None:
    data = json.loads((SNAPSHOTS / "linux_gtx1080ti_cuda102_ready.json").read_text())
    assert fatal_reason(Facts.from_dict(data), "/envs/bin/python") is None
    assert fatal_reason(Facts.from_dict(data), None) == "no Python environment with Theano was found"
    data["target"]["status"] = "timeout"
    data["target"]["error"] = "no answer within 120 s"
    assert "did not finish (no answer within 120 s)" in str(fatal_reason(Facts.from_dict(data), "p"))


def test_device_and_flags_reach_the_checks(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    """--device/--flags are what the smoke test runs with, and the checks judge the same config:
    the probe runs with those THEANO_FLAGS, so the target's Theano reports them."""
    run = doctor("preflight", "--python", legacy_python("healthy37"), "--device", "cuda", "--flags", "floatX=float32",
                 "--keep-cache", "--size", "64", "--repeats", "1", "--format", "json")
    assert run.code == 1, run.err
    doc = run.json()
    device = next(c for c in doc["checks"] if c["id"] == "theano-device")
    assert device["status"] == "error" and "device=cuda (from THEANO_FLAGS)" in device["message"]
    values = doc["facts"]["target"]["stages"]["theano_config"]["values"]
    assert values["floatX"]["value"] == "float32" and values["floatX"]["source"] == "THEANO_FLAGS"
    assert doc["smoke"]["exit_code"] == 1  # the smoke test ran on the CPU while asked for cuda
    text = doctor("preflight", "--python", legacy_python("healthy37"), "--device", "cpu", "--keep-cache",
                  "--size", "64", "--repeats", "1")
    assert text.code == 0 and "checks and smoke test run with THEANO_FLAGS=device=cpu" in text.err
