"""`theanodoctor report`: a paste-ready markdown block for bug reports, or the facts snapshot."""

from __future__ import annotations

import click

from theanodoctor.clikit import emit, python_option, timeout_option

REPORT_HELP = """\b
Redaction (default; --no-redact keeps everything):
  home folder -> ~; user names and host names -> <redacted> (inside other paths, lock
  lines and compiledir names too); GPU UUIDs and serial numbers removed.

\b
Exit codes:
  0  the report was printed, whatever it shows (a broken stack, or a target whose probe
     hung or crashed: that is in the report)
  2  usage error (bad option, a --python that names nothing usable)
  3  the doctor itself failed
  130  stopped by Ctrl-C (143: SIGTERM, 129: SIGHUP); nothing it started is left running
"""


@click.command(epilog=REPORT_HELP)
@python_option
@click.option("--format", "-f", "fmt", type=click.Choice(["markdown", "json"]), default="markdown",
              show_default=True,
              help="markdown: a block to paste into a bug report (key facts, the effective Theano config and "
                   "where each value came from, the check summary); json: the full facts snapshot, loadable "
                   "with `check --from` and `summarize`.")
@click.option("--no-redact", is_flag=True, help="Keep home paths, user and host names, GPU UUIDs and serials.")
@timeout_option
def report(python_spec: str | None, fmt: str, no_redact: bool, timeout: float) -> None:
    """Print this machine's Theano environment for a bug report (redacted by default)."""
    from theanodoctor.gather import Pending, select_target

    python, candidates = select_target(python_spec)
    facts = Pending(python, candidates, probe_timeout=timeout).wait()
    data = facts.to_dict()
    redactor = None
    if not no_redact:
        from theanodoctor.redact import redactor_for

        redactor = redactor_for(data)
    if fmt == "json":
        from theanodoctor.render.jsonfmt import dumps

        emit(dumps(redactor.data(data) if redactor else data))
        return
    from theanodoctor import engine
    from theanodoctor.render.markdown import render_report
    from theanodoctor.report import judge

    judged = judge(facts, engine.all_checks())
    text = render_report(judged, redacted=redactor is not None)
    emit(redactor.text(text) if redactor else text)
