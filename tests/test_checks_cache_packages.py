"""The cache checks (compiledir, compile-lock, compiledir-numpy, disk-space) and the package checks
(theano-duplicates, scipy-numpy, python-bits, pygpu-version, mkl-service, blas-ldflags).

Real where this machine can be real: a compiledir filled by real Theano, locks taken by Theano's
and Theano-PyMC's own lock code in processes that then die or keep running, key.pkl bytes
written by Theano; GPU-, Windows- and 32-bit-only cases through snapshot variations."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.cli_helpers import doctor, result
from tests.test_checks import judge, snapshot
from theanodoctor import proc
from theanodoctor.host.compiledir import lock_holders, parse_lock, probe_compiledir

COMPILE = """\
import theano, theano.tensor as T
x = T.dvector('x')
f = theano.function([x], T.tanh(x) * 3 - 1)
f([1.0, 2.0])
print(theano.config.compiledir)
"""

# Theano 1.0.5's own compile lock, taken in a chosen lock_dir; then die without releasing it,
# or hold it until killed.
TAKE_LOCK = """\
import os, sys, time
from theano.gof import compilelock
compilelock.get_lock(lock_dir=sys.argv[1])
print(os.getpid(), flush=True)
if sys.argv[2] == "hold":
    time.sleep(120)
os._exit(0)
"""

# Theano-PyMC's lock (the filelock package) on <compiledir>/.lock, held until killed.
PYMC_LOCK = """\
import sys, time, filelock
lock = filelock.FileLock(sys.argv[1] + "/.lock")
lock.acquire()
print("locked", flush=True)
time.sleep(120)
"""


@pytest.fixture
def healthy37(legacy_python: Callable[[str], str], theano_home: Path) -> str:
    return legacy_python("healthy37")


@pytest.fixture
def compiledir(healthy37: str) -> Path:
    """The session's real compiledir, with at least one compiled module in it."""
    ran = proc.run([healthy37, "-c", COMPILE], timeout=300)
    assert ran.ran and ran.returncode == 0, ran.stderr[-3000:]
    return Path(ran.stdout.strip().splitlines()[-1])


@pytest.fixture
def own_compiledir(compiledir: Path, tmp_path: Path) -> Path:
    """A private copy of the real compiledir, so a lock in it cannot disturb other tests."""
    copy = tmp_path / "compiledir_copy"
    shutil.copytree(compiledir, copy, ignore=shutil.ignore_patterns("lock_dir"))
    return copy


def check_json(python: str, **env: str) -> dict[str, Any]:
    run = doctor("check", "--python", python, "--format", "json", env=env)
    assert "Traceback" not in run.err, run.err
    return run.json()


def with_compiledir(section: dict[str, Any], name: str = "linux_gtx1080ti_cuda102_ready") -> dict[str, Any]:
    data = snapshot(name)
    data["compiledir"] = section
    return data


def outcome(data: dict[str, Any], check_id: str) -> Any:
    return next(r for r in judge(data).results if r.id == check_id).outcome


# ---- compiledir --------------------------------------------------------------------------------


def test_real_compiledir_is_usable_and_counted(healthy37: str, compiledir: Path) -> None:
    doc = check_json(healthy37)
    found = result(doc, "compiledir")
    modules = len(list(compiledir.glob("tmp*/key.pkl")))
    assert found["status"] == "ok"
    assert found["message"].startswith(f"{compiledir}: {modules} compiled modules, ")
    assert result(doc, "disk-space")["status"] == "ok"
    numpy = result(doc, "compiledir-numpy")
    assert numpy["status"] == "ok" and "this numpy's C ABI (0x1000009)" in numpy["message"]
    assert f"{modules} of {modules} modules read" in numpy["message"]
    assert result(doc, "compile-lock")["message"] == "no compile lock held"


def test_compiledir_not_writable_is_an_error() -> None:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["compiledir"]["writable"] = False
    found = outcome(data, "compiledir")
    assert found.status == "error" and "is not writable" in found.message
    assert "exists but you don't have read, write or listing permissions" in found.cause
    data["compiledir"]["exists"] = False
    assert "Unable to create the compiledir directory" in outcome(data, "compiledir").cause


