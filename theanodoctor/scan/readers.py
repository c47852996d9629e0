"""Which reader reads which kind of file."""

from __future__ import annotations

import json
from pathlib import Path

from theanodoctor.scan import dating, flags, read_code, read_docs, read_env, read_pkg
from theanodoctor.scan.files import RepoFile
from theanodoctor.scan.findings import Findings
from theanodoctor.scan.model import evidence


def read_file(file: RepoFile, text: str, found: Findings, root: Path, seen: set[str],
              tracked: frozenset[str]) -> None:
    kind = file.kind
    if kind == "python":
        read_code.read_python(file, text, found, tracked)
    elif kind == "requirements":
        read_pkg.read_requirements(file, text, found, root, seen)
    elif kind == "setup.py":
        read_pkg.read_setup_py(file, text, found)
        read_code.read_python(file, text, found, tracked)
    elif kind == "setup.cfg":
        read_pkg.read_setup_cfg(file, text, found)
    elif kind in ("pyproject", "pipfile"):
        read_pkg.read_toml(file, text, found)
    elif kind == "conda":
        read_env.read_conda(file, text, found)
    elif kind == "docker":
        read_env.read_docker(file, text, found)
    elif kind == "theanorc":
        flags.read_theanorc(file, text, found)
    elif kind == "doc":
        read_docs.read_doc(file, text, found)
        found.dates.extend(dating.dates_in(text))
    elif kind == "script":
        flags.read_script(file, text, found)
        for number, line in enumerate(text.splitlines(), 1):
            if "pip install" in line or "conda install" in line:
                read_env.read_commands(line, evidence(file.rel, number, line), found, file.rel)
    elif kind == "keras-json":
        _keras_json(file, text, found)


def _keras_json(file: RepoFile, text: str, found: Findings) -> None:
    try:
        backend = json.loads(text).get("backend")
    except (ValueError, AttributeError):
        return
    if isinstance(backend, str):
        line = next((n for n, t in enumerate(text.splitlines(), 1) if "backend" in t), 1)
        found.keras_backend.append((backend, evidence(file.rel, line, text.splitlines()[line - 1])))
