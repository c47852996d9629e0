"""The resolver against the real knowledge tables: pins, the rows each reason cites, conflicts
with their smallest sets of inputs and ways out. Table-driven."""

from __future__ import annotations

from typing import Any

import pytest

from theanodoctor import kb_stacks
from theanodoctor.resolver.inputs import InputError, build
from theanodoctor.resolver.resolve import check_profile, resolve


def _cited(reason: Any) -> set[str]:
    return {c.table + " " + c.key for c in reason.cites}


def _pins(res: Any) -> dict[str, str]:
    return {p.name: p.value for p in res.pins}


def _pin(res: Any, name: str) -> Any:
    return next(p for p in res.pins if p.name == name)


# --- resolved stacks ---------------------------------------------------------------------------

RESOLVED = [
    pytest.param(
        {"os": "windows", "gpu": "GTX 1660 SUPER"},
        {"python": "3.7", "numpy": "1.16.6", "scipy": "1.2.1", "theano": "Theano==1.0.5", "pygpu": "0.7.6",
         "cuda": "10.2", "cudnn": "7.6.5", "driver": ">= 441.22", "compiler": "m2w64-toolchain"},
        "win10-cuda10.2-py37",
        {"driver": "profiles/cuda_driver.yaml CUDA 10.2 (10.2.89)",
         "cudnn": "profiles/cudnn.yaml builds: cuDNN 7.6.5 for CUDA 9.0, 10.1, 10.2",
         "cuda": "profiles/gpu_arch.yaml cc 7.5 (Turing, sm_75): CUDA 10.0 and later",
         "python": "profiles/theano_compat.yaml verified: Theano + Python 3.7 + numpy 1.16.6 + scipy 1.2.1",
         "pygpu": "profiles/stacks.yaml pygpu: conda-forge (pygpu 0.7.6, Python <3.11,>=3.7)",
         "compiler": "profiles/stacks.yaml compilers: m2w64-toolchain"},
        {"cuda-dll-aliases"}, id="windows-1660super-guides-stack"),
    pytest.param(
        {"os": "windows", "cuda": "10.1"},
        {"python": "3.7", "cuda": "10.1", "cudnn": "7.6.5", "driver": ">= 418.96"},
        "win10-cuda10.1-py37",
        {"driver": "profiles/cuda_driver.yaml CUDA 10.1 (10.1.105 and updates 10.1.168, 10.1.243)"},
        {"cuda-dll-aliases"}, id="windows-cuda101-sibling"),
    pytest.param(
        {"os": "linux", "gpu": "GeForce GTX 1080 Ti"},
        {"python": "3.7", "cuda": "10.2", "cudnn": "7.6.5", "driver": ">= 440.33", "compiler": "gcc"},
        "linux-cuda10.2-py37",
        {"compiler": "profiles/host_compilers.yaml gcc: CUDA <11.0,>=10.1 -> GCC <= 8"},
        {"cuda-soname-links"}, id="linux-1080ti"),
    pytest.param(
        {"os": "linux", "gpu": "GeForce GTX 1080 Ti", "driver": "418.87.01"},
        {"cuda": "10.1", "cudnn": "7.6.5", "driver": ">= 418.39"},
        None, {}, set(), id="old-driver-picks-cuda101"),
    pytest.param(
        {"os": "linux", "theano": "pymc-1.1.2", "arch": "sm_61"},
        {"python": "3.9", "numpy": "1.21.6", "scipy": "1.7.3", "theano": "Theano-PyMC==1.1.2", "cuda": "10.2"},
        "linux-pymc-cuda10.2-py39",
        {"python": "profiles/theano_compat.yaml verified: Theano-PyMC + Python 3.9 + numpy 1.21.6 + scipy 1.7.3"},
        set(), id="pymc-linux"),
    pytest.param(
        {"os": "windows", "gpu": "RTX 3090"},
        {"python": "3.7", "cuda": "11.1", "cudnn": "none", "driver": ">= 452.39", "pygpu": "0.7.6"},
        None,
        {"cuda": "profiles/gpu_arch.yaml cc 8.6 (Ampere, sm_86): CUDA 11.1 and later",
         "cudnn": "profiles/cudnn.yaml theano: theano-1.0.5 (cuDNN 5-7)",
         "driver": "profiles/cuda_driver.yaml CUDA 11.1 - 11.8 (minor-version compatibility)"},
        {"cuda-dll-aliases", "no-cudnn", "minor-version-compat"}, id="rtx3090-windows-cuda11-no-cudnn"),
    pytest.param(
        {"cpu_only": True},
        {"python": "3.7", "numpy": "1.16.6", "scipy": "1.2.1", "pygpu": "none", "cuda": "none", "cudnn": "none",
         "driver": "none", "compiler": "gcc"},
        "cpu-py37", {}, set(), id="cpu-only"),
    pytest.param(
        {"cpu_only": True, "theano": "pymc-1.1.2"},
        {"python": "3.9", "theano": "Theano-PyMC==1.1.2", "cuda": "none"}, "cpu-pymc-py39", {}, set(),
        id="cpu-only-pymc"),
    pytest.param(
        {"cpu_only": True, "python": "3.9", "numpy": "1.22.4"},
        {"python": "3.9", "numpy": "1.22.4", "scipy": "1.7.3"}, None,
        {"numpy": "profiles/theano_compat.yaml rules: Theano numpy <1.24,>=1.22 -> broken"},
        {"blas-ldflags"}, id="numpy123-needs-blas-ldflags"),
    pytest.param(
        {"os": "macos"},
        {"cuda": "none", "compiler": "clang"}, "cpu-py37", {}, set(), id="macos-cpu"),
]


