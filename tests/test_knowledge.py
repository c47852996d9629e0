"""The YAML knowledge tables load, typed, and a malformed table names its file and line."""

from __future__ import annotations

import pytest

from theanodoctor import knowledge


def test_tables_load_with_sources():
    rules = knowledge.compat_rules()
    assert rules and all(r.source for r in rules)
    assert {r.flavour for r in rules} == {"Theano", "Theano-PyMC"}
    assert knowledge.verified_stacks() and knowledge.signatures()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AttributeError: module 'numpy' has no attribute 'bool'.", "numpy-bool-alias"),
        ("AttributeError: module 'numpy.distutils.__config__' has no attribute 'blas_opt_info'",
         "numpy-blas-opt-info"),
        ('ValueError: Invalid value ("cpu # later gpu") for configuration variable "device".',
         "config-inline-comment"),
        ('ValueError: Invalid value ("true") for configuration variable "dnn.enabled".',
         "config-invalid-value"),
        ("configparser.MissingSectionHeaderError: File contains no section headers.", "theanorc-no-section"),
        ("something nobody has seen", None),
    ],
)
def test_diagnose_picks_the_specific_signature(text, expected):
    found = knowledge.diagnose(text)
    assert (found.id if found else None) == expected


def test_malformed_table_reports_file_and_line(monkeypatch):
    bad = "rules:\n  - flavour: Theano\n    python: '>=3.12'\n    result: exploded\n"
    monkeypatch.setattr(knowledge.resources, "files", lambda pkg: _FakeDir({"theano_compat.yaml": bad}))
    knowledge.compat_rules.cache_clear()
    try:
        with pytest.raises(knowledge.KnowledgeError, match=r"profiles/theano_compat.yaml:2: `result`"):
            knowledge.compat_rules()
    finally:
        knowledge.compat_rules.cache_clear()


def test_invalid_yaml_and_bad_range_are_reported(monkeypatch):
    tables = {
        "signatures.yaml": "signatures: [\n",
        "theano_compat.yaml": "rules:\n  - {flavour: Theano, numpy: 'one', result: broken}\n",
    }
    monkeypatch.setattr(knowledge.resources, "files", lambda pkg: _FakeDir(tables))
    knowledge.signatures.cache_clear()
    knowledge.compat_rules.cache_clear()
    try:
        with pytest.raises(knowledge.KnowledgeError, match="not valid YAML"):
            knowledge.signatures()
        with pytest.raises(knowledge.KnowledgeError, match=r":2: `numpy` is not a version range"):
            knowledge.compat_rules()
    finally:
        knowledge.signatures.cache_clear()
        knowledge.compat_rules.cache_clear()


class _FakeDir:
    """Stands in for the installed profiles folder, holding in-memory table texts."""

    def __init__(self, files):
        self.files = files

    def joinpath(self, name):
        return _FakeFile(self.files[name])


class _FakeFile:
    def __init__(self, text):
        self.text = text

    def read_text(self, encoding="utf-8"):
        return self.text
