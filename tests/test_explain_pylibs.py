"""`explain` knows the messages Python, numpy and SciPy themselves print when legacy code meets a
newer release: each snippet below runs in a real interpreter (the pyenv Pythons, the cached legacy
environments with their real numpy and SciPy), and the traceback it prints, as printed, must be
explained by the cause the catalogue gives that removal."""

from __future__ import annotations

import os
import pickle
import re
import subprocess
from pathlib import Path

import pytest

from tests import legacy_envs
from tests.explain_tables import printed, traceback_of
from theanodoctor.explain import explain_text

# (where: a pyenv version "3.10" or a legacy env name, code, the cause that must come first)
REAL = [
    ("3.10", "from collections import Iterable", "python-too-new-for-code"),
    ("3.10", "import collections; collections.Mapping", "python-too-new-for-code"),
    ("3.8", "import time; time.clock()", "python-too-new-for-code"),
    ("3.8", "from time import clock", "python-too-new-for-code"),
    ("3.11", "from inspect import getargspec", "python-too-new-for-code"),
    ("3.12", "import pkgutil; pkgutil.ImpImporter", "python-too-new-for-code"),
    ("3.8", "import platform; platform.linux_distribution()", "python-too-new-for-code"),
    ("3.9", "import fractions; fractions.gcd(4, 2)", "python-too-new-for-code"),
    ("3.9", "import threading; threading.Thread().isAlive()", "python-too-new-for-code"),
    ("3.9", "import array; array.array('i').tostring()", "python-too-new-for-code"),
    ("3.11", "import inspect; inspect.getargspec(len)", "python-too-new-for-code"),
    ("3.12", "import asynchat", "python-too-new-for-code"),
    ("3.12", "import unittest; unittest.TestCase.assertEquals", "python-too-new-for-code"),
    ("3.13", "import imghdr", "python-too-new-for-code"),
    ("3.10", "exec('try:\\n  pass\\nexcept ValueError, e:\\n  pass')", "python2-code-on-python3"),
    ("3.10", "exec('x = 0777')", "python2-code-on-python3"),
    ("3.10", "exec('if 1:\\n\\tx = 1\\n        y = 2')", "python2-code-on-python3"),
    ("3.10", "sorted([2, 1], cmp=lambda a, b: a - b)", "python2-code-on-python3"),
    ("3.10", "len(map(str, [1]))", "python2-code-on-python3"),
    ("3.10", "{}.keys().sort()", "python2-code-on-python3"),
    ("3.10", "(x for x in []).next()", "python2-code-on-python3"),
    ("3.10", "import sys; sys.maxint", "python2-code-on-python3"),
    ("3.10", "from urllib import urlretrieve", "python2-code-on-python3"),
    ("3.10", "import urllib; urllib.urlretrieve('x')", "python2-code-on-python3"),
    ("3.10", "long(1)", "python2-code-on-python3"),
    ("3.10", "import pickle\nwith open('model.pkl', 'w') as f:\n    pickle.dump(1, f)", "python2-pickle-on-python3"),
    ("3.10", "import pickle\nwith open('m.pkl', 'wb') as f:\n    pickle.dump([1], f)\n"
             "with open('m.pkl') as f:\n    pickle.load(f)", "python2-pickle-on-python3"),
    ("3.10", "import pickle\nwith open('t.pkl', 'wb') as f:\n    pickle.dump([1], f, protocol=0)\n"
             "WORD2INDEX = pickle.load(open('t.pkl'))[0]", "python2-pickle-on-python3"),
    ("3.10", "'abc'.translate(None, 'a')", "python2-code-on-python3"),
    ("3.10", "range(7 / 2)", "python2-code-on-python3"),
    ("3.10", "[1, 2][3 / 2]", "python2-code-on-python3"),
    ("healthy37", "import theano.tensor as T; n = T.iscalar(); T.vector()[:n / 2]", "python2-code-on-python3"),
    ("healthy37", "import theano.tensor as T; T.vector()[:7 / 2]", "python2-code-on-python3"),
    ("2.7", "import pickle; pickle.loads(b'\\x80\\x03K\\x01.')", "pickle-protocol-too-new"),
    ("3.7", "import pickle; pickle.loads(b'\\x80\\x05K\\x01.')", "pickle-protocol-too-new"),
    ("numpy123", "import numpy as np; np.asscalar(np.array([1]))", "numpy-too-new-for-code"),
    ("numpy124", "import numpy as np; np.typeDict", "numpy-too-new-for-code"),
    ("numpy124", "import numpy as np; np.zeros(7 / 2)", "python2-code-on-python3"),
    ("numpy124", "import numpy as np; range(np.float64(2))", "python2-code-on-python3"),
    ("numpy124", "import numpy as np; np.array([[1], [1, 2]])", "numpy-ragged-array"),
    ("numpy124", "import numpy as np; a = np.zeros(3, dtype=int); a += 0.5", "numpy-inplace-casting"),
    ("numpy124", "import numpy as np; np.save('o.npy', np.array([[1], [1, 2]], dtype=object)); np.load('o.npy')",
     "numpy-load-allow-pickle"),
    ("healthy37", "import numpy as np; np.save('o.npy', np.array([[1], [1, 2]], dtype=object)); np.load('o.npy')",
     "numpy-load-allow-pickle"),
    ("numpy2_311", "import numpy as np; np.float_", "numpy-too-new-for-code"),
    ("numpy2_311", "import numpy as np; np.product([1])", "numpy-too-new-for-code"),
    ("numpy2_311", "import numpy as np; np.array([1, 2], dtype='f4', copy=False)", "numpy-too-new-for-code"),
    ("numpy2_311", "from numpy.core.umath_tests import matrix_multiply", "numpy-too-new-for-code"),
    ("numpy2_311", "from numpy import bool8", "numpy-too-new-for-code"),
    ("numpy2_311", "import numpy as np; np.zeros(2).itemset(0, 1)", "numpy-too-new-for-code"),
    ("numpy2_311", "from numpy.lib.arraysetops import unique", "numpy-too-new-for-code"),
    ("numpy2_311", "import numpy as np; np.array([300], dtype=np.uint8)", "numpy-too-new-for-code"),
    ("numpy2_311", "import scipy; scipy.array([1])", "scipy-too-new-for-code"),
    ("numpy2_311", "import scipy.signal; scipy.signal.gaussian(5, 1)", "scipy-too-new-for-code"),
    ("numpy2_311", "from scipy.signal import gaussian", "scipy-too-new-for-code"),
    ("numpy2_311", "from scipy import array", "scipy-too-new-for-code"),
    ("numpy124", "import scipy.misc; scipy.misc.imread('x.png')", "scipy-misc-removed"),
    ("healthy37", "from scipy import weave", "scipy-too-new-for-code"),
    ("healthy37", "from scipy.stats import nanmean", "scipy-too-new-for-code"),
    ("numpy123", "import scipy.stats; scipy.stats.itemfreq([1, 1])", "scipy-too-new-for-code"),
    # `async` and `await` as names (PyMC 2's threadpool had a method `await`): keywords from 3.7 on
    ("3.7", "class Pool(object):\n    def await(self):\n        return 1", "python-too-new-for-code"),
    ("3.11", "def send(data, async=False):\n    return data", "python-too-new-for-code"),
]


