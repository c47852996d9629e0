"""From what the readers found to the summary: API markers and settings as Theano constraints,
the frameworks and their pairings, the Python major, and the Theano range they leave."""

from __future__ import annotations

import re
from collections.abc import Iterable

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from theanodoctor.scan import frameworks, markers
from theanodoctor.scan.findings import Findings
from theanodoctor.scan.model import Constraint, Evidence, Framework

MAX_EVIDENCE = 5  # per constraint: enough to find it, short enough to read
_THEANO_TAG = re.compile(r"theano(?:\.git)?@rel-(\d+\.\d+(?:\.\d+)?)", re.I)


def marker_constraints(found: Findings) -> list[Constraint]:
    """One constraint per marker found, with its first uses as evidence; a use inside `try:` (an
    optional import with a fallback) is only soft."""
    hits: dict[tuple[str, bool], list[Evidence]] = {}
    table = {m.id: m for m in markers.markers()}
    for use in found.uses:
        for marker in markers.match_use(use):
            hits.setdefault((marker.id, use.guarded or _aside(use.evidence.file)), []).append(use.evidence)
    for setting in found.settings:
        for marker in markers.match_setting(setting):
            hits.setdefault((marker.id, False), []).append(setting.evidence)
    result = []
    for (marker_id, guarded), where in hits.items():
        marker = table[marker_id]
        strength = "soft" if guarded else marker.strength
        reason = marker.says + (" (only in tests or docs, or inside try: with a fallback)" if guarded else "") \
            + f" [{marker.source}]"
        result.append(Constraint("theano", marker.spec, strength, tuple(_unique(where)[:MAX_EVIDENCE]), reason))
    return result


def _aside(rel: str) -> bool:
    """Tests and documentation: what they import does not bind the code people run."""
    parts = rel.lower().split("/")
    name = parts[-1]
    return any(p in ("tests", "test", "testing", "docs", "doc") for p in parts[:-1]) or \
        name in ("test.py", "tests.py", "conftest.py") or name.startswith("test_") or name.endswith("_test.py")


def theano_git_constraints(found: Findings) -> list[Constraint]:
    """A Theano git dependency at a release tag (`@rel-0.8.2`) pins that release."""
    result = []
    for req in found.requirements:
        match = _THEANO_TAG.search(req.spec) if req.name == "theano" else None
        if match:
            result.append(Constraint("theano", f"=={match.group(1)}", "stated", (req.evidence,),
                                     f"a git dependency on Theano's tag rel-{match.group(1)}"))
    return result


def frameworks_used(found: Findings, as_of: str) -> tuple[list[Framework], list[Constraint]]:
    named: dict[str, list[Evidence]] = {}
    specs: dict[str, str] = {}
    for req in found.requirements:
        framework = frameworks.by_name(req.name)
        if framework:
            named.setdefault(framework.name, []).append(req.evidence)
            if req.spec and not specs.get(framework.name):
                specs[framework.name] = req.spec
    for use in found.uses:
        framework = frameworks.by_import(use.name.split(".")[0])
        if framework:
            named.setdefault(framework.name, []).append(use.evidence)
    on_theano = _keras_on_theano(found)
    used, constraints = [], []
    for name, where in named.items():
        spec = specs.get(name, "")
        used.append(Framework(name, spec, tuple(_unique(where)[:MAX_EVIDENCE])))
        framework = frameworks.by_name(name)
        assert framework is not None
        for pairing in framework.pairings:
            if frameworks.applies(pairing, spec, on_theano or name != "keras", as_of):
                constraints.append(Constraint(pairing.subject, pairing.spec, pairing.strength, (where[0],),
                                              f"{pairing.says} [{pairing.source}]"))
    return used, constraints


def _keras_on_theano(found: Findings) -> bool:
    """Keras runs on Theano here when a KERAS_BACKEND / keras.json says so, or the code imports
    theano itself and nothing names another backend."""
    backends = {b for b, _ in found.keras_backend}
    if backends:
        return "theano" in backends
    return any(u.name.split(".")[0] == "theano" for u in found.uses) or \
        any(r.name == "theano" for r in found.requirements)


def python_major(found: Findings, constraints: Iterable[Constraint]) -> tuple[int | None, tuple[Evidence, ...]]:
    if found.python2_only:
        return 2, tuple(found.python2_only[:MAX_EVIDENCE])
    if found.python3_only:
        return 3, tuple(found.python3_only[:MAX_EVIDENCE])
    majors: dict[int, list[Evidence]] = {}
    for constraint in constraints:
        if constraint.subject != "python" or constraint.strength == "soft":
            continue
        spec = _specifier(constraint.spec)
        if spec is None:
            continue
        allowed = {m for m in (2, 3) if any(spec.contains(v) for v in (f"{m}.{n}" for n in range(13)))}
        if len(allowed) == 1:
            majors.setdefault(allowed.pop(), []).extend(constraint.evidence)
    if len(majors) == 1:
        major, where = majors.popitem()
        return major, tuple(where[:MAX_EVIDENCE])
    return None, ()


def _specifier(spec: str) -> SpecifierSet | None:
    try:
        return SpecifierSet(spec)
    except InvalidSpecifier:
        return None


def _unique(items: Iterable[Evidence]) -> list[Evidence]:
    seen: dict[Evidence, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)


def python2_ceilings(found: Findings) -> list[Constraint]:
    """For Python 2 code: the last release of each library it uses that still has 2.7 wheels."""
    result = []
    for ceiling in frameworks.python2_ceilings():
        where = [r.evidence for r in found.requirements if r.name == ceiling.name] + \
            [u.evidence for u in found.uses if u.name.split(".")[0] in ceiling.imports]
        if where:
            result.append(Constraint(ceiling.name, f"<={ceiling.last}", "hard", tuple(_unique(where)[:MAX_EVIDENCE]),
                                     f"{ceiling.name} {ceiling.last} is the last release with Python 2.7 wheels "
                                     f"[{ceiling.source}]"))
    return result


def python_syntax_constraints(found: Findings) -> list[Constraint]:
    result = []
    if found.python2_only:
        result.append(Constraint("python", "<3", "hard", tuple(found.python2_only[:MAX_EVIDENCE]),
                                 f"{len(found.python2_only)} of {found.python_files} Python files parse only as "
                                 "Python 2 (print statements, `except X, e`, backticks, old octals, ...)"))
    if found.python3_only:
        result.append(Constraint("python", ">=3", "hard", tuple(found.python3_only[:MAX_EVIDENCE]),
                                 "the code uses syntax Python 2 cannot parse (f-strings, annotations, "
                                 "keyword-only arguments, ...)"))
    return result
