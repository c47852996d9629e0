"""The scan tables (profiles/theano_api.yaml, profiles/frameworks.yaml): every row typed and
sourced, malformed rows named by file and line, and the rows behave as the markers they are."""

from __future__ import annotations

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from theanodoctor.knowledge import KnowledgeError
from theanodoctor.scan import frameworks, markers
from theanodoctor.scan.findings import Setting, Use
from theanodoctor.scan.model import evidence

HERE = evidence("m.py", 1, "x")


def test_every_marker_is_sourced_and_its_range_keeps_some_release():
    rows = markers.markers()
    assert len({m.id for m in rows}) == len(rows) >= 20
    releases = markers.releases()
    for marker in rows:
        assert "https://github.com/Theano/Theano/" in marker.source, marker.id
        assert any(SpecifierSet(marker.spec).contains(v, prereleases=True) for v in releases), marker.id
        assert not all(SpecifierSet(marker.spec).contains(v, prereleases=True) for v in releases), marker.id
    assert releases[0] == Version("0.6.0") and releases[-1] == Version("1.0.5")


def test_every_framework_row_is_sourced():
    rows = frameworks.frameworks()
    assert {f.name for f in rows} >= {"lasagne", "keras", "pymc3", "blocks", "fuel", "nolearn", "pylearn2"}
    for framework in rows:
        assert framework.source.startswith("https://") and framework.imports
        for pairing in framework.pairings:
            assert pairing.source.startswith("https://"), (framework.name, pairing.says)
    ceilings = frameworks.python2_ceilings()
    assert {c.name for c in ceilings} >= {"numpy", "scipy", "scikit-learn"}
    assert all(c.source.startswith("https://pypi.org/") and Version(c.last) for c in ceilings)


@pytest.mark.parametrize("name, keywords, expected", [
    ("theano.tensor.signal.downsample.max_pool_2d", (), {"signal-downsample"}),
    ("theano.tensor.signal.downsampled", (), set()),  # a prefix of a name is not that name
    ("theano.sandbox.cuda.dnn.dnn_conv", (), {"sandbox-cuda", "sandbox-cuda-dnn"}),
    ("theano.tensor.signal.pool.pool_2d", ("ws", "mode"), {"signal-pool", "pool-2d-ws"}),
    ("theano.tensor.signal.pool.pool_2d", ("ds",), {"signal-pool"}),
    ("theano.tensor.nnet.conv3d2d.conv3d", (), set()),
])
def test_uses_match_their_markers(name, keywords, expected):
    assert {m.id for m in markers.match_use(Use(name, keywords, HERE))} == expected


@pytest.mark.parametrize("key, value, expected", [
    ("device", "gpu", {"device-gpu"}), ("device", "gpu1", {"device-gpu"}), ("device", "cuda0", set()),
    ("lib.cnmem", "0.8", {"lib-cnmem"}), ("nvcc.fastmath", "True", {"nvcc-flags"}),
])
def test_settings_match_their_markers(key, value, expected):
    assert {m.id for m in markers.match_setting(Setting(key, value, HERE))} == expected


def test_a_malformed_marker_names_its_line(fake_profiles):
    fake_profiles["theano_api.yaml"] = ("releases: {versions: ['1.0.5']}\nmarkers:\n"
                                        "  - {id: a, kind: call, name: x.y, keyword: '(', spec: '<1', strength: hard,"
                                        " says: s, source: x.io/s}\n")
    with pytest.raises(KnowledgeError, match=r"profiles/theano_api.yaml:3: not a regular expression"):
        markers.markers()


def test_a_malformed_pairing_names_its_line(fake_profiles):
    fake_profiles["frameworks.yaml"] = ("frameworks:\n  - name: x\n    imports: [x]\n    says: s\n    source: s\n"
                                        "    pairings:\n      - {when: 'soon', subject: theano, spec: '<1',"
                                        " strength: hard, says: s, source: x.io/s}\n")
    with pytest.raises(KnowledgeError, match=r"profiles/frameworks.yaml:7: `when`"):
        frameworks.frameworks()
