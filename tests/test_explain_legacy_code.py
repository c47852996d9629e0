"""What batch legacy-code added to `explain`: the Theano release a missing API needs (read from
the API markers `scan` uses), and that a context text seen only in a later block (one that also
holds a shorter literal) is still seen."""

from __future__ import annotations

import subprocess

import pytest

from tests import legacy_envs
from tests.explain_tables import traceback_of
from theanodoctor.explain import explain_text
from theanodoctor.explain.scan import BLOCK_LINES, Scanner
from theanodoctor.kb_causes import signatures
from theanodoctor.scan.markers import markers


def _marker(name: str):
    return next(m for m in markers() if m.name == name)


def test_a_missing_theano_api_names_the_release_that_has_it():
    found = explain_text("  File \"keras/activations.py\", line 20, in relu\n    return T.nnet.relu(x)\n"
                         "AttributeError: module 'theano.tensor.nnet' has no attribute 'relu'\n").findings
    first = found[0]
    relu = _marker("theano.tensor.nnet.relu")
    assert first.cause == "theano-too-old-for-code" and first.confidence == "medium"
    assert any(f"Theano {relu.spec}" in line for line in first.details)
    assert first.asks  # the installed version would decide


def test_a_pool_keyword_of_a_later_release_names_that_release():
    found = explain_text("TypeError: pool_2d() got an unexpected keyword argument 'ws'\n").findings
    ws = next(m for m in markers() if m.kind == "call" and m.name.endswith(".pool_2d"))
    assert found[0].cause == "theano-too-old-for-code" and found[0].confidence == "high"
    assert any(f"Theano {ws.spec}" in line for line in found[0].details)


def test_context_seen_only_in_a_later_block_still_counts():
    lines = ["ImportError: cannot import name 'is_same_graph' from 'theano.gof.toolbox'"]
    lines += ["filler"] * BLOCK_LINES + ["  File \"site-packages/pymc3/__init__.py\", line 41"]
    found = explain_text("\n".join(lines) + "\n").recognised
    assert [f.cause for f in found][:1] == ["pymc3-needs-theano-pymc"]


def test_a_context_text_holding_a_literal_is_seen_in_the_later_block_that_has_it():
    scanner = Scanner(signatures())
    context = next(c for c in scanner.context if any(lit != c and lit in c for lit in scanner.literals))
    first = [(n, "nothing here") for n in range(1, BLOCK_LINES + 1)]
    second = [(BLOCK_LINES + 1, f"xx {context} xx")]
    scan = scanner.feed_blocks([first, second])
    assert context in scan.context_seen


def test_an_api_a_later_theano_removed_names_the_last_release_with_it():
    found = explain_text("  File \"model.py\", line 3, in <module>\n    from theano.tensor.nnet.Conv3D import conv3D\n"
                         "ImportError: No module named 'theano.tensor.nnet.Conv3D'\n").findings
    old = _marker("theano.tensor.nnet.Conv3D")
    assert found[0].cause == "theano-too-new-for-code" and found[0].confidence == "medium"
    assert any(f"Theano {old.spec}" in line for line in found[0].details)


# PyMC3's stats module as an older release imports it, and a newer ArviZ without the name
ARVIZ = ('  File "/env/lib/python3.6/site-packages/pymc3/stats/__init__.py", line 30, in <module>\n'
         "    geweke = map_args(az.geweke)\nAttributeError: module 'arviz' has no attribute 'geweke'\n")


def test_pymc3_against_a_newer_arviz_is_named_where_pymc3_shows():
    found = explain_text(ARVIZ).recognised
    assert [(f.cause, f.confidence) for f in found] == [("pymc3-arviz-version-mismatch", "medium")]
    assert found[0].evidence[-1].note == "this ArviZ has no `geweke`"
    # the user's own script calling a name ArviZ dropped: only a hint
    alone = explain_text("    az.geweke(trace)\nAttributeError: module 'arviz' has no attribute 'geweke'\n")
    assert alone.recognised == () and alone.findings[0].cause == "pymc3-arviz-version-mismatch"


def test_pymc4_beside_the_legacy_stack_and_code_for_another_pymc():
    # pymc v4.0.0b1 pymc/__init__.py:30-56 (the warnings it logs at import)
    warned = explain_text("You are importing PyMC 4.0.0b1, but your environment also has the legacy version PyMC3 "
                          "3.11.4 installed.\nFor PyMC 4.0.0b1 to work as expected you should uninstall PyMC3.\n")
    assert [(f.cause, f.warning) for f in warned.recognised] == [("pymc4-beside-legacy-pymc3", True)]
    # `import pymc` is PyMC 2.x or 4+, not PyMC3: the code's PyMC is another one than installed
    module = explain_text("----> 4 import pymc as pm\n\nModuleNotFoundError: No module named 'pymc'\n").recognised
    assert [(f.cause, f.confidence) for f in module] == [("pymc3-version-mismatch", "medium")] and module[0].asks
    assert explain_text("ModuleNotFoundError: No module named 'pymc3'\n").recognised[:1] != module[:1]


