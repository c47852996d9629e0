"""`theanodoctor summarize`: one view of many machines, from the reports they sent in."""

from __future__ import annotations

import sys

import click

from theanodoctor.clikit import emit, json_doc, note

SUMMARIZE_HELP = """\b
Collect the inputs with what you already run, e.g.:
  srun -N8 --ntasks-per-node=1 sh -c 'theanodoctor report --format json > reports/$(hostname).json'
  ansible gpus -m command -a 'theanodoctor report --format json' --tree reports/
  (--tree saves a file per host; summarize reads the snapshot inside it)
  a CI matrix job per runner saving `preflight --format json` as an artifact
Reports are redacted, so a machine is named by its file (or its host name with --no-redact).
The doctor does no remote execution of its own.

\b
Exit codes:
  0  no machine has a blocking problem
  1  a machine has a blocking problem (a check error, a failed smoke test)
  2  usage error (no input, or no input file could be used)
  3  the doctor failed
  130  stopped by Ctrl-C (143: SIGTERM, 129: SIGHUP); nothing it started is left running
"""


@click.command(epilog=SUMMARIZE_HELP)
@click.argument("paths", nargs=-1, required=True, metavar="REPORT.json... | FOLDER")
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True, help="text for people; markdown to paste; json for tools.")
@click.option("--require-gpu", is_flag=True, help="Judge every machine as a GPU machine (no GPU path is an error).")
def summarize(paths: tuple[str, ...], fmt: str, require_gpu: bool) -> None:
    """One table of many machines, from the reports they sent in.

    Merges snapshots (`report --format json`) and check/preflight JSON outputs: the key facts per
    machine, what differs between machines, and the failures grouped by cause. Every machine is
    judged again by this doctor's checks with the same options, so the rows compare."""
    from theanodoctor import engine
    from theanodoctor.fleet.load import load_all
    from theanodoctor.fleet.table import merge, to_dict

    documents, problems = load_all(paths)
    fleet = merge(documents, problems, engine.all_checks(), engine.Options(require_gpu=require_gpu))
    exit_code = 2 if not documents else 1 if any(m.exit_code for m in fleet.machines) else 0
    if fmt == "json":
        emit(json_doc({**to_dict(fleet), "exit_code": exit_code}))
    elif fmt == "markdown":
        from theanodoctor.fleet.render import render_markdown

        emit(render_markdown(fleet))
    else:
        from theanodoctor.fleet.render import render_text

        emit(render_text(fleet))
    if not documents:
        note(f"theanodoctor: none of the {len(problems)} input file(s) is a theanodoctor snapshot or report")
    sys.exit(exit_code)
