"""Finding the target environment: real legacy envs, and temp trees laid out like other machines.

Discovery reads files only; these tests check it against environments that really exist (and,
for the truth of the versions, against what their own interpreters say), and against trees
laid out like Windows conda envs, Debian system Pythons and develop installs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from theanodoctor import targets
from theanodoctor.targets import Candidate, TargetError, choose, discover, inspect_prefix

LegacyEnv = Callable[[str], Path]

EXPECTED = {
    # name: (python major.minor, theano, theano_pymc, numpy, flavour)
    "healthy37": ("3.7", "1.0.5", None, "1.16.6", "Theano"),
    "numpy124": ("3.9", "1.0.5", None, "1.24.4", "Theano"),
    "numpy123": ("3.9", "1.0.5", None, "1.23.5", "Theano"),
    "py27": ("2.7", "1.0.5", None, "1.16.6", "Theano"),
    "pymc39": ("3.9", None, "1.1.2", "1.21.6", "Theano-PyMC"),
    "notheano38": ("3.8", None, None, None, None),
}


# ----------------------------------------------------------------------------- helpers


def write_exe(path: Path, marker: Path | None = None) -> Path:
    """A stand-in interpreter: a shell script that leaves a marker if anyone runs it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = f"#!/bin/sh\necho ran >> '{marker}'\n" if marker else "#!/bin/sh\nexit 0\n"
    path.write_text(body)
    path.chmod(0o755)
    return path


def write_dist(site: Path, folder: str, name: str, version: str, kind: str = "METADATA") -> Path:
    """A package record in a site-packages folder (dist-info or egg-info layout)."""
    meta = site / folder
    meta.mkdir(parents=True, exist_ok=True)
    (meta / kind).write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                             "Summary: x\n\nLong description.\nVersion: 9.9.9\n")
    return meta


def make_posix_env(root: Path, *, python: str = "3.7", version: str | None = "3.7.16",
                   packages: dict[str, str] | None = None, venv: bool = True,
                   marker: Path | None = None) -> Path:
    """A venv-like tree: bin/python, lib/pythonX.Y/site-packages, pyvenv.cfg."""
    write_exe(root / "bin" / "python", marker)
    site = root / "lib" / f"python{python}" / "site-packages"
    site.mkdir(parents=True, exist_ok=True)
    for name, ver in (packages or {}).items():
        write_dist(site, f"{name}-{ver}.dist-info", name, ver)
    if venv:
        cfg = "home = /nowhere/bin\ninclude-system-site-packages = false\n"
        if version:
            cfg += f"version = {version}\n"
        (root / "pyvenv.cfg").write_text(cfg)
    return site


def make_windows_env(root: Path, *, venv: bool = False, python: str = "3.7.16",
                     packages: dict[str, str] | None = None, conda: bool = True) -> Path:
    """A tree laid out like a Windows conda env (python.exe at the root, conda-meta/) or a
    Windows venv (Scripts/python.exe, pyvenv.cfg); both keep packages in Lib/site-packages."""
    packages = {"Theano": "1.0.5", "numpy": "1.16.6"} if packages is None else packages
    exe = root / "Scripts" / "python.exe" if venv else root / "python.exe"
    exe.parent.mkdir(parents=True, exist_ok=True)
    exe.write_bytes(b"MZ\x90\x00")  # never run; just has to be there
    site = root / "Lib" / "site-packages"
    site.mkdir(parents=True)
    for name, ver in packages.items():
        write_dist(site, f"{name}-{ver}.dist-info", name, ver)
    if venv:
        (root / "pyvenv.cfg").write_text(
            f"home = C:\\Python37\ninclude-system-site-packages = false\nversion = {python}\n")
    elif conda:
        (root / "conda-meta").mkdir()
        (root / "conda-meta" / f"python-{python}-h6244533_0.json").write_text("{}")
        (root / "conda-meta" / "python_abi-3.7-2_cp37m.json").write_text("{}")
    return site


def env_only(env: dict[str, str]) -> dict[str, str]:
    """A complete environment mapping: nothing inherited from the machine running the tests."""
    return {"PATH": "", **env}


def under(candidates: list[Candidate], *roots: Path) -> list[Candidate]:
    """The candidates that live under the given folders (the machine may have others, such as
    /opt/conda, that these tests must not depend on)."""
    real_roots = [os.path.realpath(r) for r in roots]
    return [c for c in candidates
            if any(os.path.realpath(c.prefix).startswith(r) for r in real_roots)]


def real_prefix(candidate: Candidate) -> str:
    return os.path.realpath(candidate.prefix)


