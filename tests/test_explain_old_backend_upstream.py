"""`explain` on the messages the old GPU back-end itself prints (theano/sandbox/cuda at rel-0.7,
rel-0.8.2 and rel-0.9.0, and what is left of it in 0.10/1.0), written as Theano prints them: the
inner causes of `CUDA is installed, but device gpu is not available`, the device number, cuBLAS,
floatX, cuDNN too old or on a GPU below compute capability 3.0, a stale cuda_ndarray, harmless
notices. Each row names the upstream file and line its text comes from."""

from __future__ import annotations

from pathlib import Path

import pytest

from theanodoctor.explain import explain_text

LOGGER = "WARNING (theano.sandbox.cuda): CUDA is installed, but device gpu is not available  (error: {})"
INIT = "ERROR (theano.sandbox.cuda): ERROR: Not using GPU. Initialisation of device {} failed:\n{}"
BANNER = "Using gpu device 0: {} (CNMeM is disabled, cuDNN {})"


def _named(text: str) -> list[tuple[str, str]]:
    return [(f.cause, f.confidence) for f in explain_text(text).findings if f.confidence != "low"]


def _all(text: str) -> dict[str, str]:
    return {f.cause: f.confidence for f in explain_text(text).findings}


@pytest.mark.parametrize(("log", "cause", "confidence"), [
    # cuda_ndarray.cu gpu_init (rel-0.9.0 :3205-3213, :3225-3228; rel-0.7 :3124-3147)
    (LOGGER.format("Can't use the GPU, no devices support CUDA"), "no-gpu-visible", "medium"),
    (LOGGER.format("There is no device that supports CUDA"), "no-gpu-visible", "medium"),
    (INIT.format(2, "Bad device number 2. Only 1 devices available."), "old-backend-bad-device-number", "high"),
    # cublas_init (rel-0.9.0 cuda_ndarray.cu:3738-3740)
    (INIT.format("gpu", "cublasCreate() returned this error 'the resources could not be allocated'"),
     "cublas-init-failed", "medium"),
    # use() (rel-0.9.0 __init__.py:548-553)
    (INIT.format("gpu", "Theano flag device=gpu* (old gpu back-end) only support floatX=float32. You have "
                        "floatX=float16. Use the new gpu back-end with device=cuda* for that value of floatX."),
     "old-backend-floatx-float16", "high"),
    # dnn_available (rel-0.9.0 __init__.py:344-348 through the banner :622-627; rel-0.8.2 :329-333)
    (BANNER.format("Tesla K40c", "Version is too old. Update to v5, was 3007."), "cudnn-too-old", "high"),
    ("RuntimeError: Version is too old. Update to v5, was 4004.", "cudnn-too-old", "high"),
    # the cuDNN features (rel-0.9.0 dnn.py:2392, :361; rel-0.8.0 dnn.py:344 spells it CuDNN)
    ("RuntimeError: cuDNN Batch Normalization requires cuDNN v5", "cudnn-too-old", "high"),
    ("RuntimeError: cuDNN winograd convolution requires cuDNN v5 or more recent", "cudnn-too-old", "high"),
    ("RuntimeError: CuDNN tiled-FFT convolution requires cuDNN v4 or more recent", "cudnn-too-old", "high"),
    ("RuntimeError: could not set op descriptor: CUDNN_VERSION must be >= 30", "cudnn-too-old", "high"),
    # rel-0.7 dnn.py:82-88
    ("RuntimeError: You have installed a release candidate of CuDNN v2. This isn't supported anymore. "
     "Update to CuDNN v2 final version.", "cudnn-too-old", "high"),
    # major < 3 (rel-0.9.0 __init__.py:285-289, :351-354; rel-0.7 dnn.py:35-38)
    (BANNER.format("GeForce GTX 470", "Device not supported"), "gpu-too-old", "medium"),
    ("RuntimeError: You enabled cuDNN, but we aren't able to use it: Device not supported", "gpu-too-old", "high"),
    ("AssertionError: cuDNN optimization was enabled, but Theano was not able to use it. We got this error: \n"
     "Device not supported by cuDNN", "gpu-too-old", "high"),
    # rel-0.9.0 __init__.py:436-447, :633-641, :654-656
    ("WARNING (theano.sandbox.cuda): cuda_ndarray was loaded from /opt/theano-0.6/cuda_ndarray/cuda_ndarray.so, "
     "but Theano expected to load it from /home/u/.theano/compiledir_Linux/cuda_ndarray/cuda_ndarray.so. This is "
     "not expected as theano should compile it automatically for you. Do you have a directory called "
     "cuda_ndarray in your LD_LIBRARY_PATH environment variable? If so, please remove it as it is outdated.",
     "old-backend-stale-cuda-ndarray", "medium"),
    ("WARNING (theano.sandbox.cuda): You are probably using an old GPU, that Theano does not support. This means "
     "GPU code will most likely be slow AND may crash when we try to use features that your GPU does not support.",
     "old-backend-gpu-unsupported", "high"),
    ("WARNING (theano.sandbox.cuda): Ignoring call to use(1), GPU number 0 is already in use.",
     "old-backend-use-ignored", "high"),
    # rel-0.7 nvcc_compiler.py:55-64
    ("ValueError: Theano nvcc.flags support only parameter/value pairs without space between them. e.g.: "
     "'--machine 64' is not supported, but '--machine=64' is supported. Please add the '=' symbol. nvcc.flags "
     "value is '--machine 64'", "nvcc-flags-value-space", "high"),
    # rel-0.9.0 opt.py:1098-1106, :1868-1875
    ("/usr/lib/python2.7/site-packages/theano/sandbox/cuda/opt.py:1100: UserWarning: Although your current code "
     "is fine, please note that Theano versions prior to 0.6 (more specifically, prior to commitd 2240bddd on "
     "March 29, 2012) may have yielded an incorrect result. To remove this warning, either set the "
     "`warn.gpu_set_subtensor1` config option to False, or `warn.ignore_bug_before` to at least '0.6'.",
     "theano-old-bug-notice", "high"),
    ("WARNING (theano.sandbox.cuda.opt): Pool with tensor variable for the window size, stride or padding is only "
     "supported in the new GPU backend, so this op will run on CPU. (op Pool{ignore_border=True, mode='max'}(x))",
     "old-backend-pool-on-cpu", "high"),
    # rel-0.9.0 dnn.py:1122-1125, basic_ops.py:3305-3309
    ("/usr/lib/python2.7/site-packages/lasagne/layers/dnn.py:243: UserWarning: dnn_conv: parameter 'workmem' is "
     "deprecated. Use 'algo' instead.", "old-backend-api-deprecated", "high"),
    ("DeprecationWarning: GpuFlatten class is deprecated, please use gpu_flatten method instead.",
     "old-backend-api-deprecated", "high"),
    # rel-0.9.0 theano/misc/pycuda_init.py:26-35
    ("/usr/lib/python2.7/site-packages/theano/misc/pycuda_init.py:34: UserWarning: PyCUDA import failed in "
     "theano.misc.pycuda_init", "pycuda-import-failed", "medium"),
    # rel-0.9.0 type.py:122-146
    ("TypeError: ('Bad input argument to theano function with name \"train.py:40\" at index 0 (0-based)', "
     "'CudaNdarrayType, with dtype float32, cannot store a value of dtype float64 without risking loss of "
     "precision.If you do not mind, please cast your data to float32.')", "input-dtype-mismatch", "high"),
    # rel-0.9.0 __init__.py:733-738, nvcc_compiler.py:114-119
    ("WARNING (theano.sandbox.cuda): GPU device gpu0 will be initialized, and used if a GPU is needed. However, "
     "no computation, nor shared variables, will be implicitly moved to that device. If you want that behavior, "
     "use the 'device' flag instead.", "old-backend-init-gpu-device-note", "high"),
    ("WARNING (theano.sandbox.cuda.nvcc_compiler): We try to get compilation arguments for CUDA code, but the GPU "
     "device is not initialized. This is probably caused by an Op that work on the GPU that don't inherit from "
     "GpuOp. We Initialize the GPU now.", "old-backend-late-gpu-init-note", "high"),
    # rel-0.9.0 type.py:597
    ("UserWarning: config.experimental.unpickle_gpu_on_cpu is set to True. Unpickling CudaNdarray as numpy.ndarray",
     "unpickle-gpu-on-cpu-used", "high"),
])
def test_the_old_backends_own_message_names_its_cause(log, cause, confidence):
    assert _named(log)[0] == (cause, confidence)


