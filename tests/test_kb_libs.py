"""The library, cuDNN and host-compiler tables load once, typed; malformed ones name file and line."""

from __future__ import annotations

import pytest

from theanodoctor import kb_libs, knowledge


def test_tables_load_typed_with_a_source_on_every_row():
    rows = [*kb_libs.library_names(), kb_libs.loader_rule(), *kb_libs.guide_aliases(), kb_libs.theano_cudnn(),
            *kb_libs.cudnn_builds(), *kb_libs.cudnn_files(), *kb_libs.gcc_limits(), *kb_libs.msvc_ranges()]
    assert all(row.source.strip() for row in rows)
    assert len([r for r in kb_libs.library_names() if r.os == "Windows"]) == 12
    assert len([r for r in kb_libs.library_names() if r.os == "Linux"]) == 9
    assert (len(kb_libs.cudnn_builds()), len(kb_libs.cudnn_files())) == (18, 5)
    assert (len(kb_libs.gcc_limits()), len(kb_libs.msvc_ranges())) == (15, 4)
    assert kb_libs.loader_rule() is kb_libs.loader_rule()  # loaded once


@pytest.mark.parametrize("driver, nvrtc, cublas", [
    ((10, 2), ["nvrtc64_102.dll", "nvrtc64_91.dll", "nvrtc64_90.dll", "nvrtc64_80.dll", "nvrtc64_75.dll",
               "nvrtc64_70.dll"], "cublas64_102.dll"),
    ((9, 1), ["nvrtc64_91.dll", "nvrtc64_90.dll", "nvrtc64_80.dll", "nvrtc64_75.dll", "nvrtc64_70.dll"],
     "cublas64_91.dll"),
    ((9, 0), ["nvrtc64_90.dll", "nvrtc64_80.dll", "nvrtc64_75.dll", "nvrtc64_70.dll"], "cublas64_90.dll"),
    ((12, 2), ["nvrtc64_122.dll", "nvrtc64_91.dll", "nvrtc64_90.dll", "nvrtc64_80.dll", "nvrtc64_75.dll",
               "nvrtc64_70.dll"], "cublas64_122.dll"),
])
def test_libgpuarray_076_asks_for_driver_derived_names_then_older_fallbacks(driver, nvrtc, cublas):
    rule = kb_libs.loader_rule()
    attempts = rule.attempts(driver)
    assert [rule.nvrtc(v) for v in attempts] == nvrtc
    assert rule.cublas(attempts[0]) == cublas
    assert rule.linux == ("libcuda.so", "libnvrtc.so", "libcublas.so")
    assert rule.windows_driver == "nvcuda.dll"


@pytest.mark.parametrize("os_name, cuda, lib, name", [
    ("Windows", "10.2", "nvrtc", "nvrtc64_102_0.dll"),
    ("Windows", "10.2", "cublas", "cublas64_10.dll"),
    ("Windows", "10.1", "cudart", "cudart64_101.dll"),
    ("Windows", "10.0", "cublas", "cublas64_100.dll"),
    ("Windows", "9.2", "nvrtc", "nvrtc64_92.dll"),
    ("Windows", "11.5", "nvrtc", "nvrtc64_112_0.dll"),
    ("Windows", "11.5", "nvrtc_builtins", "nvrtc-builtins64_115.dll"),
    ("Windows", "12.6", "cudart", "cudart64_12.dll"),
    ("Windows", "13.0", "cufft", None),  # not verified: left out, never guessed
    ("Linux", "10.1", "cublas", "libcublas.so.10"),
    ("Linux", "11.8", "nvrtc", "libnvrtc.so.11.2"),
])
def test_library_file_names(os_name, cuda, lib, name):
    row = kb_libs.names_for(os_name, cuda)
    assert row is not None and row.name(lib, cuda) == name


def test_inferred_names_are_marked_and_unknown_versions_have_no_row():
    assert "cudart" in kb_libs.names_for("Windows", "9.1").inferred
    assert "cublas" not in kb_libs.names_for("Windows", "10.2").inferred
    assert kb_libs.names_for("Windows", "7.5") is None
    assert kb_libs.names_for("Windows", None) is None


