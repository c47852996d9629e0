"""Build and cache the real legacy Python environments the tests run against.

Each spec names a pyenv-style interpreter (major.minor) and exact pins. Environments are
built once into a cache folder (``THEANODOCTOR_ENV_CACHE``, default
``~/.cache/theanodoctor/test-envs``) and reused by later runs; a half-built one (no marker
file) is rebuilt. A missing interpreter is an error, never a skip: CI must fail loudly.

``python -m tests.legacy_envs`` builds every spec (``.ci/run`` does this first).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from tests.pygpu_build import install_pygpu

MARKER = ".theanodoctor-test-env.json"
# Read once at import: the tests' guard fixture later points HOME at a temporary folder.
REAL_HOME = Path.home()


class EnvSpec(NamedTuple):
    name: str
    python: str  # "major.minor"
    packages: tuple[str, ...]
    post: tuple[str, ...] = ()  # build steps after pip: "pygpu" (tests/pygpu_build.py)

    @property
    def key(self) -> str:
        blob = json.dumps([self.python, sorted(self.packages)] + ([list(self.post)] if self.post else [])).encode()
        return hashlib.sha256(blob).hexdigest()[:10]


SPECS = {
    spec.name: spec
    for spec in (
        EnvSpec("healthy37", "3.7", ("numpy==1.16.6", "scipy==1.2.1", "Theano==1.0.5")),
        EnvSpec("numpy124", "3.9", ("numpy==1.24.4", "scipy==1.10.1", "Theano==1.0.5")),
        EnvSpec("numpy123", "3.9", ("numpy==1.23.5", "scipy==1.9.3", "Theano==1.0.5")),
        EnvSpec("py27", "2.7", ("numpy==1.16.6", "scipy==1.2.1", "Theano==1.0.5")),
        EnvSpec("pymc39", "3.9", ("numpy==1.21.6", "scipy==1.7.3", "Theano-PyMC==1.1.2")),
        EnvSpec("notheano38", "3.8", ()),
        # Both import only with blas.ldflags set (THEANO_FLAGS=blas.ldflags=): Theano rel-1.0.5
        # theano/configdefaults.py:1284.
        EnvSpec("numpy2_311", "3.11", ("numpy==2.0.2", "scipy==1.13.1", "Theano==1.0.5")),
        EnvSpec("py311_np123", "3.11", ("numpy==1.23.5", "scipy==1.10.1", "Theano==1.0.5")),
        # The older Theano releases with the numpy/scipy of their own months (profiles/theano_releases.yaml).
        EnvSpec("theano082_py27", "2.7", ("numpy==1.11.0", "scipy==0.17.1", "Theano==0.8.2")),
        EnvSpec("theano090_py36", "3.6", ("numpy==1.12.1", "scipy==0.19.0", "Theano==0.9.0")),
        # Keras 1 and Keras 2 on that Theano: their own messages for a model saved by another major release
        # (h5py for the weight files, a release of the same months).
        EnvSpec("keras122_th09", "3.6", ("numpy==1.12.1", "scipy==0.19.0", "Theano==0.9.0", "Keras==1.2.2",
                                             "PyYAML==5.4.1", "h5py==2.7.1")),
        EnvSpec("keras208_th09", "3.6", ("numpy==1.12.1", "scipy==0.19.0", "Theano==0.9.0", "Keras==2.0.8",
                                             "PyYAML==5.4.1", "h5py==2.7.1")),
        # Theano <= 1.0.3 compiles nothing with numpy 1.16.0-1.16.4 (`_get_ndarray_c_version` moved; fixed
        # in Theano 1.0.4); numpy 1.16.5 exports it again, so 1.0.3 works with 1.16.6.
        EnvSpec("theano103_np1162", "3.7", ("numpy==1.16.2", "scipy==1.2.1", "Theano==1.0.3")),
        EnvSpec("theano103_np116", "3.7", ("numpy==1.16.6", "scipy==1.2.1", "Theano==1.0.3")),
        # Theano 1.0.2's scan C code (Cython 0.25.2) reads thread state fields Python 3.7 moved;
        # 1.0.3 regenerated it and declared Python 3.7 support.
        EnvSpec("theano102_py37", "3.7", ("numpy==1.16.6", "scipy==1.2.1", "Theano==1.0.2")),
        # Real pygpu + libgpuarray 0.7.6 (Debian 12's packages, extensions built for the env).
        EnvSpec("gpu37", "3.7", ("numpy==1.16.6", "scipy==1.2.1", "Theano==1.0.5", "Mako==1.1.6"), ("pygpu",)),
        EnvSpec("gpu27", "2.7", ("numpy==1.16.6", "scipy==1.2.1", "Theano==1.0.5", "Mako==1.1.6"), ("pygpu",)),
        # pygpu without its dependency mako: `import pygpu` fails.
        EnvSpec("gpu37_nomako", "3.7", ("numpy==1.16.6", "scipy==1.2.1", "Theano==1.0.5"), ("pygpu",)),
        EnvSpec("gpu27_nomako", "2.7", ("numpy==1.16.6", "scipy==1.2.1", "Theano==1.0.5"), ("pygpu",)),
    )
}


class MissingInterpreter(RuntimeError):
    pass


def cache_root() -> Path:
    env = os.environ.get("THEANODOCTOR_ENV_CACHE")
    return Path(env) if env else REAL_HOME / ".cache" / "theanodoctor" / "test-envs"


def find_interpreter(version: str) -> Path:
    """The newest pyenv interpreter X.Y.*, else ``pythonX.Y`` on PATH."""
    roots = [os.environ.get("PYENV_ROOT"), str(REAL_HOME / ".pyenv")]
    for root in filter(None, roots):
        versions = Path(root) / "versions"
        if not versions.is_dir():
            continue
        found = sorted(
            (p for p in versions.iterdir() if p.name.startswith(version + ".")),
            key=lambda p: [int(x) if x.isdigit() else 0 for x in p.name.split(".")],
        )
        for candidate in reversed(found):
            exe = candidate / "bin" / "python"
            if exe.exists():
                return exe
    on_path = shutil.which("python" + version)
    if on_path:
        return Path(on_path)
    raise MissingInterpreter(
        f"Python {version} is required by the test suite and was not found "
        f"(looked in $PYENV_ROOT/versions, ~/.pyenv/versions and for python{version} on PATH)"
    )


def env_python(env_dir: Path) -> Path:
    return env_dir / "bin" / "python"


def _run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        tail = proc.stdout.decode(errors="replace")[-4000:]
        raise RuntimeError(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{tail}")


def _create_venv(interpreter: Path, dest: Path, python: str) -> None:
    if python.startswith("2."):
        # Python 2 has no venv module; virtualenv 20.21 is the last that creates 2.7 envs.
        _run([sys.executable, "-m", "virtualenv", "--no-download", "-p", str(interpreter), str(dest)])
    else:
        _run([str(interpreter), "-m", "venv", str(dest)])


@contextlib.contextmanager
def _build_lock(dest: Path) -> Iterator[None]:
    """One builder per environment: parallel test runs sharing the cache wait for each other
    instead of deleting each other's half-built folder."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(dest.parent / f".{dest.name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def ensure_env(name: str) -> Path:
    """Return the folder of a built environment, building it if the cache lacks it."""
    spec = SPECS[name]
    dest = cache_root() / f"{spec.name}-{spec.key}"
    if (dest / MARKER).is_file():
        return dest
    with _build_lock(dest):
        if not (dest / MARKER).is_file():
            _build(spec, dest)
    return dest


