"""Find the Python environment to check, by reading the file system only.

``theanodoctor check`` without ``--python`` calls :func:`discover` and :func:`choose` before
anything else, so this module never runs a candidate interpreter (the probe runs the chosen one,
once) and imports only light stdlib modules. Everything about a candidate comes from files:
``pyvenv.cfg``, ``conda-meta/``, ``include/.../patchlevel.h``, ``lib/pythonX.Y`` folder names,
and the installed packages' metadata (``*.dist-info/METADATA``, ``*.egg-info/PKG-INFO``, and the
``.egg-link`` files ``setup.py develop`` leaves behind).

Selection rule (:func:`choose`), simple and deterministic:

1. an interpreter the user named with ``--python`` always wins, Theano or not;
2. else an explicitly activated environment that has Theano: ``VIRTUAL_ENV`` before
   ``CONDA_PREFIX`` (a venv activated inside a conda shell is the one in front of PATH);
3. else the first environment with Theano, in discovery order;
4. else ``None``: no environment with Theano was found.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

SOURCES = ("--python", "CONDA_PREFIX", "VIRTUAL_ENV", "conda-envs", "conda-env-dir", "pyenv",
           "PATH")

# Bounds that keep discovery fast on odd machines (a PATH of thousands of entries, a conda
# install with a huge envs/ folder, a multi-megabyte environments.txt).
_MAX_PATH_DIRS = 256
_MAX_DIR_ENTRIES = 20_000
_MAX_ENVS = 512
_MAX_ENV_LINES = 1000
_MAX_TEXT_BYTES = 256 * 1024
_MAX_HEADER_BYTES = 16 * 1024

_CONDA_ROOTS_POSIX = ("anaconda3", "miniconda3", "miniforge3", "mambaforge", "micromamba",
                      "anaconda", "miniconda", "opt/anaconda3", "opt/miniconda3")
_CONDA_ROOTS_SYSTEM_POSIX = ("/opt/conda", "/opt/anaconda3", "/opt/miniconda3",
                             "/opt/miniforge3", "/usr/local/anaconda3", "/usr/local/miniconda3")
_CONDA_ROOTS_WINDOWS = ("Anaconda3", "Miniconda3", "Miniforge3", "Mambaforge", "micromamba",
                        "anaconda3", "miniconda3", "miniforge3", "mambaforge")

# The packages whose versions decide what the doctor says; keys are normalised names.
_WANTED = ("theano", "theano-pymc", "numpy")
_META_ENTRY = re.compile(r"^(theano[-_.]pymc|theano|numpy)(?:-(\d[^-]*))?(?:-.*)?$", re.IGNORECASE)
_PYTHON_NAME = re.compile(r"^python(\d+(?:\.\d+)?)?$")
_PYTHON_NAME_WIN = re.compile(r"^python(\d+(?:\.\d+)?)?\.exe$", re.IGNORECASE)
_MAJOR_MINOR = re.compile(r"(\d+)\.(\d+)")
_FULL_VERSION = re.compile(r"^(\d+(?:\.\d+){0,2})")
_VERSIONED_NAME = re.compile(r"^python(\d+\.\d+)(?:\.exe)?$", re.IGNORECASE)

Found = Iterator[tuple[str, str]]  # (interpreter path, source label)


class TargetError(ValueError):
    """The target the user named cannot be used; the message is one sentence for the user."""


@dataclass(frozen=True)
class Candidate:
    python: str  # interpreter path as found (a venv's bin/python is kept, not resolved)
    prefix: str  # the environment folder
    source: str  # one of SOURCES
    python_version: str | None = None
    theano: str | None = None
    theano_pymc: str | None = None
    numpy: str | None = None
    site_packages: list[str] = field(default_factory=list, hash=False)

    @property
    def has_theano(self) -> bool:
        return self.theano is not None or self.theano_pymc is not None

    @property
    def flavour(self) -> str | None:
        # Both install the same `theano` package; the fork's metadata is the more specific clue.
        if self.theano_pymc is not None:
            return "Theano-PyMC"
        if self.theano is not None:
            return "Theano"
        return None

    @property
    def active(self) -> bool:
        """Named by the user or activated in the calling shell."""
        return self.source in ("--python", "VIRTUAL_ENV", "CONDA_PREFIX")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["has_theano"] = self.has_theano
        data["flavour"] = self.flavour
        return data


# --------------------------------------------------------------------------- small helpers


def _is_windows(os_name: str | None) -> bool:
    if os_name is None:
        return os.name == "nt"
    name = os_name.lower()
    return name.startswith("win") or name == "nt"


def _read_text(path: str, limit: int = _MAX_TEXT_BYTES) -> str:
    """The head of a text file, or "" when it cannot be read; never raises."""
    try:
        if not os.path.isfile(path):  # a folder or a FIFO in its place must not block us
            return ""
        with open(path, "rb") as fh:
            return fh.read(limit).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return ""


def _list_dir(path: str, limit: int = _MAX_DIR_ENTRIES) -> list[os.DirEntry[str]]:
    """Sorted entries of a folder (at most ``limit``), or [] when it cannot be read."""
    try:
        with os.scandir(path) as it:
            entries = []
            for entry in it:
                entries.append(entry)
                if len(entries) >= limit:
                    break
    except (OSError, ValueError):
        return []
    return sorted(entries, key=lambda e: e.name)


def _is_dir(path: str) -> bool:
    try:
        return os.path.isdir(path)
    except (OSError, ValueError):
        return False


def _natural_key(name: str) -> list[Any]:
    return [(0, int(part), "") if part.isdigit() else (1, 0, part)
            for part in re.split(r"(\d+)", name) if part]


def _norm_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _same_key(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def _runnable(path: str, windows: bool) -> bool:
    try:
        if not os.path.isfile(path):
            return False
        return windows or os.name != "posix" or os.access(path, os.X_OK)
    except (OSError, ValueError):
        return False


_LAYOUTS_POSIX = (("bin", "python"), ("bin", "python3"))
_LAYOUTS_WINDOWS = (("Scripts", "python.exe"), ("python.exe",))


def _interpreter_in(folder: str, windows: bool) -> str | None:
    """The interpreter of an environment folder: venv, conda env or base install."""
    layouts = _LAYOUTS_WINDOWS + _LAYOUTS_POSIX if windows else _LAYOUTS_POSIX + _LAYOUTS_WINDOWS
    for parts in layouts:
        path = os.path.join(folder, *parts)
        try:
            if os.path.isfile(path):
                return path
        except (OSError, ValueError):
            continue
    return None


# --------------------------------------------------------------------------- --python


def resolve_python(spec: str, os_name: str | None = None) -> str:
    """Turn what the user passed as ``--python`` into an interpreter path.

    ``spec`` may be an interpreter, a venv or conda env folder, or a command on PATH. The result
    is absolute but not resolved: a venv's ``bin/python`` symlinks to its base interpreter, and
    running the base would check the wrong environment. Whether the file really is Python is
    left to the probe, which reports it as a finding.
    """
    windows = _is_windows(os_name)
    if not spec or "\0" in spec:
        raise TargetError(
            "--python needs an interpreter path, an environment folder or a command name.")
    path = os.path.expanduser(spec)
    separators = ("/", "\\") if windows else ("/", os.sep)
    if not os.path.lexists(path):
        if any(sep in spec for sep in separators) or os.path.isabs(path):
            raise TargetError(f"{spec} does not exist.")
        found = shutil.which(spec)
        if found is None:
            raise TargetError(f"{spec} is neither an existing path nor a command found on PATH.")
        path = found
    if not os.path.exists(path):
        raise TargetError(f"{spec} is a broken symbolic link (its target does not exist).")
    if os.path.isdir(path):
        exe = _interpreter_in(path, windows)
        if exe is None:
            raise TargetError(
                f"{spec} is a folder but holds no Python interpreter "
                "(looked for bin/python, Scripts/python.exe, python.exe)."
            )
        path = exe
    elif not os.path.isfile(path):
        raise TargetError(f"{spec} is not a regular file, so it cannot be a Python interpreter.")
    if not _runnable(path, windows):
        raise TargetError(f"{path} is not executable (no execute permission).")
    return os.path.abspath(path)


# --------------------------------------------------------------------------- inspection


def _layout_prefix(exe: str) -> str:
    parent = os.path.dirname(exe)
    if os.path.basename(parent).lower() in ("bin", "scripts"):
        return os.path.dirname(parent)
    return parent


def _is_env_root(prefix: str) -> bool:
    return (os.path.isfile(os.path.join(prefix, "pyvenv.cfg"))
            or _is_dir(os.path.join(prefix, "conda-meta")))


def env_prefix(python: str) -> str:
    """The environment an interpreter belongs to, without resolving venv symlinks.

    A venv or conda env is recognised where the interpreter sits (``pyvenv.cfg``,
    ``conda-meta/``); any other interpreter is followed through symlinks to its real install
    (``/bin/python3`` -> ``/usr/bin/python3.11`` -> ``/usr``).
    """
    exe = os.path.abspath(python)
    prefix = _layout_prefix(exe)
    if _is_env_root(prefix):
        return prefix
    real = os.path.realpath(exe)
    return _layout_prefix(real) if real != exe else prefix


def _pyvenv_cfg(prefix: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in _read_text(os.path.join(prefix, "pyvenv.cfg")).splitlines():
        key, sep, value = line.partition("=")
        if sep:
            values[key.strip().lower()] = value.strip()
    return values


def _conda_meta(prefix: str) -> dict[str, str]:
    """Package name -> version from ``conda-meta/<name>-<version>-<build>.json`` file names."""
    found: dict[str, str] = {}
    for entry in _list_dir(os.path.join(prefix, "conda-meta")):
        if not entry.name.endswith(".json"):
            continue
        parts = entry.name[:-5].rsplit("-", 2)
        if len(parts) == 3:
            found.setdefault(_norm_name(parts[0]), parts[1])
    return found


def _full_version(text: str) -> str | None:
    match = _FULL_VERSION.match(text.strip())
    return match.group(1) if match else None


def _major_minor(text: str) -> str | None:
    match = _MAJOR_MINOR.search(text)
    return f"{match.group(1)}.{match.group(2)}" if match else None


def _lib_versions(prefix: str) -> list[str]:
    versions = []
    for entry in _list_dir(os.path.join(prefix, "lib")):
        match = re.fullmatch(r"python(\d+\.\d+)", entry.name)
        if match:
            versions.append(match.group(1))
    return versions


def _patchlevel(prefix: str, major_minor: str | None, windows: bool) -> str | None:
    headers = [os.path.join(prefix, "include", "patchlevel.h")] if windows else []
    include = os.path.join(prefix, "include")
    dirs = [e.name for e in _list_dir(include) if e.name.startswith("python")]
    if major_minor:
        dirs = [d for d in dirs if re.fullmatch(rf"python{re.escape(major_minor)}[a-z]*", d)]
    if len(dirs) == 1:
        headers.append(os.path.join(include, dirs[0], "patchlevel.h"))
    for header in headers:
        match = re.search(r'#define\s+PY_VERSION\s+"([^"]+)"', _read_text(header, 8192))
        if match:
            return _full_version(match.group(1))
    return None


def _python_version(prefix: str, exe: str, cfg: dict[str, str], conda: dict[str, str],
                    windows: bool) -> str | None:
    for key in ("version", "version_info"):
        if cfg.get(key):
            return _full_version(cfg[key])
    if "python" in conda:
        return _full_version(conda["python"])
    # X.Y from the interpreter's real file name (python3.7), a pythonXY.dll, or lib/pythonX.Y.
    major_minor = None
    name = os.path.basename(os.path.realpath(exe))
    match = _VERSIONED_NAME.match(name)
    if match:
        major_minor = match.group(1)
    if major_minor is None and windows:
        dlls = [e.name for e in _list_dir(prefix)
                if re.fullmatch(r"python\d{2,3}\.dll", e.name, re.I)]
        if len(dlls) == 1:
            digits = dlls[0][6:-4]
            major_minor = f"{digits[0]}.{digits[1:]}"
    if major_minor is None:
        libs = _lib_versions(prefix)
        if len(libs) == 1:
            major_minor = libs[0]
    return _patchlevel(prefix, major_minor, windows) or major_minor


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


def _metadata_file(path: str, is_dir: bool, suffix: str) -> str:
    if not is_dir:
        return path  # a distutils egg-info is a single PKG-INFO-style file
    if suffix == ".dist-info":
        return os.path.join(path, "METADATA")
    if suffix == ".egg":
        return os.path.join(path, "EGG-INFO", "PKG-INFO")
    return os.path.join(path, "PKG-INFO")


def _read_name_version(path: str) -> tuple[str | None, str | None]:
    name = version = None
    for line in _read_text(path, _MAX_HEADER_BYTES).splitlines():
        if not line.strip():
            break  # end of the header block
        key, sep, value = line.partition(":")
        if not sep:
            continue
        key = key.strip().lower()
        if key == "name" and name is None:
            name = value.strip()
        elif key == "version" and version is None:
            version = value.strip()
    return name, version


def _egg_link_targets(site: str, entry: os.DirEntry[str]) -> Iterator[tuple[str, bool, str]]:
    """Egg-info folders of a ``setup.py develop`` install named by an ``.egg-link`` file."""
    lines = _read_text(entry.path, 4096).splitlines()
    if not lines or not lines[0].strip():
        return
    project = os.path.join(site, lines[0].strip())  # absolute in practice; join keeps it
    for sub in _list_dir(project):
        if sub.name.endswith(".egg-info"):
            yield sub.path, sub.is_dir(), ".egg-info"


def _packages_in(site: str) -> dict[str, tuple[str, float]]:
    """Wanted package name -> (version, metadata mtime) found in one site-packages folder."""
    found: dict[str, tuple[str, float]] = {}
    for entry in _list_dir(site):
        hits: list[tuple[str, bool, str]] = []
        name = entry.name
        try:
            if name.endswith(".egg-link"):
                if _META_ENTRY.match(name[: -len(".egg-link")]):
                    hits.extend(_egg_link_targets(site, entry))
            else:
                for suffix in (".dist-info", ".egg-info", ".egg"):
                    if name.endswith(suffix) and _META_ENTRY.match(name[: -len(suffix)]):
                        hits.append((entry.path, entry.is_dir(), suffix))
                        break
        except OSError:
            continue
        for path, is_dir, suffix in hits:
            meta_name, version = _read_name_version(_metadata_file(path, is_dir, suffix))
            if not meta_name or not version:
                # Unreadable metadata: the folder name still says Name-Version.
                match = _META_ENTRY.match(os.path.basename(path)[: -len(suffix)])
                if not match or not match.group(2):
                    continue
                meta_name, version = match.group(1), match.group(2).replace("_", "-")
            key = _norm_name(meta_name)
            if key not in _WANTED:
                continue
            try:
                mtime = os.stat(path).st_mtime
            except OSError:
                mtime = 0.0
            # A failed upgrade can leave two records; the newer one is what pip wrote last.
            if key not in found or mtime > found[key][1]:
                found[key] = (version, mtime)
    return found


def _theano_without_metadata(site: str) -> tuple[str, str] | None:
    """A ``theano`` package copied in by hand: version from versioneer's ``_version.py``."""
    package = os.path.join(site, "theano")
    if not os.path.isfile(os.path.join(package, "__init__.py")):
        return None
    text = _read_text(os.path.join(package, "_version.py"), 8192)
    match = re.search(r'"version"\s*:\s*"([^"]+)"', text)
    if not match:
        return None
    version = match.group(1)
    numbers = [int(n) for n in re.findall(r"\d+", _full_version(version) or "0")[:3]]
    # Theano stopped at 1.0.5; the PyMC fork continued from 1.0.11 on.
    return ("theano-pymc" if numbers > [1, 0, 5] else "theano"), version


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


