"""`explain` knows the keyword arguments that Keras, Lasagne and Theano renamed across releases
(profiles/keyword_renames.yaml): a refused keyword of the table names the version coupling it
shows, in the message forms of Python 2, Python 3 before and after 3.10, Keras and nolearn; a
keyword in no table names nothing."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests import legacy_envs
from tests.explain_tables import assert_sourced, first_cause, traceback_of
from theanodoctor import kb_api_attrs, kb_api_keywords, kb_causes, kb_keywords
from theanodoctor.explain import explain_text, keyword_era

# Lasagne v0.1's classes, rebuilt from their signatures (lasagne/layers/base.py:23, the Layer that
# takes only incoming and name; lasagne/layers/pool.py:199 Pool2DLayer; lasagne/layers/conv.py:386
# Conv2DLayer; lasagne/layers/recurrent.py:635 LSTMLayer), so that each Python prints its own refusal.
LASAGNE_01 = '''
class Layer(object):
    def __init__(self, incoming, name=None):
        self.input_layer = incoming

class MaxPool2DLayer(Layer):
    def __init__(self, incoming, pool_size, stride=None, pad=(0, 0), ignore_border=True, mode='max', **kwargs):
        super(MaxPool2DLayer, self).__init__(incoming, **kwargs)

class Conv2DLayer(Layer):
    def __init__(self, incoming, num_filters, filter_size, stride=(1, 1), pad=0, untie_biases=False, **kwargs):
        super(Conv2DLayer, self).__init__(incoming, **kwargs)

class LSTMLayer(Layer):
    def __init__(self, incoming, num_units, backwards=False, learn_init=False, **kwargs):
        super(LSTMLayer, self).__init__(incoming, **kwargs)
'''
LASAGNE_TRACE = '  File "/usr/local/lib/python2.7/dist-packages/lasagne/layers/pool.py", line 199, in __init__\n'

LASAGNE_CALLS = [
    ("MaxPool2DLayer(None, 2, st=2)", "lasagne-too-new"),  # pre-0.1 name (stride since April 2015)
    ("Conv2DLayer(None, 16, 3, border_mode='same')", "lasagne-too-new"),  # pre-0.1 (pad since July 2015)
    ("Conv2DLayer(None, 16, 3, flip_filters=False)", "lasagne-too-old"),  # Lasagne master, after 0.1
    ("LSTMLayer(None, 10, only_return_final=True)", "lasagne-too-old"),
]


@pytest.mark.parametrize("version", ["2.7", "3.8", "3.11"])
@pytest.mark.parametrize(("call", "cause"), LASAGNE_CALLS, ids=[c for c, _ in LASAGNE_CALLS])
def test_lasagne_keywords_refused_by_each_python_name_the_lasagne_era(version, call, cause, tmp_path):
    log = traceback_of(str(legacy_envs.find_interpreter(version)), LASAGNE_01 + call, tmp_path)
    if version == "3.11":
        assert "Layer.__init__() got an unexpected keyword argument" in log  # the 3.10+ form
    assert first_cause(LASAGNE_TRACE + log) == [cause], log


def test_a_keyword_no_table_knows_names_nothing(tmp_path):
    python = str(legacy_envs.find_interpreter("3.11"))
    log = traceback_of(python, LASAGNE_01 + "MaxPool2DLayer(None, 2, window_shape=3)", tmp_path)
    assert first_cause(LASAGNE_TRACE + log) == []
    assert explain_text(LASAGNE_TRACE + log).findings == ()


def test_a_keyword_of_one_library_needs_that_library_in_the_log():
    """`border_mode` is a Keras 1 and a pre-0.1 Lasagne name (and Theano's conv2d takes it): without
    the library in the log it is only a hint."""
    error = "TypeError: __init__() got an unexpected keyword argument 'border_mode'\n"
    assert first_cause(error) == []
    assert first_cause("Using Theano backend.\n" + error) == ["keras-version-mismatch"]
    assert first_cause(LASAGNE_TRACE + error) == ["lasagne-too-new"]
    # the traceback's code line shows which library's class was called
    keras_call = "    model.add(Convolution2D(32, 3, 3, border_mode='same', input_shape=(1, 28, 28)))\n"
    assert first_cause(keras_call + error) == ["keras-version-mismatch"]
    assert first_cause("    l = Conv2DLayer(l, 16, 3, border_mode='same')\n" + error) == ["lasagne-too-new"]


@pytest.mark.parametrize(("env", "code", "fixed_in"), [
    ("theano082_py27", "import theano.tensor as T\nfrom theano.tensor.signal.pool import pool_2d\n"
                       "pool_2d(T.tensor4(), ws=(2, 2), ignore_border=True)", "theano090_py36"),
    ("theano082_py27", "import theano.tensor as T\nfrom theano.tensor.signal.pool import pool_2d\n"
                       "pool_2d(T.tensor4(), (2, 2), ignore_border=True, stride=(1, 1))", "theano090_py36"),
    ("theano082_py27", "import theano.tensor as T\nfrom theano.tensor.nnet import conv\n"
                       "conv.conv2d(T.tensor4(), T.tensor4(), input_shape=(1, 1, 8, 8))", None),
])
def test_real_theano_refusals_name_a_theano_older_than_the_code(env, code, fixed_in, tmp_path):
    log = traceback_of(str(legacy_envs.env_python(legacy_envs.ensure_env(env))), code, tmp_path)
    assert first_cause(log) == ["theano-too-old-for-code"], log
    if fixed_in:  # the release the table names takes the keyword
        (tmp_path / "snippet.py").write_text(code + "\n", encoding="utf-8")
        python = str(legacy_envs.env_python(legacy_envs.ensure_env(fixed_in)))
        proc = subprocess.run([python, "snippet.py"], cwd=tmp_path, capture_output=True, timeout=300,
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stderr


# Keras' own refusals, as each release raises them: Keras 1.2.2 and 2.x keras/engine/topology.py
# (`raise TypeError('Keyword argument not understood:', kwarg)`, printed as a tuple), Keras 1.0.0
# (`assert kwarg in allowed_kwargs, 'Keyword argument not understood: ' + kwarg`), Keras 1.2.2
# keras/models.py:660 (`Received unknown keyword arguments: ` + str(kwargs)), Keras 2.2.4
# keras/engine/training.py:942 (`Unrecognized keyword arguments: ` + str(kwargs)).
KERAS_RAISES = [
    ("raise TypeError('Keyword argument not understood:', 'border_mode')", "older Keras name (now `padding`)"),
    ("raise TypeError('Keyword argument not understood:', 'kernel_size')", "newer Keras name"),
    ("assert False, 'Keyword argument not understood: ' + 'padding'", "newer Keras name (before: `border_mode`)"),
    ("raise TypeError('Received unknown keyword arguments: ' + str({'epochs': 10}))", "newer Keras name"),
    ("raise TypeError('Unrecognized keyword arguments: ' + str({'nb_val_samples': 10}))", "older Keras name"),
]


@pytest.mark.parametrize(("code", "note"), KERAS_RAISES, ids=[c[:50] for c, _ in KERAS_RAISES])
def test_keras_own_refusals_name_the_keras_major_version(code, note, tmp_path):
    log = traceback_of(str(legacy_envs.find_interpreter("3.8")), code, tmp_path)
    found = explain_text(log).recognised
    assert [f.cause for f in found][:1] == ["keras-version-mismatch"], log
    assert note in found[0].evidence[0].note and found[0].asks


def test_python_refusals_of_keras_names_in_a_keras_log(tmp_path):
    """Python's own forms: a call of the function by name (`fit()`), a constructor on 3.10+."""
    fit = ("class Model(object):\n    def fit(self, x, y, batch_size=32, epochs=1):\n        pass\n"
           "Model().fit(1, 2, nb_epoch=5)")
    py27 = str(legacy_envs.find_interpreter("2.7"))
    assert first_cause(traceback_of(py27, fit, tmp_path)) == ["keras-version-mismatch"]
    layer = ("class Dense(object):\n    def __init__(self, output_dim, init='glorot_uniform'):\n        pass\n"
             "Dense(units=10)")
    log = "Using Theano backend.\n" + traceback_of(str(legacy_envs.find_interpreter("3.11")), layer, tmp_path)
    assert "Dense.__init__() got an unexpected keyword argument 'units'" in log
    assert first_cause(log) == ["keras-version-mismatch"]
    # another library's fit() refusing a name Keras never had is no Keras matter
    other = "class Model(object):\n    def fit(self, x, y):\n        pass\nModel().fit(1, 2, n_estimators=5)"
    log = traceback_of(str(legacy_envs.find_interpreter("3.8")), other, tmp_path)
    assert first_cause("Using Theano backend.\n" + log) == []



# A layer of the code (a custom `Recurrent`, as memory and attention repositories wrote them) that
# hands a keyword on to Keras' base `Layer`, which refuses it: real Keras 2.0.8 and 1.2.2.
CUSTOM_RECURRENT = """from keras.layers.recurrent import Recurrent
class MemoryRNN(Recurrent):
    def __init__(self, output_dim, **kwargs):
        self.output_dim = output_dim
        super(MemoryRNN, self).__init__(**kwargs)
MemoryRNN(10, {keyword}=3)"""


@pytest.mark.parametrize(("env", "keyword", "era"), [
    ("keras208_th09", "input_dim", "0.3.0-1.2.2"),  # Keras 1's Recurrent took it (keras/layers/recurrent.py)
    ("keras122_th09", "return_state", "2.0.5-2.0.8"),  # Keras 2.0.5's did
])
def test_keyword_the_base_layer_refuses_names_the_keras_release(env, keyword, era, legacy_python, tmp_path):
    log = traceback_of(legacy_python(env), CUSTOM_RECURRENT.format(keyword=keyword), tmp_path,
                       {"KERAS_BACKEND": "theano"})
    assert "Keyword argument not understood:', '" + keyword in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("keras-version-mismatch", "medium")], log
    assert f"`Recurrent`: {era}" in found[0].details[0] and found[0].asks
    assert_sourced([(log, "keras-version-mismatch")])


