"""The real-log sets `explain` is measured on, shared by tests/test_explain_corpus.py and
benchmarks/bench_explain.py.

- ``explain_corpus/cases.yaml``: the first corpus (the catalogue was built from its threads);
- ``explain_corpus/heldout/cases.yaml``: its held-out set;
- ``explain_corpus/<batch>/cases.yaml``: later batches, one folder each. A case with
  ``heldout: true`` was labelled first and kept apart from tuning; ``known_miss: "reason"``
  marks a case `explain` is known to get wrong (a strict xfail, so an improvement shows up).

A held-out part is measured untuned once and reported; ``opened: N`` on a case says it was opened
for tuning at stop N after that measurement (its figure before then stays in the set's README), so
it counts as tuned from then on and a newer set is the held-out one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import yaml

CORPUS = Path(__file__).resolve().parent / "explain_corpus"


class Case(NamedTuple):
    set: str  # "corpus", "heldout" or the batch folder's name
    log: Path
    label: dict[str, Any]

    @property
    def stem(self) -> str:
        return self.log.stem

    @property
    def heldout(self) -> bool:
        held = self.set == "heldout" or bool(self.label.get("heldout"))
        return held and not self.label.get("opened")


def _read(folder: Path, name: str) -> list[Case]:
    rows = yaml.safe_load((folder / "cases.yaml").read_text(encoding="utf-8"))["cases"]
    return [Case(name, folder / row["file"], row) for row in rows]


def all_cases() -> list[Case]:
    cases = _read(CORPUS, "corpus") + _read(CORPUS / "heldout", "heldout")
    for index in sorted(CORPUS.glob("*/cases.yaml")):
        if index.parent.name != "heldout":
            cases += _read(index.parent, index.parent.name)
    return cases
