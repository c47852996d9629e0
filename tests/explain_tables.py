"""What the tables of upstream messages in the explain tests share: the first cause `explain`
states for a text, and the check that each finding of a table can be opened and acted on."""

from __future__ import annotations

from theanodoctor.explain import explain_text
from theanodoctor.sources import problem


def first_cause(text: str) -> list[str]:
    """The first cause stated with confidence (high or medium), as a list of at most one."""
    return [f.cause for f in explain_text(text).recognised][:1]


def assert_sourced(cases: list[tuple[str, str]]) -> None:
    """Each text's first finding has a remedy, and its cause's and signatures' sources are ones a
    user can open (theanodoctor/sources.py)."""
    for text, cause in cases:
        finding = explain_text(text).recognised[0]
        assert finding.remedy and problem(finding.source) is None, cause
        assert finding.signature_sources and all(problem(s) is None for s in finding.signature_sources), cause
