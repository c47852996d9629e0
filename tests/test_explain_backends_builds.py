"""What `explain` reads where code meets the wrong Keras back-end, another Keras release or an
older dependency: a real Theano variable asked for a TensorFlow tensor's methods or given to
`int()`, the code's own Theano calls under Keras' TensorFlow back-end (the `code` fact,
explain/context.py), Keras calls of another major release and weights of a negative size (real
Keras releases put in front of the environment's own), and a real six older than Theano needs
shadowing the installed one."""

from __future__ import annotations

import ast
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests import legacy_envs
from tests.explain_tables import KERAS_224, in_front, printed, traceback_of
from tests.explain_tables import found as _found
from theanodoctor.explain import explain_text
from theanodoctor.explain.pyera import shown_code
from theanodoctor.explain.scan import BLOCK_LINES

TF_BANNER = "Using TensorFlow backend.\n"
# a one-layer model compiled, the Keras snippets' start
ONE_DENSE = ("import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers import Dense\n"
             "model = Sequential([Dense(1, input_dim=2)])\nmodel.compile('sgd', 'mse')\n")
# a traceback whose source line calls Theano (the custom loss of a Keras model written for Theano)
THEANO_LOSS = ('Traceback (most recent call last):\n  File "train.py", line 199, in custom_objective\n'
               "    y_true = T.flatten(y_true)\n")


@pytest.mark.parametrize("method", ["get_shape()", "_shape", "set_shape((2, 3))", "shape[-1].__int__()"])
def test_a_theano_variable_asked_for_a_tensorflow_method(legacy_python: Callable[[str], str], theano_home: Path,
                                                         tmp_path: Path, method: str) -> None:
    log = traceback_of(legacy_python("healthy37"), f"import theano.tensor as T\nT.matrix('y').{method}", tmp_path)
    assert "'TensorVariable' object has no attribute" in log
    assert _found(log)[0] == ("keras-code-needs-tensorflow-backend", "medium")
    # TensorFlow's banner and a Theano variable contradict each other: the cause is only a possibility
    assert ("keras-code-needs-tensorflow-backend", "low") in _found(TF_BANNER + log)


def test_a_tensorflow_dtype_given_to_theano(legacy_python: Callable[[str], str], theano_home: Path,
                                           tmp_path: Path) -> None:
    """Real Theano 1.0.5 given an object printed as TensorFlow's `tf.int32` prints itself (a stand-in:
    no TensorFlow here) as a type's dtype, as Keras' `Input(dtype=tf.int32)` hands it on."""
    code = ("import theano.tensor as T\nclass DType(object):\n    def __str__(self):\n"
            "        return \"<dtype: 'int32'>\"\nT.TensorType(DType(), (False,))")
    log = traceback_of(legacy_python("healthy37"), code, tmp_path)
    assert "TypeError: Unsupported dtype for TensorType: <dtype: 'int32'>" in log, log
    assert _found(log)[0] == ("keras-code-needs-tensorflow-backend", "medium")
    # a dtype name Theano lacks is no other framework's
    assert "keras-code-needs-tensorflow-backend" not in dict(_found(log.replace("<dtype: 'int32'>", "int128")))


@pytest.mark.parametrize(("code", "message", "cause"), [
    # Keras 1 calls with more positional arguments than Keras 2's converter maps
    ("from keras.layers import Convolution2D\nConvolution2D(8, 3, 3, 'same', 1)",
     "TypeError: Layer can receive at most 3 positional arguments.", "keras-version-mismatch"),
    ("from keras.layers import Dense\nDense(8, 'relu', True, 'zeros')",
     "TypeError: `Dense` can accept only 1 positional arguments", "keras-version-mismatch"),
    # channels-last tensors joined on axis 1, as channels-first code does
    ("from keras.layers import Input, Concatenate\nConcatenate(axis=1)([Input((16, 16, 512)), Input((16, 16, 256))])",
     "requires inputs with matching shapes except for the concat axis", "keras-image-ordering"),
    ("from keras.layers import Input, Concatenate\n"
     "Concatenate(axis=1)([Input((8, 16, 16, 512)), Input((8, 16, 16, 256))])",
     "Got inputs shapes: [(None, 8, 16, 16, 512), (None, 8, 16, 16, 256)]", "keras-image-ordering"),
])
def test_keras_1_code_on_real_keras_208(legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path,
                                        code: str, message: str, cause: str) -> None:
    log = traceback_of(legacy_python("keras208_th09"), code, tmp_path, KERAS_THEANO)
    assert message in log
    assert _found(log)[0] == (cause, "high" if cause == "keras-version-mismatch" else "medium")


def test_a_first_layer_of_keras_1_without_its_input_shape_is_no_release_matter(
        legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path) -> None:
    code = ("from keras.models import Sequential\nfrom keras.layers import Dense, Convolution2D\n"
            "Sequential().add({})\n")
    for layer in ("Dense(64, activation='relu')", "Convolution2D(32, 3, 3, border_mode='same')"):
        log = traceback_of(legacy_python("keras122_th09"), code.format(layer), tmp_path, KERAS_THEANO)
        assert "The first layer in a Sequential model must get an `input_shape`" in log
        assert ("keras-version-mismatch", "medium") not in _found(log)


def test_keras_2_concatenate_of_shapes_that_differ_elsewhere_is_no_ordering_matter_alone() -> None:
    message = ("ValueError: A `Concatenate` layer requires inputs with matching shapes except for the concat axis. "
               "Got inputs shapes: [(None, 16, 16, 512), (None, 16, 8, 256)]\n")
    # only a hint that asks for the ordering: other sizes of the model's layers give the same
    assert _found(message) == [("keras-image-ordering", "low")]
    (hint,) = explain_text(message).findings
    assert "image_data_format" in hint.asks[0]


def test_a_symbolic_shape_for_the_theano_backends_ones(legacy_python: Callable[[str], str], theano_home: Path,
                                                        tmp_path: Path) -> None:
    # code for TensorFlow's backend (keras-coordconv's CoordinateChannel): a shape made of tensors
    log = traceback_of(legacy_python("keras208_th09"), "import keras.backend as K\n"
                       "K.ones(K.stack([K.shape(K.placeholder((None, 3)))[0], 3]))", tmp_path, KERAS_THEANO)
    assert "TypeError: expected sequence object with len >= 0 or a single integer" in log
    assert _found(log)[0] == ("keras-code-needs-tensorflow-backend", "medium")
    # numpy's words alone, without Keras' Theano backend in the traceback: only a hint
    assert _found("TypeError: expected sequence object with len >= 0 or a single integer\n") == [
        ("keras-code-needs-tensorflow-backend", "low")]


@pytest.mark.parametrize("call", ["set_session(None)", "clear_session()"])
def test_the_tensorflow_backends_session_functions_on_keras_theano_backend(legacy_python: Callable[[str], str],
                                                                          theano_home: Path, tmp_path: Path,
                                                                          call: str) -> None:
    log = traceback_of(legacy_python("keras208_th09"), f"import keras.backend as K\nK.{call}", tmp_path,
                       {"KERAS_BACKEND": "theano"})
    assert "Using Theano backend." in log and f"has no attribute '{call.split('(')[0]}'" in log
    assert _found(log)[0] == ("keras-code-needs-tensorflow-backend", "medium")
    # without Keras' own line the back-end is not shown: TensorFlow 2's Keras lost sessions too
    bare = _found("\n".join(line for line in log.splitlines() if "backend." not in line))
    assert ("keras-code-needs-tensorflow-backend", "low") in bare and {level for _, level in bare} == {"low"}


def test_gradients_of_a_non_scalar_loss_on_keras_theano_backend(legacy_python: Callable[[str], str],
                                                                 theano_home: Path, tmp_path: Path) -> None:
    # a gradient penalty written for TensorFlow (tf.gradients sums the outputs); Theano's grad refuses
    log = traceback_of(legacy_python("keras208_th09"), "import keras.backend as K\nx = K.placeholder((None, 3))\n"
                       "K.gradients(x * 2, [x])", tmp_path, KERAS_THEANO)
    assert "TypeError: cost must be a scalar." in log
    assert _found(log)[0] == ("keras-code-needs-tensorflow-backend", "medium")
    # Theano's own grad of a non-scalar, no Keras on the way: the model's code, the backend only a hint
    plain = traceback_of(legacy_python("keras208_th09"), "import theano.tensor as T\nx = T.matrix()\n"
                         "T.grad(x * 2, x)", tmp_path)
    assert "TypeError: cost must be a scalar." in plain
    assert _found(plain)[:2] == [("model-gradient-undefined", "low"), ("keras-code-needs-tensorflow-backend", "low")]


def test_a_session_function_python_2_does_not_place_is_no_keras_release(legacy_python: Callable[[str], str],
                                                                         theano_home: Path, tmp_path: Path) -> None:
    # Python 2 does not name the module, nor does the code line here (as in a traceback of an egg without
    # its sources): no Keras release's Theano backend has clear_session (only the TensorFlow and, from
    # 2.1.6, the CNTK modules), so it is not read as a release the code needs
    python = legacy_python("theano082_py27")
    log = traceback_of(python, "import keras.backend as K\ngetattr(K, 'clear_' + 'session')()", tmp_path,
                       {**in_front(python, "keras==0.3.3"), "KERAS_BACKEND": "theano"})
    assert "AttributeError: 'module' object has no attribute 'clear_session'" in log
    assert _found(log)[0] == ("keras-code-needs-tensorflow-backend", "medium")
    assert ("keras-version-mismatch", "medium") not in _found(log)


def test_theano_code_under_the_tensorflow_backend_names_the_backend() -> None:
    # nothing in the catalogue explains the final error: the banner alone only hints
    error = "ValueError: Shapes (?, 1) and (?,) are incompatible\n"
    assert _found(TF_BANNER + error)[0] == ("keras-backend-tensorflow", "low")
    assert _found(TF_BANNER + THEANO_LOSS + error)[0] == ("keras-backend-tensorflow", "medium")
    # Theano's own logger names its modules: that is no code of the user's
    logger = "WARNING (theano.tensor.blas): Using NumPy C-API based implementation for BLAS functions.\n"
    assert _found(TF_BANNER + logger + error)[0] == ("keras-backend-tensorflow", "low")


def test_the_code_fact_reads_calls_imports_and_prompts_but_not_paths() -> None:
    def shown(text: str) -> bool:
        return any(f.name == "code" for f in explain_text(text).shown)

    assert shown("    y_true = T.flatten(y_true)\n")
    assert shown(">>> import theano\n")
    assert shown("    f = theano.function([x], y)\n")
    assert not shown('  File "/usr/lib/python2.7/dist-packages/theano/tensor/basic.py", line 1, in <module>\n')
    assert not shown("ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n")
    assert not shown("I tried it with T.J.'s fork\n")
    assert not shown("/usr/src/Theano/theano/tensor/nlinalg.py:175: DeprecationWarning: theano.tensor.nlinalg."
                     "AllocDiag is deprecated\n")


def test_an_older_six_first_on_the_path_breaks_theanos_import(legacy_python: Callable[[str], str],
                                                             theano_home: Path, tmp_path: Path) -> None:
    # six 1.8.0 is the last release without six.raise_from; Theano asks six>=1.9.0 (rel-1.0.5 setup.py:103)
    python = legacy_python("healthy37")
    log = traceback_of(python, "import theano", tmp_path, in_front(python, "six==1.8.0"))
    assert "raise_from" in log and "from six import" in log
    assert _found(log)[0] == ("six-too-old", "high")
    # the same error without the code line that shows the import: the usual cause, not the named one
    bare = "\n".join(line for line in log.splitlines() if "from six import" not in line)
    assert _found(bare)[0] == ("six-too-old", "medium")
    # six 1.4.1 (macOS's own Python shipped it) cannot import six.moves.cPickle as a module (Theano 0.8.2)
    python = legacy_python("theano082_py27")
    log = traceback_of(python, "import theano", tmp_path, in_front(python, "six==1.4.1"))
    assert "import six.moves.cPickle as pickle" in log and log.rstrip().endswith("No module named cPickle")
    assert _found(log)[0] == ("six-too-old", "medium")


def test_what_the_prose_says_is_missing_is_looked_up_at_medium(legacy_python: Callable[[str], str],
                                                              theano_home: Path) -> None:
    python = legacy_python("theano082_py27")
    shown = printed(python, "import theano, theano.tensor.nnet as n; print(theano.__version__); "
                         "print(hasattr(n, 'selu')); print(hasattr(n, 'relu'))").split()
    assert shown[-3:] == ["0.8.2", "False", "True"]
    version = f">>> theano.__version__\n'{shown[-3]}'\n"
    missing = version + "Running the model, it calls theano.tensor.nnet.selu which does not exist.\n"
    assert _found(missing)[0] == ("theano-too-old-for-code", "medium")
    listed = version + "from theano.tensor.nnet import (relu,\n    selu)\nand I get an import error on the selu\n"
    assert _found(listed)[0] == ("theano-too-old-for-code", "medium")
    # the installed release has it: the post is wrong about the cause, nothing is named
    assert _found(version + "theano.tensor.nnet.relu does not exist\n") == []