def test_a_private_helper_of_one_library_names_it_where_the_log_does_not(legacy_python, tmp_path):
    """Keras 1 code calling `_obtain_input_shape(dim_ordering=...)` on real Keras 2.0.8: a post that
    quotes only the script's frames and the message still names Keras by the private helper."""
    log = traceback_of(legacy_python("keras208_th09"), "from keras.applications.imagenet_utils import "
                       "_obtain_input_shape\n_obtain_input_shape(None, 224, 48, dim_ordering='th', include_top=True)",
                       tmp_path, {"KERAS_BACKEND": "theano"})
    message = log.rstrip().splitlines()[-1]
    assert message == "TypeError: _obtain_input_shape() got an unexpected keyword argument 'dim_ordering'"
    quoted = '  File "densenet.py", line 98, in DenseNet\n    include_top=include_top)\n' + message
    found = explain_text(quoted).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("keras-version-mismatch", "medium")]
    assert "1.2.0-1.2.2" in found[0].details[0]
    # a one-word name may be the code's own: without Keras in the log, only a hint
    assert first_cause("TypeError: __init__() got an unexpected keyword argument 'dim_ordering'\n") == []


def test_keyword_no_keras_release_has_is_the_codes_own(legacy_python, tmp_path):
    """`routings=` (a capsule layer's) reaching the base `Layer`: the custom layer's bug, no era."""
    log = traceback_of(legacy_python("keras208_th09"), CUSTOM_RECURRENT.format(keyword="routings"), tmp_path,
                       {"KERAS_BACKEND": "theano"})
    assert "Keyword argument not understood:', 'routings'" in log
    assert first_cause(log) == []
    # quoted in prose, the refusal is about another run than the log's
    prose = log.replace("TypeError: ('Keyword argument not understood:', 'routings')",
                        "fails with \"TypeError: ('Keyword argument not understood:', 'input_dim')\"")
    assert first_cause(prose) == []
    # a thread's title that is the message, in markdown, is the message
    title = "# AssertionError: Keyword argument not understood: go_backwards\n"
    assert first_cause(title) == ["keras-version-mismatch"]


