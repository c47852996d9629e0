"""Real pygpu 0.7.6 + libgpuarray 0.7.6 in a legacy test environment, from Debian 12's packages.

Debian's ``libgpuarray3``, ``libgpuarray-dev`` and ``python3-pygpu`` (0.7.6-13) are fetched with
``apt-get download`` (no install into the system) and unpacked with ``dpkg -x`` into the cache.
``python3-pygpu`` ships the Cython-generated C files of its extensions, which build unchanged for
Python 2.7 and 3.7 against the environment's own numpy. The environment gets a conda-like layout
(``lib/libgpuarray.so*``, ``include/gpuarray/``) because that is where Theano's GPU ops look for
the library and headers (``sys.exec_prefix``/lib and /include, theano/gpuarray/type.py).

``apt-get download`` needs the package lists: on a fresh machine without them this runs
``apt-get update`` first when it runs as root, and fails with the command to run otherwise.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# ocl-icd-libopencl1: the real OpenCL ICD loader (libOpenCL.so.1) for the OpenCL cases.
DEBS = ("libgpuarray3", "libgpuarray-dev", "python3-pygpu", "ocl-icd-libopencl1")
EXTENSIONS = ("gpuarray", "blas", "_elemwise", "collectives")


def _run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def _download(dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    proc = _run(["apt-get", "download", *DEBS], cwd=dest)
    if proc.returncode != 0 and os.geteuid() == 0:
        update = _run(["apt-get", "update"])
        if update.returncode == 0:
            proc = _run(["apt-get", "download", *DEBS], cwd=dest)
    if proc.returncode != 0:
        raise RuntimeError(
            f"apt-get download {' '.join(DEBS)} failed (Debian 12 packages; run `apt-get update` "
            f"as root first if the package lists are missing):\n{proc.stdout.decode(errors='replace')[-2000:]}")


def unpacked_debs(cache: Path) -> Path:
    """The folder the packages are unpacked into (downloaded once per cache and package list;
    one process unpacks, the others wait on the lock)."""
    root = cache / ("_debian-libgpuarray-0.7.6-" + hashlib.sha256(" ".join(DEBS).encode()).hexdigest()[:8])
    done = root / ".unpacked"
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / f".{root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            _unpack(root)
            done.write_text("ok\n")
    return root / "tree"


def _unpack(root: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)
    _download(root / "debs")
    for deb in sorted((root / "debs").glob("*.deb")):
        proc = _run(["dpkg", "-x", str(deb), str(root / "tree")])
        if proc.returncode != 0:
            raise RuntimeError(f"dpkg -x {deb.name} failed:\n{proc.stdout.decode(errors='replace')}")
    if not (root / "tree" / "usr" / "lib" / "libgpuarray.so.3.0").is_file():
        raise RuntimeError(f"the Debian packages did not contain libgpuarray.so.3.0 (in {root / 'debs'})")


def _python_info(python: Path) -> tuple[str, str, str, str]:
    code = ("import numpy, sysconfig, distutils.sysconfig as d;"
            "print(numpy.get_include()); print(d.get_python_inc());"
            "print(sysconfig.get_config_var('EXT_SUFFIX') or '.so'); print(d.get_python_lib())")
    out = subprocess.run([str(python), "-c", code], stdout=subprocess.PIPE, check=True).stdout.decode()
    numpy_inc, python_inc, suffix, site = out.split("\n")[:4]
    return numpy_inc, python_inc, suffix, site


def install_pygpu(env_dir: Path, python: Path, cache: Path) -> None:
    """Put libgpuarray + pygpu 0.7.6 into ``env_dir``, building pygpu's extensions for its Python."""
    tree = unpacked_debs(cache)
    usr = tree / "usr"
    lib = env_dir / "lib"
    for name in ("libgpuarray.so.3.0", "libgpuarray.so.3", "libgpuarray.so"):
        src = usr / "lib" / name
        if src.is_symlink():
            (lib / name).symlink_to(os.readlink(src))
        else:
            shutil.copy2(src, lib / name)
    shutil.copytree(usr / "include" / "gpuarray", env_dir / "include" / "gpuarray")
    numpy_inc, python_inc, suffix, site = _python_info(python)
    source = usr / "lib" / "python3" / "dist-packages"
    package = Path(site) / "pygpu"
    shutil.copytree(source / "pygpu", package,
                    ignore=shutil.ignore_patterns("*.cpython-*.so", "tests"))
    shutil.copytree(source / "pygpu-0.7.6.egg-info", Path(site) / "pygpu-0.7.6.egg-info")

    def build(module: str) -> subprocess.CompletedProcess[bytes]:
        # $ORIGIN/../../.. is the environment's lib/ from lib/pythonX.Y/site-packages/pygpu.
        return _run(["gcc", "-shared", "-fPIC", "-O1", "-w", f"-I{python_inc}", f"-I{numpy_inc}",
                     f"-I{env_dir / 'include'}", f"-I{package}", str(package / f"{module}.c"),
                     "-o", str(package / f"{module}{suffix}"), f"-L{lib}", "-lgpuarray",
                     "-Wl,-rpath,$ORIGIN/../../.."])

    with ThreadPoolExecutor(len(EXTENSIONS)) as pool:
        results = list(pool.map(build, EXTENSIONS))
    for module, proc in zip(EXTENSIONS, results):
        if proc.returncode != 0:
            raise RuntimeError(f"building pygpu's {module} failed:\n{proc.stdout.decode(errors='replace')[-3000:]}")
