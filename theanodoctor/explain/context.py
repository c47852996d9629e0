"""What the log shows about the machine and the stack it ran on: the platform, the Python, the
versions of Theano, numpy, Keras, Lasagne and PyMC3 printed in paths, pip lines and prose, the
GPU back-end in use, the cuDNN in use, the Keras back-end, the kind of Python environment.

The scan hands over only the lines that hold one of ``TRIGGERS`` (found by the same automaton
that finds the signatures' texts), and at most ``LINES_PER_TRIGGER`` lines per trigger, so the
cost stays bounded on logs of any size. A fact seen with two different values (two Pythons, a
Linux path and a Windows one) is no fact: it is kept as ambiguous and decides nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from .pyera import CONDA2

LINES_PER_TRIGGER = 64
MAX_SHOWN = 160

# Each group's literals (lower-cased) and the patterns run on a line that holds one of them.
# Theano's compiledir name starts with the platform (rel-1.0.5 theano/configdefaults.py:1815, platform.platform()).
_WINDOWS = re.compile(r"(?<![\w/\\:.])[a-z]:[\\/]+[\w$.~-]|\.(?:dll|pyd|exe)\b|\bwin(?:32|_amd64|-64|-32)\b|"
                      r"compiledir_Windows\b", re.I)
_MACOS = re.compile(r"(?<![\w/\\:.])/Users/\w|\.dylib\b|\bdarwin\b|compiledir_(?:Darwin|macOS)\b|macosx[-_]\d|"
                    r"Python\.framework|/Library/Frameworks|/Applications/Xcode|MacOSX\d+(?:\.\d+)*\.sdk|"
                    r"/Library/Developer/CommandLineTools", re.I)
_LINUX = re.compile(r"(?<![\w/\\:.])/home/\w|x86_64-linux-gnu|compiledir_Linux\b|(?<![\w-])linux2?\b|"
                    r"\b(?:ubuntu|centos|debian)\b|/usr/lib64/|\bdist-packages\b", re.I)
_PYTHON = (
    re.compile(r"[/\\]python(?P<v>[23](?:\.\d{1,2})?)[mtdu]{0,2}[/\\]", re.I),  # lib/python3.6/, python3/dist-packages
    # the interpreter's banner: "Python 3.7.16 (default, ...", "Python 2.7.12 |Anaconda 4.2.0 (64-bit)| (default, ..."
    re.compile(r"\bPython (?P<v>[23]\.\d{1,2})\.\d+\S*\s(?:\|[^|\n]{0,60}\|\s)?\((?:default|main|tags/|heads/|v\d)"),
    re.compile(r"^\s*Python (?P<v>[23]\.\d{1,2})\.\d+\s*$"),  # python --version
    re.compile(r"\bpython(?P<a>[23])(?P<b>\d{1,2})\.(?:dll|lib|zip)\b", re.I),
    re.compile(r"\bcpython-(?P<a>[23])(?P<b>\d{1,2})", re.I),
    re.compile(r"[/\\]Python(?P<a>[23])(?P<b>\d{1,2})(?:-(?:32|64))?[/\\]", re.I),  # C:\Python36\, ...\Python\Python37\
    re.compile(r"-py(?P<v>[23]\.\d{1,2})\.egg\b", re.I),
    re.compile(r"/Library/Python/(?P<v>[23]\.\d{1,2})/site-packages/"),  # macOS's own Python's packages
)
_NAME = r"(?P<name>theano[-_]pymc|theano|numpy|keras|lasagne|pymc3)"
_V = r"(?P<v>\d+\.\d+(?:\.\d+)*(?:\.?(?:rc|alpha|beta|a|b|dev|post)\d*)?)"
# A package's version next to its name: `Theano-0.8.2-py2.7.egg`, `theano==1.0.4`, `numpy 1.16.1`,
# `Theano (1.0.4)` (pip list, conda list, prose), `Theano version 0.9`, `Keras2.0.3` (prose, a full
# three-part version only); never a requirement (`>=`, `<`).
_VERSION = re.compile(rf"(?<![\w.-]){_NAME}(?:\s+version)?(?:-|==|\s*\(|\s+|\s*:\s*|(?=\d+\.\d+\.\d))v?{_V}"
                      r"(?![\w.]*[<>])", re.I)
# pip 10 and later: `Requirement already satisfied: theano in ./lib/python3.7/site-packages (1.0.4)`
_PIP_SATISFIED = re.compile(rf"Requirement already satisfied:\s*{_NAME}(?:[<>=!~]\S*)?\s+in\s+\S.*\({_V}\)", re.I)
# a printed version attribute, its value on the same line (`>>> theano.__version__ '0.9.0'`) or the next
_DUNDER = re.compile(rf"(?<![\w.]){_NAME}\.__version__\b(?:[^\w<>=!]{{0,12}}{_V}\b)?", re.I)
_BARE_VERSION = re.compile(rf"^\s*(?:(?:Out)?\[\d+\]:\s*)?['\"]?{_V}['\"]?\s*$")
# A library's own message names versions it needs or was changed in ("with Theano 0.11 a c++ compiler
# will be mandatory", "Use Theano 0.9 to use it", "deprecated in NumPy 1.20"): they are not the installed ones.
_PRESCRIBES = re.compile(r"deprecat|\bwill be\b|\brequire[sd]?\b|\bmandatory\b|\bremoved\b", re.I)
_NOT_INSTALLED = {"with", "use", "to", "than", "in", "since", "until", "before", "after", "from", "need", "needs",
                  "needed", "for", "upgrade", "downgrade", "or", "not", "like"}
# pip's and conda's own lines, and a `pip list` / `conda list` row: versions the machine printed
_TOOL_LINE = re.compile(r"^\s*(?:Successfully installed|Requirement already satisfied|Collecting|Installing collected"
                        r"|Found existing installation|Uninstalling|Successfully uninstalled|Downloading|Using cached"
                        r"|Processing|Installed)\b|^\s*[\w.-]+\s+v?\d+\.\d+\S*(?:\s+\S+){0,2}\s*$"
                        r"|^\s*[\w.-]+\s*(?:==\s*\d+\.\d+\S*|\s\(\d+\.\d+[^)\s]*\))\s*$")  # pip freeze, old pip list
SAID = "said:"  # the key prefix of a version only prose states
_SCIPY_SAW_NUMPY = re.compile(r"\bNumPy version\b.*\(detected version (?P<v>\d+\.\d+(?:\.\d+)*)", re.I)
# the name can hold parentheses of its own: `Using gpu device 0: TITAN X (Pascal) (CNMeM is disabled, cuDNN 5110)`
_OLD_IN_USE = re.compile(r"\bUsing gpu device (?P<n>\d+): (?P<gpu>.+?)\s*(?:\((?P<more>[^()]*)\))?\s*$")
# Theano 0.8.0 and 0.8.1 print `CuDNN 5005` (rel-0.8.0 theano/sandbox/cuda/__init__.py:592), 0.8.2 on `cuDNN 5110`
_OLD_CUDNN = re.compile(r"\b[Cc]uDNN (?:Version )?(?P<v>\d{4,})\b")
_NEW_IN_USE = re.compile(r"\bMapped name (?P<ctx>\S+) to device (?P<dev>(?:cuda|opencl)[\d:]*)")
_NEW_CUDNN = re.compile(r"\bUsing cuDNN version (?P<v>\d+) on context (?P<ctx>\S+)")
_DEVICE_FLAG = re.compile(r"\bdevice\s*=\s*(?P<dev>cpu|gpu|cuda|opencl)(?:\d[\d:]*)?\b", re.I)
_FLOATX = re.compile(r"\bfloatX\b['\"]?\s*[=:]\s*['\"]?(?P<v>float16|float32|float64)\b", re.I)
# THEANO_FLAGS given on one line (`THEANO_FLAGS=device=gpu python x.py`, `theano_flags = "device=gpu0,..."`):
# the old back-end's device without floatX there leaves floatX at its default unless a config file sets it
_FLAGS_LINE = re.compile(r"\bTHEANO_FLAGS\b['\"]?\s*[=:]", re.I)
_KERAS_BACKEND = re.compile(r"\bUsing (?P<kb>Theano|TensorFlow|CNTK) backend\b")
# the code calls Theano: `T.flatten(y)`, `theano.function(...)`, `import theano` (a code line, a traceback's
# source line or an interpreter prompt); never `from theano.gof import (`, which Theano's own frames show
_THEANO_CODE = re.compile(r"(?<![\w.])T\.[a-z_]\w*\s*\(|(?<![\w./\\(])theano\.(?:tensor|function|shared|scan|grad)\b"
                          r"|^\s*(?:>>>\s*)?import theano\b")
# a warning's own line (`.../theano/tensor/nlinalg.py:175: DeprecationWarning: theano.tensor...`): the library speaking
_WARNING_LINE = re.compile(r"\.py:\d+: \w*Warning\b")
_CONDA = re.compile(r"\b(?:ana|mini)conda\d?\b|\bminiforge\d?\b|[/\\]envs[/\\]|\bconda-forge\b", re.I)
_SYSTEM = re.compile(r"/usr/(?:local/)?lib/python[23][\d.]*/(?:dist|site)-packages|\bdist-packages\b")
_VIRTUALENV = re.compile(r"[/\\](?:\.?venv|\.virtualenvs|virtualenvs?)[/\\]", re.I)

TRIGGERS: dict[str, str] = {
    **dict.fromkeys((":\\", ":/", ".dll", ".pyd", ".exe", "win32", "win_amd64", "win-64"), "platform"),
    **dict.fromkeys(("/users/", ".dylib", "darwin", "macosx", ".framework", "/library/", "xcode"), "platform"),
    **dict.fromkeys(("compiledir_",), "platform"),
    **dict.fromkeys(("/home/", "linux", "ubuntu", "centos", "debian", "/usr/lib64/", "dist-packages"), "platform"),
    **dict.fromkeys(("python2", "python3", "python 2.", "python 3.", "cpython-", "-py2.", "-py3.", "conda2",
                     "/library/python/"), "python"),
    **dict.fromkeys(("theano-", "theano==", "theano ", "theano_pymc", "numpy", "keras", "lasagne", "pymc3",
                     "__version__"), "version"),
    **dict.fromkeys(("using gpu device", "mapped name", "using cudnn version", "device=", "device =",
                     " backend", "floatx"), "backend"),
    **dict.fromkeys(("import theano", "theano.", "= t.", "(t.", " t."), "code"),
    **dict.fromkeys(("conda", "miniforge", "/envs/", "\\envs\\", "venv", "virtualenvs", "/usr/lib/python",
                     "/usr/local/lib/python"), "env"),
}
PLATFORM_NAMES = {"windows": "Windows", "macos": "macOS", "linux": "Linux"}
KERAS_BACKENDS = {"theano": "Theano", "tensorflow": "TensorFlow", "cntk": "CNTK"}
ENVIRONMENTS = {"conda": "a conda environment", "system Python": "the system's Python", "virtualenv": "a virtualenv"}
PACKAGE_NAMES = {"python": "Python", "theano": "Theano", "theano-pymc": "Theano-PyMC", "numpy": "numpy",
                 "keras": "Keras", "lasagne": "Lasagne", "pymc3": "PyMC3"}


class Fact(NamedTuple):
    name: str  # platform, python, theano, theano-pymc, numpy, keras, lasagne, pymc3, backend, cudnn, device,
    #            keras_backend, environment, code, run
    value: str
    line: int  # 0 when it comes from the whole log (the run's outcome)
    text: str  # the line that shows it
    said: bool = False  # a version only the post's prose states ("I use Theano 0.9"), not a path or pip's output

    def says(self) -> str:
        """The fact as a phrase: "the new GPU back-end in use (line 4: Mapped name None to device cuda0: ...)"."""
        where = f" ({'as the post says, ' if self.said else ''}line {self.line}: {self.text})" if self.line else ""
        return f"{_phrase(self.name, self.value)}{where}"


def _phrase(name: str, value: str) -> str:
    if name == "platform":
        return f"a {PLATFORM_NAMES.get(value, value)} machine"
    if name == "backend":
        return f"the {value} GPU back-end in use" if value in ("old", "new") else f"back-end {value}"
    if name == "cudnn":
        return f"cuDNN {value} in use"
    if name == "device":
        return f"device={value} and no GPU in use"
    if name == "floatx":
        return "flags that set device=gpu and no floatX" if value == "unset" else f"floatX={value}"
    if name == "keras_backend":
        return f"Keras running on its {KERAS_BACKENDS.get(value, value)} back-end"
    if name == "environment":
        return f"Python from {' and '.join(ENVIRONMENTS.get(kind, kind) for kind in value.split(', '))}"
    if name == "run":
        return value
    if name == "code":
        return "code that calls Theano"
    return f"{PACKAGE_NAMES.get(name, name)} {value}"


@dataclass
class FactReader:
    """Fed the triggered lines during the scan; ``facts()`` resolves them once at the end."""

    seen: dict[str, dict[str, tuple[int, str]]] = field(default_factory=dict)  # name -> value -> first line
    budget: dict[str, int] = field(default_factory=dict)
    live: set[str] = field(default_factory=lambda: set(TRIGGERS))  # the triggers whose budget is not spent

    def wants(self, trigger: str) -> bool:
        """Whether to read one more line for ``trigger`` (each has LINES_PER_TRIGGER)."""
        left = self.budget.get(trigger, LINES_PER_TRIGGER)
        self.budget[trigger] = left - 1
        if left <= 1:
            self.live.discard(trigger)
        return left > 0

    def read(self, number: int, text: str, groups: set[str], after: str = "") -> None:
        """``after``: the next line (where an interpreter prints the value a line asks for)."""
        for group in groups:
            _READERS[group](self, number, text, after)

    def note(self, name: str, value: str, number: int, text: str) -> None:
        values = self.seen.setdefault(name, {})
        if value not in values and len(values) < 6:
            values[value] = (number, text.strip()[:MAX_SHOWN])

    def facts(self, failed: bool, warned: bool) -> tuple[dict[str, Fact], dict[str, tuple[str, ...]]]:
        """(the facts that have one value, the names seen with several values)."""
        known: dict[str, Fact] = {}
        ambiguous: dict[str, tuple[str, ...]] = {}
        printed = {name: values for name, values in self.seen.items() if not name.startswith(SAID)}
        said = {name.removeprefix(SAID): values for name, values in self.seen.items() if name.startswith(SAID)}
        # what only the prose says counts where nothing printed that fact
        for name, values, claim in [(n, v, False) for n, v in printed.items()] + \
                [(n, v, True) for n, v in said.items() if n not in printed]:
            value = _resolve(name, values)
            if value is None:
                ambiguous[name] = tuple(values)
            elif name != "device-flag":
                # a joined value (two kinds of environment) is shown by the first line of either
                known[name] = Fact(name, value, *(values.get(value) or min(values.values())), said=claim)
        flag = self.seen.get("device-flag", {})
        keras = known.get("keras_backend")
        if len(flag) == 1 and "cpu" in flag and "backend" not in self.seen and "cudnn" not in self.seen \
                and not (keras and keras.value == "tensorflow"):  # Theano's device says nothing of TensorFlow's
            known["device"] = Fact("device", "cpu", *flag["cpu"])
        if failed:
            known["run"] = Fact("run", "the run failed (a traceback, an exception or a killed process)", 0, "")
        elif warned:
            known["run"] = Fact("run", "only warnings (no traceback, exception or killed process)", 0, "")
        return known, ambiguous


def _resolve(name: str, values: dict[str, tuple[int, str]]) -> str | None:
    if len(values) == 1:
        return next(iter(values))
    if name == "python":  # "3" and "3.6" agree: the more precise one
        precise = {v for v in values if "." in v}
        majors = {v.split(".")[0] for v in values}
        if len(majors) == 1 and len(precise) == 1:
            return next(iter(precise))
    if name == "environment":
        return ", ".join(sorted(values))
    if name in _VERSIONED:  # the same release written two ways (0.9.0 and 0.9.0.dev1 of one line) is rare: ambiguous
        releases = {tuple(v.split(".")[:2]) for v in values}
        if len(releases) == 1:
            return max(values, key=len)
    return None


_VERSIONED = ("theano", "theano-pymc", "numpy", "keras", "lasagne", "pymc3")


def _platform(reader: FactReader, number: int, text: str, after: str) -> None:
    for value, pattern in (("windows", _WINDOWS), ("macos", _MACOS), ("linux", _LINUX)):
        if pattern.search(text):
            reader.note("platform", value, number, text)


def _python(reader: FactReader, number: int, text: str, after: str) -> None:
    for pattern in _PYTHON:
        found = pattern.search(text)
        if found:
            parts = found.groupdict()
            value = parts.get("v") or f"{parts['a']}.{parts['b']}"
            reader.note("python", value, number, text)
            return
    if CONDA2.search(text):
        reader.note("python", "2.7", number, text)


def _versions(reader: FactReader, number: int, text: str, after: str) -> None:
    saw = _SCIPY_SAW_NUMPY.search(text)  # scipy's own check names the numpy it found
    if saw:
        reader.note("numpy", saw["v"], number, text)
    printed = _PIP_SATISFIED.search(text) or _DUNDER.search(text)
    if printed:
        bare = _BARE_VERSION.match(after)
        value = printed["v"] or (bare["v"] if bare else None)
        if value:
            reader.note(printed["name"].lower().replace("_", "-"), value, number, text)
            return
    prescribes = _PRESCRIBES.search(text)
    for found in _VERSION.finditer(text):
        before = text[:found.start()].lower()
        words = before.split()
        if before.endswith(("aesara/", "aesara ")):  # "Aesara/Theano Version: 2.3.8" is Aesara's
            continue
        in_path = before.endswith(("/", "\\"))  # site-packages/Theano-0.8.2-py2.7.egg: whatever the line says
        if not in_path and (prescribes or (words and words[-1] in _NOT_INSTALLED)):
            continue
        name = found["name"].lower().replace("_", "-")
        reader.note(name if in_path or _TOOL_LINE.match(text) else SAID + name, found["v"], number, text)


def _backend(reader: FactReader, number: int, text: str, after: str) -> None:
    old, new = _OLD_IN_USE.search(text), _NEW_IN_USE.search(text)
    if old:
        reader.note("backend", "old", number, text)
        cudnn = _OLD_CUDNN.search(old["more"] or "")
        if cudnn:
            reader.note("cudnn", cudnn["v"], number, text)
    if new:
        reader.note("backend", "new", number, text)
    cudnn = _NEW_CUDNN.search(text)
    if cudnn:
        reader.note("backend", "new", number, text)
        reader.note("cudnn", cudnn["v"], number, text)
    for flag in _DEVICE_FLAG.finditer(text):
        reader.note("device-flag", flag["dev"].lower(), number, text)
    floatx = _FLOATX.search(text)
    if floatx:
        reader.note("floatx", floatx["v"].lower(), number, text)
    elif _FLAGS_LINE.search(text) and any(f["dev"].lower() == "gpu" for f in _DEVICE_FLAG.finditer(text)):
        reader.note("floatx", "unset", number, text)  # the old back-end's device (the new one runs float64 too)
    keras = _KERAS_BACKEND.search(text)
    if keras:
        reader.note("keras_backend", keras["kb"].lower(), number, text)


def _code(reader: FactReader, number: int, text: str, after: str) -> None:
    if _THEANO_CODE.search(text) and not _WARNING_LINE.search(text):
        reader.note("code", "theano", number, text)


def _environment(reader: FactReader, number: int, text: str, after: str) -> None:
    for value, pattern in (("conda", _CONDA), ("system Python", _SYSTEM), ("virtualenv", _VIRTUALENV)):
        if pattern.search(text):
            reader.note("environment", value, number, text)


_READERS = {"platform": _platform, "python": _python, "version": _versions, "backend": _backend,
            "env": _environment, "code": _code}
