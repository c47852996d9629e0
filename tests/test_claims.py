"""Every sentence that says something was found, recognised or can be done is true: checked on
the real legacy environments and real files, one claim per test."""

from __future__ import annotations

from collections.abc import Callable

from tests.cli_helpers import doctor, result


def _check(python: str, *args: str) -> dict:
    run = doctor("check", "--python", python, "--format", "json", *args)
    assert "Traceback" not in run.err, run.err
    return run.json()


def test_one_cause_one_remedy_with_the_environments_own_versions(legacy_python: Callable[[str], str]) -> None:
    """numpy 1.24 breaks `import theano`: python-stack (the rule) and theano-import (the error)
    give the same remedy, the numpy of the verified Python 3.9 combination, checked against the
    range this env's scipy 1.10.1 declares, not a scipy the env does not have."""
    doc = _check(legacy_python("numpy124"))
    stack, imported = result(doc, "python-stack"), result(doc, "theano-import")
    assert stack["status"] == imported["status"] == "error"
    assert stack["remedy"] == imported["remedy"]
    assert stack["commands"] == imported["commands"]
    scipy = doc["facts"]["target"]["stages"]["distributions"]["packages"]["scipy"]["version"]
    assert scipy == "1.10.1"
    assert "Install numpy 1.21.6 in that environment" in stack["remedy"]
    assert "scipy 1.10.1 here accepts it" in stack["remedy"] and "1.7.3" not in stack["remedy"]
    assert stack["commands"][0].endswith(' -m pip install "numpy==1.21.6"')


def test_no_pip_pin_is_offered_where_no_wheel_can_satisfy_it(legacy_python: Callable[[str], str]) -> None:
    """Python 3.11 has no verified combination, and the numpy Theano needs has no 3.11 wheels:
    the remedy is another Python, with no pip command that would fail."""
    stack = result(_check(legacy_python("numpy2_311")), "python-stack")
    assert stack["status"] == "error" and stack["commands"] == []
    assert "build an environment with Python 3.10, numpy 1.21.6 and scipy 1.7.3" in stack["remedy"]
