"""Compile-cache repairs against a real compiledir made by real Theano 1.0.5 (healthy37):
module folders cleared, canaries and symlink targets kept, a fake home as base_compiledir loses
nothing, a live lock owner blocks, a dead one is unlocked."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from tests.fix_helpers import fix, listing

COMPILE = """\
import theano, theano.tensor as T
x = T.dvector('x')
f = theano.function([x], T.exp(x) * 2 + 1)
g = theano.function([x], T.tanh(x).sum())
f([1.0, 2.0]); g([1.0])
print(theano.config.compiledir)
"""


@pytest.fixture
def compiled(legacy_python: Callable[[str], str], theano_home: Path) -> tuple[str, Path]:
    """(healthy37's python, a compiledir holding real compiled modules) in the shared home."""
    python = legacy_python("healthy37")
    ran = subprocess.run([python, "-c", COMPILE], capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr[-3000:]
    compiledir = Path(ran.stdout.strip().splitlines()[-1])
    assert list(compiledir.glob("tmp*/key.pkl"))
    return python, compiledir


def _copy_into(compiledir: Path, base: Path) -> Path:
    """A private copy of the real compiledir under ``base`` (the shared one stays warm)."""
    copy = base / compiledir.name
    shutil.copytree(compiledir, copy, symlinks=True, ignore=shutil.ignore_patterns("lock_dir"))
    return copy


def _flags(base: Path) -> dict[str, str]:
    return {"THEANO_FLAGS": f"base_compiledir={base}"}


def _modules(copy: Path) -> list[Path]:
    return [p.parent for p in copy.glob("tmp*/key.pkl")]


def test_clear_then_purge_keep_canaries_and_symlink_targets(compiled: tuple[str, Path], tmp_path: Path) -> None:
    python, compiledir = compiled
    base = tmp_path / "base"
    base.mkdir()
    copy = _copy_into(compiledir, base)
    docs = base / "Documents"
    docs.mkdir()
    (docs / "thesis.tex").write_text("years of work")
    (base / "canary.txt").write_text("next to the compiledir")
    evil = copy / "tmpevil000"
    evil.mkdir()
    (evil / "key.pkl").write_bytes(b"not a real key")
    (evil / "out").symlink_to(docs)
    (copy / "link_out").symlink_to(docs)
    outside = listing(docs, base / "canary.txt")
    assert len(_modules(copy)) >= 3
    run = fix(tmp_path / "state", "--python", python, "--only", "cache-clear", "--yes", "--format", "json",
              env=_flags(base))
    assert run.code == 0, run.err + run.out
    doc = run.json()
    assert [s["kind"] for s in doc["steps"]] == ["clear"] and doc["steps"][0]["status"] == "applied"
    assert _modules(copy) == []
    assert (copy / "cutils_ext").is_dir() and (copy / "lazylinker_ext").is_dir()  # module folders only
    assert (copy / "link_out").is_symlink()
    assert listing(docs, base / "canary.txt") == outside
    run = fix(tmp_path / "state", "--python", python, "--only", "cache-purge", "--yes", "--format", "json",
              env=_flags(base))
    assert run.code == 0, run.err + run.out
    assert [s["status"] for s in run.json()["steps"]] == ["applied"]
    # The re-check after the purge imports Theano, which makes a fresh, empty compiledir.
    assert not (copy / "link_out").exists() and not (copy / "tmpevil000").exists()
    assert listing(docs, base / "canary.txt") == outside
    assert sorted(p.name for p in base.iterdir()) == ["Documents", "canary.txt", copy.name]


def test_base_compiledir_set_to_a_home_loses_nothing_else(compiled: tuple[str, Path], tmp_path: Path) -> None:
    python, compiledir = compiled
    home = tmp_path / "fakehome"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("secret")
    (home / ".bashrc").write_text("export X=1\n")
    (home / "tmpnotes").mkdir()  # a user's folder named like a module folder, outside the compiledir
    (home / "tmpnotes" / "key.pkl").write_bytes(b"user data")
    copy = _copy_into(compiledir, home)
    others = {p: v for p, v in listing(home).items() if not p.startswith(str(copy))}
    env = {**_flags(home), "HOME": str(home)}
    for fix_id in ("cache-clear", "cache-purge"):
        run = fix(tmp_path / "state", "--python", python, "--only", fix_id, "--yes", "--format", "json", env=env)
        assert run.code == 0, run.err + run.out
        assert [s["status"] for s in run.json()["steps"]] == ["applied"]
    assert not (copy / "lazylinker_ext").exists() or not _modules(copy)  # purged (re-made empty by the re-check)
    assert {p: v for p, v in listing(home).items() if not p.startswith(str(copy))} == others


def test_a_folder_that_is_not_a_compiledir_is_refused(tmp_path: Path) -> None:
    from theanodoctor.fixes.plan import make_plan

    from theanodoctor.facts import Facts, envelope

    fake = tmp_path / "compiledir_mine"
    fake.mkdir()
    (fake / "photos").mkdir()
    facts = Facts(compiledir=envelope(path=str(fake)))
    plan = make_plan(facts, (), frozenset({"cache-clear", "cache-purge"}))
    assert not plan.actions
    assert all(n.refused for n in plan.notes)
    assert (fake / "photos").is_dir()


def test_live_lock_owner_blocks_and_dead_one_is_unlocked(compiled: tuple[str, Path], tmp_path: Path) -> None:
    python, compiledir = compiled
    base = tmp_path / "base"
    base.mkdir()
    copy = _copy_into(compiledir, base)
    modules = _modules(copy)
    (copy / "lock_dir").mkdir()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    try:
        (copy / "lock_dir" / "lock").write_text(f"{sleeper.pid}_1234567890_{socket.gethostname()}\n")
        run = fix(tmp_path / "state", "--python", python, "--only", "cache-clear", "--only", "cache-unlock",
                  "--yes", "--format", "json", env=_flags(base))
        assert run.code == 1, run.err + run.out
        doc = run.json()
        assert doc["mode"] == "nothing-to-apply"
        assert any(n["refused"] and str(sleeper.pid) in n["message"] for n in doc["notes"])
        assert _modules(copy) == modules and (copy / "lock_dir" / "lock").exists()
    finally:
        sleeper.kill()
        sleeper.wait()
    # The owner is dead now: the lock is stale; check's finding asks for cache-unlock by itself.
    run = fix(tmp_path / "state", "--python", python, "--yes", "--format", "json", env=_flags(base))
    assert run.code == 0, run.err + run.out
    doc = run.json()
    assert [s["kind"] for s in doc["steps"]] == ["unlock"]
    assert not (copy / "lock_dir").exists()
    assert _modules(copy) == modules  # unlocking deletes no module
    assert {r["id"]: r["after"] for r in doc["before_after"]}.get("compile-lock") == "ok"
    assert os.path.isdir(copy)


@pytest.mark.parametrize("lock, named", [("4242_1234567890_another-host.example\n", "4242 on another host"),
                                         (None, "no recorded owner")])
def test_lock_of_unknown_state_is_refused_by_name_and_forced(compiled: tuple[str, Path], tmp_path: Path,
                                                             lock: str | None, named: str) -> None:
    python, compiledir = compiled
    base = tmp_path / "base"
    base.mkdir()
    copy = _copy_into(compiledir, base)
    modules = _modules(copy)
    (copy / "lock_dir").mkdir()
    if lock is not None:  # else an empty lock_dir, as a crash between Theano's mkdir and write leaves
        (copy / "lock_dir" / "lock").write_text(lock)
    args = ("--python", python, "--only", "cache-clear", "--only", "cache-unlock", "--yes", "--format", "json")
    run = fix(tmp_path / "state", *args, env=_flags(base))
    assert run.code == 1, run.err + run.out
    refused = [n["message"] for n in run.json()["notes"] if n["refused"]]
    assert len(refused) == 2 and all(named in m and "None" not in m for m in refused), refused
    assert _modules(copy) == modules and (copy / "lock_dir").is_dir()
    run = fix(tmp_path / "state", *args, "--force", env=_flags(base))
    assert run.code == 0, run.err + run.out
    assert not (copy / "lock_dir").exists() and not _modules(copy)


def test_unlock_never_follows_a_symlinked_lock_dir_out(compiled: tuple[str, Path], tmp_path: Path) -> None:
    python, compiledir = compiled
    base = tmp_path / "base"
    base.mkdir()
    copy = _copy_into(compiledir, base)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "lock").write_text(f"999999_1234567890_{socket.gethostname()}\n")  # a dead owner's line
    (copy / "lock_dir").symlink_to(elsewhere)
    before = listing(elsewhere)
    run = fix(tmp_path / "state", "--python", python, "--only", "cache-unlock", "--yes", "--format", "json",
              env=_flags(base))
    assert run.code == 1, run.err + run.out
    assert [s["status"] for s in run.json()["steps"]] == ["skipped"]
    assert listing(elsewhere) == before and (copy / "lock_dir").is_symlink()
