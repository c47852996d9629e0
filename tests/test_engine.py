"""The check engine: registration rules, selection, crash isolation, verdicts and exit codes."""

from __future__ import annotations

import pytest

from theanodoctor import engine
from theanodoctor.engine import Check, Outcome, Result, error, ok, run_checks, select, warn
from theanodoctor.facts import Facts
from theanodoctor.report import Report


def _check(cid: str, func, area: str = "test") -> Check:
    return Check(cid, f"title of {cid}", area, func)


def test_catalogue_ids_are_unique_kebab_case_and_ordered():
    checks = engine.all_checks()
    ids = [c.id for c in checks]
    assert len(ids) == len(set(ids))
    assert ids[0] == "target-probe"  # order of checks/__init__.py is the report order
    for cid in ids:
        assert engine._ID.match(cid), cid


def test_register_rejects_bad_and_duplicate_ids():
    with pytest.raises(ValueError, match="kebab-case"):
        engine.check("Bad_Id", "t", "a")(lambda f, o: ok("x"))
    with pytest.raises(ValueError, match="twice"):
        engine.check("target-probe", "t", "a")(lambda f, o: ok("x"))


def test_select_only_and_skip_and_unknown_ids():
    checks = [_check("a-one", lambda f, o: ok("")), _check("b-two", lambda f, o: ok(""))]
    assert [c.id for c in select(checks, only=["b-two"])] == ["b-two"]
    assert [c.id for c in select(checks, skip=["a-one"])] == ["b-two"]
    with pytest.raises(engine.UnknownCheck, match="no-such"):
        select(checks, only=["no-such"])


def test_a_raising_check_becomes_crash_and_the_others_still_run():
    def boom(facts, options):
        raise KeyError("gpus")

    results = run_checks(Facts(), [_check("boom", boom), _check("fine", lambda f, o: warn("w"))])
    assert [r.status for r in results] == ["crash", "warn"]
    assert "KeyError" in results[0].outcome.message
    assert results[0].outcome.details and "boom" in results[0].outcome.details[0]


def test_a_check_returning_garbage_is_a_crash():
    results = run_checks(Facts(), [_check("bad", lambda f, o: "ok")])
    assert results[0].status == "crash"


def test_unknown_status_is_refused():
    with pytest.raises(ValueError):
        Outcome("fine", "x")


def _report(*statuses: str, gpu_ready: bool = False) -> Report:
    results = []
    for i, status in enumerate(statuses):
        results.append(Result(f"c{i}", "t", "a", Outcome(status, "m"), 0.0))
    results.append(Result("gpu-path", "t", "gpu", ok("x", data={"gpu_ready": gpu_ready}), 0.0))
    return Report(Facts(), tuple(results))


@pytest.mark.parametrize(
    "statuses, gpu, strict, verdict, code",
    [
        (("ok", "ok"), True, False, "Ready for GPU", 0),
        (("ok", "skipped"), False, False, "CPU only", 0),
        (("ok", "warn"), False, False, "CPU only (1 warning)", 0),
        (("warn", "warn"), True, True, "Ready for GPU (2 warnings)", 1),
        (("error", "error", "warn"), True, False, "Broken: 2 errors", 1),
        (("error", "timeout"), False, False, "Broken: 1 error", 1),
        (("ok", "timeout"), False, False, "Incomplete: 1 check could not finish", 3),
        (("crash",), False, True, "Incomplete: 1 check could not finish", 3),
    ],
)
def test_verdict_and_exit_code(statuses, gpu, strict, verdict, code):
    report = _report(*statuses, gpu_ready=gpu)
    assert report.verdict == verdict
    assert report.exit_code(strict) == code
    doc = report.to_dict(strict)
    assert doc["verdict"] == verdict and doc["exit_code"] == code and doc["schema_version"] == 1


def test_outcome_helpers_set_status():
    assert error("x").status == "error" and warn("x").status == "warn" and ok("x").status == "ok"
