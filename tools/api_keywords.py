"""Write profiles/api_keywords.yaml: which releases of Theano, Lasagne, Keras, Blocks, Fuel and PyMC3
let a call pass each keyword, for every function (private helpers too), class constructor and public
method whose keywords changed between releases, read from the release trees with `ast` (never imported).

    python tools/api_keywords.py THEANO_GIT LASAGNE_GIT KERAS_GIT BLOCKS_GIT FUEL_GIT PYMC3_GIT --python2 PY27
        [-o profiles/api_keywords.yaml]

The arguments are those of tools/api_eras.py; Theano is read from rel-0.6 on (code of its time
passes `scan(strict=...)`, which 0.6 refuses). Not run in CI: tests/test_api_eras.py checks rows
against the real installed releases."""

from __future__ import annotations

import sys

import api_eras  # type: ignore[import-not-found]  # tools/ is on sys.path when this file runs

from theanodoctor.kb_api_eras import ranges

RELEASES = {key: ([("0.6", "rel-0.6")] if key == "theano" else []) + releases
            for key, (_, _, releases) in api_eras.PROJECTS.items()}

HEADER = """\
# Which releases of Theano, Lasagne, Keras, Blocks, Fuel and PyMC3 let a call pass each keyword, read
# from the release trees with `ast` by tools/api_keywords.py (do not edit by hand; re-run it). Only
# calls whose keywords changed between the releases read are listed.
#   releases / tags   the releases read, oldest first, and the git tag (or commit) of each
#                     (github.com/Theano/Theano, github.com/Lasagne/Lasagne, github.com/keras-team/keras,
#                     github.com/mila-iqia/blocks, github.com/mila-iqia/fuel, github.com/pymc-devs/pymc)
#   judged_from       the releases before it decide only what the later ones leave open (Keras 0.x)
#   calls.NAME        NAME as Python prints it in `NAME() got an unexpected keyword argument`: a
#                     function (`scan`), or `Class.__init__` / `Class.method` (Python 3.10 and later
#                     print the class; earlier ones only `__init__` or `method`). One row per module:
#                     "MODULE RANGES [**RANGES] | KEYWORD RANGES FILE:LINE | ...": the releases that
#                     have the call, those where it also takes **kwargs (any keyword), then each keyword
#                     that not all of them accept, the releases that do, and the `def` at the first of
#                     them (at the last where the keyword is only in older releases): the source a user
#                     opens is "<Project> <tag> <FILE>:<LINE>".
"""


def build(key: str, git: str, python2: str | None) -> dict:
    _, top, _ = api_eras.PROJECTS[key]
    releases = RELEASES[key]
    labels = [r for r, _ in releases]
    seen: dict[tuple[str, str], dict[int, tuple[str, int, list[str], bool]]] = {}
    for index, (_, tag) in enumerate(releases):
        for module, (path, found) in api_eras.walk_release(api_eras._tree(git, tag, top), python2).items():
            for call, (line, keywords, varkw) in (found.get("calls") or {}).items():
                seen.setdefault((call, module), {})[index] = (path, line, keywords, varkw)
    calls: dict[str, list[str]] = {}
    for (call, module), at in sorted(seen.items()):
        have = sorted(at)
        tokens = []
        for keyword in sorted({k for _, _, keywords, _ in at.values() for k in keywords}):
            with_it = [i for i in have if keyword in at[i][2]]
            if with_it == have:
                continue
            cited = with_it[0] if with_it[0] != have[0] else with_it[-1]
            path, line, _, _ = at[cited]
            tokens.append(f"{keyword} {ranges(with_it, labels, sep=',')} {path}:{line}")
        if not tokens:
            continue
        varkw = [i for i in have if at[i][3]]
        head = f"{module} {ranges(have, labels, sep=',')}" + (f" **{ranges(varkw, labels, sep=',')}" if varkw else "")
        calls.setdefault(call, []).append(" | ".join([head] + tokens))
    return {**api_eras.head(key, releases), "calls": calls}


def main(argv: list[str] | None = None) -> int:
    return api_eras.write(argv, __doc__ or "", build, "profiles/api_keywords.yaml", HEADER)


if __name__ == "__main__":
    sys.exit(main())
