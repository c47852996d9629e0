"""THEANO_FLAGS as Theano 1.0.5 / Theano-PyMC read it (Theano rel-1.0.5 theano/configparser.py:28-57): comma-separated
``key=value`` with full key names, the right-most wins, unknown keys are warned about and
ignored, and a value here beats the config files."""

from __future__ import annotations

from theanodoctor.engine import Options, Outcome, check, ok, skipped, warn
from theanodoctor.facts import Facts, section

from .common import env_var, flag_items, stage
from .config_files import entries, present
from .config_keys import Registry, registry, removed_for


def unrecognised(facts: Facts, reg: Registry, keys: list[str]) -> tuple[list[str], bool]:
    """(keys Theano does not know, whether that is Theano's own answer)."""
    reported = stage(facts, "theano_config").get("flags_unrecognised")
    if isinstance(reported, list) and reg.complete:
        return [str(k) for k in reported], True
    if reg.sep == "__":  # Theano-PyMC >= 1.0.12 reports every dotted name (Theano-PyMC commit ed5bc1b07, rel-1.0.12)
        return [k for k in keys if "." in k], False
    return [k for k in keys if removed_for(facts, *reg.split(k))], False


def flag_hint(facts: Facts, reg: Registry, key: str) -> str:
    old = removed_for(facts, *reg.split(key))
    if old:
        return old.message.split(";")[0]
    if reg.sep == "__" and "." in key:
        return f"Theano-PyMC spells it {key.replace('.', '__')}"
    if reg.sep == "." and "__" in key:
        return f"Theano 1.0 spells it {key.replace('__', '.')}"
    same = reg.same_option(key)
    if same:
        return f"keys must be the full name: {same[0]}"
    close = reg.closest(key)
    return f"did you mean {close}?" if close else ""


def file_value(facts: Facts, reg: Registry, key: str) -> tuple[str, str] | None:
    """(value, path) the config files give ``key`` (the last file wins), ignoring THEANO_FLAGS."""
    sect, option = reg.split(key)
    found = None
    for rc in present(facts):
        for s, o, v in entries(rc):
            if s == sect and o.lower() == option.lower():
                found = (v, str(rc.get("path")))
    return found


@check("theano-flags", "THEANO_FLAGS says what you mean", area="config")
def theano_flags(facts: Facts, options: Options) -> Outcome:
    if section(facts, "env").get("status") != "ok":
        return skipped("the environment was not probed")
    text = env_var(facts, "THEANO_FLAGS")
    if text is None:
        return ok("THEANO_FLAGS is not set")
    reg = registry(facts)
    items = flag_items(text)
    valued = [(k, v) for k, v in items if v is not None]
    keys = list(dict.fromkeys(k for k, _ in valued))
    problems: list[str] = []
    headline: list[str] = []
    notes: list[str] = []
    for key, value in items:
        if value is None:
            headline.append(f"THEANO_FLAGS entry '{key}' has no value and is ignored")
            problems.append(f"'{key}' has no '=': Theano ignores it (`Config key '{key}' has no value, "
                            "ignoring it`)")
    unknown, own = unrecognised(facts, reg, keys)
    for key in unknown:
        hint = flag_hint(facts, reg, key)
        headline.append(f"THEANO_FLAGS key {key} is not recognised by Theano")
        problems.append(f"{key}: `Theano does not recognise this flag: {key}`; it has no effect"
                        + (f" ({hint})" if hint else ""))
    for key in keys:
        values = [v for k, v in valued if k == key]
        if len(set(values)) > 1:
            notes.append(f"{key} is given {len(values)} times; the right-most ({key}={values[-1]}) wins")
        if key in unknown:
            continue
        in_file = file_value(facts, reg, key)
        if in_file and in_file[0] != values[-1]:
            headline.append(f"THEANO_FLAGS {key}={values[-1]} overrides {in_file[0]} from {in_file[1]}")
            problems.append(f"{key}={values[-1]} in THEANO_FLAGS overrides {key} = {in_file[0]} in {in_file[1]}: "
                            "THEANO_FLAGS wins")
    if not own and reg.sep == ".":
        notes.append("Theano's list of config keys is unavailable (`import theano` failed): only known removed "
                     "options were looked for")
    if problems:
        return warn(headline[0] if len(headline) == 1 else
                    f"{len(headline)} THEANO_FLAGS entries do not do what they say",
                    cause="THEANO_FLAGS is comma-separated `key=value` with full key names; Theano warns about "
                          "keys it does not know and ignores them, and a THEANO_FLAGS value beats the config "
                          "files.",
                    remedy="Fix or drop the entries named in the details; set a value in one place only.",
                    details=tuple(problems + notes))
    return ok("THEANO_FLAGS sets " + (", ".join(keys) if keys else "nothing"), details=tuple(notes))
