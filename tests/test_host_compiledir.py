"""Compile-cache probe against a compiledir and locks made by real Theano 1.0.5 processes."""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from theanodoctor import proc
from theanodoctor.host.compiledir import parse_lock, probe_compiledir

COMPILE = """\
import theano, theano.tensor as T
x = T.dvector('x')
f = theano.function([x], x * 2 + 1)
assert list(f([1.0, 2.0])) == [3.0, 5.0]
print(theano.config.compiledir)
"""

# Take Theano's own compile lock in a chosen folder, then die without releasing it or
# (when asked) hold it until killed.
TAKE_LOCK = """\
import os, sys, time
from theano.gof import compilelock
compilelock.get_lock(lock_dir=sys.argv[1])
print("locked", flush=True)
if sys.argv[2] == "hold":
    time.sleep(120)
os._exit(0)
"""


@pytest.fixture
def healthy37(legacy_python: Callable[[str], str], theano_home: Path) -> str:
    return legacy_python("healthy37")


def test_real_compiledir_after_a_compile(healthy37: str) -> None:
    ran = proc.run([healthy37, "-c", COMPILE], timeout=300)
    assert ran.ran and ran.returncode == 0, ran.stderr[-3000:]
    compiledir = Path(ran.stdout.strip().splitlines()[-1])
    result = probe_compiledir(str(compiledir))
    assert result["status"] == "ok", result["error"]
    assert result["exists"] and result["writable"]
    modules = [p.parent for p in compiledir.glob("tmp*/key.pkl")]
    assert modules, "Theano should have compiled at least one module"
    assert result["module_count"] == len(modules)
    assert {"cutils_ext", "lazylinker_ext"} <= set(result["entries"])
    on_disk = sum(p.stat().st_size for p in compiledir.rglob("*") if p.is_file())
    assert result["size_bytes"] == on_disk
    assert result["truncated"] is None
    assert result["lock"]["exists"] is False
    assert result["pymc_lock"] == {"path": str(compiledir / ".lock"), "exists": False}
    assert result["free_disk_bytes"] > 0


def test_lock_left_by_a_dead_theano_process(healthy37: str, tmp_path: Path) -> None:
    compiledir = tmp_path / "compiledir_test"
    compiledir.mkdir()
    ran = proc.run([healthy37, "-c", TAKE_LOCK, str(compiledir / "lock_dir"), "die"],
                   timeout=120)
    assert ran.ran and "locked" in ran.stdout, ran.stderr[-3000:]
    lock = probe_compiledir(str(compiledir))["lock"]
    assert lock["exists"] is True
    pid, digits, host = lock["raw"].split("_", 2)
    assert len(digits) == 10 and host == socket.gethostname()
    assert lock["owner_pid"] == int(pid)
    assert lock["owner_host"] == socket.gethostname()
    assert lock["same_host"] is True
    assert lock["alive"] is False
    assert lock["age_s"] >= 0


def test_lock_held_by_a_live_theano_process(healthy37: str, tmp_path: Path) -> None:
    compiledir = tmp_path / "compiledir_test"
    compiledir.mkdir()
    holder = proc.start([healthy37, "-c", TAKE_LOCK, str(compiledir / "lock_dir"), "hold"])
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == b"locked"
        lock = probe_compiledir(str(compiledir))["lock"]
        assert (lock["owner_pid"], lock["alive"]) == (holder.pid, True)
    finally:
        holder.kill()
        holder.communicate()
    assert probe_compiledir(str(compiledir))["lock"]["alive"] is False


def write_lock(compiledir: Path, content: str) -> None:
    (compiledir / "lock_dir").mkdir(parents=True)
    (compiledir / "lock_dir" / "lock").write_text(content + "\n")


def test_lock_of_this_process_and_of_another_host(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    write_lock(mine, f"{os.getpid()}_{int(time.time()):010d}_{socket.gethostname()}")
    lock = probe_compiledir(str(mine))["lock"]
    assert (lock["same_host"], lock["alive"]) == (True, True)

    other = tmp_path / "other"
    write_lock(other, f"{os.getpid()}_0123456789_build-node-7")
    lock = probe_compiledir(str(other))["lock"]
    assert lock["owner_host"] == "build-node-7"
    assert (lock["same_host"], lock["alive"]) == (False, None)


def test_dead_pid_from_a_finished_process(tmp_path: Path) -> None:
    ran = proc.run([sys.executable, "-c", "import os; print(os.getpid())"], timeout=30)
    dead_pid = int(ran.stdout)
    write_lock(tmp_path, f"{dead_pid}_0123456789_{socket.gethostname()}")
    assert probe_compiledir(str(tmp_path))["lock"]["alive"] is False


def test_hostname_with_underscores() -> None:
    lock = parse_lock("4242_0123456789_gpu_box_01", hostname="gpu_box_01")
    assert (lock["owner_pid"], lock["owner_host"], lock["same_host"]) == (4242, "gpu_box_01",
                                                                         True)
    # Theano compares split('_')[2] == "gpu": it never sees its own host, never unlocks early.
    assert lock["theano_sees_same_host"] is False
    assert parse_lock("4242_0123456789_node", hostname="node")["theano_sees_same_host"] is True


def test_garbage_lock_file(tmp_path: Path) -> None:
    write_lock(tmp_path, "failure")
    lock = probe_compiledir(str(tmp_path))["lock"]
    assert lock["raw"] == "failure"
    assert (lock["owner_pid"], lock["owner_host"], lock["same_host"], lock["alive"]) == (
        None, None, None, None)


def test_layout_counts_and_caps(tmp_path: Path) -> None:
    cdir = tmp_path / "compiledir_Linux-x86_64--3.7.16-64"
    for name in ("tmpaaaa1111", "tmpbbbb2222"):
        (cdir / name).mkdir(parents=True)
        (cdir / name / "key.pkl").write_bytes(b"x" * 10)
        (cdir / name / "mod.cpp").write_bytes(b"y" * 100)
    (cdir / "tmpbbbb2222" / "delete.me").write_bytes(b"")
    (cdir / "tmpcccc3333").mkdir()  # a failed compile: no key.pkl, not a module
    (cdir / "cutils_ext").mkdir()
    (cdir / "gpuarray_kernels").mkdir()
    (cdir / "lazylinker_ext.delete.me").mkdir()
    (cdir / ".lock").write_text("")
    (cdir / "escape").symlink_to(tmp_path)  # never followed out of the compiledir
    result = probe_compiledir(str(cdir))
    assert result["module_count"] == 2
    assert result["entries"] == ["cutils_ext", "gpuarray_kernels"]
    assert result["delete_me_count"] == 2
    assert result["pymc_lock"]["exists"] is True
    assert result["file_count"] == 7
    assert result["size_bytes"] == 220 + os.lstat(cdir / "escape").st_size
    capped = probe_compiledir(str(cdir), max_files=3)
    assert capped["file_count"] == 3
    assert capped["truncated"] == "stopped counting after 3 files"


def test_missing_compiledir_reports_where_it_would_be_created(tmp_path: Path) -> None:
    result = probe_compiledir(str(tmp_path / ".theano" / "compiledir_x"))
    assert result["status"] == "ok"
    assert (result["exists"], result["writable"], result["module_count"]) == (False, True, 0)
    assert result["free_disk_bytes"] > 0


def test_no_path_is_skipped() -> None:
    assert probe_compiledir(None)["status"] == "skipped"
