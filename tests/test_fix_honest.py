"""What `fix` says is what happened: a plan that leaves a blocking error says so and exits 1, a
dry run says nothing was applied, a redacted snapshot is planned from as far as it goes. Real
Theano 1.0.5 (healthy37) and real files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

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
    assert "theanorc-parse: " in run.out and "no repair in `fix` covers it: edit by hand" in run.out
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
