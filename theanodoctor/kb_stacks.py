"""Typed loader for ``profiles/stacks.yaml``: the named known-good stacks, where pygpu comes from,
the C++ compiler per OS and the GPUs libgpuarray cannot drive. Read once; a malformed row raises
``KnowledgeError`` naming file and line."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from packaging.specifiers import SpecifierSet

from theanodoctor.knowledge import (
    FLAVOURS,
    KnowledgeError,
    choice,
    rows,
    source,
    spec,
    strings,
    table,
    text,
    version_range,
    where,
)

STACKS = "stacks.yaml"
OSES = ("windows", "linux", "macos")
_ID = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
_MINOR = re.compile(r"^\d+\.\d+$")
_EXACT = re.compile(r"^\d+(\.\d+)+$")


class Stack(NamedTuple):
    id: str
    title: str
    os: str  # windows | linux | any
    flavour: str
    theano: str
    python: str
    numpy: str
    scipy: str
    pygpu: str | None
    cuda: str | None
    cudnn: str | None
    compiler: str | None
    fixes: tuple[str, ...]
    source: str
    where: str

    @property
    def gpu(self) -> bool:
        return self.cuda is not None


class PygpuSource(NamedTuple):
    id: str
    channel: str
    version: str
    python: SpecifierSet
    os: tuple[str, ...]
    note: str
    source: str


class Compiler(NamedTuple):
    id: str
    os: str
    label: str
    conda: tuple[str, ...]
    source: str


class LastWheels(NamedTuple):
    python: str
    numpy: str
    scipy: str
    source: str
    first_numpy: str | None = None  # the oldest numpy with wheels for this Python (Linux or Windows)


class GpuLimit(NamedTuple):
    id: str
    cc: SpecifierSet
    message: str
    source: str


def _version(row: Any, key: str, pattern: re.Pattern[str], required: bool = True) -> str | None:
    value = row.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not pattern.match(value):
        raise KnowledgeError(f"{where(STACKS, row)}: `{key}` must be a version in quotes like "
                             f"{'3.7' if pattern is _MINOR else '1.16.6'}, not {value!r}")
    return value


def _id(row: Any) -> str:
    value = text(STACKS, row, "id")
    if not _ID.match(value):
        raise KnowledgeError(f"{where(STACKS, row)}: `id` must be kebab-case, not {value!r}")
    return value


def _stack(row: Any) -> Stack:
    cuda = _version(row, "cuda", _MINOR, required=False)
    cudnn = _version(row, "cudnn", _EXACT, required=False)
    pygpu = _version(row, "pygpu", _EXACT, required=False)
    if (cuda is None) != (pygpu is None) or (cudnn and not cuda):
        raise KnowledgeError(f"{where(STACKS, row)}: a GPU stack names `cuda` and `pygpu` (and maybe "
                             "`cudnn`); a CPU-only stack names none of them")
    return Stack(
        id=_id(row), title=text(STACKS, row, "title"), os=choice(STACKS, row, "os", (*OSES, "any")),
        flavour=choice(STACKS, row, "flavour", FLAVOURS), theano=_version(row, "theano", _EXACT) or "",
        python=_version(row, "python", _MINOR) or "", numpy=_version(row, "numpy", _EXACT) or "",
        scipy=_version(row, "scipy", _EXACT) or "", pygpu=pygpu, cuda=cuda, cudnn=cudnn,
        compiler=text(STACKS, row, "compiler", required=False) or None, fixes=strings(STACKS, row, "fixes"),
        source=source(STACKS, row, "source"), where=where(STACKS, row),
    )


@table
def stacks() -> tuple[Stack, ...]:
    found: dict[str, Stack] = {}
    for row in rows(STACKS, "stacks"):
        stack = _stack(row)
        if stack.id in found:
            raise KnowledgeError(f"{stack.where}: stack id {stack.id!r} is listed twice")
        found[stack.id] = stack
    known = {c.id for c in compilers()}
    for stack in found.values():
        if stack.compiler and stack.compiler not in known:
            raise KnowledgeError(f"{stack.where}: compiler {stack.compiler!r} is not under `compilers:`")
    return tuple(found.values())


def stack(stack_id: str) -> Stack | None:
    return next((s for s in stacks() if s.id == stack_id), None)


@table
def pygpu_sources() -> tuple[PygpuSource, ...]:
    found = []
    for row in rows(STACKS, "pygpu"):
        oses = strings(STACKS, row, "os")
        if not oses or any(o not in OSES for o in oses):
            raise KnowledgeError(f"{where(STACKS, row)}: `os` must list some of {', '.join(OSES)}")
        found.append(PygpuSource(_id(row), text(STACKS, row, "channel"), _version(row, "version", _EXACT) or "",
                                 version_range(STACKS, row, "python"), oses, text(STACKS, row, "note"),
                                 source(STACKS, row, "source")))
    return tuple(found)


@table
def compilers() -> tuple[Compiler, ...]:
    return tuple(Compiler(_id(row), choice(STACKS, row, "os", OSES), text(STACKS, row, "label"),
                          strings(STACKS, row, "conda"), source(STACKS, row, "source"))
                 for row in rows(STACKS, "compilers"))


def compiler_for(os_name: str) -> Compiler | None:
    return next((c for c in compilers() if c.os == os_name), None)


@table
def last_wheels() -> dict[str, LastWheels]:
    return {row["python"]: LastWheels(_version(row, "python", _MINOR) or "", _version(row, "numpy", _EXACT) or "",
                                      _version(row, "scipy", _EXACT) or "", source(STACKS, row, "source"),
                                      _version(row, "first_numpy", _EXACT, required=False))
            for row in rows(STACKS, "wheels")}


class ScipyPair(NamedTuple):
    scipy: SpecifierSet
    numpy: SpecifierSet
    source: str
    pin: str | None = None             # the scipy to pin from this row
    python: SpecifierSet | None = None  # the Pythons it has wheels for


@table
def scipy_pairs() -> tuple[ScipyPair, ...]:
    """profiles/scipy_numpy.yaml for the resolver (checks/packages.py reads it for the checks;
    this keeps the resolver from loading the whole check catalogue)."""
    name = "scipy_numpy.yaml"
    return tuple(ScipyPair(version_range(name, row, "scipy"), version_range(name, row, "numpy"),
                           source(name, row, "source"), text(name, row, "pin", required=False) or None,
                           spec(name, row, "python")) for row in rows(name, "pairs"))


@table
def gpu_limits() -> tuple[GpuLimit, ...]:
    return tuple(GpuLimit(_id(row), version_range(STACKS, row, "cc"), text(STACKS, row, "message"),
                          source(STACKS, row, "source"))
                 for row in rows(STACKS, "gpu_limits"))
