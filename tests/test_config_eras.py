"""The release table of Theano's configuration variables (profiles/theano_config_eras.yaml,
tools/config_eras.py), re-read from real installed Theano releases (their files, never imported
here), and what `explain` makes of the messages real interpreters print when legacy code reads a
variable or section its Theano does not register."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.explain_tables import traceback_of
from tests.legacy_envs import ensure_env, env_python
from theanodoctor import kb_config_eras
from theanodoctor.explain import explain_text
from theanodoctor.sources import problem

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import api_eras  # noqa: E402  (tools/ is no package)
import config_eras  # noqa: E402


def _python(env: str) -> str:
    return str(env_python(ensure_env(env)))


@pytest.mark.parametrize(("env", "release"), [("theano082_py27", "0.8.2"), ("theano090_py36", "0.9.0"),
                                              ("theano103_np116", "1.0.3"), ("healthy37", "1.0.5")])
def test_the_table_is_what_an_installed_release_registers(env: str, release: str) -> None:
    site = next(Path(_python(env)).parent.parent.glob("lib/python*/site-packages"))
    files = {str(p.relative_to(site)): p.read_text(encoding="utf-8", errors="replace")
             for p in (site / "theano").rglob("*.py") if not api_eras._private(str(p.relative_to(site)))}
    theano, names = kb_config_eras.project()
    index = theano.releases.index(release)
    in_table = {n for n in names if index in kb_config_eras.lookup(n).have}
    assert set(config_eras.registered(files)) == in_table
    assert {"floatX", "device", "scan", "scan.allow_gc"} <= in_table


def test_every_cited_registration_is_a_source_a_user_can_open() -> None:
    scan = kb_config_eras.lookup("scan")
    assert scan is not None and scan.span() == "0.7-1.0.5"
    assert scan.cites == {1: "Theano rel-0.7 theano/scan_module/scan_op.py:42"}
    cnmem = kb_config_eras.lookup("lib.cnmem")
    assert cnmem is not None and cnmem.span() == "0.8.0-0.9.0"
    assert all(problem(c) is None for c in (*scan.cites.values(), *cnmem.cites.values()))
    assert kb_config_eras.lookup("no_such_section") is None


@pytest.mark.parametrize(("env", "code", "message", "expected"), [
    # only newer releases have it: the code needs a newer Theano
    ("theano082_py27", "print(theano.config.ctc.root)", "'TheanoConfigParser' object has no attribute 'ctc'",
     ("theano-too-old-for-code", "medium")),
    # only older ones: an older Theano (the old GPU back-end's nvcc section)
    ("healthy37", "print(theano.config.nvcc.flags)", "'TheanoConfigParser' object has no attribute 'nvcc'",
     ("theano-too-new-for-code", "medium")),
    # only releases in the middle (0.8.0-0.9.0): which way is a guess, a hint that asks
    ("healthy37", "print(theano.config.lib.cnmem)", "'SubObj' object has no attribute 'cnmem'",
     ("theano-too-new-for-code", "low")),
    # a name no release registers: the code's own mistake
    ("healthy37", "print(theano.config.no_such_section)", "object has no attribute 'no_such_section'", None),
])
def test_legacy_code_reading_a_configuration_name_of_another_release(env: str, code: str, message: str,
                                                                     expected: tuple[str, str] | None,
                                                                     theano_home: Path, tmp_path: Path) -> None:
    log = traceback_of(_python(env), f"import theano\n{code}\n", tmp_path)
    assert message in log
    found = [(f.cause, f.confidence) for f in explain_text(log).findings if "theano-too" in f.cause]
    assert found[:1] == ([expected] if expected else [])


def test_theanos_own_code_missing_a_name_is_no_era_of_the_users_code() -> None:
    # a frame in Theano's own files: its parts come from different releases, not the code's era
    own = ('  File "/home/u/env/lib/python2.7/site-packages/theano/sandbox/cuda/nvcc_compiler.py", line 30, in f\n'
           "    if not config.cuda.enabled:\nAttributeError: 'SubObj' object has no attribute 'enabled'\n")
    users = own.replace("/home/u/env/lib/python2.7/site-packages/theano/sandbox/cuda/nvcc_compiler.py", "train.py")
    assert [f.cause for f in explain_text(users).findings if "theano-too" in f.cause]
    assert not [f.cause for f in explain_text(own).findings if "theano-too" in f.cause]


def test_theanos_own_code_in_an_ipython_frame_is_no_era_of_the_users_code() -> None:
    # IPython (before 8) heads a frame with `<path> in <function>(<args>)` above its numbered lines: Theano
    # 0.7's DebugMode reading an option only its test tools register is Theano's own (a later release's fix)
    frame = ("{path} in make_all(self, profiler, input_storage, output_storage, storage_map)\n"
             "   1945         # Precompute some things for storage pre-allocation\n   1946         try:\n"
             "-> 1947             def_val = int(config.unittests.rseed)\n   1948         except ValueError:\n"
             "   1949             def_val = 666\n\n"
             "AttributeError: 'TheanoConfigParser' object has no attribute 'unittests'\n")
    own = frame.format(path="/usr/lib/python2.7/site-packages/Theano-0.7.0-py2.7.egg/theano/compile/debugmode.pyc")
    users = frame.format(path="/home/u/train.py")
    assert not [f.cause for f in explain_text(own).findings if "theano-too" in f.cause]
    assert [f.cause for f in explain_text(users).findings if "theano-too" in f.cause]
