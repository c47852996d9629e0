"""`No module named X` for a top-level module that neither a signature nor the release tables know:
a package the code imports is not installed in the Python that runs it (`package-not-in-this-python`),
at medium, asking what would tell it from a file of the code.

  ImportError: No module named gym                      (Python 2)
  ImportError: No module named captcha.image            (Python 2: `from captcha.image import ...`)
  ModuleNotFoundError: No module named 'qdarkstyle'     (Python 3)

Python 2 names the dotted path from the part it failed on, so the whole path the import line names
means its top package is missing; a shorter one (`No module named b.c` for `import a.b.c`) is a
submodule of another package, left to others.

Left to others (no finding here): a module of the standard library; a name a signature reads
(`mkl`, `cPickle`, `tensorflow` ...); a module of Theano, Lasagne, Keras, Blocks, Fuel or PyMC3, or a
name one of them has as a submodule (explain/api_era.py judges those by release); a module Theano
compiles into its cache; Python 2's name of the part an import failed on (`No module named
theano_util` for `from nematus.theano_util import ...`); the files of the Theano tutorials
(`logistic_sgd`), which their scripts import from beside them; the code's own package, named by a
folder of the script's path (`python proj/train.py` importing `proj.model`), which is not on the path;
a relative import's module (`from ..utils.compute_overlap import`), a file of the code's own package
(missing, or an extension not built).

Python 3 failing on a bare name that a package's `__init__.py` imports (`import x`, `from x import`,
not `from x.y import`) is Python 2 code instead: an implicit relative import of a module beside it,
which Python 3 dropped (PEP 328), at medium."""

from __future__ import annotations

import re
import sys

from theanodoctor import kb_api_eras, kb_causes
from theanodoctor.kb_causes import Cause

from .api_era import code_line
from .pyera import ipython_current
from .result import Evidence, Finding

CAUSE, PY2_CAUSE = "package-not-in-this-python", "python2-code-on-python3"
SIGNATURE = "module-not-found"
SOURCE = "https://docs.python.org/3/library/exceptions.html#ModuleNotFoundError"
PY2_SOURCE = "https://peps.python.org/pep-0328/ (imports in Python 3 are absolute)"
MESSAGE = re.compile(r"(?:^|[\s*>`'\"(])(?:ImportError|ModuleNotFoundError)\s*:\s*No module named "
                     r"(?P<q>['\"])?(?P<module>[A-Za-z]\w*)(?(q)['\"]|(?P<tail>(?:\.\w+)+)?)[\s*`]*$")
# the import statement of the code line: the top package it names
_IMPORT = re.compile(r"^\s*(?:>\s*)?(?:from|import)\s+(?P<head>[A-Za-z_]\w*)(?P<dotted>(?:\.\w+)+)?")
# Theano's own compiled modules, kept in its compile cache (Theano rel-0.8.2 theano/gof/cutils.py:12,
# theano/gof/lazylinker_c.py:41, theano/scan_module/scan_perform_ext.py:60,
# theano/sandbox/cuda/__init__.py:84): a failed or stale compile, not a package
COMPILED = frozenset({"cutils_ext", "lazylinker_ext", "scan_perform", "cuda_ndarray"})
# the modules of the Theano tutorials that its other scripts import from the same folder
# (github.com/lisa-lab/DeepLearningTutorials, code/)
TUTORIAL = frozenset({"logistic_sgd", "logistic_cg", "mlp", "convolutional_mlp", "dA", "SdA", "cA", "rbm", "DBN",
                      "rnnrbm", "rnnslu", "lstm", "imdb", "hmc"})
# the standard library's modules (of the Python the doctor runs on, 3.10+): missing, they are no package to install
STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))
# a notebook's hint that its kernel kept a package as it was: any dotted name, no reading of the module
HINTS = frozenset({"kernel-restart-needed"})
# a relative import (`from ..utils.compute_overlap import ...`, `from . import x`)
_RELATIVE = re.compile(r"^\s*(?:>\s*)?from\s+\.")
# a frame of an installed package or an environment (whose folder may bear the missing name: envs/gym/)
_INSIDE = re.compile(r"site-packages|dist-packages|[/\\]envs[/\\]|[/\\]lib[/\\]python")
_FILE = re.compile(r'File "(?P<path>[^"]+)", line \d+')


