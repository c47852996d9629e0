"""What every command module shares: output helpers, common options, and the one error type
that carries its own exit code. Commands parse, call and render; nothing else lives here."""

from __future__ import annotations

import re
import sys
from typing import Any, Callable

import click

EXIT_CODES_HELP = """\b
Exit codes:
  0  nothing blocking found
  1  a blocking error was found (--strict: a warning too)
  2  usage error (bad option, bad --python, unreadable --from)
  3  the doctor or a probe failed (crash, timeout)
  130  stopped by Ctrl-C (143: SIGTERM, 129: SIGHUP); nothing it started is left running
"""


class Failure(Exception):
    """An expected failure with a user-facing message and an exit code (see cli._run)."""

    def __init__(self, message: str, exit_code: int, kind: str = "usage") -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.kind = kind


def emit(text: str) -> None:
    """The report, on stdout."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def note(text: str) -> None:
    """Progress and notes, on stderr."""
    click.echo(text, err=True)


def style() -> Any:
    from theanodoctor.render.style import detect

    return detect(sys.stdout)


def json_doc(document: dict[str, Any]) -> str:
    """A command's JSON document, with the schema version every document carries."""
    from theanodoctor.facts import SCHEMA_VERSION
    from theanodoctor.render.jsonfmt import dumps

    return dumps({"schema_version": SCHEMA_VERSION, **document})


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


def _check_device(value: str | None) -> str | None:
    if value is not None and not re.fullmatch(r"cpu|cuda\d*|opencl\d+:\d+", value):
        raise click.BadParameter(f"{value!r} is not one of cpu, cuda, cudaN, openclP:D", param_hint="--device")
    return value


_SMOKE_OPTIONS = (
    click.option("--device", metavar="DEVICE", callback=lambda ctx, param, value: _check_device(value),
                 help="Override Theano's device: cpu, cuda, cudaN, openclP:D. Default: the target's config."),
    click.option("--flags", metavar="FLAGS", help="Extra THEANO_FLAGS, applied after the user's own."),
    click.option("--size", type=click.IntRange(16, 16384), default=2048, show_default=True,
                 help="Side of the square float32 matrices of the matmul stage."),
    click.option("--repeats", type=click.IntRange(1, 100), default=3, show_default=True,
                 help="Timed runs after the first; the median is reported."),
    click.option("--keep-cache", is_flag=True,
                 help="Use the user's compile cache instead of a fresh temporary one (faster; trusts the cache)."),
    click.option("--stage-timeout", type=click.FloatRange(1, 3600), default=300.0, show_default=True,
                 help="Seconds one stage (or `import theano`) may take."),
    click.option("--timeout", type=click.FloatRange(1, 7200), default=900.0, show_default=True,
                 help="Seconds the whole smoke test may take."),
)


def smoke_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The smoke test's options (shared by `smoke-test` and `preflight`): device, flags, size,
    repeats, keep_cache, stage_timeout, timeout."""
    for option in reversed(_SMOKE_OPTIONS):
        func = option(func)
    return func
