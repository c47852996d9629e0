"""`resolve --project`, for real: the real scan of small repositories written here, the era and
framework tables, and the real as-of resolver against PyPI (pip's cache in PIP_CACHE_DIR)."""

from __future__ import annotations

import os
from pathlib import Path

from packaging.version import Version

from tests.cli_helpers import doctor
from tests.legacy_envs import REAL_HOME, find_interpreter

PIP_ENV = {"PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR") or str(REAL_HOME / ".cache" / "pip")}

OLD_GPU_CODE = """\
import numpy
import theano
import theano.tensor as T
from theano.tensor.signal import downsample
from theano.sandbox.cuda import dnn


def pool(x):
    print "pooling"
    return downsample.max_pool_2d(x, (2, 2))
"""


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    return repo


def _resolve(repo: Path, *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    run = doctor("resolve", "--project", str(repo), "--as-of", "2016-06-01", *args, "--format", "json",
                 env=PIP_ENV, timeout=600)
    assert run.code in (0, 1), run.out[-2000:] + run.err[-2000:]
    return run.code, run.json()["lock"]


def test_old_backend_code_on_an_ampere_gpu_conflicts_with_ways_out(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"model.py": OLD_GPU_CODE, "requirements.txt": "numpy\nTheano\n"})
    code, lock = _resolve(repo, "--gpu", "RTX 3090")
    assert code == 1 and not lock["resolved"]
    conflict = lock["conflicts"][0]
    assert any("theano.sandbox.cuda (model.py:5)" in i for i in conflict["inputs"])
    assert "sm_86" in conflict["why"][0]["text"]
    ways = " | ".join(conflict["ways_out"])
    assert "--cpu-only" in ways and "theanodoctor port" in ways
    # the evidence behind each constraint comes along
    evidence = [e for c in lock["constraints"] for e in c["evidence"]]
    assert {"file": "model.py", "line": 4, "text": "from theano.tensor.signal import downsample"} in evidence


def test_old_backend_code_on_a_pascal_gpu_gets_the_old_backend(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"model.py": OLD_GPU_CODE})
    code, lock = _resolve(repo, "--arch", "sm_61")
    assert code == 0, lock["conflicts"]
    assert lock["theano"] == "0.8.2" and lock["python"] == "2.7" and lock["device"] == "gpu"
    assert {"name": "theanorc:global.device", "value": "gpu"}.items() <= next(
        s for s in lock["settings"] if s["name"] == "theanorc:global.device").items()
    gpu = {g["name"]: g["value"] for g in lock["gpu"]}
    # the old backend is known to work with CUDA 7.5 and 8.0; sm_61 needs 8.0; cuDNN up to 5.1
    assert (gpu["cuda"], gpu["cudnn"]) == ("8.0", "5.1") and "pygpu" not in gpu
    assert {"name": "theanorc:global.floatX", "value": "float32"}.items() <= next(
        s for s in lock["settings"] if s["name"] == "theanorc:global.floatX").items()


def test_a_cuda_the_old_backend_is_not_known_to_work_with_is_a_conflict_in_the_projects_terms(
        tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"model.py": OLD_GPU_CODE})
    code, lock = _resolve(repo, "--cuda", "10.2")
    assert code == 1
    conflict = lock["conflicts"][0]
    assert conflict["inputs"] == ["Theano 0.8.2 (what the code's markers allow)", "--cuda 10.2"]
    assert "use CUDA 8.0 instead of 10.2" in conflict["ways_out"]
    assert not any(w.startswith("use Theano") for w in conflict["ways_out"])


def test_a_repository_pin_beyond_the_theano_it_needs_is_a_conflict(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"model.py": OLD_GPU_CODE, "requirements.txt": "numpy==1.16.2\nTheano\n"})
    code, lock = _resolve(repo, "--cpu-only")
    assert code == 1
    conflict = lock["conflicts"][0]
    assert conflict["inputs"] == ["numpy==1.16.2 (the repository's pin)", "Theano 0.8.2"]
    assert "numpy<1.16.0" in conflict["why"][0]["text"]


def test_keras_gets_a_theano_backend_release_and_the_backend_setting(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"net.py": "import keras\nimport theano\nfrom keras.layers import Dense\n",
                            "requirements.txt": "keras\ntheano\n"})
    code, lock = _resolve(repo, "--cpu-only")
    assert code == 0, lock["conflicts"]
    pins = {p["name"].lower(): p["spec"] for p in lock["pins"]}
    assert pins["keras"].startswith("==") and Version(pins["keras"].lstrip("=")) < Version("2.4")
    assert {"KERAS_BACKEND": "theano"}.items() <= {s["name"]: s["value"] for s in lock["settings"]}.items()


def test_emit_pip_writes_exact_pins_only(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"model.py": OLD_GPU_CODE, "requirements.txt": "numpy\nscipy\n"})
    out = tmp_path / "lock.txt"
    run = doctor("resolve", "--project", str(repo), "--as-of", "2016-06-01", "--cpu-only", "--emit", "pip",
                 "-o", str(out), env=PIP_ENV, timeout=600)
    assert run.code == 0, run.err[-2000:]
    lines = [line for line in out.read_text().splitlines() if line and not line.startswith("#")]
    assert "Theano==0.8.2" in lines and all("==" in line for line in lines)


def test_a_folder_that_is_no_python_project_still_answers_in_json(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"notes.txt": "nothing here\n"})
    code, lock = _resolve(repo, "--cpu-only")
    assert code in (0, 1) and lock["project"] == str(repo)
    assert any("does not look like a Python project" in n for n in lock["notes"]) or lock["conflicts"]


def test_versions_are_not_taken_with_a_project(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"model.py": "import theano\n"})
    run = doctor("resolve", "--project", str(repo), "--theano", "1.0.5")
    assert run.code == 2 and "--theano" in run.err
    assert doctor("resolve", "--as-of", "2017-01-01").code == 2


def test_a_gpuarray_lock_is_provisioned_for_the_cpu_in_a_venv_and_says_why(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"model.py": "import theano\nimport theano.tensor as T\n"})
    run = doctor("provision", "--project", str(repo), "--as-of", "2019-06-01", "--arch", "sm_75", "--python",
                 str(find_interpreter("3.7")), "--prefix", str(tmp_path / "env"), "--dry-run", "--format", "json",
                 env=PIP_ENV, timeout=600)
    assert run.code == 0, run.err[-2000:]
    doc = run.json()
    assert doc["lock"]["device"] == "cuda" and doc["lock"]["python"] == "3.7"
    assert any(n.startswith("device=cpu in this venv: pygpu") for n in doc["plan"]["notes"])
    assert not (tmp_path / "env").exists()
