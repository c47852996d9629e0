"""Installed CUDA toolkits: where, which version, which library files.

Roots come from the env vars users and installers set, nvcc on PATH, toolkit ``bin`` folders
on PATH and the default install folders. One toolkit reached several ways (the
``/usr/local/cuda`` symlink and ``/usr/local/cuda-X.Y``) is reported once, with every source.
"""

from __future__ import annotations

import glob
import json
import os
import re
import time
from collections.abc import Mapping, Sequence

from theanodoctor import proc
from theanodoctor.facts import Json, envelope
from theanodoctor.host.common import (
    WINDOWS,
    describe,
    exe_name,
    normalize_env,
    os_name_or_current,
    split_paths,
    which,
)

_ENV_ROOTS = ("CUDA_PATH", "CUDA_ROOT", "CUDA_HOME")
_NVCC_RELEASE = re.compile(r"release (\d+\.\d+), V(\d+(?:\.\d+)*)")
_VERSION_TXT = re.compile(r"CUDA Version (\d+\.\d+(?:\.\d+)*)")


def default_roots(env: Mapping[str, str], os_name: str) -> list[str]:
    if os_name == WINDOWS:
        base = os.path.join(env.get("PROGRAMFILES", r"C:\Program Files"),
                            "NVIDIA GPU Computing Toolkit", "CUDA")
        return sorted(glob.glob(os.path.join(glob.escape(base), "v*")))
    if os_name == "Darwin":
        return sorted(glob.glob("/Developer/NVIDIA/CUDA-*"))
    return ["/usr/local/cuda", *sorted(glob.glob("/usr/local/cuda-*")), "/opt/cuda"]


def lib_dir(root: str, os_name: str) -> str:
    if os_name == WINDOWS:
        return os.path.join(root, "lib", "x64")
    return os.path.join(root, "lib" if os_name == "Darwin" else "lib64")


def looks_like_toolkit(root: str, os_name: str) -> bool:
    """A toolkit has a version file, or nvcc next to the CUDA headers (pip/conda layouts);
    ``/usr/local`` with a wrapper script ``bin/nvcc`` is not one."""
    if any(os.path.isfile(os.path.join(root, f)) for f in ("version.json", "version.txt")):
        return True
    return (os.path.isfile(os.path.join(root, "bin", exe_name("nvcc", os_name)))
            and os.path.isfile(os.path.join(root, "include", "cuda.h")))


def _why_not_toolkit(root: str, os_name: str) -> str | None:
    if not os.path.isdir(root):
        return "does not exist"
    if not looks_like_toolkit(root, os_name):
        return "is not a CUDA toolkit (no version file, no bin/nvcc with include/cuda.h)"
    return None


def _libraries(root: str, os_name: str) -> list[str]:
    # Windows loads DLLs from bin; Linux/macOS link and load from lib64/lib.
    if os_name == WINDOWS:
        folder, pattern = os.path.join(root, "bin"), "*.dll"
    else:
        folder = lib_dir(root, os_name)
        pattern = "lib*.dylib" if os_name == "Darwin" else "lib*.so*"
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(glob.escape(folder),
                                                                       pattern)))


def nvcc_version(nvcc: str, timeout: float) -> tuple[str | None, str | None, str | None]:
    """("10.2", "10.2.89", None) from ``nvcc --version``, or (None, None, why not)."""
    result = proc.run([nvcc, "--version"], timeout)
    if not result.ran:
        return None, None, f"{nvcc} --version: {result.error}"
    match = _NVCC_RELEASE.search(result.stdout)
    if not match:
        return None, None, f"{nvcc} --version printed no release (exit {result.returncode})"
    return match.group(1), match.group(2), None


def _file_version(root: str) -> tuple[str | None, str | None]:
    """(full version, which file) from version.json (CUDA >= 11.1) or version.txt (older)."""
    try:
        with open(os.path.join(root, "version.json"), encoding="utf-8") as fh:
            full = json.load(fh)["cuda"]["version"]
        return str(full), "version.json"
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        with open(os.path.join(root, "version.txt"), encoding="utf-8", errors="replace") as fh:
            match = _VERSION_TXT.search(fh.read(4096))
        if match:
            return match.group(1), "version.txt"
    except OSError:
        pass
    return None, None