def test_nolearns_failed_instantiation_names_the_refused_keyword():
    """nolearn 0.6.1 nolearn/lasagne/base.py:606-609 reports a layer Lasagne refused with all its arguments."""
    log = ("TypeError: Failed to instantiate <class 'lasagne.layers.pool.MaxPool2DLayer'> with args "
           "{'name': 'pool1', 'ds': (2, 2), 'incoming': <lasagne.layers.conv.Conv2DLayer object at 0x7f1>}.\n"
           "Maybe parameter names have changed?\n")
    assert first_cause(log) == ["lasagne-too-new"]
    assert first_cause(log.replace("'ds'", "'pool_size'")) == []



@pytest.mark.parametrize(("call", "shown"), [("get_output(...)", "lasagne.layers.get_output(layer, ...)"),
                                             ("get_output_shape()", "layer.output_shape")])
def test_lasagnes_development_versions_warn_of_the_layer_methods_its_release_removed(call, shown):
    """Lasagne's base.py before v0.1 (the parent of commit 2fabf94) warns, with stacklevel=2, at the line
    of the code that calls the layer method."""
    log = (f"/home/u/nb/model.py:40: UserWarning: layer.{call} is deprecated and will be removed for the first "
           f"release of Lasagne. Please use {shown} instead.\n  out = l_out.{call.replace('...', 'X')}\n")
    found = explain_text(log).findings
    assert [(f.cause, f.confidence, f.warning) for f in found] == [("lasagne-too-new", "medium", True)]
    assert_sourced([(log, "lasagne-too-new")])

