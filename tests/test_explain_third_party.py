"""`explain` on the messages of the newer third-party libraries that Theano-era code runs beside
Theano (h5py, Pillow, scikit-learn, matplotlib, pandas, protobuf, OpenCV, gensim, NLTK,
pydot/Graphviz, tqdm, imageio, pickles): each log is the upstream message as the library prints
it, in the traceback a user meets; the comment names the upstream file or release note."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests import legacy_envs
from tests.explain_tables import assert_sourced, first_cause, traceback_of
from theanodoctor.explain import explain_text

KERAS_LOAD = (
    "Traceback (most recent call last):\n"
    "  File \"test.py\", line 12, in <module>\n"
    "    model = load_model('weights/model.h5')\n"
    "  File \"/usr/local/lib/python3.7/site-packages/keras/engine/saving.py\", line 458, in load_wrapper\n"
    "  File \"/usr/local/lib/python3.7/site-packages/keras/engine/saving.py\", line 1004, in "
    "load_weights_from_hdf5_group\n"
    "    original_keras_version = f.attrs['keras_version'].decode('utf8')\n"
    "AttributeError: 'str' object has no attribute 'decode'\n")

CASES = [
    # Keras 2.3.1 keras/engine/saving.py:1183 with h5py 3 (docs.h5py.org whatsnew 3.0)
    (KERAS_LOAD, "h5py3-keras-decode"),
    # h5py 3.0 removed Dataset.value
    ("  File \"prepare.py\", line 8, in <module>\n    x = h5py.File(path, 'r')['data'].value\n"
     "AttributeError: 'Dataset' object has no attribute 'value'\n", "h5py3-dataset-value-removed"),
    # Keras 2.2.4 keras/engine/saving.py:414
    ("  File \"/opt/conda/lib/python2.7/site-packages/keras/engine/saving.py\", line 414, in load_model\n"
     "    raise ImportError('`load_model` requires h5py.')\nImportError: `load_model` requires h5py.\n",
     "h5py-missing"),
    # Pillow 10.0.0 release notes: constants removed
    ("    img = img.resize((w, h), Image.ANTIALIAS)\nAttributeError: module 'PIL.Image' has no attribute 'ANTIALIAS'\n",
     "pillow-api-removed"),
    ("    w, h = draw.textsize(text, font=font)\nAttributeError: 'ImageDraw' object has no attribute 'textsize'\n",
     "pillow-api-removed"),
    # Pillow 7.0.0 release notes: PILLOW_VERSION removed (torchvision < 0.5 imports it)
    ("  File \"/usr/lib/python3.6/site-packages/torchvision/transforms/functional.py\", line 5, in <module>\n"
     "    from PIL import Image, ImageOps, ImageEnhance, PILLOW_VERSION\n"
     "ImportError: cannot import name 'PILLOW_VERSION' from 'PIL' (/usr/lib/python3.6/site-packages/PIL/__init__.py)\n",
     "pillow-api-removed"),
    # scikit-learn 0.20 removed cross_validation (v0.18 notes); 0.23 removed externals.joblib (v0.21 notes)
    ("    from sklearn.cross_validation import train_test_split\n"
     "ModuleNotFoundError: No module named 'sklearn.cross_validation'\n", "sklearn-module-removed"),
    ("    from sklearn.externals import joblib\n"
     "ImportError: cannot import name 'joblib' from 'sklearn.externals' "
     "(/usr/lib/python3.8/site-packages/sklearn/externals/__init__.py)\n",
     "sklearn-module-removed"),
    # Tk without a display (matplotlib backends documentation)
    ("  File \"/usr/lib/python3.6/tkinter/__init__.py\", line 2020, in __init__\n"
     "    self.tk = _tkinter.create(screenName, baseName, className, interactive, wantobjects, useTk, sync, use)\n"
     "_tkinter.TclError: no display name and no $DISPLAY environment variable\n", "matplotlib-no-display"),
    # matplotlib 3.0 removed hold
    ("    plt.hold(True)\nAttributeError: module 'matplotlib.pyplot' has no attribute 'hold'\n",
     "matplotlib-api-removed"),
    # pandas 1.0 removed .ix and as_matrix
    ("    y = df.ix[:, 0]\n  File \"/usr/lib/python3.8/site-packages/pandas/core/generic.py\", line 5274, "
     "in __getattr__\n"
     "AttributeError: 'DataFrame' object has no attribute 'ix'\n", "pandas-api-removed"),
    ("AttributeError: 'DataFrame' object has no attribute 'as_matrix'\n", "pandas-api-removed"),
    # protobuf 4.21 (protobuf.dev news 2022-05-06)
    ("  File \"/usr/lib/python3.9/site-packages/google/protobuf/descriptor.py\", line 755, in __new__\n"
     "    _message.Message._CheckCalledFromGeneratedFile()\n"
     "TypeError: Descriptors cannot not be created directly.\n"
     "If this call came from a _pb2.py file, your generated code is out of date and must be regenerated "
     "with protoc >= 3.19.0.\n",
     "protobuf4-old-generated-code"),
    # OpenCV 3.0 removed cv2.cv
    ("    fourcc = cv2.cv.CV_FOURCC(*'XVID')\nAttributeError: module 'cv2' has no attribute 'cv'\n",
     "opencv3-cv-module-removed"),
    ("    img = cv2.imread(path, cv2.CV_LOAD_IMAGE_GRAYSCALE)\nAttributeError: 'module' object has no "
     "attribute 'CV_LOAD_IMAGE_GRAYSCALE'\n",
     "opencv3-cv-module-removed"),
    # opencv-python's GUI build links libGL (opencv-python README: headless packages)
    ("    import cv2\nImportError: libGL.so.1: cannot open shared object file: No such file or directory\n",
     "opencv-system-libs-missing"),
    # OpenCV 3 returned three values from findContours
    ("    _, contours, hierarchy = cv2.findContours(mask, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)\n"
     "ValueError: not enough values to unpack (expected 3, got 2)\n", "opencv4-findcontours-two-values"),
    # gensim 4.0.0 gensim/models/keyedvectors.py:646
    ("  File \"/usr/lib/python3.8/site-packages/gensim/models/keyedvectors.py\", line 735, in vocab\n"
     "AttributeError: The vocab attribute was removed from KeyedVector in Gensim 4.0.0.\n", "gensim4-api-removed"),
    ("    model = gensim.models.Word2Vec(sentences, size=300, window=5)\n"
     "TypeError: __init__() got an unexpected keyword argument 'size'\n", "gensim4-api-removed"),
    # nltk 3.8.1 nltk/data.py:565-566, with the terminal colours NLTK prints around the name
    ("LookupError: \n*****\n  Resource \x1b[93mpunkt\x1b[0m not found.\n"
     "  Please use the NLTK Downloader to obtain the resource:\n\n  >>> import nltk\n  >>> nltk.download('punkt')\n",
     "nltk-data-not-downloaded"),
    # Theano rel-1.0.5 theano/printing.py:780; Keras 2.2.4 keras/utils/vis_utils.py:28; pydot v1.4.2 pydot.py:1931
    ("RuntimeError: Failed to import pydot. You must install graphviz and either pydot or pydot-ng for "
     "`pydotprint` to work.\n",
     "graphviz-pydot-missing"),
    ("OSError: `pydot` failed to call GraphViz.Please install GraphViz (https://www.graphviz.org/) and "
     "ensure that its executables are in the $PATH.\n",
     "graphviz-pydot-missing"),
    ("FileNotFoundError: [Errno 2] \"dot\" not found in path.\n", "graphviz-pydot-missing"),
    # PyMC3 pymc3/model_graph.py (ModelGraph.make_graph), the `graphviz` Python package missing
    ("ImportError: This function requires the python library graphviz, along with binaries. The easiest "
     "way to install all of this is by running\n\n\tconda install -c conda-forge python-graphviz\n",
     "graphviz-pydot-missing"),
    # pydot v1.1.0 pydot.py:410, gone in 1.2.0; Theano rel-0.7 theano/printing.py:19
    ("  File \"/usr/lib/python2.7/site-packages/theano/printing.py\", line 19, in <module>\n"
     "    if pd.find_graphviz():\nAttributeError: 'module' object has no attribute 'find_graphviz'\n",
     "pydot-find-graphviz-removed"),
    # imageio v2.5.0 imageio/plugins/ffmpeg.py:38-41
    ("  File \"/usr/lib/python3.6/site-packages/moviepy/config.py\", line 36, in <module>\n"
     "    imageio.plugins.ffmpeg.download()\n"
     "RuntimeError: imageio.ffmpeg.download() has been deprecated. Use 'pip install imageio-ffmpeg' instead.'\n",
     "ffmpeg-missing-for-video"),
    # Python 2.7 reading a Python 3 pickle
    ("    data = cPickle.load(f)\nValueError: unsupported pickle protocol: 3\n", "pickle-protocol-too-new"),
    # numpy/lib/format.py read_array on a Python 2 object array
    ("UnicodeError: Unpickling a python object failed: UnicodeDecodeError('ascii', b'\\x80', 0, 1, "
     "'ordinal not in range(128)')\n"
     "You may need to pass the encoding= option to numpy.load\n", "python2-pickle-on-python3"),
    ("    from PIL import Image\nModuleNotFoundError: No module named 'PIL'\n", "pip-name-differs-from-module"),
    # HDF5's open error with errno 2: the file is not there
    ("OSError: Unable to open file (unable to open file: name = 'weights/vgg16.h5', errno = 2, "
     "error message = 'No such file or directory', flags = 0, o_flags = 0)\n", "dataset-file-missing"),
    # a Git LFS pointer under the .h5 name (github.com/wassname/satellite_leak_detection/issues/1)
    ("  File \"h5py/h5f.pyx\", line 78, in h5py.h5f.open\nOSError: Unable to open file (file signature not found)\n",
     "hdf5-file-not-hdf5"),
    ("ModuleNotFoundError: No module named '_tkinter'\n", "tkinter-missing"),
    ("ImportError: No module named _tkinter, please install the python-tk package\n", "tkinter-missing"),
    # matplotlib src/_macosx.m
    ("RuntimeError: Python is not installed as a framework. The Mac OS X backend will not be able to function "
     "correctly if Python is not installed as a framework.\n", "matplotlib-macosx-framework"),
    # xlrd 2.0.0 changes: .xls only
    ("  File \"/usr/lib/python3.7/site-packages/xlrd/__init__.py\", line 170, in open_workbook\n"
     "    raise XLRDError(FILE_FORMAT_DESCRIPTIONS[file_format]+'; not supported')\n"
     "xlrd.biffh.XLRDError: Excel xlsx file; not supported\n", "xlrd2-no-xlsx"),
    # scikit-learn 0.22 removed Imputer, 0.23 utils.linear_assignment_
    ("ImportError: cannot import name 'Imputer' from 'sklearn.preprocessing'\n", "sklearn-module-removed"),
    ("ModuleNotFoundError: No module named 'sklearn.utils.linear_assignment_'\n", "sklearn-module-removed"),
    # OpenCV's highgui without a GUI backend (opencv-python-headless)
    ("cv2.error: OpenCV(4.5.1) /io/opencv/modules/highgui/src/window.cpp:651: error: (-2:Unspecified "
     "error) The function is not implemented. Rebuild the library with Windows, GTK+ 2.x or Cocoa support. If you "
     "are on Ubuntu or Debian, install libgtk2.0-dev and pkg-config, then re-run cmake or configure script in "
     "function 'cvShowImage'\n", "opencv-no-gui"),
    # cv2.imread gave None: OpenCV 4 and OpenCV 3 wordings of the assertion that follows
    ("cv2.error: OpenCV(4.1.1) /io/opencv/modules/imgproc/src/color.cpp:182: error: (-215:Assertion failed) "
     "!_src.empty() in function 'cvtColor'\n", "dataset-file-missing"),
    ("cv2.error: /io/opencv/modules/highgui/src/window.cpp:325: error: (-215) size.width>0 && size.height>0 "
     "in function imshow\n", "dataset-file-missing"),
    # scikit-learn 0.22 made sklearn.ensemble.forest private and 0.24 removed it: an old pickled model
    ("  File \"/usr/lib/python3.9/site-packages/joblib/numpy_pickle.py\", line 585, in load\n"
     "ModuleNotFoundError: No module named 'sklearn.ensemble.forest'\n", "sklearn-module-removed"),
    # old networkx drawing on a newer matplotlib
    ("AttributeError: module 'matplotlib.cbook' has no attribute 'iterable'\n", "matplotlib-api-removed"),
    ("ModuleNotFoundError: No module named 'pandas.io.data'\n", "pandas-api-removed"),
    # pandas 1.0 removed concat's join_axes, which PyMC3 v3.7 pymc3/stats.py:991 passes
    ("--> 991                          axis=1, join_axes=[dforg.index])\n\n"
     "TypeError: concat() got an unexpected keyword argument 'join_axes'\n", "pandas-api-removed"),
    # matplotlib 3.1 removed hist's normed: it reaches the patches, which refuse a property they lack
    ("AttributeError: 'Rectangle' object has no property 'normed'\n", "matplotlib-api-removed"),
    ("    vec = model['king']\n  File \"/usr/lib/python3.8/site-packages/gensim/models/word2vec.py\", line 10\n"
     "TypeError: 'Word2Vec' object is not subscriptable\n", "gensim4-api-removed"),
    # Keras 2.0.8 keras/utils/conv_utils.py:56-64: 'full' only on the Theano backend
    ("ValueError: The `padding` argument must be one of \"valid\", \"same\" (or \"causal\" for Conv1D). "
     "Received: full\n", "keras-backend-tensorflow"),
    # Keras 1.0.7 keras/backend/tensorflow_backend.py:669 (tf.concat(axis, tensors)) on TensorFlow 1.x
    ("    return_sequences=True))\nTypeError: Expected int32, got <tf.Variable 'lstm_1_W_i:0' shape=(1, 50) "
     "dtype=float32_ref> of type 'Variable' instead.\n", "keras-backend-tensorflow"),
    # the same on TensorFlow 1.0's older repr of a variable
    ("TypeError: Expected int32, got <tensorflow.python.ops.variables.Variable object at 0x111e4c8d0> of type "
     "'Variable' instead.\n", "keras-backend-tensorflow"),
    # multiprocessing's MaybeEncodingError quoting the worker's recursion error (PyMC3 njobs, pickling a trace)
    ("multiprocessing.pool.MaybeEncodingError: Error sending result: '[<MultiTrace: 1 chains, 10 iterations, 2106 "
     "variables>]'. Reason: 'RuntimeError('maximum recursion depth exceeded',)'\n", "python-recursion-limit"),
    # PyMC3 v3.7 pymc3/plots/__init__.py:20-23: a plot called where ArviZ, optional there, is missing
    ("ImportError: ArviZ is not installed. In order to use `plot_trace`:\npip install arviz\n",
     "package-not-in-this-python"),
    # Keras 1.2.2 keras/models.py:39: save_model imports h5py inside the function
    ("  File \"/env/lib/python3.5/site-packages/keras/models.py\", line 39, in save_model\n    import h5py\n"
     "ImportError: No module named 'h5py'\n", "h5py-missing"),
    # numpy 1.16's FutureWarning in ArviZ's code, which no Theano-stack path of the warning names
    ("/home/u/arviz/arviz/data/io_pymc3.py:56: FutureWarning: arrays to stack must be passed as a \"sequence\" "
     "type such as list or tuple. Support for non-sequence iterables such as generators is deprecated as of NumPy "
     "1.16 and will raise an error in the future.\n  chain_likelihoods.append(np.stack(log_like))\n",
     "library-code-deprecation-warning"),
    # numpy 1.15's FutureWarning in mkl_fft's code, under PyMC3's sampler (NUTS names its variables)
    ("NUTS: [mu1]\n/env/lib/python3.6/site-packages/mkl_fft/_numpy_fft.py:1044: FutureWarning: Using a non-tuple "
     "sequence for multidimensional indexing is deprecated; use `arr[tuple(seq)]` instead of `arr[seq]`.\n",
     "library-code-deprecation-warning"),
    # numpy 1.17's FutureWarning in TensorFlow 1.14's own dtypes.py, under Keras (tensorflow/tensorflow#32553)
    ("Using TensorFlow backend.\n/env/lib/python3.6/site-packages/tensorflow/python/framework/dtypes.py:516: "
     "FutureWarning: Passing (type, 1) or '1type' as a synonym of type is deprecated; in a future version of numpy, it "
     "will be understood as (type, (1,)) / '(1,)type'.\n  _np_qint8 = np.dtype([(\"qint8\", np.int8, 1)])\n",
     "library-code-deprecation-warning"),
    # PyMC3 v3.11.5 pymc3/step_methods/hmc/base_hmc.py (warnings): many of a chain's draws diverged, and all
    ("Sampling 4 chains: 100%|##########| 8000/8000 [00:37<00:00, 215.91draws/s]\n"
     "ERROR:pymc3:There were 1907 divergences after tuning. Increase `target_accept` or reparameterize.\n",
     "pymc3-sampler-not-converged"),
    ("ERROR:pymc3:The chain contains only diverging samples. The model is probably misspecified.\n",
     "model-numerics-nan"),
    # Theano's VM puts its words before the compile's error (rel-1.0.5 theano/gof/vm.py:1099)
    ("RuntimeError: ('The following error happened while compiling the node', Elemwise{Composite{[Composite{"
     "[add(i0, i1)]}(i0, i1)]}}(x, y), '\\n', 'maximum recursion depth exceeded while calling a Python object')\n",
     "python-recursion-limit"),
    # IPython's header (IPython/core/ultratb.py) of a traceback a post cut before its last line
    ("RecursionError                            Traceback (most recent call last)\n<ipython-input-38-08c8b518c57a> "
     "in <module>()\n---> 10     trace = sample(2000, step, njobs=4)\n", "python-recursion-limit"),
    # pydot 1.2/1.3 print the command line, Anaconda's dot.bat in it (pydot v1.3.0 pydot.py:1879); 1.4.1 the
    # program and its arguments (v1.4.1 pydot.py:1934), under an Anaconda on Windows
    ("['dot.bat', '-Tps', 'C:\\\\Users\\\\u\\\\AppData\\\\Local\\\\Temp\\\\tmpa1'] return code: 1\n\n"
     "stdout, stderr:\n b''\n"
     "  File \"D:\\Program Files\\Anaconda3\\lib\\site-packages\\pydot.py\", line 1886, in create\n"
     "    assert p.returncode == 0, p.returncode\nAssertionError: 1\n", "pydot-windows-conda-dot-bat"),
    ("\"dot\" with args ['-Tps', 'C:\\\\Users\\\\u\\\\AppData\\\\Local\\\\Temp\\\\tmp9j'] returned code: 1\n\n"
     "  File \"C:\\Users\\u\\AppData\\Local\\Continuum\\anaconda3\\lib\\site-packages\\pydot.py\", line 1945, "
     "in create\n    assert process.returncode == 0, process.returncode\nAssertionError: 1\n",
     "pydot-windows-conda-dot-bat"),
    # Keras 1.2.1 keras/wrappers/scikit_learn.py:87 (get_params(self, _)) under scikit-learn's clone, which
    # passes deep= (sklearn/base.py:49): the other releases take it
    ("  File \"/usr/lib/python2.7/site-packages/sklearn/base.py\", line 49, in clone\n"
     "    new_object_params = estimator.get_params(deep=False)\n"
     "TypeError: get_params() got an unexpected keyword argument 'deep'\nUsing Theano backend.\n",
     "keras-version-mismatch"),
    # hyperas 0.4 hyperas/optim.py:96-101 imports the script it wrote (a SyntaxError's location header names
    # it); hyperas/utils.py:40 parses the cleaned source first (named <unknown>)
    ("  File \"/home/u/lib/python3.6/site-packages/hyperas/optim.py\", line 109, in base_minimizer\n"
     "    from temp_model import keras_fmin_fnct, get_space\n  File \"/home/u/run/temp_model.py\", line 143\n"
     "    inp = 'data.txt'\n    ^\nIndentationError: unexpected indent\n", "hyperas-template-indentation"),
    ("  File \"C:\\Anaconda3\\lib\\site-packages\\hyperas\\utils.py\", line 31, in extract_imports\n"
     "    tree = ast.parse(source)\n  File \"C:\\Anaconda3\\lib\\ast.py\", line 35, in parse\n"
     "    return compile(source, filename, mode, PyCF_ONLY_AST)\n  File \"<unknown>\", line 35\n"
     "    if conditional({{choice(['three', 'four'])}}) == 'four':\n    ^\nIndentationError: unexpected indent\n",
     "hyperas-template-indentation"),
    # hyperas 0.4.1 README.md:231-239: in a notebook, notebook_name
    ("  File \"C:\\Anaconda3\\lib\\site-packages\\hyperas\\optim.py\", line 178, in get_hyperopt_model_string\n"
     "    with open(calling_script_file, 'r') as f:\n\n"
     "OSError: [Errno 22] Invalid argument: 'C:\\\\Users\\\\u\\\\<ipython-input-1-1933c0fc7242>'\n",
     "hyperas-notebook-name-missing"),
    # Python 3's open() without an encoding decodes with the locale's (cp1252 on Windows)
    ("  File \"C:\\Anaconda3\\lib\\encodings\\cp1252.py\", line 23, in decode\n"
     "    return codecs.charmap_decode(input,self.errors,decoding_table)[0]\n"
     "UnicodeDecodeError: 'charmap' codec can't decode byte 0x9d in position 2273: character maps to <undefined>\n",
     "text-file-read-with-locale-encoding"),
    # Keras 2.0.6 keras/preprocessing/text.py:41 on Python 2 with a unicode text (2.0.7 fixed it)
    ("/usr/local/lib/python2.7/site-packages/keras/preprocessing/text.pyc in text_to_word_sequence(text, filters, "
     "lower, split)\n---> 32     text = text.translate(maketrans(filters, split*len(filters)))\n\n"
     "TypeError: character mapping must return integer, None or unicode\n", "keras-text-unicode-on-python2"),
    # Keras 2.2.4 keras/utils/data_utils.py:219-226: the server has no file there (not the network)
    ("Exception: URL fetch failure on https://ibm.box.com/shared/static/trt.tgz: 404 -- Not Found\n",
     "pretrained-weights-unavailable"),
    ("Exception: URL fetch failure on https://s3.amazonaws.com/x/vgg16.h5: None -- [Errno 110] Connection timed "
     "out\n", "keras-download-failed"),
    # TensorFlow given a Theano variable: Keras on the Theano backend (its Input `input_2`), or Keras on
    # TensorFlow with the code's own Theano symbol
    ("TypeError: Expected binary or unicode string, got input_2\n", "keras-code-needs-tensorflow-backend"),
    ("  File \"/usr/lib/python3.6/site-packages/keras/backend/tensorflow_backend.py\", line 1864, in flatten\n"
     "    return tf.reshape(x, [-1])\nTypeError: Expected binary or unicode string, got test\n",
     "keras-backend-tensorflow"),
]


@pytest.mark.parametrize("text, cause", CASES, ids=[f"{c}-{i}" for i, (_, c) in enumerate(CASES)])
def test_an_upstream_message_names_its_cause_first(text, cause):
    assert first_cause(text) == [cause]


def test_python_38_and_later_warn_compiling_an_older_theano(legacy_python):
    # real Theano 1.0.3's theano/gof/opt.py (`len(tracks) is 0`, changed by 1.0.5) compiled by a real
    # Python 3.11, as its first import does: the warnings module prints the library's file and line
    find = "import importlib.util; print(importlib.util.find_spec('theano').submodule_search_locations[0])"
    folder = subprocess.run([legacy_python("theano103_np116"), "-c", find], capture_output=True, text=True,
                            timeout=120, check=True).stdout.strip()
    compiled = subprocess.run([legacy_python("py311_np123"), "-W", "always::SyntaxWarning", "-c",
                               "import sys\nwith open(sys.argv[1]) as f: compile(f.read(), sys.argv[1], 'exec')",
                               str(Path(folder) / "gof" / "opt.py")], capture_output=True, text=True, timeout=120)
    assert 'opt.py:1287: SyntaxWarning: "is" with a literal' in compiled.stderr, compiled.stderr
    found = explain_text(compiled.stderr).recognised
    assert [(f.cause, f.confidence, f.warning) for f in found] == [("library-code-deprecation-warning", "medium",
                                                                    True)]
    # the code's own file is no library's
    assert explain_text(compiled.stderr.replace(folder, "/home/u/project")).recognised == ()


def test_h5py_warning_on_import_under_a_newer_numpy_is_a_library_deprecation(legacy_python):
    # Keras 1.2.2's h5py 2.7.1 imported under a real numpy 1.14 (in front of the environment's own)
    python = legacy_python("keras122_th09")
    numpy = legacy_envs.release(python, "numpy==1.14.6")
    log = subprocess.run([python, "-c", "import h5py"], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(numpy)}).stderr
    assert "h5py/__init__.py:36: FutureWarning: Conversion of the second argument of issubdtype" in log, log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence, f.warning) for f in found] == [("library-code-deprecation-warning", "medium",
                                                                    True)]
    assert_sourced([(log, "library-code-deprecation-warning")])
    # the warning as a paste that lost its path: h5py's import line under it names the library
    pathless = log[log.index("FutureWarning: Conversion"):]
    found = explain_text(pathless).recognised
    assert [(f.cause, f.confidence, f.warning) for f in found] == [("library-code-deprecation-warning", "medium",
                                                                    True)], pathless
    assert explain_text(pathless.splitlines()[0] + "\n").recognised == ()
    # the same warning before the traceback of a run that failed is not its cause
    failed = log + "Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\nKeyError: 'lr'\n"
    assert first_cause(failed) == []


def test_every_third_party_finding_carries_an_openable_source_and_a_remedy():
    assert_sourced(CASES)


def test_a_str_decode_error_outside_keras_hdf5_loading_is_no_h5py_cause():
    # Python 2 code calls .decode() on str in many places; only Keras' HDF5 loader makes it h5py 3.
    plain = "    line = line.decode('utf-8')\nAttributeError: 'str' object has no attribute 'decode'\n"
    assert "h5py3-keras-decode" not in [f.cause for f in explain_text(plain).recognised]
    finding = explain_text(KERAS_LOAD).recognised[0]
    assert finding.confidence == "medium" and finding.asks  # the h5py version decides


def test_values_from_the_message_reach_the_evidence_notes():
    found = explain_text("AttributeError: module 'PIL.Image' has no attribute 'LINEAR'\n").recognised[0]
    assert any("`Image.LINEAR` was removed in Pillow 10" in e.note for e in found.evidence)
    nltk = explain_text("  Resource \x1b[93mstopwords\x1b[0m not found.\n"
                        "  Please use the NLTK Downloader to obtain the resource:\n").recognised[0]
    assert nltk.values.get("resource") == "stopwords"


def test_harmless_warnings_are_no_cause_of_a_later_unrelated_error():
    tqdm = ("/usr/lib/python3.11/site-packages/tqdm/auto.py:21: TqdmWarning: IProgress not found. "
            "Please update jupyter and ipywidgets. See https://ipywidgets.readthedocs.io/en/stable/user_install.html\n")
    pillow = ("train.py:40: DeprecationWarning: ANTIALIAS is deprecated and will be removed in Pillow 10 "
              "(2023-07-01). Use LANCZOS or Resampling.LANCZOS instead.\n")
    sklearn = ("/usr/lib/python2.7/site-packages/sklearn/cross_validation.py:41: DeprecationWarning: This module was "
               "deprecated in version 0.18 in favor of the model_selection module into which all the refactored "
               "classes and functions are moved. This module will be removed in 0.20.\n")
    later = "Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\nKeyError: 'lr'\n"
    for warning, cause in ((tqdm, "tqdm-notebook-needs-ipywidgets"), (pillow, "pillow-api-removed"),
                           (sklearn, "library-code-deprecation-warning")):
        alone = explain_text(warning).findings
        assert alone[0].cause == cause and alone[0].warning, cause
        assert first_cause(warning + later) == [], cause


def test_an_unquoted_python2_module_name_needs_cv2_beside_it_for_opencv():
    bare = "AttributeError: 'module' object has no attribute 'cv'\n"
    assert "opencv3-cv-module-removed" not in [f.cause for f in explain_text(bare).recognised]
    assert first_cause("    cv2.cv.CV_FOURCC(*'XVID')\n" + bare) == ["opencv3-cv-module-removed"]



def test_python2s_unquoted_tkinter_stays_python3_code_and_the_agg_warning_is_harmless():
    assert first_cause("ImportError: No module named tkinter\n") == ["python3-code-on-python2"]
    agg = ("mnist.py:90: UserWarning: Matplotlib is currently using agg, which is a non-GUI backend, "
           "so cannot show the figure.\n")
    alone = explain_text(agg).findings
    assert alone[0].cause == "matplotlib-agg-cannot-show" and alone[0].warning
    assert first_cause(agg + "Traceback (most recent call last):\nIndexError: list index out of range\n") == []


def test_nltks_python2_message_names_the_resource_and_a_bare_not_found_needs_nltk():
    py2 = ("  Resource u'tokenizers/punkt/english.pickle' not found.  Please\n"
           "  use the NLTK Downloader to obtain the resource:  >>> nltk.download()\n")
    assert explain_text(py2).recognised[0].values.get("resource") == "tokenizers/punkt/english.pickle"
    assert first_cause("Resource punkt not found.\n") == []  # no NLTK in the log: another library's words


def test_moviepy_2_names_and_imagemagick():
    # moviepy v2.0.0 docs/getting_started/updating_to_v2.rst; moviepy v1.0.3 moviepy/video/VideoClip.py:1139-1145
    assert first_cause("    from moviepy.editor import VideoFileClip\n"
                  "ModuleNotFoundError: No module named 'moviepy.editor'\n") == ["moviepy2-api-changed"]
    assert first_cause("    clip = clip.set_duration(5)\n"
                  "AttributeError: 'ImageClip' object has no attribute 'set_duration'\n") == ["moviepy2-api-changed"]
    imagemagick = ("OSError: MoviePy Error: creation of None failed because of the following error:\n\n"
                   "[WinError 2] The system cannot find the file specified.\n\n.This error can be due to the fact that "
                   "ImageMagick is not installed on your computer, or (for Windows users) that you didn't specify the "
                   "path to the ImageMagick binary in file conf.py, or that the path you specified is incorrect\n")
    found = explain_text(imagemagick).recognised[0]
    assert found.cause == "moviepy-imagemagick-missing" and found.confidence == "medium" and found.asks


def test_pillows_damaged_and_oversized_images():
    # Pillow 9.5.0 src/PIL/ImageFile.py:255, src/PIL/Image.py:3297 and :3162-3180
    assert first_cause("OSError: image file is truncated (7 bytes not processed)\n") == ["image-file-damaged"]
    unknown = explain_text("PIL.UnidentifiedImageError: cannot identify image file 'data/train/cat.1.jpg'\n").recognised
    assert unknown[0].cause == "image-file-damaged" and unknown[0].confidence == "medium" and unknown[0].asks
    bomb = "Image size (200000000 pixels) exceeds limit of 178956970 pixels, could be decompression bomb DOS attack.\n"
    assert first_cause("PIL.Image.DecompressionBombError: " + bomb) == ["pillow-image-too-large"]
    warned = explain_text("Image.py:3176: DecompressionBombWarning: " + bomb).findings
    assert warned[0].cause == "pillow-image-too-large" and warned[0].warning


def test_tqdm_notebook_raising_the_iprogress_text_is_the_cause_not_a_warning():
    # tqdm v4.66.1 tqdm/notebook.py:107-108: tqdm.notebook raises what tqdm.auto only warns
    raised = ("Traceback (most recent call last):\n  File \"train.py\", line 4, in <module>\n"
              "ImportError: IProgress not found. Please update jupyter and ipywidgets. "
              "See https://ipywidgets.readthedocs.io/en/stable/user_install.html\n")
    found = explain_text(raised).recognised
    assert [f.cause for f in found] == ["tqdm-notebook-needs-ipywidgets"] and not found[0].warning


def test_divergences_are_the_samplers_check_and_only_diverging_samples_the_models_numerics():
    # PyMC3's own advice (target_accept, a reparameterization) for a few and for many, which ask what
    # the model allows; the model is named where every draw diverged
    few = "There were 12 divergences after tuning. Increase `target_accept` or reparameterize.\n"
    assert [(f.cause, f.confidence, f.warning) for f in explain_text(few).findings] == [
        ("pymc3-sampler-not-converged", "medium", True)]
    many = explain_text(few.replace("12", "912")).findings
    assert [(f.cause, f.confidence) for f in many] == [("pymc3-sampler-not-converged", "medium")] and many[0].asks
    assert not explain_text(few).findings[0].asks
    assert first_cause("The chain contains only diverging samples. The model is probably misspecified.\n") == [
        "model-numerics-nan"]


def test_int_of_a_theano_variable_in_pymc3s_own_code_is_no_keras_backend_matter():
    text = ("  File \"/env/lib/python3.7/site-packages/pymc3/gp/util.py\", line 14, in infer_shape\n"
            "    n_points = np.int(X.shape[0])\n"
            "TypeError: int() argument must be a string, a bytes-like object or a number, not 'TensorVariable'\n")
    assert ("keras-code-needs-tensorflow-backend", "medium") not in [
        (f.cause, f.confidence) for f in explain_text(text).findings]
    assert first_cause(text.replace("pymc3/gp/util.py", "keras_attention/layer.py")) == [
        "keras-code-needs-tensorflow-backend"]


def test_deprecations_raised_in_a_librarys_own_code_are_the_harmless_library_notice():
    # TensorFlow 1.14 tensorflow/python/util/deprecation_wrapper.py, naming Keras 2.2's backend as the caller
    tf = ("W0809 08:47:05.497365 140133898971008 deprecation_wrapper.py:119] From /usr/local/lib/python3.6/"
          "dist-packages/keras/backend/tensorflow_backend.py:74: The name tf.get_default_graph is deprecated. "
          "Please use tf.compat.v1.get_default_graph instead.\n")
    # Keras 1.2.0 keras/engine/topology.py:368, which its own layer wrappers reach (wrappers.py:26)
    regularizers = ("/env/lib/python2.7/site-packages/keras/engine/topology.py:368: UserWarning: The `regularizers` "
                    "property of layers/models is deprecated. Regularization losses are now managed via the "
                    "`losses` layer/model property.\n  warnings.warn('The `regularizers` property of '\n")
    # TensorFlow 0.12's form names the function, here under Keras 1.1.2's TensorBoard callback in an egg
    tf012 = ("WARNING:tensorflow:From /usr/local/lib/python3.5/dist-packages/Keras-1.1.2-py3.5.egg/keras/callbacks.py"
             ":525 in _set_model.: histogram_summary (from tensorflow.python.ops.logging_ops) is deprecated and will "
             "be removed after 2016-11-30.\nInstructions for updating:\nPlease switch to tf.summary.histogram.\n")
    for log in (tf, regularizers, tf012):
        found = explain_text(log).findings
        assert [(f.cause, f.confidence, f.warning) for f in found] == [("library-code-deprecation-warning", "medium",
                                                                        True)]
        assert_sourced([(log, "library-code-deprecation-warning")])
    # TensorFlow naming the code's own file: the code's matter, no library's notice
    own = tf.replace("/usr/local/lib/python3.6/dist-packages/keras/backend/tensorflow_backend.py", "/home/u/train.py")
    assert explain_text(own).findings == ()


# TensorFlow 1.x's pywrap_tensorflow.py importing its native module, which links the CUDA release the wheel
# was built for (tensorflow.org/install/source#gpu); the message is the system loader's
TF_IMPORT = (
    "Traceback (most recent call last):\n"
    "  File \"/usr/local/lib/python3.6/dist-packages/tensorflow/python/pywrap_tensorflow.py\", line 58, in <module>\n"
    "    from tensorflow.python.pywrap_tensorflow_internal import *\n"
    "ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory\n")


def test_tensorflows_cuda_library_of_its_own_release_is_named_without_the_soname_links_fix():
    found = explain_text(TF_IMPORT).findings
    assert [(f.cause, f.confidence, f.fix) for f in found[:1]] == [("cuda-lib-not-found-linux", "medium", None)]
    assert "CUDA 9.0 it was built for" in found[0].evidence[0].note
    # the line alone names no TensorFlow: one CUDA release's library the loader did not find, whoever loaded it
    alone = explain_text(TF_IMPORT.splitlines()[-1] + "\n").findings
    assert [(f.cause, f.confidence, f.fix) for f in alone[:1]] == [("cuda-lib-not-found-linux", "medium", None)]
    assert "a library of CUDA 9.0" in alone[0].evidence[0].note and "TensorFlow" not in alone[0].evidence[0].note
    # libgpuarray's own unversioned name, under Theano: the links `fix` makes are what it loads
    gpuarray = "ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n" \
               "pygpu.gpuarray.GpuArrayException: libcublas.so: cannot open shared object file: No such file\n"
    assert [(f.cause, f.fix) for f in explain_text(gpuarray).findings[:1]] == [("cuda-lib-not-found-linux",
                                                                               "cuda-soname-links")]


def test_tensorflows_cudnn_of_its_own_release_is_not_theanos_cudnn():
    """The cuDNN TensorFlow's GPU build was linked against, missing at its import: the library not on the
    loader path, not Theano's cuDNN set-up (which the same line under Theano is)."""
    log = TF_IMPORT.replace("libcublas.so.9.0", "libcudnn.so.7")
    found = explain_text(log).findings
    assert [(f.cause, f.confidence, f.fix) for f in found[:1]] == [("cuda-lib-not-found-linux", "medium", None)]
    assert "the cuDNN 7 it was built for" in found[0].evidence[0].note
    theano = ("ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n"
              "OSError: libcudnn.so.7: cannot open shared object file: No such file or directory\n")
    assert [f.cause for f in explain_text(theano).findings[:1]] == ["cudnn-not-found"]