def test_a_relative_import_in_an_installed_package_is_read_from_its_frame(legacy_python: Callable[[str], str],
                                                                          tmp_path: Path) -> None:
    # a Keras 1 module left beside Keras 2's utils (a mixed install): Python 2 names neither module
    package = tmp_path / "site-packages" / "keras"
    (package / "utils").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "utils" / "__init__.py").write_text("", encoding="utf-8")
    (package / "utils" / "generic_utils.py").write_text("def serialize_keras_object(x):\n    return x\n",
                                                        encoding="utf-8")
    (package / "initializations.py").write_text("from .utils.generic_utils import get_from_module\n",
                                                encoding="utf-8")
    log = traceback_of(legacy_python("py27"), "import keras.initializations", tmp_path,
                       {"PYTHONPATH": str(package.parent)})
    assert "ImportError: cannot import name get_from_module" in log
    found = explain_text(log).findings[0]
    assert (found.cause, found.confidence) == ("keras-version-mismatch", "medium")
    assert found.values["module"] == "keras.utils.generic_utils"


KERAS1_MODEL = ("from keras.models import Sequential\nfrom keras.layers import Dense\n"
                "from keras.regularizers import l2\n"
                "model = Sequential([Dense(3, input_dim=2, W_regularizer=l2(1e-4))])\nprint(model.to_json())\n")
# the 0.x format, keyed by 'name' (Keras 0.3.3 keras/utils/layer_utils.py:19-21)
KERAS0_YAML = "name: Sequential\nlayers:\n- name: Dense\n  input_dim: 2\n  output_dim: 3\n"


def test_a_model_saved_by_another_keras_major_release(legacy_python: Callable[[str], str], theano_home: Path,
                                                      tmp_path: Path) -> None:
    keras1, keras2 = legacy_python("keras122_th09"), legacy_python("keras208_th09")
    saved = tmp_path / "model.json"
    lines = printed(keras1, KERAS1_MODEL, KERAS_BACKEND="theano").splitlines()
    saved.write_text(next(line for line in lines if line.startswith("{")), encoding="utf-8")
    load = f"from keras.models import model_from_json\nmodel_from_json(open({str(saved)!r}).read())"
    log = traceback_of(keras2, load, tmp_path, {"KERAS_BACKEND": "theano"})
    assert "ValueError: Improper config format" in log
    assert _found(log)[0] == ("keras-version-mismatch", "medium")
    old = tmp_path / "model.yaml"
    old.write_text(KERAS0_YAML, encoding="utf-8")
    load = f"from keras.models import model_from_yaml\nmodel_from_yaml(open({str(old)!r}).read())"
    log = traceback_of(keras1, load, tmp_path, {"KERAS_BACKEND": "theano"})
    assert "KeyError: 'class_name'" in log
    assert _found(log)[0] == ("keras-version-mismatch", "medium")
    # as a post retells it: the key without its quotes
    assert _found("I load the model with model_from_json on Keras 1.0.1 and get KeyError: class_name\n")[0] == \
        ("keras-version-mismatch", "medium")


def test_a_keras2_model_and_call_on_keras1(legacy_python: Callable[[str], str], theano_home: Path,
                                          tmp_path: Path) -> None:
    """A model saved by real Keras 2.0.8 (its Dense config has `units`) rebuilt by real Keras 1.2.2, and
    Keras 2's call in Keras 1: Dense's required `output_dim` is missing either way."""
    saved = tmp_path / "model.json"
    printed(legacy_python("keras208_th09"), ONE_DENSE + f"open({str(saved)!r}, 'w').write(model.to_json())",
            KERAS_BACKEND="theano")
    keras1 = legacy_python("keras122_th09")
    load = f"from keras.models import model_from_json\nmodel_from_json(open({str(saved)!r}).read())"
    call = "from keras.layers import Dense\nDense(units=3)"
    for code in (load, call):
        log = traceback_of(keras1, code, tmp_path, KERAS_THEANO)
        assert log.rstrip().endswith("missing 1 required positional argument: 'output_dim'"), log
        assert _found(log)[0] == ("keras-version-mismatch", "medium")
    # the same refusal with no Keras in the log (a class of the code's own may take `output_dim`): a hint
    assert _found("TypeError: __init__() missing 1 required positional argument: 'output_dim'\n") == [
        ("keras-version-mismatch", "low")]


def test_a_model_saved_by_the_keras_release_before(legacy_python: Callable[[str], str], theano_home: Path,
                                                   tmp_path: Path) -> None:
    python, saved = legacy_python("keras122_th09"), tmp_path / "model.json"
    # a merge saved by real Keras 1.1.1, loaded by real 1.1.2 (whose Merge config gained `output_mask_type`)
    printed(python, "from keras.models import Model\nfrom keras.layers import Input, merge\na = Input((3,))\n"
            f"open({str(saved)!r}, 'w').write(Model(a, merge([a, a], mode='sum')).to_json())",
            KERAS_BACKEND="theano", PYTHONPATH=str(legacy_envs.release(python, "Keras==1.1.1")))
    load = f"from keras.models import model_from_json\nmodel_from_json(open({str(saved)!r}).read())"
    log = traceback_of(python, load, tmp_path, {"KERAS_BACKEND": "theano",
                                                **in_front(python, "Keras==1.1.2")})
    assert log.rstrip().endswith("KeyError: 'output_mask_type'")
    assert _found(log)[0] == ("keras-version-mismatch", "medium")
    # the same KeyError of the code's own dictionary, where no layer is rebuilt: only a hint
    own = '  File "train.py", line 9, in <module>\n    rate = config["rate"]\nKeyError: \'rate\'\n'
    assert [level for _, level in _found(own)] in ([], ["low"])


@pytest.mark.parametrize("call", ["Convolution2D(64, (3, 3), activation='relu', padding='same')",
                                  "Convolution3D(32, (3, 3, 3))"])
def test_keras2_convolution_calls_on_keras1(legacy_python: Callable[[str], str], theano_home: Path,
                                            tmp_path: Path, call: str) -> None:
    log = traceback_of(legacy_python("keras122_th09"), f"from keras.layers import *\nx = {call}", tmp_path,
                       {"KERAS_BACKEND": "theano"})
    assert "required positional argument" in log
    assert _found(log)[0] == ("keras-version-mismatch", "medium")


def test_blocks_and_fuel_names_are_looked_up_in_their_releases(legacy_python: Callable[[str], str],
                                                               tmp_path: Path) -> None:
    # a newer Blocks, whose blocks.model no longer has the AbstractModel of Blocks 0.0.1
    package = tmp_path / "blocks"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "model.py").write_text("class Model(object):\n    pass\n", encoding="utf-8")
    log = traceback_of(legacy_python("healthy37"), "from blocks.model import AbstractModel", tmp_path,
                       {"PYTHONPATH": str(tmp_path)})
    assert "cannot import name 'AbstractModel' from 'blocks.model'" in log
    found = explain_text(log).findings[0]
    assert (found.cause, found.confidence) == ("fuel-blocks-version-mismatch", "medium")
    assert "Blocks has only in 0.0.1" in found.details[0] and "Blocks v0.0.1 blocks/model.py:" in found.details[0]


def test_theano_082_sparse_needs_nose_parameterized(legacy_python: Callable[[str], str], theano_home: Path,
                                                    tmp_path: Path) -> None:
    log = traceback_of(legacy_python("theano082_py27"), "import theano.sparse", tmp_path)
    assert "ImportError: No module named nose_parameterized" in log
    assert _found(log)[0] == ("theano-test-dependency-missing", "high")


@pytest.mark.parametrize(("shapes", "ordering"), [("(2, 14, 512), (2, 14, 256)", True),  # channels last, joined on 1
                                                  ("(128, 84, 84), (64, 85, 85)", False)])  # sizes that differ
def test_keras1_concat_of_channels_last_tensors_on_axis_1(legacy_python: Callable[[str], str], theano_home: Path,
                                                          tmp_path: Path, shapes: str, ordering: bool) -> None:
    first, second = shapes.split("), (")
    code = (f"from keras.layers import Input, merge\na = Input({first}))\nb = Input(({second})\n"
            "merge([a, b], mode='concat', concat_axis=1)\n")
    log = traceback_of(legacy_python("keras122_th09"), code, tmp_path, {"KERAS_BACKEND": "theano"})
    assert "mode can only merge layers with matching output shapes" in log
    found = _found(log)
    assert (found[:1] == [("keras-image-ordering", "medium")]) is ordering


KERAS_THEANO = {"KERAS_BACKEND": "theano"}


# Keras 2.2.0 with the two packages it pins (its setup.py), in front of the environment's Keras 2.0.8
KERAS_220 = ("keras==2.2.0", "keras_applications==1.0.2", "keras_preprocessing==1.0.1")


@pytest.mark.parametrize(("env", "release", "code", "message"), [
    # Keras 1's merge() function is only a module from Keras 2.2.0 on (the traceback shows the call's last line)
    ("keras208_th09", KERAS_220, "from keras.layers import Input, merge\na = Input((2,))\nmerge([a, a],\n"
     "      mode='concat')\n", "TypeError: 'module' object is not callable"),
    # ... a merge of a custom mode, whose last line is its output_shape
    ("keras208_th09", KERAS_220, "from keras.layers import Input, merge\na = Input((2,))\n"
     "merge([a, a], mode=lambda x: x[0],\n      output_shape=(2,))\n", "TypeError: 'module' object is not callable"),
    # Keras 0.x's compiled function, gone in Keras 1
    ("keras122_th09", (), "from keras.models import Sequential\nSequential()._predict([0])\n",
     "AttributeError: 'Sequential' object has no attribute '_predict'"),
    # train_on_batch's list (Keras 0.3.0 on; here Keras 1's [loss, acc]) given to Progbar as Keras 0.2's number
    ("keras122_th09", (), "import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers import Dense\n"
     "from keras.utils.generic_utils import Progbar\nm = Sequential([Dense(1, input_dim=2)])\n"
     "m.compile('sgd', 'mse', metrics=['accuracy'])\nloss = m.train_on_batch(np.ones((2, 2)), np.ones((2, 1)))\n"
     "Progbar(4).add(2, values=[('train loss', loss)])\n",
     "TypeError: unsupported operand type(s) for /: 'list' and 'int'"),
    # Keras 0.x's show_accuracy: Keras 1.2.2 drops it (warning) and evaluate returns the loss alone
    ("keras122_th09", (), "import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers import Dense\n"
     "m = Sequential([Dense(1, input_dim=2)])\nm.compile('sgd', 'mse')\n"
     "score = m.evaluate(np.ones((2, 2)), np.ones((2, 1)), show_accuracy=True, verbose=0)\nprint(score[1])\n",
     "IndexError: invalid index to scalar variable"),
    # Keras 0.1's layers given the input's size first: Keras 1 reads the second argument as `init`
    ("keras122_th09", (), "from keras.models import Sequential\nfrom keras.layers import Dense\n"
     "Sequential().add(Dense(784, 512))\n", "The first layer in a Sequential model must get an `input_shape`"),
    ("keras122_th09", (), "from keras.models import Sequential\nfrom keras.layers import Convolution2D\n"
     "Sequential().add(Convolution2D(4, 1, 5, 5))\n",
     "The first layer in a Sequential model must get an `input_shape`"),
    # a layer's output(train) method of Keras before 0.1.0: Keras 1's layer.output is the tensor itself
    ("keras122_th09", (), "from keras.models import Sequential\nfrom keras.layers import Dense\n"
     "m = Sequential([Dense(1, input_dim=2)])\nm.layers[0].output(train=False)\n",
     "TypeError: 'TensorVariable' object is not callable"),
])
def test_keras_calls_of_another_major_version(legacy_python: Callable[[str], str], theano_home: Path,
                                              tmp_path: Path, env: str, release: tuple[str, ...], code: str,
                                              message: str) -> None:
    python = legacy_python(env)
    path = in_front(python, *release) if release else {}
    log = traceback_of(python, code, tmp_path, {**path, **KERAS_THEANO})
    assert message in log
    assert _found(log)[0] == ("keras-version-mismatch", "medium")


TRANSPOSED_EVEN = ("import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers import Conv2DTranspose\n"
                   "m = Sequential([Conv2DTranspose(1, (2, 2), strides=(2, 2), padding='same', "
                   "input_shape=(4, 18, 18), data_format='channels_first')])\n"
                   "m.predict(np.ones((1, 4, 18, 18), dtype='float32'))\n")


@pytest.mark.parametrize(("release", "message", "level"), [
    # 2.0.0-2.0.4 build the layer; Theano pads symmetrically and its convolution refuses the given shape
    ("Keras==2.0.4", "  top shape: 1 4 18 18 (expected 1 4 19 19)", "medium"),
    ("Keras==2.0.5", "even kernel sizes are only supported with Tensorflow", "high"),
    ("Keras==2.0.6", "even kernel sizes are not supported with Theano", "high"),
])
def test_an_even_kernel_transposed_with_same_padding_on_theano(legacy_python: Callable[[str], str],
                                                               theano_home: Path, tmp_path: Path, release: str,
                                                               message: str, level: str) -> None:
    python = legacy_python("keras208_th09")
    log = traceback_of(python, TRANSPOSED_EVEN, tmp_path, {**in_front(python, release), **KERAS_THEANO})
    assert message in log
    assert _found(log)[0] == ("keras-theano-backend-limitation", level)


