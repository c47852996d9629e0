"""`explain` on the mistakes made while building a model with Keras (1.2.2 and 2.0.8 on Theano) and
Theano's graph (1.0.5): each log is what the real release prints for a few lines of code that make
the mistake, run here; the cause is the code's, and the note or remedy says what to change."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.explain_tables import KERAS_THEANO, assert_sourced, first_cause, traceback_of
from theanodoctor.explain import explain_text
from theanodoctor.explain.pyera import shown_code

THEANO_PYTHON = {"THEANO_FLAGS": "cxx="}  # the Python implementations raise the same errors

# (environment, code, the line the release prints, the cause named first)
CASES = [
    # an Embedding's mask reaching a layer without supports_masking (Keras 2.0.8 engine/topology.py)
    ("keras208_th09", "from keras.models import Sequential\nfrom keras.layers import Embedding, Conv1D\n"
     "Sequential([Embedding(10, 3, input_length=5, mask_zero=True), Conv1D(2, 3)])\n",
     "Layer conv1d_1 does not support masking", "keras-layer-does-not-support-masking"),
    # a second LSTM after one that returns its last output only (Keras 2's and Keras 1's input_spec check)
    ("keras208_th09", "from keras.models import Sequential\nfrom keras.layers import LSTM\n"
     "Sequential([LSTM(4, input_shape=(3, 2)), LSTM(4)])\n",
     "incompatible with layer lstm_2: expected ndim=3, found ndim=2", "keras-rnn-input-not-3d"),
    ("keras122_th09", "from keras.models import Sequential\nfrom keras.layers import Dense, LSTM\n"
     "Sequential([Dense(4, input_dim=3), LSTM(4)])\n",
     "incompatible with layer lstm_1: expected ndim=3, found ndim=2", "keras-rnn-input-not-3d"),
    # a layer called on a layer object
    ("keras208_th09", "from keras.layers import Embedding, SpatialDropout1D\nSpatialDropout1D(0.2)(Embedding(10, 3))\n",
     "Received type: <class 'keras.layers.embeddings.Embedding'>", "keras-layer-called-on-layer-object"),
    # pad_sequences given a generator
    ("keras208_th09", "from keras.preprocessing.sequence import pad_sequences\npad_sequences(iter([[1, 2], [3]]))\n",
     "`sequences` must be iterable.", "keras-sequences-not-a-list"),
    # a custom layer of Keras 0.x (build without the input shape) under Keras 1.2.2
    ("keras122_th09", "from keras.engine.topology import Layer\nfrom keras.models import Sequential\n"
     "class Old(Layer):\n    def build(self):\n        pass\nSequential([Old(input_shape=(3,))])\n",
     "build() takes 1 positional argument but 2 were given", "keras-version-mismatch"),
    # Keras 1's pooling given an int window
    ("keras122_th09", "from keras.layers import MaxPooling2D\nMaxPooling2D(2)\n",
     "TypeError: 'int' object is not iterable", "keras1-pool-size-not-a-tuple"),
    # Keras 1's Merge class given tensors
    ("keras122_th09", "from keras.layers import Input, Merge\n"
     "Merge([Input(shape=(3,)), Input(shape=(3,))], mode='concat')\n",
     "'TensorVariable' object has no attribute 'get_output_shape_at'", "keras-merge-layer-given-tensor"),
    # as_op given dtypes for its types
    ("healthy37", "from theano.compile.ops import as_op\n@as_op(itypes=['float64'], otypes=['float64'])\n"
     "def f(x):\n    return x\n", "itypes has to be a list of Theano types", "theano-as-op-itypes-not-types"),
    # a shared variable's test value
    ("healthy37", "import numpy, theano\nx = theano.shared(numpy.zeros(3))\nx.tag.test_value\n",
     "'scratchpad' object has no attribute 'test_value'", "theano-variable-has-no-test-value"),
    # the old ConvOp given a padding tuple
    ("healthy37", "import theano.tensor as T\nfrom theano.tensor.nnet import conv\n"
     "conv.conv2d(T.tensor4(), T.tensor4(), border_mode=(1, 1))\n",
     "Exception: Mode (1, 1) not implemented", "theano-old-conv2d-border-mode"),
    # one draw of 2**32 numbers from the MRG generator (its Python implementation's message)
    ("healthy37", "import theano\nfrom theano.sandbox.rng_mrg import MRG_RandomStreams\n"
     "theano.function([], MRG_RandomStreams(1).uniform((2 ** 16, 2 ** 16)))()\n",
     "does not support more then (2**31 -1) samples", "mrg-rng-sample-count-over-int32"),
]


@pytest.mark.parametrize(("env", "code", "printed", "cause"), CASES, ids=[f"{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_a_real_mistake_names_its_cause(env: str, code: str, printed: str, cause: str,
                                        legacy_python: Callable[[str], str], theano_home: Path,
                                        tmp_path: Path) -> None:
    log = traceback_of(legacy_python(env), code, tmp_path, KERAS_THEANO if env.startswith("keras") else THEANO_PYTHON)
    assert printed in log
    found = explain_text(log).recognised
    assert [f.cause for f in found][:1] == [cause] and found[0].confidence == "medium"
    assert_sourced([(log, cause)])


def test_other_ranks_tensorflow_tensors_and_other_sizes_are_other_matters() -> None:
    # a layer of 4 dimensions given to a recurrent layer is no missing time axis; a TensorFlow tensor
    # refused by Keras (tf.keras mixed with keras) is no layer object; a batch differing in another axis
    # than the first is no fixed batch size
    texts = ["ValueError: Input 0 is incompatible with layer lstm_1: expected ndim=3, found ndim=4\n",
             "ValueError: Layer dense_1 was called with an input that isn't a symbolic tensor. Received type: "
             "<class 'tensorflow.python.framework.ops.Tensor'>.\n",
             "ValueError: Cannot feed value of shape (75, 3000) for Tensor 'input_1:0', which has shape "
             "'(500, 2000)'\n"]
    for text in texts:
        causes = [f.cause for f in explain_text(text).recognised]
        assert not {"keras-rnn-input-not-3d", "keras-layer-called-on-layer-object",
                    "keras-fixed-batch-size-data-not-multiple"} & set(causes), text


def test_the_last_batch_of_a_fixed_batch_size_is_named_with_both_sizes() -> None:
    text = ("ValueError: Cannot feed value of shape (75, 3000) for Tensor u'input_15:0', which has shape "
            "'(500, 3000)'\n")
    finding = explain_text(text).recognised[0]
    assert finding.cause == "keras-fixed-batch-size-data-not-multiple"
    notes = " ".join(e.note for e in finding.evidence)
    assert "a batch of 75 fed to an input built for batches of exactly 500" in notes


PASTES = [
    # TensorFlow's session refuses to feed and fetch one tensor (keras-vis' released optimizer)
    ("InvalidArgumentError: conv2d_1_input_1:0 is both fed and fetched.\n", "tf-tensor-fed-and-fetched"),
    # Keras 2.2.4 keras/engine/base_layer.py:769-790: a pretrained model wrapped in another
    ("AttributeError: Layer vgg16 has multiple inbound nodes, hence the notion of \"layer input\" is ill-defined. "
     "Use `get_input_at(node_index)` instead.\n", "keras-layer-multiple-inbound-nodes"),
    # Keras 2.2.4 keras/layers/core.py:442: Permute((2, 1)) builds for 3-D input
    ("ValueError: Input 0 is incompatible with layer permute_1: expected ndim=3, found ndim=4\n",
     "keras-permute-dims-incomplete"),
    # keras-vis' apply_modifications saving to /tmp on Windows
    ("  File \"c:\\anaconda3\\lib\\site-packages\\vis\\utils\\utils.py\", line 126, in apply_modifications\n"
     "    os.remove(model_path)\n\nFileNotFoundError: [WinError 3] The system cannot find the path specified: "
     "'/tmp/ogx5lb2o.h5'\n", "unix-tmp-path-on-windows"),
    # Keras 2.2.4 keras/engine/training.py:484-492 (2.0.9 and later), the warning of a GAN's frozen discriminator
    ("/usr/lib/python3.6/site-packages/keras/engine/training.py:490: UserWarning: Discrepancy between trainable "
     "weights and collected trainable weights, did you set `model.trainable` without calling `model.compile` "
     "after ?\n  'Discrepancy between trainable weights and collected trainable'\n",
     "keras-trainable-changed-after-compile"),
    # Keras 0.3.3 keras/layers/core.py:137: a layer taking sequences after one of 2-D output
    ("AssertionError: Incompatible shapes: layer expected input with ndim=3 but previous layer has output_shape "
     "(None, 520)\n", "keras-rnn-input-not-3d"),
    # Keras 2.2.4 keras/utils/vis_utils.py:64 given the file name as the model
    ('  File "/usr/lib/python3.6/site-packages/keras/utils/vis_utils.py", line 64, in model_to_dot\n'
     "    layers = model.layers\nAttributeError: 'str' object has no attribute 'layers'\n",
     "keras-plot-model-arguments-swapped"),
    # a custom layer of the code's (its own name) given the mask of an Embedding (Keras 2.2.4 base_layer.py:614)
    ("TypeError: Layer attention_layer1 does not support masking, but was passed an input_mask: "
     "Tensor(\"embeddings/NotEqual:0\", shape=(?, 750), dtype=bool)\n", "keras-layer-does-not-support-masking"),
]


@pytest.mark.parametrize(("text", "cause"), PASTES, ids=[c for _, c in PASTES])
def test_a_pasted_keras_message_names_its_cause(text: str, cause: str) -> None:
    assert first_cause(text) == [cause]
    assert_sourced([(text, cause)])


def test_the_blank_line_spyders_console_prints_after_a_frame_keeps_its_code_line() -> None:
    # Spyder and IPython's console print a blank line after each frame of a plain traceback
    lines = ["  File \"C:\\python\\lib\\site-packages\\keras\\layers\\convolutional.py\", line 691, in __init__",
             "    self.pool_size = tuple(pool_size)", "", "TypeError: 'int' object is not iterable"]
    assert shown_code(lines, 3) == "self.pool_size = tuple(pool_size)"
    assert [f.cause for f in explain_text("\n".join(lines) + "\n").recognised] == ["keras1-pool-size-not-a-tuple"]
    # two blank lines, or a line of prose, are no longer one traceback
    assert shown_code(lines[:2] + ["", ""] + lines[3:], 4) is None
    assert shown_code(lines[:2] + ["That fails:"] + lines[3:], 3) is None
