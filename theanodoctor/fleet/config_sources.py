"""The effective Theano config of a snapshot, with where each value came from.

The target's Theano reports its values and their sources (THEANO_FLAGS, a config file, the
default). When `import theano` failed there is no such report: then THEANO_FLAGS and the
config files are read the way Theano reads them, and a value set by neither is Theano's
default, which cannot be known without Theano.
"""

from __future__ import annotations

from typing import NamedTuple

from theanodoctor.checks.common import (
    PYMC,
    config_value,
    env_var,
    flavour,
    parse_theano_flags,
    reported,
    source_label,
    stage,
)
from theanodoctor.facts import Facts, dig, section

# Shown even when nothing sets them (the probe reports these keys).
MAIN_KEYS = ("device", "floatX", "blas.ldflags", "cxx", "cuda.root", "dnn.enabled", "gpuarray.preallocate",
             "mode", "optimizer", "linker", "compiledir")


class ConfigRow(NamedTuple):
    key: str
    value: str | None  # None: unknown
    source: str


def _set_keys(facts: Facts) -> list[str]:
    """Keys set by THEANO_FLAGS or a config file, in dotted spelling."""
    keys = [k.replace("__", ".") for k in parse_theano_flags(env_var(facts, "THEANO_FLAGS") or "")]
    for rc in dig(section(facts, "theanorc"), "files", default=[]) or []:
        sections = dig(rc, "parse", "sections", default={})
        for name, options in (sections.items() if isinstance(sections, dict) else []):
            for option in options if isinstance(options, dict) else {}:
                keys.append(option if name == "global" else f"{name.replace('__', '.')}.{option}")
    return keys


def _label(source: str) -> str:
    return f"config file {source_label(source)}" if source.startswith("file:") else source_label(source)


def effective_config(facts: Facts) -> list[ConfigRow]:
    values = dig(stage(facts, "theano_config"), "values")
    from_theano = isinstance(values, dict) and bool(values)
    # Without Theano's own report only the keys set by THEANO_FLAGS or a file are known.
    keys = list(MAIN_KEYS) + sorted(k.replace("__", ".") for k in values) if from_theano else []
    keys += _set_keys(facts)
    rows: list[ConfigRow] = []
    for key in dict.fromkeys(keys):
        entry = reported(facts, key)
        if from_theano and entry is None:
            continue  # this Theano reported no such key
        if entry is not None and entry.get("registered") is False:
            rows.append(ConfigRow(key, None, f"not a setting of this {flavour(facts) or 'Theano'}"))
            continue
        value, source = config_value(facts, key)
        rows.append(ConfigRow(key, value, _label(source)))
    return rows


def config_note(facts: Facts) -> str | None:
    """Why the sources may be incomplete, or None when Theano reported them itself."""
    if stage(facts, "theano_config").get("ok"):
        return None
    spelling = " (Theano-PyMC spells keys with `__`)" if flavour(facts) == PYMC else ""
    return ("Theano did not report its config (import theano failed or was not probed), so only the values "
            f"set by THEANO_FLAGS and the config files are known, read the way Theano reads them{spelling}; "
            "every other key has Theano's default, which cannot be known without Theano.")


COMPARED_KEYS = ("floatX",)  # compared between machines besides `device` (a key fact of its own)


def theano_settings(facts: Facts) -> list[tuple[str, str]]:
    """What a fleet compares of the Theano config: floatX, and every other key THEANO_FLAGS or a
    config file sets (key=value, sorted), the device being a key fact already."""
    pairs = []
    for key in COMPARED_KEYS:
        value, _ = config_value(facts, key)
        pairs.append((f"Theano {key}", str(value) if value is not None else "?"))
    skip = {k.lower() for k in ("device", *COMPARED_KEYS)}  # config files lower-case option names
    keys = sorted(k for k in dict.fromkeys(_set_keys(facts)) if k.lower() not in skip)
    settings = []
    for key in keys:
        value, _ = config_value(facts, key)
        settings.append(f"{key}={value if value is not None else '?'}")
    pairs.append(("Theano settings", ", ".join(settings) or "none"))
    return pairs
