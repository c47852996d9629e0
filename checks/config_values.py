"""The keys and values in the config files, as Theano 1.0.5 / Theano-PyMC judge them (Theano
rel-1.0.5 theano/configparser.py): inline comments that become part of a value, keys Theano ignores, values it refuses.

The target probe (``theano_config`` stage) reported Theano's own registry of keys, their kinds
and enum options; when it is missing (``import theano`` failed) these checks fall back to
``profiles/theano_config.yaml`` and say so.
"""

from __future__ import annotations

import difflib
import re

from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts

from .common import and_more, config_value
from .config_files import entries, parsed, place
from .config_keys import Registry, kind_of, registry, removed_for

BOOL_VALUES = ("False", "false", "0", "True", "true", "1")  # Theano 1.0.5 configparser.py:419-429
INLINE_COMMENT = re.compile(r"(^|\s)[#;]")


def in_effect(facts: Facts, key: str, path: str) -> bool:
    return config_value(facts, key.replace("__", "."))[1] == f"file:{path}"


@check("theanorc-inline-comment", "No inline comment became part of a config value", area="config")
def theanorc_inline_comment(facts: Facts, options: Options) -> Outcome:
    files = parsed(facts)
    if isinstance(files, Outcome):
        return files
    reg = registry(facts)
    hard, soft = [], []
    first = ""
    for rc in files:
        for sect, option, value in entries(rc):
            if not INLINE_COMMENT.search(value):
                continue
            key = reg.lookup(sect, option)
            kind = kind_of(reg, key)
            where = place(str(rc.get("path")), sect, option, value)
            first = first or f"inline comment in {where}"
            if kind == "device" and value.startswith(("cuda", "opencl")):
                hard.append(f"{where}: Theano accepts it, but pygpu cannot parse the device name, so the GPU "
                            "does not initialise and everything runs on the CPU")
            elif kind in ("enum", "device", "bool"):
                hard.append(f"{where}: `import theano` fails with `ValueError: Invalid value (\"{value}\") for "
                            f"configuration variable \"{key}\"`")
            elif kind in ("int", "float"):
                hard.append(f"{where}: `import theano` fails: the value is not a number")
            else:
                soft.append(f"{where}: Theano uses the whole text, comment included, as the value")
    if not hard and not soft:
        return ok("no inline comments in config values")
    found = hard + soft
    return Outcome("error" if hard else "warn", first + and_more(found),
                   cause="Theano's config reader does not strip inline comments: everything after '=' on the "
                         "line, a trailing `# ...` or `; ...` included, is the value.",
                   remedy="Move each comment to a line of its own, starting with # or ;.",
                   fix_id="theanorc-inline-comment", details=tuple(found))


# -- unknown keys --------------------------------------------------------------------------------

def suggestion(reg: Registry, sect: str, option: str) -> str:
    """What the user probably meant, from Theano's own list of keys."""
    if reg.sep == "__" and "." in sect:
        dunder = sect.replace(".", "__")
        if reg.lookup(dunder, option):
            return f"Theano-PyMC needs the section renamed: [{dunder}]"
    if sect.lower() != sect and reg.lookup(sect.lower(), option):
        return f"section names are case-sensitive: [{sect.lower()}]"
    if option.startswith("//"):
        return "`//` does not start a comment in a config file (only # and ; at the start of a line do)"
    if option.lower().startswith("config."):
        bare = option[len("config."):]
        key = reg.lookup(*reg.split(bare)) if reg.sep in bare else reg.lookup(sect, bare)
        if key:
            s, o = reg.split(key)
            return f"drop the `config.` prefix: [{s}] {o}"
    same = reg.same_option(option) or [k for k in [reg.closest(reg.name(sect, option))] if k]
    # Most like the section written first; a section spelled almost right is the one meant.
    same.sort(key=lambda k: -difflib.SequenceMatcher(None, sect, reg.split(k)[0]).ratio())
    if same and difflib.SequenceMatcher(None, sect, reg.split(same[0])[0]).ratio() >= 0.75:
        same = same[:1]
    if same:
        return "did you mean " + " or ".join("[{}] {}".format(*reg.split(k)) for k in same[:3]) + "?"
    return ""


@check("theanorc-unknown-keys", "Config files hold only keys this Theano knows", area="config")
def theanorc_unknown_keys(facts: Facts, options: Options) -> Outcome:
    files = parsed(facts)
    if isinstance(files, Outcome):
        return files
    reg = registry(facts)
    found, remedies, sources, labels = [], [], [], []
    for rc in files:
        for sect, option, value in entries(rc):
            if reg.complete and reg.lookup(sect, option):
                continue
            where = place(str(rc.get("path")), sect, option, value)
            old = removed_for(facts, sect, option)
            if old:
                found.append(f"{where}: {old.message}")
                remedies.append(old.remedy)
                sources.append(f"source: {old.source}")
            elif reg.complete:
                hint = suggestion(reg, sect, option)
                found.append(f"{where}: not a key this Theano knows" + (f"; {hint}" if hint else ""))
            else:
                continue
            labels.append(f"[{sect}] {option} in {rc.get('path')}")
    if not reg.complete and not found:
        return skipped("Theano's list of config keys is unavailable (`import theano` failed in the target); "
                       "only the known removed options ([lib] cnmem, [nvcc]) were looked for, and none is there")
    if not found:
        return ok(f"every key in {len(files)} config file{'s' if len(files) != 1 else ''} is known to Theano")
    note = (f" `import theano` failed in the target, so the file was judged against {reg.table}." if reg.table
            else "" if reg.complete else (" Theano's own list of keys is unavailable (`import theano` failed), so "
                                          "only the known removed options were looked for."))
    return warn(f"{labels[0]} is ignored by Theano" if len(found) == 1
                else f"{len(found)} config keys that Theano ignores, first {labels[0]}",
                cause="Theano looks up only the keys it registers: any other key in a config file is ignored "
                      "silently." + note,
                remedy=" ".join(dict.fromkeys(remedies)) or "Fix or remove the keys named in the details.",
                fix_id="theanorc-obsolete" if remedies else (
                    "theanorc-pymc-names" if any("Theano-PyMC needs" in f for f in found) else None),
                details=tuple(found) + tuple(dict.fromkeys(sources)))