@pytest.mark.parametrize("inputs, pins, stack, cited, caveats", RESOLVED)
def test_resolved_stacks(inputs: dict[str, Any], pins: dict[str, str], stack: str | None,
                         cited: dict[str, str], caveats: set[str]) -> None:
    res = resolve(build(**inputs))
    assert res.resolved and res.exit_code == 0, [c.why for c in res.conflicts]
    assert {k: v for k, v in _pins(res).items() if k in pins} == pins
    assert res.stack == stack
    for name, row in cited.items():
        assert row in _cited(_pin(res, name).reason), (name, _cited(_pin(res, name).reason))
    assert caveats <= {c.id for c in res.caveats}
    assert all(p.reason.text for p in res.pins)


def test_every_pin_of_a_gpu_stack_cites_a_row() -> None:
    res = resolve(build(os="windows", gpu="GTX 1660 SUPER"))
    assert all(p.reason.cites for p in res.pins), [p.name for p in res.pins if not p.reason.cites]


def test_numpy_reason_states_the_whole_band() -> None:
    reason = _pin(resolve(build(cpu_only=True)), "numpy").reason.text
    assert "recommended" in reason
    assert "numpy <1.24,>=1.22 needs blas.ldflags set" in reason
    assert "numpy <2,>=1.24 breaks `import theano`" in reason


def test_windows_aliases_caveat_names_the_files_and_fix() -> None:
    res = resolve(build(os="windows", cuda="11.2"))
    caveat = next(c for c in res.caveats if c.id == "cuda-dll-aliases")
    assert caveat.fix_id == "cuda-dll-aliases"
    assert "nvrtc64_112_0.dll" in caveat.reason.text and "cublas64_11.dll" in caveat.reason.text
    assert "profiles/cuda_libraries.yaml loader: libgpuarray-0.7.6" in _cited(caveat.reason)


def test_windows_cuda90_needs_no_aliases() -> None:
    """CUDA 9.0 ships nvrtc64_90.dll, one of libgpuarray's fallback names."""
    res = resolve(build(os="windows", cuda="9.0"))
    assert res.resolved and "cuda-dll-aliases" not in {c.id for c in res.caveats}


# --- conflicts ---------------------------------------------------------------------------------