# IPython (before 8) prints a frame as numbered source lines with an arrow at the current one: the
# Keras 1 call of merge() shows only its last line there, as in a notebook's traceback
IPYTHON_MERGE = ("~/ssd_keras/ssd.py in SSD300(input_shape, num_classes)\n"
                 "    256                              net['pool6_mbox_loc_flat']],\n"
                 "--> 257                             mode='concat', concat_axis=1, name='mbox_loc')\n"
                 "    258     net['mbox_conf'] = merge([net['conv4_3_norm_mbox_conf_flat'],\n\n"
                 "TypeError: 'module' object is not callable\n")


def test_the_arrow_line_of_an_ipython_frame_is_the_code():
    assert shown_code(IPYTHON_MERGE.splitlines(), len(IPYTHON_MERGE.splitlines()) - 1) == \
        "mode='concat', concat_axis=1, name='mbox_loc')"
    assert _found(IPYTHON_MERGE)[:1] == [("keras-version-mismatch", "medium")]
    # numbered lines without an arrow are no frame, and prose is never code
    assert _found(IPYTHON_MERGE.replace("--> 257", "    257")) == []
    # the frame in one block of the scan, the exception first in the next: the lines kept between
    # blocks reach the arrow
    frame, exception = IPYTHON_MERGE.split("\n\n")
    frame += "\n    259                               net['fc7_mbox_conf_flat'],\n" \
             "    260                               net['conv6_2_mbox_conf_flat']],\n"  # 6 lines above it
    split = "filler\n" * (BLOCK_LINES - frame.count("\n") - 1) + frame + "\n" + exception
    assert _found(split)[:1] == [("keras-version-mismatch", "medium")]
    # a post's markdown fence between the frame and the exception is no line of the traceback
    fenced = frame + "\n\n```\n" + exception
    assert shown_code(fenced.splitlines(), len(fenced.splitlines()) - 1) == \
        "mode='concat', concat_axis=1, name='mbox_loc')"
    assert shown_code((frame + "\n\nWhat now?\n" + exception).splitlines(), len(fenced.splitlines()) - 1) is None


@pytest.mark.parametrize(("env", "release", "code", "message", "remedy"), [
    # Keras 1's functional API on Keras 0.3.3: every release from 1.0.0 on has Input
    ("theano082_py27", ("keras==0.3.3",), "from keras.layers import Input\n", "ImportError: cannot import name Input",
     "install Keras 1.0.0 or newer"),
    # Keras 0.1's Theano helpers, gone from Keras 0.3.0 on (Python 2 names only the module's last part)
    ("theano082_py27", ("keras==0.3.3",), "from keras.utils.theano_utils import shared_zeros\n",
     "ImportError: No module named theano_utils", "install Keras 0.2.0 (the newest release with it)"),
    # the Merge layer (Keras 0.3.2 to 2.1.6): Keras 1 and 2 decide, Keras 0.3.1 lacking it does not make it a guess
    ("keras208_th09", KERAS_220, "from keras.layers import Merge\n",
     "ImportError: cannot import name 'Merge'", "install Keras 2.1.6 (the newest release with it)"),
    # Keras 0.3's MaskedLayer (0.1.2 to 0.3.3) on Keras 1.2.2: Keras 0.1.0/0.1.1 lacking it too leaves the
    # code older than the installed Keras, not a guess between both ends
    ("keras122_th09", (), "from keras.layers.core import MaskedLayer\n",
     "ImportError: cannot import name 'MaskedLayer'", "install Keras 0.3.3 (the newest release with it)"),
])
def test_keras_0x_decides_only_what_keras_1_and_later_leave_open(legacy_python: Callable[[str], str],
                                                                 theano_home: Path, tmp_path: Path, env: str,
                                                                 release: tuple[str, ...], code: str, message: str,
                                                                 remedy: str) -> None:
    python = legacy_python(env)
    log = traceback_of(python, code, tmp_path, {**in_front(python, *release), **KERAS_THEANO})
    assert message in log
    (first,) = [f for f in explain_text(log).findings if "api-era" in f.signatures]
    assert (first.cause, first.confidence) == ("keras-version-mismatch", "medium")
    assert remedy in first.details[0]


# (only middle releases have the imports and the log shows no version, so which way the code leans is
# open, but either way it was written for another Keras: medium, asking for the installed release)
@pytest.mark.parametrize(("env", "release", "code", "message", "level", "remedy"), [
    # private helpers legacy code imported: Keras' applications' input-shape check, gone from 2.2.1 on
    ("keras208_th09", KERAS_224, "from keras.applications.imagenet_utils import _obtain_input_shape\n",
     "cannot import name '_obtain_input_shape'", "medium", "install Keras 2.2.0 (the newest release with it)"),
    # ... and its keyword include_top, renamed require_flatten in Keras 2.0.8
    ("keras208_th09", (), "from keras.applications.imagenet_utils import _obtain_input_shape\n"
     "_obtain_input_shape((224, 224, 3), default_size=224, min_size=48, data_format='channels_last',\n"
     "                    include_top=True)\n",
     "_obtain_input_shape() got an unexpected keyword argument 'include_top'", "medium",
     "install Keras 2.0.7 (the newest release with it)"),
    # the recurrent layers' helper of Keras 2.0.0-2.0.8, which Keras 1 named without the underscore
    ("keras122_th09", (), "from keras.layers.recurrent import _time_distributed_dense\n",
     "cannot import name '_time_distributed_dense'", "medium", "install Keras 2.0.8"),
])
def test_private_keras_helpers_legacy_code_imported(legacy_python: Callable[[str], str], theano_home: Path,
                                                    tmp_path: Path, env: str, release: tuple[str, ...], code: str,
                                                    message: str, level: str, remedy: str) -> None:
    python = legacy_python(env)
    extra = in_front(python, *release) if release else {}
    log = traceback_of(python, code, tmp_path, {**extra, **KERAS_THEANO})
    assert message in log
    assert _found(log) == [("keras-version-mismatch", level)]
    assert remedy in explain_text(log).findings[0].details[0]
    # the imports (only middle releases): the installed release would say which way; the keyword only
    # older releases took leans one way
    assert bool(explain_text(log).findings[0].asks) == message.startswith("cannot import")


def test_keras_224s_topology_without_container_quoted_without_the_exception(legacy_python: Callable[[str], str],
                                                                          theano_home: Path, tmp_path: Path) -> None:
    """Keras 2.2.0 renamed `Container` to `Network`: real Keras 2.2.4's refusal, and the same message as an
    issue's title quotes it, Python 3's wording for a module beginning the line without `AttributeError:`."""
    python = legacy_python("keras208_th09")
    code = "import keras.engine.topology as topology\ntopology.Container\n"
    log = traceback_of(python, code, tmp_path, {**in_front(python, *KERAS_224), **KERAS_THEANO})
    error = log.rstrip().splitlines()[-1]
    assert error == "AttributeError: module 'keras.engine.topology' has no attribute 'Container'", log
    quoted = error.split(": ", 1)[1] + "\n"
    assert _found(log)[:1] == _found(quoted)[:1] == [("keras-version-mismatch", "medium")]
    assert "install Keras 2.1.6 (the newest release with it)" in explain_text(quoted).findings[0].details[0]


@pytest.mark.parametrize("message", ["ImportError: cannot import name Input",
                                     "AttributeError: 'module' object has no attribute 'set_session'"])
def test_a_name_every_keras_from_1_0_has_is_no_era_finding_by_its_name_alone(message: str) -> None:
    # only Keras 0.x lacks them: with no module shown, no Keras release is the likely one to lack them
    assert "keras-version-mismatch" not in {cause for cause, _ in _found(message + "\n")}


def test_a_layers_public_node_list_on_keras_213(legacy_python: Callable[[str], str], theano_home: Path,
                                                tmp_path: Path) -> None:
    python = legacy_python("keras208_th09")
    code = "from keras.layers import Dense, Input\nlayer = Dense(1)\nlayer(Input((2,)))\nlayer.inbound_nodes\n"
    assert printed(python, code.replace("\nlayer.inbound_nodes", "\nprint(len(layer.inbound_nodes))"),
                    **KERAS_THEANO).split()[-1] == "1"  # Keras 2.0.8 has it
    log = traceback_of(python, code, tmp_path, {**in_front(python, "keras==2.1.3"), **KERAS_THEANO})
    assert "AttributeError: 'Dense' object has no attribute 'inbound_nodes'" in log
    assert _found(log)[0] == ("keras-version-mismatch", "medium")
    # a custom layer's message quoted alone: the node lists are Keras' own names
    assert _found("AttributeError: 'ChainCRF' object has no attribute 'inbound_nodes'\n") == [
        ("keras-version-mismatch", "medium")]


@pytest.mark.parametrize("env", ["theano082_py27", "healthy37"])
def test_int_of_a_theano_size(legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path,
                              env: str) -> None:
    # code written for TensorFlow's static shapes: `int(inputs.shape[2])`
    log = traceback_of(legacy_python(env), "import theano.tensor as T\nint(T.tensor3().shape[2])\n", tmp_path)
    assert "'TensorVariable'" in log or "(type TensorVariable)" in log
    assert _found(log)[0] == ("keras-code-needs-tensorflow-backend", "medium")


def test_len_of_a_theano_shape(legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path) -> None:
    # code written for TensorFlow's static shapes: `len(x.shape)`, under Keras' Theano backend (its banner)
    code = "import theano.tensor as T\nx = T.tensor3()\nlen(x.shape)\n"
    log = traceback_of(legacy_python("healthy37"), code, tmp_path)
    assert "TypeError: object of type 'TensorVariable' has no len()" in log
    assert _found("Using Theano backend.\n" + log)[0] == ("keras-code-needs-tensorflow-backend", "medium")
    # plain Theano code (no Keras in the log), or `len()` of the variable itself, is not TensorFlow's code
    assert ("keras-code-needs-tensorflow-backend", "medium") not in _found(log)
    other = traceback_of(legacy_python("healthy37"), "import theano.tensor as T\nlen(T.vector())\n", tmp_path)
    assert ("keras-code-needs-tensorflow-backend", "medium") not in _found("Using Theano backend.\n" + other)


def test_data_of_another_rank_for_a_keras_model(legacy_python: Callable[[str], str], theano_home: Path,
                                                tmp_path: Path) -> None:
    # a function Keras' Theano backend compiled (Theano names it by the backend's line) given a 3-D array
    # for the model's 2-D input
    code = ("import numpy as np\nfrom keras import backend as K\nfrom keras.models import Sequential\n"
            "from keras.layers import Dense\nm = Sequential([Dense(1, input_dim=2)])\n"
            "K.function([m.input], [m.output])([np.ones((4, 2, 2))])\n")
    log = traceback_of(legacy_python("keras122_th09"), code, tmp_path, KERAS_THEANO)
    assert "keras/backend/theano_backend.py:" in log and "Wrong number of dimensions: expected 2, got 3" in log
    assert _found(log)[0] == ("keras-data-shape-mismatch", "medium")
    # a function of the code's own (named by Theano after its line) is the function's inputs matter
    own = traceback_of(legacy_python("keras122_th09"), "import numpy as np\nimport theano, theano.tensor as T\n"
                       "x = T.matrix()\ntheano.function([x], x * 2)(np.ones((4, 2, 2)))\n", tmp_path)
    assert _found(own)[0] == ("model-function-inputs", "medium")


def test_theano_given_a_tensorflow_tensor(legacy_python: Callable[[str], str], theano_home: Path,
                                          tmp_path: Path) -> None:
    # TensorFlow is not installed here: an object that prints as a TensorFlow tensor does stands in
    code = ("import theano.tensor as T\nclass Tensor(object):\n    def __str__(self):\n"
            "        return 'Tensor(\"conv_1_W/read:0\", shape=(3, 3, 280, 64), dtype=float32)'\n"
            "T.as_tensor_variable(Tensor())\n")
    log = traceback_of(legacy_python("healthy37"), code, tmp_path)
    assert "AsTensorError: ('Cannot convert Tensor(\"conv_1_W/read:0\"" in log
    assert _found(log)[0] == ("keras-backend-tensorflow", "medium")
    assert _found(log.replace("Tensor(\"", "Variable(\""))[:1] != [("keras-backend-tensorflow", "medium")]


def test_a_name_keras_backend_lacks_under_the_tensorflow_backend() -> None:
    # a function the code patched into the Theano back-end: no Keras release has it, the back-end decides
    custom = TF_BANNER + "AttributeError: module 'keras.backend' has no attribute 'custom_spatial_2d_padding'\n"
    assert {level for _, level in _found(custom)} == {"low"}
    assert _found(custom.replace(TF_BANNER, ""))[0] == ("keras-version-mismatch", "medium")
    # a name Keras releases had and removed is still a release matter, whatever the back-end
    removed = TF_BANNER + "AttributeError: module 'keras.backend' has no attribute 'set_image_dim_ordering'\n"
    assert _found(removed)[0] == ("keras-version-mismatch", "medium")


