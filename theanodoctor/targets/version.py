"""The Python version of an install, from its files: ``pyvenv.cfg``, ``conda-meta/``,
``include/.../patchlevel.h`` and ``lib/pythonX.Y`` folder names."""

from __future__ import annotations

import os
import re

from theanodoctor.targets.fs import _list_dir, _read_text

_MAJOR_MINOR = re.compile(r"(\d+)\.(\d+)")
_FULL_VERSION = re.compile(r"^(\d+(?:\.\d+){0,2})")
_VERSIONED_NAME = re.compile(r"^python(\d+\.\d+)(?:\.exe)?$", re.IGNORECASE)


def _full_version(text: str) -> str | None:
    match = _FULL_VERSION.match(text.strip())
    return match.group(1) if match else None


def _major_minor(text: str) -> str | None:
    match = _MAJOR_MINOR.search(text)
    return f"{match.group(1)}.{match.group(2)}" if match else None


def _lib_versions(prefix: str) -> list[str]:
    versions = []
    for entry in _list_dir(os.path.join(prefix, "lib")):
        match = re.fullmatch(r"python(\d+\.\d+)", entry.name)
        if match:
            versions.append(match.group(1))
    return versions


def _patchlevel(prefix: str, major_minor: str | None, windows: bool) -> str | None:
    headers = [os.path.join(prefix, "include", "patchlevel.h")] if windows else []
    include = os.path.join(prefix, "include")
    dirs = [e.name for e in _list_dir(include) if e.name.startswith("python")]
    if major_minor:
        dirs = [d for d in dirs if re.fullmatch(rf"python{re.escape(major_minor)}[a-z]*", d)]
    if len(dirs) == 1:
        headers.append(os.path.join(include, dirs[0], "patchlevel.h"))
    for header in headers:
        match = re.search(r'#define\s+PY_VERSION\s+"([^"]+)"', _read_text(header, 8192))
        if match:
            return _full_version(match.group(1))
    return None


def _python_version(prefix: str, exe: str, cfg: dict[str, str], conda: dict[str, str],
                    windows: bool) -> str | None:
    for key in ("version", "version_info"):
        if cfg.get(key):
            return _full_version(cfg[key])
    if "python" in conda:
        return _full_version(conda["python"])
    # X.Y from the interpreter's real file name (python3.7), a pythonXY.dll, or lib/pythonX.Y.
    major_minor = None
    name = os.path.basename(os.path.realpath(exe))
    match = _VERSIONED_NAME.match(name)
    if match:
        major_minor = match.group(1)
    if major_minor is None and windows:
        dlls = [e.name for e in _list_dir(prefix)
                if re.fullmatch(r"python\d{2,3}\.dll", e.name, re.I)]
        if len(dlls) == 1:
            digits = dlls[0][6:-4]
            major_minor = f"{digits[0]}.{digits[1:]}"
    if major_minor is None:
        libs = _lib_versions(prefix)
        if len(libs) == 1:
            major_minor = libs[0]
    return _patchlevel(prefix, major_minor, windows) or major_minor
