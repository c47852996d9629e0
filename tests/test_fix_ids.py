"""One vocabulary of fix ids: every place that names a repair (check findings, causes, named
stacks, resolver caveats, the corpus labels) names one that `theanodoctor fix` knows."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml
from theanodoctor.fixes import FIX_IDS
from theanodoctor.fixes.plan import validate

from theanodoctor import kb_causes, kb_stacks

REPO = Path(__file__).resolve().parent.parent


def literal_fix_ids(folder: Path) -> dict[str, str]:
    """``fix_id="..."`` keyword arguments written in the code of ``folder`` -> where."""
    found = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "fix_id" and isinstance(node.value, ast.Constant):
                if node.value.value is not None:
                    found[str(node.value.value)] = f"{path.relative_to(REPO)}:{node.value.lineno}"
    return found


def test_code_names_only_known_fixes() -> None:
    named = {**literal_fix_ids(REPO / "checks"), **literal_fix_ids(REPO / "theanodoctor")}
    assert {"cache-clear", "cache-unlock", "cuda-dll-aliases"} <= set(named)  # the scan really sees them
    assert {fid: where for fid, where in named.items() if fid not in FIX_IDS} == {}


def test_tables_name_only_known_fixes() -> None:
    causes = kb_causes.causes()
    assert {c.fix for c in causes.values() if c.fix} <= set(FIX_IDS)
    assert {f for s in kb_stacks.stacks() for f in s.fixes} <= set(FIX_IDS)
    cases = yaml.safe_load((REPO / "tests" / "explain_corpus" / "cases.yaml").read_text(encoding="utf-8"))
    labelled = {c.get("fix_id") for c in (cases if isinstance(cases, list) else cases["cases"])} - {None}
    assert labelled and labelled <= set(FIX_IDS)


def test_every_fix_id_is_accepted_by_fix() -> None:
    validate(FIX_IDS)  # raises UnknownFix for an id the planner does not know
    try:
        validate(["theanorc-everything"])
    except ValueError as exc:
        assert "theanorc-everything" in str(exc)
    else:
        raise AssertionError("an unknown fix id was accepted")