def test_compiledir_not_created_yet() -> None:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["compiledir"].update(exists=False, module_count=0)
    found = outcome(data, "compiledir")
    assert found.status == "ok" and "does not exist yet; Theano will create it" in found.message


@pytest.mark.parametrize("user, status", [("Alice Smith", "warn"), ("Jos\u00e9", "warn"), ("alice", "ok")])
def test_windows_compiledir_with_space_or_non_ascii(user: str, status: str) -> None:
    data = snapshot("windows_cuda102_ready")
    path = f"C:\\Users\\{user}\\AppData\\Local\\Theano\\compiledir_Windows-10-3.7.16-64"
    data["compiledir"]["path"] = path
    found = outcome(data, "compiledir")
    assert found.status == status
    if status == "warn":
        assert "MinGW" in found.cause and "base_compiledir" in found.remedy
    # the same path on Linux is no finding
    linux = snapshot("linux_gtx1080ti_cuda102_ready")
    linux["compiledir"]["path"] = "/home/Alice Smith/.theano/compiledir_x"
    assert outcome(linux, "compiledir").status == "ok"


def test_cache_checks_skip_without_a_compiledir() -> None:
    data = with_compiledir({"status": "skipped", "error": "compile dir unknown: Theano did not report it"})
    for cid in ("compiledir", "compile-lock", "compiledir-numpy", "disk-space"):
        found = outcome(data, cid)
        assert found.status == "skipped" and "Theano did not report it" in found.message, cid


def test_disk_space() -> None:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["compiledir"]["free_disk_bytes"] = 300_000_000
    found = outcome(data, "disk-space")
    assert found.status == "warn" and found.message.startswith("only 300.0 MB free")
    data["compiledir"]["free_disk_bytes"] = 2_000_000_000
    assert outcome(data, "disk-space").status == "ok"
    del data["compiledir"]["free_disk_bytes"]
    assert outcome(data, "disk-space").status == "skipped"


# ---- compile lock ------------------------------------------------------------------------------


def test_stale_lock_of_a_dead_theano_process(healthy37: str, own_compiledir: Path) -> None:
    ran = proc.run([healthy37, "-c", TAKE_LOCK, str(own_compiledir / "lock_dir"), "die"], timeout=120)
    assert ran.ran and ran.returncode == 0, ran.stderr[-3000:]
    dead = ran.stdout.strip()
    doc = check_json(healthy37, THEANO_FLAGS=f"compiledir={own_compiledir}")
    found = result(doc, "compile-lock")
    assert found["status"] == "warn"
    assert found["message"].startswith(f"stale: the lock's owner, process {dead}, is dead")
    assert f"Overriding existing lock by dead process '{dead}'" in found["cause"]
    assert "theano-cache unlock" in found["remedy"] and str(own_compiledir / "lock_dir") in found["remedy"]
    assert found["commands"] == []  # unlocking is destructive: prose only
    # what the cause promises, real Theano does on its next compile
    again = proc.run([healthy37, "-c", COMPILE.replace("tanh", "sinh")], timeout=300,
                     env={**os.environ, "THEANO_FLAGS": f"compiledir={own_compiledir}"})
    assert f"Overriding existing lock by dead process '{dead}'" in again.stderr
    assert result(check_json(healthy37, THEANO_FLAGS=f"compiledir={own_compiledir}"),
                  "compile-lock")["status"] == "ok"


def test_busy_lock_held_by_a_live_theano_process(healthy37: str, own_compiledir: Path) -> None:
    holder = proc.start([healthy37, "-c", TAKE_LOCK, str(own_compiledir / "lock_dir"), "hold"])
    try:
        assert holder.stdout is not None
        pid = holder.stdout.readline().strip().decode()
        assert pid == str(holder.pid)
        doc = check_json(healthy37, THEANO_FLAGS=f"compiledir={own_compiledir}")
        found = result(doc, "compile-lock")
        assert found["status"] == "warn"
        assert found["message"].startswith(f"busy: process {pid} holds the compile lock")
        assert f"Waiting for existing lock by process '{pid}'" in found["message"]
    finally:
        holder.kill()
        holder.communicate()


