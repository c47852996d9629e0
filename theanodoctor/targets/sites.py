"""The site-packages folders an install imports from, found on disk."""

from __future__ import annotations

import os
from collections.abc import Mapping

from theanodoctor.targets.fs import _is_dir, _same_key
from theanodoctor.targets.version import _lib_versions


def _site_dirs_of(prefix: str, major_minor: str | None, windows: bool) -> list[str]:
    """Existing site-packages folders of an install, in import order."""
    paths = []
    if windows or _is_dir(os.path.join(prefix, "Lib", "site-packages")):
        paths += [os.path.join(prefix, "Lib", "site-packages"),
                  os.path.join(prefix, "lib", "site-packages")]
    versions = [major_minor] if major_minor else _lib_versions(prefix)
    for ver in versions:
        for lib in ("lib", "lib64"):
            paths.append(os.path.join(prefix, lib, f"python{ver}", "site-packages"))
        # Debian's system Python and its pip
        paths.append(os.path.join(prefix, "local", "lib", f"python{ver}", "dist-packages"))
        paths.append(os.path.join(prefix, "lib", f"python{ver}", "dist-packages"))
        if ver.startswith("3."):
            paths.append(os.path.join(prefix, "lib", "python3", "dist-packages"))
    found: list[str] = []
    seen: set[str] = set()
    for path in paths:
        if _is_dir(path):
            key = _same_key(path)  # a venv's lib64 is a symlink to lib
            if key not in seen:
                seen.add(key)
                found.append(path)
    return found


def _user_site(home: str, major_minor: str | None, windows: bool,
               env: Mapping[str, str]) -> str | None:
    if not major_minor or not home:
        return None
    if windows:
        appdata = env.get("APPDATA") or os.path.join(home, "AppData", "Roaming")
        tag = "Python" + major_minor.replace(".", "")
        path = os.path.join(appdata, "Python", tag, "site-packages")
    else:
        path = os.path.join(home, ".local", "lib", f"python{major_minor}", "site-packages")
    return path if _is_dir(path) else None