CONFLICTS = [
    pytest.param({"gpu": "RTX 3090", "cuda": "10.2"}, ['--cuda 10.2', '--gpu "RTX 3090" (sm_86)'],
                 "RTX 3090 (sm_86, Ampere) needs CUDA >= 11.1", "profiles/gpu_arch.yaml cc 8.6",
                 ["use CUDA 11.1 instead of 10.2", "a GPU that CUDA 10.2 knows (sm_30 - sm_75)", "--cpu-only"],
                 id="rtx30xx-cuda10"),
    pytest.param({"arch": "sm_86", "cuda": "10.1", "os": "windows"}, ["--cuda 10.1", "--arch sm_86"],
                 "sm_86 (Ampere) needs CUDA >= 11.1", "profiles/gpu_arch.yaml cc 8.6",
                 ["use CUDA 11.1 instead of 10.1"], id="sm86-cuda101"),
    pytest.param({"gpu": "Tesla K80", "cuda": "12.0"}, ["--cuda 12.0", '--gpu "Tesla K80" (sm_37)'],
                 "Tesla K80 (sm_37, Kepler) needs CUDA <= 11.8", "profiles/gpu_arch.yaml cc 3.7",
                 ["use CUDA 10.2 instead of 12.0", "a GPU that CUDA 12.0 knows (sm_50 - sm_90)"], id="k80-cuda12"),
    pytest.param({"python": "3.12", "theano": "1.0.5"}, ["--python 3.12"],
                 "Theano cannot be installed on Python 3.12", "profiles/theano_compat.yaml rules: Theano python >=3.12",
                 ["use Python 3.7 instead of 3.12"], id="python312-theano"),
    pytest.param({"numpy": "1.24.4", "theano": "1.0.5", "cpu_only": True}, ["--numpy 1.24.4"],
                 "numpy 1.24.4 removed the `np.bool` alias",
                 "profiles/theano_compat.yaml rules: Theano numpy <2,>=1.24",
                 ["use numpy 1.16.6 instead of 1.24.4", "Install numpy 1.21.6 or older"], id="numpy124-theano105"),
    pytest.param({"cudnn": "8.0.5"}, ["--cudnn 8.0.5"], "Theano cannot use cuDNN 8",
                 "profiles/cudnn.yaml theano: theano-1.0.5", ["use cuDNN 7.6.5 (CUDA 10.2)", "run without cuDNN"],
                 id="cudnn8-theano"),
    pytest.param({"gpu": "RTX 3090", "cudnn": "7.6.5"}, ['--cudnn 7.6.5', '--gpu "RTX 3090" (sm_86)'],
                 "cuDNN 7.6.5 exists for CUDA 9.0, 10.1, 10.2 only", "profiles/cudnn.yaml builds: cuDNN 7.6.5",
                 ["run without cuDNN (CUDA 11.1"], id="rtx3090-needs-cuda-without-cudnn7"),
    pytest.param({"os": "windows", "cuda": "10.2", "driver": "418.96"}, ["--cuda 10.2", "--driver 418.96"],
                 "CUDA 10.2 on Windows needs driver >= 441.22", "profiles/cuda_driver.yaml CUDA 10.2 (10.2.89)",
                 ["use CUDA 10.1 instead of 10.2", "update the driver to 441.22 or newer"], id="driver-too-old"),
    pytest.param({"os": "linux", "driver": "300.10"}, ["--driver 300.10"],
                 "driver 300.10 on Linux runs no CUDA in the tables", "profiles/cuda_driver.yaml CUDA 7.0 (7.0.28)",
                 ["update the driver to 440.33 or newer (CUDA 10.2 on Linux)", "--cpu-only"],
                 id="driver-older-than-all"),
    pytest.param({"cpu_only": True, "cuda": "10.2"}, ["--cuda 10.2", "--cpu-only"], None, None,
                 ["drop --cpu-only (CUDA 10.2)"], id="cpu-only-with-cuda"),
    pytest.param({"os": "macos", "cuda": "10.2"}, ["--os macos", "--cuda 10.2"],
                 "the tables know CUDA drivers for Linux and Windows only", None, ["on Linux"], id="macos-cuda"),
]


