"""The Theano 1.0.5 option table (profiles/theano_config.yaml `releases`) is the registry of a real
Theano 1.0.5, and a config file is judged against it even when `import theano` fails in the
target, so one error no longer hides the others (real Theano 1.0.5, healthy37)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from theanodoctor.checks.config_keys import release_keys

from tests.cli_helpers import doctor, result
from theanodoctor.probe.runner import probe_target


def test_the_table_is_the_registry_of_real_theano_105(legacy_python: Callable[[str], str], guard_home: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("THEANO_FLAGS", "THEANORC")}
    config = probe_target(legacy_python("healthy37"), timeout=600, env=env)["stages"]["theano_config"]
    table = release_keys("Theano", "1.0.5")
    assert table is not None
    assert table.kinds == config["known_kinds"]
    assert sorted(table.kinds) == sorted(config["known_keys"])
    assert table.options == {k: tuple(v) for k, v in config["enum_options"].items()}


# Keys real Theano 1.0.5 ignores without a word, each with what the doctor suggests.
IGNORED = {
    "flaotx = float32": "[global] flaotx = float32: not a key this Theano knows; did you mean [global] floatX?",
    "float = float32": "[global] float = float32: not a key this Theano knows; did you mean [global] floatX?",
    "root = /usr/local/cuda": "[global] root = /usr/local/cuda: not a key this Theano knows; did you mean [c",
    "config.floatX = float32": "drop the `config.` prefix: [global] floatX",
    "//mode = FAST_RUN": "`//` does not start a comment in a config file",
    "enable_initial_driver_test = False": "[global] enable_initial_driver_test = False: not a key this Theano knows",
}
SECTIONED = "[lib]\nallow_gc = False\n[dnnv]\nenabled = False\n"


@pytest.mark.parametrize("device", ["cpu", "gpu"], ids=["theano-imports", "import-fails"])
def test_keys_theano_ignores_are_found_whether_or_not_the_import_works(
        legacy_python: Callable[[str], str], guard_home: Path, device: str) -> None:
    rc = guard_home / ".theanorc"
    rc.write_text(f"[global]\ndevice = {device}\n" + "\n".join(IGNORED) + "\n" + SECTIONED)
    doc = doctor("check", "--python", legacy_python("healthy37"), "--format", "json").json()
    assert result(doc, "theano-import")["status"] == ("ok" if device == "cpu" else "error")
    unknown = result(doc, "theanorc-unknown-keys")
    assert unknown["status"] == "warn"
    details = "\n".join(unknown["details"])
    for said in IGNORED.values():
        assert said in details, said
    assert "[lib] allow_gc = False: not a key this Theano knows; did you mean [global] allow_gc" in details
    assert "[dnnv] enabled = False: not a key this Theano knows; did you mean [dnn] enabled?" in details
    assert "[cuda] root" in details
    assert len(unknown["details"]) == len(IGNORED) + 2
    if device == "gpu":
        assert "judged against Theano 1.0.5's own list of options" in unknown["cause"]
