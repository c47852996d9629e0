"""The real `explain` CLI over every real log in tests/explain_corpus (posted by users, with
sources and labels in cases.yaml) and over its held-out set (tests/explain_corpus/heldout: logs
from other threads, labelled before `explain` ever saw them): the labelled cause must come first;
a log labelled `none` must give exit 1; a low-confidence label allows "nothing recognised" but
no other cause.

Known misses (`known_miss: reason` on a case in its cases.yaml) are strict xfails, so an
improvement shows up."""

from __future__ import annotations

import pytest

from tests.cli_helpers import doctor
from tests.explain_sets import all_cases


def _params() -> list:
    params = []
    for case in all_cases():
        reason = case.label.get("known_miss")
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        params.append(pytest.param(case.log, case.label, id=f"{case.set}-{case.stem}", marks=marks))
    return params


@pytest.mark.parametrize(("log", "case"), _params())
def test_corpus_log(log, case):
    run = doctor("explain", str(log), "--format", "json")
    doc = run.json()["explain"]
    named = [f["cause"] for f in doc["findings"] if f["confidence"] != "low"]
    expected = case["suggested_cause_id"]
    if expected == "none":
        assert run.code == 1 and not named
    elif case["confidence_of_label"] == "low":
        assert named[:1] in ([], [expected])
    else:
        assert run.code == 0 and named[0] == expected
