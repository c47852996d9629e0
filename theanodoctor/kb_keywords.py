"""Keyword arguments renamed across Keras, Lasagne, Theano and Fuel releases (``keyword_renames.yaml``),
and the signatures `explain` derives from them: one per keyword, matching every message that
refuses it (Python's own, Keras', nolearn's), pointing at the version coupling it shows."""

from __future__ import annotations

import re
from typing import NamedTuple

from theanodoctor.kb_causes import CONFIDENCES, Cause, Signature
from theanodoctor.knowledge import KnowledgeError, Regex, choice, rows, source, strings, table, text, where

KEYWORDS = "keyword_renames.yaml"
LIBRARIES = {"keras": "Keras", "lasagne": "Lasagne", "theano": "Theano", "fuel": "Fuel"}
# The literal texts of the messages that refuse a keyword (the scan's first filter).
REFUSALS = ("unexpected keyword argument", "argument not understood", "unknown keyword argument",
            "unrecognized keyword argument", "failed to instantiate")


class Rename(NamedTuple):
    library: str
    side: str  # old: a name from before the change; new: a name the change brought
    keyword: str
    other: str | None  # its name on the other side of the change
    callables: tuple[str, ...]  # functions that refuse it by name; empty: the __init__ forms
    context: tuple[str, ...]  # lower-cased; one must appear in the log
    accepted: str  # which releases take it
    cause: str
    confidence: str
    asks: str
    source: str


@table
def renames() -> tuple[Rename, ...]:
    found = []
    for row in rows(KEYWORDS, "keywords"):
        library = choice(KEYWORDS, row, "library", tuple(LIBRARIES))
        mapping = row.get("renamed")
        if not isinstance(mapping, dict) or not mapping:
            raise KnowledgeError(f"{where(KEYWORDS, row)}: `renamed` must map keywords to their other names")
        context = strings(KEYWORDS, row, "context") if "context" in row else (library,)
        for keyword, other in mapping.items():
            found.append(Rename(
                library=library, side=choice(KEYWORDS, row, "side", ("old", "new")), keyword=str(keyword),
                other=None if other is None else str(other), callables=strings(KEYWORDS, row, "callables"),
                context=tuple(c.lower() for c in context), accepted=text(KEYWORDS, row, "accepted"),
                cause=text(KEYWORDS, row, "cause"), confidence=choice(KEYWORDS, row, "confidence", CONFIDENCES),
                asks=text(KEYWORDS, row, "asks", required=False), source=source(KEYWORDS, row)))
    return tuple(found)


def pattern(rename: Rename) -> Regex:
    """Python's refusal of ``rename.keyword``: a call by name (``pool_2d()``, on Python 3.10+
    ``Model.fit()``) or, with no callables, a constructor (``__init__()``, ``Conv2D.__init__()``);
    for Lasagne also nolearn's `Failed to instantiate <class ...> with args {...}`."""
    kw = re.escape(rename.keyword)
    call = "|".join(map(re.escape, rename.callables)) if rename.callables else "__init__"
    # the named groups feed the refiner that names the release which has the keyword (explain/refine.py)
    python = rf"(?<![\w.])(?:\w+\.)?(?P<func>{call})\(\) got an unexpected keyword argument .(?P<kw>{kw})\b"
    if rename.library != "lasagne":
        return Regex(python, where=f"profiles/{KEYWORDS}: {rename.keyword}")
    # nolearn wraps Lasagne
    return Regex(rf"{python}|Failed to instantiate <class .[\w.]+.> with args \{{.*.{kw}.:",
                 where=f"profiles/{KEYWORDS}: {rename.keyword}")


def keras_pattern(rename: Rename) -> Regex:
    """Keras' own refusals (Layer: `Keyword argument not understood:`; fit: `Received unknown
    keyword arguments:` in Keras 1, `Unrecognized keyword arguments` later): they name Keras."""
    kw = re.escape(rename.keyword)
    return Regex(rf"Keyword argument not understood:.{{0,4}}\b{kw}\b"
                 rf"|(?:Received unknown|Unrecognized) keyword arguments?(?: passed to \w+)?: \{{[^}}]*.{kw}.:",
                 where=f"profiles/{KEYWORDS}: {rename.keyword}")


def note(rename: Rename) -> str:
    name = LIBRARIES[rename.library]
    if rename.side == "old":
        now = f" (now `{rename.other}`)" if rename.other else ""
        return f"`{rename.keyword}=` is an older {name} name{now}: {rename.accepted}"
    before = f" (before: `{rename.other}`)" if rename.other else ""
    return f"`{rename.keyword}=` is a newer {name} name{before}: {rename.accepted}"


def missing_pattern(name: str) -> Regex:
    """Python 3's refusal of a constructor called without ``name``: what code that passes the
    older name (into the layer's **kwargs) gets (`__init__() missing 1 required positional
    argument: 'units'`; on 3.10+ `Dense.__init__() missing ...`)."""
    return Regex(rf"(?<![\w.])(?:\w+\.)?__init__\(\) missing \d+ required (?:positional|keyword-only) "
                 rf"arguments?: .*'{re.escape(name)}'", where=f"profiles/{KEYWORDS}: {name}")


def _missing(renames: list[Rename]) -> Signature:
    """For the newer name that several older ones became (kernel_size: filter_length, nb_row, nb_col)."""
    first, olds = renames[0], ", ".join(f"`{r.keyword}`" for r in renames)
    name = LIBRARIES[first.library]
    return Signature(
        id=f"kw-{first.library}-missing-{first.other}".replace("_", "-"), cause=first.cause,
        contains=("required positional argument", "required keyword-only argument"),
        regex=missing_pattern(str(first.other)),
        context=first.context, unless=(), python=None, warning=False, confidence="medium",
        note=f"`{first.other}` is missing: code for an older {name} passes {olds} instead ({first.accepted})",
        source=first.source,
        asks=f"whether the code passes {olds} (the older {name} name) where this {name} wants `{first.other}`")


def signatures(causes: dict[str, Cause]) -> tuple[Signature, ...]:
    found = []
    missing: dict[tuple[str, str], list[Rename]] = {}
    for rename in renames():
        if rename.cause not in causes:
            raise KnowledgeError(f"profiles/{KEYWORDS}: unknown cause `{rename.cause}`")
        sig = Signature(
            id=f"kw-{rename.library}-{rename.side}-{rename.keyword}".replace("_", "-"), cause=rename.cause,
            contains=REFUSALS, regex=pattern(rename), context=rename.context, unless=(), python=None,
            warning=False, confidence=rename.confidence, note=note(rename), source=rename.source, asks=rename.asks)
        found.append(sig)
        if rename.library == "keras":
            found.append(sig._replace(id=sig.id + "-keras-message", regex=keras_pattern(rename), context=()))
        if rename.side == "old" and not rename.callables and rename.other and rename.other.isidentifier():
            missing.setdefault((rename.library, rename.other), []).append(rename)
    return tuple(found) + tuple(_missing(group) for group in missing.values())
