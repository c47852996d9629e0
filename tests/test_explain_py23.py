"""`explain` tells Python 2 code run by Python 3 from Python 3 code run by Python 2, from the
messages each real interpreter prints (pyenv's 2.7 and 3.6-3.13, whose wording differs: 3.10
changed the print hint and `10L`'s message, 3.8 the octal one) and from what the log shows around
them: the source line a traceback prints above a bare `SyntaxError: invalid syntax`, and the
Python its paths name, which silences a reading it contradicts."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests import legacy_envs
from theanodoctor.explain import explain_text
from theanodoctor.explain.pyera import without_comment

PYTHON3S = ("3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13")

# Python 2 code that Python 2.7 runs, each line refused (or failing) on every Python 3.
PY2_SYNTAX = [
    'print "hello"',
    'print >>open("log.txt", "w"), "x"',
    'exec "x = 1"',
    "try:\n    pass\nexcept ValueError, e:\n    pass",
    "x = `1`",
    "x = ur'a'",
    'def f():\n    raise ValueError, "bad"',
    "if 1 <> 2:\n    pass",
    "x = 10L",
    "x = 0777",
    "if 1:\n\tx = 1\n        y = 2",
]
PY2_NAMES = [
    "xrange(3)", "unicode('a')", "basestring", "long(1)", "raw_input", "reduce(max, [1])", "unichr(97)",
    "file('x')", "execfile('x.py')", "{}.iteritems()", "{}.has_key(1)", "import string; string.letters",
    "import string; string.maketrans('a', 'b')", "import sys; sys.maxint", "import cPickle",
    "import urllib2", "import Queue", "import ConfigParser", "import StringIO", "import cStringIO",
    "import Tkinter", "import commands", "import md5", "from itertools import izip", "import itertools; itertools.imap",
    "sorted([2, 1], cmp=lambda a, b: a - b)", "{1: 2}.keys()[0]", "map(str, [1])[0]", "zip([1], [2])[0]",
    "range(7 / 2)", "[1, 2, 3][4 / 2]", "import sys; reload(sys)", "coerce(1, 2.0)",
    "import random; random.shuffle(range(5))", "from collections import OrderedDict; OrderedDict([(1, 2)]).keys()[0]",
    "import _pickle as cPickle; cPickle.HIGHEST_PROTOCOL",
]
# Python 2's names of a function's and a method's attributes (Python 3: __name__, __func__ ...)
PY2_ATTRIBUTES = ["def f():\n    pass\nf.func_name", "class A(object):\n    def m(self):\n        pass\nA().m.im_func"]
PY2_NAMES += PY2_ATTRIBUTES
# Python 3 code that Python 3.13 runs, each line refused (or failing) on Python 2.7.
PY3_CODE = [
    ("print('a', end='')", "high"),
    ("import sys\nprint('a', file=sys.stderr)", "high"),
    ("import sys\nprint('ran for %.2fm' %\n      (1 / 60.), file=sys.stderr)", "high"),  # the call's last line
    ("def f(*, a=1):\n    pass", "high"),
    ("def f(x: int) -> int:\n    return x", "high"),
    ("def g():\n    x = 1\n    def h():\n        nonlocal x", "high"),
    ("try:\n    pass\nexcept KeyError as e:\n    raise ValueError('a') from e", "high"),
    ("class A(object):\n    def __init__(self):\n        super().__init__()\nA()", "high"),
    ("class Network:\n    pass\nclass Classifier(Network):\n    def __init__(self):\n"
     "        super(Classifier, self).__init__()\nClassifier()", "medium"),
    ("from urllib.request import urlopen", "high"),
    ("import urllib.parse", "high"),
    ("try:\n    open('missing.txt')\nexcept FileNotFoundError:\n    pass", "high"),
    ("x = f'{1}'", "medium"),
    ("async def f():\n    pass", "medium"),
    ("def g():\n    yield from range(3)", "medium"),
    ("import pathlib", "medium"),
    ("import configparser", "medium"),
    ("import typing", "medium"),
    ("from html import escape", "medium"),
    ("from functools import lru_cache", "high"),
    ("from shutil import which", "high"),
    ("from collections import ChainMap", "high"),
    ("import os\nos.makedirs('made', exist_ok=True)", "high"),
    ("import pickle\nwith open('d.pkl', 'wb') as f:\n    pickle.dump(1, f)\n"
     "pickle.load(open('d.pkl', 'rb'), encoding='latin1')", "medium"),
    ("try:\n    import cPickle as pickle\nexcept ImportError:\n    import pickle\n"
     "with open('d.pkl', 'wb') as f:\n    pickle.dump(1, f)\npickle.load(open('d.pkl', 'rb'), encoding='latin1')",
     "medium"),
    ("text = open('notes.txt', 'w', encoding='utf-8')", "medium"),
    ("'a-b'.translate(str.maketrans({'-': ' '}))", "medium"),
    ("import io\nio.StringIO().write('text')", "medium"),  # Python 2's io.StringIO takes unicode alone
    # an old-style class of Python 2 that is a Python 3 iterator (`__next__` only)
    ("class Batches:\n    def __next__(self):\n        return 1\nnext(Batches())", "medium"),
    ("# caf\u00e9, a comment in UTF-8\nx = 1\nraise SystemExit(0 if x else 1)", "medium"),
]


def _run(python: str, code: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``code`` run as a script, so that its traceback shows the source lines as real logs do."""
    (cwd / "snippet.py").write_text(code + "\n", encoding="utf-8")
    return subprocess.run([python, "snippet.py"], cwd=cwd, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)


