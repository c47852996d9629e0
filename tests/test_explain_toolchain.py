"""The C/C++ tool chain's own diagnostics inside Theano's compile failures: the real g++ and
ld of this machine print them, wrapped the way Theano's cmodule raises them, and `explain` must
name the cause from the compiler's text alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.explain_tables import printed, traceback_of
from theanodoctor.explain import explain_text

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="GNU g++/ld diagnostics (Linux)")


def _theano_failure(stderr: str, compiledir: Path) -> str:
    """What Theano rel-1.0.5 theano/gof/cmodule.py:2410 raises: the stderr on one line."""
    one_line = stderr.strip().replace("\n", ". ")
    return ("Traceback (most recent call last):\n"
            f'  File "{compiledir}/theano/gof/cmodule.py", line 2410, in compile_str\n'
            f"Exception: ('The following error happened while compiling the node', 'Compilation failed "
            f"(return status=1): {one_line}')\n")


def _compile(tmp_path: Path, source: str, *args: str) -> str:
    """Run the real g++ as Theano does (a mod.cpp in a compiledir folder) and return its stderr."""
    work = tmp_path / "compiledir_Linux-x86_64" / "tmpabc"
    work.mkdir(parents=True, exist_ok=True)
    (work / "mod.cpp").write_text(source)
    run = subprocess.run(["g++", "-shared", "-fPIC", "-o", str(work / "m.so"), str(work / "mod.cpp"), *args],
                         capture_output=True, text=True, cwd=work, check=False)
    assert run.returncode != 0, "the compile was meant to fail"
    return run.stderr


def _non_pic_archive(tmp_path: Path) -> str:
    """A static archive built without -fPIC (as a static BLAS can be)."""
    obj = tmp_path / "blasish.o"
    (tmp_path / "blasish.c").write_text("int counter; int bump(void) { return ++counter; }\n")
    subprocess.run(["gcc", "-fno-pic", "-c", str(tmp_path / "blasish.c"), "-o", str(obj)], check=True)
    subprocess.run(["ar", "rcs", str(tmp_path / "libblasish.a"), str(obj)], check=True)
    return str(tmp_path)


CASES = {
    "march": ("int f() { return 1; }\n", ("-march=notacpu2026",), "gcc-march-unknown"),
    "option": ("int f() { return 1; }\n", ("-fno-such-option-here",), "compiler-option-rejected"),
    "numpy-header": ("#include <numpy/arrayobject.h>\nint f() { return 1; }\n", (), "numpy-headers-missing"),
    "cxx11": ("#include <cstdint>\nint f() { return 1; }\n", ("-std=c++98",), "cxx11-not-enabled"),
    "library": ("int f() { return 1; }\n", ("-lno_such_library_here",), "link-library-missing"),
    "non-pic": ('extern "C" int bump(void);\nint f() { return bump(); }\n', ("-lblasish",), "static-library-not-pic"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_real_gcc_diagnostics_get_their_cause(tmp_path, name):
    source, args, cause = CASES[name]
    if name == "non-pic":
        args = (f"-L{_non_pic_archive(tmp_path)}", *args)
    stderr = _compile(tmp_path, source, *args)
    for log in (stderr, _theano_failure(stderr, tmp_path)):
        found = explain_text(log).findings
        assert found and found[0].cause == cause, (log, [f.cause for f in found])


def test_the_value_in_the_message_reaches_the_note(tmp_path):
    stderr = _compile(tmp_path, "int f() { return 1; }\n", "-march=notacpu2026")
    first = explain_text(stderr).findings[0]
    assert first.values.get("cpu") == "notacpu2026"
    assert any("notacpu2026" in e.note for e in first.evidence)


@pytest.mark.parametrize("header", ["absent_lib/Core", "absent_lib_config.hpp"])
def test_a_library_header_the_op_includes_is_named_and_asks_which_library_provides_it(tmp_path, header):
    stderr = _compile(tmp_path, f"#include <{header}>\nint f() {{ return 1; }}\n")
    for log in (stderr, _theano_failure(stderr, tmp_path)):
        first = explain_text(log).findings[0]
        assert (first.cause, first.confidence, first.values.get("header")) == ("compile-failed", "medium", header)
        assert first.asks


def test_gcc10_spelling_of_m64_still_means_another_architecture():
    log = "aarch64-linux-gnu-g++: error: unrecognized command-line option '-m64'\nCompilation failed (return status=1)"
    assert explain_text(log).findings[0].cause == "theano-arch-flag-on-arm"


def test_numpy_deprecated_api_warning_is_harmless_beside_a_real_error():
    warning = ("numpy/core/include/numpy/npy_1_7_deprecated_api.h:17:2: warning: #warning \"Using deprecated "
               "NumPy API, disable it with \" \"#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION\" [-Wcpp]\n")
    alone = explain_text(warning).findings
    assert [f.cause for f in alone] == ["numpy-deprecated-api-notice"] and alone[0].warning
    assert alone[0].confidence == "low"  # it sits in logs of every kind of failure
    with_error = explain_text(warning + "mod.cpp:1:10: fatal error: Python.h: No such file or directory\n"
                              "Exception: Compilation failed (return status=1)\n").findings
    assert with_error[0].cause == "python-headers-missing"


def test_killed_compiler_is_memory_and_other_crashes_ask_for_the_gcc_release():
    killed = explain_text("g++: internal compiler error: Killed (program cc1plus)\n"
                          "Exception: Compilation failed (return status=1)").findings
    assert killed[0].cause == "compiler-out-of-memory" and killed[0].confidence == "medium"
    assert "compiler-internal-error" not in [f.cause for f in killed]
    crash = explain_text("mod.cpp:12:1: internal compiler error: Segmentation fault\n"
                         "Exception: Compilation failed (return status=1)").findings
    assert crash[0].cause == "compiler-internal-error" and crash[0].confidence == "low" and crash[0].asks


def test_msvc_lnk1104_on_the_compiledir_module_is_not_a_missing_library():
    module = "LINK : fatal error LNK1104: cannot open file 'C:/Users/a/AppData/Local/Theano/compiledir_x/tmp/m.pyd'"
    assert "link-library-missing" not in [f.cause for f in explain_text(module).findings]
    lib = "LINK : fatal error LNK1181: cannot open input file 'cudnn.lib'"
    found = explain_text(lib).findings
    assert found[0].cause == "link-library-missing" and found[0].values.get("lib") == "cudnn.lib"


@pytest.mark.parametrize(("log", "flag"), [
    ("clang: error: unknown argument: '-fno-such-flag'", "-fno-such-flag"),
    ("ld: unknown option: --as-needed\nclang: error: linker command failed with exit code 1", "--as-needed"),
])
def test_clang_and_apple_ld_options_are_a_low_hint_that_asks_where_the_option_comes_from(log, flag):
    found = explain_text(log + "\nException: Compilation failed (return status=1)").findings
    assert found[0].cause == "compiler-option-rejected" and found[0].confidence == "low"
    assert found[0].values.get("flag") == flag and found[0].asks


def test_theano_080s_target_feature_keeps_its_own_cause():
    log = ("clang: error: unknown argument: '-target-feature'\n"
           "Exception: Compilation failed (return status=1) mod.cpp compiledir_Darwin theano")
    assert explain_text(log).findings[0].cause == "theano-clang-native-flags"


def test_the_two_mingw_seh_errors_keep_their_own_causes():
    negative = explain_text("{standard input}:23367: Error: .seh_savexmm offset is negative").findings
    assert negative[0].cause == "mingw-seh-offset-negative" and negative[0].confidence == "low"
    invalid = explain_text("C:\\Users\\a\\AppData\\Local\\Temp\\cc1.s:48: Error: invalid register for .seh_savexmm")
    assert invalid.findings[0].cause == "mingw-avx512-seh"



def test_apple_ld_skipping_a_library_of_the_other_architecture():
    log = ("ld: warning: ignoring file /opt/homebrew/lib/libopenblas.dylib, building for macOS-x86_64 but "
           "attempting to link with file built for macOS-arm64\nUndefined symbols for architecture x86_64:\n"
           "Exception: Compilation failed (return status=1) compiledir_macOS mod.cpp")
    first = explain_text(log).findings[0]
    assert first.cause == "macos-link-arch-mismatch" and first.values.get("found") == "arm64"


def test_msvc_reading_gcc_options():
    error = explain_text("cl : Command line error D8021 : invalid numeric argument '/Wno-unused-label'").findings
    assert error[0].cause == "compiler-option-rejected" and error[0].values.get("flag") == "/Wno-unused-label"
    warning = explain_text("cl : Command line warning D9002 : ignoring unknown option '-fno-math-errno'").findings
    assert warning[0].cause == "compiler-option-rejected" and warning[0].warning


def test_clangs_bracket_limit_comes_before_the_failed_compile_it_caused():
    # clang's parser: err_bracket_depth_exceeded (the source of the signature), inside Theano's report
    log = ("Exception: ('Compilation failed (return status=1): /Users/u/.theano/compiledir_Darwin-17.5.0-x86_64-i386-"
           "64bit-i386-2.7.8-64/tmpTZWP1W/mod.cpp:24994:32: fatal error: bracket nesting level exceeded maximum of "
           "256. ', '[Elemwise{Composite{...}}(x, y)]')\n")
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("clang-bracket-depth", "high")]
    assert "-fbracket-depth" in found[0].remedy and found[0].evidence[0].note == "clang's limit is 256 nested brackets"


def test_gxx_compiles_the_nesting_clang_refuses(tmp_path):
    # the remedy's other way out: g++ takes more than clang's default 256 nested brackets
    depth = 600
    source = tmp_path / "deep.cpp"
    source.write_text("int f(int x) { return " + "(" * depth + "x" + ")" * depth + "; }\n", encoding="utf-8")
    done = subprocess.run(["g++", "-fsyntax-only", str(source)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("where", "file", "named"), [
    # the compiler probe of Theano 0.9 on Windows (rel-0.9.0 theano/gof/cmodule.py:1796-1797)
    ('  File "C:\\\\Anaconda3\\\\lib\\\\site-packages\\\\theano\\\\gof\\\\cmodule.py", line 1797, '
     'in _try_compile_tmp\n', "try_march_x.exe", True),
    ('  File "C:\\\\tools\\\\cleanup.py", line 12, in tidy\n', "report.xlsx", False),  # not Theano's: a hint
])
def test_a_file_windows_keeps_locked_is_named_where_theano_deleted_it(where, file, named):
    log = (where + '    os.remove(exe_path + ".exe")\nPermissionError: [WinError 32] The process cannot access the '
           f"file because it is being used by another process: 'C:\\\\Temp\\\\{file}'\n")
    found = explain_text(log).findings
    assert found[0].cause == "windows-file-locked" and (found[0].confidence == "medium") is named


# a recurrent scan: Theano compiles its scan C code (scan_perform) for the function
RECURRENT_SCAN = ("import theano, theano.tensor as T\nx = T.vector()\n"
                  "y, _ = theano.scan(lambda v, acc: acc + v, sequences=x, outputs_info=T.zeros_like(x[0]))\n"
                  "theano.function([x], y)\n")


def test_theano_102_scan_on_python_37(legacy_python, theano_home, tmp_path):
    log = traceback_of(legacy_python("theano102_py37"), RECURRENT_SCAN, tmp_path)
    assert "has no member named ‘exc_type’" in log and "scan_perform/mod.cpp" in log
    first = explain_text(log).recognised[0]
    assert (first.cause, first.confidence) == ("theano-too-old-for-python37", "high")
    # Theano 1.0.3 compiles the same scan on the same Python
    (tmp_path / "fixed.py").write_text(RECURRENT_SCAN + "print('compiled')\n", encoding="utf-8")
    done = subprocess.run([legacy_python("theano103_np116"), "fixed.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert "compiled" in done.stdout, done.stderr[-2000:]
    # the same compiler message outside Theano's scan code is no Theano release's
    assert [f for f in explain_text("x.c:3:12: error: no member named 'exc_type' in '_ts'\n").findings
            if f.cause == "theano-too-old-for-python37" and f.confidence != "low"] == []


# Apple clang as Theano queries it (`-march=native -E -v -`, `-E -v -`): the cc1 line, naming a CPU
# family and a feature of it this processor lacks. The family is one every x86-64 machine runs, so
# Theano's own trial compile-and-run of the flags passes here. Anything else is compiled by g++,
# less Apple ld's option.
APPLE_CLANG = """#!/bin/bash
case " $* " in
  *" -march=native -E -v - "*) echo " /usr/bin/clang -cc1 -triple x86_64-apple-macosx10.11.0 -E \
-target-cpu core2 -target-feature -ssse3 -x c++ -" >&2; exit 0;;
  *" -E -v - "*) echo " /usr/bin/clang -cc1 -triple x86_64-apple-macosx10.11.0 -E -target-cpu x86-64 -x c++ -" >&2
    exit 0;;