def findings(watched: list[tuple[int, str, tuple[str, ...], str]], causes: dict[str, Cause]
             ) -> list[tuple[Finding, int]]:
    """The finding of the last such message, with its line number; none when there is none."""
    for number, text, before, _ in reversed(watched):
        m = MESSAGE.search(text)
        if m is None:
            continue
        # (an IPython frame lists numbered lines below the one that ran, which its arrow marks)
        back, code = ipython_current(before) or code_line(before)
        if _known(m["module"], text, code):
            continue
        if _RELATIVE.match(code):
            continue  # a module of the code's own package (a file missing there, an extension not built)
        imported = _IMPORT.match(code)
        if imported and imported["head"] != m["module"]:
            continue  # Python 2 names only the part it failed on: a submodule of another package
        if m["tail"] and not (imported and imported["dotted"] == m["tail"]):
            continue  # Python 2's dotted name is the top package's only where it is the import's whole path
        shown = (number - back, code.strip()[:400]) if imported else None
        frame = next((f for line in reversed(before[:len(before) - back]) if (f := _FILE.search(line))), None)
        if frame and _INSIDE.search(frame["path"]) is None and \
                re.search(rf"(?:^|[/\\]){re.escape(m['module'])}[/\\]", frame["path"]):
            continue  # the code's own package, run from a script inside it: not on the path, no package to install
        beside = not (imported and imported["dotted"])  # `from tensorflow.python import` names a package
        if m["q"] and frame and re.search(r"[/\\]__init__\.py$", frame["path"]) and beside:
            return [(_python2(m["module"], number, text, shown, causes), number)]
        return [(_finding(m["module"], number, text, shown, causes), number)]
    return []


def _known(module: str, text: str, code: str) -> bool:
    """A name something more specific reads: a signature, the release tables, Theano's cache."""
    if module in COMPILED or module in TUTORIAL or module in STDLIB or module in kb_api_eras.projects():
        return True
    if any(m.rpartition(".")[2] == module for p in kb_api_eras.projects().values() for m in p.modules):
        return True
    lowered = text.lower()
    return any(s.match(text, lowered) is not None and (s.code is None or s.code.search(code))
               for s in kb_causes.signatures() if "no module named" in s.contains and s.cause not in HINTS)


def _finding(module: str, number: int, text: str, code: tuple[int, str] | None,
             causes: dict[str, Cause]) -> Finding:
    cause = causes[CAUSE]
    evidence = ((Evidence(*code),) if code else ()) + (Evidence(number, text.strip()[:400]),)
    said = (f"This Python found no module `{module}`, a name no release table here knows: most often a package "
            "that is not installed in the Python that ran the code")
    asks = (f"whether `{module}` is a package (`python -m pip show {module}` with the Python that runs the code) or "
            "a file of the code: one missing beside it, or a module Python 2 code imports from its own folder, "
            "which Python 3 does not do",)
    return Finding(cause=cause.id, title=cause.title, explanation=cause.cause, remedy=cause.remedy, fix=cause.fix,
                   confidence="medium", evidence=evidence, signatures=(SIGNATURE,), values={"module": module},
                   source=cause.source, signature_sources=(SOURCE,), details=(said + ".",), asks=asks)


def _python2(module: str, number: int, text: str, code: tuple[int, str] | None, causes: dict[str, Cause]) -> Finding:
    cause = causes[PY2_CAUSE]
    evidence = ((Evidence(*code),) if code else ()) + (Evidence(number, text.strip()[:400]),)
    said = (f"A package's `__init__.py` imports `{module}` by a bare name and Python 3 finds no such module: Python 2 "
            "code importing a module that sits beside it (an implicit relative import), which Python 3 reads as "
            f"a top-level package; in Python 3 it is `from . import {module}` or `from .{module} import ...`")
    return Finding(cause=cause.id, title=cause.title, explanation=cause.cause, remedy=cause.remedy, fix=cause.fix,
                   confidence="medium", evidence=evidence, signatures=(SIGNATURE,), values={"module": module},
                   source=cause.source, signature_sources=(PY2_SOURCE,), details=(said + ".",),
                   asks=(f"whether `{module}.py` is a file of that package (then it is this) or a package to install",))