def _failure(version: str, code: str, cwd: Path) -> str:
    proc = _run(str(legacy_envs.find_interpreter(version)), code, cwd)
    assert proc.returncode != 0, f"Python {version} ran {code!r}"
    return proc.stderr.decode("utf-8", "replace")


def _first(log: str) -> tuple[str, str] | None:
    named = [(f.cause, f.confidence) for f in explain_text(log).findings if f.confidence != "low"]
    return named[0] if named else None


@pytest.mark.parametrize("version", PYTHON3S)
def test_python2_code_on_every_python3(version, tmp_path):
    for code in PY2_SYNTAX + (PY2_NAMES if version in (PYTHON3S[0], PYTHON3S[-1]) else []):
        log = _failure(version, code, tmp_path)
        assert _first(log) in (("python2-code-on-python3", "high"), ("python2-code-on-python3", "medium")), (code, log)


def test_the_python2_code_runs_on_python2(tmp_path):
    """The rows rest on a real era difference: Python 2.7 accepts every line above."""
    python = str(legacy_envs.find_interpreter("2.7"))
    for code in PY2_SYNTAX + ["xrange(3)", "{}.iteritems()", "import cPickle", "range(7 / 2)", "{1: 2}.keys()[0]",
                              "import sys; reload(sys)", "coerce(1, 2.0)", "import random; random.shuffle(range(5))",
                              "from collections import OrderedDict; OrderedDict([(1, 2)]).keys()[0]", *PY2_ATTRIBUTES]:
        proc = _run(python, code, tmp_path)
        assert proc.returncode == 0, (code, proc.stderr)