@pytest.mark.parametrize("error", ["unknown error", "initialization error"])
def test_a_runtime_error_with_several_roots_is_a_hint_that_asks(error):
    # cuda_ndarray.cu:3194-3199 at rel-0.9.0: cudaGetDeviceCount's own error string
    log = LOGGER.format(f"Unable to get the number of gpus available: {error}")
    findings = explain_text(log).findings
    assert _named(log) == []
    first = findings[0]
    assert first.cause == "cuda-runtime-init-failed" and first.confidence == "low"
    assert first.asks and "nvidia-smi" in first.asks[0]


def test_the_inner_error_with_one_root_still_names_it():
    # the same wrapper around a runtime error the catalogue already knows
    log = LOGGER.format("Unable to get the number of gpus available: no CUDA-capable device is detected")
    assert _named(log)[0][0] == "no-gpu-visible"


def test_float64_with_the_old_backend_is_a_warning_no_cause_of_an_unrelated_exception():
    warning = ("UserWarning: Theano flag device=gpu* (old gpu back-end) only support floatX=float32. You have "
               "floatX=float64. Use the new gpu back-end with device=cuda* for that value of floatX.")
    assert _named(warning)[0] == ("floatx-not-float32-on-old-gpu", "medium")
    log = warning + "\nTraceback (most recent call last):\n  File \"train.py\", line 9, in <module>\nKeyError: 'epochs'"
    assert _all(log).get("floatx-not-float32-on-old-gpu") == "low"


