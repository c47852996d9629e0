"""The command line itself: version, help, usage errors, --from, JSON on every path."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import doctor
from theanodoctor import __version__


def test_version_and_help():
    run = doctor("--version")
    assert run.code == 0 and __version__ in run.out
    run = doctor("--help")
    assert run.code == 0
    for word in ("check", "envs", "report", "Exit codes"):
        assert word in run.out
    run = doctor("check", "--help")
    assert run.code == 0 and "--require-gpu" in run.out and "3  the doctor or a probe failed" in run.out


def test_check_list_groups_by_area():
    run = doctor("check", "--list")
    assert run.code == 0
    assert "target-probe" in run.out and "gpu-path" in run.out
    doc = doctor("check", "--list", "--format", "json").json()
    assert doc["schema_version"] == 1
    assert {"id", "title", "area"} <= set(doc["checks"][0])


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_unknown_check_id_is_a_usage_error(fmt):
    run = doctor("check", "--list", "--only", "no-such-check", "--format", fmt)
    assert run.code == 2
    assert "no-such-check" in run.err
    assert "Traceback" not in run.err
    if fmt == "json":
        assert run.json()["error"]["kind"] == "usage"


def test_bad_option_with_json_still_prints_json():
    run = doctor("check", "--format", "json", "--bogus")
    assert run.code == 2
    assert run.json()["exit_code"] == 2


def test_from_file_that_is_not_json(tmp_path):
    bad = tmp_path / "snap.json"
    bad.write_text("this is not json")
    run = doctor("check", "--from", str(bad), "--format", "json")
    assert run.code == 2
    doc = run.json()
    assert doc["schema_version"] == 1 and "not a JSON snapshot" in doc["error"]["message"]
    run = doctor("check", "--from", str(bad))
    assert run.code == 2 and "not a JSON snapshot" in run.err and run.out == ""


def test_from_file_with_another_schema_version(tmp_path):
    snap = tmp_path / "snap.json"
    snap.write_text(json.dumps({"schema_version": 99}))
    run = doctor("check", "--from", str(snap))
    assert run.code == 2
    assert "schema_version 99" in run.err and "Traceback" not in run.err


def test_from_missing_file(tmp_path):
    run = doctor("check", "--from", str(tmp_path / "nope.json"), "--format", "json")
    assert run.code == 2 and "cannot read" in run.json()["error"]["message"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_python_path_that_does_not_exist(tmp_path, fmt):
    run = doctor("check", "--python", str(tmp_path / "nowhere" / "python"), "--format", fmt)
    assert run.code == 2
    assert "Traceback" not in run.err
    if fmt == "json":
        assert run.json()["exit_code"] == 2


def test_python_and_from_exclude_each_other(tmp_path):
    run = doctor("check", "--python", "x", "--from", "y")
    assert run.code == 2 and "exclude" in run.err