def _interpreter(where: str) -> str:
    if where[0].isdigit():
        return str(legacy_envs.find_interpreter(where))
    return str(legacy_envs.env_python(legacy_envs.ensure_env(where)))


def _run(where: str, code: str, cwd: Path) -> str:
    return traceback_of(_interpreter(where), code, cwd, timeout=120)


@pytest.mark.parametrize(("where", "code", "cause"), REAL, ids=[f"{w}:{c[:40]}" for w, c, _ in REAL])
def test_real_messages_name_their_cause(where, code, cause, tmp_path):
    log = _run(where, code, tmp_path)
    named = [f for f in explain_text(log).findings if f.confidence != "low"]
    assert named and named[0].cause == cause, (log, [(f.cause, f.confidence) for f in named])


def test_the_same_code_on_the_release_before_the_removal_runs(tmp_path):
    """The rows rest on real removals: the release before each one still has the name."""
    for where, code in (("3.7", "import time; time.clock()"), ("3.9", "from collections import Iterable"),
                        ("healthy37", "import numpy as np; np.asscalar(np.array([1]))"),
                        ("numpy123", "import numpy as np; np.typeDict"),
                        ("numpy124", "import scipy; scipy.array([1])"),
                        ("3.6", "class Pool(object):\n    def await(self):\n        return 1\nPool().await()")):
        proc = subprocess.run([_interpreter(where), "-W", "ignore", "-c", code], cwd=tmp_path,
                              capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, (where, code, proc.stderr)


def test_a_numpy2_pickle_read_by_numpy1_is_named(tmp_path):
    writer = _interpreter("numpy2_311")
    subprocess.run([writer, "-c", "import numpy, pickle; pickle.dump(numpy.arange(3), open('a.pkl', 'wb'))"],
                   cwd=tmp_path, check=True, timeout=120)
    log = _run("numpy124", "import pickle; pickle.load(open('a.pkl', 'rb'))", tmp_path)
    first = [f for f in explain_text(log).findings if f.confidence != "low"][0]
    assert first.cause == "numpy2-pickle-on-numpy1"


def test_warnings_of_the_release_before_a_removal_are_only_hints():
    """numpy 1.19-1.23 only warn about ragged arrays: a healthy run with the warning names no cause,
    and a later unrelated error is not blamed on it."""
    warning = ("<stdin>:1: VisibleDeprecationWarning: Creating an ndarray from ragged nested sequences (which is "
               "a list-or-tuple of lists-or-tuples-or ndarrays with different lengths or shapes) is deprecated.\n")
    assert [f.confidence for f in explain_text(warning).findings] == ["low"]
    later = warning + "Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyError: 'weights'\n"
    assert all(f.confidence == "low" for f in explain_text(later).findings)


def test_texts_with_several_roots_ask_for_what_would_decide():
    found = explain_text("IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
                         "and integer or boolean arrays are valid indices\n").findings
    assert [(f.cause, f.confidence) for f in found] == [("python2-code-on-python3", "low")]
    assert found[0].asks
    found = explain_text("TypeError: a bytes-like object is required, not 'str'\n").findings
    assert [(f.cause, f.confidence) for f in found] == [("python2-code-on-python3", "low")] and found[0].asks
    # Python 2 has the names Python 3 removed: its own messages about them are no Python 3 removal
    assert not [f for f in explain_text("ImportError: No module named cgi\n").findings if f.confidence != "low"]


def _pip_install_under_c_locale(env: str, requirement: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    python = legacy_envs.env_python(legacy_envs.ensure_env(env))
    command = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--no-deps",
               "--target", str(tmp_path / env), requirement]
    return subprocess.run(command, capture_output=True, text=True, timeout=600,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LC_ALL": "C", "LANG": "C"})


def test_lasagne_01_setup_under_the_c_locale(tmp_path):
    # Lasagne 0.1's setup.py reads CHANGES.rst (with non-ASCII names) with open(): ASCII under C on 3.6
    failed = _pip_install_under_c_locale("theano090_py36", "lasagne==0.1", tmp_path)
    log = failed.stdout + failed.stderr
    assert failed.returncode != 0 and "UnicodeDecodeError: 'ascii' codec can't decode" in log
    first = explain_text(log).recognised[0]
    assert (first.cause, first.confidence) == ("setup-reads-text-with-ascii-locale", "medium")
    # Python 3.7 reads UTF-8 under the C locale (PEP 540): the same release installs
    assert _pip_install_under_c_locale("healthy37", "lasagne==0.1", tmp_path).returncode == 0
    # the same decode error raised by the code of a run is no install matter
    run = log.replace('setup.py", line', 'train.py", line')
    assert "setup-reads-text-with-ascii-locale" not in {f.cause for f in explain_text(run).recognised}


# IPython 4.1.1 and what it imports (its setup.py), without ipywidgets
IPYTHON_411 = ("ipython==4.1.1", "traitlets==4.3.3", "ipython_genutils==0.2.0", "decorator==4.4.2",
               "pickleshare==0.7.5", "simplegeneric==0.8.1", "pexpect==4.8.0", "ptyprocess==0.7.0")


def test_ipython_4s_shim_of_a_package_it_split_out(tmp_path):
    # early PyMC3's interactive sampler: a widget class of IPython 3's layout
    python = str(legacy_envs.env_python(legacy_envs.ensure_env("theano090_py36")))
    code = "from IPython.html import widgets\nclass Sampler(widgets.DOMWidget):\n    pass\n"
    log = traceback_of(python, code, tmp_path, {"PYTHONPATH": str(legacy_envs.release(python, *IPYTHON_411))})
    assert "shimmodule.py" in log and log.rstrip().endswith("AttributeError: DOMWidget")
    first = explain_text(log).recognised[0]
    assert (first.cause, first.confidence) == ("ipython-shim-package-missing", "medium")


HYPEROPT_01 = ("hyperopt==0.1", "future==0.16.0")


@pytest.mark.parametrize(("networkx", "fails"), [("2.0", True), ("1.11", False)])
def test_hyperopt_01_with_networkx_2(tmp_path, networkx, fails):
    # the search of a hyperas/Keras-era tuning script: real hyperopt 0.1 beside each networkx
    python = str(legacy_envs.env_python(legacy_envs.ensure_env("theano090_py36")))
    path = {"PYTHONPATH": str(legacy_envs.release(python, *HYPEROPT_01, f"networkx=={networkx}", "decorator==4.1.2"))}
    code = "from hyperopt import fmin, tpe, hp\nfmin(lambda x: x ** 2, hp.uniform('x', -1, 1), tpe.suggest, 3)\n"
    if not fails:
        printed(python, code, **path)  # runs
        return
    log = traceback_of(python, code, tmp_path, path)
    assert log.rstrip().endswith("TypeError: 'generator' object is not subscriptable")
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised][:1] == [("hyperopt-networkx2", "high")]


def _ipython(code: str, colors: str, tmp_path: Path, *paths: Path) -> str:
    """What real IPython 4.1.1 (on the Theano 0.9 environment's Python 3.6) prints running ``code``
    in ``tmp_path``, with ``paths`` after IPython's on PYTHONPATH."""
    python = str(legacy_envs.env_python(legacy_envs.ensure_env("theano090_py36")))
    path = ":".join(str(p) for p in (legacy_envs.release(python, *IPYTHON_411), *paths))
    run = subprocess.run([python, "-m", "IPython", f"--colors={colors}", "--no-banner", f"--ipython-dir={tmp_path}",
                          "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": path})
    return run.stdout + run.stderr


def test_a_coloured_ipython_traceback_is_read_as_printed(tmp_path):
    """Real IPython 4.1.1 with a colour scheme, as a traceback copied from a terminal keeps it: the
    message `explain` reads through its control codes names what the plain one names (a PyMC3 name
    of another release; pymc3 is an empty stand-in package, the message is Python's)."""
    (tmp_path / "stub" / "pymc3").mkdir(parents=True)
    (tmp_path / "stub" / "pymc3" / "__init__.py").write_text("")
    log = _ipython("import pymc3 as pm\npm.advi(n=1000)", "Linux", tmp_path, tmp_path / "stub")
    assert "\x1b[" in log and log.rstrip().endswith("module 'pymc3' has no attribute 'advi'"), log
    found = [(f.cause, f.confidence) for f in explain_text(log).recognised]
    assert found[:1] == [("pymc3-version-mismatch", "medium")]


def test_a_local_theano_py_in_an_ipython_traceback(tmp_path):
    """Real IPython 4.1.1 importing theano where the working directory holds a `theano.py` (a script
    named after the library): IPython's frame names the file as `theano.py in <module>()`."""
    (tmp_path / "theano.py").write_text("from theano import function\n")
    log = _ipython("import theano", "NoColor", tmp_path)
    assert "theano.py in <module>()" in log and "cannot import name" in log, log
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised][:1] == [("local-module-shadowing", "high")]
    # the package's own file in the installation is no shadowing one
    installed = re.sub(r"^\S*theano\.py in ", "/env/lib/python3.6/site-packages/theano/__init__.py in ", log,
                       flags=re.M)
    assert installed != log and "local-module-shadowing" not in {f.cause for f in explain_text(installed).recognised}


