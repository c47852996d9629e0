"""The table of what the instances of Theano, Lasagne and Keras classes have in each release
(profiles/api_attrs.yaml, tools/api_attrs.py) and what `explain` makes of `'X' object has no
attribute 'y'`: the table is re-read from real installed Theano releases (their files, with `ast`;
never imported here), and the messages are the ones real Theano prints in the cached legacy
environments, among them an op pickled by Theano 0.8.2 and loaded by Theano 1.0.5."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.explain_tables import printed, traceback_of
from theanodoctor import kb_api_attrs, kb_api_eras
from theanodoctor.explain import explain_text
from theanodoctor.sources import problem

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import api_attrs  # noqa: E402  (tools/ is no package)
import api_eras  # noqa: E402
import api_walk  # noqa: E402


def _attr_findings(text: str):
    return [f for f in explain_text(text).findings if "api-era" in f.signatures]


@pytest.mark.parametrize(("env", "release"), [("theano082_py27", "0.8.2"), ("healthy37", "1.0.5")])
def test_the_attribute_table_matches_an_installed_release(legacy_python: Callable[[str], str], env: str,
                                                           release: str) -> None:
    python = legacy_python(env)
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True, timeout=60).stdout.strip())
    files = {str(p.relative_to(site)): p.read_text(encoding="utf-8", errors="replace")
             for p in (site / "theano").rglob("*.py") if not api_eras._private(str(p.relative_to(site)))}
    instances = api_attrs._instances(api_eras.walk_release(files, python if "py27" in env else None))
    project, classes = kb_api_attrs.projects()["theano"]
    index, checked = project.releases.index(release), 0
    for name, rows in classes.items():
        for row in rows:
            head, *tokens = row.split(" | ")
            module, spans = head.split()
            if index not in kb_api_eras.release_indices(spans, project.releases):
                continue
            for token in tokens:
                attribute, have, _ = token.split()
                assert (attribute in instances[(module, name)]) == \
                    (index in kb_api_eras.release_indices(have, project.releases)), (name, token)
                checked += 1
    assert checked > 1000


def test_the_walker_reads_what_methods_set_on_self_and_the_bases() -> None:
    source = ("class Layer(object):\n    def __init__(self):\n        self.name = None\n"
              "class Conv(Layer):\n    kind = 'conv'\n    def __init__(self, me=None):\n"
              "        if me:\n            self.pad, self.stride = 1, 2\n"
              "    def flip(this):\n        this.flipped += 1\n")
    walked = {"m": ("m.py", api_walk.walk(source, "m", False))}
    conv = api_attrs._instances(walked)[("m", "Conv")]
    assert {a: line for a, (_, line) in conv.items()} == {
        "name": 3, "kind": 4, "pad": 8, "stride": 8, "flip": 9, "flipped": 10}


def test_an_op_pickled_by_theano_082_and_loaded_by_1_0_5(legacy_python: Callable[[str], str], theano_home: Path,
                                                          tmp_path: Path) -> None:
    # Pool's `ndim` came in Theano 0.9.0: 1.0.5's own code (Op.__str__) reads it from an op 0.8.2 made
    saved = tmp_path / "pool.pkl"
    printed(legacy_python("theano082_py27"), "import pickle\nfrom theano.tensor.signal.pool import Pool\n"
            f"pickle.dump(Pool(ds=(2, 2), ignore_border=True), open({str(saved)!r}, 'wb'), 2)\n")
    assert saved.is_file()
    text = traceback_of(legacy_python("py27"), f"import pickle\nop = pickle.load(open({str(saved)!r}, 'rb'))\n"
                        "print(op)", tmp_path)
    assert text.rstrip().endswith("AttributeError: 'Pool' object has no attribute 'ndim'")
    (first,) = _attr_findings(text)
    assert (first.cause, first.confidence) == ("theano-too-new-for-code", "medium")
    assert "a Theano older than 0.9.0 made" in first.details[0] and "unpickled" in first.details[0]
    assert any("theano/gof/utils.py" in e.text for e in first.evidence)  # the frame that read it
    assert first.signature_sources == ("Theano rel-0.9.0 theano/tensor/signal/pool.py:434",)
    assert all(problem(source) is None for source in first.signature_sources)


def test_the_same_attribute_used_by_the_code_needs_a_newer_theano(legacy_python: Callable[[str], str],
                                                                  theano_home: Path, tmp_path: Path) -> None:
    # run as a script, so the traceback shows its code line (which names Theano)
    text = traceback_of(legacy_python("theano082_py27"), "import theano.tensor.signal.pool\n"
                        "print(theano.tensor.signal.pool.Pool(ds=(2, 2)).ndim)", tmp_path)
    assert text.rstrip().endswith("AttributeError: 'Pool' object has no attribute 'ndim'")
    (first,) = _attr_findings(text)
    assert (first.cause, first.confidence) == ("theano-too-old-for-code", "medium")
    assert "install Theano 0.9.0 or newer" in first.details[0]
    # nothing in the log names Theano: the class may be another library's
    (bare,) = _attr_findings("AttributeError: 'Pool' object has no attribute 'ndim'")
    assert bare.confidence == "low"
    assert not _attr_findings("AttributeError: 'Pool' object has no attribute 'workers'")  # no release has it


def test_the_class_names_read_from_the_text_are_the_tables_classes() -> None:
    # what lets `'NoneType' object has no attribute ...` skip the parse of the whole table
    assert kb_api_attrs.class_names() == {name for _, classes in kb_api_attrs.projects().values() for name in classes}
    assert "NoneType" not in kb_api_attrs.class_names() and not kb_api_attrs.lookup("NoneType", "shape")


# a Keras 1 custom layer: it reads what Keras 1's layers set in __init__ (`initial_weights`, gone in Keras 2)
KERAS1_SUBCLASS = ("from keras.layers import Input, LSTM\n"
                   "class PeepholeLSTM(LSTM):\n"
                   "    def build(self, input_shape):\n"
                   "        if self.initial_weights is not None:\n"
                   "            self.set_weights(self.initial_weights)\n"
                   "PeepholeLSTM(4)(Input((5, 3)))\n")


def test_the_codes_subclass_of_a_keras_1_layer_on_real_keras_208(legacy_python: Callable[[str], str],
                                                                  theano_home: Path, tmp_path: Path) -> None:
    # Keras 1.2.2's LSTM objects have it, so the subclass was written for Keras 1
    assert printed(legacy_python("keras122_th09"), "from keras.layers import LSTM\n"
                   "print(hasattr(LSTM(4), 'initial_weights'))", KERAS_BACKEND="theano").split()[-1] == "True"
    text = traceback_of(legacy_python("keras208_th09"), KERAS1_SUBCLASS, tmp_path, {"KERAS_BACKEND": "theano"})
    assert text.rstrip().endswith("AttributeError: 'PeepholeLSTM' object has no attribute 'initial_weights'")
    assert "keras/layers/recurrent.py" in text  # the traceback runs through Keras' recurrent layers
    (first,) = _attr_findings(text)
    assert (first.cause, first.confidence) == ("keras-version-mismatch", "medium")
    assert "keras.layers.recurrent (" in first.details[0] and "`LSTM`" in first.details[0]
    assert "install Keras 1.2.2 (the newest release with it)" in first.details[0]
    # the last frame in Keras' own code: Keras read it, not the code (no subclass written for another release)
    library_last = text.replace('File "snippet.py", line 4, in build',
                                'File "/env/lib/python3.6/site-packages/keras/layers/recurrent.py", line 9, in build')
    assert library_last != text and not _attr_findings(library_last)
    # Python's own None is no subclass of a layer: nothing is said of it
    assert not _attr_findings(text.replace("'PeepholeLSTM' object", "'NoneType' object"))
    # a class of the code's whose traceback runs through no library module: nothing to take it for
    assert not _attr_findings('Traceback (most recent call last):\n  File "snippet.py", line 4, in build\n'
                              "AttributeError: 'PeepholeLSTM' object has no attribute 'initial_weights'")


def test_keras_training_calls_in_the_code_name_keras_where_the_log_does_not() -> None:
    # IPython's frame of a notebook training a Keras 1 model on a Keras 1 iterator's count (`.N`, Keras
    # 1.0.4-1.2.0); nothing else names Keras
    frame = ("<ipython-input-3-8c242dc5aa18> in fit_model(model, batches, nb_epoch)\n"
             "----> 2     model.fit_generator(batches, samples_per_epoch=batches.N, nb_epoch=nb_epoch)\n\n")
    message = "AttributeError: 'NumpyArrayIterator' object has no attribute 'N'\n"
    (named,) = _attr_findings(frame + message)
    assert (named.cause, named.confidence) == ("keras-version-mismatch", "medium")
    (alone,) = _attr_findings(message)
    assert alone.confidence == "low" and any("the log does not name Keras" in a for a in alone.asks)
