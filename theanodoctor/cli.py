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
from theanodoctor.clikit import (
    EXIT_CODES_HELP,
    Failure,
    emit,
    format_option,
    json_doc,
    note,
    python_option,
    smoke_options,
    style,
    timeout_option,
)
from theanodoctor.commands.explain import explain
from theanodoctor.commands.fix import fix
from theanodoctor.commands.port import port
from theanodoctor.commands.preflight import preflight
from theanodoctor.commands.report import report
from theanodoctor.commands.resolve import profiles, provision, resolve
from theanodoctor.commands.scan import scan
from theanodoctor.commands.summarize import summarize
from theanodoctor.stop import Stopped


def _wants_json(argv: list[str]) -> bool:
    return any(a in ("--format=json", "-fjson") for a in argv) or any(
        a in ("--format", "-f") and i + 1 < len(argv) and argv[i + 1] == "json"
        for i, a in enumerate(argv)
    )


def _usage_errors() -> tuple[type[BaseException], ...]:
    from theanodoctor.engine import UnknownCheck
    from theanodoctor.facts import SnapshotError
    from theanodoctor.targets import TargetError

    return (UnknownCheck, SnapshotError, TargetError)


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
@click.option("--smoke", is_flag=True,
              help="Also run `smoke-test` (default options) on the target; its result joins the report.")
@timeout_option
def check(python_spec: str | None, snapshot: str | None, fmt: str, verbose: bool, strict: bool,
          require_gpu: bool, only: tuple[str, ...], skip: tuple[str, ...], list_checks: bool,
          smoke: bool, timeout: float) -> None:
    """Check the Theano environment and this machine; say what is wrong and how to fix it."""
    if python_spec and snapshot:
        raise click.UsageError("--python and --from exclude each other")
    pending, python = None, None
    if not (list_checks or snapshot):
        from theanodoctor.gather import Pending, select_target

        python, candidates = select_target(python_spec)
        pending = Pending(python, candidates, probe_timeout=timeout)  # starts the probe now
        if fmt == "text":
            note(f"checking {python}" if python else "no Python environment with Theano found")
    from theanodoctor import engine

    checks = engine.select(engine.all_checks(), only, skip)
    if list_checks:
        if fmt == "json":
            emit(json_doc({"checks": [{"id": c.id, "title": c.title, "area": c.area} for c in checks]}))
        else:
            from theanodoctor.render.text import render_list

            emit(render_list(checks, style()))
        return
    from theanodoctor.facts import Facts
    from theanodoctor.report import judge

    if snapshot:
        facts = Facts.load(snapshot)
    else:
        assert pending is not None
        _preload(fmt)
        facts = pending.wait()
    options = engine.Options(require_gpu=require_gpu)
    report = judge(facts, checks, options)
    smoked = _smoke_for_check(python, fmt) if smoke else None
    exit_code = max(report.exit_code(strict), smoked.exit_code if smoked else 0)
    if fmt == "json":
        document = report.to_dict(strict)
        if smoke:
            document["smoke"] = smoked.to_dict() if smoked else None
            document["exit_code"] = exit_code
        emit(json_doc(document))
    else:
        from theanodoctor.render.text import render_text

        emit(render_text(report, verbose=verbose, style=style()))
        if smoked:
            from theanodoctor.render.smoke import render_smoke

            emit(render_smoke(smoked, style()))
        _note_other_candidates(facts)
    sys.exit(exit_code)


def _smoke_for_check(python: str | None, fmt: str) -> Any:
    """The smoke result for `check --smoke` (None: no target, e.g. with --from)."""
    if not python:
        return None
    from theanodoctor.smoke.runner import Options

    if fmt == "text":
        note(f"smoke-testing {python} (fresh compile cache)")
    from theanodoctor.smoke import smoke_test as run_smoke

    return run_smoke(python, Options())


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
        note("other environments with Theano: " + ", ".join(c["python"] for c in others[:5])
              + (" …" if len(others) > 5 else "") + " (choose with --python)")


SMOKE_EXIT_CODES_HELP = """\b
Exit codes:
  0  every stage computed correctly on the requested device
  1  a stage failed, or the device was not really used (silent CPU fallback)
  2  usage error (bad option, bad --python)
  3  the doctor failed, or the target did not run the smoke script
  130  stopped by Ctrl-C (143: SIGTERM, 129: SIGHUP); nothing it started is left running
"""

@cli.command("smoke-test", epilog=SMOKE_EXIT_CODES_HELP)
@python_option
@smoke_options
@format_option
def smoke_test(python_spec: str | None, device: str | None, flags: str | None, size: int, repeats: int,
               keep_cache: bool, stage_timeout: float, timeout: float, fmt: str) -> None:
    """Prove the stack computes: matmul, conv and a broader op set through Theano on the device,
    checked against numpy, with timings; detects the silent fallback to the CPU."""
    from theanodoctor.gather import select_target
    from theanodoctor.smoke.runner import Options

    python, _ = select_target(python_spec)
    if python is None:
        raise click.UsageError("no Python environment with Theano found (choose one with --python)")
    options = Options(device=device, flags=flags, size=size, repeats=repeats, keep_cache=keep_cache,
                      stage_timeout=stage_timeout, timeout=timeout)
    if fmt == "text":
        note(f"smoke-testing {python}" + ("" if keep_cache else " (fresh compile cache: every op compiles)"))
    from theanodoctor.smoke import smoke_test as run_smoke

    result = run_smoke(python, options)
    if fmt == "json":
        emit(json_doc({"smoke": result.to_dict(), "exit_code": result.exit_code}))
    else:
        from theanodoctor.render.smoke import render_smoke

        emit(render_smoke(result, style()))
    sys.exit(result.exit_code)


@cli.command()
@format_option
def envs(fmt: str) -> None:
    """List every Python environment found, with its Theano flavour and numpy version."""
    from theanodoctor import targets

    candidates = targets.discover()
    best = targets.choose(candidates)
    if fmt == "json":
        emit(json_doc({"chosen": best.python if best else None,
                     "candidates": [c.to_dict() for c in candidates]}))
        return
    from theanodoctor.render.envs import render_envs

    emit(render_envs(candidates, best, style()))


cli.add_command(report)
cli.add_command(preflight)
cli.add_command(summarize)
cli.add_command(resolve)
cli.add_command(profiles)
cli.add_command(provision)
cli.add_command(fix)
cli.add_command(explain)
cli.add_command(scan)
cli.add_command(port)


def _run(entry: Callable[..., Any], argv: list[str]) -> NoReturn:
    as_json = _wants_json(argv)

    def fail(message: str, code: int, kind: str) -> NoReturn:
        if as_json:
            from theanodoctor.render.jsonfmt import error_document

            emit(error_document(kind, message, code))
        note(f"theanodoctor: {message}")
        sys.exit(code)

    try:
        entry.main(args=argv, prog_name="theanodoctor", standalone_mode=False)  # type: ignore[attr-defined]
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        fail("aborted", 3, "aborted")
    except click.UsageError as exc:
        if not as_json and exc.ctx is not None:
            note(exc.ctx.get_usage())
        fail(exc.format_message(), 2, "usage")
    except click.ClickException as exc:
        fail(exc.format_message(), 2, "usage")
    except Failure as exc:
        fail(str(exc), exc.exit_code, exc.kind)
    except Stopped as exc:
        from theanodoctor import proc

        proc.kill_all()  # before printing: host-probe threads waiting on children end at once
        fail(f"stopped by {exc.name} (exit code {exc.exit_code})", exc.exit_code, "interrupted")
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
