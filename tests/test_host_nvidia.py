"""Driver probe: the real machine, fake nvidia-smi executables, and injected NVML loaders.

NVML cannot run without a driver, so NVML behaviour is exercised through the documented
injection point (``nvml=``) with objects that follow the pynvml API and raise pynvml's own
exception classes; everything nvidia-smi does runs for real as a shell script.
"""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys
import textwrap
import time
from collections import namedtuple
from pathlib import Path
from typing import Any

import pynvml
import pytest

from theanodoctor.host import nvidia
from theanodoctor.host.nvidia import cuda_version_from_int, probe_nvidia

RTX_UUID = "GPU-2b1f2c9e-7d1a-4c8e-9a43-0f6b2d5e8c11"
GTX_UUID = "GPU-8e0a4f3d-1b2c-4d5e-8f90-a1b2c3d4e5f6"

RTX_ROW = f"0, NVIDIA GeForce RTX 3090, {RTX_UUID}, 00000000:01:00.0, 535.104.05, " \
          "24576, 22950, 1626, 8.6"
GTX_ROW = f"1, NVIDIA GeForce GTX 1660 SUPER, {GTX_UUID}, 00000000:02:00.0, 535.104.05, " \
          "6144, 5936, 208, 7.5"

GOOD_SMI = f"""\
#!/bin/sh
case "$1" in
  --query-gpu=*)
    echo "{RTX_ROW}"
    echo "{GTX_ROW}"
    ;;
  --query-compute-apps=*)
    echo "{RTX_UUID}, 4242, /usr/bin/python3, 1400"
    ;;
  *)
    echo "Tue Oct 17 10:00:00 2023"
    echo "+---------------------------------------------------------------------------------------+"
    echo "| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |"
    ;;
esac
"""

# A 418 driver: no compute_cap field yet, CUDA 10.1 at most.
OLD_SMI = f"""\
#!/bin/sh
case "$1" in
  *compute_cap*)
    echo 'Field "compute_cap" is not a valid field to query.'
    exit 2
    ;;
  --query-gpu=*)
    echo "0, GeForce GTX 1080 Ti, {RTX_UUID}, 00000000:03:00.0, 418.87.01, 11178, 11000, 178"
    ;;
  --query-compute-apps=*)
    ;;
  *)
    echo "| NVIDIA-SMI 418.87.01    Driver Version: 418.87.01    CUDA Version: 10.1     |"
    ;;
esac
"""

HANGING_SMI = "#!/bin/sh\nsleep 60\n"

BROKEN_SMI = """\
#!/bin/sh
echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. \
Make sure that the latest NVIDIA driver is installed and running."
exit 9
"""


def fake_smi(tmp_path: Path, script: str) -> str:
    path = tmp_path / "bin" / "nvidia-smi"
    path.parent.mkdir(exist_ok=True)
    path.write_text(script)
    path.chmod(0o755)
    return str(path)


class NoDriverNVML:
    """What pynvml does on a machine whose driver is absent or not loaded."""

    def __init__(self, code: int = pynvml.NVML_ERROR_LIBRARY_NOT_FOUND) -> None:
        self.code = code

    def nvmlInit(self) -> None:
        raise pynvml.NVMLError(self.code)


class HangingNVML:
    def nvmlInit(self) -> None:
        time.sleep(30)


Memory = namedtuple("Memory", "total free used")
Pci = namedtuple("Pci", "busId")
Proc = namedtuple("Proc", "pid usedGpuMemory")


