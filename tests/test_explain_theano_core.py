"""`explain` recognises the messages Theano's core raises, warns and logs, as Theano prints them.

Each log below is built from an upstream message at a release tag (the comment names the file
and line); the expected cause and confidence come from what the code around the message means."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.explain_tables import printed, traceback_of
from theanodoctor.explain import explain_text

SITE = "  File \"/home/u/env/lib/python3.6/site-packages/theano/{}\", line 1, in <module>\n"
COMPILEDIR = "/home/u/.theano/compiledir_Linux-4.15--generic-x86_64-with-debian-buster-sid-x86_64-3.6.9-64"

CASES = [
    # theano/__init__.py:78 (rel-1.0.5): the package folder itself on sys.path, Python 3
    ("Traceback (most recent call last):\n" + SITE.format("__init__.py")
     + "RuntimeError: You have the theano directory in your Python path. This do not work in Python 3.\n",
     "theano-dir-on-python-path", "high"),
    # theano/configdefaults.py:949 (rel-1.0.5), :527 (rel-0.7)
    ("TypeError: The environment variable OMP_NUM_THREADS should be a number, got 'auto'.\n",
     "omp-num-threads-invalid", "high"),
    # theano/configdefaults.py:286 and :205 (rel-1.0.5)
    ("RuntimeError: The option `dnn.conv.workmem` has been removed and should not be used anymore. "
     "Please use the option `dnn.conv.algo_fwd` instead.\n", "theano-flag-removed", "high"),
    ("RuntimeError: Flag gpuarray.sync is deprecated and will be removed in next Theano release.\n",
     "theano-flag-removed", "high"),
    # theano/configdefaults.py:573 (rel-0.9.0)
    ("RuntimeError: The `config.home` option has been removed and should not be used anymore. Please set the "
     "`config.base_compiledir` option instead (for instance to: /home/u/.theano)\n", "theano-flag-removed", "high"),
    # theano/configdefaults.py:1581 (rel-1.0.5)
    ("ValueError: Valid values for an vm.lazy parameter should be None, False or True, not `yes`.\n",
     "config-invalid-value", "high"),
    # theano/configdefaults.py:177, :180, :486 (rel-1.0.5)
    ("ValueError: Malformed context map: dev0=cuda0\n", "config-invalid-value", "high"),
    ("ValueError: Cannot use cuda1 as context name\n", "config-invalid-value", "high"),
    ("ValueError: Expected one of those string 'Mode', 'DebugMode', 'FAST_RUN', 'NanGuardMode', "
     "'FAST_COMPILE', 'DEBUG_MODE' or an instance of Mode.\n", "config-invalid-value", "high"),
    # theano/gof/cmodule.py:1933 (rel-1.0.5)
    ("ValueError: Do not use -fopenmp in Theano flag gcc.cxxflags. To enable OpenMP, use the Theano flag "
     "openmp=True\n", "cxxflags-fopenmp", "high"),
    # theano/configdefaults.py:546 (rel-1.0.5): seen with clang++ as cxx too (Theano issue 5053)
    ("WARNING (theano.configdefaults): Only clang++ is supported. With g++, we end up with strange g++/OSX bugs.\n",
     "macos-cxx-not-clang", "low"),
    # theano/gof/cmodule.py:1957 and :2022 (rel-1.0.5): a performance note
    ("WARNING (theano.gof.cmodule): OPTIMIZATION WARNING: your Theano flag `cxx` seems not to be the g++ "
     "compiler. So we disable the compiler optimization specific to g++ that tell to compile for a specific "
     "CPU. At worst, this could cause slow down.\n", "cpu-tuning-flags-skipped", "medium"),
    ("WARNING (theano.gof.cmodule): OPTIMIZATION WARNING: Theano was not able to find the g++ parameters that "
     "tune the compilation to your  specific CPU. This can slow down the execution of Theano functions.\n",
     "cpu-tuning-flags-skipped", "medium"),
    # theano/gof/cmodule.py:1681 (rel-1.0.5): printed on every compilation, so only a hint
    ("Your Python version is from Canopy. You need to install the package 'mingw 4.5.2' from Canopy package "
     "manager.\n", "canopy-package-missing", "low"),
    # theano/gof/cmodule.py:1196-1198 (rel-1.0.5)
    (f"ERROR (theano.gof.cmodule): [Errno 31] Too many links: '{COMPILEDIR}/tmpa1b2c3'\n"
     f"ERROR (theano.gof.cmodule): There are 31998 files in {COMPILEDIR}\n", "compiledir-too-many-entries", "medium"),
    # theano/gof/lazylinker_c.py:128, theano/tensor/blas_headers.py:736 (rel-1.0.5)
    ("Traceback (most recent call last):\n" + SITE.format("gof/lazylinker_c.py")
     + "ImportError: The file lazylinker_c.c is not available.\n", "theano-c-sources-missing", "high"),
    ("FileNotFoundError: [Errno 2] No such file or directory: "
     "'/app/dist/theano/tensor/c_code/alt_blas_common.h'\n", "theano-c-sources-missing", "medium"),
    # theano/tensor/blas.py:446 and :451 (rel-1.0.5)
    ('ValueError: invalid token "C:\\OpenBLAS\\bin\\libopenblas.dll" in ldflags_str: '
     '"C:\\OpenBLAS\\bin\\libopenblas.dll"\n', "blas-ldflags-invalid", "high"),
    # the same inside a compile error, cut by a post after the token (a list's repr)
    ("  File \"/usr/lib/python2.7/site-packages/theano/tensor/blas.py\", line 632, in _ldflags\n"
     "ValueError: ('The following error happened while compiling the node', Dot22(x, y), '\\n', "
     "'invalid token \"[\\'-lblas\\',\"\n", "blas-ldflags-invalid", "high"),
    ("ValueError: ('Include dirs are not used for blas. We disable this as this can hide other headers and "
     "this is not wanted.', '-I/opt/OpenBLAS/include')\n", "blas-ldflags-invalid", "high"),
    # theano/tensor/blas.py:182 (rel-1.0.5): a warning, slower but working
    ("WARNING (theano.tensor.blas): Failed to import scipy.linalg.blas, and Theano flag blas.ldflags is empty. "
     "Falling back on slower implementations for dot(matrix, vector), dot(vector, matrix) and dot(vector, "
     "vector) (cannot import name 'fblas')\n", "blas-numpy-fallback", "medium"),
    # theano/gof/cmodule.py:367 and :986 (rel-1.0.5)
    (f"ValueError: More than 1 compiled module in this directory:{COMPILEDIR}/tmpx9\n", "cache-corrupt", "medium"),
    ("WARNING (theano.gof.cmodule): A module that was loaded by this ModuleCache can no longer be read from "
     f"file {COMPILEDIR}/tmpq1/4f2a.so... this could lead to problems.\n",
     "compiledir-shared-across-hosts", "medium"),
    # theano/compile/sharedvalue.py:202 and theano/tensor/nnet/__init__.py:146 (rel-1.0.5)
    ("Exception: sharedvar.value does not exist anymore. Use sharedvar.get_value() or sharedvar.set_value() "
     "instead.\n", "theano-too-new-for-code", "high"),
    ("ValueError: Keyword arguments 'imshp_logical' and 'kshp_logical' for conv2d are not supported anymore "
     "(and have not been a reliable way to perform upsampling). That feature is still available by calling "
     "theano.tensor.nnet.conv.conv2d() for the time being.\n", "theano-too-new-for-code", "high"),
    # modules that rel-0.8.2 no longer has, and Theano-PyMC's renamed ones
    ("ModuleNotFoundError: No module named 'theano.sandbox.scan'\n", "theano-too-new-for-code", "medium"),
    ("ModuleNotFoundError: No module named 'theano.gof'\n", "code-needs-original-theano", "medium"),
    ("ModuleNotFoundError: No module named 'theano.tensor.shared_randomstreams'\n", "code-needs-original-theano",
     "medium"),
    ("ModuleNotFoundError: No module named 'theano.compat.python2x'\n", "theano-too-new-for-code", "medium"),
    ("ImportError: No module named python2x\n", "theano-too-new-for-code", "medium"),
    # names added in 0.8, 0.9 and 0.10 (abstract_conv.py, bn.py, nnet.py at those tags)
    ("Traceback (most recent call last):\n" + SITE.format("tensor/nnet/__init__.py")
     + "AttributeError: 'module' object has no attribute 'bilinear_upsampling'\n", "theano-too-old-for-code", "medium"),
    ("AttributeError: module 'theano.tensor.nnet' has no attribute 'batch_normalization_train'\n",
     "theano-too-old-for-code", "medium"),
    ("Traceback (most recent call last):\n  File \"model.py\", line 3, in <module>\n"
     "    from theano.tensor.nnet.abstract_conv import separable_conv2d\n"
     "ImportError: cannot import name 'separable_conv2d'\n", "theano-too-old-for-code", "medium"),
    # theano/tensor/nnet/conv.py:657 (rel-1.0.5): floatX images against float64 filters
    ("NotImplementedError: The image and the kernel must have the same type.inputs(float32), kerns(float64)\n",
     "input-dtype-mismatch", "high"),
    # Theano-PyMC rel-1.1.0 theano/configparser.py:405 and :586

    ("ValueError: Invalid value ('float23') for configuration variable 'floatX'. Valid options are "
     "('float64', 'float32', 'float16')\n",
     "config-invalid-value", "high"),
    ("DeprecationWarning: Accessing config through `theano.configparser.config` is deprecated. Use `theano.config` "
     "instead.\n", "theano-deprecation-warning", "medium"),
    # theano/tensor/type.py:252 (rel-0.7): no float16 before 0.8; downsample.py:77 (rel-0.7), gone at rel-0.9.0
    ("TypeError: Unsupported dtype for TensorType: float16\n", "theano-too-old-for-code", "medium"),
    ("ImportError: cannot import name 'DownsampleFactorMax'\n", "theano-too-new-for-code", "medium"),
    # theano/sandbox/rng_mrg.py:657 (rel-1.0.5), :1041 (rel-0.7)
    ("/env/lib/python2.7/site-packages/theano/sandbox/rng_mrg.py:1041: UserWarning: MRG_RandomStreams Can't "
     "determine #streams from size (Shape.0), guessing 60*256\n", "rng-streams-guessed", "medium"),
    # theano/scan_module/scan.py:85 (rel-0.9.0), absent at rel-0.8.2
    ("TypeError: scan() got an unexpected keyword argument 'return_list'\n", "theano-too-old-for-code", "medium"),
    # theano/tensor/opt.py:5628 and theano/gof/op.py:1217 (rel-1.0.5): notes, not failures
    ("UserWarning: Your current code is fine, but Theano versions prior to 0.7 (or this development version "
     "Sept 2014) might have given an incorrect result for this code. To disable this warning, set the Theano "
     "flag warn.reduce_join to False.\n", "theano-old-bug-notice", "medium"),
    ("UserWarning: Your g++ compiler fails to compile OpenMP code. We know this happen with some version of the "
     "EPD mingw compiler and LLVM compiler on Mac OS X. We disable openmp everywhere in Theano.\n",
     "openmp-unsupported-compiler", "medium"),
    # theano/tensor/signal/pool.py:91 and :136 (rel-1.0.5), theano/compile/pfunc.py:274
    ("/home/u/env/lib/python3.6/site-packages/theano/tensor/signal/pool.py:96: UserWarning: DEPRECATION: the 'ds' "
     "parameter is not going to exist anymore as it is going to be replaced by the parameter 'ws'.\n",
     "theano-deprecation-warning", "medium"),
    ("model.py:40: UserWarning: pool_2d() will have the parameter ignore_border default value changed to True "
     "(currently False). To have consistent behavior with all Theano version, explicitly add the parameter "
     "ignore_border=True.\n", "theano-deprecation-warning", "medium"),
    ("UserWarning: The Param class is deprecated. Replace Param(default=N) by theano.In(value=N)\n",
     "theano-deprecation-warning", "medium"),
    # theano/tensor/nnet/c_code/corr_gemm.c:134 (rel-1.0.5; corr_gemm.c:120 at rel-0.8.2): float64
    # weights reaching the float32 CPU convolution, with the types Theano goes on to print
    ("ValueError: CorrMM received weight with wrong type.\nApply node that caused the error: "
     "CorrMM{(2, 2), (2, 2)}(X, enc_conv1.W)\nToposort index: 22\n"
     "Inputs types: [TensorType(float32, 4D), TensorType(float64, 4D)]\n", "input-dtype-mismatch", "medium"),
    # theano/tensor/nnet/c_code/corr3d_gemm.c:140 (rel-1.0.5)
    ("ValueError: Corr3dMM received bottom with wrong type.\n", "input-dtype-mismatch", "medium"),
    # rel-0.7 theano/gof/toolbox.py:264: replace_all_validate prints the exception's type before the
    # optimizer's failure is logged (Python 2's `<type 'exceptions.RuntimeError'>`)
    ("<<!! BUG IN FGRAPH.REPLACE OR A LISTENER !!>> <type 'exceptions.RuntimeError'> maximum recursion depth "
     "exceeded in __instancecheck__ local_fill_to_alloc\nERROR (theano.gof.opt): Optimization failure due to: "
     "local_fill_to_alloc\n", "python-recursion-limit", "medium"),
    # rel-0.7 theano/tensor/basic.py (Reshape.make_node): an empty constant shape is float64; rel-0.8.0
    # lets it through (theano-empty-constant-shape), so it is no float division of the code's
    ("TypeError: ('Shape must be integers', TensorConstant{[]}, 'float64')\n", "theano-bug-fixed-upstream", "medium"),
    ("TypeError: ('Shape must be integers', TensorConstant{[ 2.  3.]}, 'float64')\n", "python2-code-on-python3",
     "medium"),
    # a bool gradient term of Elemwise: a bug of the 0.9.0.dev snapshots (rel-0.9.0beta1 elemwise.py:645, PR 5175)
    ("TypeError: Elemwise{mul,no_inplace}.grad illegally  returned an integer-valued variable. (Input index 1, "
     "dtype bool)\n", "theano-bug-fixed-upstream", "medium"),
    # rel-1.0.5 theano/tensor/extra_ops.py:628-638: the three dtypes are listed only where a pointer is 32 bits
    ("TypeError: (\"dtypes ('uint32', 'int64', 'uint64') are not supported by numpy.repeat for the 'repeats' "
     "parameter, \", 'int64')\n", "python-32bit", "high"),
    # rel-0.6 theano/tensor/extra_ops.py:256-259: its own message's formatting fails for the three dtypes
    ('  File "C:\\Canopy\\lib\\site-packages\\theano\\tensor\\extra_ops.py", line 259, in make_node\n'
     "    % numpy_unsupported_dtypes), repeats.dtype)\n"
     "TypeError: not all arguments converted during string formatting\n", "theano-bug-fixed-upstream", "medium"),
    # rel-0.7 theano/tensor/var.py has no `exp` method (rel-0.8.0 :417): numpy's exp of a variable calls it
    ("Traceback (most recent call last):\n  File \"model.py\", line 4, in <module>\n    y = np.exp(x)\n"
     "AttributeError: 'TensorVariable' object has no attribute 'exp'\n", "model-graph-type-error", "medium"),
    # ... where the code calls the method itself, it is a release matter (a hint: the log names no Theano)
    ("Traceback (most recent call last):\n  File \"model.py\", line 4, in <module>\n    y = x.exp()\n"
     "AttributeError: 'TensorVariable' object has no attribute 'exp'\n", "theano-too-old-for-code", "low"),
    # rel-0.7 theano/tensor/nnet/conv.py:512: the old ConvOp's refusal of a padding tuple fails to format
    ('  File "/usr/lib/python2.7/site-packages/theano/tensor/nnet/conv.py", line 531, in __init__\n'
     '    raise Exception("Mode %s not implemented" % self.out_mode)\n'
     "TypeError: not all arguments converted during string formatting\n", "theano-old-conv2d-border-mode", "medium"),
    # rel-0.8.2 theano/d3viz/formatting.py:307-308 reads one trace per variable (rel-0.9.0 :286-287 a list)
    ('  File "/usr/lib/python2.7/dist-packages/theano/d3viz/formatting.py", line 311, in var_tag\n'
     "    path = os.path.basename(path)\n  File \"/usr/lib/python2.7/posixpath.py\", line 114, in basename\n"
     "    i = p.rfind('/') + 1\nAttributeError: 'tuple' object has no attribute 'rfind'\n",
     "theano-bug-fixed-upstream", "medium"),
    # rel-1.0.2 theano/tensor/opt.py:6328 under numpy 1.13+: the canonizer's failure is logged (fixed in rel-1.0.3)
    ("ERROR (theano.gof.opt): Optimization failure due to: local_add_canonizer\nERROR (theano.gof.opt): TRACEBACK:\n"
     '  File "/usr/lib/python3.6/site-packages/theano/tensor/opt.py", line 6328, in add_calculate\n'
     "    v = reduce(np.add, num, zero) - reduce(np.add, denum, zero)\nTypeError: numpy boolean subtract, the `-` "
     "operator, is deprecated, use the bitwise_xor, the `^` operator, or the logical_xor function instead.\n",
     "theano-bug-fixed-upstream", "medium"),
    # NanGuardMode before rel-0.8.0 (theano/compile/nanguardmode.py:69 exempts a RandomState)
    ('    File "/home/u/Theano/theano/compile/nanguardmode.py", line 59, in contains_nan return np.isnan(np.min(arr))\n'
     "    TypeError: ufunc 'isnan' not supported for the input types, and the inputs could not be safely coerced "
     "to any supported types according to the casting rule ''safe''\n", "theano-bug-fixed-upstream", "medium"),
]


@pytest.mark.parametrize("log,cause,confidence", CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_theano_core_message_names_its_cause(log, cause, confidence):
    found = explain_text(log).findings
    assert [(f.cause, f.confidence) for f in found][:1] == [(cause, confidence)]


# the gradient through advanced indexing of an integer tensor (a label lookup in the cost)
INTEGER_INDEX = ("import numpy as np\nimport theano\nimport theano.tensor as T\n"
                 "w = theano.shared(np.arange(5))\nv = theano.shared(np.ones(2))\n"
                 "g = T.grad((w[[0, 1]] * v).sum(), w)\nprint(g.dtype)\nraise SystemExit(3)\n")


def test_the_gradient_through_an_integer_index(legacy_python: Callable[[str], str], theano_home: Path,
                                               tmp_path: Path) -> None:
    log = traceback_of(legacy_python("theano090_py36"), INTEGER_INDEX, tmp_path)
    assert "AdvancedSubtensor1.grad illegally  returned an integer-valued variable. (Input index 0, dtype int64)" in log
    assert [(f.cause, f.confidence) for f in explain_text(log).findings][:1] == [("model-gradient-undefined", "medium")]
    # Theano 1.0.3 and later give the integer tensor a zero float gradient instead (commit 730b3cdbc)
    assert "float64" in traceback_of(legacy_python("healthy37"), INTEGER_INDEX, tmp_path).splitlines()


def test_the_release_that_added_a_missing_name_is_named():
    found = explain_text("AttributeError: module 'theano.tensor.nnet' has no attribute 'ctc'\n").recognised
    assert [f.cause for f in found] == ["theano-too-old-for-code"]
    assert any("Theano 0.10" in e.note for e in found[0].evidence)


def test_a_name_missing_from_keras_backend_is_no_theano_release_problem():
    found = explain_text("AttributeError: module 'keras.backend' has no attribute 'logsoftmax'\n"
                         + SITE.format("__init__.py")).findings
    assert "theano-too-old-for-code" not in {f.cause for f in found}


def test_theano_pymc_renames_ask_which_theano_is_installed():
    found = explain_text("ModuleNotFoundError: No module named 'theano.scan_module'\n").recognised
    assert [f.cause for f in found] == ["code-needs-original-theano"] and found[0].asks
    # a folder of the old module left behind (a namespace package): Theano-PyMC over the original
    left = explain_text("ImportError: cannot import name 'until' from 'theano.scan_module' (unknown location)\n")
    assert [(f.cause, f.confidence) for f in left.recognised] == [("code-needs-original-theano", "medium")]
    # Python 3.7 says this also of a Theano whose first import failed half-way: a hint that asks
    attribute = explain_text("AttributeError: module 'theano' has no attribute 'gof'\n")
    assert attribute.recognised == () and [(f.cause, f.confidence) for f in attribute.findings] == [
        ("code-needs-original-theano", "low")] and attribute.findings[0].asks
    circular = explain_text("AttributeError: partially initialized module 'theano' has no attribute 'gof' (most "
                            "likely due to a circular import)\n")
    assert "code-needs-original-theano" not in {f.cause for f in circular.findings}


GRAPH_CLASSES = ["Op", "Apply", "Variable", "Constant", "Type", "FunctionGraph", "OpenMPOp", "Linker"]


def test_real_theano_pymc_11_has_no_graph_classes_on_theano(legacy_python: Callable[[str], str], theano_home: Path,
                                                             tmp_path: Path) -> None:
    # real Theano-PyMC 1.1.2 lacks them all; real Theano 1.0.5 binds them all
    probe = f"import theano\nprint([n for n in {GRAPH_CLASSES!r} if not hasattr(theano, n)])\n"
    assert printed(legacy_python("pymc39"), probe, THEANO_FLAGS="cxx=").strip() == repr(GRAPH_CLASSES)
    assert printed(legacy_python("healthy37"), probe, THEANO_FLAGS="cxx=").strip() == "[]"
    for code in ("import theano\nclass Double(theano.Op):\n    pass\n", "from theano import Constant\n"):
        log = traceback_of(legacy_python("pymc39"), code, tmp_path, {"THEANO_FLAGS": "cxx="})
        found = explain_text(log).recognised
        assert [(f.cause, f.confidence) for f in found][:1] == [("code-needs-original-theano", "medium")], log
        assert found[0].asks


def test_a_deprecation_warning_is_no_cause_of_an_unrelated_exception():
    log = ("UserWarning: The Param class is deprecated. Replace Param(default=N) by theano.In(value=N)\n"
           "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
           "ZeroDivisionError: division by zero\n")
    found = explain_text(log)
    assert found.recognised == ()
    assert [(f.cause, f.confidence) for f in found.findings] == [("theano-deprecation-warning", "low")]


@pytest.mark.parametrize("warning", [
    # theano/tensor/basic.py:4683, :5086, :2183 (rel-1.0.5)
    "DeprecationWarning: stack(*tensors) interface is deprecated, use stack(tensors, axis=0) instead.",
    "DeprecationWarning: Flatten class is deprecated, please use flatten method instead.",
    "UserWarning: theano.tensor.round() changed its default from `half_away_from_zero` to `half_to_even` to have "
    "the same default as NumPy. Use the Theano flag `warn.round=False` to disable this warning.",
    # theano/compile/function.py:269 (rel-1.0.5), :213 (rel-0.7)
    "UserWarning: The parameter 'updates' of theano.function() expects an OrderedDict, got <class 'dict'>. Using "
    "a standard dictionary here results in non-deterministic behavior.",
])
def test_old_forms_theano_still_runs_are_named_as_such(warning):
    found = explain_text(warning + "\n").findings
    assert [(f.cause, f.confidence, f.warning) for f in found] == [("theano-deprecation-warning", "medium", True)]


def test_scans_missing_c_source_is_a_missing_theano_file():
    # theano/scan_module/scan_perform_ext.py:76 (rel-1.0.5)
    log = ("UserWarning: The file scan_perform.c is not available. This donot happen normally. You are probably "
           "in a strangesetup.\n")
    assert [f.cause for f in explain_text(log).recognised] == ["theano-c-sources-missing"]


def test_scans_renamed_clone_argument_is_a_deprecation():
    # theano/scan_module/scan_utils.py:217 (rel-1.0.5)
    log = ("UserWarning: In `clone()` function, the argument `copy_inputs` has been deprecated and renamed into "
           "`share_inputs`\n")
    assert [f.cause for f in explain_text(log).recognised] == ["theano-deprecation-warning"]


def test_a_conv2d_argument_an_older_theano_ignores_names_the_release_that_has_it():
    # theano/tensor/nnet/__init__.py:123-127 (rel-0.8.2): **kwargs it does not know are ignored
    log = ("/env/lib/python2.7/site-packages/theano/tensor/nnet/__init__.py:127: UserWarning: ['filter_dilation'] "
           "are now deprecated in `tensor.nnet.abstract_conv.conv2d` interface and will be ignored.\n")
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found] == [("theano-too-old-for-code", "medium")]
    assert "filter_dilation" in found[0].evidence[0].note
    other = log.replace("filter_dilation", "pad_mode")
    assert explain_text(other).recognised == ()


CONV_CHECK = ("AssertionError: AbstractConv2d Theano optimization failed: there is no implementation available "
              "supporting the requested options. Did you exclude both \"conv_dnn\" and \"conv_gemm\" from the "
              "optimizer? If on GPU, is cuDNN available and does the GPU support it? If on CPU, do you have a BLAS "
              "library installed Theano can link against? On the CPU we do not support float16.\n")


def test_no_convolution_implementation_alone_is_named_with_what_decides():
    # theano/tensor/nnet/opt.py:494 (rel-1.0.5): several roots, the message names them all; the
    # finding asks for the facts that pick one
    found = explain_text(CONV_CHECK).recognised
    assert [(f.cause, f.confidence) for f in found] == [("conv-no-implementation", "medium")]
    assert "g++" in found[0].asks[0] and "cuDNN" in found[0].asks[0]


def test_no_convolution_implementation_after_g_plus_plus_not_detected_is_the_missing_compiler():
    # theano/configdefaults.py:580 (rel-1.0.5): without cxx the gemm convolution is skipped (opt.py:74)
    log = ("WARNING (theano.configdefaults): g++ not detected ! Theano will be unable to execute optimized "
           "C-implementations (for both CPU and GPU) and will default to Python implementations. Performance "
           "will be severely degraded. To remove this warning, set Theano flags cxx to an empty string.\n"
           + CONV_CHECK)
    found = explain_text(log).recognised
    assert [f.cause for f in found][:2] == ["gxx-missing", "conv-no-implementation"]
    assert found[1].consequence_of == "gxx-missing"


@pytest.mark.parametrize(("code", "message"), [
    ("    @theano.compile.ops.as_op(itypes=[t.lscalar], otypes=[t.dvector])",
     "AttributeError: 'module' object has no attribute 'as_op'"),
    ("    from theano.compile.ops import as_op", "ImportError: cannot import name as_op"),
])
def test_as_op_missing_is_a_theano_before_0_7(code, message):
    # as_op is in theano/compile/ops.py from rel-0.7 (:519), not in rel-0.6's: a PyMC3-era op under Theano 0.6
    log = f'Traceback (most recent call last):\n  File "model.py", line 27, in <module>\n{code}\n{message}\n'
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised] == [("theano-too-old-for-code", "medium")]
    other = log.replace("theano.compile.ops", "pm")  # another library's as_op: not Theano's to judge
    assert explain_text(other).recognised == ()


BOOLEAN_MASK = "import theano.tensor as T\nt = T.arange(9).reshape((3, 3))\nprint(t[t > 4].eval())\n"


def test_the_empty_shape_reshapes_on_theano_0_8(legacy_python: Callable[[str], str]) -> None:
    # the fix that theano-empty-constant-shape names: real Theano 0.8.2 reshapes to `()`
    code = "import theano.tensor as T\nprint(T.constant([1]).reshape(()).eval())"
    assert printed(legacy_python("theano082_py27"), code).strip() == "1"


def test_a_repeat_count_theano_refuses_on_a_64bit_python(legacy_python: Callable[[str], str], theano_home: Path,
                                                          tmp_path: Path) -> None:
    # real Theano 1.0.5 on a 64-bit Python refuses only uint64: no sign of a 32-bit Python
    code = ("import theano.tensor as T\nfrom theano.tensor.extra_ops import RepeatOp\n"
            "RepeatOp()(T.vector(), T.cast(T.lvector(), 'uint64'))\n")
    log = traceback_of(legacy_python("healthy37"), code, tmp_path)
    assert "dtypes ('uint64',) are not supported by numpy.repeat" in log
    assert "python-32bit" not in {f.cause for f in explain_text(log).findings}


def test_a_boolean_mask_index_on_theano_0_9(legacy_python: Callable[[str], str], theano_home: Path,
                                            tmp_path: Path) -> None:
    # refused by rel-0.9.0 theano/tensor/var.py:467; indexed by 1.0.5
    log = traceback_of(legacy_python("theano090_py36"), BOOLEAN_MASK, tmp_path)
    assert "does not support boolean mask for indexing" in log
    assert [(f.cause, f.confidence) for f in explain_text(log).recognised] == [("theano-too-old-for-code", "medium")]
    assert printed(legacy_python("healthy37"), BOOLEAN_MASK).strip() == "[5 6 7 8]"


@pytest.mark.parametrize("epsilon", ["1e-6", "1e-5"])
def test_real_batch_normalisation_refuses_a_small_epsilon(legacy_python: Callable[[str], str], theano_home: Path,
                                                           tmp_path: Path, epsilon: str) -> None:
    # with floatX=float32 even 1e-5 is below the limit once cast (Theano rel-1.0.5 theano/tensor/nnet/bn.py:216-220)
    code = ("import theano.tensor as T\nfrom theano.tensor.nnet import bn\n"
            f"bn.batch_normalization_train(T.matrix(), T.vector(), T.vector(), epsilon={epsilon})\n")
    log = traceback_of(legacy_python("healthy37"), code, tmp_path, {"THEANO_FLAGS": "floatX=float32,cxx="})
    assert "epsilon must be at least 1e-5" in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("batchnorm-epsilon-too-small", "high")]
    # a little above the limit passes the same check: the remedy's value
    fine = code.replace(f"epsilon={epsilon}", "epsilon=1.001e-5") + "print('built')\n"
    assert printed(legacy_python("healthy37"), fine, THEANO_FLAGS="floatX=float32,cxx=").strip() == "built"


def test_real_scan_dtype_error_cut_before_its_dtypes_is_told_by_the_raise(legacy_python: Callable[[str], str],
                                                                           theano_home: Path, tmp_path: Path) -> None:
    # a float32 state whose step returns float64 (Theano rel-1.0.5 theano/scan_module/scan_op.py:541-546)
    code = ("import numpy as np\nimport theano\nimport theano.tensor as T\n"
            "theano.scan(lambda h: h * np.float64(2.0), outputs_info=T.vector(dtype='float32'), n_steps=2)\n")
    log = traceback_of(legacy_python("healthy37"), code, tmp_path, {"THEANO_FLAGS": "cxx="})
    whole = [(f.cause, f.confidence) for f in explain_text(log).recognised][:1]
    assert whole == [("input-dtype-mismatch", "high")]
    cut = log[:log.index("(argument number")]  # as a post's stored copy ends
    assert [(f.cause, f.confidence) for f in explain_text(cut).recognised][:1] == [("input-dtype-mismatch", "medium")]
    # the rank check cut the same way is not read as the dtype one
    rank = cut.replace("inner_sitsot_out.type.dtype))", "inner_sitsot_out.type.ndim))")
    assert "input-dtype-mismatch" not in {f.cause for f in explain_text(rank).findings}


@pytest.mark.parametrize(("mode", "stride", "says"), [
    ("full", (3, 3), "dx or dy are greater than 2"),
    ("valid", (2, 2), "disabled for 'valid' convolutions with stride"),
])
def test_the_old_convolutions_gradient_refusing_a_stride(legacy_python: Callable[[str], str], theano_home: Path,
                                                          tmp_path: Path, mode: str, stride: tuple[int, int],
                                                          says: str) -> None:
    # the grad of the old interface's ConvOp (Theano rel-1.0.5 theano/tensor/nnet/conv.py:861, :866)
    old = ("import theano, theano.tensor as T\nfrom theano.tensor.nnet import conv\nx, w = T.tensor4(), T.tensor4()\n"
           f"y = conv.conv2d(x, w, border_mode='{mode}', subsample={stride})\ntheano.grad(y.sum(), w)\n")
    log = traceback_of(legacy_python("healthy37"), old, tmp_path, {"THEANO_FLAGS": "cxx="})
    assert says in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("theano-convop-grad-stride-unsupported", "high")]
    # the remedy: the interface Theano 0.8 added takes the gradient for the same stride
    new = old.replace("conv.conv2d", "T.nnet.conv2d") + "print('built')\n"
    assert printed(legacy_python("healthy37"), new, THEANO_FLAGS="cxx=").strip().endswith("built")


# an Op of the code's own that overrides make_thunk as Theano 0.8 defined it (no `impl`)
OWN_OP = ("import theano, theano.tensor as T\n"
          "class Double(theano.Op):\n"
          "    __props__ = ()\n"
          "    def make_node(self, x):\n"
          "        return theano.Apply(self, [x], [x.type()])\n"
          "    def perform(self, node, inputs, outputs):\n"
          "        outputs[0][0] = inputs[0] * 2\n"
          "    def make_thunk(self, node, storage_map, compute_map, no_recycling):\n"
          "        return theano.Op.make_thunk(self, node, storage_map, compute_map, no_recycling)\n"
          "x = T.vector()\nf = theano.function([x], Double()(x))\nprint('doubled', f([1.0]))\n")


def test_an_op_of_the_codes_own_without_make_thunks_impl(legacy_python: Callable[[str], str], theano_home: Path,
                                                          tmp_path: Path) -> None:
    log = traceback_of(legacy_python("healthy37"), OWN_OP, tmp_path, {"THEANO_FLAGS": "cxx="})
    assert "make_thunk() got an unexpected keyword argument 'impl'" in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("theano-too-new-for-code", "high")]
    # the port the note names: the argument Theano 0.9 added
    ported = OWN_OP.replace("no_recycling):\n", "no_recycling, impl=None):\n")
    assert "doubled [2.]" in printed(legacy_python("healthy37"), ported, THEANO_FLAGS="cxx=")


def test_an_ldflags_folder_with_a_space(legacy_python: Callable[[str], str], theano_home: Path,
                                        tmp_path: Path) -> None:
    # Theano splits blas.ldflags at white space (rel-1.0.5 theano/tensor/blas.py:437)
    code = "import theano, theano.tensor as T\nx = T.matrix()\ntheano.function([x], T.dot(x, x))\n"
    log = traceback_of(legacy_python("healthy37"), code, tmp_path,
                       {"THEANO_FLAGS": 'blas.ldflags=-L"/opt/Program Files/lib" -lblas'})
    assert 'invalid token "Files/lib" in ldflags_str' in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("path-with-spaces", "high")]
    assert found[0].evidence[-1].note.endswith("`Files/lib` is the rest of that folder")
    # a token that is no piece of a folder stays the invalid-token cause
    other = log.replace('invalid token "Files/lib"', 'invalid token "blas.lib"')
    assert [f.cause for f in explain_text(other).recognised][:1] == ["blas-ldflags-invalid"]


# a local optimization of the graph that raises: real Theano logs it (NavigatorOptimizer.warn) and compiles
# without it, except an AssertionError, which stops the compile
BROKEN_OPT = ("import numpy as np, theano, theano.tensor as T\nfrom theano.gof import local_optimizer\n"
              "from theano.tensor.opt import register_canonicalize\n\n"
              "@register_canonicalize\n@local_optimizer([T.Elemwise])\ndef local_broken_rewrite(node):\n"
              "    raise {error}('the rewrite cannot handle this node')\n\n"
              "x = T.dvector('x')\nf = theano.function([x], x * 2 + 1)\nprint('result', f(np.ones(2)))\n")


# a rewrite that turns a row into a matrix: Theano 0.8.2's fgraph.replace refuses it in words that
# ReplaceValidate prints (<<!! BUG IN FGRAPH.REPLACE OR A LISTENER !!>>) before the optimizer logs it
WIDENING_OPT = ("import numpy as np, theano, theano.tensor as T\nfrom theano.gof.opt import local_optimizer\n"
                "from theano.tensor.opt import register_specialize\n\n"
                "@register_specialize\n@local_optimizer([T.Elemwise])\ndef widen_exp(node):\n"
                "    if node.op.scalar_op == theano.scalar.exp:\n"
                "        return [node.outputs[0] + T.zeros((2, 2))]\n\n"
                "x = T.row('x')\nf = theano.function([x], T.exp(x) * 2)\nprint('result %s' % f(np.ones((1, 2))))\n")


def test_a_refused_replacement_printed_by_replace_validate(legacy_python: Callable[[str], str],
                                                         theano_home: Path, tmp_path: Path) -> None:
    script = tmp_path / "opt.py"
    script.write_text(WIDENING_OPT, encoding="utf-8")
    run = subprocess.run([legacy_python("theano082_py27"), str(script)], capture_output=True, text=True,
                         timeout=600, cwd=tmp_path, env={**os.environ, "THEANO_FLAGS": "cxx="})
    printed_line = next(line for line in run.stderr.splitlines() if "BUG IN FGRAPH.REPLACE" in line)
    assert run.returncode == 0 and "result [" in run.stdout and "Optimization failure due to: widen_exp" in run.stderr
    for log in ("export THEANO_FLAGS=cxx=\n" + run.stderr + run.stdout, printed_line + "\n"):
        assert [(f.cause, f.confidence) for f in explain_text(log).recognised][:1] == [
            ("theano-optimization-skipped", "medium")], log
    # Theano-PyMC words a refused conversion as its types' `Cannot convert Type ...` (real Theano-PyMC 1.1.2's
    # words, in ReplaceValidate's print format, as a PyMC3 notebook shows it): the graph's rewrite, not the
    # code's types
    refusal = printed(legacy_python("pymc39"), "import theano.tensor as T\ntry:\n"
                      "    T.row('r').type.filter_variable(T.matrix('m'))\nexcept TypeError as e:\n"
                      "    print('<<!! BUG IN FGRAPH.REPLACE OR A LISTENER !!>>', type(e), e, 'local_usmm')\n")
    assert "Cannot convert Type TensorType(float64, matrix)" in refusal, refusal
    assert [(f.cause, f.confidence) for f in explain_text(refusal).recognised] == [
        ("theano-optimization-skipped", "medium")]
    # the same type error raised by the code itself is the code's
    own = refusal.replace("<<!! BUG IN FGRAPH.REPLACE OR A LISTENER !!>> <class 'TypeError'> ", "TypeError: ")
    assert [f.cause for f in explain_text(own).recognised] == ["model-broadcastable-mismatch"]


@pytest.mark.parametrize("env", ["healthy37", "theano090_py36"])
def test_real_theano_logs_a_failed_local_optimization_and_goes_on(legacy_python: Callable[[str], str],
                                                                 theano_home: Path, tmp_path: Path, env: str) -> None:
    script = tmp_path / "opt.py"
    script.write_text(BROKEN_OPT.format(error="ValueError"), encoding="utf-8")
    run = subprocess.run([legacy_python(env), str(script)], capture_output=True, text=True, timeout=600,
                         cwd=tmp_path, env={**os.environ, "THEANO_FLAGS": "cxx="})
    log = run.stdout + run.stderr
    assert run.returncode == 0 and "result [" in log and "Optimization failure due to: local_broken" in log
    went_on = explain_text("export THEANO_FLAGS=cxx=\n" + run.stderr + run.stdout)  # (no compiler, chosen)
    assert went_on.final_exception is None
    assert [(f.cause, f.confidence) for f in went_on.recognised][:1] == [("theano-optimization-skipped", "medium")]
    # an AssertionError stops the compile: the logged traceback's exception is where the run ended
    failed = traceback_of(legacy_python(env), BROKEN_OPT.format(error="AssertionError"), tmp_path,
                          {"THEANO_FLAGS": "cxx="})
    found = explain_text("export THEANO_FLAGS=cxx=\n" + failed)
    assert found.final_exception is not None and "AssertionError" in found.final_exception.text
    assert ("theano-optimization-skipped", "medium") not in [(f.cause, f.confidence) for f in found.findings]
