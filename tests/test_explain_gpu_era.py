"""`explain` on messages of the old GPU back-end era (batch gpu-era): texts that look alike but mean
different things (an architecture nvcc does not know vs a garbage one; a MinGW import library vs a
static libpython), inline-code lines of GitHub posts, the user's own `dnn.enabled=False`, and the
era table's facts added to a cause when the log comes from the old back-end; the scan's shortcut
for context texts."""

from __future__ import annotations

import io

import pytest

from tests.explain_sets import all_cases
from theanodoctor import kb_era
from theanodoctor.explain import explain_text
from theanodoctor.explain.normalize import as_typed, segments, unwrapped
from theanodoctor.explain.pyera import frame_codes, in_frame_code, is_code, shown_code, shown_header, without_comment
from theanodoctor.explain.reader import numbered_lines
from theanodoctor.explain.scan import Scanner, in_listing
from theanodoctor.kb_causes import signatures

OLD_BACKEND_DNN = (
    "Exception: ('The following error happened while compiling the node', GpuDnnConvDesc{border_mode='valid', "
    "subsample=(1, 1), conv_mode='conv', precision='float32'}(MakeVector.0, MakeVector.0), '\\n', "
    "'nvcc return status', 2, 'for cmd', 'nvcc -shared -O3 -arch=sm_52 -I/usr/lib/python2.7/site-packages/"
    "theano/sandbox/cuda -o mod.so mod.cu -lcudnn')")


def _first(text: str) -> tuple[str, str] | None:
    found = [f for f in explain_text(text).findings if f.confidence != "low"]
    return (found[0].cause, found[0].confidence) if found else None


@pytest.mark.parametrize(("line", "cause"), [
    ("nvcc fatal   : Value 'sm_52' is not defined for option 'gpu-architecture'", "gpu-arch-unsupported"),
    ("nvcc fatal   : Value 'sm_446217920' is not defined for option 'gpu-architecture'", "device-query-garbage"),
    ("/usr/bin/ld: cannot find -lpython2.7.a", "python-static-libpython"),
    ("C:/MinGW/bin/ld.exe: cannot find -lpython27", "mingw-python-link"),
    ("/usr/include/string.h:652:42: error: ‘memcpy’ was not declared in this scope", "nvcc-glibc-memcpy"),
    ('/usr/include/x86_64-linux-gnu/bits/floatn.h(73): error: identifier "__float128" is undefined', "nvcc-float128"),
])
def test_look_alike_texts_name_different_causes(line, cause):
    assert _first(line)[0] == cause


# the old back-end's descriptor message prints the tensor's shape after the status (Theano
# rel-0.9.0 theano/sandbox/cuda/dnn.py:84); a batch of 0 rows is the data's, other shapes are not
@pytest.mark.parametrize("line", [
    # Theano rel-1.0.5 theano/gpuarray/__init__.py:72, and a thread's title retelling it
    "RuntimeError: Your installed version of pygpu(0.6.9) is too old, please upgrade to 0.7.0 or later "
    "(but below 0.8.0)",
    "PYGPU(0.6.9) is too old - Could not initialize pygpu",
])
def test_a_pygpu_too_old_for_theano_10(line):
    assert _first(line) == ("pygpu-wrong-version", "high")
    assert _first("Theano 1.0 says my GPU is too old") is None  # no pygpu version: another refusal


