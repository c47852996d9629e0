"""The safe file layer on real files and real processes: atomic writes, journal, undo, lock,
preconditions, deletion that never follows a symlink out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from theanodoctor.repair import compiledir as cdir
from theanodoctor.repair.action import Action
from theanodoctor.repair.apply import apply_actions, precondition
from theanodoctor.repair.fsops import atomic_write, link_or_copy, sha256_bytes, sha256_file
from theanodoctor.repair.journal import Journal, list_runs, read_records
from theanodoctor.repair.lock import LockBusy, RunLock
from theanodoctor.repair.undo import undo_run


def _write(path: Path, data: bytes) -> Action:
    before = sha256_file(str(path))
    return Action("write", str(path), ("theanorc-write",), "test", before=before, content=data)


def test_atomic_write_replaces_and_keeps_mode(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    target = folder / "f"
    target.write_bytes(b"old")
    target.chmod(0o600)
    atomic_write(str(target), b"new")
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in folder.iterdir()] == ["f"]  # no temp file left


def test_apply_then_undo_restores_byte_identical(tmp_path: Path) -> None:
    old = b"[global]\r\ndevice = gpu\r\n\xef\xbb\xbf odd bytes\r\n"
    existing, created = tmp_path / "a" / ".theanorc", tmp_path / "new" / "deep" / "file"
    existing.parent.mkdir()
    existing.write_bytes(old)
    actions = [_write(existing, b"[global]\ndevice = cuda\n"), _write(created, b"x")]
    journal = Journal("run1", str(tmp_path / "state"))
    journal.start([a.to_dict() for a in actions], None)
    steps = apply_actions(actions, journal)
    assert [s.status for s in steps] == ["applied", "applied"]
    assert existing.read_bytes() == b"[global]\ndevice = cuda\n" and created.read_bytes() == b"x"
    kinds = [r["type"] for r in read_records(journal.dir)]
    assert kinds == ["run", "begin", "done", "begin", "done", "end"]
    results = undo_run("run1", str(tmp_path / "state"))
    assert {r.status for r in results} == {"restored", "removed"}
    assert existing.read_bytes() == old
    assert not (tmp_path / "new").exists()  # the folders the run made are gone too
    assert list_runs(str(tmp_path / "state"))[0].status == "undone"


def test_undo_leaves_a_file_changed_since_alone(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"old")
    journal = Journal("run1", str(tmp_path / "state"))
    journal.start([], None)
    apply_actions([_write(target, b"new")], journal)
    target.write_bytes(b"user edited later")
    [result] = undo_run("run1", str(tmp_path / "state"))
    assert result.status == "conflict"
    assert target.read_bytes() == b"user edited later"


def test_precondition_refuses_a_file_changed_after_planning(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"old")
    action = _write(target, b"new")
    target.write_bytes(b"changed meanwhile")
    journal = Journal("run1", str(tmp_path / "state"))
    journal.start([], None)
    [step] = apply_actions([action], journal)
    assert step.status == "skipped" and "changed since" in step.message
    assert target.read_bytes() == b"changed meanwhile"


def test_link_never_overwrites_and_is_verified(tmp_path: Path) -> None:
    source, dest = tmp_path / "cublas64_10.dll", tmp_path / "cublas64_102.dll"
    source.write_bytes(b"MZ real dll")
    assert link_or_copy(str(source), str(dest)) in ("hard link", "copy")
    assert sha256_file(str(dest)) == sha256_bytes(b"MZ real dll")
    with pytest.raises(FileExistsError):
        link_or_copy(str(source), str(dest))
    other = tmp_path / "taken.dll"
    other.write_bytes(b"someone else's")
    action = Action("link", str(other), ("cuda-dll-aliases",), "t", before=sha256_file(str(source)),
                    source=str(source))
    assert "never overwritten" in (precondition(action) or "")


@pytest.mark.parametrize("by_fd", [True, False], ids=["folder-descriptors", "paths (Windows way)"])
def test_remove_tree_unlinks_symlinks_without_following(tmp_path: Path, by_fd: bool,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cdir, "_FD_OK", by_fd and cdir._FD_OK)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep")
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "f").write_text("x")
    (tree / "link-dir").symlink_to(outside)
    (tree / "sub" / "link-file").symlink_to(outside / "precious.txt")
    cdir.remove_tree(str(tree))
    assert not tree.exists()
    assert (outside / "precious.txt").read_text() == "keep"
    (tmp_path / "top-link").symlink_to(outside)
    with pytest.raises(OSError):
        cdir.remove_tree(str(tmp_path / "top-link"))
    assert (outside / "precious.txt").exists()


def test_compiledir_proof(tmp_path: Path) -> None:
    home = tmp_path / "fakehome"
    home.mkdir()
    assert not cdir.prove_compiledir(str(home), str(home)).ok
    plain = home / "compiledir_Linux-x"
    plain.mkdir()
    (plain / "notes.txt").write_text("mine")
    assert not cdir.prove_compiledir(str(plain), str(home)).ok  # right name, no Theano markers
    (plain / "lazylinker_ext").mkdir()
    assert cdir.prove_compiledir(str(plain), str(home)).ok
    named_wrong = home / "cache"
    (named_wrong / "cutils_ext").mkdir(parents=True)
    assert not cdir.prove_compiledir(str(named_wrong), str(home)).ok
    (home / "compiledir_link").symlink_to(plain)
    assert not cdir.prove_compiledir(str(home / "compiledir_link"), str(home)).ok


HOLD = """
import sys, time
from theanodoctor.repair.lock import RunLock
lock = RunLock(sys.argv[1]).acquire()
print("held", flush=True)
time.sleep(60)
"""


def test_second_lock_holder_is_refused_and_dead_owner_taken_over(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        with pytest.raises(LockBusy, match=str(proc.pid)):
            RunLock(str(tmp_path)).acquire()
    finally:
        proc.kill()
        proc.wait()
    # The holder died without releasing: its lock is stale and taken over.
    assert (tmp_path / "fix.lock").exists()
    with RunLock(str(tmp_path)) as lock:
        assert lock.held
    assert not (tmp_path / "fix.lock").exists()


def test_lock_state_live_and_dead_owner(tmp_path: Path) -> None:
    import socket

    comp = tmp_path / "compiledir_x"
    (comp / "lock_dir").mkdir(parents=True)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (comp / "lock_dir" / "lock").write_text(f"{sleeper.pid}_1234567890_{socket.gethostname()}\n")
        state = cdir.lock_state(str(comp))
        assert state.alive is True and state.live
        unlock = Action("unlock", str(comp), ("cache-unlock",), "t")
        assert "alive" in (precondition(unlock) or "")
    finally:
        sleeper.kill()
        sleeper.wait()
    state = cdir.lock_state(str(comp))
    assert state.alive is False and not state.live
    assert precondition(Action("unlock", str(comp), ("cache-unlock",), "t")) is None
    assert os.path.isdir(comp / "lock_dir")


def test_remove_modules_rechecks_each_folder(tmp_path: Path) -> None:
    comp = tmp_path / "compiledir_x"
    comp.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "key.pkl").write_text("looks like a module, lives elsewhere")
    (comp / "tmplink").symlink_to(outside)  # a module-looking symlink: never followed
    (comp / "tmpnokey").mkdir()  # no marker: not a module
    (comp / "tmpnokey" / "data").write_text("x")
    (comp / "tmpgood" / "sub").mkdir(parents=True)
    (comp / "tmpgood" / "key.pkl").write_bytes(b"k")
    (comp / "tmpgood" / "sub" / "escape").symlink_to(outside)
    names = ["tmplink", "tmpnokey", "tmpgood", "../outside", "cutils_ext"]
    assert cdir.remove_modules(str(comp), names) == 1
    assert sorted(p.name for p in comp.iterdir()) == ["tmplink", "tmpnokey"]
    assert (outside / "key.pkl").exists()
