"""Write profiles/api_eras.yaml: which releases of Theano, Lasagne and Keras have each public
module and each public module-level name, read from the release trees with `ast` (never imported).

    python tools/api_eras.py THEANO_GIT LASAGNE_GIT KERAS_GIT [-o profiles/api_eras.yaml]

Each argument is a git directory (a clone or a bare mirror) of github.com/Theano/Theano,
github.com/Lasagne/Lasagne and github.com/keras-team/keras. Not run in CI: the committed table is
re-checked against real installed releases by tests/test_api_eras.py.

A module is present at a release when its file is there and its top level does not raise
unconditionally (Theano 0.10's `theano.sandbox.cuda` is such a stub). Its names are what its top
level binds: `def`, `class`, assignments, `from <same project> import name` anywhere, any import
in a package's `__init__`, and the names a `from x import *` of the same project brings (its
`__all__`, else its public names). Sources in Python 2 syntax are parsed by a Python 2.7 given
with --python2 (the same walk, see _PY2_WALK)."""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

PROJECTS = {
    # key: (label, package, [(release, tag or commit)])
    "theano": ("Theano", "theano", [(v, "rel-" + v.replace("b", "beta")) for v in (
        "0.7", "0.8.0", "0.8.1", "0.8.2", "0.9.0", "0.10.0b1", "0.10.0b2", "0.10.0b3", "0.10.0b4",
        "1.0.0", "1.0.1", "1.0.2", "1.0.3", "1.0.4", "1.0.5")]),
    # the last master commit is what `pip install` of GitHub's master gives (version 0.2.dev1)
    "lasagne": ("Lasagne", "lasagne", [("0.1", "v0.1"), ("0.2.dev1", "5d3c63cb315c50b1cbd27a6bc8664b406f34dd99")]),
    # 1.0.0 ... 2.3.1: the releases with a Theano backend (2.4 is TensorFlow only)
    "keras": ("Keras", "keras", [(v, v) for v in (
        "1.0.0 1.0.1 1.0.2 1.0.3 1.0.4 1.0.5 1.0.6 1.0.7 1.0.8 1.1.0 1.1.1 1.1.2 1.2.0 1.2.1 1.2.2 "
        "2.0.0 2.0.1 2.0.2 2.0.3 2.0.4 2.0.5 2.0.6 2.0.7 2.0.8 2.0.9 2.1.0 2.1.1 2.1.2 2.1.3 2.1.4 "
        "2.1.5 2.1.6 2.2.0 2.2.1 2.2.2 2.2.3 2.2.4 2.2.5 2.3.0 2.3.1").split()]),
}


class Parsed(NamedTuple):
    """One module file at one release: bound name -> line, star imports, `__all__`, raises."""
    names: dict[str, int]
    stars: list[tuple[str, int]]  # (absolute module, line)
    froms: dict[str, tuple[str, str]]  # name -> (module of the same project, its name there)
    all_: list[str] | None
    raises: bool


def _absolute(module: str | None, level: int, here: str, package: bool) -> str:
    if not level:
        return module or ""
    parts = here.split(".") if package else here.split(".")[:-1]
    parts = parts[:len(parts) - (level - 1)]
    return ".".join(parts + ([module] if module else []))


def walk(tree: ast.Module, here: str, package: bool, top: str) -> Parsed:
    names: dict[str, int] = {}
    stars: list[tuple[str, int]] = []
    froms: dict[str, tuple[str, str]] = {}
    all_: list[str] | None = None
    raises = False

    def bind(name: str, line: int) -> None:
        names.setdefault(name, line)

    def targets(node: ast.AST, line: int) -> None:
        if isinstance(node, ast.Name):
            bind(node.id, line)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for elt in node.elts:
                targets(elt, line)

    def body(stmts: list[ast.stmt], top_level: bool) -> None:
        nonlocal all_, raises
        for st in stmts:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bind(st.name, st.lineno)
            elif isinstance(st, ast.Assign):
                for target in st.targets:
                    targets(target, st.lineno)
                    if isinstance(target, ast.Name) and target.id == "__all__":
                        try:
                            value = ast.literal_eval(st.value)
                            all_ = [str(v) for v in value]
                        except ValueError:
                            pass
            elif isinstance(st, ast.AnnAssign):
                targets(st.target, st.lineno)
            elif isinstance(st, ast.ImportFrom):
                source = _absolute(st.module, st.level, here, package)
                own = source == top or source.startswith(top + ".")
                for alias in st.names:
                    if alias.name == "*":
                        if own:
                            stars.append((source, st.lineno))
                    elif own or package:
                        bind(alias.asname or alias.name, st.lineno)
                        if own:
                            froms.setdefault(alias.asname or alias.name, (source, alias.name))
            elif isinstance(st, ast.Import) and package:
                for alias in st.names:
                    bind(alias.asname or alias.name.split(".")[0], st.lineno)
            elif isinstance(st, ast.Raise) and top_level:
                raises = True
            elif isinstance(st, ast.If):
                body(st.body, False)
                body(st.orelse, False)
            elif isinstance(st, ast.Try):
                body(st.body, False)
                for handler in st.handlers:
                    body(handler.body, False)
                body(st.orelse, False)
                body(st.finalbody, False)
            elif isinstance(st, ast.With):
                body(st.body, False)

    body(tree.body, True)
    return Parsed(names, stars, froms, all_, raises)


