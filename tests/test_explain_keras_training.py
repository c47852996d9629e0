"""`explain` on Keras' refusals of what its training and prediction calls are given (real Keras 1.2.2,
2.0.8, 2.1.3 and 2.2.4 on Theano): each log is what the release prints for a few lines of code, run here.
The cause is the code's where the call was the code's mistake, another Keras release where the code
was written for one, and Keras' own where a release mishandled the call."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.explain_tables import KERAS_224, KERAS_THEANO, assert_sourced, first_cause, in_front, traceback_of
from theanodoctor.explain import explain_text

# a model of one Dense layer, and a sequence model whose output keeps its time axis
DENSE = ("import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers import Dense\n"
         "model = Sequential([Dense(2, input_dim=3)])\n")
SEQUENCE = ("import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers import LSTM\n"
            "model = Sequential([LSTM(2, input_shape=(4, 3), return_sequences=True)])\n"
            "model.compile('sgd', 'mse')\n")

# (environment, releases in front, code, the line the release prints, the cause named first)
CASES = [
    # Keras 0.x's optimizers kept any keyword; Keras 1 refuses the ones it does not know
    ("keras122_th09", (), "from keras.optimizers import SGD\nSGD(lr=0.1, l2=0.01)\n",
     "Unexpected keyword argument passed to optimizer: l2", "keras-version-mismatch"),
    # Keras 0.3.1's `rmse` objective, gone from 0.3.2 on
    ("keras122_th09", (), DENSE + "model.compile('sgd', 'rmse')\n", "Invalid objective: rmse",
     "keras-version-mismatch"),
    # a focal-loss factory passed uncalled: Keras gets a function back where a tensor of losses belongs
    ("keras208_th09", KERAS_224,
     DENSE + "def focal_loss(gamma=2., alpha=.25):\n    def fixed(y_true, y_pred):\n"
     "        return (y_true - y_pred) ** gamma\n"
     "    return fixed\nmodel.compile('sgd', focal_loss)\n",
     "'function' object has no attribute 'ndim'", "keras-loss-factory-not-called"),
    ("keras208_th09", KERAS_224,
     SEQUENCE + "model.fit(np.ones((2, 4, 3)), np.ones((2, 4, 2)), class_weight={0: 1, 1: 2})\n",
     "class_weight` not supported for 3+ dimensional targets", "keras-class-weight-3d-targets"),
    ("keras208_th09", KERAS_224, DENSE + "model.compile('sgd', 'mse', sample_weight_mode='temporal')\n"
     "model.fit(np.ones((2, 3)), np.ones((2, 2)), sample_weight=np.ones((2, 2)))\n",
     "Timestep-wise sample weighting", "keras-temporal-sample-weight-needs-3d-output"),
    # a plain generator never ends: without steps, Keras cannot know when to stop
    ("keras208_th09", KERAS_224, DENSE + "model.compile('sgd', 'mse')\n"
     "def batches():\n    while True:\n        yield np.ones((2, 3)), np.ones((2, 2))\n"
     "model.evaluate_generator(batches())\n",
     "`steps=None` is only valid for a generator", "keras-generator-steps-not-given"),
    # Keras 2.1.3's evaluate_generator with workers=0 calls next() on the Sequence itself
    ("keras208_th09", ("keras==2.1.3",), DENSE + "from keras.utils import Sequence\nmodel.compile('sgd', 'mse')\n"
     "class Batches(Sequence):\n    def __len__(self):\n        return 1\n"
     "    def __getitem__(self, i):\n        return np.ones((2, 3)), np.ones((2, 2))\n"
     "model.evaluate_generator(Batches(), steps=1, workers=0)\n",
     "'Batches' object is not an iterator", "keras-generator-workers0-sequence-bug"),
    # Keras 1's merge() function, a legacy layer up to Keras 2.1.6, is the module keras.layers.merge in 2.2
    ("keras208_th09", KERAS_224, "from keras.layers import Input, merge\na, b = Input((2,)), Input((2,))\n"
     "merge([a, b], mode='concat')\n", "'module' object is not callable", "keras-version-mismatch"),
    # a schedule of (epoch, lr), which LearningRateScheduler passes from Keras 2.1.4 on, under Keras 2.0.8
    ("keras208_th09", (), DENSE + "from keras.callbacks import LearningRateScheduler\nmodel.compile('sgd', 'mse')\n"
     "model.fit(np.ones((2, 3)), np.ones((2, 2)), verbose=0,\n"
     "          callbacks=[LearningRateScheduler(lambda epoch, lr: lr * 0.9)])\n",
     "missing 1 required positional argument: 'lr'", "keras-version-mismatch"),
    # featurewise statistics asked for and never fit (a warning: the snippet stops after it)
    ("keras208_th09", KERAS_224, "import sys\nimport numpy as np\nfrom keras.preprocessing.image import "
     "ImageDataGenerator\nImageDataGenerator(featurewise_center=True).standardize(np.ones((4, 4, 3)))\nsys.exit(1)\n",
     "but it hasn't been fit on any training data", "keras-image-generator-statistics-not-fit"),
    # the scikit-learn wrapper builds its model in fit()
    ("keras208_th09", KERAS_224, DENSE + "from keras.wrappers.scikit_learn import KerasRegressor\n"
     "KerasRegressor(build_fn=lambda: model).predict(np.ones((2, 3)))\n",
     "'KerasRegressor' object has no attribute 'model'", "keras-sklearn-wrapper-predict-before-fit"),
]

# the messages that alone name nothing: the code the traceback shows decides
READ_FROM_THE_CODE = {"'function' object has no attribute 'ndim'", "'Batches' object is not an iterator",
                      "'module' object is not callable", "missing 1 required positional argument: 'lr'"}


@pytest.mark.parametrize(("env", "release", "code", "message", "cause"), CASES,
                         ids=[case[-1] + "-" + case[0] for case in CASES])
def test_keras_refusals_of_training_arguments(legacy_python: Callable[[str], str], theano_home: Path,
                                              tmp_path: Path, env: str, release: tuple[str, ...], code: str,
                                              message: str, cause: str) -> None:
    python = legacy_python(env)
    front = in_front(python, *release) if release else {}
    log = traceback_of(python, code, tmp_path, {**KERAS_THEANO, **front})
    assert message in log
    assert first_cause(log) == [cause]
    # the exception's own line, as an issue's title quotes it, is enough, but for READ_FROM_THE_CODE
    error = next(line for line in reversed(log.splitlines()) if message in line) + "\n"
    assert first_cause(error) == ([] if message in READ_FROM_THE_CODE else [cause])
    assert explain_text(log).recognised[0].confidence == "medium"
    assert_sourced([(log, cause)])


# Keras 2.2.1-2.2.3's fit_generator hands a validation Sequence to evaluate_generator without its steps
# (workers=0): the same refusal under fit_generator is Keras' bug, not the code's
STEPS_UNDER_FIT = """Traceback (most recent call last):
  File "train.py", line 40, in <module>
    model.fit_generator(train_seq, epochs=2, validation_data=val_seq, workers=0)
  File ".../keras/engine/training.py", line 1415, in fit_generator
    initial_epoch=initial_epoch)
  File ".../keras/engine/training_generator.py", line 230, in fit_generator
    validation_steps,
  File ".../keras/engine/training.py", line 1469, in evaluate_generator
    verbose=verbose)
  File ".../keras/engine/training_generator.py", line 298, in evaluate_generator
    raise ValueError('`steps=None` is only valid for a generator'
ValueError: `steps=None` is only valid for a generator based on the `keras.utils.Sequence` class. \
Please specify `steps` or use the `keras.utils.Sequence` class.
"""


def test_steps_refused_under_fit_generator_is_keras_bug() -> None:
    assert first_cause(STEPS_UNDER_FIT) == ["keras-generator-workers0-sequence-bug"]
    # called by the code itself, the same refusal is the code's missing steps
    direct = STEPS_UNDER_FIT.replace("fit_generator", "evaluate_generator")
    assert first_cause(direct) == ["keras-generator-steps-not-given"]
    # fit_generator's own refusal of a generator without steps_per_epoch (only None meets it)
    per_epoch = ('  File ".../keras/engine/training_generator.py", line 55, in fit_generator\n'
                 "ValueError: `steps_per_epoch=None` is only valid for a generator based on the "
                 "`keras.utils.Sequence` class. Please specify `steps_per_epoch` or use the `keras.utils.Sequence` "
                 "class.\n")
    assert first_cause(per_epoch) == ["keras-generator-steps-not-given"]
    # fit_generator's own refusal of a plain validation generator given a count of 0, or an empty folder
    zero = ('  File "train.py", line 41, in <module>\n    validation_steps=int(val.n / val_batch_size))\n'
            '  File ".../keras/engine/training_generator.py", line 68, in fit_generator\n'
            "ValueError: `validation_steps=None` is only valid for a generator based on the `keras.utils.Sequence` "
            "class. Please specify `validation_steps` or use the `keras.utils.Sequence` class.\n")
    assert first_cause(zero) == []
    assert first_cause("Found 0 images belonging to 0 classes.\n" + direct) == []


@pytest.mark.parametrize(("text", "cause"), [
    # Keras 1's predict_generator copying a batch of 100 into room for val_samples=10
    ('  File "keras/engine/training.py", line 1781, in predict_generator\n'
     "    all_outs[i][processed_samples:(processed_samples + nb_samples)] = out\n"
     "ValueError: could not broadcast input array from shape (100,20) into shape (10,20)\n",
     "keras1-predict-generator-val-samples-overrun"),
    # Python 3.8's warning in pytest's summary, its path on the line above
    ("=============================== warnings summary ===============================\n"
     "/venv/lib/python3.8/site-packages/keras/callbacks/callbacks.py:19\n"
     "  Using or importing the ABCs from 'collections' instead of from 'collections.abc' is deprecated since "
     "Python 3.3, and in 3.9 it will stop working\n", "library-code-deprecation-warning"),
    # TensorFlow's Assign of a saved kernel: another window in the same layout is another model's weights,
    # the same kernel in Theano's layout is the backend's
    ("ValueError: Dimension 0 in both shapes must be equal, but are 3 and 5 for 'Assign_4' (op: 'Assign') "
     "with input shapes: [3,3,16,32], [5,5,16,32].\n", "keras-weights-model-mismatch"),
    ("ValueError: Dimension 0 in both shapes must be equal, but are 3 and 32 for 'Assign_4' (op: 'Assign') "
     "with input shapes: [3,3,16,32], [32,16,3,3].\n", "keras-backend-tensorflow"),
    # Git LFS refusing a repository's weights: its owner's quota is spent
    ("batch response: This repository is over its data quota. Purchase more data packs to restore access.\n",
     "pretrained-weights-unavailable"),
    # Keras 1's show_accuracy warning, its quotes and underscore lost to a Markdown rendering
    ("The show accuracy argument is deprecated, instead you should pass the accuracy metric to the model at "
     'compile time: model.compile(optimizer, loss, metrics=["accuracy"])\n', "keras-version-mismatch"),
])
def test_keras_messages_read_without_a_run(text: str, cause: str) -> None:
    assert first_cause(text) == [cause]


def test_the_abc_warning_of_the_codes_own_file_is_not_a_librarys() -> None:
    own = ("/home/me/train.py:3: DeprecationWarning: Using or importing the ABCs from 'collections' instead of "
           "from 'collections.abc' is deprecated since Python 3.3, and in 3.9 it will stop working\n")
    assert "library-code-deprecation-warning" not in first_cause(own)
