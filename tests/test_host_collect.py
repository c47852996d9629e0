"""All host probes together: every section present, failures contained, cheap to import."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from theanodoctor import proc
from theanodoctor.host.collect import HOST_SECTIONS, collect_host, guarded


def test_collects_every_section_on_this_machine(guard_home: Path) -> None:
    (guard_home / ".theanorc").write_text("[global]\nfloatX = float32\n")
    sections = collect_host(timeout=10)
    assert list(sections) == list(HOST_SECTIONS)
    for name, section in sections.items():
        assert section["status"] in ("ok", "missing"), (name, section["error"])
        assert isinstance(section["elapsed_s"], float)
    assert sections["theanorc"]["files"][0]["path"] == str(guard_home / ".theanorc")
    assert sections["theanorc"]["files"][0]["parse"]["sections"] == {
        "global": {"floatx": "float32"}}
    json.dumps(sections)


def test_explicit_inputs_are_passed_through(tmp_path: Path) -> None:
    home = tmp_path / "winhome"
    home.mkdir()
    (home / ".theanorc.txt").write_text("[global]\ndevice = cuda\n")
    sections = collect_host(env={"PATH": "", "THEANO_FLAGS": "device=cuda"}, home=str(home),
                            os_name="Windows", timeout=5)
    assert sections["env"]["pathsep"] == ";"
    assert sections["env"]["vars"] == {"THEANO_FLAGS": "device=cuda"}
    assert [Path(f["path"]).name for f in sections["theanorc"]["files"]] == [
        ".theanorc", ".theanorc.txt"]
    assert sections["compilers"]["cxx"] == []
    assert sections["cudnn"]["status"] == "ok"


def fake(folder: Path, name: str, body: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text("#!/bin/sh\n" + body)
    (folder / name).chmod(0o755)


def test_hanging_tools_are_contained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    fake(bin_dir, "nvidia-smi", "sleep 60\n")
    fake(bin_dir, "g++", "sleep 60\n")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    started = time.monotonic()
    sections = collect_host(timeout=1)
    assert time.monotonic() - started < 30  # the 60 s sleeps were cut short
    # Without a working NVML the fake nvidia-smi is asked, and hangs.
    assert sections["nvidia"]["status"] in ("timeout", "ok")
    (gxx,) = [c for c in sections["compilers"]["cxx"] if c["path"] == str(bin_dir / "g++")]
    assert "no answer within 1 s" in gxx["error"]
    assert sections["system"]["status"] == "ok"


def test_a_probe_bug_becomes_a_crash_section() -> None:
    def broken_probe() -> dict:
        raise KeyError("toolkits")

    section = guarded(broken_probe)
    assert section["status"] == "crash"
    assert section["error"] == "KeyError: 'toolkits'"
    assert guarded(lambda: None)["status"] == "crash"  # type: ignore[arg-type,return-value]


def test_import_is_cheap() -> None:
    code = ("import sys, theanodoctor.host.collect; "
            "print(sorted(m for m in ('rich', 'click', 'yaml', 'pynvml', 'psutil') "
            "if m in sys.modules))")
    ran = proc.run([sys.executable, "-c", code], timeout=60,
                   env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert ran.ran and ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[]"
