"""``--python``: what the user named, turned into an interpreter path."""

from __future__ import annotations

import os
import shutil

from theanodoctor.targets.fs import _is_windows, _runnable
from theanodoctor.targets.layout import _interpreter_in


class TargetError(ValueError):
    """The target the user named cannot be used; the message is one sentence for the user."""


def resolve_python(spec: str, os_name: str | None = None) -> str:
    """Turn what the user passed as ``--python`` into an interpreter path.

    ``spec`` may be an interpreter, a venv or conda env folder, or a command on PATH. The result
    is absolute but not resolved: a venv's ``bin/python`` symlinks to its base interpreter, and
    running the base would check the wrong environment. Whether the file really is Python is
    left to the probe, which reports it as a finding.
    """
    windows = _is_windows(os_name)
    if not spec or "\0" in spec:
        raise TargetError(
            "--python needs an interpreter path, an environment folder or a command name.")
    path = os.path.expanduser(spec)
    separators = ("/", "\\") if windows else ("/", os.sep)
    if not os.path.lexists(path):
        if any(sep in spec for sep in separators) or os.path.isabs(path):
            raise TargetError(f"{spec} does not exist.")
        found = shutil.which(spec)
        if found is None:
            raise TargetError(f"{spec} is neither an existing path nor a command found on PATH.")
        path = found
    if not os.path.exists(path):
        raise TargetError(f"{spec} is a broken symbolic link (its target does not exist).")
    if os.path.isdir(path):
        exe = _interpreter_in(path, windows)
        if exe is None:
            raise TargetError(
                f"{spec} is a folder but holds no Python interpreter "
                "(looked for bin/python, Scripts/python.exe, python.exe)."
            )
        path = exe
    elif not os.path.isfile(path):
        raise TargetError(f"{spec} is not a regular file, so it cannot be a Python interpreter.")
    if not _runnable(path, windows):
        raise TargetError(f"{path} is not executable (no execute permission).")
    return os.path.abspath(path)