# --------------------------------------------------------------------------- discovery


def _from_folder(folder: str, source: str, windows: bool) -> Found:
    if folder and _is_dir(folder):
        exe = _interpreter_in(folder, windows)
        if exe and _runnable(exe, windows):
            yield exe, source


def _envs_in(root: str, source: str, windows: bool) -> Found:
    for entry in _list_dir(os.path.join(root, "envs"), limit=_MAX_ENVS):
        yield from _from_folder(entry.path, source, windows)


def _environments_txt(home: str, windows: bool) -> Found:
    text = _read_text(os.path.join(home, ".conda", "environments.txt"))
    for line in text.splitlines()[:_MAX_ENV_LINES]:
        line = line.strip()
        if not line or line.startswith("#") or "\0" in line or "\ufffd" in line or len(line) > 4096:
            continue
        if not (os.path.isabs(line) or (windows and re.match(r"^[A-Za-z]:[\\/]", line))):
            continue
        yield from _from_folder(line, "conda-envs", windows)


def _conda_roots(env: Mapping[str, str], home: str, windows: bool) -> list[str]:
    roots: list[str] = []
    conda_exe = env.get("CONDA_EXE", "")
    if conda_exe:
        parent = os.path.dirname(conda_exe)
        if os.path.basename(parent).lower() in ("bin", "scripts", "condabin"):
            roots.append(os.path.dirname(parent))
    if env.get("MAMBA_ROOT_PREFIX"):
        roots.append(env["MAMBA_ROOT_PREFIX"])
    if windows:
        roots += [os.path.join(home, name) for name in _CONDA_ROOTS_WINDOWS]
        local = env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        roots += [os.path.join(local, "Continuum", n) for n in ("anaconda3", "miniconda3")]
        program_data = env.get("PROGRAMDATA") or env.get("ProgramData") or "C:\\ProgramData"
        roots += [os.path.join(program_data, n) for n in ("Anaconda3", "Miniconda3", "Miniforge3")]
    else:
        roots += [os.path.join(home, *name.split("/")) for name in _CONDA_ROOTS_POSIX]
        roots += list(_CONDA_ROOTS_SYSTEM_POSIX)
    # envs created where the install is not writable
    roots.append(os.path.join(home, ".conda"))
    return roots


