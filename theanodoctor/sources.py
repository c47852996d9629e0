"""The rule every ``source`` a user is shown must keep: at least one reference they can open.

Openable is one of
  - a URL: ``https://...`` (or a bare ``github.com/owner/repo/...``-style address);
  - an upstream file at a tag with its line: ``<Project> <tag> <path>:<line>``, for example
    ``Theano rel-1.0.5 theano/configparser.py:28``, ``libgpuarray v0.7.6 src/loaders/libnvrtc.c:29``
    (a line range ``:29-58`` is fine; ``rel-0.9.0:theano/...:502`` too);
  - a test of this repository that reproduces the fact: ``tests/test_x.py`` or
    ``tests/test_x.py::test_name`` (tests/test_sources.py checks that it exists).
A source must not cite the project's internal notes (``FACTS.md``, the ``reference/*.md`` pages or
their ``[CSDN-T3]``-style keys): no user can open those."""

from __future__ import annotations

import re

RULE = ("a source must contain at least one reference a user can open: an http(s) URL, an upstream "
        "file at a tag with its line ('Theano rel-1.0.5 theano/configparser.py:28'), or a test here "
        "('tests/test_x.py::test_name'); never FACTS.md, the reference notes or their [KEY]s")

URL = re.compile(r"https?://\S+|\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|ru|cn|de|edu|ai)/[\w./#%?=&+~:-]+")
UPSTREAM = re.compile(r"(?:\brel-[\w.]+|\bv?\d+(?:\.\d+)+[\w.]*|\b[0-9a-f]{7,40})(?::|\s+)"
                      r"(?:[\w.+-]+/)*[\w.+-]+\.[A-Za-z]\w*:\d+")
TEST = re.compile(r"(?<![\w/.-])tests/[\w/.-]+\.py(?:::\w+)?")
NOTES = re.compile(r"FACTS\.md|\bFACTS s\d|(?<!/)\breference/|\breference Q\d|cuda-compat\.md|theano-libgpuarray\.md"
                   r"|\[[A-Z][A-Z0-9]+(?:-[A-Z0-9]{2,})+\]|\[(?:AF|LTT|ZPG|PTB|CMAKE|DLIB|LGA|THEANO|OLLAMA|NVENC)\]")


def problem(text: str) -> str | None:
    """Why ``text`` breaks :data:`RULE` (None: it keeps it)."""
    cited = NOTES.search(text)
    if cited:
        return f"cites our internal notes ({cited.group(0)!r}); {RULE}"
    if not (URL.search(text) or UPSTREAM.search(text) or TEST.search(text)):
        return f"has no openable reference; {RULE}"
    return None


def tests_cited(text: str) -> list[str]:
    """The ``tests/...`` references in ``text`` (the test suite checks they exist)."""
    return TEST.findall(text)