@pytest.mark.parametrize("inputs, conflict, why, row, ways", CONFLICTS)
def test_conflicts_are_explained(inputs: dict[str, Any], conflict: list[str], why: str | None, row: str | None,
                                 ways: list[str]) -> None:
    res = resolve(build(**inputs))
    assert not res.resolved and res.exit_code == 1 and not res.pins
    first = res.conflicts[0]
    assert sorted(first.inputs) == sorted(conflict)
    if why:
        assert any(why in r.text for r in first.why), [r.text for r in first.why]
    if row:
        assert any(row in cite for r in first.why for cite in _cited(r)), [_cited(r) for r in first.why]
    for way in ways:
        assert any(way in w for w in first.ways_out), (way, first.ways_out)


def test_cudnn_with_its_build_number_is_that_cudnn() -> None:
    res = resolve(build(cudnn="7.6.5.32"))  # as in cudnn-10.2-windows10-x64-v7.6.5.32.zip
    assert res.resolved and _pins(res)["cudnn"] == "7.6.5" and _pins(res)["cuda"] == "10.2"


def test_a_cudnn_the_tables_lack_is_a_conflict_not_ignored() -> None:
    # Was resolved (exit 0) with CUDA 13.3 and no cuDNN: CUDAs without a cuDNN 5-7 build skipped the check.
    res = resolve(build(cudnn="7.6.9"))
    assert not res.resolved
    assert any("no builds row for cuDNN 7.6.9" in r.text for r in res.conflicts[0].why)


def test_numpy_newer_than_the_python_has() -> None:
    res = resolve(build(cpu_only=True, python="3.7", numpy="1.22.4"))
    assert not res.resolved
    assert any("numpy 1.21.6" in r.text for r in res.conflicts[0].why)
    assert any("profiles/stacks.yaml wheels: Python 3.7" in c for r in res.conflicts[0].why for c in _cited(r))


@pytest.mark.parametrize("inputs", [{"python": "3.9"}, {"numpy": "1.21.6"}, {"python": "3.9", "os": "windows"}])
def test_auto_means_plain_theano_when_it_holds(inputs: dict[str, Any]) -> None:
    # Was Theano-PyMC (the only named GPU stack on 3.9) while the reason said "auto: plain Theano".
    theano = _pin(resolve(build(**inputs)), "theano")
    assert theano.value == "Theano==1.0.5" and theano.reason.text.startswith("auto: plain Theano")


def test_numpy2_never_resolves_on_a_python_without_its_wheels() -> None:
    # Was resolved: Theano-PyMC + numpy 2.0.2 on Python 3.8 (numpy 2.0 needs Python >= 3.9).
    res = resolve(build(cpu_only=True, numpy="2.0.2"))
    assert not res.resolved
    assert any("Python 3.8 has numpy wheels up to numpy 1.24.4" in r.text for r in res.conflicts[0].why)
    assert resolve(build(cpu_only=True, python="3.8", numpy="1.24.4", theano="1.0.5")).conflicts  # np.bool, not wheels
    assert resolve(build(cpu_only=True, python="3.8")).resolved


def test_numpy_older_than_the_python_has_wheels_for() -> None:
    res = resolve(build(cpu_only=True, python="3.10", numpy="1.16.6"))  # was resolved (exit 0)
    assert not res.resolved
    assert any("Python 3.10 has numpy wheels from numpy 1.21.2 on" in r.text for r in res.conflicts[0].why)
    assert any("wheels: Python 3.10 -> 1.21.2 <= numpy" in c for r in res.conflicts[0].why for c in _cited(r))
    assert resolve(build(cpu_only=True, python="3.7", numpy="1.16.6")).resolved


def test_scipy_pair_limits_numpy() -> None:
    res = resolve(build(cpu_only=True, python="3.9", numpy="1.23.5"))
    assert not res.resolved
    assert any("profiles/scipy_numpy.yaml pairs: scipy ==1.7.3" in c for r in res.conflicts[0].why for c in _cited(r))


def test_python311_has_no_verified_stack_and_says_why() -> None:
    res = resolve(build(python="3.11", cpu_only=True, theano="1.0.5"))
    assert not res.resolved and res.conflicts[0].inputs == ("--python 3.11",)
    texts = [r.text for r in res.conflicts[0].why]
    assert any("no verified numpy/scipy for Python 3.11" in t for t in texts)
    assert any(t.startswith("Theano 1.0.5 imports on Python 3.11") and "theano.scan" in t for t in texts)
    assert "Use Python 3.7-3.10 if your model uses scan (RNNs, loops)." in res.conflicts[0].ways_out


