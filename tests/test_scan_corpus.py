"""`scan` on the corpus of real repositories against labels written before it ever saw them.
Each field is its own case; the disagreements measured afterwards are listed in misses.yaml and
expected to stay disagreements (strict), so a fix or a regression both show here."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from theanodoctor.scan import scan_repo

CORPUS = Path(__file__).resolve().parent / "scan_corpus"
LABELS = yaml.safe_load((CORPUS / "labels.yaml").read_text(encoding="utf-8"))["repos"]
MISSES = {(m["repo"], m["field"]): m for m in
          yaml.safe_load((CORPUS / "misses.yaml").read_text(encoding="utf-8"))["misses"]}
FIELDS = ("python", "theano_min", "theano_max", "frameworks")


def commit_date(folder: Path) -> datetime.date:
    """The date the repository's .git would give (the trimmed copy has none)."""
    line = next(x for x in (folder / "SOURCE").read_text(encoding="utf-8").splitlines() if x.startswith("date "))
    return datetime.date.fromisoformat(line.split()[1][:10])


_RESULTS: dict[str, Any] = {}


def scanned(name: str) -> dict[str, Any]:
    if name not in _RESULTS:
        result = scan_repo(CORPUS / name, as_of=commit_date(CORPUS / name))
        _RESULTS[name] = {"python": result.python_major, "theano_min": result.theano_min,
                          "theano_max": result.theano_max, "frameworks": sorted(f.name for f in result.frameworks)}
    return _RESULTS[name]


def test_the_corpus_is_real_and_labelled():
    folders = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
    assert len(folders) >= 25 and folders == sorted(LABELS)
    for name in folders:
        source = (CORPUS / name / "SOURCE").read_text(encoding="utf-8").splitlines()
        assert source[0].startswith("https://github.com/") and len(source[1].split()[1]) == 40
    assert set(MISSES) <= {(n, f) for n in LABELS for f in FIELDS}


@pytest.mark.parametrize("name, field", [
    pytest.param(n, f, marks=[pytest.mark.xfail(strict=True, reason=MISSES[(n, f)]["why"])] if (n, f) in MISSES else [])
    for n in sorted(LABELS) for f in FIELDS])
def test_scan_matches_the_label(name, field):
    want = LABELS[name][field]
    assert scanned(name)[field] == (sorted(want) if field == "frameworks" else want)
