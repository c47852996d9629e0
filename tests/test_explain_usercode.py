"""Errors of the user's own model code or data, told apart from set-up problems: the texts that
real Theano 1.0.5 raises for them (run here), the ones its C code, the old back-end, Keras and
PyMC3 print (rebuilt from the upstream line each row cites), and the rule that the warnings
printed elsewhere in such a log are not its cause (theanodoctor/explain/usercode.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.explain_tables import traceback_of
from theanodoctor import kb_causes, knowledge
from theanodoctor.explain import explain_text
from theanodoctor.sources import problem

# Each function makes Theano raise one error of the user's code; the script prints its traceback.
SCRIPT = '''
import sys, traceback
import numpy as np
import theano
import theano.tensor as T
from theano.compile.nanguardmode import NanGuardMode
from theano.tensor import nlinalg, slinalg

x, y, m, i, r = T.dvector("x"), T.dvector("y"), T.dmatrix("m"), T.lvector("i"), T.drow("r")
s = theano.shared(np.zeros((1, 3)), broadcastable=(True, False), name="s")


class GlorotUniform(object):  # an initializer object of a layer library, as Lasagne's
    pass


def test_value_of_another_rank():
    a = T.dscalar("a")
    a.tag.test_value = np.ones(3)
    with theano.change_flags(compute_test_value="raise"):
        return a * 2


def test_value_of_a_vector_product():
    v = T.dvector("v")
    v.tag.test_value = np.ones(2)
    w = theano.shared(np.ones((3, 2)), name="w")
    with theano.change_flags(compute_test_value="raise"):
        return T.dot(v, w)


def assign_item():
    m[1, :] = 7  # a symbol of the graph, not an array


CASES = {
    "shape": lambda: theano.function([x, y], x + y)(np.ones(2), np.ones(3)),
    "dot": lambda: theano.function([m], T.dot(m, m))(np.ones((2, 3))),  # numpy's dot: shapes not aligned
    "test_value_dot": test_value_of_a_vector_product,  # numpy's dot refusing a vector, the graph being built
    "assign": assign_item,
    "reshape": lambda: theano.function([m], m.reshape((5, 5)))(np.ones((2, 3))),  # a size built into the graph
    "unused": lambda: theano.function([x, y], x * 2),
    "missing": lambda: theano.function([x], x + y),
    "call_missing": lambda: theano.function([x, y], x + y)(np.ones(2)),
    "disconnected": lambda: T.grad((x ** 2).sum(), y),
    "astensor": lambda: T.mean(i for i in [x]),
    "nan": lambda: theano.function([x], T.log(x), mode=NanGuardMode(True, True, False))(-np.ones(2)),
    "debug_inf": lambda: theano.function([x], 10 / x, mode="DebugMode")(np.zeros(1)),
    "index": lambda: theano.function([x, i], x[i])(np.ones(3), [5]),
    "ndim": lambda: theano.function([m], m * 2, name="train")(np.ones(3)),
    "test_value": test_value_of_another_rank,  # a value, not a function's argument
    "variable": lambda: theano.function([x], x * 2)(y),
    "array_input": lambda: theano.function([np.ones(2)], x * 2),  # data where a symbolic input belongs
    "join": lambda: theano.function([m], T.join(0, m, T.ones((1, 4))))(np.ones((2, 3))),
    "iterate": lambda: list(zip(x[:-1], x[1:])),  # a symbolic slice's length is not known
    "iterate_matrix": lambda: list(zip(m, [1, 2])),  # only a vector is iterated
    "shared_symbolic": lambda: theano.shared(x * 2),  # a shared variable holds a value, not a graph
    "shared_generic": lambda: T.lt(theano.shared(np.float32), 1.0),  # the numpy type, not a value: no tensor
    "givens": lambda: theano.function([m], r * 2, givens={r: m}),
    "update": lambda: theano.function([m], [], updates=[(s, m)]),
    "scan_rank": lambda: theano.scan(lambda h: T.outer(h, h), outputs_info=x, n_steps=2),
    "bool": lambda: bool(np.zeros(2) < x),  # a Theano variable where numpy or scipy needs a number
    "library_object": lambda: T.dot(m, GlorotUniform()),  # an object of the code's where a tensor belongs
    "shared_input": lambda: theano.function([s], s * 2),  # a shared variable is no input to give
    "outputs_unlisted": lambda: theano.function([x], x * 2, y * 2),  # the second output lands in `mode`
    "not_posdef": lambda: theano.function([m], slinalg.cholesky(m))(-np.eye(3)),  # scipy's Cholesky
    "singular": lambda: theano.function([m], nlinalg.matrix_inverse(m))(np.zeros((2, 2))),  # numpy's inverse
}
for name, case in CASES.items():
    print("=====", name)
    try:
        case()
    except Exception:
        traceback.print_exc(file=sys.stdout)
    sys.stdout.flush()
'''
REAL = {"shape": "model-shape-mismatch", "dot": "model-shape-mismatch", "reshape": "model-shape-mismatch",
        "test_value_dot": "model-shape-mismatch", "assign": "model-graph-type-error",
        "unused": "model-function-inputs", "missing": "model-function-inputs",
        "call_missing": "model-function-inputs", "debug_inf": "model-numerics-nan",
        "disconnected": "model-gradient-undefined", "astensor": "model-graph-type-error", "nan": "model-numerics-nan",
        "index": "model-index-out-of-bounds", "ndim": "model-function-inputs", "variable": "model-function-inputs",
        "array_input": "model-function-inputs", "join": "model-shape-mismatch", "iterate": "model-graph-type-error",
        "iterate_matrix": "model-graph-type-error",
        "test_value": "model-shape-mismatch", "givens": "model-broadcastable-mismatch",
        "update": "model-broadcastable-mismatch", "scan_rank": "scan-state-rank-mismatch",
        "bool": "model-graph-type-error", "shared_symbolic": "model-graph-type-error",
        "shared_generic": "model-graph-type-error",
        "library_object": "model-graph-type-error", "not_posdef": "model-numerics-nan",
        "singular": "model-numerics-nan", "shared_input": "model-function-inputs",
        "outputs_unlisted": "model-function-inputs"}
# the cases whose message is Theano's check of a function's inputs, of the shapes an op is given (in a
# graph of the code's own on the CPU), theano.grad's of a variable the cost does not use, a variable's
# refusal to be a Python bool, DebugMode's of a non-finite value, the check of a replacement's type
# (Theano 1.0.5 raises it under an update's too), theano.shared's of a symbolic value, the conversion's of
# an object of a named class (not of Python's containers: the generator of "astensor"), the linear
# algebra's of a matrix the graph built, theano.function's of a shared variable given as an input, its
# reading of a variable given where its mode belongs, Python's refusal to assign into a variable, the
# conversion's of a variable of the Generic type (theano.shared of what is not an array), or an index beyond
# an axis raised by an op of a compiled function (Theano names the node), or scan's check of its initial
# state against the inner function's result, which state the fault outright
STATED = {"unused", "missing", "call_missing", "shape", "dot", "test_value_dot", "reshape", "join", "ndim",
          "test_value", "variable", "assign", "array_input", "iterate", "iterate_matrix", "disconnected", "bool",
          "debug_inf", "givens", "update", "shared_symbolic", "shared_generic", "library_object", "not_posdef",
          "singular", "shared_input", "outputs_unlisted", "index", "scan_rank"}


@pytest.fixture(scope="module")
def real_errors(legacy_python: Callable[[str], str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each case's log: what Theano printed while importing (its warnings) and the case's traceback.
    `cxx=` keeps Theano from compiling (the Python implementations raise the same errors)."""
    home = tmp_path_factory.mktemp("usercode-home")
    script = home / "errors.py"
    script.write_text(SCRIPT, encoding="utf-8")
    env = {**os.environ, "HOME": str(home), "THEANO_FLAGS": "cxx="}
    done = subprocess.run([legacy_python("healthy37"), str(script)], capture_output=True, text=True, env=env,
                          timeout=300, cwd=home)
    header, *parts = done.stdout.split("===== ")
    logs = {part.split("\n", 1)[0]: done.stderr + header + part for part in parts}
    assert set(logs) == set(REAL), done.stdout + done.stderr
    return logs


