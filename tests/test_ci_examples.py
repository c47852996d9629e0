"""The CI examples are valid YAML / shell, and every `theanodoctor ...` they (and the docs) run
is a command with options that exist: each invocation is parsed by the real click command tree."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Callable

import click
import pytest
import yaml

from theanodoctor.cli import cli
from theanodoctor.redact import strings

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "ci"
YAML_FILES = sorted(EXAMPLES.glob("*.yml"))
# "theanodoctor" as a command word: at a line start, after a space, a quote, "(" or a path.
_CALL = re.compile(r"(?:^|(?<=[\s'\"(/]))theanodoctor[ \t]+(?=[a-z-])")


def shell_defaults(text: str) -> dict[str, str]:
    """``: "${NAME:=value}"`` defaults a script sets, to stand in for its variables."""
    return dict(re.findall(r"\$\{(\w+):=([^}]*)\}", text))


def invocations(text: str, variables: dict[str, str] | None = None) -> list[list[str]]:
    """The argument lists of every theanodoctor call in a shell text (up to a pipe, a redirect,
    a `;`, `&&` or the quote the call sits in). Comments are dropped; ``$(...)`` and ``<...>``
    placeholders become one word; known variables take their default value."""
    text = text.replace("\\\n", " ")
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    text = re.sub(r"\$\([^)]*\)|<[^<>\n]+>", "WORD", text)
    for name, value in (variables or {}).items():
        text = re.sub(r"\$\{?" + name + r"\b\}?", value, text)
    found = []
    for match in _CALL.finditer(text):
        rest = text[match.end():].split("\n", 1)[0]
        before = text[match.start() - 1] if match.start() else ""
        if before and before in "'\"":
            rest = rest.split(before, 1)[0]
        lexer = shlex.shlex(rest, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        args = []
        for token in lexer:
            if token and set(token) <= set("|&;<>()"):
                break
            args.append(token)
        found.append(args)
    return found


def doc_texts() -> dict[str, str]:
    """Shell code in the docs: fenced blocks and inline code spans."""
    texts = {}
    for path in (EXAMPLES / "README.md", REPO / "README.md"):
        markdown = path.read_text(encoding="utf-8")
        blocks = re.findall(r"```(?:sh|bash|shell)\n(.*?)```", markdown, re.S)
        # a plain block is sample output: only its `$ ` lines are commands
        blocks += [line[2:] for block in re.findall(r"```\n(.*?)```", markdown, re.S)
                   for line in block.splitlines() if line.startswith("$ ")]
        # inline spans with options; a bare `theanodoctor summarize` in prose names a command
        spans = re.findall(r"(?<!`)`([^`\n]*theanodoctor [^`\n]*--[^`\n]*)`(?!`)", markdown)
        texts[path.name if path.parent == EXAMPLES else "README.md (top)"] = "\n".join(blocks + spans)
    return texts


def all_calls() -> list[tuple[str, list[str]]]:
    calls = []
    for path in YAML_FILES:
        for text in strings(yaml.safe_load(path.read_text(encoding="utf-8"))):
            calls += [(path.name, args) for args in invocations(text)]
    script = (EXAMPLES / "preflight.sh").read_text(encoding="utf-8")
    calls += [("preflight.sh", args) for args in invocations(script, shell_defaults(script))]
    for name, text in doc_texts().items():
        calls += [(name, args) for args in invocations(text)]
    return calls


def test_every_example_file_is_valid_and_gates_on_preflight() -> None:
    assert {p.name for p in YAML_FILES} >= {"github-actions-gpu.yml", "gitlab-ci.yml"}
    for path in YAML_FILES:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert isinstance(data, list if path.name.startswith("ansible") else dict), path  # a playbook is a list
    calls = all_calls()
    for name in ("github-actions-gpu.yml", "gitlab-ci.yml", "preflight.sh", "github-actions-fleet-matrix.yml"):
        assert any(file == name and args[0] == "preflight" for file, args in calls), name
    for tool in ("srun", "ansible"):
        assert tool in doc_texts()["README.md"]


@pytest.mark.parametrize(("where", "args"), all_calls(), ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_each_call_parses_against_the_real_command_tree(where: str, args: list[str], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # relative --junit files land in a writable folder
    name, rest = args[0], args[1:]
    if name.startswith("-"):  # an option of the group itself (--version, --help)
        with pytest.raises(click.exceptions.Exit):
            cli.make_context("theanodoctor", list(args))
        return
    command = cli.commands.get(name)
    assert command is not None, f"{where}: no command {name!r}"
    try:
        command.make_context(f"theanodoctor {name}", list(rest))
    except click.exceptions.Exit:
        pass  # --help
    except click.UsageError as exc:
        pytest.fail(f"{where}: theanodoctor {' '.join(args)}: {exc.format_message()}")


def test_the_parser_can_fail() -> None:
    """The check above is not vacuous: a wrong option or value is caught."""
    bad = invocations("run: theanodoctor preflight --junti x.xml | tee log")
    assert bad == [["preflight", "--junti", "x.xml"]]
    with pytest.raises(click.UsageError):
        cli.commands["preflight"].make_context("theanodoctor preflight", bad[0][1:])
    with pytest.raises(click.UsageError):
        cli.commands["summarize"].make_context("theanodoctor summarize", ["r", "--format", "html"])
    assert invocations("sh -c 'theanodoctor report --format json > x/$(hostname).json'") == \
        [["report", "--format", "json"]]


def _lines(script: list[object]) -> list[str]:
    """A GitLab script with its nested lists (YAML anchors) flattened, as GitLab runs it."""
    return [str(line) for item in script for line in (_lines(item) if isinstance(item, list) else [item])]


def test_gitlab_keeps_the_junit_report_preflight_writes() -> None:
    data = yaml.safe_load((EXAMPLES / "gitlab-ci.yml").read_text(encoding="utf-8"))
    job = data[".theano-gpu"]
    [call] = [args for line in _lines(job["before_script"]) for args in invocations(line)]
    assert job["artifacts"]["reports"]["junit"] == call[call.index("--junit") + 1]
    assert job["artifacts"]["when"] == "always"


def test_github_gates_the_job_on_the_same_runner() -> None:
    data = yaml.safe_load((EXAMPLES / "github-actions-gpu.yml").read_text(encoding="utf-8"))
    [job] = data["jobs"].values()
    assert "self-hosted" in job["runs-on"]
    runs = [step.get("run", "") for step in job["steps"]]
    preflight = next(i for i, run in enumerate(runs) if "theanodoctor preflight" in run)
    train = next(i for i, run in enumerate(runs) if "train.py" in run)
    assert preflight < train and not job["steps"][train].get("if")  # runs only after a passed preflight


def _fake_doctor(folder: Path, exit_code: int) -> dict[str, str]:
    """A `theanodoctor` on PATH that records its arguments and exits with ``exit_code``."""
    stub = folder / "theanodoctor"
    stub.write_text(f'#!/bin/sh\necho "$@" > "{folder}/args"\nexit {exit_code}\n')
    stub.chmod(0o755)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}", "THEANO_ENV": "/opt/envs/theano37"}


@pytest.mark.parametrize(("code", "runs_job"), [(0, True), (1, False), (2, False), (3, False)])
def test_the_shell_step_runs_the_job_only_after_a_pass(code: int, runs_job: bool, tmp_path: Path) -> None:
    script = EXAMPLES / "preflight.sh"
    assert subprocess.run(["sh", "-n", str(script)], timeout=30).returncode == 0
    env = _fake_doctor(tmp_path, code)
    marker = tmp_path / "job-ran"
    proc = subprocess.run(["sh", str(script), sys.executable, "-c", f"open({str(marker)!r}, 'w')"],
                          env=env, cwd=str(tmp_path), capture_output=True, timeout=60)
    assert proc.returncode == code
    assert marker.exists() is runs_job
    recorded = shlex.split((tmp_path / "args").read_text())
    assert recorded[:3] == ["preflight", "--python", "/opt/envs/theano37"] and "--junit" in recorded


def _summarize_calls(where: str) -> list[list[str]]:
    return [args for file, args in all_calls() if file == where and args[0] == "summarize"]


def test_fleet_summaries_fail_like_the_preflights_they_merge() -> None:
    """A runner whose `preflight --require-gpu` failed, warned, or sent nothing fails the
    summary job: it asks for --require-gpu and --strict, and expects exactly the matrix's runners."""
    github = yaml.safe_load((EXAMPLES / "github-actions-fleet-matrix.yml").read_text(encoding="utf-8"))
    gitlab = yaml.safe_load((EXAMPLES / "gitlab-ci.yml").read_text(encoding="utf-8"))
    matrices = {
        "github-actions-fleet-matrix.yml": (github["jobs"]["preflight"]["strategy"]["matrix"]["runner"],
                                            github["env"]["RUNNERS"]),
        "gitlab-ci.yml": (gitlab["fleet-preflight"]["parallel"]["matrix"][0]["RUNNER"],
                          gitlab["variables"]["FLEET_RUNNERS"]),
    }
    for where, (runners, expected) in matrices.items():
        [call] = _summarize_calls(where)
        assert {"--require-gpu", "--strict", "--expect"} <= set(call), where
        assert expected.split(",") == runners, where
    gitlab_summary = _lines(gitlab["fleet-summary"]["script"])
    pipe = re.compile(r"(?<!\|)\|(?!\|)")  # `a | b`, not `a || b`: a pipe would eat the exit code
    assert not any("theanodoctor summarize" in line and pipe.search(line) for line in gitlab_summary)