def lock_section(tmp_path: Path, content: str, hostname: str | None = None) -> dict[str, Any]:
    cdir = tmp_path / "cd"
    (cdir / "lock_dir").mkdir(parents=True)
    (cdir / "lock_dir" / "lock").write_text(content + "\n")
    section = probe_compiledir(str(cdir))
    if hostname:  # judged as on a machine with that name
        section["lock"].update(parse_lock(content, hostname=hostname))
    return section


def test_lock_from_another_host(tmp_path: Path) -> None:
    found = outcome(with_compiledir(lock_section(tmp_path, "4242_0123456789_build-node-7")), "compile-lock")
    assert found.status == "warn"
    assert found.message.startswith("held by process 4242 on host build-node-7")
    assert "cannot be told from here" in found.message and "compile.timeout" in found.cause


def test_dead_owner_on_a_host_name_with_underscores(tmp_path: Path) -> None:
    ran = proc.run([sys.executable, "-c", "import os; print(os.getpid())"], timeout=30)
    dead = int(ran.stdout)
    section = lock_section(tmp_path, f"{dead}_0123456789_gpu_box_01", hostname="gpu_box_01")
    assert section["lock"]["alive"] is False and section["lock"]["theano_sees_same_host"] is False
    found = outcome(with_compiledir(section), "compile-lock")
    assert found.status == "warn"
    assert "Theano cannot tell: every compile waits compile.timeout" in found.message
    assert "'gpu_box_01' contains '_'" in found.cause


@pytest.mark.parametrize("content", ["failure", ""])
def test_lock_without_a_readable_owner(tmp_path: Path, content: str) -> None:
    found = outcome(with_compiledir(lock_section(tmp_path, content)), "compile-lock")
    assert found.status == "warn" and "without a readable owner" in found.message