def test_a_pickle_opened_as_binary_is_no_text_mode_read():
    error = "TypeError: a bytes-like object is required, not 'str'\n"
    text_mode = '  File "s.py", line 2, in <module>\n    W = pickle.load(open("data/t.pkl"))[3]\n' + error
    binary = '  File "s.py", line 2, in <module>\n    W = pickle.load(open("data/t.pkl", "rb"))[3]\n' + error
    assert [f.cause for f in explain_text(text_mode).recognised][:1] == ["python2-pickle-on-python3"]
    assert "python2-pickle-on-python3" not in [f.cause for f in explain_text(binary).recognised]


def _package(root: Path, init: str, **modules: str) -> None:
    """A package `pkg` under ``root``: its `__init__.py` and modules beside it."""
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text(init + "\n", encoding="utf-8")
    for name, text in modules.items():
        (root / "pkg" / f"{name}.py").write_text(text + "\n", encoding="utf-8")


@pytest.mark.parametrize("version", ["2.7", "3.6", "3.11"])
def test_a_module_no_table_knows_is_a_package_missing_from_that_python(version, tmp_path):
    """Python 2's `No module named qdarkstyle`, Python 3's quoted form (3.6+ as ModuleNotFoundError)."""
    log = traceback_of(str(legacy_envs.find_interpreter(version)), "import os\nimport qdarkstyle", tmp_path)
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("package-not-in-this-python", "medium")], log
    assert "pip show qdarkstyle" in found[0].asks[0] and found[0].evidence[0].text == "import qdarkstyle"


