"""Write profiles/api_attrs.yaml: which releases of Theano, Lasagne and Keras give the instances of
each public class each attribute, for the classes whose attributes changed between releases, read
from the release trees with `ast` (never imported).

    python tools/api_attrs.py THEANO_GIT LASAGNE_GIT KERAS_GIT --python2 PY27 [-o profiles/api_attrs.yaml]

The arguments are git directories as for tools/api_eras.py, whose releases are read. An instance has
what its class body binds (methods, class attributes), what the class's methods set on `self`, and
the same of its bases (found by name among the project's classes of that release). Their objects
are the ones old code pickles (a Lasagne network, a Keras model, a compiled Theano function's ops).
Not run in CI: tests/test_explain_attr_eras.py checks rows against real installed releases."""

from __future__ import annotations

import sys

import api_eras  # type: ignore[import-not-found]  # tools/ is on sys.path when this file runs

from theanodoctor.kb_api_eras import ranges

PROJECTS = ("theano", "lasagne", "keras")

HEADER = """\
# Which releases of Theano, Lasagne and Keras give the instances of a class each attribute, read from
# the release trees with `ast` by tools/api_attrs.py (do not edit by hand; re-run it). Only classes
# whose attributes changed between the releases read are listed.
#   releases / tags   the releases read, oldest first, and the git tag (or commit) of each
#                     (github.com/Theano/Theano, github.com/Lasagne/Lasagne, github.com/keras-team/keras)
#   judged_from       the releases before it decide only what the later ones leave open (Keras 0.x)
#   classes.NAME      NAME as Python prints it in `'NAME' object has no attribute 'x'`. One row per
#                     module: "MODULE RANGES | ATTRIBUTE RANGES FILE:LINE | ...": the releases that have
#                     the class, then each attribute that not all of them give its instances (what the
#                     class and its bases bind, and what their methods set on `self`), the releases that
#                     do, and where it is bound at the first of them (at the last where only the class's
#                     older releases have it): the source a user opens is "<Project> <tag> <FILE>:<LINE>".
"""

Found = dict[str, tuple[str, int]]  # attribute -> (file, line)


def _instances(walked: dict[str, tuple[str, dict]]) -> dict[tuple[str, str], Found]:
    """(module, class) -> what its instances have, bases included (found by name: in the same module
    first, else in the module with the shortest name)."""
    by_name: dict[str, list[str]] = {}
    for module in sorted(walked, key=lambda m: (m.count("."), m)):
        for name in (walked[module][1].get("classes") or {}):
            by_name.setdefault(name, []).append(module)

    def resolve(module: str, name: str, seen: frozenset[tuple[str, str]]) -> Found:
        path, found = walked[module]
        line, bases, own = found["classes"][name]
        attributes: Found = {}
        for base in bases:
            home = module if base in (found.get("classes") or {}) else next(iter(by_name.get(base, [])), None)
            if home is not None and (home, base) not in seen:
                attributes.update(resolve(home, base, seen | {(home, base)}))
        attributes.update({a: (path, at) for a, at in own.items()})
        return attributes

    return {(module, name): resolve(module, name, frozenset({(module, name)}))
            for name, modules in by_name.items() if not name.startswith("_") for module in modules}


def build(key: str, git: str, python2: str | None) -> dict:
    """One project's table (private attributes left out: code outside the class does not use them)."""
    _, top, releases = api_eras.PROJECTS[key]
    labels = [r for r, _ in releases]
    seen: dict[tuple[str, str], dict[int, Found]] = {}
    for index, (_, tag) in enumerate(releases):
        for (module, name), found in _instances(api_eras.walk_release(api_eras._tree(git, tag, top), python2)).items():
            seen.setdefault((name, module), {})[index] = found
    classes: dict[str, list[str]] = {}
    for (name, module), at in sorted(seen.items()):
        have = sorted(at)
        tokens = []
        for attribute in sorted(a for a in set().union(*at.values()) if not a.startswith("_")):
            with_it = [i for i in have if attribute in at[i]]
            if with_it == have:
                continue
            cited = with_it[0] if with_it[0] != have[0] else with_it[-1]
            path, line = at[cited][attribute]
            tokens.append(f"{attribute} {ranges(with_it, labels, sep=',')} {path}:{line}")
        if tokens:
            classes.setdefault(name, []).append(" | ".join([f"{module} {ranges(have, labels, sep=',')}"] + tokens))
    return {**api_eras.head(key), "classes": classes}


def main(argv: list[str] | None = None) -> int:
    return api_eras.write(argv, __doc__ or "", build, "profiles/api_attrs.yaml", HEADER, PROJECTS)


if __name__ == "__main__":
    sys.exit(main())
