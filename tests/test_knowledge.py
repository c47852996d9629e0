"""The YAML knowledge tables load, typed, and a malformed table names its file and line."""

from __future__ import annotations

import pytest

from theanodoctor import kb_causes, knowledge
from theanodoctor.diagnose import diagnose


def test_tables_load_with_sources():
    rules = knowledge.compat_rules()
    assert rules and all(r.source for r in rules)
    assert {r.flavour for r in rules} == {"Theano", "Theano-PyMC"}
    assert knowledge.verified_stacks() and kb_causes.signatures() and kb_causes.causes()


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
        ("configparser.MissingSectionHeaderError: File contains no section headers.\n"
         "file: '/home/bob/.theanorc', line: 1\n'\\ufeff[global]\\n'", "theanorc-bom"),
        ("ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n"
         "GpuArrayException: b'Could not load \"libcuda.so\": libcuda.so: cannot open shared object file'",
         "libcuda-missing"),
        ("something nobody has seen", None),
        ("KeyError: 'x'\nWARNING (theano.tensor.blas): Using NumPy C-API based implementation for BLAS functions.",
         None),
    ],
)
def test_diagnose_names_the_root_cause(text, expected):
    found = diagnose(text)
    assert (found.id if found else None) == expected


def test_malformed_table_reports_file_and_line(fake_profiles):
    fake_profiles["theano_compat.yaml"] = "rules:\n  - flavour: Theano\n    python: '>=3.12'\n    result: exploded\n"
    with pytest.raises(knowledge.KnowledgeError, match=r"profiles/theano_compat.yaml:2: `result`"):
        knowledge.compat_rules()


def test_invalid_yaml_and_bad_range_are_reported(fake_profiles):
    fake_profiles["causes.yaml"] = "causes: []\n"
    fake_profiles["signatures.yaml"] = "signatures: [\n"
    fake_profiles["theano_compat.yaml"] = "rules:\n  - {flavour: Theano, numpy: 'one', result: broken}\n"
    with pytest.raises(knowledge.KnowledgeError, match="not valid YAML"):
        kb_causes.signatures()
    with pytest.raises(knowledge.KnowledgeError, match=r":2: `numpy` is not a version range"):
        knowledge.compat_rules()


CAUSE = "causes:\n  - {id: a, title: t, cause: c, remedy: r, fix: %s, source: x.io/s}\n"


@pytest.mark.parametrize("causes, signatures, message", [
    (CAUSE % "rename-everything", "signatures: []\n", r"causes.yaml:2: `fix` must be one of the fix ids"),
    (CAUSE % "none", "signatures:\n  - {id: x, cause: b, contains: [t], confidence: high, source: x.io/s}\n",
     r"signatures.yaml:2: unknown cause `b`"),
    (CAUSE % "none", "signatures:\n  - {id: x, cause: a, contains: [t], confidence: sure, source: x.io/s}\n",
     r"signatures.yaml:2: `confidence` must be one of high, medium, low"),
    (CAUSE % "none", "signatures:\n  - {id: x, cause: a, contains: [], confidence: high, source: x.io/s}\n",
     r"signatures.yaml:2: `contains` needs at least one"),
    (CAUSE % "none", "signatures:\n" + "  - {id: x, cause: a, contains: [t], confidence: high, source: x.io/s}\n" * 2,
     r"signatures.yaml:3: signature `x` is defined twice"),
])
def test_malformed_catalogue_names_file_and_line(fake_profiles, causes, signatures, message):
    fake_profiles["causes.yaml"] = causes
    fake_profiles["signatures.yaml"] = signatures
    with pytest.raises(knowledge.KnowledgeError, match=message):
        kb_causes.signatures()


def test_a_regex_that_does_not_compile_names_file_and_line_when_first_used(fake_profiles):
    # compiled on first use (knowledge.Regex): a log reaches few of the catalogue's patterns
    fake_profiles["causes.yaml"] = CAUSE % "none"
    fake_profiles["keyword_renames.yaml"] = "keywords: []\n"
    fake_profiles["signatures.yaml"] = \
        "signatures:\n  - {id: x, cause: a, contains: [t], regex: '(', confidence: high, source: x.io/s}\n"
    (sig,) = kb_causes.signatures()
    with pytest.raises(knowledge.KnowledgeError, match=r"signatures.yaml:2: `regex`: the regex does not compile"):
        sig.match("t", "t")


def test_every_regex_of_the_catalogue_compiles():
    patterns = [r for sig in kb_causes.signatures() for r in (sig.regex, sig.code) if r is not None]
    assert len(patterns) > 500
    assert all(r.compiled().pattern == r.pattern for r in patterns)


def test_every_cause_and_signature_has_a_source_and_the_fix_vocabulary():
    causes = kb_causes.causes()
    assert all(c.source and c.remedy and c.title for c in causes.values())
    assert {c.fix for c in causes.values()} - {None} <= set(kb_causes.FIX_IDS)
    used = {s.cause for s in kb_causes.signatures()}
    assert all(s.source for s in kb_causes.signatures())
    # a cause no signature points at is only reachable through `explains`
    assert all(any(cid in c.explains for c in causes.values()) for cid in set(causes) - used)
