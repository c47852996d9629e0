"""The explanation: findings built from a scan, ordered so the root cause comes first."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from theanodoctor.kb_causes import Cause

from .confidence import confidences, run_failed, warning_ids
from .context import Fact
from .judge import judge
from .scan import Hit, ScanResult
from .usercode import beside_user_error

RANK = {"high": 0, "medium": 1, "low": 2}
# a post's words that a later error replaced an earlier one ("I changed ..., now I get ..."): of two
# findings as sure, the one after them is the error the post asks about
RENEWED = ("new error", "another error", "a different error", "next error", "now i get", "now i'm getting",
           "now i am getting", "now i got", "now it says", "then i got")
# ... or that the earlier one, which the same line may name, is gone ("the error `X` disappears")
GONE = ("disappear", "went away", "goes away", "got past that", "got rid of that")
EXIT_RECOGNISED, EXIT_UNRECOGNISED = 0, 1
MAX_EVIDENCE = 4


@dataclass(frozen=True)
class Evidence:
    line: int
    text: str
    note: str = ""


@dataclass(frozen=True)
class Finding:
    cause: str
    title: str
    explanation: str
    remedy: str
    fix: str | None
    confidence: str
    evidence: tuple[Evidence, ...]
    signatures: tuple[str, ...]
    values: dict[str, str]
    source: str  # the cause's source
    signature_sources: tuple[str, ...] = ()  # where each matched message comes from
    warning: bool = False  # only warnings point at this cause
    logged: bool = False  # only errors Theano logs and goes on after point at it
    details: tuple[str, ...] = ()  # remedy refined with values from the log and probe facts
    consequence_of: str | None = None
    asks: tuple[str, ...] = ()  # facts the log lacks that would decide between this cause and others
    context: tuple[str, ...] = ()  # what the log shows that lowered or raised this finding's confidence (judge.py)
    informational: bool = False  # a warning the log shows changed nothing (judge.py): nothing to do


@dataclass(frozen=True)
class Explanation:
    findings: tuple[Finding, ...]
    significant: tuple[Evidence, ...]
    final_exception: Evidence | None
    lines: int
    blank: bool = False  # nothing but empty lines was read
    probed: str | None = None  # the interpreter whose facts refined the explanation
    notes: tuple[str, ...] = field(default_factory=tuple)
    shown: tuple[Fact, ...] = ()  # what the log shows (context.py)
    unclear: tuple[tuple[str, tuple[str, ...]], ...] = ()  # facts the log shows with several values

    @property
    def recognised(self) -> tuple[Finding, ...]:
        """Findings stated with confidence (high or medium); low ones are only possibilities."""
        return tuple(f for f in self.findings if f.confidence != "low")

    @property
    def exit_code(self) -> int:
        return EXIT_RECOGNISED if self.recognised else EXIT_UNRECOGNISED

    def to_dict(self) -> dict[str, Any]:
        return {
            "recognised": bool(self.recognised),
            "findings": [asdict(f) for f in self.findings],
            "significant_lines": [asdict(e) for e in self.significant],
            "final_exception": asdict(self.final_exception) if self.final_exception else None,
            "lines_read": self.lines,
            "probed": self.probed,
            "notes": list(self.notes),
            "exit_code": self.exit_code,
            "log_shows": {f.name: {"value": f.value, "line": f.line, "text": f.text} for f in self.shown},
            "log_shows_several": {name: list(values) for name, values in self.unclear},
        }


def _evidence(hits: list[Hit]) -> tuple[Evidence, ...]:
    items: dict[int, Evidence] = {}
    for hit in hits:
        for number, text, note in hit.evidence:
            if number not in items or (note and not items[number].note):  # a hit's note, where one has it
                items[number] = Evidence(number, text, note)
    return tuple(sorted(items.values(), key=lambda e: e.line)[:MAX_EVIDENCE])


def build(scan: ScanResult, causes: dict[str, Cause]) -> tuple[list[Finding], set[str]]:
    """The signatures' findings, one per cause, unjudged; and the causes whose finding is low by
    its own signature's choice, for want of a fact (judge.py may raise them)."""
    by_cause: dict[str, list[Hit]] = {}
    for hit in scan.hits.values():
        by_cause.setdefault(hit.signature.cause, []).append(hit)
    warnings = warning_ids(scan, causes)
    levels = confidences(scan, causes, warnings)
    findings = []
    asking = set()
    for cause_id, hits in by_cause.items():
        cause = causes[cause_id]
        confidence = min((levels[h.signature.id] for h in hits), key=RANK.__getitem__)
        values: dict[str, str] = {}
        for hit in sorted(hits, key=lambda h: RANK[h.signature.confidence]):
            for key, value in hit.values.items():
                values.setdefault(key, value)
        sources = tuple(dict.fromkeys(h.signature.source for h in hits))
        # A finding is a warning (or only logged) when the hits that give it its confidence are:
        # a low hint of an error (a `device=gpu` flag) does not make a medium warning an error.
        sure = [h for h in hits if levels[h.signature.id] == confidence]
        if any(levels[h.signature.id] == h.signature.confidence == "low" and h.signature.asks for h in hits):
            asking.add(cause_id)
        findings.append(Finding(
            cause=cause.id, title=cause.title, explanation=cause.cause, remedy=cause.remedy,
            fix=None if any(h.signature.unfixed for h in hits) else cause.fix,
            # (the notes of the hits that give the finding its confidence first: a hint's reading is not the log's)
            confidence=confidence, evidence=_evidence(sorted(hits, key=lambda h: RANK[levels[h.signature.id]])),
            signatures=tuple(sorted(h.signature.id for h in hits)),
            values=values, source=cause.source, signature_sources=sources,
            warning=all(h.signature.warning for h in sure),
            # (a compiler's error Theano only quotes in a report it went on after is logged too)
            logged=all(h.signature.id in warnings and not h.signature.warning for h in sure),
            asks=tuple(dict.fromkeys(h.signature.asks for h in hits if h.signature.asks)),
        ))
    return findings, asking


