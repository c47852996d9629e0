"""The environment's own config takes effect: `provision` writes <env>/theanorc and a .pth startup
hook that sets THEANORC to it when unset, so the env's Python run directly (no activation) and
`check` both see it. Real venvs from the pyenv interpreters; real processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

from tests.cli_helpers import doctor, result
from tests.legacy_envs import find_interpreter
from theanodoctor.resolver import envhook
from theanodoctor.resolver.import_smoke import import_smoke

RC = "[global]\ndevice = cpu\nfloatX = float32\n"


def _venv(tmp_path: Path) -> Path:
    folder = tmp_path / "env"
    subprocess.run([str(find_interpreter("3.8")), "-m", "venv", "--without-pip", str(folder)], check=True)
    return folder / "bin" / "python"


def _environ(python: Path, extra: dict[str, str] | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "THEANORC"}
    code = "import os; print(os.environ.get('THEANORC'), os.environ.get('KERAS_BACKEND'))"
    return subprocess.run([str(python), "-c", code], env={**env, **(extra or {})}, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_the_hook_points_the_env_python_at_its_theanorc_unless_the_user_set_one(tmp_path: Path) -> None:
    python = _venv(tmp_path)
    theanorc, hook = envhook.install(str(python), RC, {"KERAS_BACKEND": "theano"})
    assert Path(theanorc) == tmp_path / "env" / "theanorc" and Path(theanorc).read_text() == RC
    assert Path(hook).name == envhook.HOOK_NAME and Path(hook).parent.name == "site-packages"
    assert _environ(python) == f"{theanorc} theano"
    assert _environ(python, {"THEANORC": "/elsewhere/rc", "KERAS_BACKEND": "tensorflow"}) == "/elsewhere/rc tensorflow"


def test_check_reads_the_config_file_the_env_points_theano_at(tmp_path: Path) -> None:
    python = _venv(tmp_path)
    theanorc, _ = envhook.install(str(python), RC)
    run = doctor("check", "--python", str(python), "--format", "json", timeout=300)
    doc = run.json()
    files = result(doc, "theanorc-files")
    assert files["status"] == "ok" and theanorc in files["message"], files
    assert any("set by the environment itself" in d for d in files["details"])


def test_an_import_that_fails_is_explained_through_the_cause_catalogue(
        tmp_path: Path, legacy_python: Callable[[str], str]) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "model.py").write_text("import theano\nimport theano.tensor as T\n")
    (repo / "helpers.py").write_text("import os\n")
    python = legacy_python("healthy37")  # Theano 1.0.5
    found = import_smoke(python, str(repo), [{"name": "model", "path": "model.py"},
                                                  {"name": "helpers", "path": "helpers.py"}],
                         {"THEANO_FLAGS": "device=gpu"})  # the old backend's device name
    model, helpers = found
    assert helpers.ok and not model.ok and model.status == "error"
    assert model.error and "old GPU back-end" in model.error
    assert model.cause and model.explanation and "device=cuda" in model.explanation


def test_a_python27_stack_is_planned_with_virtualenv(tmp_path: Path) -> None:
    python = str(find_interpreter("2.7"))
    run = doctor("provision", "--cpu-only", "--python", python, "--prefix", str(tmp_path / "e"), "--method", "venv",
                 "--dry-run", "--format", "json")
    assert run.code == 0, run.err
    create = run.json()["plan"]["commands"][0]
    assert create[:3] == [sys.executable, "-m", "virtualenv"] and python in create
