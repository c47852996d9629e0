"""A judged report: the facts, the check results, the verdict and the exit code."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from theanodoctor.engine import Check, Options, Result, run_checks
from theanodoctor.facts import SCHEMA_VERSION, Facts

# Exit codes (documented in `theanodoctor --help` and the README).
EXIT_OK = 0
EXIT_BLOCKING = 1
EXIT_USAGE = 2
EXIT_DOCTOR = 3

GPU_PATH_CHECK = "gpu-path"


@dataclass(frozen=True)
class Report:
    facts: Facts
    results: tuple[Result, ...]
    options: Options = Options()

    def counts(self) -> Counter[str]:
        return Counter(r.status for r in self.results)

    @property
    def gpu_ready(self) -> bool:
        return any(r.id == GPU_PATH_CHECK and r.outcome.data.get("gpu_ready") for r in self.results)

    @property
    def verdict(self) -> str:
        counts = self.counts()
        errors = f"{counts['error']} error{'s' if counts['error'] != 1 else ''}"
        if counts["error"] and all(r.outcome.data.get("no_theano") for r in self.results if r.status == "error"):
            return f"No Theano: {errors} (`theanodoctor resolve` / `provision` build an environment)"
        if counts["error"]:
            return f"Broken: {errors}"
        failed = counts["crash"] + counts["timeout"]
        if failed:
            return f"Incomplete: {failed} check{'s' if failed != 1 else ''} could not finish"
        verdict = "Ready for GPU" if self.gpu_ready else "CPU only"
        if counts["warn"]:
            verdict += f" ({counts['warn']} warning{'s' if counts['warn'] != 1 else ''})"
        return verdict

    def exit_code(self, strict: bool = False) -> int:
        counts = self.counts()
        if counts["error"]:
            return EXIT_BLOCKING
        if counts["crash"] or counts["timeout"]:
            return EXIT_DOCTOR
        if strict and counts["warn"]:
            return EXIT_BLOCKING
        return EXIT_OK

    def to_dict(self, strict: bool = False) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "verdict": self.verdict,
            "gpu_ready": self.gpu_ready,
            "exit_code": self.exit_code(strict),
            "summary": dict(sorted(self.counts().items())),
            "checks": [
                {
                    "id": r.id,
                    "title": r.title,
                    "area": r.area,
                    "status": r.status,
                    "message": r.outcome.message,
                    "cause": r.outcome.cause,
                    "remedy": r.outcome.remedy,
                    "commands": list(r.outcome.commands),
                    "fix_id": r.outcome.fix_id,
                    "details": list(r.outcome.details),
                    "data": r.outcome.data,
                    "duration_s": round(r.duration_s, 6),
                }
                for r in self.results
            ],
            "facts": self.facts.to_dict(),
        }


def gate_exit(checks_exit: int, smoke_exit: int | None, smoke_required: bool) -> int:
    """The exit code of a gate (`preflight`, and each machine in `summarize`): the worst of the
    checks' code and the smoke test's; a required smoke test that did not run proves nothing, so
    it fails the gate. EXIT_DOCTOR (3) is the highest code, so it wins."""
    codes = {checks_exit, smoke_exit if smoke_exit is not None else EXIT_OK}
    if smoke_exit is None and smoke_required and checks_exit == EXIT_OK:
        codes.add(EXIT_BLOCKING)
    return max(codes)


def judge(facts: Facts, checks: Sequence[Check], options: Options | None = None) -> Report:
    """Run ``checks`` on ``facts`` and judge the results with the same ``options``."""
    options = options or Options()
    return Report(facts, tuple(run_checks(facts, checks, options)), options)
