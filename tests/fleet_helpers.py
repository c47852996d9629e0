"""What the fleet tests with real engines share: the documented command blocks, run as written,
and the environment of a machine that has the doctor on its PATH (or not)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "ci"
DOCTOR_BIN = str(Path(sys.executable).parent)  # this venv's bin: theanodoctor, ansible-playbook
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"


def documented_block(contains: str) -> str:
    """The one ```sh block of examples/ci/README.md that contains ``contains``."""
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```sh\n(.*?)```", text, re.S) if contains in b]
    assert len(blocks) == 1, f"{len(blocks)} blocks contain {contains!r}"
    return blocks[0]


def with_values(block: str, **values: str) -> str:
    """The block with its ``NAME=...`` lines set to the test's values (the rest as written)."""
    for name, value in values.items():
        block, count = re.subn(rf"^{name}=.*$", f"{name}='{value}'", block, flags=re.M)
        assert count == 1, name
    return block


def machine_env(home: Path, doctor: bool = True, **extra: str) -> dict[str, str]:
    """A machine's environment: its own HOME, and PATH with the doctor, or only an empty folder
    (so no theanodoctor installed anywhere on the machine can be found)."""
    home.mkdir(parents=True, exist_ok=True)
    empty = home / "bin-without-doctor"
    empty.mkdir(exist_ok=True)
    path = f"{DOCTOR_BIN}{os.pathsep}{SYSTEM_PATH}" if doctor else str(empty)
    return {**os.environ, "HOME": str(home), "USERPROFILE": str(home), "PATH": path, **extra}


def summary(folder: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    import subprocess

    proc = subprocess.run([sys.executable, "-m", "theanodoctor", "summarize", str(folder), *args, "--format", "json"],
                          capture_output=True, text=True, env=env, timeout=300)
    return proc.returncode, json.loads(proc.stdout)
