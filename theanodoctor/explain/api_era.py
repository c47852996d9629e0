"""Legacy code meeting another release of Theano, Lasagne, Keras, Blocks, Fuel or PyMC3: a name or module
the code uses that the installed release does not have, looked up in the release table
(profiles/api_eras.yaml, read from the release trees).

The messages, as the interpreters print them:
  AttributeError: module 'theano.tensor.nnet' has no attribute 'relu'      (Python 3)
  AttributeError: 'module' object has no attribute 'relu'                  (Python 2: the module
                  comes from the traceback's code line, `T.nnet.relu(x)`, through its aliases)
  ImportError: cannot import name 'downsample' from 'theano.tensor.signal' (3.7+; 2.7 and 3.6:
                  `cannot import name downsample`, the module from `from M import ...`)
  ModuleNotFoundError: No module named 'theano.tensor.signal.downsample'   (2.7: `No module named
                  downsample`, the module from the code line)
  ValueError: Unknown layer: Merge                                         (Keras 2 load_model)
A name only older releases have: the code needs an older release (the "too new" cause); only
newer ones: a newer release; in no release read: nothing (the user's code or another library), but
a layer in no Keras release that load_model cannot rebuild is the code's or an add-on's, which the
load must be given (``own_layer``).
With the installed version printed in the log (a path, pip's output, a printed ``__version__``:
the facts of explain/context.py) the answer is high when that
version lacks the name, and nothing when it has it (then something else is wrong). A version only
the post's prose states decides a finding the table leaves low (only middle releases have the name),
at medium: it is a claim, not a printed version (``posts_release``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from packaging.version import Version

from theanodoctor import kb_api_eras
from theanodoctor.kb_api_eras import Era
from theanodoctor.kb_causes import Cause

from .context import Fact
from .result import Evidence, Finding

WATCH = ("has no attribute", "cannot import name", "no module named", "unknown layer:", "invalid layer:",
         "custom_objects",
         "not exist", "n't exist", "import error on", "importerror on", "import error for")
# (the exception's name may follow markup a post wraps it in: `**ImportError: ...**`, `> ImportError`)
_EXCEPTION = r"(?:^|[\s*>`'\"(])(?:[\w.]+\.)?(?:AttributeError|ImportError|ModuleNotFoundError|ValueError)\s*:\s*"
# (Python 3's own wording for a module begins the line where a post quotes it without the exception's name)
MESSAGES = (
    re.compile(r"(?:" + _EXCEPTION + r"|^[\s*>`]*)module '(?P<module>[\w.]+)' has no attribute '(?P<name>\w+)'"),
    re.compile(_EXCEPTION + r"'module' object has no attribute '(?P<name>\w+)'"),
    re.compile(_EXCEPTION + r"cannot import name '?(?P<name>\w+)'?(?: from '(?P<module>[\w.]+)')?(?! from partially)"),
    re.compile(_EXCEPTION + r"No module named '?(?P<missing>[\w.]+)'?"),
    re.compile(_EXCEPTION + r"Unknown layer: ?'?(?P<layer>\w+)"),
    # Keras 0.3 to 1.2's wording (get_from_module): `Exception: Invalid layer: X`, ValueError from 1.2
    re.compile(r"(?:^|[\s*>`'\"(])(?:Exception|ValueError)\s*:\s*Invalid layer: ?'?(?P<layer>\w+)"),
)
# What a post's prose says is missing: "theano.tensor.nnet.relu which is not exist", "I get an import
# error on the gpu_alloc_empty" (the module from an import statement above it). The post can be wrong,
# so such a use is named at most with medium confidence.
_PROSE_MISSING = re.compile(r"(?P<dotted>\b(?:theano|lasagne|keras)(?:\.\w+)+)[`'\"]?\s+(?:which\s+|that\s+)?"
                            r"(?:is\s+|does\s+|do\s+)?(?:not\s+exists?|n[o']t\s+exists?|doesn't\s+exist|no\s+longer\s+exists?)")
_PROSE_IMPORT = re.compile(r"\bimport\s*error\s+(?:on|for)\s+(?:the\s+)?[`'\"]?(?P<name>\w+)", re.I)
# The aliases the libraries' own documentation imports them under (`import theano.tensor as T`,
# `from keras import backend as K`); any other prefix is matched against the table's module names.
ALIASES = {"T": "theano.tensor", "tt": "theano.tensor", "tensor": "theano.tensor", "K": "keras.backend",
           "pm": "pymc3"}
# An import statement above the message: the code line of a traceback, a line of the context an
# IPython traceback prints (`---> 42 from keras.regularizers import l2, activity_l2`), or one the
# post quotes in its prose (`from keras.layers import Convolution3D`).
_FROM = re.compile(r"(?:^|[\s`'\">])from\s+(?P<module>\.*[A-Za-z_][\w.]*|\.+)\s+import\s+"
                   r"(?P<names>\(?\s*\w+(?:\s*,\s*\w+)*)")
# A traceback's frame in an installed package: the package path after site-packages (an egg's folder skipped)
_FRAME = re.compile(r'File "[^"]*[/\\](?:site|dist)-packages[/\\](?:[^/\\"]+\.egg[/\\])?(?P<path>[^"]+)\.py"')
_IMPORT = re.compile(r"(?:^|[\s`'\">])import\s+(?P<module>[A-Za-z_][\w.]*)")
# (cause when the code needs an older release, cause when it needs a newer one)
CAUSES = {"theano": ("theano-too-new-for-code", "theano-too-old-for-code"),
          "lasagne": ("lasagne-too-new", "lasagne-too-old"),
          "keras": ("keras-version-mismatch", "keras-version-mismatch"),
          "blocks": ("fuel-blocks-version-mismatch", "fuel-blocks-version-mismatch"),
          "fuel": ("fuel-blocks-version-mismatch", "fuel-blocks-version-mismatch"),
          "pymc3": ("pymc3-version-mismatch", "pymc3-version-mismatch")}
SIGNATURE = "api-era"
OWN_LAYER = "keras-custom-object-not-given"
OWN_LAYER_SOURCE = ("https://github.com/keras-team/keras/blob/2.2.4/keras/utils/generic_utils.py#L155-L165 "
                    "(deserialize_keras_object: Unknown layer: NAME, unless custom_objects has it); "
                    "https://github.com/keras-team/keras/blob/1.2.2/keras/utils/generic_utils.py#L117-L125 "
                    "(get_from_module: Invalid layer: NAME)")
# layer names of models that TensorFlow 2's own Keras saved: another Keras, not an object to give
_KERAS_2_TENSORFLOW_LAYERS = frozenset({"Functional", "TFOpLambda", "SlicingOpLambda"})
# Keras' backend implementations, which code reaches through `keras.backend`
_BACKEND_MODULE = re.compile(r"keras\.backend\.\w+_backend$")


class Use(NamedTuple):
    module: str
    name: str | None  # None: the module itself is missing
    evidence: tuple[Evidence, ...]
    said: str = ""  # what the finding calls it, where not `module.name` (a keyword of a call)
    prose: bool = False  # the post's prose says it is missing, no message of the interpreter
    layer: bool = False  # a layer Keras' load_model could not rebuild (`Unknown layer: X`)


def findings(watched: list[tuple[int, str, tuple[str, ...], str]], causes: dict[str, Cause],
             shown: dict[str, Fact]) -> list[tuple[Finding, int]]:
    """One finding per cause (the surest), each with the number of the message line it reads;
    ``shown``: what the log shows (context.py)."""
    found: dict[str, tuple[Finding, int]] = {}
    installed = installed_versions(shown)
    for number, text, before, _ in watched:
        use = _use(number, text, before)
        if use is None:
            continue
        if use.module:
            era = kb_api_eras.lookup(use.module, use.name)
            finding = judge(use, era, installed, causes) if era else own_layer(use, causes, tuple(
                line for at, line, _, _ in watched if at < number and "custom_objects" in line))
        else:
            finding = _unnamed_owner(use, installed, causes)
        if finding and use.module and era:
            finding = posts_release(finding, shown, installed, use, era, causes)
        if finding and use.prose and finding.confidence == "high":
            finding = replace(finding, confidence="medium")
        if finding:
            finding = _against_the_post(finding, shown)
        if finding and (finding.cause not in found or _rank(finding) < _rank(found[finding.cause][0])):
            found[finding.cause] = (finding, number)
    return list(found.values())


def own_layer(use: Use, causes: dict[str, Cause], given: tuple[str, ...] = ()) -> Finding | None:
    """`Unknown layer: X` where no Keras release read has a layer X: the code's own layer class or an
    add-on's (keras-contrib's InstanceNormalization), which load_model finds only in custom_objects;
    not where a line above (``given``: those naming custom_objects) shows the call giving it there
    (`custom_objects={'Bias': Bias}`)."""
    if not use.layer or use.name in _KERAS_2_TENSORFLOW_LAYERS:
        return None
    named = re.compile(rf"custom_objects\s*=.*\b{re.escape(use.name or '')}\b")
    if any(named.search(line) for line in given):
        return None
    cause = causes[OWN_LAYER]
    project = kb_api_eras.project_of(use.module)
    read = f" from {project.releases[0]} to {project.releases[-1]}" if project else ""
    return Finding(
        cause=cause.id, title=cause.title, explanation=cause.cause, remedy=cause.remedy, fix=cause.fix,
        confidence="medium", evidence=use.evidence, signatures=(SIGNATURE,), values={"name": use.name or ""},
        source=cause.source, signature_sources=(OWN_LAYER_SOURCE,),
        details=(f"No Keras release{read} has a layer `{use.name}`: it is the code's own or an add-on's; "
                 f"give its class in `custom_objects={{'{use.name}': {use.name}}}`.",))


def installed_versions(shown: dict[str, Fact]) -> dict[str, tuple[str, int, str]]:
    """Library -> (version, line, text) the log prints as installed; a version only the post's
    prose states is not taken."""
    return {key: (fact.value, fact.line, fact.text) for key in CAUSES
            if (fact := shown.get(key)) is not None and not fact.said}


def posts_release(finding: Finding | None, shown: dict[str, Fact], installed: dict[str, tuple[str, int, str]],
                  use: Use, era: Era, causes: dict[str, Cause], span: tuple[int, ...] = ()) -> Finding | None:
    """A finding ``judge`` left low (only middle releases have the name, and the log prints no
    version), judged again with the release the post's prose states: when that release lacks the
    name and only releases on one side of it have it, the post's claim decides, at medium."""
    if finding is None or finding.confidence != "low":
        return finding
    claim = _posts_claim(finding, shown)
    if claim is None or claim[0].key in installed:
        return finding
    project, said = claim
    claimed = {**installed, project.key: (said.value, said.line, said.text)}
    decided = judge(use, era, claimed, causes, span, claimed=True)
    return decided if decided and decided.cause == finding.cause and decided.confidence == "medium" else finding