# ----------------------------------------------------------------------------- real envs


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_inspect_real_env_reads_exact_versions(name: str, legacy_env: LegacyEnv,
                                               legacy_python: Callable[[str], str]) -> None:
    python = legacy_python(name)
    major_minor, theano, theano_pymc, numpy, flavour = EXPECTED[name]

    cand = inspect_prefix(python, "--python")

    assert cand.python == python  # the venv's own bin/python, not the base it links to
    assert cand.prefix == str(legacy_env(name))
    assert cand.source == "--python"
    assert (cand.theano, cand.theano_pymc, cand.numpy) == (theano, theano_pymc, numpy)
    assert cand.flavour == flavour
    assert cand.has_theano is (flavour is not None)
    assert cand.python_version is not None
    assert cand.python_version.startswith(major_minor + ".")
    site = legacy_env(name) / "lib" / f"python{major_minor}" / "site-packages"
    assert cand.site_packages == [str(site)]

    # The truth, from the environment's own interpreter (tests may run it; targets.py never does).
    code = ("import sys\ntry:\n import numpy; n = numpy.__version__\n"
            "except ImportError:\n n = None\n"
            "print('%d.%d.%d %s' % (sys.version_info[0], sys.version_info[1], "
            "sys.version_info[2], n))")
    out = subprocess.run([python, "-c", code], stdout=subprocess.PIPE, timeout=120,
                         check=True).stdout.decode().split()
    assert cand.python_version == out[0]
    assert (cand.numpy or "None") == out[1]


def test_sdist_install_of_theano_leaves_egg_info_and_it_is_read(legacy_env: LegacyEnv) -> None:
    # pip installs Theano 1.0.5 from its sdist; into a Python 3 venv that leaves an egg-info
    # folder, not a dist-info one. Keep this format covered by a real install.
    site = legacy_env("healthy37") / "lib" / "python3.7" / "site-packages"
    records = sorted(p.name for p in site.iterdir() if p.name.lower().startswith("theano-"))
    assert records == ["Theano-1.0.5-py3.7.egg-info"]
    assert (site / records[0] / "PKG-INFO").is_file()
    assert inspect_prefix(str(legacy_env("healthy37") / "bin" / "python"), "PATH").theano == "1.0.5"


@pytest.mark.parametrize("name", ["healthy37", "pymc39", "py27"])
def test_real_package_records_alone_give_the_versions(name: str, legacy_env: LegacyEnv,
                                                      tmp_path: Path) -> None:
    # Only the records pip wrote (no package code, so no fallback to theano/_version.py).
    major_minor, theano, theano_pymc, numpy, _ = EXPECTED[name]
    real_site = legacy_env(name) / "lib" / f"python{major_minor}" / "site-packages"
    site = make_posix_env(tmp_path / "env", python=major_minor, version=None)
    for record in real_site.iterdir():
        if record.name.endswith((".dist-info", ".egg-info")):
            shutil.copytree(record, site / record.name)
    cand = inspect_prefix(str(tmp_path / "env" / "bin" / "python"), "PATH")
    assert (cand.theano, cand.theano_pymc, cand.numpy) == (theano, theano_pymc, numpy)


def test_py27_virtualenv_version_info_is_read(legacy_env: LegacyEnv) -> None:
    # virtualenv writes "version_info = 2.7.18.final.0" instead of "version"
    cfg = (legacy_env("py27") / "pyvenv.cfg").read_text()
    assert "version_info" in cfg
    cand = inspect_prefix(str(legacy_env("py27") / "bin" / "python"), "VIRTUAL_ENV")
    assert cand.python_version == "2.7.18"


# ----------------------------------------------------------------------------- discovery


def test_discover_active_virtual_env(legacy_env: LegacyEnv, guard_home: Path) -> None:
    env_dir = legacy_env("healthy37")
    found = discover(env_only({"VIRTUAL_ENV": str(env_dir)}), home=guard_home)

    first = found[0]
    assert first.source == "VIRTUAL_ENV"
    assert first.python == str(env_dir / "bin" / "python")
    assert first.prefix == str(env_dir)
    assert (first.theano, first.numpy) == ("1.0.5", "1.16.6")
    assert first.python_version is not None and first.python_version.startswith("3.7.")
    assert choose(found) == first