def test_every_keyword_row_is_sourced_and_each_keyword_has_one_row_per_library():
    seen = set()
    for rename in kb_keywords.renames():
        key = (rename.library, rename.keyword)
        assert key not in seen, key
        seen.add(key)
        assert rename.cause in kb_causes.causes()
        assert rename.confidence != "high" or not rename.asks
    ids = {s.id for s in kb_causes.signatures()}
    assert {"kw-keras-old-border-mode", "kw-lasagne-old-ds", "kw-theano-new-ws"} <= ids
    assert_sourced([("TypeError: pool_2d() got an unexpected keyword argument 'ws'\n", "theano-too-old-for-code"),
                    ("TypeError: ('Keyword argument not understood:', 'subsample')\n", "keras-version-mismatch"),
                    (LASAGNE_TRACE + "TypeError: __init__() got an unexpected keyword argument 'ds'\n",
                     "lasagne-too-new")])


def test_fuel_eras_of_the_dataset_split_argument():
    """Fuel v0.0.1 fuel/datasets/mnist.py:34 takes `which_set`; v0.1 fuel/datasets/hdf5.py:179 raises
    this for a string where the tuple `which_sets` goes."""
    trace = '  File "/usr/local/lib/python2.7/dist-packages/fuel/datasets/hdf5.py", line 179, in __init__\n'
    assert first_cause(trace + "ValueError: `which_sets` should be an iterable of strings\n") == \
        ["fuel-blocks-version-mismatch"]
    assert first_cause(trace.replace("hdf5", "mnist") + "TypeError: __init__() got an unexpected keyword argument "
                       "'which_set'\n") == ["fuel-blocks-version-mismatch"]
    # Fuel v0.0.1 fuel/datasets/hdf5.py:142-146 formats the tuple 0.1-era code passes as one split name
    old_fuel = (trace.replace("line 179", "line 146") + "ValueError: '('train',)' split is not provided by this "
                "dataset. Available splits are (u'test', u'train').\n")
    assert first_cause(old_fuel) == ["fuel-blocks-version-mismatch"]
    # a split name the file lacks is the code's or the data's, whatever the Fuel
    assert first_cause(old_fuel.replace("'('train',)'", "'valid'")) == []


def test_setuptools_version_conflict_as_easy_install_reports_it(tmp_path):
    """setuptools/command/easy_install.py:763 (v44.1.1) raises DistutilsError(e.report()) for a
    VersionConflict; the report is made here by the real pkg_resources of a legacy environment."""
    code = ("import pkg_resources, setuptools\n"
            "try:\n    pkg_resources.require('setuptools>=999')\n"
            "except pkg_resources.VersionConflict as e:\n    raise SystemExit('error: ' + e.report())")
    log = traceback_of(str(legacy_envs.env_python(legacy_envs.ensure_env("healthy37"))), code, tmp_path)
    assert "is installed but setuptools>=999 is required" in log
    found = explain_text(log).recognised
    assert [f.cause for f in found] == ["pip-pins-conflict"] and "setuptools>=999" in found[0].evidence[0].note


