"""Reading the config files as the host probe saw them (the ``theanorc`` section): which exist,
what each holds, and the outcome to give when there is nothing to judge. No checks live here."""

from __future__ import annotations

from typing import Any

from theanodoctor.engine import Outcome, ok, skipped
from theanodoctor.facts import Facts, section

from .common import python_version


def rc_section(facts: Facts) -> dict[str, Any]:
    return section(facts, "theanorc")


def rc_files(facts: Facts) -> list[dict[str, Any]]:
    return [f for f in rc_section(facts).get("files") or [] if isinstance(f, dict)]


def present(facts: Facts) -> list[dict[str, Any]]:
    return [f for f in rc_files(facts) if f.get("exists") and f.get("readable")]


def python2(facts: Facts) -> bool:
    return (python_version(facts) or "").startswith("2.")


def entries(rc: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(section, option, raw value) of a file Theano could parse; [DEFAULT] is not a key."""
    sections = (rc.get("parse") or {}).get("sections") or {}
    return [(str(s), str(o), str(v)) for s, opts in sections.items() if s != "DEFAULT" and isinstance(opts, dict)
            for o, v in opts.items()]


def place(path: str, sect: str, option: str, value: str | None = None) -> str:
    """Where a setting is, for messages: ``path: [section] option = value``."""
    return f"{path}: [{sect}] {option}" + ("" if value is None else f" = {value}")


def not_probed(facts: Facts) -> Outcome | None:
    rc = rc_section(facts)
    if rc.get("status") != "ok":
        return skipped(f"the config files were not probed ({rc.get('error') or rc.get('status')})")
    return None


def readable(facts: Facts, verb: str) -> list[dict[str, Any]] | Outcome:
    """The config files Theano can open, or the outcome when there is none ("no config file to <verb>")."""
    gate = not_probed(facts)
    if gate:
        return gate
    return present(facts) or ok(f"no config file to {verb}")


def parsed(facts: Facts) -> list[dict[str, Any]] | Outcome:
    """The config files Theano can parse, or the outcome to give when there is none to judge."""
    files = readable(facts, "check")
    if isinstance(files, Outcome):
        return files
    good = [rc for rc in files if (rc.get("parse") or {}).get("ok")]
    return good or skipped("no config file Theano can parse (see theanorc-encoding and theanorc-parse)")