def test_pymc_filelock_busy_then_free(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    cdir = tmp_path / "compiledir_pymc"
    cdir.mkdir()
    holder = proc.start([legacy_python("pymc39"), "-c", PYMC_LOCK, str(cdir)])
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["target"]["stages"]["distributions"]["versions"].update({"Theano": None, "Theano-PyMC": "1.1.2"})
    data["target"]["stages"]["distributions"]["theano_owner"] = "Theano-PyMC"
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"locked"
        section = probe_compiledir(str(cdir))
        assert section["pymc_lock"]["held_by"] == [holder.pid]
        data["compiledir"] = section
        found = outcome(data, "compile-lock")
        assert found.status == "warn" and found.message.startswith(f"busy: process {holder.pid} holds ")
    finally:
        holder.kill()
        holder.communicate()
    # the process is gone: the OS dropped its lock, the file stays
    data["compiledir"] = probe_compiledir(str(cdir))
    assert data["compiledir"]["pymc_lock"] == {"path": str(cdir / ".lock"), "exists": True, "held_by": []}
    found = outcome(data, "compile-lock")
    assert found.status == "ok" and found.message.endswith("exists but no process holds it")
    assert "cannot be left stale" in found.details[0]


def test_lock_holders_reads_the_kernel_table(tmp_path: Path) -> None:
    target = tmp_path / "x.lock"
    target.write_text("")
    st = target.stat()
    table = tmp_path / "locks"
    table.write_text(f"1: FLOCK  ADVISORY  WRITE 4242 {os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:"
                     f"{st.st_ino} 0 EOF\n2: POSIX  ADVISORY  WRITE 99 00:00:1 0 EOF\n"
                     f"3: -> FLOCK  ADVISORY  WRITE 77 {os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:"
                     f"{st.st_ino} 0 EOF\n")
    assert lock_holders(str(target), str(table)) == [4242]
    assert lock_holders(str(target), str(tmp_path / "none")) is None


# ---- compiled modules and numpy ----------------------------------------------------------------


def test_modules_from_another_numpy_abi(compiledir: Path, tmp_path: Path) -> None:
    copy = tmp_path / "compiledir_old_numpy"
    shutil.copytree(compiledir, copy, ignore=shutil.ignore_patterns("lock_dir"))
    keys = sorted(copy.glob("tmp*/key.pkl"))
    assert keys
    raw = keys[0].read_bytes()
    assert b"NPY_ABI_VERSION=0x1000009" in raw  # what real Theano wrote
    keys[0].write_bytes(raw.replace(b"NPY_ABI_VERSION=0x1000009", b"NPY_ABI_VERSION=0x2000000"))
    section = probe_compiledir(str(copy))
    assert section["module_keys"]["abi_versions"]["0x2000000"] == 1
    data = with_compiledir(section)
    data["target"]["stages"]["numpy_import"] = {"ok": True, "ndarray_c_version": "0x1000009"}
    found = outcome(data, "compiledir-numpy")
    assert found.status == "warn"
    assert found.message == "1 compiled module(s) were built for another numpy C ABI (0x2000000; this numpy: 0x1000009)"
    assert "theano-cache clear" in found.remedy and found.commands == ()
    data["target"]["stages"]["numpy_import"] = {"ok": False}
    assert outcome(data, "compiledir-numpy").status == "skipped"


# ---- packages ----------------------------------------------------------------------------------


def test_real_env_package_checks(healthy37: str) -> None:
    doc = check_json(healthy37)
    expect = {
        "theano-duplicates": ("ok", "only Theano 1.0.5 is installed"),
        "scipy-numpy": ("ok", "scipy 1.2.1 accepts numpy 1.16.6 (it needs numpy >=1.8.2)"),
        "python-bits": ("ok", "64-bit Python"),
        "pygpu-version": ("ok", "pygpu is not installed (it is needed only for a GPU device)"),
        "mkl-service": ("ok", "MKL is not used (numpy's BLAS: openblas)"),
    }
    for cid, (status, message) in expect.items():
        assert (result(doc, cid)["status"], result(doc, cid)["message"]) == (status, message), cid
    blas = result(doc, "blas-ldflags")
    assert blas["status"] == "ok" and "Theano uses NumPy's C-API for BLAS" in blas["message"]
    assert "Using NumPy C-API based implementation" in blas["cause"]
    # real Theano said the same while importing
    assert any("Using NumPy C-API based implementation" in line
               for line in doc["facts"]["target"]["stages"]["theano_import"]["log"])


def test_theano_and_theano_pymc_side_by_side(healthy37: str, tmp_path: Path) -> None:
    extra = tmp_path / "site"
    meta = extra / "Theano_PyMC-1.1.2.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: Theano-PyMC\nVersion: 1.1.2\n\n")
    doc = check_json(healthy37, PYTHONPATH=str(extra))
    found = result(doc, "theano-duplicates")
    assert found["status"] == "warn"
    assert found["message"] == ("Theano 1.0.5 and Theano-PyMC 1.1.2 are both installed: `import theano` loads "
                                "Theano 1.0.5's files")
    assert "pip uninstall Theano Theano-PyMC" in found["remedy"] and found["commands"] == []


def test_shadowed_copy_of_theano() -> None:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["target"]["stages"]["distributions"]["packages"] = {"Theano": {
        "path": "/env/site-packages/Theano-1.0.5.dist-info", "version": "1.0.5",
        "others": [{"path": "/home/bob/.local/site-packages/Theano-1.0.3.dist-info", "version": "1.0.3"}]}}
    found = outcome(data, "theano-duplicates")
    assert found.status == "warn" and "installed 2 times" in found.message
    assert "shadowed: /home/bob/.local/site-packages/Theano-1.0.3.dist-info" in found.details