def test_a_modules_python2_next_call_of_a_csv_reader(tmp_path):
    """A package's module (not the script, whose lines are read as code) calling Python 2's `reader.next()`:
    Python 3's csv reader has only `__next__`; Python 2.7 runs it."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "reader.py").write_text("import csv\n\n\ndef header(path):\n    return csv.DictReader("
                                                "open(path)).next()\n", encoding="utf-8")
    (tmp_path / "d.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    code = "from pkg.reader import header\nprint(sorted(header('d.csv')))"
    log = _failure(PYTHON3S[-1], code, tmp_path)
    assert "'DictReader' object has no attribute 'next'" in log, log
    assert _first(log) == ("python2-code-on-python3", "medium")
    assert _run(str(legacy_envs.find_interpreter("2.7")), code, tmp_path).returncode == 0


def test_a_scipy_sparse_matrix_asked_for_python2s_dict_methods(tmp_path):
    """SciPy's dok_matrix on Python 3 (real SciPy 1.2.1) answers `has_key not found`; on Python 2 (real
    SciPy 0.17.1) it is a dict with has_key."""
    code = "import scipy.sparse as sp\nprint(sp.dok_matrix((2, 2)).has_key((0, 0)))"
    py3 = _run(str(legacy_envs.env_python(legacy_envs.ensure_env("healthy37"))), code, tmp_path)
    log = py3.stderr.decode("utf-8", "replace")
    assert log.rstrip().endswith("AttributeError: has_key not found"), log
    assert _first(log) == ("python2-code-on-python3", "medium")
    py2 = _run(str(legacy_envs.env_python(legacy_envs.ensure_env("theano082_py27"))), code, tmp_path)
    assert py2.returncode == 0 and py2.stdout.strip() == b"False", py2.stderr


@pytest.mark.parametrize(("code", "confidence"), PY3_CODE, ids=[c[:30] for c, _ in PY3_CODE])
def test_python3_code_on_python2(code, confidence, tmp_path):
    log = _failure("2.7", code, tmp_path)
    assert _first(log) == ("python3-code-on-python2", confidence), log
    assert _run(str(legacy_envs.find_interpreter("3.13")), code, tmp_path).returncode == 0, code


def test_a_text_file_read_under_the_c_locale(tmp_path):
    """Python 3.6 under the C locale (a Docker image without LANG) opens text files as ASCII: a UTF-8
    file fails in the ASCII decoder; Python 3.7 coerces the C locale to UTF-8 and reads it."""
    (tmp_path / "corpus.txt").write_text("caf\u00e9\n", encoding="utf-8")
    code = "text = open('corpus.txt').read().lower()"
    c_locale = {**os.environ, "LC_ALL": "C", "LANG": "C"}
    c_locale.pop("PYTHONUTF8", None)
    (tmp_path / "snippet.py").write_text(code + "\n", encoding="utf-8")
    runs = {version: subprocess.run([str(legacy_envs.find_interpreter(version)), "snippet.py"], cwd=tmp_path,
                                    capture_output=True, timeout=120, env=c_locale) for version in ("3.6", "3.7")}
    log = runs["3.6"].stderr.decode("utf-8", "replace")
    assert "UnicodeDecodeError: 'ascii' codec can't decode byte 0xc3" in log, log
    assert _first(log) == ("text-file-read-with-locale-encoding", "medium")
    assert runs["3.7"].returncode == 0, runs["3.7"].stderr


def test_a_syntax_error_names_nothing_when_the_shown_line_is_neither_era(tmp_path):
    """A typo is no era: the bare `invalid syntax` names no cause, on either Python."""
    for version in ("2.7", "3.7", "3.13"):
        assert _first(_failure(version, "x = (1,\ny = 2 2", tmp_path)) is None
        assert _first(_failure(version, "day = '2020-01-05' 1", tmp_path)) is None  # no octal in a string


def test_only_the_line_a_frame_shows_is_read_as_code():
    """Prose above the error that quotes Python 2 is no frame: only the frame's own line counts."""
    prose = 'I wrote print "x" like the tutorial says\nSyntaxError: invalid syntax\n'
    assert _first(prose) is None
    frame = '  File "train.py", line 12\n    print "x"\n          ^\nSyntaxError: invalid syntax\n'
    assert _first(frame) == ("python2-code-on-python3", "high")
    quoted = "> " + frame.replace("\n", "\n> ")  # pasted as a quote into a reply
    assert _first(quoted) == ("python2-code-on-python3", "high")
    cell = '  Cell In[3], line 1\n    raise ValueError, "bad"\n                    ^\nSyntaxError: invalid syntax\n'
    assert _first(cell) == ("python2-code-on-python3", "high")  # as IPython 8.12 prints it
    cut = 'line 12, in train\n    print "x"\n          ^\nSyntaxError: invalid syntax\n'
    assert _first(cut) == ("python2-code-on-python3", "high")  # a copy that lost the header's `File "..."`
    assert _first('the error is on line 12, in train\n    print "x"\nSyntaxError: invalid syntax\n') is None


