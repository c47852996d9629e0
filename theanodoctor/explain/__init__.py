"""`explain`: read an error log (streamed), match the signature catalogue, order causes root-first.

``explain_lines`` is the whole pipeline: scan the numbered lines once, turn the hits into
findings (cause, evidence, remedy, fix id, confidence), order them root cause first, and
refine the remedies with the values the log carries and, when given, the probe's facts."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, BinaryIO

from theanodoctor import kb_causes

from .result import GONE, MAX_EVIDENCE, RANK, RENEWED, Evidence, Explanation, Finding, build, conclude
from .scan import Scanner, ScanResult

__all__ = ["Evidence", "Explanation", "Finding", "explain_lines", "explain_stream", "explain_text"]


def explain_stream(stream: BinaryIO, facts: Any = None) -> Explanation:
    """The log read from a binary stream, in blocks (the fast path for big files)."""
    from .reader import numbered_blocks

    return _explain(lambda scanner: scanner.feed_blocks(numbered_blocks(stream)), facts, ())


def explain_lines(numbered: Iterable[tuple[int, str]], facts: Any = None,
                  context: tuple[str, ...] = ()) -> Explanation:
    """``context``: what the caller knows the log is about (e.g. "theano" for the output of
    `import theano`), counted as seen for signatures that need context."""
    return _explain(lambda scanner: scanner.feed(numbered), facts, context)


def _explain(feed: Callable[[Scanner], ScanResult], facts: Any, context: tuple[str, ...]) -> Explanation:
    from . import api_era, attr_era, config_era, keyword_era, missing_module
    from .refine import refine

    watch = api_era.WATCH + keyword_era.WATCH + attr_era.WATCH + config_era.WATCH + RENEWED + GONE
    scanner = Scanner(kb_causes.signatures(), watch=watch,
                      context=[sign for signs in keyword_era.SIGNS.values() for sign in signs])
    scanner.result.context_seen.update(c.lower() for c in context)
    scan = feed(scanner)
    shown, unclear = scan.facts.facts(failed=scan.failed(), warned=scan.warned())
    python = shown.get("python")
    if scan.python_hint is None and python and "." in python.value:
        scan.python_hint = python.value  # from a banner, python36.dll, cpython-37m ... (context.py)
    causes = kb_causes.causes()
    findings, asking = build(scan, causes)
    if scan.watched:
        watched = scan.watched_lines()
        produced = api_era.findings(watched, causes, shown) + config_era.findings(watched, causes, shown) + \
            keyword_era.findings(watched, causes, shown, scan.context_seen) + \
            attr_era.findings(watched, causes, shown, scan.context_seen) + missing_module.findings(watched, causes)
        findings = merge(findings, produced)
    findings, notes = refine(conclude(findings, scan, causes, shown, asking), scan, facts)
    final = Evidence(*scan.final_exception) if scan.final_exception else None
    return Explanation(findings=tuple(findings), significant=tuple(Evidence(n, t) for n, t in scan.significant()),
                       final_exception=final, lines=scan.lines, blank=scan.nonblank == 0, notes=tuple(notes),
                       probed=_probed(facts), shown=tuple(shown.values()), unclear=tuple(unclear.items()))


def merge(findings: list[Finding], produced: list[tuple[Finding, int]]) -> list[Finding]:
    """Findings of the producers beside the signatures (each with the line of the message it
    reads): one that names a cause already found joins it (the surer confidence, both details);
    one whose message line a signature already explains with confidence is left out (the
    hand-written row is the more specific). Judged and ordered with the others afterwards."""
    merged = list(findings)
    for extra, line in produced:
        same = next((i for i, f in enumerate(merged) if f.cause == extra.cause), None)
        if same is not None:
            old = merged[same]
            surer = min(old.confidence, extra.confidence, key=RANK.__getitem__)
            merged[same] = replace(old, confidence=surer, details=old.details + extra.details,
                                   values={**extra.values, **old.values},
                                   evidence=_one_per_line(old.evidence + extra.evidence),
                                   signatures=old.signatures + extra.signatures,
                                   signature_sources=old.signature_sources + extra.signature_sources)
        elif not any(f.confidence != "low" and any(e.line == line for e in f.evidence) for f in findings):
            merged.append(extra)
    return merged


def _one_per_line(evidence: tuple[Evidence, ...]) -> tuple[Evidence, ...]:
    """The evidence of two findings joined: one item per line, the one with a note where one has it."""
    by_line: dict[int, Evidence] = {}
    for item in evidence:
        if item.line not in by_line or (item.note and not by_line[item.line].note):
            by_line[item.line] = item
    return tuple(sorted(by_line.values(), key=lambda e: e.line))[:MAX_EVIDENCE]


def explain_text(text: str, context: tuple[str, ...] = ()) -> Explanation:
    from .reader import text_lines

    return explain_lines(text_lines(text), context=context)


def _probed(facts: Any) -> str | None:
    if facts is None:
        return None
    target = getattr(facts, "target", None)
    return target.get("python") if isinstance(target, dict) else None
