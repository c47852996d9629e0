"""Every environment found, source by source, each described once."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from theanodoctor.targets.candidate import Candidate
from theanodoctor.targets.describe import inspect_prefix
from theanodoctor.targets.fs import _is_windows, _same_key
from theanodoctor.targets.layout import _is_env_root, env_prefix
from theanodoctor.targets.sources import _sources
from theanodoctor.targets.version import _VERSIONED_NAME

if TYPE_CHECKING:
    from pathlib import Path


def _dedupe_keys(python: str, prefix: str) -> set[tuple[str, ...]]:
    """Keys under which two found interpreters are the same environment.

    A venv's bin/python resolves to its base interpreter, yet the venv is a different
    environment: a venv or conda env is one environment per prefix, whatever its binaries
    point at. A plain install is the same when its binary is, and one prefix such as /usr
    may hold several (python2.7 and python3.11), told apart by the real file name.
    """
    if _is_env_root(prefix):
        return {("env", _same_key(prefix))}
    real = os.path.realpath(python)
    match = _VERSIONED_NAME.match(os.path.basename(real))
    return {("base", _same_key(prefix), match.group(1) if match else ""),
            ("exe", os.path.normcase(real))}


def discover(env: Mapping[str, str] | None = None, home: Path | str | None = None,
             os_name: str | None = None) -> list[Candidate]:
    """Every Python environment found, in the order of SOURCES; never raises."""
    env = os.environ if env is None else env
    windows = _is_windows(os_name)
    home_dir = os.fspath(home) if home is not None else os.path.expanduser("~")
    found: list[Candidate] = []
    seen: set[tuple[str, ...]] = set()
    for source in _sources(env, home_dir, windows):
        try:
            for python, label in source:
                try:
                    python = os.path.abspath(python)
                    keys = _dedupe_keys(python, env_prefix(python))
                    if keys & seen:
                        continue
                    seen |= keys
                    found.append(inspect_prefix(python, label, home=home_dir,
                                                os_name=os_name, env=env))
                except (OSError, ValueError, UnicodeError):
                    continue
        except (OSError, ValueError, UnicodeError, RecursionError):
            continue  # one broken source must not hide the others
    return found
