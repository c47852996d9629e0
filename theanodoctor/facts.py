"""The facts snapshot: everything the doctor learned, as one frozen, versioned JSON document.

``Facts`` is the contract between probing and judging. Each section is plain JSON data produced
by one probe and wrapped in a *result envelope*::

    {"status": "ok" | "error" | "timeout" | "missing" | "skipped",
     "error": str | None,      # why, when status is not ok
     "elapsed_s": float,
     ...section data...}

Sections (keys of ``Facts``):

- ``system``     OS, release, machine, hostname, the doctor's own Python.
- ``env``        environment variables that change behaviour (PATH split into entries, ...).
- ``nvidia``     driver and GPUs (NVML, else nvidia-smi); "missing" when there is no driver.
- ``cuda``       CUDA toolkits found, with versions and library files.
- ``cudnn``      cuDNN installs found, with header versions and library files.
- ``compilers``  C++ compilers (g++, cl.exe) with version and target bitness.
- ``theanorc``   the config files Theano would read, as raw bytes judged (encoding, parse).
- ``target``     the target interpreter probe (Python, packages, import theano, config).
- ``compiledir`` Theano's compile dir of the target (size, modules, lock owner).
- ``candidates`` every Python environment discovery considered.

Checks read sections with :func:`section`, which never raises on a missing key.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from theanodoctor import __version__

SCHEMA_VERSION = 1
SECTIONS = ("system", "env", "nvidia", "cuda", "cudnn", "compilers", "theanorc", "target",
            "compiledir", "candidates")

Json = dict[str, Any]


class SnapshotError(ValueError):
    """A saved snapshot that cannot be judged (not JSON, other schema, wrong shape)."""


def envelope(status: str = "ok", error: str | None = None, elapsed_s: float = 0.0, **data: Any) -> Json:
    return {"status": status, "error": error, "elapsed_s": round(elapsed_s, 4), **data}


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class Facts:
    system: Json = field(default_factory=lambda: envelope("skipped", "not probed"))
    env: Json = field(default_factory=lambda: envelope("skipped", "not probed"))
    nvidia: Json = field(default_factory=lambda: envelope("skipped", "not probed"))
    cuda: Json = field(default_factory=lambda: envelope("skipped", "not probed"))
    cudnn: Json = field(default_factory=lambda: envelope("skipped", "not probed"))
    compilers: Json = field(default_factory=lambda: envelope("skipped", "not probed"))
    theanorc: Json = field(default_factory=lambda: envelope("skipped", "not probed"))
    target: Json = field(default_factory=lambda: envelope("skipped", "not probed"))
    compiledir: Json = field(default_factory=lambda: envelope("skipped", "not probed"))
    candidates: Json = field(default_factory=lambda: envelope("skipped", "not probed"))
    schema_version: int = SCHEMA_VERSION
    doctor_version: str = __version__
    created: str = field(default_factory=_now)

    def to_dict(self) -> Json:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True)

    @classmethod
    def from_dict(cls, data: Any, origin: str = "snapshot") -> Facts:
        make = "make one with `theanodoctor report --format json > FILE`"
        if not isinstance(data, dict):
            raise SnapshotError(f"{origin} is not a theanodoctor snapshot: it is a JSON {type(data).__name__}, "
                                f"not an object; {make}")
        if isinstance(data.get("facts"), dict) and "schema_version" in data:  # `check --format json` output
            return cls.from_dict({"schema_version": data["schema_version"], **data["facts"]}, origin)
        if "schema_version" not in data:
            keys = ", ".join(sorted(map(str, data))[:6]) or "none"
            raise SnapshotError(f"{origin} is not a theanodoctor snapshot: no schema_version (its keys: {keys}); "
                                f"{make}")
        version = data.get("schema_version")
        if version != SCHEMA_VERSION:
            raise SnapshotError(
                f"{origin}: schema_version {version!r} is not supported by this theanodoctor "
                f"(it reads schema_version {SCHEMA_VERSION}); re-create it with "
                "`theanodoctor report --format json`"
            )
        # A report document carries the snapshot under "facts"; a bare snapshot is itself one.
        kwargs: dict[str, Any] = {}
        for name in SECTIONS:
            value = data.get(name)
            if value is None:
                continue
            if not isinstance(value, dict):
                raise SnapshotError(f"{origin}: section {name!r} must be a JSON object")
            kwargs[name] = value
        for meta in ("doctor_version", "created"):
            if isinstance(data.get(meta), str):
                kwargs[meta] = data[meta]
        return cls(**kwargs)

    @classmethod
    def load(cls, path: str) -> Facts:
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise SnapshotError(f"{path}: cannot read: {exc.strerror or exc}") from exc
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise SnapshotError(f"{path}: not a JSON snapshot ({exc})") from exc
        if isinstance(data, dict) and isinstance(data.get("facts"), dict):
            data = data["facts"]
        return cls.from_dict(data, origin=path)


def section(facts: Facts, name: str) -> Json:
    value = getattr(facts, name, None)
    return value if isinstance(value, dict) else envelope("missing", f"no {name} section")


def dig(data: Any, *path: Any, default: Any = None) -> Any:
    """Follow keys/indexes through nested JSON, returning ``default`` at the first gap."""
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return default
        if data is None:
            return default
    return data