class OneGpuNVML:
    """The pynvml calls the probe makes, answering like an RTX 3090 on driver 535 would
    (older bindings return bytes, so names come back as bytes here)."""

    def nvmlInit(self) -> None:
        pass

    def nvmlShutdown(self) -> None:
        pass

    def nvmlSystemGetDriverVersion(self) -> bytes:
        return b"535.104.05"

    def nvmlSystemGetCudaDriverVersion(self) -> int:
        return 12020

    def nvmlDeviceGetCount(self) -> int:
        return 1

    def nvmlDeviceGetHandleByIndex(self, index: int) -> Any:
        return ("handle", index)

    def nvmlDeviceGetName(self, handle: Any) -> bytes:
        return b"NVIDIA GeForce RTX 3090"

    def nvmlDeviceGetUUID(self, handle: Any) -> str:
        return RTX_UUID

    def nvmlDeviceGetPciInfo(self, handle: Any) -> Pci:
        return Pci(b"00000000:01:00.0")

    def nvmlDeviceGetCudaComputeCapability(self, handle: Any) -> tuple[int, int]:
        return (8, 6)

    def nvmlDeviceGetMemoryInfo(self, handle: Any) -> Memory:
        return Memory(24576 * 2**20, 22950 * 2**20, 1626 * 2**20)

    def nvmlDeviceGetComputeRunningProcesses(self, handle: Any) -> list[Proc]:
        return [Proc(4242, 1400 * 2**20), Proc(4243, None)]

    def nvmlSystemGetProcessName(self, pid: int) -> bytes:
        if pid == 4243:
            raise pynvml.NVMLError(pynvml.NVML_ERROR_NO_PERMISSION)
        return b"/usr/bin/python3"


def test_this_machine_without_driver_is_missing_or_else_reports_gpus() -> None:
    result = probe_nvidia(timeout=10)
    has_driver = ctypes.util.find_library("nvidia-ml") or shutil.which("nvidia-smi")
    if has_driver:
        assert result["status"] == "ok", result["error"]
        assert result["driver_version"]
    else:
        assert result["status"] == "missing"
        assert result["error"].startswith("no NVIDIA driver found (")
        assert result["gpus"] == []


def test_fake_smi_two_gpus(tmp_path: Path) -> None:
    result = probe_nvidia(timeout=5, smi=fake_smi(tmp_path, GOOD_SMI), nvml=NoDriverNVML)
    assert result["status"] == "ok", result["error"]
    assert result["source"] == "nvidia-smi"
    assert "LibraryNotFound" in result["nvml_error"]
    assert result["driver_version"] == "535.104.05"
    assert result["cuda_driver_version"] == "12.2"
    rtx, gtx = result["gpus"]
    assert rtx == {
        "index": 0, "name": "NVIDIA GeForce RTX 3090", "uuid": RTX_UUID,
        "pci_bus_id": "00000000:01:00.0", "compute_capability": "8.6",
        "memory_total_mb": 24576, "memory_free_mb": 22950, "memory_used_mb": 1626,
        "processes": [{"pid": 4242, "name": "/usr/bin/python3", "used_mb": 1400}],
    }
    assert gtx["name"] == "NVIDIA GeForce GTX 1660 SUPER"
    assert gtx["compute_capability"] == "7.5"
    assert gtx["processes"] == []


def test_old_driver_without_compute_cap_field_is_retried(tmp_path: Path) -> None:
    result = probe_nvidia(timeout=5, smi=fake_smi(tmp_path, OLD_SMI), nvml=NoDriverNVML)
    assert result["status"] == "ok", result["error"]
    assert result["driver_version"] == "418.87.01"
    assert result["cuda_driver_version"] == "10.1"
    (gpu,) = result["gpus"]
    assert gpu["name"] == "GeForce GTX 1080 Ti"
    assert gpu["compute_capability"] is None
    assert gpu["memory_total_mb"] == 11178


def test_hanging_smi_is_a_timeout(tmp_path: Path) -> None:
    started = time.monotonic()
    result = probe_nvidia(timeout=1, smi=fake_smi(tmp_path, HANGING_SMI), nvml=NoDriverNVML)
    assert time.monotonic() - started < 20  # bounded, not 60 s of sleep
    assert result["status"] == "timeout"
    assert "did not answer" in result["error"]


def test_driver_installed_but_not_talking(tmp_path: Path) -> None:
    result = probe_nvidia(timeout=5, smi=fake_smi(tmp_path, BROKEN_SMI),
                          nvml=lambda: NoDriverNVML(pynvml.NVML_ERROR_DRIVER_NOT_LOADED))
    assert result["status"] == "error"
    assert "exit 9" in result["error"]
    assert "couldn't communicate with the NVIDIA driver" in result["error"]
    assert "DriverNotLoaded" in result["nvml_error"]


