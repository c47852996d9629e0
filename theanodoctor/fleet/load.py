"""Read the documents machines sent in: snapshots (`report --format json`), `check --format json`
and `preflight --format json` outputs. A file that cannot be used is a per-file problem with a
reason, never an exception."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from theanodoctor.facts import SECTIONS, Facts, SnapshotError

MAX_BYTES = 50_000_000  # a snapshot is a few hundred KB; anything this big is something else
STDERR_SUFFIXES = (".err", ".stderr")  # where the collecting job put the command's stderr


class Document(NamedTuple):
    path: str
    kind: str  # snapshot, check, preflight
    facts: Facts
    smoke: dict[str, Any] | None  # the smoke result a check --smoke / preflight document carried
    own_exit: int | None = None  # a preflight document's own exit code (its verdict on that machine)
    config: bytes = b""  # identical machines' documents have the same (see configuration)


class Problem(NamedTuple):
    path: str
    reason: str


# "key": value pairs that differ between identical machines and that no judgment in the fleet view
# reads: the host name (no check reads it; where it shows inside a path, such as a compiledir
# name, that path still differs), when the snapshot was made, and the probes' timings (the only
# check that reads one puts it in the message of a passing check, which a fleet view never shows).
_UNCOMPARED = re.compile(rb'"(?:elapsed_s|duration_s|hostname|created)"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[-+0-9.eE]+|null)')


def configuration(raw: bytes) -> bytes:
    """A digest of the document without what differs between identical machines: machines with
    the same digest are judged once (the checks are pure functions of the facts)."""
    return hashlib.blake2b(_UNCOMPARED.sub(b"", raw), digest_size=16).digest()


def _wanted(path: Path) -> bool:
    # *.json, and files without an extension: Ansible's --tree names each file by its host.
    return path.is_file() and not path.name.startswith(".") and path.suffix.lower() in (".json", "")


def expand(paths: Iterable[str]) -> list[str]:
    """Files as given, and the snapshot-like files under a folder (sorted: a stable table order)."""
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found += sorted(str(p) for p in Path(path).rglob("*") if _wanted(p))
        else:
            found.append(path)
    return list(dict.fromkeys(found))


class _Empty(Exception):
    pass


def _read(path: str) -> tuple[Any, bytes]:
    with open(path, "rb") as fh:
        if os.fstat(fh.fileno()).st_size > MAX_BYTES:  # read() of a huge size costs a huge buffer
            raise ValueError(f"larger than {MAX_BYTES // 1_000_000} MB: not a snapshot")
        raw = fh.read()
    if not raw.strip():
        raise _Empty
    return json.loads(raw.decode("utf-8-sig")), raw


def stderr_line(path: str) -> str | None:
    """The last line the command wrote to stderr, when the job kept it beside the report
    (``host.json`` + ``host.err``): why a report is empty is usually there."""
    stem = os.path.splitext(path)[0]
    for suffix in STDERR_SUFFIXES:
        try:
            with open(stem + suffix, "rb") as fh:
                fh.seek(max(0, os.fstat(fh.fileno()).st_size - 4096))
                lines = [line.strip() for line in fh.read().decode("utf-8", "replace").splitlines() if line.strip()]
        except OSError:
            continue
        if lines:
            return lines[-1][:300]
    return None


def _empty(path: str) -> Problem:
    said = stderr_line(path)
    return Problem(path, "empty: the command on the machine wrote no report"
                   + (f"; its stderr ends with: {said}" if said else ""))


def _kind(data: dict[str, Any]) -> str:
    if isinstance(data.get("preflight"), dict):
        return "preflight"
    return "check" if isinstance(data.get("checks"), list) else "snapshot"


def load(path: str) -> Document | Problem:
    try:
        data, raw = _read(path)
    except _Empty:
        return _empty(path)
    except OSError as exc:
        return Problem(path, f"cannot read: {exc.strerror or exc}")
    except (UnicodeDecodeError, ValueError) as exc:
        return Problem(path, f"not JSON ({exc})")
    if not isinstance(data, dict):
        return Problem(path, "not a theanodoctor document (the top level is not a JSON object)")
    if isinstance(data.get("stdout"), str) and not any(name in data for name in SECTIONS):
        try:  # an Ansible --tree result: the command's output is inside
            data = json.loads(data["stdout"])
        except ValueError:
            return Problem(path, "a command result whose output is not a theanodoctor JSON document")
        if not isinstance(data, dict):
            return Problem(path, "a command result whose output is not a theanodoctor JSON document")
    if isinstance(data.get("error"), dict) and "facts" not in data:
        return Problem(path, f"an error report, no facts: {data['error'].get('message')}")
    facts_data: dict[str, Any] = data["facts"] if isinstance(data.get("facts"), dict) else data
    if not any(isinstance(facts_data.get(name), dict) for name in SECTIONS):
        return Problem(path, "not a theanodoctor snapshot or report (no facts in it)")
    try:
        facts = Facts.from_dict(facts_data, origin=path)
    except SnapshotError as exc:
        return Problem(path, str(exc).removeprefix(f"{path}: "))
    smoke = data.get("smoke") if isinstance(data.get("smoke"), dict) else None
    skipped = data["preflight"].get("smoke_skipped") if isinstance(data.get("preflight"), dict) else None
    if smoke is None and skipped:
        smoke = {"verdict": f"skipped: {skipped}", "exit_code": None}
    kind = _kind(data)
    own = data.get("exit_code") if kind == "preflight" and isinstance(data.get("exit_code"), int) else None
    return Document(path, kind, facts, smoke, own, configuration(raw))


def load_each(paths: Iterable[str]) -> Iterator[Document | Problem]:
    """One document at a time, so a fleet of any size is read in the memory of one report."""
    for path in expand(paths):
        yield load(path)
