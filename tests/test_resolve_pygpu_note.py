"""`resolve --emit pip` says where pygpu can come from with the same table row the pygpu pin cites:
for Python 2.7 the row for 2.7 builds, never a channel range that excludes 2.7."""

from __future__ import annotations

import pytest

from tests.cli_helpers import doctor


@pytest.mark.parametrize("python", ["2.7", "3.7"])
def test_the_pip_note_names_the_pygpu_row_of_the_pin(python: str) -> None:
    resolved = doctor("resolve", "--python", python, "--os", "linux", "--format", "json").json()
    pygpu = next(p for p in resolved["pins"] if p["name"] == "pygpu")
    row = pygpu["cites"][0]["key"]  # "pygpu: conda-forge-py27 (pygpu 0.7.6, Python ==2.7.*)"
    wanted = row.split("Python ", 1)[1].rstrip(")")
    emitted = doctor("resolve", "--python", python, "--os", "linux", "--emit", "pip")
    assert emitted.code == 0
    note = next(line for line in emitted.out.splitlines() if "pygpu" in line)
    assert f"Python {wanted})" in note and f"pygpu={pygpu['value']}" in note