def test_the_cudnn_banner_is_a_warning_and_the_new_backends_lowercase_text_stays_its_own():
    banner = BANNER.format("Tesla K40c", "Version is too old. Update to v5, was 3007.")
    log = banner + "\nTraceback (most recent call last):\n  File \"train.py\", line 9, in <module>\nKeyError: 'epochs'"
    assert _all(log)["cudnn-too-old"] == "low"  # the GPU ran; cuDNN alone was skipped
    # Theano 0.9's new back-end says `cuDNN version is too old` (theano/gpuarray/dnn.py:132 at rel-0.9.0)
    new = ("RuntimeError: You enabled cuDNN, but we aren't able to use it: cuDNN version is too old. "
           "Update to v5, was 4007.")
    assert _named(new)[0] == ("cudnn-too-old", "high")


def test_the_source_line_a_traceback_quotes_is_no_message():
    # rel-0.8.2 dnn.py:330 shown by IPython above the real exception, which is another one
    log = ("---> 427         if version() < (3000, 3000):\n"
           "    429                 raise RuntimeError(\"CuDNN FFT convolution requires CuDNN v3\")\n"
           "Exception: (\"We can't determine the cudnn version as it is not available\", 'CUDA not available')")
    assert "cudnn-too-old" not in _all(log)


def test_nose_missing_under_the_removed_backend_is_the_removed_backend():
    # rel-1.0.5 theano/sandbox/cuda/__init__.py:1 imports nose before raising its SkipTest
    log = ("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
           "    import theano.sandbox.cuda\n"
           "  File \"/usr/lib/python3.8/site-packages/theano/sandbox/cuda/__init__.py\", line 1, in <module>\n"
           "    from nose.plugins.skip import SkipTest\nModuleNotFoundError: No module named 'nose'")
    assert _named(log)[0] == ("theano-sandbox-cuda-removed", "medium")
    # nose missing anywhere else is not the removed back-end
    other = ("  File \"/usr/lib/python3.8/site-packages/theano/tests/unittest_tools.py\", line 8, in <module>\n"
             "ModuleNotFoundError: No module named 'nose'")
    assert _all(other).get("theano-sandbox-cuda-removed") in (None, "low")


def test_nvccs_output_after_a_compile_that_worked_is_named_harmless_unless_the_run_failed():
    # rel-0.8.2 nvcc_compiler.py:398-405: printed only after nvcc returned success
    log = ("DEBUG: nvcc STDOUT mod.cu\n   Creating library C:/Users/me/AppData/Local/Theano/compiledir_Windows-10/"
           "tmpabc/m9197.lib and object C:/Users/me/AppData/Local/Theano/compiledir_Windows-10/tmpabc/m9197.exp")
    assert _named(log) == [("nvcc-stdout-harmless", "medium")]
    # a run that failed: no answer to it
    failed = log + "\nTraceback (most recent call last):\n  File \"train.py\", line 3, in <module>\nKeyError: 'x'"
    assert _all(failed)["nvcc-stdout-harmless"] == "low"
    # Theano's notice for Canopy printed among nvcc's output is no harmless output
    canopy = log.replace("mod.cu", "Your Python version is from Canopy. You need to install the package 'mingw 4.5.2' "
                                   "from Canopy package manager.")
    assert _all(canopy)["nvcc-stdout-harmless"] == "low"


