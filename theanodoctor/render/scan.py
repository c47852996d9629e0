"""`scan` as text: a short table a person reads in ten seconds, then the constraints that decide
(hard first); `-v` lists every constraint, requirement and problem."""

from __future__ import annotations

from theanodoctor.render.style import Style
from theanodoctor.render.text import _console
from theanodoctor.scan.model import Constraint, ScanResult

_SOURCES = {"git": "last git commit", "files": "newest file date", "option": "--as-of"}
_SHOWN = 6


def render_scan(result: ScanResult, path: str, verbose: bool = False, style: Style | None = None) -> str:
    from rich.markup import escape
    from rich.table import Table

    console = _console(style or Style(False, False, None))
    console.print(f"[bold]{escape(path)}[/bold]  (as of {result.as_of}, {_SOURCES[result.as_of_source]})")
    table = Table(box=None, pad_edge=False, show_header=False)
    table.add_column(style="bold")
    table.add_column()
    table.add_column(overflow="fold")
    for row in _summary(result):
        table.add_row(*(escape(cell) for cell in row))
    console.print(table)
    shown = [c for c in result.constraints if verbose or (c.strength == "hard" and c.subject in ("python", "theano"))]
    if shown:
        console.print("[bold]constraints[/bold]" if verbose else "[bold]what the code needs[/bold]")
        for constraint in shown[: None if verbose else _SHOWN]:
            console.print("  " + escape(_line(constraint, verbose)))
        if not verbose and len(shown) > _SHOWN:
            console.print(f"  ... {len(shown) - _SHOWN} more")
    if verbose:
        for problem in result.problems:
            console.print(f"  problem: {escape(problem.file)}: {escape(problem.message)}")
    for note in result.notes:
        console.print(escape(note))
    others = len(result.constraints) - len(shown)
    if not verbose and (others or result.problems):
        console.print(f"{others} more constraints, {len(result.problems)} problems: -v or --format json")
    return str(console.file.getvalue())  # type: ignore[attr-defined]


def _summary(result: ScanResult) -> list[tuple[str, str, str]]:
    first = result.python_evidence[0].where() if result.python_evidence else ""
    python = str(result.python_major) if result.python_major else "either (nothing decides)"
    if result.python2_files:
        python += f" ({result.python2_files} of {result.python_files} files parse only as Python 2)"
    theano = (f"{result.theano_min or 'any'} .. {result.theano_max or 'latest'}"
              if result.theano_min or result.theano_max else "any (nothing bounds it)")
    rows = [("Python", python, first),
            ("Theano", theano, result.theano_evidence[0].where() if result.theano_evidence else "")]
    for framework in result.frameworks:
        rows.append((framework.name, framework.spec or "unpinned", framework.evidence[0].where()))
    gpu = [c for c in result.constraints if c.subject in ("cuda", "cudnn")]
    if gpu:
        rows.append(("GPU", ", ".join(f"{c.subject} {c.spec}" for c in gpu), gpu[0].evidence[0].where()))
    pinned = sum(1 for r in result.requirements if r.spec)
    rows.append(("requirements", f"{len(result.requirements)} declared, {pinned} pinned", ""))
    if result.modules:
        rows.append(("modules", ", ".join(m.name for m in result.modules[:8])
                     + (" ..." if len(result.modules) > 8 else ""), ""))
    return rows


def _line(constraint: Constraint, verbose: bool) -> str:
    where = constraint.evidence[0].where() if constraint.evidence else ""
    reason = constraint.reason if verbose else constraint.reason.split(" [", 1)[0]
    return f"{constraint.subject} {constraint.spec}  {constraint.strength}  {where}  {reason}"
