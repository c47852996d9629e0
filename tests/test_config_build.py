"""Config files that real Theano 1.0.5 (healthy37) reads and then fails on, at import or at the
first compiled computation, and what `check` says about each: the doctor flags what Theano shows,
and stays quiet on what works."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_helpers import doctor, result

# import theano, then a compiled gemm and a compiled elemwise (amdlibm links only into math ops):
# what "Theano works with this file" means here.
COMPUTE = ("import theano, numpy, theano.tensor as T\n"
           "x = T.matrix()\n"
           "f = theano.function([x], T.dot(x, x) + T.exp(x))\n"
           "print('computed', f(numpy.ones((3, 3), dtype=theano.config.floatX)).sum())\n")

CASES = {
    # file -> (what real Theano prints, the check that must say so, a phrase of its message)
    "cxx-missing": ("[global]\ncxx = /usr/bin/g++-5\n", "No such file or directory: '/usr/bin/g++-5'",
                    "cxx-compiler", "the compiler the config names, /usr/bin/g++-5"),
    "cxx-quoted": ('[global]\ncxx = "g++"\n', "No such file or directory: '\"g++\"'",
                   "theanorc-quoted", "the quotes are part of the value"),
    "ldflags-quoted": ("[blas]\nldflags = '-L/usr/lib -lblas'\n", "invalid token",
                       "theanorc-quoted", "the quotes are part of the value"),
    "mkl-missing": ("[blas]\nldflags = -lmkl_rt\n", "cannot find -lmkl_rt",
                    "theanorc-build", "the linker cannot find -lmkl_rt"),
    "folder-missing": ("[blas]\nldflags = -L/opt/openblas/lib -lopenblas\n",
                       "No such file or directory: '/opt/openblas/lib'", "theanorc-build",
                       "-L/opt/openblas/lib: no such folder"),
    "blas-missing": ("[blas]\nldflags = -lblas\n", "cannot find -lblas", "theanorc-build",
                     "the linker cannot find -lblas"),
    "amdlibm-missing": ("[lib]\namdlibm = True\n", "amdlibm.h: No such file or directory", "theanorc-build",
                        "the linker cannot find -lamdlibm"),
}
FINE = {"empty-ldflags": "[blas]\nldflags =\n", "system-cxx": "[global]\ncxx = g++\n",
        "cxx-path": "[global]\ncxx = /usr/bin/g++\n"}


def _theano(python: str, rc: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "THEANORC": str(rc), "HOME": str(home)}
    env.pop("THEANO_FLAGS", None)
    return subprocess.run([python, "-c", COMPUTE], capture_output=True, text=True, timeout=900, env=env)


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_flags_what_real_theano_fails_on(case: str, legacy_python: Callable[[str], str],
                                               guard_home: Path) -> None:
    text, shown, check_id, said = CASES[case]
    rc = guard_home / ".theanorc"
    rc.write_text(text)
    python = legacy_python("healthy37")
    real = _theano(python, rc, guard_home)
    assert real.returncode != 0 and shown in real.stderr, real.stderr[-3000:]
    doc = doctor("check", "--python", python, "--format", "json").json()
    found = result(doc, check_id)
    assert found["status"] == "error" and said in found["message"], found


@pytest.mark.parametrize("case", sorted(FINE))
def test_no_alarm_where_real_theano_computes(case: str, legacy_python: Callable[[str], str],
                                             guard_home: Path) -> None:
    rc = guard_home / ".theanorc"
    rc.write_text(FINE[case])
    python = legacy_python("healthy37")
    real = _theano(python, rc, guard_home)
    assert real.returncode == 0 and "computed " in real.stdout, real.stderr[-3000:]
    doc = doctor("check", "--python", python, "--format", "json").json()
    for check_id in ("cxx-compiler", "theanorc-build", "theanorc-quoted"):
        assert result(doc, check_id)["status"] == "ok", result(doc, check_id)
