"""The package as users get it: the built wheel, installed into a fresh venv on the oldest
supported Python, and the editable install the developers use.

checks/, fixes/ and profiles/ sit at the top of the repository but must be installed inside
the ``theanodoctor`` namespace; both kinds of install have to find them, the YAML tables and
the probe script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from typing import Callable, NamedTuple

import pytest

from tests import legacy_envs

REPO = Path(__file__).resolve().parents[1]
MIN_PYTHON = "3.9"  # pyproject.toml: requires-python = ">=3.9"


class Installed(NamedTuple):
    source: Path  # the copy of the repository the wheel was built from
    wheel: Path
    venv: Path

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)


def _clean_env() -> dict[str, str]:
    """The current environment without anything that could put the repository on sys.path,
    but with pip's own cache (the guard fixture points HOME at a temporary folder)."""
    env = dict(os.environ)
    for var in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "THEANODOCTOR_DEBUG"):
        env.pop(var, None)
    if "PIP_CACHE_DIR" not in env:
        xdg = os.environ.get("XDG_CACHE_HOME")
        cache = Path(xdg) if xdg else legacy_envs.REAL_HOME / ".cache"
        env["PIP_CACHE_DIR"] = str(cache / "pip")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_NO_INPUT"] = "1"
    return env


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None,
         timeout: float = 600) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        cmd, cwd=str(cwd), env=env if env is not None else _clean_env(), capture_output=True,
        text=True, errors="replace", timeout=timeout,
    )
    return proc


def _must(cmd: list[str], cwd: Path, timeout: float = 600) -> str:
    proc = _run(cmd, cwd, timeout=timeout)
    assert proc.returncode == 0, (
        f"command failed ({proc.returncode}): {' '.join(cmd)}\n"
        f"--- stdout ---\n{proc.stdout[-4000:]}\n--- stderr ---\n{proc.stderr[-4000:]}"
    )
    return proc.stdout


