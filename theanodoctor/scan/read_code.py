"""Python source, from its syntax tree (never imported or run): whether it parses only as
Python 2 (or only as Python 3), the modules and attributes it uses with the keyword names of each
call, and the THEANO_FLAGS / KERAS_BACKEND strings in it."""

from __future__ import annotations

import ast
import warnings
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from theanodoctor.scan import flags, markers, py2lines, py2tree
from theanodoctor.scan.files import RepoFile
from theanodoctor.scan.findings import Findings, Use
from theanodoctor.scan.model import Problem, evidence
from theanodoctor.scan.py2tree import Ref

MAX_EVIDENCE = 5  # Python-3-only files past this many change nothing: not looked for


def read_python(file: RepoFile, text: str, out: Findings, tracked: frozenset[str]) -> None:
    out.python_files += 1
    lines = text.splitlines()
    try:
        tree = _parse(text)
    except (SyntaxError, ValueError) as exc:
        try:  # Python 2: the fast way first, the lossless parser when it is not enough
            tree = _parse(py2lines.repair(text))
        except (SyntaxError, ValueError):
            _read_python2(file, text, lines, exc, out, tracked)
            return
        number = getattr(exc, "lineno", None) or 1
        out.python2_only.append(evidence(file.rel, number, _line(lines, number) or str(exc)))
        _read_tree(file, lines, tree, out, tracked, python2=True)
        return
    _read_tree(file, lines, tree, out, tracked, python2=False)


def _parse(text: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes in old code are not the scan's business
        return ast.parse(text)


def _read_tree(file: RepoFile, lines: list[str], tree: ast.Module, out: Findings, tracked: frozenset[str],
               python2: bool) -> None:
    nodes: dict[type, list[Any]] = defaultdict(list)  # one walk; every question below asks it
    for node in _walk(tree):
        nodes[node.__class__].append(node)
    if not python2 and len(out.python3_only) < MAX_EVIDENCE:
        modern = _python3_only(nodes)
        if modern is not None:
            out.python3_only.append(evidence(file.rel, modern, _line(lines, modern)))
    imports = [(n, n.lineno) for n in nodes[ast.Import] + nodes[ast.ImportFrom]]
    guarded = {line for n in nodes[ast.Try] if n.handlers for line in range(n.lineno, (n.end_lineno or n.lineno) + 1)}
    aliases = _aliases(imports, file, lines, out, tracked, guarded)
    if any(v.split(".")[0] in tracked for v in aliases[0].values()):
        _record(file, lines, _references(nodes), aliases, out, guarded)
    _strings(file, lines, ((n.value, n.lineno) for n in nodes[ast.Constant] if isinstance(n.value, str)), out)
    if "/" not in file.rel.removeprefix("src/") and not all(_quiet(s) for s in tree.body):
        out.runs_at_import.add(file.rel)


_DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Pass)


def _quiet(statement: ast.stmt) -> bool:
    """A top-level statement an import runs without doing work: imports, definitions, the
    docstring, assignments of plain values, `if __name__ == "__main__":`, `try:` around imports."""
    if isinstance(statement, _DEFINITIONS):
        return True
    if isinstance(statement, ast.Expr):
        return isinstance(statement.value, ast.Constant)
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        return statement.value is None or all(
            isinstance(n, (ast.Constant, ast.Name, ast.Attribute, ast.Tuple, ast.List, ast.Dict, ast.Load,
                           ast.UnaryOp, ast.USub, ast.BinOp, ast.Add, ast.Mult, ast.Sub, ast.Div, ast.keyword))
            for n in ast.walk(statement.value))
    if isinstance(statement, ast.If):
        test = statement.test
        return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__") \
            or all(_quiet(s) for s in statement.body + statement.orelse)
    if isinstance(statement, ast.Try):
        return all(_quiet(s) for s in statement.body + statement.orelse + statement.finalbody) and all(
            _quiet(s) for h in statement.handlers for s in h.body)
    return False


def _read_python2(file: RepoFile, text: str, lines: list[str], error: Exception, out: Findings,
                  tracked: frozenset[str]) -> None:
    tree = py2tree.parse(text)
    if tree is None:
        out.problems.append(Problem(file.rel, f"parses neither as Python 3 nor as Python 2: {error}"))
        return
    number = getattr(error, "lineno", None) or 1
    out.python2_only.append(evidence(file.rel, number, _line(lines, number) or str(error)))
    if "/" not in file.rel.removeprefix("src/"):
        out.runs_at_import.add(file.rel)  # not judged on this path: assume the worst
    imports: list[tuple[ast.AST, int]] = []
    for source, line in py2tree.import_statements(tree):
        try:
            imports.extend((node, line) for node in ast.parse(source).body)
        except SyntaxError:
            continue
    guarded = py2tree.try_lines(tree)
    aliases = _aliases(imports, file, lines, out, tracked, guarded)
    _record(file, lines, py2tree.references(tree), aliases, out, guarded)
    _strings(file, lines, py2tree.strings(tree), out)


