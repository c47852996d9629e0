"""The checks judge an environment by its own release's rules, on hand-built snapshots (the GPU
side cannot exist here): a recorded Linux GTX 1080 Ti machine, turned into a Theano 0.9 one."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.test_checks_gpu import outcome, set_device, snapshot, text

LINUX = "linux_gtx1080ti_cuda102_ready"


def theano(version: str, device: str = "gpu", gpu: tuple[str, str] | None = None,
           cuda: str | None = None) -> dict[str, Any]:
    data = set_device(copy.deepcopy(snapshot(LINUX)), device)
    data["target"]["stages"]["distributions"]["versions"]["Theano"] = version
    if gpu:
        data["nvidia"]["gpus"][0].update(name=gpu[0], compute_capability=gpu[1])
    if cuda:
        data["cuda"]["nvcc_on_path_version"].update(version=cuda, version_full=cuda + ".0")
    return data


def test_device_gpu_on_theano_105_is_still_the_removed_backend() -> None:
    out = outcome(theano("1.0.5"), "theano-device")
    assert out.status == "error" and "removed in Theano 1.0" in out.message


def test_device_gpu_on_theano_09_is_the_old_backend() -> None:
    out = outcome(theano("0.9.0", cuda="8.0"), "theano-device")
    assert "the old GPU back-end of Theano 0.9.0" in out.message and "removed" not in out.message
    assert out.status in ("ok", "warn")
    assert outcome(theano("0.9.0", cuda="8.0"), "gpu-path").status == "ok"


@pytest.mark.parametrize("gpu, cuda", [(("NVIDIA A100-SXM4-40GB", "8.0"), "8.0"),
                                       (("GeForce RTX 2080", "7.5"), "9.0")])
def test_old_backend_on_a_gpu_its_nvcc_cannot_target(gpu: tuple[str, str], cuda: str) -> None:
    out = outcome(theano("0.9.0", gpu=gpu, cuda=cuda), "theano-device")
    assert out.status == "error" and "cannot drive this GPU" in out.message
    assert f"CUDA {cuda}" in out.message and "-arch=sm_" in out.message
    assert "device=cpu" in out.remedy and "gpuarray back-end" in out.remedy and "porting" in out.remedy
    path = outcome(theano("0.9.0", gpu=gpu, cuda=cuda), "gpu-path")
    assert "cannot drive this GPU" in path.message


def test_old_backend_on_a_cuda_it_is_not_known_to_work_with() -> None:
    out = outcome(theano("0.9.0", cuda="10.2"), "theano-device")  # the GTX 1080 Ti is sm_61: 10.2 knows it
    assert out.status == "warn" and "not known to work (known: 7.5, 8.0)" in out.message


def test_old_backend_warns_on_float64_and_a_new_cudnn() -> None:
    data = theano("0.9.0", cuda="8.0")
    data["cudnn"]["installs"] = [{"root": "/usr", "version": "7.6.5", "major": 7, "minor": 6, "patch": 5,
                                  "has_cudnn_h": True, "libraries": ["libcudnn.so.7"]}]
    data["target"]["stages"]["theano_config"]["values"]["floatX"] = {"value": "float64", "source": "THEANO_FLAGS"}
    out = outcome(data, "theano-device")
    assert out.status == "warn" and "floatX=float64" in out.message
    assert "cuDNN 7.6.5 is newer than the old back-end officially supports (5.1)" in text(out)


def test_lib_cnmem_is_a_09_option_and_removed_in_10() -> None:
    for version, flagged in (("0.9.0", False), ("1.0.5", True)):
        data = theano(version, device="cpu")
        data["env"]["vars"]["THEANO_FLAGS"] = "lib.cnmem=0.8"
        data["target"]["stages"]["theano_config"].pop("flags_unrecognised", None)
        data["target"]["stages"]["theano_config"]["known_keys"] = []
        out = outcome(data, "theano-flags")
        assert ("lib.cnmem" in text(out) and "not recognised" in text(out)) is flagged, (version, text(out))


def test_python_stack_judges_an_old_release_by_its_own_rows() -> None:
    data = theano("0.9.0", device="cpu")  # the snapshot's Python 3.7 with numpy 1.16.6
    out = outcome(data, "python-stack")
    assert out.status == "warn" and "numpy newer than any known to work with Theano 0.9.0" in out.message
    assert "1.12.1" in out.cause
    data["target"]["stages"]["distributions"]["versions"]["numpy"] = "1.12.1"
    out = outcome(data, "python-stack")
    assert out.status == "warn" and "Python 3.7 is not one Theano 0.9.0 is known to work on" in out.message
    assert "resolve --theano 0.9.0" in out.remedy
    data["target"]["stages"]["distributions"]["versions"]["Theano"] = "1.0.5"
    assert outcome(data, "python-stack").status == "ok"  # 1.0.5's rules were reproduced across numpys


def test_python_stack_names_the_numpy_116_rule_only_for_releases_before_104() -> None:
    data = theano("1.0.3", device="cpu")
    data["target"]["stages"]["distributions"]["versions"]["numpy"] = "1.16.2"
    out = outcome(data, "python-stack")
    assert out.status == "error" and "_get_ndarray_c_version" in out.cause
    data["target"]["stages"]["distributions"]["versions"]["Theano"] = "1.0.4"
    assert "_get_ndarray_c_version" not in text(outcome(data, "python-stack"))
