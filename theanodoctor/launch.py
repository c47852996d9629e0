"""Console entry point. For `check`/`report --python X` the target probe is started here,
before click, rich or the checks are imported: the probe (which imports Theano) is the long
pole, and everything the doctor loads meanwhile is then free."""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

_STOPPERS = {"-h", "--help", "--from", "--list", "--version"}
EARLY: dict[str, Any] = {}  # {"spec": str, "timeout": float, "handle": ProbeHandle}


def _option(argv: list[str], name: str) -> str | None:
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(name + "="):
            return arg[len(name) + 1:]
    return None


def start_early(argv: list[str]) -> None:
    if not argv or argv[0] not in ("check", "report") or _STOPPERS.intersection(argv):
        return
    spec = _option(argv, "--python")
    if not spec:
        return
    try:
        timeout = float(_option(argv, "--timeout") or 120.0)
    except ValueError:
        return  # the normal path reports the problem properly
    path = os.path.expanduser(spec)
    if os.name == "posix" and os.path.isfile(path) and os.access(path, os.X_OK):
        python = os.path.abspath(path)  # what resolve_python returns for a file, without loading it
    else:
        from theanodoctor.targets import TargetError, resolve_python

        try:
            python = resolve_python(spec)
        except TargetError:
            return
    from theanodoctor.probe.runner import start_probe

    EARLY.update(spec=python, timeout=timeout, handle=start_probe(python, timeout=timeout))


def take_early(python: str, timeout: float) -> Any:
    """The probe started for exactly this interpreter and timeout, if any (taken once); an early
    probe for anything else is stopped."""
    handle = EARLY.pop("handle", None)
    if handle is not None and (EARLY.get("spec"), EARLY.get("timeout")) == (python, timeout):
        return handle
    if handle is not None:
        handle.cancel()
    return None


def _exit_kills_children() -> None:
    """However the doctor ends (normally, Ctrl-C, or a CI runner's SIGTERM/SIGHUP), no probe or
    smoke process it started is left running."""
    import atexit

    from theanodoctor import proc, stop

    atexit.register(proc.kill_all)
    stop.install()


def main(argv: list[str] | None = None) -> NoReturn:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--version"]:  # answered without loading click (same text as click's option)
        from theanodoctor import __version__

        print(f"theanodoctor, version {__version__}")
        sys.exit(0)
    from theanodoctor.stop import Stopped

    try:
        _exit_kills_children()
        start_early(argv)
        from theanodoctor.cli import main as cli_main

        cli_main(argv)
    except (Stopped, KeyboardInterrupt) as exc:  # before the command's own handler was reached
        from theanodoctor import proc

        proc.kill_all()
        code = exc.exit_code if isinstance(exc, Stopped) else 130
        sys.stderr.write(f"theanodoctor: stopped by {getattr(exc, 'name', 'SIGINT')} (exit code {code})\n")
        sys.exit(code)