def test_plotting_keyword_of_pymc3_before_37():
    # PyMC3 v3.7 pymc3/plots/__init__.py:40 warns and goes on; v3.11.4's :38-39 raises
    warned = explain_text("/env/lib/python3.7/site-packages/pymc3/plots/__init__.py:35: UserWarning: Keyword "
                          "argument `varnames` renamed to `var_names`, and will be removed in pymc3 3.8\n")
    assert [(f.cause, f.confidence, f.warning) for f in warned.recognised] == \
        [("pymc3-version-mismatch", "medium", True)]
    raised = explain_text("    pm.traceplot(trace, varnames=['p'])\n"
                          "DeprecationWarning: The `varnames` kwarg was renamed to `var_names`.\n")
    assert [(f.cause, f.warning) for f in raised.recognised] == [("pymc3-version-mismatch", False)]
    assert "refuses" in raised.recognised[0].evidence[-1].note


def test_a_summary_column_of_pymc3_before_38():
    # PyMC3 v3.7 pymc3/stats.py:755-757 named the interval columns of pm.summary; pandas' KeyError as a
    # notebook shows it when 3.8's ArviZ table lacks them
    log = ("pandas/_libs/hashtable_class_helper.pxi in pandas._libs.hashtable.PyObjectHashTable.get_item()\n\n"
           "KeyError: 'hpd_2.5'\n")
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found] == [("pymc3-version-mismatch", "medium")] and found[0].asks
    assert "(3.7 and earlier)" in found[0].evidence[-1].note
    # a column of ArviZ's own table is no older release's
    assert explain_text(log.replace("hpd_2.5", "hdi_3%")).recognised == ()


def test_a_step_method_of_pymc3_before_30():
    # PyMC3 v3.0 pymc3/step_methods/gibbs.py:29-30 (every 3.x release warns so)
    log = ("/env/lib/python3.6/site-packages/ipykernel_launcher.py:3: DeprecationWarning: ElemwiseCategorical is "
           "deprecated, switch to CategoricalGibbsMetropolis.\n>ElemwiseCategorical: [assignment]\n")
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence, f.warning) for f in found] == [("pymc3-version-mismatch", "medium", True)]
    assert "before 3.0" in found[0].evidence[-1].note


# what PyMC 4's distributions return is a variable of Aesara's graph classes; real Theano 1.0.5 given one
AESARA_VARIABLE = ("import theano.tensor as tt\n"
                   "TensorVariable = type('TensorVariable', (), {'__module__': 'aesara.tensor.var'})\n"
                   "tt.stack([TensorVariable()])\n")


def test_real_theano_refuses_a_variable_of_aesara(legacy_python, theano_home, tmp_path):
    log = traceback_of(legacy_python("healthy37"), AESARA_VARIABLE, tmp_path, {"THEANO_FLAGS": "cxx="})
    assert "<class 'aesara.tensor.var.TensorVariable'>)" in log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found] == [("pymc4-beside-legacy-pymc3", "medium")]
    assert "aesara" in found[0].evidence[-1].note
    # an object of the code's own is no sign of another graph library
    own = log.replace("aesara.tensor.var", "model")
    assert own != log and "pymc4-beside-legacy-pymc3" not in {f.cause for f in explain_text(own).findings}


def test_in_instances_with_updates_need_theano_08(tmp_path):
    """Theano 0.7 and older refuse `theano.In` inputs beside updates or givens (rel-0.7
    theano/compile/function.py:242-249); real Theano 0.8.2 compiles such a function, so the message
    on code that passes In() means a Theano older than the code."""
    python = legacy_envs.env_python(legacy_envs.ensure_env("theano082_py27"))
    code = ("import theano, theano.tensor as T\nx = T.dscalar('x')\ns = theano.shared(0.0)\n"
            "f = theano.function([theano.In(x, value=1.0)], x, updates=[(s, s + x)])\nprint(f())")
    run = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=600, cwd=tmp_path,
                         env={"THEANO_FLAGS": f"cxx=,base_compiledir={tmp_path}", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and run.stdout.strip() == "1.0", run.stderr
    log = ('  File "SdA.py", line 226, in pretraining_functions\n    self.x: train_set_x[batch_begin: batch_end]\n'
           '  File "/usr/lib/python2.7/site-packages/theano/compile/function.py", line 248, in function\n'
           '    "In() instances and tuple inputs trigger the old "\n'
           "NotImplementedError: In() instances and tuple inputs trigger the old semantics, which disallow using "
           "updates and givens\n")
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("theano-too-old-for-code", "medium")]
    assert found[0].asks


@pytest.mark.parametrize("env", ["py27", "healthy37"])
def test_downsample_reached_as_an_attribute_is_the_removed_module(tmp_path, env):
    """Real Theano 1.0.5 on Python 2.7 and 3.7: `T.signal.downsample` (gone since 0.9) as code of the
    Theano 0.8 era reaches it; Python 2 does not name the module, the code line does."""
    python = str(legacy_envs.env_python(legacy_envs.ensure_env(env)))
    code = ("import theano.tensor as T\nimport theano.tensor.signal.pool\n"
            "op = T.signal.downsample.DownsampleFactorMax((2, 2), True)")
    log = traceback_of(python, code, tmp_path, {"THEANO_FLAGS": f"cxx=,base_compiledir={tmp_path}"})
    assert log.rstrip().endswith("has no attribute 'downsample'"), log
    found = explain_text(log).recognised
    assert [(f.cause, f.confidence) for f in found][:1] == [("theano-downsample-removed", "high")]
    unnamed = explain_text("AttributeError: 'module' object has no attribute 'downsample'\n").findings
    assert [(f.cause, f.confidence) for f in unnamed][:1] != [("theano-downsample-removed", "high")]