def test_discover_fake_pyenv_with_symlinks_to_real_envs(legacy_env: LegacyEnv,
                                                        guard_home: Path) -> None:
    versions = guard_home / ".pyenv" / "versions"
    versions.mkdir(parents=True)
    for name in ("healthy37", "notheano38"):
        (versions / name).symlink_to(legacy_env(name), target_is_directory=True)
    # pyenv-virtualenv: the env lives under its base version, and a versions/<name> link
    # points at it too; it must be found once.
    base = versions / "3.9.99"
    make_posix_env(base, python="3.9", version=None, venv=False)
    (base / "include" / "python3.9").mkdir(parents=True)
    (base / "include" / "python3.9" / "patchlevel.h").write_text('#define PY_VERSION "3.9.99"\n')
    (base / "envs").mkdir()
    (base / "envs" / "pymc").symlink_to(legacy_env("pymc39"), target_is_directory=True)
    (versions / "pymc").symlink_to(base / "envs" / "pymc", target_is_directory=True)
    # garbage next to them
    (versions / "broken").symlink_to(guard_home / "gone", target_is_directory=True)
    (versions / "empty").mkdir()
    (versions / "notes.txt").write_text("not a version")

    found = discover(env_only({}), home=guard_home)
    mine = under(found, guard_home, legacy_env("healthy37").parent)

    assert [c.source for c in mine] == ["pyenv"] * 4
    assert [real_prefix(c) for c in mine] == [
        os.path.realpath(base),
        os.path.realpath(legacy_env("pymc39")),
        os.path.realpath(legacy_env("healthy37")),
        os.path.realpath(legacy_env("notheano38")),
    ]
    base_c, pymc, healthy, notheano = mine
    assert base_c.python_version == "3.9.99" and not base_c.has_theano
    assert pymc.python == str(base / "envs" / "pymc" / "bin" / "python")
    assert (pymc.theano, pymc.theano_pymc, pymc.numpy) == (None, "1.1.2", "1.21.6")
    assert healthy.python == str(versions / "healthy37" / "bin" / "python")  # not resolved
    assert (healthy.theano, healthy.numpy) == ("1.0.5", "1.16.6")
    assert notheano.flavour is None and (notheano.python_version or "").startswith("3.8.")
    # nothing with an active source: the first with Theano in discovery order
    assert choose(found) == pymc


def test_discover_pyenv_root_variable(legacy_env: LegacyEnv, guard_home: Path,
                                      tmp_path: Path) -> None:
    root = tmp_path / "elsewhere-pyenv"
    (root / "versions").mkdir(parents=True)
    (root / "versions" / "py27").symlink_to(legacy_env("py27"), target_is_directory=True)
    found = under(discover(env_only({"PYENV_ROOT": str(root)}), home=guard_home),
                  tmp_path, legacy_env("py27").parent)
    assert [(c.source, c.python_version, c.theano, c.numpy) for c in found] == [
        ("pyenv", "2.7.18", "1.0.5", "1.16.6")]


def test_discover_conda_environments_txt_with_garbage(legacy_env: LegacyEnv,
                                                      guard_home: Path) -> None:
    healthy, numpy124 = legacy_env("healthy37"), legacy_env("numpy124")
    lines = [
        b"# a comment",
        b"",
        b"relative/env",
        b"/no/such/env",
        b"\xff\xfe\x00\x01 binary junk",
        str(healthy).encode(),
        str(healthy / "pyvenv.cfg").encode(),  # a file, not an env
        str(healthy).encode() + b"   ",  # listed twice, with trailing blanks
        b"x" * 100_000,
        str(guard_home / "empty-env").encode(),
        str(numpy124).encode(),
    ]
    (guard_home / "empty-env").mkdir()
    (guard_home / ".conda").mkdir()
    (guard_home / ".conda" / "environments.txt").write_bytes(b"\r\n".join(lines))

    found = under(discover(env_only({}), home=guard_home), guard_home, healthy.parent)

    assert [(c.source, c.prefix) for c in found] == [
        ("conda-envs", str(healthy)), ("conda-envs", str(numpy124))]
    assert (found[1].theano, found[1].numpy) == ("1.0.5", "1.24.4")


def test_discover_path_tolerates_broken_entries(legacy_env: LegacyEnv, guard_home: Path,
                                                tmp_path: Path) -> None:
    healthy = legacy_env("healthy37")
    junk = tmp_path / "junkbin"
    junk.mkdir()
    (junk / "python").symlink_to(tmp_path / "missing-python")  # broken symlink
    (junk / "python3").write_text("#!/bin/sh\n")  # not executable
    (junk / "python3.7").mkdir()  # a folder with an interpreter's name
    (junk / "pythonista").write_text("")  # not a python name
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    dirs = [str(tmp_path / "nope"), "", str(junk), str(a_file), str(loop), str(healthy / "bin")]
    dirs += [str(tmp_path / f"missing{i}") for i in range(5000)]
    dirs += ["relative/bin", str(healthy / "bin")]

    found = under(discover(env_only({"PATH": os.pathsep.join(dirs)}), home=guard_home),
                  tmp_path, healthy.parent)

    # bin/ holds python, python3 and python3.7: one environment, found by its first name
    assert [(c.source, c.python) for c in found] == [("PATH", str(healthy / "bin" / "python"))]
    assert (found[0].theano, found[0].numpy) == ("1.0.5", "1.16.6")


