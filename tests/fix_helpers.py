"""Shared by the fix tests: Windows- and Linux-shaped install trees with a Facts snapshot whose
paths point into them, full listings of a tree with hashes, and the CLI run with a private
state folder."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from tests.cli_helpers import Run, doctor

SNAPSHOTS = Path(__file__).parent / "snapshots"
WIN_HOME = "C:\\Users\\alice"
WIN_KIT = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.2"


def fix(state: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 300) -> Run:
    return doctor("fix", *args, env={"THEANODOCTOR_STATE_DIR": str(state), **(env or {})}, timeout=timeout)


def listing(*roots: Path) -> dict[str, str]:
    """Every entry under the roots: kind plus content hash or link target (mode too)."""
    found: dict[str, str] = {}
    for root in roots:
        if not os.path.lexists(root):
            found[str(root)] = "absent"
            continue
        for folder, dirs, files in os.walk(root):
            for name in dirs + files:
                path = os.path.join(folder, name)
                st = os.lstat(path)
                if os.path.islink(path):
                    found[path] = "link:" + os.readlink(path)
                elif os.path.isdir(path):
                    found[path] = f"dir {oct(st.st_mode)}"
                else:
                    with open(path, "rb") as fh:
                        found[path] = f"file {oct(st.st_mode)} {hashlib.sha256(fh.read()).hexdigest()}"
    return found


def _rewrite(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _rewrite(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [_rewrite(v, mapping) for v in value]
    if isinstance(value, str):
        for old, new in mapping.items():
            if value.startswith(old):
                return (new + value[len(old):]).replace("\\", "/")
    return value


def windows_tree(tmp: Path, snapshot: str = "windows_cuda102_cublas10_no_alias.json",
                 program_files: bool = True, rc_text: bytes | None = None) -> tuple[Path, Path, Path]:
    """(snapshot file, toolkit bin, home): a CUDA 10.2 tree shaped like the Windows install,
    holding a small distinct file for every DLL the snapshot lists."""
    home = tmp / "alice"
    prefix = tmp / ("Program Files/NVIDIA GPU Computing Toolkit" if program_files else "tools")
    kit = prefix / "CUDA" / "v10.2"
    bin_dir = kit / "bin"
    bin_dir.mkdir(parents=True)
    home.mkdir(parents=True, exist_ok=True)
    data = json.loads((SNAPSHOTS / snapshot).read_text())
    data = _rewrite(data, {WIN_KIT: str(kit), WIN_HOME: str(home)})
    for entry in data["target"]["stages"]["interpreter"].get("dll_dirs") or []:
        if entry["dir"] == str(bin_dir):
            for name in entry["dlls"]:
                (bin_dir / name).write_bytes(b"MZ " + name.encode() * 50)
    for kit_entry in data["cuda"]["toolkits"]:
        for name in kit_entry.get("libraries") or []:
            if not (bin_dir / name).exists():
                (bin_dir / name).write_bytes(b"MZ " + name.encode() * 50)
    if rc_text is not None:
        (home / ".theanorc.txt").write_bytes(rc_text)
    snap = tmp / "snapshot.json"
    snap.write_text(json.dumps(data))
    return snap, bin_dir, home


def linux_tree(tmp: Path, unversioned: bool = False) -> tuple[Path, Path, Path]:
    """(snapshot file, toolkit lib64, home): a CUDA 10.2 tree shaped like /usr/local/cuda-10.2
    whose lib64 holds only the versioned libraries (unless ``unversioned``); off LD_LIBRARY_PATH."""
    home, kit = tmp / "bob", tmp / "cuda-10.2"
    lib = kit / "lib64"
    lib.mkdir(parents=True)
    home.mkdir(parents=True, exist_ok=True)
    data = json.loads((SNAPSHOTS / "linux_gtx1080ti_cuda102_ready.json").read_text())
    data = _rewrite(data, {"/usr/local/cuda-10.2": str(kit), "/home/bob": str(home)})
    entry = data["cuda"]["toolkits"][0]
    entry["aliases"] = []
    entry["libraries"] = [n for n in entry["libraries"] if unversioned or not n.endswith(".so")]
    for name in entry["libraries"]:
        (lib / name).write_bytes(b"\x7fELF " + name.encode())
    data["env"]["ld_library_path"] = []
    data["target"]["stages"]["pygpu"] = {"ok": False, "error": {"type": "ImportError", "message": "x"}}
    for rc in data["theanorc"]["files"]:
        if rc.get("exists"):
            Path(rc["path"]).write_text(rc["text_head"])
    snap = tmp / "snapshot.json"
    snap.write_text(json.dumps(data))
    return snap, lib, home


def assert_left_only(run: Run, left: set[str]) -> None:
    """The run did its part; the snapshot's other errors are named as left, and the exit is 1."""
    assert run.code == 1, run.err + run.out
    assert {b["id"] for b in run.json()["still_blocking"]} == left, run.out