def _posts_claim(finding: Finding, shown: dict[str, Fact]) -> tuple[kb_api_eras.Project, Fact] | None:
    """The finding's library and the release of it that only the post's prose states, if any."""
    project = next((p for p in kb_api_eras.projects().values() if p.label == finding.values.get("library")), None)
    said = shown.get(project.key) if project else None
    return (project, said) if project is not None and said is not None and said.said else None


def _against_the_post(finding: Finding, shown: dict[str, Fact]) -> Finding:
    """The post says which release it runs (a claim, not a printed version) and that release has
    the name: the code ran in another environment than the post describes, or the claim is
    wrong; the release table no longer decides, so the finding is only a hint. A release the post
    names that lacks the name is said beside the finding (it agrees, but is no printed version)."""
    claim = _posts_claim(finding, shown)
    if claim is None or "claimed" in finding.values:
        return finding
    project, said = claim
    version = kb_api_eras.parse_version(said.value)
    era = kb_api_eras.lookup(finding.values["module"], finding.values["name"] or None)
    if version is None or era is None:
        return finding
    if not era.has(version):
        return replace(finding, details=finding.details + (
            f"The post says {finding.values['library']} {said.value} (line {said.line}), which lacks it too.",))
    told = (f"The post says {finding.values['library']} {said.value} (line {said.line}), which has it: the code "
            "may run in another environment (a notebook's kernel, another interpreter) than the one the post names")
    return replace(finding, confidence="low", details=finding.details + (told,),
                   asks=finding.asks + (f"which {finding.values['library']} the failing interpreter imports "
                                        f"(`python -c \"import {project.key}; print({project.key}.__version__)\"` "
                                        "in the same environment)",))


