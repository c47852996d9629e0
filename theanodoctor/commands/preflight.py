"""`theanodoctor preflight`: the CI gate. `check --strict` and `smoke-test` in one go, one
verdict, CI-native output (JUnit, GitHub annotations and job summary)."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from theanodoctor.clikit import emit, json_doc, note, python_option, smoke_options, style

PREFLIGHT_HELP = """\b
Exit codes:
  0  every check passed (warnings fail too) and the smoke test computed correctly
  1  a check found an error or a warning, or the smoke test failed (or was skipped
     because Theano is missing or does not import)
  2  usage error (bad option, bad --python, unwritable --junit file)
  3  the doctor, the target probe or the smoke script could not run (crash, timeout)
  130  stopped by Ctrl-C (143: SIGTERM, 129: SIGHUP); nothing it started is left running

\b
In GitHub Actions (GITHUB_ACTIONS=true) the problems are also printed as annotations
(with --format json or junit, on stderr), and a markdown summary is appended to the
file named by GITHUB_STEP_SUMMARY when it is set.
"""


def _writable_target(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse an unwritable --junit before the long run, not after it."""
    if value is not None:
        folder = os.path.dirname(os.path.abspath(value))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK) or os.path.isdir(value):
            raise click.BadParameter(f"cannot write {value!r}: its folder is missing or not writable",
                                     ctx=ctx, param=param)
    return value


@click.command(epilog=PREFLIGHT_HELP)
@python_option
@click.option("--require-gpu", is_flag=True, help="Make 'no working GPU path' an error (GPU runners).")
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json", "junit", "github"]), default="text",
              show_default=True,
              help="text for people; json: the check document plus `smoke` and `preflight`; junit: JUnit XML; "
                   "github: GitHub Actions annotation lines.")
@click.option("--junit", "junit_file", metavar="FILE", callback=_writable_target,
              help="Also write JUnit XML to FILE (atomically), whatever --format says.")
@click.option("--redact", is_flag=True,
              help="Redact every output like `report` does (home -> ~, user/host names, GPU UUIDs), "
                   "for logs that others can read.")
@click.option("--profile", metavar="NAME",
              help="Also require this named known-good stack's exact pins (see `theanodoctor profiles`): "
                   "the runner still has the stack the paper used.")
@click.option("-v", "--verbose", is_flag=True, help="Text: show every check, with durations.")
@click.option("--probe-timeout", type=click.FloatRange(1, 3600), default=120.0, show_default=True,
              help="Seconds the target probe may take (a first `import theano` compiles C code).")
@smoke_options
def preflight(python_spec: str | None, require_gpu: bool, fmt: str, junit_file: str | None, redact: bool,
              profile: str | None, verbose: bool, probe_timeout: float, device: str | None, flags: str | None,
              size: int, repeats: int, keep_cache: bool, stage_timeout: float, timeout: float) -> None:
    """Gate a CI job: run `check --strict` and `smoke-test` on the target and exit non-zero
    unless both pass."""
    from theanodoctor.gather import Pending, select_target
    from theanodoctor.preflight import profile_check, run_preflight

    wanted = [profile_check(profile)] if profile else []  # an unknown name fails before the probe starts
    python, candidates = select_target(python_spec)
    from theanodoctor.smoke.runner import Options as SmokeOptions

    smoke_options_ = SmokeOptions(device=device, flags=flags, size=size, repeats=repeats, keep_cache=keep_cache,
                                  stage_timeout=stage_timeout, timeout=timeout)
    env = _probe_env(smoke_options_)
    pending = Pending(python, candidates, probe_timeout=probe_timeout, env=env)  # starts the probe now
    chatty = fmt == "text"
    if chatty:
        note(f"preflight of {python}" if python else "no Python environment with Theano found")
        if env is not None:
            note(f"checks and smoke test run with THEANO_FLAGS={env['THEANO_FLAGS']}")
    from theanodoctor import engine

    checks = engine.all_checks() + wanted
    result = run_preflight(python, pending, checks, engine.Options(require_gpu=require_gpu),
                           smoke_options_, on_smoke=(lambda p: note(f"smoke-testing {p}")) if chatty else None)
    redactor = _redactor(result) if redact else None
    scrub = redactor.text if redactor else (lambda text: text)
    if junit_file:
        from theanodoctor.render.junit import render_junit

        write_atomically(junit_file, scrub(render_junit(result.report, result.smoke, result.smoke_skipped)))
    if fmt == "json":  # redacted as data: a text rule cannot see a path inside JSON's escapes
        document = result.to_dict()
        emit(json_doc(redactor.data(document) if redactor else document))
    else:
        emit(scrub(_render(result, fmt, verbose)))
    _github_extras(result, fmt, scrub)
    sys.exit(result.exit_code)


def _probe_env(smoke_options: Any) -> dict[str, str] | None:
    """--device/--flags reach the checks the way they reach the smoke test: the probe runs with
    the same THEANO_FLAGS, so the target's Theano reports the config the smoke test will use."""
    if not (smoke_options.device or smoke_options.flags):
        return None
    from theanodoctor.smoke.runner import theano_flags

    return {**os.environ, "THEANO_FLAGS": theano_flags(os.environ.get("THEANO_FLAGS"), smoke_options, None)}


def _redactor(result: Any) -> Any:
    from theanodoctor.redact import redactor_for

    return redactor_for(result.report.facts.to_dict())


def _render(result: Any, fmt: str, verbose: bool) -> str:
    if fmt == "junit":
        from theanodoctor.render.junit import render_junit

        return render_junit(result.report, result.smoke, result.smoke_skipped)
    if fmt == "github":
        from theanodoctor.render.github import render_github

        return render_github(result.report, result.smoke, result.verdict, result.passed)
    from theanodoctor.render.smoke import render_smoke
    from theanodoctor.render.text import render_text

    shown = style()
    parts = [render_text(result.report, verbose=verbose, style=shown)]
    parts.append("\n" + (render_smoke(result.smoke, shown) if result.smoke is not None
                          else f"Smoke test skipped: {result.smoke_skipped}\n"))
    parts.append(f"\nPreflight: {result.verdict} (exit code {result.exit_code})\n")
    return "".join(parts)


def _github_extras(result: Any, fmt: str, scrub: Any) -> None:
    """Annotations when running in GitHub Actions (unless stdout already carries them), and the
    job summary when the runner names a summary file."""
    if os.environ.get("GITHUB_ACTIONS") == "true" and fmt != "github":
        from theanodoctor.render.github import render_github

        text = scrub(render_github(result.report, result.smoke, result.verdict, result.passed))
        if fmt == "text":
            emit(text)
        else:  # stdout must stay one JSON / XML document; the runner reads commands on stderr too
            sys.stderr.write(text)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        from theanodoctor.render.markdown import render_preflight

        try:
            with open(summary, "a", encoding="utf-8") as fh:
                fh.write(scrub(render_preflight(result)))
        except OSError as exc:
            note(f"theanodoctor: could not append the job summary to {summary}: {exc.strerror or exc}")


def write_atomically(path: str, text: str) -> None:
    """Write via a temporary file in the same folder and a rename: a reader never sees half a file."""
    from theanodoctor.clikit import Failure
    from theanodoctor.textfile import write_text_atomically

    try:
        write_text_atomically(path, text)
    except OSError as exc:
        raise Failure(f"cannot write {path}: {exc.strerror or exc}", 3, "io") from exc