def test_nvccs_deprecated_architecture_is_a_warning_and_a_path_cut_at_a_space_is_the_space():
    warning = ("nvcc warning : The 'compute_20', 'sm_20', and 'sm_21' architectures are deprecated, and may be "
               "removed in a future release (Use -Wno-deprecated-gpu-targets to suppress warning).")
    assert _named(warning)[0] == ("nvcc-arch-deprecated-warning", "medium")
    failed = warning + "\nnvcc fatal   : Don't know what to do with 'C:/Program'"
    assert _named(failed)[0] == ("path-with-spaces", "medium")
    assert _all(failed)["nvcc-arch-deprecated-warning"] == "low"  # no explanation beside a compiler error
    unknown = warning + "\nclang: error: unsupported option '-dumpspecs'"
    assert _named(unknown) == []  # whatever that error's cause, the warning is not it
    # an empty argument is no path
    assert "path-with-spaces" not in _all("nvcc fatal   : Don't know what to do with ''")


def test_cnmems_pool_is_too_big_only_when_cnmem_says_out_of_memory():
    # rel-0.9.0 cuda_ndarray.cu:113-118; cnmem.cpp:128-139 maps only cudaErrorMemoryAllocation to OUT_OF_MEMORY
    oom = INIT.format("gpu", "initCnmem: cnmemInit call failed! Reason=CNMEM_STATUS_OUT_OF_MEMORY. numdev=1")
    assert _named(oom)[0] == ("cnmem-too-high", "high")
    other = INIT.format("gpu", "initCnmem: cnmemInit call failed! Reason=CNMEM_STATUS_CUDA_ERROR. numdev=1")
    assert "cnmem-too-high" not in _all(other)


@pytest.mark.parametrize("log", [
    # rel-0.9.0 fftconv.py:51-55 and cula.py:59-61: an import that failed for a reason Theano kept to itself
    "RuntimeError: scikits.cuda is needed for all GPU fft implementation, including fftconv.",
    "RuntimeError: Cula is not available and GpuSolve Op can not be constructed.",
])
def test_scikits_cuda_unavailable_is_medium_and_asks_for_the_import_theano_ran(log):
    first = explain_text(log).findings[0]
    assert (first.cause, first.confidence) == ("scikits-cuda-unusable", "medium")
    assert first.asks and "scikits.cuda" in first.asks[0]


def test_the_source_nvcc_could_not_compile_printed_with_its_line_numbers_is_no_message(legacy_python):
    # real Theano 0.8.2's cuda_ndarray.cu, printed as the old back-end prints a source nvcc failed on
    # (rel-0.9.0 theano/sandbox/cuda/nvcc_compiler.py:385-386, `print(i + 1, l)`), with nvcc's refusal
    # of the host compiler after it: the listing's string literals (cnmem, no CUDA device) are no messages
    site = Path(legacy_python("theano082_py27")).parent.parent / "lib" / "python2.7" / "site-packages"
    source = (site / "theano" / "sandbox" / "cuda" / "cuda_ndarray.cu").read_text(encoding="utf-8")
    assert "cnmemInit call failed!" in source and "no devices support CUDA" in source
    listing = "".join(f"{i + 1} {line}\n" for i, line in enumerate(source.split("\n")))
    error = ("/usr/local/cuda/bin/../targets/x86_64-linux/include/host_config.h:115:2: error: #error -- "
             "unsupported GNU version! gcc versions later than 4.9 are not supported!\n")
    found = _named(listing + error)
    assert found[:1] == [("nvcc-gcc-too-new", "high")], found
    assert not {"cnmem-too-high", "no-gpu-visible"} & {cause for cause, _ in found}
    # the same texts as the run printed them are its messages
    assert _named(LOGGER.format("Can't use the GPU, no devices support CUDA"))[:1] == [("no-gpu-visible", "medium")]