def pymc_like(numpy: str, requires: list[str] | None) -> dict[str, Any]:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    dists = data["target"]["stages"]["distributions"]
    dists["versions"].update({"scipy": "1.7.3", "numpy": numpy})
    dists["packages"] = {"scipy": {"version": "1.7.3", "requires": requires or []}}
    return data


@pytest.mark.parametrize("requires", [["numpy (<1.23.0,>=1.16.5)"], None])
def test_scipy_173_needs_numpy_below_123(requires: list[str] | None) -> None:
    found = outcome(pymc_like("1.23.5", requires), "scipy-numpy")
    assert found.status == "warn"
    assert found.message == "scipy 1.7.3 needs numpy <1.23.0,>=1.16.5, but numpy 1.23.5 is installed"
    source = "scipy 1.7.3's own package metadata" if requires else "scipy 1.7.3's wheel METADATA"
    assert source in found.cause
    assert outcome(pymc_like("1.21.6", requires), "scipy-numpy").status == "ok"


def test_scipy_without_any_declared_range_is_skipped() -> None:
    data = pymc_like("1.16.6", None)
    data["target"]["stages"]["distributions"]["versions"]["scipy"] = "1.6.3"  # no row in scipy_numpy.yaml
    data["target"]["stages"]["distributions"]["packages"]["scipy"]["version"] = "1.6.3"
    assert outcome(data, "scipy-numpy").status == "skipped"
    data["target"]["stages"]["distributions"]["versions"]["scipy"] = "1.2.1"  # the table's row (wheel METADATA)
    data["target"]["stages"]["distributions"]["packages"]["scipy"]["version"] = "1.2.1"
    assert outcome(data, "scipy-numpy").status == "ok"


@pytest.mark.parametrize("device, require_gpu, status", [
    ("cpu", False, "warn"), ("cuda", False, "error"), ("cpu", True, "error")])
def test_32_bit_python(device: str, require_gpu: bool, status: str) -> None:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["target"]["stages"]["interpreter"]["bits"] = 32
    data["target"]["stages"]["theano_config"]["values"]["device"] = {"value": device, "source": "THEANO_FLAGS"}
    found = next(r for r in judge(data, require_gpu=require_gpu).results if r.id == "python-bits").outcome
    assert found.status == status and found.message == "32-bit Python: the GPU stack has no builds for it"
    assert "x64" in found.cause


def pygpu_case(**pygpu: Any) -> dict[str, Any]:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["target"]["stages"]["pygpu"] = {"ok": True, "version": "0.7.6", **pygpu}
    return data


def test_pygpu_ready_on_a_cuda_device() -> None:
    found = outcome(pygpu_case(pygpu_activated=True, api_version=[2, 0], abi_version=[3, 0]), "pygpu-version")
    assert found.status == "ok" and found.message == "pygpu 0.7.6 (libgpuarray API 2, ABI 3) imports"
    assert "this build drives CUDA" in found.details[-1]


@pytest.mark.parametrize("pygpu, status, needle", [
    ({"version": "0.8.0"}, "error", "Theano 1.0 needs pygpu 0.7.x"),
    ({"version": "0.6.9"}, "error", "Theano 1.0 needs pygpu 0.7.x"),
    ({"api_version": [1, 0], "abi_version": [2, 0]}, "error", "libgpuarray API 1"),
    # Debian's own python3-pygpu drives CUDA too (tests/test_gpu_real.py): no warning about it.
    ({"file": "/usr/lib/python3/dist-packages/pygpu/__init__.py", "pygpu_activated": False}, "ok", "imports"),
    ({"ok": False, "error": {"type": "ImportError", "message":
      "libgpuarray.so.3: cannot open shared object file: No such file or directory"},
      "files": {"package_dir": "/env/site-packages/pygpu",
                "extensions": {"gpuarray.cpython-37m-x86_64-linux-gnu.so": ["libgpuarray.so.3"]},
                "libgpuarray": []}}, "error", "does not import"),
])
def test_pygpu_problems(pygpu: dict[str, Any], status: str, needle: str) -> None:
    found = outcome(pygpu_case(**pygpu), "pygpu-version")
    assert found.status == status and needle in found.message
    if "error" in pygpu:
        assert "needs libgpuarray.so.3, and the loader cannot find it" in found.cause
        assert "pygpu's extension asks the loader for libgpuarray.so.3" in found.details


