"""The repository's own top-level importable modules and packages (what an import smoke tries):
packages with an `__init__.py` at the top or under `src/`, and top-level `.py` files."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from theanodoctor.scan.model import Module

_NOT_MODULES = frozenset({"setup", "conftest", "__init__", "__main__", "fabfile", "noxfile", "tasks"})
_NOT_PACKAGES = frozenset({"tests", "test", "docs", "doc", "examples", "example", "benchmarks", "scripts"})
_IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")


def own_modules(python_files: Iterable[str], runs_at_import: Collection[str] = ()) -> tuple[Module, ...]:
    """From the relative paths of the repository's Python files; ``runs_at_import``: those whose
    top level does more than import and define (an import smoke would run them)."""
    found: dict[str, Module] = {}
    for rel in sorted(python_files):
        parts = rel.split("/")
        if parts[0] == "src" and len(parts) > 1:
            parts = parts[1:]
            prefix = "src/"
        else:
            prefix = ""
        if len(parts) == 1:
            name = parts[0][:-3]
            if _IDENTIFIER.match(name) and name not in _NOT_MODULES:
                found.setdefault(name, Module(name, prefix + parts[0], rel in runs_at_import))
        elif len(parts) == 2 and parts[1] == "__init__.py" and _IDENTIFIER.match(parts[0]) \
                and parts[0] not in _NOT_PACKAGES:
            found[parts[0]] = Module(parts[0], f"{prefix}{parts[0]}")
    return tuple(sorted(found.values(), key=lambda m: m.name))