def _unnamed_owner(use: Use, installed: dict[str, tuple[str, int, str]], causes: dict[str, Cause]) -> Finding | None:
    """Python 2's `'module' object has no attribute 'X'` where no code line names the module, and
    `cannot import name X` where no import statement shows it: the modules of the table that bind X
    in some releases but not all (one that always has it is not the module that lacks it). They
    must all say the same thing (one cause); then at most medium, the surest of them. Keras' backend
    modules are left out: code reaches them through `keras.backend` (`K.clear_session`), which binds
    what the configured backend has, so whether a release has the name depends on the backend too
    (a name only the TensorFlow and CNTK modules have is in no release's Theano backend)."""
    assert use.name is not None
    judged = [finding for module in kb_api_eras.owners(use.name)
              if not _BACKEND_MODULE.match(module) and (era := kb_api_eras.lookup(module, use.name)) is not None
              and (finding := judge(use._replace(module=module, said=f"`{use.name}` (read as `{module}.{use.name}`)"),
                                        era, installed, causes)) is not None]
    if not judged or len({f.cause for f in judged}) > 1:
        return None
    # the surest of the owners (all name the same cause); of equals, one whose name did not move to
    # another module (that one is where the code more likely imported it from)
    first = min(judged, key=lambda f: (_rank(f), "moved_to" in f.values))
    modules = ", ".join(f"`{f.values['module']}`" for f in judged[:3])
    said = (f"The message does not name the module; of the {first.values['library']} modules read, "
            f"{modules} {'has' if len(judged) == 1 else 'have'} `{use.name}` in some releases only")
    return replace(first, confidence="low" if first.confidence == "low" else "medium", details=(said,) + first.details)


