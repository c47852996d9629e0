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


def test_malformed_table_reports_file_and_line(fake_profiles):
    fake_profiles["theano_compat.yaml"] = "rules:\n  - flavour: Theano\n    python: '>=3.12'\n    result: exploded\n"
    with pytest.raises(knowledge.KnowledgeError, match=r"profiles/theano_compat.yaml:2: `result`"):
        knowledge.compat_rules()


def test_invalid_yaml_and_bad_range_are_reported(fake_profiles):
    fake_profiles["signatures.yaml"] = "signatures: [\n"
    fake_profiles["theano_compat.yaml"] = "rules:\n  - {flavour: Theano, numpy: 'one', result: broken}\n"
    with pytest.raises(knowledge.KnowledgeError, match="not valid YAML"):
        knowledge.signatures()
    with pytest.raises(knowledge.KnowledgeError, match=r":2: `numpy` is not a version range"):
        knowledge.compat_rules()
