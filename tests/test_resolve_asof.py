"""As-of resolution, for real: the doctor's pip (>= 26.0, --uploaded-prior-to) against PyPI for a
target Python it cannot run itself. Downloads go through pip's cache (PIP_CACHE_DIR); without
network these tests fail, never skip."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

from packaging.version import Version

from tests.cli_helpers import doctor
from tests.legacy_envs import REAL_HOME, find_interpreter
from theanodoctor.resolver.asof import PIP_WITH_CUTOFF, resolve_as_of

PIP_ENV = {"PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR") or str(REAL_HOME / ".cache" / "pip")}


def _pins(found: object) -> dict[str, str]:
    return {p.name.lower(): p.version for p in found.pins}  # type: ignore[attr-defined]


def _git_repo(folder: Path, day: str) -> None:
    """A real git history whose last commit is dated ``day`` (what scan dates a repository by)."""
    env = {**os.environ, "GIT_AUTHOR_DATE": f"{day}T12:00:00", "GIT_COMMITTER_DATE": f"{day}T12:00:00",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    for argv in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "code"]):
        subprocess.run(argv, cwd=folder, env=env, check=True, capture_output=True)


def test_an_unpinned_requirements_file_dated_2017_gets_the_numpy_of_2017(tmp_path: Path) -> None:
    repo = tmp_path / "paper"
    repo.mkdir()
    (repo / "requirements.txt").write_text("numpy\nscipy\nTheano\n")
    (repo / "train.py").write_text("import numpy\nimport theano\n\nprint 'training'\n")
    _git_repo(repo, "2017-06-30")
    run = doctor("resolve", "--project", str(repo), "--cpu-only", "--format", "json", env=PIP_ENV, timeout=600)
    assert run.code == 0, run.out[-3000:] + run.err[-3000:]
    lock = run.json()["lock"]
    assert lock["as_of"] == "2017-06-30" and lock["as_of_source"] == "git"
    assert lock["python"] == "2.7"
    pins = {p["name"].lower(): p for p in lock["pins"]}
    numpy = Version(pins["numpy"]["spec"].lstrip("="))
    # numpy 1.12.0 came out in January 2017 and 1.14.0 in January 2018; today's pip picks 1.16.6 for 2.7
    assert Version("1.12") <= numpy < Version("1.14"), pins["numpy"]
    assert "resolved as of 2017-06-30 by pip" in pins["numpy"]["reason"]
    # no marker limits Theano: the newest release (from the tables, it is source only), on Python 2.7
    assert pins["theano"]["spec"] == "==1.0.5" and "markers allow (any)" in pins["theano"]["reason"]
    assert all(p["spec"].startswith("==") or p["name"] == "python" for p in lock["pins"])


def test_the_same_requirements_a_year_later_get_a_newer_numpy() -> None:
    early = _pins(resolve_as_of(["numpy", "numpy<1.16.0"], "2.7", dt.date(2016, 6, 1)))
    later = _pins(resolve_as_of(["numpy", "numpy<1.16.0"], "2.7", dt.date(2017, 6, 1)))
    assert Version(early["numpy"]) < Version(later["numpy"]) < Version("1.16.0")


def test_a_source_only_requirement_is_pinned_to_its_newest_release_before_the_date() -> None:
    found = resolve_as_of(["numpy", "nolearn"], "2.7", dt.date(2016, 6, 1))
    assert found.ok, found.problem
    nolearn = next(p for p in found.pins if p.name == "nolearn")
    assert "source only" in nolearn.reason
    # nolearn 0.6.0 was uploaded in the second half of 2016; 0.5 is the newest final release before June
    assert Version(nolearn.version) < Version("0.6.0")


def test_a_wheel_whose_dependency_is_source_only_is_resolved_around_it() -> None:
    # Keras 2.1.2 has a wheel; its pyyaml had none for Linux in 2017
    found = resolve_as_of(["Keras==2.1.2"], "3.6", dt.date(2018, 1, 1))
    assert found.ok, found.problem
    pins = {p.name.lower(): p for p in found.pins}
    assert pins["keras"].version == "2.1.2" and "pyyaml has no wheel" in pins["keras"].reason
    assert "source only" in pins["pyyaml"].reason
    assert {"numpy", "scipy", "six"} <= set(pins)


def test_a_requirement_that_does_not_exist_is_a_result_not_a_traceback() -> None:
    found = resolve_as_of(["theanodoctor-no-such-package-xyz"], "3.6", dt.date(2018, 1, 1))
    assert not found.ok and "theanodoctor-no-such-package-xyz" in (found.problem or "")
    assert found.pins == ()


def test_a_pip_without_uploaded_prior_to_says_what_is_needed() -> None:
    old = str(find_interpreter("3.8"))  # its own pip predates 26.0
    found = resolve_as_of(["numpy"], "2.7", dt.date(2017, 1, 1), pip_python=old)
    assert not found.ok and f"needs pip >= {PIP_WITH_CUTOFF}" in (found.problem or "")
    assert old in (found.problem or "")