@pytest.mark.parametrize("case", sorted(REAL))
def test_real_theano_errors_are_the_users_code(real_errors: dict[str, str], case: str) -> None:
    found = explain_text(real_errors[case])
    assert found.findings and found.findings[0].cause == REAL[case], [f.cause for f in found.findings]
    # named with confidence only where Theano's input check states the fault (medium, never high); the
    # gxx-missing and BLAS warnings of `cxx=` are not named either way
    assert [(f.cause, f.confidence) for f in found.recognised] == \
        ([(REAL[case], "medium")] if case in STATED else [])


GEMM_C = "ValueError: Shape mismatch: x has {} cols (and {} rows) but y has {} rows (and {} cols)"


@pytest.mark.parametrize(("text", "cause"), [
    # Theano rel-1.0.5 theano/tensor/elemwise_cgen.py:99 (the C code), gpuarray/elemwise.py:307
    ("ValueError: Input dimension mis-match. (input[0].shape[1] = 1, input[1].shape[1] = 16)",
     "model-shape-mismatch"),
    ("ValueError: GpuElemwise. Input dimension mis-match. Input 1 (indices start at 0) has shape[0] == 50, "
     "but the output's size on that axis is 32.", "model-shape-mismatch"),
    # Theano rel-1.0.5 theano/tensor/blas.py:592; Theano 0.9 theano/sandbox/cuda/cuda_ndarray.cu:4152
    (GEMM_C.format(3, 2, 4, 5), "model-shape-mismatch"),
    ("ValueError: dimension mismatch in args to gemm (128,300)x(200,10)->(128,10)", "model-shape-mismatch"),
    # Theano rel-1.0.5 theano/tensor/blas.py:257 (Gemv's Python implementation)
    ("ValueError: Incompatible shapes for gemv (beta * y + alpha * dot(A, x)). y: (7,), A: (7, 7), x: (19,) ",
     "model-shape-mismatch"),
    # Theano rel-1.0.5 theano/gradient.py:610 (NullTypeGradError), tensor/basic.py:350
    ("theano.gradient.NullTypeGradError: tensor.grad encountered a NaN. This variable is Null because the grad "
     "method for input 0 (argmax) of the MaxAndArgmax op is not implemented.", "model-gradient-undefined"),
    ("theano.tensor.basic.NotScalarConstantError: Subtensor{int64}.0", "model-graph-type-error"),
    # Theano rel-1.0.5 theano/tensor/subtensor.py:859 (C code), tensor/type.py:194
    ("IndexError: index out of bounds\nApply node that caused the error: AdvancedSubtensor1(W, idx)",
     "model-index-out-of-bounds"),
    ("TypeError: Bad input argument to theano function with name \"train\" at index 1 (0-based).\n"
     "Non-unit value on shape on a broadcastable dimension.", "model-function-inputs"),
    # Keras 2.2.4 keras/engine/training_utils.py and 1.2.2 keras/engine/training.py (standardize_input_data)
    ("ValueError: Error when checking input: expected dense_1_input to have shape (None, 784) but got array "
     "with shape (60000, 28, 28)", "keras-data-shape-mismatch"),
    ("Exception: Error when checking model target: expected dense_2 to have shape (None, 10) but got array "
     "with shape (100L, 1L)", "keras-data-shape-mismatch"),
    ("ValueError: Error when checking target: expected activation_1 to have 2 dimensions, but got array with "
     "shape (32, 10, 1)", "keras-data-shape-mismatch"),
    # Keras 1.2.2 keras/engine/training.py:209 (check_loss_and_target_compatibility)
    ("ValueError: You are passing a target array of shape (25000, 1) while using as loss `categorical_crossentropy`. "
     "`categorical_crossentropy` expects targets to be binary matrices (1s and 0s) of shape (samples, classes).",
     "keras-data-shape-mismatch"),
    # PyMC3 v3.11.5 pymc3/step_methods/hmc/base_hmc.py and quadpotential.py
    ("pymc3.exceptions.SamplingError: Bad initial energy", "model-numerics-nan"),
    # PyMC3 v3.1 pymc3/distributions/multivariate.py:158 (MvNormal.random)
    ("ValueError: Shapes for mu an cov don't match", "model-shape-mismatch"),
    # scikit-neuralnetwork v0.7 sknn/mlp.py:154 (its training error became NaN)
    ("RuntimeError: Training diverged and returned NaN.", "model-numerics-nan"),
    # PyMC v4.0.0 pymc/model.py (check_start_vals)
    ("pymc.exceptions.SamplingError: Initial evaluation of model at starting point failed!\nStarting values:\n"
     "{'p_logodds__': array(0.83748875)}\n\nInitial evaluation results:\n{'p': -1.56, 'y': -inf}",
     "model-numerics-nan"),
    ("ValueError: Mass matrix contains zeros on the diagonal. \nThe derivative of RV `sigma_log__`.ravel()[0] "
     "is zero.", "model-numerics-nan"),
    # Theano rel-1.0.5 theano/tensor/nnet/nnet.py:164 and :1115 (the C code of SoftmaxWithBias and of the
    # softmax cross-entropy), :1009-1011 (their Python implementations)
    ("ValueError: number of columns in x (784) does not match length of b (10)\n"
     "Apply node that caused the error: SoftmaxWithBias(dot.0, b)", "model-shape-mismatch"),
    ("ValueError: number of rows in x (100) does not match length of y (64)", "model-shape-mismatch"),
    ("ValueError: y_idx must have same number of rows as x", "model-shape-mismatch"),
    # Keras 2.2.4 keras/engine/network.py:1437 (Model(inputs, outputs) whose outputs need another input)
    ("ValueError: Graph disconnected: cannot obtain value for tensor Tensor(\"input_2:0\", shape=(?, 2), "
     "dtype=float32) at layer \"input_2\". The following previous layers were accessed without issue: []",
     "model-function-inputs"),
])
def test_upstream_user_errors_are_named_below_high_with_a_source(text: str, cause: str) -> None:
    found = explain_text("Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n" + text)
    assert [f.cause for f in found.findings][:1] == [cause]
    first = found.findings[0]
    # medium only where the check states the fault: Theano's of a function's input ("Bad input argument
    # ..."), PyMC3's of the start point's log-probability and of the tuned mass matrix, Keras' of the arrays
    # against the model and of the model's inputs, Theano's of an op's shapes on the CPU (the GPU's is a
    # hint), its softmax's of the bias and labels and an op's index beyond an axis, scikit-neuralnetwork's of
    # its training error, PyMC3's MvNormal's of its mean against its covariance; else low
    stated = ("Bad input argument", "Bad initial energy", "Initial evaluation of model", "Error when checking",
              "You are passing a target array", "Mass matrix contains zeros", "does not match length of",
              "must have same number of", "Graph disconnected", "index out of bounds\nApply node",
              "Training diverged and returned NaN", "Shapes for mu an cov")
    shapes = ("Input dimension mis-match", "Shape mismatch: x has", "dimension mismatch in args to gemm",
              "Incompatible shapes for gemv")
    medium = any(s in text for s in stated) or (any(s in text for s in shapes) and "Gpu" not in text)
    assert first.confidence == ("medium" if medium else "low")
    assert found.recognised == (() if first.confidence == "low" else (first,))
    assert first.remedy and problem(first.source) is None
    assert first.signature_sources and all(problem(s) is None for s in first.signature_sources)


