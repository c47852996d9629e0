"""system and env probes: real machine facts, explicit env mappings for both OS conventions."""

from __future__ import annotations

import json
import platform
import socket
import sys

from theanodoctor.host.envvars import probe_env
from theanodoctor.host.system import probe_system


def test_system_describes_this_machine() -> None:
    result = probe_system()
    assert result["status"] == "ok", result["error"]
    assert result["os"] == platform.system()
    assert result["machine"] == platform.machine()
    assert result["hostname"] == socket.gethostname()
    assert result["doctor_python"]["executable"] == sys.executable
    assert result["doctor_python"]["version"] == platform.python_version()
    assert result["doctor_python"]["bits"] in (32, 64)
    json.dumps(result)


def test_env_linux_splits_path_and_keeps_only_set_vars() -> None:
    env = {
        "PATH": "/usr/local/cuda-10.2/bin:/usr/bin::/bin",
        "LD_LIBRARY_PATH": "/usr/local/cuda-10.2/lib64:/opt/lib",
        "THEANO_FLAGS": "device=cuda,floatX=float32",
        "CUDA_HOME": "/usr/local/cuda",
        "UNRELATED": "x",
    }
    result = probe_env(env, os_name="Linux")
    assert result["status"] == "ok"
    assert result["pathsep"] == ":"
    assert result["path"] == ["/usr/local/cuda-10.2/bin", "/usr/bin", "/bin"]
    assert result["ld_library_path"] == ["/usr/local/cuda-10.2/lib64", "/opt/lib"]
    assert result["vars"] == {
        "CUDA_HOME": "/usr/local/cuda",
        "THEANO_FLAGS": "device=cuda,floatX=float32",
        "LD_LIBRARY_PATH": "/usr/local/cuda-10.2/lib64:/opt/lib",
    }


def test_env_windows_uses_semicolons_and_versioned_cuda_path_vars() -> None:
    v102 = r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v10.2"
    v101 = r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v10.1"
    env = {
        # Windows variable names are case-insensitive: "Path" is PATH.
        "Path": v102 + r"\bin;" + v102 + r"\libnvvp;C:\Windows\system32",
        "CUDA_PATH": v102,
        "CUDA_PATH_V10_2": v102,
        "CUDA_PATH_V10_1": v101,
        "THEANORC": r"C:\Users\me\.theanorc;C:\Users\me\lab.theanorc",
    }
    result = probe_env(env, os_name="Windows")
    assert result["pathsep"] == ";"
    assert result["path"] == [v102 + r"\bin", v102 + r"\libnvvp", r"C:\Windows\system32"]
    assert result["vars"]["CUDA_PATH_V10_1"] == v101
    assert result["vars"]["CUDA_PATH_V10_2"] == v102
    assert result["vars"]["THEANORC"].count(";") == 1
    assert result["ld_library_path"] == []


def test_env_defaults_to_the_real_environment(monkeypatch) -> None:
    monkeypatch.setenv("THEANO_FLAGS", "floatX=float32")
    monkeypatch.setenv("PATH", "/a:/b")
    result = probe_env(os_name="Linux")
    assert result["vars"]["THEANO_FLAGS"] == "floatX=float32"
    assert result["path"] == ["/a", "/b"]


def test_env_with_broken_mapping_is_an_error_not_a_crash() -> None:
    result = probe_env({"PATH": 5}, os_name="Linux")  # type: ignore[dict-item]
    assert result["status"] == "error"
    assert "AttributeError" in result["error"]
