"""Repository-wide quality gates: lint, types, a light start-up, no machine-specific paths.

(That the probe script still parses on Python 2.7 is tested in test_probe_script.py.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=str(REPO), capture_output=True, text=True,
        errors="replace", timeout=600,
    )


def test_ruff_is_clean() -> None:
    proc = _tool("ruff", "check", "--no-cache", ".")
    assert proc.returncode == 0, f"ruff check failed:\n{proc.stdout}\n{proc.stderr}"


def test_mypy_is_clean() -> None:
    proc = _tool("mypy")  # files and settings come from pyproject.toml
    assert proc.returncode == 0, f"mypy failed:\n{proc.stdout}\n{proc.stderr}"


def test_startup_does_not_load_the_heavy_libraries(tmp_path: Path) -> None:
    """The console entry point starts the target probe before click, rich, yaml or NVML are
    loaded; the modules it needs for that must stay free of them."""
    code = (
        "import json, sys\n"
        "import theanodoctor.launch, theanodoctor.probe.runner, theanodoctor.targets\n"
        "heavy = ('rich', 'yaml', 'click', 'pynvml')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=str(tmp_path), capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


def _project_files() -> list[Path]:
    """What git would commit: tracked files plus untracked ones that are not ignored."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=str(REPO), capture_output=True, check=True,
    ).stdout.decode()
    return [REPO / rel for rel in filter(None, listing.split("\0"))]


# Built from pieces so that this file does not contain them itself.
_NEEDLES = tuple(
    needle.encode()
    for needle in ("/" + "root" + "/", "/" + "work" + "/", ".pyenv" + "/versions/" + "3")
)


def test_no_machine_specific_paths_in_the_repository() -> None:
    files = [path for path in _project_files() if path.is_file()]
    if not files:
        pytest.fail("git ls-files listed nothing")
    offenders = []
    for path in files:
        data = path.read_bytes()
        for needle in _NEEDLES:
            if needle in data:
                line_no = data[: data.index(needle)].count(b"\n") + 1
                offenders.append(f"{path.relative_to(REPO)}:{line_no}: {needle.decode()}")
    assert not offenders, "machine-specific paths found:\n" + "\n".join(offenders)
