"""Markdown: the paste-ready `report` block, and the preflight job summary for GitHub Actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from theanodoctor import __version__
from theanodoctor.report import Report

MARK = {"ok": "ok", "warn": "⚠ warn", "error": "✗ error", "skipped": "skipped", "timeout": "⏱ timeout",
        "crash": "‼ crash"}


def cell(value: Any) -> str:
    """A table cell: pipes escaped, line breaks kept as <br>."""
    text = "" if value is None else str(value)
    return text.replace("|", "\\|").replace("\r", "").replace("\n", "<br>") or " "


def code(value: Any) -> str:
    text = str(value)
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}" if text else "(empty)"


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def problems(report: Report) -> list[str]:
    """A bullet per check that is not ok or skipped: id, status, message, why, fix."""
    lines = []
    for result in report.results:
        if result.status in ("ok", "skipped"):
            continue
        out = result.outcome
        lines.append(f"- **{MARK[result.status]}** {code(result.id)}: {out.message}")
        if out.cause:
            lines.append(f"  - why: {out.cause}")
        if out.remedy:
            lines.append(f"  - fix: {out.remedy}")
        lines += [f"  - {code(c)}" for c in out.commands]
    return lines


def summary_line(report: Report) -> str:
    counts = report.counts()
    parts = ", ".join(f"{counts[s]} {s}" for s in ("ok", "warn", "error", "timeout", "crash", "skipped") if counts[s])
    return f"**Verdict: {report.verdict}** ({parts})"


def _nothing_set(facts: Any) -> str:
    """Why the config table is empty: nothing set, or a config file that cannot be read."""
    files = facts.theanorc.get("files") if isinstance(facts.theanorc, dict) else None
    broken = [f for f in files or [] if isinstance(f, dict) and f.get("exists")
              and isinstance(f.get("parse"), dict) and f["parse"].get("ok") is False]
    if broken:
        return "; ".join(f"the config file {f.get('path')} cannot be read the way Theano reads it "
                         f"({f['parse'].get('error_type')}), so what it sets is unknown" for f in broken)
    return "nothing set by THEANO_FLAGS or a config file"


def render_report(report: Report, redacted: bool) -> str:
    from theanodoctor.fleet.config_sources import config_note, effective_config
    from theanodoctor.fleet.keyfacts import key_facts

    facts = report.facts
    rows = [(k.label, k.value, k.where or "") for k in key_facts(facts)]
    config = [(code(r.key), code(r.value) if r.value is not None else "?", r.source) for r in effective_config(facts)]
    out = ["### theanodoctor report", "", table(("", "found", "where / note"), rows), "",
           "#### Effective Theano config", ""]
    note = config_note(facts)
    if note:
        out += [f"_{note}_", ""]
    out += [table(("key", "value", "from"), config) if config else f"_{_nothing_set(facts)}_", "",
            "#### Checks", "", summary_line(report), ""]
    out += problems(report) or ["No problems found."]
    privacy = ("redacted: home folder shown as ~, user and host names, GPU UUIDs and serials removed"
               if redacted else "not redacted")
    out += ["", f"<sub>theanodoctor {__version__} · snapshot {facts.created} · {privacy}</sub>"]
    return "\n".join(out) + "\n"


def render_preflight(preflight: Any) -> str:
    """The job summary (GITHUB_STEP_SUMMARY): verdict, the problems, the smoke stages."""
    report, smoke = preflight.report, preflight.smoke
    icon = "✅" if preflight.passed else "❌"
    out = [f"## {icon} theanodoctor preflight: {'passed' if preflight.passed else 'failed'}", "",
           preflight.verdict, "", "### Checks (strict: warnings fail)", "", summary_line(report), ""]
    out += problems(report) or ["No problems found."]
    out += ["", "### Smoke test", ""]
    if smoke is None:
        out.append(f"Skipped: {preflight.smoke_skipped}")
    else:
        rows = [(s.name, "passed" if s.passed else "failed", s.ran_on or "-",
                 _seconds(s.compile_s), _seconds(s.run_s), s.error or "") for s in smoke.stages]
        out += [f"{smoke.verdict} (device={smoke.device}, {smoke.elapsed_s:.1f} s)", "",
                table(("stage", "result", "ran on", "compile", "run (median)", "error"), rows)]
        if smoke.diagnosis:
            out += ["", f"- why: {smoke.diagnosis['cause']}", f"- fix: {smoke.diagnosis['remedy']}"]
    return "\n".join(out) + "\n"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f} s"