def test_no_install_uses_pip_user_on_a_system_python() -> None:
    """`pip install --user` is refused by externally managed Pythons (Debian 12, Ubuntu 24.04)."""
    for path in [*YAML_FILES, EXAMPLES / "preflight.sh", EXAMPLES / "README.md"]:
        text = path.read_text(encoding="utf-8")
        assert "pip install --user" not in text.replace("`pip install --user` is refused", ""), path
        assert "pipx install" not in text or "apt-get install pipx" in text, path


def test_the_shell_step_installs_the_doctor_into_a_venv(legacy_python: Callable[[str], str],
                                                         tmp_path: Path) -> None:
    """No theanodoctor on PATH: preflight.sh makes a venv, installs this checkout into it, and the
    real preflight passes on a healthy environment before the job runs."""
    marker = tmp_path / "job-ran"
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path / "home"), "THEANODOCTOR_SPEC": str(REPO),
           "THEANO_ENV": legacy_python("healthy37"), "PREFLIGHT_DEVICE": "cpu",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    python3 = Path(sys.executable).resolve().parent / "python3"  # a python3 on PATH, as on a runner
    env["PATH"] = f"{python3.parent}:{env['PATH']}"
    proc = subprocess.run(["sh", str(EXAMPLES / "preflight.sh"), "touch", str(marker)], env=env,
                          cwd=str(tmp_path), capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert marker.exists() and (tmp_path / "home" / ".theanodoctor" / "bin" / "theanodoctor").exists()
    assert "Preflight: Passed" in proc.stdout
