"""GitHub Actions workflow commands: `::error title=…::…` annotations for the problems found.

Escaping follows the Actions toolkit (`@actions/core` command.ts): in the message `%`, `\\r`,
`\\n` become `%25`, `%0D`, `%0A`; in a property value `:` and `,` become `%3A`, `%2C` as well.
"""

from __future__ import annotations

from typing import Any

from theanodoctor.report import Report

LEVELS = {"error": "error", "crash": "error", "timeout": "error", "warn": "warning"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, title: str | None = None) -> str:
    props = f" title={escape_property(title)}" if title else ""
    return f"::{level}{props}::{escape_data(message)}"


def _check_message(result: Any) -> str:
    out = result.outcome
    parts = [out.message, f"why: {out.cause}" if out.cause else "", f"fix: {out.remedy}" if out.remedy else ""]
    parts += [f"$ {c}" for c in out.commands]
    return "\n".join(p for p in parts if p)


def check_annotations(report: Report) -> list[str]:
    """An annotation per problem, at its own level (a warning stays a warning even though
    preflight fails on it: the closing annotation says so)."""
    lines = []
    for result in report.results:
        level = LEVELS.get(result.status)
        if level is None:
            continue
        lines.append(command(level, _check_message(result), f"theanodoctor {result.id} ({result.status})"))
    return lines


def smoke_annotations(smoke: Any) -> list[str]:
    lines = []
    diagnosis = smoke.diagnosis or {}
    for stage in smoke.stages:
        if stage.passed or (stage.error or "").startswith("not run"):
            continue
        text = "\n".join(p for p in [stage.error or "failed", f"why: {diagnosis.get('cause')}"
                                     if diagnosis.get("cause") else "",
                                     f"fix: {diagnosis.get('remedy')}" if diagnosis.get("remedy") else ""] if p)
        lines.append(command("error", text, f"theanodoctor smoke-test {stage.name}"))
    if smoke.exit_code and not lines:
        lines.append(command("error", smoke.verdict, "theanodoctor smoke-test"))
    return lines


def render_github(report: Report, smoke: Any | None, verdict: str, passed: bool) -> str:
    lines = check_annotations(report)
    if smoke is not None:
        lines += smoke_annotations(smoke)
    lines.append(command("notice" if passed else "error", verdict, "theanodoctor preflight"))
    return "\n".join(lines) + "\n"