def test_a_long_log_keeps_the_frame_across_its_blocks():
    """The scanner reads a log in blocks: a frame cut by a block's end is still read whole."""
    from theanodoctor.explain.scan import BLOCK_LINES

    frame = '  File "train.py", line 12\n    x = 10L\n         ^\nSyntaxError: invalid syntax\n'
    for filler in range(BLOCK_LINES - 3, BLOCK_LINES + 1):
        assert _first("noise\n" * filler + frame) == ("python2-code-on-python3", "high"), filler


def test_the_python_in_the_log_silences_a_reading_it_contradicts(tmp_path):
    """numpy refuses a float size on Python 2 too (numpy 1.12+): where the log's paths show
    Python 2, the float is no Python 3 division; numpy newer than the code is."""
    python = str(legacy_envs.env_python(legacy_envs.ensure_env("py27")))
    proc = _run(python, "import numpy as np\nn = 4\nnp.reshape(np.arange(n), (n / 2.0, 2))", tmp_path)
    log = proc.stderr.decode("utf-8", "replace")
    assert "cannot be interpreted as an index" in log and "python2.7" in log
    assert _first(log) == ("numpy-too-new-for-code", "medium")
    assert "python2-code-on-python3" not in [f.cause for f in explain_text(log).recognised]
    # numpy 1.11 (the Theano 0.8.2 env) only warns and truncates: the same code runs there
    older = str(legacy_envs.env_python(legacy_envs.ensure_env("theano082_py27")))
    assert _run(older, "import numpy as np\nn = 4\nnp.reshape(np.arange(n), (n / 2.0, 2))", tmp_path).returncode == 0
    # the same text with Python 3's paths (the traceback of a Python 3 env) is the division
    python3 = str(legacy_envs.env_python(legacy_envs.ensure_env("healthy37")))
    log3 = _run(python3, "import numpy as np\nn = 4\nnp.reshape(np.arange(n), (n / 2, 2))", tmp_path).stderr.decode(
        "utf-8", "replace")
    assert _first(log3) == ("python2-code-on-python3", "medium"), log3


def test_a_float_slice_bound_on_python2_is_the_newer_numpy(tmp_path):
    """numpy 1.12+ refuses a float slice bound that numpy 1.11 truncated; Python 2 prints the same
    text as Python 3, so only the Python the log's paths show (an Anaconda2 base is 2.7) decides."""
    code = "import numpy as np\nn = 5\nnp.zeros(n)[n / 2.0:]"
    python = str(legacy_envs.env_python(legacy_envs.ensure_env("py27")))  # numpy 1.16
    log = _run(python, code, tmp_path).stderr.decode("utf-8", "replace")
    assert "slice indices must be integers or None or have an __index__ method" in log
    older = str(legacy_envs.env_python(legacy_envs.ensure_env("theano082_py27")))  # numpy 1.11 only warns
    assert _run(older, code, tmp_path).returncode == 0
    # the traceback of a script shows no Python; with an Anaconda2 base's path it is Python 2.7,
    # with an environment of Anaconda3 (`envs\py27`) the Python is not told by the path
    assert "numpy-too-new-for-code" not in [f.cause for f in explain_text(log).recognised]
    message = log.strip().splitlines()[-1] + "\n"
    frame = '  File "C:\\Users\\u\\{}\\lib\\multiprocessing\\process.py", line 258, in _bootstrap\n'
    assert _first(frame.format("Anaconda2") + message) == ("numpy-too-new-for-code", "medium")
    assert _first(frame.format("Anaconda3\\envs\\py27") + message) is None


def test_python2s_wording_of_a_float_index_names_the_python(tmp_path):
    """`cannot be interpreted as an index` is Python 2's wording (Python 3: `as an integer`)."""
    code = "import numpy as np\nnp.zeros((np.float64(2.0), 3))"
    py2 = _run(str(legacy_envs.env_python(legacy_envs.ensure_env("py27"))), code, tmp_path).stderr.decode()
    py3 = _run(str(legacy_envs.env_python(legacy_envs.ensure_env("healthy37"))), code, tmp_path).stderr.decode()
    assert py2.strip().endswith("object cannot be interpreted as an index")
    assert py3.strip().endswith("object cannot be interpreted as an integer")
    assert _first(py2.strip().splitlines()[-1]) == ("numpy-too-new-for-code", "medium")
    assert _first(py3.strip().splitlines()[-1]) == ("python2-code-on-python3", "medium")


