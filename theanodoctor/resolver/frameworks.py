"""Framework pins for a repository's lock, from the framework table (profiles/frameworks.yaml):
Lasagne as the master commit of the repository's date (PyPI's 0.1 only before master moved to
`signal.pool`), Blocks from its git tag (it is not on PyPI), Keras as a release with the Theano
backend selected; the table's hard limits on a framework become resolver caps."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, NamedTuple

from packaging.version import Version

from theanodoctor.resolver.eras import Choice
from theanodoctor.resolver.lock import LockPin, Setting
from theanodoctor.resolver.model import Cite, Conflict, Reason
from theanodoctor.scan.frameworks import TABLE, Framework, Pairing, by_name

_COMMIT = re.compile(r"/blob/([0-9a-f]{40})/")
# Keras reads KERAS_BACKEND, else ~/.keras/keras.json (the table's backend_setting row)
KERAS = "keras"


class FrameworkPins(NamedTuple):
    pins: tuple[LockPin, ...]
    requires: tuple[str, ...]
    settings: tuple[Setting, ...]


def _where(item: dict[str, Any]) -> str:
    evidence = item.get("evidence") or []
    return ", ".join(f"{e.get('file')}:{e.get('line')}" for e in evidence[:2] if isinstance(e, dict)) or "the scan"


def _cite(row: Framework, key: str, source: str) -> Cite:
    return Cite("profiles/" + TABLE, f"{row.name}: {key}", source)


def _caps(row: Framework | None, name: str) -> list[str]:
    """The table's hard limits on the framework itself ("keras<2.4": the last with a Theano backend)."""
    return [f"{name}{p.spec}" for p in (row.pairings if row else ())
            if p.subject == name and p.strength == "hard" and "://" not in p.spec]


def lasagne_commit(row: Framework, day: dt.date, theano: str) -> tuple[str, Pairing] | None:
    """Master's commit the table names as in force at ``day`` (it needs Theano >= 0.8), if any."""
    found: list[tuple[str, str, Pairing]] = []
    for pairing in row.pairings:
        match = _COMMIT.search(pairing.source)
        if pairing.when == "git" and match is not None and pairing.since and pairing.since <= day.isoformat():
            found.append((pairing.since, match.group(1), pairing))
    if not found or Version(theano) < Version("0.8"):
        return None
    newest = max(found, key=lambda f: f[0])
    return newest[1], newest[2]


def pin(item: dict[str, Any], choice: Choice, day: dt.date) -> FrameworkPins | Conflict:
    """One framework the scan found; its ``spec`` is a URL, a version specifier, or empty."""
    name, spec = str(item.get("name") or ""), str(item.get("spec") or "")
    row = by_name(name)
    why = f"the code uses {name} ({_where(item)})"
    backend, git = (row.backend_setting, row.git) if row else ("", "")
    settings = (Setting("KERAS_BACKEND", "theano", "Keras runs on Theano only when KERAS_BACKEND (or the backend in "
                        f"~/.keras/keras.json) says so: {backend}"),) if name == KERAS else ()
    if "://" in spec:
        return FrameworkPins((LockPin(name, spec, f"{why}; as the repository names it"),), (), settings)
    if row and name == "lasagne" and not spec:
        found = lasagne_commit(row, day, choice.version)
        if found:
            commit, pairing = found
            return FrameworkPins((LockPin("Lasagne", f"{git}@{commit}", f"{why}, unpinned: the master commit the table "
                                          f"names from {pairing.since} on, the newest before {day.isoformat()} "
                                          f"(PyPI's 0.1 predates signal.pool); {pairing.says}",
                                          (_cite(row, "git", pairing.source),)),), ("numpy",), settings)
    if name == "blocks" or (row and row.on_pypi == () and git):
        if not row or not git:
            return Conflict((name,), (Reason(f"{name} is not on PyPI and the table names no repository for it"),),
                            (f"install {name} by hand from its repository",))
        ref = f"@{row.tag}" if row.tag else ""
        return FrameworkPins((LockPin(name, f"{git}{ref}", f"{why}; not on PyPI: {row.says}".strip(),
                                      (_cite(row, "git", row.source),)),), (), settings)
    return FrameworkPins((), (f"{name}{spec}", *_caps(row, name)), settings)