def _conda_dirs(env: Mapping[str, str], home: str, windows: bool) -> Found:
    for root in _conda_roots(env, home, windows):
        if not _is_dir(root):
            continue
        yield from _from_folder(root, "conda-env-dir", windows)  # the base env
        yield from _envs_in(root, "conda-env-dir", windows)


def _pyenv(env: Mapping[str, str], home: str, windows: bool) -> Found:
    roots = [env.get("PYENV_ROOT", ""), os.path.join(home, ".pyenv")]
    for root in filter(None, roots):
        # pyenv, and pyenv-win (whose PYENV_ROOT may be either folder)
        for versions in (os.path.join(root, "versions"),
                         os.path.join(root, "pyenv-win", "versions")):
            entries = sorted(_list_dir(versions, limit=_MAX_ENVS),
                             key=lambda e: _natural_key(e.name))
            for entry in entries:
                yield from _from_folder(entry.path, "pyenv", windows)
                yield from _envs_in(entry.path, "pyenv", windows)  # pyenv-virtualenv


def _path_dirs(env: Mapping[str, str], windows: bool) -> Found:
    sep = ";" if windows else ":"
    pattern = _PYTHON_NAME_WIN if windows else _PYTHON_NAME
    seen: set[str] = set()
    for folder in env.get("PATH", "").split(sep):
        folder = folder.strip().strip('"')
        if not folder or folder in seen:
            continue
        seen.add(folder)
        if len(seen) > _MAX_PATH_DIRS:
            break
        base = os.path.basename(folder.rstrip("/\\")).lower()
        # pyenv/asdf shims are shell scripts that pick a version at run time, and the Windows
        # Store aliases are stubs; the real installs are found on their own.
        if base in ("shims", "windowsapps"):
            continue
        names = [e for e in _list_dir(folder) if pattern.match(e.name)]
        for entry in sorted(names, key=lambda e: _natural_key(e.name)):
            if _runnable(entry.path, windows):
                yield entry.path, "PATH"


