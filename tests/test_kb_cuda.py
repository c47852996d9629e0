"""The CUDA knowledge tables: they load typed, carry the driver minimums NVIDIA states, and a
malformed table names its file and line."""

from __future__ import annotations

import pytest

from theanodoctor import kb_cuda, knowledge


def test_tables_load_typed_with_a_source_on_every_row():
    table = kb_cuda.driver_table()
    assert len(table.releases) >= 50 and len(table.families) == 4
    assert all(r.source and r.where.startswith("profiles/cuda_driver.yaml:") for r in table.releases)
    assert all(f.source for f in table.families)
    archs = kb_cuda.architectures()
    assert {"3.7", "7.5", "8.6", "9.0"} <= set(archs) and all(a.source for a in archs.values())
    names = kb_cuda.gpu_names()
    assert len(names.gpus) >= 100 and all(g.source for g in names.gpus)
    assert kb_cuda.driver_table() is table  # loaded once


@pytest.mark.parametrize("cuda, full, linux, windows", [
    # NVIDIA's table, minimum driver Linux / Windows
    ("9.0", "9.0.176", "384.81", "385.54"),
    ("9.2", "9.2.88", "396.26", "397.44"),
    ("10.0", None, "410.48", "411.31"),
    ("10.1", "10.1.243", "418.39", "418.96"),
    ("10.2", "10.2.89", "440.33", "441.22"),
    ("11.4", None, "450.80.02", "452.39"),
    ("11.8", "11.8.89", "450.80.02", "452.39"),
    ("12.0", None, "525.60.13", "527.41"),
    ("12.6", None, "525.60.13", "527.41"),
    ("13.0", None, "580", "580"),
])
def test_hard_minimums_are_the_facts(cuda, full, linux, windows):
    assert kb_cuda.driver_need(cuda, full, "Linux").hard.version == linux
    assert kb_cuda.driver_need(cuda, full, "Windows").hard.version == windows


def test_release_rows_refine_the_minimum():
    # a build number picks its exact release; without one the lowest minimum of the minor wins
    assert kb_cuda.driver_need("9.2", "9.2.148", "Linux").hard.version == "396.37"
    assert kb_cuda.driver_need("9.2", None, "Linux").hard.version == "396.26"
    assert kb_cuda.driver_need("8.0", "8.0.61", "Windows").hard.version == "376.51"
    # CUDA 11+: below the release's own driver only minor-version compatibility is left
    need = kb_cuda.driver_need("11.8", "11.8.89", "Linux")
    assert need.hard.basis == "minor-compat" and need.release.version == "520.61.05"
    assert need.release.basis == "installer"
    assert kb_cuda.driver_need("11.8", None, "Windows").release is None  # Windows row unverified
    assert kb_cuda.driver_need("11.2", None, "Windows").release.version == "460.82"
    assert kb_cuda.driver_need("13.0", None, "Linux").hard.exact is False
    assert kb_cuda.driver_need("10.2", None, "Linux").release is None  # no minor compat before 11


def test_unknown_toolkit_and_os():
    assert kb_cuda.driver_need("6.5", None, "Linux") == kb_cuda.DriverNeed(None, None)
    assert kb_cuda.driver_need("10.2", None, "Darwin") is None


@pytest.mark.parametrize("cc, cuda, supported, needs", [
    ("7.5", "9.2", False, "CUDA >= 10.0"),
    ("7.5", "10.0", True, ""),
    ("8.0", "10.2", False, "CUDA >= 11.0"),
    ("8.6", "10.2", False, "CUDA >= 11.1"),
    ("8.6", "11.1", True, ""),
    ("8.9", "11.7", False, "CUDA >= 11.8"),
    ("9.0", "11.8", True, ""),
    ("3.0", "10.2", True, ""),
    ("3.0", "11.0", False, "CUDA <= 10.2"),
    ("3.7", "11.8", True, ""),
    ("3.7", "12.0", False, "CUDA <= 11.8"),
    ("3.5", "12.4", False, "CUDA <= 11.8"),
    ("5.0", "12.9", True, ""),
    ("7.2", "13.0", False, "CUDA <= 12.9"),
    ("6.1", "13.0", False, "CUDA <= 12.9"),
    ("7.5", "13.0", True, ""),
    ("2.0", "7.5", True, ""),
    ("9.9", "12.0", None, ""),
])
def test_architecture_support(cc, cuda, supported, needs):
    verdict = kb_cuda.arch_support(cc, cuda)
    assert (verdict.supported, verdict.needs) == (supported, needs)


