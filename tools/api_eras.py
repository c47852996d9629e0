"""Write profiles/api_eras.yaml: which releases of Theano, Lasagne, Keras, Blocks, Fuel and PyMC3
have each public module and each public module-level name (and each private helper a module
defines with `def` or `class`), read from the release trees with `ast` (never imported).

    python tools/api_eras.py THEANO_GIT LASAGNE_GIT KERAS_GIT BLOCKS_GIT FUEL_GIT PYMC3_GIT
        [-o profiles/api_eras.yaml]

Each argument is a git directory (a clone or a bare mirror) of github.com/Theano/Theano,
github.com/Lasagne/Lasagne, github.com/keras-team/keras, github.com/mila-iqia/blocks,
github.com/mila-iqia/fuel and github.com/pymc-devs/pymc; for PyMC3 a git directory whose tags
(v3.0 ... v3.11.5, named as upstream's) hold the `pymc3/` folder of each release's PyPI sdist
will do: `pip download --no-deps --no-binary :all: pymc3==X`, one commit per release. Not run in
CI: the committed table is re-checked against real installed releases by tests/test_api_eras.py.

A module is present at a release when its file is there and its top level does not raise
unconditionally (Theano 0.10's `theano.sandbox.cuda` is such a stub). Its names are what its top
level binds: `def`, `class`, assignments, `from <same project> import name` anywhere, any import
in a package's `__init__`, and the names a `from x import *` of the same project brings (its
`__all__`, else its public names): tools/api_walk.py, which a Python 2.7 given with --python2
runs for the sources in Python 2 syntax."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import api_walk  # type: ignore[import-not-found]  # tools/ is on sys.path when this file runs

from theanodoctor.kb_api_eras import ranges

PROJECTS = {
    # key: (label, package, [(release, tag or commit)])
    "theano": ("Theano", "theano", [(v, "rel-" + v.replace("b", "beta")) for v in (
        "0.7", "0.8.0", "0.8.1", "0.8.2", "0.9.0", "0.10.0b1", "0.10.0b2", "0.10.0b3", "0.10.0b4",
        "1.0.0", "1.0.1", "1.0.2", "1.0.3", "1.0.4", "1.0.5")]),
    # the last master commit is what `pip install` of GitHub's master gives (version 0.2.dev1); before
    # 0.1, code of 2015 ran on GitHub snapshots that all called themselves 0.1.dev: the one before
    # get_output() left the layers (2015-05-12), and the last before the deprecated Objective classes
    # went (2015-08-06), labelled by their dates
    "lasagne": ("Lasagne", "lasagne", [("0.1.dev0+2015.05.12", "2fa74dcd53e180ea923ef01b7bef08908a675501"),
                                       ("0.1.dev0+2015.08.06", "96df7d8bdd1d34ba5fa09758f761697412127f1f"),
                                       ("0.1", "v0.1"), ("0.2.dev1", "5d3c63cb315c50b1cbd27a6bc8664b406f34dd99")]),
    # 0.1.0 ... 2.3.1: the releases on Theano (0.1 and 0.2 on Theano alone; 2.4 is TensorFlow only)
    "keras": ("Keras", "keras", [(v, v) for v in (
        "0.1.0 0.1.1 0.1.2 0.1.3 0.2.0 0.3.0 0.3.1 0.3.2 0.3.3 "
        "1.0.0 1.0.1 1.0.2 1.0.3 1.0.4 1.0.5 1.0.6 1.0.7 1.0.8 1.1.0 1.1.1 1.1.2 1.2.0 1.2.1 1.2.2 "
        "2.0.0 2.0.1 2.0.2 2.0.3 2.0.4 2.0.5 2.0.6 2.0.7 2.0.8 2.0.9 2.1.0 2.1.1 2.1.2 2.1.3 2.1.4 "
        "2.1.5 2.1.6 2.2.0 2.2.1 2.2.2 2.2.3 2.2.4 2.2.5 2.3.0 2.3.1").split()]),
    # Blocks and Fuel were installed from GitHub: their tags, and the last master commit, which
    # still calls itself 0.2.0 (labelled 0.2.0+master here, after the 0.2.0 release)
    "blocks": ("Blocks", "blocks", [("0.0.1", "v0.0.1"), ("0.1.0", "v0.1.0"), ("0.1.1", "v0.1.1"), ("0.2.0", "0.2"),
                                    ("0.2.0+master", "c69c2dc2b9c90a8eac9e432690eb59ff99d2f28a")]),
    "fuel": ("Fuel", "fuel", [("0.0.1", "v0.0.1"), ("0.1.0", "v0.1"), ("0.1.1", "v0.1.1"), ("0.2.0", "0.2.0"),
                              ("0.2.0+master", "1d6292dc25e3a115544237e392e61bff6631d23c")]),
    # PyMC3 on Theano: 3.0 ... 3.9 (Theano), 3.10 and 3.11 (Theano-PyMC); the last of each minor.
    # From 3.7 on pymc3.plots (and in 3.11 pymc3.stats) also re-export ArviZ's functions at run
    # time, with setattr: those names are not in the table.
    "pymc3": ("PyMC3", "pymc3", [(v, "v" + v) for v in (
        "3.0 3.1 3.2 3.3 3.4.1 3.5 3.6 3.7 3.8 3.9.3 3.10.0 3.11.5").split()]),
}

# The release from which a project's line is judged first (kb_api_eras.Project.judged_from): Keras
# 1.0 rewrote the API of 0.x, and legacy code meets a newer Keras far more often than Keras 0.x, so
# the 0.x releases decide only what 1.0 and later leave open (a name only 0.x has, or one every
# later release has).
JUDGED_FROM = {"keras": "1.0.0"}


class Parsed(NamedTuple):
    """One module file at one release (see api_walk.walk)."""
    names: dict[str, int]
    stars: list[tuple[str, int]]  # (absolute module, line of the `if` it is under, or 0)
    froms: dict[str, tuple[str, str]]  # name -> (module of the same project, its name there)
    all_: list[str] | None
    raises: bool
    conditional: dict[str, int]  # name -> line of the `if` it is bound or deleted under
    defs: frozenset[str]  # the names its `def` and `class` statements bind


def _parsed(found: dict) -> Parsed:
    return Parsed(found["names"], [(m, c) for m, c in found["stars"]],
                  {k: (m, n) for k, (m, n) in found["froms"].items()}, found["all"], found["raises"],
                  found["conditional"], frozenset(found["defs"]))


def _tree(git: str, tag: str, package: str) -> dict[str, str]:
    """Every .py file of the package at the tag (tests excluded): path -> text."""
    listing = subprocess.run(["git", "-C", git, "ls-tree", "-r", "--name-only", tag, package + "/"],
                             check=True, capture_output=True, text=True).stdout.split()
    packages = {p.rpartition("/")[0] for p in listing if p.endswith("/__init__.py")}
    # a folder without __init__.py is no package: its files are not modules the release installs
    paths = [p for p in listing if p.endswith(".py") and not _private(p)
             and all("/".join(p.split("/")[:i]) in packages for i in range(1, p.count("/") + 1))]
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


def walk_release(files: dict[str, str], python2: str | None) -> dict[str, tuple[str, dict]]:
    """Module -> (its file, what api_walk.walk reads of it); sources in Python 2 syntax are read by
    ``python2``."""
    walked: dict[str, tuple[str, dict]] = {}
    legacy = []
    for path, text in files.items():
        module, package = module_of(path)
        try:
            walked[module] = (path, api_walk.walk(text, module, package))
        except SyntaxError:
            legacy.append((path, text, module, package))
    if legacy and python2:
        walker = str(Path(__file__).with_name("api_walk.py"))
        out = json.loads(subprocess.run([python2, walker], check=True, capture_output=True,
                                        input=json.dumps([[t, m, p] for _, t, m, p in legacy]).encode()).stdout)
        for (path, _, module, _), found in zip(legacy, out):
            if found is not None:
                walked[module] = (path, found)
    elif legacy:
        sys.stderr.write(f"{len(legacy)} files need --python2\n")
    return walked


def parse_release(files: dict[str, str], python2: str | None) -> dict[str, tuple[str, Parsed]]:
    return {module: (path, _parsed(found)) for module, (path, found) in walk_release(files, python2).items()}


Where = tuple[str, int, "tuple[str, int] | None"]  # file, line, (file, line) of the `if` it depends on


def exported(parsed: dict[str, tuple[str, Parsed]]) -> dict[str, tuple[str, dict[str, Where]]]:
    """Module -> (its file, public name -> where it is bound), star imports resolved: repeated
    until nothing changes, so import cycles (theano.tensor <-> theano.tensor.basic) settle."""

    def own(source: str, here: str, package: bool) -> str | None:
        """The project's module an import names: itself, or (Python 2) relative to the package."""
        if source in parsed:
            return source
        parent = here if package else here.rpartition(".")[0]
        return f"{parent}.{source}" if f"{parent}.{source}" in parsed else None

    found: dict[str, dict[str, Where]] = {}
    for module, (path, p) in parsed.items():
        package = path.endswith("__init__.py")
        found[module] = {n: (path, line, (path, p.conditional[n]) if n in p.conditional else None)
                         for n, line in p.names.items()
                         # a module's imports of other libraries are no names of its own
                         if package or n not in p.froms or own(p.froms[n][0], module, package)}
    changed = True
    while changed:
        changed = False
        for module, (path, p) in parsed.items():
            package, names = path.endswith("__init__.py"), found[module]
            for n, (source, original) in p.froms.items():  # cite the definition, not the re-export
                origin = found.get(own(source, module, package) or "", {}).get(original)
                if origin is not None and n in names:
                    origin = origin if n not in p.conditional else origin[:2] + ((path, p.conditional[n]),)
                    if names[n] != origin:
                        names[n], changed = origin, True
            for source, condition in p.stars:
                star = own(source, module, package) or ""
                wanted = parsed[star][1].all_ if star in parsed else None
                for n, where in list(found.get(star, {}).items()):
                    if n not in names and (n in wanted if wanted is not None else not n.startswith("_")):
                        names[n], changed = where if not condition else where[:2] + ((path, condition),), True
        for module, (path, p) in parsed.items():  # deleted under a condition
            for n, line in p.conditional.items():
                if n in found[module] and found[module][n][2] is None:
                    found[module][n] = found[module][n][:2] + ((path, line),)
    # a private helper the module defines is kept: legacy code imported some (Keras'
    # `_obtain_input_shape`, `_time_distributed_dense`), and lost them with a release
    return {m: (parsed[m][0], {n: w for n, w in found[m].items()
                               if not n.startswith("_") or n in parsed[m][1].defs and not n.startswith("__")})
            for m in parsed if not parsed[m][1].raises}