esac
args=(); skip=0
for a in "$@"; do
  if [ $skip = 1 ]; then skip=0; continue; fi
  if [ "$a" = "-undefined" ]; then skip=1; continue; fi
  args+=("$a")
done
exec g++ "${args[@]}"
"""
MARCH_ON_MACOS = ("import sys, theano.gof.cmodule as c\nsys.platform = 'darwin'\nc.GCC_compiler.march_flags = None\n"
                  "c.GCC_compiler.compile_args()\nprint('march_flags=%s' % c.GCC_compiler.march_flags)\n")


def test_theano_on_macos_passes_only_the_cpu_name_clang_reports(legacy_python, theano_home, tmp_path):
    clang = tmp_path / "clang++"
    clang.write_text(APPLE_CLANG)
    clang.chmod(0o755)

    def march_flags(flags: str) -> str:
        out = printed(legacy_python("healthy37"), MARCH_ON_MACOS, THEANO_FLAGS=flags)
        return next(line for line in out.splitlines() if line.startswith("march_flags="))

    # real Theano 1.0.5 keeps `-march=core2` and drops what clang said the processor lacks
    assert march_flags(f"cxx={clang}") == "march_flags=['-march=core2']"
    # the remedy: a -march of the user's turns Theano's guess off
    assert march_flags(f"cxx={clang},gcc.cxxflags=-march=native") == "march_flags=[]"
    crash = "Using Theano backend.\nX_train shape: (60000, 1, 28, 28)\nIllegal instruction: 4\n"
    first = explain_text(crash).findings[0]
    assert (first.cause, first.confidence) == ("compiled-code-illegal-instruction", "medium") and first.asks
    # PyMC3 compiles through Theano; a macOS crash report names the signal its own way
    pymc3 = "In [1]: import pymc3 as pm\n/anaconda/bin/python.app: line 3:  1151 Illegal instruction: 4  python\n"
    report = ("Exception Type:        EXC_BAD_INSTRUCTION (SIGILL)\nThread 0 Crashed:: Dispatch queue: "
              "com.apple.main-thread\n"
              "0   cdb0b9.so   0x0000000101f41d4b instantiate(_object*, _object*) + 59 (mod.cpp:990)\n")
    for text in (pymc3, report):
        assert [(f.cause, f.confidence) for f in explain_text(text).findings][:1] == [
            ("compiled-code-illegal-instruction", "medium")]
    # without Theano in the log, or Linux's or zsh's wording of the signal: not this cause with confidence
    for other in ("Using TensorFlow backend.\nIllegal instruction: 4\n", "theano\nIllegal instruction (core dumped)\n",
                  "theano\n[1]    70691 illegal hardware instruction  python -c 'import theano'\n"):
        assert [f for f in explain_text(other).findings
                if f.cause == "compiled-code-illegal-instruction" and f.confidence != "low"] == []


def test_theano09_kernel_binary_and_gxx(tmp_path):
    # the declaration Theano rel-0.9.0 theano/gpuarray/basic_ops.py:322 writes for a kernel's binary
    source = "static const char k_bin_0[] = { 0x7f,0xa8,0x45,0x4c };\nconst char *first() { return k_bin_0; }\n"
    stderr = _compile(tmp_path, source, "-std=gnu++14")  # g++ 6 and later: C++14 by default
    assert "narrowing conversion of '168' from 'int' to 'char'" in stderr.replace("‘", "'").replace("’", "'")
    found = explain_text(_theano_failure(stderr, tmp_path)).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("theano09-gcc6-char-narrowing", "high")]
    # the remedy's stopgap: -Wno-narrowing in gcc.cxxflags makes g++ take it
    work = tmp_path / "compiledir_Linux-x86_64" / "tmpabc"
    done = subprocess.run(["g++", "-shared", "-fPIC", "-std=gnu++14", "-Wno-narrowing", "-o", str(work / "m.so"),
                           str(work / "mod.cpp")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # a byte that fits a char is no such narrowing: not this cause
    small = explain_text("mod.cpp:3:1: error: narrowing conversion of '100' from 'int' to 'char' inside { } "
                         "[-Wnarrowing]")
    assert "theano09-gcc6-char-narrowing" not in {f.cause for f in small.recognised}


def test_bytecode_of_another_python_is_refused(tmp_path):
    # what Keras' func_dump / func_load do with a Lambda layer's function: marshal its code object in
    # one Python, load it in another (real 3.6 and 3.8 here)
    from tests.legacy_envs import find_interpreter

    dumped = tmp_path / "code.bin"
    subprocess.run([str(find_interpreter("3.6")), "-c", "import marshal, sys\nf = lambda x: [i * 2 for i in x]\n"
                    f"open({str(dumped)!r}, 'wb').write(marshal.dumps(f.__code__))\n"], check=True, timeout=120)
    loaded = subprocess.run([str(find_interpreter("3.8")), "-c", "import marshal\n"
                             f"marshal.loads(open({str(dumped)!r}, 'rb').read())\n"],
                            capture_output=True, text=True, timeout=120)
    assert loaded.stderr.rstrip().endswith("ValueError: bad marshal data (unknown type code)")
    log = ('  File "/opt/conda/lib/python3.8/site-packages/keras/utils/generic_utils.py", line 231, in func_load\n'
           "    code = marshal.loads(raw_code)\n" + loaded.stderr.strip().splitlines()[-1] + "\n")
    (first,) = explain_text(log).recognised
    assert (first.cause, first.confidence) == ("keras-lambda-bytecode-python-mismatch", "medium")
    # the same ValueError with nothing of Keras in the log is not named
    assert not explain_text(loaded.stderr).recognised
