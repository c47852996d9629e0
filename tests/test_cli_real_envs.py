"""`theanodoctor check` end to end against the real legacy environments, as a user runs it.

Every run is a real subprocess of the CLI probing a real cached environment (see
tests/legacy_envs.py): the verdict, the exit code, the statuses of the checks that matter and the
cause named are asserted for the text and the JSON output, and every JSON document is judged a
second time from the file (`check --from`) to prove the snapshot carries everything the verdict
rests on. Tests that import real Theano use ``theano_home`` so its C modules compile once.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable, NamedTuple

import pytest

from tests.cli_helpers import Run, doctor, result, statuses
from theanodoctor.render.text import GLYPHS

ANSI = re.compile(r"\x1b\[[0-9;]*m")
# One report line per check: "<glyph> <check-id>: <message>".
CHECK_LINE = re.compile(r"^(?P<glyph>\S+) (?P<id>[a-z0-9]+(?:-[a-z0-9]+)+): (?P<message>.*)$", re.M)
STATUS_OF_GLYPH = {glyph: status for status, (fancy, plain, _) in GLYPHS.items() for glyph in (fancy, plain)}


class Expect(NamedTuple):
    code: int
    verdict: str
    statuses: dict[str, str]
    messages: dict[str, str]  # check id -> text its message contains
    details: dict[str, str] = {}  # check id -> text one of its details contains


EXPECTED = {
    "healthy37": Expect(
        0, "CPU only",
        {"target-probe": "ok", "python-stack": "ok", "theano-import": "ok", "theano-device": "ok",
         "cxx-compiler": "ok", "gpu-path": "ok"},
        {"target-probe": "Python 3.7.16", "python-stack": "a verified combination",
         "theano-import": "Theano 1.0.5 imports", "theano-device": "device=cpu"},
    ),
    "numpy124": Expect(
        1, "Broken: 2 errors",
        {"target-probe": "ok", "python-stack": "error", "theano-import": "error"},
        {"python-stack": "numpy 1.24.4: does not work",
         "theano-import": "module 'numpy' has no attribute 'bool'"},
        {"theano-import": "known failure: numpy-bool-alias"},
    ),
    "numpy123": Expect(
        1, "Broken: 2 errors",
        {"target-probe": "ok", "python-stack": "error", "theano-import": "error"},
        {"python-stack": "numpy 1.23.5: does not work", "theano-import": "blas_opt_info"},
        {"theano-import": "known failure: numpy-blas-opt-info"},
    ),
    "py27": Expect(
        0, "CPU only",
        {"target-probe": "ok", "python-stack": "ok", "theano-import": "ok", "cxx-compiler": "ok"},
        {"target-probe": "Python 2.7.18", "python-stack": "Theano 1.0.5 on Python 2.7.18",
         "theano-import": "Theano 1.0.5 imports"},
    ),
    "pymc39": Expect(
        0, "CPU only",
        {"target-probe": "ok", "python-stack": "ok", "theano-import": "ok", "cxx-compiler": "ok"},
        {"python-stack": "Theano-PyMC 1.1.2 on Python 3.9", "theano-import": "Theano-PyMC 1.1.2 imports"},
    ),
    "notheano38": Expect(
        1, "No Theano: 1 error (`theanodoctor resolve` / `provision` build an environment)",
        {"target-probe": "ok", "python-stack": "error", "theano-import": "skipped",
         "theano-device": "skipped"},
        {"target-probe": "Python 3.8", "python-stack": "neither Theano nor Theano-PyMC"},
    ),
}


# --------------------------------------------------------------------------- helpers


def check_json(*args: str, env: dict[str, str] | None = None) -> tuple[Run, dict[str, Any]]:
    """`check ... --format json`: stdout is exactly one JSON document that agrees with the exit code."""
    run = doctor("check", *args, "--format", "json", env=env)
    assert "Traceback" not in run.err, run.err
    doc = run.json()
    assert doc["schema_version"] == 1
    assert doc["exit_code"] == run.code
    assert isinstance(doc["verdict"], str) and doc["verdict"]
    assert isinstance(doc["facts"], dict) and doc["facts"]["schema_version"] == 1
    assert doc["facts"]["target"]["status"] in ("ok", "error", "crash", "timeout", "not-found", "skipped")
    return run, doc




def assert_expected(doc: dict[str, Any], expect: Expect) -> None:
    assert doc["verdict"] == expect.verdict
    assert doc["exit_code"] == expect.code
    assert {k: statuses(doc).get(k) for k in expect.statuses} == expect.statuses
    for check_id, text in expect.messages.items():
        assert text in result(doc, check_id)["message"]
    for check_id, text in expect.details.items():
        assert any(text in d for d in result(doc, check_id)["details"]), result(doc, check_id)["details"]


def _save(doc: dict[str, Any], tmp_path: Path) -> Path:
    path = tmp_path / f"saved-{len(list(tmp_path.glob('saved-*.json')))}.json"
    path.write_text(json.dumps(doc))
    return path


def rejudge(doc: dict[str, Any], tmp_path: Path, *args: str) -> dict[str, Any]:
    """Save a JSON document and judge it again with `check --from`: same verdict, same statuses."""
    run, again = check_json("--from", str(_save(doc, tmp_path)), *args)
    assert again["verdict"] == doc["verdict"]
    assert statuses(again) == statuses(doc)
    assert [c["message"] for c in again["checks"]] == [c["message"] for c in doc["checks"]]
    assert run.code == doc["exit_code"]
    return again


def text_statuses(out: str) -> dict[str, str]:
    return {m["id"]: STATUS_OF_GLYPH[m["glyph"]] for m in CHECK_LINE.finditer(out)}


def text_messages(out: str) -> dict[str, str]:
    return {m["id"]: m["message"] for m in CHECK_LINE.finditer(out)}


def verdict_line(out: str) -> str:
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines and lines[-1].startswith("Verdict: "), out
    return lines[-1][len("Verdict: "):]


# --------------------------------------------------------------------------- every env, both formats


@pytest.mark.parametrize("name", list(EXPECTED))
def test_check_json_on_each_env(name: str, legacy_python: Callable[[str], str], theano_home: Path,
                                tmp_path: Path) -> None:
    python = legacy_python(name)
    run, doc = check_json("--python", python)
    expect = EXPECTED[name]
    assert run.code == expect.code
    assert_expected(doc, expect)
    assert doc["facts"]["target"]["python"] == python
    assert doc["facts"]["candidates"]["chosen_source"] == "--python"
    # JSON mode prints only the document, and no progress note at all.
    assert run.out.lstrip().startswith("{") and "checking " not in run.out + run.err
    rejudge(doc, tmp_path)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_check_text_on_each_env(name: str, legacy_python: Callable[[str], str], theano_home: Path) -> None:
    python = legacy_python(name)
    run = doctor("check", "--python", python)
    expect = EXPECTED[name]
    assert run.code == expect.code, run.out + run.err
    assert "Traceback" not in run.out + run.err
    assert f"checking {python}" in run.err  # the note goes to stderr, the report to stdout
    assert "checking " not in run.out
    assert verdict_line(run.out) == expect.verdict
    found = text_statuses(run.out)
    # Skipped checks are summed up in one line unless -v.
    shown = {k: v for k, v in expect.statuses.items() if v != "skipped"}
    assert {k: found.get(k) for k in shown} == shown
    assert not set(expect.statuses) - set(shown) & set(found)
    if len(shown) < len(expect.statuses):
        assert "skipped as not relevant here (-v shows them)" in run.out
        verbose = text_statuses(doctor("check", "--python", python, "-v").out)
        assert {k: verbose.get(k) for k in expect.statuses} == expect.statuses
    for check_id, text in expect.messages.items():
        assert text in text_messages(run.out)[check_id]
    assert not ANSI.search(run.out + run.err)  # piped: no styling


def test_env_folder_is_accepted_like_its_interpreter(legacy_env: Callable[[str], Path],
                                                     legacy_python: Callable[[str], str],
                                                     theano_home: Path) -> None:
    folder = legacy_env("healthy37")
    run, doc = check_json("--python", str(folder))
    assert run.code == 0
    assert_expected(doc, EXPECTED["healthy37"])
    assert doc["facts"]["target"]["python"] == legacy_python("healthy37")
    assert doc["facts"]["target"]["stages"]["interpreter"]["is_venv"] is True
    text = doctor("check", "--python", str(folder))
    assert text.code == 0 and verdict_line(text.out) == "CPU only"
    assert f"checking {legacy_python('healthy37')}" in text.err


# --------------------------------------------------------------------------- config workarounds


def test_numpy123_works_with_blas_ldflags_in_theano_flags(legacy_python: Callable[[str], str],
                                                          theano_home: Path, tmp_path: Path) -> None:
    run, doc = check_json("--python", legacy_python("numpy123"), env={"THEANO_FLAGS": "blas.ldflags="})
    assert run.code == 0 and doc["verdict"] == "CPU only"
    assert statuses(doc)["python-stack"] == "ok" and statuses(doc)["theano-import"] == "ok"
    assert "numpy 1.23.5" in result(doc, "python-stack")["message"]
    value = doc["facts"]["target"]["stages"]["theano_config"]["values"]["blas.ldflags"]
    assert value == {"name": "blas.ldflags", "registered": True, "source": "THEANO_FLAGS", "value": ""}
    rejudge(doc, tmp_path)


def test_numpy123_works_with_blas_ldflags_in_a_theanorc(legacy_python: Callable[[str], str],
                                                        theano_home: Path, tmp_path: Path) -> None:
    rc = tmp_path / "theanorc"
    rc.write_text("[blas]\nldflags =\n")
    run, doc = check_json("--python", legacy_python("numpy123"), env={"THEANORC": str(rc)})
    assert run.code == 0 and doc["verdict"] == "CPU only"
    assert statuses(doc)["python-stack"] == "ok" and statuses(doc)["theano-import"] == "ok"
    config = doc["facts"]["target"]["stages"]["theano_config"]
    assert config["values"]["blas.ldflags"]["source"] == f"file:{rc}"
    assert config["files_present"] == [str(rc)]
    # The host read the same file: parsed, with the [blas] section.
    files = doc["facts"]["theanorc"]["files"]
    assert [f["path"] for f in files] == [str(rc)]
    assert files[0]["parse"]["ok"] is True and files[0]["parse"]["sections"] == {"blas": {"ldflags": ""}}
    rejudge(doc, tmp_path)


def test_pymc_reports_a_dotted_flag_as_unrecognised(legacy_python: Callable[[str], str],
                                                    theano_home: Path, tmp_path: Path) -> None:
    run, doc = check_json("--python", legacy_python("pymc39"), env={"THEANO_FLAGS": "blas.ldflags="})
    # Theano-PyMC ignores the dotted spelling; the doctor warns about it.
    assert run.code == 0 and doc["verdict"] == "CPU only (1 warning)"
    assert statuses(doc)["python-stack"] == "ok" and statuses(doc)["theano-import"] == "ok"
    flags = result(doc, "theano-flags")
    assert flags["status"] == "warn" and "blas.ldflags is not recognised" in flags["message"]
    assert any("spells it blas__ldflags" in d for d in flags["details"])
    config = doc["facts"]["target"]["stages"]["theano_config"]
    assert config["flag_naming"] == "dunder"
    assert config["flags_unrecognised"] == ["blas.ldflags"]
    # The dotted name did not reach Theano-PyMC: its own key kept the default.
    assert config["values"]["blas.ldflags"]["name"] == "blas__ldflags"
    assert config["values"]["blas.ldflags"]["source"] == "default"
    assert any("does not recognise this flag: blas.ldflags" in d
               for d in result(doc, "theano-import")["details"])
    rejudge(doc, tmp_path)


# --------------------------------------------------------------------------- device and GPU options


def test_device_cuda_without_pygpu_is_the_silent_cpu_fallback(legacy_python: Callable[[str], str],
                                                              theano_home: Path, tmp_path: Path) -> None:
    run, doc = check_json("--python", legacy_python("healthy37"), env={"THEANO_FLAGS": "device=cuda"})
    assert run.code == 1 and doc["verdict"].startswith("Broken: ")
    device = result(doc, "theano-device")
    assert device["status"] == "error"
    assert "device=cuda (from THEANO_FLAGS)" in device["message"]
    assert "silently runs everything on the CPU" in device["message"]
    assert "pygpu" in device["remedy"] and "conda-forge" in device["remedy"]
    # import theano itself succeeds: that is what makes the fallback silent.
    assert statuses(doc)["theano-import"] == "ok"
    assert doc["facts"]["target"]["stages"]["theano_config"]["values"]["device"]["value"] == "cuda"
    rejudge(doc, tmp_path)


def test_device_gpu_is_the_removed_old_backend(legacy_python: Callable[[str], str], theano_home: Path,
                                               tmp_path: Path) -> None:
    run, doc = check_json("--python", legacy_python("healthy37"), env={"THEANO_FLAGS": "device=gpu"})
    assert run.code == 1 and doc["verdict"].startswith("Broken: ")
    imported = result(doc, "theano-import")
    assert imported["status"] == "error"
    assert "old GPU back-end" in imported["message"]
    assert any("known failure: old-gpu-backend" in d for d in imported["details"])
    assert "device=cuda" in imported["remedy"]
    device = result(doc, "theano-device")
    assert device["status"] == "error" and "Set device=cuda in THEANO_FLAGS" in device["remedy"]
    rejudge(doc, tmp_path)


def test_require_gpu_on_a_cpu_only_env(legacy_python: Callable[[str], str], theano_home: Path,
                                       tmp_path: Path) -> None:
    run, doc = check_json("--python", legacy_python("healthy37"), "--require-gpu")
    assert run.code == 1 and doc["verdict"].startswith("Broken: ")
    gpu = result(doc, "gpu-path")
    assert gpu["status"] == "error" and gpu["message"].startswith("no working GPU path: ")
    assert "device=cpu" in gpu["message"]
    assert doc["gpu_ready"] is False
    # The option is part of the judgement, not of the facts: re-judged with and without it.
    rejudge(doc, tmp_path, "--require-gpu")
    plain = check_json("--from", str(_save(doc, tmp_path)))[1]
    assert plain["exit_code"] == 0 and plain["verdict"] == "CPU only"
    assert result(plain, "gpu-path")["status"] == "ok"


def test_strict_on_a_healthy_env_still_passes(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    run, doc = check_json("--python", legacy_python("healthy37"), "--strict")
    assert run.code == 0 and doc["verdict"] == "CPU only"
    assert set(statuses(doc).values()) <= {"ok", "skipped"}
    assert doc["summary"].get("warn", 0) == 0


def test_strict_fails_on_a_warning(legacy_python: Callable[[str], str], theano_home: Path,
                                   tmp_path: Path) -> None:
    """The counterpart of the test above: a real warning (cxx set empty) fails only with --strict."""
    run, doc = check_json("--python", legacy_python("healthy37"), env={"THEANO_FLAGS": "cxx="})
    assert run.code == 0
    assert result(doc, "cxx-compiler")["status"] == "warn"
    assert doc["summary"]["warn"] == 1
    again = check_json("--from", str(_save(doc, tmp_path)), "--strict")
    assert again[0].code == 1 and again[1]["exit_code"] == 1
    assert statuses(again[1]) == statuses(doc)


# --------------------------------------------------------------------------- snapshots and selection


@pytest.mark.parametrize("name", ["healthy37", "numpy124"])
def test_report_then_check_from(name: str, legacy_python: Callable[[str], str], theano_home: Path,
                                tmp_path: Path) -> None:
    report = doctor("report", "--python", legacy_python(name), "--format", "json")
    assert report.code == 0, report.err
    snapshot = report.json()
    assert snapshot["schema_version"] == 1 and "verdict" not in snapshot and "checks" not in snapshot
    saved = tmp_path / "snapshot.json"
    saved.write_text(report.out)
    run, doc = check_json("--from", str(saved))
    expect = EXPECTED[name]
    assert run.code == expect.code
    assert_expected(doc, expect)
    text = doctor("check", "--from", str(saved))
    assert text.code == expect.code and verdict_line(text.out) == expect.verdict
    assert "checking " not in text.err  # nothing was probed


def test_only_runs_just_that_check(legacy_python: Callable[[str], str], theano_home: Path,
                                   tmp_path: Path) -> None:
    run, doc = check_json("--only", "python-stack", "--python", legacy_python("numpy124"))
    assert [c["id"] for c in doc["checks"]] == ["python-stack"]
    assert run.code == 1 and doc["verdict"] == "Broken: 1 error"
    # The facts are complete all the same: a later re-judge can run every check.
    again = check_json("--from", str(_save(doc, tmp_path)))[1]
    assert statuses(again)["theano-import"] == "error" and again["verdict"] == "Broken: 2 errors"


def test_skip_leaves_the_other_checks(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    run, doc = check_json("--python", legacy_python("numpy124"),
                          "--skip", "python-stack", "--skip", "theano-import")
    ids = set(statuses(doc))
    assert not ids & {"python-stack", "theano-import"}
    assert {"target-probe", "theano-device", "cxx-compiler", "nvidia-driver", "gpu-path"} <= ids
    # The two errors were skipped, so nothing blocking is left.
    assert run.code == 0 and doc["verdict"] == "CPU only"
    text = doctor("check", "--python", legacy_python("numpy124"), "--only", "python-stack")
    assert text.code == 1 and list(text_statuses(text.out)) == ["python-stack"]


# --------------------------------------------------------------------------- discovery


def test_discovery_picks_the_activated_venv(legacy_env: Callable[[str], Path],
                                            legacy_python: Callable[[str], str], theano_home: Path) -> None:
    python = legacy_python("healthy37")
    env = {"VIRTUAL_ENV": str(legacy_env("healthy37")), "PATH": "/usr/bin:/bin"}
    run = doctor("check", env=env)
    assert run.code == 0, run.out + run.err
    assert f"checking {python}" in run.err
    assert verdict_line(run.out) == "CPU only"
    assert "Python 3.7.16" in text_messages(run.out)["target-probe"]

    listing = doctor("envs", "--format", "json", env=env)
    assert listing.code == 0
    doc = listing.json()
    assert doc["schema_version"] == 1 and doc["chosen"] == python
    mine = [c for c in doc["candidates"] if c["python"] == python]
    assert len(mine) == 1
    assert mine[0]["source"] == "VIRTUAL_ENV" and mine[0]["theano"] == "1.0.5"
    assert mine[0]["numpy"] == "1.16.6" and mine[0]["python_version"] == "3.7.16"
    assert mine[0]["flavour"] == "Theano"

    run, doc = check_json(env=env)
    assert doc["facts"]["candidates"]["chosen"] == python
    assert doc["facts"]["candidates"]["chosen_source"] == "VIRTUAL_ENV"


# --------------------------------------------------------------------------- terminal styling


_SNAPSHOTS: dict[str, Path] = {}


@pytest.fixture
def healthy_snapshot(legacy_python: Callable[[str], str], theano_home: Path,
                     tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real healthy37 snapshot for the rendering tests (probed once, judged many times)."""
    if "healthy37" not in _SNAPSHOTS:
        run = doctor("report", "--python", legacy_python("healthy37"), "--format", "json")
        assert run.code == 0, run.err
        path = tmp_path_factory.mktemp("snapshot") / "healthy37.json"
        path.write_text(run.out)
        _SNAPSHOTS["healthy37"] = path
    return _SNAPSHOTS["healthy37"]