def _ranges(indices: list[int], releases: list[str]) -> str:
    return ranges(indices, releases, sep=",")


def build(key: str, git: str, python2: str | None) -> dict:
    """One project's table: every module with the releases that have it, and its names: `always`
    (in every release of the project) or `range [cite ...]`, citing the file and line that binds
    the name at its first release (when not the project's first) and at its last (when not the
    project's last); a cite without a file is the module's own file at that release."""
    _, top, releases = PROJECTS[key]
    at = [exported(parse_release(_tree(git, tag, top), python2)) for _, tag in releases]
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
                file, line, _ = at[i][module][1][name]
                tokens.append(f"{'' if file == at[i][module][0] else file}:{line}")
            condition = at[with_it[-1]][module][1][name][2]
            if condition:  # bound only when a condition holds, at its newest release
                file, line = condition
                tokens.append(f"?{'' if file == at[with_it[-1]][module][0] else file}:{line}")
            varying.append(" ".join([name] + tokens))
        if always:
            row["always"] = " ".join(always)
        if varying:
            row["names"] = varying
        modules[module] = row
    return {**head(key), "modules": modules}


def head(key: str, releases: list[tuple[str, str]] | None = None) -> dict:
    """A project's label, releases (by default those of PROJECTS), tags and (where set) the release
    it is judged from."""
    label, _, read = PROJECTS[key]
    releases = read if releases is None else releases
    return {"label": label, "releases": [r for r, _ in releases], "tags": [t for _, t in releases],
            **({"judged_from": JUDGED_FROM[key]} if key in JUDGED_FROM else {})}


