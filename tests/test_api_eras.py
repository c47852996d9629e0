"""The release table of Theano/Lasagne/Keras names (profiles/api_eras.yaml, tools/api_eras.py)
and what `explain` makes of the messages a missing name gives: the table is re-read from real
installed Theano releases (their files, with `ast`; never imported here), and the messages are
the ones the real interpreters print in the cached legacy environments."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests import legacy_envs
from tests.legacy_envs import ensure_env, env_python
from theanodoctor import kb_api_eras, kb_api_keywords
from theanodoctor.explain import explain_text
from theanodoctor.sources import problem

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import api_eras  # noqa: E402  (tools/ is no package)
import api_walk  # noqa: E402


def ensure(name: str) -> Path:
    return env_python(ensure_env(name))


def _site(python: Path) -> Path:
    out = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True, timeout=60)
    return Path(out.stdout.strip())


def _run(python: Path, code: str, tmp_path: Path, path: Path | None = None) -> str:
    """What the interpreter prints for a script (stdout and stderr, as a user pastes it); ``path``:
    real releases put in front of the environment's own (PYTHONPATH)."""
    script = tmp_path / "legacy.py"
    script.write_text(code, encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), **({"PYTHONPATH": str(path)} if path else {})}
    proc = subprocess.run([str(python), "-W", "ignore", str(script)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path, env=env)
    return proc.stdout + proc.stderr


def _era_findings(text: str):
    return [f for f in explain_text(text).findings if "api-era" in f.signatures]


# Keras 0.3.3 on PyPI also ships four modules its git tag lacks (files left in the tree it was
# built from); the table reads the tag, and every module both have binds the same names
KERAS_033_SDIST_ONLY = {"keras.old_models", "keras.layers.custom", "keras.layers.timedistributed",
                        "keras.layers.xtreme_inception"}


@pytest.mark.parametrize(("env", "key", "release", "sdist_only"), [
    ("theano082_py27", "theano", "0.8.2", set()), ("theano090_py36", "theano", "0.9.0", set()),
    ("theano103_np116", "theano", "1.0.3", set()), ("healthy37", "theano", "1.0.5", set()),
    # a Keras 0.x: its releases decide only what Keras 1.0 and later leave open
    ("theano082_py27", "keras", "0.3.3", KERAS_033_SDIST_ONLY),
    # PyMC3's wheel from PyPI (the table reads its sdists, tagged as upstream's)
    ("pymc39", "pymc3", "3.9.3", set()),
])
def test_the_table_matches_an_installed_release(env: str, key: str, release: str, sdist_only: set[str]) -> None:
    python = ensure(env)
    site = _site(python) if key == "theano" else legacy_envs.release(str(python), f"{key}=={release}")
    files = {str(p.relative_to(site)): p.read_text(encoding="utf-8", errors="replace")
             for p in (site / key).rglob("*.py") if not api_eras._private(str(p.relative_to(site)))}
    legacy_python = str(python) if "py27" in env else None  # Python 2 sources are read by a Python 2
    installed = api_eras.exported(api_eras.parse_release(files, legacy_python))
    project = kb_api_eras.projects()[key]
    index = project.releases.index(release)
    in_table = {m for m in project.modules if index in kb_api_eras.lookup(m).have}
    # version.py is written at install time (a release tree has it only as a template or not at all)
    assert set(installed) - {"theano.generated_version"} == in_table | sdist_only
    for module in in_table:
        row = project.modules[module]
        names = set((row.get("always") or "").split()) | {
            n for n in kb_api_eras._names(key, module) if index in kb_api_eras.lookup(module, n).have}
        assert set(installed[module][1]) == names, module


@pytest.mark.parametrize(("env", "release"), [("theano082_py27", "0.8.2"), ("healthy37", "1.0.5")])
def test_the_keyword_table_matches_an_installed_release(env: str, release: str) -> None:
    python = ensure(env)
    site = _site(python)
    files = {str(p.relative_to(site)): p.read_text(encoding="utf-8", errors="replace")
             for p in (site / "theano").rglob("*.py") if not api_eras._private(str(p.relative_to(site)))}
    walked = api_eras.walk_release(files, str(python) if "py27" in env else None)
    project, calls = kb_api_keywords.projects()["theano"]
    index, checked = project.releases.index(release), 0
    for call, rows in calls.items():
        for row in rows:
            head, *tokens = row.split(" | ")
            module, spans = head.split()[:2]
            if index not in kb_api_eras.release_indices(spans, project.releases):
                continue
            line, keywords, _ = walked[module][1]["calls"][call]
            for token in tokens:
                keyword, have, _ = token.split()
                takes = index in kb_api_eras.release_indices(have, project.releases)
                assert (keyword in keywords) == takes, (call, token)
                checked += 1
    assert checked > 300


def test_the_walker_marks_names_that_exist_only_under_a_condition() -> None:
    # the shape of Lasagne's conv.py: a layer deleted when Theano lacks what it needs
    found = api_walk.walk("import sys\nclass Conv3DLayer(object):\n    pass\n"
                          "if not hasattr(sys, 'conv3d'):\n    del Conv3DLayer\n"
                          "if sys.version_info[0] == 3:\n    izip = zip\nelse:\n    from itertools import izip\n"
                          "if sys.platform == 'win32':\n    def mingw(): pass\n", "lasagne.layers.conv", False)
    assert found["conditional"] == {"Conv3DLayer": 4, "mingw": 10}  # izip is bound in both branches


def test_a_private_helper_the_module_defines_is_a_name_of_it() -> None:
    # the shape of Keras 2.0's imagenet_utils: a private helper legacy code imported, beside a
    # private constant and a private import, which are no names of the module's own
    source = ("from .utils import _to_list\n_CLASS_INDEX = None\n"
              "def _obtain_input_shape(input_shape, include_top):\n    pass\n"
              "def __getattr__(name):\n    pass\n")
    found = api_walk.walk(source, "keras.applications.imagenet_utils", False)
    parsed = {"keras.applications.imagenet_utils": ("keras/applications/imagenet_utils.py", api_eras._parsed(found))}
    names = api_eras.exported(parsed)["keras.applications.imagenet_utils"][1]
    assert set(names) == {"_obtain_input_shape"}
    assert found["calls"]["_obtain_input_shape"] == [3, ["input_shape", "include_top"], False]


def test_the_project_keys_read_from_the_text_are_the_tables_projects() -> None:
    # what lets a module of another library (`numpy.bool`) skip the parse of the whole table
    assert kb_api_eras.project_keys() == set(kb_api_eras.projects())
    assert kb_api_eras.project_of("numpy.core") is None and kb_api_eras.project_of("pymc3.variational")


def test_every_cited_release_file_is_a_source_a_user_can_open() -> None:
    relu = kb_api_eras.lookup("theano.tensor.nnet", "relu")
    assert relu is not None and relu.span() == "0.8.0-1.0.5"
    assert relu.cites == {1: "Theano rel-0.8.0 theano/tensor/nnet/nnet.py:2186"}
    merge = kb_api_eras.lookup("keras.layers", "Merge")
    assert merge is not None and merge.span() == "0.3.2-2.1.6"
    assert all(problem(c) is None for c in (*relu.cites.values(), *merge.cites.values()))
    assert kb_api_eras.lookup("theano.tensor.nnet", "no_such_name_here") is None
    # theano.sandbox.cuda of 0.10 and later is a stub that raises: absent, as theano_api.yaml says
    assert kb_api_eras.lookup("theano.sandbox.cuda").span() == "0.7-0.9.0"


def test_a_name_only_older_theano_has_python3(tmp_path: Path) -> None:
    text = _run(ensure("healthy37"), "import theano\nprofile = theano.ProfileMode()\n", tmp_path)
    assert "AttributeError: module 'theano' has no attribute 'ProfileMode'" in text
    first = explain_text(text).recognised[0]
    assert first.cause == "theano-too-new-for-code" and first.confidence == "medium"
    assert "api-era" in first.signatures and not first.asks
    assert "install Theano 0.8.2 (the newest release with it)" in first.details[0]
    assert "Theano rel-0.8.2 theano/compile/profilemode.py" in first.signature_sources[0]
    assert problem(first.signature_sources[0]) is None


def test_a_name_only_newer_theano_has_python2_from_the_code_line(tmp_path: Path) -> None:
    text = _run(ensure("theano082_py27"), "import theano\nwith theano.change_flags(floatX='float32'):\n"
                "    pass\n", tmp_path)
    assert "AttributeError: 'module' object has no attribute 'change_flags'" in text
    first = explain_text(text).recognised[0]
    assert first.cause == "theano-too-old-for-code" and first.confidence == "medium"
    assert "has only from 1.0.0 on" in first.details[0] and "prints no installed Theano version" in first.details[0]


@pytest.mark.parametrize(("env", "message"), [("py27", "ImportError: No module named six.moves"),
                                               ("healthy37", "No module named 'theano.compat.six'")])
def test_a_module_only_older_theano_has_below_a_missing_package(env: str, message: str, tmp_path: Path) -> None:
    # Python 2 names only the parts from the one that failed; the import above names the whole module
    text = _run(ensure(env), "from theano.compat.six.moves import input\n", tmp_path)
    assert message in text
    first = explain_text(text).recognised[0]
    assert (first.cause, first.confidence, first.values["module"]) == ("theano-too-new-for-code", "medium",
                                                                        "theano.compat.six")


def test_a_missing_module_is_judged_among_the_releases_with_its_package() -> None:
    # Python names the first part that failed (Python 2 only that part): here theano.sandbox.cuda
    # imported, so the installed Theano is one with it (0.7-0.9.0 read), and each of those has dnn
    text = "---> 22 from theano.sandbox.cuda.dnn import dnn_available, dnn_pool\n\nImportError: No module named dnn\n"
    assert _era_findings(text) == []
    # the package itself missing: the old back-end's removal
    gone = explain_text(text.replace("named dnn", "named cuda.dnn")).recognised
    assert gone[0].cause == "theano-sandbox-cuda-removed"


def test_the_installed_version_in_the_log_decides_high(tmp_path: Path) -> None:
    python = ensure("theano082_py27")
    freeze = subprocess.run([str(python), "-m", "pip", "freeze"], capture_output=True, text=True, timeout=120).stdout
    assert "Theano==0.8.2" in freeze
    text = freeze + _run(python, "import theano\ntheano.change_flags\n", tmp_path)
    first = explain_text(text).recognised[0]
    assert first.cause == "theano-too-old-for-code" and first.confidence == "high"
    assert first.values["installed"] == "0.8.2" and "the log shows Theano 0.8.2 installed" in first.details[0]


def test_an_installed_version_that_has_the_name_gives_no_era_finding(tmp_path: Path) -> None:
    # the log says 0.8.2 is installed, which has ProfileMode: the error has another cause (another copy)
    text = "Theano==0.8.2\n" + _run(ensure("healthy37"), "import theano\ntheano.ProfileMode\n", tmp_path)
    assert _era_findings(text) == []


@pytest.mark.parametrize("env", ["py27", "healthy37"])
def test_a_name_in_no_release_gives_nothing(env: str, tmp_path: Path) -> None:
    text = _run(ensure(env), "import theano.tensor as T\nT.nnet.no_such_name_here(1)\n", tmp_path)
    assert "has no attribute 'no_such_name_here'" in text
    assert _era_findings(text) == [] and not explain_text(text).recognised


def test_a_signature_and_the_lookup_saying_the_same_give_one_finding(tmp_path: Path) -> None:
    text = _run(ensure("healthy37"), "from theano.tensor.nnet import conv3D\n", tmp_path)
    assert "cannot import name 'conv3D' from 'theano.tensor.nnet'" in text
    found = [f for f in explain_text(text).findings if f.cause == "theano-too-new-for-code"]
    assert len(found) == 1 and {"theano-api-removed", "api-era"} <= set(found[0].signatures)
    assert any("install Theano 0.9.0 (the newest release with it)" in d for d in found[0].details)
    lines = [e.line for e in found[0].evidence]  # the message line once, with the lookup's note
    assert len(lines) == len(set(lines)) and any(e.note for e in found[0].evidence)


def test_a_submodule_attribute_is_only_low(tmp_path: Path) -> None:
    # Python 2 sets a submodule as an attribute only once it is imported: absent may mean not imported
    text = _run(ensure("py27"), "import theano.sandbox\ntheano.sandbox.gpuarray.init_dev('cuda')\n", tmp_path)
    assert "'module' object has no attribute 'gpuarray'" in text
    era = _era_findings(text)
    assert [(f.cause, f.confidence) for f in era] == [("theano-too-new-for-code", "low")]


def test_the_old_backend_not_loaded_is_named_as_such(tmp_path: Path) -> None:
    # Theano 1.0.5 has no theano.sandbox.cuda; 0.7-0.10 load it only for device=gpu*
    text = _run(ensure("py27"), "import theano.sandbox\ntheano.sandbox.cuda.dnn_available()\n", tmp_path)
    assert "'module' object has no attribute 'cuda'" in text
    first = explain_text(text).recognised[0]  # (before Theano 1.0.5's BLAS warning on this machine)
    assert (first.cause, first.confidence) == ("theano-sandbox-cuda-removed", "medium")


# Keras and Lasagne: no legacy environment holds them; the messages as their code raises them
def test_keras_load_model_unknown_layer() -> None:
    # Keras 2.2.4 keras/utils/generic_utils.py:137: 'Unknown ' + printable_module_name + ': ' + class_name
    text = ("  File \"site-packages/keras/utils/generic_utils.py\", line 138, in deserialize_keras_object\n"
            "    ': ' + class_name)\nValueError: Unknown layer: Merge\n")
    first = explain_text(text).recognised[0]
    assert first.cause == "keras-version-mismatch" and first.confidence == "medium"
    assert "install Keras 2.1.6" in first.details[0] and "Keras 2.1.6 keras/legacy/layers.py:19" in first.details[0]
    # a layer no Keras release read has: the code's own or an add-on's, which load_model must be given
    own = _era_findings("ValueError: Unknown layer: MyOwnAttention\n")
    assert [(f.cause, f.confidence) for f in own] == [("keras-custom-object-not-given", "medium")]
    assert "custom_objects={'MyOwnAttention': MyOwnAttention}" in own[0].details[0]


def test_a_lasagne_name_defined_only_under_a_condition_is_low() -> None:
    text = ("    network = lasagne.layers.Conv3DLayer(network, num_filters=100, filter_size=3)\n"
            "AttributeError: 'module' object has no attribute 'Conv3DLayer'\n")
    era = _era_findings(text)
    assert [(f.cause, f.confidence) for f in era] == [("lasagne-too-old", "low")]
    assert "only when a condition holds" in era[0].details[0] and era[0].asks


def _stub(tmp_path: Path, files: dict[str, str]) -> None:
    """A package laid out like an old release that lacks a name (its modules import, nothing more)."""
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_python2_import_shown_in_an_ipython_traceback_names_the_module(tmp_path: Path) -> None:
    # Keras 2 removed keras.regularizers.activity_l2 (profiles/api_eras.yaml); Python 2 names no module
    _stub(tmp_path, {"keras/__init__.py": "", "keras/regularizers.py": "def l2(x=0.01):\n    pass\n"})
    message = _run(ensure("py27"), "from keras.regularizers import l2, activity_l2\n", tmp_path).splitlines()[-1]
    assert message == "ImportError: cannot import name activity_l2"
    # IPython prints the cell's lines around the failing one, the failing one marked `---->`
    notebook = ("ImportError                               Traceback (most recent call last)\n"
                "/output/utils.py in <module>()\n"
                "     41 from keras.layers.core import Flatten, Dense, Dropout, Lambda\n"
                "---> 42 from keras.regularizers import l2, activity_l2, l1, activity_l1\n"
                "     43 from keras.layers.normalization import BatchNormalization\n\n" + message + "\n")
    first = explain_text(notebook).recognised[0]
    assert (first.cause, first.confidence) == ("keras-version-mismatch", "medium")
    assert first.values["module"] == "keras.regularizers" and first.evidence[0].line == 4
    # the post quotes the import in its prose
    prose = "It fails at `from keras.regularizers import activity_l2`: \n\n> " + message + "\n"
    assert explain_text(prose).recognised[0].cause == "keras-version-mismatch"
    # an import of another name is not the one that failed: only the table's owners of the name speak
    other = "from keras.regularizers import l2\n" + message + "\n"
    (found,) = _era_findings(other)
    assert [e.line for e in found.evidence] == [2] and found.details[0].startswith("The message does not name")


def test_python2_attribute_message_without_code_takes_the_only_library_with_the_name(tmp_path: Path) -> None:
    # only Lasagne's development version has layers.BatchNormLayer; the post gives only the message
    _stub(tmp_path, {"lasagne/__init__.py": "from . import layers\n", "lasagne/layers/__init__.py": ""})
    text = _run(ensure("py27"), "import lasagne\nnet = lasagne.layers.BatchNormLayer(None)\n", tmp_path)
    message = text.splitlines()[-1]
    assert message == "AttributeError: 'module' object has no attribute 'BatchNormLayer'"
    first = explain_text(message + "\n").recognised[0]
    assert (first.cause, first.confidence) == ("lasagne-too-old", "medium")
    assert first.details[0].startswith("The message does not name the module")
    # a name every Theano release binds (theano.Param) is no matter of the release; code that shows
    # another owner (`np.stack`, numpy's) is not looked up in the libraries' table
    assert not _era_findings("AttributeError: 'module' object has no attribute 'Param'\n")
    assert not _era_findings("    x = np.stack(parts)\nAttributeError: 'module' object has no attribute 'stack'\n")


def test_python2_attribute_of_a_module_under_the_codes_own_alias(tmp_path: Path) -> None:
    # Keras 1's regularizers has l1l2, Keras 2's l1_l2 (profiles/api_eras.yaml); the code imported the
    # module under a name of its own, which no table resolves: the table's owners of the name decide
    _stub(tmp_path, {"keras/__init__.py": "", "keras/regularizers.py": "def l1l2(l1=0.01, l2=0.01):\n    pass\n",
                     "config.py": "batch = 32\n"})
    code = "import keras.regularizers as Reg\nw = dict(W_regularizer=Reg.l1_l2(l1=0.1, l2=0.1))\n"
    text = _run(ensure("py27"), code, tmp_path)
    assert text.splitlines()[-1] == "AttributeError: 'module' object has no attribute 'l1_l2'"
    (found,) = _era_findings(text)
    assert (found.cause, found.confidence) == ("keras-version-mismatch", "medium")
    assert found.details[0].startswith("The message does not name the module")
    # the code's own module under its own name, asked for a name no library's module binds: nothing
    own = _run(ensure("py27"), "import config as cfg\nlr = cfg.learning_rate\n", tmp_path)
    assert own.splitlines()[-1] == "AttributeError: 'module' object has no attribute 'learning_rate'"
    assert not _era_findings(own)


def test_the_posts_words_before_the_message_name_the_module() -> None:
    message = "AttributeError: 'module' object has no attribute '{}'\n"
    (found,) = _era_findings("I get at net = lasagne.layers.BatchNormLayer(l) " + message.format("BatchNormLayer"))
    assert (found.cause, found.values["module"]) == ("lasagne-too-old", "lasagne.layers")
    # Lasagne's init module never had a lower-case `constant` (it is `Constant`): the code's own slip
    assert not _era_findings("error at b = lasagne.init.constant(0) " + message.format("constant"))


def test_an_import_message_without_its_import_takes_the_library_with_the_name(tmp_path: Path) -> None:
    # Keras 2.2 removed the Merge layer from every module; the post quotes only the message
    _stub(tmp_path, {"keras/__init__.py": "", "keras/layers/__init__.py": ""})
    message = _run(ensure("py27"), "from keras.layers import Merge\n", tmp_path).splitlines()[-1]
    assert message == "ImportError: cannot import name Merge"
    (first,) = _era_findings(message + "\n")
    assert (first.cause, first.confidence) == ("keras-version-mismatch", "medium")
    assert first.details[0].startswith("The message does not name the module")
    assert "The code uses `Merge` (read as `keras.layers.Merge`)" in first.details[1]
    # a name no library of the table binds, or one whose owners disagree, is no finding
    assert not _era_findings("ImportError: cannot import name my_helper\n")
    assert not _era_findings("ImportError: cannot import name dnn\n")


def test_a_name_kept_to_the_last_keras_read_says_where_the_table_ends() -> None:
    # keras.utils.generic_utils is in every Keras from 2.0.0 to 2.3.1, the last release the table reads;
    # a later Keras (TensorFlow's wrapper, 2.4 on) may lack it too, so "or newer" names where the table ends
    (first,) = _era_findings("AttributeError: module 'keras.utils' has no attribute 'generic_utils'\n")
    assert (first.cause, first.confidence) == ("keras-version-mismatch", "medium")
    assert "install Keras 2.0.0 or newer; Keras 2.3.1 is the newest release read here" in first.details[0]


def test_a_keyword_only_newer_theano_takes_real_theano_082(tmp_path: Path) -> None:
    # scan() takes return_list from 0.9.0 on (profiles/api_keywords.yaml, from the release trees)
    text = _run(ensure("theano082_py27"), "import theano, theano.tensor as T\nv = T.vector()\n"
                "theano.scan(lambda x: x, sequences=[v], return_list=True)\n", tmp_path)
    assert "TypeError: scan() got an unexpected keyword argument 'return_list'" in text
    first = explain_text(text).recognised[0]
    assert (first.cause, first.confidence) == ("theano-too-old-for-code", "medium")
    assert "install Theano 0.9.0 or newer" in first.details[0]
    # joined with the hand-written row for return_list (signatures.yaml): the table's `def` is cited too
    assert "Theano rel-0.9.0 theano/scan_module/scan.py:73" in first.signature_sources
    assert all(problem(source) is None for source in first.signature_sources)


def test_a_keyword_only_older_theano_takes_with_the_class_from_the_code_line(tmp_path: Path) -> None:
    # Pool(ds=...) is Theano 0.8's; 1.0.5 calls it ws. Python 3.7 prints only `__init__()`: the
    # class comes from the code line. Theano's own import warning names it in the log: medium;
    # with pip's freeze, high.
    python = ensure("healthy37")
    text = _run(python, "from theano.tensor.signal.pool import Pool\nPool(ds=(2, 2))\n", tmp_path)
    assert "TypeError: __init__() got an unexpected keyword argument 'ds'" in text and "(theano." in text
    alone = _era_findings(text)
    assert [(f.cause, f.confidence) for f in alone] == [("theano-too-new-for-code", "medium")]
    assert not _era_findings(text.replace("Pool(ds=(2, 2))", "make(ds=(2, 2))"))  # no class the table knows
    freeze = subprocess.run([str(python), "-m", "pip", "freeze"], capture_output=True, text=True, timeout=120).stdout
    first = explain_text(freeze + text).recognised[0]
    assert (first.cause, first.confidence) == ("theano-too-new-for-code", "high")
    assert "install Theano 0.8.2 (the newest release with it)" in first.details[0]


def test_python310_names_the_class_of_a_refused_keyword(tmp_path: Path) -> None:
    # 3.10 and later print `Pool.__init__()`: no code line needed to know the class
    _stub(tmp_path, {"theano/__init__.py": "", "theano/tensor/__init__.py": "",
                     "theano/tensor/signal/__init__.py": "",
                     "theano/tensor/signal/pool.py": "class Pool(object):\n    def __init__(self, ws=None):\n"
                                                     "        pass\n"})
    message = _run(ensure("py311_np123"), "from theano.tensor.signal.pool import Pool\nargs = {'ds': 2}\n"
                   "Pool(**args)\n", tmp_path).splitlines()[-1]
    assert message == "TypeError: Pool.__init__() got an unexpected keyword argument 'ds'"
    era = _era_findings("import theano\n" + message + "\n")
    assert [(f.cause, f.confidence) for f in era] == [("theano-too-new-for-code", "medium")]
    # a log that never names Theano: another library's Pool is possible, so only a hint that asks
    alone = _era_findings(message + "\n")
    assert [(f.cause, f.confidence) for f in alone] == [("theano-too-new-for-code", "low")]
    assert "is Theano's" in alone[0].asks[-1]
    # a call of that name the table does not know, or a keyword no release takes: nothing
    assert not _era_findings("import theano\nTypeError: scan() got an unexpected keyword argument 'no_such'\n")


@pytest.mark.parametrize(("code", "message", "said"), [
    # the variational functions of PyMC3 3.0-3.2 (a book's notebook on PyMC3 3.4)
    ("import pymc3 as pm\nmu, sds, elbo = pm.variational.advi(n=100)\n",
     "AttributeError: module 'pymc3.variational' has no attribute 'advi'",
     "install PyMC3 3.2 (the newest release with it)"),
    # a class of PyMC3 3.2 on, in a notebook of the master branch run on PyMC3 3.1
    ("from pymc3 import KLqp\n", "ImportError: cannot import name 'KLqp' from 'pymc3'", "install PyMC3 3.2 or newer"),
])
def test_pymc3_names_of_other_releases(tmp_path: Path, code: str, message: str, said: str) -> None:
    _stub(tmp_path, {"pymc3/__init__.py": "from . import variational\n", "pymc3/variational/__init__.py": ""})
    text = _run(ensure("healthy37"), code, tmp_path)
    assert message in text
    (first,) = _era_findings(text)
    assert (first.cause, first.confidence) == ("pymc3-version-mismatch", "medium")
    assert said in first.details[0] and "PyMC3 v3." in first.signature_sources[0]



def test_a_release_the_post_names_that_has_the_name_leaves_only_a_hint() -> None:
    # pm.floatX is in PyMC3 3.1 and later: a post on 3.2 that misses it runs another environment
    message = "AttributeError: module 'pymc3' has no attribute 'floatX'\n"
    (alone,) = _era_findings(message)
    assert (alone.cause, alone.confidence) == ("pymc3-version-mismatch", "medium")
    (told,) = _era_findings("MacOS, Python 3.6.3, pyfolio 0.8.0, pymc3 3.2\n" + message)
    assert told.confidence == "low" and "another environment" in told.details[-1] and told.asks
    # a release the post names that lacks it leaves the table deciding, and is said beside it
    (older,) = _era_findings("I have pymc3 3.0\n" + message)
    assert older.confidence == "medium"
    assert "prints no installed PyMC3 version" in older.details[0]
    assert older.details[-1] == "The post says PyMC3 3.0 (line 1), which lacks it too."


def test_lasagne_code_of_2015_on_the_release(tmp_path: Path) -> None:
    # the Objective classes of Lasagne's 2015 snapshots, gone in the 0.1 release (real Lasagne 0.1)
    python = ensure("theano082_py27")
    text = _run(python, "import lasagne\nobjective = lasagne.objectives.Objective(None)\n", tmp_path,
                legacy_envs.release(str(python), "lasagne==0.1"))
    assert "AttributeError: 'module' object has no attribute 'Objective'" in text
    first = explain_text(text).recognised[0]
    assert (first.cause, first.confidence) == ("lasagne-too-new", "medium")
    assert "96df7d8bdd1d34ba5fa09758f761697412127f1f lasagne/objectives.py:213" in first.details[0]
    # a version the log shows that all the 2015 snapshots share decides nothing: still medium, not high
    shown = explain_text("Successfully installed Lasagne-0.1.dev0\n" + text).recognised[0]
    assert (shown.cause, shown.confidence) == ("lasagne-too-new", "medium")


def test_a_name_only_a_development_snapshot_lacks_is_a_hint() -> None:
    # binary_crossentropy left Lasagne's development line early in 2015 and came back before 0.1:
    # the snapshots read cannot tell which way the installed one leans
    text = ("Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
            ">>> from lasagne.objectives import binary_crossentropy\n"
            "ImportError: cannot import name binary_crossentropy\n")
    assert [(f.cause, f.confidence) for f in _era_findings(text)] == [("lasagne-too-old", "low")]


def test_a_name_that_moved_to_another_module_names_the_release_and_where_it_went(tmp_path: Path) -> None:
    # Keras 0.x code on real Keras 1.2.2: `slice_X` left keras.models for keras.engine.training
    python = ensure("py27")
    keras = legacy_envs.release(str(python), "Keras==1.2.2")
    (tmp_path / ".keras").mkdir()
    (tmp_path / ".keras" / "keras.json").write_text('{"backend": "theano"}', encoding="utf-8")
    log = _run(python, "from keras.models import model_from_yaml, slice_X\n", tmp_path, keras)
    assert log.splitlines()[-1] == "ImportError: cannot import name slice_X"
    (found,) = _era_findings(log)
    assert (found.cause, found.confidence) == ("keras-version-mismatch", "medium")
    assert found.values["moved_to"] == "keras.engine.training" and "`keras.engine.training`" in found.details[0]
    # the module Keras 1.2.2 has it in
    moved = _run(python, "from keras.engine.training import slice_X\nprint('found')\n", tmp_path, keras)
    assert "found" in moved.splitlines()


def test_a_name_only_middle_releases_have_is_another_release_where_both_ways_are_one_cause():
    """PyMC3 3.1-3.7 define `pymc3.model.InitContextMeta` (3.0 and 3.8 on do not): whichever way the
    code leans, it was written for another PyMC3, so medium, asking for the installed release."""
    found = explain_text("AttributeError: module 'pymc3.model' has no attribute 'InitContextMeta'\n").recognised
    assert [(f.cause, f.confidence) for f in found] == [("pymc3-version-mismatch", "medium")]
    assert found[0].asks and "3.1-3.7" in found[0].details[0]
