"""End to end, for real, from PyPI: `provision --project` on two real repositories of the scan
corpus (tests/scan_corpus/*/SOURCE names each one's repository and commit, dated by --as-of from
there, since the trimmed trees carry no .git): scan, lock as of that date, build the env (virtualenv
for Python 2.7), `check`, `smoke-test`, and the import of each of the repository's own modules.
Downloads and built wheels come from pip's normal cache (PIP_CACHE_DIR). A missing interpreter or
network fails these tests, never skips them."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

from packaging.version import Version

from tests.cli_helpers import doctor
from tests.legacy_envs import REAL_HOME, find_interpreter

CORPUS = Path(__file__).parent / "scan_corpus"
PIP_ENV = {"PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR") or str(REAL_HOME / ".cache" / "pip")}


def _source_date(repo: Path) -> str:
    """The commit date the corpus noted for the repository (its SOURCE file's `date` line)."""
    line = next(line for line in (repo / "SOURCE").read_text().splitlines() if line.startswith("date "))
    return line.split()[1][:10]


def _provision(repo: Path, python: str, prefix: Path) -> dict[str, Any]:
    run = doctor("provision", "--project", str(repo), "--as-of", _source_date(repo), "--python", python,
                 "--prefix", str(prefix), "--format", "json", env=PIP_ENV, timeout=1800)
    assert run.code == 0, run.out[-4000:] + run.err[-4000:]
    doc: dict[str, Any] = run.json()
    assert doc["check"]["exit_code"] == 0 and doc["smoke"]["exit_code"] == 0
    imports = doc["imports"]
    assert imports and all(i["ok"] for i in imports), imports
    assert sorted(i["module"] for i in imports) == sorted(m["name"] for m in doc["lock"]["modules"])
    return doc


def _theano_config(python: Path, *names: str) -> list[str]:
    """What the real Theano in the env reads, its python run directly (no activation, no THEANORC)."""
    env = {k: v for k, v in os.environ.items() if k not in ("THEANORC", "THEANO_FLAGS")}
    code = f"import theano; print('\\n'.join(str(getattr(theano.config, n)) for n in {names!r}))"
    done = subprocess.run([str(python), "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-len(names):]


def test_a_python27_theano08_repository_builds_and_its_modules_import(tmp_path: Path) -> None:
    repo = CORPUS / "cnn-sentence"  # github.com/yoonkim/CNN_sentence: Python 2, theano.tensor.signal.downsample
    prefix = tmp_path / "cnn"
    doc = _provision(repo, str(find_interpreter("2.7")), prefix)
    lock = doc["lock"]
    assert (lock["python"], lock["theano"], lock["device"]) == ("2.7", "0.8.2", "cpu")
    assert doc["plan"]["commands"][0][1:3] == ["-m", "virtualenv"]
    numpy = next(p for p in lock["pins"] if p["name"] == "numpy")
    assert "resolved as of" in numpy["reason"] and Version(numpy["spec"].lstrip("=")) < Version("1.16")
    # the env's own theanorc takes effect for its python run directly
    rc = prefix / "theanorc"
    rc.write_text(rc.read_text() + "floatX = float32\n")
    assert _theano_config(prefix / "bin" / "python", "floatX", "device") == ["float32", "cpu"]


def test_a_python3_theano105_keras_repository_builds_and_its_modules_import(tmp_path: Path) -> None:
    repo = CORPUS / "deep-learning-models"  # github.com/fchollet/deep-learning-models: Keras 2 applications
    prefix = tmp_path / "dlm"
    doc = _provision(repo, str(find_interpreter("3.6")), prefix)
    lock = doc["lock"]
    assert (lock["python"], lock["theano"]) == ("3.6", "1.0.5")
    keras = next(p for p in lock["pins"] if p["name"].lower() == "keras")
    assert Version(keras["spec"].lstrip("=")) < Version("2.4")
    assert {"KERAS_BACKEND": "theano"}.items() <= {s["name"]: s["value"] for s in lock["settings"]}.items()
    checks = {c["id"]: c for c in doc["check"]["checks"]}
    assert str(prefix / "theanorc") in checks["theanorc-files"]["message"]
