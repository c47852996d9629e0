"""What the compiler and linker settings of a config file resolve to on this machine: the `cxx`
compiler it names, and the libraries and folders of `[blas] ldflags` and `[lib] amdlibm`.

`import theano` can work while these break every compiled computation (`ld: cannot find
-lmkl_rt`), so the config checks need to know whether each one is really there. The libraries are
looked for where the linker looks: the `-L` folders, then the folders the compiler itself reports
(`-print-search-dirs`), then LIBRARY_PATH.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Mapping
from typing import Any

from theanodoctor import proc
from theanodoctor.facts import Json

_TIMEOUT = 10.0


def _compiler(cxx: str | None, env: Mapping[str, str]) -> tuple[str | None, bool]:
    """(path of the compiler Theano would run, whether a configured one was asked for)."""
    name = cxx if cxx is not None else "g++"
    if not name:
        return None, cxx is not None
    path = name if os.path.dirname(name) else shutil.which(name, path=env.get("PATH"))
    return (path if path and os.path.isfile(path) and os.access(path, os.X_OK) else None), cxx is not None


def _search_dirs(compiler: str | None, env: Mapping[str, str]) -> list[str] | None:
    if compiler is None:
        return None
    done = proc.run([compiler, "-print-search-dirs"], _TIMEOUT, env=env)
    if not done.ran or done.returncode != 0:
        return None
    for line in done.stdout.splitlines():
        if line.startswith("libraries:"):
            return [d for d in line.split("=", 1)[-1].split(os.pathsep) if d]
    return None


def _library_names(name: str, windows: bool) -> list[str]:
    if windows:
        return [f"{name}.lib", f"lib{name}.a", f"lib{name}.dll.a", f"{name}.dll"]
    return [f"lib{name}.so", f"lib{name}.a", f"lib{name}.dylib"]


def _find(name: str, dirs: list[str], windows: bool) -> str | None:
    for folder in dirs:
        for file in _library_names(name, windows):
            candidate = os.path.join(folder, file)
            if os.path.isfile(candidate):
                return candidate
    return None


def _tokens(value: str) -> list[str]:
    try:
        return shlex.split(value, posix=os.name != "nt")
    except ValueError:
        return value.split()


def resolve_build(sections: Mapping[str, Any], env: Mapping[str, str]) -> Json:
    """For one parsed config file: its cxx and the libraries/folders its link flags name."""
    def option(section: str, name: str) -> Any:
        found = sections.get(section)
        return found.get(name) if isinstance(found, Mapping) else None

    cxx = option("global", "cxx")
    wanted = _tokens(str(option("blas", "ldflags") or ""))
    amdlibm = str(option("lib", "amdlibm") or "").strip() in ("True", "true", "1")
    result: Json = {}
    compiler, configured = _compiler(str(cxx) if cxx is not None else None, env)
    if configured:
        result["cxx"] = {"value": cxx, "found": compiler}
    if not wanted and not amdlibm:
        return result
    dirs = [t[2:] for t in wanted if t.startswith("-L") and len(t) > 2]
    windows = os.name == "nt"
    searched = _search_dirs(compiler, env)
    extra = [d for d in (env.get("LIBRARY_PATH") or "").split(os.pathsep) if d]
    where = dirs + (searched or []) + extra
    result["link"] = {
        "searched": searched is not None,
        "missing_dirs": [d for d in dirs if not os.path.isdir(d)],
        "libraries": [{"flag": t, "from": "ldflags", "found": _find(t[2:], where, windows)}
                      for t in wanted if t.startswith("-l") and len(t) > 2]
        + ([{"flag": "-lamdlibm", "from": "amdlibm", "found": _find("amdlibm", where, windows)}] if amdlibm else []),
    }
    return result
