"""Where environments are looked for, one generator per source; each yields
(interpreter path, source label) pairs in a stable order."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from typing import Any

from theanodoctor.targets.fs import _is_dir, _list_dir, _read_text, _runnable
from theanodoctor.targets.layout import _interpreter_in

# Bounds that keep discovery fast on odd machines (a PATH of thousands of entries, a conda
# install with a huge envs/ folder, a multi-megabyte environments.txt).
_MAX_PATH_DIRS = 256
_MAX_ENVS = 512
_MAX_ENV_LINES = 1000

_CONDA_ROOTS_POSIX = ("anaconda3", "miniconda3", "miniforge3", "mambaforge", "micromamba",
                      "anaconda", "miniconda", "opt/anaconda3", "opt/miniconda3")
_CONDA_ROOTS_SYSTEM_POSIX = ("/opt/conda", "/opt/anaconda3", "/opt/miniconda3",
                             "/opt/miniforge3", "/usr/local/anaconda3", "/usr/local/miniconda3")
_CONDA_ROOTS_WINDOWS = ("Anaconda3", "Miniconda3", "Miniforge3", "Mambaforge", "micromamba",
                        "anaconda3", "miniconda3", "miniforge3", "mambaforge")

_PYTHON_NAME = re.compile(r"^python(\d+(?:\.\d+)?)?$")
_PYTHON_NAME_WIN = re.compile(r"^python(\d+(?:\.\d+)?)?\.exe$", re.IGNORECASE)

Found = Iterator[tuple[str, str]]  # (interpreter path, source label)


def _natural_key(name: str) -> list[Any]:
    return [(0, int(part), "") if part.isdigit() else (1, 0, part)
            for part in re.split(r"(\d+)", name) if part]


def _from_folder(folder: str, source: str, windows: bool) -> Found:
    if folder and _is_dir(folder):
        exe = _interpreter_in(folder, windows)
        if exe and _runnable(exe, windows):
            yield exe, source


def _envs_in(root: str, source: str, windows: bool) -> Found:
    for entry in _list_dir(os.path.join(root, "envs"), limit=_MAX_ENVS):
        yield from _from_folder(entry.path, source, windows)


def _environments_txt(home: str, windows: bool) -> Found:
    text = _read_text(os.path.join(home, ".conda", "environments.txt"))
    for line in text.splitlines()[:_MAX_ENV_LINES]:
        line = line.strip()
        if not line or line.startswith("#") or "\0" in line or "\ufffd" in line or len(line) > 4096:
            continue
        if not (os.path.isabs(line) or (windows and re.match(r"^[A-Za-z]:[\\/]", line))):
            continue
        yield from _from_folder(line, "conda-envs", windows)


def _conda_roots(env: Mapping[str, str], home: str, windows: bool) -> list[str]:
    roots: list[str] = []
    conda_exe = env.get("CONDA_EXE", "")
    if conda_exe:
        parent = os.path.dirname(conda_exe)
        if os.path.basename(parent).lower() in ("bin", "scripts", "condabin"):
            roots.append(os.path.dirname(parent))
    if env.get("MAMBA_ROOT_PREFIX"):
        roots.append(env["MAMBA_ROOT_PREFIX"])
    if windows:
        roots += [os.path.join(home, name) for name in _CONDA_ROOTS_WINDOWS]
        local = env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        roots += [os.path.join(local, "Continuum", n) for n in ("anaconda3", "miniconda3")]
        program_data = env.get("PROGRAMDATA") or env.get("ProgramData") or "C:\\ProgramData"
        roots += [os.path.join(program_data, n) for n in ("Anaconda3", "Miniconda3", "Miniforge3")]
    else:
        roots += [os.path.join(home, *name.split("/")) for name in _CONDA_ROOTS_POSIX]
        roots += list(_CONDA_ROOTS_SYSTEM_POSIX)
    # envs created where the install is not writable
    roots.append(os.path.join(home, ".conda"))
    return roots


def _conda_dirs(env: Mapping[str, str], home: str, windows: bool) -> Found:
    for root in _conda_roots(env, home, windows):
        if not _is_dir(root):
            continue
        yield from _from_folder(root, "conda-env-dir", windows)  # the base env
        yield from _envs_in(root, "conda-env-dir", windows)


def _pyenv(env: Mapping[str, str], home: str, windows: bool) -> Found:
    roots = [env.get("PYENV_ROOT", ""), os.path.join(home, ".pyenv")]
    for root in filter(None, roots):
        # pyenv, and pyenv-win (whose PYENV_ROOT may be either folder)
        for versions in (os.path.join(root, "versions"),
                         os.path.join(root, "pyenv-win", "versions")):
            entries = sorted(_list_dir(versions, limit=_MAX_ENVS),
                             key=lambda e: _natural_key(e.name))
            for entry in entries:
                yield from _from_folder(entry.path, "pyenv", windows)
                yield from _envs_in(entry.path, "pyenv", windows)  # pyenv-virtualenv


def _path_dirs(env: Mapping[str, str], windows: bool) -> Found:
    sep = ";" if windows else ":"
    pattern = _PYTHON_NAME_WIN if windows else _PYTHON_NAME
    seen: set[str] = set()
    for folder in env.get("PATH", "").split(sep):
        folder = folder.strip().strip('"')
        if not folder or folder in seen:
            continue
        seen.add(folder)
        if len(seen) > _MAX_PATH_DIRS:
            break
        base = os.path.basename(folder.rstrip("/\\")).lower()
        # pyenv/asdf shims are shell scripts that pick a version at run time, and the Windows
        # Store aliases are stubs; the real installs are found on their own.
        if base in ("shims", "windowsapps"):
            continue
        names = [e for e in _list_dir(folder) if pattern.match(e.name)]
        for entry in sorted(names, key=lambda e: _natural_key(e.name)):
            if _runnable(entry.path, windows):
                yield entry.path, "PATH"


def _sources(env: Mapping[str, str], home: str, windows: bool) -> Iterator[Found]:
    for var in ("CONDA_PREFIX", "VIRTUAL_ENV"):
        yield _from_folder(env.get(var, ""), var, windows)
    yield _environments_txt(home, windows)
    yield _conda_dirs(env, home, windows)
    yield _pyenv(env, home, windows)
    yield _path_dirs(env, windows)