def test_the_interpreter_banner_names_the_python():
    from theanodoctor.explain.pyera import python_hint

    assert python_hint("Python 3.8.5 (default, Sep  4 2020, 07:30:14)") == "3.8"
    assert python_hint(r'  File "C:\Python27\lib\site-packages\theano\__init__.py", line 1') == "2.7"
    assert python_hint('  File "/usr/lib/python3.6/pickle.py", line 1') == "3.6"
    assert python_hint("I use python 3.8 on Ubuntu") is None
    assert python_hint(r'  File "C:\Users\u\Anaconda2\lib\multiprocessing\process.py", line 1') == "2.7"
    assert python_hint(r'  File "C:\Users\u\Anaconda2\envs\py36\lib\site.py", line 1') is None
    banner = ("Python 3.8.5 (default, Apr 20 2020, 19:27:10)\n"
              "TypeError: slice indices must be integers or None or have an __index__ method\n")
    assert _first(banner.replace("3.8.5", "2.7.18")) == ("numpy-too-new-for-code", "medium")
    assert _first(banner) is None  # Python 3's reading of the text is only a hint


@pytest.mark.parametrize("code", ["import theano.tensor as T\nx = T.matrix()\nn = 6\nT.reshape(x, (4, n / 4))",
                                  "import theano.tensor as T\nn = 6\nT.alloc(0., n / 4)"])
