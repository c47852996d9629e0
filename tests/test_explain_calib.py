"""The catalogue's confidence against the sources of its texts: a consequence (a compile, an
import, an initialisation that failed for a reason printed elsewhere) never names a cause with
high confidence, a warning is no cause of a failure it does not explain, and the rows whose
confidence was lowered or whose text was narrowed say what the upstream code says (each case
cites the file and line its text comes from)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.explain_tables import first_cause
from tests.legacy_envs import find_interpreter
from theanodoctor import kb_causes
from theanodoctor.explain import explain_text

TRACEBACK = "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    model.fit(x)\n"
UNRELATED_FAILURE = f"{TRACEBACK}ZeroDivisionError: division by zero"


def _levels(text: str) -> dict[str, str]:
    return {f.cause: f.confidence for f in explain_text(text).findings}


def test_no_signature_of_a_generic_cause_is_high() -> None:
    """A generic cause is a symptom with many roots (its `generic` flag): none of its texts may
    claim one root."""
    causes = kb_causes.causes()
    high = [s.id for s in kb_causes.signatures() if causes[s.cause].generic and s.confidence == "high"]
    assert high == []


@pytest.mark.parametrize("sig", [s for s in kb_causes.signatures()
                                 if s.warning and s.regex is None and not s.context and not s.unless],
                         ids=lambda s: s.id)
def test_a_warning_is_no_cause_of_a_failure_it_does_not_explain(sig: kb_causes.Signature) -> None:
    """Every warning row whose literal text alone matches: printed before a traceback that ends
    in an error nothing in the catalogue explains, it names no cause (only a low hint)."""
    text = f"{sig.contains[0]}\n{UNRELATED_FAILURE}"
    assert _levels(text).get(sig.cause) == "low", sig.id


# Theano rel-0.9.0 theano/sandbox/cuda/__init__.py:338-343 (dnn_available) and :612-630 (the banner).
MIXED = "Mixed dnn version. The header is from one version, but we link with a different version (6021, 5005)"
MIXED_BANNER = f"Using gpu device 0: GeForce GTX 1060 (CNMeM is enabled with initial size: 100 MB, cuDNN {MIXED})"


def test_the_old_backends_mixed_cudnn_banner_is_a_warning() -> None:
    finding = explain_text(MIXED_BANNER).findings[0]
    assert (finding.cause, finding.confidence, finding.warning) == ("cudnn-version-mixed", "high", True)
    assert _levels(f"{MIXED_BANNER}\n{UNRELATED_FAILURE}")["cudnn-version-mixed"] == "low"


def test_the_raised_mixed_cudnn_error_is_an_error() -> None:
    text = f"{TRACEBACK}RuntimeError: You enabled cuDNN, but we aren't able to use it: {MIXED}"
    finding = explain_text(text).findings[0]
    assert (finding.cause, finding.confidence, finding.warning) == ("cudnn-version-mixed", "high", False)


# Theano rel-1.0.5 theano/configdefaults.py:546 (the clang++ warning), :559-561, :577-585.
GXX = ("WARNING (theano.configdefaults): g++ not detected ! Theano will be unable to execute optimized "
       "C-implementations (for both CPU and GPU) and will default to Python implementations. Performance will "
       "be severely degraded. To remove this warning, set Theano flags cxx to an empty string.")
CLANG = "WARNING (theano.configdefaults): Only clang++ is supported. With g++, we end up with strange g++/OSX bugs."
NO_CXX = ("UserWarning: DeprecationWarning: there is no c++ compiler.This is deprecated and with Theano 0.11 a c++ "
          "compiler will be mandatory")


def test_gxx_not_detected_names_a_missing_gxx() -> None:
    assert _levels(GXX)["gxx-missing"] == "high"


def test_gxx_not_detected_on_macos_is_no_missing_gxx() -> None:
    """Beside the clang++ warning (printed only for a non-empty cxx), `g++ -v` ran and `clang++ -v`
    failed: installing g++ is not the remedy."""
    assert _levels(f"{CLANG}\n{GXX}")["gxx-missing"] == "low"


def test_no_cxx_compiler_deprecation_asks_whether_cxx_was_emptied() -> None:
    finding = next(f for f in explain_text(NO_CXX).findings if f.cause == "gxx-missing")
    assert finding.confidence == "medium" and any(".theanorc" in a for a in finding.asks)


# libgpuarray v0.7.6 src/gpuarray_blas_cuda_cublas.c:235-239; Theano rel-1.0.5 theano/gpuarray/__init__.py:242-243.
CUBLAS = ("ERROR 11: cublasCreate: (cublas) Library not initialized.\n"
          "ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n"
          "Traceback (most recent call last):\n  File \"theano/gpuarray/__init__.py\", line 227, in <module>\n"
          "    use(config.device)\nGpuArrayException: ('cublasCreate: (cublas) Library not initialized.', 11)")
# Theano rel-1.0.5 theano/gpuarray/dnn.py:146 (the handle test dnn_available compiles and runs).
CUDNN_HANDLE = ("RuntimeError: ('The following error happened while compiling the node', GpuDnnConv{algo='small', "
                "inplace=True}(GpuContiguous.0), '\\n', 'could not create cuDNN handle: CUDNN_STATUS_INTERNAL_ERROR')")


@pytest.mark.parametrize(("text", "cause"), [(CUBLAS, "cublas-init-failed"), (CUDNN_HANDLE, "cudnn-handle-failed")])
def test_a_library_handle_that_could_not_be_created_names_no_cause(text: str, cause: str) -> None:
    """cublasCreate and cudnnCreate fail so when the CUDA runtime under them could not initialise
    (a driver too old for the toolkit) and when the GPU memory is taken: the finding asks."""
    findings = explain_text(text).findings
    assert first_cause(text) == []
    finding = next(f for f in findings if f.cause == cause)
    assert finding.confidence == "low" and finding.asks


def test_pygpu_init_failure_beside_its_reason_is_its_consequence() -> None:
    text = ("ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n"
            "Traceback (most recent call last):\n  File \"theano/gpuarray/__init__.py\", line 227, in <module>\n"
            "RuntimeError: Could not load \"libcuda.so\": libcuda.so: cannot open shared object file: "
            "No such file or directory")
    findings = explain_text(text).findings
    assert findings[0].cause == "libcuda-missing"
    assert next(f for f in findings if f.cause == "pygpu-init-failed").consequence_of == "libcuda-missing"


LOADER_TEXT = "ImportError: {path}: undefined symbol: {symbol}"


@pytest.mark.parametrize(("symbol", "cause"), [("GpuKernel_binary", "libgpuarray-api-mismatch"),
                                               ("gpucontext_props_new", "libgpuarray-api-mismatch"),
                                               ("PyUnicodeUCS4_FromStringAndSize", "pygpu-binary-incompatible")])
def test_an_undefined_symbol_in_pygpu_names_the_library_it_belongs_to(symbol: str, cause: str) -> None:
    path = "/home/u/.local/lib/python2.7/site-packages/pygpu/gpuarray.so"
    assert first_cause(LOADER_TEXT.format(path=path, symbol=symbol)) == [cause]


def test_libgpuarray_076_lacks_a_symbol_older_pygpu_needs(legacy_env: Callable[[str], Path],
                                                          tmp_path: Path) -> None:
    """The real libgpuarray 0.7.6 does not export `GpuKernel_binary` (older releases' kernel.h
    declare it): a pygpu module built to call it fails to import with the loader's message, and
    `explain` reads that message as pygpu and libgpuarray from different releases."""
    env = legacy_env("gpu37")
    lib = env / "lib"
    package = tmp_path / "pygpu"
    package.mkdir()
    (package / "__init__.py").write_text("")
    source = tmp_path / "uses_binary.c"
    source.write_text("int GpuKernel_binary(const void *k, unsigned long *sz, void **obj);\n"
                      "int GpuKernel_call(void);\n"
                      "void *uses[] = {(void *)GpuKernel_binary, (void *)GpuKernel_call};\n")
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(package / "gpuarray.so"), str(source), f"-L{lib}",
                    "-lgpuarray", f"-Wl,-rpath,{lib}"], check=True, capture_output=True)
    python = env / "bin" / "python"
    run = subprocess.run([str(python), "-c", "import pygpu.gpuarray"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.endswith("undefined symbol: GpuKernel_binary"), run.stderr
    assert first_cause(run.stderr) == ["libgpuarray-api-mismatch"]


# Theano rel-0.9.0 theano/sandbox/cuda/__init__.py:506-511 (use) and :260-266 (GpuOp.prepare_node).
FORCED = ("You forced the use of gpu device 'gpu', but nvcc was not found. Set it in your PATH environment "
          "variable or set the Theano flags 'cuda.root' to its directory")
GPU_OP = ("EnvironmentError: ('The following error happened while compiling the node', HostFromGpu(b), '\\n', "
          f'"{FORCED}")')


def test_forcing_the_gpu_without_nvcc_names_the_missing_nvcc() -> None:
    assert _levels(f"EnvironmentError: {FORCED}")["old-backend-nvcc-missing"] == "high"


def test_a_gpu_op_compiled_without_a_gpu_asks_whether_the_gpu_was_wanted() -> None:
    """A GPU op forces the GPU when it is compiled: with device=gpu nvcc is missing; without, the
    graph's GPU ops may come from a model pickled on a GPU."""
    levels = _levels(GPU_OP)
    assert first_cause(GPU_OP) == []
    assert levels["old-backend-nvcc-missing"] == levels["pickled-gpu-arrays"] == "low"
    wanted = f"$ THEANO_FLAGS=device=gpu,floatX=float32 python train.py\n{GPU_OP}"
    assert first_cause(wanted) == ["old-backend-nvcc-missing"]
    assert _levels(wanted)["pickled-gpu-arrays"] == "low"


