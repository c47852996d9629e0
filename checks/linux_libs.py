"""The CUDA shared libraries libgpuarray (pygpu) dlopen()s on Linux: the fixed unversioned
``libcuda.so``, ``libnvrtc.so``, ``libcublas.so`` (libgpuarray v0.7.6 src/loaders/*.c), and where
the loader finds them: the libraries the target process mapped, else the files in the
LD_LIBRARY_PATH folders. Windows: see libraries.py."""

from __future__ import annotations

import posixpath

from theanodoctor import kb_libs
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts, section

from .common import stage, target_os
from .cuda_toolkits import in_use_line, toolkit_in_use
from .gpu_common import gpu_backend, gpu_init_output, libgpuarray_gate, wsl
from .lib_folders import Folder, first_path, kit_has, ld_folders, pygpu_activated, subpath, unseen

LINKS = "~/cuda-links"  # the folder fixes/soname_links.py creates


def mapped(facts: Facts, name: str) -> list[str]:
    """Files named ``name`` or ``name.N`` the target process had mapped after `import theano`."""
    loaded = stage(facts, "pygpu").get("gpu_libraries_loaded")
    return [str(p) for p in (loaded or {}).get(name) or []] if isinstance(loaded, dict) else []


def _versioned(name: str, folders: list[Folder], kit: dict | None) -> list[str]:
    """Paths of ``name.N`` files in the LD_LIBRARY_PATH folders and the toolkit's lib folder."""
    found = [subpath(f.path, real) for f in folders if f.files
             for low, real in sorted(f.files.items()) if low.startswith(name + ".")]
    lib_dir = str((kit or {}).get("lib_dir") or "")
    found += [posixpath.join(lib_dir, str(n)) for n in sorted((kit or {}).get("libraries") or [])
              if str(n).startswith(name + ".")]
    return sorted(dict.fromkeys(found), key=lambda p: (p.count("."), p))


def _quote(name: str, said: str) -> str:
    return f'`Could not load "{name}"`' if f'Could not load "{name}"' in said else "`Missing Blas library`"


def _link_remedy(name: str, target: str, lib_dir: str) -> str:
    # What fixes/soname_links.py links: the driver's libcuda.so.1, the toolkit's versioned files.
    fixable = target.endswith("/libcuda.so.1") if name == "libcuda.so" else bool(lib_dir) and target.startswith(
        lib_dir.rstrip("/") + "/")
    return (f"Create the unversioned link in a folder on LD_LIBRARY_PATH: `mkdir -p {LINKS} && ln -s {target} "
            f"{LINKS}/{name}`, then export LD_LIBRARY_PATH={LINKS}:$LD_LIBRARY_PATH"
            + (" (`theanodoctor fix --only cuda-soname-links` makes the link)." if fixable else "."))