def test_guide_aliases_concern_cuda_101_and_102_only():
    assert set(kb_libs.aliases_for("10.2").names.values()) == {
        "cublas64_100.dll", "cudart64_100.dll", "cufft64_100.dll", "curand64_100.dll", "cusolver64_100.dll"}
    assert kb_libs.aliases_for("10.1") is not None
    assert kb_libs.aliases_for("10.0") is None and kb_libs.aliases_for("11.0") is None


def test_theano_cudnn_rules_quote_theano():
    rules = kb_libs.theano_cudnn()
    assert (rules.min_version, rules.warn_from, rules.unusable_from_major) == (5000, 7200, 8)
    assert rules.windows_names == ("cudnn64_7.dll", "cudnn64_6.dll", "cudnn64_5.dll")
    assert rules.too_old % 4007 == "cuDNN version is too old. Update to v5* or higher, was 4007."
    assert rules.too_recent.startswith("Your cuDNN version is more recent than Theano.")


@pytest.mark.parametrize("cudnn, cuda, unverified", [
    ("7.6.5", ("9.0", "10.1", "10.2"), ("9.2", "10.0")),
    ("7.6.4", ("9.0", "9.2", "10.0", "10.1"), ()),
    ("7.1.4", ("8.0", "9.0", "9.1", "9.2"), ()),
    ("8.0.5", ("10.2", "11.0", "11.1"), ()),
])
def test_cudnn_builds(cudnn, cuda, unverified):
    build = kb_libs.build_for(cudnn)
    assert build is not None and (build.cuda, build.cuda_unverified) == (cuda, unverified)


def test_cudnn_builds_without_a_row_and_the_best_cudnn7_per_cuda():
    assert kb_libs.build_for("7.3.1") is None
    assert kb_libs.cudnn_for_cuda("10.2", 8).label == "7.6.5"
    assert kb_libs.cudnn_for_cuda("9.1", 8).label == "7.1.x"
    assert kb_libs.cudnn_for_cuda("11.8", 8) is None
    assert kb_libs.cudnn_files_for(7).windows == ("cudnn64_7.dll",)
    assert kb_libs.cudnn_files_for(7).linux == "libcudnn.so.7"
    assert "linux" in kb_libs.cudnn_files_for(5).unverified


@pytest.mark.parametrize("cuda, full, maxes", [
    ("10.2", "10.2.89", ["8"]),
    ("10.1", None, ["8"]),
    ("11.0", None, ["9"]),
    ("11.4", "11.4.0", ["10"]),
    ("11.4", None, ["10", "11.1"]),  # the update release decides; both rows come back
    ("11.8", "11.8.89", ["11"]),
    ("12.3", None, ["12"]),
])
def test_gcc_limits(cuda, full, maxes):
    assert [r.max_gcc for r in kb_libs.gcc_limits_for(cuda, full)] == maxes


def test_gcc_comparison_and_the_cuda10_error_text():
    assert kb_libs.gcc_newer_than("9.1.0", "8") and not kb_libs.gcc_newer_than("8.5.0", "8")
    assert kb_libs.gcc_newer_than("11.2.0", "11.1") and not kb_libs.gcc_newer_than("11.1.0", "11.1")
    assert kb_libs.gcc_older_than("5.4.0", "6") and not kb_libs.gcc_older_than("6.1.0", "6")
    row = kb_libs.gcc_limits_for("10.2")[0]
    assert row.error_text == "#error -- unsupported GNU version! gcc versions later than 8 are not supported!"


def test_msvc_rows_only_where_verified():
    assert "2017 to 2022" in kb_libs.msvc_range_for("12.2").visual_studio
    assert kb_libs.msvc_range_for("10.2") is None


# -- malformed tables --------------------------------------------------------------------------


