"""Repaired config files read by real Theano: Theano 1.0.5 (healthy37) after encoding, inline
comment, device and cnmem repairs; Theano-PyMC 1.1.2 (pymc39) after the `__` section rename;
numpy 1.23 + Theano 1.0.5 (numpy123) importing after the blas.ldflags repair."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Callable

import pytest

from tests.cli_helpers import Run
from tests.fix_helpers import fix

READ = "import theano; c = theano.config; print(c.device, c.floatX, c.gpuarray.preallocate)"
TEXT = ("; my settings\r\n[global]\r\nfloatX = float32 # for the GPU later\r\ndevice = gpu\r\n\r\n"
        "[my.tools]\r\nanswer = 42\r\n\r\n[lib]\r\ncnmem = 0.75\r\n")
FIXED = (b"; my settings\r\n[global]\r\n# for the GPU later\r\nfloatX = float32\r\ndevice = cuda\r\n\r\n"
         b"[my.tools]\r\nanswer = 42\r\n\r\n[gpuarray]\r\npreallocate = 0.75\r\n")


def _python_with(python: str, code: str, rc: Path) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "THEANORC": str(rc)}
    return subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=600, env=env)


def _assert_cpu_fallback_said(run: Run) -> None:
    """device=gpu -> cuda makes the file importable, but on this machine (no GPU, no pygpu) Theano
    then runs on the CPU without a word: fix says so and exits 1, it does not claim success."""
    assert run.code == 1, run.err + run.out
    left = {b["id"]: b["message"] for b in run.json()["still_blocking"]}
    assert "silently runs everything on the CPU" in left["theano-device"], left


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig", "utf-8"])
def test_theano_reads_the_repaired_file(legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path,
                                        encoding: str) -> None:
    python = legacy_python("healthy37")
    rc = tmp_path / "theanorc"
    rc.write_bytes(TEXT.encode(encoding))
    assert _python_with(python, "import theano", rc).returncode != 0  # each of these breaks the import
    run = fix(tmp_path / "state", "--python", python, "--yes", "--format", "json", env={"THEANORC": str(rc)})
    _assert_cpu_fallback_said(run)
    assert rc.read_bytes() == FIXED
    fixes = {f for step in run.json()["steps"] for f in step["fix_ids"]}
    assert {"theanorc-inline-comment", "theanorc-device", "theanorc-obsolete"} <= fixes
    assert ("theanorc-encoding" in fixes) == (encoding != "utf-8")
    read = _python_with(python, READ, rc)
    assert read.returncode == 0, read.stderr[-2000:]
    assert read.stdout.split()[-3:] == ["cuda", "float32", "0.75"]
    assert fix(tmp_path / "state", "--undo").code == 0
    assert rc.read_bytes() == TEXT.encode(encoding)


def test_theano_pymc_reads_the_renamed_section(legacy_python: Callable[[str], str], theano_home: Path,
                                               tmp_path: Path) -> None:
    python = legacy_python("pymc39")
    rc = tmp_path / "theanorc"
    original = b"# keep me\n[global]\nfloatX = float32\n\n[dnn.conv]\nalgo_fwd = time_once\n"
    rc.write_bytes(original)
    code = "import theano; print(theano.config.dnn__conv__algo_fwd)"
    assert _python_with(python, code, rc).stdout.split()[-1] == "small"  # the dotted section is ignored
    run = fix(tmp_path / "state", "--python", python, "--yes", "--format", "json", env={"THEANORC": str(rc)})
    assert run.code == 0, run.err + run.out
    assert rc.read_bytes() == original.replace(b"[dnn.conv]", b"[dnn__conv]")
    read = _python_with(python, code, rc)
    assert read.returncode == 0 and read.stdout.split()[-1] == "time_once", read.stderr[-2000:]


def test_numpy123_imports_after_the_blas_ldflags_repair(legacy_python: Callable[[str], str], theano_home: Path,
                                                        tmp_path: Path) -> None:
    python = legacy_python("numpy123")
    rc = tmp_path / "theanorc"  # THEANORC names a file that does not exist yet
    failed = _python_with(python, "import theano", rc)
    assert failed.returncode != 0 and "blas_opt_info" in failed.stderr
    run = fix(tmp_path / "state", "--python", python, "--yes", "--format", "json", env={"THEANORC": str(rc)})
    assert run.code == 0, run.err + run.out
    doc = run.json()
    assert [s["fix_ids"] for s in doc["steps"]] == [["blas-ldflags"]]
    assert rc.read_bytes() == b"[blas]\nldflags =\n"
    assert {r["id"]: (r["before"], r["after"]) for r in doc["before_after"]}["python-stack"] == ("error", "ok")
    worked = _python_with(python, "import theano; print(repr(theano.config.blas.ldflags))", rc)
    assert worked.returncode == 0, worked.stderr[-2000:]
    assert worked.stdout.split()[-1] == "''"
    assert fix(tmp_path / "state", "--undo").code == 0
    assert not rc.exists()


# Layouts Theano's configparser reads but a line editor can miss: old Mac (CR-only) line
# endings with no final newline, a comment after a section header, an indented first option
# (configparser takes it as an option, and a same-indented line after it as another one),
# `device` set in [DEFAULT].
LAYOUTS = {
    "cr-only": (b"# c\r[global]\rdevice = gpu1\rfloatX = float32\r[lib]\rcnmem = 0.5",
                b"# c\r[global]\rdevice = cuda1\rfloatX = float32\r\r[gpuarray]\rpreallocate = 0.5\r", "cuda1"),
    "indented": (b"[global]\n\tdevice = gpu\n\tfloatX\t=\tfloat32\n",
                 b"[global]\n\tdevice = cuda\n\tfloatX\t=\tfloat32\n", "cuda"),
    "header-comment": (b"[global]  # main\ndevice = gpu\nfloatX = float32\n[lib] ; old\ncnmem = 0.4\n",
                       b"[global]  # main\ndevice = cuda\nfloatX = float32\n\n[gpuarray]\npreallocate = 0.4\n", "cuda"),
    "default-section": (b"[DEFAULT]\ndevice = gpu0\n[global]\nfloatX = float32\n",
                        b"[DEFAULT]\ndevice = cuda0\n[global]\nfloatX = float32\n", "cuda0"),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_theano_reads_the_device_repaired_in_any_layout(legacy_python: Callable[[str], str], theano_home: Path,
                                                        tmp_path: Path, layout: str) -> None:
    python = legacy_python("healthy37")
    original, fixed, device = LAYOUTS[layout]
    rc = tmp_path / "theanorc"
    rc.write_bytes(original)
    assert "old GPU back-end" in _python_with(python, "import theano", rc).stderr  # Theano reads the gpu value
    run = fix(tmp_path / "state", "--python", python, "--yes", "--format", "json", env={"THEANORC": str(rc)})
    _assert_cpu_fallback_said(run)
    assert rc.read_bytes() == fixed
    read = _python_with(python, READ, rc)
    assert read.returncode == 0, read.stderr[-2000:]
    assert read.stdout.split()[-3:-1] == [device, "float32"]
    assert fix(tmp_path / "state", "--undo").code == 0
    assert rc.read_bytes() == original


def test_python2_theano_reads_the_repaired_repeated_section(legacy_python: Callable[[str], str],
                                                             theano_home: Path, tmp_path: Path) -> None:
    # Python 2's configparser merges a repeated [global] and the later value wins: the repair
    # must edit that one (Python 3's refuses the file either way).
    python = legacy_python("py27")
    rc = tmp_path / "theanorc"
    original = b"[global]\ndevice = cuda\nfloatX = float32\n[global]\ndevice = gpu\n"
    rc.write_bytes(original)
    assert "old GPU back-end" in _python_with(python, "import theano", rc).stderr
    run = fix(tmp_path / "state", "--python", python, "--yes", "--format", "json", env={"THEANORC": str(rc)})
    _assert_cpu_fallback_said(run)
    assert rc.read_bytes() == original[:-4] + b"cuda\n"
    read = _python_with(python, "import theano; print(theano.config.device)", rc)
    assert read.stdout.split()[-1:] == ["cuda"], read.stderr[-2000:]


def test_pymc_rename_never_repeats_a_section_theano_pymc_then_refuses(legacy_python: Callable[[str], str],
                                                                       theano_home: Path, tmp_path: Path) -> None:
    python = legacy_python("pymc39")
    rc = tmp_path / "theanorc"
    original = b"[dnn__conv]\nalgo_bwd_data = deterministic\n[dnn.conv]\nalgo_fwd = time_once\n"
    rc.write_bytes(original)
    code = "import theano; print(theano.config.dnn__conv__algo_bwd_data)"
    assert _python_with(python, code, rc).stdout.split()[-1:] == ["deterministic"]
    run = fix(tmp_path / "state", "--python", python, "--yes", "--format", "json", env={"THEANORC": str(rc)})
    assert run.code == 1, run.err + run.out
    assert [n["fix_id"] for n in run.json()["notes"] if n["refused"]] == ["theanorc-pymc-names"]
    assert rc.read_bytes() == original
    read = _python_with(python, code, rc)
    assert read.stdout.split()[-1:] == ["deterministic"], read.stderr[-2000:]  # still readable
