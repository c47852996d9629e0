"""The root cause `explain` states in output captured from Theano in a target (a failed import, the
GPU's initialisation, a smoke run), for the checks, the smoke test and the fleet summary."""

from __future__ import annotations

import functools
from typing import NamedTuple

from theanodoctor.knowledge import DERIVED


class Diagnosis(NamedTuple):
    id: str
    cause: str
    remedy: str
    fix: str | None
    confidence: str
    source: str


# Bounded: summarize judges thousands of machines whose captured logs often repeat (cleared by
# knowledge.forget()).
@functools.lru_cache(maxsize=256)
def diagnose(log: str) -> Diagnosis | None:
    """The first cause `explain` states with confidence for ``log`` (Theano is the context), or None."""
    # imported here: the checks import this module, and `check` needs no log reader until a
    # captured output is to be read
    from theanodoctor.explain import explain_text

    found = explain_text(log, context=("theano", "pygpu")).recognised
    if not found:
        return None
    first = found[0]
    return Diagnosis(first.cause, first.explanation, first.remedy, first.fix, first.confidence, first.source)


DERIVED.append(diagnose)
