"""The config files Theano 1.0.5 reads, judged as raw bytes and parsed the way Theano parses.

Theano (``theano/configparser.py``) builds ``configparser.ConfigParser`` (defaults: strict,
``BasicInterpolation``, no inline comments) and calls ``read(files)``: the file is decoded as
UTF-8 (the locale encoding on Linux), so a BOM stays in the first line and UTF-16 cannot be
decoded; a missing or unreadable file is skipped silently. Interpolation errors are no
errors for Theano (it re-reads the raw value), so values are reported raw.
"""

from __future__ import annotations

import configparser
import glob
import io
import os
import time
from collections.abc import Mapping
from typing import Any

from theanodoctor.facts import Json, envelope
from theanodoctor.host.common import (
    WINDOWS,
    describe,
    first_line,
    normalize_env,
    os_name_or_current,
    pathsep,
)

HEAD_CHARS = 4000
MAX_BYTES = 1_000_000  # a config file bigger than this is not a config file
_BOMS = ((b"\xef\xbb\xbf", "utf-8-bom", "utf-8-sig"), (b"\xff\xfe", "utf-16-le", "utf-16"),
         (b"\xfe\xff", "utf-16-be", "utf-16"))
# Names people give the file that Theano never opens (Explorer hides ".txt", guides disagree).
_LOOKALIKE_GLOBS = (".theanorc*", "theanorc*", "_theanorc*")
_BACKUP_SUFFIXES = ("~", ".bak", ".orig", ".swp")  # deliberate copies, not mistakes


def default_home(env: Mapping[str, str], os_name: str) -> str:
    # Python >= 3.8 expands "~" from USERPROFILE on Windows, from HOME elsewhere.
    if os_name == WINDOWS:
        return env.get("USERPROFILE") or env.get("HOME") or os.path.expanduser("~")
    return env.get("HOME") or os.path.expanduser("~")


def _expand(path: str, home: str) -> str:
    if path == "~" or path.startswith(("~/", "~\\")):
        return os.path.join(home, path[2:]) if len(path) > 1 else home
    return path


def theanorc_paths(env: Mapping[str, str] | None = None, home: str | None = None,
                   os_name: str | None = None) -> list[str]:
    """The files Theano reads, in order (later ones override earlier ones)."""
    os_name = os_name_or_current(os_name)
    values = normalize_env(env, os_name)
    home = home or default_home(values, os_name)
    setting = values.get("THEANORC")
    # THEANORC set but empty names the file "": Theano then reads nothing at all.
    paths = [_expand(p, home) for p in (setting if setting is not None else "~/.theanorc")
             .split(pathsep(os_name)) if p]
    if setting is None and os_name == WINDOWS:
        paths.append(os.path.join(home, ".theanorc.txt"))
    return paths