# Theano 0.9 theano/sandbox/cuda/__init__.py:532 (a logger warning: Theano goes on on the CPU) with the
# inner error of cuda_ndarray.cu:3197.
GPU_WARNING = ("WARNING (theano.sandbox.cuda): CUDA is installed, but device gpu is not available  (error: "
               "Unable to get the number of gpus available: no CUDA-capable device is detected)")
SHAPE_ERROR = ("Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n"
               "    cost = f(X_batch, y_batch)\n"
               "ValueError: Input dimension mis-match. (input[0].shape[0] = 100, input[1].shape[0] = 64)\n"
               "Apply node that caused the error: Elemwise{sub,no_inplace}(y, Elemwise{add,no_inplace}.0)\n"
               "HINT: Use the Theano flag 'exception_verbosity=high' for a debugprint and storage map "
               "footprint of this apply node.")


def _levels(text: str) -> dict[str, str]:
    return {f.cause: f.confidence for f in explain_text(text).findings}


def test_a_warning_elsewhere_is_not_the_cause_of_a_users_shape_error() -> None:
    alone = _levels(GPU_WARNING + "\nImportError: No module named lasagne")
    assert alone["old-backend-gpu-unavailable"] == "medium"  # without a user error it is named
    found = explain_text(GPU_WARNING + "\nUsing Theano backend.\n" + SHAPE_ERROR)
    assert found.recognised == ()
    assert found.findings[0].cause == "model-shape-mismatch"
    assert _levels(GPU_WARNING + "\n" + SHAPE_ERROR)["old-backend-gpu-unavailable"] == "low"


def test_a_setup_cause_that_leads_to_the_user_error_is_kept() -> None:
    # the channel axis at the other end: keras-image-ordering (which `explains` the shape check) stays named
    log = ("Using Theano backend.\nException: Error when checking : expected input_2 to have shape "
           "(None, 224, 224, 3) but got array with shape (1L, 3L, 224L, 224L)")
    found = explain_text(GPU_WARNING + "\n" + log)
    assert "keras-image-ordering" in [f.cause for f in found.recognised]
    assert _levels(GPU_WARNING + "\n" + log)["old-backend-gpu-unavailable"] == "medium"
    consequence = {f.cause: f.consequence_of for f in found.findings}
    assert consequence["keras-data-shape-mismatch"] == "keras-image-ordering"


@pytest.mark.parametrize(("shapes", "ordering"), [
    ("(224, 224, 3) but got array with shape (3, 224, 224)", True),  # Keras 2 leaves out the batch axis
    ("(None, 3, 64, 64) but got array with shape (1, 64, 64, 3)", True),
    ("(None, 30, 300) but got array with shape (128, 5, 300)", False),  # sequences: only the data's shape
    # a 1-channel-first reading of bottleneck features fed 3-channel images: the channel counts differ
    ("(None, 1, 1, 2048) but got array with shape (1, 224, 224, 3)", False),
])
def test_the_keras_shape_check_names_the_ordering_where_the_channel_axis_moved(shapes: str, ordering: bool) -> None:
    found = explain_text(f"ValueError: Error when checking input: expected data to have shape {shapes}\n").recognised
    assert [f.cause for f in found][:1] == (["keras-image-ordering"] if ordering else ["keras-data-shape-mismatch"])
    assert all(f.confidence == "medium" for f in found)


# Keras 2.2.4 keras/callbacks.py:260 (TerminateOnNaN) under its progress bar; a training loop's own
# print of its cost (glorotxa/SME's).
NAN_LOSSES = ["800/1000 [=======================>......] - ETA: 0s - loss: 1.3988Batch 8: Invalid loss, "
              "terminating training\n 900/1000 [==========================>...] - ETA: 0s - loss: nan\n",
              "BEGIN TRAINING\n-- EPOCH 10 (4.1381 seconds per epoch):\nCOST >> nan +/- nan, % updates: 55.797%\n"]
# Theano rel-0.7 theano/compile/pfunc.py:464-470 (the `updates` dictionary warning, printed where no run failed)
UPDATES_WARNING = ("/home/u/SME/model.py:949: UserWarning: The parameter 'updates' of theano.function() expects an "
                   "OrderedDict, got <class 'collections.OrderedDict'>. Using a standard dictionary here results in "
                   "non-deterministic behavior.\n  updates=updates, on_unused_input='ignore')\n")


