"""`theanodoctor report`: the paste-ready markdown block, from real environments (with the config
sources Theano itself reported, or read by hand when `import theano` fails) and from hand-built
GPU snapshots; `--format json` stays a snapshot that `check --from` judges."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Callable

from tests.cli_helpers import doctor
from theanodoctor import engine
from theanodoctor.facts import Facts
from theanodoctor.fleet.config_sources import effective_config
from theanodoctor.render.markdown import cell, render_report
from theanodoctor.report import Report

SNAPSHOTS = Path(__file__).parent / "snapshots"


def rows(markdown: str) -> dict[str, list[str]]:
    """First cell -> the other cells, for every table row (backticks dropped)."""
    found = {}
    for line in markdown.splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            cells = [c.strip().strip("`") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            found[cells[0]] = cells[1:]
    return found


def test_markdown_of_a_healthy_env(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    (theano_home / ".theanorc").write_text("[global]\nfloatX = float32\n")
    try:
        run = doctor("report", "--python", legacy_python("healthy37"), env={"THEANO_FLAGS": "optimizer=fast_compile"})
    finally:
        (theano_home / ".theanorc").unlink()
    assert run.code == 0, run.err
    found = rows(run.out)
    assert run.out.startswith("### theanodoctor report")
    assert found["Python"][0] == "3.7.16 (64-bit, venv)"
    assert found["Theano"][0] == "Theano 1.0.5" and found["numpy"][0] == "1.16.6" and found["scipy"][0] == "1.2.1"
    assert found["pygpu"][0] == "not installed" and found["GPUs"][0] == "none"
    # where each value comes from, as Theano itself reported it
    assert found["floatX"] == ["float32", "config file ~/.theanorc"]
    assert found["optimizer"] == ["fast_compile", "THEANO_FLAGS"]
    assert found["device"] == ["cpu", "default"]
    assert "**Verdict: CPU only**" in run.out and "No problems found." in run.out
    assert str(theano_home) not in run.out  # redacted by default
    kept = doctor("report", "--python", legacy_python("healthy37"), "--no-redact")
    assert f"{theano_home}/.theano/compiledir_" in kept.out and "not redacted" in kept.out


def test_markdown_when_import_theano_fails(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    run = doctor("report", "--python", legacy_python("numpy124"), env={"THEANO_FLAGS": "device=cpu,floatX=float32"})
    assert run.code == 0, run.err
    found = rows(run.out)
    assert found["Theano"] == ["Theano 1.0.5", "import fails"]
    assert found["numpy"][0] == "1.24.4"
    # Theano said nothing: only what THEANO_FLAGS sets is known, and the report says so
    assert found["device"] == ["cpu", "THEANO_FLAGS"] and found["floatX"] == ["float32", "THEANO_FLAGS"]
    assert "optimizer" not in found
    assert "cannot be known without Theano" in run.out
    assert "**Verdict: Broken: 2 errors**" in run.out
    assert "`python-stack`: Theano 1.0.5 on Python 3.9.18 with numpy 1.24.4: does not work" in run.out
    assert "  - fix: Install numpy 1.21.6 in that environment" in run.out


def test_json_is_a_snapshot_check_from_reads(legacy_python: Callable[[str], str], theano_home: Path,
                                             tmp_path: Path) -> None:
    run = doctor("report", "--python", legacy_python("py27"), "--format", "json")
    assert run.code == 0
    doc = run.json()
    assert doc["schema_version"] == 1 and "checks" not in doc
    assert doc["system"]["hostname"] == "<redacted>"
    saved = tmp_path / "py27.json"
    saved.write_text(run.out)
    again = doctor("check", "--from", str(saved), "--format", "json")
    assert again.code == 0 and again.json()["verdict"] == "CPU only"


def report_of(name: str) -> str:
    facts = Facts.load(str(SNAPSHOTS / f"{name}.json"))
    return render_report(Report(facts, tuple(engine.run_checks(facts, engine.all_checks()))), redacted=False)


def test_markdown_of_gpu_snapshots() -> None:
    linux = rows(report_of("linux_cudnn8_headers"))
    assert linux["NVIDIA driver"] == ["440.33.01", "supports CUDA up to 10.2"]
    assert linux["GPUs"][0] == "GeForce GTX 1080 Ti (sm_61)"
    assert linux["CUDA toolkit"][0] == "10.2" and linux["CUDA toolkit"][1].startswith("/usr/local/cuda-10.2, chosen by")
    assert linux["cuDNN"] == ["8.0.5", "/usr/local/cuda-10.2"]
    assert linux["C++ compiler"] == ["g++ 11.4.0 (64-bit)", "/usr/bin/g++"]
    assert linux["device"] == ["cuda", "config file /home/bob/.theanorc"]
    text = report_of("windows_cuda102_nvrtc_missing")
    windows = rows(text)
    assert windows["OS"] == ["Windows 10", "AMD64"]
    assert windows["cuda.root"][1] == "config file C:\\Users\\alice\\.theanorc.txt"
    assert windows["GPUs"][0] == "GeForce GTX 1660 SUPER (sm_75)"
    assert "`gpuarray-dll-names`" in text and "**Verdict: Broken: 2 errors**" in text


def test_config_rows_say_when_a_key_is_unknown_to_this_theano() -> None:
    data = json.loads((SNAPSHOTS / "linux_gtx1080ti_cuda102_ready.json").read_text())
    data["target"]["stages"]["theano_config"]["values"]["lib.cnmem"] = {"registered": False, "source": None,
                                                                        "value": None}
    found = {r.key: r for r in effective_config(Facts.from_dict(data))}
    assert found["lib.cnmem"].value is None and found["lib.cnmem"].source == "not a setting of this Theano"
    assert found["gpuarray.preallocate"].value == "0.8"


def test_cells_keep_the_table_whole() -> None:
    assert cell("a|b\nc") == "a\\|b<br>c" and cell(None) == " "


def test_help_states_the_exit_codes_report_really_uses(tmp_path: Path) -> None:
    helped = doctor("report", "--help")
    assert helped.code == 0 and "--strict" not in helped.out and "unreadable --from" not in helped.out
    assert "0  the report was printed" in helped.out
    not_python = tmp_path / "python"  # runs, but is no Python: the report says so and exits 0
    not_python.write_text("#!/bin/sh\necho garbage\nexit 1\n")
    not_python.chmod(0o755)
    run = doctor("report", "--python", str(not_python), "--format", "json")
    assert run.code == 0 and run.json()["target"]["status"] != "ok", run.err