def test_a_decode_error_of_theanos_compiler_output_hyperas_words_elsewhere_and_plain_strings_given_to_tensorflow():
    # Theano reading its compiler's output in another code page is that cause, not a text file's encoding
    compiled = ("  File \"C:\\Anaconda3\\lib\\site-packages\\theano\\gof\\cmodule.py\", line 2316, in compile_str\n"
                "UnicodeDecodeError: 'charmap' codec can't decode byte 0x8f in position 12: character maps to "
                "<undefined>\n")
    found = {f.cause: f.confidence for f in explain_text(compiled).findings}
    assert "compiler-output-decode" in found and found.get("text-file-read-with-locale-encoding") == "low"
    # a script's own IndentationError (no hyperas in the log) is no hyperas template
    own = "  File \"train.py\", line 12\n    x = 1\n    ^\nIndentationError: unexpected indent\n"
    assert "hyperas-template-indentation" not in [f.cause for f in explain_text(own).findings]
    # a number or None handed to TensorFlow is no Theano variable
    for value in ("None", "1", "[1, 2]"):
        assert first_cause(f"TypeError: Expected binary or unicode string, got {value}\n") == []


def test_real_scikit_learn_refusals(legacy_python, tmp_path):
    # scikit-learn 0.19.2 (the first release that refuses a 1-D X) under Python 3.6
    python = legacy_python("keras208_th09")
    env = {"PYTHONPATH": str(legacy_envs.release(python, "scikit-learn==0.19.2"))}
    cases = [("import numpy as np\nfrom sklearn.preprocessing import StandardScaler\n"
              "StandardScaler().fit(np.arange(5.))\n", "Expected 2D array, got 1D array instead",
              "sklearn-2d-input-expected"),
             ("from sklearn.metrics import roc_auc_score\nroc_auc_score([1, 1, 1], [0.2, 0.5, 0.9])\n",
              "Only one class present in y_true", "sklearn-roc-auc-single-class"),
             ("import numpy as np\nfrom sklearn.utils import column_or_1d\ncolumn_or_1d(np.array(3))\n",
              "ValueError: bad input shape ()", "sklearn-scalar-where-1d-expected")]
    for code, message, cause in cases:
        log = traceback_of(python, code, tmp_path, env)
        assert message in log
        assert first_cause(log) == [cause]
        assert_sourced([(log, cause)])
    # the same 1-D array on scikit-learn 0.18.2 is only its DeprecationWarning: nothing to name
    old = {"PYTHONPATH": str(legacy_envs.release(python, "scikit-learn==0.18.2"))}
    log = traceback_of(python, cases[0][0] + "print('fitted')\nraise SystemExit(3)\n", tmp_path, old)
    assert "Passing 1d arrays as data is deprecated in 0.17" in log and "fitted" in log
    assert first_cause(log) == []


def test_numpys_visible_deprecation_at_a_librarys_line() -> None:
    """numpy's VisibleDeprecationWarning raised in PyMC3's own code is the library's idiom; the float size
    warned at Lasagne's line is the value the code gave it, which numpy 1.12 refuses."""
    pymc3 = ("/home/u/pymc3/pymc3/step_methods/hmc/nuts.py:244: VisibleDeprecationWarning: boolean index did not "
             "match indexed array along dimension 0; dimension is 10000 but corresponding boolean dimension is 2\n"
             "  if np.any(diverging[~tuning]):\n")
    lasagne = ("/usr/lib/python2.7/site-packages/lasagne/init.py:66: VisibleDeprecationWarning: using a non-integer "
               "number instead of an integer will result in an error in the future\n")
    assert [f.cause for f in explain_text(pymc3).recognised][:1] == ["library-code-deprecation-warning"]
    assert "library-code-deprecation-warning" not in {f.cause for f in explain_text(lasagne).findings}
