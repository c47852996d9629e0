"""Packaging metadata: requirements files (with `-r` includes), setup.py read as a syntax tree
(never executed), setup.cfg, pyproject.toml and Pipfile."""

from __future__ import annotations

import ast
import configparser
import os
import re
import sys
from pathlib import Path
from typing import Any

from theanodoctor.scan import reqs
from theanodoctor.scan.files import RepoFile, read_text
from theanodoctor.scan.findings import Findings
from theanodoctor.scan.model import Problem, evidence, evidence_of

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.9/3.10
    import tomli as tomllib

_CLASSIFIER = re.compile(r"Programming Language :: Python :: (\d)(?:\.\d+)*(?: :: Only)?$")


def read_requirements(file: RepoFile, text: str, out: Findings, root: Path, seen: set[str]) -> None:
    """A requirements file; `-r`/`-c` includes outside the usual names are read once too."""
    seen.add(file.rel)
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        include = re.match(r"^(?:-r|--requirement)\s*(\S+)", stripped)
        if include:
            _include(file, include.group(1), out, root, seen)
            continue
        parsed = reqs.parse(stripped)
        if parsed:
            out.require(parsed, evidence(file.rel, number, line), file.rel)


def _include(file: RepoFile, target: str, out: Findings, root: Path, seen: set[str]) -> None:
    rel = os.path.normpath(Path(file.rel).parent / target).replace(os.sep, "/")
    path = (root / rel)
    if rel in seen:
        return
    try:
        inside = path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        inside = False
    if not inside or not path.is_file():
        out.problems.append(Problem(file.rel, f"includes {target}, which is not in the repository"))
        return
    included = RepoFile(rel, path, "requirements", path.stat().st_size)
    text = read_text(included, out.problems)
    if text is not None:
        read_requirements(included, text, out, root, seen)


def read_setup_py(file: RepoFile, text: str, out: Findings) -> None:
    """install_requires, python_requires and the Python classifiers of a setup() call, from the
    syntax tree: string literals, and lists assigned to a name at module level."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        _setup_py2(file, text, out)
        return
    lines = text.splitlines()
    names: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            names[node.targets[0].id] = node.value
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and getattr(call.func, "id", getattr(call.func, "attr", "")) == "setup":
            for keyword in call.keywords:
                value = names.get(keyword.value.id, keyword.value) if isinstance(keyword.value, ast.Name) \
                    else keyword.value
                _setup_keyword(file, keyword.arg or "", value, lines, out)


def _setup_keyword(file: RepoFile, key: str, value: ast.expr, lines: list[str], out: Findings) -> None:
    strings = [(n.value, n.lineno) for n in ast.walk(value)
               if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    _setup_strings(file, key, strings, lines, out)


def _setup_strings(file: RepoFile, key: str, strings: list[tuple[str, int]], lines: list[str],
                   out: Findings) -> None:
    majors: dict[str, Any] = {}
    for string, line in strings:
        where = evidence(file.rel, line, lines[line - 1] if 0 < line <= len(lines) else string)
        if key in ("install_requires", "requires", "setup_requires"):
            parsed = reqs.parse(string)
            if parsed:
                out.require(parsed, where, "setup.py")
        elif key == "python_requires" and string.strip():
            out.constrain("python", string.strip(), "stated", where, "python_requires in setup.py")
        elif key == "classifiers":
            match = _CLASSIFIER.search(string)
            if match:
                majors.setdefault(match.group(1), where)
    if len(majors) == 1:  # classifiers naming both 2 and 3 say nothing about the major
        major, where = majors.popitem()
        out.constrain("python", f"=={major}.*", "stated", where, "the only Python major in setup.py's classifiers")


def _setup_py2(file: RepoFile, text: str, out: Findings) -> None:
    """A Python 2 setup.py: the same keywords, read from the lossless Python 2 tree."""
    from theanodoctor.scan import py2tree

    tree = py2tree.parse(text)
    if tree is None:
        out.problems.append(Problem(file.rel, "setup.py parses neither as Python 3 nor as Python 2"))
        return
    lines = text.splitlines()
    for key, strings in py2tree.keyword_strings(tree, ("install_requires", "requires", "python_requires",
                                                        "classifiers", "setup_requires")):
        _setup_strings(file, key, strings, lines, out)


def read_setup_cfg(file: RepoFile, text: str, out: Findings) -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        out.problems.append(Problem(file.rel, f"not a valid setup.cfg: {exc.__class__.__name__}"))
        return
    lines = text.splitlines()
    if parser.has_option("options", "install_requires"):
        for item in parser.get("options", "install_requires").splitlines():
            parsed = reqs.parse(item)
            if parsed:
                out.require(parsed, evidence_of(file.rel, lines, item), file.rel)
    if parser.has_option("options", "python_requires"):
        value = parser.get("options", "python_requires").strip()
        out.constrain("python", value, "stated", evidence_of(file.rel, lines, value), "python_requires in setup.cfg")


def read_toml(file: RepoFile, text: str, out: Findings) -> None:
    """pyproject.toml ([project], [tool.poetry]) or a Pipfile ([packages], [requires])."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        out.problems.append(Problem(file.rel, f"not valid TOML: {exc}"))
        return
    lines = text.splitlines()
    project = data.get("project", {}) if isinstance(data.get("project"), dict) else {}
    items: list[str] = [d for d in project.get("dependencies", []) if isinstance(d, str)]
    python = project.get("requires-python")
    tables = [data.get("packages"), _dig(data, "tool", "poetry", "dependencies")]
    for table in tables:
        if isinstance(table, dict):
            for name, value in table.items():
                if name.lower() == "python":
                    python = value if isinstance(value, str) else python
                    continue
                version = value if isinstance(value, str) else \
                    value.get("version", "") if isinstance(value, dict) else ""
                items.append(name if version in ("", "*") else f"{name}{_poetry(version)}")
    for item in items:
        parsed = reqs.parse(item)
        if parsed:
            out.require(parsed, evidence_of(file.rel, lines, item.split("=")[0].split("<")[0].split(">")[0]), file.rel)
    pipfile_python = _dig(data, "requires", "python_version")
    if isinstance(pipfile_python, str):
        python = f"=={pipfile_python}.*"
    if isinstance(python, str) and python.strip():
        out.constrain("python", _poetry(python.strip()), "stated", evidence_of(file.rel, lines, "python"),
                      f"the Python version in {file.rel}")


def _poetry(version: str) -> str:
    """Poetry's `^2.7` / `~1.0` as PEP 440; a bare version as `==`."""
    version = version.strip()
    if version.startswith("^"):
        parts = version[1:].split(".")
        return f">={version[1:]},<{int(parts[0]) + 1}" if parts[0].isdigit() and parts[0] != "0" else f">={version[1:]}"
    if version.startswith("~") and not version.startswith("~="):
        return f"~={version[1:]}" if version.count(".") >= 1 else f"=={version[1:]}.*"
    return f"=={version}" if re.fullmatch(r"\d[\w.]*", version) else version


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data
