"""The CUDA knowledge tables, typed: toolkit -> minimum driver, toolkit -> GPU architectures,
GPU name -> compute capability (``profiles/cuda_driver.yaml``, ``gpu_arch.yaml``,
``gpu_names.yaml``). Loaded once; a malformed row raises ``KnowledgeError`` with file:line.

The lookups here are pure: checks pass in versions and names read from the facts."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from theanodoctor.knowledge import (
    KnowledgeError,
    choice,
    load_table,
    rows,
    source,
    strings,
    table,
    text,
    version_range,
    where,
)

OSES = ("linux", "windows")
_DOTTED = re.compile(r"^\d+(\.\d+)*$")
_CC = re.compile(r"^\d+\.\d+$")


def vtuple(value: str | None) -> tuple[int, ...] | None:
    """"440.33.01" -> (440, 33, 1); None when it is not a dotted number."""
    if not isinstance(value, str):
        return None
    match = re.match(r"^\s*(\d+(?:\.\d+)*)", value)
    return tuple(int(p) for p in match.group(1).split(".")) if match else None


def vcmp(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """-1, 0, 1 like the old cmp(), with missing parts read as 0 (440.33 == 440.33.0)."""
    width = max(len(a), len(b))
    pa, pb = a + (0,) * (width - len(a)), b + (0,) * (width - len(b))
    return (pa > pb) - (pa < pb)


def minor_of(version: str | None) -> tuple[int, int] | None:
    """"10.2.89" -> (10, 2)."""
    parts = vtuple(version)
    if not parts:
        return None
    return (parts[0], parts[1] if len(parts) > 1 else 0)


def _dotted(name: str, row: Any, key: str, pattern: re.Pattern[str] = _DOTTED,
            required: bool = True) -> str | None:
    value = row.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not pattern.match(value):
        raise KnowledgeError(f"{where(name, row)}: `{key}` must be a dotted version number in quotes, "
                             f"not {value!r}")
    return value


def _flag(name: str, row: Any, key: str) -> bool:
    value = row.get(key)
    if not isinstance(value, bool):
        raise KnowledgeError(f"{where(name, row)}: `{key}` must be true or false")
    return value


# --- toolkit -> minimum driver -------------------------------------------------------------------

DRIVER_TABLE = "cuda_driver.yaml"


class Release(NamedTuple):
    cuda: str
    label: str
    builds: tuple[str, ...]
    linux: str | None
    windows: str | None
    basis: str  # "nvidia-table" | "installer"
    source: str
    where: str


class CompatFamily(NamedTuple):
    cuda: SpecifierSet
    label: str
    linux: str | None
    windows: str | None
    exact: bool
    source: str
    where: str


class DriverTable(NamedTuple):
    releases: tuple[Release, ...]
    families: tuple[CompatFamily, ...]


def _minimums(name: str, row: Any) -> dict[str, str | None]:
    found = {os: _dotted(name, row, os, required=False) for os in OSES}
    if not any(found.values()):
        raise KnowledgeError(f"{where(name, row)}: a row needs `linux` or `windows` (or both)")
    return found


@table
def driver_table() -> DriverTable:
    name = DRIVER_TABLE
    releases = []
    for row in rows(name, "releases"):
        mins = _minimums(name, row)
        releases.append(Release(
            cuda=_dotted(name, row, "cuda", _CC) or "",
            label=text(name, row, "label"),
            builds=strings(name, row, "builds"),
            linux=mins["linux"], windows=mins["windows"],
            basis=choice(name, row, "basis", ("nvidia-table", "installer")),
            source=source(name, row, "source"),
            where=where(name, row),
        ))
    families = []
    for row in rows(name, "minor_compat"):
        mins = _minimums(name, row)
        families.append(CompatFamily(
            cuda=version_range(name, row, "cuda"), label=text(name, row, "label"),
            linux=mins["linux"], windows=mins["windows"],
            exact=_flag(name, row, "exact"), source=source(name, row, "source"),
            where=where(name, row),
        ))
    return DriverTable(tuple(releases), tuple(families))


class Minimum(NamedTuple):
    """One driver minimum for one toolkit on one OS, and where the number comes from."""

    version: str
    what: str     # "CUDA 10.2 (10.2.89)" / "CUDA 11.1 - 11.8 minor-version compatibility"
    source: str
    exact: bool   # False: a driver branch (R580), the exact point release is unknown
    basis: str    # "nvidia-table" | "installer" | "minor-compat"


class DriverNeed(NamedTuple):
    """``hard``: below it the toolkit cannot run. ``release``: the release's own minimum
    (CUDA 11+: below it only minor-version compatibility, "with limited feature-set")."""

    hard: Minimum | None
    release: Minimum | None


def _as_os(os_name: str) -> str | None:
    lowered = (os_name or "").lower()
    return lowered if lowered in OSES else None


def _family(cuda: str) -> CompatFamily | None:
    try:
        version = Version(cuda)
    except InvalidVersion:
        return None
    return next((f for f in driver_table().families if version in f.cuda), None)


def _release(cuda: str, full: str | None, os_key: str) -> Release | None:
    minor = minor_of(cuda)
    candidates = [r for r in driver_table().releases
                  if minor_of(r.cuda) == minor and getattr(r, os_key)]
    if not candidates:
        return None
    exact = [r for r in candidates if full and full in r.builds]
    if exact:
        return exact[0]
    return min(candidates, key=lambda r: vtuple(getattr(r, os_key)) or ())


def driver_need(cuda: str, full: str | None, os_name: str) -> DriverNeed | None:
    """The driver minimums for toolkit ``cuda`` ("10.2"; ``full`` "10.2.89" picks the exact
    release when known) on ``os_name`` ("Linux"/"Windows"); None when the OS has no column."""
    os_key = _as_os(os_name)
    if os_key is None:
        return None
    family = _family(cuda)
    release = _release(cuda, full, os_key)
    rel_min = None
    if release is not None:
        rel_min = Minimum(str(getattr(release, os_key)), f"CUDA {release.label}", release.source,
                          True, release.basis)
    fam_min = None
    if family is not None and getattr(family, os_key):
        fam_min = Minimum(str(getattr(family, os_key)),
                          f"CUDA {family.label} (minor-version compatibility)", family.source,
                          family.exact, "minor-compat")
    if family is None:  # before CUDA 11 there is no minor-version compatibility
        return DriverNeed(rel_min, None)
    if rel_min and fam_min and vcmp(vtuple(rel_min.version) or (), vtuple(fam_min.version) or ()) <= 0:
        rel_min = None
    return DriverNeed(fam_min, rel_min)


# --- toolkit -> GPU architectures ----------------------------------------------------------------

ARCH_TABLE = "gpu_arch.yaml"


class Arch(NamedTuple):
    cc: str
    family: str
    added: str | None
    last: str | None
    source: str

    @property
    def sm(self) -> str:
        return "sm_" + self.cc.replace(".", "")

    def span(self) -> str:
        start = f"CUDA {self.added}" if self.added else "every CUDA in the tables"
        return f"{start} - {self.last}" if self.last else f"{start} and later"


@table
def architectures() -> dict[str, Arch]:
    name = ARCH_TABLE
    found: dict[str, Arch] = {}
    for row in rows(name, "architectures"):
        arch = Arch(
            cc=_dotted(name, row, "cc", _CC) or "",
            family=text(name, row, "family"),
            added=_dotted(name, row, "added", _CC, required=False),
            last=_dotted(name, row, "last", _CC, required=False),
            source=source(name, row, "source"),
        )
        if arch.cc in found:
            raise KnowledgeError(f"{where(name, row)}: compute capability {arch.cc} is listed twice")
        if arch.added and arch.last and minor_of(arch.added) > minor_of(arch.last):  # type: ignore[operator]
            raise KnowledgeError(f"{where(name, row)}: `added` {arch.added} is after `last` {arch.last}")
        found[arch.cc] = arch
    return found


class ArchVerdict(NamedTuple):
    arch: Arch | None
    supported: bool | None  # None: the capability is not in the table
    needs: str              # "CUDA >= 11.1" / "CUDA <= 11.8" / "" when supported


def arch_support(cc: str, cuda: str) -> ArchVerdict:
    """Can toolkit ``cuda`` ("10.2") compile for compute capability ``cc`` ("8.6")?"""
    arch = architectures().get(cc)
    version = minor_of(cuda)
    if arch is None or version is None:
        return ArchVerdict(arch, None, "")
    if arch.added and version < (minor_of(arch.added) or (0, 0)):
        return ArchVerdict(arch, False, f"CUDA >= {arch.added}")
    if arch.last and version > (minor_of(arch.last) or (0, 0)):
        return ArchVerdict(arch, False, f"CUDA <= {arch.last}")
    return ArchVerdict(arch, True, "")


# --- GPU name -> compute capability --------------------------------------------------------------

NAMES_TABLE = "gpu_names.yaml"


class GpuName(NamedTuple):
    name: str
    cc: str
    source: str
    tokens: tuple[str, ...]


class NameTable(NamedTuple):
    vendor_words: frozenset[str]
    suffixes: tuple[re.Pattern[str], ...]
    gpus: tuple[GpuName, ...]


def _top_list(name: str, data: Any, key: str) -> list[str]:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise KnowledgeError(f"profiles/{name}: expected a list of strings under `{key}:`")
    return value


def tokens(gpu_name: str, vendor_words: frozenset[str]) -> tuple[str, ...]:
    words = re.sub(r"[^0-9a-z]+", " ", gpu_name.lower()).split()
    return tuple(w for w in words if w not in vendor_words)


@table
def gpu_names() -> NameTable:
    name = NAMES_TABLE
    data = load_table(name)
    vendor = frozenset(w.lower() for w in _top_list(name, data, "vendor_words"))
    suffixes = []
    for pattern in _top_list(name, data, "suffix_patterns"):
        try:
            suffixes.append(re.compile(pattern + r"\Z"))
        except re.error as exc:
            raise KnowledgeError(f"profiles/{name}: suffix pattern {pattern!r} is not a regex: {exc}") from exc
    seen: dict[tuple[str, ...], str] = {}
    gpus = []
    for row in rows(name, "gpus"):
        cc = _dotted(name, row, "cc", _CC) or ""
        cited = source(name, row, "source")
        names = strings(name, row, "names")
        if not names:
            raise KnowledgeError(f"{where(name, row)}: `names` must list at least one GPU")
        for gpu in names:
            key = tokens(gpu, vendor)
            if not key:
                raise KnowledgeError(f"{where(name, row)}: GPU name {gpu!r} is empty once normalised")
            if seen.get(key, cc) != cc:
                raise KnowledgeError(f"{where(name, row)}: {gpu!r} is listed as {seen[key]} and {cc}")
            seen[key] = cc
            gpus.append(GpuName(gpu, cc, cited, key))
    return NameTable(vendor, tuple(suffixes), tuple(gpus))


def cc_from_name(reported: str | None) -> GpuName | None:
    """The table entry for a GPU name as NVML/nvidia-smi reports it, or None."""
    if not reported:
        return None
    table = gpu_names()
    words = tokens(reported, table.vendor_words)
    best = None
    for entry in table.gpus:
        size = len(entry.tokens)
        if words[:size] != entry.tokens:
            continue
        if all(any(p.match(w) for p in table.suffixes) for w in words[size:]):
            if best is None or size > len(best.tokens):
                best = entry
    return best
