"""The config files and THEANO_FLAGS as Theano 1.0.5 / Theano-PyMC read them (FACTS.md s2).

The host probe (``theanorc`` section) read each file's raw bytes and parsed it the way Theano
does; the target probe (``theano_config`` stage) reported Theano's own registry of keys, their
kinds and enum options. These checks judge both; when the registry is missing (``import
theano`` failed) they fall back to ``profiles/theano_config.yaml`` and say so.
"""

from __future__ import annotations

import difflib
import ntpath
import posixpath
import re
import shlex
from typing import Any, NamedTuple

from theanodoctor import knowledge
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts, section

from .common import PYMC, config_value, dist_version, env_var, flavour, python_version, stage, target_os

TABLE = "theano_config.yaml"
KINDS = ("enum", "device", "bool", "int", "float", "str", "other")
BOOL_VALUES = ("False", "false", "0", "True", "true", "1")  # Theano 1.0.5 configparser.py:419-429
INLINE_COMMENT = re.compile(r"(^|\s)[#;]")
ENCODING_BROKEN = ("utf-8-bom", "utf-16-le", "utf-16-be", "undecodable")


# -- knowledge ---------------------------------------------------------------------------------

class Removed(NamedTuple):
    section: str
    option: str  # "" = the whole section
    message: str
    remedy: str
    source: str


class KeyKind(NamedTuple):
    key: str
    kind: str
    options: tuple[str, ...]
    source: str


@knowledge.table
def removed_options() -> tuple[Removed, ...]:
    return tuple(
        Removed(knowledge.text(TABLE, row, "section"), knowledge.text(TABLE, row, "option", required=False),
                knowledge.text(TABLE, row, "message"), knowledge.text(TABLE, row, "remedy"),
                knowledge.text(TABLE, row, "source"))
        for row in knowledge.rows(TABLE, "removed")
    )


@knowledge.table
def fallback_kinds() -> dict[str, KeyKind]:
    return {
        kind.key: kind for kind in (
            KeyKind(knowledge.text(TABLE, row, "key"), knowledge.choice(TABLE, row, "kind", KINDS),
                    knowledge.strings(TABLE, row, "options"), knowledge.text(TABLE, row, "source"))
            for row in knowledge.rows(TABLE, "fallback_keys"))
    }


# -- reading the facts ---------------------------------------------------------------------------

class Registry(NamedTuple):
    """Theano's config keys as the target reported them (``complete``) or the fallback table."""

    keys: frozenset[str]
    kinds: dict[str, str]
    options: dict[str, tuple[str, ...]]
    sep: str
    complete: bool

    def split(self, key: str) -> tuple[str, str]:
        head, found, option = key.rpartition(self.sep)
        return (head if found else "global"), option

    def name(self, sect: str, option: str) -> str:
        return option if sect == "global" else f"{sect}{self.sep}{option}"

    def lookup(self, sect: str, option: str) -> str | None:
        """The key a file's [section] option feeds (sections are case-sensitive, options not)."""
        for key in self.keys:
            s, o = self.split(key)
            if s == sect and o.lower() == option.lower():
                return key
        return None


def _dunder(facts: Facts) -> bool:
    naming = stage(facts, "theano_config").get("flag_naming")
    if naming in ("dotted", "dunder"):
        return naming == "dunder"
    if flavour(facts) != PYMC:
        return False
    version = dist_version(facts, PYMC) or ""
    try:  # Theano-PyMC renamed its keys in 1.0.12 (FACTS.md s1)
        return tuple(int(p) for p in version.split(".")[:3]) >= (1, 0, 12)
    except ValueError:
        return True


def registry(facts: Facts) -> Registry:
    config = stage(facts, "theano_config")
    sep = "__" if _dunder(facts) else "."
    known = config.get("known_keys")
    if isinstance(known, list) and known:  # an empty list is no registry (hand-made snapshots)
        kinds = config.get("known_kinds")
        kinds = kinds if isinstance(kinds, dict) else {}
        options = config.get("enum_options")
        options = options if isinstance(options, dict) else {}
        return Registry(frozenset(str(k) for k in known), {str(k): str(v) for k, v in kinds.items()},
                        {str(k): tuple(map(str, v)) for k, v in options.items() if isinstance(v, list)},
                        sep, True)
    table = {k.key.replace(".", sep): k for k in fallback_kinds().values()}
    return Registry(frozenset(table), {k: v.kind for k, v in table.items()},
                    {k: v.options for k, v in table.items() if v.options}, sep, False)


