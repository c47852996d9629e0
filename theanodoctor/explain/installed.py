"""Which release of Theano, Lasagne or Keras a log shows installed: the version in an egg or
dist-info path (``site-packages/Theano-0.8.2-py2.7.egg/theano/...``), pip's own lines
(``Successfully installed Theano-1.0.4``, ``Requirement already satisfied: keras in ... (2.2.4)``,
``pip freeze`` / ``pip list`` rows) and a printed ``theano.__version__``.

``WATCH`` holds the (lower-case) texts the scan keeps the lines of, so only those are read here."""

from __future__ import annotations

import re
from collections.abc import Iterable

LIBRARIES = ("theano", "lasagne", "keras")
_LIB = r"(?P<lib>theano|lasagne|keras)"
_VERSION = r"(?P<v>\d+(?:\.\d+)+(?:(?:a|b|rc|beta)\d*)?(?:\.?dev\d*)?(?:\.post\d+)?)"
WATCH = tuple(f"{lib}{sep}" for lib in LIBRARIES for sep in ("-", "==", ".__version__")) + (
    "successfully installed", "requirement already satisfied")
_PATTERNS = (
    # an installed distribution's folder: Theano-0.8.2-py2.7.egg, keras-2.2.4.dist-info, Keras-2.0.8.egg-info
    re.compile(rf"[/\\]{_LIB}-{_VERSION}(?:-py\d|\.dist-info|\.egg-info|\.egg\b)", re.IGNORECASE),
    # pip: Successfully installed ... Theano-1.0.4 ...
    re.compile(rf"Successfully installed\b.*?(?<![\w-]){_LIB}-{_VERSION}(?![\w.-])", re.IGNORECASE),
    # pip: Requirement already satisfied: theano in /path (1.0.4)   (pip 10 and later)
    re.compile(rf"Requirement already satisfied:\s*{_LIB}(?:[<>=!~][^ ]*)?\s+in\s+\S.*\({_VERSION}\)", re.IGNORECASE),
    # pip freeze / pip list rows: Theano==1.0.4, "Theano    1.0.4", "Theano (1.0.4)"
    re.compile(rf"^\s*{_LIB}\s*(?:==\s*|\s+\(?){_VERSION}\)?\s*$", re.IGNORECASE),
    # theano.__version__ and its value on the same line: >>> theano.__version__ '0.9.0' / print output
    re.compile(rf"\b{_LIB}\.__version__\W{{0,12}}{_VERSION}\b", re.IGNORECASE),
)
_BARE_VERSION = re.compile(rf"^\s*(?:\[\d+\]:\s*)?['\"]?{_VERSION}['\"]?\s*$")


def versions(lines: Iterable[tuple[int, str, tuple[str, ...], str]]) -> dict[str, tuple[str, int, str]]:
    """Library -> (version, line number, line) when the log shows exactly one version of it."""
    seen: dict[str, dict[str, tuple[int, str]]] = {}
    for number, text, _, after in lines:
        for lib, version in _found(text, after):
            seen.setdefault(lib, {}).setdefault(version, (number, text.strip()))
    return {lib: (version, *where) for lib, found in seen.items() if len(found) == 1
            for version, where in found.items()}


def _found(text: str, after: str) -> list[tuple[str, str]]:
    found = [(m["lib"].lower(), m["v"]) for pattern in _PATTERNS for m in pattern.finditer(text)]
    if not found and ".__version__" in text.lower():  # the value printed on the next line
        bare = _BARE_VERSION.match(after)
        lib = next((lib for lib in LIBRARIES if f"{lib}.__version__" in text.lower()), None)
        if bare and lib:
            found.append((lib, bare["v"]))
    return found