KERAS1_CONV = "Convolution2D(8, 3, 3, input_shape=(1, 28, 28), dim_ordering='tf')"
KERAS2_CONV = "Conv2D(8, (3, 3), input_shape=(1, 28, 28), data_format='channels_last')"


@pytest.mark.parametrize(("env", "conv", "dense", "message"), [
    # Keras 1 draws a Dense layer's weights with numpy, Keras 2 with Theano's MRG streams or numpy's zeros
    ("keras122_th09", KERAS1_CONV, "Dense(10)", "OverflowError: Range exceeds valid bounds"),
    ("keras208_th09", KERAS2_CONV, "Dense(10)",
     "ValueError: ('The specified size contains a dimension with value <= 0', (-208, 10))"),
    ("keras208_th09", KERAS2_CONV, "Dense(10, kernel_initializer='zeros')",
     "ValueError: negative dimensions are not allowed"),
])
def test_keras_weights_of_a_negative_size(legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path,
                                          env: str, conv: str, dense: str, message: str) -> None:
    # a channels-first input read channels last: the convolution runs over an axis of 1
    code = (f"from keras.models import Sequential\nfrom keras.layers import {conv.split('(')[0]}, Flatten, Dense\n"
            f"model = Sequential()\nmodel.add({conv})\nmodel.add(Flatten())\nmodel.add({dense})\n")
    log = traceback_of(legacy_python(env), code, tmp_path, KERAS_THEANO)
    assert message in log
    assert _found(log)[0] == ("keras-image-ordering", "medium")
    # the same numpy message outside Keras' weight creation is no matter of the image ordering
    assert not [c for c, level in _found(f"  File \"prep.py\", line 3\n{message}\n") if level != "low"]


@pytest.mark.parametrize(("call", "era"), [
    # Keras 2's call, the kernel size as one number: Keras 1 needs nb_row and nb_col
    ("Convolution2D(64, 3, activation='relu', border_mode='same')", True),
    # Keras 2's keywords (Keras 1.2's Conv1D alias takes nb_filter and filter_length)
    ("Conv1D(filters=8, kernel_size=3, padding='valid')", True),
    # a Keras 1 call that lacks its sizes: the code's own mistake, no other release
    ("Convolution2D(64, activation='relu')", False)])
def test_keras2_convolution_call_on_keras1_under_python2(legacy_python: Callable[[str], str], theano_home: Path,
                                                         tmp_path: Path, call: str, era: bool) -> None:
    python = legacy_python("theano082_py27")
    log = traceback_of(python, f"from keras.layers import *\nx = {call}", tmp_path,
                       {"KERAS_BACKEND": "theano", **in_front(python, "keras==1.2.2")})
    assert re.search(r"takes at least \d arguments", log), log
    assert (_found(log)[:1] == [("keras-version-mismatch", "medium")]) is era


# TensorFlow's messages, as the threads cited in profiles/signatures.yaml quote them
TF_ASSIGN = ("ValueError: Dimension 2 in both shapes must be equal, but are 4 and 32 for 'Assign_10' (op: 'Assign') "
             "with input shapes: {}.\n")


@pytest.mark.parametrize(("shapes", "expected"), [
    ("[8,8,4,32], [8,8,32,4]", [("keras-backend-tensorflow", "medium")]),  # a convolution kernel
    # a dense layer's matrix has no kernel layout: a weights file of another model (its sizes differ)
    ("[512,10], [10,512]", [("keras-weights-model-mismatch", "medium")]),
])
def test_tensorflow_assigning_a_saved_weight_that_does_not_fit(shapes: str, expected: list) -> None:
    assert _found(TF_ASSIGN.format(shapes))[:1] == expected


@pytest.mark.parametrize(("log", "expected"), [
    ("ValueError: Filter must not be larger than the input: Filter: (3, 1) Input: (1, 80)\n",
     [("keras-image-ordering", "medium")]),
    # four stacked frames (an Atari agent's input) where the height should be
    ("ValueError: Filter must not be larger than the input: Filter: (8, 8) Input: (4, 84)\n",
     [("keras-image-ordering", "medium")]),
    # an image really smaller than the filter
    ("ValueError: Filter must not be larger than the input: Filter: (3, 3) Input: (2, 80)\n", []),
    # a Theano-era set-up on TensorFlow: maybe the backend itself, not only the ordering
    ("I installed theano and tensorflow\nValueError: Filter must not be larger than the input: "
     "Filter: (2, 2) Input: (1, 112)\n", []),
])
def test_a_filter_larger_than_a_size_of_one(log: str, expected: list) -> None:
    assert [f for f in _found(log) if f[1] != "low"] == expected


def test_lasagne_01_slices_an_axis_of_unknown_size(legacy_python: Callable[[str], str], theano_home: Path,
                                                   tmp_path: Path) -> None:
    python = legacy_python("theano082_py27")
    code = ("import lasagne\nl = lasagne.layers.InputLayer((None, 10))\n"
            "lasagne.layers.SliceLayer(l, indices=slice(0, 5), axis=0).output_shape\n")
    log = traceback_of(python, code, tmp_path, in_front(python, "lasagne==0.1"))
    assert "'NoneType' object cannot be interpreted as an index" in log
    assert _found(log)[:1] == [("lasagne-too-old", "high")]
    # the same message from the user's own slicing is not Lasagne's
    own = traceback_of(python, "range(*slice(0, 5).indices(None))", tmp_path)
    assert "cannot be interpreted as an index" in own
    assert [f for f in _found(own) if f[1] != "low"] == []


