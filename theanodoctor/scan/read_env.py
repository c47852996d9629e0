"""Environments described by files: conda environment files and Dockerfiles (`FROM
nvidia/cuda:X-cudnnY`, `FROM python:X`, pip and conda lines, `ENV THEANO_FLAGS`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import yaml

from theanodoctor.scan import flags, reqs
from theanodoctor.scan.files import RepoFile
from theanodoctor.scan.findings import Findings
from theanodoctor.scan.model import Evidence, Problem, evidence, evidence_of

_TOOLS = frozenset({"pip", "setuptools", "wheel", "virtualenv"})  # upgrading the installer is no dependency
_CUDA_IMAGE = re.compile(r"^FROM\s+(?:--\S+\s+)?nvidia/cuda(?:gl)?:(\d+\.\d+)(?:\.\d+)?(?:-cudnn(\d+))?", re.I)
_PYTHON_IMAGE = re.compile(r"^FROM\s+(?:--\S+\s+)?(?:library/)?python:(\d)(?:\.(\d+))?", re.I)


def read_conda(file: RepoFile, text: str, out: Findings) -> None:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        out.problems.append(Problem(file.rel, "not valid YAML"))
        return
    if not isinstance(data, dict) or not isinstance(data.get("dependencies"), list):
        return
    lines = text.splitlines()
    for item in data["dependencies"]:
        if isinstance(item, str):
            _conda_item(file, item, lines, out)
        elif isinstance(item, dict) and isinstance(item.get("pip"), list):
            for pip_item in item["pip"]:
                parsed = reqs.parse(str(pip_item))
                if parsed:
                    out.require(parsed, evidence_of(file.rel, lines, str(pip_item)), file.rel)


def _conda_item(file: RepoFile, item: str, lines: list[str], out: Findings) -> None:
    name = item.split("::")[-1].strip()  # channel::package
    parsed = reqs.parse(re.sub(r"\s+", "", name) if re.search(r"[=<>]", name) else name)
    if parsed:
        out.require(parsed, evidence_of(file.rel, lines, item), file.rel)


def read_docker(file: RepoFile, text: str, out: Findings) -> None:
    for number, line in _instructions(text):
        where = evidence(file.rel, number, line)
        cuda = _CUDA_IMAGE.match(line)
        if cuda:
            out.constrain("cuda", f"=={cuda.group(1)}.*", "stated", where, "the CUDA base image of the Dockerfile")
            if cuda.group(2):
                out.constrain("cudnn", f"=={cuda.group(2)}.*", "stated", where,
                              "the cuDNN base image of the Dockerfile")
        python = _PYTHON_IMAGE.match(line)
        if python:
            version = python.group(1) + (f".{python.group(2)}" if python.group(2) else "")
            out.constrain("python", f"=={version}.*", "stated", where, "the Python base image of the Dockerfile")
        if re.match(r"^(RUN|ENV)\b", line, re.I):
            read_commands(line, where, out, file.rel)
    flags.read_script(file, text, out)


def read_commands(line: str, where: Evidence, out: Findings, source: str) -> None:
    """`pip install ...` and `conda install ...` in a command line."""
    for arg in reqs.pip_install_args(line) + reqs.conda_install_args(line):
        parsed = reqs.parse(arg.rstrip(".,;:"))
        if parsed and parsed.name not in _TOOLS:
            out.require(parsed, where, source)


def _instructions(text: str) -> Iterator[tuple[int, str]]:
    """Dockerfile instructions with their continuation lines joined, at their first line."""
    start, parts = 0, list[str]()
    for number, line in enumerate(text.splitlines(), 1):
        if not parts:
            start = number
            if line.lstrip().startswith("#"):
                continue
        parts.append(line.rstrip().rstrip("\\"))
        if not line.rstrip().endswith("\\"):
            yield start, " ".join(p.strip() for p in parts)
            parts = []
    if parts:
        yield start, " ".join(p.strip() for p in parts)