def test_python2_code_importing_a_module_beside_it_fails_on_python3(tmp_path):
    """The package runs on Python 2 (an implicit relative import) and fails on Python 3 (PEP 328)."""
    _package(tmp_path, "from helpers import scale", helpers="def scale(x):\n    return 2 * x")
    code = "import pkg\nprint(pkg.scale(2))"
    assert subprocess.run([str(legacy_envs.find_interpreter("2.7")), "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, check=True).stdout.strip() == "4"
    log = traceback_of(str(legacy_envs.find_interpreter("3.11")), code, tmp_path)
    assert "No module named 'helpers'" in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("python2-code-on-python3", "medium")], log
    assert "`from . import helpers`" in found[0].details[0]


def test_missing_modules_that_are_not_packages_name_nothing(tmp_path):
    """Python 2 naming only the submodule it failed on (`from pkg.absent import x`), a Theano
    tutorial's own file, which its scripts import from beside them, and a relative import's module."""
    _package(tmp_path, "")
    log = traceback_of(str(legacy_envs.find_interpreter("2.7")), "from pkg.absent import x", tmp_path)
    assert "No module named absent" in log
    assert explain_text(log).recognised == ()
    log = traceback_of(str(legacy_envs.find_interpreter("3.11")), "from logistic_sgd import LogisticRegression",
                       tmp_path)
    assert explain_text(log).recognised == ()
    # a relative import of the package's own module (an extension not built, a file not there), on both
    _package(tmp_path / "own", "from .compute_overlap import overlap")
    for version in ("2.7", "3.11"):
        log = traceback_of(str(legacy_envs.find_interpreter(version)), "import pkg", tmp_path / "own")
        assert "No module named" in log and "compute_overlap" in log, log
        assert explain_text(log).recognised == ()


def test_python2_naming_the_whole_dotted_path_is_its_top_package_missing(tmp_path):
    """Python 2 names the path from the part it failed on: the whole path the import names is its top
    package missing; `import pkg.absent.deeper` names only `absent.deeper`, a submodule of pkg."""
    python2 = str(legacy_envs.find_interpreter("2.7"))
    log = traceback_of(python2, "import os\nfrom captchalike.image import ImageCaptcha", tmp_path)
    assert "ImportError: No module named captchalike.image" in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("package-not-in-this-python", "medium")], log
    assert "pip show captchalike" in found[0].asks[0]
    _package(tmp_path, "")
    log = traceback_of(python2, "import pkg.absent.deeper", tmp_path)
    assert "No module named absent.deeper" in log
    assert explain_text(log).recognised == ()
    # a script inside the code's own package, run by its path: the package is not on the path, no pip package
    (tmp_path / "captioner").mkdir()
    _package(tmp_path / "captioner", "", model="x = 1", train="from pkg.model import x")
    run = subprocess.run([python2, "pkg/train.py"], cwd=tmp_path / "captioner", capture_output=True, text=True)
    assert "No module named pkg.model" in run.stderr and 'File "pkg/train.py"' in run.stderr
    assert explain_text(run.stderr).recognised == ()
    # an environment's folder may bear the missing name: a frame of an installed package is no code's own
    (tmp_path / "envs" / "gymlike" / "site-packages").mkdir(parents=True)
    _package(tmp_path / "envs" / "gymlike" / "site-packages", "import gymlike")
    log = traceback_of(python2, "import sys\nsys.path.insert(0, 'envs/gymlike/site-packages')\nimport pkg", tmp_path)
    assert "envs/gymlike/site-packages/pkg/__init__.py" in log and "No module named gymlike" in log
    assert [f.cause for f in explain_text(log).recognised] == ["package-not-in-this-python"]


