"""An object of Theano, Lasagne or Keras lacking an attribute that other releases give it, looked up
in the attribute table (profiles/api_attrs.yaml, read from the release trees):

  AttributeError: 'Conv2DLayer' object has no attribute 'flip_filters'

Raised inside the library (the traceback's last frame is in its installed package): the installed
release's own code reads the attribute, so the object was not made by that release's constructor. It
was unpickled from an object an older release made (the attribute came later), or a newer one (it
went later): the library is too new, or too old, for the pickle. Raised in the code: the code uses an
attribute of other releases, judged as a name is (explain/api_era.py). Every module whose class of
that name has the attribute in some releases is a candidate; they must agree.

An object of a class no table knows (the code's own), read in the code, whose traceback runs through
a library's modules: the class is the code's subclass of one of theirs (a custom Keras layer run by
`Recurrent.__call__`). Where every class of those modules that has the attribute in some releases
has it in the same ones, the code was written for those releases; at medium at most, the base
being inferred."""

from __future__ import annotations

import re
from dataclasses import replace

from theanodoctor import kb_api_attrs
from theanodoctor.kb_api_attrs import AttributeEra
from theanodoctor.kb_api_eras import Era, ranges
from theanodoctor.kb_causes import Cause

from .api_era import CAUSES, SIGNATURE, Use, installed_versions, judge, posts_release
from .context import Fact
from .keyword_era import SIGNS, Watched, first_per_cause
from .result import Evidence, Finding

WATCH = ("object has no attribute",)
MESSAGE = re.compile(r"'(?P<cls>[A-Za-z_]\w*)' object has no attribute '(?P<attr>[A-Za-z]\w*)'")
# a class the code may define: CamelCase, not Python's own (`NoneType`) nor TensorFlow's tensors
_OWN_CLASS = re.compile(r"(?!(?:NoneType|Tensor|EagerTensor|Variable|RefVariable|ResourceVariable)$)[A-Z]\w*$")
# a traceback's frame: `File ".../lasagne/layers/conv.py", line 611`, or IPython's `~/.../conv.py in convolve(...)`
_FRAME = re.compile(r'(?:File "(?P<file>[^"]+\.pyc?)"|(?P<ipython>\S+\.pyc?) in [\w<])')


def findings(watched: Watched, causes: dict[str, Cause], shown: dict[str, Fact],
             seen: set[str]) -> list[tuple[Finding, int]]:
    """``seen``: the lower-cased texts the scan saw in the log (the libraries' names among them)."""
    installed = installed_versions(shown)

    def read(number: int, text: str, before: tuple[str, ...]) -> Finding | None:
        m = MESSAGE.search(text)
        if m is None:
            return None
        sub = m["cls"] if m["cls"] not in kb_api_attrs.class_names() and _OWN_CLASS.match(m["cls"]) else None
        eras = _of_a_subclass(m["attr"], before) if sub else kb_api_attrs.lookup(m["cls"], m["attr"])
        subclass = (sub, _bases(eras)) if sub else None
        judged = [f for f in (_judge(era, number, text, before, installed, causes, shown, subclass) for era in eras)
                  if f]
        if not judged or len({f.cause for f in judged}) > 1:
            return None
        finding, era = judged[0], eras[0]
        if sub and finding.confidence == "high":
            finding = replace(finding, confidence="medium")
        if any(sign in seen for sign in SIGNS[era.project.key]) or finding.confidence == "low":
            return finding
        return replace(finding, confidence="low", asks=finding.asks + (
            f"whether `{era.cls}` is {era.project.label}'s (the log does not name {era.project.label})",))
    return first_per_cause(watched, read)


def _judge(era: AttributeEra, number: int, text: str, before: tuple[str, ...],
           installed: dict[str, tuple[str, int, str]], causes: dict[str, Cause],
           shown: dict[str, Fact], subclass: tuple[str, str] | None = None) -> Finding | None:
    """``subclass``: the message's class (the code's) and the classes it is taken to subclass
    (_of_a_subclass)."""
    message = Evidence(number, text.strip()[:400])
    frame = None if subclass else _last_frame(number, before, era.project.key)
    if frame is None:
        said = f"the attribute `{era.attribute}` of `{era.cls}` objects ({era.module})"
        if subclass:
            said = (f"the attribute `{era.attribute}` of `{subclass[0]}` objects, a class the table of "
                    f"{era.project.label} releases does not list (the code's own, it seems), whose traceback runs "
                    f"through {subclass[1]}: it is taken for a subclass of one of them")
        use = Use(f"{era.module}.{era.cls}", era.attribute, (message,), said=said)
        named = Era(era.project, use.module, era.attribute, era.have, {i: era.cite for i in era.have})
        return posts_release(judge(use, named, installed, causes, era.span), shown, installed, use, named, causes,
                             era.span)
    return _unpickled(era, message, frame, installed, causes)


