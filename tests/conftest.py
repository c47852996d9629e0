"""Shared fixtures: a guard so no test touches the real home, and the real legacy envs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Callable

import pytest

from tests import legacy_envs
from tests.driver_standins import compile_standins

# Other people's repositories, input for scan: never collected (their tests import their packages).
collect_ignore = ["scan_corpus", "port_corpus"]

# Variables that would make a test depend on the machine it runs on.
_ISOLATED_VARS = (
    "THEANO_FLAGS", "THEANORC", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "VIRTUAL_ENV",
    "CUDA_PATH", "CUDA_ROOT", "CUDA_HOME", "CUDA_VISIBLE_DEVICES", "NO_COLOR", "FORCE_COLOR",
    "PYENV_ROOT", "PYENV_VERSION", "CONDA_EXE", "MAMBA_ROOT_PREFIX",
)


@pytest.fixture(autouse=True)
def guard_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets an empty home folder; the real one is never read or written."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    for var in _ISOLATED_VARS:
        monkeypatch.delenv(var, raising=False)
    return home


class _ProfilesFolder:
    """Stands in for the installed profiles folder: table texts held in a dict."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def joinpath(self, name: str) -> _ProfilesFolder:
        return _ProfilesFolder({"": self.files[name]})

    def read_text(self, encoding: str = "utf-8") -> str:
        return self.files[""]


@pytest.fixture
def fake_profiles(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """``fake_profiles["x.yaml"] = text``: the knowledge loaders read these texts instead of the
    real tables (every parsed table is forgotten before and after)."""
    import theanodoctor.checks  # noqa: F401  (registers every table loader)

    from theanodoctor import knowledge

    files: dict[str, str] = {}
    monkeypatch.setattr(knowledge.resources, "files", lambda pkg: _ProfilesFolder(files))
    knowledge.forget()
    yield files
    knowledge.forget()


@pytest.fixture(scope="session")
def legacy_env() -> Callable[[str], Path]:
    """``legacy_env("healthy37")`` -> folder of that real, cached environment."""
    return legacy_envs.ensure_env


@pytest.fixture(scope="session")
def legacy_python(legacy_env: Callable[[str], Path]) -> Callable[[str], str]:
    """``legacy_python("healthy37")`` -> path of that environment's interpreter."""
    return lambda name: str(legacy_envs.env_python(legacy_env(name)))


@pytest.fixture(scope="session")
def _shared_theano_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("theano-home")


@pytest.fixture
def theano_home(_shared_theano_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home shared by the tests that import real Theano, so its C modules compile once a
    session instead of once a test. Still never the real home."""
    monkeypatch.setenv("HOME", str(_shared_theano_home))
    monkeypatch.setenv("USERPROFILE", str(_shared_theano_home))
    return _shared_theano_home


@pytest.fixture(scope="session")
def standins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The NVIDIA driver stand-ins (libcuda.so, libnvrtc.so, libcublas.so), compiled once a session."""
    return compile_standins(tmp_path_factory.mktemp("standins"))
