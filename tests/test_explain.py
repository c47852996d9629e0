"""`theanodoctor explain`: the real CLI over synthetic variants of real messages, the streaming
reader, the normaliser, bounded memory on big logs, root-cause ordering and exit codes."""

from __future__ import annotations

import codecs
import io
import json
import os
import sys
from pathlib import Path

import pytest
import yaml

from tests import legacy_envs
from tests.cli_helpers import doctor
from tests.explain_pastes import console, web
from tests.explain_tables import first_cause, traceback_of
from theanodoctor.explain import explain_lines, explain_text
from theanodoctor.explain.normalize import segments, unwrapped
from theanodoctor.explain.reader import numbered_lines, sniff_encoding
from theanodoctor.explain.scan import EVIDENCE_PER_SIGNATURE, FIRST_SIGNIFICANT, LAST_SIGNIFICANT, Scanner
from theanodoctor.kb_causes import signatures

CASES = Path(__file__).parent / "explain_cases"
NVRTC = ("pygpu.gpuarray.GpuArrayException: b'Could not load \"nvrtc64_70.dll\": "
         "The specified module could not be found.\\r\\n'")


def _cases() -> list[dict]:
    return yaml.safe_load((CASES / "cases.yaml").read_text(encoding="utf-8"))["cases"]


def _causes(doc: dict) -> list[str]:
    return [f["cause"] for f in doc["explain"]["findings"] if f["confidence"] != "low"]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["file"])
def test_real_cli_names_the_expected_cause_first(case):
    run = doctor("explain", str(CASES / case["file"]), "--format", "json")
    doc = run.json()
    found = _causes(doc)
    if case["expect"] is None:
        assert run.code == 1 and found == [] and doc["explain"]["recognised"] is False
    else:
        assert run.code == 0, run.err
        assert found[0] == case["expect"]
        assert set(case["also"]) <= {f["cause"] for f in doc["explain"]["findings"]}
        first = doc["explain"]["findings"][0]
        assert first["evidence"] and all(e["line"] >= 1 for e in first["evidence"])


def test_text_report_shows_evidence_remedy_fix_and_consequence():
    run = doctor("explain", "--text", "ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n" + NVRTC)
    assert run.code == 0
    out = run.out
    assert out.index("NVRTC") < out.index("pygpu could not initialise")  # root cause first
    assert "line 2: pygpu.gpuarray.GpuArrayException" in out
    assert "`theanodoctor fix --only cuda-dll-aliases` can do this" in out
    assert "a consequence of nvrtc-dll-name" in out
    assert "only the last name libgpuarray 0.7.6 tried" in out  # the value from the log refines the remedy
    assert "--python ENV" in out  # how to get the exact names for this machine


