"""Text for `resolve` (the pinned matrix with its reasons, or the conflicts with ways out) and
`profiles` (the named stacks). Returns text, never prints."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from theanodoctor.render.style import Style
from theanodoctor.render.text import _console, _glyph


def _cites(reason: Any, verbose: bool) -> str:
    found = [c.label() + (f" <- {c.source}" if verbose else "") for c in reason.cites]
    return "; ".join(found)


def _pins(console: Any, res: Any, verbose: bool) -> None:
    """One line per pin (name, value, reason), its cited rows dimmed below it."""
    width = max(len(p.value) for p in res.pins)
    for pin in res.pins:
        console.print(Text.assemble((f"{pin.name:<9}", "bold"), f" {pin.value:<{width}}  ", pin.reason.text))
        cited = _cites(pin.reason, verbose)
        if cited:
            console.print(Text(" " * (12 + width) + cited, style="dim"))


def _caveats(console: Any, res: Any, style: Style, verbose: bool) -> None:
    glyph, colour = _glyph("warn", style)
    for caveat in res.caveats:
        fix = f" (theanodoctor fix: {caveat.fix_id})" if caveat.fix_id else ""
        console.print(Text.assemble((glyph, f"bold {colour}"), " ", (caveat.id, "bold"), fix, ": ", caveat.reason.text))
        cited = _cites(caveat.reason, verbose)
        if cited:
            console.print(Text("    " + cited, style="dim"))


def _conflicts(console: Any, res: Any, style: Style, verbose: bool) -> None:
    glyph, colour = _glyph("error", style)
    arrow = "→" if style.unicode else "->"
    for n, conflict in enumerate(res.conflicts, 1):
        inputs = " + ".join(conflict.inputs) or "the stack itself"
        console.print(Text.assemble((glyph, f"bold {colour}"), " ", (f"conflict {n}", "bold"), ": ", inputs))
        for reason in conflict.why:
            console.print(Text(f"    why: {reason.text}"))
            cited = _cites(reason, verbose)
            if cited:
                console.print(Text("         " + cited, style="dim"))
        for way in conflict.ways_out:
            console.print(Text(f"    {arrow} {way}"))


def render_resolution(res: Any, style: Style, verbose: bool = False) -> str:
    console = _console(style)
    if res.profile:
        console.print(Text(f"profile {res.profile}", style="bold"))
    if res.resolved:
        _pins(console, res, verbose)
        if res.caveats:
            console.print()
            _caveats(console, res, style, verbose)
        console.print()
        device = f"GPU (CUDA {res.pin('cuda')})" if res.gpu else "CPU only"
        named = f" = named stack {res.stack}" if res.stack and not res.profile else ""
        where = {"windows": "Windows", "linux": "Linux", "macos": "macOS"}.get(res.os or "", "any OS")
        console.print(Text(f"Resolved: {res.pin('theano')} on Python {res.pin('python')} ({where}), {device}{named}",
                           style="bold"))
    else:
        _conflicts(console, res, style, verbose)
        console.print()
        console.print(Text(f"No stack satisfies these constraints: {len(res.conflicts)} conflict"
                           + ("s" if len(res.conflicts) > 1 else ""), style="bold"))
    return str(console.file.getvalue())  # type: ignore[attr-defined]


def render_profiles(stacks: Any, style: Style, verbose: bool = False) -> str:
    from rich.table import Table

    console = _console(style)
    table = Table(box=None, pad_edge=False, header_style="bold", show_edge=False)
    for column in ("id", "os", "Theano", "Python", "numpy", "scipy", "CUDA", "cuDNN", "pygpu"):
        table.add_column(column, overflow="fold")
    for s in stacks:
        table.add_row(s.id, s.os, f"{s.flavour} {s.theano}", s.python, s.numpy, s.scipy, s.cuda or "-",
                      s.cudnn or "-", s.pygpu or "-")
    console.print(table)
    if verbose:
        for s in stacks:
            console.print(Text(f"{s.id}: {s.title}", style="bold"))
            console.print(Text(f"    source: {s.source}", style="dim"))
    console.print(Text("Show one checked against your constraints: "
                       "theanodoctor resolve --profile ID [--os ... --gpu ...]"))
    return str(console.file.getvalue())  # type: ignore[attr-defined]