def test_float_shapes_in_theano_1_0_5(code, tmp_path):
    def theano(env: str) -> subprocess.CompletedProcess[bytes]:
        python = str(legacy_envs.env_python(legacy_envs.ensure_env(env)))
        return subprocess.run([python, "-c", code], cwd=tmp_path, capture_output=True, timeout=300,
                              env={"THEANO_FLAGS": f"cxx=,base_compiledir={tmp_path}", "HOME": str(tmp_path),
                                   "PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL)

    log = theano("healthy37").stderr.decode("utf-8", "replace")
    assert _first(log) == ("python2-code-on-python3", "medium"), log
    # Python 2's `/` keeps the shape an integer: the same code runs under Theano 1.0.5 on 2.7
    on_python2 = theano("py27")
    assert on_python2.returncode == 0, on_python2.stderr


@pytest.mark.parametrize(("version", "code"), [("3.12", "import imp"),
                                               ("3.13", "import cgi"), ("3.10", "import asyncio\nasyncio.async")])
def test_python_too_new_for_code(version, code, tmp_path):
    assert _first(_failure(version, code, tmp_path))[0] in ("python-too-new-for-code",), code


@pytest.mark.parametrize("version", ("3.6", "3.13"))
def test_pickles_the_python2_way(version, tmp_path):
    """A pickle Python 2.7 wrote (a byte string beyond ASCII, as numpy arrays hold), and pickle
    files opened as text, the way Python 2 code opens them."""
    writer = str(legacy_envs.find_interpreter("2.7"))
    subprocess.run([writer, "-c", "import pickle; pickle.dump(['\\xe9'], open('py2.pkl', 'wb'), 2)"],
                   cwd=tmp_path, check=True, timeout=120)
    for code in ("import pickle\nwith open('py2.pkl', 'rb') as f:\n    pickle.load(f)",
                 "import pickle\nwith open('py2.pkl') as f:\n    pickle.load(f)",
                 "import pickle\nwith open('new.pkl', 'w') as f:\n    pickle.dump([1], f)"):
        log = _failure(version, code, tmp_path)
        assert _first(log) == ("python2-pickle-on-python3", "medium"), (code, log)
    # with encoding='latin1', the remedy, the Python 2 pickle loads
    fixed = "import pickle\nwith open('py2.pkl', 'rb') as f:\n    assert pickle.load(f, encoding='latin1') == ['\\xe9']"
    assert _run(str(legacy_envs.find_interpreter(version)), fixed, tmp_path).returncode == 0


def _pip_build(setup_py: str, cwd: Path) -> str:
    """The output of pip (Python 3.8) installing a package whose setup.py is ``setup_py``; it must fail."""
    package = cwd / "oldpkg"
    package.mkdir()
    (package / "setup.py").write_text(setup_py + "setup(name='oldpkg', version='0.1')\n", encoding="utf-8")
    proc = subprocess.run([str(legacy_envs.find_interpreter("3.8")), "-m", "pip", "install", "--no-index",
                           "--no-build-isolation", "--target", str(cwd / "target"), str(package)],
                          cwd=cwd, capture_output=True, timeout=300, stdin=subprocess.DEVNULL)
    log = (proc.stdout + proc.stderr).decode("utf-8", "replace")
    assert proc.returncode != 0, log
    return log


def test_a_python2_package_built_by_pip(tmp_path):
    """pip quotes the failing setup.py: Python 2 syntax there is a Python 2-only release."""
    log = _pip_build("from setuptools import setup\ntry:\n    import foo\nexcept ImportError, e:\n    pass\n", tmp_path)
    assert "SyntaxError: invalid syntax" in log, log
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("package-python2-only", "medium")], log
    assert any(f.cause == "python2-code-on-python3" and f.consequence_of == "package-python2-only" for f in found)


def test_a_python2_method_in_a_setup_script_built_by_pip(tmp_path):
    """A setup.py that calls Python 2's `.next()` (hyperopt 0.0.2's): the frame that raised is the
    setup script's, so the release is Python 2 only; the same call in any other file is the code's."""
    log = _pip_build("import os\nfrom setuptools import setup\nsubdirs = os.walk('.').next()[1]\n", tmp_path)
    assert "object has no attribute 'next'" in log, log
    assert _first(log) == ("package-python2-only", "medium"), log
    elsewhere = log.replace("setup.py", "train.py")
    assert [f.cause for f in explain_text(elsewhere).findings][:1] == ["python2-code-on-python3"]


def test_python2_wording_of_a_wrong_call_only_asks(tmp_path):
    """Python 2 words a wrong call its own way: that shows the interpreter, not the root."""
    code = "class A(object):\n    def __init__(self, a, b, c=1):\n        pass\nA(1)"
    found = explain_text(_failure("2.7", code, tmp_path)).findings
    assert [(f.cause, f.confidence) for f in found] == [("python3-code-on-python2", "low")] and found[0].asks
    assert not explain_text(_failure("3.13", code, tmp_path)).findings  # Python 3's wording is no era


@pytest.mark.parametrize("version", ("3.6", "3.13"))
def test_str_where_python3_needs_bytes_only_asks(version, tmp_path):
    for code in ("import hashlib; hashlib.md5('a')", "b'a' + 'b'"):
        found = explain_text(_failure(version, code, tmp_path)).findings
        assert [(f.cause, f.confidence) for f in found] == [("python2-code-on-python3", "low")], code


TOO_OLD = [
    ("3.6", "import dataclasses", "high"), ("3.6", "import contextvars", "high"),
    ("3.6", "from __future__ import annotations", "high"),
    ("3.7", "import importlib.metadata", "high"), ("3.7", "import math; math.prod([1])", "high"),
    ("3.7", "from math import prod", "high"), ("3.7", "import functools; functools.cached_property", "high"),
    ("3.7", "from typing import Literal", "high"), ("3.7", "from typing import Protocol", "high"),
    ("3.8", "'ab'.removeprefix('a')", "high"), ("3.8", "import zoneinfo", "high"),
    ("3.8", "import math; math.lcm(2, 3)", "high"),
    ("3.10", "import tomllib", "high"), ("3.10", "from typing import Self", "high"),
    ("3.7", "if (n := 1):\n    pass", "medium"), ("3.7", "def f(a, /, b):\n    pass", "medium"),
]


@pytest.mark.parametrize(("version", "code", "confidence"), TOO_OLD, ids=[f"{v}:{c[:30]}" for v, c, _ in TOO_OLD])
def test_python_too_old_for_code(version, code, confidence, tmp_path):
    assert _first(_failure(version, code, tmp_path)) == ("python-too-old-for-code", confidence)
    # the next Python 3 has it: the same code runs on 3.13
    assert _run(str(legacy_envs.find_interpreter("3.13")), code, tmp_path).returncode == 0, code


def test_a_comment_in_the_code_a_frame_shows_is_no_message(tmp_path):
    """A frame's source line is code: its comment (`# ... (out of memory)`) says nothing about the
    run, while a message in its string literal still counts, as does the exception line."""
    code = ('def step():\n    raise RuntimeError("{}")\n'
            "step()  # do not use np.repeat here (out of memory)\n")
    commented = _failure("3.13", code.format("boom"), tmp_path)
    assert "# do not use np.repeat here (out of memory)" in commented
    assert "gpu-out-of-memory" not in {f.cause for f in explain_text(commented).findings}
    raised = _failure("3.13", code.format("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: out of memory"), tmp_path)
    assert _first(raised) == ("gpu-out-of-memory", "high")


@pytest.mark.parametrize(("line", "code"), [
    ("x = f(y)  # out of memory", "x = f(y)"),
    ('s = "a # b"  # c', 's = "a # b"'),
    ("t = 'it\\'s' # c", "t = 'it\\'s'"),
    ("# only a comment", ""),
    ("no_comment()", "no_comment()"),
])
def test_a_source_lines_comment_is_cut_where_no_string_holds_it(line, code):
    assert without_comment(line) == code


def test_a_dict_view_given_to_theano_grad(tmp_path):
    # Python 2 code passing `params.values()` (a list there) to theano.grad: real Theano 1.0.5 on 3.7
    from tests.explain_tables import traceback_of

    python = str(legacy_envs.env_python(legacy_envs.ensure_env("healthy37")))
    code = ("import collections, theano, theano.tensor as T\n"
            "params = collections.OrderedDict(W=theano.shared(1.0), b=theano.shared(2.0))\n"
            "T.grad(params['W'] * params['b'], wrt=params.values())\n")
    log = traceback_of(python, code, tmp_path, {"HOME": str(tmp_path), "THEANO_FLAGS": "cxx="})
    assert "of type <class 'odict_values'>" in log
    assert _first(log) == ("python2-code-on-python3", "medium")
    # a whole dict given instead is the code's own mistake on any Python, no Python 3 matter
    assert _first(log.replace("odict_values", "dict")) != ("python2-code-on-python3", "medium")


# No Python 3.5 runs here: Python 3's SyntaxError print (file, line, caret) under a 3.5 install's path
PY35_SYNTAX = ('Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n'
               '  File "/opt/conda/lib/{python}/site-packages/pkg/tasks.py", line 244\n'
               "    {line}\n                    ^\nSyntaxError: invalid syntax\n")


@pytest.mark.parametrize("line", ["self.temperature: types.TensorSharedVariable = th.shared(",
                                  "width: int", "print(f'epoch {epoch}: {loss:.3f}')"])
def test_python36_syntax_on_an_older_python3(line):
    assert _first(PY35_SYNTAX.format(python="python3.5", line=line)) == ("python-too-old-for-code", "medium")
    # the Python that has the syntax refuses the line for another reason: only a hint
    assert _first(PY35_SYNTAX.format(python="python3.6", line=line)) != ("python-too-old-for-code", "medium")


def test_a_dict_entry_is_no_annotated_assignment():
    log = PY35_SYNTAX.format(python="python3.5", line="'lr': 0.01,")
    assert _first(log) != ("python-too-old-for-code", "medium")


@pytest.mark.parametrize("version", ("2.7", "3.6", "3.13"))
def test_a_script_started_without_its_required_argument(version, tmp_path):
    """argparse's refusal of a command line without a required argument, in each Python's words (Python 2: `too few
    arguments`)."""
    code = "import argparse\np = argparse.ArgumentParser()\np.add_argument('model')\np.parse_args()"
    proc = _run(str(legacy_envs.find_interpreter(version)), code, tmp_path)
    log = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, log
    assert _first(log) == ("script-required-argument-missing", "medium"), log
