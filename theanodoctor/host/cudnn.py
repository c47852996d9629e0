"""cuDNN installs: header version and library files, in toolkits and standalone folders.

cuDNN <= 7 keeps its version macros in ``cudnn.h``; 8+ moved them to ``cudnn_version.h``.
Theano 1.0.5 only uses a cuDNN whose ``include/cudnn.h`` sits in its ``dnn.base_path``
(default ``cuda.root``), so ``has_cudnn_h`` is reported separately from the version.
"""

from __future__ import annotations

import glob
import os
import re
import time
from collections.abc import Iterable, Mapping, Sequence

from theanodoctor.facts import Json, envelope
from theanodoctor.host.common import WINDOWS, describe, normalize_env, os_name_or_current

_HEADERS = ("cudnn_version.h", "cudnn.h")
_MACRO = re.compile(r"^\s*#\s*define\s+CUDNN_(MAJOR|MINOR|PATCHLEVEL)\s+(\d+)", re.MULTILINE)
# The Debian/Ubuntu packages put headers in /usr/include and libraries in the multiarch dir.
_LINUX_SYSTEM_ROOTS = ("/usr",)


def parse_header(path: str) -> tuple[int, int, int] | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            found = dict(_MACRO.findall(fh.read(200_000)))
    except OSError:
        return None
    if "MAJOR" not in found:
        return None
    return int(found["MAJOR"]), int(found.get("MINOR", 0)), int(found.get("PATCHLEVEL", 0))


def version_number(major: int, minor: int, patch: int) -> int:
    """cuDNN's own CUDNN_VERSION encoding (what Theano compares: < 5000 too old, >= 7200 warn)."""
    return major * (10000 if major >= 9 else 1000) + minor * 100 + patch


def _library_files(root: str, os_name: str) -> list[str]:
    if os_name == WINDOWS:
        places = [("bin", "cudnn*.dll"), (os.path.join("lib", "x64"), "cudnn*.lib")]
    else:
        suffix = "lib*cudnn*.dylib" if os_name == "Darwin" else "libcudnn*.so*"
        places = [(d, suffix) for d in ("lib64", "lib", os.path.join("lib", "x86_64-linux-gnu"))]
    files: list[str] = []
    for folder, pattern in places:
        files += glob.glob(os.path.join(glob.escape(os.path.join(root, folder)), pattern))
    return sorted(set(files))


def _find_header(include: str) -> tuple[str | None, tuple[int, int, int] | None]:
    for name in _HEADERS:
        version = parse_header(os.path.join(include, name))
        if version:
            return os.path.join(include, name), version
    cudnn_h = os.path.join(include, "cudnn.h")
    # A cudnn.h without macros: an 8+ header whose cudnn_version.h was not copied along.
    return (cudnn_h, None) if os.path.isfile(cudnn_h) else (None, None)


def _install(root: str, os_name: str) -> Json | None:
    include = os.path.join(root, "include")
    header, version = _find_header(include)
    if header is None:
        return None
    files = _library_files(root, os_name)
    major, minor, patch = version or (None, None, None)
    return {
        "root": root, "header": header,
        "version": ".".join(map(str, version)) if version else None,
        "major": major, "minor": minor, "patch": patch,
        "version_number": version_number(*version) if version else None,
        "has_cudnn_h": os.path.isfile(os.path.join(include, "cudnn.h")),
        "libraries": sorted({os.path.basename(f) for f in files}),
        "library_files": files,
        "in_toolkit": None,
    }


def _roots(toolkits: Iterable[Json], env: Mapping[str, str], os_name: str,
           extra_roots: Sequence[str], system_roots: Sequence[str] | None
           ) -> list[tuple[str, str | None]]:
    found: list[tuple[str, str | None]] = []
    for kit in toolkits:
        if isinstance(kit, dict) and kit.get("root"):
            found.append((kit["root"], kit["root"]))
    found += [(env[n], None) for n in ("CUDNN_PATH", "CUDNN_HOME") if env.get(n)]
    if system_roots is None:
        system_roots = _LINUX_SYSTEM_ROOTS if os_name == "Linux" else ()
    found += [(r, None) for r in (*system_roots, *extra_roots)]
    return found


def probe_cudnn(toolkits: Iterable[Json] = (), env: Mapping[str, str] | None = None,
                os_name: str | None = None, extra_roots: Sequence[str] = (),
                system_roots: Sequence[str] | None = None) -> Json:
    """``toolkits`` is the cuda section's list; ``system_roots`` replaces ``/usr`` (tests)."""
    started = time.monotonic()
    os_name = os_name_or_current(os_name)
    try:
        values = normalize_env(env, os_name)
        toolkits = list(toolkits)
        installs: list[Json] = []
        seen: set[str] = set()
        toolkit_reals = {os.path.realpath(k["root"]): k["root"] for k in toolkits
                         if isinstance(k, dict) and k.get("root")}
        for root, toolkit in _roots(toolkits, values, os_name, extra_roots, system_roots):
            install = _install(root, os_name)
            if install is None:
                continue
            key = os.path.realpath(install["header"])
            if key in seen:
                continue
            seen.add(key)
            # CUDNN_PATH may point into a toolkit: say so even when found that way.
            install["in_toolkit"] = toolkit or toolkit_reals.get(os.path.realpath(root))
            installs.append(install)
        return envelope("ok", None, time.monotonic() - started, installs=installs)
    except Exception as exc:
        return envelope("error", describe(exc), time.monotonic() - started)