def rc_section(facts: Facts) -> dict[str, Any]:
    return section(facts, "theanorc")


def rc_files(facts: Facts) -> list[dict[str, Any]]:
    return [f for f in rc_section(facts).get("files") or [] if isinstance(f, dict)]


def present(facts: Facts) -> list[dict[str, Any]]:
    return [f for f in rc_files(facts) if f.get("exists") and f.get("readable")]


def windows(facts: Facts) -> bool:
    return target_os(facts) == "Windows"


def python2(facts: Facts) -> bool:
    return (python_version(facts) or "").startswith("2.")


def entries(rc: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(section, option, raw value) of a file Theano could parse; [DEFAULT] is not a key."""
    sections = (rc.get("parse") or {}).get("sections") or {}
    return [(str(s), str(o), str(v)) for s, opts in sections.items() if s != "DEFAULT" and isinstance(opts, dict)
            for o, v in opts.items()]


def parsed(facts: Facts) -> tuple[list[dict[str, Any]], Outcome | None]:
    """The config files Theano can parse, or the outcome to give when there is none to judge."""
    files = present(facts)
    good = [rc for rc in files if (rc.get("parse") or {}).get("ok")]
    if not files:
        return good, ok("no config file to check")
    if not good:
        return good, skipped("no config file Theano can parse (see theanorc-encoding and theanorc-parse)")
    return good, None


def _no_probe(facts: Facts) -> Outcome | None:
    rc = rc_section(facts)
    if rc.get("status") != "ok":
        return skipped(f"the config files were not probed ({rc.get('error') or rc.get('status')})")
    return None


def _where(path: str, sect: str, option: str, value: str | None = None) -> str:
    return f"{path}: [{sect}] {option}" + ("" if value is None else f" = {value}")


def in_effect(facts: Facts, key: str, path: str) -> bool:
    return config_value(facts, key.replace("__", "."))[1] == f"file:{path}"


# -- which files ---------------------------------------------------------------------------------

def _state(rc: dict[str, Any]) -> str:
    if not rc.get("exists"):
        return "absent"
    return "present" if rc.get("readable") else "unreadable"


@check("theanorc-files", "Which config files Theano reads", area="config")
def theanorc_files(facts: Facts, options: Options) -> Outcome:
    missing = _no_probe(facts)
    if missing:
        return missing
    rc = rc_section(facts)
    files, win = rc_files(facts), windows(facts)
    setting = rc.get("theanorc_env")
    sep = ";" if win else ":"
    listing = ", then ".join(f"{f.get('path')} ({_state(f)})" for f in files)
    problems: list[str] = []
    details: list[str] = []
    if setting is not None:
        details.append(f"THEANORC={setting}: a list of files separated by '{sep}' on this OS "
                       "(os.pathsep); later files override earlier ones")
        if win:
            details.append("while THEANORC is set, ~/.theanorc.txt is not read")
        if not files:
            problems.append("THEANORC is set but empty: Theano reads no config file at all")
        for f in files:
            path = str(f.get("path"))
            if f.get("exists"):
                continue
            hint = ""
            if win and ":" in path[2:]:
                hint = " (on Windows THEANORC entries are separated by ';', not ':' as Theano's docs say)"
            elif not win and ";" in path:
                hint = " (on Linux and macOS THEANORC entries are separated by ':')"
            problems.append(f"THEANORC names {path}, which does not exist: Theano skips it silently{hint}")
    elif win:
        details.append("on Windows Theano reads ~/.theanorc, then ~/.theanorc.txt (only while THEANORC is unset)")
    for f in files:
        if f.get("exists") and not f.get("readable"):
            problems.append(f"{f.get('path')} cannot be opened ({f.get('error')}): Theano skips it silently")
    there = [f for f in files if f.get("exists") and f.get("readable")]
    if len(there) > 1:
        details.append(f"values in {there[-1].get('path')} override the same keys in the files before it")
    if problems:
        return warn(problems[0] if len(problems) == 1 else f"{len(problems)} problems with the config files",
                    cause="Theano skips a config file it cannot open or find without any message, so its "
                          "settings silently do not apply.",
                    remedy="Point THEANORC at existing files (or unset it to use ~/.theanorc).",
                    details=tuple(problems + details))
    if not there:
        return ok(f"no config file: Theano looks for {listing or 'nothing'}; only THEANO_FLAGS and the "
                  "built-in defaults apply", details=tuple(details))
    return ok(f"Theano reads {listing}", details=tuple(details))


# -- files it will not read -----------------------------------------------------------------------

def _pathmod(facts: Facts) -> Any:
    return ntpath if windows(facts) else posixpath


def lookalike_advice(facts: Facts, path: str) -> str:
    paths = _pathmod(facts)
    home = str(rc_section(facts).get("home") or "")
    right = paths.join(home, ".theanorc") if home else "~/.theanorc"
    folder, name = paths.split(path)
    lower = name.lower()
    theanorc_set = rc_section(facts).get("theanorc_env") is not None
    if home and paths.normcase(paths.normpath(folder)) != paths.normcase(paths.normpath(home)):
        return (f"{path}: a config file outside the home folder (e.g. in the current folder) is never read; "
                f"Theano reads only {right} (or the files named in THEANORC)")
    if lower.endswith(".txt.txt"):
        return (f"{path}: the file is really named {name} (Windows Explorer hides the extension, so "
                f"'.theanorc.txt' typed as a name gets another .txt); rename it to {right}")
    if lower == ".theanorc.txt":
        if not windows(facts):
            return f"{path}: ~/.theanorc.txt is read only on Windows; rename it to {right}"
        if theanorc_set:
            return f"{path}: ~/.theanorc.txt is read only while THEANORC is unset"
    if not lower.startswith("."):
        return f"{path}: the name lacks the leading dot; rename it to {right}"
    return f"{path}: not a name Theano reads; rename it to {right} or name it in THEANORC"


@check("theanorc-lookalikes", "No config file sits where Theano will not read it", area="config")
def theanorc_lookalikes(facts: Facts, options: Options) -> Outcome:
    missing = _no_probe(facts)
    if missing:
        return missing
    found = [str(p) for p in rc_section(facts).get("lookalikes") or []]
    if not found:
        return ok("no look-alike config files in the home or current folder")
    advice = [lookalike_advice(facts, p) for p in found]
    return warn(f"Theano will not read {found[0]}" + (f" (and {len(found) - 1} more)" if len(found) > 1 else ""),
                cause="These files look like Theano config files, but Theano 1.0 reads only ~/.theanorc "
                      "(plus ~/.theanorc.txt on Windows while THEANORC is unset) or the files THEANORC names; "
                      "the settings in them do not apply.",
                remedy="Rename the file (see details), or point THEANORC at it.",
                details=tuple(advice))


# -- encoding ------------------------------------------------------------------------------------

def _encoding_problem(facts: Facts, rc: dict[str, Any]) -> tuple[str, str, str] | None:
    """(status, short label, explanation) for a file whose bytes Theano cannot read as text."""
    enc, path, win = rc.get("encoding"), rc.get("path"), windows(facts)
    if enc == "utf-8-bom":
        how = ("Theano on Windows reads the file in the locale's encoding: the BOM's bytes come before the "
               "first [section] header and the file fails to parse" if win else
               "`import theano` fails: `MissingSectionHeaderError: File contains no section headers.` "
               "(its first line is read as '\\ufeff[global]')")
        return "error", "UTF-8 with a BOM", f"{path} is saved as UTF-8 with a BOM (Windows Notepad does this): {how}"
    if enc in ("utf-16-le", "utf-16-be"):
        if rc.get("bom") and not win and not python2(facts):
            byte = "0xff" if enc == "utf-16-le" else "0xfe"
            how = (f"`import theano` fails: `UnicodeDecodeError: 'utf-8' codec can't decode byte {byte} "
                   "in position 0`")
        elif rc.get("bom") and not win:
            how = "`import theano` fails: `MissingSectionHeaderError: File contains no section headers.`"
        else:
            how = "the file fails to parse and `import theano` fails"
        return "error", "UTF-16", f"{path} is saved as UTF-16 (\"Unicode\" in Windows Notepad): {how}"
    if enc == "undecodable" and not win and not python2(facts):
        return "error", "not UTF-8", (f"{path} is not valid UTF-8: `import theano` fails with UnicodeDecodeError "
                         "(Python 3 reads it in the locale's encoding, UTF-8 here)")
    text = str(rc.get("text_head") or "")
    preferred = str(stage(facts, "interpreter").get("preferred_encoding") or "")
    if (enc == "utf-8" and win and not python2(facts) and preferred
            and preferred.lower().replace("-", "") != "utf8" and any(ord(c) > 127 for c in text)):
        return "warn", "non-ASCII text", (f"{path} holds non-ASCII characters saved as UTF-8, but Theano on "
                                          f"Windows reads the file as {preferred}: they come out garbled "
                                          "(in a path, for example)")
    return None


@check("theanorc-encoding", "Config files are saved in an encoding Theano can read", area="config")
def theanorc_encoding(facts: Facts, options: Options) -> Outcome:
    missing = _no_probe(facts)
    if missing:
        return missing
    files = present(facts)
    if not files:
        return ok("no config file to read")
    found = [(rc, p) for rc, p in ((rc, _encoding_problem(facts, rc)) for rc in files) if p]
    if not found:
        return ok(", ".join(f"{rc.get('path')}: {rc.get('encoding')}" for rc in files))
    status = "error" if any(p[0] == "error" for _, p in found) else "warn"
    first, problem = found[0]
    return Outcome(status, f"{first.get('path')} is saved as {problem[1]}: Theano "
                   + ("cannot read it" if problem[0] == "error" else "misreads it"),
                   cause=" ".join(p[2] for _, p in found),
                   remedy="Save the file again as plain UTF-8 without BOM (Notepad: Save As, Encoding: UTF-8; "
                          "on Windows 10 before 1903 Notepad always adds a BOM, so use another editor) "
                          "and keep its content ASCII.",
                   details=tuple(p[2] for _, p in found))


# -- parse errors --------------------------------------------------------------------------------

_PARSE_CAUSES = {
    "MissingSectionHeaderError": "The file must start with a [section] header such as [global] before any "
                                 "key = value line.",
    "DuplicateOptionError": "A key appears twice in one section (option names are case-insensitive: floatX "
                            "and floatx are the same key); Python 3's configparser refuses the whole file.",
    "DuplicateSectionError": "A [section] header appears twice in one file; Python 3's configparser refuses "
                             "the whole file.",
    "ParsingError": "A line is neither a [section] header, a `key = value` pair nor a comment.",
}


@check("theanorc-parse", "Config files parse the way Theano parses them", area="config")
def theanorc_parse(facts: Facts, options: Options) -> Outcome:
    missing = _no_probe(facts)
    if missing:
        return missing
    files = present(facts)
    if not files:
        return ok("no config file to parse")
    errors, warnings, details = [], [], []
    for rc in files:
        parse = rc.get("parse") or {}
        if rc.get("encoding") in ENCODING_BROKEN:
            details.append(f"{rc.get('path')}: not judged here; its encoding is the problem (theanorc-encoding)")
            continue
        if parse.get("ok") or not parse:
            continue
        kind = str(parse.get("error_type") or "Error")
        line = f", line {parse['line']}" if parse.get("line") else ""
        text = f"{rc.get('path')}{line}: {kind}: {parse.get('error')}"
        if kind in ("DuplicateOptionError", "DuplicateSectionError") and python2(facts):
            warnings.append(text + " (Python 2 accepts it and the last value wins; Python 3 refuses the file)")
        else:
            errors.append((text, _PARSE_CAUSES.get(kind, "configparser cannot read the file.")))
    if errors:
        return error(errors[0][0],
                     cause=" ".join(dict.fromkeys(c for _, c in errors)) + " `import theano` fails on such a file.",
                     remedy="Fix the line named: one [section] header per section, each key once, "
                            "`key = value` lines, comments on their own line.",
                     details=tuple(t for t, _ in errors) + tuple(warnings) + tuple(details))
    if warnings:
        return warn(warnings[0], remedy="Keep each section and key once, so the file also works on Python 3.",
                    details=tuple(warnings) + tuple(details))
    if details and len(details) == len(files):
        return skipped("no config file Theano can decode (see theanorc-encoding)", details=tuple(details))
    good = len(files) - len(details)
    return ok(f"{good} config file{'s parse' if good != 1 else ' parses'} cleanly", details=tuple(details))


# -- inline comments -----------------------------------------------------------------------------

def kind_of(reg: Registry, key: str | None) -> str | None:
    return reg.kinds.get(key) if key else None


@check("theanorc-inline-comment", "No inline comment became part of a config value", area="config")
def theanorc_inline_comment(facts: Facts, options: Options) -> Outcome:
    missing = _no_probe(facts)
    if missing:
        return missing
    files, nothing = parsed(facts)
    if nothing:
        return nothing
    reg = registry(facts)
    hard, soft = [], []
    first = ""
    for rc in files:
        for sect, option, value in entries(rc):
            if not INLINE_COMMENT.search(value):
                continue
            key = reg.lookup(sect, option)
            kind = kind_of(reg, key)
            where = _where(str(rc.get("path")), sect, option, value)
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
    return Outcome("error" if hard else "warn", first + (f" (and {len(found) - 1} more)" if len(found) > 1 else ""),
                   cause="Theano's config reader does not strip inline comments: everything after '=' on the "
                         "line, a trailing `# ...` or `; ...` included, is the value.",
                   remedy="Move each comment to a line of its own, starting with # or ;.",
                   details=tuple(found))


# -- unknown keys --------------------------------------------------------------------------------

def removed_entry(sect: str, option: str) -> Removed | None:
    for row in removed_options():
        if row.section == sect and (not row.option or row.option == option.lower()):
            return row
    return None


def suggestion(reg: Registry, sect: str, option: str) -> str:
    """What the user probably meant, from Theano's own list of keys."""
    if reg.sep == "__" and "." in sect:
        dunder = sect.replace(".", "__")
        if reg.lookup(dunder, option):
            return f"Theano-PyMC needs the section renamed: [{dunder}]"
    if sect.lower() != sect and reg.lookup(sect.lower(), option):
        return f"section names are case-sensitive: [{sect.lower()}]"
    same_option = sorted(k for k in reg.keys if reg.split(k)[1].lower() == option.lower())
    if same_option:
        s, o = reg.split(same_option[0])
        return f"did you mean [{s}] {o}?"
    close = difflib.get_close_matches(reg.name(sect, option), sorted(reg.keys), n=1, cutoff=0.8)
    if close:
        s, o = reg.split(close[0])
        return f"did you mean [{s}] {o}?"
    return ""


@check("theanorc-unknown-keys", "Config files hold only keys this Theano knows", area="config")
def theanorc_unknown_keys(facts: Facts, options: Options) -> Outcome:
    missing = _no_probe(facts)
    if missing:
        return missing
    files, nothing = parsed(facts)
    if nothing:
        return nothing
    reg = registry(facts)
    found, remedies, sources, labels = [], [], [], []
    for rc in files:
        for sect, option, value in entries(rc):
            if reg.complete and reg.lookup(sect, option):
                continue
            where = _where(str(rc.get("path")), sect, option, value)
            old = removed_entry(sect, option)
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
    note = "" if reg.complete else (" Theano's own list of keys is unavailable (`import theano` failed), so only "
                                    "the known removed options were looked for.")
    return warn(f"{labels[0]} is ignored by Theano" if len(found) == 1
                else f"{len(found)} config keys that Theano ignores, first {labels[0]}",
                cause="Theano looks up only the keys it registers: any other key in a config file is ignored "
                      "silently." + note,
                remedy=" ".join(dict.fromkeys(remedies)) or "Fix or remove the keys named in the details.",
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
    missing = _no_probe(facts)
    if missing:
        return missing
    files, nothing = parsed(facts)
    if nothing:
        return nothing
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
            where = _where(path, sect, option, value)
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
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return error(f"{errors[0][0]}: Theano refuses this value{more}",
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


# -- THEANO_FLAGS --------------------------------------------------------------------------------

def flag_items(text: str) -> list[tuple[str, str | None]]:
    """THEANO_FLAGS entries in order, as Theano splits them; (key, None) for an entry without '='."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace = ","
    lexer.whitespace_split = True
    try:
        parts = list(lexer)
    except ValueError:
        parts = text.split(",")
    found: list[tuple[str, str | None]] = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        found.append((key, value if sep else None))
    return found


def unrecognised(facts: Facts, reg: Registry, keys: list[str]) -> tuple[list[str], bool]:
    """(keys Theano does not know, whether that is Theano's own answer)."""
    reported = stage(facts, "theano_config").get("flags_unrecognised")
    if isinstance(reported, list) and reg.complete:
        return [str(k) for k in reported], True
    if reg.sep == "__":  # Theano-PyMC >= 1.0.12 reports every dotted name (FACTS.md s1)
        return [k for k in keys if "." in k], False
    return [k for k in keys if removed_entry(*reg.split(k))], False


def flag_hint(reg: Registry, key: str) -> str:
    old = removed_entry(*reg.split(key))
    if old:
        return old.message.split(";")[0]
    if reg.sep == "__" and "." in key:
        return f"Theano-PyMC spells it {key.replace('.', '__')}"
    if reg.sep == "." and "__" in key:
        return f"Theano 1.0 spells it {key.replace('__', '.')}"
    same = sorted(k for k in reg.keys if reg.split(k)[1].lower() == key.lower())
    if same:
        return f"keys must be the full name: {same[0]}"
    close = difflib.get_close_matches(key, sorted(reg.keys), n=1, cutoff=0.8)
    return f"did you mean {close[0]}?" if close else ""


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
        hint = flag_hint(reg, key)
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