def test_keras_11_on_tensorflow_2(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    # TensorFlow 2's top level has no `placeholder` (it is under tf.compat.v1): a `tensorflow` package
    # laid out as TensorFlow 2.3's (the internal modules Keras 1.1.0 imports first, no `contrib`)
    # stands in for TensorFlow 2, whose wheels are not built for these Pythons; Keras is real
    python = legacy_python("theano090_py36")
    for module in ("__init__", "python/__init__", "python/training/__init__", "python/training/moving_averages",
                   "python/ops/__init__", "python/ops/ctc_ops"):
        path = tmp_path / "tensorflow" / f"{module}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("__version__ = '2.3.1'\n" if module == "__init__" else "", encoding="utf-8")
    keras = legacy_envs.release(python, "keras==1.1.0")
    log = traceback_of(python, "from keras.models import Sequential", tmp_path,
                       {"KERAS_BACKEND": "tensorflow", "HOME": str(tmp_path), "PYTHONPATH": f"{keras}:{tmp_path}"})
    assert "module 'tensorflow' has no attribute 'placeholder'" in log
    assert _found(log)[:1] == [("keras-too-old-for-tensorflow2", "high")]
    # the same message from the user's own TensorFlow 1 code names no Keras: the code's call (its line shown)
    own = traceback_of(python, "import tensorflow as tf\nx = tf.placeholder('float32')", tmp_path,
                       {"PYTHONPATH": str(tmp_path)})
    assert "has no attribute 'placeholder'" in own
    assert [f for f in _found(own) if f[1] != "low"] == [("tf1-api-code-on-tensorflow2", "medium")]


@pytest.mark.parametrize(("data", "ordering"), [((2, 10, 8, 8, 3), True),  # the channel axis moved to the end
                                                ((2, 10, 3, 8, 9), False)])  # a size that differs
def test_sequences_of_images_with_the_channel_axis_at_the_other_end(legacy_python: Callable[[str], str],
                                                                     theano_home: Path, tmp_path: Path,
                                                                     data: tuple, ordering: bool) -> None:
    code = ("import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers import Flatten\n"
            f"Sequential([Flatten(input_shape=(10, 3, 8, 8))]).predict(np.zeros({data}))\n")
    log = traceback_of(legacy_python("keras122_th09"), code, tmp_path, {"KERAS_BACKEND": "theano"})
    assert "expected flatten_input_1 to have shape (None, 10, 3, 8, 8)" in log
    assert (_found(log)[:1] == [("keras-image-ordering", "medium")]) is ordering


def _fresh_keras_home(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A HOME whose ~/.keras is empty (Keras writes its default keras.json there), and Theano without a compiler."""
    home = tmp_path / "home"
    (home / ".keras").mkdir(parents=True)
    return home, {"HOME": str(home), "KERAS_BACKEND": "theano", "THEANO_FLAGS": "cxx="}


# Theano-era code: a channels-first input shape with open spatial sizes (Keras 1's call form)
CHANNELS_FIRST_INPUT = ("from keras.models import Sequential\nfrom keras.layers import ZeroPadding2D, Convolution2D\n"
                        "model = Sequential()\nmodel.add(ZeroPadding2D((1, 1), input_shape=(3, None, None)))\n"
                        "model.add(Convolution2D(64, 3, 3, activation='relu'))\nprint('built', model.output_shape)\n")


def test_a_channels_first_input_under_keras_2s_default_ordering(legacy_python: Callable[[str], str], tmp_path: Path,
                                                                 theano_home: Path) -> None:
    home, env = _fresh_keras_home(tmp_path)
    log = traceback_of(legacy_python("keras208_th09"), CHANNELS_FIRST_INPUT, tmp_path, env)
    assert "The channel dimension of the inputs should be defined" in log
    assert _found(log)[0] == ("keras-image-ordering", "medium")
    # the remedy: the same code builds once keras.json says channels first
    (home / ".keras" / "keras.json").write_text('{"backend": "theano", "image_data_format": "channels_first", '
                                                '"floatx": "float32", "epsilon": 1e-07}', encoding="utf-8")
    assert "built (None, 64, None, None)" in printed(legacy_python("keras208_th09"), CHANNELS_FIRST_INPUT, **env)
    # the separable convolution's form of the message (Keras 2.0.0 keras/layers/convolutional.py:942-944)
    separable = log.replace("of the inputs should", "of the inputs to `SeparableConv2D` should")
    assert _found(separable)[0] == ("keras-image-ordering", "medium")


def test_keras_arrays_of_different_sample_counts(legacy_python: Callable[[str], str], theano_home: Path,
                                                 tmp_path: Path) -> None:
    """Real Keras 2.0.8 refusing 10 input rows against 7 targets: the data, named at medium."""
    code = ("import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers import Dense\n"
            "m = Sequential([Dense(1, input_shape=(3,))])\nm.compile('sgd', 'mse')\n"
            "m.fit(np.zeros((10, 3)), np.zeros((7, 1)), verbose=0)")
    log = traceback_of(legacy_python("keras208_th09"), code, tmp_path, KERAS_THEANO)
    assert "should have the same number of samples as target arrays" in log
    assert _found(log)[0] == ("keras-data-shape-mismatch", "medium")
    # Keras 1.2.2's and 2.x's check of several inputs, as a post quotes it
    assert _found("ValueError: All input arrays (x) should have the same number of samples. Got array shapes: "
                  "[(320006L, 26L), (122805L, 4096L)]\n")[0] == ("keras-data-shape-mismatch", "medium")


@pytest.mark.parametrize("env", ["keras122_th09", "keras208_th09"])
def test_keras_given_a_list_of_samples_for_one_input(legacy_python: Callable[[str], str], theano_home: Path,
                                                     tmp_path: Path, env: str) -> None:
    """Real Keras 1.2.2 and 2.0.8 refusing a list of 5 sample arrays where the model has one input (Keras
    1's `Expected to see 1 arrays but`, Keras 2's `1 array(s), but`); the same samples stacked in one
    array fit."""
    samples = "[np.zeros(2) for _ in range(5)]"
    log = _ran(legacy_python(env), ONE_DENSE + f"model.predict({samples})\n", tmp_path).stderr
    assert "the following list of 5 arrays" in log, log
    assert _found(log)[0] == ("keras-data-shape-mismatch", "medium")
    stacked = _ran(legacy_python(env), ONE_DENSE + f"model.predict(np.array({samples}))\n", tmp_path)
    assert stacked.returncode == 0, stacked.stderr


# a U-Net's skip connection written channels first: pooled, convolved and upsampled, it is joined on
# axis 1 (Keras 2's call form)
UNET_SKIP = ("from keras.layers import Input, Conv2D, MaxPooling2D, UpSampling2D, concatenate\n"
             "inp = Input((3, 64, 64))\nc = Conv2D(16, (3, 3), padding='same')(inp)\n"
             "u = UpSampling2D((2, 2))(Conv2D(32, (3, 3), padding='same')(MaxPooling2D((2, 2))(c)))\n"
             "print('built', concatenate([u, c], axis=1)._keras_shape)\n")


def test_a_concatenation_refused_in_a_post_about_the_image_ordering(legacy_python: Callable[[str], str],
                                                                    tmp_path: Path, theano_home: Path) -> None:
    """Real Keras 2.0.8 refusing to join channels-first tensors read as channels last: the shapes
    differ on more than the last axis, so only a post that names the ordering makes it medium."""
    home, env = _fresh_keras_home(tmp_path)
    log = traceback_of(legacy_python("keras208_th09"), UNET_SKIP, tmp_path, env)
    assert "Got inputs shapes: [(None, 2, 64, 32), (None, 3, 64, 16)]" in log
    assert [c for c, level in _found(log) if level != "low"] == []
    post = "The model fails to build; my keras.json has image_data_format channels_last.\n" + log
    assert _found(post)[0] == ("keras-image-ordering", "medium")
    # the remedy: the same code builds once keras.json says channels first
    (home / ".keras" / "keras.json").write_text('{"backend": "theano", "image_data_format": "channels_first", '
                                                '"floatx": "float32", "epsilon": 1e-07}', encoding="utf-8")
    assert "built (None, 48, 64, 64)" in printed(legacy_python("keras208_th09"), UNET_SKIP, **env)


# A Theano-ordered (out, in, rows, cols) kernel given to a convolution of each Keras major release
KERNEL_TO = {"keras122_th09": ("from keras.layers import Convolution2D\n"
                               "layer = Convolution2D(32, 3, 3, dim_ordering='tf', input_shape=(28, 28, 1))\n"),
             "keras208_th09": ("from keras.layers import Conv2D\n"
                               "layer = Conv2D(32, (3, 3), data_format='channels_first', input_shape=(1, 28, 28))\n")}
SET_KERNEL = ("import numpy as np\nfrom keras.models import Sequential\nmodel = Sequential([layer])\n"
              "layer.set_weights([np.zeros((32, 1, 3, 3)), np.zeros(32)])\n")


@pytest.mark.parametrize(("env", "cause"), [("keras122_th09", "keras-image-ordering"),
                                            ("keras208_th09", "keras-version-mismatch")])
def test_a_channels_first_kernel_given_to_each_keras_major_release(legacy_python: Callable[[str], str],
                                                                   theano_home: Path, tmp_path: Path, env: str,
                                                                   cause: str) -> None:
    # Keras 1 lays the kernel out by the image ordering; Keras 2 always channels last, whatever data_format
    # says: there the weights are Keras 1's (the frame that raises tells the releases apart)
    log = traceback_of(legacy_python(env), KERNEL_TO[env] + SET_KERNEL, tmp_path, {"KERAS_BACKEND": "theano"})
    assert "not compatible with provided weight shape (32, 1, 3, 3)" in log
    assert _found(log)[0] == (cause, "medium")


def test_a_tensorflow_only_keras_release_without_tensorflow(legacy_python: Callable[[str], str], theano_home: Path,
                                                           tmp_path: Path) -> None:
    # Keras 2.6 and later are tf.keras: the package imports TensorFlow first thing, which is no
    # implicit relative import of Python 2 code (`from tensorflow.python ...` names a package)
    python = legacy_python("healthy37")
    log = traceback_of(python, "import keras", tmp_path, in_front(python, "keras==2.6.0"))
    assert "from tensorflow.python import tf2" in log and "No module named 'tensorflow'" in log
    assert _found(log)[0] == ("keras-version-mismatch", "medium")
    assert "python2-code-on-python3" not in dict(_found(log))


def test_a_layer_name_with_spaces_that_only_tensorflow_refuses() -> None:
    # as TensorFlow 1.x words it (tensorflow/python/framework/ops.py, Graph.name_scope)
    refused = ('  File "site-packages/tensorflow/python/framework/ops.py", line 2908, in name_scope\n'
               '    raise ValueError("\'%s\' is not a valid scope name" % name)\n'
               "ValueError: '{}' is not a valid scope name\n")
    assert _found(refused.format("the context text"))[0] == ("keras-backend-tensorflow", "medium")
    assert _found(refused.format("conv1:0")) == []  # no space: not what the Theano backend alone takes


def test_a_negative_concat_axis_on_a_lasagne_master_of_2015_16() -> None:
    # the check of Lasagne's master from bcc1517 (2015-08-25) to a6b7290 (2016-07-27), lasagne/layers/merge.py
    refused = ("l = lasagne.layers.ConcatLayer([a, b], axis={})\n"
               "ValueError: Mismatch: input shapes must be the same except in the concatenation axis\n")
    assert _found(refused.format("-1"))[:1] == [("lasagne-too-old", "medium")]
    assert _found(refused.format("1")) == [("lasagne-too-old", "low")]  # the inputs may really differ elsewhere


def test_keras1s_spatial_padding_form_on_real_keras_208(legacy_python: Callable[[str], str], theano_home: Path,
                                                        tmp_path: Path) -> None:
    # the LRN layer of many Keras 1 repositories pads the channels with K.spatial_2d_padding(x, (0, half))
    code = "import keras.backend as K\nK.spatial_2d_padding(K.placeholder((None, 3, 8, 8)), (0, 2))\n"
    log = traceback_of(legacy_python("keras208_th09"), code, tmp_path, KERAS_THEANO)
    assert "assert len(padding[0]) == 2" in log
    assert _found(log)[:1] == [("keras-version-mismatch", "medium")]
    printed(legacy_python("keras122_th09"), code, **KERAS_THEANO)  # Keras 1 takes it


def test_a_keras_function_without_the_learning_phase(legacy_python: Callable[[str], str], theano_home: Path,
                                                      tmp_path: Path) -> None:
    # the layer-output recipe of Keras' FAQ without K.learning_phase(), on a model with Dropout
    code = ("import numpy as np, keras.backend as K\nfrom keras.models import Sequential\n"
            "from keras.layers import Dense, Dropout\n"
            "model = Sequential([Dense(4, input_dim=3), Dropout(0.5), Dense(2)])\n"
            "K.function([model.layers[0].input], [model.layers[-1].output])([np.zeros((1, 3), 'float32')])\n")
    log = traceback_of(legacy_python("keras122_th09"), code, tmp_path, KERAS_THEANO)
    assert "keras_learning_phase" in log and "was not provided" in log
    assert _found(log)[:1] == [("model-function-inputs", "medium")]


# Theano-era data, channels first, given to Keras 1.2.2's image iterator under its default ordering (tf)
ITERATOR_FLOW = ("import numpy as np\nfrom keras.preprocessing.image import ImageDataGenerator\n"
                 "it = ImageDataGenerator().flow(np.zeros({shape}), np.zeros(4))\nprint('flows', it.x.shape)\n")


def test_the_image_iterator_given_channels_on_the_other_axis(legacy_python: Callable[[str], str], theano_home: Path,
                                                             tmp_path: Path) -> None:
    home, env = _fresh_keras_home(tmp_path)
    log = traceback_of(legacy_python("keras122_th09"), ITERATOR_FLOW.format(shape=(4, 1, 8, 8)), tmp_path, env)
    assert 'NumpyArrayIterator is set to use the dimension ordering convention "tf"' in log
    assert _found(log)[0] == ("keras-image-ordering", "medium")
    # the remedy: the same data flows once keras.json says channels first
    (home / ".keras" / "keras.json").write_text('{"backend": "theano", "image_dim_ordering": "th", '
                                                '"floatx": "float32", "epsilon": 1e-07}', encoding="utf-8")
    assert "flows (4, 1, 8, 8)" in printed(legacy_python("keras122_th09"), ITERATOR_FLOW.format(shape=(4, 1, 8, 8)),
                                          **env)
    # five channels on either axis: no ordering reads the data, so the ordering is not named
    other = log.replace("(4, 1, 8, 8) (8 channels)", "(4, 5, 8, 8) (8 channels)")
    assert other != log and ("keras-image-ordering", "medium") not in _found(other)


def _ran(python: str, code: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A snippet run by Keras on Theano that may fail or only warn: its output, whichever. Run as a
    script, so that a warning shows the line of the call that raised it, as in real logs (``env``
    added to the environment)."""
    (cwd / "snippet.py").write_text(code, encoding="utf-8")
    return subprocess.run([python, "snippet.py"], capture_output=True, text=True, timeout=300, cwd=cwd,
                          env={**os.environ, **KERAS_THEANO, **(env or {})})


# images laid out channels-last given to an image generator set for channels-first: Keras 1.2.2 refuses
# them in ImageDataGenerator.fit, Keras 2.0.8 warns (keras/preprocessing/image.py, the channel check)
GENERATOR = ("import numpy as np\nfrom keras.preprocessing.image import ImageDataGenerator\n"
             "ImageDataGenerator({}).fit(np.zeros((2, 16, 16, {})))\n")


@pytest.mark.parametrize(("env", "ordering"), [("keras122_th09", "dim_ordering='th'"),
                                               ("keras208_th09", "data_format='channels_first'")])
def test_real_keras_image_generator_on_data_of_the_other_ordering(legacy_python: Callable[[str], str],
                                                                  theano_home: Path, tmp_path: Path, env: str,
                                                                  ordering: str) -> None:
    python = legacy_python(env)
    run = _ran(python, GENERATOR.format(ordering, 3), tmp_path)
    log = run.stdout + run.stderr
    assert "Expected input to be images (as Numpy array)" in log and "(16 channels)" in log, log
    assert _found(log)[0] == ("keras-image-ordering", "medium")
    # five channels fit neither ordering: the data is not images of either layout
    odd = log.replace("16, 16, 3) (16 channels)", "16, 16, 5) (16 channels)")
    assert odd != log and ("keras-image-ordering", "medium") not in _found(odd)


def test_keras_1_merge_on_real_keras_208_is_a_harmless_warning(legacy_python: Callable[[str], str],
                                                                 theano_home: Path, tmp_path: Path) -> None:
    code = "from keras.layers import Input, merge\na = Input((3,))\nmerge([a, a], mode='sum')\nprint('built')\n"
    run = _ran(legacy_python("keras208_th09"), code, tmp_path)
    assert run.stdout.strip() == "built" and "The `merge` function is deprecated" in run.stderr, run.stderr
    found = explain_text(run.stderr).findings
    assert [(f.cause, f.confidence, f.warning) for f in found[:1]] == [("keras2-converts-keras1-call", "medium", True)]


# a model trained from a generator of batches of 4, its epoch counted in samples or in batches
FIT_GENERATOR = (ONE_DENSE + "def batches():\n    while True:\n        yield np.zeros((4, 2)), np.zeros((4, 1))\n"
                 "model.fit_generator(batches(), {}, verbose=0)\n")


def test_keras1_four_number_padding_on_keras2(legacy_python: Callable[[str], str], theano_home: Path,
                                              tmp_path: Path) -> None:
    code = "from keras.layers import ZeroPadding2D\nZeroPadding2D((1, 1, 2, 2))\nprint('built')\n"
    log = traceback_of(legacy_python("keras208_th09"), code, tmp_path, KERAS_THEANO)
    assert "`padding` should have two elements. Found: (1, 1, 2, 2)" in log, log
    assert _found(log)[0] == ("keras-version-mismatch", "medium")
    assert _ran(legacy_python("keras122_th09"), code, tmp_path).stdout.strip() == "built"  # Keras 1.2.2 took it


def test_keras_0_show_accuracy_on_real_keras_122(legacy_python: Callable[[str], str], theano_home: Path,
                                                 tmp_path: Path) -> None:
    code = (ONE_DENSE + "model.fit(np.zeros((4, 2)), np.zeros((4, 1)), nb_epoch=1, verbose=0, show_accuracy=True)\n"
            "print(model.evaluate(np.zeros((4, 2)), np.zeros((4, 1)), verbose=0))\n")
    run = _ran(legacy_python("keras122_th09"), code, tmp_path)
    # the argument dropped: evaluate returns the loss alone, no accuracy
    assert run.returncode == 0 and "[" not in run.stdout and '"show_accuracy" argument is deprecated' in run.stderr
    found = explain_text(run.stderr).findings
    assert [(f.cause, f.confidence, f.warning) for f in found[:1]] == [("keras-version-mismatch", "medium", True)]


def test_keras_0_show_accuracy_refused_by_evaluate_without_keras_in_the_log(legacy_python: Callable[[str], str],
                                                                          theano_home: Path, tmp_path: Path) -> None:
    """Keras 2's `evaluate()` has no `show_accuracy` (Keras 0.3.3's took it, 1.x warned and dropped it):
    the refusal names only the code's own file, and a paste from the traceback on (an IDE's console)
    lacks Keras' banner; the keyword names Keras as `nb_epoch=` does."""
    code = ONE_DENSE + "score = model.evaluate(np.zeros((4, 2)), np.zeros((4, 1)), show_accuracy=True, verbose=0)\n"
    run = _ran(legacy_python("keras208_th09"), code, tmp_path)
    assert "unexpected keyword argument 'show_accuracy'" in run.stderr, run.stderr
    pasted = run.stderr[run.stderr.index("Traceback"):]
    assert "keras" not in pasted.lower(), pasted
    found = explain_text(pasted).findings
    assert [(f.cause, f.confidence) for f in found[:1]] == [("keras-version-mismatch", "medium")], pasted


@pytest.mark.parametrize(("keywords", "in_samples"), [("steps_per_epoch=3, nb_epoch=1", False),
                                                      ("samples_per_epoch=3, nb_epoch=1", True)])
def test_keras2_steps_warning_needs_a_call_counted_in_samples(legacy_python: Callable[[str], str],
                                                              theano_home: Path, tmp_path: Path,
                                                              keywords: str, in_samples: bool) -> None:
    # Keras 2.0.8 warns about the steps' meaning for nb_epoch alone too; only samples_per_epoch,
    # nb_val_samples or val_samples in the call's line (printed under the warning) make the steps wrong
    run = _ran(legacy_python("keras208_th09"), FIT_GENERATOR.format(keywords), tmp_path)
    assert run.returncode == 0 and "is not the same as the Keras 1 argument `samples_per_epoch`" in run.stderr
    explained = explain_text(run.stderr)
    assert ("keras1-generator-steps-semantics", "medium" if in_samples else "low") in [
        (f.cause, f.confidence) for f in explained.findings]
    # named with confidence: the steps' meaning, or else only the harmless conversion
    assert [f.cause for f in explained.recognised][:1] == [
        "keras1-generator-steps-semantics" if in_samples else "keras2-converts-keras1-call"]


# the warning's own line shows no keyword (as in a notebook, where it shows ipykernel's line); no epoch
# is run (the warning comes first); an iterator object, given Keras' batch_size or not
FIT_WRAPPED = (ONE_DENSE + "class Batches(object):\n    def __iter__(self):\n        return self\n"
               "    def __next__(self):\n        return np.zeros((4, 2)), np.zeros((4, 1))\n    next = __next__\n"
               "batches = Batches()\n{sized}\n"
               "def fit(**kw):\n    return model.fit_generator(batches, verbose=0, **kw)\n"
               "fit({keywords}, nb_epoch=0)\n")


@pytest.mark.parametrize(("release", "keywords", "sized", "first"), [
    # Keras 2.0.5 keeps samples_per_epoch as the steps of an iterator without batch_size, and warns
    ("Keras==2.0.5", "samples_per_epoch=3", "", "keras1-generator-steps-semantics"),
    # it divides by the batch_size of one that has it, and says nothing
    ("Keras==2.0.5", "samples_per_epoch=3", "batches.batch_size = 4", None),
    # Keras 2.0.8 warns for nb_epoch alone too: without the call's keywords only the conversion is named
    ((), "steps_per_epoch=3", "", "keras2-converts-keras1-call"),
])
def test_keras20_steps_warning_is_samples_kept_as_steps(legacy_python: Callable[[str], str], theano_home: Path,
                                                        tmp_path: Path, release: str | tuple[()], keywords: str,
                                                        sized: str, first: str | None) -> None:
    python = legacy_python("keras208_th09")
    path = in_front(python, release) if release else {}
    run = _ran(python, FIT_WRAPPED.format(sized=sized, keywords=keywords), tmp_path, path)
    assert run.returncode == 0 and "samples_per_epoch=" not in run.stderr, run.stderr
    assert ("is not the same as the Keras 1 argument `samples_per_epoch`" in run.stderr) is bool(first)
    assert ("Basically" in run.stderr) is (not release)
    found = [f.cause for f in explain_text(run.stderr).recognised]
    assert found[:1] == [first] if first else "keras1-generator-steps-semantics" not in found


# a keras.preprocessing.image.Iterator written for Keras 2.0: its batches come from next()
ITERATOR_KERAS20 = (ONE_DENSE + "from keras.preprocessing.image import Iterator\n\n"
                    "class Batches(Iterator):\n    def __init__(self):\n"
                    "        super(Batches, self).__init__(8, 4, False, None)\n\n"
                    "    def next(self):\n        return np.zeros((4, 2)), np.zeros((4, 1))\n\n"
                    "model.fit_generator(Batches(), steps_per_epoch=2, epochs=1, verbose=0)\n")


@pytest.mark.parametrize("keras", ["keras==2.1.3", "keras==2.0.8"])
def test_a_keras20_iterator_subclass_on_keras21_python2(legacy_python: Callable[[str], str], theano_home: Path,
                                                        tmp_path: Path, keras: str) -> None:
    # Keras 2.1 reads the Iterator as a Sequence and hides the NotImplementedError as a bare StopIteration
    python = legacy_python("theano082_py27")
    releases = in_front(python, keras, "PyYAML==5.3.1")
    run = _ran(python, ITERATOR_KERAS20, tmp_path, {**releases, "THEANO_FLAGS": "cxx="})
    if keras.endswith("2.0.8"):  # the release the code was written for runs it
        assert run.returncode == 0, run.stderr
        return
    log = run.stdout + run.stderr
    assert run.returncode != 0 and "six.raise_from(StopIteration(e), e)" in log, log
    assert log.rstrip().endswith("StopIteration"), log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("keras-version-mismatch", "medium")]
    assert "_get_batches_of_transformed_samples" in found[0].asks[0]
    # with no Python 2 shown, Python 3 would have printed the hidden error above it: only a hint
    tail = log[log.index("  File \"/"):].replace("python2.7", "pythonX")
    assert "python2" not in tail and explain_text(tail).recognised == ()


@pytest.mark.parametrize(("call", "refused"), [("mode=2, axis=1", True), ("mode=0, axis=1", False)])
def test_keras1_batchnorm_mode_on_keras2(legacy_python: Callable[[str], str], theano_home: Path,
                                         tmp_path: Path, call: str, refused: bool) -> None:
    code = f"from keras.layers import BatchNormalization\nBatchNormalization({call})\nraise SystemExit(3)\n"
    log = traceback_of(legacy_python("keras208_th09"), code, tmp_path, KERAS_THEANO)
    assert ("`mode=1` and `mode=2` are no longer supported" in log) is refused, log
    # mode 0 is converted, with the converter's warning only
    assert [f.cause for f in explain_text(log).recognised][:1] == [
        "keras-version-mismatch" if refused else "keras2-converts-keras1-call"]


@pytest.mark.parametrize(("env", "call"), [("keras122_th09", "to_categorical([1, 3], nb_classes=3)"),
                                         ("keras208_th09", "to_categorical([1, 3], num_classes=3)"),
                                         ("keras208_th09", "to_categorical([-4], num_classes=3)")])
def test_keras_to_categorical_of_a_label_beyond_its_classes(legacy_python: Callable[[str], str], theano_home: Path,
                                                            tmp_path: Path, env: str, call: str) -> None:
    log = traceback_of(legacy_python(env), f"from keras.utils.np_utils import to_categorical\n{call}\n", tmp_path,
                       KERAS_THEANO)
    assert "is out of bounds for axis 1 with size 3" in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found] == [("model-index-out-of-bounds", "medium")]
    # the same numpy error from the code's own indexing is only a hint
    own = traceback_of(legacy_python(env), "import numpy as np\nnp.zeros((2, 3))[[0, 1], [1, 3]] = 1\n", tmp_path)
    assert "is out of bounds for axis 1 with size 3" in own and explain_text(own).recognised == ()