def test_independent_conflicts_are_each_reported() -> None:
    res = resolve(build(python="3.12", gpu="RTX 3090", cuda="10.2"))
    assert [sorted(c.inputs) for c in res.conflicts] == [["--python 3.12"],
                                                         ["--cuda 10.2", '--gpu "RTX 3090" (sm_86)']]


def test_blackwell_is_beyond_libgpuarray() -> None:
    res = resolve(build(arch="sm_120"))
    assert not res.resolved
    assert any("compute_12" in r.text for r in res.conflicts[0].why)
    assert any("--cpu-only" in w for w in res.conflicts[0].ways_out)


# --- inputs ------------------------------------------------------------------------------------

@pytest.mark.parametrize("inputs, message", [
    ({"gpu": "GTX 1660"}, "close matches: GeForce GTX 1660 SUPER"),
    ({"gpu": "NVIDIA GeForce RTX 2070 SUPER"}, "close matches: RTX 2070, "),  # the same model first
    ({"gpu": "GTX 1660 Ti"}, "close matches: GeForce GTX 1660 SUPER, "),
    ({"arch": "sm_99"}, "not a GPU architecture"),
    ({"cuda": "10.3"}, "not a CUDA release"),
    ({"cuda": "11"}, "'11' is not a version like 10.2"),
    ({"cudnn": "7"}, "'7' is not a version like 7.6.5"),
    ({"python": "three"}, "is not a version"),
    ({"os": "beos"}, "use windows, linux or macos"),
    ({"gpu": "RTX 3090", "arch": "sm_86"}, "exclude each other"),
    ({"driver": "latest"}, "is not a driver version"),
    ({"theano": "1.0.7"}, "no Theano release in profiles/theano_releases.yaml matches"),
    ({"theano": "Theano-PyMC==2.0"}, "no Theano-PyMC release"),
    ({"theano": "banana"}, "use a release"),
])
def test_bad_inputs_are_usage_errors(inputs: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        build(**inputs)


@pytest.mark.parametrize("arch, cc", [("sm_75", "7.5"), ("compute_86", "8.6"), ("7.0", "7.0"), ("sm_120", "12.0")])
def test_arch_spellings(arch: str, cc: str) -> None:
    assert build(arch=arch).cc == cc
    conflict = resolve(build(arch=arch, cuda="8.0")).conflicts[0]  # labelled as typed option, never as --gpu
    assert f"--arch sm_{cc.replace('.', '')}" in conflict.inputs, conflict.inputs


@pytest.mark.parametrize("typed, theano", [("pymc", "pymc-1.1.2"), ("Theano-PyMC==1.1.2", "pymc-1.1.2"),
                                           ("Theano==1.0.5", "1.0.5"), ("1.0.5", "1.0.5"), ("auto", None)])
def test_theano_spellings(typed: str, theano: str | None) -> None:
    assert build(theano=typed).theano == theano


@pytest.mark.parametrize("gpu, cc", [("gtx1080ti", "6.1"), ("GTX1080 Ti", "6.1"), ("rtx2080", "7.5"),
                                     ("A100-SXM4-40GB", "8.0"), ("p4000", "6.1"), ("RTX 3080 Ti", "8.6")])
def test_gpu_names_as_people_type_them(gpu: str, cc: str) -> None:
    assert build(gpu=gpu).cc == cc


# --- named stacks ------------------------------------------------------------------------------

@pytest.mark.parametrize("stack", [s.id for s in kb_stacks.stacks()])
def test_every_named_stack_holds_against_the_tables(stack: str) -> None:
    """A named stack never contradicts the tables: checked with no constraints, it has no conflict,
    and resolving with its own OS, Python, flavour and toolkit gives back exactly its pins."""
    row = kb_stacks.stack(stack)
    assert row is not None
    res = check_profile(stack, build())
    assert res.resolved, [c.why for c in res.conflicts]
    again = resolve(build(os=None if row.os == "any" else row.os, python=row.python, cuda=row.cuda,
                          theano="1.0.5" if row.flavour == "Theano" else "pymc-1.1.2", cpu_only=not row.gpu))
    assert again.stack == stack
    assert {k: v for k, v in _pins(again).items() if k in ("numpy", "scipy", "cudnn", "pygpu")} == \
        {"numpy": row.numpy, "scipy": row.scipy, "cudnn": row.cudnn or "none", "pygpu": row.pygpu or "none"}


def test_profile_checked_against_constraints() -> None:
    res = check_profile("win10-cuda10.2-py37", build(gpu="RTX 3090", driver="430.00"))
    assert not res.resolved and res.profile == "win10-cuda10.2-py37"
    texts = [r.text for c in res.conflicts for r in c.why]
    assert any("needs CUDA >= 11.1" in t for t in texts)
    assert any("needs driver >= 441.22" in t or "runs CUDA" in t for t in texts)
    assert check_profile("cpu-py37", build()).resolved  # a CPU profile needs no --cpu-only


def test_profile_against_asked_values() -> None:
    res = check_profile("linux-cuda10.2-py37", build(cuda="10.1"))
    assert not res.resolved
    assert res.conflicts[0].inputs == ("--cuda 10.1",)
    assert "CUDA 10.2" in res.conflicts[0].why[0].text


def test_unknown_profile() -> None:
    with pytest.raises(InputError, match="known: win10-cuda10.2-py37"):
        check_profile("nope", build())


def test_resolution_json_shape() -> None:
    doc = resolve(build(gpu="RTX 3090", cuda="10.2")).to_dict()
    assert doc["resolved"] is False and doc["exit_code"] == 1 and doc["device"] is None
    assert doc["conflicts"][0]["why"][0]["cites"][0]["table"].startswith("profiles/")
    ok = resolve(build(cpu_only=True)).to_dict()
    assert ok["device"] == "cpu" and ok["stack"] == "cpu-py37"
    assert {p["name"] for p in ok["pins"]} >= {"python", "numpy", "scipy", "theano", "cuda", "driver", "compiler"}


# --- the stacks table's own checks -------------------------------------------------------------

_GOOD = """stacks:
  - {id: a, title: A, os: any, flavour: Theano, theano: "1.0.5", python: "3.7", numpy: "1.16.6",
     scipy: "1.2.1", source: x.io/s}
pygpu: []
compilers: []
"""


@pytest.mark.parametrize("text, message", [
    (_GOOD.replace('python: "3.7"', "python: 3.7"), r"profiles/stacks.yaml:2: `python` must be a version in quotes"),
    (_GOOD.replace("os: any", "os: beos"), r"stacks.yaml:2: `os` must be one of"),
    (_GOOD.replace("source: x.io/s}", 'source: x.io/s, cuda: "10.2"}'), "a GPU stack names `cuda` and `pygpu`"),
    (_GOOD.replace("source: x.io/s}", "source: x.io/s, compiler: nope}"), "compiler 'nope' is not under `compilers:`"),
    (_GOOD.replace("id: a,", "id: A B,"), "`id` must be kebab-case"),
    (_GOOD, None),
])
def test_malformed_stacks_table(fake_profiles: dict[str, str], text: str, message: str | None) -> None:
    fake_profiles["stacks.yaml"] = text
    from theanodoctor.knowledge import KnowledgeError

    if message is None:
        assert [s.id for s in kb_stacks.stacks()] == ["a"]
        return
    with pytest.raises(KnowledgeError, match=message):
        kb_stacks.stacks()


def test_duplicate_stack_ids(fake_profiles: dict[str, str]) -> None:
    row = _GOOD.split("\n")[1:3]
    fake_profiles["stacks.yaml"] = "\n".join(["stacks:", *row, *row, "pygpu: []", "compilers: []"]) + "\n"
    from theanodoctor.knowledge import KnowledgeError

    with pytest.raises(KnowledgeError, match="stack id 'a' is listed twice"):
        kb_stacks.stacks()