def _toolkit(root: str, os_name: str, timeout: float) -> Json:
    nvcc_path = os.path.join(root, "bin", exe_name("nvcc", os_name))
    nvcc = nvcc_path if os.path.isfile(nvcc_path) else None
    full, version_source = _file_version(root)
    error = None
    if full:
        version: str | None = ".".join(full.split(".")[:2])
    elif nvcc:  # a Windows nvcc.exe cannot run elsewhere: that becomes version_error
        version, full, error = nvcc_version(nvcc, timeout)
        version_source = "nvcc" if version else None
    else:
        version = None
        error = "no version.json, version.txt or runnable nvcc"
    return {
        "root": root, "version": version, "version_full": full,
        "version_source": version_source, "version_error": error,
        "sources": [], "aliases": [], "nvcc": nvcc,
        "bin_dir": os.path.join(root, "bin"), "lib_dir": lib_dir(root, os_name),
        "libraries": _libraries(root, os_name),
    }


def _candidates(env: Mapping[str, str], os_name: str, roots: Sequence[str] | None,
                nvcc_on_path: str | None) -> list[tuple[str, str]]:
    """(root, source) pairs in priority order; not yet checked or deduplicated."""
    found = [(env[n], n) for n in _ENV_ROOTS if env.get(n)]
    found += [(env[n], n) for n in sorted(env) if n.startswith("CUDA_PATH_V") and env[n]]
    if nvcc_on_path:
        found.append((os.path.dirname(os.path.dirname(os.path.realpath(nvcc_on_path))),
                      "nvcc-on-path"))
    for entry in split_paths(env.get("PATH"), os_name):
        entry = entry.strip('"').rstrip("/\\")
        if os.path.basename(entry).lower() == "bin":
            found.append((os.path.dirname(entry), "path-bin"))
    defaults = default_roots(env, os_name) if roots is None else list(roots)
    found += [(r, "default-dir") for r in defaults]
    return found


def theano_cuda_root(env: Mapping[str, str], os_name: str) -> Json:
    """What Theano 1.0.5 picks as ``cuda.root`` (configdefaults.get_cuda_root)."""
    for name in ("CUDA_ROOT", "CUDA_PATH"):
        if env.get(name):
            return {"path": env[name], "source": name}
    # Theano looks for a file named exactly "nvcc": never nvcc.exe, so never on Windows.
    for entry in split_paths(env.get("PATH"), os_name):
        if os.path.exists(os.path.join(entry, "nvcc")):
            return {"path": os.path.dirname(os.path.abspath(entry)), "source": "nvcc-on-path"}
    return {"path": None, "source": None}


def _owner(path: str, toolkits: Mapping[str, Json], levels: int) -> str | None:
    """The found toolkit that ``path`` (``levels`` folders below its root) belongs to."""
    real = os.path.realpath(path)
    for _ in range(levels):
        real = os.path.dirname(real)
    return real if real in toolkits else None


def probe_cuda(env: Mapping[str, str] | None = None, os_name: str | None = None,
               roots: Sequence[str] | None = None, timeout: float = 5.0) -> Json:
    """``roots`` replaces the default install folders (tests pass temp trees)."""
    started = time.monotonic()
    os_name = os_name_or_current(os_name)
    try:
        values = normalize_env(env, os_name)
        nvcc_on_path = which("nvcc", values, os_name)
        toolkits: dict[str, Json] = {}
        symlinks: dict[str, str] = {}
        rejected: list[Json] = []
        for root, source in _candidates(values, os_name, roots, nvcc_on_path):
            why = _why_not_toolkit(root, os_name)
            if why:
                # Only a variable the user set is worth a word; default folders are guesses.
                if source.startswith("CUDA_"):
                    rejected.append({"path": root, "source": source, "why": why})
                continue
            real = os.path.realpath(root)
            if real not in toolkits:
                toolkits[real] = _toolkit(real, os_name, timeout)
            kit = toolkits[real]
            if source not in kit["sources"]:
                kit["sources"].append(source)
            if real != os.path.abspath(root):  # reached through a symlink
                symlinks[root] = real
                if root not in kit["aliases"]:
                    kit["aliases"].append(root)
        path_version = None
        if nvcc_on_path:
            # The nvcc on PATH may be a wrapper outside any toolkit: ask it directly.
            version, full, err = nvcc_version(nvcc_on_path, timeout)
            path_version = {"version": version, "version_full": full, "error": err,
                            "toolkit": _owner(nvcc_on_path, toolkits, 2)}
        theano_root = theano_cuda_root(values, os_name)
        theano_root["toolkit"] = theano_root["path"] and _owner(theano_root["path"], toolkits, 0)
        return envelope(
            "ok", None, time.monotonic() - started,
            toolkits=list(toolkits.values()), symlink_to=symlinks, rejected=rejected,
            nvcc_on_path=nvcc_on_path, nvcc_on_path_version=path_version,
            theano_cuda_root=theano_root,
        )
    except Exception as exc:
        return envelope("error", describe(exc), time.monotonic() - started)
