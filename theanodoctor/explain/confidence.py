"""How sure a finding is in this log: each signature's own confidence, lowered where the log
shows that what it names is not why the run failed.

- A signature whose context is missing, whose `unless` text appears, or whose Python does not
  match (`python`: the log must show a Python in range; `on_python`: it must not show one out
  of range) is only a hint (low).
- A warning (or an error Theano only reported and then went on without, see ``warning_ids``) is
  low when the log ends in an exception (or shows a traceback whose end the paste lacks, or a
  process killed by a signal: a segmentation fault, an abort, the out-of-memory killer), or
  shows a failure (a generic error such as a failed compilation), that no specific error explains,
  unless an error of the log points to the warning's own cause.
- A generic error (pygpu could not initialise, a compile failed) names no cause on its own: it
  is low unless a specific error, or a cause known to lead to it, is stated beside it, or its
  signature asks for the fact that decides among its roots (Theano's "no implementation available"
  for a convolution names them all)."""

from __future__ import annotations

from theanodoctor.kb_causes import Cause

from .scan import Hit, ScanResult

# Theano 1.0 prints `Can not use cuDNN on context X: <why>` and goes on without cuDNN when
# dnn.enabled is `auto`; with dnn.enabled=True it raises instead (the fatal texts).
NONFATAL_CUDNN_REPORT, FATAL_CUDNN_REPORT = "cudnn-cannot-use", "cudnn-enabled-unusable"
REPORT_SPAN = 20  # lines after the report that hold the compiler output it quotes


def warning_ids(scan: ScanResult, causes: dict[str, Cause]) -> set[str]:
    """Signature ids that only warn in this log: warnings, errors Theano logs and goes on after,
    and reasons for skipping cuDNN found only inside a non-fatal cuDNN report (the compiler's
    `cudnn.h: No such file` that Theano quotes there stopped nothing)."""
    found = {sig_id for sig_id, hit in scan.hits.items() if hit.signature.warning or hit.signature.logged}
    report = scan.hits.get(NONFATAL_CUDNN_REPORT)
    if report is None or FATAL_CUDNN_REPORT in scan.hits:
        return found
    reasons = {cause.id for cause in causes.values() if report.signature.cause in cause.explains}
    starts = [number for number, _, _ in report.evidence]

    def quoted(number: int) -> bool:
        return any(0 <= number - start <= REPORT_SPAN for start in starts)

    for sig_id, hit in scan.hits.items():
        if hit.signature.cause in reasons and hit.evidence and hit.count <= len(hit.evidence) \
                and all(quoted(n) for n, _, _ in hit.evidence):
            found.add(sig_id)
    return found


def confidences(scan: ScanResult, causes: dict[str, Cause], warnings: set[str]) -> dict[str, str]:
    """Per signature id (see the module's docstring)."""
    found = {sig_id: _confidence(hit, scan) for sig_id, hit in scan.hits.items()}
    _demote_lone_generic_errors(scan, causes, found, warnings)
    explained = any(sig_id not in warnings and level != "low" for sig_id, level in found.items())
    if run_failed(scan, causes, warnings) and not explained:
        # a warning of the cause an error of this log also points to (Theano's warning that a
        # compiledir's module is gone, then its exit handler failing on the same folder) is that failure
        erred = {hit.signature.cause for sig_id, hit in scan.hits.items() if sig_id not in warnings}
        found.update({sig_id: "low" for sig_id, hit in scan.hits.items()
                      if sig_id in warnings and hit.signature.cause not in erred})
    return found


def run_failed(scan: ScanResult, causes: dict[str, Cause], warnings: set[str]) -> bool:
    """The log ends in an exception, a traceback, a killed process, or shows a generic failure or
    an error of the model's code (a NaN loss stops no process)."""
    return scan.failed() or any(
        causes[hit.signature.cause].generic or causes[hit.signature.cause].user_error
        for sig_id, hit in scan.hits.items() if sig_id not in warnings)


def _confidence(hit: Hit, scan: ScanResult) -> str:
    sig, seen = hit.signature, scan.context_seen
    if sig.context and not any(c in seen for c in sig.context):
        return "low"
    if any(c in seen for c in sig.unless):
        return "low"
    if sig.python is not None and (scan.python_hint is None or scan.python_hint not in sig.python):
        return "low"
    if sig.on_python is not None and scan.python_hint is not None and scan.python_hint not in sig.on_python:
        return "low"  # the log's paths show a Python the message cannot come from in this reading
    return sig.confidence


def _demote_lone_generic_errors(scan: ScanResult, causes: dict[str, Cause], found: dict[str, str],
                                warnings: set[str]) -> None:
    def generic_error(sig_id: str, hit: Hit) -> bool:
        return causes[hit.signature.cause].generic and sig_id not in warnings

    stated = [(sig_id, hit.signature.cause) for sig_id, hit in scan.hits.items()
              if found[sig_id] != "low" and not generic_error(sig_id, hit)]
    specific_error = any(sig_id not in warnings for sig_id, _ in stated)
    leading_to = {other for _, cause in stated for other in causes[cause].explains}
    for sig_id, hit in scan.hits.items():
        # one that asks for the fact deciding among its roots names the failure and says what decides
        if generic_error(sig_id, hit) and not specific_error and hit.signature.cause not in leading_to \
                and not hit.signature.asks:
            found[sig_id] = "low"