@pytest.mark.parametrize("log", NAN_LOSSES)
def test_a_nan_loss_is_a_failed_run_of_the_model(log: str) -> None:
    assert [(f.cause, f.confidence) for f in explain_text(log).findings] == [("model-numerics-nan", "low")]
    # a warning printed before it no longer stands as the cause of a run that seemed to go well
    assert _levels(UPDATES_WARNING)["theano-deprecation-warning"] == "medium"
    assert _levels(UPDATES_WARNING + log)["theano-deprecation-warning"] == "low"
    # a loss that is a number is no failure
    assert explain_text(log.replace("nan", "0.5").replace("Invalid loss, terminating training", "")).findings == ()


def test_a_user_error_before_the_end_does_not_lower_the_warnings() -> None:
    # the run went on after the shape error and ended in another exception: the rule does not apply
    log = SHAPE_ERROR + "\n" + GPU_WARNING + "\nImportError: No module named lasagne"
    assert _levels(log)["old-backend-gpu-unavailable"] == "medium"


CAUSE = ("causes:\n  - {id: a, title: t, cause: c, remedy: r, fix: none, user_error: %s, generic: %s, "
         "source: x.io/s}\n")
SIGNATURE = "signatures:\n  - {id: s, cause: a, contains: [t], confidence: %s, source: x.io/s}\n"


@pytest.mark.parametrize(("causes", "signatures", "message"), [
    (CAUSE % ("yes please", "false"), SIGNATURE % "low", r"causes.yaml:2: `user_error` must be true or false"),
    (CAUSE % ("true", "true"), SIGNATURE % "low", r"causes.yaml:2: a `user_error` cause is neither `generic`"),
    (CAUSE % ("true", "false"), SIGNATURE % "high", r"signatures.yaml:2: an error of the user's code"),
])
def test_user_error_rows_are_validated_at_load(fake_profiles: dict[str, str], causes: str, signatures: str,
                                               message: str) -> None:
    fake_profiles["causes.yaml"] = causes
    fake_profiles["signatures.yaml"] = signatures
    with pytest.raises(knowledge.KnowledgeError, match=message):
        kb_causes.signatures()


def test_a_missing_input_in_pymc3s_own_compile_is_no_function_call_of_the_users(real_errors: dict[str, str]) -> None:
    # PyMC3 compiles the model's functions itself: there the missing input is its, named only as a hint
    header = "Traceback (most recent call last):\n"
    frame = '  File "/env/lib/python3.7/site-packages/pymc3/sampling.py", line 1, in sample\n'
    inside = real_errors["missing"].replace(header, header + frame, 1)
    assert [(f.cause, f.confidence) for f in explain_text(inside).findings][:1] == [("model-function-inputs", "low")]


@pytest.mark.parametrize("library", ["keras/engine/training.py", "pymc3/sampling.py", "arviz/data/io_pymc3.py"])
def test_a_call_without_an_input_inside_a_library_that_calls_the_function_itself_is_a_hint(
        real_errors: dict[str, str], library: str) -> None:
    header = "Traceback (most recent call last):\n"
    frame = f'  File "/env/lib/python3.7/site-packages/{library}", line 1, in fit\n'
    inside = real_errors["call_missing"].replace(header, header + frame, 1)
    assert [(f.cause, f.confidence) for f in explain_text(inside).findings][:1] == [("model-function-inputs", "low")]


