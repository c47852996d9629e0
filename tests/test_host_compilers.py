"""Compiler probe: the real g++ of this machine and fake compilers (shell scripts)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from theanodoctor.host.compilers import cl_bits, probe_compilers, target_bits


def fake_gxx(path: Path, version: str, target: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"""#!/bin/sh
case "$1" in
  -dumpfullversion|-dumpversion) echo "{version}" ;;
  -dumpmachine) echo "{target}" ;;
  *) echo "g++: fatal error: no input files" >&2; exit 1 ;;
esac
""")
    path.chmod(0o755)
    return path


def test_real_gxx_of_this_machine() -> None:
    gxx = shutil.which("g++")
    assert gxx, "the test machine is documented to have g++ 12"
    result = probe_compilers(os_name="Linux")
    assert result["status"] == "ok", result["error"]
    entry = result["cxx"][0]
    machine = subprocess.run([gxx, "-dumpmachine"], capture_output=True, text=True).stdout.strip()
    version = subprocess.run([gxx, "-dumpfullversion"], capture_output=True,
                             text=True).stdout.strip()
    assert entry == {"name": "g++", "path": gxx, "version": version, "target": machine,
                     "bits": 64 if machine.startswith(("x86_64", "aarch64")) else entry["bits"],
                     "source": "PATH", "error": None}
    assert result["theano_cxx"] == gxx


def test_windows_path_mingw_conda_mingw_and_cl(tmp_path: Path) -> None:
    on_path = fake_gxx(tmp_path / "mingw64" / "bin" / "g++.exe", "8.1.0", "x86_64-w64-mingw32")
    prefix = tmp_path / "Anaconda3" / "envs" / "theano"
    conda = fake_gxx(prefix / "Library" / "mingw-w64" / "bin" / "g++.exe", "5.3.0",
                     "i686-w64-mingw32")
    msvc = tmp_path / "MSVC" / "14.29.30133" / "bin" / "Hostx64" / "x64" / "cl.exe"
    msvc.parent.mkdir(parents=True)
    msvc.write_bytes(b"MZ")  # not runnable here, and no version is asked of it
    env = {"Path": f"{on_path.parent};{msvc.parent}", "CONDA_PREFIX": str(prefix)}
    result = probe_compilers(env, os_name="Windows")
    assert result["status"] == "ok", result["error"]
    gxx, mingw, cl = result["cxx"]
    assert (gxx["path"], gxx["version"], gxx["target"], gxx["bits"], gxx["source"]) == (
        str(on_path), "8.1.0", "x86_64-w64-mingw32", 64, "PATH")
    assert (mingw["path"], mingw["version"], mingw["bits"], mingw["source"]) == (
        str(conda), "5.3.0", 32, "conda-mingw")
    assert (cl["name"], cl["path"], cl["bits"], cl["version"]) == ("cl", str(msvc), 64, None)
    assert result["theano_cxx"] == str(on_path)  # PATH first, as Theano does


def test_windows_without_gxx_on_path_theano_uses_conda_mingw(tmp_path: Path) -> None:
    conda = fake_gxx(tmp_path / "py" / "Library" / "mingw-w64" / "bin" / "g++.exe", "5.3.0",
                     "x86_64-w64-mingw32")
    result = probe_compilers({"PATH": r"C:\Windows"}, os_name="Windows",
                             python_prefix=str(tmp_path / "py"))
    (entry,) = result["cxx"]
    assert entry["source"] == "conda-mingw"
    assert result["theano_cxx"] == str(conda)


def test_conda_mingw_is_a_windows_rule_only(tmp_path: Path) -> None:
    fake_gxx(tmp_path / "py" / "Library" / "mingw-w64" / "bin" / "g++.exe", "5.3.0",
             "x86_64-w64-mingw32")
    result = probe_compilers({"PATH": ""}, os_name="Linux", python_prefix=str(tmp_path / "py"))
    assert result["cxx"] == []
    assert result["theano_cxx"] is None


def test_linux_needs_the_execute_bit(tmp_path: Path) -> None:
    gxx = fake_gxx(tmp_path / "bin" / "g++", "4.8.5", "x86_64-redhat-linux")
    gxx.chmod(0o644)
    assert probe_compilers({"PATH": str(gxx.parent)}, os_name="Linux")["cxx"] == []
    gxx.chmod(0o755)
    (entry,) = probe_compilers({"PATH": str(gxx.parent)}, os_name="Linux")["cxx"]
    assert (entry["version"], entry["target"], entry["bits"]) == (
        "4.8.5", "x86_64-redhat-linux", 64)


def test_broken_and_hanging_compilers_become_errors(tmp_path: Path) -> None:
    broken = tmp_path / "broken" / "g++"
    broken.parent.mkdir()
    broken.write_text("#!/bin/sh\necho 'g++: error while loading shared libraries' >&2\nexit 127\n")
    broken.chmod(0o755)
    (entry,) = probe_compilers({"PATH": str(broken.parent)}, os_name="Linux")["cxx"]
    assert entry["version"] is None
    assert entry["error"] == "g++ failed (exit 127): g++: error while loading shared libraries"

    hanging = tmp_path / "hanging" / "g++"
    hanging.parent.mkdir()
    hanging.write_text("#!/bin/sh\nsleep 60\n")
    hanging.chmod(0o755)
    result = probe_compilers({"PATH": str(hanging.parent)}, os_name="Linux", timeout=0.5)
    (entry,) = result["cxx"]
    assert "no answer within 0.5 s" in entry["error"]
    assert result["theano_cxx"] is None


@pytest.mark.parametrize(("target", "bits"), [
    ("x86_64-linux-gnu", 64), ("x86_64-w64-mingw32", 64), ("i686-w64-mingw32", 32),
    ("mingw32", 32), ("i686-pc-linux-gnu", 32), ("aarch64-linux-gnu", 64),
    ("arm-linux-gnueabihf", 32), ("amd64-portbld-freebsd13.0", 64), (None, None),
    ("weird", None),
])
def test_target_bits(target: str | None, bits: int | None) -> None:
    assert target_bits(target) == bits


@pytest.mark.parametrize(("path", "bits"), [
    (r"C:\VS\VC\Tools\MSVC\14.29.30133\bin\Hostx64\x64\cl.exe", 64),
    (r"C:\VS\VC\Tools\MSVC\14.29.30133\bin\Hostx64\x86\cl.exe", 32),
    (r"C:\Program Files (x86)\Microsoft Visual Studio 14.0\VC\bin\amd64\cl.exe", 64),
    (r"C:\Program Files (x86)\Microsoft Visual Studio 14.0\VC\bin\cl.exe", 32),
    (os.path.join("somewhere", "cl.exe"), None),
])
def test_cl_bits(path: str, bits: int | None) -> None:
    assert cl_bits(path) == bits