def _rank(finding: Finding) -> int:
    return ("high", "medium", "low").index(finding.confidence)


def _use(number: int, text: str, before: tuple[str, ...]) -> Use | None:
    """What the line says is missing: (module, name), the module read from the message or from
    the code line the traceback shows above it."""
    for pattern in MESSAGES:
        m = pattern.search(text)
        if m:
            break
    else:
        return _said(number, text, before)
    back, code = code_line(before)
    message = Evidence(number, text.strip()[:400])
    shown = (Evidence(number - back, code.strip()[:400]),) if code else ()
    groups = m.groupdict()
    if groups.get("layer"):
        return Use("keras.layers", groups["layer"], shown + (message,), layer=True)
    if groups.get("missing"):
        missing = groups["missing"]
        if missing.split(".")[0] in kb_api_eras.projects():
            return Use(missing, None, shown + (message,))
        # Python 2 names only the parts from the one that failed on (`No module named six.moves` for
        # `from theano.compat.six.moves import ...`): the module an import above names, ending so
        found = _imported(number, before, lambda m: m["module"] == missing or m["module"].endswith("." + missing))
        if found is None:
            return None
        imported = found[0]["module"]
        failed = imported[:len(imported) - len(missing)] + missing.split(".")[0]
        return Use(failed, None, (found[1], message))
    name = groups["name"]
    if groups.get("module"):
        return Use(groups["module"], name, shown + (message,))
    if "cannot import name" in m.group(0):  # Python 2 and 3.6: the module from the import that names it
        found = _imported(number, before, lambda m: m.re is _FROM and name in re.findall(r"\w+", m["names"]))
        if not found:  # no import shows the module: the table's owners of the name decide
            return Use("", name, (message,))
        module = _absolute(found[0]["module"], before)
        return Use(module, name, (found[1], message)) if module else None
    for words in (code, text[:m.start()]):  # the code line, or the post's words before the message on its line
        if re.search(rf"\.{re.escape(name)}\b", words):  # it shows what the code took the name from
            expr = _owner_expr(words, name)
            module = resolve(expr, name) if expr else None
            if module:
                return Use(module, name, shown + (message,))
            # a module under a name of the code's own (`import keras.regularizers as Reg`): the owners decide
            return Use("", name, shown + (message,)) if expr and _own_alias(expr) else None
    return Use("", name, shown + (message,))  # no module named: the table's owners of the name decide


