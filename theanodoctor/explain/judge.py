"""A finding's confidence judged against what the log shows (context.py) and the conditions its
cause states (the `needs`, `excludes`, `confirmed_by` and `informational_if` fields of
causes.yaml, kb_conditions.py):

- a cause the log's facts contradict (a need the log shows unmet, an exclusion it shows) is only
  a possibility (low), with the contradicting fact in its `context`, except a warning that the
  same fact makes informational;
- a warning whose cause is informational under a fact the log shows (cuDNN in use after the
  "more recent than Theano" warning) says so in place of its remedy, and offers no repair:
  nothing needs changing;
- a finding that is low only because its signature asks for a fact (the row's own confidence,
  not lowered for a missing context or for a warning in a failed run) is raised to medium when
  the log shows every fact of its cause's `confirmed_by`, and they hold."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from theanodoctor.kb_causes import Cause
from theanodoctor.kb_conditions import Condition, holds

from .context import KERAS_BACKENDS, PACKAGE_NAMES, PLATFORM_NAMES, Fact

if TYPE_CHECKING:
    from .result import Finding


def judge(findings: list[Finding], causes: dict[str, Cause], facts: dict[str, Fact],
          asking: set[str], failed: bool) -> list[Finding]:
    """``asking``: the causes whose finding is low by its own signature's choice, for want of a fact;
    ``failed``: the run failed (confidence.run_failed). A warning stays no answer to a failed run
    once the findings that explained the failure were found contradicted."""
    values = {name: fact.value for name, fact in facts.items() if not fact.said}  # a claim decides nothing
    judged = [_judged(f, causes[f.cause], facts, values, f.cause in asking) for f in findings]
    if failed and judged != findings and not any(
            f.confidence != "low" and not (f.warning or f.logged) for f in judged):
        judged = [replace(f, confidence="low") if f.warning or f.logged else f for f in judged]
    return judged


def _judged(finding: Finding, cause: Cause, facts: dict[str, Fact], values: dict[str, str],
            asking: bool) -> Finding:
    unmet = [c for c in cause.needs if holds(c, values) is False]
    # (a fact that makes the cause's warning informational does not exclude that warning)
    excluded = [c for c in cause.excludes if holds(c, values) is True
                and not (finding.warning and c in cause.informational_if)]
    if unmet or excluded:
        why = (f"this cause needs {_wording(unmet[0])}" if unmet else f"this cause does not arise with "
               f"{_wording(excluded[0])}")
        fact = facts[(unmet or excluded)[0].fact]
        return replace(finding, confidence="low", context=finding.context + (f"The log shows {fact.says()}: {why}.",))
    informational = [c for c in cause.informational_if if holds(c, values) is True]
    if finding.warning and informational:
        fact = facts[informational[0].fact]
        said = f"The log shows {fact.says()}: this warning is informational, nothing needs changing for it."
        return replace(finding, remedy=said, fix=None, informational=True)  # (no repair offered for what works)
    if asking and finding.confidence == "low" and cause.confirmed_by and not (finding.warning or finding.logged) \
            and not cause.generic and all(holds(c, values) is True for c in cause.confirmed_by):
        shown = "; ".join(facts[c.fact].says() for c in cause.confirmed_by)
        return replace(finding, confidence="medium",
                       context=finding.context + (f"The log answers what this cause asks: it shows {shown}.",))
    return finding


def _wording(condition: Condition) -> str:
    if condition.fact == "platform":
        return f"{'a' if condition.op == '=' else 'no'} {PLATFORM_NAMES[condition.value]} machine"
    if condition.fact == "backend":
        return f"{'the' if condition.op == '=' else 'no'} {condition.value} GPU back-end"
    if condition.fact == "device":
        return "a CPU-only run (device=cpu, no GPU in use)"
    if condition.fact == "keras_backend":
        which = "its" if condition.op == "=" else "another than its"
        return f"Keras on {which} {KERAS_BACKENDS[condition.value]} back-end"
    if condition.fact == "floatx":
        return f"floatX {'set to' if condition.op == '=' else 'other than'} {condition.value}"
    if not condition.op:
        return f"{condition.fact} shown in the log"
    return f"{PACKAGE_NAMES.get(condition.fact, condition.fact)} {condition.op} {condition.value}"
