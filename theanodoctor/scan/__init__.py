"""`theanodoctor scan`: read a repository folder and say what it needs, with evidence, never
importing or running its code. ``scan_repo`` never raises for a bad repository: what it could not
read is in ``problems``."""

from __future__ import annotations

import datetime
from pathlib import Path

from theanodoctor.scan import dating, frameworks, infer, markers
from theanodoctor.scan.files import read_text, walk
from theanodoctor.scan.findings import Findings
from theanodoctor.scan.model import Problem, ScanResult
from theanodoctor.scan.modules import own_modules
from theanodoctor.scan.readers import read_file
from theanodoctor.scan.theano_range import theano_range

__all__ = ["ScanResult", "scan_repo"]


def scan_repo(path: Path, as_of: datetime.date | None = None) -> ScanResult:
    root = Path(path)
    found = Findings()
    tracked = markers.tracked_roots() | {i for f in frameworks.frameworks() for i in f.imports} | \
        {i for c in frameworks.python2_ceilings() for i in c.imports}
    mtimes: list[float] = []
    python_rels: list[str] = []
    seen: set[str] = set()
    for file in walk(root, found.problems):
        if file.rel in seen:
            continue
        text = read_text(file, found.problems)
        if text is None:
            continue
        try:
            mtimes.append(file.path.stat().st_mtime)
        except OSError:
            pass
        if file.kind == "python":
            python_rels.append(file.rel)
        try:
            read_file(file, text, found, root, seen, tracked)
        except (RecursionError, MemoryError, ValueError, TypeError, AttributeError, KeyError, IndexError) as exc:
            # a file this scanner cannot follow (nested too deep, or a form it does not know)
            found.problems.append(Problem(file.rel, f"could not be read: {type(exc).__name__}: {exc}"))
    constraints = list(found.constraints)
    constraints += infer.marker_constraints(found) + infer.theano_git_constraints(found)
    when, source = _date(root, as_of, mtimes, found.dates)
    used, paired = infer.frameworks_used(found, when.isoformat())
    constraints += paired + infer.python_syntax_constraints(found)
    major, python_evidence = infer.python_major(found, constraints)
    if major == 2:
        constraints += infer.python2_ceilings(found)
    span = theano_range([c for c in constraints if c not in paired], markers.releases(), paired)
    notes = () if python_rels or found.requirements else ("no Python code or dependency declarations found: "
                                                           "this does not look like a Python project",)
    return ScanResult(
        python_major=major, python_evidence=python_evidence,
        theano_min=span.low, theano_max=span.high, theano_evidence=span.evidence,
        frameworks=tuple(used), as_of=when.isoformat(), as_of_source=source,
        constraints=tuple(constraints), requirements=tuple(found.requirements),
        modules=own_modules(python_rels, found.runs_at_import), problems=tuple(found.problems) + span.problems,
        python_files=found.python_files, python2_files=len(found.python2_only), notes=notes)


def _date(root: Path, as_of: datetime.date | None, mtimes: list[float],
          written: list[str]) -> tuple[datetime.date, str]:
    if as_of is not None:
        return as_of, "option"
    committed = dating.git_date(root)
    if committed is not None:
        return committed, "git"
    today = datetime.date.today()
    return dating.files_date(mtimes, written, today) or today, "files"