def test_keras_1_2_0s_to_categorical_loop_of_a_label_beyond_its_classes(legacy_python: Callable[[str], str],
                                                                      theano_home: Path, tmp_path: Path) -> None:
    # Keras 1.2.0 and older write each one in a loop (`Y[i, y[i]] = 1.`), put in front of Keras 1.2.2
    python = legacy_python("keras122_th09")
    log = traceback_of(python, "from keras.utils.np_utils import to_categorical\nto_categorical([1, 3], 3)\n",
                       tmp_path, {**in_front(python, "keras==1.2.0"), **KERAS_THEANO})
    assert "Y[i, y[i]] = 1." in log and "is out of bounds for axis 1 with size 3" in log, log
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised] == [("model-index-out-of-bounds", "medium")]


def test_keras_1_epoch_past_samples_per_epoch(legacy_python: Callable[[str], str], theano_home: Path,
                                              tmp_path: Path) -> None:
    # 6 samples an epoch from batches of 4: the second batch runs the epoch to 8
    run = _ran(legacy_python("keras122_th09"), FIT_GENERATOR.format("samples_per_epoch=6, nb_epoch=1"), tmp_path)
    assert run.returncode == 0 and "Epoch comprised more than `samples_per_epoch` samples" in run.stderr
    found = explain_text(run.stderr).findings
    assert [(f.cause, f.confidence, f.warning) for f in found[:1]] == [
        ("keras1-samples-per-epoch-overrun", "medium", True)]
    # a multiple of the batch size: no warning, no finding
    fits = _ran(legacy_python("keras122_th09"), FIT_GENERATOR.format("samples_per_epoch=8, nb_epoch=1"), tmp_path)
    assert fits.returncode == 0 and "keras1-samples-per-epoch-overrun" not in {
        f.cause for f in explain_text(fits.stderr).findings}


@pytest.mark.parametrize("env", ["keras122_th09", "keras208_th09"])
def test_real_keras_function_called_with_one_array(legacy_python: Callable[[str], str], theano_home: Path,
                                                   tmp_path: Path, env: str) -> None:
    code = ("import numpy as np\nfrom keras import backend as K\nfrom keras.layers import Input\n"
            "x = Input(shape=(2,))\nf = K.function([x], [x * 2])\nf(np.zeros((1, 2)))\n")
    log = traceback_of(legacy_python(env), code, tmp_path, KERAS_THEANO)
    assert "assert isinstance(inputs, (list, tuple))" in log and log.rstrip().endswith("AssertionError"), log
    assert _found(log)[0] == ("model-function-inputs", "medium")
    # another assertion of Keras' is not this one
    other = log.replace("assert isinstance(inputs, (list, tuple))", "assert len(inputs) == len(self.inputs)")
    assert other != log and ("model-function-inputs", "medium") not in _found(other)


def test_real_keras_image_folder_missing(legacy_python: Callable[[str], str], theano_home: Path,
                                         tmp_path: Path) -> None:
    code = ("from keras.preprocessing.image import ImageDataGenerator\n"
            "ImageDataGenerator().flow_from_directory('data/train')\n")
    log = traceback_of(legacy_python("keras208_th09"), code, tmp_path, KERAS_THEANO)
    assert "No such file or directory: 'data/train'" in log
    assert _found(log)[0] == ("dataset-file-missing", "medium")
    # the same error under another call is not Keras' listing of the class folders
    other = log.replace("os.listdir(directory)", "open(directory)")
    assert other != log and ("dataset-file-missing", "medium") not in _found(other)


def test_real_keras_image_folder_empty(legacy_python: Callable[[str], str], theano_home: Path,
                                       tmp_path: Path) -> None:
    # Keras 1.2.2's image iterator of a folder without class subfolders: `Found 0 images`, then its batch
    # index modulo zero
    (tmp_path / "data" / "train").mkdir(parents=True)
    code = ("from keras.preprocessing.image import ImageDataGenerator\n"
            "next(ImageDataGenerator().flow_from_directory('data/train'))\n")
    log = traceback_of(legacy_python("keras122_th09"), code, tmp_path, KERAS_THEANO)
    assert "Found 0 images belonging to 0 classes." in log and "ZeroDivisionError" in log, log
    assert _found(log)[0] == ("dataset-file-missing", "medium")
    # a division by zero of the code's own is no empty folder
    own = traceback_of(legacy_python("keras122_th09"), "n = 0\nprint(7 % n)\n", tmp_path)
    assert ("dataset-file-missing", "medium") not in _found(own)