@pytest.mark.parametrize(("env", "release"), [("theano082_py27", ("h5py==2.6.0",)), ("keras208_th09", ())])
def test_h5py_opening_a_file_that_is_not_there(legacy_python, tmp_path, env, release):
    # h5py 2.6 (on Python 2: IOError) capitalises the inner message, `(Unable to open file: ...`; 2.7 does not
    python = legacy_python(env)
    path = {"PYTHONPATH": str(legacy_envs.release(python, *release))} if release else {}
    log = traceback_of(python, "import h5py\nh5py.File('weights/train.hdf5', 'r')\n", tmp_path, path)
    assert "open file: name = 'weights/train.hdf5', errno = 2" in log, log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found] == [("dataset-file-missing", "medium")]
    assert found[0].evidence[0].note == "h5py cannot find `weights/train.hdf5`"


def test_pandas_reading_a_missing_file(legacy_python, tmp_path):
    # pandas 0.25 states it in its own words (1.2 and later print the OS's `No such file or directory`)
    python = legacy_python("healthy37")
    path = {"PYTHONPATH": str(legacy_envs.release(python, "pandas==0.25.3", "pytz==2019.3",
                                                  "python-dateutil==2.8.1"))}
    log = traceback_of(python, "import pandas as pd\npd.read_csv('../large_files/train.csv')\n", tmp_path, path)
    assert "File b'../large_files/train.csv' does not exist" in log, log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found] == [("dataset-file-missing", "medium")]
    assert found[0].evidence[0].note == "pandas reads `../large_files/train.csv`, which is not there"
    # ... and the older wording, Python 2's unquoted one among them
    for text in ("FileNotFoundError: File b'../large_files/train.csv' does not exist\n",
                 "IOError: File data/train.csv does not exist\n"):
        assert [(f.cause, f.confidence) for f in explain_text(text).recognised] == [("dataset-file-missing", "medium")]


@pytest.mark.parametrize("cached", [b"", pickle.dumps(list(range(5000)), protocol=2)[:2000]])
def test_a_keras_dataset_cut_short(legacy_python, tmp_path, cached):
    # Keras 1.2.2's mnist loader unpickles the file get_file found in ~/.keras/datasets: an interrupted
    # download (empty: Ran out of input; cut: pickle data was truncated)
    (tmp_path / ".keras" / "datasets").mkdir(parents=True)
    (tmp_path / ".keras" / "datasets" / "mnist.pkl").write_bytes(cached)
    python = legacy_python("keras122_th09")
    log = traceback_of(python, "from keras.datasets import mnist\nmnist.load_data('mnist.pkl')\n", tmp_path,
                       {"HOME": str(tmp_path), "KERAS_BACKEND": "theano"})
    assert "keras/datasets/mnist.py" in log and ("Ran out of input" in log or "pickle data was truncated" in log), log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("downloaded-file-not-data", "medium")]
    # the same end of a pickle the code's own loader reads names no download
    own = traceback_of(python, "import pickle\nwith open('.keras/datasets/mnist.pkl', 'rb') as f:\n"
                       "    pickle.load(f)\n", tmp_path)
    assert explain_text(own).recognised == ()