@pytest.mark.parametrize("line", [
    # pip 10.0.1 src/pip/_internal/commands/install.py:458
    "pymc3 3.8 has requirement theano>=1.0.4, but you'll have theano 0.9.0 which is incompatible.",
    # pip 24.0 src/pip/_internal/commands/install.py:619-620
    "pymc3 3.11.2 requires theano-pymc==1.1.2, but you have theano 1.0.5 which is incompatible.",
])
def test_pips_report_of_an_incompatible_install_names_the_versions(line):
    found = explain_text("ERROR: pip's dependency resolver does not currently take into account all the packages "
                         "that are installed.\n" + line + "\n").recognised
    assert [f.cause for f in found] == ["pip-pins-conflict"] and found[0].asks
    assert found[0].values["pkg"] == "pymc3" and found[0].values["dep"] == "theano"


# Keras 2.2.4 keras/layers/core.py Dense(units, ...), keras/layers/convolutional.py Conv2D(filters,
# kernel_size, ...), keras/layers/core.py Dropout(rate, ...) and Lasagne v0.1 lasagne/layers/pool.py:199
# Pool2DLayer(incoming, pool_size, ...): each takes **kwargs, so an older name passed instead goes there
# and Python reports the newer one missing.
MISSING = [
    ("class Dense(object):\n    def __init__(self, units, activation=None, **kwargs):\n        pass\n"
     "Dense(output_dim=10)", "Using TensorFlow backend.\n", "keras-version-mismatch"),
    ("class Conv2D(object):\n    def __init__(self, filters, kernel_size, strides=(1, 1), **kwargs):\n        pass\n"
     "Conv2D(32, nb_row=3, nb_col=3)", "Using Theano backend.\n", "keras-version-mismatch"),
    ("class Dropout(object):\n    def __init__(self, rate, **kwargs):\n        pass\nDropout(p=0.5)",
     "Using TensorFlow backend.\n", "keras-version-mismatch"),
    (LASAGNE_01 + "MaxPool2DLayer(None, ds=(2, 2))", LASAGNE_TRACE, "lasagne-too-new"),
]


@pytest.mark.parametrize("version", ["3.8", "3.11"])
@pytest.mark.parametrize(("code", "banner", "cause"), MISSING, ids=[m[0].split("\n")[-1] for m in MISSING])
def test_a_newer_name_missing_where_the_code_passed_the_older_one(version, code, banner, cause, tmp_path):
    log = traceback_of(str(legacy_envs.find_interpreter(version)), code, tmp_path)
    assert "missing 1 required positional argument" in log
    found = explain_text(banner + log).recognised
    assert [f.cause for f in found][:1] == [cause], log
    assert found[0].asks
    if banner != LASAGNE_TRACE:  # (the Lasagne snippet's own code line calls MaxPool2DLayer(: its context)
        assert first_cause(log) == []  # without the library in the log: a hint only


def test_a_missing_argument_no_rename_made_names_nothing(tmp_path):
    code = "class Dense(object):\n    def __init__(self, units, name):\n        pass\nDense(10)"
    log = traceback_of(str(legacy_envs.find_interpreter("3.8")), code, tmp_path)
    assert first_cause("Using TensorFlow backend.\n" + log) == []


def test_keras1_arguments_in_the_code_mark_a_negative_dimension_as_channels_first_code():
    """TensorFlow's shape inference (tensorflow/python/framework/common_shapes.py raises it as
    InvalidArgumentError / ValueError) under code that passes Keras 1's layer arguments: Theano-era
    code, channels first."""
    error = "ValueError: Negative dimension size caused by subtracting 8 from 4\n"
    code = "    model.add(Convolution2D(32, 8, 8, subsample=(4, 4), input_shape=(4, 84, 84)))\n"
    assert first_cause(code + error) == ["keras-image-ordering"]
    assert first_cause(code.replace("subsample=", "strides=") + error) == []