def _aliases(imports: Iterable[tuple[ast.AST, int]], file: RepoFile, lines: list[str], out: Findings,
             tracked: frozenset[str], guarded: set[int]) -> tuple[dict[str, str], set[str]]:
    """Bound name -> full dotted name, and the names whose binding may not hold (bound inside
    `try:`, or bound to different modules: `try: from theano import gpuarray as gpu` / `except:
    from theano.sandbox import cuda as gpu`). Each import of a tracked module is a use too."""
    aliases: dict[str, str] = {}
    fallible: set[str] = set()
    for node, line in imports:
        full_names: list[tuple[str, str]] = []
        if isinstance(node, ast.Import):
            full_names = [(a.asname or a.name.split(".")[0], a.name if a.asname else a.name.split(".")[0])
                          for a in node.names]
            uses = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            full_names = [(a.asname or a.name, f"{node.module}.{a.name}") for a in node.names if a.name != "*"]
            uses = [f"{node.module}.{a.name}" if a.name != "*" else node.module for a in node.names]
        else:
            continue
        for bound, full in full_names:
            if line in guarded or aliases.get(bound, full) != full:
                fallible.add(bound)
            aliases[bound] = full
        for name in uses:
            if name.split(".")[0] in tracked:
                out.uses.append(Use(name, (), evidence(file.rel, line, _line(lines, line)), line in guarded))
    return aliases, fallible


def _record(file: RepoFile, lines: list[str], refs: Iterable[Ref], aliases: tuple[dict[str, str], set[str]],
            out: Findings, guarded: set[int]) -> None:
    names, fallible = aliases
    for name, keywords, line in refs:
        head, _, rest = name.partition(".")
        if head not in names:
            continue
        full = names[head] + ("." + rest if rest else "")
        if markers.is_marked(full):  # only what a marker can match: T.dot and friends say nothing
            out.uses.append(Use(full, keywords, evidence(file.rel, line, _line(lines, line)),
                                line in guarded or head in fallible))


_FIELDS: dict[type, tuple[str, ...]] = {}
# Fields that never hold a node this reader looks at (names, contexts, operators, flags)
_LEAF_FIELDS = frozenset({"ctx", "op", "id", "attr", "arg", "name", "module", "asname", "level", "kind",
                          "type_comment", "is_async", "conversion", "lineno"})


_MIXED_LISTS = frozenset({"names", "keys", "kw_defaults"})  # strings; None in `{**d}` and `def f(*, k)`


def _walk(tree: ast.AST) -> list[ast.AST]:
    """Every node, like ast.walk, about twice as fast: no expression contexts or operators, and
    each class's fields looked up once."""
    found = [tree]
    i = 0
    while i < len(found):
        node = found[i]
        i += 1
        fields = _FIELDS.get(node.__class__)
        if fields is None:
            fields = _FIELDS[node.__class__] = tuple(f for f in node._fields if f not in _LEAF_FIELDS)
        for name in fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                if name in _MIXED_LISTS:
                    found.extend([v for v in value if isinstance(v, ast.AST)])
                else:
                    found.extend(value)
            elif isinstance(value, ast.AST):
                found.append(value)
    return found


def _references(nodes: dict[type, list[Any]]) -> Iterator[Ref]:
    """Maximal dotted chains `a.b.c`, each with the keyword names when it is called."""
    calls, attributes = nodes[ast.Call], nodes[ast.Attribute]
    inner = {id(n.value) for n in attributes} | {id(n.func) for n in calls}  # parts of a longer chain, callees
    for call in calls:
        chain = _chain(call.func)
        if chain is not None:
            yield chain, tuple(k.arg for k in call.keywords if k.arg), call.lineno
    for attribute in attributes:
        if id(attribute) not in inner:
            chain = _chain(attribute)
            if chain is not None:
                yield chain, (), attribute.lineno


def _chain(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


_PYTHON3_NODES = (ast.JoinedStr, ast.Nonlocal, ast.AsyncFunctionDef, ast.Await, ast.YieldFrom, ast.AnnAssign)


def _python3_only(nodes: dict[type, list[Any]]) -> int | None:
    """The line of a construct Python 2 cannot parse: f-strings, nonlocal, async, `yield from`,
    annotations, keyword-only arguments, `@`, `raise ... from`."""
    found = [n.lineno for kind in _PYTHON3_NODES for n in nodes.get(kind, ())]
    found += [f.lineno for f in nodes.get(ast.FunctionDef, ())
              if f.returns or f.args.kwonlyargs or any(a.annotation for a in f.args.args)]
    found += [n.lineno for n in nodes.get(ast.BinOp, ()) if isinstance(n.op, ast.MatMult)]
    found += [n.lineno for n in nodes.get(ast.Raise, ()) if n.cause is not None]
    return min(found) if found else None


def _strings(file: RepoFile, lines: list[str], items: Iterable[tuple[str, int]], out: Findings) -> None:
    for value, line in items:
        if "=" in value and len(value) < 2000:
            flags.read_flag_string(value, evidence(file.rel, line, _line(lines, line) or value), out)
        elif value in ("theano", "tensorflow", "cntk") and "KERAS_BACKEND" in _line(lines, line):
            out.keras_backend.append((value, evidence(file.rel, line, _line(lines, line))))


def _line(lines: list[str], number: int) -> str:
    return lines[number - 1] if 0 < number <= len(lines) else ""