def _absolute(module: str, before: tuple[str, ...]) -> str | None:
    """A relative import (`from .utils.generic_utils import x`) made absolute from the package of
    the nearest frame above it in an installed package; None where no frame tells."""
    dots = len(module) - len(module.lstrip("."))
    if not dots:
        return module
    frame = next((f for line in reversed(before) if (f := _FRAME.search(line))), None)
    if frame is None:
        return None
    package = re.split(r"[/\\]", frame["path"])[:-1]
    if len(package) < dots:
        return None
    return ".".join(package[:len(package) - dots + 1] + ([module[dots:]] if module[dots:] else []))


def _said(number: int, text: str, before: tuple[str, ...]) -> Use | None:
    """A use the prose says is missing: a dotted name, or a name an import statement above lists
    (on one line or on several, in parentheses)."""
    message = Evidence(number, text.strip()[:400])
    dotted = _PROSE_MISSING.search(text)
    if dotted:
        module, _, name = dotted["dotted"].rpartition(".")
        return Use(module, name, (message,), prose=True)
    named = _PROSE_IMPORT.search(text)
    if not named:
        return None
    joined = " ".join(line.strip() for line in before)
    found = next((m for m in _FROM.finditer(joined) if named["name"] in re.findall(r"\w+", m["names"])), None)
    if found is None:
        return None
    at = next((number - back for back, text_above in enumerate(reversed(before), 1) if found["module"] in text_above),
              number)
    return Use(found["module"], named["name"], (Evidence(at, found.group(0).strip()[:400]), message), prose=True)


def code_line(before: tuple[str, ...]) -> tuple[int, str]:
    """(how many lines up, the text) of the code line above a message: the nearest line that is
    not blank nor a line of carets (Python 3.11+ puts one between); (0, "") when there is none."""
    return next(((i, line) for i, line in enumerate(reversed(before), 1)
                 if line.strip() and set(line.strip()) - set("^~ ")), (0, ""))


def _imported(number: int, before: tuple[str, ...],
              wanted: Callable[[re.Match[str]], bool]) -> tuple[re.Match[str], Evidence] | None:
    """The nearest import statement above the message that ``wanted`` accepts, with its line."""
    for back, line in enumerate(reversed(before), 1):
        froms = list(_FROM.finditer(line))
        imports = [i for i in _IMPORT.finditer(line) if not any(f.start() <= i.start() < f.end() for f in froms)]
        found = next((m for m in froms + imports if wanted(m)), None)
        if found:
            return found, Evidence(number - back, line.strip()[:400])
    return None


def _own_alias(expr: str) -> bool:
    """Whether the code reaches the name through a capitalised name of its own (`Reg.l1_l2`, `L.`,
    `NL.`), which Python 2's `'module' object` says is a module: libraries' submodules are imported
    so, while the lower-case ones are as often another library's (`np.`, `tf.`) or the code's own."""
    return "." not in expr and expr[0].isupper() and expr not in ALIASES


def _owner_expr(code: str, name: str) -> str | None:
    """The dotted expression the code takes ``name`` from (`T.nnet` in `T.nnet.relu(x)`)."""
    m = re.search(rf"(?<![\w.])(?P<expr>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.{re.escape(name)}\b", code)
    return m["expr"] if m else None


