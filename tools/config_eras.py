"""Write profiles/theano_config_eras.yaml: which Theano releases register each configuration
variable (`theano.config.<name>`, registered with `AddConfigVar`) and each section of them, read
from the release trees (never imported).

    python tools/config_eras.py THEANO_GIT [-o profiles/theano_config_eras.yaml]

THEANO_GIT is a git directory (a clone or a bare mirror) of github.com/Theano/Theano; the releases
are those of tools/api_keywords.py (rel-0.6 on: code of the 0.7 era sets `theano.config.scan`,
which 0.6 lacks). A name registered with a computed string is not read. Not run in CI:
tests/test_config_eras.py checks the table against the real releases the test environments hold."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import api_eras  # type: ignore[import-not-found]  # tools/ is on sys.path when this file runs
from api_keywords import RELEASES  # type: ignore[import-not-found]

from theanodoctor.kb_api_eras import ranges

ADD = re.compile(r"\bAddConfigVar\(\s*(['\"])(?P<name>[A-Za-z_][\w.]*)\1")

HEADER = """\
# Which Theano releases register each configuration variable (`theano.config.NAME`, through
# AddConfigVar) and each section of them (`theano.config.scan`), read from the release trees by
# tools/config_eras.py (do not edit by hand; re-run it). Names registered with a computed string
# are not read.
#   releases / tags   the releases read, oldest first, and the git tag of each (github.com/Theano/Theano)
#   names             "NAME RANGES [FILE:LINE ...]": the releases that register it (a section: one of
#                     its variables), then where at its first release (unless that is the first read)
#                     and at its last (unless that is the last read); the source a user opens is
#                     "Theano <tag> <FILE>:<LINE>".
"""


def registered(files: dict[str, str]) -> dict[str, tuple[str, int]]:
    """Every variable and section a release registers -> where (its first registration)."""
    found: dict[str, tuple[str, int]] = {}
    for path, text in sorted(files.items()):
        for m in ADD.finditer(text):
            where = (path, text.count("\n", 0, m.start()) + 1)
            parts = m["name"].split(".")
            for depth in range(1, len(parts) + 1):  # the variable and the sections above it
                found.setdefault(".".join(parts[:depth]), where)
    return found


def build(git: str) -> dict:
    releases = RELEASES["theano"]
    at = [registered(api_eras._tree(git, tag, "theano")) for _, tag in releases]
    labels, last = [r for r, _ in releases], len(releases) - 1
    rows = []
    for name in sorted({n for found in at for n in found}):
        have = [i for i, found in enumerate(at) if name in found]
        cites = [f"{at[i][name][0]}:{at[i][name][1]}" for i in dict.fromkeys((have[0], have[-1])) if i not in (0, last)]
        rows.append(" ".join([name, ranges(have, labels, sep=","), *cites]))
    return {"label": "Theano", "releases": labels, "tags": [t for _, t in releases], "names": rows}


def main(argv: list[str] | None = None) -> int:
    import yaml

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("theano", help="a git directory of Theano")
    parser.add_argument("-o", "--output", default="profiles/theano_config_eras.yaml")
    args = parser.parse_args(argv)
    text = yaml.safe_dump({"theano": build(args.theano)}, sort_keys=False, width=10_000, default_flow_style=False)
    Path(args.output).write_text(HEADER + text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
