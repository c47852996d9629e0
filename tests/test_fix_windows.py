"""Windows repairs judged from a Windows snapshot whose paths point into a temp tree shaped like
`CUDA/v10.2/bin`: DLL aliases (in bin, or a user folder plus PATH commands), the misnamed
`.theanorc.txt.txt`, the config file Theano reads on Windows; a run killed part-way."""

from __future__ import annotations

import json
import signal
from pathlib import Path

from tests.fix_helpers import assert_left_only, fix, listing, windows_tree

RC = b"; mine\r\n[global]\r\ndevice = gpu\r\nfloatX = float32\r\n\r\n[lib]\r\ncnmem = 0.8\r\n"
DRIVER_NAMES = {"nvrtc64_102.dll": "nvrtc64_102_0.dll", "cublas64_102.dll": "cublas64_10.dll"}
GUIDE_NAMES = {"cublas64_100.dll": "cublas64_10.dll", "cudart64_100.dll": "cudart64_102.dll",
               "cufft64_100.dll": "cufft64_10.dll", "curand64_100.dll": "curand64_10.dll",
               "cusolver64_100.dll": "cusolver64_10.dll"}


def test_program_files_bin_gets_user_folder_aliases_and_path_commands(tmp_path: Path) -> None:
    snap, bin_dir, home = windows_tree(tmp_path, rc_text=RC)
    bin_before = listing(bin_dir)
    run = fix(tmp_path / "state", "--from", str(snap), "--yes", "--format", "json")
    assert run.code == 0, run.err
    doc = run.json()
    assert doc["mode"] == "applied" and {s["status"] for s in doc["steps"]} == {"applied"}
    folder = home / "cuda-dll-aliases"
    for alias, source in {**DRIVER_NAMES, **GUIDE_NAMES}.items():
        assert (folder / alias).read_bytes() == (bin_dir / source).read_bytes(), alias
    assert listing(bin_dir) == bin_before  # nothing written under Program Files
    advice = [a for a in doc["plan"] if a["kind"] == "advice"]
    shells = {c["shell"].split(" ")[0] for a in advice for c in a["commands"]}
    assert {"cmd", "PowerShell", "bash"} <= shells
    assert any(str(folder) in c["command"] for a in advice for c in a["commands"])
    # The config file Theano reads on Windows (~/.theanorc.txt) was repaired in place, CRLF kept.
    assert (home / ".theanorc.txt").read_bytes() == (
        b"; mine\r\n[global]\r\ndevice = cuda\r\nfloatX = float32\r\n\r\n[gpuarray]\r\npreallocate = 0.8\r\n")
    undo = fix(tmp_path / "state", "--undo", "--format", "json")
    assert undo.code == 0, undo.out
    assert not folder.exists()
    assert (home / ".theanorc.txt").read_bytes() == RC


def test_writable_bin_gets_aliases_beside_the_originals_never_overwriting(tmp_path: Path) -> None:
    snap, bin_dir, home = windows_tree(tmp_path, program_files=False)
    (bin_dir / "cublas64_100.dll").write_bytes(b"someone else's file")
    run = fix(tmp_path / "state", "--from", str(snap), "--yes", "--only", "cuda-dll-aliases", "--format", "json")
    assert run.code == 0, run.err
    doc = run.json()
    assert (bin_dir / "cublas64_100.dll").read_bytes() == b"someone else's file"
    assert any("never overwritten" in n["message"] for n in doc["notes"])
    for alias, source in DRIVER_NAMES.items():
        assert (bin_dir / alias).read_bytes() == (bin_dir / source).read_bytes()
    assert not (home / "cuda-dll-aliases").exists()
    assert not [a for a in doc["plan"] if a["kind"] == "advice"]  # bin is on PATH already


def test_misnamed_theanorc_txt_txt_is_renamed(tmp_path: Path) -> None:
    snap, _, home = windows_tree(tmp_path)
    data = json.loads(snap.read_text())
    data["theanorc"]["files"][1].update(exists=False, readable=False, parse=None)
    wrong = home / ".theanorc.txt.txt"
    wrong.write_bytes(b"[global]\r\nfloatX = float32\r\n")
    data["theanorc"]["lookalikes"] = [str(wrong)]
    snap.write_text(json.dumps(data))
    run = fix(tmp_path / "state", "--from", str(snap), "--yes", "--only", "theanorc-rename", "--format", "json")
    assert_left_only(run, {"gpuarray-dll-names"})  # --only leaves the DLL names
    assert not wrong.exists()
    assert (home / ".theanorc.txt").read_bytes() == b"[global]\r\nfloatX = float32\r\n"
    assert fix(tmp_path / "state", "--undo").code == 0
    assert wrong.exists() and not (home / ".theanorc.txt").exists()


