"""The fix command's contract: JSON on every path, exit codes, two concurrent runs, history."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

from tests.cli_helpers import on_a_terminal
from tests.fix_helpers import fix, windows_tree

RC = b"[global]\r\ndevice = gpu\r\n"


def test_second_concurrent_run_is_refused(tmp_path: Path) -> None:
    snap, _, home = windows_tree(tmp_path, rc_text=RC)
    state = tmp_path / "state"
    env = {**os.environ, "THEANODOCTOR_STATE_DIR": str(state), "THEANODOCTOR_TEST_KILL": "stop:1"}
    first = subprocess.Popen([sys.executable, "-m", "theanodoctor", "fix", "--from", str(snap), "--yes"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while psutil.Process(first.pid).status() != psutil.STATUS_STOPPED:
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        second = fix(state, "--from", str(snap), "--yes", "--format", "json")
        assert second.code == 1
        assert second.json()["error"]["kind"] == "busy"
        assert str(first.pid) in second.json()["error"]["message"]
    finally:
        first.send_signal(signal.SIGCONT)
        out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err.decode()
    runs = fix(state, "--history", "--format", "json").json()["runs"]
    assert [r["status"] for r in runs] == ["complete"]  # the refused run left no journal
    assert (home / "cuda-dll-aliases" / "cublas64_102.dll").exists()


def test_json_on_every_path(tmp_path: Path) -> None:
    snap, _, _ = windows_tree(tmp_path, rc_text=RC)
    state = tmp_path / "state"
    cases = [
        (("--history",), 0),
        (("--undo",), 2),  # nothing to undo yet
        (("--undo", "20990101T000000Z-1"), 2),
        (("--from", str(snap), "--only", "no-such-fix"), 2),
        (("--from", str(snap), "--python", sys.executable), 2),
        (("--from", str(tmp_path / "missing.json")), 2),
        (("--from", str(snap), "--dry-run"), 0),
        (("--from", str(snap)), 2),  # no terminal, no --yes
        (("--from", str(snap), "--yes", "--skip", "cuda-dll-aliases"), 1),  # leaves the DLL error
        (("--history",), 0),
        (("--undo",), 0),
    ]
    for args, code in cases:
        run = fix(state, *args, "--format", "json")
        assert run.code == code, (args, run.out, run.err)
        doc = json.loads(run.out)
        assert doc["schema_version"] == 1 and doc["exit_code"] == code, args
    assert [r["status"] for r in fix(state, "--history", "-f", "json").json()["runs"]] == ["undone"]


def test_skip_and_only_choose_the_repairs(tmp_path: Path) -> None:
    snap, _, _ = windows_tree(tmp_path, rc_text=RC)
    doc = fix(tmp_path / "state", "--from", str(snap), "--dry-run", "--skip", "cuda-dll-aliases", "-f", "json").json()
    assert {f for a in doc["plan"] for f in a["fix_ids"]} == {"theanorc-device"}
    doc = fix(tmp_path / "state", "--from", str(snap), "--dry-run", "--only", "cuda-dll-aliases", "-f", "json").json()
    assert {f for a in doc["plan"] for f in a["fix_ids"]} == {"cuda-dll-aliases", "env-path"}


def test_help_teaches_and_lists_exit_codes() -> None:
    run = fix(Path("unused"), "--help")
    assert run.code == 0
    for word in ("--dry-run", "--undo", "--cuda", "cache-purge", "Exit codes", "never run"):
        assert word in run.out, word


def test_asks_on_a_terminal(tmp_path: Path) -> None:
    snap, _, home = windows_tree(tmp_path, rc_text=RC)
    env = {"THEANODOCTOR_STATE_DIR": str(tmp_path / "state")}
    args = ["fix", "--from", str(snap), "--only", "theanorc-device"]
    code, said = on_a_terminal(args, b"n\n", env)
    assert code == 0 and b"not applied" in said
    assert (home / ".theanorc.txt").read_bytes() == RC
    code, said = on_a_terminal(args, b"y\n", env)
    # --only leaves the DLL-name errors: said, and exit 1
    assert code == 1 and b"Still broken: 1 blocking error remains" in said, said.decode(errors="replace")
    assert (home / ".theanorc.txt").read_bytes() == b"[global]\r\ndevice = cuda\r\n"


def test_a_config_file_that_is_a_symlink_is_refused_not_replaced(tmp_path: Path) -> None:
    snap, _, home = windows_tree(tmp_path, rc_text=RC)
    real = tmp_path / "dotfiles" / "theanorc.txt"
    real.parent.mkdir()
    os.replace(home / ".theanorc.txt", real)
    (home / ".theanorc.txt").symlink_to(real)
    run = fix(tmp_path / "state", "--from", str(snap), "--yes", "--format", "json")
    assert run.code == 1, run.err + run.out
    refused = [n for n in run.json()["notes"] if n["refused"]]
    assert refused and refused[0]["fix_id"] == "theanorc-device"
    assert str(real) in refused[0]["message"] and "device = gpu -> cuda" in refused[0]["message"]
    assert os.readlink(home / ".theanorc.txt") == str(real) and real.read_bytes() == RC


def test_a_target_whose_probe_cannot_run_is_not_reported_as_nothing_to_fix(tmp_path: Path) -> None:
    not_python = tmp_path / "python"  # runs, but is no Python: the probe crashes
    not_python.write_text("#!/bin/sh\necho garbage\nexit 1\n")
    not_python.chmod(0o755)
    run = fix(tmp_path / "state", "--python", str(not_python), "--yes", "--format", "json")
    assert run.code == 3, run.err + run.out
    doc = run.json()
    assert doc["exit_code"] == 3 and [c["id"] for c in doc["unfinished_checks"]] == ["target-probe"]
    text = fix(tmp_path / "state", "--python", str(not_python), "--dry-run")
    assert text.code == 3 and "target-probe could not finish" in text.err


def test_a_config_file_in_a_legacy_8_bit_encoding_is_refused_untouched(tmp_path: Path) -> None:
    latin1 = "# réglages\r\n[global]\r\ndevice = gpu\r\n".encode("latin-1")
    snap, _, home = windows_tree(tmp_path, rc_text=latin1)
    run = fix(tmp_path / "state", "--from", str(snap), "--yes", "--format", "json")
    assert run.code == 1, run.err + run.out
    assert [n["fix_id"] for n in run.json()["notes"] if n["refused"]] == ["theanorc-encoding"]
    assert (home / ".theanorc.txt").read_bytes() == latin1


def test_a_config_path_that_is_a_folder_is_left_alone_without_a_crash(tmp_path: Path) -> None:
    snap, _, home = windows_tree(tmp_path)
    (home / ".theanorc.txt").mkdir()
    run = fix(tmp_path / "state", "--from", str(snap), "--yes", "--format", "json", "--only", "theanorc-device")
    assert run.code == 1, run.err + run.out  # the snapshot's DLL-name errors are left, and said
    assert any("not a regular file" in n["message"] for n in run.json()["notes"])
    assert {b["id"] for b in run.json()["still_blocking"]} == {"gpuarray-dll-names", "theano-device"}
    assert (home / ".theanorc.txt").is_dir()


def test_text_never_says_nothing_to_fix_when_a_repair_was_refused(tmp_path: Path) -> None:
    latin1 = "# réglages\n[global]\ndevice = gpu\n".encode("latin-1")
    snap, _, _ = windows_tree(tmp_path, rc_text=latin1)
    run = fix(tmp_path / "state", "--from", str(snap), "--yes", "--only", "theanorc-device")
    assert run.code == 1, run.err + run.out
    assert "Nothing to fix" not in run.out and "Nothing applied: 1 repair refused" in run.out


def test_a_damaged_journal_line_is_skipped_not_a_crash(tmp_path: Path) -> None:
    snap, _, home = windows_tree(tmp_path, rc_text=RC)
    state = tmp_path / "state"
    assert fix(state, "--from", str(snap), "--yes").code == 0
    (journal,) = state.glob("runs/*/journal.jsonl")
    with open(journal, "ab") as fh:
        fh.write(b'{"type": "do\xff\xfe damaged on disk\n')
    runs = fix(state, "--history", "--format", "json")
    assert runs.code == 0 and [r["status"] for r in runs.json()["runs"]] == ["complete"], runs.err
    assert fix(state, "--undo").code == 0 and (home / ".theanorc.txt").read_bytes() == RC
