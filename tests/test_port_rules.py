"""The port table (profiles/port_rules.yaml): every rule typed and sourced at upstream tags, the
marker ids of profiles/theano_api.yaml reused where a rule answers a marker, malformed rows named
by file and line; and each kind of rule on small inputs shaped like the real uses (real
repositories' lines are in tests/test_port_roundtrip.py)."""

from __future__ import annotations

import re

import pytest

from theanodoctor import kb_port
from theanodoctor.knowledge import KnowledgeError
from theanodoctor.port.flags import port_flags
from theanodoctor.port.pyfile import port_source
from theanodoctor.scan import markers

RULES = kb_port.rules()
_TAGGED = re.compile(r"https://github\.com/Theano/Theano/(blob|tree)/rel-\d[\w.]*/")


def test_every_rule_is_sourced_at_theano_tags():
    assert len(RULES) >= 15 and len(set(kb_port.rule_ids())) == len(RULES)
    for rule in RULES:
        if rule.id != "cuda-convnet":  # pylearn2's own tree; its Theano replacement is cited at rel-1.0.5
            assert _TAGGED.search(rule.old_source), rule.id
        assert "rel-1.0.5" in rule.new_source, rule.id
        assert re.search(r"#L\d+|/tree/", rule.old_source + rule.new_source), rule.id


def test_rules_reuse_the_marker_ids_of_the_scan_table():
    by_name = {m.name: m.id for m in markers.markers() if m.kind == "module"}
    settings = {m.id for m in markers.markers() if m.kind == "setting"}
    for rule in RULES:
        if rule.kind in ("module", "manual") and rule.old in by_name:
            assert rule.id == by_name[rule.old], rule.old
        if rule.kind == "flag":
            assert rule.id in settings, rule.id
    assert {"signal-downsample", "sandbox-cuda-dnn", "sandbox-gpuarray", "compat-six", "pool-2d-ws",
            "sandbox-cuda"} <= set(kb_port.rule_ids())


def test_the_pool_rule_keeps_the_ignore_border_default_explicit():
    pool = next(r for r in RULES if r.id == "pool-2d-ws")
    assert pool.explicit == {"ignore_border": "False"}
    assert pool.rename == {"ds": "ws", "st": "stride", "padding": "pad"}
    assert pool.positional == ("ws", "ignore_border", "stride", "pad", "mode")


@pytest.mark.parametrize("row, message", [
    ("- {id: a, kind: module, old: x.y, new: z, names: '*', says: s, old_source: nowhere, new_source: nowhere}",
     "old_source"),
    ("- {id: a, kind: teleport, old: x, says: s, old_source: 'https://github.com/a/b/blob/t/f', "
     "new_source: 'https://github.com/a/b/blob/t/f'}", "kind"),
    ("- {id: a, kind: call, says: s, keep: 1, allowed: [x], old_source: 'https://github.com/a/b/blob/t/f', "
     "new_source: 'https://github.com/a/b/blob/t/f'}", "names"),
    ("- {id: a, kind: call, names: [f], says: s, keep: 1, positional: [y], allowed: [x], "
     "old_source: 'https://github.com/a/b/blob/t/f', new_source: 'https://github.com/a/b/blob/t/f'}", "allowed"),
    ("- {id: a, kind: module, old: 'not a name', new: z, names: '*', says: s, "
     "old_source: 'https://github.com/a/b/blob/t/f', new_source: 'https://github.com/a/b/blob/t/f'}", "dotted"),
])
def test_a_malformed_row_is_named_by_file_and_line(fake_profiles, row, message):
    fake_profiles[kb_port.NAME] = "rules:\n  " + row + "\n"
    with pytest.raises(KnowledgeError, match=rf"port_rules\.yaml:\d+.*{message}|{message}"):
        kb_port.rules()


def _port(text: str, only: tuple[str, ...] = ()) -> tuple[str, set[str], list[str]]:
    rules = tuple(r for r in RULES if not only or r.id in only)
    ported = port_source(text, rules)
    assert ported is not None
    return ported.text, {c.rule for c in ported.changes}, [m.rule for m in ported.manual]