def test_every_user_error_cause_is_never_high_and_fixless() -> None:
    causes = kb_causes.causes()
    user = {c.id for c in causes.values() if c.user_error}
    assert {"model-shape-mismatch", "model-function-inputs", "keras-data-shape-mismatch"} <= user
    assert all(causes[c].fix is None for c in user)
    levels = {s.id: s.confidence for s in kb_causes.signatures() if s.cause in user}
    assert "high" not in levels.values()
    # medium only where the library's own check states the fault outright: Theano's checks of the
    # shapes an op is given (not in a graph Keras or Lasagne built, nor on the GPU) and of a
    # function's inputs (an unused one, a missing one outside PyMC3's own compiles, a call without one
    # outside the libraries that call it themselves, Keras' learning phase) and of a scan state's type,
    # an Op with no grad reached by theano.grad, the softmax cross-entropy's check of the class labels,
    # the old ConvOp's check of the shapes it was built for, Keras' sample-count check,
    # AdvancedSubtensor1's refusal of float indices, theano.grad's check that the cost depends on each
    # variable, a variable's refusal to be a Python bool, PyMC3's check that the model's log-probability
    # is finite at the start point and that a model is open, Keras' check of the arrays' shapes against
    # the model's and of the targets against the loss, Blocks' check that a brick is configured,
    # DebugMode's check that every value computed is finite, a type's check of a value's rank, Reshape's
    # check of the number of elements, NUTS' count of the draws that diverged, the type check of a
    # replacement that differs only in rank or broadcast pattern, theano.function's refusal of an input
    # that is not a variable, PyMC3's refusal of a second variable of one name and of a tuned mass matrix
    # with zeros (a variable whose draws never moved), Join's of the sizes beside the joined axis, the
    # refusal to iterate a vector of a length not known when the graph is built, theano.shared's refusal
    # of a symbolic value, Keras' check that its backend function is given a list of arrays, PyMC3's
    # checks of its draws after sampling (divergences, the rhat), Theano's conversion of an object of a
    # named class, the linear algebra's refusal of a matrix the graph built, and Keras' callbacks'
    # warning that the quantity they watch is missing (with Keras 1's EarlyStopping and ModelCheckpoint's
    # file name failing on it), the old ConvOp's refusal of a kernel larger than the image, theano.function's
    # refusal of a shared variable as an input, the softmax ops' checks of the bias and labels, Keras'
    # check that a model's outputs come from its inputs and that a saved model's functions are its own or
    # given, PyMC3's find_MAP ending at a log-probability of -inf, the refusal to iterate a tensor
    # that is not a vector, and PyMC3's notes on its draws at its error or warn level (few effective
    # samples, an rhat above 1.2, an acceptance rate off its target), Python's refusal to assign into a
    # Theano variable, Keras' to_categorical given a label beyond its classes, Keras' check that a list
    # of arrays matches the model's inputs, TensorFlow's gather refusing an index beyond its rows, and
    # Theano's scalar ops that define no gradient, Keras' load_model given a file of weights alone,
    # TensorFlow's refusal of a tensor of another graph, theano.function's reading of a variable given
    # where its mode belongs, a functional Model asked for the methods only Sequential has, an index beyond
    # an axis raised by an op of a compiled function, a Generic variable (theano.shared of what is not an
    # array) given to a tensor op, numpy's function of a Theano variable on Theano 0.7, the gradient
    # through indexing an integer tensor, the rank check of a function Keras' Theano backend compiled,
    # scan's check of its initial state's rank against the inner function's result, and
    # scikit-neuralnetwork's stop at a training error of NaN, and PyMC3's MvNormal's check of its mean
    # against its covariance, Keras' refusal of a mask by a layer without mask support, its check that a
    # recurrent layer gets 3-D input (Keras 0.x's as the layers are added), its refusal of a layer object
    # where a tensor belongs, its pad_sequences' check for a length, Keras 1's pooling given an int
    # window, TensorFlow's feed of a batch other than an input's fixed one, the missing test value of a
    # Theano variable, the MRG generator's limit of one draw, plot_model given its file name first,
    # scikit-learn's refusal of a single class for ROC AUC and of a scalar for a column of labels,
    # theano's as_op given what are no Theano types, Keras 1's Merge class given tensors, TensorFlow's
    # refusal to feed and fetch one tensor, Keras' refusal to choose among a layer's inbound nodes, and
    # its check of a Permute layer's input against the axes it names, and Keras' refusals of a loss factory
    # passed uncalled, of class weights for 3-D targets, of time-step weights for an output without time
    # steps, of a plain generator without its steps, of a scikit-learn wrapper never fitted, and Keras 1's
    # predict_generator overrun by a batch larger than the samples asked for, and its ImageDataGenerator's
    # warning that the featurewise statistics it was asked to use were never fit, numpy's refusal to copy a
    # list into an array row of another length, and pylearn2's cross-validation script given one model, and
    # numpy's multinomial refusing probabilities that sum above 1, and argparse refusing a command line that
    # lacks a required argument, and a Keras application asked for another input shape than its weights', and
    # add() called on a functional Model, and load_model given a weights file that Keras 2.2.3+'s H5Dict refuses
    assert {sid for sid, level in levels.items() if level == "medium"} == {
        "theano-function-unused-input", "theano-function-missing-input", "theano-input-wrong-ndim",
        "theano-function-argument-wrong-ndim", "theano-value-wrong-ndim", "theano-reshape-size-mismatch",
        "pymc3-many-divergences", "pymc3-only-diverging-samples", "theano-cannot-convert-same-dtype",
        "theano-function-call-missing-input", "theano-op-without-grad",
        "keras-arrays-sample-counts-differ", "theano-scan-recurrent-broadcast", "theano-softmax-label-out-of-bounds",
        "theano-convop-build-shape", "keras-learning-phase-not-given", "theano-float-index-vector",
        "theano-grad-disconnected-input", "theano-variable-as-bool", "pymc3-bad-initial-energy",
        "pymc-initial-evaluation-failed", "pymc3-distribution-outside-model", "keras-error-when-checking-shape",
        "blocks-config-not-set", "debugmode-non-finite", "elemwise-input-dimension-mismatch", "blas-shape-mismatch",
        "numpy-operands-not-broadcast", "keras-categorical-targets-not-one-hot", "pfunc-input-not-a-variable",
        "pymc3-variable-name-exists", "pymc3-mass-matrix-zeros", "theano-join-shapes-differ",
        "theano-length-not-known", "theano-shared-of-symbolic", "keras-function-inputs-not-a-list",
        "pymc3-divergences-after-tuning", "pymc3-rhat-not-converged", "theano-as-tensor-library-object",
        "theano-linalg-matrix-degenerate", "keras-callback-monitor-missing", "keras1-early-stopping-none",
        "keras-checkpoint-filepath-key-missing", "theano-convop-kernel-larger-than-image",
        "theano-shared-variable-explicit-input", "theano-nnet-sizes-mismatch", "keras-graph-disconnected",
        "pymc3-find-map-logp-inf", "keras-custom-function-unknown", "theano-iterate-non-vector",
        "pymc3-sampler-warn-notes", "theano-variable-item-assignment", "keras-to-categorical-label-out-of-range",
        "keras-list-of-arrays-not-the-models-inputs", "tensorflow-gather-index-out-of-range",
        "theano-scalar-op-without-grad", "keras-load-model-weights-only", "tensorflow-tensor-of-another-graph",
        "theano-function-variable-as-mode", "keras-functional-model-predict-classes", "theano-index-out-of-bounds",
        "theano-generic-variable-to-tensor-op", "numpy-function-of-theano-variable",
        "theano-grad-through-integer-indexing", "keras-theano-function-argument-wrong-ndim",
        "scan-inner-function-state-mismatch", "sknn-training-diverged", "pymc3-mvnormal-mu-cov-shapes",
        "keras-layer-refuses-mask", "keras-recurrent-layer-given-2d", "keras0-layer-expects-3d-after-2d",
        "keras-layer-given-a-layer", "keras-pad-sequences-not-sized", "keras1-pool-size-int",
        "tf-feed-batch-differs-from-fixed", "theano-scratchpad-no-test-value", "mrg-too-many-samples",
        "keras-plot-model-given-a-string", "sklearn-roc-auc-one-class", "sklearn-column-or-1d-scalar",
        "theano-as-op-itypes", "keras1-merge-given-tensors", "tf-fed-and-fetched", "keras-layer-input-ill-defined",
        "keras-permute-built-for-other-rank", "keras-loss-factory-uncalled", "keras-class-weight-of-3d-targets",
        "keras-temporal-weights-of-2d-output", "keras-generator-without-steps",
        "keras-generator-without-steps-per-epoch", "keras-generator-without-validation-steps",
        "keras-sklearn-wrapper-without-model", "keras1-predict-generator-overrun",
        "keras-image-generator-statistics-not-fit", "numpy-cannot-copy-sequence",
        "pylearn2-print-monitor-cv-single-model", "numpy-multinomial-pvals-over-one",
        "argparse-required-arguments-missing", "keras-application-input-shape-of-its-weights",
        "keras-add-called-on-functional-model", "keras-load-model-weights-only-h5dict"}


# a classifier of 2 outputs trained on labels 0..2: the cross-entropy's forward op (y_i value out of
# bounds) and its gradient's (y_i >= dx dimensions[1]) refuse the label 2
SOFTMAX_LABELS = ("import numpy as np, theano, theano.tensor as T\n"
                  "x, y = T.matrix('x'), T.ivector('y')\nw = theano.shared(np.ones((3, 2)))\n"
                  "p = T.nnet.softmax(T.dot(x, w))\nloss = T.nnet.categorical_crossentropy(p, y).mean()\n"
                  "f = theano.function([x, y], {out})\nf(np.ones((3, 3)), np.array([0, 1, 2], dtype='int32'))\n")


