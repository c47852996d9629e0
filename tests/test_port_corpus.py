"""`port` on real Theano-era repositories (tests/port_corpus/repos, copied at a commit): their modules
fail to import in a real Theano 1.0.5 environment, and after `theanodoctor port --yes` on a copy
they import there (each in its own subprocess of that environment), except what port itself lists
to do by hand; `port --undo` then gives back the tree byte for byte."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from tests.cli_helpers import doctor
from tests.port_proof import CORPUS, Ran, copy_tree, env_homes, run_in_env, tree_bytes

REPOS = CORPUS / "repos"
CASES: dict[str, dict[str, Any]] = yaml.safe_load((REPOS / "repos.yaml").read_text(encoding="utf-8"))["repos"]


@pytest.fixture(scope="session")
def env_home(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    return env_homes(tmp_path_factory.mktemp("env-homes"))


def import_module(python: str, root: Path, case: dict[str, Any], module: str, home: Path) -> Ran:
    return run_in_env(python, ["-c", f"import {module}"], root / case["path"], home, timeout=600)


def test_the_corpus_is_real_and_described():
    folders = sorted(p.name for p in REPOS.iterdir() if p.is_dir())
    assert folders == sorted(CASES) and len(folders) >= 8
    for name in folders:
        source = (REPOS / name / "SOURCE").read_text(encoding="utf-8").splitlines()
        assert source[0].startswith("https://github.com/") and len(source[1].split()[1]) == 40
        copied = source[3].removeprefix("copied: ").split(", ")
        assert sorted(copied) == sorted(str(p.relative_to(REPOS / name)) for p in (REPOS / name).rglob("*")
                                        if p.is_file() and p.name != "SOURCE")
        case = CASES[name]
        assert set(case["fails_before"]) <= set(case["modules"])
        assert set(case.get("fails_after", {})) <= set(case["fails_before"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_unported_modules_fail_in_theano_105(name, tmp_path, legacy_python, env_home):
    case = CASES[name]
    python = legacy_python(case["env"])
    root = copy_tree(REPOS / name, tmp_path / name)
    for module in case["modules"]:
        ran = import_module(python, root, case, module, env_home(case["env"]))
        if module in case["fails_before"]:
            assert ran.code != 0 and re.search(case["fails_before"][module], ran.out), (module, ran.out[-2000:])
        else:
            assert ran.code == 0, (module, ran.out[-2000:])


@pytest.mark.parametrize("name", sorted(CASES))
def test_ported_modules_import_and_undo_restores_the_tree(name, tmp_path, legacy_python, env_home):
    case = CASES[name]
    root = copy_tree(REPOS / name, tmp_path / name)
    before = tree_bytes(root)
    run = doctor("port", str(root), "--yes", "--format", "json")
    assert run.code == (1 if case.get("manual") else 0), run.out[-3000:] + run.err[-2000:]
    files = run.json()["files"]
    assert {m["rule"] for f in files for m in f["manual"]} == set(case.get("manual", ())), files
    edits = sum(len(f["changes"]) for f in files)
    assert edits == case.get("edits", edits) and (edits > 0) == (tree_bytes(root) != before)
    python = legacy_python(case["env"])
    for module in case["modules"]:
        ran = import_module(python, root, case, module, env_home(case["env"]))
        assert (ran.code != 0) == (module in case.get("fails_after", {})), (module, ran.out[-2000:])
    if edits:
        undo = doctor("port", "--undo", "--format", "json")
        assert undo.code == 0, undo.out + undo.err
    assert tree_bytes(root) == before