def _is_text(data: bytes, codec: str) -> bool:
    try:
        text = data[: len(data) // 2 * 2].decode(codec)
    except UnicodeDecodeError:
        return False
    return all(ch.isprintable() or ch in "\r\n\t" for ch in text)


def encoding_of(data: bytes) -> tuple[str | None, bool, str | None]:
    """(encoding label, has BOM, codec to show the text with)."""
    for bom, label, codec in _BOMS:
        if data.startswith(bom):
            return label, True, codec
    # UTF-16 without a BOM: ASCII text with every other byte NUL, that decodes to text (a
    # binary file has NUL bytes too, but does not decode to printable text).
    for zeros, codec in ((data[1::2], "utf-16-le"), (data[0::2], "utf-16-be")):
        if len(data) >= 2 and zeros.count(0) * 2 > len(data) // 2 and _is_text(data, codec):
            return codec, False, codec
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "undecodable", False, None
    return "utf-8", False, "utf-8"


def line_endings(text: str) -> str | None:
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    if not crlf and not lf:
        return None
    return "crlf" if not lf else "lf" if not crlf else "mixed"


def parse_like_theano(data: bytes, path: str) -> Json:
    """Parse as Theano 1.0.5 on Python 3 does; keys lower-cased, values raw strings."""
    result: Json = {"ok": False, "error": None, "error_type": None, "line": None,
                    "message": None, "sections": {}}
    parser = configparser.ConfigParser()
    try:
        text = data.decode("utf-8")
        parser.read_file(io.StringIO(text, newline=None), source=path)
    except (UnicodeDecodeError, configparser.Error) as exc:
        line: Any = getattr(exc, "lineno", None)
        if line is None and isinstance(exc, configparser.ParsingError) and exc.errors:
            line = exc.errors[0][0]  # (lineno, text) pairs
        result.update(error=first_line(str(exc)), error_type=type(exc).__name__,
                      line=line, message=str(exc)[:2000])
        return result
    sections = {name: dict(parser.items(name, raw=True)) for name in parser.sections()}
    if parser.defaults():
        sections[configparser.DEFAULTSECT] = dict(parser.defaults())
    result.update(ok=True, sections=sections)
    return result


def inspect_file(path: str, env: Mapping[str, str] | None = None) -> Json:
    """``env``: the environment Theano's compiler runs with, to resolve the build settings the
    file names (None: the file is not on this machine's OS, so they are not resolved)."""
    entry: Json = {"path": path, "exists": os.path.exists(path), "size": None,
                   "readable": False, "encoding": None, "bom": False, "line_endings": None,
                   "parse": None, "text_head": None, "error": None}
    if not entry["exists"]:
        return entry
    try:
        entry["size"] = os.path.getsize(path)
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES)
    except OSError as exc:  # Theano skips a file it cannot open, silently
        entry["error"] = describe(exc)
        return entry
    entry["readable"] = True
    label, bom, codec = encoding_of(data)
    text = data.decode(codec or "utf-8", errors="replace")
    entry.update(encoding=label, bom=bom, line_endings=line_endings(text),
                 text_head=text[:HEAD_CHARS], parse=parse_like_theano(data, path))
    if env is not None and entry["parse"]["ok"]:
        from theanodoctor.host.buildflags import resolve_build

        entry["build"] = resolve_build(entry["parse"]["sections"], env)
    return entry


def lookalikes(home: str, read: list[str], cwd: str | None) -> list[str]:
    """Files that look like a Theano config but that Theano will not read."""
    taken = {os.path.realpath(p) for p in read}
    found: list[str] = []
    for pattern in _LOOKALIKE_GLOBS:
        found += sorted(glob.glob(os.path.join(glob.escape(home), pattern)))
    if cwd:  # some guides claim a .theanorc in the working directory is read: it is not
        found += [os.path.join(cwd, n) for n in (".theanorc", ".theanorc.txt", "theanorc")]
    result: list[str] = []
    for path in found:
        real = os.path.realpath(path)
        if (os.path.isfile(path) and real not in taken
                and not path.endswith(_BACKUP_SUFFIXES)):
            taken.add(real)
            result.append(path)
    return result


def probe_theanorc(env: Mapping[str, str] | None = None, home: str | None = None,
                   os_name: str | None = None, cwd: str | None = None) -> Json:
    """``cwd``: also flag a config file there (default: the current directory)."""
    started = time.monotonic()
    os_name = os_name_or_current(os_name)
    try:
        values = normalize_env(env, os_name)
        home = home or default_home(values, os_name)
        paths = theanorc_paths(values, home, os_name)
        here = os_name == os_name_or_current(None)
        files = [inspect_file(p, dict(os.environ if env is None else env) if here else None) for p in paths]
        return envelope("ok", None, time.monotonic() - started, home=home,
                        theanorc_env=values.get("THEANORC"), files=files,
                        lookalikes=lookalikes(home, paths, os.getcwd() if cwd is None else cwd))
    except Exception as exc:
        return envelope("error", describe(exc), time.monotonic() - started)