@pytest.mark.parametrize(("out", "message"), [("loss", "y_i value out of bounds"),
                                              ("T.grad(loss, w)", "y_i >= dx dimensions[1]")])
def test_a_class_label_beyond_the_softmax_outputs(legacy_python: Callable[[str], str], theano_home: Path,
                                                  tmp_path: Path, out: str, message: str) -> None:
    log = traceback_of(legacy_python("healthy37"), SOFTMAX_LABELS.format(out=out), tmp_path)
    assert f"ValueError: {message}" in log
    found = [(f.cause, f.confidence) for f in explain_text(log).findings]
    assert found[:1] == [("model-index-out-of-bounds", "medium")]


# TensorFlow's Gather kernel as Keras' Embedding reaches it (the InvalidArgumentError's own line, and the
# summary TensorFlow 1.x prints after the op's traceback), its message built as gather_op.cc builds it
@pytest.mark.parametrize("log", [
    "tensorflow.python.framework.errors_impl.InvalidArgumentError: indices[0,2] = 52 is not in [0, 30)\n"
    "\t [[{{node embedding_1/embedding_lookup}}]]\n",
    "InvalidArgumentError (see above for traceback): indices[7,0] = 10000 is not in [0, 10000)\n",
])
def test_an_index_beyond_an_embeddings_rows_in_tensorflow(log: str) -> None:
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("model-index-out-of-bounds", "medium")]
    index, rows = re.search(r"= (\d+) is not in \[0, (\d+)", log).groups()  # type: ignore[union-attr]
    assert f"index {index} looked up in a table of {rows} rows" in found[0].evidence[0].note


# labels of a sequence model copied into rows of a fixed length, never padded (numpy 1.16 and older say
# so in their own words; 1.21 and later speak of broadcasting, which other mistakes share)
CTC_LABELS = ("import numpy as np\nmax_text_len = 19\nlabels = np.ones((2, max_text_len))\n"
              "for i, text in enumerate(['abc', 'defg']):\n    labels[i] = [ord(c) - 97 for c in text]\n")


def test_real_numpy_copy_of_a_sequence_into_a_shorter_row(legacy_python: Callable[[str], str],
                                                          tmp_path: Path) -> None:
    log = traceback_of(legacy_python("healthy37"), CTC_LABELS, tmp_path)
    assert "cannot copy sequence with size 3 to array axis with dimension 19" in log
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("sequence-copied-into-row-of-another-length", "medium")]
    assert "a sequence of 3 items was copied into an array axis of 19" in found[0].evidence[0].note


@pytest.mark.parametrize(("code", "message", "cause"), [
    # an Embedding's lookup fed the default float input (Keras' K.gather is `reference[indices]`)
    ("import theano.tensor as T\nW, x = T.matrix(), T.matrix()\nW[x]\n", "index must be integers", "float-index"),
    # a slice bound made a float by Python 3's `/`: Python 2 code
    ("import theano.tensor as T\nn = T.iscalar()\nT.vector()[:n / 2]\n", "Expected an integer",
     "python2-code-on-python3"),
])
def test_a_float_index_vector_is_the_model_code(legacy_python: Callable[[str], str], theano_home: Path,
                                               tmp_path: Path, code: str, message: str, cause: str) -> None:
    log = traceback_of(legacy_python("healthy37"), code, tmp_path)
    assert log.rstrip().endswith(f"TypeError: {message}")
    assert [(f.cause, f.confidence) for f in explain_text(log).findings][:1] == [(cause, "medium")]


def test_a_gradient_stopped_at_a_transfer_between_host_and_gpu_is_no_model_code() -> None:
    # Theano 0.7's message names the op; HostFromGpu has a gradient, so the model did not ask amiss
    log = ("theano.gradient.DisconnectedInputError: grad method was asked to compute the gradient with respect to a "
           "variable that is not part of the computational graph of the cost, or is used only by a "
           "non-differentiable operator: HostFromGpu.0\n")
    assert explain_text(log).recognised == ()
    assert explain_text(log.replace("HostFromGpu.0", "W")).recognised[0].cause == "model-gradient-undefined"


@pytest.mark.parametrize("message", [
    # PyMC3 v3.11.5 pymc3/distributions/distribution.py:89 and v3.0's :24
    "No model on context stack, which is needed to instantiate distributions. Add variable inside a 'with model:' "
    "block, or use the '.dist' syntax for a standalone distribution.",
    "No model on context stack, which is needed to use the Normal('x', 0,1) syntax. Add a 'with model:' block",
])
def test_a_pymc3_variable_outside_a_model_block(message: str) -> None:
    log = f'Traceback (most recent call last):\n  File "model.py", line 5, in <module>\n' \
          f'    lambda_1 = pm.Exponential("lambda_1", alpha)\nTypeError: {message}\n'
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised] == [("pymc3-no-model-context", "medium")]
    # in a sampler's spawned worker the model was not sent along: PyMC3 before 3.2 (pymc3-worker-no-model-context)
    worker = log.replace("model.py", "multiprocessing/spawn.py")
    assert "pymc3-no-model-context" not in {f.cause for f in explain_text(worker).recognised}
    # ArviZ converting a trace outside the model logs PyMC3's words of its own try and goes on (arviz
    # io_pymc3_3x.py, PyMC3Converter.__init__): no failure of the code
    arviz = (f"ERROR:arviz.data.io_pymc3_3x:Got error {message.split(',')[0]}. trying to find log_likelihood in "
             "translation.\n/env/lib/python3.8/site-packages/arviz/data/io_pymc3_3x.py:98: FutureWarning: Using "
             "`from_pymc3` without the model will be deprecated in a future release.\n")
    assert "pymc3-no-model-context" not in {f.cause for f in explain_text(arviz).findings}


def test_a_second_pymc3_variable_of_one_name() -> None:
    # PyMC3 v3.0 pymc3/model.py:315-317 and v3.11.4's :1195-1196 (add_random_variable)
    log = ('--> 317                 "Variable name {} already exists.".format(var.name))\n\n'
           "ValueError: Variable name obs already exists.\n")
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised] == [("pymc3-variable-name-exists",
                                                                                 "medium")]
    assert explain_text("FileExistsError: [Errno 17] File exists: 'obs'\n").recognised[:1] != \
        explain_text(log).recognised[:1]


@pytest.mark.parametrize("message", ["allocation config not set: input_dim",
                                     "initialization config not set: weights_init, biases_init"])
def test_a_blocks_brick_applied_before_it_is_configured(message: str) -> None:
    # Blocks 0.2 blocks/bricks/base.py:611 and :649
    log = f'  File "train.py", line 12, in <module>\n    y = linear.apply(x)\nValueError: {message}\n'
    found = [(f.cause, f.confidence) for f in explain_text(log).recognised]
    assert found == [("blocks-brick-not-configured", "medium")]