def release(python: str, *requirements: str) -> Path:
    """Real releases of packages (``six==1.8.0``), installed once into the environment cache without
    their dependencies, for a PYTHONPATH that puts them in front of an environment's own."""
    dest = cache_root() / "+".join(r.replace("==", "-") for r in requirements)
    if dest.is_dir():
        return dest
    with _build_lock(dest):
        if not dest.is_dir():
            staging = Path(tempfile.mkdtemp(prefix="release-", dir=dest.parent))
            _run([python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--no-deps",
                  "--target", str(staging), *requirements])
            staging.rename(dest)
    return dest


def _build(spec: EnvSpec, dest: Path) -> None:
    interpreter = find_interpreter(spec.python)
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    _create_venv(interpreter, dest, spec.python)
    if spec.packages:
        _run(
            [str(env_python(dest)), "-m", "pip", "install", "--disable-pip-version-check",
             "--no-input", *spec.packages]
        )
    if "pygpu" in spec.post:
        install_pygpu(dest, env_python(dest), cache_root())
    (dest / MARKER).write_text(json.dumps({"spec": spec._asdict(), "interpreter": str(interpreter)}))


def main(argv: list[str]) -> int:
    """``python -m tests.legacy_envs [--python] [NAME ...]``: build (or find) the environments;
    with --python print only their interpreters' paths (for scripts and the README demo)."""
    if "-h" in argv or "--help" in argv:
        print(f"usage: python -m tests.legacy_envs [--python] [NAME ...]\n\n{main.__doc__}\n\n"
              f"known environments: {', '.join(SPECS)}")
        return 0
    only_python = "--python" in argv
    names = [a for a in argv if a != "--python"] or list(SPECS)
    unknown = [n for n in names if n not in SPECS]
    if unknown:
        print(f"unknown environment(s): {', '.join(unknown)}; known: {', '.join(SPECS)}", file=sys.stderr)
        return 2
    for name in names:
        env = ensure_env(name)
        print(env_python(env) if only_python else f"legacy env {name}: {env}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
