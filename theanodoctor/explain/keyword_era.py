"""Legacy code passing a keyword that the installed release of Theano, Lasagne, Keras, Blocks,
Fuel or PyMC3 does not take, looked up in the keyword table (profiles/api_keywords.yaml, read from the release trees):

  TypeError: scan() got an unexpected keyword argument 'strict'          (Theano 0.6 takes no `strict`)
  TypeError: Dense.__init__() got an unexpected keyword argument 'W'     (3.10 and later name the class;
             before, `__init__()` alone: the class from the traceback's code line)

A keyword only newer releases take: the code needs a newer release; only older ones: an older
release. Every module whose call of that name takes the keyword in some releases is a candidate;
they must agree. The library must show in the log (a path, its name) for more than a hint, since
other libraries have calls of the same names; the installed version, where the log prints it,
decides as for names (explain/api_era.py).

Keras' base `Layer` refuses what no class of the chain took:

  AssertionError: Keyword argument not understood: go_backwards          (Keras 0.x and 1.x)
  TypeError: ('Keyword argument not understood:', 'input_dim')           (Keras 2)

There the keyword went through `**kwargs`, so every release of a class counts, and the class is one
the code line calls or a `super(Class, self).__init__` frame above names."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from theanodoctor import kb_api_eras, kb_api_keywords
from theanodoctor.kb_api_eras import Era
from theanodoctor.kb_api_keywords import KeywordEra
from theanodoctor.kb_causes import Cause

from .api_era import CAUSES, SIGNATURE, Use, code_line, installed_versions, judge, posts_release
from .context import Fact
from .result import Evidence, Finding

WATCH = ("got an unexpected keyword argument", "keyword argument not")
# what shows a library in the log (lower-cased): its name, Keras' banner, PyMC3's `pm.` alias
# (Keras' own training calls and their Keras 0.x and 1 keywords name it as well: code that trains a Keras model)
SIGNS = {"theano": ("theano",), "lasagne": ("lasagne",),
         # (Keras' image iterators print `Found 16 images belonging to 2 classes.`)
         "keras": ("keras", "using theano backend", "using tensorflow backend", ".fit_generator(", "nb_epoch=",
                   "samples_per_epoch=", "show_accuracy=", "images belonging to",
                   # keras-rl calls Keras from its own package, `rl`
                   "packages/rl/", "packages\\rl\\"),
         "blocks": ("blocks",),
         "fuel": ("fuel",), "pymc3": ("pymc", " pm.", "(pm.", "=pm.")}
MESSAGE = re.compile(r"(?<![\w.])(?:(?P<cls>[A-Za-z_]\w*)\.)?(?P<call>[A-Za-z_]\w*)\(\) got an unexpected keyword "
                     r"argument '(?P<kw>\w+)'")
_CALLED = re.compile(r"(?<!\w)([A-Z]\w*)\(")  # a class the code line calls: `Convolution2D(32, 3, 3, ...)`, `pm.Model(`
# (the message begins its line, after markup: prose that quotes it is about another run)
REFUSED = re.compile(r"^[\s>`*#]*(?:[\w.]*Error\s*:\s*)?\(?['\"]?Keyword argument not ?understood:?['\"]?,?\s*['\"]?"
                     r"(?P<kw>\w+)")
# the modules of Keras' layers (not the engine's `InputLayer` or `Model`, whose keywords code passes to any
# layer, nor the callbacks)
_LAYERS = ("keras.layers.", "keras.legacy.layers")
# a private helper of several words (`_obtain_input_shape`) names its library as well as the log could
_PRIVATE = re.compile(r"_[a-z]+_[a-z_]+$")
_SUPER = re.compile(r"\bsuper\(\s*([A-Z]\w*)\s*,")  # a class of the chain: `super(Recurrent, self).__init__(**kwargs)`


Watched = list[tuple[int, str, tuple[str, ...], str]]


def findings(watched: Watched, causes: dict[str, Cause], shown: dict[str, Fact],
             seen: set[str]) -> list[tuple[Finding, int]]:
    """``seen``: the lower-cased texts the scan saw in the log (the libraries' names among them)."""
    installed = installed_versions(shown)

    def read(number: int, text: str, before: tuple[str, ...]) -> Finding | None:
        m = MESSAGE.search(text)
        if m:
            return _finding(m, number, text, before, installed, causes, seen, shown)
        refused = REFUSED.search(text)
        return _refused(refused["kw"], number, text, before, causes) if refused else None
    return first_per_cause(watched, read)


def first_per_cause(watched: Watched, read: Callable[[int, str, tuple[str, ...]], Finding | None]
                    ) -> list[tuple[Finding, int]]:
    """The first finding ``read`` makes of a watched line (number, text, the lines above) for each
    cause, with the number of that line."""
    found: dict[str, tuple[Finding, int]] = {}
    for number, text, before, _ in watched:
        finding = read(number, text, before)
        if finding and finding.cause not in found:
            found[finding.cause] = (finding, number)
    return list(found.values())


def _finding(m: re.Match[str], number: int, text: str, before: tuple[str, ...],
             installed: dict[str, tuple[str, int, str]], causes: dict[str, Cause], seen: set[str],
             shown: dict[str, Fact]) -> Finding | None:
    call, keyword = (f"{m['cls']}.{m['call']}" if m["cls"] else m["call"]), m["kw"]
    _, code = code_line(before)
    eras = kb_api_keywords.lookup(call, keyword)
    if m["call"] == "__init__" and not m["cls"]:  # which class: one the code line calls
        called = set(_CALLED.findall(code))
        eras = tuple(e for e in eras if e.call.split(".")[0] in called)
    judged = _judged(eras, keyword, Evidence(number, text.strip()[:400]), installed, causes, shown)
    if not judged:
        return None
    era, first = judged[0]
    if not any(sign in seen for sign in SIGNS[era.project.key]) and first.confidence != "low" and \
            not _PRIVATE.match(m["call"]):
        asks = (f"whether `{m['call']}()` is {era.project.label}'s (the log does not name {era.project.label})",)
        return replace(first, confidence="low", asks=first.asks + asks)
    return first


def _judged(eras: tuple[KeywordEra, ...], keyword: str, message: Evidence,
            installed: dict[str, tuple[str, int, str]], causes: dict[str, Cause],
            shown: dict[str, Fact]) -> list[tuple[KeywordEra, Finding]]:
    """Each era's finding (api_era.judge, then the post's release), where they all name one cause;
    else none."""
    judged = []
    modules = ", ".join(sorted({e.module for e in eras})[:3])
    for era in eras:
        use = Use(f"{era.module}.{era.call}", keyword, (message,),
                  said=f"the keyword `{keyword}=` of `{era.call}()` ({modules})")
        named = Era(era.project, use.module, keyword, era.have, {i: era.cite for i in era.have})
        finding = posts_release(judge(use, named, installed, causes, era.span), shown, installed, use, named, causes,
                                era.span)
        if finding is not None:
            judged.append((era, finding))
    return judged if len({f.cause for _, f in judged}) == 1 else []


def _refused(keyword: str, number: int, text: str, before: tuple[str, ...], causes: dict[str, Cause]
             ) -> Finding | None:
    """Keras' base `Layer` refused ``keyword``, a keyword some Keras layer takes in some releases
    only: the code was written for another release, at medium. The classes are those of the chain
    the log shows (called on the code line, or named by a `super(Class, self).__init__` frame), else
    any. Which release the code needs is not said: a class that forwards **kwargs may get the keyword
    taken by a base the table does not list, so its own releases do not decide. A keyword no Keras
    release has is the code's own (a custom layer's), not an era's."""
    eras = tuple(e for e in kb_api_keywords.lookup("__init__", keyword, forwarded=True)
                 if e.project.key == "keras" and e.have and e.module.startswith(_LAYERS))
    _, code = code_line(before)
    classes = set(_CALLED.findall(code)) | {c for line in before for c in _SUPER.findall(line)}
    eras = tuple(e for e in eras if e.call.split(".")[0] in classes) or eras
    if not eras:
        return None
    era = max(eras, key=lambda e: len(e.have))  # the class that took it longest
    project, cause = era.project, causes[CAUSES["keras"][0]]
    named = ", ".join(f"`{c}`" for c in sorted({e.call.split(".")[0] for e in eras})[:3])
    said = (f"The installed Keras' base `Layer` refused `{keyword}=`, which Keras' {named} "
            f"take{'s' if len(eras) == 1 else ''} in some releases only (`{era.call.split('.')[0]}`: "
            f"{kb_api_eras.ranges(era.have, project.releases)}; {era.cite}): the code was written for "
            "another Keras release")
    return Finding(
        cause=cause.id, title=cause.title, explanation=cause.cause, remedy=cause.remedy, fix=cause.fix,
        confidence="medium", evidence=(Evidence(number, text.strip()[:400]),), signatures=(SIGNATURE,),
        values={"module": era.module, "name": keyword, "library": project.label}, source=cause.source,
        signature_sources=(era.cite,), details=(said + ".",),
        asks=("which Keras release the code was written for (its README or requirements) and which is installed "
              "(`pip show keras`)",))
