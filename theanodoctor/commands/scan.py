"""`theanodoctor scan PATH`: what a repository needs (Python, Theano, frameworks), with evidence."""

from __future__ import annotations

import datetime
from pathlib import Path

import click

from theanodoctor.clikit import emit, format_option, json_doc, style

SCAN_HELP = """\b
Reads, never runs: requirements files, setup.py (as a syntax tree), setup.cfg, pyproject.toml,
Pipfile, conda environment files, Dockerfiles, .theanorc files and THEANO_FLAGS strings, README
"tested with" lines, and the code's syntax tree (Python 2 or 3) for Theano and framework APIs.

\b
Exit codes:
  0  the folder was scanned (what could not be read is listed, not fatal)
  2  usage error (the path does not exist or is not a folder, a bad --as-of)
  3  the doctor failed
"""


def _date(ctx: click.Context, param: click.Parameter, value: str | None) -> datetime.date | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError as exc:
        raise click.BadParameter(f"{value!r} is not a date like 2017-06-30", ctx=ctx, param=param) from exc


@click.command(epilog=SCAN_HELP)
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--as-of", metavar="DATE", callback=_date,
              help="The repository's date (YYYY-MM-DD). Default: its last git commit, else its files' dates.")
@format_option
@click.option("-v", "--verbose", is_flag=True, help="Every constraint and requirement, with all its evidence.")
def scan(path: Path, as_of: datetime.date | None, fmt: str, verbose: bool) -> None:
    """Say what a repository needs (Python, Theano range, frameworks), with file:line evidence."""
    from theanodoctor.scan import scan_repo

    result = scan_repo(path, as_of=as_of)
    if fmt == "json":
        emit(json_doc(result.to_json()))
        return
    from theanodoctor.render.scan import render_scan

    emit(render_scan(result, str(path), verbose=verbose, style=style()))
