"""Where an environment keeps its interpreter, and which environment an interpreter is in."""

from __future__ import annotations

import os

from theanodoctor.targets.fs import _is_dir

_LAYOUTS_POSIX = (("bin", "python"), ("bin", "python3"))
_LAYOUTS_WINDOWS = (("Scripts", "python.exe"), ("python.exe",))


def _interpreter_in(folder: str, windows: bool) -> str | None:
    """The interpreter of an environment folder: venv, conda env or base install."""
    layouts = _LAYOUTS_WINDOWS + _LAYOUTS_POSIX if windows else _LAYOUTS_POSIX + _LAYOUTS_WINDOWS
    for parts in layouts:
        path = os.path.join(folder, *parts)
        try:
            if os.path.isfile(path):
                return path
        except (OSError, ValueError):
            continue
    return None


def _layout_prefix(exe: str) -> str:
    parent = os.path.dirname(exe)
    if os.path.basename(parent).lower() in ("bin", "scripts"):
        return os.path.dirname(parent)
    return parent


def _is_env_root(prefix: str) -> bool:
    return (os.path.isfile(os.path.join(prefix, "pyvenv.cfg"))
            or _is_dir(os.path.join(prefix, "conda-meta")))


def env_prefix(python: str) -> str:
    """The environment an interpreter belongs to, without resolving venv symlinks.

    A venv or conda env is recognised where the interpreter sits (``pyvenv.cfg``,
    ``conda-meta/``); any other interpreter is followed through symlinks to its real install
    (``/bin/python3`` -> ``/usr/bin/python3.11`` -> ``/usr``).
    """
    exe = os.path.abspath(python)
    prefix = _layout_prefix(exe)
    if _is_env_root(prefix):
        return prefix
    real = os.path.realpath(exe)
    return _layout_prefix(real) if real != exe else prefix