def resolve(expr: str, name: str) -> str | None:
    """The module a dotted expression of the code names (``name`` is used on it): through the
    documented aliases, a full module name, or else the table's modules whose name ends so and
    that bind ``name`` in some release: the one with the fewest parts, when only one has them."""
    parts = expr.split(".")
    inner = [i for i, part in enumerate(parts) if i and part in kb_api_eras.projects()]
    if inner:  # a library reached through another module's import of it (`lasagne.utils.theano.sandbox`)
        expr = ".".join(parts[inner[-1]:])
    head, _, rest = expr.partition(".")
    if head in ALIASES:
        expr = ALIASES[head] + ("." + rest if rest else "")
    if kb_api_eras.project_of(expr) and kb_api_eras.lookup(expr):
        return expr
    ending = "." + expr
    matches = [m for p in kb_api_eras.projects().values() for m in p.modules
               if m.endswith(ending) and kb_api_eras.lookup(m, name)]
    fewest = min((m.count(".") for m in matches), default=0)
    shortest = [m for m in matches if m.count(".") == fewest]
    return shortest[0] if len(shortest) == 1 else None


def judge(use: Use, era: Era, installed: dict[str, tuple[str, int, str]], causes: dict[str, Cause],
          span: tuple[int, ...] = (), claimed: bool = False) -> Finding | None:
    """The era finding for a name (or module, or keyword: explain/keyword_era.py) the code uses that
    releases ``era.have`` have; ``span``: the releases the installed one must be among (by default,
    those with the name's module, for a name; every release read, for a module); ``claimed``: the
    installed version is the post's claim, not a printed one (medium at most)."""
    project = era.project
    # A missing name of a module that imported: the installed release is one with the module. A
    # missing module: Python names the first part of the dotted name that failed, so its parent
    # package imported and the installed release is one with that package.
    within = None
    if not span and use.name:
        within = kb_api_eras.lookup(use.module) if era.name else None
    elif not span and "." in use.module:
        within = kb_api_eras.lookup(use.module.rpartition(".")[0])
    span = span or (within.have if within else tuple(range(len(project.releases))))
    era = era._replace(have=tuple(i for i in era.have if i in span))
    seen = installed.get(project.key)
    version = kb_api_eras.parse_version(seen[0]) if seen else None
    if version is not None and any(project.version(i).local and project.version(i).public == version.public
                                   for i in range(len(project.releases))):
        seen = version = None  # a development version several snapshots read share (Lasagne 0.1.dev0)
    if not era.have or era.have == span or (version is not None and era.has(version)):
        return None  # every release (with the module) has it, or the installed one does: not an era problem
    if version is not None:
        older, newer = era.newest_before(version), era.oldest_after(version)
        if (older is None) == (newer is None):
            return None  # releases on both sides of the installed one have it: not decided here
        too_new, confidence, judged = newer is None, "medium" if claimed else "high", era.have
        undecided = False
    else:
        judged, line = _judged_line(era, span)
        gone, late = judged[-1] != line[-1], judged[0] != line[0]
        if gone == late and not gone:
            return None  # both ends have it, a release between does not: a guess either way
        # only middle releases have it: most likely a newer one is installed, but the log does not say;
        # where both ways name one cause (Keras, PyMC3, Blocks/Fuel), the cause does not wait on the way
        one_cause = CAUSES[project.key][0] == CAUSES[project.key][1]
        too_new, confidence = gone, "medium" if gone != late or one_cause else "low"
        undecided = gone == late
        if all(project.version(i).local for i in line if i not in judged):
            confidence = "low"  # only development snapshots lack it: their history need not run one way
        if use.name and era.name is None:
            confidence = "low"  # a submodule is an attribute only once imported: maybe it was not (or failed)
    if era.condition:
        confidence = "low"  # bound only when a condition holds (a backend, a dependency's version)
    moved = _moved(era) if too_new else ()  # the releases without it have it elsewhere: the remedy says where
    cause = causes[CAUSES[project.key][0 if too_new else 1]]
    return _finding(use, era, cause, too_new, confidence, seen, version, moved, judged, claimed, undecided)


