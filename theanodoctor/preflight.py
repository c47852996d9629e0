"""`preflight`: `check --strict` and `smoke-test` on one target, judged as one verdict for CI.

The checks always run and always report. The smoke test runs only when the checks leave
something to prove: with no Theano, or an `import theano` that already fails in the probe, it is
skipped with that reason (it could only fail the same way, after a long wait).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from theanodoctor.engine import Check, Options
from theanodoctor.facts import Facts, dig, section
from theanodoctor.report import EXIT_BLOCKING, EXIT_OK, Report, gate_exit, judge


@dataclass(frozen=True)
class Preflight:
    report: Report
    smoke: Any | None  # smoke.result.SmokeResult; None when skipped
    smoke_skipped: str | None  # why the smoke test did not run
    elapsed_s: float = 0.0

    @property
    def checks_exit(self) -> int:
        return self.report.exit_code(strict=True)

    @property
    def exit_code(self) -> int:
        """0 both passed; 3 the doctor, a probe or the smoke script could not run; else 1."""
        return gate_exit(self.checks_exit, self.smoke.exit_code if self.smoke is not None else None,
                         smoke_required=True)

    @property
    def passed(self) -> bool:
        return self.exit_code == EXIT_OK

    @property
    def smoke_line(self) -> str:
        if self.smoke is None:
            return f"smoke test skipped: {self.smoke_skipped}"
        verdict = str(self.smoke.verdict)
        if verdict.startswith("Passed: "):
            return "smoke test passed: " + verdict[len("Passed: "):]
        return "smoke test failed: " + verdict

    @property
    def verdict(self) -> str:
        checks = self.report.verdict
        if self.checks_exit == EXIT_BLOCKING and not self.report.counts()["error"]:
            checks += ", and preflight fails on warnings"
        return f"{'Passed' if self.passed else 'Failed'}: checks say {checks}; {self.smoke_line}"

    def to_dict(self) -> dict[str, Any]:
        document = self.report.to_dict(strict=True)
        document["smoke"] = self.smoke.to_dict() if self.smoke is not None else None
        document["preflight"] = {"verdict": self.verdict, "passed": self.passed, "checks_exit_code": self.checks_exit,
                                 "smoke_exit_code": self.smoke.exit_code if self.smoke is not None else None,
                                 "smoke_skipped": self.smoke_skipped, "elapsed_s": round(self.elapsed_s, 3)}
        document["exit_code"] = self.exit_code
        return document


def fatal_reason(facts: Facts, python: str | None) -> str | None:
    """Why a smoke test cannot prove anything on this target (None: it can)."""
    if not python:
        return "no Python environment with Theano was found"
    target = section(facts, "target")
    if target.get("status") != "ok":
        return f"the target probe did not finish ({target.get('error') or target.get('status')})"
    imported = dig(target, "stages", "theano_import", default={})
    if not isinstance(imported, dict) or imported.get("ok"):
        return None
    error = imported.get("error")
    if isinstance(error, dict):
        text = f"{error.get('type') or 'Error'}: {error.get('message') or ''}".strip()
        if error.get("type") in ("ModuleNotFoundError", "ImportError") and "theano" in str(error.get("message")):
            return f"Theano is not installed in the target ({text})"
        return f"import theano already fails in the probe ({text.splitlines()[0] if text else 'no message'})"
    return "import theano already fails in the probe"


def profile_check(stack_id: str) -> Check:
    """`preflight --profile NAME`: one more pure check, that the environment is exactly that named
    stack (profiles/stacks.yaml): same Python, numpy, scipy and Theano, and for a GPU stack the
    same pygpu, CUDA and cuDNN, with a driver new enough. Unknown name: a usage error."""
    from theanodoctor import engine, kb_stacks
    from theanodoctor.clikit import Failure

    stack = kb_stacks.stack(stack_id)
    if stack is None:
        known = ", ".join(s.id for s in kb_stacks.stacks())
        raise Failure(f"--profile {stack_id!r}: no such stack (known: {known}; see `theanodoctor profiles`)", 2)

    def matches(facts: Facts, options: Options) -> engine.Outcome:
        from theanodoctor.resolver.machine import stack_mismatches

        differ = stack_mismatches(stack, facts)
        if not differ:
            return engine.ok(f"this environment is the stack {stack.id}")
        return engine.error(
            f"{len(differ)} pin{'s' if len(differ) > 1 else ''} of the stack {stack.id} "
            f"differ{'' if len(differ) > 1 else 's'}: "
            + ", ".join(m.name for m in differ),
            cause=f"The job expects exactly the stack {stack.id} ({stack.title}).",
            remedy=f"Rebuild the environment with `theanodoctor provision --profile {stack.id}`, or update "
                   "the profile the job asks for.",
            details=tuple(m.message for m in differ), data={"mismatches": [m.to_dict() for m in differ]})

    return engine.Check("profile-match", f"Matches the known-good stack {stack.id}", "profile", matches)


def run_preflight(python: str | None, pending: Any, checks: Sequence[Check], options: Options,
                  smoke_options: Any, on_smoke: Any = None) -> Preflight:
    """Wait for the probe (``gather.Pending``), judge, then smoke-test unless that is pointless.

    ``checks`` may end with ``profile_check(NAME)`` (`--profile`)."""
    started = time.monotonic()
    facts = pending.wait()
    report = judge(facts, checks, options)
    skipped = fatal_reason(facts, python)
    smoked = None
    if skipped is None and python:
        if on_smoke is not None:
            on_smoke(python)
        from theanodoctor.smoke import smoke_test

        smoked = smoke_test(python, smoke_options)
    return Preflight(report, smoked, skipped, time.monotonic() - started)
