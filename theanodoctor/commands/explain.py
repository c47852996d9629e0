"""`theanodoctor explain`: from a pasted error log to the cause and the fix."""

from __future__ import annotations

import io
import sys
from typing import Any, BinaryIO

import click

from theanodoctor.clikit import Failure, emit, format_option, json_doc, note, style, timeout_option

EXPLAIN_EXIT_CODES_HELP = """\b
Exit codes:
  0  at least one cause was recognised (high or medium confidence)
  1  no cause recognised with confidence (significant lines, low-confidence readings shown)
  2  usage error (missing or empty input, LOGFILE and --text together)
  3  the doctor failed
  130  stopped by Ctrl-C (143: SIGTERM, 129: SIGHUP); nothing it started is left running
"""


def _open(logfile: str | None, text: str | None) -> BinaryIO:
    if logfile and text is not None:
        raise click.UsageError("give either LOGFILE (or -) or --text, not both")
    if text is not None:
        return io.BytesIO(text.encode("utf-8", errors="replace"))
    if logfile in (None, "-"):
        if sys.stdin is None:  # started with stdin closed (`<&-`, some service managers)
            raise click.UsageError("no log given and stdin is closed: pass LOGFILE or --text \"...\"")
        if logfile is None and sys.stdin.isatty():
            raise click.UsageError("no log given: pass LOGFILE, `-` (or a pipe) for stdin, or --text \"...\"")
        return sys.stdin.buffer
    try:
        return open(logfile, "rb")  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise Failure(f"cannot read {logfile}: {exc.strerror or exc}", 2) from exc


def _facts(python_spec: str | None, timeout: float) -> Any:
    """The probe's facts for --python (``auto``: the discovered environment), else None."""
    if not python_spec:
        return None
    from theanodoctor.gather import Pending, select_target

    python, candidates = select_target(None if python_spec == "auto" else python_spec)
    if python is None:
        raise Failure("no Python environment with Theano found to refine the explanation (--python)", 2)
    return Pending(python, candidates, probe_timeout=timeout).wait()


@click.command(epilog=EXPLAIN_EXIT_CODES_HELP)
@click.argument("logfile", required=False, metavar="[LOGFILE|-]")
@click.option("--text", "text", metavar="TEXT", help="The log itself, instead of a file.")
@click.option("--python", "python_spec", metavar="ENV",
              help="Also probe this environment (an interpreter, venv or conda folder; `auto`: discover one) "
                   "and make the remedies concrete: exact DLL names for its driver and toolkit, numpy to pin.")
@format_option
@timeout_option
def explain(logfile: str | None, text: str | None, python_spec: str | None, fmt: str, timeout: float) -> None:
    """Explain an error log: the cause, the evidence lines, the remedy, and whether `fix` can do it.

    Reads LOGFILE, stdin (`-` or a pipe) or --text, streamed line by line (any size). Knows Python 2
    and 3 tracebacks, Theano's logger lines, bytes reprs, g++/nvcc/MSVC output and the Keras,
    Lasagne and PyMC3 wrappers around Theano errors. Causes are listed root cause first; when none
    is recognised it says so and shows the lines it considered significant.
    """
    from theanodoctor.explain import explain_stream

    stream = _open(logfile, text)
    facts = _facts(python_spec, timeout)
    try:
        explanation = explain_stream(stream, facts)
    finally:
        if stream is not getattr(sys.stdin, "buffer", None):  # stdin may be closed (None) with --text
            stream.close()
    if explanation.blank:
        raise Failure("the log is empty: nothing to explain", 2)
    if fmt == "json":
        emit(json_doc({"explain": explanation.to_dict(), "exit_code": explanation.exit_code}))
    else:
        from theanodoctor.render.explain import render_explanation

        emit(render_explanation(explanation, style()))
        if python_spec:
            note(f"refined with the probe of {explanation.probed or python_spec}")
    sys.exit(explanation.exit_code)
