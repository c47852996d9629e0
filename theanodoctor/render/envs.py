"""The `envs` table: every candidate environment and what it holds."""

from __future__ import annotations

from typing import Any

from theanodoctor.render.style import Style
from theanodoctor.render.text import _console


def render_envs(candidates: list[Any], best: Any | None, style: Style) -> str:
    from rich.table import Table

    console = _console(style)
    if not candidates:
        console.print("No Python environments found.")
        return str(console.file.getvalue())  # type: ignore[attr-defined]
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("", "interpreter", "found via", "Python", "Theano", "numpy"):
        table.add_column(column, overflow="fold")
    for cand in candidates:
        theano = (f"Theano-PyMC {cand.theano_pymc}" if cand.theano_pymc
                  else f"Theano {cand.theano}" if cand.theano else "-")
        mark = ("→" if style.unicode else ">") if best is not None and cand.python == best.python else ""
        table.add_row(mark, cand.python, cand.source, cand.python_version or "?", theano, cand.numpy or "-")
    console.print(table)
    if best is not None:
        console.print(f"check would use: {best.python}")
    else:
        console.print("none has Theano or Theano-PyMC installed; use --python to point at one")
    return str(console.file.getvalue())  # type: ignore[attr-defined]