def test_dry_run_touches_nothing_not_even_the_state_folder(tmp_path: Path) -> None:
    snap, _, _ = windows_tree(tmp_path, rc_text=RC)
    state = tmp_path / "state"
    before = listing(tmp_path)
    for fmt in ("text", "json"):
        run = fix(state, "--from", str(snap), "--dry-run", "--format", fmt)
        assert run.code == 0, run.err
    assert listing(tmp_path) == before
    assert not state.exists()
    doc = fix(state, "--from", str(snap), "--dry-run", "--format", "json").json()
    assert doc["mode"] == "dry-run" and len([a for a in doc["plan"] if a["kind"] == "link"]) == 7


def test_without_yes_and_without_a_terminal_nothing_is_applied(tmp_path: Path) -> None:
    snap, _, _ = windows_tree(tmp_path, rc_text=RC)
    before = listing(tmp_path)
    for fmt in ("text", "json"):
        run = fix(tmp_path / "state", "--from", str(snap), "--format", fmt)
        assert run.code == 2
        assert "--yes" in run.err
    assert run.json()["mode"] == "refused"
    assert listing(tmp_path) == before


def test_killed_between_steps_then_undone(tmp_path: Path) -> None:
    snap, bin_dir, home = windows_tree(tmp_path, rc_text=RC)
    state = tmp_path / "state"
    before = listing(home, bin_dir)
    run = fix(state, "--from", str(snap), "--yes", env={"THEANODOCTOR_TEST_KILL": "after:2"})
    assert run.code == -signal.SIGKILL
    folder = home / "cuda-dll-aliases"
    assert (home / ".theanorc.txt").read_bytes() != RC  # step 1: the new file, whole
    assert sorted(p.name for p in folder.iterdir()) == ["nvrtc64_102.dll"]  # step 2 done, step 3 not
    history = fix(state, "--history", "--format", "json").json()
    assert [r["status"] for r in history["runs"]] == ["interrupted"]
    assert fix(state, "--undo").code == 0
    assert listing(home, bin_dir) == before


def test_killed_inside_a_step_then_finished_by_running_again(tmp_path: Path) -> None:
    snap, bin_dir, home = windows_tree(tmp_path, rc_text=RC)
    state = tmp_path / "state"
    before = listing(home, bin_dir)
    run = fix(state, "--from", str(snap), "--yes", env={"THEANODOCTOR_TEST_KILL": "before:3"})
    assert run.code == -signal.SIGKILL  # step 3's begin record written, its action not done
    again = fix(state, "--from", str(snap), "--yes", "--format", "json")
    assert again.code == 0, again.err
    assert "interrupted" in again.err
    folder = home / "cuda-dll-aliases"
    assert sorted(p.name for p in folder.iterdir()) == sorted({**DRIVER_NAMES, **GUIDE_NAMES})
    assert (home / ".theanorc.txt").read_bytes().count(b"device = cuda") == 1
    # Undoing the interrupted run first would take back the later run's work on the same paths.
    first, second = [r["run_id"] for r in fix(state, "--history", "--format", "json").json()["runs"]]
    early = fix(state, "--undo", first, "--format", "json")
    assert early.code == 1
    assert any(s["status"] == "conflict" and second in s["message"] for s in early.json()["steps"])
    assert (folder / "cublas64_102.dll").exists()  # created by the second run: kept
    # Newest first, both runs come off completely.
    assert fix(state, "--undo", second).code == 0
    assert fix(state, "--undo", first).code == 0
    assert listing(home, bin_dir) == before


def test_a_real_windows_snapshot_applied_elsewhere_touches_nothing(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from tests.fix_helpers import SNAPSHOTS

    work = tmp_path / "cwd"
    work.mkdir()
    env = {**os.environ, "THEANODOCTOR_STATE_DIR": str(tmp_path / "state")}
    ran = subprocess.run([sys.executable, "-m", "theanodoctor", "fix", "--from",
                          str(SNAPSHOTS / "windows_cuda102_cublas10_no_alias.json"), "--yes", "--format", "json"],
                         cwd=work, env=env, capture_output=True, timeout=120)
    doc = json.loads(ran.stdout)
    assert ran.returncode == 1 and doc["exit_code"] == 1
    assert doc["steps"] and all(s["status"] == "skipped" for s in doc["steps"])
    assert any("not on this machine" in n["message"] for n in doc["notes"])
    assert list(work.iterdir()) == []


def test_killed_inside_an_atomic_write_leaves_the_old_file(tmp_path: Path) -> None:
    snap, bin_dir, home = windows_tree(tmp_path, rc_text=RC)
    state = tmp_path / "state"
    before = listing(home, bin_dir)
    run = fix(state, "--from", str(snap), "--yes", env={"THEANODOCTOR_TEST_KILL": "inside:1"})
    assert run.code == -signal.SIGKILL
    assert (home / ".theanorc.txt").read_bytes() == RC  # old, whole; the new text sat in a temp file
    leftovers = [p.name for p in home.iterdir() if p.name.startswith(".theanodoctor-")]
    assert len(leftovers) == 1
    assert fix(state, "--undo").code == 0
    assert listing(home, bin_dir) == before  # the temp file is gone too
    again = fix(state, "--from", str(snap), "--yes", "--format", "json")
    assert again.code == 0, again.err
    assert b"device = cuda" in (home / ".theanorc.txt").read_bytes()
