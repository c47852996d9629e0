"""Walk a repository folder and read its text files, never following a symlinked folder, with
every unreadable, binary or huge file turned into a problem instead of an exception."""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from theanodoctor.scan.model import Problem

MAX_BYTES = 2_000_000  # a source or metadata file larger than this is generated or data: skipped
MAX_FILES = 50_000  # a scan stops walking after this many files (a home folder, a data set)
SKIP_DIRS = frozenset({
    ".git", ".hg", ".svn", "__pycache__", "node_modules", ".tox", ".nox", ".venv", "venv", ".env",
    "site-packages", ".ipynb_checkpoints", ".mypy_cache", ".pytest_cache", ".eggs", ".idea",
})

_REQUIREMENTS = re.compile(r"^(requirements|reqs?|dev-requirements|test-requirements)[\w.\-]*\.(txt|in|pip)$", re.I)
_CONDA = re.compile(r"^(environment|conda|env)[\w.\-]*\.ya?ml$", re.I)
_DOCKER = re.compile(r"^(dockerfile([.\-_]\w+)*|[\w.\-]+\.dockerfile)$", re.I)
_DOC = re.compile(r"^(readme|install|installation|requirements|setup)([\w.\-]*\.(md|rst|txt|markdown))?$", re.I)
_SCRIPT = re.compile(r"\.(sh|bash|zsh|cfg|ini|env|slurm|pbs|job|cmd|bat)$|^makefile$", re.I)


class RepoFile(NamedTuple):
    rel: str  # forward slashes, relative to the scanned folder
    path: Path
    kind: str  # python, requirements, setup.py, setup.cfg, pyproject, pipfile, conda, docker, theanorc, doc, script
    size: int


def kind_of(rel: str) -> str | None:
    """What a file is to the scanner, by its name; None for files the scan does not read."""
    name = rel.rsplit("/", 1)[-1]
    lowered = name.lower()
    in_requirements_dir = "/requirements/" in f"/{rel.lower()}" and lowered.endswith((".txt", ".in"))
    checks = (
        (lowered == "setup.py", "setup.py"),
        (lowered.endswith(".py"), "python"),
        (bool(_REQUIREMENTS.match(name)) or in_requirements_dir, "requirements"),
        (lowered == "setup.cfg", "setup.cfg"),
        (lowered == "pyproject.toml", "pyproject"),
        (lowered == "pipfile", "pipfile"),
        (lowered == "keras.json", "keras-json"),
        (bool(_CONDA.match(name)), "conda"),
        (bool(_DOCKER.match(name)), "docker"),
        (lowered in (".theanorc", ".theanorc.txt", "theanorc", "theanorc.txt"), "theanorc"),
        (bool(_DOC.match(name)), "doc"),
        (bool(_SCRIPT.search(name)), "script"),
    )
    return next((kind for hit, kind in checks if hit), None)


def walk(root: Path, problems: list[Problem]) -> Iterator[RepoFile]:
    """The files the scanner reads, sorted within each folder, so every run sees the same order."""
    seen = 0
    for folder, dirs, names in os.walk(root, onerror=lambda exc: problems.append(
            Problem(_rel(root, Path(exc.filename or root)), f"cannot list folder: {exc.strerror or exc}"))):
        base = Path(folder)
        dirs[:] = sorted(d for d in dirs if _descend(root, base / d, d, problems))
        for name in sorted(names):
            seen += 1
            if seen > MAX_FILES:
                problems.append(Problem(".", f"stopped after {MAX_FILES} files: is this one repository?"))
                return
            path = base / name
            rel = _rel(root, path)
            kind = kind_of(rel)
            if kind is None:
                continue
            try:
                info = path.stat()
            except OSError as exc:
                problems.append(Problem(rel, _why(exc)))
                continue
            if not stat.S_ISREG(info.st_mode):  # a FIFO or a device would block or never end
                problems.append(Problem(rel, "not a regular file, skipped"))
                continue
            yield RepoFile(rel, path, kind, info.st_size)


def _descend(root: Path, path: Path, name: str, problems: list[Problem]) -> bool:
    if name in SKIP_DIRS or name.endswith(".egg-info"):
        return False
    if path.is_symlink():  # os.walk does not follow it either; said here so the answer is explicit
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):
            problems.append(Problem(_rel(root, path), "symlink loop or dangling symlink: not followed"))
            return False
        loop = target == path.parent.resolve() or target in path.parent.resolve().parents
        problems.append(Problem(_rel(root, path), "symlink to a folder above it (a loop): not followed" if loop
                                else "symlink to a folder: not followed"))
        return False
    vendored = path if name == "theano" else path / "theano"
    if (vendored / "configdefaults.py").is_file():
        problems.append(Problem(_rel(root, path), "a copy of Theano's own source: not scanned (its internals "
                                                  "are not this repository's code)"))
        return False
    return True


def read_bytes(file: RepoFile, problems: list[Problem]) -> bytes | None:
    """The file's bytes, or None with a problem noted: too big, binary, unreadable."""
    if file.size > MAX_BYTES:
        problems.append(Problem(file.rel, f"{file.size / 1e6:.1f} MB: too large for a {file.kind} file, skipped"))
        return None
    try:
        data = file.path.read_bytes()
    except OSError as exc:
        problems.append(Problem(file.rel, _why(exc)))
        return None
    if b"\0" in data[:8192]:
        problems.append(Problem(file.rel, "binary content (NUL bytes), skipped"))
        return None
    return data


def read_text(file: RepoFile, problems: list[Problem]) -> str | None:
    """The file's text (UTF-8, else Latin-1), or None with a problem noted: too big, binary,
    unreadable."""
    data = read_bytes(file, problems)
    if data is None:
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text


def _why(exc: OSError) -> str:
    if isinstance(exc, PermissionError):
        return "cannot read: permission denied"
    if exc.errno == errno.ELOOP:
        return "symlink loop: not followed"
    return f"cannot read: {exc.strerror or exc}"


def _rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix() or "."
    except ValueError:
        return path.as_posix()