@check("linux-cuda-libs", "libcuda.so, libnvrtc.so, libcublas.so resolve for libgpuarray", area="libraries")
def linux_cuda_libs(facts: Facts, options: Options) -> Outcome:
    if target_os(facts) != "Linux":
        return skipped("Linux only (Windows: see gpuarray-dll-names)")
    gate = libgpuarray_gate(facts, options)
    if gate is not None:
        return gate
    if gpu_backend(facts).kind == "opencl" and not options.require_gpu:
        return skipped(f"{gpu_backend(facts).setting}: the OpenCL back-end loads libOpenCL.so, not these "
                       "(see theano-device)")
    if section(facts, "env").get("status") != "ok":
        return skipped("the environment (LD_LIBRARY_PATH) was not probed")
    rule = kb_libs.loader_rule()
    folders = ld_folders(facts)
    use = toolkit_in_use(facts)
    kit = use.kit
    said = gpu_init_output(facts)  # what the target said while libgpuarray loaded libraries
    parts: list[tuple[str, str]] = []  # (status, line)
    remedies: list[str] = []
    for name in rule.linux:
        loaded = mapped(facts, name)
        if loaded:
            parts.append(("ok", f"{name}: loaded by the target from {loaded[0]}"))
            continue
        at = first_path(name, folders)
        if at:
            parts.append(("ok", f"{name}: {at} (LD_LIBRARY_PATH)"))
            continue
        # cuBLAS is loaded only when a GPU opens; its absence shows as `Missing Blas library`.
        failed = f'Could not load "{name}"' in said or (name == "libcublas.so" and "Missing Blas library" in said)
        tail = f"; the target failed for lack of it ({_quote(name, said)})" if failed else ""
        lib_dir = (kit or {}).get("lib_dir") or ""
        if name != "libcuda.so" and kit_has(kit, name):
            parts.append(("error" if failed else "warn",
                          f"{name}: in {lib_dir}, which is not on LD_LIBRARY_PATH; dlopen finds it there only if "
                          f"/etc/ld.so.conf lists that folder (not probed){tail}"))
            remedies.append(f"export LD_LIBRARY_PATH={lib_dir}:$LD_LIBRARY_PATH (in ~/.bashrc or the job script).")
            continue
        versioned = _versioned(name, folders, kit if name != "libcuda.so" else None)
        if versioned:
            parts.append(("error" if failed else "warn",
                          f"{name}: {versioned[0]} is there but not the unversioned {name} libgpuarray asks for "
                          f"(the development link){tail}"))
            remedies.append(_link_remedy(name, versioned[0], lib_dir))
            continue
        on_wsl = wsl(facts) or {}
        if name == "libcuda.so" and name in (on_wsl.get("lib_files") or []):
            lib_dir = str(on_wsl.get("lib_dir"))
            parts.append(("error" if failed else "warn",
                          f"{name}: {posixpath.join(lib_dir, name)} is WSL2's driver library, but dlopen finds the "
                          f"unversioned name only with {lib_dir} on LD_LIBRARY_PATH (the loader cache lists "
                          f"libcuda.so.1 only){tail}"))
            remedies.append(f"export LD_LIBRARY_PATH={lib_dir}:$LD_LIBRARY_PATH (in ~/.bashrc or the job script).")
            continue
        if name == "libcuda.so":
            parts.append(("error" if failed else "skipped",
                          f"{name}: the target failed with {_quote(name, said)}" if failed else
                          f"{name}: comes with the driver; not in any LD_LIBRARY_PATH folder, and the system folders "
                          "were not looked at"))
            if failed:
                remedies.append("Install the NVIDIA driver's libraries (libcuda.so) or add their folder to "
                                "LD_LIBRARY_PATH.")
            continue
        searched = ", ".join(f.path for f in folders) or "empty"
        parts.append(("error" if failed else "warn", f"{name}: in none of the LD_LIBRARY_PATH folders ({searched}) "
                      f"nor the toolkit's ({lib_dir or 'no toolkit found'}){tail}"))
        remedies.append(f"Install the CUDA toolkit's {name} (a full toolkit, not only the runtime) and put its "
                        "lib64 folder on LD_LIBRARY_PATH.")
    details = tuple(line for _, line in parts) + unseen(folders) + ((in_use_line(use),) if kit else ())
    if pygpu_activated(facts):
        return ok("pygpu initialised the GPU in the target, so these libraries resolved there", details=details)
    statuses = {status for status, _ in parts}
    if statuses <= {"skipped"}:
        return skipped("nothing to judge: " + "; ".join(line for _, line in parts))
    cause = ("libgpuarray 0.7.6 dlopen()s exactly these unversioned names, whatever the driver version; dlopen "
             "looks in LD_LIBRARY_PATH, then the folders of /etc/ld.so.conf (ldconfig) and the system folders. "
             "A driver-only install has libcuda.so.1 but not the libcuda.so link."
             + (" On WSL2 the driver's libraries live in their own folder, which ld.so.conf.d/ld.wsl.conf gives to "
                "the linker but which dlopen() of the unversioned name does not find (github.com/microsoft/WSL/"
                "issues/8587, github.com/NVIDIA/cuda-python/issues/17)." if wsl(facts) else ""))
    remedy = " ".join(dict.fromkeys(remedies))
    bad = [line for status, line in parts if status in ("error", "warn")]
    names = ", ".join(line.split(":")[0] for line in bad)
    if "error" in statuses:
        return error(f"libgpuarray cannot load {names}", cause=cause, remedy=remedy, details=details,
                     fix_id="cuda-soname-links")
    if "warn" in statuses:
        return warn(f"{names} may not resolve for libgpuarray", cause=cause, remedy=remedy, details=details,
                    fix_id="cuda-soname-links")
    return ok("; ".join(line for status, line in parts if status == "ok"), details=details)
