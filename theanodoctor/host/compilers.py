"""C++ compilers Theano could use: g++ on PATH, conda's MinGW on Windows, cl.exe.

Theano 1.0.5 runs ``g++`` from PATH; on Windows, failing that,
``<python>\\Library\\mingw-w64\\bin\\g++`` (conda's m2w64-toolchain). A 32-bit MinGW cannot
build extensions for a 64-bit Python, so the target triple's bitness is reported.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping

from theanodoctor import proc
from theanodoctor.facts import Json, envelope
from theanodoctor.host.common import (
    WINDOWS,
    describe,
    first_line,
    is_program,
    normalize_env,
    os_name_or_current,
    which,
)

_VERSION = re.compile(r"^\d+(\.\d+)*$")
_64BIT_ARCH = ("x86_64", "amd64", "aarch64", "arm64", "ppc64", "powerpc64", "s390x",
               "riscv64", "sparc64", "mips64", "loongarch64")


def target_bits(target: str | None) -> int | None:
    """64 for x86_64-w64-mingw32 / x86_64-linux-gnu, 32 for i686-w64-mingw32 / mingw32."""
    if not target:
        return None
    arch = target.split("-")[0].lower()
    if arch.startswith(_64BIT_ARCH):
        return 64
    if re.match(r"^(i[3-6]86|x86|arm|mips|powerpc|ppc|sparc|mingw32)", arch):
        return 32  # a bare "mingw32" triple is the old 32-bit MinGW.org compiler
    return None


def cl_bits(path: str) -> int | None:
    """From the MSVC folder layout: ...\\Hostx64\\x64\\cl.exe, old ...\\bin\\amd64\\cl.exe."""
    parts = [p.lower() for p in re.split(r"[\\/]", path)]
    parent = parts[-2] if len(parts) > 1 else ""
    if parent in ("x64", "amd64", "x86_amd64", "arm64"):
        return 64
    if parent in ("x86", "amd64_x86", "bin"):
        return 32
    return None


def _gxx(path: str, source: str, timeout: float) -> Json:
    entry: Json = {"name": "g++", "path": path, "version": None, "target": None, "bits": None,
                   "source": source, "error": None}
    # -dumpfullversion is GCC >= 7; older ones ignore it and answer -dumpversion.
    version = proc.run([path, "-dumpfullversion", "-dumpversion"], timeout)
    machine = proc.run([path, "-dumpmachine"], timeout)
    for result, key in ((version, "version"), (machine, "target")):
        if not result.ran:
            entry["error"] = f"{os.path.basename(path)} did not run: {result.error}"
            break
        value = first_line(result.stdout)
        if result.returncode != 0 or not value or (key == "version" and not _VERSION.match(value)):
            said = first_line(result.stderr) or value or "no output"
            entry["error"] = f"{os.path.basename(path)} failed (exit {result.returncode}): {said}"
            break
        entry[key] = value
    entry["bits"] = target_bits(entry["target"])
    return entry


def conda_mingw_gxx(python_prefix: str) -> str:
    return os.path.join(python_prefix, "Library", "mingw-w64", "bin", "g++.exe")


def probe_compilers(env: Mapping[str, str] | None = None, os_name: str | None = None,
                    python_prefix: str | None = None, timeout: float = 5.0) -> Json:
    """``python_prefix``: the target environment (default: the active conda env, if any)."""
    started = time.monotonic()
    os_name = os_name_or_current(os_name)
    try:
        values = normalize_env(env, os_name)
        cxx: list[Json] = []
        on_path = which("g++", values, os_name)
        if on_path:
            cxx.append(_gxx(on_path, "PATH", timeout))
        python_prefix = python_prefix or values.get("CONDA_PREFIX")
        if os_name == WINDOWS and python_prefix:
            mingw = conda_mingw_gxx(python_prefix)
            if is_program(mingw, os_name) and mingw != on_path:
                cxx.append(_gxx(mingw, "conda-mingw", timeout))
        if os_name == "Darwin":
            clang = which("clang++", values, os_name)
            if clang:  # Theano prefers clang++ on macOS
                cxx.append({**_gxx(clang, "PATH", timeout), "name": "clang++"})
        cl = which("cl", values, os_name) if os_name == WINDOWS else None
        if cl:
            cxx.append({"name": "cl", "path": cl, "version": None, "target": None,
                        "bits": cl_bits(cl), "source": "PATH", "error": None})
        # Theano's pick: g++ on PATH, else conda's MinGW (Windows); clang++ first on macOS.
        usable = [c for c in cxx if c["name"] in ("g++", "clang++") and not c["error"]]
        usable.sort(key=lambda c: c["name"] != "clang++")
        return envelope("ok", None, time.monotonic() - started, cxx=cxx,
                        theano_cxx=usable[0]["path"] if usable else None)
    except Exception as exc:
        return envelope("error", describe(exc), time.monotonic() - started)
