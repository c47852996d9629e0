"""WSL2 as a platform: the Windows NVIDIA driver's Linux side lives in /usr/lib/wsl/lib (libcuda,
NVML, nvidia-smi) and /proc/driver/nvidia does not exist.

The host probe is pointed at a temp tree laid out like WSL2's (a kernel version string, the driver
folder with the libcuda stand-in and a real nvidia-smi script), and the target side is the real
stack (pygpu + libgpuarray 0.7.6 + Theano 1.0.5) run through the stand-ins; `check --from` then
judges the two together.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.cli_helpers import doctor, result
from tests.driver_standins import driver_folder
from tests.test_gpu_real import _check
from tests.test_host_nvidia import GOOD_SMI, NoDriverNVML
from theanodoctor.host.nvidia import probe_nvidia
from theanodoctor.host.system import probe_system, probe_wsl

WSL_KERNEL = ("Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1) (gcc (GCC) 11.2.0, GNU ld "
              "(GNU Binutils) 2.37) #1 SMP Fri Mar 29 23:14:13 UTC 2024")
DEBIAN_KERNEL = "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1"


def wsl_tree(tmp_path: Path, built: Path) -> tuple[Path, Path]:
    """(/proc/version, /usr/lib/wsl/lib) of a WSL2 machine: libcuda.so, .so.1 and .so.1.1 are
    plain copies there (not links), beside NVML and nvidia-smi."""
    version = tmp_path / "proc" / "version"
    version.parent.mkdir(parents=True)
    version.write_text(WSL_KERNEL + "\n")
    lib = tmp_path / "usr" / "lib" / "wsl" / "lib"
    driver_folder(built, lib, {n: "libcuda.so" for n in ("libcuda.so", "libcuda.so.1", "libcuda.so.1.1")})
    (lib / "libnvidia-ml.so.1").write_bytes(b"")
    (lib / "nvidia-smi").write_text(GOOD_SMI)
    (lib / "nvidia-smi").chmod(0o755)
    return version, lib


def test_wsl_is_detected_from_the_kernel_and_the_driver_folder(tmp_path: Path, standins: Path) -> None:
    version, lib = wsl_tree(tmp_path, standins)
    found = probe_system(proc_version=str(version), wsl_lib=str(lib))["wsl"]
    assert found["kernel_says_wsl"] is True and found["lib_dir"] == str(lib)
    assert found["lib_files"] == ["libcuda.so", "libcuda.so.1", "libcuda.so.1.1", "libnvidia-ml.so.1", "nvidia-smi"]
    plain = tmp_path / "plain-version"
    plain.write_text(DEBIAN_KERNEL + "\n")
    assert probe_wsl(str(plain), str(tmp_path / "absent")) is None
    # The folder alone is a mark too (a kernel string changed by a custom kernel).
    assert probe_wsl(str(plain), str(lib))["kernel_says_wsl"] is False


def test_nvidia_smi_is_found_in_the_wsl_driver_folder(tmp_path: Path, standins: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _, lib = wsl_tree(tmp_path, standins)
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))  # nvidia-smi is not on PATH
    nvidia = probe_nvidia(nvml=lambda: NoDriverNVML(), wsl_lib=str(lib))
    assert nvidia["status"] == "ok" and nvidia["source"] == "nvidia-smi"
    assert [g["name"] for g in nvidia["gpus"]] == ["NVIDIA GeForce RTX 3090", "NVIDIA GeForce GTX 1660 SUPER"]


def _judged_on_wsl(doc: dict[str, Any], version: Path, lib: Path, tmp_path: Path) -> dict[str, Any]:
    """The target facts of a real run, with the host sections a WSL2 machine gives (the probes run
    against the temp tree), judged again with `check --from`."""
    facts = doc["facts"]
    facts["system"] = probe_system(proc_version=str(version), wsl_lib=str(lib))
    facts["nvidia"] = probe_nvidia(smi=str(lib / "nvidia-smi"), nvml=lambda: NoDriverNVML())
    saved = tmp_path / f"wsl-{len(list(tmp_path.glob('wsl-*.json')))}.json"
    saved.write_text(json.dumps(doc))
    run = doctor("check", "--from", str(saved), "--format", "json")
    judged: dict[str, Any] = json.loads(run.out)
    return judged


def test_wsl_verdicts_before_and_after_the_driver_folder_is_on_ld_library_path(
        legacy_python: Callable[[str], str], standins: Path, theano_home: Path, tmp_path: Path) -> None:
    version, lib = wsl_tree(tmp_path, standins)
    toolkit = driver_folder(standins, tmp_path / "cuda" / "lib64", {"libnvrtc.so": "libnvrtc.so",
                                                                    "libcublas.so": "libcublas.so"})
    python = legacy_python("gpu37")
    # As on WSL2 out of the box: dlopen("libcuda.so") does not look in the driver folder.
    before = _judged_on_wsl(_check(python, {"THEANO_FLAGS": "device=cuda", "LD_LIBRARY_PATH": str(toolkit)}),
                            version, lib, tmp_path)
    assert result(before, "nvidia-driver")["status"] == "ok"  # nvidia-smi from the WSL folder answers
    device = result(before, "theano-device")
    assert device["status"] == "error" and "known failure: libcuda-missing" in " ".join(device["details"])
    libs = result(before, "linux-cuda-libs")
    assert libs["status"] == "error"
    assert any(d.startswith(f"libcuda.so: {lib}/libcuda.so is WSL2's driver library") for d in libs["details"])
    assert f"export LD_LIBRARY_PATH={lib}:$LD_LIBRARY_PATH" in libs["remedy"]
    assert "microsoft/WSL/issues/8587" in libs["cause"]
    assert result(before, "gpu-path")["message"].startswith("CPU only: pygpu 0.7.6 could not initialize the GPU")
    # The remedy, applied: the real libgpuarray opens the GPU, and every verdict agrees.
    after = _judged_on_wsl(_check(python, {"THEANO_FLAGS": "device=cuda",
                                           "LD_LIBRARY_PATH": f"{lib}:{toolkit}"}), version, lib, tmp_path)
    assert {c: result(after, c)["status"] for c in ("nvidia-driver", "theano-device", "linux-cuda-libs")} == \
        {"nvidia-driver": "ok", "theano-device": "ok", "linux-cuda-libs": "ok"}
    assert result(after, "gpu-path")["message"] == "device=cuda with pygpu 0.7.6 on NVIDIA GeForce RTX 3090"


def test_no_driver_on_wsl_points_at_the_windows_driver(legacy_python: Callable[[str], str], theano_home: Path,
                                                       tmp_path: Path) -> None:
    version = tmp_path / "version"
    version.write_text(WSL_KERNEL + "\n")
    lib = tmp_path / "wsl-lib"  # WSL2 without a Windows NVIDIA driver: no driver folder contents
    lib.mkdir()
    doc = _check(legacy_python("gpu37"), {"THEANO_FLAGS": "device=cuda", "LD_LIBRARY_PATH": ""})
    facts = doc["facts"]
    facts["system"] = probe_system(proc_version=str(version), wsl_lib=str(lib))
    facts["nvidia"] = probe_nvidia(smi=str(tmp_path / "no-nvidia-smi"), nvml=lambda: NoDriverNVML())
    saved = tmp_path / "wsl.json"
    saved.write_text(json.dumps(doc))
    judged = json.loads(doctor("check", "--from", str(saved), "--format", "json").out)
    driver = result(judged, "nvidia-driver")
    assert driver["status"] == "error" and "NVIDIA driver on Windows" in driver["remedy"]
    assert "install no Linux NVIDIA driver inside WSL" in driver["remedy"]


def test_this_machine_is_not_taken_for_wsl_without_its_marks() -> None:
    found = probe_system()["wsl"]
    kernel = Path("/proc/version").read_text(errors="replace") if Path("/proc/version").exists() else ""
    marked = "microsoft" in kernel.lower() or "wsl" in kernel.lower() or Path("/usr/lib/wsl/lib").is_dir()
    assert (found is not None) == marked