def test_a_pygpu_folder_without_its_compiled_module_is_no_unloadable_libgpuarray(
        legacy_env: Callable[[str], Path], tmp_path: Path) -> None:
    """pygpu 0.7.6's Python files without its compiled modules (libgpuarray's source tree before
    a build), imported by the real Python 2.7 from the current folder: `cannot import name
    gpuarray` (Python 2 skips a submodule it does not find), and nothing says the library failed
    to load."""
    env = legacy_env("gpu27")
    installed = next((env / "lib").glob("python2.7/site-packages/pygpu"))
    tree = tmp_path / "pygpu"
    tree.mkdir()
    for source in installed.glob("*.py"):
        (tree / source.name).write_bytes(source.read_bytes())
    run = subprocess.run([str(env / "bin" / "python"), "-c", "import pygpu"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 1 and run.stderr.strip().endswith("ImportError: cannot import name gpuarray"), run.stderr
    levels = _levels(run.stderr)
    assert "libgpuarray-not-loadable" not in levels
    assert first_cause(run.stderr) == ["local-module-shadowing"] and levels["pygpu-missing"] == "low"


def test_every_text_of_a_harmless_cause_is_a_warning() -> None:
    """A cause whose title calls it harmless is printed by runs that go on: each of its texts is
    a warning, so it is never the cause of a failure something else explains."""
    causes = kb_causes.causes()
    harmless = {cause_id for cause_id, cause in causes.items() if "harmless" in cause.title.lower()}
    assert harmless
    assert [s.id for s in kb_causes.signatures() if s.cause in harmless and not s.warning] == []


# Theano rel-1.0.5 theano/tensor/type.py:228-234 (TensorType.filter_variable).
CONVERT = ("TypeError: Cannot convert Type TensorType({src}, {src_shape}) (of Variable Subtensor{{int64:int64:}}.0) "
           "into Type TensorType({dst}, matrix). You can try to manually convert Subtensor{{int64:int64:}}.0 into a "
           "TensorType({dst}, matrix).")


def test_cannot_convert_type_names_a_dtype_mismatch_only_between_dtypes() -> None:
    assert first_cause(CONVERT.format(src="float64", src_shape="matrix", dst="float32")) == ["input-dtype-mismatch"]
    broadcast = CONVERT.format(src="float32", src_shape="(False, True)", dst="float32")
    assert "input-dtype-mismatch" not in _levels(broadcast)


def test_python2_syntax_in_a_setup_py_pip_builds_names_the_python2_only_release(tmp_path: Path) -> None:
    """The real Python 3.11's message for Python 2's `except E, e:` (3.10+), raised by a setup.py
    in pip's build folder: that release of the package is Python 2 code."""
    build = tmp_path / "pip-install-k2f9" / "theano_0c1d"
    build.mkdir(parents=True)
    (build / "setup.py").write_text("try:\n    import os\nexcept Exception, e:\n    pass\n")
    python = find_interpreter("3.11")
    run = subprocess.run([str(python), str(build / "setup.py"), "egg_info"], capture_output=True, text=True, timeout=60)
    assert "multiple exception types must be parenthesized" in run.stderr, run.stderr
    log = f"  Preparing metadata (setup.py) ... error\n  error: subprocess-exited-with-error\n{run.stderr}"
    assert first_cause(log) == ["package-python2-only"]
    assert first_cause(run.stderr.replace("pip-install-", "src-")) == ["python2-code-on-python3"]


def test_a_cudnn_library_the_loader_cannot_find_at_run_time_points_at_the_loader_path() -> None:
    """The module linked (the linker found the library), then the loader did not: Theano 1.0
    gives the module an rpath to dnn.bin_path (rel-1.0.5 theano/gpuarray/dnn.py:274-280)."""
    text = ("ImportError: ('The following error happened while compiling the node', DnnVersion(), '\\n', "
            "'libcudnn.so.7: cannot open shared object file: No such file or directory', '[DnnVersion()]')")
    finding = explain_text(text).findings[0]
    assert finding.cause == "cudnn-not-found"
    assert "dnn.bin_path" in finding.remedy and "LD_LIBRARY_PATH" in finding.remedy
