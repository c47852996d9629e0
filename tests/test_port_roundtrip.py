"""Every rewriting rule on real code: the Theano-era repositories of tests/scan_corpus, ported in
memory. The rewrite keeps every comment and every line it does not edit, keeps the line count,
and the result still parses under the Python the file was written for (Python 2 files: compiled
by the real pyenv 2.7 interpreter, never run). Applying and undoing on disk: test_port_cli.py."""

from __future__ import annotations

import ast
import json
import subprocess
import warnings
from pathlib import Path

import pytest

from tests.legacy_envs import find_interpreter
from theanodoctor import kb_port
from theanodoctor.port.pyfile import port_source
from theanodoctor.scan import py2tree

CORPUS = Path(__file__).parent / "scan_corpus"
RULES = kb_port.rules()

# file -> (rules it must hit, a line the ported file must hold), written from reading each file
CASES = {
    "lasagne/lasagne/layers/pool.py": ({"signal-downsample", "pool-2d-ws"}, "pooled = pool.pool_2d(input,"),
    "cnn-sentence/conv_net_classes.py": ({"signal-downsample", "pool-2d-ws", "old-conv2d"},
                                         "conv_out = T.nnet.conv2d(input=input, filters=self.W,"
                                         "filter_shape=self.filter_shape, input_shape=self.image_shape)"),
    "deeplearningtutorials/code/convolutional_mlp.py": ({"pool-2d-ws"}, "ws=poolsize,"),
    "theano-alexnet/train.py": ({"sandbox-cuda-use", "sandbox-cuda"},
                                "pass  # was: theano.sandbox.cuda.use(config['gpu'])"),
    "theano-alexnet/lib/layers.py": ({"sandbox-cuda-dnn", "sandbox-cuda-basic-ops"},
                                     "from theano.gpuarray.basic_ops import gpu_contiguous"),
    "dcgan-code/mnist/train_cond_dcgan.py": ({"sandbox-cuda-dnn"}, "from theano.gpuarray.dnn import dnn_conv"),
    "dcgan-code/svhn/svhn_semisup_analysis.py": ({"sandbox-cuda-dnn"},
                                                 "from theano.gpuarray.dnn import dnn_conv, dnn_pool"),
    "lasagne/lasagne/layers/dnn.py": ({"sandbox-cuda-dnn"}, "from theano.gpuarray import dnn"),
    "scikit-neuralnetwork/sknn/__init__.py": ({"device-gpu"}, "return self.configure('device=cuda'+flags)"),
}
# file -> (rule, line) uses that must be listed for hand work, not rewritten
LISTED = {
    "dcgan-code/lib/ops.py": {("sandbox-cuda-dnn", 7), ("sandbox-cuda-basic-ops", 3)},
    "theano-alexnet/lib/layers.py": {("cuda-convnet", 8), ("cuda-convnet", 9)},
    "theano-alexnet/train.py": {("pycuda-interop", 48), ("pycuda-utils", 49)},
    "kaggle-ndsb/dihedral_ops.py": {("sandbox-cuda", 3), ("pycuda-interop", 7)},
    "lasagne/lasagne/layers/dnn.py": {("dnn-available", 12)},
    "lasagne/docs/conf.py": {("sandbox-cuda", 325)},  # `theano.sandbox.cuda.dnn = Mock(...)`: assigned, not used
}


def _comments(text: str) -> list[str]:
    tree = py2tree.parse(text)
    assert tree is not None
    found = []
    for leaf in tree.leaves():
        found += [line.strip() for line in leaf.prefix.splitlines() if line.strip().startswith("#")]
    return found


def _python3(text: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # old code's "\d" escapes
        try:
            ast.parse(text)
        except SyntaxError:
            return False
    return True


@pytest.mark.parametrize("rel", sorted(CASES))
def test_each_rule_on_real_code_keeps_everything_it_does_not_edit(rel: str) -> None:
    original = (CORPUS / rel).read_text()
    ported = port_source(original, RULES)
    assert ported is not None
    wanted, line = CASES[rel]
    hit = {i.strip() for c in ported.changes for i in c.rule.split(",")}
    assert wanted <= hit, ported.changes
    assert line in ported.text
    old_lines, new_lines = original.splitlines(), ported.text.splitlines()
    assert len(old_lines) == len(new_lines)  # no rewrite adds or drops a line
    edited = {c.line for c in ported.changes}
    for number, (old, new) in enumerate(zip(old_lines, new_lines), 1):
        if old != new:  # an edited line belongs to a reported edit (a call's arguments span a few lines)
            assert any(0 <= number - e <= 8 for e in edited), (number, old, new)
    kept = _comments(ported.text)
    assert all(c in kept for c in _comments(original))
    assert _python3(ported.text) == _python3(original)


@pytest.mark.parametrize("rel", sorted(LISTED))
def test_what_is_not_mechanical_is_listed_with_its_line(rel: str) -> None:
    original = (CORPUS / rel).read_text()
    ported = port_source(original, RULES)
    assert ported is not None
    assert LISTED[rel] <= {(m.rule, m.line) for m in ported.manual}
    lines = original.splitlines()
    for item in ported.manual:  # what it quotes starts on the line it names
        assert item.code.split()[0] in lines[item.line - 1], item


def test_ported_python2_files_still_compile_under_the_real_python_27(tmp_path: Path) -> None:
    python2 = find_interpreter("2.7")
    written = []
    for path in sorted(CORPUS.rglob("*.py")):
        original = path.read_text(errors="replace")
        ported = port_source(original, RULES)
        if ported is None or ported.text == original or _python3(original):
            continue
        out = tmp_path / f"{len(written)}.py"
        out.write_text(ported.text)
        written.append((str(path.relative_to(CORPUS)), str(out)))
    assert len(written) >= 5  # dcgan-code and theano-alexnet are Python 2
    script = ("import json, sys\nbad = []\nfor rel, f in json.loads(sys.argv[1]):\n"
              "    try:\n        compile(open(f).read(), rel, 'exec')\n"
              "    except SyntaxError as e:\n        bad.append('%s: %s' % (rel, e))\nprint(json.dumps(bad))\n")
    run = subprocess.run([str(python2), "-c", script, json.dumps(written)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == []


def test_every_rewriting_rule_is_proven_on_real_code_or_on_its_own_test_inputs() -> None:
    on_corpus = set().union(*(w for w, _ in CASES.values()))
    # compat-six, sandbox-gpuarray, the dnn argument rules, and the flag rules in .theanorc
    # (tests/test_port_cli.py) have no use in the corpus: tests/test_port_rules.py covers them
    elsewhere = {"compat-six", "sandbox-gpuarray", "dnn-conv-args", "dnn-gradweight-args", "dnn-gradinput-args",
                 "init-gpu-device-gpu", "lib-cnmem", "nvcc-flags"}
    rewriting = {r.id for r in RULES if r.kind != "manual"}
    assert rewriting - on_corpus <= elsewhere, rewriting - on_corpus - elsewhere
