"""`resolve --theano` across the whole era: each release pins a coherent stack from its own rows,
the old GPU back-end of Theano <= 0.9 with what it needs, the spellings people write, and the
section-4 defects (numpy 1.14.2 on 3.6, Python 3.5, pygpu for Python 2.7)."""

from __future__ import annotations

import pytest

from tests.cli_helpers import doctor
from theanodoctor import kb_era
from theanodoctor.resolver.inputs import InputError, build, theano_choice
from theanodoctor.resolver.resolve import resolve


def pins(**inputs: object) -> dict[str, str]:
    res = resolve(build(**inputs))  # type: ignore[arg-type]
    assert res.resolved, [c.to_dict() for c in res.conflicts]
    return {p.name: p.value for p in res.pins}


@pytest.mark.parametrize("typed, key", [
    ("0.8.2", "0.8.2"), ("theano==0.9.0", "0.9.0"), ("Theano == 0.7.0", "0.7.0"), ("0.7", "0.7.0"),
    ("Theano-PyMC==1.1.0", "pymc-1.1.0"), ("theano-pymc==1.0.12", "pymc-1.0.12"), ("pymc", "pymc-1.1.2"),
    (">=0.9,<1.0", "0.9.0"), ("<1.0", "0.9.0"), ("0.10", "0.10.0b4"), ("1.0", "1.0.5"), ("1.0.4", "1.0.4"),
    ("auto", None),
])
def test_theano_spellings(typed: str, key: str | None) -> None:
    assert theano_choice(typed) == key


@pytest.mark.parametrize("typed", ["0.8.1", "1.0.6", "Theano-PyMC==2.0.0", ">=2", "theano@latest"])
def test_unknown_releases_are_usage_errors(typed: str) -> None:
    with pytest.raises(InputError, match="--theano"):
        theano_choice(typed)


@pytest.mark.parametrize("release", [r for r in kb_era.releases()], ids=lambda r: r.key)
def test_every_release_resolves_on_the_cpu(release: kb_era.Release) -> None:
    found = pins(theano=release.key, cpu_only=True)
    assert found["theano"] == f"{release.flavour}=={release.version}"
    assert release.numpy.contains(found["numpy"], prereleases=True)
    assert release.scipy.contains(found["scipy"], prereleases=True)
    own = {(p.python, p.numpy, p.scipy) for p in release.pins}
    if own:  # the release's own stack, not one borrowed from another release
        assert (found["python"], found["numpy"], found["scipy"]) in own


def test_auto_still_means_theano_105() -> None:
    assert pins(cpu_only=True)["theano"] == "Theano==1.0.5"
    res = resolve(build())
    assert res.stack == "linux-cuda10.2-py37" and res.pin("device") == "cuda"


@pytest.mark.parametrize("release", ["0.8.2", "0.9.0"])
def test_old_releases_get_the_old_backend_with_what_it_needs(release: str) -> None:
    res = resolve(build(theano=release, gpu="GTX 1080"))
    found = {p.name: p for p in res.pins}
    assert found["device"].value == "gpu" and found["pygpu"].value == "none"
    assert found["cuda"].value == "8.0" and found["cudnn"].value == "5.1"
    assert "known to work with CUDA 7.5, 8.0" in found["cuda"].reason.text
    assert "nvcc is needed" in found["compiler"].reason.text and "GCC <= 5" in found["compiler"].reason.text
    assert any(c.id == "old-gpu-backend" for c in res.caveats)
    assert any(cite.table == "profiles/theano_releases.yaml" for cite in found["cuda"].reason.cites)


def test_theano_08_on_an_ampere_gpu_is_a_conflict_with_ways_out() -> None:
    res = resolve(build(theano="0.8.2", gpu="A100"))
    assert not res.resolved
    [conflict] = res.conflicts
    assert conflict.inputs == ("--theano 0.8.2", '--gpu "A100" (sm_80)')
    why = " ".join(r.text for r in conflict.why)
    assert "needs CUDA >= 11.0" in why and "known to work with CUDA 7.5, 8.0 only" in why
    ways = " ".join(conflict.ways_out)
    assert "--cpu-only" in ways and "use Theano 1.0.5" in ways and "porting" in ways


def test_theano_09_on_an_ampere_gpu_takes_its_gpuarray_backend() -> None:
    res = resolve(build(theano="0.9.0", gpu="A100"))
    assert res.resolved and res.pin("device") == "cuda" and res.pin("pygpu") == "0.6.9"
    assert res.pin("cuda") == "11.0"
    assert any(c.id == "pygpu-channel" and "not checked here" in c.reason.text for c in res.caveats)


def test_pymc_releases_resolve_with_their_flag_names() -> None:
    res = resolve(build(theano="Theano-PyMC==1.0.12", cpu_only=True))
    theano = next(p for p in res.pins if p.name == "theano")
    assert "`__`" in theano.reason.text
    older = resolve(build(theano="Theano-PyMC==1.0.11", cpu_only=True))
    assert "`__`" not in next(p for p in older.pins if p.name == "theano").reason.text


def test_a_numpy_too_new_for_an_old_release_is_refused() -> None:
    res = resolve(build(theano="0.9.0", numpy="1.16.6", python="3.7", cpu_only=True))
    assert not res.resolved
    assert any("newer than any numpy known to work with Theano 0.9.0" in r.text
               for c in res.conflicts for r in c.why)


def test_theano_103_is_never_pinned_with_the_numpy_that_breaks_it() -> None:
    res = resolve(build(theano="1.0.3", numpy="1.16.2", python="3.7", cpu_only=True))
    assert not res.resolved
    assert any("_get_ndarray_c_version" in r.text for c in res.conflicts for r in c.why)
    assert pins(theano="1.0.4", numpy="1.16.2", python="3.7", cpu_only=True)["numpy"] == "1.16.2"


# --- section 4 --------------------------------------------------------------------------------------

def test_numpy_1_14_2_on_python_36_gets_a_scipy_that_accepts_it() -> None:
    found = pins(python="3.6", numpy="1.14.2", cpu_only=True)
    assert found["scipy"] == "1.4.1"  # scipy 1.5.4's wheel needs numpy >= 1.14.5


def test_python_35_resolves_with_its_last_wheels() -> None:
    found = pins(python="3.5", cpu_only=True)
    assert (found["numpy"], found["scipy"], found["theano"]) == ("1.18.5", "1.4.1", "Theano==1.0.5")


def test_emit_pip_for_python_27_names_the_pygpu_the_run_found() -> None:
    run = doctor("resolve", "--python", "2.7", "--os", "linux", "--emit", "pip")
    assert run.code == 0, run.err
    assert "conda install -c conda-forge pygpu=0.7.6" in run.out
    assert "Python 2.7" in run.out and "not checked here" in run.out
    assert "Python 3.7-3.10" not in run.out  # the old fixed line that contradicted the run


def test_emit_theanorc_for_the_old_backend() -> None:
    run = doctor("resolve", "--theano", "0.8.2", "--gpu", "GTX 1080", "--emit", "theanorc")
    assert run.code == 0, run.err
    assert "device = gpu" in run.out and "floatX = float32" in run.out and "/usr/local/cuda-8.0" in run.out
