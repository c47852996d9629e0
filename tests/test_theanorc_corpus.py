"""Real .theanorc files from public repositories (tests/theanorc_corpus/index.yaml: source and a
label written before the doctor saw them), each run through real Theano 1.0.5 (healthy37: import,
then a compiled computation) and through `check` and `fix`: the label matches what Theano does,
`check` raises an error exactly where Theano fails or silently leaves the GPU, and says nothing
blocking where it computes; `fix` never crashes and its undo restores the file byte for byte."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.cli_helpers import doctor

CORPUS = Path(__file__).with_name("theanorc_corpus")
ENTRIES = yaml.safe_load((CORPUS / "index.yaml").read_text())["files"]
COMPUTE = ("import theano, numpy, theano.tensor as T\n"
           "print('imported')\n"
           "x = T.matrix()\n"
           "f = theano.function([x], T.dot(x, x) + T.exp(x))\n"
           "print('computed', f(numpy.ones((3, 3), dtype=theano.config.floatX)).sum())\n")


def _real_theano(python: str, rc: Path, home: Path, compiledir: Path) -> str:
    env = {**os.environ, "THEANORC": str(rc), "HOME": str(home),
           "THEANO_FLAGS": f"base_compiledir={compiledir}"}  # shared and warm: the files set no compiledir
    done = subprocess.run([python, "-c", COMPUTE], capture_output=True, text=True, timeout=900, env=env)
    if "computed" in done.stdout:
        return "computes"
    return "compute-fails" if "imported" in done.stdout else "import-fails"


@pytest.fixture(scope="module")
def compiledir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("corpus-compiledir")


def _errors(doc: dict[str, Any]) -> set[str]:
    return {c["id"] for c in doc["checks"] if c["status"] == "error"}


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"][:3] for e in ENTRIES])
def test_real_config_file(entry: dict[str, Any], legacy_python: Callable[[str], str], guard_home: Path,
                          compiledir: Path, tmp_path: Path) -> None:
    python = legacy_python("healthy37")
    rc = guard_home / ".theanorc"
    shutil.copyfile(CORPUS / entry["file"], rc)
    original = rc.read_bytes()
    # A warm cache holds modules another compiler built: with a `cxx` of its own, the file gets the
    # fresh cache its user would have (Theano then compiles at import, and a missing cxx fails it).
    own = tmp_path / "compiledir" if "cxx" in rc.read_text() else compiledir
    real = _real_theano(python, rc, guard_home, own)
    fallback = entry["real"] == "cpu-fallback"
    assert real == ("computes" if fallback else entry["real"]), (entry, real)

    run = doctor("check", "--python", python, "--format", "json")
    assert run.code in (0, 1) and "Traceback" not in run.err, run.err
    doc = run.json()
    assert not [c["id"] for c in doc["checks"] if c["status"] in ("crash", "timeout")]
    errors = _errors(doc)
    if real == "computes" and not fallback:
        assert not errors, (entry["file"], errors)  # no false alarm
    else:
        assert errors, (entry["file"], "Theano fails or leaves the GPU, the doctor says nothing")
    if fallback:
        assert "theano-device" in errors

    state = tmp_path / "state"
    fixed = doctor("fix", "--python", python, "--yes", "--format", "json",
                   env={"THEANODOCTOR_STATE_DIR": str(state)})
    assert fixed.code in (0, 1) and "Traceback" not in fixed.err, fixed.err
    if fixed.json().get("steps"):
        assert doctor("fix", "--undo", env={"THEANODOCTOR_STATE_DIR": str(state)}).code == 0
    assert rc.read_bytes() == original