LOADER = """\
loader:
  - id: x
    windows_driver: nvcuda.dll
    windows_nvrtc: "nvrtc64_{major}{minor}.dll"
    windows_cublas: "cublas64_{major}{minor}.dll"
    fallbacks: ["9.1"]
    linux: [libcuda.so]
    source: x.io/s
"""


@pytest.mark.parametrize("name, text, loader, expected", [
    ("cuda_libraries.yaml", "windows:\n  - cuda: '==10.2'\n    files: {nvrtc: x.dll}\n",
     kb_libs.library_names, r"profiles/cuda_libraries.yaml:2: `source` must be a non-empty string"),
    ("cuda_libraries.yaml", "windows:\n  - cuda: 'ten'\n    files: {nvrtc: x.dll}\n    source: s\n",
     kb_libs.library_names, r"cuda_libraries.yaml:2: `cuda` is not a version range"),
    ("cuda_libraries.yaml", "windows:\n  - source: s\n    files: {nvrtc: x.dll}\n",
     kb_libs.library_names, r"cuda_libraries.yaml:2: `cuda` is required"),
    ("cuda_libraries.yaml", "windows:\n  - cuda: '==1.0'\n    files: [x.dll]\n    source: s\n",
     kb_libs.library_names, r"cuda_libraries.yaml:2: `files` must map library names to file names"),
    ("cuda_libraries.yaml", "windows: []\nlinux:\n  - cuda: '==1.0'\n    files: {nvrtc: a}\n"
                            "    inferred: [cublas]\n    source: s\n",
     kb_libs.library_names, r"cuda_libraries.yaml:3: `inferred` names cublas"),
    ("cuda_libraries.yaml", LOADER.replace("{minor}", ""), kb_libs.loader_rule,
     r"cuda_libraries.yaml:2: `windows_nvrtc` needs \{major\} and \{minor\}"),
    ("cuda_libraries.yaml", LOADER.replace('["9.1"]', '["9"]'), kb_libs.loader_rule,
     r"cuda_libraries.yaml:2: `fallbacks` entries must be major.minor"),
    ("cuda_libraries.yaml", LOADER + LOADER.replace("loader:\n", ""), kb_libs.loader_rule,
     r"expected exactly one entry under `loader:`"),
    ("cudnn.yaml", "builds:\n  - cudnn: '==7.6.5'\n    label: v7\n    cuda: ['10.2']\n    source: s\n",
     kb_libs.cudnn_builds, r"cudnn.yaml:2: `label` must start with the major version"),
    ("cudnn.yaml", "builds:\n  - cudnn: '==7.6.5'\n    label: '7.6.5'\n    cuda: [10.2]\n    source: s\n",
     kb_libs.cudnn_builds, r"cudnn.yaml:2: `cuda` must be a list of strings"),
    ("cudnn.yaml", "files:\n  - major: seven\n    windows: [a]\n    linux: b\n    source: s\n",
     kb_libs.cudnn_files, r"cudnn.yaml:2: `major` must be an integer"),
    ("cudnn.yaml", "theano:\n  - id: t\n    min_version: 5000\n    warn_from: 7200\n    unusable_from_major: 8\n"
                   "    windows_names: []\n", kb_libs.theano_cudnn, r"cudnn.yaml:2: `windows_names` must not be empty"),
    ("host_compilers.yaml", "gcc:\n  - cuda: '<9'\n    max_gcc: eight\n    source: s\n",
     kb_libs.gcc_limits, r"host_compilers.yaml:2: `max_gcc` must be a version number"),
    ("host_compilers.yaml", "msvc: {cuda: '<9'}\n", kb_libs.msvc_ranges,
     r"profiles/host_compilers.yaml: expected a list under `msvc:`"),
    ("host_compilers.yaml", "gcc: [\n", kb_libs.gcc_limits, r"profiles/host_compilers.yaml: not valid YAML"),
])
def test_malformed_tables_name_file_and_line(fake_profiles, name, text, loader, expected):
    fake_profiles[name] = text
    with pytest.raises(knowledge.KnowledgeError, match=expected):
        loader()
