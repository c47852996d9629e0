"""The config files as Theano 1.0.5 / Theano-PyMC read them (Theano rel-1.0.5
theano/configparser.py:66-72): which files, the look-alikes it never reads, their encoding,
and whether they parse. Keys and values: see config_values.py; THEANO_FLAGS: theano_flags.py.

The host probe (``theanorc`` section) read each file's raw bytes and parsed it the way Theano
does.
"""

from __future__ import annotations

import ntpath
import posixpath
from typing import Any

from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts

from .common import and_more, is_windows, stage
from .config_files import not_probed, present, python2, rc_files, rc_section, readable

ENCODING_BROKEN = ("utf-8-bom", "utf-16-le", "utf-16-be", "undecodable")


# -- which files ---------------------------------------------------------------------------------

def _state(rc: dict[str, Any]) -> str:
    if not rc.get("exists"):
        return "absent"
    return "present" if rc.get("readable") else "unreadable"


@check("theanorc-files", "Which config files Theano reads", area="config")
def theanorc_files(facts: Facts, options: Options) -> Outcome:
    missing = not_probed(facts)
    if missing:
        return missing
    rc = rc_section(facts)
    files, win = rc_files(facts), is_windows(facts)
    setting = rc.get("theanorc_env")
    sep = ";" if win else ":"
    listing = ", then ".join(f"{f.get('path')} ({_state(f)})" for f in files)
    problems: list[str] = []
    details: list[str] = []
    if setting is not None:
        details.append(f"THEANORC={setting}: a list of files separated by '{sep}' on this OS "
                       "(os.pathsep); later files override earlier ones")
        if rc.get("theanorc_env_source") == "target startup":
            details.append("THEANORC is set by the environment itself when its Python starts (a .pth file in its "
                           "site-packages, written by `theanodoctor provision`), not by the shell")
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
    there = present(facts)
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
    return ntpath if is_windows(facts) else posixpath


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
        if not is_windows(facts):
            return f"{path}: ~/.theanorc.txt is read only on Windows; rename it to {right}"
        if theanorc_set:
            return f"{path}: ~/.theanorc.txt is read only while THEANORC is unset"
    if not lower.startswith("."):
        return f"{path}: the name lacks the leading dot; rename it to {right}"
    return f"{path}: not a name Theano reads; rename it to {right} or name it in THEANORC"


@check("theanorc-lookalikes", "No config file sits where Theano will not read it", area="config")
def theanorc_lookalikes(facts: Facts, options: Options) -> Outcome:
    missing = not_probed(facts)
    if missing:
        return missing
    found = [str(p) for p in rc_section(facts).get("lookalikes") or []]
    if not found:
        return ok("no look-alike config files in the home or current folder")
    advice = [lookalike_advice(facts, p) for p in found]
    return warn(f"Theano will not read {found[0]}" + and_more(found),
                cause="These files look like Theano config files, but Theano 1.0 reads only ~/.theanorc "
                      "(plus ~/.theanorc.txt on Windows while THEANORC is unset) or the files THEANORC names; "
                      "the settings in them do not apply.",
                remedy="Rename the file (see details), or point THEANORC at it.",
                fix_id="theanorc-rename" if any(p.lower().endswith(".txt.txt") for p in found) else None,
                details=tuple(advice))


# -- encoding ------------------------------------------------------------------------------------

def _encoding_problem(facts: Facts, rc: dict[str, Any]) -> tuple[str, str, str] | None:
    """(status, short label, explanation) for a file whose bytes Theano cannot read as text."""
    enc, path, win = rc.get("encoding"), rc.get("path"), is_windows(facts)
    if enc == "utf-8-bom":
        how = ("Theano on Windows reads the file in the locale's encoding: the BOM's bytes come before the "
               "first [section] header and the file fails to parse" if win else
               "`import theano` fails: `MissingSectionHeaderError: File contains no section headers.` "
               "(its first line is read as '\\ufeff[global]')")
        return ("error", "saved as UTF-8 with a BOM",
                f"{path} is saved as UTF-8 with a BOM (Windows Notepad does this): {how}")
    if enc in ("utf-16-le", "utf-16-be"):
        if rc.get("bom") and not win and not python2(facts):
            byte = "0xff" if enc == "utf-16-le" else "0xfe"
            how = (f"`import theano` fails: `UnicodeDecodeError: 'utf-8' codec can't decode byte {byte} "
                   "in position 0`")
        elif rc.get("bom") and not win:
            how = "`import theano` fails: `MissingSectionHeaderError: File contains no section headers.`"
        else:
            how = "the file fails to parse and `import theano` fails"
        return "error", "saved as UTF-16", f"{path} is saved as UTF-16 (\"Unicode\" in Windows Notepad): {how}"
    if enc == "undecodable" and not win and not python2(facts):
        return "error", "not UTF-8 text (binary, or another encoding)", (
            f"{path} is not valid UTF-8: `import theano` fails with UnicodeDecodeError "
            "(Python 3 reads it in the locale's encoding, UTF-8 here)")
    text = str(rc.get("text_head") or "")
    preferred = str(stage(facts, "interpreter").get("preferred_encoding") or "")
    if (enc == "utf-8" and win and not python2(facts) and preferred
            and preferred.lower().replace("-", "") != "utf8" and any(ord(c) > 127 for c in text)):
        return "warn", "saved as non-ASCII text", (f"{path} holds non-ASCII characters saved as UTF-8, but Theano on "
                                          f"Windows reads the file as {preferred}: they come out garbled "
                                          "(in a path, for example)")
    return None


@check("theanorc-encoding", "Config files are saved in an encoding Theano can read", area="config")
def theanorc_encoding(facts: Facts, options: Options) -> Outcome:
    files = readable(facts, "read")
    if isinstance(files, Outcome):
        return files
    found = [(rc, p) for rc, p in ((rc, _encoding_problem(facts, rc)) for rc in files) if p]
    if not found:
        return ok(", ".join(f"{rc.get('path')}: {rc.get('encoding')}" for rc in files))
    status = "error" if any(p[0] == "error" for _, p in found) else "warn"
    first, problem = found[0]
    return Outcome(status, f"{first.get('path')} is {problem[1]}: Theano "
                   + ("cannot read it" if problem[0] == "error" else "misreads it"),
                   cause=" ".join(p[2] for _, p in found),
                   remedy="Save the file again as plain UTF-8 without BOM (Notepad: Save As, Encoding: UTF-8; "
                          "on Windows 10 before 1903 Notepad always adds a BOM, so use another editor) "
                          "and keep its content ASCII.",
                   fix_id="theanorc-encoding", details=tuple(p[2] for _, p in found))


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
    files = readable(facts, "parse")
    if isinstance(files, Outcome):
        return files
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