def test_real_sklearn_load_files_folder_missing(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    # real scikit-learn 0.20.4's load_files on a dataset folder not downloaded (the Udacity dog project)
    python = legacy_python("healthy37")
    code = "from sklearn.datasets import load_files\ndata = load_files('dogImages/train')\n"
    log = traceback_of(python, code, tmp_path, {"PYTHONPATH": str(legacy_envs.release(python, "scikit-learn==0.20.4"))})
    assert "in load_files" in log and "No such file or directory: 'dogImages/train'" in log
    assert _found(log)[0] == ("dataset-file-missing", "medium")
    # the same error of the code's own open() names no dataset folder
    own = traceback_of(python, "open('dogImages/train')\n", tmp_path)
    assert ("dataset-file-missing", "medium") not in _found(own)


def test_keras_image_iterators_count_shows_keras(legacy_python: Callable[[str], str], theano_home: Path,
                                                 tmp_path: Path) -> None:
    (tmp_path / "data" / "cats").mkdir(parents=True)
    (tmp_path / "data" / "cats" / "1.png").write_bytes(b"")
    code = ("from keras.preprocessing.image import ImageDataGenerator\n"
            "batches = ImageDataGenerator().flow_from_directory('data')\nprint(batches.nb_sample)\n")
    log = traceback_of(legacy_python("keras208_th09"), code, tmp_path, KERAS_THEANO)
    assert "Found 1 images belonging to 1 classes." in log and "'DirectoryIterator' object has no attribute" in log
    # the iterator's count names Keras where nothing else does (Keras' banner taken out)
    bare = "\n".join(line for line in log.splitlines() if "backend" not in line)
    assert "keras" not in bare.lower()
    assert _found(bare)[0] == ("keras-version-mismatch", "medium")
    unnamed = bare.replace("Found 1 images belonging to 1 classes.", "")
    assert _found(unnamed)[0] == ("keras-version-mismatch", "low")


FIT_WITH_CALLBACKS = ("import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers import Dense\n"
                      "from keras.callbacks import ModelCheckpoint, EarlyStopping\n"
                      "model = Sequential([Dense(1, input_dim=2)])\nmodel.compile('sgd', 'mse')\n"
                      "model.fit(np.zeros((8, 2)), np.zeros((8, 1)), verbose=0, {epochs}=2, callbacks=["
                      "ModelCheckpoint('best.h5', save_best_only=True), EarlyStopping(monitor='val_acc')])\n")


def test_keras_callbacks_watching_a_quantity_fit_does_not_report(legacy_python: Callable[[str], str],
                                                                   theano_home: Path, tmp_path: Path) -> None:
    # real Keras 1.2.2 on Theano, fit without validation data: ModelCheckpoint warns and saves
    # nothing, then EarlyStopping warns and subtracts from the missing value
    keras1 = traceback_of(legacy_python("keras122_th09"), FIT_WITH_CALLBACKS.format(epochs="nb_epoch"), tmp_path,
                          KERAS_THEANO)
    assert "Can save best model only with val_loss available, skipping." in keras1, keras1
    assert "TypeError: unsupported operand type(s) for -: 'NoneType' and 'int'" in keras1, keras1
    assert _found(keras1)[0] == ("keras-monitor-metric-missing", "medium")
    assert not (tmp_path / "best.h5").exists()
    # real Keras 2.0.8: both callbacks warn and the run ends normally, a warning of the user's set-up
    run = subprocess.run([legacy_python("keras208_th09"), "-c", FIT_WITH_CALLBACKS.format(epochs="epochs")],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300,
                         env={**os.environ, **KERAS_THEANO}, check=True)
    assert "Early stopping conditioned on metric `val_acc` which is not available" in run.stderr, run.stderr
    found = explain_text(run.stderr).findings
    assert [(f.cause, f.confidence, f.warning) for f in found[:1]] == [("keras-monitor-metric-missing", "medium",
                                                                         True)]
    # Keras 1.2.2's ModelCheckpoint naming its file by a quantity the epoch does not report
    named = traceback_of(legacy_python("keras122_th09"), FIT_WITH_CALLBACKS.format(epochs="nb_epoch").replace(
        "'best.h5', save_best_only=True", "'w.{val_acc:.2f}.h5'"), tmp_path, KERAS_THEANO)
    assert "KeyError: 'val_acc'" in named, named
    assert _found(named)[0] == ("keras-monitor-metric-missing", "medium")
    # the same subtraction in other code is no callback's
    other = "    loss = total - self.offset\nTypeError: unsupported operand type(s) for -: 'NoneType' and 'float'\n"
    lookup = "    x = d['val_acc']\nKeyError: 'val_acc'\n"
    for text in (other, lookup):
        assert "keras-monitor-metric-missing" not in [f.cause for f in explain_text(text).findings]


@pytest.mark.parametrize(("env", "code", "message"), [
    ("keras208_th09", "from keras import losses\nlosses.get('focal_loss')", "Unknown loss function:focal_loss"),
    ("keras208_th09", "from keras import metrics\nmetrics.get('f1')", "Unknown metric function:f1"),
    ("keras122_th09", "from keras import objectives\nobjectives.get('focal_loss')", "Invalid objective: focal_loss"),
])
def test_a_saved_models_own_functions_not_given_to_keras(legacy_python: Callable[[str], str], theano_home: Path,
                                                         tmp_path: Path, env: str, code: str, message: str) -> None:
    # real Keras 2.0.8 and 1.2.2 looking up a name as load_model does for the stored loss and metrics
    log = traceback_of(legacy_python(env), code, tmp_path, KERAS_THEANO)
    assert message in log, log
    assert _found(log)[:1] == [("keras-custom-object-not-given", "medium")]
    # a layer of another Keras release is that release's matter
    assert _found("ValueError: Unknown layer: Merge\n")[:1] == [("keras-version-mismatch", "medium")]


def test_keras_0_refusing_saved_weights_of_another_model(legacy_python: Callable[[str], str], theano_home: Path,
                                                         tmp_path: Path) -> None:
    # real Keras 0.3.3 (put in front of the environment's own) given fewer weights than its layer has
    python = legacy_python("keras122_th09")
    code = ("import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers.core import Dense\n"
            "model = Sequential()\nmodel.add(Dense(2, input_dim=3))\nmodel.layers[0].set_weights([np.zeros((3, 2))])\n")
    log = traceback_of(python, code, tmp_path, {**in_front(python, "keras==0.3.3"), **KERAS_THEANO})
    assert "Provided weight array does not match layer weights (2 layer params vs. 1 provided weights)" in log, log
    assert _found(log)[:1] == [("keras-weights-model-mismatch", "medium")]
    # Keras 0.2-0.3.2's refusal of a kernel of another shape (keras/layers/core.py at 0.3.0:136)
    assert _found("Exception: Layer shape (128, 1, 6, 6) not compatible with weight shape (64, 1, 6, 6).\n")[:1] == [
        ("keras-weights-model-mismatch", "medium")]


def test_keras1_warns_of_the_keras0_time_distributed_dense(legacy_python: Callable[[str], str],
                                                           theano_home: Path, tmp_path: Path) -> None:
    run = _ran(legacy_python("keras122_th09"), "from keras.layers import TimeDistributedDense\n"
               "TimeDistributedDense(3, input_dim=4, input_length=5)\nprint('built')\n", tmp_path)
    assert run.returncode == 0 and "built" in run.stdout and "is deprecated" in run.stderr, run.stderr
    assert _found(run.stderr)[:1] == [("keras-version-mismatch", "medium")]


def _string_at(source: Path, line: int) -> str:
    """The message a `raise`/`warnings.warn` at ``line`` of a real source builds from its adjacent literals."""
    text = "".join(source.read_text(encoding="utf-8").splitlines(keepends=True)[line - 1:line + 8])
    call = text[:text.index(")") + 1]
    return "".join(ast.literal_eval(lit) for lit in re.findall(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", call))


def test_keras_graph_code_run_eagerly_on_tensorflow2(legacy_python: Callable[[str], str]) -> None:
    keras = legacy_envs.release(legacy_python("healthy37"), "keras==2.6.0") / "keras"
    symbolic = _string_at(keras / "engine" / "keras_tensor.py", 244)
    assert symbolic.startswith("Cannot convert a symbolic Keras input/output to a numpy array.")
    assert _found(f"TypeError: {symbolic}\n")[:1] == [("keras-version-mismatch", "medium")]
    lr = _string_at(keras / "optimizer_v2" / "optimizer_v2.py", 355)
    assert lr == "The `lr` argument is deprecated, use `learning_rate` instead."
    assert _found(f"optimizer_v2.py:355: UserWarning: {lr}\n  warnings.warn(\n")[:1] == \
        [("keras-version-mismatch", "medium")]
    # TensorFlow 2.3's own refusals (tensorflow/python/ops/gradients_util.py, python/eager/execute.py)
    for message in ("RuntimeError: tf.gradients is not supported when eager execution is enabled. Use "
                    "tf.GradientTape instead.",
                    "_SymbolicException: Inputs to eager execution function cannot be Keras symbolic tensors, but "
                    "found [<tf.Tensor 'dense_5/Identity:0' shape=(None, 2) dtype=float32>]"):
        assert _found(message + "\n")[:1] == [("keras-version-mismatch", "medium")]


def test_keras_11_on_a_later_tensorflow_1(legacy_python: Callable[[str], str]) -> None:
    # the real lines of Keras 1.1.0's and 1.1.2's TensorFlow backend, as a traceback quotes them, with the
    # message each TensorFlow that moved or renamed the call gives (0.11: `tf.python`; 1.0: `tf.pack`)
    python = legacy_python("healthy37")
    for release, line, message in [
            ("keras==1.1.0", 1304, "AttributeError: module 'tensorflow.python' has no attribute 'control_flow_ops'"),
            ("keras==1.1.0", 1304, "AttributeError: 'module' object has no attribute 'control_flow_ops'"),
            ("Keras==1.1.2", 718, "AttributeError: module 'tensorflow' has no attribute 'pack'")]:
        backend = legacy_envs.release(python, release) / "keras" / "backend" / "tensorflow_backend.py"
        code = backend.read_text(encoding="utf-8").splitlines()[line - 1]
        assert "tf.python.control_flow_ops" in code or "tf.pack(" in code
        log = (f'  File "/usr/local/lib/python2.7/dist-packages/keras/backend/tensorflow_backend.py", line {line}, '
               f"in in_train_phase\n{code}\n{message}\n")
        assert _found(log)[:1] == [("keras-too-old-for-tensorflow1", "medium")], log
    # the same name missing from the user's own TensorFlow code names no Keras
    own = "AttributeError: module 'tensorflow' has no attribute 'mul'\n"
    assert ("keras-too-old-for-tensorflow1", "medium") not in _found(own)


def test_keras2_converts_keras1_nb_words(legacy_python: Callable[[str], str], theano_home: Path,
                                         tmp_path: Path) -> None:
    run = _ran(legacy_python("keras208_th09"), "from keras.preprocessing.text import Tokenizer\n"
               "print(Tokenizer(nb_words=10).num_words)\n", tmp_path)
    assert run.returncode == 0 and run.stdout.strip() == "10", run.stderr
    assert "has been renamed `num_words`" in run.stderr
    assert _found(run.stderr)[:1] == [("keras2-converts-keras1-call", "medium")]


def test_a_keras_download_cut_off(legacy_python: Callable[[str], str]) -> None:
    # the frames of real Keras 2.0.8's get_file (keras/utils/data_utils.py) as IPython prints them, over
    # the socket error urlretrieve met; the same error of the code's own socket names no download
    utils = Path(printed(legacy_python("keras208_th09"), "import keras.utils.data_utils as d; print(d.__file__)",
                         **KERAS_THEANO).strip())
    call = utils.read_text(encoding="utf-8").splitlines()[219]
    assert "urlretrieve(origin, fpath, dl_progress)" in call
    error = "ConnectionResetError: [Errno 104] Connection reset by peer\n"
    log = (f"Downloading data from https://github.com/fchollet/deep-learning-models/releases/download/v0.1/"
           f"vgg16_weights_tf_dim_ordering_tf_kernels.h5\n{utils} in get_file(fname, origin, untar, md5_hash, "
           f"cache_subdir, hash_algorithm, extract, archive_format, cache_dir)\n--> 220{call[3:]}\n\n{error}")
    assert _found(log)[:1] == [("keras-download-failed", "medium")]
    assert ("keras-download-failed", "medium") not in _found('  File "client.py", line 3, in <module>\n'
                                                             "    sock.recv(1024)\n" + error)


# a custom layer giving add_weight its shape first (Keras 1.2 to 2.0.3's order, which 2.0.4 to 2.2.5 convert)
SHAPE_FIRST_LAYER = ("from keras.engine.topology import Layer\n"
                     "class Scale(Layer):\n"
                     "    def build(self, input_shape):\n"
                     "        self.W = self.add_weight((input_shape[-1],), initializer='one', name='W')\n"
                     "        self.built = True\n"
                     "    def call(self, x, mask=None):\n"
                     "        return x * self.W\n"
                     "model.add(Scale())\n")
KERAS_231 = ("keras==2.3.1", "keras_applications==1.0.8", "keras_preprocessing==1.1.0")


def test_a_layer_giving_add_weight_its_shape_first_on_keras_2_3(legacy_python: Callable[[str], str],
                                                                theano_home: Path, tmp_path: Path) -> None:
    """Real Keras 2.3.1 reading the shape as the name; real Keras 2.2.4 converting the same call."""
    python = legacy_python("keras208_th09")
    code = ONE_DENSE.replace("model.compile('sgd', 'mse')\n", SHAPE_FIRST_LAYER)
    log = _ran(python, code, tmp_path, in_front(python, *KERAS_231)).stderr
    assert "add_weight() got multiple values for argument 'name'" in log, log
    assert _found(log)[:1] == [("keras-version-mismatch", "medium")]
    assert _ran(python, code, tmp_path, in_front(python, *KERAS_224)).returncode == 0


def test_keras_1s_dim_ordering_given_to_keras_2s_image_functions(legacy_python: Callable[[str], str],
                                                                 theano_home: Path, tmp_path: Path) -> None:
    """Real Keras 2.0.8 given Keras 1's `dim_ordering` value; Keras 1.2.2 takes it."""
    code = ("import numpy as np\nfrom keras.preprocessing.image import img_to_array\n"
            "img_to_array(np.zeros((4, 4, 3)), 'default')\n")
    log = _ran(legacy_python("keras208_th09"), code, tmp_path).stderr
    assert "ValueError: ('Unknown data_format: ', 'default')" in log, log
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("keras-version-mismatch", "medium")]
    assert "`default` is a Keras 1 `dim_ordering` value" in found[0].evidence[-1].note
    assert _ran(legacy_python("keras122_th09"), code, tmp_path).returncode == 0
    # Keras 2's own values refused for another reason are not Keras 1's
    assert not _found("ValueError: ('Unknown data_format: ', 'channels_middle')\n")


def test_an_image_iterator_of_keras_2_0_8_on_a_later_keras(legacy_python: Callable[[str], str], theano_home: Path,
                                                           tmp_path: Path) -> None:
    """Keras 2.0.8's index generator yields three values, real Keras 2.2.4's the indices alone: code unpacking
    three fails there (the code line decides; the same message under another line is not named)."""
    python = legacy_python("keras208_th09")
    code = ("import numpy as np\nfrom keras.preprocessing.image import ImageDataGenerator, NumpyArrayIterator\n"
            "it = NumpyArrayIterator(np.zeros((8, 4, 4, 3)), np.zeros(8), ImageDataGenerator(), batch_size=4)\n"
            "index_array, current_index, current_batch_size = next(it.index_generator)\n")
    assert _ran(python, code, tmp_path).returncode == 0
    log = _ran(python, code, tmp_path, in_front(python, *KERAS_224)).stderr
    assert "ValueError: too many values to unpack (expected 3)" in log, log
    assert _found(log)[:1] == [("keras-version-mismatch", "medium")]
    assert not _found(log.replace("next(it.index_generator)", "next(it.batches)"))


def test_load_model_given_a_file_of_weights_only(legacy_python: Callable[[str], str], theano_home: Path,
                                                 tmp_path: Path) -> None:
    """Real Keras 2.0.8 refusing a file `save_weights` wrote; the file `save` wrote loads. An IPython frame
    printing the `raise` line around its arrow is not the exception."""
    python = legacy_python("keras208_th09")
    weights = ONE_DENSE + "model.save_weights('w.h5')\nfrom keras.models import load_model\nload_model('w.h5')\n"
    log = _ran(python, weights, tmp_path).stderr
    assert "ValueError: No model found in config file." in log, log
    assert _found(log)[:1] == [("keras-load-model-on-weights-file", "medium")]
    whole = ONE_DENSE + "model.save('m.h5')\nfrom keras.models import load_model\nload_model('m.h5')\n"
    assert _ran(python, whole, tmp_path).returncode == 0
    assert not _found("    236         if model_config is None:\n"
                      "--> 237             raise ValueError('No model found in config file.')\n")


def test_a_saved_models_own_layer_not_given_to_keras(legacy_python: Callable[[str], str], theano_home: Path,
                                                     tmp_path: Path) -> None:
    """Real Keras 2.0.8 rebuilding a model whose layer is the code's own: custom_objects; a layer Keras 1 had
    (`Merge`) stays the release tables' (another Keras), and so does a model TensorFlow 2's Keras saved."""
    python = legacy_python("keras208_th09")
    layer = SHAPE_FIRST_LAYER.replace("add_weight((", "add_weight(shape=(")
    code = (ONE_DENSE.replace("model.compile('sgd', 'mse')\n", layer)
            + "from keras.models import model_from_json\nmodel_from_json(model.to_json())\n")
    log = _ran(python, code, tmp_path).stderr
    assert "ValueError: Unknown layer: Scale" in log, log
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("keras-custom-object-not-given", "medium")]
    assert "custom_objects={'Scale': Scale}" in found[0].details[0]
    assert _found("ValueError: Unknown layer: Merge\n")[:1] == [("keras-version-mismatch", "medium")]
    assert not _found("ValueError: Unknown layer: Functional\n")


def test_an_optimizer_of_keras_2_0_6_on_a_later_keras(legacy_python: Callable[[str], str], theano_home: Path,
                                                      tmp_path: Path) -> None:
    """An optimizer defining Keras 1 to 2.0.6's get_updates(params, constraints, loss): real Keras 2.0.6
    trains with it, real Keras 2.0.8 calls it with loss= and params= and fails; and the reverse."""
    python = legacy_python("keras208_th09")
    code = ONE_DENSE.replace("model.compile('sgd', 'mse')\n", (
        "from keras.optimizers import Optimizer\nimport keras.backend as K\n"
        "class Plain(Optimizer):\n"
        "    def get_updates(self, params, constraints, loss):\n"
        "        return [K.update_sub(p, 0.01 * g) for p, g in zip(params, self.get_gradients(loss, params))]\n"
        "model.compile(Plain(), 'mse')\nmodel.fit(np.zeros((4, 2)), np.zeros((4, 1)), verbose=0)\n"))
    log = _ran(python, code, tmp_path).stderr
    assert "get_updates() missing 1 required positional argument: 'constraints'" in log, log
    assert _found(log)[:1] == [("keras-version-mismatch", "medium")]
    old = _ran(python, code, tmp_path, in_front(python, "keras==2.0.6"))
    assert old.returncode == 0, old.stderr
    # the other way: Keras 2.0.7's get_updates(loss, params) on Keras 2.0.6, which passes three arguments
    newer = code.replace("def get_updates(self, params, constraints, loss):", "def get_updates(self, loss, params):")
    log = _ran(python, newer, tmp_path, in_front(python, "keras==2.0.6")).stderr
    assert "get_updates() takes 3 positional arguments but 4 were given" in log, log
    assert _found(log)[:1] == [("keras-version-mismatch", "medium")]
    assert _ran(python, newer, tmp_path).returncode == 0


def test_a_metric_of_keras_1_on_keras_2(legacy_python: Callable[[str], str], theano_home: Path,
                                        tmp_path: Path) -> None:
    """Real Keras 2.0.8 refusing Keras 1.2's `precision` metric, which real Keras 1.2.2 compiles: another
    release's metric, not one to give in custom_objects (as Keras 1.0.0's refusal of `mae` is)."""
    code = ONE_DENSE.replace("model.compile('sgd', 'mse')\n", "model.compile('sgd', 'mse', metrics=['precision'])\n")
    log = _ran(legacy_python("keras208_th09"), code, tmp_path).stderr
    assert "Unknown metric function:precision" in log, log
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("keras-version-mismatch", "medium")]
    assert _ran(legacy_python("keras122_th09"), code, tmp_path).returncode == 0
    assert _found("Exception: Invalid metric: mean_absolute_error\n")[:1] == [("keras-version-mismatch", "medium")]
    assert _found("ValueError: Unknown metric function:f1_score\n")[:1] == [("keras-custom-object-not-given", "medium")]