# The same walk in Python 2.7 syntax, for the files Python 3 cannot parse (print statements, ...).
_PY2_WALK = r'''
import ast, json, sys
def absolute(module, level, here, package):
    if not level:
        return module or ""
    parts = here.split(".") if package else here.split(".")[:-1]
    parts = parts[:len(parts) - (level - 1)]
    return ".".join(parts + ([module] if module else []))
def walk(src, here, package, top):
    names, stars, froms, all_, raises = {}, [], {}, [None], [False]
    def bind(n, line):
        names.setdefault(n, line)
    def targets(node, line):
        if isinstance(node, ast.Name):
            bind(node.id, line)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for e in node.elts:
                targets(e, line)
    def body(stmts, top_level):
        for st in stmts:
            if isinstance(st, (ast.FunctionDef, ast.ClassDef)):
                bind(st.name, st.lineno)
            elif isinstance(st, ast.Assign):
                for t in st.targets:
                    targets(t, st.lineno)
                    if isinstance(t, ast.Name) and t.id == "__all__":
                        try:
                            all_[0] = [str(v) for v in ast.literal_eval(st.value)]
                        except ValueError:
                            pass
            elif isinstance(st, ast.ImportFrom):
                source = absolute(st.module, st.level, here, package)
                own = source == top or source.startswith(top + ".")
                for a in st.names:
                    if a.name == "*":
                        if own:
                            stars.append((source, st.lineno))
                    elif own or package:
                        bind(a.asname or a.name, st.lineno)
                        if own:
                            froms.setdefault(a.asname or a.name, (source, a.name))
            elif isinstance(st, ast.Import) and package:
                for a in st.names:
                    bind(a.asname or a.name.split(".")[0], st.lineno)
            elif isinstance(st, ast.Raise) and top_level:
                raises[0] = True
            elif isinstance(st, ast.If):
                body(st.body, False); body(st.orelse, False)
            elif isinstance(st, ast.TryExcept):
                body(st.body, False); body(st.orelse, False)
                for h in st.handlers:
                    body(h.body, False)
            elif isinstance(st, ast.TryFinally):
                body(st.body, False); body(st.finalbody, False)
            elif isinstance(st, ast.With):
                body(st.body, False)
    body(ast.parse(src).body, True)
    return [names, stars, froms, all_[0], raises[0]]
out = []
for item in json.load(sys.stdin):
    try:
        out.append(walk(item[0], item[1], item[2], item[3]))
    except SyntaxError:
        out.append(None)
json.dump(out, sys.stdout)
'''


def _tree(git: str, tag: str, package: str) -> dict[str, str]:
    """Every .py file of the package at the tag (tests excluded): path -> text."""
    listing = subprocess.run(["git", "-C", git, "ls-tree", "-r", "--name-only", tag, package + "/"],
                             check=True, capture_output=True, text=True).stdout.split()
    paths = [p for p in listing if p.endswith(".py") and not _private(p)]
    batch = subprocess.run(["git", "-C", git, "cat-file", "--batch"], check=True, capture_output=True,
                           input="".join(f"{tag}:{p}\n" for p in paths).encode()).stdout
    files, pos = {}, 0
    for path in paths:
        header_end = batch.index(b"\n", pos)
        size = int(batch[pos:header_end].split()[2])
        files[path] = batch[header_end + 1:header_end + 1 + size].decode("utf-8", "replace")
        pos = header_end + 1 + size + 1
    return files


def _private(path: str) -> bool:
    parts = path[:-3].split("/")
    return any(p.startswith("_") and p != "__init__" or p in ("tests", "test") or p.startswith("test_")
               for p in parts)


def module_of(path: str) -> tuple[str, bool]:
    parts = path[:-3].split("/")
    package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if package else parts), package


def parse_release(files: dict[str, str], top: str, python2: str | None) -> dict[str, tuple[str, Parsed]]:
    parsed: dict[str, tuple[str, Parsed]] = {}
    legacy = []
    for path, text in files.items():
        module, package = module_of(path)
        try:
            parsed[module] = (path, walk(ast.parse(text), module, package, top))
        except SyntaxError:
            legacy.append((path, text, module, package))
    if legacy and python2:
        out = json.loads(subprocess.run([python2, "-c", _PY2_WALK], check=True, capture_output=True,
                                        input=json.dumps([[t, m, p, top] for _, t, m, p in legacy]).encode()).stdout)
        for (path, _, module, _), result in zip(legacy, out):
            if result is not None:
                names, stars, froms, all_, raises = result
                parsed[module] = (path, Parsed(names, [tuple(s) for s in stars],
                                               {k: tuple(v) for k, v in froms.items()}, all_, raises))
    elif legacy:
        sys.stderr.write(f"{len(legacy)} files need --python2\n")
    return parsed


