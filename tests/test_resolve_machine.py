"""A named stack compared with a facts snapshot (hand-built GPU/Windows snapshots and a real
probe of the healthy37 environment), and `resolve --from-machine` on this machine."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_helpers import doctor
from theanodoctor import kb_stacks
from theanodoctor.facts import Facts, envelope
from theanodoctor.resolver.machine import machine_options, stack_mismatches

SNAPSHOTS = Path(__file__).parent / "snapshots"


def _stack(stack_id: str) -> kb_stacks.Stack:
    found = kb_stacks.stack(stack_id)
    assert found is not None
    return found


def _mismatches(stack_id: str, snapshot: str) -> dict[str, tuple[str, str | None]]:
    facts = Facts.load(str(SNAPSHOTS / snapshot))
    return {m.name: (m.pinned, m.found) for m in stack_mismatches(_stack(stack_id), facts)}


@pytest.mark.parametrize("stack, snapshot, expected", [
    ("win10-cuda10.2-py37", "windows_cudnn765_in_toolkit.json", {}),
    ("win10-cuda10.2-py37", "windows_cuda102_ready.json", {"cudnn": ("7.6.5", None)}),
    ("win10-cuda10.1-py37", "windows_cudnn765_in_toolkit.json", {"cuda": ("10.1", "10.2")}),
    ("linux-cuda10.2-py37", "linux_driver_too_old_cuda102.json", {"driver": (">= 440.33", "418.87.01"),
                                                                  "cudnn": ("7.6.5", None)}),
    ("linux-cuda10.2-py37", "linux_cudnn8_headers.json", {"cudnn": ("7.6.5", "8.0.5")}),
    ("linux-cuda10.2-py37", "linux_rtx3090_pygpu_missing.json", {
        "python": ("3.7", "3.9"), "numpy": ("1.16.6", "1.21.6"), "scipy": ("1.2.1", "1.7.3"),
        "pygpu": ("0.7.6 (0.7.x)", None), "cuda": ("10.2", "11.8"), "cudnn": ("7.6.5", None)}),
    ("win10-cuda10.2-py37", "linux_gtx1080ti_cuda102_ready.json", {"os": ("windows", "linux"),
                                                                   "cudnn": ("7.6.5", None)}),
    ("cpu-py37", "windows_mingw32_python64.json", {}),
    ("cpu-pymc-py39", "windows_mingw32_python64.json", {
        "python": ("3.9", "3.7"), "numpy": ("1.21.6", "1.16.6"), "scipy": ("1.7.3", "1.2.1"),
        "theano": ("Theano-PyMC==1.1.2", "Theano==1.0.5")}),
])
def test_stack_mismatches_with_snapshots(stack: str, snapshot: str,
                                         expected: dict[str, tuple[str, str | None]]) -> None:
    assert _mismatches(stack, snapshot) == expected


def test_mismatch_messages_say_found_and_pinned() -> None:
    facts = Facts.load(str(SNAPSHOTS / "linux_driver_too_old_cuda102.json"))
    driver = next(m for m in stack_mismatches(_stack("linux-cuda10.2-py37"), facts) if m.name == "driver")
    assert driver.message == "driver 418.87.01; CUDA 10.2 needs >= 440.33"
    assert driver.to_dict()["found"] == "418.87.01"


def test_machine_options_from_a_gpu_snapshot() -> None:
    facts = Facts.load(str(SNAPSHOTS / "windows_rtx3090_cuda102.json"))
    assert machine_options(facts) == {"os": "windows", "python": "3.7", "theano": "1.0.5",
                                      "gpu": "NVIDIA GeForce RTX 3090", "cc": "8.6", "driver": "531.14",
                                      "cuda": "10.2", "cudnn": None}


def test_real_healthy37_snapshot(legacy_python: Callable[[str], str]) -> None:
    """The real probe of the healthy37 env is the cpu-py37 stack, and only that one."""
    from theanodoctor.gather import Pending

    python = legacy_python("healthy37")
    facts = Pending(python, envelope(chosen=python, candidates=[])).wait()
    assert stack_mismatches(_stack("cpu-py37"), facts) == []
    other = {m.name for m in stack_mismatches(_stack("cpu-py39"), facts)}
    assert other == {"python", "numpy", "scipy"}
    gpu = {m.name for m in stack_mismatches(_stack("linux-cuda10.2-py37"), facts)}
    assert {"pygpu", "cudnn", "driver"} <= gpu
    options = machine_options(facts)
    assert options["python"] == "3.7" and options["theano"] == "1.0.5"


def test_from_machine_resolves_this_machine(legacy_python: Callable[[str], str]) -> None:
    run = doctor("resolve", "--from-machine", "--python", legacy_python("healthy37"), "--format", "json")
    assert run.code == 0, run.err
    doc = run.json()
    assert doc["constraints"]["python"] == "3.7" and doc["constraints"]["theano"] == "1.0.5"
    pins = {p["name"]: p["value"] for p in doc["pins"]}
    assert pins["python"] == "3.7" and pins["numpy"] == "1.16.6"
    # an explicit option wins over the machine's facts
    asked = doctor("resolve", "--from-machine", "--python", legacy_python("healthy37"), "--theano", "pymc-1.1.2",
                   "--format", "json")
    assert asked.json()["constraints"]["theano"] == "pymc-1.1.2"


def test_from_machine_with_a_target_that_crashes(tmp_path: Path) -> None:
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\nkill -SEGV $$\n")
    fake.chmod(0o755)
    run = doctor("resolve", "--from-machine", "--python", str(fake), "--format", "json")
    assert run.code == 3, run.err
    assert run.json()["error"]["kind"] == "probe" and "SIGSEGV" in run.json()["error"]["message"]
    missing = doctor("resolve", "--from-machine", "--python", str(tmp_path / "nothing"), "--format", "json")
    assert missing.code == 2 and missing.json()["error"]["kind"] == "usage"


def test_machine_options_with_a_gpu_the_tables_do_not_know() -> None:
    data = Facts.load(str(SNAPSHOTS / "linux_gtx1080ti_cuda102_ready.json")).to_dict()
    data["nvidia"]["gpus"][0].update(name="NVIDIA Mystery 9000", compute_capability=None)
    options = machine_options(Facts.from_dict(data))
    assert "gpu" not in options and options["cuda"] == "10.2" and options["driver"] == "440.33.01"
    data["nvidia"]["gpus"][0].update(name="GeForce GTX 1080 Ti")
    assert machine_options(Facts.from_dict(data))["cc"] == "6.1"  # from the name table