@pytest.mark.parametrize("name, cc", [
    ("NVIDIA GeForce RTX 3090", "8.6"),
    ("GeForce GTX 1660 SUPER", "7.5"),
    ("Tesla K80", "3.7"),
    ("NVIDIA H200", "9.0"),
    ("NVIDIA H100 80GB HBM3", "9.0"),
    ("Tesla V100-SXM2-16GB", "7.0"),
    ("A100-PCIE-40GB", "8.0"),
    ("geforce gtx 1080 ti", "6.1"),
    ("GeForce GTX 1080 with Max-Q Design", "6.1"),
    ("NVIDIA GeForce RTX 3080 Ti Laptop GPU", "8.6"),
    ("GeForce GTX TITAN X", "5.2"),
    ("NVIDIA TITAN X (Pascal)", "6.1"),
    ("Quadro RTX 6000", "7.5"),
    ("Tesla P100-PCIE-16GB", "6.0"),
    ("NVIDIA A10", "8.6"),
    # near misses must not match a shorter name with another capability
    ("NVIDIA RTX 6000 Ada Generation", None),
    ("NVIDIA A10G", None),
    ("Tesla V100S-PCIE-32GB", None),
    ("NVIDIA GeForce RTX 2050", None),
    ("", None),
])
def test_gpu_name_lookup(name, cc):
    entry = kb_cuda.cc_from_name(name)
    assert (entry.cc if entry else None) == cc


def test_longest_name_wins():
    assert kb_cuda.cc_from_name("GeForce RTX 3080 Ti").name == "RTX 3080 Ti"
    assert kb_cuda.cc_from_name("GeForce GTX 1050 Ti").name == "GTX 1050 Ti"


def test_version_helpers():
    assert kb_cuda.vtuple("440.33.01") == (440, 33, 1)
    assert kb_cuda.vtuple("n/a") is None
    assert kb_cuda.vcmp((440, 33), (440, 33, 0)) == 0
    assert kb_cuda.vcmp((440, 32, 99), (440, 33)) == -1
    assert kb_cuda.minor_of("10.2.89") == (10, 2) and kb_cuda.minor_of("12") == (12, 0)


# --- malformed tables --------------------------------------------------------------------------

@pytest.fixture
def tables(fake_profiles: dict[str, str]) -> dict[str, str]:
    return fake_profiles


GOOD_DRIVER = """\
releases:
  - {cuda: "10.2", label: "10.2", linux: "440.33", windows: "441.22", basis: nvidia-table, source: x.io/s}
minor_compat:
  - {cuda: ">=12,<13", label: "12.x", linux: "525.60.13", exact: true, source: x.io/s}
"""