def test_a_dtype_difference_stays_the_floatx_cause() -> None:
    # Theano rel-1.0.5 theano/tensor/type.py:229 with two dtypes: data of another floatX
    text = ("TypeError: Cannot convert Type TensorType(float64, matrix) (of Variable X) into Type "
            "TensorType(float32, matrix). You can try to manually convert X into a TensorType(float32, matrix).")
    assert [(f.cause, f.confidence) for f in explain_text(text).findings][:1] == [("input-dtype-mismatch", "high")]


def test_the_c_code_refusing_an_array_of_another_integer_type(legacy_python: Callable[[str], str],
                                                                theano_home: Path, tmp_path: Path) -> None:
    # a function that trusts its input (as PyMC3's samplers' functions do) skips the Python-side cast:
    # the C code checks the array's type number (int32 is 5 on Linux; 7, C long, on Windows)
    code = ("import numpy as np, theano, theano.tensor as T\ni = T.lvector('i')\nf = theano.function([i], i * 2)\n"
            "f.trust_input = True\nf(np.arange(3, dtype='int32'))\n")
    log = traceback_of(legacy_python("healthy37"), code, tmp_path)
    assert "TypeError: expected type_num 7 (NPY_INT64) got 5" in log
    assert [(f.cause, f.confidence) for f in explain_text(log).findings][:1] == [("input-dtype-mismatch", "medium")]


def test_an_input_without_a_test_value_under_compute_test_value(legacy_python: Callable[[str], str],
                                                                theano_home: Path, tmp_path: Path) -> None:
    # real Theano 1.0.5 with compute_test_value=raise (what a PyMC3 3.x model turns on): an input
    # without a test value stops the graph's construction
    log = traceback_of(legacy_python("healthy37"), "import theano.tensor as T\nx = T.dvector('x')\n(x * 2).sum()",
                       tmp_path, {"THEANO_FLAGS": "compute_test_value=raise,cxx="})
    assert "Cannot compute test value: input 0 (x) of Op" in log and "missing default value" in log
    (first, *_) = explain_text(log).findings
    assert (first.cause, first.confidence) == ("compute-test-value-missing", "high")
    assert "compute_test_value=off" in first.remedy
    # compute_test_value=warn only warns, and Theano goes on: not the failure
    warned = traceback_of(legacy_python("healthy37"), "import theano.tensor as T\nx = T.dvector('x')\n(x * 2).sum()\n"
                          "raise SystemExit(1)", tmp_path, {"THEANO_FLAGS": "compute_test_value=warn,cxx="})
    assert "UserWarning: Warning, Cannot compute test value: input 0 (x)" in warned
    assert "compute-test-value-missing" not in {f.cause for f in explain_text(warned).findings}


def test_a_gradient_through_mrg_sampling_parameters_needs_theano_09(legacy_python: Callable[[str], str],
                                                                    theano_home: Path, tmp_path: Path) -> None:
    # real Theano 1.0.5: MRG_RandomStreams' normal with a symbolic mean passes no gradient to it since
    # 0.10.0beta1 (code written for 0.9 did this); the user-error reading of NullTypeGradError comes after
    code = ("import theano.tensor as T\nfrom theano.sandbox.rng_mrg import MRG_RandomStreams\n"
            "mu = T.dvector('mu')\nz = MRG_RandomStreams(1).normal(size=(3,), avg=mu, std=1.0)\nT.grad(z.sum(), mu)")
    log = traceback_of(legacy_python("healthy37"), code, tmp_path, {"THEANO_FLAGS": "cxx="})
    assert "of the UndefinedGrad op is mathematically undefined" in log
    found = [(f.cause, f.confidence) for f in explain_text(log).findings]
    assert found[:2] == [("theano-too-new-for-code", "medium"), ("model-gradient-undefined", "low")]
    # a gradient the graph itself does not connect stays the model's code
    other = traceback_of(legacy_python("healthy37"), "import theano.tensor as T\nx, y = T.dvector(), T.dvector()\n"
                         "T.grad((x ** 2).sum(), y)", tmp_path, {"THEANO_FLAGS": "cxx="})
    assert "DisconnectedInputError" in other
    assert "theano-too-new-for-code" not in {f.cause for f in explain_text(other).findings}


def test_an_op_without_a_gradient(legacy_python: Callable[[str], str], theano_home: Path, tmp_path: Path) -> None:
    """Real Theano 1.0.5 differentiating through an op that defines no `grad` (as PyMC3 users met with
    `ProdWithoutZeros` under NUTS): the model's code, named at medium with the op."""
    code = ("import theano\nimport theano.tensor as T\n\nclass Double(theano.Op):\n    __props__ = ()\n"
            "    def make_node(self, x):\n        x = T.as_tensor_variable(x)\n"
            "        return theano.Apply(self, [x], [x.type()])\n"
            "    def perform(self, node, inputs, outputs):\n        outputs[0][0] = inputs[0] * 2\n\n"
            "x = T.dvector('x')\ntheano.grad(Double()(x).sum(), x)")
    log = traceback_of(legacy_python("healthy37"), code, tmp_path, {"THEANO_FLAGS": "cxx="})
    assert "AttributeError: 'Double' object has no attribute 'grad'" in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("model-gradient-undefined", "medium")], log
    assert "`Double` defines no gradient" in found[0].evidence[-1].note
    # without Theano or PyMC3 in the text, another library's object: only a hint
    assert explain_text("AttributeError: 'Double' object has no attribute 'grad'\n").recognised == ()
    # a scalar op of Theano's own without a gradient (the upper incomplete gamma), refused by ScalarOp
    scalar = traceback_of(legacy_python("healthy37"), "import theano.tensor as T\nx = T.dscalar('x')\n"
                          "T.grad(T.gammaincc(1.5, x), x)", tmp_path, {"THEANO_FLAGS": "cxx="})
    assert "MethodNotDefined: ('grad', <class 'theano.scalar.basic_scipy.GammaIncC'>" in scalar, scalar
    found = explain_text(scalar).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("model-gradient-undefined", "medium")], scalar
    assert "`GammaIncC` defines no gradient" in found[0].evidence[-1].note


# T.zeros((1,)) is broadcastable, the step's result (h + v) is not: real Theano 1.0.5 and 0.8.2
# refuse the scan node while optimising the function (as Theano issue 4547 reports)
SCAN_STATE = ("import theano, theano.tensor as T\nv = T.dvector('v')\n"
              "h0 = {init}\n"
              "out = theano.scan(lambda h, v: h + v, outputs_info=h0, non_sequences=v, n_steps=4)[0]\n"
              "print('compiled %s' % (theano.function([v], out)([1.0]).shape,))")


