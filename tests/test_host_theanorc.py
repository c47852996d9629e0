"""Config-file probe: real files as Windows Notepad and users write them, judged against
what real Theano 1.0.5 (the cached healthy37 environment) does with the same bytes."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable

import pytest

from theanodoctor import proc
from theanodoctor.host.theanorc import probe_theanorc, theanorc_paths

GOOD = "[global]\nDevice = cuda\nfloatX = float32\n\n[gpuarray]\npreallocate = 0.8\n"

# name -> (bytes, error_type, first line of the error, line)
BROKEN = {
    "utf8-bom": ("\ufeff[global]\ndevice = cpu\n".encode(), "MissingSectionHeaderError",
                 "File contains no section headers.", 1),
    "utf16": ("[global]\r\ndevice = cpu\r\n".encode("utf-16"), "UnicodeDecodeError",
              "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte", None),
    "no-header": (b"device = cpu\nfloatX = float32\n", "MissingSectionHeaderError",
                  "File contains no section headers.", 1),
    "duplicate-key": (b"[global]\nfloatX = float32\nfloatx = float64\n",
                      "DuplicateOptionError", "option 'floatx' in section 'global' already exists",
                      3),
    "duplicate-section": (b"[global]\ndevice = cpu\n\n[global]\nfloatX = float32\n",
                          "DuplicateSectionError", "section 'global' already exists", 4),
    "no-equals": (b"[global]\ndevice cuda\n", "ParsingError",
                  "Source contains parsing errors:", 2),
}


def write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def only_file(result: dict) -> dict:
    assert result["status"] == "ok", result["error"]
    (entry,) = result["files"]
    return entry


# ---- which files -------------------------------------------------------------------------


def test_paths_linux_default_is_only_dot_theanorc(tmp_path: Path) -> None:
    assert theanorc_paths({}, home=str(tmp_path), os_name="Linux") == [
        os.path.join(str(tmp_path), ".theanorc")]


def test_paths_windows_default_adds_theanorc_txt(tmp_path: Path) -> None:
    home = str(tmp_path)
    assert theanorc_paths({}, home=home, os_name="Windows") == [
        os.path.join(home, ".theanorc"), os.path.join(home, ".theanorc.txt")]


def test_paths_from_theanorc_use_the_os_separator(tmp_path: Path) -> None:
    home = str(tmp_path)
    linux = theanorc_paths({"THEANORC": "~/lab.rc:/etc/theano.rc"}, home=home, os_name="Linux")
    assert linux == [os.path.join(home, "lab.rc"), "/etc/theano.rc"]
    # On Windows ':' is part of drive letters; only ';' separates. No .theanorc.txt then.
    windows = theanorc_paths({"THEANORC": r"~\lab.rc;C:\theano.rc"}, home=home,
                             os_name="Windows")
    assert windows == [os.path.join(home, "lab.rc"), r"C:\theano.rc"]


def test_paths_empty_theanorc_means_no_file(tmp_path: Path) -> None:
    assert theanorc_paths({"THEANORC": ""}, home=str(tmp_path), os_name="Windows") == []


def test_paths_default_home_comes_from_env(tmp_path: Path) -> None:
    assert theanorc_paths({"HOME": "/h"}, os_name="Linux") == ["/h/.theanorc"]
    assert theanorc_paths({"USERPROFILE": "/u", "HOME": "/h"}, os_name="Windows")[0] == (
        "/u/.theanorc")


def test_real_environment_home_is_the_guarded_one(guard_home: Path) -> None:
    write(guard_home / ".theanorc", GOOD)
    entry = only_file(probe_theanorc(os_name="Linux"))
    assert entry["path"] == str(guard_home / ".theanorc")
    assert entry["parse"]["ok"]


# ---- what is in them ---------------------------------------------------------------------


def test_good_file_parses_with_lowercased_keys(tmp_path: Path) -> None:
    write(tmp_path / ".theanorc", GOOD.replace("\n", "\r\n"))
    entry = only_file(probe_theanorc({}, home=str(tmp_path), os_name="Linux", cwd=str(tmp_path)))
    assert entry["exists"] and entry["readable"]
    assert (entry["encoding"], entry["bom"], entry["line_endings"]) == ("utf-8", False, "crlf")
    assert entry["parse"]["ok"] is True
    assert entry["parse"]["sections"] == {
        "global": {"device": "cuda", "floatx": "float32"},
        "gpuarray": {"preallocate": "0.8"},
    }
    assert entry["text_head"].startswith("[global]")


def test_inline_comment_and_percent_stay_in_the_raw_value(tmp_path: Path) -> None:
    write(tmp_path / ".theanorc",
          "[global]\ndevice = cpu # later gpu\n\n[blas]\nldflags = -L%(HOME)s/lib\n")
    entry = only_file(probe_theanorc({}, home=str(tmp_path), os_name="Linux"))
    sections = entry["parse"]["sections"]
    assert sections["global"]["device"] == "cpu # later gpu"
    assert sections["blas"]["ldflags"] == "-L%(HOME)s/lib"


def test_missing_file(tmp_path: Path) -> None:
    entry = only_file(probe_theanorc({}, home=str(tmp_path), os_name="Linux"))
    assert entry["exists"] is False
    assert entry["parse"] is None


def test_directory_in_place_of_the_file_is_unreadable(tmp_path: Path) -> None:
    (tmp_path / ".theanorc").mkdir()
    entry = only_file(probe_theanorc({}, home=str(tmp_path), os_name="Linux"))
    assert entry["exists"] is True
    assert entry["readable"] is False
    assert entry["error"].startswith("IsADirectoryError")


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_files(tmp_path: Path, name: str) -> None:
    data, error_type, first_line, line = BROKEN[name]
    write(tmp_path / ".theanorc", data)
    entry = only_file(probe_theanorc({}, home=str(tmp_path), os_name="Linux"))
    parse = entry["parse"]
    assert parse["ok"] is False
    assert parse["error_type"] == error_type
    assert first_line in parse["error"]
    assert parse["line"] == line


def test_encodings_reported_from_the_bytes(tmp_path: Path) -> None:
    cases = {
        "bom": ("\ufeff[global]\r\n".encode(), "utf-8-bom", True, "crlf"),
        "le": ("[global]\r\n".encode("utf-16-le"), "utf-16-le", False, "crlf"),  # no BOM
        "be": ("[global]\n".encode("utf-16-be"), "utf-16-be", False, "lf"),
        "le-bom": (b"\xff\xfe" + "[global]\n".encode("utf-16-le"), "utf-16-le", True, "lf"),
        "be-bom": (b"\xfe\xff" + "[global]\r\nx=1\n".encode("utf-16-be"), "utf-16-be", True,
                   "mixed"),
        "latin1": ("[global]\n# caf\xe9\n".encode("latin-1"), "undecodable", False, "lf"),
        "empty": (b"", "utf-8", False, None),
    }
    for name, (data, encoding, bom, endings) in cases.items():
        rc = write(tmp_path / name, data)
        entry = only_file(probe_theanorc({"THEANORC": str(rc)}, home=str(tmp_path),
                                         os_name="Linux"))
        assert (entry["encoding"], entry["bom"], entry["line_endings"]) == (
            encoding, bom, endings), name
    be = only_file(probe_theanorc({"THEANORC": str(tmp_path / "be-bom")}, home=str(tmp_path),
                                  os_name="Linux"))
    assert be["text_head"] == "[global]\r\nx=1\n"  # shown decoded, for the user to read


# ---- files Theano will not read ----------------------------------------------------------


def test_lookalikes_linux(tmp_path: Path) -> None:
    home, cwd = tmp_path / "home", tmp_path / "project"
    write(home / ".theanorc", GOOD)
    for name in (".theanorc.txt", ".theanorc.txt.txt", ".theanorc (1).txt", "theanorc",
                 "theanorc.txt", ".theanorc~", ".bashrc"):
        write(home / name, GOOD)
    write(cwd / ".theanorc", GOOD)
    result = probe_theanorc({}, home=str(home), os_name="Linux", cwd=str(cwd))
    names = [os.path.relpath(p, tmp_path) for p in result["lookalikes"]]
    assert names == [
        "home/.theanorc (1).txt", "home/.theanorc.txt", "home/.theanorc.txt.txt",
        "home/theanorc", "home/theanorc.txt", "project/.theanorc"]


def test_lookalikes_windows_reads_theanorc_txt(tmp_path: Path) -> None:
    write(tmp_path / ".theanorc.txt", GOOD)
    write(tmp_path / ".theanorc.txt.txt", GOOD)
    result = probe_theanorc({}, home=str(tmp_path), os_name="Windows", cwd=str(tmp_path))
    assert [f["exists"] for f in result["files"]] == [False, True]
    assert result["lookalikes"] == [str(tmp_path / ".theanorc.txt.txt")]


def test_theanorc_elsewhere_makes_the_home_file_a_lookalike(tmp_path: Path) -> None:
    write(tmp_path / ".theanorc", GOOD)
    lab = write(tmp_path / "lab" / "theano.rc", GOOD)
    result = probe_theanorc({"THEANORC": str(lab)}, home=str(tmp_path), os_name="Linux",
                            cwd=str(tmp_path))
    assert [f["path"] for f in result["files"]] == [str(lab)]
    assert result["lookalikes"] == [str(tmp_path / ".theanorc")]


# ---- the same bytes through real Theano 1.0.5 ---------------------------------------------

_EXC_LINE = re.compile(r"^(?:configparser\.)?(\w+Error): (.*)$", re.MULTILINE)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_real_theano_fails_the_same_way(tmp_path: Path, name: str,
                                        legacy_python: Callable[[str], str]) -> None:
    rc = write(tmp_path / "theano.rc", BROKEN[name][0])
    env = {**os.environ, "THEANORC": str(rc), "HOME": str(tmp_path)}
    ran = proc.run([legacy_python("healthy37"), "-c", "import theano"], timeout=120, env=env)
    assert ran.ran and ran.returncode != 0, ran.stderr[-2000:]
    raised = _EXC_LINE.findall(ran.stderr)
    assert raised, ran.stderr[-2000:]
    exc_type, message = raised[-1]
    parse = only_file(probe_theanorc({"THEANORC": str(rc)}, home=str(tmp_path),
                                     os_name="Linux"))["parse"]
    assert parse["error_type"] == exc_type
    assert parse["error"] == message


def test_real_theano_sees_the_inline_comment_value(tmp_path: Path,
                                                  legacy_python: Callable[[str], str]) -> None:
    rc = write(tmp_path / "theano.rc", "[global]\ndevice = cpu # later gpu\n")
    env = {**os.environ, "THEANORC": str(rc), "HOME": str(tmp_path)}
    ran = proc.run([legacy_python("healthy37"), "-c", "import theano"], timeout=120, env=env)
    value = only_file(probe_theanorc({"THEANORC": str(rc)}, home=str(tmp_path),
                                     os_name="Linux"))["parse"]["sections"]["global"]["device"]
    assert f'Invalid value ("{value}") for configuration variable "device"' in ran.stderr
