"""`explain` on tool-chain, numpy C-ABI and compile-cache messages (the platforms batch of the
real-log corpus): behaviour the corpus cases alone do not pin down. The texts are the real
messages' shapes; the corpus in tests/explain_corpus/platforms holds the posts themselves."""

from __future__ import annotations

from theanodoctor import knowledge
from theanodoctor.explain import explain_text

BLAS_WARNING = "WARNING (theano.tensor.blas): Using NumPy C-API based implementation for BLAS functions."
COMPILE_FAILED = "You can find the C code in this temporary file: /var/folders/9w/T/theano_compilation_error_90qgq8as"


def _found(text: str) -> dict[str, str]:
    return {f.cause: f.confidence for f in explain_text(text).findings}


def test_a_warning_is_no_cause_when_the_log_shows_a_failure_nothing_specific_explains():
    alone = _found(BLAS_WARNING)
    with_failure = _found(BLAS_WARNING + "\n" + COMPILE_FAILED + "\nlibrary System is not found.\n")
    assert alone["blas-numpy-fallback"] != "low"
    assert with_failure["blas-numpy-fallback"] == "low"
    assert not [c for c, level in with_failure.items() if level != "low"]


def test_numpy_116_remedy_quotes_the_compatibility_table():
    text = ("AttributeError: ('The following error happened while compiling the node', Elemwise{add,no_inplace}(x, y), "
            "'\\n', \"module 'numpy.core.multiarray' has no attribute '_get_ndarray_c_version'\")")
    finding = explain_text(text).findings[0]
    rule = next(r for r in knowledge.compat_rules() if "_get_ndarray_c_version" in r.message)
    assert finding.cause == "theano-too-old-for-numpy116" and finding.confidence == "high"
    assert any(str(rule.theano) in line and str(rule.numpy) in line for line in finding.details)


def test_apple_assembler_message_without_error_prefix_is_an_old_assembler():
    text = ("/var/folders/nk/T//ccCeRvP1.s:549:no such instruction: `vmovdqa LC3(%rip), %xmm0'\n"
            "Problem occurred during compilation with the command line below:\n"
            "g++ -dynamiclib -g -O3 -march=core-avx2 -o /Users/a/.theano/compiledir_Darwin/tmp/x.so mod.cpp\n")
    assert _found(text)["assembler-too-old"] == "medium"


def test_32bit_mingw_import_symbols_are_a_python_link_problem():
    text = ("Compilation failed (return status=1): C:/Users/a/AppData/Local/Theano/compiledir_Windows-32/"
            "tmp/mod.cpp:87: undefined reference to `_imp___Py_NoneStruct'")
    assert _found(text)["mingw-python-link"] == "high"


def test_undefined_symbol_in_the_compile_cache_is_only_a_hint_that_asks():
    text = ("ImportError: ('The following error happened while compiling the node', DeepCopyOp(x), '\\n', "
            "'/home/u/.theano/compiledir_Linux-x86_64-2.7.13-64/tmpaxNtgT/407a28.so: undefined symbol: _ZdlPvm', "
            "'[DeepCopyOp(x)]')")
    finding = next(f for f in explain_text(text).findings if f.cause == "compile-cache-stale")
    assert finding.confidence == "low" and finding.asks
    assert any("_ZdlPvm" in e.note for e in finding.evidence)


def test_target_feature_without_a_sign_of_theano_asks_for_its_version():
    clang = "clang: error: unknown argument: '-target-feature'"
    alone = next(f for f in explain_text(clang).findings if f.cause == "theano-clang-native-flags")
    assert alone.confidence == "medium" and "Theano version" in alone.asks[0]
    assert _found("import theano\n" + clang)["theano-clang-native-flags"] == "high"


def test_theanos_dyld_message_wrapped_by_a_post_is_still_read():
    # Theano rel-0.7 theano/tensor/blas.py:209, as a post quotes it: wrapped after "does"
    text = ("> Exception: The environment variable 'DYLD_FALLBACK_LIBRARY_PATH' does\n"
            "> not contain the '/Users/josh/anaconda/envs/py27/lib' path in its\n> value. This will make Theano "
            "unable to compile c code.\n")
    assert _found(text)["macos-dyld-fallback-path"] == "high"
    # a post saying the variable now holds the folder is no such message
    assert "macos-dyld-fallback-path" not in _found(
        "Now the environment variable 'DYLD_FALLBACK_LIBRARY_PATH' does contain '/Users/josh/anaconda/lib'\n")


def test_a_theano_compilation_failing_inside_a_pyinstaller_bundle():
    """A script frozen by PyInstaller: its loader in the warnings' paths, and Theano's pointer to the C
    code it failed to compile (cmodule.py), with no compiler's lines in the paste."""
    frozen = ("c:\\python\\lib\\site-packages\\PyInstaller\\loader\\pyimod03_importers.py:621: UserWarning: x\n"
              "  exec(bytecode, module.__dict__)\n" + COMPILE_FAILED + "\n")
    assert _found(frozen) == {"frozen-app-theano-compile": "medium", "compile-failed": "low"}
    # the bundle's loader alone, with nothing failing to compile, is only a hint
    assert _found(frozen.replace(COMPILE_FAILED, "")) == {"frozen-app-theano-compile": "low"}
