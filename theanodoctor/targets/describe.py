"""One environment described from its files; the interpreter is never run.

Everything about a candidate comes from files: ``pyvenv.cfg``, ``conda-meta/``,
``include/.../patchlevel.h``, ``lib/pythonX.Y`` folder names, and the installed packages'
metadata (``*.dist-info/METADATA``, ``*.egg-info/PKG-INFO``, and the ``.egg-link`` files
``setup.py develop`` leaves behind).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from theanodoctor.targets.candidate import Candidate
from theanodoctor.targets.fs import _is_windows, _read_text
from theanodoctor.targets.layout import _layout_prefix, env_prefix
from theanodoctor.targets.packages import _WANTED, _conda_meta, _packages_in, _theano_without_metadata
from theanodoctor.targets.sites import _site_dirs_of, _user_site
from theanodoctor.targets.version import _major_minor, _python_version

if TYPE_CHECKING:
    from pathlib import Path


def _pyvenv_cfg(prefix: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in _read_text(os.path.join(prefix, "pyvenv.cfg")).splitlines():
        key, sep, value = line.partition("=")
        if sep:
            values[key.strip().lower()] = value.strip()
    return values


def inspect_prefix(python: str, source: str, *, home: Path | str | None = None,
                   os_name: str | None = None, env: Mapping[str, str] | None = None) -> Candidate:
    """Describe the environment of ``python`` from its files; never runs it, never raises."""
    python = os.path.abspath(python)
    windows = _is_windows(os_name) or python.lower().endswith(".exe")
    env = os.environ if env is None else env
    home_dir = os.fspath(home) if home is not None else os.path.expanduser("~")
    try:
        prefix = env_prefix(python)
        cfg = _pyvenv_cfg(prefix)
        conda = _conda_meta(prefix)
        version = _python_version(prefix, python, cfg, conda, windows)
        major_minor = _major_minor(version) if version else None
        sites = _site_dirs_of(prefix, major_minor, windows)
        system_site = cfg.get("include-system-site-packages", "false").lower() == "true"
        if not cfg or system_site:
            user = _user_site(home_dir, major_minor, windows, env)
            if user:
                sites.append(user)
        if cfg and system_site:
            base = cfg.get("base-prefix") or (_layout_prefix(os.path.join(cfg["home"], "python"))
                                              if cfg.get("home") else "")
            if base:
                sites += [s for s in _site_dirs_of(base, major_minor, windows) if s not in sites]
        versions: dict[str, str] = {}
        for site in sites:
            for key, (ver, _) in _packages_in(site).items():
                versions.setdefault(key, ver)
            if "theano" not in versions and "theano-pymc" not in versions:
                loose = _theano_without_metadata(site)
                if loose:
                    versions.setdefault(*loose)
        for key in _WANTED:
            if key not in versions and key in conda:
                versions[key] = conda[key]
    except (OSError, ValueError, UnicodeError):
        return Candidate(python=python, prefix=_layout_prefix(python), source=source)
    return Candidate(
        python=python,
        prefix=prefix,
        source=source,
        python_version=version,
        theano=versions.get("theano"),
        theano_pymc=versions.get("theano-pymc"),
        numpy=versions.get("numpy"),
        site_packages=sites,
    )
