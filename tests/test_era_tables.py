"""The era table (profiles/theano_releases.yaml) and the rows it adds elsewhere: every row's shape
and source, the facts the resolver and the checks lean on, and a wrong row caught at load time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from theanodoctor import kb_era, kb_stacks, knowledge, sources
from theanodoctor.knowledge import KnowledgeError

ROOT = Path(__file__).parent.parent
PROFILES = ROOT / "profiles"


def _test_exists(ref: str) -> bool:
    path, _, name = ref.partition("::")
    file = ROOT / path
    return file.is_file() and re.search(rf"^def {re.escape(name)}\(", file.read_text(), re.M) is not None


def test_every_release_of_the_era_is_there() -> None:
    keys = {r.key for r in kb_era.releases()}
    assert {"0.7.0", "0.8.2", "0.9.0", "0.10.0b4", "1.0.0", "1.0.3", "1.0.4", "1.0.5"} <= keys
    assert {f"pymc-1.0.{n}" for n in range(5, 16)} | {"pymc-1.1.0", "pymc-1.1.1", "pymc-1.1.2"} <= keys


@pytest.mark.parametrize("release", kb_era.releases(), ids=lambda r: r.key)
def test_release_rows_have_their_shape_and_sources(release: kb_era.Release) -> None:
    assert re.fullmatch(r"20[12]\d-\d\d-\d\d", release.date)
    for source in (release.date_source, release.python_source, release.requires_source):
        assert sources.problem(source) is None, source
        assert release.tag in source or "HISTORY.txt" in source or "NEWS.txt" in source, source
    assert release.python and all(re.fullmatch(r"[23]\.\d+", p) for p in release.python)
    assert release.backends and release.naming in ("dotted", "dunder")
    assert release.reproduced or release.numpy_known, "a release whose rules were not reproduced needs numpy_known"
    for pin in release.pins:
        assert sources.problem(pin.source) is None, pin.source
        assert kb_era.pin_problem(release, pin) == ""


def test_dates_follow_the_versions() -> None:
    for flavour in knowledge.FLAVOURS:
        rows = [r for r in kb_era.releases() if r.flavour == flavour]
        by_version = sorted(rows, key=lambda r: kb_era.vkey(r.version))
        assert [r.date for r in by_version] == sorted(r.date for r in rows)


def test_every_cited_test_exists() -> None:
    texts = [p.read_text() for p in PROFILES.glob("*.yaml")]
    refs = {m for text in texts for m in re.findall(r"tests/test_\w+\.py::\w+", text)}
    assert refs, "the era rows cite the tests that reproduce them"
    assert [r for r in refs if not _test_exists(r)] == []


def test_verified_rows_name_their_release() -> None:
    found = {(v.flavour, v.theano, v.python, v.numpy) for v in knowledge.verified_stacks()}
    assert ("Theano", "0.8.2", "2.7", "1.11.0") in found
    assert ("Theano", "0.9.0", "3.6", "1.12.1") in found
    assert ("Theano", "1.0.5", "3.7", "1.16.6") in found  # the rows without a release: the newest one
    # each verified release's own pins agree with its verified rows
    for release in kb_era.releases():
        for pin in release.pins:
            if pin.verified:
                assert (release.flavour, release.version, pin.python, pin.numpy) in found


def test_the_backends_each_release_has() -> None:
    by_key = {r.key: r for r in kb_era.releases()}
    assert by_key["0.8.2"].old_backend and by_key["0.9.0"].old_backend
    assert not by_key["0.10.0b4"].old_backend and not by_key["1.0.0"].old_backend
    assert by_key["0.8.2"].gpuarray() is None  # only a development libgpuarray fits it
    assert str(by_key["0.9.0"].gpuarray().pygpu) == "<0.7,>=0.6.1"
    assert str(by_key["1.0.5"].gpuarray().pygpu) == "<0.8.0,>=0.7.0"
    assert str(by_key["pymc-1.1.2"].gpuarray().pygpu) == "<0.8.0,>=0.7.0"
    old = kb_era.old_backend()
    assert old.cuda_known == ("7.5", "8.0") and old.cudnn_max_official == "5.1" and old.cudnn_min == 4007


def test_theano_pymc_renamed_its_flags_in_1_0_12() -> None:
    naming = {r.version: r.naming for r in kb_era.releases() if r.flavour == "Theano-PyMC"}
    assert naming["1.0.11"] == "dotted" and naming["1.0.12"] == "dunder" and naming["1.1.2"] == "dunder"


@pytest.mark.parametrize("version, key, knows", [
    ("0.9.0", "lib.cnmem", True), ("0.8.2", "lib.cnmem", True), ("0.7.0", "lib.cnmem", False),
    ("1.0.0", "lib.cnmem", False), ("1.0.5", "lib.cnmem", False),
    ("0.9.0", "nvcc.flags", True), ("0.10.0b4", "nvcc.flags", False), ("0.9.0", "nvcc.cudafe", True),
    ("0.8.2", "nvcc.cudafe", False), ("0.9.0", "enable_initial_driver_test", True),
    ("1.0.5", "enable_initial_driver_test", False), ("0.9.0", "gpuarray.cache_path", False),
    ("1.0.5", "gpuarray.cache_path", True), ("0.8.1", "lib.cnmem", True),  # 0.8.1: judged by the 0.8 line
    ("1.0.5", "device", None),  # every release has it: the rows do not say, the registry decides
])
def test_which_release_knows_which_option(version: str, key: str, knows: bool | None) -> None:
    assert kb_era.knows_option("Theano", version, key) is knows


def test_option_rows_name_known_releases_and_a_tag() -> None:
    known = {r.version for r in kb_era.releases() if r.flavour == "Theano"}
    for span in kb_era.option_spans().values():
        assert set(span.releases) <= known, span
        assert re.search(r"rel-[\w.]+ theano/\S+:\d+", span.source), span


def test_old_devices_by_release() -> None:
    assert kb_era.accepts_old_device("Theano", "0.9.0") is True
    assert kb_era.accepts_old_device("Theano", "1.0.5") is False
    assert kb_era.accepts_old_device("Theano", "0.5.0") is None  # not in the table: unknown


def test_compat_rules_cover_the_releases_they_name() -> None:
    rule = next(r for r in knowledge.compat_rules() if r.numpy and "1.16.0" in str(r.numpy))
    assert knowledge.applies(rule, "1.0.3") and knowledge.applies(rule, "0.9.0")
    assert not knowledge.applies(rule, "1.0.4") and not knowledge.applies(rule, "1.0.5")
    assert knowledge.in_range(rule.numpy, "1.16.2") and not knowledge.in_range(rule.numpy, "1.16.5")
    bool_rule = next(r for r in knowledge.compat_rules() if r.flavour == "Theano" and "np.bool" in r.message)
    assert knowledge.applies(bool_rule, "0.9.0") and not knowledge.applies(bool_rule, "0.8.2")


def test_scipy_rows_carry_their_numpy_floor() -> None:
    pins = {p.pin: p for p in kb_stacks.scipy_pairs() if p.pin}
    assert str(pins["1.5.4"].numpy) == ">=1.14.5" and str(pins["1.4.1"].numpy) == ">=1.13.3"
    assert "METADATA" in pins["1.5.4"].source


def test_last_wheels_of_python_27_and_35() -> None:
    wheels = kb_stacks.last_wheels()
    assert (wheels["2.7"].numpy, wheels["2.7"].scipy) == ("1.16.6", "1.2.3")
    assert (wheels["3.5"].numpy, wheels["3.5"].scipy) == ("1.18.5", "1.4.1")


def _one_release(**changes: str) -> str:
    row = {"flavour": "Theano", "version": '"0.9.0"', "tag": "rel-0.9.0", "date": '"2017-03-20"',
           "date_source": "x.io/s", "python": '["2.7"]', "python_source": "x.io/s", "numpy": '">=1.9.1"',
           "scipy": '">=0.14"', "requires_source": "x.io/s", "numpy_known": '"1.12.1"', "numpy_known_source": "x.io/s",
           "backends": "[cuda]", "naming": "dotted", **changes}
    body = "\n".join(f"    {k}: {v}" for k, v in row.items())
    return f"releases:\n  - {body.lstrip()}\nbackends:\n  - {{id: cuda, name: old, device: [gpu], source: x.io/s}}\n"


@pytest.mark.parametrize("changes, message", [
    ({}, None),
    ({"pins": '[{python: "3.6", numpy: "1.8.2", scipy: "0.19.0", source: x.io/s}]'},
     r"theano_releases.yaml:\d+: Theano 0.9.0 pin: numpy 1.8.2 is outside the release's numpy >=1.9.1"),
    ({"pins": '[{python: "3.6", numpy: "1.13.3", scipy: "0.19.0", source: x.io/s}]'},
     "numpy 1.13.3 is newer than its numpy_known 1.12.1"),
    ({"pins": '[{python: "3.6", numpy: "1.12.1", scipy: "0.13.0", source: x.io/s}]'}, "scipy 0.13.0 is outside"),
    ({"backends": "[gpuarray-9]"}, "backend.s. gpuarray-9 not under `backends:`"),
    ({"version": '"0.10.0b4"'}, None),
    ({"version": "0.9"}, "`version` must be a version in quotes, not 0.9"),
    ({"version": "nine"}, "`version` must be a version in quotes"),
    ({"naming": "camel"}, "`naming` must be one of dotted, dunder"),
])
def test_a_wrong_row_is_caught(fake_profiles: dict[str, str], changes: dict[str, str], message: str | None) -> None:
    fake_profiles["theano_releases.yaml"] = _one_release(**changes)
    if message is None:
        assert len(kb_era.releases()) == 1
        return
    with pytest.raises(KnowledgeError, match=message):
        kb_era.releases()