def test_compat_six_becomes_six_and_the_report_says_six_is_needed():
    text, hits, manual = _port("from theano.compat.six.moves import xrange\nfrom theano.compat import six\n"
                               "import theano.compat.six as six2\nfor i in xrange(3): pass\n")
    assert text == ("from six.moves import xrange\nimport six\nimport six as six2\nfor i in xrange(3): pass\n")
    assert hits == {"compat-six"} and not manual
    assert next(r for r in RULES if r.id == "compat-six").needs == "six"


def test_sandbox_gpuarray_moves_whole():
    text, hits, _ = _port("from theano.sandbox.gpuarray.basic_ops import GpuKernelBase\n"
                          "import theano.sandbox.gpuarray\ntheano.sandbox.gpuarray.use('cuda0')\n")
    assert text == ("from theano.gpuarray.basic_ops import GpuKernelBase\nimport theano.gpuarray\n"
                    "theano.gpuarray.use('cuda0')\n")
    assert hits == {"sandbox-gpuarray"}


def test_max_pool_2d_positional_arguments_become_the_new_keywords():
    text, hits, _ = _port("from theano.tensor.signal.downsample import max_pool_2d\n"
                          "y = max_pool_2d(x, (2, 2), True, (1, 1))  # pool\n")
    assert text == ("from theano.tensor.signal.pool import pool_2d\n"
                    "y = pool_2d(x, ws=(2, 2), ignore_border=True, stride=(1, 1))  # pool\n")
    assert hits == {"signal-downsample", "pool-2d-ws"}


def test_a_pool_2d_call_already_in_the_new_form_keeps_its_positional_arguments():
    source = "from theano.tensor.signal import pool\ny = pool.pool_2d(x, (2, 2), ignore_border=True, stride=(1, 1))\n"
    text, hits, manual = _port(source)
    assert text == source and not hits and not manual
    text, hits, _ = _port("from theano.tensor.signal import pool\ny = pool.pool_2d(x, (2, 2), st=(1, 1))\n")
    assert text.endswith("y = pool.pool_2d(x, ws=(2, 2), stride=(1, 1), ignore_border=False)\n")


def test_an_omitted_ignore_border_is_written_out_as_the_default_both_releases_use():
    text, _, _ = _port("import theano.tensor.signal.downsample as ds\ny = ds.max_pool_2d(x, ds=(2, 2))\n")
    assert text == "import theano.tensor.signal.pool as ds\ny = ds.pool_2d(x, ws=(2, 2), ignore_border=False)\n"


def test_a_name_already_taken_is_imported_under_its_old_name_instead_of_renamed():
    text, _, _ = _port("from theano.tensor.signal import downsample\npool = 3\n"
                       "y = downsample.max_pool_2d(x, (2, 2), ignore_border=True)\n")
    assert text == ("from theano.tensor.signal import pool as downsample\npool = 3\n"
                    "y = downsample.pool_2d(x, ws=(2, 2), ignore_border=True)\n")


@pytest.mark.parametrize("call, why", [
    ("max_pool_2d(x, *args)", "arguments passed with *"),
    ("max_pool_2d(x, (2, 2), ds=(2, 2))", "same argument given twice"),
    ("max_pool_2d(x, (2, 2), True, unknown=1)", "unknown"),
])
def test_calls_the_rule_cannot_read_are_left_alone_and_listed(call, why):
    source = f"from theano.tensor.signal.downsample import max_pool_2d\ny = {call}\n"
    ported = port_source(source, RULES)
    assert ported is not None
    # the function is renamed (same positions in both signatures); its arguments are untouched
    assert "y = pool_2d" + call[len("max_pool_2d"):] in ported.text
    assert any(m.rule == "pool-2d-ws" and why in m.what for m in ported.manual)


def test_dnn_conv_arguments_after_kerns_become_keywords_so_dilation_cannot_take_one():
    text, hits, _ = _port("from theano.sandbox.cuda import dnn\n"
                          "y = dnn.dnn_conv(img, kerns, 'valid', (1, 1), 'cross')\n")
    assert text == ("from theano.gpuarray import dnn\n"
                    "y = dnn.dnn_conv(img, kerns, border_mode='valid', subsample=(1, 1), conv_mode='cross')\n")
    assert hits == {"sandbox-cuda-dnn", "dnn-conv-args"}