@pytest.mark.parametrize("env_name", ["healthy37", "theano082_py27"])
def test_a_scan_state_of_another_broadcast_pattern(legacy_python: Callable[[str], str], tmp_path: Path,
                                                  env_name: str) -> None:
    python, env = legacy_python(env_name), {"HOME": str(tmp_path), "THEANO_FLAGS": "cxx="}
    log = traceback_of(python, SCAN_STATE.format(init="T.zeros((1,))"), tmp_path, env)
    assert "have type 'TensorType(float64, (True,))' and 'TensorType(float64, vector)' respectively" in log
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised] == \
        [("model-broadcastable-mismatch", "medium")]
    # a paste wrapped before the types is read the same
    wrapped = log.replace("but have type '", "but have type \n'")
    assert [f.cause for f in explain_text(wrapped).recognised] == ["model-broadcastable-mismatch"]
    # under Keras, whose recurrent layers build the scan, it is only a hint
    assert explain_text("Using Theano backend.\n" + log).recognised == ()
    # the remedy: the same state made non-broadcastable compiles
    (tmp_path / "fixed.py").write_text(SCAN_STATE.format(init="T.unbroadcast(T.zeros((1,)), 0)"), encoding="utf-8")
    done = subprocess.run([python, "fixed.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})
    assert "compiled (4, 1)" in done.stdout, done.stderr



def test_an_update_of_another_dtype_from_an_op_of_many_parameters(legacy_python: Callable[[str], str],
                                                                    theano_home: Path, tmp_path: Path) -> None:
    # real Theano 1.0: the variable Theano names is a convolution with all its parameters (Lasagne's
    # updates of a float32 parameter with a float64 gradient), a long way from `into Type`
    code = ("import numpy as np, theano, theano.tensor as T\n"
            "s = theano.shared(np.zeros((1, 1, 3, 3), dtype='float32'))\nx, w = T.dtensor4('x'), T.dtensor4('w')\n"
            "out = T.nnet.conv2d(x, w, input_shape=(1, 1, 3, 3), filter_shape=(1, 1, 1, 1))\n"
            "theano.function([x, w], [], updates=[(s, out)])\n")
    log = traceback_of(legacy_python("healthy37"), code, tmp_path)
    # Theano 1.0.5 chains its update check's message to it; the conversion's own line, as older
    # releases and Lasagne's updates show it alone, names the dtypes too
    line = next(row for row in log.splitlines() if row.startswith("TypeError: Cannot convert Type"))
    assert "(of Variable AbstractConv2d{" in line, log
    for text in (log, line):
        assert [(f.cause, f.confidence) for f in explain_text(text).findings][:1] == [("input-dtype-mismatch", "high")]

# the old ConvOp built for batches of 128 (image_shape, as Lasagne's and Keras 1's layers pass it) given
# the last, smaller batch
CONVOP_BATCH = ("import numpy as np, theano, theano.tensor as T\nfrom theano.tensor.nnet import conv\n"
                "x = T.tensor4('x')\nw = theano.shared(np.ones((2, 1, 3, 3), dtype=theano.config.floatX))\n"
                "f = theano.function([x], conv.conv2d(x, w, image_shape=(128, 1, 8, 8), filter_shape=(2, 1, 3, 3)))\n"
                "f(np.ones((48, 1, 8, 8), dtype=theano.config.floatX))\n")


@pytest.mark.parametrize("env", ["healthy37", "theano082_py27"])
def test_a_batch_size_fixed_when_the_convolution_was_built(legacy_python: Callable[[str], str], theano_home: Path,
                                                           tmp_path: Path, env: str) -> None:
    log = traceback_of(legacy_python(env), CONVOP_BATCH, tmp_path)
    assert "ValueError: The hardcoded shape for the batch size (128) isn't the run time shape (48)." in log
    found = [(f.cause, f.confidence) for f in explain_text(log).findings]
    assert found[:1] == [("model-shape-mismatch", "medium")]
    # Theano 0.6's C code says it so (rel-0.6 theano/tensor/nnet/conv.py:1077)
    old = ("ValueError: the batch size in the image (48) at run time is different than at build time (128) "
           "for the ConvOp.")
    assert [(f.cause, f.confidence) for f in explain_text(old).findings][:1] == [("model-shape-mismatch", "medium")]
    # the same ConvOp built for an image smaller than its kernel refuses it at once
    small = traceback_of(legacy_python(env), CONVOP_BATCH.replace("(128, 1, 8, 8)", "(128, 1, 2, 2)"), tmp_path)
    assert "(Hint: kerns must fit inside image in valid mode)" in small, small
    assert [(f.cause, f.confidence) for f in explain_text(small).findings][:1] == [("model-shape-mismatch", "medium")]


# TensorFlow 1.x refusing a Keras model's tensors in a thread other than the one it was built in (a web
# server's route), as Graph._as_graph_element_locked words it, and through a session's feed
@pytest.mark.parametrize("log", [
    'ValueError: Tensor Tensor("fc1000/Softmax:0", shape=(?, 1000), dtype=float32) is not an element of this graph.\n',
    "TypeError: Cannot interpret feed_dict key as Tensor: Tensor Tensor(\"input_1:0\", shape=(?, 224, 224, 3), "
    "dtype=float32) is not an element of this graph.\n",
])
def test_a_keras_model_used_outside_its_tensorflow_graph(log: str) -> None:
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found] == [("keras-tensorflow-graph-of-another-thread", "medium")]
    assert "graph.as_default()" in found[0].remedy


def test_a_python_2_iterator_class_on_python_3(tmp_path: Path) -> None:
    """A real Python 3 refusing a class that defines Python 2's `next()` alone (the thread-safe iterator
    recipe Keras code wraps its generators in); with `__next__ = next` added it iterates."""
    code = ("class threadsafe_iter:\n    def __init__(self, it):\n        self.it = it\n"
            "    def __iter__(self):\n        return self\n    def next(self):\n        return next(self.it)\n"
            "{}next(threadsafe_iter(iter([1])))\n")
    log = traceback_of(sys.executable, code.format(""), tmp_path)
    assert "TypeError: 'threadsafe_iter' object is not an iterator" in log, log
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("python2-code-on-python3", "medium")]
    fixed = code.format("threadsafe_iter.__next__ = threadsafe_iter.next\n")
    assert subprocess.run([sys.executable, "-c", fixed], capture_output=True).returncode == 0
    # a class of another name is not taken for Python 2's protocol (an ImageDataGenerator given for its flow)
    assert not explain_text("TypeError: 'ImageDataGenerator' object is not an iterator\n").findings
