"""Command line: parse, call, render. Judging lives in checks/, probing in probe/ and host/.

Heavy modules (rich, yaml, the checks) are imported inside the commands, after the target
probe has started, so that start-up stays light.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, NoReturn

import click

from theanodoctor import __version__

EXIT_CODES_HELP = """\b
Exit codes:
  0  nothing blocking found
  1  a blocking error was found (--strict: a warning too)
  2  usage error (bad option, bad --python, unreadable --from)
  3  the doctor or a probe failed (crash, timeout)
"""


class Failure(Exception):
    """An expected failure with a user-facing message and an exit code."""

    def __init__(self, message: str, exit_code: int, kind: str = "usage") -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.kind = kind


def _wants_json(argv: list[str]) -> bool:
    return any(a in ("--format=json", "-fjson") for a in argv) or any(
        a in ("--format", "-f") and i + 1 < len(argv) and argv[i + 1] == "json"
        for i, a in enumerate(argv)
    )


def _emit(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def _note(text: str) -> None:
    click.echo(text, err=True)


def _usage_errors() -> tuple[type[BaseException], ...]:
    from theanodoctor.engine import UnknownCheck
    from theanodoctor.facts import SnapshotError
    from theanodoctor.targets import TargetError

    return (UnknownCheck, SnapshotError, TargetError)


def _style() -> Any:
    from theanodoctor.render.style import detect

    return detect(sys.stdout)


format_option = click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
    help="text for people; json prints only the JSON document (with schema_version).",
)
python_option = click.option(
    "--python", "python_spec", metavar="PATH",
    help="Target: an interpreter, a venv or conda env folder, or a command on PATH. "
         "Default: discover environments and pick the best one with Theano.",
)
timeout_option = click.option(
    "--timeout", type=click.FloatRange(1, 3600), default=120.0, show_default=True,
    help="Seconds the target probe may take (a first `import theano` compiles C code).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_CODES_HELP)
@click.version_option(__version__, prog_name="theanodoctor")
def cli() -> None:
    """Diagnose, repair and prove legacy Theano GPU environments.

    Start with `theanodoctor check`: it finds your Theano environment, probes it and this
    machine (without importing Theano into the doctor), and tells what is wrong, why, and how to
    fix it. Report on stdout, notes on stderr.
    """


@cli.command(epilog=EXIT_CODES_HELP)
@python_option
@click.option("--from", "snapshot", metavar="FILE", type=click.Path(dir_okay=False),
              help="Judge a saved snapshot (`theanodoctor report --format json > FILE`) instead of probing.")
@format_option
@click.option("-v", "--verbose", is_flag=True, help="Show every detail and per-check durations.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too.")
@click.option("--require-gpu", is_flag=True, help="Make 'no working GPU path' an error (CI on GPU runners).")
@click.option("--only", multiple=True, metavar="ID", help="Run only this check (repeatable).")
@click.option("--skip", multiple=True, metavar="ID", help="Skip this check (repeatable).")
@click.option("--list", "list_checks", is_flag=True, help="List the checks, grouped by area, and exit.")
@timeout_option
def check(python_spec: str | None, snapshot: str | None, fmt: str, verbose: bool, strict: bool,
          require_gpu: bool, only: tuple[str, ...], skip: tuple[str, ...], list_checks: bool,
          timeout: float) -> None:
    """Check the Theano environment and this machine; say what is wrong and how to fix it."""
    if python_spec and snapshot:
        raise click.UsageError("--python and --from exclude each other")
    pending = None
    if not (list_checks or snapshot):
        from theanodoctor.gather import Pending, select_target

        python, candidates = select_target(python_spec)
        pending = Pending(python, candidates, probe_timeout=timeout)  # starts the probe now
        if fmt == "text":
            _note(f"checking {python}" if python else "no Python environment with Theano found")
    from theanodoctor import engine

    checks = engine.select(engine.all_checks(), only, skip)
    if list_checks:
        if fmt == "json":
            _emit(_json({"checks": [{"id": c.id, "title": c.title, "area": c.area} for c in checks]}))
        else:
            from theanodoctor.render.text import render_list

            _emit(render_list(checks, _style()))
        return
    from theanodoctor.facts import Facts
    from theanodoctor.report import Report

    if snapshot:
        facts = Facts.load(snapshot)
    else:
        assert pending is not None
        _preload(fmt)
        facts = pending.wait()
    options = engine.Options(require_gpu=require_gpu)
    report = Report(facts, tuple(engine.run_checks(facts, checks, options)), options)
    if fmt == "json":
        _emit(_json(report.to_dict(strict)))
    else:
        from theanodoctor.render.text import render_text

        _emit(render_text(report, verbose=verbose, style=_style()))
        _note_other_candidates(facts)
    sys.exit(report.exit_code(strict))


def _preload(fmt: str) -> None:
    """Load what judging and rendering need while the target probe is still running."""
    from theanodoctor import knowledge

    knowledge.preload()  # the checks (already imported) registered their tables
    if fmt == "text":
        import theanodoctor.render.text  # noqa: F401  (rich)


def _note_other_candidates(facts: Any) -> None:
    section = facts.candidates if isinstance(facts.candidates, dict) else {}
    others = [c for c in section.get("candidates", []) if c.get("python") != section.get("chosen")
              and (c.get("theano") or c.get("theano_pymc"))]
    if others:
        _note("other environments with Theano: " + ", ".join(c["python"] for c in others[:5])
              + (" …" if len(others) > 5 else "") + " (choose with --python)")


def _json(document: dict[str, Any]) -> str:
    from theanodoctor.facts import SCHEMA_VERSION
    from theanodoctor.render.jsonfmt import dumps

    return dumps({"schema_version": SCHEMA_VERSION, **document})


@cli.command()
@format_option
def envs(fmt: str) -> None:
    """List every Python environment found, with its Theano flavour and numpy version."""
    from theanodoctor import targets

    candidates = targets.discover()
    best = targets.choose(candidates)
    if fmt == "json":
        _emit(_json({"chosen": best.python if best else None,
                     "candidates": [c.to_dict() for c in candidates]}))
        return
    from theanodoctor.render.envs import render_envs

    _emit(render_envs(candidates, best, _style()))


@cli.command()
@python_option
@click.option("--format", "-f", "fmt", type=click.Choice(["json"]), default="json", show_default=True,
              help="json: the full facts snapshot, loadable with `check --from`.")
@click.option("--no-redact", is_flag=True, help="Keep home paths, host names and GPU UUIDs.")
@timeout_option
def report(python_spec: str | None, fmt: str, no_redact: bool, timeout: float) -> None:
    """Print the facts snapshot (redacted by default) for bug reports and `check --from`."""
    from theanodoctor.gather import Pending, select_target

    python, candidates = select_target(python_spec)
    facts = Pending(python, candidates, probe_timeout=timeout).wait()
    data = facts.to_dict()
    if not no_redact:
        from theanodoctor.redact import redact

        data = redact(data)
    from theanodoctor.render.jsonfmt import dumps

    _emit(dumps(data))


def _run(entry: Callable[..., Any], argv: list[str]) -> NoReturn:
    as_json = _wants_json(argv)

    def fail(message: str, code: int, kind: str) -> NoReturn:
        if as_json:
            from theanodoctor.render.jsonfmt import error_document

            _emit(error_document(kind, message, code))
        _note(f"theanodoctor: {message}")
        sys.exit(code)

    try:
        entry.main(args=argv, prog_name="theanodoctor", standalone_mode=False)  # type: ignore[attr-defined]
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        fail("aborted", 3, "aborted")
    except click.UsageError as exc:
        if not as_json and exc.ctx is not None:
            _note(exc.ctx.get_usage())
        fail(exc.format_message(), 2, "usage")
    except click.ClickException as exc:
        fail(exc.format_message(), 2, "usage")
    except KeyboardInterrupt:
        fail("interrupted", 3, "interrupted")
    except Exception as exc:  # the one place exceptions become exit codes
        if isinstance(exc, _usage_errors()):
            fail(str(exc), 2, "usage")
        if os.environ.get("THEANODOCTOR_DEBUG"):
            raise
        fail(f"internal error: {type(exc).__name__}: {exc} (set THEANODOCTOR_DEBUG=1 for a traceback)",
             3, "internal")
    sys.exit(0)


def main(argv: list[str] | None = None) -> NoReturn:
    _run(cli, sys.argv[1:] if argv is None else argv)
