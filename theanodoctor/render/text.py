"""The doctor-style text report (rich): a line per check, hints under problems, one verdict."""

from __future__ import annotations

import io

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from theanodoctor.engine import Result
from theanodoctor.render.style import Style
from theanodoctor.report import Report

GLYPHS = {
    "ok": ("✓", "[ok]", "green"),
    "warn": ("⚠", "[warn]", "yellow"),
    "error": ("✗", "[FAIL]", "red"),
    "skipped": ("-", "[skip]", "dim"),
    "timeout": ("⏱", "[time]", "magenta"),
    "crash": ("‼", "[crash]", "magenta"),
}


def _console(style: Style) -> Console:
    return Console(
        file=io.StringIO(),
        force_terminal=style.color,
        no_color=not style.color,
        color_system="standard" if style.color else None,
        width=style.width or 10_000,
        soft_wrap=style.width is None,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )


def _glyph(status: str, style: Style) -> tuple[str, str]:
    fancy, plain, colour = GLYPHS[status]
    return (fancy if style.unicode else plain), colour


def _result_lines(console: Console, result: Result, verbose: bool, style: Style) -> None:
    glyph, colour = _glyph(result.status, style)
    line = Text.assemble((glyph, f"bold {colour}"), " ", (result.id, "bold"), ": ", result.outcome.message)
    if verbose:
        line.append(f"  ({result.duration_s * 1000:.1f} ms)", style="dim")
    console.print(line)
    outcome = result.outcome
    problem = result.status not in ("ok", "skipped")
    arrow = "→" if style.unicode else "->"
    if problem and outcome.cause:
        console.print(Text("    why: ", style="dim") + Text(outcome.cause))
    if problem and outcome.remedy:
        console.print(Text(f"    {arrow} ", style=colour) + Text(outcome.remedy))
    if problem:
        for cmd in outcome.commands:
            console.print(Text("      $ ", style="dim") + Text(cmd, style="cyan"))
    if verbose or problem:
        shown = [d for d in outcome.details if d]
        for detail in shown if verbose else shown[:3]:
            console.print(Text("    · " if style.unicode else "    - ", style="dim") + Text(detail, style="dim"))
        if not verbose and len(shown) > 3:
            more = "    … " if style.unicode else "    ... "
            console.print(Text(f"{more}and {len(shown) - 3} more (-v shows them)", style="dim"))


PLAIN = Style(color=False, unicode=False, width=None)


def render_text(report: Report, verbose: bool = False, style: Style = PLAIN) -> str:
    console = _console(style)
    hidden = 0
    for result in report.results:
        if result.status == "skipped" and not verbose:
            hidden += 1  # not relevant here (GPU-only on a CPU setup, Windows-only, ...)
            continue
        _result_lines(console, result, verbose, style)
    if hidden:
        console.print(Text(f"{hidden} check{'s' if hidden != 1 else ''} skipped as not relevant here (-v shows them)",
                           style="dim"))
    verdict = report.verdict
    colour = "green" if verdict == "Ready for GPU" else "yellow" if verdict == "CPU only" else "red"
    console.print()
    console.print(Text.assemble(("Verdict: ", "bold"), (verdict, f"bold {colour}")))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    return str(out)


def render_list(checks: list, style: Style) -> str:
    console = _console(style)
    areas: dict[str, list] = {}
    for chk in checks:
        areas.setdefault(chk.area, []).append(chk)
    for area, members in areas.items():
        console.print(Text(area, style="bold underline"))
        for chk in members:
            console.print(f"  [bold]{escape(chk.id)}[/bold]  {escape(chk.title)}")
    return str(console.file.getvalue())  # type: ignore[attr-defined]
