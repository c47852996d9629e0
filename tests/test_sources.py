"""Every source a user is shown is one they can open (theanodoctor/sources.py states the rule):
every row of every profiles table, the `tests/...` references they make (the file and the test
exist), every string in the code, and what `explain` and `check` print for real findings."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.cli_helpers import doctor, result
from theanodoctor import knowledge, sources

ROOT = Path(__file__).resolve().parent.parent
PROFILES = ROOT / "profiles"
CODE = [ROOT / "theanodoctor", ROOT / "checks", ROOT / "fixes"]


def _sources(node: Any, where: str) -> Iterator[tuple[str, str]]:
    """(where, text) for every value under a key naming a source (source, date_source, ...)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if "source" in str(key) and isinstance(value, str):
                yield f"{where}.{key}", value
            else:
                yield from _sources(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _sources(value, f"{where}[{i}]")


ROWS = [(f"{path.name}{where}", text) for path in sorted(PROFILES.glob("*.yaml"))
        for where, text in _sources(yaml.safe_load(path.read_text(encoding="utf-8")), "")]


def test_the_tables_have_sources_to_check() -> None:
    assert len(ROWS) > 700
    assert {name.split(".yaml")[0] for name, _ in ROWS} >= {"causes", "signatures", "cuda_driver", "stacks"}


@pytest.mark.parametrize(("where", "text"), ROWS, ids=[w for w, _ in ROWS])
def test_every_profiles_source_can_be_opened(where: str, text: str) -> None:
    assert sources.problem(text) is None, f"{where}: {text}"


def test_every_cited_test_exists() -> None:
    missing = []
    for where, text in ROWS:
        for cited in sources.tests_cited(text):
            path, _, name = cited.partition("::")
            file = ROOT / path
            if not file.is_file() or (name and not re.search(rf"^\s*def {name}\(", file.read_text(), re.M)):
                missing.append(f"{where}: {cited}")
    assert not missing, missing


def test_every_typed_table_loads_with_the_rule() -> None:
    import theanodoctor.checks  # noqa: F401  (registers every table loader)

    import theanodoctor.scan.frameworks  # noqa: F401
    import theanodoctor.scan.markers  # noqa: F401

    knowledge.forget()
    knowledge.preload()  # raises KnowledgeError on any row breaking the rule


@pytest.mark.parametrize("text", [
    "FACTS.md s5",
    "FACTS.md s5; https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html",
    "reference cuda-compat.md s1a: [CSDN-T3], [AF]",
    "reference/theano-libgpuarray.md Q8 (libgpuarray v0.7.6 src/loaders/libnvrtc.c:36)",
    "[NV-COMPAT] Table 2",
    "Theano rel-1.0.5 gpuarray/__init__.py:69-73 (reference Q7)",
    "Theano rel-1.0.5 gpuarray/__init__.py:69-73 (FACTS s2 [run])",
    "Python import system",
    "Theano rel-1.0.5 configdefaults.py (StrParam)",
    "public logs",
])
def test_the_rule_refuses_what_no_user_can_open(text: str) -> None:
    assert sources.problem(text)


@pytest.mark.parametrize("text", [
    "https://github.com/Theano/Theano/issues/6681",
    "github.com/Theano/libgpuarray/issues/587",
    "Theano rel-1.0.5 theano/configparser.py:28",
    "libgpuarray v0.7.6 src/loaders/libnvrtc.c:29-58",
    "Theano rel-0.9.0:theano/sandbox/cuda/__init__.py:502",
    "Theano-PyMC rel-1.1.2 setup.py:38-60 (classifiers)",
    "tests/test_era_envs.py::test_verified_stack_computes (pymc39) [run]",
    "https://docs.nvidia.com/deeplearning/cudnn/backend/v9.5.1/reference/support-matrix.html",
])
def test_the_rule_accepts_urls_upstream_lines_and_tests(text: str) -> None:
    assert sources.problem(text) is None


def test_a_row_without_an_openable_source_is_refused_at_load(fake_profiles: dict[str, str]) -> None:
    fake_profiles["causes.yaml"] = ("causes:\n  - {id: a, title: t, cause: c, remedy: r, fix: none,\n"
                                    "     source: \"FACTS.md s3 [run]\"}\n")
    fake_profiles["signatures.yaml"] = "signatures: []\n"
    from theanodoctor import kb_causes

    with pytest.raises(knowledge.KnowledgeError, match=r"profiles/causes\.yaml:2: `source` cites our internal notes"):
        kb_causes.causes()


def _strings(path: Path) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_message_in_the_code_cites_our_notes() -> None:
    """Causes, remedies, details, help texts: every string constant of the engine, checks and fixes."""
    found = [f"{path.relative_to(ROOT)}:{line}: {sources.NOTES.search(value).group(0)}"  # type: ignore[union-attr]
             for folder in CODE for path in sorted(folder.rglob("*.py")) if path.name != "sources.py"
             for line, value in _strings(path) if sources.NOTES.search(value)]
    assert not found, found


LOGS = {
    "numpy-bool-alias": ('Traceback (most recent call last):\n  File "train.py", line 1, in <module>\n'
                         "    import theano\nAttributeError: module 'numpy' has no attribute 'bool'.\n",
                         "Theano rel-1.0.5 theano/scalar/basic.py:2323",
                         "tests/test_smoke.py::test_numpy124_fails_at_import_with_the_known_cause"),
    "nvrtc-dll-name": ("ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n"
                       "pygpu.gpuarray.GpuArrayException: b'Could not load \"nvrtc64_70.dll\": "
                       "The specified module could not be found.\\r\\n'\n",
                       "libgpuarray v0.7.6 src/loaders/libnvrtc.c:36", "github.com/Theano/libgpuarray/issues/587"),
}


@pytest.mark.parametrize("cause", list(LOGS))
def test_explain_prints_the_primary_source(cause: str, tmp_path: Path) -> None:
    log = tmp_path / "error.log"
    text, upstream, also = LOGS[cause]
    log.write_text(text)
    run = doctor("explain", str(log))
    assert f"cause id: {cause}; source: " in run.out and upstream in run.out and also in run.out, run.out
    doc = json.loads(doctor("explain", str(log), "--format", "json").out)["explain"]
    first = doc["findings"][0]
    assert first["cause"] == cause and sources.problem(first["source"]) is None, first


def test_check_prints_the_primary_source() -> None:
    snapshot = ROOT / "tests" / "snapshots" / "linux_driver_too_old_cuda102.json"
    text = doctor("check", "--from", str(snapshot)).out
    assert "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html" in text, text
    doc = json.loads(doctor("check", "--from", str(snapshot), "--format", "json").out)
    driver = result(doc, "driver-min-version")
    assert "docs.nvidia.com/deploy/cuda-compatibility" in driver["cause"]
    assert not sources.NOTES.search(json.dumps(doc))