def _of_a_subclass(attribute: str, before: tuple[str, ...]) -> tuple[AttributeEra, ...]:
    """The eras of ``attribute`` of the classes in the library modules whose frames the traceback
    above the message shows, when its last frame is the code's and they all agree: one library, and
    one release where the attribute came or went."""
    modules: list[str] = []
    code_frame = False
    for line in reversed(before):
        if "Traceback (most recent call last)" in line:
            break
        m = _FRAME.search(line)
        if m is None:
            continue
        module = _module(m["file"] or m["ipython"])
        if not code_frame and module:
            return ()  # the library's own code reads it (an unpickled object, or one not set up)
        code_frame = True
        if module:
            modules.append(module)
    eras = tuple(era for module in dict.fromkeys(modules)
                 for cls in kb_api_attrs.module_classes().get(module, ())
                 for era in kb_api_attrs.lookup(cls, attribute, module) if era.have and era.have != era.span)
    if len({era.project.key for era in eras}) != 1:
        return ()
    gone = {era.have[-1] for era in eras if era.have[-1] != era.span[-1]}
    came = {era.have[0] for era in eras if era.have[0] != era.span[0]}
    if gone:  # each class has it until one release (or until the class itself went): it went then
        return eras if len(gone) == 1 and max(era.have[-1] for era in eras) in gone else ()
    return eras if len(came) == 1 else ()


def _bases(eras: tuple[AttributeEra, ...]) -> str:
    """The classes that decided _of_a_subclass (those still there when the attribute went, or all)."""
    deciding = [era for era in eras if era.have[-1] != era.span[-1]] or list(eras)
    modules = dict.fromkeys(era.module for era in deciding)
    return "; ".join(f"{module} (" + ", ".join(f"`{era.cls}`" for era in deciding if era.module == module) + ")"
                     for module in modules)


def _module(path: str) -> str | None:
    """The module of a frame's file inside a library's package (`.../keras/layers/recurrent.py`)."""
    path = path.replace("\\", "/")
    for key in SIGNS:
        at = path.rfind(f"/{key}/")
        if at >= 0:
            dotted = path[at + 1:].rsplit(".", 1)[0].replace("/", ".")
            return dotted[:-len(".__init__")] if dotted.endswith(".__init__") else dotted
    return None


def _last_frame(number: int, before: tuple[str, ...], key: str) -> Evidence | None:
    """The traceback's last frame above the message (on line ``number``), when it is in the project's
    package."""
    for back, line in enumerate(reversed(before), 1):
        m = _FRAME.search(line)
        if m:
            path = (m["file"] or m["ipython"]).replace("\\", "/")
            return Evidence(number - back, line.strip()[:400]) if f"/{key}/" in path else None
    return None


def _unpickled(era: AttributeEra, message: Evidence, frame: Evidence,
               installed: dict[str, tuple[str, int, str]], causes: dict[str, Cause]) -> Finding | None:
    """The library's own code read the attribute: the object comes from a release without it."""
    project, have = era.project, set(era.have)
    lacking = [i for i in era.span if i not in have]
    if not era.have or not lacking:
        return None
    newer = min(lacking) > max(era.have)  # it went in later releases: the object is a newer one's
    if not newer and max(lacking) > min(era.have):
        return None  # releases on both sides lack it: no direction
    cause = causes[CAUSES[project.key][1 if newer else 0]]
    made = f"{project.label} {project.releases[min(lacking)]} or later" if newer else \
        f"a {project.label} older than {project.releases[min(era.have)]}"
    said = (f"`{era.cls}` objects have `{era.attribute}` only in {project.label} "
            f"{_span(era)}; the installed {project.label}'s own code reads it (the traceback's "
            f"last frame), so this object was not made by that release: it was unpickled (or copied) from "
            f"one that {made} made. Re-create the object with the installed release and load only its "
            f"parameter values, or run the release that saved it ({era.cite}).")
    seen = installed.get(project.key)
    evidence = (frame, message) + ((Evidence(seen[1], seen[2][:400]),) if seen else ())
    return Finding(
        cause=cause.id, title=cause.title, explanation=cause.cause, remedy=cause.remedy, fix=cause.fix,
        confidence="medium", evidence=tuple(sorted(evidence, key=lambda e: e.line)), signatures=(SIGNATURE,),
        values={"module": era.module, "name": f"{era.cls}.{era.attribute}", "library": project.label,
                "releases": _span(era), **({"installed": seen[0]} if seen else {})},
        source=cause.source, signature_sources=(era.cite,), details=(said,),
        asks=(f"which {project.label} saved the object (a pickle's age), and which is installed "
              f"(`pip show {project.key}`)",))


def _span(era: AttributeEra) -> str:
    return ranges(era.have, era.project.releases)
