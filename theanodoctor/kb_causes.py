"""The cause catalogue: ``causes.yaml`` (each cause written once: text, remedy, fix id, source)
and ``signatures.yaml`` (patterns found in logs, each pointing at a cause, with its own source
and confidence). `explain` and the checks that read captured output share both."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from packaging.specifiers import SpecifierSet

from theanodoctor import kb_conditions, knowledge
from theanodoctor.fixes import FIX_IDS
from theanodoctor.kb_conditions import Condition
from theanodoctor.knowledge import KnowledgeError, choice, rows, source, spec, strings, table, text, where

CAUSES = "causes.yaml"
SIGNATURES = "signatures.yaml"
CONFIDENCES = ("high", "medium", "low")


class Cause(NamedTuple):
    id: str
    title: str
    cause: str
    remedy: str
    fix: str | None
    explains: tuple[str, ...]  # causes this one leads to (shown after it)
    generic: bool  # a symptom with many possible roots: shown after any specific cause
    source: str
    # conditions on the facts the log shows (kb_conditions; how explain uses them: explain/judge.py)
    needs: tuple[Condition, ...] = ()  # each must hold where the log shows its fact
    excludes: tuple[Condition, ...] = ()  # none may hold
    confirmed_by: tuple[Condition, ...] = ()  # all hold: they answer the `asks` of a low signature
    informational_if: tuple[Condition, ...] = ()  # one holds: a warning of this cause changed nothing
    user_error: bool = False  # the user's own model code or data, not the set-up (see causes.yaml)
    harmless: bool = False  # a warning of this cause changes nothing by its kind: listed with informational ones


class Signature(NamedTuple):
    id: str
    cause: str
    contains: tuple[str, ...]  # literal texts (any), lower-cased: a case-insensitive first filter
    regex: knowledge.Regex | None  # must match too when given; named groups become values
    context: tuple[str, ...]  # lower-cased; one of these must appear somewhere in the log, else confidence is low
    unless: tuple[str, ...]  # lower-cased; if one of these appears anywhere in the log, confidence is low
    python: SpecifierSet | None  # the Python seen in the log's paths must match, else confidence is low
    warning: bool  # a warning, not an error: not the cause of an exception nothing else explains
    confidence: str
    note: str  # shown with the evidence; {group} placeholders filled from the regex
    source: str
    logged: bool = False  # an error Theano logs and then goes on: like a warning, no cause of a later exception
    asks: str = ""  # the fact the log lacks that would decide (versions, OS ...): shown to the user
    code: knowledge.Regex | None = None  # must match the source line the traceback shows above the exception
    frame: knowledge.Regex | None = None  # must match the header of that line's frame (the file that raised)
    caller: knowledge.Regex | None = None  # must match the source line of one of the frames shown above it
    on_python: SpecifierSet | None = None  # a Python seen in the log's paths outside this: only a hint (low)
    unfixed: bool = False  # the cause's `fix` does not repair what this text shows: not offered with it

    def match(self, segment: str, lowered: str) -> dict[str, str] | None:
        """The named values when this signature matches one normalised log segment, else None."""
        if not any(lit in lowered for lit in self.contains):
            return None
        if self.regex is None:
            return {}
        found = self.regex.search(segment)
        return {k: v for k, v in found.groupdict().items() if v} if found else None


def _fix(name: str, row: Any) -> str | None:
    value = row.get("fix")
    if value in (None, "none"):
        return None
    if value not in FIX_IDS:
        raise KnowledgeError(f"{where(name, row)}: `fix` must be one of the fix ids or none, not {value!r}")
    return str(value)


def _regex(name: str, row: Any, key: str = "regex") -> knowledge.Regex | None:
    value = row.get(key)
    if value is None:
        return None
    return knowledge.Regex(str(value), re.IGNORECASE if row.get("nocase") else 0, f"{where(name, row)}: `{key}`")


def _asks(name: str, row: Any) -> str:
    # A cause that needs a fact the log lacks cannot be stated with high confidence.
    asks = text(name, row, "asks", required=False)
    if asks and row.get("confidence") == "high":
        raise KnowledgeError(f"{where(name, row)}: a signature that `asks` for a missing fact cannot be high "
                             "confidence (use medium or low)")
    return asks


def _conditions(name: str, row: Any, key: str) -> tuple[Condition, ...]:
    found = []
    for item in strings(name, row, key):
        try:
            found.append(kb_conditions.parse(item))
        except ValueError as exc:
            raise KnowledgeError(f"{where(name, row)}: `{key}`: {exc}") from exc
    return tuple(found)


def _user_error(row: Any) -> bool:
    # An error of the user's own code or data: never a generic symptom, nothing `fix` repairs.
    value = _flag(row, "user_error")
    if value and (row.get("generic") or row.get("fix") not in (None, "none")):
        raise KnowledgeError(f"{where(CAUSES, row)}: a `user_error` cause is neither `generic` nor fixed by `fix`")
    return value


def _flag(row: Any, key: str) -> bool:
    value = row.get(key, False)
    if not isinstance(value, bool):
        raise KnowledgeError(f"{where(CAUSES, row)}: `{key}` must be true or false, not {value!r}")
    return value


def _lowered(name: str, row: Any, key: str) -> tuple[str, ...]:
    # The scan compares them with the lower-cased log (case-insensitive, once per block).
    return tuple(s.lower() for s in strings(name, row, key))


@table
def causes() -> dict[str, Cause]:
    found: dict[str, Cause] = {}
    for row in rows(CAUSES, "causes"):
        cause = Cause(
            id=text(CAUSES, row, "id"), title=text(CAUSES, row, "title"), cause=text(CAUSES, row, "cause"),
            remedy=text(CAUSES, row, "remedy"), fix=_fix(CAUSES, row), explains=strings(CAUSES, row, "explains"),
            generic=bool(row.get("generic", False)), source=source(CAUSES, row, "source"),
            needs=_conditions(CAUSES, row, "needs"), excludes=_conditions(CAUSES, row, "excludes"),
            confirmed_by=_conditions(CAUSES, row, "confirmed_by"),
            informational_if=_conditions(CAUSES, row, "informational_if"),
            user_error=_user_error(row), harmless=_flag(row, "harmless"),
        )
        if cause.id in found:
            raise KnowledgeError(f"{where(CAUSES, row)}: cause `{cause.id}` is defined twice")
        found[cause.id] = cause
    for cause in found.values():
        unknown = [c for c in cause.explains if c not in found]
        if unknown:
            raise KnowledgeError(f"profiles/{CAUSES}: `{cause.id}` explains unknown cause(s) {', '.join(unknown)}")
    return found


@table
def signatures() -> tuple[Signature, ...]:
    known = causes()
    result: list[Signature] = []
    ids: set[str] = set()
    for row in rows(SIGNATURES, "signatures"):
        sig = Signature(
            id=text(SIGNATURES, row, "id"), cause=text(SIGNATURES, row, "cause"),
            contains=_lowered(SIGNATURES, row, "contains"), regex=_regex(SIGNATURES, row),
            context=_lowered(SIGNATURES, row, "context"), unless=_lowered(SIGNATURES, row, "unless"),
            python=spec(SIGNATURES, row, "python"), warning=bool(row.get("warning", False)),
            confidence=choice(SIGNATURES, row, "confidence", CONFIDENCES),
            note=text(SIGNATURES, row, "note", required=False), source=source(SIGNATURES, row, "source"),
            logged=bool(row.get("logged", False)), asks=_asks(SIGNATURES, row),
            code=_regex(SIGNATURES, row, "code"), frame=_regex(SIGNATURES, row, "frame"),
            caller=_regex(SIGNATURES, row, "caller"),
            on_python=spec(SIGNATURES, row, "on_python"),
            unfixed=bool(row.get("unfixed", False)),
        )
        if sig.id in ids:
            raise KnowledgeError(f"{where(SIGNATURES, row)}: signature `{sig.id}` is defined twice")
        ids.add(sig.id)
        if sig.cause not in known:
            raise KnowledgeError(f"{where(SIGNATURES, row)}: unknown cause `{sig.cause}`")
        if not sig.contains:
            raise KnowledgeError(f"{where(SIGNATURES, row)}: `contains` needs at least one literal text")
        if known[sig.cause].user_error and sig.confidence == "high":
            raise KnowledgeError(f"{where(SIGNATURES, row)}: an error of the user's code (`user_error` cause "
                                 f"`{sig.cause}`) is never named with high confidence: use low, or medium "
                                 f"where the message states the input's fault outright")
        result.append(sig)
    from theanodoctor import kb_keywords  # its signatures are derived from a table of its own

    for sig in kb_keywords.signatures(known):
        if sig.id in ids:
            raise KnowledgeError(f"profiles/{kb_keywords.KEYWORDS}: signature `{sig.id}` is defined twice")
        ids.add(sig.id)
        result.append(sig)
    return tuple(result)