def test_same_env_from_every_source_is_listed_once(legacy_env: LegacyEnv,
                                                   guard_home: Path) -> None:
    healthy = legacy_env("healthy37")
    (guard_home / ".conda").mkdir()
    (guard_home / ".conda" / "environments.txt").write_text(f"{healthy}\n")
    (guard_home / ".pyenv" / "versions").mkdir(parents=True)
    (guard_home / ".pyenv" / "versions" / "h").symlink_to(healthy, target_is_directory=True)
    env = env_only({"VIRTUAL_ENV": str(healthy), "PATH": str(healthy / "bin")})

    found = under(discover(env, home=guard_home), guard_home, healthy.parent)

    assert [c.source for c in found] == ["VIRTUAL_ENV"]


def test_venv_is_not_merged_into_its_base_interpreter(legacy_env: LegacyEnv,
                                                      guard_home: Path) -> None:
    # bin/python of a venv is a symlink to the base interpreter; both are listed.
    healthy = legacy_env("healthy37")
    base_bin = os.path.dirname(os.path.realpath(healthy / "bin" / "python"))
    env = env_only({"VIRTUAL_ENV": str(healthy), "PATH": base_bin})

    found = discover(env, home=guard_home)

    prefixes = [real_prefix(c) for c in found]
    assert prefixes[0] == os.path.realpath(healthy)
    assert os.path.realpath(os.path.dirname(base_bin)) in prefixes[1:]


def test_venv_and_base_in_temp_trees(tmp_path: Path, guard_home: Path) -> None:
    base = tmp_path / "base"
    write_exe(base / "bin" / "python3.7")
    (base / "bin" / "python").symlink_to("python3.7")
    write_dist(base / "lib" / "python3.7" / "site-packages", "numpy-1.16.6.dist-info",
               "numpy", "1.16.6")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(base / "bin" / "python3.7")
    write_dist(venv / "lib" / "python3.7" / "site-packages", "Theano-1.0.5.dist-info",
               "Theano", "1.0.5")
    cfg = f"home = {base / 'bin'}\ninclude-system-site-packages = false\nversion = 3.7.16\n"
    (venv / "pyvenv.cfg").write_text(cfg)
    env = env_only({"VIRTUAL_ENV": str(venv), "PATH": str(base / "bin")})

    found = under(discover(env, home=guard_home), tmp_path)
    assert [(c.source, c.prefix, c.python_version, c.theano, c.numpy) for c in found] == [
        ("VIRTUAL_ENV", str(venv), "3.7.16", "1.0.5", None),
        ("PATH", str(base), "3.7", None, "1.16.6"),
    ]

    # with the system site-packages included, the venv sees the base's numpy
    (venv / "pyvenv.cfg").write_text(cfg.replace("= false", "= true"))
    cand = inspect_prefix(str(venv / "bin" / "python"), "VIRTUAL_ENV", home=guard_home)
    assert (cand.theano, cand.numpy) == ("1.0.5", "1.16.6")
    assert cand.site_packages[-1] == str(base / "lib" / "python3.7" / "site-packages")


def test_system_prefix_holding_two_pythons(tmp_path: Path, guard_home: Path) -> None:
    # Debian-style /usr: python2.7 and python3.11 share one prefix and are two environments.
    usr = tmp_path / "usr"
    write_exe(usr / "bin" / "python2.7")
    write_exe(usr / "bin" / "python3.11")
    (usr / "bin" / "python3").symlink_to("python3.11")
    (usr / "lib" / "python2.7" / "dist-packages").mkdir(parents=True)
    # distutils-era record: the egg-info is a single file
    (usr / "lib" / "python2.7" / "dist-packages" / "Theano-1.0.5.egg-info").write_text(
        "Metadata-Version: 1.1\nName: Theano\nVersion: 1.0.5\n")
    write_dist(usr / "lib" / "python3" / "dist-packages", "numpy-1.24.4.egg-info", "numpy",
               "1.24.4", kind="PKG-INFO")
    (usr / "include" / "python3.11").mkdir(parents=True)
    (usr / "include" / "python3.11" / "patchlevel.h").write_text(
        '/* x */\n#define PY_VERSION              "3.11.2"\n')

    found = under(discover(env_only({"PATH": str(usr / "bin")}), home=guard_home), tmp_path)

    assert [(Path(c.python).name, c.prefix, c.python_version, c.theano, c.numpy)
            for c in found] == [
        ("python2.7", str(usr), "2.7", "1.0.5", None),
        ("python3", str(usr), "3.11.2", None, "1.24.4"),
    ]