def conclude(findings: list[Finding], scan: ScanResult, causes: dict[str, Cause], shown: dict[str, Fact],
             asking: set[str]) -> list[Finding]:
    """Every finding (the signatures' and the producers' beside them) judged once against what the
    log shows (``shown``, context.py) and the user-error rule, then ordered root cause first."""
    if shown:
        findings = judge(findings, causes, shown, asking, run_failed(scan, causes, warning_ids(scan, causes)))
    final_line = scan.final_exception[0] if scan.final_exception else None
    renewed = max(filter(None, (_renewed_after(number, text) for number, text, _, _ in scan.watched_lines())),
                  default=None)
    return order(beside_user_error(findings, causes, final_line), causes, final_line, renewed)


def _renewed_after(number: int, text: str) -> int | None:
    """The first line of what the post says came later: the line itself after words of a new error
    ("now I get"), the next one after words that an error is gone (the line may name the gone one)."""
    lowered = text.lower()
    if any(words in lowered for words in GONE):
        return number + 1
    return number if any(words in lowered for words in RENEWED) else None


def order(findings: list[Finding], causes: dict[str, Cause], final_line: int | None,
          renewed: int | None = None) -> list[Finding]:
    """Root cause first: a cause another found cause explains comes after it (unless only a low
    hint explains a stated one); errors before warnings, a warning about the model's own numbers
    (a `user_error` cause: PyMC3's checks of its draws) after the set-up's warnings, a warning the
    log shows changed nothing (informational) or one harmless by its kind (a library's deprecation
    notice) after the other set-up warnings, errors Theano only logs (and goes on after) after
    the others, a generic symptom after specific causes, a low hint after stated findings; then
    one not only above the post's last words of a new error (line ``renewed``, RENEWED or GONE:
    what the post says came after it, however sure that one is), then by confidence, then what the
    final exception line says (or a cause of that), then by where it appears first."""
    level = {f.cause: f.confidence for f in findings}
    explained_by: dict[str, str] = {}
    for cause_id in level:
        for other in causes[cause_id].explains:
            # a low hint is only a possibility: it makes no stated (high/medium) finding its consequence
            if other in level and other != cause_id and (level[cause_id] != "low" or level[other] == "low"):
                explained_by.setdefault(other, cause_id)
    marked = [f if f.cause not in explained_by else replace(f, consequence_of=explained_by[f.cause]) for f in findings]
    # a warning that explains a found error is that error's root: ranked with the errors
    roots_of_errors = {explained_by[f.cause] for f in findings if f.cause in explained_by and not f.warning}

    said_last = {f.cause for f in findings if any(e.line == final_line for e in f.evidence)}

    def key(f: Finding) -> tuple[int, ...]:
        first = f.evidence[0].line if f.evidence else 0
        # what the final exception says, or a cause of it
        on_final = f.cause in said_last or any(c in said_last for c in causes[f.cause].explains)
        replaced = renewed is not None and all(e.line < renewed for e in f.evidence)
        cause = causes[f.cause]
        warning = f.warning and f.cause not in roots_of_errors
        return (f.consequence_of is not None, warning, warning and cause.user_error,
                f.informational or (warning and cause.harmless), f.logged,
                cause.generic,
                f.confidence == "low",
                replaced, RANK[f.confidence], not on_final, first)

    return sorted(marked, key=key)
