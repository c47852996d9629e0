"""What rules a candidate out: a violation names the one input whose removal lifts it (``mask``),
or 0 when the candidate is impossible whatever the inputs. Small helpers every side shares."""

from __future__ import annotations

from typing import NamedTuple

from packaging.version import InvalidVersion, Version

from theanodoctor import kb_cuda
from theanodoctor.resolver.inputs import BIT
from theanodoctor.resolver.model import Reason

OS_LABEL = {"windows": "Windows", "linux": "Linux", "macos": "macOS"}


class Violation(NamedTuple):
    mask: int     # the input whose removal lifts it; 0: the candidate itself is impossible
    rule: bool    # a table rule (False: only "not what was asked")
    about: int    # the inputs the rule concerns (to pick the reasons of a conflict)
    reason: Reason
    remedy: str = ""



def vkey(version: str) -> tuple[int, ...]:
    return kb_cuda.vtuple(version) or ()


def matches(spec: object, version: str | None) -> bool:
    if spec is None:
        return True
    if version is None:
        return False
    try:
        return Version(version) in spec  # type: ignore[operator]
    except InvalidVersion:
        return False


def asked(key: str, text: str) -> Violation:
    return Violation(BIT[key], False, BIT[key], Reason(text))