@pytest.mark.parametrize(("release", "fails"), [("0.19.2", False), ("0.20.3", True)])
def test_pandas_error_class_removed_in_0_20(legacy_python, tmp_path, release, fails):
    python = legacy_python("theano090_py36")
    path = {"PYTHONPATH": str(legacy_envs.release(python, f"pandas=={release}", "pytz==2019.3",
                                                  "python-dateutil==2.8.1"))}
    code = "from pandas.core.common import PandasError\n"
    if not fails:
        assert subprocess.run([python, "-c", code], env={**os.environ, **path}, capture_output=True).returncode == 0
        return
    log = traceback_of(python, code, tmp_path, path)
    assert "cannot import name 'PandasError'" in log, log
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised] == [("pandas-api-removed", "medium")]


def test_keras_generator_processes_under_spawn(legacy_python, tmp_path):
    # Keras 2.0.8's generator queue in worker processes under the spawn start method (Windows' only one,
    # chosen here on Linux): its task function is local to start() and cannot be pickled
    code = ("import multiprocessing\nimport numpy as np\nfrom keras.models import Sequential\n"
            "from keras.layers import Dense\n\n\ndef batches():\n    while True:\n"
            "        yield np.ones((2, 2)), np.ones((2, 1))\n\n\nif __name__ == '__main__':\n"
            "    multiprocessing.set_start_method('spawn')\n    m = Sequential([Dense(1, input_dim=2)])\n"
            "    m.compile('sgd', 'mse')\n"
            "    m.fit_generator(batches(), steps_per_epoch=1, epochs=1, workers=1, use_multiprocessing=True)\n")
    log = traceback_of(legacy_python("keras208_th09"), code, tmp_path, {"KERAS_BACKEND": "theano"})
    assert "Can't pickle local object 'GeneratorEnqueuer.start.<locals>.data_generator_task'" in log, log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("windows-multiprocessing-spawn", "medium")]
    # Keras 2.1.3 to 2.2.0 refuse it on Windows themselves (keras/utils/data_utils.py:634-637 at 2.1.6)
    refused = ("ValueError: Using a generator with `use_multiprocessing=True` is not supported on Windows (no "
               "marshalling of generators across process boundaries). Instead, use single thread/process or "
               "multithreading.\n")
    assert [(f.cause, f.confidence) for f in explain_text(refused).recognised] == [
        ("windows-multiprocessing-spawn", "high")]


def test_pillow_given_a_file_in_text_mode(legacy_python, tmp_path):
    # Keras 0.1.2's load_img opened images with open(path): Python 3's text mode (here Latin-1, which
    # decodes any bytes) hands Pillow a TextIOWrapper
    python = legacy_python("healthy37")
    path = {"PYTHONPATH": str(legacy_envs.release(python, "Pillow==6.2.2"))}
    code = ("from PIL import Image\nImage.new('RGB', (4, 4)).save('x.png')\n"
            "Image.open(open('x.png', encoding='latin-1'))\n")
    log = traceback_of(python, code, tmp_path, path)
    assert "cannot identify image file <_io.TextIOWrapper name='x.png'" in log, log
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised] == [("python2-code-on-python3", "medium")]
    # a damaged file opened in binary mode stays the damaged file
    (tmp_path / "y.png").write_bytes(b"<html>not an image</html>")
    damaged = traceback_of(python, "from PIL import Image\nImage.open('y.png')\n", tmp_path, path)
    assert [f.cause for f in explain_text(damaged).recognised] == ["image-file-damaged"]


def test_h5py_opening_a_file_that_is_no_hdf5_in_either_wording() -> None:
    # h5py 2.10 with HDF5 1.10 (lower case) and the older releases' capitalised wording of the same refusal
    for log in ("OSError: Unable to open file (file signature not found)\n",
                "IOError: Unable to open file (File signature not found)\n"):
        assert [(f.cause, f.confidence) for f in explain_text(log).findings][:1] == [("hdf5-file-not-hdf5", "medium")]


