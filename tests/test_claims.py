"""Every sentence that says something was found, recognised or can be done is true: checked on
the real legacy environments and real files, one claim per test."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_helpers import doctor, result
from tests.legacy_envs import find_interpreter


def _check(python: str, *args: str) -> dict:
    run = doctor("check", "--python", python, "--format", "json", *args)
    assert "Traceback" not in run.err, run.err
    return run.json()


def test_one_cause_one_remedy_with_the_environments_own_versions(legacy_python: Callable[[str], str]) -> None:
    """numpy 1.24 breaks `import theano`: python-stack (the rule) and theano-import (the error)
    give the same remedy, the numpy of the verified Python 3.9 combination, checked against the
    range this env's scipy 1.10.1 declares, not a scipy the env does not have."""
    doc = _check(legacy_python("numpy124"))
    stack, imported = result(doc, "python-stack"), result(doc, "theano-import")
    assert stack["status"] == imported["status"] == "error"
    assert stack["remedy"] == imported["remedy"]
    assert stack["commands"] == imported["commands"]
    scipy = doc["facts"]["target"]["stages"]["distributions"]["packages"]["scipy"]["version"]
    assert scipy == "1.10.1"
    assert "Install numpy 1.21.6 in that environment" in stack["remedy"]
    assert "scipy 1.10.1 here accepts it" in stack["remedy"] and "1.7.3" not in stack["remedy"]
    assert stack["commands"][0].endswith(' -m pip install "numpy==1.21.6"')


def test_no_pip_pin_is_offered_where_no_wheel_can_satisfy_it(legacy_python: Callable[[str], str]) -> None:
    """Python 3.11 has no verified combination, and the numpy Theano needs has no 3.11 wheels:
    the remedy is another Python, with no pip command that would fail."""
    stack = result(_check(legacy_python("numpy2_311")), "python-stack")
    assert stack["status"] == "error" and stack["commands"] == []
    assert "build an environment with Python 3.10, numpy 1.21.6 and scipy 1.7.3" in stack["remedy"]


# The head of a real ELF executable: NUL bytes (which once made it look like UTF-16) and bytes
# that are not UTF-8. People do end up with such a file as ~/.theanorc (a copy gone wrong).
BINARY = bytes.fromhex("7f454c4602010100000000000000000003003e0001000000d06d0000000000004000000000000000")


def test_a_binary_config_file_is_named_as_the_cause_everywhere(
        legacy_python: Callable[[str], str], guard_home: Path) -> None:
    (guard_home / ".theanorc").write_bytes(BINARY)
    python = legacy_python("healthy37")
    doc = _check(python)
    imported, encoding = result(doc, "theano-import"), result(doc, "theanorc-encoding")
    assert imported["status"] == encoding["status"] == "error"
    assert "UnicodeDecodeError" in imported["message"]  # what real Theano 1.0.5 raised
    assert imported["cause"].startswith(f"Theano's config reader failed on {guard_home / '.theanorc'}")
    assert "not a failure this doctor knows" not in imported["cause"]
    assert encoding["message"].endswith("is not UTF-8 text (binary, or another encoding): Theano cannot read it")
    assert "UTF-16" not in encoding["message"]
    report = doctor("report", "--python", python)
    assert "_the config file ~/.theanorc cannot be read the way Theano reads it (UnicodeDecodeError)" in report.out
    assert "nothing set by THEANO_FLAGS or a config file" not in report.out


@pytest.mark.parametrize(("content", "says"), [
    ('{"hello": 1}', "no schema_version (its keys: hello)"),
    ("[1, 2]", "it is a JSON list, not an object"),
])
def test_check_from_a_json_file_that_is_not_a_snapshot_says_what_it_is_not(
        tmp_path: Path, content: str, says: str) -> None:
    path = tmp_path / "other.json"
    path.write_text(content)
    run = doctor("check", "--from", str(path))
    assert run.code == 2
    assert f"{path} is not a theanodoctor snapshot: {says}" in run.err
    assert "schema_version None" not in run.err


def test_check_from_reads_the_json_of_check_itself(tmp_path: Path, legacy_python: Callable[[str], str]) -> None:
    first = doctor("check", "--python", legacy_python("healthy37"), "--format", "json")
    path = tmp_path / "check.json"
    path.write_text(first.out)
    again = doctor("check", "--from", str(path), "--format", "json")
    assert again.code == first.code == 0
    assert again.json()["verdict"] == first.json()["verdict"]


def test_explain_says_fix_only_prints_package_commands() -> None:
    run = doctor("explain", "--text", "AttributeError: module 'numpy' has no attribute 'bool'.")
    assert run.code == 0, run.err
    assert "`theanodoctor fix --only env-packages` prints the commands to run (it never runs them)" in run.out
    assert "env-packages` can do this" not in run.out


def test_a_machine_without_theano_is_told_so_and_where_to_go() -> None:
    """The machine's own interpreters (pyenv's, on PATH) have no Theano: the verdict says there is
    no Theano, the list says how many more it looked at, and the remedy names resolve and provision."""
    env = {"PYENV_ROOT": str(find_interpreter("3.7").parents[3])}  # where the legacy envs come from
    doc = doctor("check", "--format", "json", env=env).json()
    looked = result(doc, "target-probe")["details"]
    assert len(looked) > 3, looked  # the test machine has the pyenv interpreters 2.7 and 3.6-3.13
    run = doctor("check", env=env)
    assert run.code == 1, run.err
    assert run.out.rstrip().splitlines()[-1] == (
        "Verdict: No Theano: 1 error (`theanodoctor resolve` / `provision` build an environment)")
    assert len([line for line in run.out.splitlines() if "looked at " in line]) == 3
    assert f"and {len(looked) - 3} more (-v shows them)" in run.out
    assert "`theanodoctor resolve --from-machine`" in run.out and "`theanodoctor provision" in run.out


def test_lc_all_c_gets_ascii_glyphs(legacy_python: Callable[[str], str]) -> None:
    run = doctor("check", "--python", legacy_python("healthy37"), env={"LC_ALL": "C"})
    assert run.code == 0, run.err
    assert run.out.startswith("[ok] target-probe: ")
    assert not [ch for ch in run.out if ord(ch) > 127]


def test_fix_cuda_without_that_toolkit_names_the_next_step(tmp_path: Path) -> None:
    run = doctor("fix", "--cuda", "7.5", "--dry-run", env={"THEANODOCTOR_STATE_DIR": str(tmp_path)})
    assert run.code == 2
    assert "Usage:" not in run.err
    assert "Install the CUDA 7.5 toolkit first (`theanodoctor resolve --cuda 7.5` lists" in run.err


def test_resolve_without_constraints_says_it_is_not_fitted_to_this_machine() -> None:
    run = doctor("resolve", "--emit", "conda")
    assert run.code == 0, run.err
    assert "not one fitted to this machine: --from-machine fits it" in run.err
    fitted = doctor("resolve", "--cpu-only", "--emit", "conda")
    assert "no constraints given" not in fitted.err