def test_dnn_gradinput_conv_mode_by_position_becomes_a_keyword():
    text, hits, _ = _port("import theano.sandbox.cuda.dnn as dnn\n"
                          "g = dnn.dnn_gradinput(w, top, shp, 'valid', (1, 1), 'cross')\n"
                          "h = dnn.dnn_gradweight(x, top, shp, subsample=(2, 2))\n")
    assert text == ("import theano.gpuarray.dnn as dnn\n"
                    "g = dnn.dnn_gradinput(w, top, shp, border_mode='valid', subsample=(1, 1), conv_mode='cross')\n"
                    "h = dnn.dnn_gradweight(x, top, shp, subsample=(2, 2))\n")
    assert hits == {"sandbox-cuda-dnn", "dnn-gradinput-args"}


def test_old_conv2d_needs_an_import_that_reaches_the_new_one():
    reached, hits, _ = _port("import theano.tensor as T\nfrom theano.tensor.nnet import conv\n"
                             "y = conv.conv2d(x, w, image_shape=s, border_mode='full')\n")
    assert reached.endswith("y = T.nnet.conv2d(x, w, input_shape=s, border_mode='full')\n")
    assert hits == {"old-conv2d"}
    alone, hits, manual = _port("from theano.tensor.nnet import conv\ny = conv.conv2d(x, w)\n")
    assert "conv.conv2d(x, w)" in alone and not hits and manual == ["old-conv2d"]
    kwargs, _, manual = _port("import theano\ny = theano.tensor.nnet.conv.conv2d(x, w, unroll_batch=4)\n")
    assert "conv.conv2d(x, w, unroll_batch=4)" in kwargs and manual == ["old-conv2d"]


def test_removed_use_call_and_its_import_become_pass_with_the_old_code_in_a_comment():
    text, hits, _ = _port("if gpu:\n    import theano.sandbox.cuda\n    theano.sandbox.cuda.use('gpu0')\n")
    lines = text.splitlines()
    assert lines[1].startswith("    pass  # was: import theano.sandbox.cuda (")
    assert lines[2].startswith("    pass  # was: theano.sandbox.cuda.use('gpu0') (")
    assert hits == {"sandbox-cuda", "sandbox-cuda-use"}


def test_a_use_call_over_several_lines_or_inside_an_expression_is_listed_not_collapsed():
    source = ("import theano.sandbox.cuda\ntheano.sandbox.cuda.use('gpu',\n                        force=True)\n"
              "ok = theano.sandbox.cuda.use('gpu1')\n")
    text, hits, manual = _port(source)
    assert text == source and not hits
    assert manual.count("sandbox-cuda-use") == 2 and "sandbox-cuda" in manual  # and the import it still needs


def test_an_old_backend_import_still_used_stays_and_is_listed():
    text, hits, manual = _port("import theano.sandbox.cuda as cuda\ncuda.use('gpu0')\nx = cuda.CudaNdarray\n")
    assert text.startswith("import theano.sandbox.cuda as cuda\n") and "cuda.CudaNdarray" in text
    assert "sandbox-cuda" in manual


@pytest.mark.parametrize("source, kept", [
    ("from theano.sandbox.cuda.dnn import *\n", "from theano.sandbox.cuda.dnn import *"),
    ("import theano\ntheano.sandbox.cuda.dnn = stub\n", "theano.sandbox.cuda.dnn = stub"),
    # the import moves (the old one fails on 1.0.5 anyway); which name getattr wants is the user's to check
    ("from theano.tensor.signal import downsample\nf = getattr(downsample, name)\n", "getattr(pool, name)"),
])
def test_ambiguous_uses_are_listed(source, kept):
    ported = port_source(source, RULES)
    assert ported is not None and ported.manual
    assert kept in ported.text
    assert {m.line for m in ported.manual} == {source.count("\n")}