def test_pygpu_version_on_cpu_is_only_a_warning_and_missing_pygpu_defers() -> None:
    data = pygpu_case(version="0.8.0")
    data["target"]["stages"]["theano_config"]["values"]["device"] = {"value": "cpu", "source": "default"}
    assert outcome(data, "pygpu-version").status == "warn"
    missing = snapshot("linux_rtx3090_pygpu_missing")
    found = outcome(missing, "pygpu-version")
    assert found.status == "skipped" and "theano-device" in found.message


def mkl_case(**changes: Any) -> dict[str, Any]:
    data = snapshot("windows_cuda102_ready")
    stages = data["target"]["stages"]
    stages["distributions"]["versions"]["mkl-service"] = changes.pop("service", "2.3.0")
    if "import_error" in changes:
        stages["theano_import"] = {"ok": False, "error": {"type": "RuntimeError",
                                                          "message": changes.pop("import_error")}}
    data["env"]["vars"].update(changes)
    return data


def test_mkl_service() -> None:
    assert outcome(mkl_case(), "mkl-service").message.endswith("mkl-service 2.3.0 is installed")
    broken = mkl_case(service=None, import_error="\nCould not import 'mkl'.  If you are using conda, ...")
    found = outcome(broken, "mkl-service")
    assert found.status == "error" and "conda install mkl-service" in found.remedy
    assert "MKL_THREADING_LAYER=GNU" in found.remedy
    gnu = mkl_case(service=None, import_error="other", MKL_THREADING_LAYER="GNU")
    assert outcome(gnu, "mkl-service").status == "ok"
    unknown = mkl_case(service=None, import_error="something else")
    assert outcome(unknown, "mkl-service").status == "warn"
    passed = mkl_case(service=None)  # Theano imported: its MKL check passed
    assert outcome(passed, "mkl-service").status == "ok"


def test_blas_ldflags_set_and_unknown() -> None:
    found = outcome(snapshot("windows_cuda102_ready"), "blas-ldflags")
    assert (found.status, found.message) == ("ok", "Theano links BLAS directly: blas.ldflags = -lmkl_rt")
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    data["target"]["stages"]["theano_import"] = {"ok": False, "error": {"type": "AttributeError",
                                                                        "message": "blas_opt_info"}}
    del data["target"]["stages"]["theano_config"]
    found = outcome(data, "blas-ldflags")
    assert found.status == "skipped" and "python-stack" in found.message


def test_package_checks_on_a_python_without_theano(legacy_python: Callable[[str], str]) -> None:
    doc = check_json(legacy_python("notheano38"))
    for cid in ("theano-duplicates", "scipy-numpy", "pygpu-version", "mkl-service", "blas-ldflags"):
        assert result(doc, cid)["status"] == "skipped", cid
    assert result(doc, "python-bits")["status"] == "ok"


# A real (tiny) libgpuarray.so.3 and a real pygpu extension linked against it, so the probe's
# file facts (which library pygpu needs, where it is, what got loaded) are read from real files.
STUB_LIB = "int gpuarray_api_major(void) { return 2; }\n"
STUB_EXT = """\
#include <Python.h>
extern int gpuarray_api_major(void);
static PyObject *api(PyObject *s, PyObject *a) { return Py_BuildValue("(ii)", gpuarray_api_major(), 0); }
static PyObject *abi(PyObject *s, PyObject *a) { return Py_BuildValue("(ii)", 3, 0); }
static PyMethodDef methods[] = {{"api_version", api, METH_NOARGS, ""}, {"abi_version", abi, METH_NOARGS, ""},
                                {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "gpuarray", NULL, -1, methods};
PyMODINIT_FUNC PyInit_gpuarray(void) { return PyModule_Create(&mod); }
"""