def test_a_library_refusing_an_iterator_for_a_list(legacy_python, tmp_path):
    # Keras 2.0.8's Model checks each input: a Python 3 map of them is no tensor
    code = ("from keras.layers import Input, Dense\nfrom keras.models import Model\n"
            "a = Input((2,))\nModel(inputs=map(lambda t: t, [a]), outputs=Dense(1)(a))\n")
    log = traceback_of(legacy_python("keras208_th09"), code, tmp_path, {"KERAS_BACKEND": "theano"})
    assert "Found: <map object at 0x" in log, log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("python2-code-on-python3", "medium")]
    assert found[0].evidence[0].note == "the error names a `map` object: Python 2's `map()` returned a list, " \
                                        "Python 3's an iterator"
    # the same object printed by the code, not named by an error, is nothing
    assert explain_text("<map object at 0x7f2a1c3e5f10>\n").recognised == ()


@pytest.mark.parametrize("version", ["2.7", "3.6", "3.11"])
def test_an_unbuilt_pycuda_driver_extension(version, tmp_path):
    """A PyCUDA source tree never built: pycuda/driver.py's first import, of the compiled `_driver`,
    fails (Python 2 names `_driver`, Python 3 `pycuda._driver`). The same import of a module the
    tree does have is no PyCUDA problem."""
    (tmp_path / "pycuda").mkdir()
    (tmp_path / "pycuda" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pycuda" / "driver.py").write_text("from pycuda._driver import *  # noqa\n", encoding="utf-8")
    python = str(legacy_envs.find_interpreter(version))
    log = traceback_of(python, "import pycuda.driver as cuda", tmp_path)
    assert "from pycuda._driver import" in log and "_driver" in log.splitlines()[-1], log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("pycuda-import-failed", "medium")], log
    assert found[0].evidence[0].note == "PyCUDA's compiled `_driver` extension could not be imported"
    (tmp_path / "pycuda" / "_driver.py").write_text("import cudalike\n", encoding="utf-8")
    log = traceback_of(python, "import pycuda.driver as cuda", tmp_path)
    assert "pycuda-import-failed" not in [f.cause for f in explain_text(log).recognised], log


def test_python2_naming_the_submodule_under_an_ipython_frame_names_nothing():
    # IPython before 8 (IPython/core/ultratb.py) lists numbered lines after the one its arrow marks
    log = ("ImportError                               Traceback (most recent call last)\n"
           "<ipython-input-1-e3c5a4a2a9f1> in <module>()\n"
           "      7 import theano.tensor as T\n"
           "----> 8 from IPython.html.widgets import interact, IntSliderWidget\n"
           "      9 \n"
           "     10 floatX = theano.config.floatX\n"
           "\n"
           "ImportError: No module named widgets\n")
    assert explain_text(log).recognised == ()
    # the numbered line the arrow marks is the import itself: the package is missing
    bare = log.replace("from IPython.html.widgets import interact, IntSliderWidget", "import widgets")
    assert [f.cause for f in explain_text(bare).recognised] == ["package-not-in-this-python"]


# a .npy of pickled objects (as skip-thoughts' utable.npy is) cut short, as an interrupted download leaves it
NPY_CUT = ("import numpy as np\nnp.save('w.npy', np.array([{content}], dtype=object))\n"
           "data = open('w.npy', 'rb').read()\nopen('w.npy', 'wb').write(data[:len(data) // 2])\n"
           "table = np.load('w.npy'{allow})\n")


@pytest.mark.parametrize(("where", "content", "allow", "message"), [
    ("theano082_py27", "list(range(1000))", "", "EOFError"),
    ("healthy37", "list(range(1000))", ", allow_pickle=True", "EOFError: Ran out of input"),
    ("healthy37", "dict(a=list(range(1000)))", ", allow_pickle=True",
     "_pickle.UnpicklingError: pickle data was truncated"),
])
def test_a_npy_file_cut_short(where, content, allow, message, tmp_path):
    log = _run(where, NPY_CUT.format(content=content, allow=allow), tmp_path)
    assert log.rstrip().splitlines()[-1] == message
    found = [(f.cause, f.confidence) for f in explain_text(log).findings]
    assert found[:1] == [("downloaded-file-not-data", "medium")]
    # the same end of a pickle the code opened itself: its own file, not one numpy reads
    assert not [f for f in explain_text('  File "train.py", line 3, in <module>\n    data = pickle.load(f)\n'
                                        "EOFError\n").findings if f.confidence != "low"]


def test_an_older_python3s_wording_of_a_pickle_written_to_a_text_file():
    # Python 3.6 and later name the function (`write() argument must be str, not bytes`); 3.5 and older did not
    log = ('  File "scripts/create-dataset.py", line 88, in <module>\n'
           "    pickle.dump(frames, f, pickle.HIGHEST_PROTOCOL)\nTypeError: must be str, not bytes\n")
    assert [(f.cause, f.confidence) for f in explain_text(log).findings][:1] == \
        [("python2-pickle-on-python3", "medium")]
    assert not explain_text("TypeError: must be str, not bytes\n").recognised  # no pickle in sight



