"""The CUDA shared libraries libgpuarray (pygpu) dlopen()s on Linux: the fixed unversioned
``libcuda.so``, ``libnvrtc.so``, ``libcublas.so`` (FACTS.md s4), and where the loader finds them,
from the facts only. Windows: see libraries.py."""

from __future__ import annotations

import posixpath

from theanodoctor import kb_libs
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts, section

from .common import stage, target_os
from .cuda_toolkits import in_use_line, toolkit_in_use
from .gpu_common import libgpuarray_gate
from .lib_folders import first_path, kit_has, ld_folders, pygpu_activated, unseen


def load_failures(facts: Facts) -> str:
    """What the target said while pygpu/Theano tried to load libraries (log and pygpu error)."""
    lines = [str(x) for x in stage(facts, "theano_import").get("log") or []]
    err = stage(facts, "pygpu").get("error")
    if isinstance(err, dict):
        lines.append(str(err.get("message") or ""))
    return "\n".join(lines)


@check("linux-cuda-libs", "libcuda.so, libnvrtc.so, libcublas.so resolve for libgpuarray", area="libraries")
def linux_cuda_libs(facts: Facts, options: Options) -> Outcome:
    if target_os(facts) != "Linux":
        return skipped("Linux only (Windows: see gpuarray-dll-names)")
    gate = libgpuarray_gate(facts, options)
    if gate is not None:
        return gate
    if section(facts, "env").get("status") != "ok":
        return skipped("the environment (LD_LIBRARY_PATH) was not probed")
    rule = kb_libs.loader_rule()
    folders = ld_folders(facts)
    use = toolkit_in_use(facts)
    kit = use.kit
    said = load_failures(facts)
    parts: list[tuple[str, str]] = []  # (status, line)
    remedies: list[str] = []
    for name in rule.linux:
        at = first_path(name, folders)
        if at:
            parts.append(("ok", f"{name}: {at} (LD_LIBRARY_PATH)"))
            continue
        failed = f'Could not load "{name}"' in said
        if name == "libcuda.so":
            parts.append(("error" if failed else "skipped",
                          f"{name}: the target failed with `Could not load \"{name}\"`" if failed else
                          f"{name}: comes with the driver (usually /usr/lib/x86_64-linux-gnu); no fact about it"))
            if failed:
                remedies.append("Install the NVIDIA driver's libraries (libcuda.so) or add their folder to "
                                "LD_LIBRARY_PATH.")
            continue
        lib_dir = (kit or {}).get("lib_dir") or ""
        versioned = sorted(str(n) for n in (kit or {}).get("libraries") or [] if str(n).startswith(name + "."))
        if kit_has(kit, name):
            line = (f"{name}: in {lib_dir}, which is not on LD_LIBRARY_PATH; dlopen finds it there only if "
                    "/etc/ld.so.conf lists that folder (not probed)")
            remedies.append(f"export LD_LIBRARY_PATH={lib_dir}:$LD_LIBRARY_PATH (in ~/.bashrc or the job script).")
        elif versioned:
            line = (f"{name}: {lib_dir} has {', '.join(versioned)} but not the unversioned {name} libgpuarray "
                    "asks for (the development symlink)")
            remedies.append(f"Create the symlink in a folder on LD_LIBRARY_PATH: `mkdir -p ~/cuda-links && ln -s "
                            f"{posixpath.join(lib_dir, versioned[0])} ~/cuda-links/{name}`, then "
                            "export LD_LIBRARY_PATH=~/cuda-links:$LD_LIBRARY_PATH.")
        else:
            line = (f"{name}: not in any folder the doctor knows (LD_LIBRARY_PATH: "
                    f"{', '.join(f.path for f in folders) or 'empty'}; toolkit lib: {lib_dir or 'none found'})")
            remedies.append(f"Install the CUDA toolkit's {name} (a full toolkit, not only the runtime) and put its "
                            "lib64 folder on LD_LIBRARY_PATH.")
        parts.append(("error" if failed else "warn", line + (f"; the target failed with `Could not load \"{name}\"`"
                                                              if failed else "")))
    details = tuple(line for _, line in parts) + unseen(folders) + ((in_use_line(use),) if kit else ())
    if pygpu_activated(facts):
        return ok("pygpu initialised the GPU in the target, so these libraries resolved there", details=details)
    statuses = {status for status, _ in parts}
    if statuses <= {"skipped"}:
        return skipped("nothing to judge: " + "; ".join(line for _, line in parts))
    cause = ("libgpuarray 0.7.6 dlopen()s exactly these unversioned names; dlopen looks in LD_LIBRARY_PATH, then "
             "the folders of /etc/ld.so.conf (ldconfig) and the system folders.")
    remedy = " ".join(dict.fromkeys(remedies))
    bad = [line for status, line in parts if status in ("error", "warn")]
    if "error" in statuses:
        return error(f"libgpuarray cannot load {', '.join(line.split(':')[0] for line in bad)}",
                     cause=cause, remedy=remedy, details=details, fix_id="cuda-soname-links")
    if "warn" in statuses:
        return warn(f"{', '.join(line.split(':')[0] for line in bad)} may not resolve for libgpuarray",
                    cause=cause, remedy=remedy, details=details, fix_id="cuda-soname-links")
    return ok("; ".join(line for status, line in parts if status == "ok"), details=details)