def test_user_site_counts_for_plain_installs_only(tmp_path: Path, guard_home: Path) -> None:
    user_site = guard_home / ".local" / "lib" / "python3.7" / "site-packages"
    write_dist(user_site, "Theano-1.0.5.dist-info", "Theano", "1.0.5")
    base = tmp_path / "base"
    make_posix_env(base, venv=False)
    venv = tmp_path / "venv"
    make_posix_env(venv)

    assert inspect_prefix(str(base / "bin" / "python"), "PATH", home=guard_home).theano == "1.0.5"
    assert inspect_prefix(str(venv / "bin" / "python"), "PATH", home=guard_home).theano is None


def test_discover_never_runs_a_candidate(tmp_path: Path, guard_home: Path) -> None:
    marker = tmp_path / "ran.txt"
    make_posix_env(tmp_path / "venv", packages={"Theano": "1.0.5"}, marker=marker)
    make_posix_env(guard_home / ".pyenv" / "versions" / "3.7.16", venv=False, marker=marker)
    write_exe(tmp_path / "bin" / "python3.7", marker)
    env = env_only({"VIRTUAL_ENV": str(tmp_path / "venv"), "PATH": str(tmp_path / "bin")})

    found = under(discover(env, home=guard_home), tmp_path)

    assert [c.source for c in found] == ["VIRTUAL_ENV", "pyenv", "PATH"]
    assert not marker.exists()


