"""Typed loaders for the library, cuDNN and host-compiler tables in ``profiles/``.

``cuda_libraries.yaml``: file names per CUDA version and OS, and libgpuarray 0.7.6's loader
rule; ``cudnn.yaml``: what Theano accepts, cuDNN builds per CUDA, cuDNN file names;
``host_compilers.yaml``: nvcc's GCC and Visual Studio limits. Each table is read once; a
malformed one raises ``KnowledgeError`` naming file and line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from theanodoctor.knowledge import KnowledgeError, rows, source, strings, table, text, version_range, where

LIBS = "cuda_libraries.yaml"
CUDNN = "cudnn.yaml"
COMPILERS = "host_compilers.yaml"

_MAJOR_MINOR = re.compile(r"^\d+\.\d+$")
_NUMERIC = re.compile(r"^\d+(\.\d+)*$")


# -- validators these tables need beyond knowledge's ------------------------------------------

def _cuda_list(name: str, row: Any, key: str) -> tuple[str, ...]:
    values = strings(name, row, key)
    for value in values:
        if not _MAJOR_MINOR.match(value):
            raise KnowledgeError(f"{where(name, row)}: `{key}` entries must be major.minor, not {value!r}")
    return values


def _number(name: str, row: Any, key: str, required: bool = True) -> str:
    value = row.get(key)
    if value is None and not required:
        return ""
    value = str(value) if isinstance(value, (int, float, str)) and not isinstance(value, bool) else ""
    if not _NUMERIC.match(value):
        raise KnowledgeError(f"{where(name, row)}: `{key}` must be a version number like 8 or 11.1")
    return value


def _label(name: str, row: Any, key: str) -> str:
    value = text(name, row, key)
    if not re.match(r"^\d+\.", value):
        raise KnowledgeError(f"{where(name, row)}: `{key}` must start with the major version, like 7.6.5")
    return value


def _integer(name: str, row: Any, key: str) -> int:
    value = row.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise KnowledgeError(f"{where(name, row)}: `{key}` must be an integer")
    return value


def _files(name: str, row: Any, key: str) -> dict[str, str]:
    value = row.get(key)
    if not isinstance(value, dict) or not value or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in value.items()):
        raise KnowledgeError(f"{where(name, row)}: `{key}` must map library names to file names")
    return dict(value)


def _subset(name: str, row: Any, key: str, allowed: Any) -> tuple[str, ...]:
    values = strings(name, row, key)
    unknown = [v for v in values if v not in allowed]
    if unknown:
        raise KnowledgeError(f"{where(name, row)}: `{key}` names {', '.join(unknown)}, "
                             f"not one of {', '.join(sorted(allowed))}")
    return values


def _single(name: str, key: str) -> Any:
    found = rows(name, key)
    if len(found) != 1:
        raise KnowledgeError(f"profiles/{name}: expected exactly one entry under `{key}:`")
    return found[0]


def split_version(version: str) -> tuple[int, int]:
    """"10.2" -> (10, 2), "11" -> (11, 0); what ``{major}{minor}`` placeholders are filled with.
    Raises ValueError for anything else."""
    parts = str(version).strip().split(".")
    return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0


def covers(versions: SpecifierSet, version: str | None) -> bool:
    if not version:
        return False
    try:
        return versions.contains(Version(version), prereleases=True)
    except InvalidVersion:
        return False


# -- cuda_libraries.yaml ----------------------------------------------------------------------

class LibraryNames(NamedTuple):
    os: str  # "Windows" | "Linux"
    cuda: SpecifierSet
    files: Mapping[str, str]
    inferred: tuple[str, ...]
    source: str

    def name(self, lib: str, version: str) -> str | None:
        """The file name of ``lib`` for toolkit ``version`` ("10.2"), or None when unknown."""
        pattern = self.files.get(lib)
        if pattern is None:
            return None
        major, minor = split_version(version)
        return pattern.format(major=major, minor=minor)


class LoaderRule(NamedTuple):
    id: str
    windows_driver: str
    windows_nvrtc: str
    windows_cublas: str
    fallbacks: tuple[tuple[int, int], ...]
    linux: tuple[str, ...]
    source: str

    def attempts(self, driver: tuple[int, int]) -> list[tuple[int, int]]:
        """CUDA versions whose NVRTC libgpuarray tries, in order, for a driver reporting
        ``driver``: its own, then the fallbacks below it (setup_lib in gpuarray_buffer_cuda.c)."""
        return [driver] + [v for v in self.fallbacks if v < driver]

    def nvrtc(self, version: tuple[int, int]) -> str:
        return self.windows_nvrtc.format(major=version[0], minor=version[1])

    def cublas(self, version: tuple[int, int]) -> str:
        return self.windows_cublas.format(major=version[0], minor=version[1])


class GuideAliases(NamedTuple):
    cuda: SpecifierSet
    names: Mapping[str, str]
    source: str


def _library_rows(key: str, os_name: str) -> tuple[LibraryNames, ...]:
    found = []
    for row in rows(LIBS, key):
        files = _files(LIBS, row, "files")
        found.append(LibraryNames(os_name, version_range(LIBS, row, "cuda"), files,
                                  _subset(LIBS, row, "inferred", files), source(LIBS, row, "source")))
    return tuple(found)


@table
def library_names() -> tuple[LibraryNames, ...]:
    return _library_rows("windows", "Windows") + _library_rows("linux", "Linux")


def names_for(os_name: str, version: str | None) -> LibraryNames | None:
    """The row for a toolkit version ("10.2") on "Windows" or "Linux"."""
    return next((r for r in library_names() if r.os == os_name and covers(r.cuda, version)), None)


@table
def loader_rule() -> LoaderRule:
    row = _single(LIBS, "loader")
    fallbacks = tuple(split_version(v) for v in _cuda_list(LIBS, row, "fallbacks"))
    patterns = {}
    for key in ("windows_nvrtc", "windows_cublas"):
        patterns[key] = text(LIBS, row, key)
        if "{major}" not in patterns[key] or "{minor}" not in patterns[key]:
            raise KnowledgeError(f"{where(LIBS, row)}: `{key}` needs {{major}} and {{minor}}")
    return LoaderRule(
        id=text(LIBS, row, "id"), windows_driver=text(LIBS, row, "windows_driver"),
        fallbacks=fallbacks, linux=strings(LIBS, row, "linux"), source=source(LIBS, row, "source"),
        **patterns,
    )


@table
def guide_aliases() -> tuple[GuideAliases, ...]:
    return tuple(GuideAliases(version_range(LIBS, row, "cuda"), _files(LIBS, row, "names"), source(LIBS, row, "source"))
                 for row in rows(LIBS, "guide_aliases"))


def aliases_for(version: str | None) -> GuideAliases | None:
    return next((a for a in guide_aliases() if covers(a.cuda, version)), None)


# -- cudnn.yaml --------------------------------------------------------------------------------

class TheanoCudnn(NamedTuple):
    id: str
    min_version: int
    warn_from: int
    unusable_from_major: int
    windows_names: tuple[str, ...]
    linux_name: str
    too_old: str
    too_recent: str
    mixed: str
    enabled_but_unusable: str
    source: str


class CudnnBuild(NamedTuple):
    cudnn: SpecifierSet
    label: str
    cuda: tuple[str, ...]
    cuda_unverified: tuple[str, ...]
    source: str

    @property
    def major(self) -> int:
        return int(self.label.split(".")[0])


class CudnnFiles(NamedTuple):
    major: int
    windows: tuple[str, ...]
    linux: str
    unverified: tuple[str, ...]
    source: str


@table
def theano_cudnn() -> TheanoCudnn:
    row = _single(CUDNN, "theano")
    names = strings(CUDNN, row, "windows_names")
    if not names:
        raise KnowledgeError(f"{where(CUDNN, row)}: `windows_names` must not be empty")
    return TheanoCudnn(
        id=text(CUDNN, row, "id"),
        min_version=_integer(CUDNN, row, "min_version"),
        warn_from=_integer(CUDNN, row, "warn_from"),
        unusable_from_major=_integer(CUDNN, row, "unusable_from_major"),
        windows_names=names,
        linux_name=text(CUDNN, row, "linux_name"),
        too_old=text(CUDNN, row, "too_old"),
        too_recent=text(CUDNN, row, "too_recent"),
        mixed=text(CUDNN, row, "mixed"),
        enabled_but_unusable=text(CUDNN, row, "enabled_but_unusable"),
        source=source(CUDNN, row, "source"),
    )


@table
def cudnn_builds() -> tuple[CudnnBuild, ...]:
    return tuple(
        CudnnBuild(version_range(CUDNN, row, "cudnn"), _label(CUDNN, row, "label"), _cuda_list(CUDNN, row, "cuda"),
                   _cuda_list(CUDNN, row, "cuda_unverified"), source(CUDNN, row, "source"))
        for row in rows(CUDNN, "builds")
    )


def cudnn_for_cuda(cuda_version: str | None, below_major: int) -> CudnnBuild | None:
    """The newest cuDNN below major ``below_major`` with a confirmed build for a CUDA version."""
    found = [b for b in cudnn_builds() if cuda_version in b.cuda and b.major < below_major]
    return found[-1] if found else None


def build_for(cudnn_version: str | None) -> CudnnBuild | None:
    """The builds row of a cuDNN version ("7.6.5"), None when the table has no row for it."""
    return next((b for b in cudnn_builds() if covers(b.cudnn, cudnn_version)), None)


@table
def cudnn_files() -> tuple[CudnnFiles, ...]:
    return tuple(
        CudnnFiles(_integer(CUDNN, row, "major"), strings(CUDNN, row, "windows"), text(CUDNN, row, "linux"),
                   _subset(CUDNN, row, "unverified", ("windows", "linux")), source(CUDNN, row, "source"))
        for row in rows(CUDNN, "files")
    )


def cudnn_files_for(major: int | None) -> CudnnFiles | None:
    return next((f for f in cudnn_files() if f.major == major), None)


# -- host_compilers.yaml -----------------------------------------------------------------------

class GccLimit(NamedTuple):
    cuda: SpecifierSet
    max_gcc: str
    min_gcc: str
    error_text: str
    source: str


class MsvcRange(NamedTuple):
    cuda: SpecifierSet
    visual_studio: str
    error_text: str
    source: str


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version))


def gcc_newer_than(gcc: str, limit: str) -> bool:
    """Whether GCC ``gcc`` ("11.4.0") is beyond ``limit`` ("8" = any 8.x, "11.1" = 11.1.x)."""
    precision = len(_numbers(limit))
    return _numbers(gcc)[:precision] > _numbers(limit)


def gcc_older_than(gcc: str, limit: str) -> bool:
    precision = len(_numbers(limit))
    return _numbers(gcc)[:precision] < _numbers(limit)


@table
def gcc_limits() -> tuple[GccLimit, ...]:
    return tuple(
        GccLimit(version_range(COMPILERS, row, "cuda"), _number(COMPILERS, row, "max_gcc"),
                 _number(COMPILERS, row, "min_gcc", required=False),
                 text(COMPILERS, row, "error_text", required=False), source(COMPILERS, row, "source"))
        for row in rows(COMPILERS, "gcc")
    )


@table
def msvc_ranges() -> tuple[MsvcRange, ...]:
    return tuple(
        MsvcRange(version_range(COMPILERS, row, "cuda"), text(COMPILERS, row, "visual_studio"),
                  text(COMPILERS, row, "error_text", required=False), source(COMPILERS, row, "source"))
        for row in rows(COMPILERS, "msvc")
    )


def _rows_for(table: tuple[Any, ...], version: str, full: str | None) -> tuple[Any, ...]:
    """Rows covering a toolkit: by its full version when known; with only major.minor, the rows
    of its first and of a late update release (they differ where an update changed the limit)."""
    if full and len(_numbers(full)) >= 3:
        candidates = [full]
    else:
        candidates = [f"{version}.0", f"{version}.999"]
    found: list[Any] = []
    for candidate in candidates:
        row = next((r for r in table if covers(r.cuda, candidate)), None)
        if row is not None and row not in found:
            found.append(row)
    return tuple(found)


def gcc_limits_for(version: str, full: str | None = None) -> tuple[GccLimit, ...]:
    """The GCC rows for CUDA ``version`` ("11.4"), several when the update release matters."""
    return _rows_for(gcc_limits(), version, full)


def msvc_range_for(version: str, full: str | None = None) -> MsvcRange | None:
    found = _rows_for(msvc_ranges(), version, full)
    return found[0] if found else None