def test_stdin_and_dash_read_the_same_log(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "log.txt"
    path.write_text("AttributeError: module 'numpy' has no attribute 'bool'.\n")
    for args in (["-"], []):
        proc = subprocess.run([sys.executable, "-m", "theanodoctor", "explain", *args, "-f", "json"],
                              input=path.read_bytes(), capture_output=True, timeout=60)
        assert proc.returncode == 0
        assert _causes(json.loads(proc.stdout)) == ["numpy-bool-alias"]


def test_closed_stdin_is_a_usage_error():
    import subprocess
    import sys

    for args in (["-"], []):  # `theanodoctor explain <&-`: sys.stdin is None (was an internal error, exit 3)
        proc = subprocess.run([sys.executable, "-m", "theanodoctor", "explain", *args, "-f", "json"],
                              stdin=None, capture_output=True, timeout=60, close_fds=True,
                              preexec_fn=lambda: os.close(0))
        assert proc.returncode == 2, proc.stderr
        assert "stdin is closed" in json.loads(proc.stdout)["error"]["message"]


def test_text_needs_no_stdin():
    import subprocess
    import sys

    # --text with stdin closed: the doctor must not touch sys.stdin (was an internal error, exit 3)
    proc = subprocess.run([sys.executable, "-m", "theanodoctor", "explain", "-f", "json", "--text",
                           "AttributeError: module 'numpy' has no attribute 'bool'"],
                          stdin=None, capture_output=True, timeout=60, close_fds=True,
                          preexec_fn=lambda: os.close(0))
    assert proc.returncode == 0, proc.stderr
    assert _causes(json.loads(proc.stdout)) == ["numpy-bool-alias"]


@pytest.mark.parametrize("args, needle", [
    (["explain", "LOG", "--text", "x"], "not both"),
    (["explain", "missing.log"], "cannot read"),
    (["explain", "EMPTY"], "empty"),
    (["explain", "--text", ""], "empty"),
    (["explain", "--text", "  \n\t\n   "], "empty"),  # whitespace only: was exit 1 "no known cause"
])
def test_usage_errors_exit_2_with_json_on_every_path(tmp_path, args, needle):
    (tmp_path / "LOG").write_text("x\n")
    (tmp_path / "EMPTY").write_bytes(b"\n\n")
    args = [str(tmp_path / a) if a in ("LOG", "EMPTY", "missing.log") else a for a in args]
    run = doctor(*args)
    assert run.code == 2 and needle in run.err
    as_json = doctor(*args, "--format", "json")
    assert as_json.code == 2 and as_json.json()["error"]["kind"] == "usage"


def test_unknown_log_lists_significant_lines_and_points_to_report():
    log = "starting\nWARNING (theano.tensor.blas): Using NumPy C-API based implementation for BLAS functions.\n" \
          "Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyError: 'missing_key'\n"
    run = doctor("explain", "--text", log)
    assert run.code == 1
    # the warning is only a possibility here: the output says a low-confidence reading follows
    assert "No cause recognised with confidence; the likeliest readings follow, at low confidence." in run.out
    assert "line 5: KeyError: 'missing_key'" in run.out
    assert "theanodoctor report" in run.out
    assert "Possibly related (low confidence)" in run.out
    assert "Verdict: no cause recognised with confidence (1 low-confidence reading)" in run.out
    # with no reading at all, it says that nothing known was recognised
    bare = doctor("explain", "--text", "Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyError: 'k'\n")
    assert bare.code == 1 and "No known cause recognised." in bare.out
    assert "Verdict: no known cause recognised" in bare.out


def test_help_teaches_and_lists_exit_codes():
    run = doctor("explain", "--help")
    assert run.code == 0 and "Exit codes" in run.out and "--python" in run.out and "LOGFILE" in run.out


# -- reader and normaliser ----------------------------------------------------------------------

@pytest.mark.parametrize("data, encoding", [
    (codecs.BOM_UTF16_LE + "nvrtc\n".encode("utf-16-le"), "utf-16"),
    ("nvrtc\n".encode("utf-16-le"), "utf-16-le"),
    ("nvrtc\n".encode("utf-16-be"), "utf-16-be"),
    (codecs.BOM_UTF8 + b"nvrtc\n", "utf-8-sig"),
    (b"nvrtc\n", "utf-8"),
])
def test_encoding_is_sniffed(data, encoding):
    assert sniff_encoding(data[:4]) == encoding
    assert list(numbered_lines(io.BytesIO(data))) == [(1, "nvrtc")]


def test_nul_padded_log_is_not_utf16():
    # a log truncated under its writer (logrotate's copytruncate) starts with NUL bytes
    data = b"\0\0\0\0nvrtc\n"
    assert sniff_encoding(data[:4]) == "utf-8"
    assert list(numbered_lines(io.BytesIO(data))) == [(1, "\0\0\0\0nvrtc")]


class _Trickle(io.RawIOBase):
    """A pipe that hands out one byte per read, as a slow writer's pipe can."""

    def __init__(self, data):
        self.data = data

    def readable(self):
        return True

    def readinto(self, buffer):
        if not self.data or not len(buffer):
            return 0
        buffer[0], self.data = self.data[0], self.data[1:]
        return 1


def test_encoding_is_sniffed_when_the_first_bytes_arrive_one_by_one():
    text = "ERROR (theano.gpuarray): pygpu was configured but could not be imported\r\nline two\r\n"
    for data in (codecs.BOM_UTF16_LE + text.encode("utf-16-le"), text.encode("utf-16-le"), b"ab", b""):
        expected = [(i + 1, t) for i, t in enumerate(data.decode("utf-16" if b"\0" in data else "utf-8")
                                                     .splitlines())]
        assert list(numbered_lines(_Trickle(data))) == expected


def test_long_lines_come_in_pieces_with_one_number_and_bad_bytes_are_replaced():
    data = b"a" * 40 + b"\xff\xfe tail\r\nsecond\rthird\n"
    lines = list(numbered_lines(io.BytesIO(data), max_line=16))
    assert {n for n, _ in lines[:-2]} == {1} and len(lines) > 3
    assert "".join(t for n, t in lines if n == 1).endswith("\ufffd\ufffd tail")
    assert lines[-2:] == [(2, "second"), (3, "third")]


def test_segments_unescape_reprs_but_keep_windows_paths():
    parts = segments(NVRTC)
    assert parts[0].endswith('Could not load "nvrtc64_70.dll": The specified module could not be found.')
    path = r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v10.2\bin\nvrtc64_102_0.dll"
    assert segments(path) == [path]
    assert segments(r"b'C:\\Users\\bob\\try_flags.c:4:19: fatal error: cudnn.h: No such file\r\n'")[0] == \
        r"b'C:\Users\bob\try_flags.c:4:19: fatal error: cudnn.h: No such file"


def test_a_message_posted_in_bold_is_read_as_the_message():
    # GitHub posts wrap the error in **...**, often split over lines: the asterisks are no part of it
    assert segments("  ImportError: No module named theano**") == ["ImportError: No module named theano"]
    bold = "ImportError: cannot import name 'x' from 'y'"
    assert segments(f"**{bold}**") == [bold]
    post = "My setup fails when R loads it:\n**Error in py_module_import(module, convert = convert) :\n" \
           "  ImportError: No module named theano**\n"
    assert [(f.cause, f.confidence) for f in explain_text(post).findings][:1] == [("theano-not-installed", "high")]
    # a pointer dereference keeps its stars
    assert segments("int **p = NULL;") == ["int **p = NULL;"]


def test_the_closing_backtick_of_a_span_posted_as_inline_code_is_no_part_of_the_message():
    # a traceback posted between single backticks ends on the message with the closing one
    assert segments("ModuleNotFoundError: No module named 'keras'`") == ["ModuleNotFoundError: No module named 'keras'"]
    assert segments("the `device` flag is `cuda`") == ["the `device` flag is `cuda`"]  # balanced spans stay
    post = "`---------\nModuleNotFoundError      Traceback (most recent call last)\n----> 1 import keras\n\n" \
           "ModuleNotFoundError: No module named 'keras'`\n"
    found = [(f.cause, f.confidence) for f in explain_text(post).findings]
    assert found[:1] == [("package-not-in-this-python", "high")]



def test_a_threads_title_that_is_an_exception_line_is_read_as_the_message():
    # stored threads begin with their title as a markdown heading; a preprocessor line is no heading
    assert segments("# ImportError: No module named theano") == ["ImportError: No module named theano"]
    assert segments("## theano.gof.fg.MissingInputError: x") == ["theano.gof.fg.MissingInputError: x"]
    assert segments("#include <Python.h>") == ["#include <Python.h>"]
    assert segments("# 1 \"mod.cpp\"") == ["# 1 \"mod.cpp\""]
    assert segments("# Error when running deep_dream.py") == ["# Error when running deep_dream.py"]
    title = "# SyntaxError: invalid syntax\n  File \"threadpool.py\", line 346\n    def await(self):\n"
    assert [f.cause for f in explain_text(title).recognised][:1] == []  # the code line comes after: not shown above

def test_a_web_pages_typography_is_read_as_typed_and_the_pasted_line_is_kept():
    assert segments("ImportError: No module named \u2018theano\u2019")[0] == "ImportError: No module named 'theano'"
    entities = "&gt; ValueError: Invalid value (&quot;cpu&quot;) for"
    assert segments(entities)[0] == 'ValueError: Invalid value ("cpu") for'
    assert segments("ImportError:\u00a0No\u00a0module named theano")[0] == "ImportError: No module named theano"
    assert segments("2021-03-04T10:11:12.1234567Z ImportError: x") == ["ImportError: x"]
    assert segments("a &#10; b, const T&amp; x")[0] == "a &#10; b, const T& x"  # never a line break more
    # a flag pasted with typographic quotes: the line as pasted is still there for that signature
    pasted = "c1xx : fatal error C1083: Cannot open source file: '\u201c-IC:/Program': No such file or directory"
    assert pasted in segments(pasted)
    assert first_cause(pasted) == ["nvcc-flags-bad-quotes"]


def test_a_real_log_copied_from_a_web_page_gets_the_cause_the_log_itself_gets():
    logs = sorted((Path(__file__).parent / "explain_corpus").glob("*/logs/*.log"))[::40]
    named = 0
    for log in logs:
        text = log.read_text(encoding="utf-8", errors="replace")
        causes = [(f.cause, f.confidence) for f in explain_text(text).findings if f.confidence != "low"]
        if not causes:
            continue
        named += 1
        typeset = [(f.cause, f.confidence) for f in explain_text(web(text)).findings if f.confidence != "low"]
        assert typeset[:1] == causes[:1], log.name
    assert named >= 25


def test_console_rows_of_one_line_are_read_as_that_line():
    rows = console("TypeError: Cannot convert Type TensorType(float32, 3D) (of Variable Subtensor{::-1}.0) "
                   "into Type TensorType(float32, (False, True, False)). You can try to manually convert "
                   "Subtensor{::-1}.0 into a TensorType(float32, (False, True, False)).").split("\n")
    quoted = ["    " + row for row in rows]  # posted as a markdown code block
    for texts in (rows, quoted):
        joined = unwrapped(texts)
        assert len(joined) == len(texts) and joined[1:] == [""] * (len(texts) - 1)
        assert joined[0].endswith("You can try to manually convert Subtensor{::-1}.0 into a TensorType(float32, "
                                  "(False, True, False)).")
    # one row of 80 characters is often just that (an error message's row cut once is read whole);
    # a rule of dashes or a new record never goes on
    assert unwrapped(["y" * 80, "x"]) == ["y" * 80, "x"]
    assert unwrapped([rows[0], "x"]) == [rows[0] + "x", ""]
    assert unwrapped(["-" * 80, "Epoch 1/5", "-" * 80, "Epoch 2/5"]) == ["-" * 80, "Epoch 1/5", "-" * 80, "Epoch 2/5"]
    frame = ["x" * 80, "Traceback (most recent call last):", "y" * 80, "ValueError: z"]
    assert unwrapped(frame) == frame


@pytest.mark.parametrize("log", [
    "logs/044-pymc5435-pymc3-ipython-nosection-blas.log",
    "heldout/logs/h05-theano4397-cxx-quoted-tdm-gcc.log",
    "fresh-core/logs/s022-theano6728-static-libpython-fpic.log",
    "fresh-github/logs/f077-theanornn4-scan-float32-float64-outputs-info.log",
    "fresh-s23-core/logs/c015-libgpuarray356-pygpu-built-with-gcc-windows.log",
    "fresh-s27-gpu/logs/g009-deepmedic91-preallocate-more-than-free.log",
    "fresh-trackers/logs/t045-pymc4749-seh-savexmm-find-map.log",
    "platforms/logs/p028-dlwin3-vcvars64-bat-not-found-vs2013.log",
])
def test_a_real_log_copied_from_the_windows_console_gets_the_cause_the_log_itself_gets(log):
    text = (Path(__file__).parent / "explain_corpus" / log).read_text(encoding="utf-8")
    assert console(text) != text
    assert first_cause(console(text)) == first_cause(text) != []


def test_terminal_control_sequences_never_reach_the_output():
    line = "RuntimeError: boom \x1b]2;title\x07 \x1b[1;31mred\x1b[0m \x1b[?25l tail\x08\x00"
    assert segments(line) == ["RuntimeError: boom  red  tail"]
    run = doctor("explain", "--text", line.replace("\x00", ""))  # argv holds no NUL
    assert "\x1b" not in run.out and "\x07" not in run.out and "RuntimeError: boom  red  tail" in run.out


# -- size, memory, ordering -----------------------------------------------------------------------

def _noise(count: int) -> list[str]:
    return [f"/tmp/mod.cpp:{i}:5: warning: unused variable 'V{i}' [-Wunused-variable]" for i in range(count)]


def test_multi_megabyte_log_finds_the_error_in_the_noise(tmp_path):
    path = tmp_path / "big.log"
    noise = _noise(30_000)
    lines = noise[:15_000] + ["AttributeError: module 'numpy' has no attribute 'bool'."] + noise[15_000:]
    path.write_text("\n".join(lines) + "\n" + "x" * 3_000_000 + "undefined reference to `__imp_PyExc_TypeError'\n")
    assert path.stat().st_size > 5_000_000
    run = doctor("explain", str(path), "--format", "json")
    doc = run.json()["explain"]
    assert run.code == 0 and _causes(run.json())[:2] == ["numpy-bool-alias", "mingw-python-link"]
    assert doc["findings"][0]["evidence"][0]["line"] == 15_001
    assert doc["findings"][1]["evidence"][0]["line"] == 30_002  # a 3 MB line is still one line
    assert doc["lines_read"] == 30_002


def test_what_the_scan_keeps_is_bounded():
    scanner = Scanner(signatures())
    lines = ((n, f"mod.cpp:{n}: error: expected ';' before 'x' (Missing Blas library)") for n in range(1, 50_001))
    result = scanner.feed(lines)
    assert result.lines == 50_000
    assert all(len(hit.evidence) <= EVIDENCE_PER_SIGNATURE for hit in result.hits.values())
    assert result.hits["cublas-missing-blas"].count == 50_000
    assert len(result.significant()) <= FIRST_SIGNIFICANT + LAST_SIGNIFICANT


def test_root_cause_first_whatever_the_line_order():
    log = "\n".join([
        "ERROR (theano.gpuarray): Could not initialize pygpu, support disabled",
        "theano.gpuarray.type.ContextNotDefined: context name None not defined",
        "GpuArrayException: b'Could not load \"libcuda.so\": libcuda.so: cannot open shared object file'",
    ])
    found = explain_text(log).findings
    # (a container started without NVIDIA's runtime, which this log does not show, stays a low hint beside them)
    assert [f.cause for f in found if f.cause != "docker-without-gpu-runtime"] == [
        "libcuda-missing", "pygpu-init-failed", "gpu-context-missing"]
    assert found[0].cause == "libcuda-missing"
    assert next(f for f in found if f.cause == "pygpu-init-failed").consequence_of == "libcuda-missing"
    assert all(f.confidence == "low" for f in found if f.cause == "docker-without-gpu-runtime")


def test_an_error_the_post_says_replaced_an_earlier_one_comes_first():
    earlier = ('I got "CudaNdarrayType only supports dtype float32 for now. Tried using dtype float64 for '
               'variable None". So I changed the layers.\n')
    later = ('"the batch size in the image (48) at run time is different than at build time (128) for the '
             'ConvOp."\n')
    both = [f.cause for f in explain_text(earlier + "It still fails: " + later).recognised]
    assert both == ["floatx-not-float32-on-old-gpu", "model-shape-mismatch"]  # as sure: the first seen first
    renewed = [f.cause for f in explain_text(earlier + "Unfortunately a new error occurs: " + later).recognised]
    assert renewed == ["model-shape-mismatch", "floatx-not-float32-on-old-gpu"]


def test_a_new_error_the_post_reports_comes_before_a_surer_one_it_replaced():
    earlier = ('ValueError: You are tring to use the old GPU back-end. It was removed from Theano. Use '
               'device=cuda* now.\n')
    later = "ValueError: ('This name is already taken', 'floatX')\n"
    found = explain_text(earlier + "I changed the device, now it gives me another error:\n" + later).recognised
    assert [(f.cause, f.confidence) for f in found] == [("theano-install-broken", "medium"),
                                                        ("old-gpu-backend", "high")]


def test_an_error_the_post_says_is_gone_goes_after_the_one_that_followed_it():
    # real shape: https://github.com/radioML/examples/issues/3 (the corpus's fresh-s37b-py3port y001)
    gone = "I used `import _pickle as cPickle` and the error `ImportError: No module named 'cPickle'` {}.\n"
    later = ("Xd = cPickle.load(open('RML2016.10a.dat','rb'))\nUnicodeDecodeError: 'ascii' codec can't decode "
             "byte 0xc1 in position 2: ordinal not in range(128)\n")
    after = [f.cause for f in explain_text(gone.format("disappears") + later).recognised]
    assert after[:2] == ["python2-pickle-on-python3", "python2-code-on-python3"]
    still = [f.cause for f in explain_text(gone.format("shows up") + later).recognised]
    assert still[:2] == ["python2-code-on-python3", "python2-pickle-on-python3"]  # the surer one first


def test_only_a_float64_variable_on_the_old_gpu_backend_is_taken_for_floatx():
    message = "TypeError: CudaNdarrayType only supports dtype float32 for now. Tried using dtype {} for variable None\n"
    assert [f.cause for f in explain_text(message.format("float64")).recognised] == ["floatx-not-float32-on-old-gpu"]
    assert explain_text(message.format("int8")).recognised == ()  # an index moved by an optimisation


def test_pycudas_warning_in_theanos_own_test_suite_is_only_a_hint():
    warning = ("/env/lib/python3.5/site-packages/theano/misc/pycuda_init.py:34: UserWarning: PyCUDA import failed in "
               "theano.misc.pycuda_init\n  warnings.warn(\"PyCUDA import failed in theano.misc.pycuda_init\")\n")
    alone = explain_text(warning).findings
    assert [(f.cause, f.confidence) for f in alone] == [("pycuda-import-failed", "medium")]
    suite = explain_text('$ THEANO_FLAGS=device=cpu python -c "import theano; theano.test()"\n' + warning).findings
    assert [(f.cause, f.confidence) for f in suite] == [("pycuda-import-failed", "low")]


def test_a_warning_is_no_cause_for_an_unrelated_exception():
    warning = "WARNING (theano.configdefaults): g++ not detected ! Theano will be unable to execute optimized C"
    alone = explain_text(warning)
    assert [f.cause for f in alone.recognised] == ["gxx-missing"]
    beside = explain_text(warning + "\nTraceback (most recent call last):\nAttributeError: 'Config' object has no "
                          "attribute 'FLAG_CPU_MODE'\n")
    assert beside.recognised == () and beside.exit_code == 1
    deliberate = explain_text("export THEANO_FLAGS=cxx=\n" + warning)  # the user chose no compiler
    assert deliberate.recognised == ()


def test_a_traceback_theano_logs_and_goes_on_after_is_not_where_the_run_ended():
    # theano/gof/opt.py:193-204 (rel-1.0.5): a failed global optimization is logged with its traceback
    logged = "\n".join([
        "ERROR (theano.gof.opt): SeqOptimizer apply <theano.scan_module.scan_opt.PushOutScanOutput object at 0x7f>",
        "ERROR (theano.gof.opt): Traceback:",
        "ERROR (theano.gof.opt): Traceback (most recent call last):",
        '  File "/env/lib/python3.6/site-packages/theano/gof/opt.py", line 251, in apply',
        "theano.gof.fg.InconsistencyError: Trying to reintroduce a removed node",
        "Epoch 1/20",
    ])
    went_on = explain_text(logged)
    assert went_on.final_exception is None and went_on.exit_code == 0
    assert [(f.cause, f.confidence, f.logged) for f in went_on.findings] == [
        ("theano-optimization-skipped", "medium", True)]
    failed = explain_text(logged + "\nTraceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
                          "MemoryError\n")
    assert failed.final_exception is not None and failed.final_exception.text == "MemoryError"
    assert [(f.cause, f.confidence) for f in failed.findings][:1] != [("theano-optimization-skipped", "medium")]
    # a pass of the GPU back-end itself failing (no GPU context, a cuDNN check that cannot compile)
    # says the GPU set-up is broken: the skip is then only a hint
    gpu = logged.replace("theano.scan_module.scan_opt.PushOutScanOutput", "theano.gpuarray.opt.GraphToGPU")
    assert [(f.cause, f.confidence) for f in explain_text(gpu).findings] == [("theano-optimization-skipped", "low")]


def test_a_logged_traceback_printed_again_by_a_second_handler_is_logged_too():
    # Theano 0.7's own handler and the root logger's (`ERROR:theano.gof.opt:`) print each record of
    # SeqOptimizer.warn; the copy follows the first traceback's exception
    first = "\n".join([
        "ERROR (theano.gof.opt): SeqOptimizer apply <theano.tensor.opt.FusionOptimizer object at 0xae56788c>",
        "ERROR:theano.gof.opt:SeqOptimizer apply <theano.tensor.opt.FusionOptimizer object at 0xae56788c>",
        "ERROR (theano.gof.opt): Traceback:",
        "ERROR:theano.gof.opt:Traceback:",
        "ERROR (theano.gof.opt): Traceback (most recent call last):",
        '  File "/env/lib/python3.5/site-packages/theano/tensor/elemwise.py", line 496, in __init__',
        "ValueError: Cannot construct a ufunc with more than 32 operands (requested number were: inputs = 36 and "
        "outputs = 1)",
    ])
    again = first.split("\n", 4)[-1].replace("ERROR (theano.gof.opt): ", "ERROR:theano.gof.opt:")
    went_on = explain_text(f"{first}\n{again}\n [-----------------100%-----------------] 4000 of 4000 complete\n")
    assert went_on.final_exception is None
    assert [(f.cause, f.confidence) for f in went_on.findings] == [("theano-optimization-skipped", "medium")]
    # a traceback under the root logger's prefix with no logged one before it is not taken for a copy
    alone = explain_text(again)
    assert alone.final_exception is not None
    assert [(f.cause, f.confidence) for f in alone.findings] != [("theano-optimization-skipped", "medium")]


def test_a_compiler_error_quoted_in_a_report_theano_went_on_after_comes_after_the_error_that_ended_the_run():
    log = "\n".join([
        "Can not use cuDNN on context None: cannot compile with cuDNN. We got this error:",
        "b'/tmp/try_flags_x.c:4:19: fatal error: cudnn.h: No such file or directory",
        "compilation terminated.",
        "'",
        "Mapped name None to device cuda: GeForce GTX 1080 (0000:01:00.0)",
        "Traceback (most recent call last):",
        '  File "run.py", line 3, in <module>',
        "    theano.sandbox.cuda.use('gpu0')",
        "AttributeError: module 'theano.sandbox' has no attribute 'cuda'",
    ])
    found = explain_text(log).findings
    assert found[0].cause == "theano-sandbox-cuda-removed"
    assert next(f for f in found if f.cause == "cudnn-not-found").logged


def test_context_and_python_conditions_keep_weak_texts_low():
    # distutils has two roots (Python 3.12, or Debian's python3-distutils not installed): Theano's context decides
    assert explain_text("ModuleNotFoundError: No module named 'distutils'").recognised == ()
    chain = "File \"/env/lib/python{}/site-packages/theano/configparser.py\", line 1\nKeyError: 'blas.ldflags'\n"
    assert [f.cause for f in explain_text(chain.format("3.9")).recognised] == ["numpy-blas-opt-info"]
    assert explain_text(chain.format("3.6")).recognised == ()  # numpy 1.22+ needs Python 3.8+


# -- refinement with probe facts ------------------------------------------------------------------

def test_probe_facts_name_the_exact_dll_to_alias():
    from theanodoctor.facts import Facts

    facts = Facts.load(str(Path(__file__).parent / "snapshots" / "windows_cuda102_nvrtc_missing.json"))
    found = explain_lines(numbered_lines(io.BytesIO(NVRTC.encode())), facts).findings[0]
    details = "\n".join(found.details)
    assert "CUDA 10.2" in details and "`nvrtc64_102.dll`" in details and "nvrtc64_102_0.dll" in details
    assert "cuda-dll-aliases" in details


def test_python_option_probes_a_real_env_to_pin_numpy(legacy_python, theano_home):
    run = doctor("explain", "--python", legacy_python("numpy124"), "--format", "json",
                 "--text", "AttributeError: module 'numpy' has no attribute 'bool'.")
    doc = run.json()["explain"]
    assert run.code == 0 and doc["probed"]
    details = " ".join(doc["findings"][0]["details"])
    assert "Python 3.9 (from the probed target)" in details and "numpy==1.21.6" in details


def test_a_log_quoted_in_a_reply_is_read_like_the_original():
    quoted = "\n".join("> " + line for line in [
        "Traceback (most recent call last):",
        "  File \"/usr/lib/python3/dist-packages/lasagne/layers/pool.py\", line 6, in <module>",
        "    from theano.tensor.signal import downsample",
        "ImportError: cannot import name 'downsample'",
    ])
    explained = explain_text(quoted)
    assert [f.cause for f in explained.recognised] == ["lasagne-downsample"]
    assert explained.final_exception is not None and explained.final_exception.line == 4
    assert explained.final_exception.text == "ImportError: cannot import name 'downsample'"


def test_a_generic_symptom_points_at_the_exception_the_log_ends_with():
    found = explain_text("ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n"
                         "GpuArrayException: b'Invalid value or operation'\n").findings
    assert [f.cause for f in found] == ["pygpu-init-failed"]
    assert found[0].details == ("The log ends with this exception (line 2): GpuArrayException: b'Invalid value or "
                                "operation'",)


def test_a_generic_error_alone_names_no_cause():
    alone = explain_text("ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n"
                         "GpuArrayException: Unknown device error: 0\n")
    assert [f.cause for f in alone.findings] == ["pygpu-init-failed"] and alone.recognised == ()
    assert alone.exit_code == 1
    with_root = explain_text("ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n"
                             "GpuArrayException: b'Could not load \"libcuda.so\": libcuda.so: cannot open shared "
                             "object file'\n")
    assert [f.cause for f in with_root.recognised] == ["libcuda-missing", "pygpu-init-failed"]


CUDNN_REPORT = ("Can not use cuDNN on context None: cannot compile with cuDNN. We got this error:\n"
                "/tmp/try_flags_Y9EarB.c:4:19: fatal error: cudnn.h: No such file or directory\n"
                "compilation terminated.\n"
                "Mapped name None to device cuda0: GeForce GTX 1060 6GB (0000:01:00.0)\n")


def test_what_the_cudnn_report_quotes_is_no_cause_of_a_later_unrelated_failure():
    assert [f.cause for f in explain_text(CUDNN_REPORT).recognised] == ["cudnn-not-found", "cudnn-unusable"]
    later = explain_text(CUDNN_REPORT + "Traceback (most recent call last):\n"
                         "ValueError: Input dimension mis-match. (input[0].shape[1] = 84, input[1].shape[1] = 102)\n")
    assert later.recognised == () and "cudnn-not-found" in [f.cause for f in later.findings]
    enabled = explain_text(CUDNN_REPORT + "RuntimeError: You enabled cuDNN, but we aren't able to use it: cannot "
                           "compile with cuDNN\n")
    assert [f.cause for f in enabled.recognised][0] == "cudnn-not-found"  # dnn.enabled=True: it did stop the run


def test_downsample_imported_outside_lasagne_has_its_own_cause():
    log = ("  File \"nn_layers.py\", line 6, in <module>\n    from theano.tensor.signal import downsample\n"
           "ImportError: cannot import name downsample\n")
    assert [f.cause for f in explain_text(log).recognised] == ["theano-downsample-removed"]
    lasagne = "  File \"/usr/lib/python2.7/site-packages/lasagne/layers/pool.py\", line 6, in <module>\n" + log
    assert [f.cause for f in explain_text(lasagne).recognised] == ["lasagne-downsample"]


def test_a_stale_lock_theano_took_over_is_no_lock_problem():
    overridden = ("WARNING (theano.gof.compilelock): Overriding existing lock by dead process '4077' "
                  "(I am process '5557')")
    assert explain_text(overridden).recognised == ()
    waiting = "INFO (theano.gof.compilelock): Waiting for existing lock by process '31361' (I am process '16768')"
    assert [f.cause for f in explain_text(waiting).recognised] == ["compile-lock"]


def test_errors_theano_only_logs_are_no_cause_of_a_later_unrelated_failure():
    logged = ["ERROR (theano.gpuarray): pygpu was configured but could not be imported or is too old (version 0.7 "
              "or higher required)", "ERROR (theano.sandbox.cuda): nvcc compiler not found on $PATH. Check your "
              "nvcc installation and try again."]
    failure = "\nTraceback (most recent call last):\nNameError: global name 'tf' is not defined\n"
    for line in logged:
        assert len(explain_text(line).recognised) == 1  # alone, the logged error is the finding
        assert explain_text(line + failure).recognised == ()


def test_only_reasons_to_skip_cudnn_count_as_quoted_by_the_report():
    python_h = ("/tmp/x/mod.cpp:1:20: fatal error: Python.h: No such file or directory\n"
                "Exception: Compilation failed (return status=1): theano/compiledir_Linux/tmp/mod.cpp\n")
    found = explain_text(CUDNN_REPORT + python_h).recognised
    assert [f.cause for f in found][:2] == ["python-headers-missing", "cudnn-not-found"]


def test_a_cause_that_needs_a_missing_fact_says_what_would_decide():
    log = "RuntimeError: Cuda error: k_copy_4d: invalid device function.\n"
    text = doctor("explain", "--text", log)
    assert text.code == 0
    assert "to decide: the GPU's compute capability" in text.out
    doc = doctor("explain", "--text", log, "--format", "json").json()["explain"]
    first = doc["findings"][0]
    assert first["cause"] == "kernel-not-for-this-gpu" and first["confidence"] == "medium"
    assert first["asks"] and "nvcc --version" in first["asks"][0]


def test_a_high_confidence_signature_may_not_ask_for_missing_facts():
    from theanodoctor.kb_causes import _asks
    from theanodoctor.knowledge import KnowledgeError

    row = {"id": "x", "confidence": "medium", "asks": "the CUDA version"}
    assert _asks("signatures.yaml", row) == "the CUDA version"
    with pytest.raises(KnowledgeError, match="cannot be high"):
        _asks("signatures.yaml", {**row, "confidence": "high"})


def test_a_packages_own_module_of_that_name_is_no_shadowing_file():
    """A file named like the library shadows it at its module level; a package's own submodule of that name
    (nolearn's lasagne.py, efficientnet's keras.py, a method of donkeycar's parts/keras.py) does not."""
    frame = "  File \"{}\", line 155, in {}\n    self.y_tensor_type,\nTypeError: cost must be a scalar.\n"
    for path, function in (("/usr/lib/python2.7/site-packages/nolearn/lasagne.py", "initialize"),
                           ("C:\\Anaconda\\Lib\\site-packages\\nolearn\\lasagne.py", "initialize"),
                           ("/opt/conda/lib/python3.7/site-packages/efficientnet/keras.py", "<module>"),
                           ("/home/pi/projects/donkeycar/donkeycar/parts/keras.py", "load")):
        assert explain_text(frame.format(path, function)).recognised == (), path
    local = explain_text(frame.format("/home/u/project/lasagne.py", "<module>")).recognised
    assert [f.cause for f in local] == ["local-module-shadowing"]


def test_enomem_from_the_compile_fork_is_host_memory_not_the_compiler():
    log = ("ERROR (theano.gof.cmodule): [Errno 12] Cannot allocate memory\n"
           "Exception: Compilation failed (return status=1): \n")
    assert [f.cause for f in explain_text(log).recognised][:1] == ["host-out-of-memory"]


def test_a_warning_beside_a_traceback_the_paste_cuts_short_is_no_cause():
    warning = "WARNING (theano.configdefaults): g++ not detected ! Theano will be unable to execute optimized C\n"
    cut = warning + "Traceback (most recent call last):\n  File \"model.py\", line 3, in <module>\n    fit()\n"
    assert [f.cause for f in explain_text(warning).recognised] == ["gxx-missing"]
    assert explain_text(cut).recognised == ()


def test_theanos_config_chain_before_its_exception_points_at_numpy_blas_only_on_python_38_and_newer():
    frames = ("Traceback (most recent call last):\n"
              "  File \"/env/lib/python{}/site-packages/theano/configparser.py\", line 168, in fetch_val_for_key\n"
              "    return theano_cfg.get(section, option)\n"
              "  File \"/usr/lib/python3/configparser.py\", line 1152, in _unify_values\n"
              "    raise NoSectionError(section) from None\n")
    found = explain_text(frames.format("3.9")).recognised
    assert [f.cause for f in found] == ["numpy-blas-opt-info"] and found[0].asks
    assert explain_text(frames.format("3.6")).recognised == ()  # numpy 1.22+ needs Python 3.8+


def test_theanos_mkl_check_names_the_missing_mkl_module_and_the_2018_threading_layer_apart():
    missing = explain_text("RuntimeError:\nCould not import 'mkl'.  If you are using conda, update the numpy\n")
    assert [(f.cause, f.confidence) for f in missing.recognised] == [("mkl-service-missing", "medium")]
    layer = explain_text('RuntimeError: To use MKL 2018 with Theano you MUST set "MKL_THREADING_LAYER=GNU"')
    assert [f.cause for f in layer.recognised] == ["mkl-threading-layer"]


def test_missing_linalg_modules_name_the_theano_release_that_has_them():
    found = explain_text("ImportError: No module named nlinalg").recognised
    assert [f.cause for f in found] == ["theano-too-old-for-code"]
    assert any("Theano >=0.7" in line for line in found[0].details)


def test_a_dotted_flag_written_in_a_config_files_section_is_reported():
    config = "[global]\nfloatX = float32\nblas.ldflags=-LC:\\\\openblas -lopenblas\n"
    assert [f.cause for f in explain_text(config).recognised] == ["theanorc-dotted-key-in-global"]
    assert explain_text("THEANO_FLAGS=blas.ldflags=-lopenblas python run.py\n[global]\n").recognised == ()


def test_a_specific_error_ranks_before_an_error_theano_only_logged():
    logged = ("ERROR (theano.gpuarray): pygpu was configured but could not be imported or is too old "
              "(version 0.7 or higher required)\n")
    stated = "ImportError: No module named nlinalg\n"
    for log in (logged + stated, stated + logged):
        found = explain_text(log).recognised
        assert [f.cause for f in found] == ["theano-too-old-for-code", "pygpu-missing"]


def test_no_supported_visual_studio_with_a_listed_one_in_the_log_is_only_a_hint():
    message = ("nvcc fatal   : nvcc cannot find a supported version of Microsoft Visual Studio. Only the versions "
               "2010, 2012, and 2013 are supported\n")
    alone = explain_text(message).recognised
    assert [(f.cause, f.confidence) for f in alone] == [("msvc-unsupported", "medium")] and alone[0].asks
    bindir = "['nvcc', '--compiler-bindir', 'C:\\\\Program Files (x86)\\\\Microsoft Visual Studio 12.0\\\\VC\\\\bin']\n"
    listed = explain_text(message + bindir)
    # the log contradicts "install a listed version"; what else is wrong it does not say
    assert listed.recognised == ()
    hint = next(f for f in listed.findings if f.cause == "msvc-missing")
    assert hint.confidence == "low" and "x64" in hint.asks[0]
    # a Windows console wraps the message at 80 columns
    wrapped = "nvcc : fatal error : nvcc cannot find a supported version of Microsoft Visual St\nudio.\n"
    assert [f.cause for f in explain_text(wrapped).recognised] == ["msvc-unsupported"]


def test_the_older_nvcc_wording_names_the_first_gcc_it_refuses():
    log = ("/usr/local/cuda-5.5/include/host_config.h:82:2: error: #error -- unsupported\n"
           "GNU version! gcc 4.9 and up are not supported!\n")
    first = explain_text(log).recognised[0]
    assert (first.cause, first.confidence) == ("nvcc-gcc-too-new", "high")
    assert "this nvcc refuses gcc 4.9 and newer" in [e.note for e in first.evidence]


def test_a_cl_exe_other_than_the_ccbin_one_is_no_missing_cl_exe():
    assert [f.cause for f in explain_text("nvcc fatal   : Cannot find compiler 'cl.exe' in PATH\n").recognised] \
        == ["msvc-missing"]
    other = "nvcc fatal   : Compiler 'cl.exe' in PATH different than the one specified with -ccbin\n"
    assert explain_text(other).recognised == ()


def test_driver_insufficient_inside_a_container_depends_on_the_gpu_runtime():
    error = "Unable to get the number of gpus available: CUDA driver version is insufficient for CUDA runtime version\n"

    def first(log: str) -> tuple[str, str]:
        found = explain_text(log).recognised[0]
        return found.cause, found.confidence

    assert first(error) == ("driver-too-old", "high")
    plain = "$ docker run -it kaixhin/cuda-theano python train.py\n" + error
    assert first(plain) == ("docker-without-gpu-runtime", "medium")
    assert explain_text(plain).recognised[0].asks
    with_runtime = "$ nvidia-docker run -it kaixhin/cuda-theano python train.py\n" + error
    assert first(with_runtime) == ("driver-too-old", "medium")


def test_the_driver_library_missing_inside_a_container_depends_on_the_gpu_runtime():
    error = "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n"

    def named(log: str) -> list[tuple[str, str]]:
        return [(f.cause, f.confidence) for f in explain_text(log).recognised]

    assert named(error) == [("libcuda-missing", "high")]
    plain = "$ sudo docker run -it floydhub/tensorflow:1.9.0-gpu python -c 'import tensorflow'\n" + error
    assert named(plain) == [("docker-without-gpu-runtime", "medium")]
    # with the runtime asked for, the host's driver (or the runtime's set-up) is what lacks it
    assert named(plain.replace("docker run -it", "docker run --runtime=nvidia -it")) == [("libcuda-missing", "medium")]


def test_tensorflows_kernel_dso_mismatch_is_the_root_of_no_cuda_device():
    log = ("WARNING (theano.sandbox.cuda): CUDA is installed, but device gpu is not available  "
           "(error: Unable to get the number of gpus available: no CUDA-capable device is detected)\n"
           "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:306] kernel version 460.56.0 does not "
           "match DSO version 470.57.2 -- cannot find working devices in this configuration\n")
    found = explain_text(log).recognised
    assert found[0].cause == "driver-library-mismatch"
    assert any(e.note.startswith("the loaded kernel module is 460.56.0") for e in found[0].evidence)


def test_gnu_ld_in_a_french_locale_cannot_find_cudnn():
    log = "/usr/bin/ld : ne peut trouver -lcudnn\ncollect2: error: ld returned 1 exit status\n"
    assert explain_text(log).recognised[0].cause == "cudnn-not-found"


def test_cudnns_arch_mismatch_is_a_gpu_too_old_for_cudnn():
    log = "Check failed: status == CUDNN_STATUS_SUCCESS (6 vs. 0)  CUDNN_STATUS_ARCH_MISMATCH\n"
    found = explain_text(log).recognised
    assert (found[0].cause, found[0].confidence) == ("gpu-too-old", "high")
    assert "dnn.enabled=False" in found[0].remedy


def test_a_killed_long_kernel_is_the_display_watchdog_and_a_busy_gpu_asks_for_its_compute_mode():
    timeout = explain_text("RuntimeError: Cuda error: GpuElemwise: the launch timed out and was terminated.\n")
    assert [f.cause for f in timeout.recognised] == ["gpu-kernel-watchdog"]
    busy = explain_text("ERROR (theano.sandbox.cuda): ERROR: Not using GPU. Initialisation of device 0 failed:\n"
                        "cudaGetDeviceCount failed: all CUDA-capable devices are busy or unavailable\n").recognised
    assert (busy[0].cause, busy[0].confidence) == ("gpu-busy-exclusive", "medium")
    assert "Compute M." in busy[0].asks[0]


# -- round 2 r-d: the engine: confidently wrong answers --

def test_a_low_error_hint_does_not_make_a_medium_warning_an_error():
    """The old back-end's deprecation warning (medium) with a `device=gpu` flag (a low hint,
    not a warning) is still a warning: the error stated later comes first."""
    found = explain_text(
        "WARNING (theano.sandbox.cuda): The cuda backend is deprecated and will be removed in the next release\n"
        "THEANO_FLAGS = 'device=gpu,floatX=float32'\n"
        "Cuda error: kernel_reduce_ccontig: invalid device function.\n").findings
    assert [f.cause for f in found if f.confidence != "low"] == ["kernel-not-for-this-gpu", "old-gpu-backend"]
    assert found[1].warning


def test_a_low_hint_does_not_make_a_stated_cause_its_consequence():
    """gpu-device-without-gpu explains pygpu-missing, but without its context (the poster saying
    the machine has no GPU) it is only a hint and pygpu-missing stays the stated cause."""
    found = explain_text("ERROR (theano.gpuarray): pygpu was configured but could not be imported or is too old "
                         "(version 0.7 or higher required)\n").findings
    assert (found[0].cause, found[0].confidence, found[0].consequence_of) == ("pygpu-missing", "medium", None)
    assert [(f.cause, f.confidence) for f in found[1:]] == [("gpu-device-without-gpu", "low")]


def test_pygpu_configured_on_a_cpu_only_machine_is_the_device_setting():
    found = explain_text("ERROR: pygpu was configured but could not be imported or is too old (version 0.7 or "
                         "higher required)\nI am running on a CPU only machine.\n").findings
    assert [(f.cause, f.confidence, f.consequence_of) for f in found] == [
        ("gpu-device-without-gpu", "medium", None), ("pygpu-missing", "low", "gpu-device-without-gpu")]


def test_insufficient_driver_in_a_container_asks_how_it_was_started():
    text = ("OSError: You forced the use of gpu device gpu0, but CUDA initialization failed with error:\n"
            "Unable to get the number of gpus available: "
            "CUDA driver version is insufficient for CUDA runtime version\n")
    assert _first(explain_text(text)) == "driver-too-old"
    in_docker = explain_text("$ docker run -it theano-image python train.py\n" + text).findings
    assert (in_docker[0].cause, in_docker[0].confidence) == ("docker-without-gpu-runtime", "medium")
    assert in_docker[0].asks
    assert ("driver-too-old", "low") in [(f.cause, f.confidence) for f in in_docker]


def test_tensorflow_kernel_dso_mismatch_is_the_driver_library_mismatch():
    found = explain_text(
        "WARNING (theano.sandbox.cuda): CUDA is installed, but device gpu is not available  (error: Unable to get "
        "the number of gpus available: no CUDA-capable device is detected)\n"
        "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:306] kernel version 460.56.0 does not match DSO "
        "version 470.57.2 -- cannot find working devices in this configuration\n").findings
    assert found[0].cause == "driver-library-mismatch" and found[0].confidence == "high"
    assert "kernel module is 460.56.0" in found[0].evidence[0].note
    assert {f.cause: f.consequence_of for f in found}["no-gpu-visible"] == "driver-library-mismatch"


def test_french_ld_cannot_find_lcudnn_is_cudnn_not_found():
    found = explain_text("/usr/bin/ld : ne peut trouver -lcudnn\ncollect2: error: ld returned 1 exit status\n")
    assert _first(found) == "cudnn-not-found"


def _first(explanation) -> str | None:
    stated = [f.cause for f in explanation.findings if f.confidence != "low"]
    return stated[0] if stated else None


def test_python2_names_met_by_python3_are_python2_code():
    for line in ("ImportError: No module named 'cPickle'", "NameError: name 'xrange' is not defined",
                 "SyntaxError: Missing parentheses in call to 'print'",
                 "AttributeError: 'dict' object has no attribute 'iteritems'",
                 "TypeError: 'dict_keys' object does not support indexing",
                 "ImportError: cannot import name 'izip'"):
        assert first_cause(line + "\n") == ["python2-code-on-python3"], line
    # Python 2 prints module names unquoted, and there cPickle exists: another cause
    assert first_cause("ImportError: No module named cPickle\n") != ["python2-code-on-python3"]


def test_an_arrays_T_is_no_keras_backend():
    keras = "Using TensorFlow backend.\n  File \"keras_model.py\", line 3\n"
    assert first_cause(keras + "AttributeError: 'module' object has no attribute 'T'\n") == ["keras-backend-tensorflow"]
    assert first_cause(keras + "AttributeError: 'list' object has no attribute 'T'\n") == []


def test_numpys_function_on_a_tensorflow_tensor_in_keras_backend_code():
    # np.arccos calls the argument's arccos method, which Theano's variables have and TensorFlow's not
    code = "  File \"triplet.py\", line 64, in __call__\n    pos = np.arccos(K.dot(a, K.transpose(b)))\n"
    error = "AttributeError: 'Tensor' object has no attribute 'arccos'\n"
    assert first_cause(code + error) == ["keras-backend-tensorflow"]
    # nothing in the log says Keras or Theano: only a hint
    assert first_cause("  File \"t.py\", line 3\n    y = np.arccos(x)\n" + error) == []
    # a Theano variable's own reduction, called in a custom layer's code with Keras' backend functions
    layer = ("  File \"my_layers.py\", line 59, in call\n"
             "    return K.cast(x.sum(axis=1) / mask.sum(axis=1, keepdims=True), K.floatx())\n"
             "AttributeError: 'Tensor' object has no attribute 'sum'\n")
    assert first_cause(layer) == ["keras-backend-tensorflow"]
    assert first_cause(layer.replace("mask", "m").replace("K.cast(", "float(").replace("K.floatx()", "'f'")) == []


def test_cythons_size_warning_is_harmless_and_its_error_is_not():
    # Cython's type import: a larger numpy structure than the module was built for warns, a
    # smaller one raises (Cython 0.29.37 Cython/Utility/ImportExport.c)
    warning = ("/usr/lib/python2.7/site-packages/theano/scan_module/scan_perform_ext.py:133: RuntimeWarning: "
               "numpy.ndarray size changed, may indicate binary incompatibility\n")
    assert first_cause(warning) == ["numpy-size-changed-warning"]
    error = ("ValueError: numpy.dtype size changed, may indicate binary incompatibility. "
             "Expected 96 from C header, got 88 from PyObject\n")
    assert first_cause(warning + error) == ["numpy-abi-mismatch"]


@pytest.mark.parametrize("message", [
    # Keras 1.0-1.1 (an assert) and 1.2-2.2 (a TypeError) refuse what theano.function takes
    "AssertionError: Output to a TensorFlow backend function should be a list or tuple.",
    "TypeError: `updates` in a TensorFlow backend function should be a list or tuple.",
])
def test_keras_tensorflow_backend_function_refusing_theano_style_arguments(message):
    frame = "  File \"dqn.py\", line 53, in build_functions\n    self.f = K.function([s], q)\n"
    assert first_cause(frame + message + "\n") == ["keras-backend-tensorflow"]


def test_keras1_recurrent_layer_without_timesteps_on_tensorflow():
    # Keras 1.0.0 keras/layers/recurrent.py:201-213 (no TensorFlow runs here: the message as it builds it)
    message = ("Exception: When using TensorFlow, you should define explicitly the number of timesteps of your "
               "sequences.\nIf your first layer is an Embedding, make sure to pass it an \"input_length\" argument. "
               "Otherwise, make sure the first layer has an \"input_shape\" or \"batch_input_shape\" argument, "
               "including the time axis. Found input shape at layer lstm_1: (None, None, 1)\n")
    found = explain_text(message).findings
    assert [(f.cause, f.confidence) for f in found[:1]] == [("keras-backend-tensorflow", "medium")]
    assert "on Theano it may be left out" in found[0].evidence[0].note


def test_pymc3_worker_without_a_model_context_and_the_users_own_slip():
    # PyMC3 3.1's step method unpickled in a spawned worker (pymc3/step_methods/arraystep.py:38)
    worker = ("  File \"C:\\Python\\lib\\multiprocessing\\connection.py\", line 251, in recv\n"
              "    return _ForkingPickler.loads(buf.getbuffer())\n"
              "  File \"C:\\Python\\lib\\site-packages\\pymc3\\model.py\", line 123, in get_context\n"
              "    raise TypeError(\"No context on context stack\")\nTypeError: No context on context stack\n")
    assert first_cause(worker) == ["pymc3-model-unpicklable-spawn"]
    # a distribution created outside `with pm.Model()` in the user's own script is no sampler matter
    alone = ("  File \"model.py\", line 3, in <module>\n    x = pm.Normal('x', 0, 1)\n"
             "TypeError: No context on context stack\n")
    assert first_cause(alone) == []


def test_a_tensorflow_op_given_a_theano_variable():
    message = ("TypeError: Failed to convert object of type <class 'theano.tensor.var.TensorVariable'> to Tensor. "
               "Contents: argmax. Consider casting elements to a supported type.\n")
    assert first_cause(message) == ["keras-code-needs-tensorflow-backend"]
    # a list or a numpy object TensorFlow cannot take is the code's own matter
    assert first_cause(message.replace("theano.tensor.var.TensorVariable", "list")) == []


def test_theanos_old_conv2d_refusing_input_shape_is_no_keras_version():
    frame = "  File \"/usr/lib/python2.7/dist-packages/theano/tensor/nnet/conv.py\", line 149, in conv2d\n"
    error = "TypeError: __init__() got an unexpected keyword argument 'input_shape'\n"
    assert first_cause(error) == ["keras-version-mismatch"]
    # through the old theano.tensor.nnet.conv: code for the new conv2d (Theano 0.8+) on an older Theano
    assert first_cause(frame + error) == ["theano-too-old-for-code"]


def test_a_missing_file_of_theanos_own_cache_is_no_missing_dataset():
    data = "IOError: [Errno 2] No such file or directory: '../data/mnist.pkl.gz'\n"
    cache = "IOError: [Errno 2] No such file or directory: '/home/u/.theano/compiledir_x86_64/tmpab/key.pkl'\n"
    assert first_cause(data) == ["dataset-file-missing"]
    assert "dataset-file-missing" not in [f.cause for f in explain_text(cache).findings]


def test_the_downsample_shim_warning_alone_is_harmless_and_no_cause_of_a_later_error():
    warning = "downsample.py:5: UserWarning: downsample module has been moved to the pool module.\n"
    assert first_cause(warning) == ["downsample-moved-warning"]
    after = warning + "Traceback (most recent call last):\nValueError: something else\n"
    assert first_cause(after) == []


def _top(text: str) -> tuple[str, str]:
    found = explain_text(text).findings
    return (found[0].cause, found[0].confidence) if found else ("", "")


def test_cudnn_status_in_theanos_gpuarray_messages_is_decided_by_the_status():
    # Theano rel-1.0.5 theano/gpuarray/c_code/dnn_fwd.c:488 prints cudnnGetErrorString's name
    op = "RuntimeError: error doing cuDNN conv FWD operation: "
    failed = explain_text(op + "CUDNN_STATUS_EXECUTION_FAILED").findings[0]
    assert (failed.cause, failed.confidence) == ("cudnn-call-failed", "low")  # several roots: it asks
    assert failed.asks and "cuDNN and CUDA versions" in failed.asks[0]
    assert failed.evidence[0].note == "cuDNN returned CUDNN_STATUS_EXECUTION_FAILED"
    assert _top(op + "CUDNN_STATUS_ALLOC_FAILED") == ("gpu-out-of-memory", "medium")
    assert _top(op + "CUDNN_STATUS_ARCH_MISMATCH")[0] == "gpu-too-old"
    assert _top("RuntimeError: error selecting convolution algo: CUDNN_STATUS_NOT_SUPPORTED") == (
        "cudnn-call-failed", "low")


def test_new_backend_messages_with_several_roots_stay_low():
    # gpublas_setup fails for a missing cuBLAS or a failed cublasCreate (libgpuarray v0.7.6
    # src/gpuarray_buffer_blas.c:5-8); no default context: the GPU never initialised, or device=cpu
    assert _top("RuntimeError: Can't setup blas") == ("cublas-init-failed", "low")
    assert _top("TypeError: No default context and no context specified") == ("gpu-context-missing", "low")
    # the workspace text alone, without a sign of the GPU back-end, is only a hint
    assert _top("RuntimeError: Could not allocate workspace") == ("gpu-out-of-memory", "low")


def test_device_unavailable_from_libgpuarray_is_the_busy_gpu_before_the_generic_driver_failure():
    found = explain_text("pygpu.gpuarray.GpuArrayException: b'cuCtxCreate: CUDA_ERROR_DEVICE_UNAVAILABLE: "
                         "CUDA-capable device(s) is/are busy or unavailable'").findings
    assert [f.cause for f in found] == ["gpu-busy-exclusive", "cuda-driver-call-failed"]


def test_opencl_limits_are_warnings_not_the_cause_of_an_error():
    warnings = ("Can not use cuDNN on context dev0: Not on a CUDA device.\n"
                "Mapped name dev0 to device opencl0:0: Ellesmere\n")
    error = "Traceback (most recent call last):\n  File \"x.py\", line 3\nKeyError: 'weights'\n"
    alone = explain_text(warnings).findings
    assert (alone[0].cause, alone[0].confidence, alone[0].warning) == ("opencl-backend-limited", "high", True)
    beside = explain_text(warnings + error).findings  # the KeyError is the user's own: no cause is stated
    assert beside and all(f.confidence == "low" for f in beside)


def test_libgpuarray_opencl_refusals_name_their_own_cause():
    # libgpuarray v0.7.6 src/gpuarray_buffer_opencl.c:383, :423, :445, :792
    exc = "pygpu.gpuarray.GpuArrayException: "
    assert _top(exc + "Unsupported extension cl_khr_fp64") == ("opencl-no-float64", "high")
    assert _top(exc + "b'Device ID out of range'") == ("opencl-bad-ordinal", "high")
    assert _top(exc + "Cuda kernels not supported on opencl devices") == ("opencl-backend-limited", "high")
    # the same words in another program's log are only a hint
    assert _top("ValueError: Platform ID out of range") == ("opencl-bad-ordinal", "low")


def test_libgpuarray_kernel_cache_is_a_warning_and_nvrtc_compilation_asks_for_its_log():
    # libgpuarray v0.7.6 src/gpuarray_buffer_cuda.c:319 (stderr), :1128 and :1141
    cache = explain_text("Error initializing disk cache, disabling: ensurep: Permission denied\n").findings[0]
    assert (cache.cause, cache.confidence, cache.warning) == ("gpuarray-kernel-cache-unusable", "high", True)
    assert cache.evidence[0].note == "libgpuarray: ensurep: Permission denied"
    nvrtc = explain_text("NVRTC compile log::\ndefault_program(7): error: expected a \";\"\n"
                         "RuntimeError: GpuKernel_init error 3: nvrtcCompileProgram: NVRTC_ERROR_COMPILATION\n")
    first = nvrtc.findings[0]
    assert (first.cause, first.confidence) == ("gpu-kernel-compile-failed", "low") and first.asks


def test_gpu_fft_names_the_module_it_could_not_import():
    # Theano rel-1.0.5 theano/gpuarray/fft.py:55-61
    found = explain_text("RuntimeError: pycuda is needed for CuIFFTOp\n").findings[0]
    assert (found.cause, found.confidence) == ("gpu-fft-deps-missing", "high")
    assert found.evidence[0].note == "`pycuda` could not be imported"


@pytest.mark.parametrize(("env", "package"), [("py27", "lasagne"), ("healthy37", "keras")])
def test_a_library_this_python_lacks(legacy_python, tmp_path, env, package):
    # the real interpreters' messages: `ImportError: No module named lasagne` (2.7) and
    # `ModuleNotFoundError: No module named 'keras'` (3.7), for an import of a submodule too
    log = traceback_of(legacy_python(env), f"from {package}.layers import Dense", tmp_path)
    found = explain_text(log).findings[0]
    assert (found.cause, found.confidence) == ("package-not-in-this-python", "high")
    assert found.evidence[-1].note == f"this Python has no `{package}` package"
    # a module missing inside an installed library (Python 3 quotes the whole name) is not this cause
    inside = explain_text(f"ModuleNotFoundError: No module named '{package}.legacy'\n").findings
    assert "package-not-in-this-python" not in [f.cause for f in inside]


def test_lasagne_hiding_why_theano_failed_defers_to_the_chained_error():
    # Lasagne replaces any ImportError of `import theano` by its own (lasagne/__init__.py:12-14);
    # Python 3 prints the error it chains to, which names the real cause.
    lasagne = ("  File \"/usr/lib/python3.6/site-packages/lasagne/__init__.py\", line 14, in <module>\n"
               "    raise ImportError(\"Could not import Theano.\" + install_instr)\n"
               "ImportError: Could not import Theano.\n")
    # alone it is only a hint: Lasagne raises it for any ImportError of Theano's (missing or broken)
    alone = explain_text("Traceback (most recent call last):\n" + lasagne).findings
    assert [(f.cause, f.confidence) for f in alone] == [("theano-not-installed", "low")]
    assert alone[0].asks
    chained = ("Traceback (most recent call last):\n  File \"run.py\", line 1, in <module>\n"
               "AttributeError: module 'numpy' has no attribute 'bool'\n\n"
               "During handling of the above exception, another exception occurred:\n\n"
               "Traceback (most recent call last):\n" + lasagne)
    found = explain_text(chained).recognised
    assert found[0].cause == "numpy-bool-alias"
    assert {(f.cause, f.confidence) for f in found[1:]} <= {("theano-not-installed", "low")}


def test_a_wrappers_source_line_in_the_traceback_gives_no_values():
    # The frame shows the raise with its format string; only the message itself holds the value.
    frame = ("  File \"/usr/lib/python3.6/site-packages/keras/backend/__init__.py\", line 108, in <module>\n"
             "    raise ValueError('Unable to import backend : ' + str(_BACKEND))\n")
    assert explain_text(frame).recognised == ()
    found = explain_text(frame + "ValueError: Unable to import backend : Theano\n").recognised
    assert [f.cause for f in found] == ["keras-config-invalid"]
    assert "`Theano`" in found[0].evidence[0].note
    fuel = ("    raise IOError(\"{} not found in Fuel's data path\".format(filename))\n"
            "OSError: mnist.hdf5 not found in Fuel's data path\n")
    assert "`mnist.hdf5`" in explain_text(fuel).recognised[0].evidence[0].note


def test_a_wrappers_warning_is_no_cause_of_a_later_unrelated_failure():
    warnings = ["UserWarning: RNN dropout is no longer supported with the Theano backend due to technical "
                "limitations.", "UserWarning: You are using a GPU layer with Theano configured for double precision "
                "(floatX=float64).", "UserWarning: You are using the TensorFlow backend, yet you are using the "
                "Theano image data format convention (`image_data_format=\"channels_first\"`).",
                "FutureWarning: In an upcoming release, pm.sample will return an `arviz.InferenceData` object instead "
                "of a `MultiTrace` by default.", "DeprecationWarning: Accessing section 'cxxflags' through old .-based "
                "API. This will be removed. Use 'config.gcc__cxxflags' instead.",
                "The version of PyMC you are using is very outdated.",
                "UserWarning: Update your `Dense` call to the Keras 2 API: `Dense(units=10)`",
                "UserWarning: The semantics of the Keras 2 argument `steps_per_epoch` is not the same as the Keras 1 "
                "argument `samples_per_epoch`.\n  model.fit_generator(gen, samples_per_epoch=1000, nb_epoch=2)",
                "/usr/lib/python2.7/site-packages/nolearn/lasagne/base.py:372: "
                "UserWarning: The 'eval_size' argument has been deprecated, please use the 'train_split' parameter",
                "UserWarning: `output_shape` argument not specified for layer lambda_1 and cannot be automatically "
                "inferred with the Theano backend. Defaulting to output shape `(None, 64)` (same as input shape).",
                "UserWarning: No training configuration found in save file: the model was *not* compiled.",
                "Could not pickle model, sampling singlethreaded."]
    failure = "\nTraceback (most recent call last):\nNameError: name 'X_train' is not defined\n"
    for line in warnings:
        assert len(explain_text(line).recognised) == 1
        assert all(f.confidence == "low" for f in explain_text(line + failure).recognised)


# a call that logs PyMC3's warning, as PyMC3 3.8's sampling.py has it, quoted by a traceback
QUOTED_WARNING_CALL = '_log.warning("Could not pickle model, sampling singlethreaded.")'


def test_a_warning_call_quoted_in_a_traceback_frame_is_no_warning(tmp_path: Path) -> None:
    printed = "Could not pickle model, sampling singlethreaded.\n"
    assert [f.cause for f in explain_text(printed).recognised] == ["pymc3-sampling-single-process"]
    # Python's frame: the call is the source line, under its `File "...", line N` header
    code = f"import logging\n_log = logging.getLogger()\n{QUOTED_WARNING_CALL} if 1 / 0 else None\n"
    log = traceback_of(sys.executable, code, tmp_path)
    assert QUOTED_WARNING_CALL in log and "ZeroDivisionError" in log
    assert "pymc3-sampling-single-process" not in {f.cause for f in explain_text(log).findings}
    # IPython's frame: the numbered lines around the arrow's
    ipython = ("~/env/lib/python3.7/site-packages/pymc3/sampling.py in sample(draws, step, chains, cores)\n"
               f"    450             except pickle.PickleError:\n    451                 {QUOTED_WARNING_CALL}\n"
               "--> 452                 has_population_samplers = False\n\nValueError: Not enough samples\n")
    assert "pymc3-sampling-single-process" not in {f.cause for f in explain_text(ipython).findings}
    assert "pymc3-sampling-single-process" in {f.cause for f in explain_text(printed + ipython).findings}


@pytest.mark.parametrize("log, cause", [
    # Keras 2.2.4 keras/backend/__init__.py:38 and :44, the source lines of failed asserts
    ("  File \"/usr/lib/python3.6/site-packages/keras/backend/__init__.py\", line 38, in <module>\n"
     "    assert _floatx in {'float16', 'float32', 'float64'}\nAssertionError\n", "keras-config-invalid"),
    ("  File \"/usr/lib/python3.6/site-packages/keras/backend/__init__.py\", line 44, in <module>\n"
     "    assert _image_data_format in {'channels_last', 'channels_first'}\nAssertionError\n", "keras-config-invalid"),
    # Keras 1.2.2 keras/backend/theano_backend.py:1525
    ("ValueError: conv2d with filter dilation requires Theano 0.9.0dev2 or newer.\n", "theano-too-old-for-code"),
    # Lasagne v0.1 lasagne/layers/corrmm.py:22
    ("ImportError: requires a GPU to work\n", "lasagne-no-gpu"),
    # Lasagne master lasagne/layers/pool.py:1087-1091
    ("ImportError: SpatialPyramidPoolingLayer with implementation='fast' requires a newer version of theano. "
     "Either update theano, or use implementation='kaiming'\n", "theano-too-old-for-code"),
    # Fuel fuel/converters/base.py:44, through fuel-convert
    ("  File \"/usr/local/bin/fuel-convert\", line 9, in <module>\n"
     "fuel.exceptions.MissingInputFiles: ('Required files missing', ['train-images-idx3-ubyte.gz'])\n",
     "fuel-dataset-not-converted"),
    # Fuel 1d6292d fuel/transformers/image.py:207-208 and fuel/bin/fuel_download.py:11-16
    ("ImportError: window_batch_bchw not compiled\n", "fuel-install-incomplete"),
    ("fuel-download: error: Some files for this dataset do not have a download URL.\n", "fuel-dataset-no-download-url"),
    # Keras 2.2.4 keras/backend/theano_backend.py:2171-2173 and Keras 1.2.2 keras/backend/theano_backend.py:1871
    ("ValueError: In `Conv2DTranspose`, with padding mode `same`, even kernel sizes are not supported with Theano. "
     "You can set `kernel_size` to an odd number.\n", "keras-theano-backend-limitation"),
    ("ValueError: border_mode=\"same\" not supported with Theano.\n", "keras-theano-backend-limitation"),
    # Keras 2.2.4 keras/engine/saving.py:1027-1030
    ("ValueError: You are trying to load a weight file containing 13 layers into a model with 16 layers.\n",
     "keras-weights-model-mismatch"),
    # PyMC3's parallel sampling under spawn (https://github.com/pymc-devs/pymc/pull/3991)
    ("ValueError: The model could not be unpickled. This is required for sampling with more than one core and "
     "multiprocessing context spawn or forkserver.\n", "pymc3-model-unpicklable-spawn"),
    # Theano-PyMC rel-1.0.13 has no AddConfigVar
    ("AttributeError: module 'theano.configparser' has no attribute 'AddConfigVar'\n", "code-needs-original-theano"),
    # Keras 2.2.4 keras/utils/vis_utils.py:17-20 and Keras 2.0.0 keras/preprocessing/image.py:235
    ("ImportError: Failed to import `pydot`. Please install `pydot`. For example with `pip install pydot`.\n",
     "graphviz-pydot-missing"),
    ("ImportError: Could not import PIL.Image. The use of `array_to_img` requires PIL.\n", "pillow-missing"),
])
def test_wrapper_messages_as_printed_name_their_cause(log, cause):
    found = explain_text(log).recognised
    assert found and found[0].cause == cause and found[0].confidence != "low"


@pytest.mark.parametrize("death", ["Segmentation fault (core dumped)", "Aborted (core dumped)", "Killed",
                                   "E..Segmentation fault: 11", "Illegal instruction",
                                   # Slurm's srun on a task that exited with a failure status
                                   "srun: error: sls-titan-0: task 0: Exited with exit code 2"])
def test_a_process_killed_by_a_signal_or_failed_under_srun_so_a_warning_beside_it_is_no_cause(death):
    warning = "WARNING (theano.tensor.blas): Using NumPy C-API based implementation for BLAS functions.\n"
    alone = explain_text(warning).recognised
    assert [(f.cause, f.confidence) for f in alone] == [("blas-numpy-fallback", "medium")]
    died = explain_text(warning + "Epoch 1/10\n" + death + "\n")
    assert died.recognised == ()
    assert [f.confidence for f in died.findings if f.cause == "blas-numpy-fallback"] == ["low"]
    # a line that only mentions the words is no death
    assert explain_text(warning + "the job was killed by the scheduler, see below\n").recognised == alone


@pytest.mark.parametrize(("version", "obj"), [("3.7", "threading.Lock()"), ("3.12", "threading.Lock()"),
                                              # a function of the script, as older PyMC3's joblib workers met it
                                              ("2.7", "lambda x: x"), ("3.6", "lambda x: x")])
def test_an_object_a_spawned_sampler_cannot_pickle(version, obj, tmp_path):
    # the interpreter's own message (3.8 changed a lock's wording; Python 2 words a function's
    # otherwise), after PyMC3's line for parallel chains
    python = str(legacy_envs.find_interpreter(version))
    message = traceback_of(python, f"import pickle, threading\npickle.dumps({obj})", tmp_path)
    assert "ickl" in message and ("lock" in message or "<lambda>" in message)
    sampling = "Multiprocess sampling (4 chains in 4 jobs)\n" + message
    assert [(f.cause, f.confidence) for f in explain_text(sampling).findings][:1] == \
        [("pymc3-model-unpicklable-spawn", "medium")]
    # without PyMC3 in the log the message is anyone's pickling
    assert all(f.confidence == "low" for f in explain_text(message).findings)


def test_mpi_aborting_outside_a_job():
    # MPICH's abort as the thread of https://github.com/eth-cscs/production/pull/84 quotes it
    log = (">>> import theano\n[Mon Jan 30 14:55:09 2017] [unknown] Fatal error in PMPI_Init_thread: Other MPI error, "
           "error stack:\nMPIR_Init_thread(525):\nMPID_Init(228).......: channel initialization failed\n"
           "MPID_Init(611).......:  PMI2 init failed: 1\nAborted\n")
    first = explain_text(log).recognised[0]
    assert (first.cause, first.confidence) == ("mpi-init-outside-job", "medium") and first.asks
    # a PMI file descriptor it cannot write to: set up by a launcher (a job's variables inherited into a
    # container), so no run outside a job
    inherited = log.replace("MPIR_Init_thread", "[cli_0]: Unable to write to PMI_fd\nMPIR_Init_thread", 1)
    assert explain_text(inherited).recognised == ()


@pytest.mark.parametrize("message", [NVRTC.replace("nvrtc64_70", "nvrtc64\\_70"),  # as a post's markdown escapes it
                                     "GpuArrayException: Could not load \"cublas64\\_91.dll\": not found"])
def test_a_dll_name_whose_underscore_a_post_escaped(message: str) -> None:
    first = explain_text(message).recognised[0]
    assert (first.cause, first.confidence) == ("nvrtc-dll-name" if "nvrtc" in message else "cublas-dll-name", "high")
    # the NVRTC refinement reads the name as unescaped: the last of the names libgpuarray tried
    assert ("nvrtc" in message) == any("only the last name" in d for d in first.details)
