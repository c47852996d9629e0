"""Reading the facts snapshot the way every check needs it (no I/O, no judging)."""

from __future__ import annotations

import ntpath
import posixpath
import re
import shlex
from collections.abc import Sized
from typing import Any

from theanodoctor import kb_era
from theanodoctor.facts import Facts, dig, section

PYMC = "Theano-PyMC"
THEANO = "Theano"
WINDOWS = "Windows"


def stage(facts: Facts, name: str) -> dict[str, Any]:
    """One stage of the target probe ({} when the probe did not get that far)."""
    value = dig(section(facts, "target"), "stages", name, default={})
    return value if isinstance(value, dict) else {}


def probe_ran(facts: Facts) -> bool:
    return section(facts, "target").get("status") == "ok"


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def dist_version(facts: Facts, name: str) -> str | None:
    """Installed version of a distribution, from metadata (the probe never imports for this)."""
    dists = stage(facts, "distributions")
    found = dists.get("versions", dists)
    if not isinstance(found, dict):
        return None
    for key, value in found.items():
        if _norm(key) == _norm(name):
            if isinstance(value, dict):
                value = value.get("version")
            return value if isinstance(value, str) and value else None
    return None


def flavour(facts: Facts) -> str | None:
    """Which distribution owns the ``theano`` package (the probe tells; else PyMC wins)."""
    owner = stage(facts, "distributions").get("theano_owner")
    if owner in (THEANO, PYMC):
        return str(owner)
    if dist_version(facts, PYMC):
        return PYMC
    return THEANO if dist_version(facts, THEANO) else None


def release(facts: Facts) -> kb_era.Release | None:
    """The era row (profiles/theano_releases.yaml) of the installed Theano, if the table has it."""
    flav = flavour(facts)
    return kb_era.release(flav, dist_version(facts, flav)) if flav else None


def knows_option(facts: Facts, key: str) -> bool | None:
    """Whether the installed release registers config option ``key`` (dotted), by the era rows;
    None when they do not say (the caller's registry decides)."""
    flav = flavour(facts)
    return kb_era.knows_option(flav, dist_version(facts, flav), key) if flav else None


def old_backend_device(facts: Facts, device: str | None) -> bool:
    """``device=gpu*`` on a release that still has the old back-end (Theano <= 0.9)."""
    found = release(facts)
    return bool(device and device.strip().startswith("gpu") and found and found.old_backend)


def python_version(facts: Facts) -> str | None:
    value = stage(facts, "interpreter").get("version")
    return value if isinstance(value, str) else None


def target_os(facts: Facts) -> str:
    return stage(facts, "interpreter").get("system") or section(facts, "system").get("os") or ""


def is_windows(facts: Facts) -> bool:
    return target_os(facts) == WINDOWS


def norm_path(path: str, os_name: str) -> str:
    """Compare paths the way the OS does: Windows ignores case and the slash direction."""
    path = path.strip().strip('"')
    if os_name == WINDOWS:
        return ntpath.normpath(path).rstrip("\\").lower()
    return posixpath.normpath(path).rstrip("/") or "/"


def flag_items(text: str) -> list[tuple[str, str | None]]:
    """THEANO_FLAGS entries in order, split the way Theano splits them (shlex on commas, each
    entry stripped); (key, None) for an entry without '='."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace = ","
    lexer.whitespace_split = True
    try:
        parts = list(lexer)
    except ValueError:  # unbalanced quotes: Theano would fail too; judge what we can
        parts = text.split(",")
    found: list[tuple[str, str | None]] = []
    for part in parts:
        part = part.strip()
        if part:
            key, sep, value = part.partition("=")
            found.append((key, value if sep else None))
    return found


def parse_theano_flags(text: str) -> dict[str, str]:
    """THEANO_FLAGS as a mapping: the right-most definition of a key wins."""
    return {key.strip(): value for key, value in flag_items(text) if value is not None and key.strip()}


def env_var(facts: Facts, name: str) -> str | None:
    value = dig(section(facts, "env"), "vars", name)
    return value if isinstance(value, str) else None


def _file_key(key: str, dunder: bool) -> tuple[str, str]:
    sep = "__" if dunder else "."
    head, found, option = key.rpartition(sep)
    return (head if found else "global"), option


def reported(facts: Facts, key: str) -> dict[str, Any] | None:
    """The target Theano's own entry for a config key (dotted name), None when it reported none."""
    values = dig(stage(facts, "theano_config"), "values")
    if not isinstance(values, dict):
        return None
    names = (key, key.replace(".", "__")) if flavour(facts) == PYMC else (key,)
    return next((values[n] for n in names if isinstance(values.get(n), dict)), None)


def config_value(facts: Facts, key: str) -> tuple[str | None, str]:
    """(value, source) of a Theano config key.

    Prefers what the target's Theano itself reported; when the import failed, applies Theano's
    precedence by hand: THEANO_FLAGS, then the config files (later ones win), else default.
    ``key`` is the dotted name; Theano-PyMC's ``__`` spelling is handled here.
    """
    entry = reported(facts, key)
    if entry is not None:
        return entry.get("value"), entry.get("source") or "default"
    dunder = flavour(facts) == PYMC
    name = key.replace(".", "__") if dunder else key
    flags = parse_theano_flags(env_var(facts, "THEANO_FLAGS") or "")
    if name in flags:
        return flags[name], "THEANO_FLAGS"
    section_name, option = _file_key(name, dunder)
    found: tuple[str | None, str] = (None, "default")
    for rc in dig(section(facts, "theanorc"), "files", default=[]):
        sections = dig(rc, "parse", "sections", default={})
        if isinstance(sections, dict) and option in sections.get(section_name, {}):
            found = (sections[section_name][option], f"file:{rc.get('path')}")
    return found


def is_set(facts: Facts, key: str) -> bool:
    return config_value(facts, key)[1] != "default"


def gpu_device(value: str | None) -> bool:
    return bool(value) and str(value).startswith(("cuda", "opencl", "gpu"))


def gpuarray_device(value: str | None) -> bool:
    """A GPU device the gpuarray back-end serves (cuda*, opencl*; not the removed gpu*)."""
    return gpu_device(value) and not str(value).startswith("gpu")


def source_label(source: str, default: str = "default") -> str:
    """Where a config value comes from, for people: a file's path, THEANO_FLAGS, or ``default``."""
    if source.startswith("file:"):
        return source[len("file:"):]
    return default if source == "default" else source


def and_more(items: Sized) -> str:
    """" (and 2 more)" after the first of several findings named in a message."""
    return f" (and {len(items) - 1} more)" if len(items) > 1 else ""