@pytest.mark.parametrize("flags, expected", [
    ("device=gpu,floatX=float32", "device=cuda,floatX=float32"),
    ("mode=FAST_RUN,device=gpu1,lib.cnmem=0.8", "mode=FAST_RUN,device=cuda1,gpuarray.preallocate=0.8"),
    ("device=gpu0,lib.cnmem=0,nvcc.fastmath=True", "device=cuda0"),
    ("init_gpu_device=gpu,device=cpu", "init_gpu_device=cuda,device=cpu"),
])
def test_flag_strings(flags, expected):
    found = port_flags(flags, set(kb_port.rule_ids()))
    assert found is not None and found[0] == expected


def test_strings_that_are_not_flags_or_need_nothing_are_left_alone():
    wanted = set(kb_port.rule_ids())
    assert port_flags("device=cuda,floatX=float32", wanted) is None
    assert port_flags("a=gpu", wanted) is None  # no Theano option in it
    assert port_flags("device=gpu", wanted - {"device-gpu"}) is None


def test_flag_strings_in_code_keep_their_quotes_and_prefix():
    text, hits, _ = _port("os.environ['THEANO_FLAGS'] = u\"device=gpu,floatX=float32\"\n"
                          "x = '''device=gpu'''\ny = 'device=gpu\\n'\n")
    assert text == ("os.environ['THEANO_FLAGS'] = u\"device=cuda,floatX=float32\"\n"
                    "x = '''device=cuda'''\ny = 'device=gpu\\n'\n")  # an escape: not rewritten
    assert hits == {"device-gpu"}


def test_files_without_any_rule_word_are_not_parsed_and_every_rule_has_its_word():
    from theanodoctor.port import pyfile

    for rule in RULES:
        names = [n for n in (rule.old, *rule.calls) if n] if rule.kind != "flag" else []
        assert all(any(w in n for w in pyfile._WORDS) for n in names), rule.id
    assert port_source("def f(:\n", RULES) == (("def f(:\n"), (), ())  # not Python, but nothing to port either
    assert port_source("def f(:\n  import theano\n", RULES) is None


@pytest.mark.parametrize("before, after", [
    ("from theano.tensor.signal import downsample\r\ny = downsample.max_pool_2d(x, (2, 2))  # c\r\n",
     "from theano.tensor.signal import pool\r\ny = pool.pool_2d(x, ws=(2, 2), ignore_border=False)  # c\r\n"),
    ("import theano.tensor.signal.downsample as d\ny = d.max_pool_2d(x, (2,2))",  # no final newline
     "import theano.tensor.signal.pool as d\ny = d.pool_2d(x, ws=(2,2), ignore_border=False)"),
    ("if 1:\n\tfrom theano.tensor.signal import downsample\n\ty = downsample.max_pool_2d(x, (2,2))\n",
     "if 1:\n\tfrom theano.tensor.signal import pool\n\ty = pool.pool_2d(x, ws=(2,2), ignore_border=False)\n"),
])
def test_line_endings_a_missing_final_newline_and_tabs_are_kept(before, after):
    assert _port(before)[0] == after


def test_explains_remedies_that_offer_port_name_only_what_its_rules_rewrite() -> None:
    from theanodoctor.kb_causes import causes

    offering = {c.id: c.remedy for c in causes().values() if "theanodoctor port" in c.remedy}
    assert set(offering) >= {"theano-too-new-for-code", "theano-downsample-removed"}
    rewritten = {r.id for r in kb_port.rules() if r.kind != "manual"}
    assert {"compat-six", "signal-downsample", "sandbox-cuda-dnn"} <= rewritten


def test_device_set_after_import_or_compared_with_gpu_is_listed_not_rewritten() -> None:
    source = ("import theano\ntry:\n    theano.config.device = 'gpu'\nexcept Exception:\n    pass\n"
              "if theano.config.device[:3] == 'gpu':  # cuDNN only on the GPU\n    USE_DNN = True\n"
              "ON_CPU = theano.config.device == 'cpu'\n")
    text, hits, manual = _port(source)
    assert text == source and not hits
    ported = port_source(source, kb_port.rules())
    assert ported is not None
    assert [(m.line, m.rule) for m in ported.manual] == [(3, "device-gpu"), (6, "device-gpu")]
    assert "refuses" in ported.manual[0].what and "never true" in ported.manual[1].what
