"""JUnit XML for CI test reports: one testcase per check and per smoke stage.

The shape the common parsers accept (Jenkins, GitLab, GitHub test-report actions): a
<testsuites> root with <testsuite> children, each carrying tests/failures/errors/skipped/time;
a check that warns or errors is a <failure> (preflight is strict), a check that crashed or timed
out is an <error>, a check or stage that did not apply or run is <skipped>.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any, NamedTuple

from theanodoctor.engine import Result
from theanodoctor.report import Report

SUITE_CHECKS = "theanodoctor.check"
SUITE_SMOKE = "theanodoctor.smoke-test"
# XML 1.0 cannot carry these at all (a compiler's ANSI colours, a NUL from a crashed target).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class Case(NamedTuple):
    classname: str
    name: str
    time_s: float
    outcome: str  # passed, failure, error, skipped
    message: str = ""
    text: str = ""  # the body: cause, remedy, commands, details


def _lines(*parts: str | None) -> str:
    return "\n".join(p for p in parts if p)


def _xml(text: str) -> str:
    return _NOT_XML.sub("?", text)


def check_case(result: Result, strict: bool = True) -> Case:
    out = result.outcome
    kind = {"ok": "passed", "skipped": "skipped", "error": "failure", "crash": "error", "timeout": "error",
            "warn": "failure" if strict else "passed"}[result.status]
    body = _lines(out.message if kind == "passed" else f"status: {result.status}",
                  f"why: {out.cause}" if out.cause and kind != "passed" else None,
                  f"fix: {out.remedy}" if out.remedy and kind != "passed" else None,
                  *(f"$ {c}" for c in out.commands), *out.details)
    return Case(f"{SUITE_CHECKS}.{result.area}", result.id, result.duration_s, kind,
                f"{result.status}: {out.message}", body)


def _stage_time(stage: Any) -> float:
    return sum(v for v in (stage.compile_s, stage.first_run_s, stage.run_s) if isinstance(v, (int, float)))


def smoke_case(stage: Any, smoke: Any) -> Case:
    timing = (f"compile {stage.compile_s} s, first run {stage.first_run_s} s, median run {stage.run_s} s"
              if stage.compile_s is not None else None)
    if stage.passed:
        return Case(SUITE_SMOKE, stage.name, _stage_time(stage), "passed", "",
                    _lines(timing, f"ran on: {stage.ran_on}" if stage.ran_on else None))
    error = stage.error or "failed"
    kind = ("skipped" if error.startswith("not run") else
            "error" if error.startswith(("Timeout", "Crash")) else "failure")
    diagnosis = smoke.diagnosis or {}
    body = _lines(f"device: {smoke.device}", timing, f"compiler: {stage.compiler}" if stage.compiler else None,
                  f"why: {diagnosis['cause']}" if diagnosis.get("cause") else None,
                  f"fix: {diagnosis['remedy']}" if diagnosis.get("remedy") else None)
    return Case(SUITE_SMOKE, stage.name, _stage_time(stage), kind, error, body)


def _suite(root: ET.Element, name: str, cases: list[Case]) -> None:
    counts = {k: sum(1 for c in cases if c.outcome == k) for k in ("failure", "error", "skipped")}
    suite = ET.SubElement(root, "testsuite", name=name, tests=str(len(cases)), failures=str(counts["failure"]),
                          errors=str(counts["error"]), skipped=str(counts["skipped"]),
                          time=f"{sum(c.time_s for c in cases):.6f}")
    for case in cases:
        element = ET.SubElement(suite, "testcase", classname=case.classname, name=case.name,
                                time=f"{case.time_s:.6f}")
        if case.outcome != "passed":
            child = ET.SubElement(element, case.outcome, message=_xml(case.message))
            if case.outcome != "skipped":
                child.set("type", case.outcome)
            child.text = _xml(case.text) or None
        elif case.text:
            ET.SubElement(element, "system-out").text = _xml(case.text)


def render_junit(report: Report, smoke: Any | None = None, smoke_skipped: str | None = None,
                 strict: bool = True) -> str:
    suites: list[tuple[str, list[Case]]] = [(SUITE_CHECKS, [check_case(r, strict) for r in report.results])]
    if smoke is not None:
        suites.append((SUITE_SMOKE, [smoke_case(s, smoke) for s in smoke.stages]))
    elif smoke_skipped:
        suites.append((SUITE_SMOKE, [Case(SUITE_SMOKE, "smoke-test", 0.0, "skipped", smoke_skipped)]))
    root = ET.Element("testsuites", name="theanodoctor")
    for name, cases in suites:
        _suite(root, name, cases)
    every = [c for _, cases in suites for c in cases]
    root.set("tests", str(len(every)))
    for key in ("failure", "error", "skipped"):
        root.set(key + ("s" if key != "skipped" else ""), str(sum(1 for c in every if c.outcome == key)))
    root.set("time", f"{sum(c.time_s for c in every):.6f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
