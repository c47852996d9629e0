"""Stand-ins for the NVIDIA driver libraries, the one boundary that cannot exist on a test machine.

``tests/standin_src/lib{cuda,nvrtc,cublas}.c`` export what libgpuarray 0.7.6 looks up
(``src/loaders/*.fn``); the tests compile them once a session with the machine's gcc and lay them
out per case in a folder put on ``LD_LIBRARY_PATH``. Everything above them is real: libgpuarray,
pygpu, Theano, the probe and the doctor. What the stand-in driver reports (version, devices, name,
compute capability, a cuInit failure, a primary context another library already opened) comes from
``STANDIN_CUDA_*`` variables (see libcuda.c).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

SOURCES = Path(__file__).parent / "standin_src"
LIBRARIES = ("libcuda.so", "libnvrtc.so", "libcublas.so")


def compile_standins(dest: Path) -> Path:
    """Build the three libraries into ``dest``; a missing gcc fails loudly."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in LIBRARIES:
        source = SOURCES / (name[: -len(".so")] + ".c")
        # gnu11: libcublas.c relies on unprototyped definitions (an empty parameter list takes any arguments).
        subprocess.run(["gcc", "-std=gnu11", "-shared", "-fPIC", "-O1", "-o", str(dest / name), str(source)],
                       check=True)
    return dest


def driver_folder(built: Path, dest: Path, names: dict[str, str] | None = None) -> Path:
    """A folder holding stand-ins under the given file names: ``{"libcuda.so.1": "libcuda.so"}``
    puts the libcuda stand-in there as ``libcuda.so.1`` only. Default: all three, unversioned."""
    dest.mkdir(parents=True, exist_ok=True)
    for name, library in (names if names is not None else {n: n for n in LIBRARIES}).items():
        shutil.copy2(built / library, dest / name)
    return dest