@pytest.mark.parametrize(("text", "first"), [
    ("RuntimeError: could not set tensor4d descriptor: CUDNN_STATUS_BAD_PARAMshapes=0 2 1 1 strides=2 1 1 1\n",
     ("cudnn-empty-tensor", "medium")),
    ("RuntimeError: Could not set tensorNd descriptor: CUDNN_STATUS_BAD_PARAMdim=4\n"
     "Inputs shapes: [(0L, 3L, 226L, 226L), (64L, 3L, 3L, 3L)]\n", ("cudnn-empty-tensor", "medium")),
    ("RuntimeError: could not set tensor4d descriptor: CUDNN_STATUS_BAD_PARAMshapes=32 3 0 224 strides=1 1 1 1\n",
     None),
    ("RuntimeError: Could not set tensorNd descriptor: CUDNN_STATUS_BAD_PARAMdim=4\n"
     "Inputs shapes: [(32, 3, 226, 226), (64, 3, 3, 3), (0, 64, 224, 224)]\n", None),
])
def test_cudnn_refusing_an_empty_batch_is_told_by_the_shapes_the_log_shows(text, first):
    assert _first(text) == first


def test_a_garbage_architecture_is_not_stated_with_high_confidence_and_asks():
    found = explain_text("nvcc fatal   : Value 'sm_446217920' is not defined for option 'gpu-architecture'").findings
    assert found[0].confidence == "medium" and any("deviceQuery" in ask for ask in found[0].asks)


def test_a_line_posted_as_inline_code_is_read_as_the_exception_it_holds():
    line = "`pygpu.gpuarray.GpuArrayException: b'cuInit: CUDA_ERROR_UNKNOWN: unknown error'`"
    assert not segments(line)[0].startswith("`")
    log = "`WARNING (theano.tensor.blas): Using NumPy C-API based implementation for BLAS functions.`\n" + line
    result = explain_text(log)
    assert result.final_exception is not None and "GpuArrayException" in result.final_exception.text
    assert _first(log) is None  # the BLAS warning does not explain the failed cuInit


def test_cudnn_turned_off_by_the_user_is_no_finding():
    causes = [f.cause for f in explain_text("Can not use cuDNN on context None: Disabled by dnn.enabled flag").findings]
    assert "cudnn-unusable" not in causes
    causes = [f.cause for f in explain_text("Can not use cuDNN on context None: cannot compile with cuDNN").findings]
    assert "cudnn-unusable" in causes


def test_the_old_backends_cudnn_range_from_the_era_table_refines_the_remedy():
    era = kb_era.old_backend()
    finding = explain_text(OLD_BACKEND_DNN).findings[0]
    assert finding.cause == "cudnn-too-new" and finding.confidence == "medium" and finding.asks
    assert any(f"up to cuDNN {era.cudnn_max_official}" in line for line in finding.details)
    arch = "Value 'sm_35' is not defined for option 'gpu-architecture'"
    plain = explain_text(arch).findings[0]
    with_path = explain_text(arch + '\n  File "/usr/lib/python2.7/site-packages/theano/sandbox/cuda/nvcc_compiler.py"')
    with_path = with_path.findings[0]
    assert not any(era.arch in line for line in plain.details)
    assert any(era.arch in line for line in with_path.details)


def test_context_seen_is_what_a_plain_search_of_every_real_log_finds():
    """The scan finds context texts with the same automaton as the literals; over every real log,
    cut into small blocks, it must see exactly what a plain search sees in the lines as the scan
    reads them (a console row cut from a line joined to it, in its block)."""
    sigs = signatures()
    for case in all_cases():
        lines = list(numbered_lines(io.BytesIO(case.log.read_bytes())))
        blocks = [lines[i:i + 7] for i in range(0, len(lines), 7)]
        scanner = Scanner(sigs)
        scanner.feed_blocks(blocks)
        texts = [text.lower() for block in blocks for text in unwrapped([text for _, text in block])]
        expected = {c for c in scanner.context if any(c in text for text in texts)}
        assert scanner.result.context_seen == expected, case.stem


