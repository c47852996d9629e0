"""What `fix` says is what happened: a plan that leaves a blocking error says so and exits 1, a
dry run says nothing was applied, a redacted snapshot is planned from as far as it goes. Real
Theano 1.0.5 (healthy37) and real files."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.cli_helpers import doctor
from tests.fix_helpers import fix

# An unterminated section header: configparser (so `import theano`) refuses the file; no repair
# of `fix` can guess what was meant. The inline comment is repairable.
BROKEN = b"[global]\nfloatX = float32\n[global\ndevice = cpu # later gpu\n"


def test_a_run_that_leaves_a_blocking_error_says_so_and_exits_1(
        tmp_path: Path, legacy_python: Callable[[str], str]) -> None:
    rc = tmp_path / "theanorc"
    rc.write_bytes(BROKEN)
    env = {"THEANORC": str(rc)}
    python = legacy_python("healthy37")
    run = fix(tmp_path / "state", "--python", python, "--yes", env=env)
    assert run.code == 1, run.out + run.err
    assert "Still broken: 2 blocking errors remain after this run" in run.out
    assert "theanorc-parse: " in run.out and "no repair of `fix` covers it: do what the arrow says" in run.out
    doc = fix(tmp_path / "state", "--python", python, "--yes", "--format", "json", env=env).json()
    assert doc["exit_code"] == 1 and doc["mode"] == "nothing-to-apply"  # the second run has nothing left to do
    assert {b["id"] for b in doc["still_blocking"]} == {"theano-import", "theanorc-parse"}


def test_nothing_to_apply_is_not_all_fine(tmp_path: Path, legacy_python: Callable[[str], str]) -> None:
    rc = tmp_path / "theanorc"
    rc.write_bytes(b"[global\nfloatX = float32\n")
    run = fix(tmp_path / "state", "--python", legacy_python("healthy37"), "--yes", env={"THEANORC": str(rc)})
    assert run.code == 1, run.out + run.err
    assert "Nothing to fix" in run.out and "This plan leaves 2 blocking errors" in run.out
    assert rc.read_bytes() == b"[global\nfloatX = float32\n"


def test_a_dry_run_says_nothing_was_applied(tmp_path: Path, legacy_python: Callable[[str], str]) -> None:
    rc = tmp_path / "theanorc"
    rc.write_bytes(b"[global]\nfloatX = float32 # fast\n")
    run = fix(tmp_path / "state", "--python", legacy_python("healthy37"), "--dry-run", env={"THEANORC": str(rc)})
    assert run.code == 0, run.out + run.err
    assert "dry run: nothing was applied, nothing was written" in run.err
    assert rc.read_bytes() == b"[global]\nfloatX = float32 # fast\n"
    assert not (tmp_path / "state").exists()


def test_a_redacted_report_is_planned_from_as_far_as_it_goes(
        tmp_path: Path, legacy_python: Callable[[str], str], guard_home: Path) -> None:
    """`report` redacts the home folder to ~ by default: on the machine it was made on (the file
    there has the recorded content) the edit is planned on the real file; elsewhere the plan says
    that it needs that machine, and the error it leaves."""
    rc = guard_home / ".theanorc"
    rc.write_bytes(b"[global]\ndevice = gpu\n")
    report = doctor("report", "--python", legacy_python("healthy37"), "--format", "json")
    assert report.code == 0 and '"~/.theanorc"' in report.out
    snap = tmp_path / "report.json"
    snap.write_text(report.out)
    here = fix(tmp_path / "state", "--from", str(snap), "--dry-run", "--format", "json").json()
    assert [(a["path"], a["fix_ids"]) for a in here["plan"]] == [(str(rc), ["theanorc-device"])]
    assert any("is " + str(rc) + " here: same content" in n["message"] for n in here["notes"])
    elsewhere = guard_home.parent / "elsewhere"
    elsewhere.mkdir()
    away = fix(tmp_path / "state", "--from", str(snap), "--dry-run", "--format", "json", env={"HOME": str(elsewhere)})
    doc = away.json()
    assert away.code == 1 and doc["plan"] == []
    assert any(n["message"].startswith("needs the machine: ~/.theanorc is redacted") for n in doc["notes"])
    assert "theano-device" in {b["id"] for b in doc["still_blocking"]}


def test_device_and_enum_case_are_repaired_together_and_the_cpu_fallback_is_said(
        tmp_path: Path, legacy_python: Callable[[str], str], guard_home: Path) -> None:
    """device=gpu -> cuda alone left `dnn.enabled = false`, which Theano refuses too: both are
    repaired, real Theano imports the result, and fix says Theano now runs on the CPU unasked."""
    rc = guard_home / ".theanorc"
    original = b"[global]\ndevice = gpu\nfloatX = float32\n\n[dnn]\nenabled = false\n"
    rc.write_bytes(original)
    python = legacy_python("healthy37")
    run = fix(tmp_path / "state", "--python", python, "--yes", "--format", "json")
    doc = run.json()
    assert rc.read_bytes() == b"[global]\ndevice = cuda\nfloatX = float32\n\n[dnn]\nenabled = False\n"
    assert {f for s in doc["steps"] for f in s["fix_ids"]} == {"theanorc-device", "theanorc-enum-case"}
    after = {r["id"]: r["after"] for r in doc["before_after"]}
    assert after["theano-import"] == "ok" and after["theanorc-values"] == "ok"
    left = {b["id"]: b["message"] for b in doc["still_blocking"]}
    assert run.code == 1 and "silently runs everything on the CPU" in left["theano-device"]
    env = {**os.environ, "THEANORC": str(rc), "HOME": str(guard_home)}
    env.pop("THEANO_FLAGS", None)
    read = subprocess.run([python, "-c", "import theano; print(theano.config.dnn.enabled)"],
                          capture_output=True, text=True, timeout=600, env=env)
    assert read.returncode == 0 and read.stdout.split()[-1] == "False", read.stderr[-2000:]
    assert fix(tmp_path / "state", "--undo").code == 0
    assert rc.read_bytes() == original