@pytest.mark.parametrize("text, message", [
    (GOOD_DRIVER.replace('"440.33"', '"440,33"'), r"profiles/cuda_driver.yaml:2: `linux` must be a dotted version"),
    (GOOD_DRIVER.replace('linux: "440.33", windows: "441.22", ', ""), r"cuda_driver.yaml:2: a row needs `linux`"),
    (GOOD_DRIVER.replace("nvidia-table", "blog"), r"cuda_driver.yaml:2: `basis` must be one of"),
    (GOOD_DRIVER.replace('cuda: "10.2"', "cuda: 10.2"), r"cuda_driver.yaml:2: `cuda` must be a dotted version"),
    (GOOD_DRIVER.replace(", source: x.io/s}", "}", 1), r"cuda_driver.yaml:2: `source` must be a non-empty string"),
    (GOOD_DRIVER.replace('">=12,<13"', '"twelve"'), r"cuda_driver.yaml:4: `cuda` is not a version range"),
    (GOOD_DRIVER.replace("exact: true", "exact: maybe"), r"cuda_driver.yaml:4: `exact` must be true or false"),
    (GOOD_DRIVER.replace("minor_compat:", "families:"), r"cuda_driver.yaml: expected a list under `minor_compat:`"),
    ("releases: [\n", "cuda_driver.yaml: not valid YAML"),
])
def test_malformed_driver_table(tables, text, message):
    tables["cuda_driver.yaml"] = text
    with pytest.raises(knowledge.KnowledgeError, match=message):
        kb_cuda.driver_table()


@pytest.mark.parametrize("text, message", [
    ("architectures:\n  - {cc: '8.6', family: Ampere, added: '11.1', source: x.io/s}\n"
     "  - {cc: '8.6', family: Ampere, added: '11.1', source: x.io/s}\n",
     r"gpu_arch.yaml:3: compute capability 8.6 is listed twice"),
    ("architectures:\n  - {cc: '3.7', family: Kepler, added: '12.0', last: '11.8', source: x.io/s}\n",
     r"gpu_arch.yaml:2: `added` 12.0 is after `last` 11.8"),
    ("architectures:\n  - {cc: sm_86, family: Ampere, source: x.io/s}\n", r"gpu_arch.yaml:2: `cc` must be a dotted"),
    ("architectures:\n  - {cc: '8.6', added: '11.1', source: x.io/s}\n", r"gpu_arch.yaml:2: `family` must be"),
])
def test_malformed_arch_table(tables, text, message):
    tables["gpu_arch.yaml"] = text
    with pytest.raises(knowledge.KnowledgeError, match=message):
        kb_cuda.architectures()


NAMES_HEAD = "vendor_words: [nvidia]\nsuffix_patterns: ['\\d+gb']\ngpus:\n"


@pytest.mark.parametrize("text, message", [
    (NAMES_HEAD + "  - {cc: '8.6', names: [RTX 3090], source: x.io/s}\n"
     "  - {cc: '7.5', names: [NVIDIA RTX 3090], source: x.io/s}\n",
     r"gpu_names.yaml:5: 'NVIDIA RTX 3090' is listed as 8.6 and 7.5"),
    (NAMES_HEAD + "  - {cc: '8.6', names: [], source: x.io/s}\n", r"gpu_names.yaml:4: `names` must list at least one"),
    (NAMES_HEAD + "  - {cc: '8.6', names: RTX 3090, source: x.io/s}\n", r"gpu_names.yaml:4: `names` must be a list"),
    (NAMES_HEAD + "  - {cc: '8.6', names: [NVIDIA], source: x.io/s}\n",
     r"gpu_names.yaml:4: GPU name 'NVIDIA' is empty"),
    (NAMES_HEAD.replace("'\\d+gb'", "'(gb'")
     + "  - {cc: '8.6', names: [X], source: x.io/s}\n",
     r"suffix pattern '\(gb' is not"),
    ("gpus: []\n", r"gpu_names.yaml: expected a list of strings under `vendor_words:`"),
])
def test_malformed_names_table(tables, text, message):
    tables["gpu_names.yaml"] = text
    with pytest.raises(knowledge.KnowledgeError, match=message):
        kb_cuda.gpu_names()


def test_a_good_small_table_loads(tables):
    tables["cuda_driver.yaml"] = GOOD_DRIVER
    table = kb_cuda.driver_table()
    assert table.releases[0].where == "profiles/cuda_driver.yaml:2"
    assert table.families[0].windows is None