def test_signatures_hit_where_a_plain_search_of_every_real_log_finds_their_texts():
    """The automaton gives each line only the signatures whose texts it holds; over every real log
    (in blocks of 7 lines, so matches sit at block edges too) the hits must be those of a plain
    search: each line tried against every signature of the catalogue. Both read the lines as the
    scan does: a console row cut from a line joined to it (in its block), a web page's typography
    read as typed, a warning's text in the code a traceback's frame quotes taken for no warning, and
    a line of a numbered source listing taken for code."""
    sigs = signatures()
    for case in all_cases():
        lines = list(numbered_lines(io.BytesIO(case.log.read_bytes())))
        blocks = [lines[i:i + 7] for i in range(0, len(lines), 7)]
        scanner = Scanner(sigs)
        scanner.feed_blocks(blocks)
        lines = [(number, text) for block in blocks
                 for (number, _), text in zip(block, unwrapped([text for _, text in block]))]
        expected: dict[str, list[int]] = {}
        texts = [as_typed(text) for _, text in lines]
        for at, (number, text) in enumerate(lines):
            if in_listing(texts, at):  # the source Theano printed with its line numbers
                continue
            lowered, parts = texts[at].lower(), segments(text)
            if is_code(texts, at):  # a comment in the code a traceback quotes is no message
                parts = [code for code in map(without_comment, parts) if code] or [""]
            quoted = in_frame_code(texts, at)
            for sig in sigs:
                if (sig.warning or sig.logged) and quoted:
                    continue  # a call that would warn, quoted in a traceback's frame, printed nothing
                if sig.code is not None and not sig.code.search(shown_code(texts, at) or ""):
                    continue  # the code the traceback shows above this line decides it
                if sig.frame is not None and not sig.frame.search(shown_header(texts, at) or ""):
                    continue  # ... or the file of its frame
                if sig.caller is not None and not any(sig.caller.search(c) for c in frame_codes(texts, at)):
                    continue  # ... or the code of a frame shown above it
                if any(lit in lowered for lit in sig.contains) and \
                        any(sig.match(part, part.lower()) is not None for part in parts):
                    expected.setdefault(sig.id, []).append(number)
        found = {sig_id: [n for n, _, _ in hit.evidence] for sig_id, hit in scanner.result.hits.items()}
        assert found == {sig_id: numbers[:3] for sig_id, numbers in expected.items()}, case.stem
        assert {sig_id: hit.count for sig_id, hit in scanner.result.hits.items()} == \
            {sig_id: len(numbers) for sig_id, numbers in expected.items()}, case.stem


# Theano 0.9's gpuarray set_value on a shared variable whose old GPU buffer is not contiguous, as
# Theano 0.9.0 (theano/gpuarray/type.py:267) and pygpu 0.6 (pygpu/gpuarray.pyx:1595) print it
SET_VALUE_NOT_CONTIGUOUS = """\
  File "/usr/lib/python2.7/dist-packages/theano/gpuarray/type.py", line 640, in set_value
    self.container.value = value
  File "/usr/lib/python2.7/dist-packages/theano/gof/link.py", line 477, in __set__
    **kwargs)
  File "/usr/lib/python2.7/dist-packages/theano/gpuarray/type.py", line 296, in filter_inplace
    old_data.write(data)
  File "pygpu/gpuarray.pyx", line 1595, in pygpu.gpuarray.GpuArray.write (pygpu/gpuarray.c:20885)
ValueError: ('Destination GpuArray is not contiguous', 'Container name "W"')
"""


def test_set_value_into_a_non_contiguous_gpu_buffer_is_the_bug_theano_010_fixed() -> None:
    (finding,) = [f for f in explain_text(SET_VALUE_NOT_CONTIGUOUS).findings if f.confidence != "low"]
    assert (finding.cause, finding.confidence) == ("theano-bug-fixed-upstream", "medium")
    assert any("fixed in Theano 0.10.0beta1" in e.note for e in finding.evidence)
    # pygpu's own message with no Theano set_value on the way is the caller's array, not Theano's bug
    alone = "ValueError: Destination GpuArray is not contiguous\n"
    assert [f.cause for f in explain_text(alone).findings if f.confidence != "low"] == []
