"""Versions of the packages that matter, from the installed packages' metadata
(``*.dist-info/METADATA``, ``*.egg-info/PKG-INFO``, and the ``.egg-link`` files
``setup.py develop`` leaves behind) and from ``conda-meta/`` file names."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from theanodoctor.targets.fs import _list_dir, _read_text
from theanodoctor.targets.version import _full_version

_MAX_HEADER_BYTES = 16 * 1024

# The packages whose versions decide what the doctor says; keys are normalised names.
_WANTED = ("theano", "theano-pymc", "numpy")
_META_ENTRY = re.compile(r"^(theano[-_.]pymc|theano|numpy)(?:-(\d[^-]*))?(?:-.*)?$", re.IGNORECASE)


def _norm_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _conda_meta(prefix: str) -> dict[str, str]:
    """Package name -> version from ``conda-meta/<name>-<version>-<build>.json`` file names."""
    found: dict[str, str] = {}
    for entry in _list_dir(os.path.join(prefix, "conda-meta")):
        if not entry.name.endswith(".json"):
            continue
        parts = entry.name[:-5].rsplit("-", 2)
        if len(parts) == 3:
            found.setdefault(_norm_name(parts[0]), parts[1])
    return found


def _metadata_file(path: str, is_dir: bool, suffix: str) -> str:
    if not is_dir:
        return path  # a distutils egg-info is a single PKG-INFO-style file
    if suffix == ".dist-info":
        return os.path.join(path, "METADATA")
    if suffix == ".egg":
        return os.path.join(path, "EGG-INFO", "PKG-INFO")
    return os.path.join(path, "PKG-INFO")


def _read_name_version(path: str) -> tuple[str | None, str | None]:
    name = version = None
    for line in _read_text(path, _MAX_HEADER_BYTES).splitlines():
        if not line.strip():
            break  # end of the header block
        key, sep, value = line.partition(":")
        if not sep:
            continue
        key = key.strip().lower()
        if key == "name" and name is None:
            name = value.strip()
        elif key == "version" and version is None:
            version = value.strip()
    return name, version


def _egg_link_targets(site: str, entry: os.DirEntry[str]) -> Iterator[tuple[str, bool, str]]:
    """Egg-info folders of a ``setup.py develop`` install named by an ``.egg-link`` file."""
    lines = _read_text(entry.path, 4096).splitlines()
    if not lines or not lines[0].strip():
        return
    project = os.path.join(site, lines[0].strip())  # absolute in practice; join keeps it
    for sub in _list_dir(project):
        if sub.name.endswith(".egg-info"):
            yield sub.path, sub.is_dir(), ".egg-info"


def _packages_in(site: str) -> dict[str, tuple[str, float]]:
    """Wanted package name -> (version, metadata mtime) found in one site-packages folder."""
    found: dict[str, tuple[str, float]] = {}
    for entry in _list_dir(site):
        hits: list[tuple[str, bool, str]] = []
        name = entry.name
        try:
            if name.endswith(".egg-link"):
                if _META_ENTRY.match(name[: -len(".egg-link")]):
                    hits.extend(_egg_link_targets(site, entry))
            else:
                for suffix in (".dist-info", ".egg-info", ".egg"):
                    if name.endswith(suffix) and _META_ENTRY.match(name[: -len(suffix)]):
                        hits.append((entry.path, entry.is_dir(), suffix))
                        break
        except OSError:
            continue
        for path, is_dir, suffix in hits:
            meta_name, version = _read_name_version(_metadata_file(path, is_dir, suffix))
            if not meta_name or not version:
                # Unreadable metadata: the folder name still says Name-Version.
                match = _META_ENTRY.match(os.path.basename(path)[: -len(suffix)])
                if not match or not match.group(2):
                    continue
                meta_name, version = match.group(1), match.group(2).replace("_", "-")
            key = _norm_name(meta_name)
            if key not in _WANTED:
                continue
            try:
                mtime = os.stat(path).st_mtime
            except OSError:
                mtime = 0.0
            # A failed upgrade can leave two records; the newer one is what pip wrote last.
            if key not in found or mtime > found[key][1]:
                found[key] = (version, mtime)
    return found


def _theano_without_metadata(site: str) -> tuple[str, str] | None:
    """A ``theano`` package copied in by hand: version from versioneer's ``_version.py``."""
    package = os.path.join(site, "theano")
    if not os.path.isfile(os.path.join(package, "__init__.py")):
        return None
    text = _read_text(os.path.join(package, "_version.py"), 8192)
    match = re.search(r'"version"\s*:\s*"([^"]+)"', text)
    if not match:
        return None
    version = match.group(1)
    numbers = [int(n) for n in re.findall(r"\d+", _full_version(version) or "0")[:3]]
    # Theano stopped at 1.0.5; the PyMC fork continued from 1.0.11 on.
    return ("theano-pymc" if numbers > [1, 0, 5] else "theano"), version