# messages of the libraries around the models, as pydot_ng, pandas (reading PyMC3 3.7's summary columns),
# Keras 2.2's deserializer (a metric object) and Keras 2.2.5's batch_dot word them
@pytest.mark.parametrize(("log", "cause", "note"), [
    ("pydot_ng.InvocationException: GraphViz's executables not found\n", ("graphviz-pydot-missing", "high"),
     "Graphviz itself is not installed"),
    ("KeyError: \"['hpd_2.5', 'hpd_97.5'] not in index\"\n", ("pymc3-version-mismatch", "medium"),
     "`hpd_2.5` is a column of PyMC3's own `pm.summary` table"),
    # the metric object is named by its class
    ("ValueError: Unknown metric function: {'class_name': 'precision', 'config': {'name': 'precision'}}\n",
     ("keras-custom-object-not-given", "medium"), "`precision` is not one of Keras' own"),
    ("ValueError: Can not do batch_dot on inputs with shapes (None, 10, 10, 1152, 16) and (None, 10, None, 1152, 16) "
     "with axes=[2, 3]. x.shape[2] != y.shape[3] (10 != 1152).\n", ("keras-version-mismatch", "medium"),
     "Keras 2.2.5 rewrote `K.batch_dot`"),
    # matplotlib 3.0's deprecation of set_ylim's ymin, warned at matplotlib's own line under PyMC3's traceplot
    ("Multiprocess sampling (4 chains in 4 jobs)\nNUTS: [a]\n/home/u/env/lib/python3.7/site-packages/matplotlib/"
     "axes/_base.py:3604: MatplotlibDeprecationWarning: \nThe `ymin` argument was deprecated in Matplotlib 3.0 and "
     "will be removed in 3.2. Use `bottom` instead.\n", ("library-code-deprecation-warning", "medium"),
     "matplotlib deprecates an argument the plotting code"),
    # a model's experiment file (pylearn2's YAML) read by a path relative to another folder
    ("IOError: [Errno 2] No such file or directory: 'pylearn2/models/tests/test_vae_cost_is_criterion.yaml'\n",
     ("dataset-file-missing", "medium"), "the script reads `pylearn2/models/tests/test_vae_cost_is_criterion.yaml`"),
    # Keras 1.2.1's merge of layer outputs through TensorFlow 0.x's tf.concat(axis, values) on TensorFlow 1.x
    ("TypeError: Expected int32, got list containing Tensors of type '_Message' instead.\n",
     ("keras-too-old-for-tensorflow1", "medium"), "tf.concat was given its tensors where TensorFlow 1.x takes"),
])
def test_messages_of_the_libraries_around_the_models(log: str, cause: tuple[str, str], note: str) -> None:
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [cause]
    assert note in found[0].evidence[0].note


# pip finding no TensorFlow 1.x file at all (a Python 3.8 or a 32-bit one), pip 20's wording and pip 9's;
# another package's empty list stays a hint
@pytest.mark.parametrize("log", [
    "ERROR: Could not find a version that satisfies the requirement tensorflow-gpu<=1.14.0,>=1.10.0 (from -r "
    "requirements.txt (line 1)) (from versions: none)\n",
    "Could not find a version that satisfies the requirement tensorflow==1.4.1 (from -r requirements.txt (line 18)) "
    "(from versions: )\n",
])
def test_pip_without_a_tensorflow_1_wheel_for_this_python(log: str) -> None:
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("pip-version-not-found", "medium")]
    assert "up to 3.7" in found[0].evidence[0].note
    other = log.replace("tensorflow", "somepackage")
    assert [f.confidence for f in explain_text(other).findings] == ["low"]


# Keras 2.3.0's TensorFlow backend over tf.keras's has no module session any more
def test_keras_2_2s_session_global_on_keras_2_3() -> None:
    log = "AttributeError: module 'keras.backend.tensorflow_backend' has no attribute '_SESSION'\n"
    assert [(f.cause, f.confidence) for f in explain_text(log).findings] == [("keras-version-mismatch", "medium")]


# two requirements on one package no release meets: pip 20.3's resolver's lines under its header, and
# pipenv's lock (its copy of pip-tools) naming the two specifiers together
@pytest.mark.parametrize(("log", "package"), [
    ("The conflict is caused by:\n    keras 2.2.2 depends on keras-applications==1.0.4\n"
     "    tensorflow 1.12.0 depends on keras-applications>=1.0.6\n", ""),
    ("ERROR: ERROR: Could not find a version that matches keras-applications==1.0.2,>=1.0.6\n", "keras-applications"),
])
def test_requirements_no_release_meets_together(log: str, package: str) -> None:
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("pip-pins-conflict", "medium")]
    assert found[0].values.get("package", "") == package
    # one specifier pip-tools found no release for is not a conflict
    assert "pip-pins-conflict" not in {f.cause for f in explain_text(
        "Could not find a version that matches keras-applications==1.0.2\n").findings}