def _sources(env: Mapping[str, str], home: str, windows: bool) -> Iterator[Found]:
    for var in ("CONDA_PREFIX", "VIRTUAL_ENV"):
        yield _from_folder(env.get(var, ""), var, windows)
    yield _environments_txt(home, windows)
    yield _conda_dirs(env, home, windows)
    yield _pyenv(env, home, windows)
    yield _path_dirs(env, windows)


def _dedupe_keys(python: str, prefix: str) -> set[tuple[str, ...]]:
    """Keys under which two found interpreters are the same environment.

    A venv's bin/python resolves to its base interpreter, yet the venv is a different
    environment: a venv or conda env is one environment per prefix, whatever its binaries
    point at. A plain install is the same when its binary is, and one prefix such as /usr
    may hold several (python2.7 and python3.11), told apart by the real file name.
    """
    if _is_env_root(prefix):
        return {("env", _same_key(prefix))}
    real = os.path.realpath(python)
    match = _VERSIONED_NAME.match(os.path.basename(real))
    return {("base", _same_key(prefix), match.group(1) if match else ""),
            ("exe", os.path.normcase(real))}


def discover(env: Mapping[str, str] | None = None, home: Path | str | None = None,
             os_name: str | None = None) -> list[Candidate]:
    """Every Python environment found, in the order of SOURCES; never raises."""
    env = os.environ if env is None else env
    windows = _is_windows(os_name)
    home_dir = os.fspath(home) if home is not None else os.path.expanduser("~")
    found: list[Candidate] = []
    seen: set[tuple[str, ...]] = set()
    for source in _sources(env, home_dir, windows):
        try:
            for python, label in source:
                try:
                    python = os.path.abspath(python)
                    keys = _dedupe_keys(python, env_prefix(python))
                    if keys & seen:
                        continue
                    seen |= keys
                    found.append(inspect_prefix(python, label, home=home_dir,
                                                os_name=os_name, env=env))
                except (OSError, ValueError, UnicodeError):
                    continue
        except (OSError, ValueError, UnicodeError, RecursionError):
            continue  # one broken source must not hide the others
    return found


def choose(candidates: Iterable[Candidate]) -> Candidate | None:
    """The environment to check; the rule is in the module docstring."""
    ordered = list(candidates)
    for candidate in ordered:
        if candidate.source == "--python":
            return candidate
    for source in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        for candidate in ordered:
            if candidate.source == source and candidate.has_theano:
                return candidate
    for candidate in ordered:
        if candidate.has_theano:
            return candidate
    return None
