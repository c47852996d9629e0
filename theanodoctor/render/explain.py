"""`explain` as text: each cause with its evidence, remedy and fix id, root cause first; or,
when nothing is recognised, the lines that looked significant and where to get help."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from theanodoctor.explain import Explanation, Finding
from theanodoctor.fixes import fix_offer
from theanodoctor.render.style import Style
from theanodoctor.render.text import PLAIN, _console

COLOURS = {"high": "red", "medium": "yellow", "low": "dim"}
MAX_SIGNIFICANT = 15


def _finding(console: Console, number: int, finding: Finding, style: Style) -> None:
    arrow = "→" if style.unicode else "->"
    head = Text.assemble((f"{number}. ", "bold"), (finding.title, f"bold {COLOURS[finding.confidence]}"),
                         (f"  [{finding.confidence} confidence]", "dim"))
    lines = [head]
    if finding.consequence_of:
        lines.append(Text(f"   a consequence of {finding.consequence_of} (above)", style="dim"))
    lines.append(Text("   why: ", style="dim") + Text(finding.explanation))
    for ev in finding.evidence:
        lines.append(Text(f"   line {ev.line}: ", style="dim") + Text(ev.text))
        if ev.note:
            lines.append(Text(f"      ({ev.note})", style="dim"))
    lines.append(Text(f"   {arrow} ") + Text(finding.remedy))
    lines.extend(Text(f"     {detail}") for detail in finding.details)
    lines.extend(Text("   to decide: ", style="dim") + Text(ask) for ask in finding.asks)
    lines.extend(Text("   in this log: ", style="dim") + Text(said) for said in finding.context)
    if finding.fix:
        can = Text(fix_offer(finding.fix), style="bold")
        lines.append(Text("   fix: ", style="dim") + can)
    lines.append(Text(f"   cause id: {finding.cause}; source: {finding.source}", style="dim"))
    for line in lines:
        console.print(line)
    console.print()


def render_explanation(explanation: Explanation, style: Style = PLAIN) -> str:
    console = _console(style)
    sure = explanation.recognised
    maybe = tuple(f for f in explanation.findings if f.confidence == "low")
    probed = f", refined with facts from {explanation.probed}" if explanation.probed else ""
    console.print(Text(f"read {explanation.lines} line{'s' if explanation.lines != 1 else ''}{probed}", style="dim"))
    for number, finding in enumerate(sure, 1):
        _finding(console, number, finding, style)
    if not sure:
        console.print(Text("No cause recognised with confidence; the likeliest readings follow, at low confidence."
                           if maybe else "No known cause recognised.", style="bold yellow"))
        _significant(console, explanation)
    if maybe:
        console.print(Text("Possibly related (low confidence):", style="bold"))
        for number, finding in enumerate(maybe, len(sure) + 1):
            _finding(console, number, finding, style)
    _shown(console, explanation)
    for note in explanation.notes:
        console.print(Text(note, style="dim"))
    if not sure:
        console.print(Text("Run `theanodoctor report` in the failing environment and include it, with the full "
                           "log, when you ask for help (Theano users' list, the project's issue tracker)."))
    readings = f"{len(maybe)} low-confidence reading{'s' if len(maybe) != 1 else ''}"
    verdict = (f"{len(sure)} cause{'s' if len(sure) != 1 else ''} recognised" if sure else
               f"no cause recognised with confidence ({readings})" if maybe else "no known cause recognised")
    console.print(Text.assemble(("Verdict: ", "bold"), (verdict, "bold green" if sure else "bold yellow")))
    return str(console.file.getvalue())  # type: ignore[attr-defined]


def _significant(console: Console, explanation: Explanation) -> None:
    lines = list(explanation.significant)
    final = explanation.final_exception
    if final and all(e.line != final.line for e in lines):
        lines.append(final)
    if not lines:
        console.print(Text("No error, exception or compiler line was found in the input."))
        return
    console.print(Text("Lines that look significant:"))
    shown = lines if len(lines) <= MAX_SIGNIFICANT else lines[:5] + lines[-(MAX_SIGNIFICANT - 5):]
    for ev in shown:
        console.print(Text(f"   line {ev.line}: ", style="dim") + Text(ev.text))
    if final:
        console.print(Text(f"   final exception (line {final.line}): ", style="dim") + Text(final.text))


def _shown(console: Console, explanation: Explanation) -> None:
    """What the log shows about the machine and the stack (explain/context.py)."""
    if not explanation.shown and not explanation.unclear:
        return
    console.print(Text("What the log shows:", style="bold"))
    for fact in explanation.shown:
        console.print(Text("   ") + Text(fact.says()))
    for name, values in explanation.unclear:
        console.print(Text(f"   {name}: several ({', '.join(values)}), so it decides nothing", style="dim"))
    console.print()