def exported(parsed: dict[str, tuple[str, Parsed]]) -> dict[str, tuple[str, dict[str, tuple[str, int]]]]:
    """Module -> (its file, public name -> (file, line) where it is bound), star imports resolved."""
    memo: dict[str, dict[str, tuple[str, int]]] = {}

    def names(module: str, stack: tuple[str, ...]) -> dict[str, tuple[str, int]]:
        if module in memo:
            return memo[module]
        path, p = parsed[module]
        found = {n: (path, line) for n, line in p.names.items()}
        for n, (source, original) in p.froms.items():  # cite the definition, not the re-export
            if source in parsed and source not in stack:
                origin = names(source, stack + (module,)).get(original)
                if origin is not None:
                    found[n] = origin
        for source, line in p.stars:
            if source in parsed and source not in stack:
                wanted = parsed[source][1].all_
                for n, where in names(source, stack + (module,)).items():
                    if n in wanted if wanted is not None else not n.startswith("_"):
                        found.setdefault(n, where)
        memo[module] = found
        return found

    return {m: (parsed[m][0], {n: w for n, w in names(m, ()).items() if not n.startswith("_")})
            for m in parsed if not parsed[m][1].raises}


def _ranges(indices: list[int], releases: list[str]) -> str:
    spans: list[list[int]] = []
    for i in indices:
        if spans and spans[-1][1] == i - 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    return ",".join(releases[a] if a == b else f"{releases[a]}-{releases[b]}" for a, b in spans)


def build(key: str, git: str, python2: str | None) -> dict:
    """One project's table: every module with the releases that have it, and its names: `always`
    (in every release of the project) or `range [cite ...]`, citing the file and line that binds
    the name at its first release (when not the project's first) and at its last (when not the
    project's last); a cite without a file is the module's own file at that release."""
    label, top, releases = PROJECTS[key]
    at = [exported(parse_release(_tree(git, tag, top), top, python2)) for _, tag in releases]
    labels, last = [r for r, _ in releases], len(releases) - 1
    modules: dict[str, dict] = {}
    for module in sorted(set().union(*at)):
        have = [i for i, names in enumerate(at) if module in names]
        row: dict = {"in": _ranges(have, labels), "path": at[have[-1]][module][0]}
        paths = {at[i][module][0] for i in have}
        if len(paths) > 1:  # a module that became a package (or back): the file at each release
            row["paths"] = {p: _ranges([i for i in have if at[i][module][0] == p], labels) for p in sorted(paths)}
        always, varying = [], []
        for name in sorted(set().union(*(at[i][module][1] for i in have))):
            with_it = [i for i in have if name in at[i][module][1]]
            if with_it[0] == 0 and with_it[-1] == last and len(with_it) == last + 1:
                always.append(name)
                continue
            cited = ([with_it[0]] if with_it[0] != 0 else []) + ([with_it[-1]] if with_it[-1] != last else [])
            tokens = [_ranges(with_it, labels)]
            for i in cited:
                file, line = at[i][module][1][name]
                tokens.append(f"{'' if file == at[i][module][0] else file}:{line}")
            varying.append(" ".join([name] + tokens))
        if always:
            row["always"] = " ".join(always)
        if varying:
            row["names"] = varying
        modules[module] = row
    return {"label": label, "releases": labels, "tags": [t for _, t in releases], "modules": modules}


HEADER = """\
# Which releases of Theano, Lasagne and Keras have each public module and module-level name,
# read from the release trees with `ast` by tools/api_eras.py (do not edit by hand; re-run it).
#   releases / tags   the releases read, oldest first, and the git tag (or commit) of each:
#                     github.com/Theano/Theano, github.com/Lasagne/Lasagne, github.com/keras-team/keras
#   modules.M.in      the releases that have module M (a stub that raises on import counts as absent)
#   path / paths      M's file at its newest release (paths: the file per release where it moved)
#   always            names bound in M at every release read
#   names             "N RANGES [FILE]:LINE ...": name N, the releases with it, then where it is bound at its
#                     first release (unless that is the first read) and at its last (unless that is
#                     the last read); no FILE: M's own file at that release. So every row's source
#                     is "<Project> <tag> <file>:<line>", e.g. "Theano rel-0.8.0 theano/tensor/nnet/nnet.py:2186".
"""


def main(argv: list[str] | None = None) -> int:
    import yaml

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("theano")
    parser.add_argument("lasagne")
    parser.add_argument("keras")
    parser.add_argument("--python2", help="a Python 2.7 for sources in Python 2 syntax")
    parser.add_argument("-o", "--output", default="profiles/api_eras.yaml")
    args = parser.parse_args(argv)
    table = {key: build(key, getattr(args, key), args.python2) for key in PROJECTS}
    text = yaml.safe_dump({"projects": table}, sort_keys=False, width=10_000, default_flow_style=False)
    Path(args.output).write_text(HEADER + text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
