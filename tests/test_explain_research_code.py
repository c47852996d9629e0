"""`explain` on old research code meeting the libraries around it as they are now: OpenAI gym's
retired calls and environments (real gym 0.10.8 on Python 3.7), Caffe's parse of a model definition
newer than itself, pylearn2's cross-validation script given one model, and Keras 2.2.5's own refusal
of TensorFlow 2."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.explain_tables import KERAS_224, assert_sourced, first_cause, in_front, traceback_of
from tests.explain_tables import found as _found
from theanodoctor.explain import explain_text

# the calls of keras-rl's examples and DQN repositories of 2016-2017, each on gym 0.10.8
GYM_CASES = [
    ("env = gym.make('CartPole-v0')\nenv._action_set\n", "'TimeLimit' object has no attribute '_action_set'",
     "medium"),
    ("env = gym.make('CartPole-v0')\nenv.monitor.start('/tmp/cartpole')\n",
     "'TimeLimit' object has no attribute 'monitor'", "medium"),
    ("gym.make('Acrobot-v0')\n", "Env Acrobot-v0 not found (valid versions include ['Acrobot-v1'])", "high"),
    ("gym.undo_logger_setup()\n", "module 'gym' has no attribute 'undo_logger_setup'", "high"),
]


@pytest.mark.parametrize(("code", "message", "level"), GYM_CASES, ids=["private", "monitor", "version", "logger"])
def test_old_agents_on_a_newer_gym(legacy_python: Callable[[str], str], tmp_path: Path, code: str, message: str,
                                   level: str) -> None:
    python = legacy_python("healthy37")
    log = traceback_of(python, "import gym\n" + code, tmp_path, in_front(python, "gym==0.10.8"))
    assert message in log
    assert _found(log)[:1] == [("gym-too-new-for-code", level)]
    assert_sourced([(log, "gym-too-new-for-code")])


def test_gyms_words_that_stay_old_code_and_what_is_not_gyms() -> None:
    # gym v0.7.4 gym/core.py:92 (Env.monitor, December 2016 to June 2017)
    retired = ("gym.error.Error: env.monitor has been deprecated as of 12/23/2016. Remove your call to "
               "`env.monitor.start(directory)` and instead wrap your env with `env = gym.wrappers.Monitor(env, "
               "directory)` to record data.\n")
    assert _found(retired)[:1] == [("gym-too-new-for-code", "high")]
    # gym 0.12.1 gym/core.py:221 (Wrapper.__getattr__ of a private attribute)
    private = "AttributeError: attempted to get missing private attribute '_action_set'\n"
    assert _found(private)[:1] == [("gym-too-new-for-code", "medium")]
    assert "env.unwrapped._action_set" in explain_text(private).findings[0].evidence[0].note
    # a version newer than the installed gym has is no old code's (gym is older than the code)
    newer = ("gym.error.DeprecatedEnv: Env CartPole-v2 not found (valid versions include "
             "['CartPole-v0', 'CartPole-v1'])")
    assert first_cause(newer + "\n") == []
    # a `monitor` attribute missing from the code's own object, not through `env.monitor.start`
    own = ("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    print(agent.monitor)\n"
           "AttributeError: 'Agent' object has no attribute 'monitor'\n")
    assert first_cause(own) == []


# protobuf's text parser on a prototxt with a field this Caffe's caffe.proto lacks (LRN's `k`, added to
# Caffe after its first release candidate), as pycaffe prints it before aborting
CAFFE = ("[libprotobuf ERROR google/protobuf/text_format.cc:245] Error parsing text-format caffe.NetParameter: "
         "12:5: Message type \"caffe.LRNParameter\" has no field named \"k\".\n"
         "F0101 12:00:00.000000  1234 upgrade_proto.cpp:928] Check failed: ReadProtoFromTextFile(param_file, param) "
         "Failed to parse NetParameter file: deploy.prototxt\n*** Check failure stack trace: ***\n"
         "Aborted (core dumped)\n")


def test_a_prototxt_newer_than_the_caffe_that_reads_it() -> None:
    found = explain_text(CAFFE).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("caffe-too-old-for-model-prototxt", "medium")]
    assert "this Caffe's `LRNParameter` has no field `k`" in found[0].evidence[0].note
    assert_sourced([(CAFFE, "caffe-too-old-for-model-prototxt")])
    # another protobuf message than Caffe's network is not a model definition
    other = CAFFE.replace("caffe.NetParameter", "tensorflow.GraphDef").replace("caffe.LRNParameter", "tensorflow.X")
    assert "caffe-too-old-for-model-prototxt" not in [c for c, _ in _found(other)]


# pylearn2/scripts/print_monitor_cv.py (its loop over the pickle's models), given one model's pickle
PRINT_MONITOR_CV = ("Traceback (most recent call last):\n"
                    "  File \"pylearn2/scripts/print_monitor_cv.py\", line 84, in <module>\n    main(**vars(args))\n"
                    "  File \"pylearn2/scripts/print_monitor_cv.py\", line 38, in main\n"
                    "    for model in list(this_models):\nTypeError: '{}' object is not iterable\n")


def test_pylearn2s_cross_validation_script_given_one_model() -> None:
    log = PRINT_MONITOR_CV.format("MLP")
    assert _found(log)[:1] == [("pylearn2-cv-script-on-single-model", "medium")]
    assert_sourced([(log, "pylearn2-cv-script-on-single-model")])
    # the same refusal on another line is not this script's
    other = log.replace("for model in list(this_models):", "for layer in model.layers:")
    assert "pylearn2-cv-script-on-single-model" not in [c for c, _ in _found(other)]


def test_keras_225_refuses_tensorflow_2_itself() -> None:
    # Keras 2.2.5 keras/backend/tensorflow_backend.py:64-73 (_get_default_graph)
    log = ("RuntimeError: It looks like you are trying to use a version of multi-backend Keras that does not "
           "support TensorFlow 2.0. We recommend using `tf.keras`, or alternatively, downgrading to TensorFlow 1.14.\n")
    assert _found(log)[:1] == [("keras-too-old-for-tensorflow2", "high")]
    assert_sourced([(log, "keras-too-old-for-tensorflow2")])


# the sampling step of char-RNN and music models (Keras 1.0's lstm_text_generation.py), on a softmax output
# whose float32 rounding takes all but the last probability above 1: numpy 1.16's words and numpy 2's
MULTINOMIAL = ("import numpy as np\npreds = np.array([0.7, 0.30000004, 1e-9], dtype='float32')\n"
               "np.argmax(np.random.multinomial(1, preds, 1))\n")


def test_keras_24_without_tensorflow_22(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    # the Keras a plain `pip install keras` (or keras-bert's unpinned requirement) brought from 2020 on, in an
    # environment set up without TensorFlow 2.2
    python = legacy_python("healthy37")
    log = traceback_of(python, "import keras\n", tmp_path, in_front(python, "keras==2.4.3"))
    assert "ImportError: Keras requires TensorFlow 2.2 or higher" in log
    assert _found(log)[:1] == [("keras-too-new-for-tensorflow1", "high")]
    assert_sourced([(log, "keras-too-new-for-tensorflow1")])


@pytest.mark.parametrize("env", ["healthy37", "numpy2_311"])
def test_float32_probabilities_sampled_by_numpys_multinomial(legacy_python: Callable[[str], str], tmp_path: Path,
                                                             env: str) -> None:
    log = traceback_of(legacy_python(env), MULTINOMIAL, tmp_path)
    assert "ValueError: sum(pvals[:-1]" in log
    assert _found(log)[:1] == [("multinomial-float32-probabilities-sum-over-one", "medium")]
    assert_sourced([(log, "multinomial-float32-probabilities-sum-over-one")])


def test_keras_222_with_keras_applications_108(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    # Keras 2.2.2 with the keras_applications a later install brings
    python = legacy_python("keras208_th09")
    front = in_front(python, "keras==2.2.2", "keras_applications==1.0.8", "keras_preprocessing==1.0.2")
    log = traceback_of(python, "import keras\n", tmp_path, {"KERAS_BACKEND": "theano", "THEANO_FLAGS": "cxx=", **front})
    assert "module 'keras_applications' has no attribute 'set_keras_submodules'" in log
    assert _found(log)[:1] == [("keras-too-old-for-keras-applications", "high")]
    assert_sourced([(log, "keras-too-old-for-keras-applications")])


def test_a_model_file_naming_batchnormalizationv1(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    # Keras 2.2.4 asked to rebuild a layer of the class name tf.keras 1.13 writes into HDF5 files
    python = legacy_python("keras208_th09")
    code = "import keras\nkeras.layers.deserialize({'class_name': 'BatchNormalizationV1', 'config': {}})\n"
    log = traceback_of(python, code, tmp_path, {"KERAS_BACKEND": "theano", "THEANO_FLAGS": "cxx=",
                                                **in_front(python, *KERAS_224)})
    assert "ValueError: Unknown layer: BatchNormalizationV1" in log
    assert _found(log)[:1] == [("tf-keras-113-saves-batchnormalizationv1", "high")]
    # TensorFlow.js says it its own way
    tfjs = "errors.ts:48 Uncaught (in promise) Error: Unknown layer: BatchNormalizationV1. This may be due to ...\n"
    assert first_cause(tfjs) == ["tf-keras-113-saves-batchnormalizationv1"]


def test_a_script_named_like_the_package_it_imports(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    (tmp_path / "seq2seq.py").write_text("", encoding="utf-8")
    log = traceback_of(legacy_python("healthy37"), "from seq2seq.models import Seq2Seq\n", tmp_path)
    assert "No module named 'seq2seq.models'; 'seq2seq' is not a package" in log
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("local-module-shadowing", "medium")]
    assert "`seq2seq` was imported from a module (`seq2seq.py`)" in found[0].evidence[0].note


def test_nltk_data_never_downloaded(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    # skip-thoughts' sentence splitter on an NLTK without its punkt data; the paste cut after the box's first line
    python = legacy_python("healthy37")
    code = "import nltk\nnltk.data.load('tokenizers/punkt/english.pickle')\n"
    log = traceback_of(python, code, tmp_path, {"NLTK_DATA": str(tmp_path), "HOME": str(tmp_path),
                                                **in_front(python, "nltk==3.2.5", "six==1.12.0")})
    assert "raise LookupError(resource_not_found)" in log
    cut = log[:log.index("LookupError: ") + len("LookupError: ")] + "\n" + "*" * 70 + "\n"
    assert first_cause(cut) == ["nltk-data-not-downloaded"]
    assert first_cause(log) == ["nltk-data-not-downloaded"]


# keras-contrib's split of February 2019, as code of 2017-2018 meets it (the package cannot be installed
# here: it was never published on PyPI), and the add-ons pip and easy_install find nowhere on the index
KERAS_CONTRIB = ("Using TensorFlow backend.\nTraceback (most recent call last):\n  File \"discogan.py\", line 5, in "
                 "<module>\n    from keras_contrib.layers.normalization import InstanceNormalization\n"
                 "ImportError: cannot import name 'InstanceNormalization'\n")
NOT_ON_PYPI = [
    "Collecting keras-contrib==2.0.8 (from -r requirements.txt (line 27))\n  Could not find a version that satisfies "
    "the requirement keras-contrib==2.0.8 (from -r requirements.txt (line 27)) (from versions: )\nNo matching "
    "distribution found for keras-contrib==2.0.8 (from -r requirements.txt (line 27))\n",
    "ERROR: Could not find a version that satisfies the requirement recurrentshop (from versions: none)\n"
    "ERROR: No matching distribution found for recurrentshop\n",
    "Searching for recurrentshop\nReading https://pypi.python.org/simple/recurrentshop/\nCouldn't find index page for "
    "'recurrentshop' (maybe misspelled?)\nNo local packages or working download links found for recurrentshop\n",
]


def test_keras_contrib_layers_from_the_modules_it_split() -> None:
    assert _found(KERAS_CONTRIB)[:1] == [("keras-contrib-import-path-moved", "high")]
    assert "`InstanceNormalization` is importable from `keras_contrib.layers`" in \
        explain_text(KERAS_CONTRIB).findings[0].evidence[0].note
    # the same name refused by another module is not keras-contrib's split
    other = KERAS_CONTRIB.replace("keras_contrib.layers.normalization", "layers")
    assert "keras-contrib-import-path-moved" not in [c for c, _ in _found(other)]


@pytest.mark.parametrize("log", NOT_ON_PYPI, ids=["pip9", "pip20", "easy_install"])
def test_keras_addons_that_pypi_never_had(log: str) -> None:
    assert _found(log)[:1] == [("dependency-not-on-pypi", "high")]
    assert_sourced([(log, "dependency-not-on-pypi")])
    # a package PyPI has, not found for this Python, stays pip's own reading
    other = log.replace("recurrentshop", "tensorflow-gpu").replace("keras-contrib", "tensorflow-gpu")
    assert "dependency-not-on-pypi" not in [c for c, _ in _found(other)]


def test_rl_research_code_around_its_simulator() -> None:
    # rllab's binding before scripts/setup_mujoco.sh put MuJoCo 1.31 in vendor/mujoco
    mujoco = "OSError: ../vendor/mujoco/libmujoco131.so: cannot open shared object file: No such file or directory\n"
    assert _found(mujoco)[:1] == [("mujoco-library-missing", "high")]
    # a fork's modules missing from the rllab Python imported
    fork = ("Traceback (most recent call last):\n  File \"maml_examples/maml_trpo_ant.py\", line 1, in <module>\n"
            "    from sandbox.rocky.tf.algos.maml_trpo import MAMLTRPO\n"
            "ImportError: No module named 'sandbox.rocky.tf.algos.maml_trpo'\n")
    assert _found(fork)[:1] == [("upstream-package-shadows-bundled-fork", "medium")]
    # rllab missing altogether is not another rllab first on the path
    missing = "ImportError: No module named 'rllab'\n"
    assert "upstream-package-shadows-bundled-fork" not in [c for c, _ in _found(missing)]
    # a Ctrl-C on Windows, where Intel's Fortran runtime of Anaconda's scipy ends the run
    ctrl_c = ("Average Loss = 1.0204e+05:   0%|6    | 730/200000 [01:39<7:31:27,  7.36it/s]forrtl: error (200): "
              "program aborting due to control-C event\nImage              PC                Routine            Line"
              "        Source\nlibifcoremd.dll    00007FFF43DF94C4  Unknown               Unknown  Unknown\n")
    assert _found(ctrl_c)[:1] == [("windows-ctrl-c-intel-fortran-abort", "high")]
    assert_sourced([(mujoco, "mujoco-library-missing"), (fork, "upstream-package-shadows-bundled-fork"),
                    (ctrl_c, "windows-ctrl-c-intel-fortran-abort")])


# Keras' multi_gpu_model check, its message built as each release builds it
MULTI_GPU = ("ValueError: To call `multi_gpu_model` with `gpus={n}`, we expect the following devices to be available: "
             "{want}. However this machine only has: {have}. Try reducing `gpus`.\n")


def _multi_gpu(n: int, have: list[str]) -> str:
    return MULTI_GPU.format(n=n, want=["/cpu:0"] + [f"/gpu:{i}" for i in range(n)], have=have)


def test_multi_gpu_models_device_check() -> None:
    # the first multi_gpu_model (October 2017) prints TensorFlow's names as they come
    unnormalised = _multi_gpu(4, ["/device:CPU:0"] + [f"/device:GPU:{i}" for i in range(4)])
    assert _found(unnormalised)[:1] == [("keras-multi-gpu-model-device-check-bug", "high")]
    # Keras 2.0.9 on: fewer GPUs than asked for
    fewer = _multi_gpu(8, ["/cpu:0", "/xla_cpu:0", "/xla_gpu:0", "/gpu:0"])
    assert _found(fewer)[:1] == [("multi-gpu-count-exceeds-available-gpus", "medium")]
    # GPUs TensorFlow sees only as XLA devices are not a question of their number
    xla = _multi_gpu(4, ["/cpu:0"] + [f"/xla_gpu:{i}" for i in range(4)])
    assert first_cause(xla) == []
    assert_sourced([(unnormalised, "keras-multi-gpu-model-device-check-bug"),
                    (fewer, "multi-gpu-count-exceeds-available-gpus")])


def test_weights_of_another_model() -> None:
    # YAD2K's and keras-yolo3's convert.py reading Darknet weights for the layers of another .cfg
    darknet = ("Traceback (most recent call last):\n  File \"convert.py\", line 140, in _main\n"
               "    buffer=weights_file.read(weights_size * 4))\nTypeError: buffer is too small for requested array\n")
    assert _found(darknet)[:1] == [("keras-weights-model-mismatch", "medium")]
    # Keras 2.2.4 keras/engine/saving.py:1143-1149, loading by name into a model of other classes
    by_name = ("ValueError: Layer #391 (named \"mrcnn_bbox_fc\"), weight <tf.Variable 'mrcnn_bbox_fc/kernel:0' "
               "shape=(1024, 324) dtype=float32_ref> has shape (1024, 324), but the saved weight has shape "
               "(1024, 132).\n")
    found = explain_text(by_name).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("keras-weights-model-mismatch", "medium")]
    assert "layer `mrcnn_bbox_fc` is (1024, 324) in the model and (1024, 132) in the file" in found[0].evidence[0].note


def test_tensorflow_1_code_on_tensorflow_2() -> None:
    code = ("Traceback (most recent call last):\n  File \"pipeline.py\", line 8, in <module>\n"
            "    graph = tf.get_default_graph()\n"
            "AttributeError: module 'tensorflow' has no attribute 'get_default_graph'\n")
    assert _found(code)[:1] == [("tf1-api-code-on-tensorflow2", "medium")]
    # a name no Keras backend calls is the code's even without its line
    removed = "AttributeError: module 'tensorflow' has no attribute 'log'\n"
    assert first_cause(removed) == ["tf1-api-code-on-tensorflow2"]
    # Keras' own name alone may be its backend's: not the code's at medium
    alone = "AttributeError: module 'tensorflow' has no attribute 'get_default_graph'\n"
    assert "tf1-api-code-on-tensorflow2" not in first_cause(alone)
    assert_sourced([(code, "tf1-api-code-on-tensorflow2")])


# keras-rl's callbacks call Keras' Progbar.update with `force=`, which Keras 2.1.4 dropped: keras-rl's
# own package (`rl`) in the path shows the call is Keras'
KERAS_RL = ("Traceback (most recent call last):\n  File \"dqn_atari.py\", line 111, in <module>\n"
            "    dqn.fit(env, callbacks=callbacks, nb_steps=1750000, log_interval=10000)\n"
            "  File \"/usr/local/lib/python3.5/dist-packages/rl/callbacks.py\", line 245, in on_step_end\n"
            "    self.progbar.update((self.step % self.interval) + 1, values=values, force=True)\n"
            "TypeError: update() got an unexpected keyword argument 'force'\n")


def test_keras_rls_call_of_a_keyword_keras_dropped() -> None:
    assert _found(KERAS_RL)[:1] == [("keras-version-mismatch", "medium")]
    # the same refusal from a package of another name does not show it is Keras'
    other = KERAS_RL.replace("dist-packages/rl/", "dist-packages/agents/")
    assert _found(other)[:1] == [("keras-version-mismatch", "low")]
