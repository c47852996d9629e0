"""Typed loader for ``profiles/theano_releases.yaml``: every Theano and Theano-PyMC release of the
era (declared Python, numpy/scipy floors, GPU back-ends, the stack to pin), the old GPU back-end's
needs, and which config options each release knows. Read once; a malformed row raises
``KnowledgeError`` naming file and line."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from theanodoctor.knowledge import (
    FLAVOURS,
    KnowledgeError,
    choice,
    load_table,
    rows,
    source,
    spec,
    strings,
    table,
    text,
    where,
)

NAME = "theano_releases.yaml"
_VERSION = re.compile(r"^\d+\.\d+(\.\d+)?$")
_EXACT = re.compile(r"^\d+(\.\d+)+([ab]\d+)?$")
OLD_BACKEND = "cuda"


class EraPin(NamedTuple):
    python: str
    numpy: str
    scipy: str
    verified: bool
    source: str


class Release(NamedTuple):
    flavour: str
    version: str
    pre: bool
    tag: str
    date: str
    date_source: str
    python: tuple[str, ...]  # declared by its classifiers
    python_source: str
    numpy: SpecifierSet      # install_requires floor
    scipy: SpecifierSet
    requires_source: str
    documented: str
    numpy_known: str         # the newest numpy known to work with it ("" when its rules decide)
    numpy_known_source: str
    reproduced: bool         # its rules in theano_compat.yaml were reproduced across Pythons and numpys
    backends: tuple[str, ...]
    naming: str              # dotted | dunder
    pins: tuple[EraPin, ...]
    where: str

    @property
    def key(self) -> str:
        """How the resolver names it: "0.8.2", "pymc-1.1.2"."""
        return self.version if self.flavour == "Theano" else f"pymc-{self.version}"

    @property
    def label(self) -> str:
        return f"{self.flavour} {self.version}"

    @property
    def old_backend(self) -> bool:
        return OLD_BACKEND in self.backends

    def gpuarray(self) -> Backend | None:
        """Its usable gpuarray back-end, if any."""
        found = [b for b in backends() if b.id in self.backends and b.id != OLD_BACKEND and b.usable]
        return found[0] if found else None


class Backend(NamedTuple):
    id: str
    name: str
    device: tuple[str, ...]
    pygpu: SpecifierSet | None
    usable: bool
    note: str
    source: str


class OldBackend(NamedTuple):
    nvcc: str
    nvcc_source: str
    arch: str
    arch_source: str
    cuda_known: tuple[str, ...]
    cuda_source: str
    cudnn_min: int
    cudnn_max_official: str
    cudnn_source: str
    cudnn_min_cc: str
    cudnn_cc_source: str
    float32_only: str
    float32_source: str
    driver_test: str
    driver_test_source: str
    banner: str
    banner_source: str


class OptionSpan(NamedTuple):
    key: str
    releases: tuple[str, ...]
    source: str


def _version(row: Any, key: str, pattern: re.Pattern[str]) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not pattern.match(value):
        raise KnowledgeError(f"{where(NAME, row)}: `{key}` must be a version in quotes, not {value!r}")
    return value


def _pin(row: Any) -> EraPin:
    return EraPin(_version(row, "python", _VERSION), _version(row, "numpy", _EXACT),
                  _version(row, "scipy", _EXACT), bool(row.get("verified", False)), source(NAME, row, "source"))


def _release(row: Any, known_backends: set[str]) -> Release:
    found = strings(NAME, row, "backends")
    unknown = [b for b in found if b not in known_backends]
    if unknown:
        raise KnowledgeError(f"{where(NAME, row)}: backend(s) {', '.join(unknown)} not under `backends:`")
    pins = row.get("pins", [])
    if not isinstance(pins, list):
        raise KnowledgeError(f"{where(NAME, row)}: `pins` must be a list")
    numpy, scipy = spec(NAME, row, "numpy"), spec(NAME, row, "scipy")
    if numpy is None or scipy is None:
        raise KnowledgeError(f"{where(NAME, row)}: `numpy` and `scipy` floors are required")
    release = Release(
        flavour=choice(NAME, row, "flavour", FLAVOURS), version=_version(row, "version", _EXACT),
        pre=bool(row.get("pre", False)), tag=text(NAME, row, "tag"), date=text(NAME, row, "date"),
        date_source=source(NAME, row, "date_source"), python=strings(NAME, row, "python"),
        python_source=source(NAME, row, "python_source"), numpy=numpy, scipy=scipy,
        requires_source=source(NAME, row, "requires_source"),
        documented=text(NAME, row, "documented", required=False),
        numpy_known=_version(row, "numpy_known", _EXACT) if "numpy_known" in row else "",
        numpy_known_source=source(NAME, row, "numpy_known_source", required=False),
        reproduced=bool(row.get("rules_reproduced", False)),
        backends=found, naming=choice(NAME, row, "naming", ("dotted", "dunder")),
        pins=tuple(_pin(p) for p in pins), where=where(NAME, row),
    )
    for pin, pin_row in zip(release.pins, pins):
        problem = pin_problem(release, pin)
        if problem:
            raise KnowledgeError(f"{where(NAME, pin_row)}: {release.label} pin: {problem}")
    return release


def pin_problem(release: Release, pin: EraPin) -> str:
    """Why a pin contradicts its own release row ("" when it does not)."""
    if not release.numpy.contains(pin.numpy, prereleases=True):
        return f"numpy {pin.numpy} is outside the release's numpy {release.numpy}"
    if not release.scipy.contains(pin.scipy, prereleases=True):
        return f"scipy {pin.scipy} is outside the release's scipy {release.scipy}"
    if release.numpy_known and vkey(pin.numpy) > vkey(release.numpy_known):
        return f"numpy {pin.numpy} is newer than its numpy_known {release.numpy_known}"
    return ""


@table
def backends() -> tuple[Backend, ...]:
    return tuple(
        Backend(text(NAME, row, "id"), text(NAME, row, "name"), strings(NAME, row, "device"),
                spec(NAME, row, "pygpu"), bool(row.get("usable", True)),
                text(NAME, row, "note", required=False), source(NAME, row, "source"))
        for row in rows(NAME, "backends"))


@table
def releases() -> tuple[Release, ...]:
    """Oldest first within each flavour, as the table lists them."""
    known = {b.id for b in backends()}
    found: dict[tuple[str, str], Release] = {}
    for row in rows(NAME, "releases"):
        release = _release(row, known)
        if (release.flavour, release.version) in found:
            raise KnowledgeError(f"{release.where}: {release.label} is listed twice")
        found[(release.flavour, release.version)] = release
    return tuple(found.values())


@table
def old_backend() -> OldBackend:
    data = load_table(NAME).get("old_backend")
    if not isinstance(data, dict):
        raise KnowledgeError(f"profiles/{NAME}: expected a mapping under `old_backend:`")
    values: dict[str, Any] = {}
    for field in OldBackend._fields:
        if field == "cuda_known":
            values[field] = strings(NAME, data, field)
        elif field == "cudnn_min":
            if not isinstance(data.get(field), int):
                raise KnowledgeError(f"{where(NAME, data)}: `cudnn_min` must be a number like 4007")
            values[field] = data[field]
        else:
            values[field] = text(NAME, data, field)
    return OldBackend(**values)


@table
def option_spans() -> dict[str, OptionSpan]:
    return {span.key: span for span in (
        OptionSpan(text(NAME, row, "key"), strings(NAME, row, "releases"), source(NAME, row, "source"))
        for row in rows(NAME, "options"))}


def vkey(version: str) -> Version:
    try:
        return Version(version)
    except InvalidVersion:
        return Version("0")


def by_key(key: str) -> Release | None:
    return next((r for r in releases() if r.key == key), None)


def release(flavour: str, version: str | None) -> Release | None:
    """The row of an installed release: its exact version, else the newest row of its major.minor
    line (Theano 0.8.1 is judged by the 0.8.2 row); None outside the table."""
    if not version:
        return None
    rows_ = [r for r in releases() if r.flavour == flavour]
    exact = next((r for r in rows_ if r.version == version), None)
    if exact is not None:
        return exact
    have = vkey(version)
    line = [r for r in rows_ if vkey(r.version).release[:2] == have.release[:2]]
    return max(line, key=lambda r: vkey(r.version)) if line else None


def knows_option(flavour: str, version: str | None, key: str) -> bool | None:
    """Whether a release registers config option ``key`` (dotted name): True / False from the era
    rows, None when they do not say (Theano-PyMC, an option every plain release has, a release
    outside the table): then the caller's own registry decides."""
    found = release(flavour, version)
    span = option_spans().get(key)
    if found is None or span is None or flavour != "Theano":
        return None
    return found.version in span.releases


def accepts_old_device(flavour: str, version: str | None) -> bool | None:
    """Whether ``device=gpu*`` (the old back-end) is valid for the release; None when unknown."""
    found = release(flavour, version)
    return found.old_backend if found else None