def test_no_nvml_and_no_smi_is_missing(tmp_path: Path) -> None:
    absent = str(tmp_path / "nowhere" / "nvidia-smi")
    result = probe_nvidia(timeout=5, smi=absent, nvml=NoDriverNVML)
    assert result["status"] == "missing"
    assert result["error"].startswith("no NVIDIA driver found (NVML: NVMLError_LibraryNotFound")


def test_missing_bindings_count_as_no_driver(tmp_path: Path) -> None:
    def no_pynvml() -> Any:
        raise ImportError("No module named 'pynvml'")

    result = probe_nvidia(timeout=5, smi=str(tmp_path / "nvidia-smi"), nvml=no_pynvml)
    assert result["status"] == "missing"


def test_hanging_nvml_falls_back_to_smi(tmp_path: Path) -> None:
    result = probe_nvidia(timeout=0.5, smi=fake_smi(tmp_path, GOOD_SMI), nvml=HangingNVML)
    assert result["status"] == "ok"
    assert result["source"] == "nvidia-smi"
    assert "did not answer within 0.5 s" in result["nvml_error"]


def test_hanging_nvml_without_smi_is_a_timeout(tmp_path: Path) -> None:
    result = probe_nvidia(timeout=0.5, smi=str(tmp_path / "nvidia-smi"), nvml=HangingNVML)
    assert result["status"] == "timeout"


def test_nvml_answers_are_mapped() -> None:
    result = probe_nvidia(timeout=5, nvml=OneGpuNVML)
    assert result["status"] == "ok"
    assert result["source"] == "nvml"
    assert result["driver_version"] == "535.104.05"
    assert result["cuda_driver_version"] == "12.2"
    (gpu,) = result["gpus"]
    assert gpu["name"] == "NVIDIA GeForce RTX 3090"
    assert gpu["pci_bus_id"] == "00000000:01:00.0"
    assert gpu["compute_capability"] == "8.6"
    assert (gpu["memory_total_mb"], gpu["memory_free_mb"], gpu["memory_used_mb"]) == (
        24576, 22950, 1626)
    assert gpu["processes"] == [
        {"pid": 4242, "name": "/usr/bin/python3", "used_mb": 1400},
        {"pid": 4243, "name": None, "used_mb": None},
    ]


@pytest.mark.parametrize(("value", "expected"), [
    (12020, "12.2"), (10010, "10.1"), (11080, "11.8"), (9020, "9.2"), (13000, "13.0"),
    (0, None), (None, None),
])
def test_cuda_version_encoding(value: int | None, expected: str | None) -> None:
    assert cuda_version_from_int(value) == expected


def test_smi_output_with_unexpected_shape_still_returns(tmp_path: Path) -> None:
    script = textwrap.dedent("""\
        #!/bin/sh
        echo "garbage line"
        echo "0, name, GPU-x, bus, 535.1, lots, 1, 2, 8.6"
        """)
    result = probe_nvidia(timeout=5, smi=fake_smi(tmp_path, script), nvml=NoDriverNVML)
    assert result["status"] == "ok"
    (gpu,) = result["gpus"]
    assert gpu["memory_total_mb"] is None
    assert gpu["memory_free_mb"] == 1


def test_no_kernel_driver_skips_loading_nvml() -> None:
    """Without a loaded driver the default probe does not even import pynvml (a real run)."""
    if any(os.path.exists(mark) for mark in nvidia._LINUX_DRIVER_MARKS) or sys.platform != "linux":
        pytest.skip("this machine has an NVIDIA kernel driver (or is not Linux)")
    code = ("import sys; from theanodoctor.host.nvidia import probe_nvidia; r = probe_nvidia(); "
            "print(r['status'], 'pynvml' in sys.modules, r['nvml_error'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("missing False ") and "kernel driver not loaded" in out