def _copy_sources(dest: Path) -> None:
    """Copy what git would commit (tracked plus untracked-but-not-ignored files, as they are in
    the work tree), so nothing the build writes lands in the repository."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=str(REPO), capture_output=True, check=True,
    ).stdout.decode()
    for rel in filter(None, listing.split("\0")):
        src = REPO / rel
        if not src.is_file():  # deleted in the work tree but still tracked
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """Build the wheel once from a copy of the repository and install it into a fresh venv
    made from the oldest supported Python."""
    root = tmp_path_factory.mktemp("packaging")
    source = root / "src"
    _copy_sources(source)
    dist = root / "dist"
    _must([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(source)], cwd=root)
    wheels = sorted(dist.glob("theanodoctor-*.whl"))
    assert len(wheels) == 1, wheels

    venv = root / "venv"
    interpreter = legacy_envs.find_interpreter(MIN_PYTHON)
    _must([str(interpreter), "-m", "venv", str(venv)], cwd=root)
    _must([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheels[0])], cwd=root)
    return Installed(source, wheels[0], venv)


# --- the wheel's contents ---------------------------------------------------------------------


def test_wheel_holds_the_namespaced_packages(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    top = {name.split("/")[0] for name in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"theanodoctor"}, sorted(top)

    def expect(folder: str, pattern: str) -> set[str]:
        found = {f"theanodoctor/{folder}/{p.name}" for p in (installed.source / folder).glob(pattern)}
        assert found, f"no {pattern} in {folder}/ of the source tree"
        return found

    assert expect("checks", "*.py") <= names
    assert expect("profiles", "*.yaml") <= names
    assert "theanodoctor/fixes/__init__.py" in names
    assert "theanodoctor/probe/target_probe.py" in names
    assert "theanodoctor/smoke/target_smoke.py" in names
    for init in (installed.source / "theanodoctor").rglob("__init__.py"):  # every subpackage, new ones too
        assert f"{init.relative_to(installed.source).as_posix()}" in names, init
    for stray in ("checks/", "fixes/", "profiles/"):
        assert not any(name.startswith(stray) for name in names), stray

    dist_info = next(t for t in top if t.endswith(".dist-info"))
    top_level = zipfile.ZipFile(installed.wheel).read(f"{dist_info}/top_level.txt").decode()
    assert top_level.split() == ["theanodoctor"]


# --- the installed wheel, on the oldest supported Python --------------------------------------


def test_installed_wheel_runs_on_the_minimum_python(installed: Installed, tmp_path: Path) -> None:
    python = installed.bin("python")
    out = _must([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], cwd=tmp_path)
    assert out.strip() == MIN_PYTHON

    out = _must([installed.bin("theanodoctor"), "--version"], cwd=tmp_path)
    version = _must([python, "-c", "import theanodoctor; print(theanodoctor.__version__)"], cwd=tmp_path)
    assert out.strip() == f"theanodoctor, version {version.strip()}"

    out = _must([python, "-m", "theanodoctor", "--help"], cwd=tmp_path)
    assert "check" in out and "Exit codes" in out

    out = _must([installed.bin("theanodoctor"), "check", "--list"], cwd=tmp_path)
    assert "target-probe" in out


def test_installed_wheel_finds_its_data_files(installed: Installed, tmp_path: Path) -> None:
    code = textwrap.dedent("""
        import json
        from importlib import resources
        import theanodoctor, theanodoctor.checks, theanodoctor.fixes, theanodoctor.profiles
        from theanodoctor.probe.runner import PROBE_SCRIPT
        profiles = resources.files("theanodoctor.profiles")
        print(json.dumps({
            "package": theanodoctor.__file__,
            "checks": theanodoctor.checks.__file__,
            "yaml": sorted(p.name for p in profiles.iterdir() if p.name.endswith(".yaml")),
            "probe": str(PROBE_SCRIPT) if PROBE_SCRIPT.is_file() else None,
        }))
    """)
    found = json.loads(_must([installed.bin("python"), "-c", code], cwd=tmp_path))
    site = installed.venv.resolve()
    for key in ("package", "checks", "probe"):
        assert found[key] and Path(found[key]).resolve().is_relative_to(site), found
    assert found["yaml"] == sorted(p.name for p in (installed.source / "profiles").glob("*.yaml"))


def test_installed_wheel_checks_a_real_legacy_env(
    installed: Installed, legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path
) -> None:
    target = legacy_python("healthy37")
    proc = _run([installed.bin("theanodoctor"), "check", "--python", target, "--format", "json"],
                cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-4000:]
    doc = json.loads(proc.stdout)
    assert doc["verdict"] == "CPU only", doc
    assert doc["exit_code"] == 0
    statuses = {check["id"]: check["status"] for check in doc["checks"]}
    # the probe script and the YAML tables were found: nothing crashed, the target was judged
    assert "crash" not in statuses.values(), statuses
    assert statuses["target-probe"] == "ok" and statuses["python-stack"] == "ok", statuses


# --- the editable install (the dev venv running these tests) ----------------------------------


def test_editable_install_maps_the_namespace_to_the_repo_folders(tmp_path: Path) -> None:
    code = textwrap.dedent("""
        import importlib, json
        from importlib import resources
        import theanodoctor.checks, theanodoctor.fixes, theanodoctor.profiles
        missing = {}
        for name in ("checks", "fixes", "profiles"):
            try:
                importlib.import_module(name)
            except ImportError:
                missing[name] = True
            else:
                missing[name] = False
        print(json.dumps({
            "checks": theanodoctor.checks.__file__,
            "fixes": theanodoctor.fixes.__file__,
            "profiles": theanodoctor.profiles.__file__,
            "yaml": resources.files("theanodoctor.profiles").joinpath("theano_compat.yaml").is_file(),
            "missing": missing,
        }))
    """)
    # cwd is a temporary folder, so the repository root is not on sys.path
    found = json.loads(_must([sys.executable, "-c", code], cwd=tmp_path))
    for name in ("checks", "fixes", "profiles"):
        assert Path(found[name]).resolve() == REPO / name / "__init__.py", found
    assert found["yaml"] is True
    assert found["missing"] == {"checks": True, "fixes": True, "profiles": True}, found