@pytest.mark.parametrize("layer", ["LSTM", "GRU"])
def test_keras1_reading_keras2_recurrent_weights(layer, legacy_python, tmp_path):
    """Real Keras 2.0.8 saves an LSTM's or GRU's weights as three arrays; real Keras 1.2.2, which keeps
    one per gate, cannot load them (Keras 2 converts Keras 1's the other way)."""
    model = f"from keras.models import Sequential\nfrom keras.layers import {layer}\n" \
            f"model = Sequential([{layer}(4, input_shape=(5, 3))])\n"
    env = {"KERAS_BACKEND": "theano"}
    subprocess.run([legacy_python("keras208_th09"), "-c", model + "model.save_weights('w.h5')"], cwd=tmp_path,
                   env={**os.environ, **env}, check=True, capture_output=True, timeout=600)
    log = traceback_of(legacy_python("keras122_th09"), model + "model.load_weights('w.h5')", tmp_path, env)
    assert "but the saved weights have 3 elements" in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("keras-version-mismatch", "medium")], log
    assert found[0].asks and "one weight per gate" in found[0].evidence[-1].note
    assert_sourced([(log, "keras-version-mismatch")])


def test_every_project_of_the_keyword_and_attribute_tables_has_its_signs_in_the_log():
    """A project whose rows have no entry in keyword_era.SIGNS made `explain` fail (KeyError) on a
    log that hit one of its rows: every table's project must have one."""
    assert set(kb_api_keywords.projects()) | set(kb_api_attrs.projects()) <= set(keyword_era.SIGNS)


def test_a_pymc3_keyword_names_the_pymc3_release(legacy_python, tmp_path):
    """`coords=` came to PyMC3's Model in 3.9 (profiles/api_keywords.yaml): a Model of 3.8's
    signature (pymc3/model.py at v3.8: name, model, theano_config) refusing it on real Python 3.7 is
    code for a newer PyMC3; the class comes from the code line, dotted or not, and the log must show
    PyMC3 (its name or its `pm.` alias) for more than a hint."""
    (tmp_path / "pymc3").mkdir()
    (tmp_path / "pymc3" / "__init__.py").write_text("from .model import Model\n", encoding="utf-8")
    (tmp_path / "pymc3" / "model.py").write_text(
        "class Model(object):\n    def __init__(self, name='', model=None, theano_config=None):\n"
        "        self.name = name\n", encoding="utf-8")
    log = traceback_of(legacy_python("healthy37"),
                       "import pymc3 as pm\nwith pm.Model(coords={'obs': [0, 1]}) as model:\n    pass", tmp_path)
    assert "    with pm.Model(coords={'obs': [0, 1]}) as model:\nTypeError: __init__() got an unexpected keyword " \
           "argument 'coords'" in log
    (finding,) = explain_text(log).findings
    assert (finding.cause, finding.confidence) == ("pymc3-version-mismatch", "medium")
    assert "install PyMC3 3.9.3 or newer" in finding.details[0]
    # another library's Model is possible where nothing shows PyMC3
    (bare,) = explain_text(log.replace("pm.Model", "Model")).findings
    assert bare.confidence == "low" and "is PyMC3's" in bare.asks[-1]
    # without the code line no class is known
    assert explain_text(log.splitlines()[-1]).findings == ()


def test_a_pymc3_function_refusing_a_keyword_of_older_releases(legacy_python, tmp_path):
    """`vars=` of sample_posterior_predictive, gone after 3.10.0: refused by a function of 3.11's
    signature (pymc3/sampling.py at v3.11.5) on real Python 3.7, it is code for an older PyMC3."""
    (tmp_path / "pymc3").mkdir()
    (tmp_path / "pymc3" / "__init__.py").write_text(
        "def sample_posterior_predictive(trace, samples=None, model=None, var_names=None, size=None,\n"
        "                                keep_size=False, random_seed=None, progressbar=True):\n"
        "    return {}\n", encoding="utf-8")
    code = "import pymc3 as pm\nsamples = pm.sample_posterior_predictive([], vars=['f'], samples=10)"
    log = traceback_of(legacy_python("healthy37"), code, tmp_path)
    assert log.endswith("TypeError: sample_posterior_predictive() got an unexpected keyword argument 'vars'\n")
    (finding,) = explain_text(log).findings
    assert (finding.cause, finding.confidence) == ("pymc3-version-mismatch", "medium")
    assert "3.10.0" in finding.details[0]
    # the message alone: a hint that asks whose function it is
    (alone,) = explain_text(log.splitlines()[-1]).findings
    assert alone.confidence == "low" and "is PyMC3's" in alone.asks[-1]