# -- values --------------------------------------------------------------------------------------

def value_problem(reg: Registry, key: str, value: str) -> str | None:
    kind = kind_of(reg, key)
    opts = reg.options.get(key, ())
    if kind == "enum" and opts and value not in opts:
        near = [o for o in opts if o.lower() == value.lower()]
        hint = f" (values are case-sensitive: write {near[0]})" if near else ""
        return (f"`ValueError: Invalid value (\"{value}\") for configuration variable \"{key}\". Valid options "
                f"are {tuple(opts)}`{hint}")
    if kind == "bool" and value not in BOOL_VALUES:
        return f"not a boolean Theano accepts ({', '.join(BOOL_VALUES)})"
    if kind in ("int", "float"):
        try:
            int(value) if kind == "int" else float(value)
        except ValueError:
            return f"not a number: `ValueError: could not convert string to {kind}: '{value}'`"
    if kind == "device" and not value.startswith(("cpu", "cuda", "opencl", "gpu")) and value != "":
        return (f"`ValueError: Invalid value (\"{value}\") for configuration variable \"{key}\". Valid options "
                "start with one of \"cpu\", \"opencl\" or \"cuda\".`")
    return None


@check("theanorc-values", "Config values are ones Theano accepts", area="config")
def theanorc_values(facts: Facts, options: Options) -> Outcome:
    files = parsed(facts)
    if isinstance(files, Outcome):
        return files
    reg = registry(facts)
    errors: list[tuple[str, str]] = []  # (where, what is wrong)
    hidden: list[tuple[str, str]] = []  # the same, for values another setting overrides now
    details: list[str] = []
    checked = 0
    for rc in files:
        path = str(rc.get("path"))
        for sect, option, value in entries(rc):
            key = reg.lookup(sect, option)
            if key is None or INLINE_COMMENT.search(value):
                continue  # unknown keys and inline comments have their own checks
            checked += 1
            where = place(path, sect, option, value)
            live = in_effect(facts, key, path)
            if kind_of(reg, key) == "device" and (value.startswith("gpu") or value == "opencl"):
                what = ("the old GPU back-end, removed in Theano 1.0 (use cuda, cudaN)" if value.startswith("gpu")
                        else "an incomplete OpenCL device name (use openclP:D, e.g. opencl0:0)")
                if live:
                    details.append(f"{where}: {what}; reported by theano-device")
                else:
                    hidden.append((where, what))
                continue
            problem = value_problem(reg, key, value)
            if problem is None:
                continue
            overridden = not live and config_value(facts, key.replace("__", "."))[1] != "default"
            (hidden if overridden else errors).append((where, problem))
    if not reg.complete:
        details.append("Theano's list of config keys is unavailable (`import theano` failed): only the keys in "
                       "profiles/theano_config.yaml were checked")
    lines = [f"{w}: {p}" for w, p in errors] + [
        f"{w}: {p} (not in effect now: another setting overrides it, but Theano refuses it once this file "
        "decides the key)" for w, p in hidden] + details
    if errors:
        case_only = any("values are case-sensitive" in p for _, p in errors)
        return error(f"{errors[0][0]}: Theano refuses this value{and_more(errors)}",
                     fix_id="theanorc-enum-case" if case_only else None,
                     cause="Theano validates config values when it is imported, so `import theano` fails: "
                           + errors[0][1],
                     remedy="Use one of the values Theano accepts (enum values are case-sensitive: dnn.enabled "
                            "takes auto, True, False or no_check; device takes cpu, cuda, cudaN or openclP:D).",
                     details=tuple(lines))
    if hidden:
        return warn(f"{hidden[0][0]}: a value Theano would refuse",
                    cause="Another setting (THEANO_FLAGS or a later file) decides this key now, so Theano "
                          "never reads the bad value; it breaks as soon as that setting goes.",
                    remedy="Fix the value in the file.", details=tuple(lines))
    if checked == 0 and not reg.complete:
        return skipped("no key of the config files could be checked without Theano's list of keys",
                       details=tuple(lines))
    if checked == 0:
        return ok("no config value left to check (the other config checks judge the rest)", details=tuple(lines))
    return ok(f"{checked} config value{'s' if checked != 1 else ''} accepted", details=tuple(lines))
