"""An error of the user's own code or data ends the run: the warnings printed elsewhere are not why.

When the log's final exception is an error of the model's code or data (a cause marked
`user_error` in causes.yaml: a shape mismatch, an input `theano.function` cannot use, a
gradient that is not defined, NaN in the values) and no cause found in the log `explains` it
(a set-up problem known to lead to it), a finding that rests only on warnings or notes printed
elsewhere did not stop the run: it is shown after the error, at low confidence. Such a finding
is a warning or an error Theano logged and went on after (the signature says so), or one whose
every evidence line is a warning or a notice by its form: Theano's logger at WARNING, INFO or
DEBUG (`WARNING (theano.sandbox.cuda): ...`), Python's `warnings` module (`file.py:12:
UserWarning: ...`), or the banner of a device in use (`Using gpu device 0: ...`, `Mapped name
None to device cuda: ...`)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from theanodoctor.kb_causes import Cause

if TYPE_CHECKING:
    from .result import Finding

# Theano's logging handler prints `LEVEL (logger.name): message` (Theano rel-1.0.5
# theano/__init__.py:52-53); warnings.formatwarning prints `file:line: Category: message`.
NOTE_LINE = re.compile(r"^\s*(?:WARNING|INFO|DEBUG) \([\w.]+\):|^\S.*:\d+: \w*Warning: |^\s*\w*Warning: |"
                       r"^\s*Using (?:gpu device \d|cuDNN version)|^\s*Mapped name \S+ to device")


def beside_user_error(findings: list[Finding], causes: dict[str, Cause], final_line: int | None) -> list[Finding]:
    """``findings``, where the final exception is a user error nothing found explains, with
    those that rest only on warnings or notes lowered to low (``order`` puts them after it)."""
    if final_line is None:
        return findings
    user = {f.cause for f in findings if causes[f.cause].user_error and _in_final(f, final_line)}
    if not user or any(user & set(causes[f.cause].explains) for f in findings):
        return findings
    return [replace(f, confidence="low") if _only_notes(f, final_line) else f for f in findings]


def _in_final(finding: Finding, final_line: int) -> bool:
    # no exception line follows the final one: the lines after it are its message
    return any(e.line >= final_line for e in finding.evidence)


def _only_notes(finding: Finding, final_line: int) -> bool:
    if _in_final(finding, final_line):
        return False
    return finding.warning or finding.logged or bool(finding.evidence) and all(
        NOTE_LINE.search(e.text) for e in finding.evidence)