def _judged_line(era: Era, span: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the releases with the name, the releases) that decide which way the code leans: those of
    the project's judged line (Keras 1.0 on) where that line has the name in some releases but not
    all; else all of them (one every later release has). A name the early line kept to its last
    release and the judged line never had leans one way: the code is older than the installed
    release (Keras 0.3's `MaskedLayer` on Keras 1 or 2), whichever early releases lacked it."""
    first = era.project.judged_from
    line = tuple(i for i in span if i >= first)
    have = tuple(i for i in era.have if i >= first)
    if have and len(have) != len(line):
        return have, line
    if not have and first - 1 in era.have:
        return era.have, tuple(i for i in span if i >= era.have[0])
    return era.have, span


def _moved(era: Era) -> tuple[str, ...]:
    """Other modules of the project that have the name in the release after its last one here."""
    after = era.have[-1] + 1
    if era.name is None or after >= len(era.project.releases):
        return ()
    found = []
    for module in era.project.modules:
        if module != era.module:
            other = kb_api_eras.lookup(module, era.name)
            if other is not None and other.name is not None and after in other.have:
                found.append(module)
    return tuple(sorted(found, key=lambda m: (m.count("."), m))[:3])


def _finding(use: Use, era: Era, cause: Cause, too_new: bool, confidence: str,
             seen: tuple[str, int, str] | None, version: Version | None, moved: tuple[str, ...],
             judged: tuple[int, ...], claimed: bool = False, undecided: bool = False) -> Finding:
    """``judged``: the releases with the name that decided (_judged_line): a newer release needed
    is the first of them; ``undecided``: releases on both sides lack it and the log prints no
    version, so the installed one would say which way the code leans."""
    project = era.project
    what = use.said or (f"`{use.module}.{use.name}`" if use.name else f"the module `{use.module}`")
    if too_new:
        index = era.newest_before(version) if version is not None else era.have[-1]
        assert index is not None
        index = next((i for i in reversed(era.have) if i <= index and not project.version(i).is_prerelease), index)
        said = (f"The code uses {what}, which {project.label} has only in {era.span()}"
                f"{f' (gone from {project.releases[index + 1]} on)' if index + 1 < len(project.releases) else ''}")
        remedy = f"install {project.label} {project.releases[index]} (the newest release with it) or port the call"
        if moved:
            remedy += f"; {project.releases[era.have[-1] + 1]} has `{use.name}` in " + \
                ", ".join(f"`{m}`" for m in moved)
    else:
        index = era.oldest_after(version) if version is not None else judged[0]
        assert index is not None
        index = next((i for i in era.have if i >= index and not project.version(i).is_prerelease), index)
        said = f"The code uses {what}, which {project.label} has only from {project.releases[index]} on ({era.span()})"
        remedy = f"install {project.label} {project.releases[index]} or newer"
        if version is None and era.have[-1] == len(project.releases) - 1:
            # a release newer than the table's last (Keras 2.4's wrapper of tf.keras) may lack it too
            remedy += f"; {project.label} {project.releases[-1]} is the newest release read here"
    if era.condition:
        said += f"; its newest release defines it only when a condition holds ({era.condition})"
    shown = (f"the post says {project.label} {seen[0]} (line {seen[1]}), a claim the log does not print"
             if claimed else f"the log shows {project.label} {seen[0]} installed") if seen else \
        f"the log prints no installed {project.label} version"
    source = era.cites.get(index) or next(iter(era.cites.values()), "")
    evidence = use.evidence + ((Evidence(seen[1], seen[2][:400]),) if seen else ())
    asks = () if confidence != "low" and not undecided else \
        (f"which {project.label} version is installed (`pip show {project.key}`)",)
    return Finding(
        cause=cause.id, title=cause.title, explanation=cause.cause, remedy=cause.remedy, fix=cause.fix,
        confidence=confidence, evidence=tuple(sorted(evidence, key=lambda e: e.line)), signatures=(SIGNATURE,),
        values={"module": use.module, "name": use.name or "", "library": project.label,
                "releases": era.span(), **({("claimed" if claimed else "installed"): seen[0]} if seen else {}),
                **({"moved_to": ", ".join(moved)} if moved else {})},
        source=cause.source, signature_sources=(source,), details=(f"{said}; {shown}: {remedy} ({source}).",),
        asks=asks)
