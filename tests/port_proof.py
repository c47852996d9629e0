"""What the port proof tests share: running a program or an import in a real legacy environment
(a subprocess of that environment's interpreter, never this process), each environment with its
own home so Theano 0.8, 0.9 and 1.0.5 on the same Python never share a compile dir."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable, NamedTuple

CORPUS = Path(__file__).resolve().parent / "port_corpus"
COMPARE = CORPUS / "compare_npy.py"


class Ran(NamedTuple):
    code: int
    out: str  # stdout and stderr together


def run_in_env(python: str, args: list[str], cwd: Path, home: Path, timeout: float = 900) -> Ran:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("THEANO", "PYTHON"))}
    # No .pyc files in the tree: undo is checked byte for byte afterwards.
    env.update(HOME=str(home), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([python, *args], cwd=str(cwd), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=timeout)
    return Ran(proc.returncode, proc.stdout.decode(errors="replace"))


def compare_outputs(python: str, first: Path, second: Path, home: Path) -> dict[str, Any]:
    ran = run_in_env(python, [str(COMPARE), str(first), str(second)], first, home, timeout=300)
    assert ran.code == 0, ran.out
    return json.loads(ran.out.strip().splitlines()[-1])


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def copy_tree(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest)
    return dest


def env_homes(root: Path) -> Callable[[str], Path]:
    """``homes("py27")`` -> a home folder for that environment under root (the tests keep one
    root a session, so each environment's compile dir is filled once)."""

    def home(name: str) -> Path:
        folder = root / name
        folder.mkdir(exist_ok=True)
        return folder

    return home
