"""What `explain` reads from shapes and flags: a convolution kernel larger than the image axis it
runs over (real Theano 0.9 and 1.0.5), a Keras kernel laid out for the other image ordering
(Keras 2.0.8 keras/engine/topology.py:1197's message), and a GPU left idle with the old back-end's
flags leaving floatX at float64 (the flags read as a fact, explain/context.py)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.legacy_envs import ensure_env, env_python
from theanodoctor.explain import explain_text

CONV = ("import numpy as np, theano, theano.tensor as T\nx = T.tensor4(); w = T.tensor4()\n"
        "f = theano.function([x, w], T.nnet.conv2d(x, w))\n"
        "f(np.zeros((1, 1, 3, 510), dtype=theano.config.floatX), np.zeros((1, 1, 7, 3), dtype=theano.config.floatX))\n")


def _first(text: str) -> tuple[str, str] | None:
    found = explain_text(text).findings
    return (found[0].cause, found[0].confidence) if found else None


@pytest.mark.parametrize("env", ["theano090_py36", "healthy37"])
def test_a_kernel_larger_than_the_image_under_keras(env: str, tmp_path: Path) -> None:
    script = tmp_path / "conv.py"
    script.write_text(CONV, encoding="utf-8")
    run = subprocess.run([str(env_python(ensure_env(env))), "-W", "ignore", str(script)], capture_output=True,
                         text=True, timeout=600, cwd=tmp_path)
    log = run.stdout + run.stderr
    assert "ValueError: CorrMM: impossible output shape" in log
    # Keras' banner: channels read as rows is the usual way there; without Keras, the user's own graph
    assert _first("Using Theano backend.\n" + log) == ("keras-image-ordering", "medium")
    assert ("keras-image-ordering", "medium") not in [(f.cause, f.confidence) for f in explain_text(log).findings]


@pytest.mark.parametrize(("layer", "saved"), [("(3, 3, 224, 64)", "(64, 3, 3, 3)"),  # channels last, given first
                                              ("(64L, 3L, 3L, 3L)", "(3L, 3L, 3L, 64L)"),  # Python 2's longs
                                              ("(3,3,640,64)", "(64,3,3,3)")])  # retyped in a post
def test_a_keras_kernel_laid_out_for_the_other_ordering(layer: str, saved: str) -> None:
    message = f"ValueError: Layer weight shape {layer} not compatible with provided weight shape {saved}\n"
    message = message.replace("shape (3,3", "shape(3,3")  # and without the space
    assert _first("Using Theano backend.\n" + message) == ("keras-image-ordering", "medium")


def test_channels_last_images_read_as_channels_first_under_tensorflow() -> None:
    # TensorFlow's Conv2D shape inference for input_shape=(160, 320, 3) under Keras' 'th' ordering:
    # 160 taken for the channels, so the 3 channels stand where the width should
    message = ("Negative dimension size caused by subtracting 5 from 3 for 'Conv2D' (op: 'Conv2D') with input "
               "shapes: [?,320,3,160], [5,5,160,6].\n")
    assert _first(message) == ("keras-image-ordering", "medium")
    # a small image that is really that small (channels last, the width 3) is no ordering matter
    assert _first(message.replace("[?,320,3,160]", "[?,320,160,3]")) != ("keras-image-ordering", "medium")


def test_a_keras_kernel_of_another_size_is_no_ordering_matter() -> None:
    message = "ValueError: Layer weight shape (64, 3, 3, 3) not compatible with provided weight shape (32, 3, 3, 3)\n"
    assert _first(message) is None


def _shown(text: str) -> dict[str, str]:
    return {f.name: f.value for f in explain_text(text).shown}


def test_the_flags_give_floatx() -> None:
    assert _shown("$ THEANO_FLAGS=device=gpu0 python train.py\n")["floatx"] == "unset"
    assert _shown("THEANO_FLAGS='device=gpu,floatX=float32' python train.py\n")["floatx"] == "float32"
    assert _shown("[global]\nfloatX = float64\ndevice = gpu\n")["floatx"] == "float64"
    # the new back-end runs float64 on the GPU too: its device says nothing of floatX
    assert "floatx" not in _shown("THEANO_FLAGS=device=cuda0 python train.py\n")
    # two settings shown decide nothing
    assert "floatx" not in _shown("THEANO_FLAGS=device=gpu python a.py\nfloatX = float32\n")


IDLE = "I observe that the gpu is mostly idle during training, nvidia-smi shows 0%.\n"


def test_a_gpu_left_idle_with_the_old_back_ends_flags_names_floatx() -> None:
    found = explain_text("$ THEANO_FLAGS=device=gpu python train.py\n" + IDLE).findings[0]
    assert (found.cause, found.confidence) == ("floatx-not-float32-on-old-gpu", "medium")
    assert "flags that set device=gpu and no floatX" in found.context[0]
    # floatX not shown: only a hint that asks for it
    alone = explain_text("Using gpu device 0: GRID K520\nthe computation clearly runs on CPU only\n").findings[0]
    assert (alone.cause, alone.confidence) == ("floatx-not-float32-on-old-gpu", "low") and alone.asks
    # floatX=float32 shown: the flags do not answer it
    assert _first("THEANO_FLAGS=device=gpu,floatX=float32 python train.py\n" + IDLE) != \
        ("floatx-not-float32-on-old-gpu", "medium")
    # a GPU at work is no complaint (only the old back-end's flag is a hint of its own)
    busy = explain_text("THEANO_FLAGS=device=gpu python train.py\nthe gpu is fast now\n").findings
    assert "floatx-not-float32-on-old-gpu" not in {f.cause for f in busy}


@pytest.mark.parametrize(("line", "attr"), [
    # Keras 1.2.2 keras/layers/core.py:794 (self.W); Keras 2.0.0 keras/layers/core.py:823 (self.kernel)
    ("AttributeError: 'Dense' object has no attribute 'W'", "W"),
    ("AttributeError: 'Convolution2D' object has no attribute 'b'", "b"),
    ("import keras\nAttributeError: 'Dense' object has no attribute 'kernel'", "kernel"),
])
def test_a_layers_weights_under_the_other_keras_names(line: str, attr: str) -> None:
    found = explain_text(line + "\n").findings[0]
    assert (found.cause, found.confidence) == ("keras-version-mismatch", "medium")
    assert f".{attr}`" in found.evidence[0].note and found.asks


def test_a_weight_attribute_of_another_object_is_no_keras_matter() -> None:
    assert _first("AttributeError: 'Model' object has no attribute 'W'\n") is None
    # no Keras in the log: another library's Dense may lack it, only a hint
    assert _first("AttributeError: 'Dense' object has no attribute 'kernel'\n") == ("keras-version-mismatch", "low")


def test_a_stack_size_error_after_keras_ordering_settings_is_the_image_ordering() -> None:
    # Theano's own CorrMM message under a post that speaks of Keras' `dim_ordering` setting only
    post = ("It could stack the two models after I added the `dim_ordering` flag, then fails:\n"
            "`ValueError: CorrMM images and kernel must have the same stack size`\n")
    found = [(f.cause, f.confidence) for f in explain_text(post).findings]
    assert found[:1] == [("keras-image-ordering", "medium")]
    # without any Keras word it is a shape error of the graph, named only as a hint
    plain = post.replace("the `dim_ordering` flag", "a reshape")
    assert ("keras-image-ordering", "medium") not in [(f.cause, f.confidence) for f in explain_text(plain).findings]


# Keras' Theano backend declares each convolution's kernel shape and dimshuffles the kernel (3, 2, 0, 1)
# on its way in (Keras 2.2.4 keras/backend/theano_backend.py:1911); a kernel value of another layout
# then fails Theano's check of the declared shape
KSHP = ("import numpy as np, theano, theano.tensor as T\nx = T.tensor4(); w = T.tensor4()\n"
        "k = w.dimshuffle(3, 2, 0, 1) if SHUFFLED else w\n"
        "f = theano.function([x, w], T.nnet.conv2d(x, k, filter_shape=(64, 3, 7, 7)))\n"
        "f(np.zeros((1, 3, 32, 32), dtype=theano.config.floatX), np.zeros((7, 7, 64, 3) if SHUFFLED else (3, 64, 7, 7),"
        " dtype=theano.config.floatX))\n")


@pytest.mark.parametrize("keras", [True, False])
def test_a_kernel_value_of_another_layout_than_declared(keras: bool, tmp_path: Path) -> None:
    script = tmp_path / "kshp.py"
    script.write_text(f"SHUFFLED = {keras}\n" + KSHP, encoding="utf-8")
    # (Theano checks the declared shapes only under conv.assert_shape, theano/tensor/nnet/abstract_conv.py:550)
    run = subprocess.run([str(env_python(ensure_env("healthy37"))), "-W", "ignore", str(script)],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path,
                         env={**os.environ, "THEANO_FLAGS": "conv.assert_shape=True"})
    log = run.stdout + run.stderr
    assert "shape of filters does not match given kshp" in log, log[-2000:]
    # Keras' dimshuffle of the kernel in the apply node: weights laid out for the other image ordering;
    # the same check in a graph of the code's own is only a hint
    assert _first(log) == ("keras-image-ordering", "medium" if keras else "low")


def test_keras_2s_warning_about_a_keras_1_call_marks_channels_first_code() -> None:
    # Keras 2.0.0 keras/legacy/interfaces.py (the warning); TensorFlow's shape inference: a pooling
    # layer deep in the network meets a size of 1 (channels first read as channels last)
    failure = ("ValueError: Negative dimension size caused by subtracting 2 from 1 for 'max_pooling2d_7/MaxPool' "
               "(op: 'MaxPool') with input shapes: [1,1,64,128].\n")
    warning = ("__main__.py:14: UserWarning: Update your `Conv2D` call to the Keras 2 API: "
               "`Conv2D(64, (3, 3), activation=\"relu\", name=\"conv1_1\")`\n")
    assert _first(warning + failure) == ("keras-image-ordering", "medium")
    assert _first(failure) == ("keras-image-ordering", "low")


@pytest.mark.parametrize(("message", "first"), [
    # TensorFlow's first op of its kind has no suffix: the network's first layer, on one channel read as a width
    ("Negative dimension size caused by subtracting 3 from 1 for 'Conv2D'", ("keras-image-ordering", "medium")),
    ("ValueError: Negative dimension size caused by subtracting 2 from 1 for 'MaxPool' (op: 'MaxPool') with input "
     "shapes: [?,1,14,32].", ("keras-image-ordering", "medium")),
    # a later op of the kind (`Conv2D_3`) may be an image shrunk by the layers before it
    ("Negative dimension size caused by subtracting 3 from 1 for 'Conv2D_3'", None),
])
def test_a_size_of_one_in_the_first_op_of_its_kind(message: str, first: tuple[str, str] | None) -> None:
    assert _first(message + "\n") == first


def test_keras_1s_positional_kernel_sizes_beside_keras_2_keywords() -> None:
    # Keras 2.0.0 keras/legacy/interfaces.py:264
    text = ("ValueError: It seems that you are using the Keras 2 and you are passing both `kernel_size` and "
            "`strides` as integer positional arguments. For safety reasons, this is disallowed. Pass `strides` "
            "as a keyword argument instead.\n")
    assert _first(text) == ("keras-version-mismatch", "medium")