def test_discover_tolerates_wrong_kinds_of_files(tmp_path: Path, guard_home: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    (guard_home / ".conda" / "environments.txt").mkdir(parents=True)  # a folder, not a file
    (guard_home / ".pyenv").mkdir()
    (guard_home / ".pyenv" / "versions").write_text("a file, not a folder")
    (guard_home / "miniconda3").mkdir()
    (guard_home / "miniconda3" / "envs").symlink_to(guard_home / "miniconda3" / "envs")  # loop
    env = env_only({
        "CONDA_PREFIX": str(a_file),
        "VIRTUAL_ENV": str(tmp_path / "missing"),
        "CONDA_EXE": "\0garbage",
        "PYENV_ROOT": "relative",
        "PATH": "\0:" + ":" * 50,
    })
    assert under(discover(env, home=guard_home), tmp_path) == []
    assert discover(env_only({}), home=tmp_path / "no-such-home") is not None


def test_discover_tolerates_folders_that_refuse_listing(
        tmp_path: Path, guard_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Unreadable folders (root ignores chmod, so the failure is made at the listing call).
    envs = guard_home / "miniconda3" / "envs"
    make_posix_env(envs / "locked", packages={"Theano": "1.0.5"})
    sealed = tmp_path / "sealed"
    site = make_posix_env(sealed, packages={"Theano": "1.0.5"})
    refused = {str(envs), str(site), str(tmp_path / "bin")}
    real_scandir = os.scandir

    def scandir(path: str) -> object:
        if os.fspath(path) in refused:
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    env = env_only({"VIRTUAL_ENV": str(sealed), "PATH": str(tmp_path / "bin")})
    found = under(discover(env, home=guard_home), tmp_path)
    assert [(c.source, c.python_version, c.theano) for c in found] == [
        ("VIRTUAL_ENV", "3.7.16", None)]


def test_conda_install_roots_and_conda_exe(tmp_path: Path, guard_home: Path) -> None:
    mini = guard_home / "miniconda3"
    make_posix_env(mini, venv=False, packages={"numpy": "1.21.6"})
    (mini / "conda-meta").mkdir()
    (mini / "conda-meta" / "python-3.7.12-hb7a2778_100_cpython.json").write_text("{}")
    make_posix_env(mini / "envs" / "theano", venv=False, packages={"Theano": "1.0.5"})
    (mini / "envs" / "theano" / "conda-meta").mkdir()
    (mini / "envs" / "theano" / "conda-meta" / "python-3.7.16-h7a1cb2a_0.json").write_text("{}")
    # an install elsewhere, known only from CONDA_EXE
    other = tmp_path / "tools" / "mambaforge"
    make_posix_env(other / "envs" / "pymc", python="3.9", venv=False,
                   packages={"Theano-PyMC": "1.1.2"})
    env = env_only({"CONDA_EXE": str(other / "condabin" / "conda")})

    found = under(discover(env, home=guard_home), tmp_path)

    assert [(c.source, c.prefix, c.python_version, c.flavour) for c in found] == [
        ("conda-env-dir", str(other / "envs" / "pymc"), "3.9", "Theano-PyMC"),
        ("conda-env-dir", str(mini), "3.7.12", None),
        ("conda-env-dir", str(mini / "envs" / "theano"), "3.7.16", "Theano"),
    ]


# ----------------------------------------------------------------------------- Windows layouts


def test_windows_conda_env_from_conda_prefix(tmp_path: Path, guard_home: Path) -> None:
    env_dir = tmp_path / "Anaconda3" / "envs" / "theano"
    make_windows_env(env_dir)

    found = discover(env_only({"CONDA_PREFIX": str(env_dir)}), home=guard_home,
                     os_name="Windows")

    first = found[0]
    assert (first.source, first.python, first.prefix) == (
        "CONDA_PREFIX", str(env_dir / "python.exe"), str(env_dir))
    assert (first.python_version, first.theano, first.numpy) == ("3.7.16", "1.0.5", "1.16.6")
    assert first.site_packages == [str(env_dir / "Lib" / "site-packages")]
    assert choose(found) == first


def test_windows_conda_install_in_user_profile(tmp_path: Path, guard_home: Path) -> None:
    root = guard_home / "Anaconda3"
    make_windows_env(root, python="3.8.5", packages={"numpy": "1.19.2"})
    make_windows_env(root / "envs" / "legacy", packages={"Theano": "1.0.5", "numpy": "1.16.6"})
    venv = tmp_path / "proj" / ".venv"
    make_windows_env(venv, venv=True, python="3.7.9", packages={"Theano-PyMC": "1.1.2"})
    pyenv_win = guard_home / ".pyenv" / "pyenv-win" / "versions" / "3.7.9"
    make_windows_env(pyenv_win, packages={}, conda=False)
    (pyenv_win / "python37.dll").write_bytes(b"")
    (pyenv_win / "python3.dll").write_bytes(b"")
    (pyenv_win / "include").mkdir()
    (pyenv_win / "include" / "patchlevel.h").write_text('#define PY_VERSION "3.7.9"\n')
    env = env_only({"PATH": ";".join([str(venv / "Scripts"), str(tmp_path / "nope")])})

    found = under(discover(env, home=guard_home, os_name="Windows"), tmp_path)

    assert [(c.source, c.prefix, c.python_version, c.theano, c.theano_pymc, c.numpy)
            for c in found] == [
        ("conda-env-dir", str(root), "3.8.5", None, None, "1.19.2"),
        ("conda-env-dir", str(root / "envs" / "legacy"), "3.7.16", "1.0.5", None, "1.16.6"),
        ("pyenv", str(pyenv_win), "3.7.9", None, None, None),
        ("PATH", str(venv), "3.7.9", None, "1.1.2", None),
    ]
    assert found[3].python == str(venv / "Scripts" / "python.exe")
    assert choose(found) == found[1]


# ----------------------------------------------------------------------------- metadata formats


@pytest.mark.parametrize(("folder", "name", "field"), [
    ("Theano-1.0.5.dist-info", "Theano", "theano"),
    ("theano-1.0.5.dist-info", "theano", "theano"),
    ("THEANO-1.0.5-py3.7.egg-info", "THEANO", "theano"),
    ("Theano_PyMC-1.1.2-py3.9.egg-info", "Theano-PyMC", "theano_pymc"),
    ("theano_pymc-1.1.2.dist-info", "theano.pymc", "theano_pymc"),
    ("Theano-PyMC-1.1.2.dist-info", "Theano_PyMC", "theano_pymc"),
    ("numpy-1.16.6.dist-info", "NumPy", "numpy"),
])
def test_package_names_are_normalised(tmp_path: Path, folder: str, name: str,
                                      field: str) -> None:
    site = make_posix_env(tmp_path / "env")
    kind = "PKG-INFO" if folder.endswith(".egg-info") else "METADATA"
    version = "1.1.2" if field == "theano_pymc" else ("1.16.6" if field == "numpy" else "1.0.5")
    write_dist(site, folder, name, version, kind=kind)
    cand = inspect_prefix(str(tmp_path / "env" / "bin" / "python"), "PATH")
    found = {"theano": cand.theano, "theano_pymc": cand.theano_pymc, "numpy": cand.numpy}
    assert found == {k: (version if k == field else None) for k in found}


def test_lookalike_packages_are_not_theano(tmp_path: Path) -> None:
    site = make_posix_env(tmp_path / "env")
    write_dist(site, "theano_lstm-0.0.15.dist-info", "theano-lstm", "0.0.15")
    write_dist(site, "Theano_foo-1.0.dist-info", "Theano-foo", "1.0")
    write_dist(site, "numpy_financial-1.0.0.dist-info", "numpy-financial", "1.0.0")
    write_dist(site, "theanompi-1.0.dist-info", "theanompi", "1.0")
    cand = inspect_prefix(str(tmp_path / "env" / "bin" / "python"), "PATH")
    assert (cand.theano, cand.theano_pymc, cand.numpy) == (None, None, None)


def test_metadata_wins_over_folder_name_and_folder_name_is_the_fallback(tmp_path: Path) -> None:
    site = make_posix_env(tmp_path / "env")
    write_dist(site, "Theano-1.0.4.dist-info", "Theano", "1.0.5")  # renamed by hand: trust METADATA
    (site / "numpy-1.16.6.dist-info").mkdir()  # METADATA lost
    cand = inspect_prefix(str(tmp_path / "env" / "bin" / "python"), "PATH")
    assert (cand.theano, cand.numpy) == ("1.0.5", "1.16.6")


@pytest.mark.parametrize(("stale", "current"), [("1.24.4", "1.16.6"), ("1.16.6", "1.24.4")])
def test_stale_duplicate_record_loses_to_the_newer_one(tmp_path: Path, stale: str,
                                                       current: str) -> None:
    # a failed upgrade can leave two records; the one written last is the installed one
    site = make_posix_env(tmp_path / "env")
    old = write_dist(site, f"numpy-{stale}.dist-info", "numpy", stale)
    new = write_dist(site, f"numpy-{current}.dist-info", "numpy", current)
    os.utime(old, (1_000_000, 1_000_000))
    os.utime(new, (2_000_000, 2_000_000))
    assert inspect_prefix(str(tmp_path / "env" / "bin" / "python"), "PATH").numpy == current


def test_setup_py_develop_install_via_egg_link(tmp_path: Path) -> None:
    site = make_posix_env(tmp_path / "env")
    checkout = tmp_path / "src" / "Theano"
    write_dist(checkout, "Theano.egg-info", "Theano", "1.0.5", kind="PKG-INFO")
    (site / "Theano.egg-link").write_text(f"{checkout}\n.")
    (site / "easy-install.pth").write_text(f"{checkout}\n")
    assert inspect_prefix(str(tmp_path / "env" / "bin" / "python"), "PATH").theano == "1.0.5"


def test_easy_install_egg_folder(tmp_path: Path) -> None:
    site = make_posix_env(tmp_path / "env")
    egg = site / "Theano-1.0.5-py3.7.egg"
    write_dist(egg, "EGG-INFO", "Theano", "1.0.5", kind="PKG-INFO")
    assert inspect_prefix(str(tmp_path / "env" / "bin" / "python"), "PATH").theano == "1.0.5"


@pytest.mark.parametrize(("version", "field"), [("1.0.5", "theano"), ("1.1.2", "theano_pymc")])
def test_theano_copied_in_by_hand_without_metadata(tmp_path: Path, version: str,
                                                   field: str) -> None:
    site = make_posix_env(tmp_path / "env")
    (site / "theano").mkdir()
    (site / "theano" / "__init__.py").write_text("")
    blob = json.dumps({"dirty": False, "version": version}, indent=1)
    (site / "theano" / "_version.py").write_text(f"version_json = '''\n{blob}\n'''\n")
    cand = inspect_prefix(str(tmp_path / "env" / "bin" / "python"), "PATH")
    assert getattr(cand, field) == version


def test_python_version_from_lib_folder_when_nothing_better(tmp_path: Path) -> None:
    make_posix_env(tmp_path / "env", python="3.6", venv=False)
    cand = inspect_prefix(str(tmp_path / "env" / "bin" / "python"), "PATH")
    assert cand.python_version == "3.6"
    assert cand.site_packages == [str(tmp_path / "env" / "lib" / "python3.6" / "site-packages")]


def test_inspect_of_garbage_never_raises(tmp_path: Path) -> None:
    cand = inspect_prefix(str(tmp_path / "nothing" / "bin" / "python"), "--python")
    assert cand.prefix == str(tmp_path / "nothing")
    assert (cand.python_version, cand.flavour, cand.site_packages) == (None, None, [])
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "pyvenv.cfg").write_bytes(b"\xff\xfe garbage = = =\n\x00version = x\n")
    assert inspect_prefix(str(tmp_path / "env" / "bin" / "python"), "PATH").python_version is None


# ----------------------------------------------------------------------------- resolve_python


def test_resolve_venv_folder_keeps_the_venv_interpreter(legacy_env: LegacyEnv) -> None:
    env_dir = legacy_env("healthy37")
    assert targets.resolve_python(str(env_dir)) == str(env_dir / "bin" / "python")
    python = str(env_dir / "bin" / "python")
    assert targets.resolve_python(python) == python  # a symlink, returned as given


def test_resolve_relative_and_home_paths(tmp_path: Path, guard_home: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    make_posix_env(guard_home / "envs" / "t")
    monkeypatch.chdir(guard_home / "envs")
    expected = str(guard_home / "envs" / "t" / "bin" / "python")
    assert targets.resolve_python("t") == expected
    assert targets.resolve_python("t/bin/python") == expected
    assert targets.resolve_python("~/envs/t") == expected


def test_resolve_command_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exe = write_exe(tmp_path / "bin" / "python3.7")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.chdir(tmp_path)
    assert targets.resolve_python("python3.7") == str(exe)
    with pytest.raises(TargetError, match="python3.6 is neither an existing path nor a command"):
        targets.resolve_python("python3.6")


def test_resolve_windows_layouts(tmp_path: Path) -> None:
    conda = tmp_path / "conda-env"
    make_windows_env(conda)
    venv = tmp_path / "venv"
    make_windows_env(venv, venv=True)
    assert targets.resolve_python(str(conda), os_name="Windows") == str(conda / "python.exe")
    assert targets.resolve_python(str(venv), os_name="Windows") == str(
        venv / "Scripts" / "python.exe")


def test_resolve_does_not_check_that_it_is_python(tmp_path: Path) -> None:
    exe = write_exe(tmp_path / "not-python")
    assert targets.resolve_python(str(exe)) == str(exe)  # the probe reports what it is


def test_resolve_errors(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    plain = tmp_path / "plain.txt"
    plain.write_text("")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    (tmp_path / "noexec" / "bin").mkdir(parents=True)
    (tmp_path / "noexec" / "bin" / "python").write_text("")

    cases = {
        str(tmp_path / "missing" / "python"): "does not exist",
        str(tmp_path / "empty"): "is a folder but holds no Python interpreter "
                                 r"\(looked for bin/python, Scripts/python.exe, python.exe\)",
        str(plain): "is not executable",
        str(tmp_path / "noexec"): "is not executable",
        str(tmp_path / "dangling"): "broken symbolic link",
        "": "needs an interpreter path",
        "no-such-command-xyz": "neither an existing path nor a command found on PATH",
    }
    for spec, message in cases.items():
        with pytest.raises(TargetError, match=message) as info:
            targets.resolve_python(spec)
        assert isinstance(info.value, ValueError)
        assert str(info.value).count(". ") == 0 and str(info.value).endswith(".")


# ----------------------------------------------------------------------------- choose, Candidate


def cand(source: str, theano: str | None = None, name: str = "x",
         pymc: str | None = None) -> Candidate:
    return Candidate(python=f"/envs/{name}/bin/python", prefix=f"/envs/{name}", source=source,
                     theano=theano, theano_pymc=pymc)


def test_choose_rules() -> None:
    assert choose([]) is None
    assert choose([cand("pyenv"), cand("PATH")]) is None
    # the first with Theano, in discovery order
    pick = cand("pyenv", "1.0.5", "b")
    assert choose([cand("conda-envs", name="a"), pick, cand("PATH", "1.0.5", "c")]) is pick
    # an active env with Theano beats an earlier one that is not active
    active = cand("CONDA_PREFIX", "1.0.5", "act")
    assert choose([cand("pyenv", "1.0.5"), active]) is active
    # an active env without Theano does not
    assert choose([cand("VIRTUAL_ENV"), pick]) is pick
    # a venv activated inside a conda shell is the one in front
    venv = cand("VIRTUAL_ENV", None, "v", pymc="1.1.2")
    assert choose([cand("CONDA_PREFIX", "1.0.5"), venv]) is venv
    # what the user named always wins
    named = cand("--python", name="named")
    assert choose([active, named, venv]) is named


def test_candidate_properties_and_json() -> None:
    both = cand("PATH", "1.0.5", pymc="1.1.2")
    assert (both.has_theano, both.flavour) == (True, "Theano-PyMC")
    assert (cand("PATH").has_theano, cand("PATH").flavour) == (False, None)
    assert cand("VIRTUAL_ENV").active and not cand("pyenv").active
    data = json.loads(json.dumps(both.to_dict()))
    assert data["flavour"] == "Theano-PyMC" and data["has_theano"] is True
    assert data["site_packages"] == [] and data["source"] == "PATH"
    assert hash(both) == hash(cand("PATH", "1.0.5", pymc="1.1.2"))
    with pytest.raises(AttributeError):
        both.theano = "0.9"  # type: ignore[misc]


def test_import_stays_light() -> None:
    code = ("import sys, theanodoctor.targets\n"
            "heavy = ('rich', 'click', 'yaml', 'psutil', 'pynvml', 'subprocess', 'numpy')\n"
            "print(','.join(m for m in heavy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, check=True,
                         timeout=60, cwd=str(Path(__file__).resolve().parent.parent))
    assert out.stdout.decode().strip() == ""