def test_keras_backends_tensorflow_module_of_keras_2_2(legacy_python: Callable[[str], str], theano_home: Path,
                                                       tmp_path: Path) -> None:
    """`K.tf` missing: Keras 2.2.5 and later (Python 3's wording, and Python 2's under the code line), not where
    real Keras 2.2.4 says it runs on Theano, whose backend never had it."""
    py3 = "AttributeError: module 'keras.backend' has no attribute 'tf'\n"
    assert _found(py3) == [("keras-version-mismatch", "medium")]
    py2 = ("  File \"kutils/model_helper.py\", line 4, in <module>\n    tf = K.tf\n"
           "AttributeError: 'module' object has no attribute 'tf'\n")
    assert _found(py2)[:1] == [("keras-version-mismatch", "medium")]
    assert not _found(py2.replace("K.tf", "self.tf"))
    python = legacy_python("keras208_th09")
    log = traceback_of(python, "import keras.backend as K\ntf = K.tf\n", tmp_path,
                       {**in_front(python, *KERAS_224), **KERAS_THEANO})
    assert "Using Theano backend." in log and "has no attribute 'tf'" in log, log
    assert ("keras-version-mismatch", "medium") not in _found(log)


# a model of a layer class of the code's own, rebuilt from its JSON (Keras 0.3 to 1.2 word the refusal
# `Invalid layer: X`; Keras 2 `Unknown layer: X`)
OWN_LAYER_JSON = ("from keras.models import Sequential, model_from_json\nfrom keras.layers import Dense\n"
                  "class Scale(Dense):\n    pass\n"
                  "model = Sequential([Scale(1, input_dim=2)])\nmodel_from_json(model.to_json())\n")


def test_keras1_rebuilding_a_model_whose_own_layer_it_was_not_given(legacy_python: Callable[[str], str],
                                                                    theano_home: Path, tmp_path: Path) -> None:
    python = legacy_python("keras122_th09")
    log = traceback_of(python, OWN_LAYER_JSON, tmp_path, KERAS_THEANO)
    assert "ValueError: Invalid layer: Scale" in log, log
    assert _found(log)[:1] == [("keras-custom-object-not-given", "medium")]
    given = "model_from_json(model.to_json(), custom_objects={'Scale': Scale})"
    assert _ran(python, OWN_LAYER_JSON.replace("model_from_json(model.to_json())", given), tmp_path).returncode == 0
    # a traceback whose call gives the class in custom_objects is not read as one that did not: the
    # log contradicts that remedy (the thread that showed it had another cause)
    shown = log.replace("model_from_json(model.to_json())", given)
    assert shown != log and "keras-custom-object-not-given" not in [c for c, _ in _found(shown)]


FUNCTIONAL_PREDICT = ("import numpy as np\nfrom keras.layers import Input, Dense\nfrom keras.models import Model\n"
                      "x = Input((2,))\nmodel = Model(x, Dense(3, activation='softmax')(x))\n"
                      "print(model.predict_classes(np.zeros((1, 2)), verbose=0))\n")


def test_a_functional_model_asked_for_the_classes_only_sequential_predicts(legacy_python: Callable[[str], str],
                                                                           theano_home: Path, tmp_path: Path) -> None:
    """Real Keras 2.0.8: a functional Model has no predict_classes, its Sequential has. The attribute
    table's `Model` of Keras 0.1 (keras.models) is another class, which the message does not mean."""
    python = legacy_python("keras208_th09")
    log = traceback_of(python, FUNCTIONAL_PREDICT, tmp_path, KERAS_THEANO)
    assert "AttributeError: 'Model' object has no attribute 'predict_classes'" in log, log
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("keras-predict-classes-of-functional-model", "medium")]
    assert not any("api-era" in f.signatures for f in found)
    sequential = FUNCTIONAL_PREDICT.replace("from keras.models import Model", "from keras.models import Sequential") \
        .replace("x = Input((2,))\nmodel = Model(x, Dense(3, activation='softmax')(x))",
                 "model = Sequential([Dense(3, activation='softmax', input_dim=2)])")
    assert _ran(python, sequential, tmp_path).returncode == 0


# Keras 2.0.8's TensorFlow backend (keras/backend/tensorflow_backend.py:990), as a custom attention layer
# meets it; no TensorFlow runs here, so the traceback is that file's code as Python prints it
TF_DOT = ('  File "/home/u/att.py", line 66, in call\n    eij = K.tanh(K.dot(x, self.W))\n'
          '  File "/usr/lib/python3.5/site-packages/keras/backend/tensorflow_backend.py", line 990, in dot\n'
          "    y_permute_dim = [y_permute_dim.pop(-2)] + y_permute_dim\nIndexError: pop index out of range\n")


def test_keras_dot_of_a_tensor_and_a_vector(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    # the Theano backend computes it (real Keras 2.0.8 on Theano 0.9)
    code = ("import numpy as np\nfrom keras import backend as K\nx = K.placeholder(ndim=3)\n"
            "w = K.variable(np.ones(4))\nf = K.function([x], [K.dot(x, w)])\n"
            "print(f([np.ones((2, 3, 4), dtype='float32')])[0].shape)\n")
    assert printed(legacy_python("keras208_th09"), code, KERAS_BACKEND="theano").strip().endswith("(2, 3)")
    assert _found(TF_DOT)[:1] == [("keras-backend-tensorflow", "medium")]
    # the same IndexError under another line is no matter of the backend
    assert not _found(TF_DOT.replace("y_permute_dim = [y_permute_dim.pop(-2)] + y_permute_dim", "stack.pop(-2)"))


# Keras 2.0.8's TensorFlow backend asking a list for its shape (keras/backend/tensorflow_backend.py:544)
TF_LIST = ('  File "/home/u/training.py", line 684, in compile\n'
           "    total_loss = K.sum(K.dot(self.holder, self.metrics_tensors))\n"
           '  File "/usr/lib/python2.7/site-packages/keras/backend/tensorflow_backend.py", line 790, in dot\n'
           "    if ndim(x) is not None and (ndim(x) > 2 or ndim(y) > 2):\n"
           '  File "/usr/lib/python2.7/site-packages/keras/backend/tensorflow_backend.py", line 544, in ndim\n'
           "    dims = x.get_shape()._dims\nAttributeError: 'list' object has no attribute 'get_shape'\n")


def test_keras_dot_given_a_list(legacy_python: Callable[[str], str], theano_home: Path) -> None:
    # the Theano backend stacks the list (real Keras 2.0.8 on Theano 0.9)
    code = ("import numpy as np\nfrom keras import backend as K\nw = K.variable(np.ones((1, 3)))\n"
            "print(K.eval(K.dot(w, [K.variable(1.0), K.variable(2.0), K.variable(3.0)])).tolist())\n")
    assert printed(legacy_python("keras208_th09"), code, KERAS_BACKEND="theano").strip().endswith("[6.0]")
    assert _found(TF_LIST)[:1] == [("keras-backend-tensorflow", "medium")]
    # the message alone names no backend: nothing said with confidence
    assert all(level == "low" for _, level in _found(TF_LIST.splitlines()[-1] + "\n"))