HEADER = """\
# Which releases of Theano, Lasagne, Keras, Blocks, Fuel and PyMC3 have each public module and
# module-level name (and each private helper a module defines), read from the release trees with
# `ast` by tools/api_eras.py (do not edit by hand; re-run it).
#   releases / tags   the releases read, oldest first, and the git tag (or commit) of each:
#                     github.com/Theano/Theano, github.com/Lasagne/Lasagne, github.com/keras-team/keras,
#                     github.com/mila-iqia/blocks, github.com/mila-iqia/fuel, github.com/pymc-devs/pymc
#   judged_from       the releases before it decide only what the later ones leave open (Keras 0.x)
#   modules.M.in      the releases that have module M (a stub that raises on import counts as absent)
#   path / paths      M's file at its newest release (paths: the file per release where it moved)
#   always            names bound in M at every release read
#   names             "N RANGES [FILE]:LINE ... [?[FILE]:LINE]": name N, the releases with it, then where
#                     it is bound at its first release (unless that is the first read) and at its last
#                     (unless that is the last read); no FILE: M's own file at that release; ?: at its
#                     newest release N is bound (or deleted) only under the `if` at that line. So every row's source
#                     is "<Project> <tag> <file>:<line>", e.g. "Theano rel-0.8.0 theano/tensor/nnet/nnet.py:2186".
"""


def write(argv: list[str] | None, doc: str, builder: Callable[[str, str, str | None], dict], output: str,
          header: str, keys: tuple[str, ...] = tuple(PROJECTS)) -> int:
    """The command line of the table writers (this file, tools/api_keywords.py, tools/api_attrs.py):
    a git directory per project of ``keys``, --python2, -o; each project's table built by ``builder``
    under ``header``."""
    import yaml

    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    for key in keys:
        parser.add_argument(key, help=f"a git directory of {PROJECTS[key][0]}")
    parser.add_argument("--python2", help="a Python 2.7 for sources in Python 2 syntax")
    parser.add_argument("-o", "--output", default=output)
    args = parser.parse_args(argv)
    table = {key: builder(key, getattr(args, key), args.python2) for key in keys}
    text = yaml.safe_dump({"projects": table}, sort_keys=False, width=10_000, default_flow_style=False)
    Path(args.output).write_text(header + text, encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    return write(argv, __doc__ or "", build, "profiles/api_eras.yaml", HEADER)


if __name__ == "__main__":
    sys.exit(main())
