"""`theanodoctor summarize`: real snapshots made by `report --format json --python` from the
legacy environments, hand-built GPU snapshots, check and preflight documents, an Ansible --tree
file, and files that are no snapshot at all, merged into one table."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

import pytest

from tests.cli_helpers import doctor
from theanodoctor.fleet.load import load

SNAPSHOTS = Path(__file__).parent / "snapshots"
REAL = ("healthy37", "numpy124", "py27", "pymc39")
GPU = ("linux_gtx1080ti_cuda102_ready", "linux_k80_cuda120", "linux_driver_too_old_cuda102",
       "windows_cuda102_ready")


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory, legacy_python: Callable[[str], str]) -> Path:
    """A folder as a lab admin would collect it: one file per machine, plus some strays."""
    folder = tmp_path_factory.mktemp("reports")
    home = tmp_path_factory.mktemp("home")
    env = {"HOME": str(home), "USERPROFILE": str(home)}
    for name in REAL:
        run = doctor("report", "--format", "json", "--python", legacy_python(name), env=env)
        assert run.code == 0, run.err
        (folder / f"{name}.json").write_text(run.out)
    for name in GPU:
        shutil.copy(SNAPSHOTS / f"{name}.json", folder / f"{name}.json")
    checked = doctor("check", "--format", "json", "--from", str(SNAPSHOTS / "linux_rtx3090_pygpu_missing.json"))
    (folder / "rtx3090-check.json").write_text(checked.out)
    (folder / "nested").mkdir()
    (folder / "nested" / "broken.json").write_text('{"schema_version": 1, "system": ')
    (folder / "envs.json").write_text(doctor("envs", "--format", "json", env=env).out)
    (folder / "error.json").write_text(json.dumps({"schema_version": 1, "exit_code": 3,
                                                   "error": {"kind": "internal", "message": "boom"}}))
    (folder / "list.json").write_text("[1, 2]")
    (folder / "old.json").write_text(json.dumps({"schema_version": 0, "system": {}}))
    (folder / "notes.txt").write_text("not read: not a .json file")
    # Ansible --tree: one file per host, no extension, the command's output inside "stdout"
    (folder / "gpu-node-11").write_text(json.dumps({"changed": True, "rc": 0, "stdout": checked.out}))
    return folder


def test_summarize_a_folder(reports: Path) -> None:
    run = doctor("summarize", str(reports), "--format", "json")
    assert run.code == 1, run.err  # some machines are broken
    doc = run.json()
    names = [m["name"] for m in doc["machines"] if m["kind"] != "unusable"]
    assert len(names) == len(REAL) + len(GPU) + 2 and len(set(names)) == len(names)
    by_file = {Path(m["file"]).name: m for m in doc["machines"]}
    # a file that cannot be used is a row of its own that fails the run, never only a footnote
    assert by_file["broken.json"]["kind"] == "unusable" and by_file["broken.json"]["exit_code"] == 1
    assert by_file["broken.json"]["verdict"].startswith("not JSON") and doc["without_report"] == 5
    assert by_file["healthy37.json"]["verdict"] == "CPU only"
    assert by_file["healthy37.json"]["facts"]["numpy"] == "1.16.6"
    assert by_file["numpy124.json"]["verdict"] == "Broken: 2 errors"
    assert by_file["numpy124.json"]["checks"]["theano-import"] == "error"
    assert by_file["pymc39.json"]["facts"]["Theano"] == "Theano-PyMC 1.1.2"
    assert by_file["py27.json"]["facts"]["Python"].startswith("2.7.18")
    assert by_file["linux_k80_cuda120.json"]["facts"]["GPUs"] == "Tesla K80 (sm_37), Tesla K80 (sm_37)"
    assert by_file["windows_cuda102_ready.json"]["name"] == "LAB-PC-07"  # kept its host name
    assert by_file["healthy37.json"]["name"] == "healthy37"  # redacted: the file names it
    assert by_file["gpu-node-11"]["kind"] == "check" and by_file["rtx3090-check.json"]["kind"] == "check"
    assert {"Python", "Theano", "numpy", "NVIDIA driver", "GPUs", "CUDA toolkit", "OS"} <= set(doc["differing"])
    groups = {g["cause_id"] or g["checks"][0]: g for g in doc["failures"]}
    numpy_bool = groups["numpy-bool-alias"]  # one root cause, seen by two checks, counted once
    assert numpy_bool["machines"] == ["numpy124"] and "np.bool" in numpy_bool["cause"]
    assert set(numpy_bool["checks"]) == {"theano-import", "python-stack"}
    assert numpy_bool["versions"]["numpy"] == {"1.24.4": 1}
    # a driver too old for its CUDA is one cause, whichever CUDA; the versions are listed inside
    drivers = groups["driver-too-old"]
    assert sorted(drivers["machines"]) == sorted(
        by_file[f"{n}.json"]["name"] for n in ("linux_driver_too_old_cuda102", "linux_k80_cuda120"))
    assert set(drivers["versions"]["CUDA toolkit"]) == {"10.2", "12.0"}
    pygpu = groups["theano-device"]
    assert len(pygpu["machines"]) == 2  # the same cause on both RTX 3090 documents
    unreadable = {Path(p["path"]).name: p["reason"] for p in doc["unreadable"]}
    assert set(unreadable) == {"broken.json", "envs.json", "error.json", "list.json", "old.json"}
    assert unreadable["broken.json"].startswith("not JSON")
    assert "no facts" in unreadable["envs.json"] and "boom" in unreadable["error.json"]
    assert "schema_version 0" in unreadable["old.json"]


def test_text_and_markdown(reports: Path) -> None:
    text = doctor("summarize", str(reports))
    assert text.code == 1 and "Traceback" not in text.err
    header = text.out.splitlines()[2]
    assert header.startswith("machine") and "numpy *" in header and "checks" in header
    assert "Failures by cause:" in text.out
    assert "[error] numpy-bool-alias (seen by python-stack, theano-import) on 1 machine(s): numpy124" in text.out
    broken = next(line for line in text.out.splitlines() if line.startswith("broken "))
    assert "not JSON" in broken and broken.split()[-1] == "1"  # its row, with its reason and exit code
    markdown = doctor("summarize", str(reports), "--format", "markdown")
    assert markdown.code == 1
    lines = markdown.out.splitlines()
    table = [line for line in lines if line.startswith("| ")]
    assert table[0].startswith("| machine |") and "numpy ≠" in table[0]
    widths = {line.count(" | ") for line in table}
    assert len(widths) == 1  # every row has as many cells as the header
    healthy = next(line for line in table if line.startswith("| healthy37 |"))
    numpy124 = next(line for line in table if line.startswith("| numpy124 |"))
    assert "**1.24.4**" in numpy124 and "**1.16.6**" not in healthy  # the odd one out is bold


def test_only_the_same_machines(reports: Path) -> None:
    run = doctor("summarize", str(reports / "healthy37.json"), str(reports / "py27.json"), "--format", "json")
    assert run.code == 0
    doc = run.json()
    assert doc["differing"] == ["Python"] and doc["same"]["numpy"] == "1.16.6"
    assert doc["failures"] == [] and doc["unreadable"] == []


def test_preflight_documents_carry_their_smoke_test(legacy_python: Callable[[str], str], theano_home: Path,
                                                    tmp_path: Path) -> None:
    for name in ("healthy37", "numpy124"):
        run = doctor("preflight", "--python", legacy_python(name), "--device", "cpu", "--keep-cache", "--size", "64",
                     "--repeats", "1", "--format", "json")
        (tmp_path / f"{name}-preflight.json").write_text(run.out)
    doc = doctor("summarize", str(tmp_path), "--format", "json").json()
    smoke = {Path(m["file"]).stem: m["smoke"] for m in doc["machines"]}
    assert smoke["healthy37-preflight"]["exit_code"] == 0
    assert smoke["healthy37-preflight"]["verdict"].startswith("Passed: all 6 stages")
    assert smoke["numpy124-preflight"]["verdict"].startswith("skipped: import theano already fails")
    # preflight keeps the host name (not redacted): one host, told apart by the file
    assert sorted(m["name"] for m in doc["machines"]) == [f"{doc['machines'][0]['name'].split(' (')[0]} ({n})"
                                                         for n in ("healthy37-preflight", "numpy124-preflight")]


def test_nothing_usable_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("{}")
    run = doctor("summarize", str(tmp_path), str(tmp_path / "missing.json"), "--format", "json")
    assert run.code == 2
    doc = run.json()
    assert doc["exit_code"] == 2 and {m["kind"] for m in doc["machines"]} == {"unusable"}
    assert {Path(p["path"]).name for p in doc["unreadable"]} == {"a.json", "missing.json"}
    assert "cannot read" in doc["unreadable"][-1]["reason"]
    assert doctor("summarize").code == 2


def test_load_never_raises(tmp_path: Path) -> None:
    for content in (b"\xff\xfe\x00garbage", b"null", b'{"stdout": "not json"}', b'{"facts": 3}', b""):
        path = tmp_path / "x.json"
        path.write_bytes(content)
        found = load(str(path))
        assert hasattr(found, "reason"), content
    assert hasattr(load(str(tmp_path)), "reason")  # a folder given as a file


def test_dead_machines_are_rows_that_fail_the_run(reports: Path, tmp_path: Path) -> None:
    """1 healthy host and 2 dead ones: an empty report (its stderr kept beside it) and a host that
    sent nothing. Each dead one is a row with its reason, and the run fails."""
    hosts = tmp_path / "hosts"
    hosts.write_text("node[01-03]\n")
    tmp_path = tmp_path / "reports"
    tmp_path.mkdir()
    shutil.copy(reports / "healthy37.json", tmp_path / "node01.json")
    (tmp_path / "node02.json").write_text("")
    (tmp_path / "node02.err").write_text("starting\nsh: 1: theanodoctor: not found\n")
    run = doctor("summarize", str(tmp_path), "--expect", str(hosts), "--format", "json")
    assert run.code == 1, run.err
    doc = run.json()
    rows = {m["name"]: m for m in doc["machines"]}
    assert set(rows) == {"node01", "node02", "node03"} and doc["expected"] == 3 and doc["without_report"] == 2
    assert rows["node01"]["exit_code"] == 0 and rows["node01"]["kind"] == "snapshot"
    assert rows["node02"]["kind"] == "unusable" and "theanodoctor: not found" in rows["node02"]["verdict"]
    assert rows["node03"]["kind"] == "missing" and rows["node03"]["file"] is None
    text = doctor("summarize", str(tmp_path), "--expect", "node[01-03]")
    assert text.code == 1 and text.out.startswith("3 machines (3 expected): 2 without a usable report, 0 with")
    assert doctor("summarize", str(tmp_path / "node01.json"), "--expect", "node01").code == 0
    assert doctor("summarize", "--expect", "node[01-02]").code == 1  # nothing arrived at all
    assert doctor("summarize", str(tmp_path), "--expect", str(tmp_path / "nope" / "hosts")).code == 2


def test_strict_and_require_gpu_are_preflight_rules() -> None:
    ready = [str(SNAPSHOTS / f"{n}.json") for n in ("windows_cuda102_ready", "linux_gtx1080ti_cuda102_ready")]
    assert doctor("summarize", *ready).code == 0
    strict = doctor("summarize", *ready, "--strict", "--format", "json").json()
    assert strict["exit_code"] == 1  # the GTX 1080 Ti machine has warnings
    assert {m["name"]: m["exit_code"] for m in strict["machines"]} == {
        "LAB-PC-07": 0, "gpu-node-03": 1}
    cpu = str(SNAPSHOTS / "windows_mingw32_python64.json")
    assert doctor("summarize", ready[0], "--require-gpu").code == 0
    gpu = doctor("summarize", ready[0], cpu, "--require-gpu", "--format", "json").json()
    assert gpu["machines"][1]["checks"]["nvidia-driver"] == "error"


def test_one_root_cause_is_one_group_counted_once(reports: Path, tmp_path: Path) -> None:
    """numpy 1.24.4 and 1.24.3 machines: one numpy-bool-alias group (not one per patch version,
    not one per check), each machine once, the versions listed inside."""
    for name, version in (("a", "1.24.4"), ("b", "1.24.3"), ("c", "1.24.4")):
        data = json.loads((reports / "numpy124.json").read_text())
        dists = data["target"]["stages"]["distributions"]
        dists["versions"]["numpy"] = version
        dists["packages"].get("numpy", {})["version"] = version
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    doc = doctor("summarize", str(tmp_path), "--format", "json").json()
    [group] = [g for g in doc["failures"] if g["status"] == "error"]
    assert group["cause_id"] == "numpy-bool-alias" and group["machines"] == ["a", "b", "c"]
    assert group["versions"]["numpy"] == {"1.24.3": 1, "1.24.4": 2}
    collapsed = doctor("summarize", str(tmp_path), "--by-config", "--format", "json").json()
    assert [m.get("machines") for m in collapsed["machines"]] == [["a", "c"], None]
    assert collapsed["exit_code"] == 1


def test_problems_only_and_by_config_text(reports: Path) -> None:
    run = doctor("summarize", str(reports / "healthy37.json"), str(reports / "numpy124.json"),
                 str(reports / "py27.json"), "--problems-only", "--format", "json")
    assert run.code == 1 and [m["name"] for m in run.json()["machines"]] == ["numpy124"]
    text = doctor("summarize", str(reports / "healthy37.json"), str(reports / "healthy37.json"), "--by-config")
    assert text.code == 0


def test_theano_settings_are_compared(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    python = legacy_python("healthy37")
    env = {"HOME": str(tmp_path), "USERPROFILE": str(tmp_path)}
    for name, flags in (("plain", ""), ("tuned", "floatX=float32,blas.ldflags=,optimizer=fast_compile")):
        run = doctor("report", "--format", "json", "--python", python, env={**env, "THEANO_FLAGS": flags})
        (tmp_path / f"{name}.json").write_text(run.out)
    doc = doctor("summarize", str(tmp_path), "--format", "json").json()
    assert {"Theano floatX", "Theano settings"} <= set(doc["differing"])
    facts = {m["name"]: m["facts"] for m in doc["machines"]}
    assert facts["plain"]["Theano floatX"] == "float64" and facts["tuned"]["Theano floatX"] == "float32"
    assert facts["tuned"]["Theano settings"] == "blas.ldflags=, optimizer=fast_compile"
    assert facts["plain"]["Theano settings"] == "none"


def test_identical_machines_are_judged_once_and_only_they(tmp_path: Path) -> None:
    """Copies that differ in host name, date and timings share one judgment; a copy with a newer
    driver is judged on its own (its driver is no longer too old)."""
    base = json.loads((SNAPSHOTS / "linux_driver_too_old_cuda102.json").read_text())
    for name, changes in (("a", {}), ("b", {"elapsed_s": 9.9, "created": "2027-01-01T00:00:00+00:00"}),
                          ("c", {"driver_version": "440.33.01"})):
        data = json.loads(json.dumps(base))
        data["system"]["hostname"] = f"host-{name}"
        data["system"]["elapsed_s"] = changes.get("elapsed_s", 0.5)
        data["created"] = changes.get("created", data.get("created"))
        if "driver_version" in changes:
            data["nvidia"].update(driver_version=changes["driver_version"], cuda_driver_version="10.2")
        (tmp_path / f"{name}.json").write_text(json.dumps(data, indent=1))
    assert load(str(tmp_path / "a.json")).config == load(str(tmp_path / "b.json")).config  # type: ignore[union-attr]
    assert load(str(tmp_path / "a.json")).config != load(str(tmp_path / "c.json")).config  # type: ignore[union-attr]
    doc = doctor("summarize", str(tmp_path), "--format", "json").json()
    rows = {m["name"]: m for m in doc["machines"]}
    assert rows["host-a"]["checks"] == rows["host-b"]["checks"]
    assert rows["host-a"]["checks"]["driver-min-version"] == "error"
    assert rows["host-c"]["checks"]["driver-min-version"] == "ok"
    [driver] = [g for g in doc["failures"] if g["cause_id"] == "driver-too-old"]
    assert driver["machines"] == ["host-a", "host-b"]