@pytest.fixture
def stub_pygpu(healthy37: str, tmp_path: Path) -> tuple[Path, Path]:
    """(site folder holding pygpu, folder holding libgpuarray.so.3), built with gcc."""
    paths = proc.run([healthy37, "-c", "import sysconfig as s; print(s.get_paths()['include']); "
                      "print(s.get_config_var('EXT_SUFFIX'))"], timeout=60).stdout.split()
    include, suffix = paths[0], paths[1]
    lib, site = tmp_path / "lib", tmp_path / "site"
    (site / "pygpu").mkdir(parents=True)
    lib.mkdir()
    (tmp_path / "lib.c").write_text(STUB_LIB)
    (tmp_path / "ext.c").write_text(STUB_EXT)
    for cmd in (["gcc", "-shared", "-fPIC", "-Wl,-soname,libgpuarray.so.3", "-o", str(lib / "libgpuarray.so.3"),
                 str(tmp_path / "lib.c")],
                ["gcc", "-shared", "-fPIC", f"-I{include}", "-o", str(site / "pygpu" / f"gpuarray{suffix}"),
                 str(tmp_path / "ext.c"), f"-L{lib}", "-l:libgpuarray.so.3"]):
        built = proc.run(cmd, timeout=120)
        assert built.ran and built.returncode == 0, built.stderr
    (site / "pygpu" / "__init__.py").write_text('from . import gpuarray\n__version__ = "0.7.6"\n')
    (site / "pygpu-0.7.6.dist-info").mkdir()
    (site / "pygpu-0.7.6.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: pygpu\nVersion: 0.7.6\n\n")
    return site, lib


def test_real_pygpu_without_and_with_its_libgpuarray(healthy37: str, stub_pygpu: tuple[Path, Path]) -> None:
    site, lib = stub_pygpu
    doc = check_json(healthy37, PYTHONPATH=str(site))
    found = result(doc, "pygpu-version")
    assert found["status"] == "warn"  # device=cpu: not blocking
    assert found["message"] == ("pygpu 0.7.6 does not import: ImportError: libgpuarray.so.3: cannot open shared "
                                "object file: No such file or directory")
    assert "needs libgpuarray.so.3, and the loader cannot find it" in found["cause"]
    assert "pygpu's extension asks the loader for libgpuarray.so.3" in found["details"]

    doc = check_json(healthy37, PYTHONPATH=str(site), LD_LIBRARY_PATH=str(lib))
    found = result(doc, "pygpu-version")
    assert (found["status"], found["message"]) == ("ok", "pygpu 0.7.6 (libgpuarray API 2, ABI 3) imports")
    assert f"libgpuarray files found: {lib / 'libgpuarray.so.3'}" in found["details"]
    assert f"libgpuarray loaded from {lib / 'libgpuarray.so.3'}" in found["details"]
    assert "cannot be told from its files" in found["details"][-1]


def test_pygpu_installed_but_never_imported_is_skipped() -> None:
    data = snapshot("linux_gtx1080ti_cuda102_ready")
    del data["target"]["stages"]["pygpu"]
    found = outcome(data, "pygpu-version")
    assert found.status == "skipped" and found.message.startswith("pygpu 0.7.6 is installed")


@pytest.mark.parametrize("protocol", [2, 4, 5])
def test_key_markers_follow_the_pickled_length(protocol: int) -> None:
    import pickle

    from theanodoctor.host.compiledir import key_markers

    key = (("CLinker.cmodule_key", ("-O3",), "NPY_ABI_VERSION=0x1000009", "c_compiler_str=/usr/bin/g++ 12",
            "md5:abc"),)
    found = key_markers(pickle.dumps(key, protocol=protocol))
    assert found == {"abi": {"0x1000009"}, "compiler": {"/usr/bin/g++ 12"}}
    assert key_markers(b"garbage NPY_ABI_VERSION=0x1 without a pickle opcode") == {"abi": set(), "compiler": set()}
