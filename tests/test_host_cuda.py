"""CUDA toolkit and cuDNN probes against temp trees laid out like real installs.

Windows layouts are built on this Linux machine and probed with ``os_name="Windows"``:
names and separators follow Windows, existence is checked on the real filesystem.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from theanodoctor.host.cuda import probe_cuda
from theanodoctor.host.cudnn import probe_cudnn, version_number

CUDNN7_H = """\
/* cudnn : Neural Networks Library */
#if !defined(CUDNN_H_)
#define CUDNN_H_

#define CUDNN_MAJOR 7
#define CUDNN_MINOR 6
#define CUDNN_PATCHLEVEL 5

#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)
#endif
"""
CUDNN8_H = '#if !defined(CUDNN_H_)\n#define CUDNN_H_\n#include "cudnn_version.h"\n#endif\n'
CUDNN8_VERSION_H = """\
#ifndef CUDNN_VERSION_H_
#define CUDNN_VERSION_H_

#define CUDNN_MAJOR 8
#define CUDNN_MINOR 0
#define CUDNN_PATCHLEVEL 5

#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)
#endif
"""
FAKE_NVCC = """\
#!/bin/sh
echo "nvcc: NVIDIA (R) Cuda compiler driver"
echo "Copyright (c) 2005-2019 NVIDIA Corporation"
echo "Cuda compilation tools, release {v}, V{full}"
"""


def touch(path: Path, text: str = "", executable: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if executable:
        path.chmod(0o755)
    return path


def windows_toolkit(program_files: Path, version: str, dlls: list[str]) -> Path:
    root = program_files / "NVIDIA GPU Computing Toolkit" / "CUDA" / f"v{version}"
    for dll in dlls:
        touch(root / "bin" / dll)
    touch(root / "include" / "cuda.h")
    touch(root / "lib" / "x64" / "cudart.lib")
    return root


@pytest.fixture
def windows_tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    program_files = tmp_path / "Program Files"
    v102 = windows_toolkit(program_files, "10.2",
                           ["cublas64_10.dll", "nvrtc64_102_0.dll", "cudart64_102.dll"])
    touch(v102 / "version.txt", "CUDA Version 10.2.89\n")
    touch(v102 / "bin" / "nvcc.exe")
    v101 = windows_toolkit(program_files, "10.1",
                           ["cublas64_10.dll", "nvrtc64_101_0.dll", "cudart64_101.dll"])
    # No version file: the version must come from running nvcc (a script stands in for it).
    touch(v101 / "bin" / "nvcc.exe", FAKE_NVCC.format(v="10.1", full="10.1.243"), True)
    return program_files, v102, v101


def test_windows_toolkits_from_env_path_and_program_files(windows_tree) -> None:
    program_files, v102, v101 = windows_tree
    env = {
        "ProgramFiles": str(program_files),
        "CUDA_PATH": str(v102),
        "CUDA_PATH_V10_2": str(v102),
        "CUDA_PATH_V10_1": str(v101),
        # Windows names are case-insensitive ("Path"); the entries are real temp folders.
        "Path": f"{v102}/bin;{v102}/libnvvp;C:\\Windows\\system32",
    }
    result = probe_cuda(env, os_name="Windows")
    assert result["status"] == "ok", result["error"]
    kits = {Path(k["root"]).name: k for k in result["toolkits"]}
    assert list(kits) == ["v10.2", "v10.1"]  # CUDA_PATH's toolkit first
    new = kits["v10.2"]
    assert new["version"] == "10.2"
    assert new["version_full"] == "10.2.89"
    assert new["version_source"] == "version.txt"
    assert new["sources"] == ["CUDA_PATH", "CUDA_PATH_V10_2", "nvcc-on-path", "path-bin",
                              "default-dir"]
    assert new["libraries"] == ["cublas64_10.dll", "cudart64_102.dll", "nvrtc64_102_0.dll"]
    assert new["lib_dir"] == os.path.join(str(v102), "lib", "x64")
    assert new["nvcc"] == os.path.join(str(v102), "bin", "nvcc.exe")
    old = kits["v10.1"]
    assert (old["version"], old["version_full"], old["version_source"]) == (
        "10.1", "10.1.243", "nvcc")
    assert old["sources"] == ["CUDA_PATH_V10_1", "default-dir"]
    assert result["nvcc_on_path"] == os.path.join(str(v102), "bin", "nvcc.exe")
    # Theano takes CUDA_PATH; its PATH rule looks for "nvcc" without .exe.
    assert result["theano_cuda_root"]["path"] == str(v102)
    assert result["theano_cuda_root"]["source"] == "CUDA_PATH"
    json.dumps(result)


def test_windows_theano_never_finds_nvcc_exe_on_path(windows_tree) -> None:
    program_files, v102, _ = windows_tree
    env = {"PATH": f"{v102}/bin", "ProgramFiles": str(program_files)}
    result = probe_cuda(env, os_name="Windows")
    assert result["nvcc_on_path"] == os.path.join(f"{v102}/bin", "nvcc.exe")
    assert result["theano_cuda_root"] == {"path": None, "source": None, "toolkit": None}


def test_stale_cuda_path_is_rejected_with_a_reason(tmp_path: Path, windows_tree) -> None:
    program_files, _, _ = windows_tree
    empty = tmp_path / "old-cuda"
    empty.mkdir()
    env = {"CUDA_PATH": str(tmp_path / "gone"), "CUDA_HOME": str(empty),
           "ProgramFiles": str(program_files)}
    result = probe_cuda(env, os_name="Windows")
    assert [(r["source"], r["why"].split(" (")[0]) for r in result["rejected"]] == [
        ("CUDA_PATH", "does not exist"), ("CUDA_HOME", "is not a CUDA toolkit")]
    assert len(result["toolkits"]) == 2


@pytest.fixture
def linux_tree(tmp_path: Path) -> Path:
    local = tmp_path / "usr" / "local"
    c102 = local / "cuda-10.2"
    touch(c102 / "version.txt", "CUDA Version 10.2.89")
    touch(c102 / "bin" / "nvcc", FAKE_NVCC.format(v="10.2", full="10.2.89"), True)
    for name in ("libcudart.so.10.2.89", "libcublas.so.10", "libnvrtc.so.10.2", "README"):
        touch(c102 / "lib64" / name)
    (c102 / "lib64" / "libcudart.so").symlink_to("libcudart.so.10.2.89")
    c118 = local / "cuda-11.8"
    touch(c118 / "version.json", json.dumps(
        {"cuda": {"name": "CUDA SDK", "version": "11.8.20220929"}}))
    touch(c118 / "lib64" / "libcudart.so.11.0")
    (local / "cuda").symlink_to("cuda-10.2")
    return local


def test_linux_symlink_and_versioned_dir_are_one_toolkit(linux_tree: Path) -> None:
    roots = [str(linux_tree / n) for n in ("cuda", "cuda-10.2", "cuda-11.8", "missing")]
    env = {"CUDA_HOME": str(linux_tree / "cuda"), "PATH": "/nonexistent"}
    result = probe_cuda(env, os_name="Linux", roots=roots)
    assert result["status"] == "ok", result["error"]
    first, second = result["toolkits"]
    assert first["root"] == str((linux_tree / "cuda-10.2").resolve())
    assert first["sources"] == ["CUDA_HOME", "default-dir"]
    assert first["aliases"] == [str(linux_tree / "cuda")]
    assert result["symlink_to"] == {str(linux_tree / "cuda"): first["root"]}
    assert first["libraries"] == ["libcublas.so.10", "libcudart.so", "libcudart.so.10.2.89",
                                  "libnvrtc.so.10.2"]
    assert first["lib_dir"].endswith("lib64")
    assert (second["version"], second["version_full"], second["version_source"]) == (
        "11.8", "11.8.20220929", "version.json")
    assert second["nvcc"] is None
    assert result["nvcc_on_path"] is None


def test_linux_nvcc_on_path_and_theano_root(linux_tree: Path) -> None:
    env = {"PATH": f"/nonexistent:{linux_tree / 'cuda' / 'bin'}"}
    result = probe_cuda(env, os_name="Linux", roots=[])
    (kit,) = result["toolkits"]
    assert kit["sources"] == ["nvcc-on-path", "path-bin"]
    assert result["nvcc_on_path_version"] == {
        "version": "10.2", "version_full": "10.2.89", "error": None, "toolkit": kit["root"]}
    # Theano 1.0.5: the parent of the PATH folder holding nvcc, not resolved.
    assert result["theano_cuda_root"] == {
        "path": str(linux_tree / "cuda"), "source": "nvcc-on-path", "toolkit": kit["root"]}


def test_nvcc_wrapper_outside_any_toolkit(tmp_path: Path, linux_tree: Path) -> None:
    # Like /usr/local/bin/nvcc exec-ing the real one: Theano would take /usr/local as root.
    wrapper_dir = tmp_path / "wrapper" / "bin"
    real = linux_tree / "cuda-10.2" / "bin" / "nvcc"
    touch(wrapper_dir / "nvcc", f'#!/bin/sh\nexec "{real}" "$@"\n', True)
    result = probe_cuda({"PATH": str(wrapper_dir)}, os_name="Linux", roots=[])
    assert result["toolkits"] == []
    assert result["nvcc_on_path"] == str(wrapper_dir / "nvcc")
    assert result["nvcc_on_path_version"]["version"] == "10.2"
    assert result["nvcc_on_path_version"]["toolkit"] is None
    assert result["theano_cuda_root"]["path"] == str(tmp_path / "wrapper")
    assert result["theano_cuda_root"]["toolkit"] is None


def test_this_machine_nvcc_is_reported_honestly() -> None:
    result = probe_cuda()
    assert result["status"] == "ok", result["error"]
    on_path = shutil.which("nvcc")
    assert result["nvcc_on_path"] == on_path
    if on_path:
        version = result["nvcc_on_path_version"]["version"]
        assert version and re.fullmatch(r"\d+\.\d+", version)
    for kit in result["toolkits"]:
        assert os.path.isdir(kit["root"])
        assert kit["version"] is None or re.fullmatch(r"\d+\.\d+", kit["version"])


def test_hanging_nvcc_does_not_hang_the_probe(tmp_path: Path) -> None:
    root = tmp_path / "cuda-x"
    touch(root / "include" / "cuda.h")
    touch(root / "bin" / "nvcc", "#!/bin/sh\nsleep 60\n", True)
    result = probe_cuda({"PATH": ""}, os_name="Linux", roots=[str(root)], timeout=0.5)
    (kit,) = result["toolkits"]
    assert kit["version"] is None
    assert "no answer within 0.5 s" in kit["version_error"]


# ---- cuDNN -------------------------------------------------------------------------------


def test_cudnn7_copied_into_a_windows_toolkit(windows_tree) -> None:
    program_files, v102, _ = windows_tree
    touch(v102 / "include" / "cudnn.h", CUDNN7_H)
    touch(v102 / "bin" / "cudnn64_7.dll")
    touch(v102 / "lib" / "x64" / "cudnn.lib")
    cuda = probe_cuda({"ProgramFiles": str(program_files)}, os_name="Windows")
    result = probe_cudnn(cuda["toolkits"], env={}, os_name="Windows")
    assert result["status"] == "ok", result["error"]
    (install,) = result["installs"]
    assert install["version"] == "7.6.5"
    assert (install["major"], install["minor"], install["patch"]) == (7, 6, 5)
    assert install["version_number"] == 7605
    assert install["header"] == os.path.join(str(v102), "include", "cudnn.h")
    assert install["libraries"] == ["cudnn.lib", "cudnn64_7.dll"]
    assert install["in_toolkit"] == str(v102)
    assert install["has_cudnn_h"] is True


def test_cudnn8_standalone_from_env_and_debian_layout(tmp_path: Path) -> None:
    standalone = tmp_path / "cudnn-8"
    touch(standalone / "include" / "cudnn.h", CUDNN8_H)
    touch(standalone / "include" / "cudnn_version.h", CUDNN8_VERSION_H)
    for name in ("libcudnn.so.8.0.5", "libcudnn.so.8", "libcudnn_ops_infer.so.8"):
        touch(standalone / "lib64" / name)
    # Debian/Ubuntu: alternatives symlink in /usr/include, libraries in the multiarch dir.
    usr = tmp_path / "usr"
    real_header = touch(usr / "include" / "x86_64-linux-gnu" / "cudnn_version_v7.h", CUDNN7_H)
    (usr / "include" / "cudnn.h").symlink_to(real_header)
    touch(usr / "lib" / "x86_64-linux-gnu" / "libcudnn.so.7.6.5")
    result = probe_cudnn([], env={"CUDNN_PATH": str(standalone)}, os_name="Linux",
                         system_roots=[str(usr)])
    eight, seven = result["installs"]
    assert eight["version"] == "8.0.5"
    assert eight["header"].endswith("cudnn_version.h")
    assert eight["version_number"] == 8005
    assert eight["libraries"] == ["libcudnn.so.8", "libcudnn.so.8.0.5",
                                  "libcudnn_ops_infer.so.8"]
    assert eight["in_toolkit"] is None
    assert seven["version"] == "7.6.5"
    assert seven["root"] == str(usr)
    assert seven["libraries"] == ["libcudnn.so.7.6.5"]


def test_cudnn_found_twice_is_reported_once_and_extra_roots(tmp_path: Path,
                                                            linux_tree: Path) -> None:
    kit_root = str((linux_tree / "cuda-10.2").resolve())
    touch(Path(kit_root) / "include" / "cudnn.h", CUDNN7_H)
    touch(Path(kit_root) / "lib64" / "libcudnn.so.7")
    extra = tmp_path / "conda-env"
    touch(extra / "include" / "cudnn.h", CUDNN8_H)  # 8.x header without its version twin
    result = probe_cudnn([{"root": kit_root}], env={"CUDNN_HOME": str(linux_tree / "cuda")},
                         os_name="Linux", extra_roots=[str(extra)], system_roots=[])
    in_kit, headless = result["installs"]
    assert in_kit["in_toolkit"] == kit_root
    assert in_kit["libraries"] == ["libcudnn.so.7"]
    assert headless["version"] is None
    assert headless["has_cudnn_h"] is True


def test_no_cudnn_anywhere(tmp_path: Path) -> None:
    result = probe_cudnn([{"root": str(tmp_path)}, {"no": "root"}], env={}, os_name="Linux",
                         system_roots=[str(tmp_path / "none")])
    assert result["status"] == "ok"
    assert result["installs"] == []


@pytest.mark.parametrize(("version", "number"), [((5, 1, 10), 5110), ((7, 6, 5), 7605),
                                                 ((9, 1, 0), 90100)])
def test_cudnn_version_number(version: tuple[int, int, int], number: int) -> None:
    assert version_number(*version) == number
