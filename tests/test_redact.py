"""Redaction: a snapshot with a home path, a user name, GPU UUIDs, serials and a host name (also
inside a compile-lock line, a compiledir name, CUDA_VISIBLE_DEVICES and log text) keeps none of
them in the JSON or the markdown report, while the facts a diagnosis needs survive and judge the
same way. The last test runs the real `report` against a real environment with a planted lock."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.cli_helpers import doctor, statuses
from theanodoctor import engine
from theanodoctor.facts import Facts
from theanodoctor.redact import REDACTED, Redactor, redact, redactor_for
from theanodoctor.render.markdown import render_report
from theanodoctor.report import Report

SNAPSHOTS = Path(__file__).parent / "snapshots"
IDENTITIES = ("carol", "dgx-node-17", "GPU-5f2a7c1e", "GPU-7d8e9f0a", "1320219012345", "1320219067890",
              "/home/carol")


def snapshot(name: str = "linux_redaction_identities") -> dict[str, Any]:
    return json.loads((SNAPSHOTS / f"{name}.json").read_text())


def judged(data: dict[str, Any]) -> Report:
    facts = Facts.from_dict(data)
    return Report(facts, tuple(engine.run_checks(facts, engine.all_checks())))


def test_the_snapshot_really_holds_every_identity() -> None:
    text = json.dumps(snapshot())
    for needle in IDENTITIES:
        assert needle in text  # otherwise the tests below prove nothing


def test_no_identity_survives_in_the_json() -> None:
    redacted = redact(snapshot())
    text = json.dumps(redacted)
    for needle in IDENTITIES:
        assert needle not in text, needle
    assert redacted["system"]["hostname"] == REDACTED
    assert [g["uuid"] for g in redacted["nvidia"]["gpus"]] == ["GPU-<redacted-1>", "GPU-<redacted-2>"]
    assert [g["serial"] for g in redacted["nvidia"]["gpus"]] == [None, None]
    lock = redacted["compiledir"]["lock"]
    assert lock["raw"] == f"4242_1700000000_{REDACTED}" and lock["owner_host"] == REDACTED
    assert redacted["compiledir"]["path"].startswith("~/.theano/compiledir_Linux-5.15")
    assert redacted["compiledir"]["path"].endswith(f"-64-{REDACTED}")
    assert redacted["env"]["vars"]["PYTHONPATH"] == f"/scratch/{REDACTED}/theano-models"
    # the same stand-in for the same GPU, so the check still knows which GPU is which
    assert redacted["env"]["vars"]["CUDA_VISIBLE_DEVICES"] == "GPU-<redacted-2>,GPU-<redacted-1>"


def test_the_facts_survive_redaction() -> None:
    original, redacted = snapshot(), redact(snapshot())
    gpus = redacted["nvidia"]["gpus"]
    assert [(g["name"], g["compute_capability"], g["memory_total_mb"]) for g in gpus] == \
        [(g["name"], g["compute_capability"], g["memory_total_mb"]) for g in original["nvidia"]["gpus"]]
    assert redacted["nvidia"]["driver_version"] == "440.33.01"
    assert redacted["target"]["stages"]["distributions"] == original["target"]["stages"]["distributions"]
    assert redacted["cuda"] == original["cuda"]  # nothing personal in the toolkit facts
    assert redacted["theanorc"]["files"][0]["path"] == "~/.theanorc"
    assert redacted["theanorc"]["files"][0]["parse"] == original["theanorc"]["files"][0]["parse"]
    # Judged again, every check says the same, the UUID-keyed CUDA_VISIBLE_DEVICES included.
    before, after = judged(original), judged(redacted)
    assert [(r.id, r.status) for r in after.results] == [(r.id, r.status) for r in before.results]
    visible = next(r for r in after.results if r.id == "cuda-visible-devices")
    assert "CUDA sees GPU 1 (GeForce GTX 1080 Ti), GPU 0" in visible.outcome.message
    assert after.verdict == before.verdict


def test_no_identity_survives_in_the_markdown_report() -> None:
    data = snapshot()
    text = redactor_for(data).text(render_report(judged(data), redacted=True))
    for needle in IDENTITIES:
        assert needle not in text, needle
    assert "GeForce GTX 1080 Ti (sm_61), GeForce GTX 1080 Ti (sm_61)" in text
    assert "| NVIDIA driver | 440.33.01 |" in text
    assert "config file ~/.theanorc" in text
    assert "redacted: home folder shown as ~" in text
    plain = render_report(judged(data), redacted=False)
    assert "/home/carol/.theanorc" in plain and "not redacted" in plain


def test_an_abbreviated_or_unknown_uuid() -> None:
    red = Redactor(uuids=["GPU-5f2a7c1e-3b4d-4e6f-8a9b-0c1d2e3f4a5b", "GPU-7d8e9f0a-1b2c-4d3e-9f4a-5b6c7d8e9f0a"])
    assert red.text("GPU-7d8e,MIG-GPU-5f2a7c1e-3b4d-4e6f-8a9b-0c1d2e3f4a5b/1/0,GPU-0000aaaa") == \
        f"GPU-<redacted-2>,MIG-GPU-<redacted-1>/1/0,GPU-{REDACTED}"
    assert red.text("GPU-accelerated GPU-less") == "GPU-accelerated GPU-less"


def test_windows_home_and_host_in_any_case_and_slash() -> None:
    red = Redactor(homes=["C:\\Users\\Alice"], users=["Alice"], hosts=["LAB-PC-07"])
    assert red.text("c:/users/alice/.theanorc.txt and C:\\Users\\Alice\\x") == "~/.theanorc.txt and ~\\x"
    assert red.text("built on lab-pc-07.example.org") == f"built on {REDACTED}.example.org"
    assert red.text("D:\\data\\Alice\\run") == f"D:\\data\\{REDACTED}\\run"


def test_short_and_common_names_are_removed_only_where_a_name_must_be() -> None:
    red = Redactor(hosts=["vm"])
    text = "linker=vm, 12_1700000000_vm, compiledir_Linux-x86_64-vm-3.7.16-64"
    assert red.text(text) == (f"linker=vm, 12_1700000000_{REDACTED}, "
                              f"compiledir_Linux-x86_64-{REDACTED}-3.7.16-64")
    # "root" names a Theano option too: it is never taken for a user name found in a snapshot
    home = "C:\\Users\\root"
    found = redactor_for({"theanorc": {"home": home}, "target": {"python": home + "\\envs\\python.exe"}})
    assert "root" not in found.users
    text = "\\envs\\python.exe cuda.root, [cuda] root"
    assert found.text(home + text) == "~" + text


def test_report_redacts_a_real_snapshot(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    """The real `report` on a real env whose compiledir holds a compile lock naming this host."""
    python = legacy_python("healthy37")
    first = doctor("report", "--python", python, "--format", "json", "--no-redact")
    assert first.code == 0, first.err
    raw = first.json()
    host, compiledir = raw["system"]["hostname"], Path(raw["compiledir"]["path"])
    assert compiledir.is_relative_to(theano_home)
    lock_dir = compiledir / "lock_dir"
    lock_dir.mkdir()
    try:
        (lock_dir / "lock").write_text(f"999999_1700000000_{host}\n")
        kept = doctor("report", "--python", python, "--format", "json", "--no-redact").json()
        assert kept["compiledir"]["lock"]["owner_host"] == host
        assert str(theano_home) in json.dumps(kept)
        shared = doctor("report", "--python", python, "--format", "json")
        markdown = doctor("report", "--python", python)
    finally:
        shutil.rmtree(lock_dir)
    doc = shared.json()
    assert doc["compiledir"]["lock"]["owner_host"] == REDACTED
    assert doc["compiledir"]["lock"]["raw"] == f"999999_1700000000_{REDACTED}"
    assert doc["system"]["hostname"] == REDACTED
    for text in (shared.out, markdown.out):
        assert str(theano_home) not in text
        assert f"_{host}" not in text
    assert "~/.theano/compiledir_" in markdown.out
    assert markdown.code == 0 and "**Verdict: CPU only" in markdown.out
    # still a snapshot `check --from` judges like the original
    saved = theano_home.parent / "redacted.json"
    saved.write_text(shared.out)
    again = doctor("check", "--from", str(saved), "--format", "json")
    assert again.code == 0 and statuses(again.json())["compile-lock"] == "warn"


@pytest.mark.parametrize("name", sorted(p.stem for p in SNAPSHOTS.glob("*.json")))
def test_every_recorded_snapshot_judges_the_same_after_redaction(name: str) -> None:
    original = snapshot(name)
    before, after = judged(original), judged(redact(original))
    assert [(r.id, r.status) for r in after.results] == [(r.id, r.status) for r in before.results]
    assert after.verdict == before.verdict


def test_a_home_right_after_a_compiler_flag_and_a_compiledir_in_markdown_code() -> None:
    red = Redactor(homes=["/home/alice", "/srv/bob"], hosts=["vm"])
    assert red.text("blas.ldflags=-L/home/alice/OpenBLAS/lib -lopenblas") == "blas.ldflags=-L~/OpenBLAS/lib -lopenblas"
    assert red.text('cxxflags = "-I/srv/bob/include"') == 'cxxflags = "-I~/include"'
    assert red.text("/data/srv/bob/x x-/srv/bob/y") == "/data/srv/bob/x x-/srv/bob/y"  # not a home there
    markdown = "| `~/c/compiledir_Linux-x86_64-vm` | default |"
    assert red.text(markdown) == f"| `~/c/compiledir_Linux-x86_64-{REDACTED}` | default |"


def test_report_redacts_a_home_inside_theano_flags_values(legacy_python: Callable[[str], str],
                                                          theano_home: Path) -> None:
    python = legacy_python("healthy37")
    flags = {"THEANO_FLAGS": f"blas.ldflags=-L{theano_home}/OpenBLAS/lib -lopenblas,gcc.cxxflags=-I{theano_home}/inc"}
    raw = doctor("report", "--python", python, "--format", "json", "--no-redact", env=flags)
    assert raw.code == 0, raw.err
    assert f"-L{theano_home}/OpenBLAS/lib" in raw.out
    for shared in (doctor("report", "--python", python, "--format", "json", env=flags),
                   doctor("report", "--python", python, env=flags)):
        assert shared.code == 0, shared.err
        assert str(theano_home) not in shared.out
        assert "-L~/OpenBLAS/lib" in shared.out  # the markdown shows blas.ldflags, the JSON both