@pytest.mark.parametrize(
    ("env", "ansi"),
    [
        ({}, False),  # piped stdout: no styling by default
        ({"FORCE_COLOR": "1"}, True),
        ({"NO_COLOR": "1"}, False),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),  # NO_COLOR wins
        ({"NO_COLOR": "", "FORCE_COLOR": "1"}, True),  # an empty NO_COLOR is not set (no-color.org)
    ],
)
def test_color_follows_no_color_and_force_color(healthy_snapshot: Path, env: dict[str, str],
                                                ansi: bool) -> None:
    run = doctor("check", "--from", str(healthy_snapshot), env=env)
    assert run.code == 0
    assert bool(ANSI.search(run.out)) is ansi
    plain = ANSI.sub("", run.out)
    assert verdict_line(plain) == "CPU only"
    assert text_statuses(plain)["python-stack"] == "ok"
    # JSON is never styled, whatever the environment asks for.
    doc = doctor("check", "--from", str(healthy_snapshot), "--format", "json", env=env)
    assert not ANSI.search(doc.out) and doc.json()["verdict"] == "CPU only"


def test_real_probe_output_is_colored_when_forced(legacy_python: Callable[[str], str],
                                                  theano_home: Path) -> None:
    run = doctor("check", "--python", legacy_python("healthy37"), env={"FORCE_COLOR": "1"})
    assert run.code == 0 and ANSI.search(run.out)
    assert verdict_line(ANSI.sub("", run.out)) == "CPU only"


@pytest.mark.parametrize(("encoding", "shown", "hidden"),
                         [("ascii", "[ok]", "✓"), ("utf-8", "✓", "[ok]")])
def test_glyphs_follow_the_output_encoding(healthy_snapshot: Path, encoding: str, shown: str,
                                           hidden: str) -> None:
    run = doctor("check", "--from", str(healthy_snapshot), env={"PYTHONIOENCODING": encoding})
    assert run.code == 0 and "Traceback" not in run.err
    assert f"{shown} python-stack: " in run.out
    assert hidden not in run.out
    if encoding == "ascii":
        run.out.encode("ascii")  # every character, not just the glyphs
