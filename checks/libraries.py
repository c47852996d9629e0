"""The CUDA DLLs libgpuarray (pygpu) loads on Windows, under the names it asks for.

libgpuarray 0.7.6 loads one name per attempt. On Windows the names come from the *driver's* CUDA
version (``nvrtc64_<maj><min>.dll``, ``cublas64_<maj><min>.dll``), which CUDA >= 10.0 toolkits
never ship (libgpuarray v0.7.6 src/loaders/). These checks say which file would load from which PATH folder and which
name is missing, from the facts only. Linux: see linux_libs.py.
"""

from __future__ import annotations

from theanodoctor import kb_libs
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts, Json, section

from .common import WINDOWS, is_windows, norm_path
from .cuda_toolkits import InUse, in_use_line, kit_label, toolkit_in_use
from .gpu_common import libgpuarray_gate
from .lib_folders import first_path, kit_has, providers, pygpu_activated, subpath, unseen, windows_folders

USER_FOLDER = r"%USERPROFILE%\cuda-dll-aliases"


def needs_admin(folder: str) -> bool:
    return "program files" in folder.lower()


def _lib_in(kit: Json | None, lib: str, prefix: str, exclude: str) -> str | None:
    """The toolkit's own file for ``lib``: its table name when the toolkit has it, else the
    first ``prefix*.dll`` it ships (``exclude`` keeps cublasLt / nvrtc-builtins out)."""
    if not kit:
        return None
    row = kb_libs.names_for(WINDOWS, kit.get("version"))
    name = row.name(lib, kit["version"]) if row else None
    if name and kit_has(kit, name):
        return name
    for candidate in kit.get("libraries") or []:
        low = str(candidate).lower()
        if low.startswith(prefix) and not low.startswith(exclude) and low.endswith(".dll"):
            return str(candidate)
    return None


def _windows_kit(facts: Facts, options: Options) -> tuple[InUse, Json] | Outcome:
    """(toolkit in use, the toolkit) for the Windows DLL checks, or the skipped outcome."""
    if not is_windows(facts):
        return skipped("Windows only")
    gate = libgpuarray_gate(facts, options)
    if gate is not None:
        return gate
    use = toolkit_in_use(facts)
    if use.kit is None:
        return skipped("no CUDA toolkit found")
    return use, use.kit


def copy_remedy(copies: list[tuple[str, str]], kit: Json | None, why: str) -> tuple[str, tuple[str, ...]]:
    """Prose and safe commands for copying toolkit DLLs under other names."""
    if not copies:
        return why, ()
    pairs = "; ".join(f"{src} -> {dst}" for src, dst in copies)
    bin_dir = (kit or {}).get("bin_dir") or ""
    where = (f"They can sit next to the originals in {bin_dir}, which is under Program Files and needs "
             "administrator rights to write; or" if needs_admin(bin_dir)
             else f"Put them in {bin_dir}, or" if bin_dir else "Put them")
    copy = "copy" if why.endswith(":") else "Copy"
    remedy = (f"{why} {copy} (or hard-link) {pairs}. {where} in a folder you can write to, such as "
              f"{USER_FOLDER}, and add that folder to PATH.")
    commands = (f'mkdir "{USER_FOLDER}"',) + tuple(
        f'copy "{src}" "{USER_FOLDER}\\{dst}"' for src, dst in copies)
    return remedy, commands


# -- Windows: the names libgpuarray asks for -----------------------------------------------------

@check("gpuarray-dll-names", "libgpuarray finds NVRTC and cuBLAS under the DLL names it asks for",
       area="libraries")
def gpuarray_dll_names(facts: Facts, options: Options) -> Outcome:
    if not is_windows(facts):
        return skipped("Windows only: on Linux libgpuarray loads fixed names (see linux-cuda-libs)")
    gate = libgpuarray_gate(facts, options)
    if gate is not None:
        return gate
    driver = section(facts, "nvidia").get("cuda_driver_version")
    if not driver:
        return skipped("the driver's CUDA version is unknown (no NVIDIA driver answered); libgpuarray "
                       "derives the DLL names from it")
    rule = kb_libs.loader_rule()
    folders, origin = windows_folders(facts)
    if not folders:
        return skipped("PATH was not probed")
    try:
        attempts = rule.attempts(kb_libs.split_version(driver))
    except ValueError:
        return skipped(f"the driver's CUDA version {driver!r} is not a version number")
    use = toolkit_in_use(facts)
    kit = use.kit
    details = [
        f"the driver reports CUDA {driver}: libgpuarray 0.7.6 asks for {rule.nvrtc(attempts[0])}, then "
        + ", ".join(rule.nvrtc(v) for v in attempts[1:]) + f"; cuBLAS under the same numbers (source: {rule.source})",
        f"searched {origin}, in order: " + "; ".join(f.path for f in folders),
        *unseen(folders),
    ]
    if kit:
        details.append(f"{in_use_line(use)}; its bin holds "
                       + (", ".join(n for n in kit.get("libraries") or [] if str(n).lower().startswith(
                           ("nvrtc64_", "cublas64_"))) or "no nvrtc64_/cublas64_ DLL"))
    loaded = next(((v, rule.nvrtc(v)) for v in attempts if providers(rule.nvrtc(v), folders)), None)
    if loaded and len(providers(loaded[1], folders)) > 1:
        details.append(f"{loaded[1]} is in several PATH folders; Theano's dnn module re-sorts PATH on Windows "
                       "(theano/pathparse.py), so which copy loads can differ from PATH order")
    nvrtc_cause = ("libgpuarray 0.7.6 builds the names from the driver's CUDA version (cuDriverGetVersion), not "
                   "the toolkit's: nvrtc64_<maj><min>.dll and cublas64_<maj><min>.dll. CUDA >= 10.0 toolkits ship "
                   "nvrtc64_10X_0.dll, and 10.1/10.2 ship cublas64_10.dll, so those names never match.")
    if loaded:
        version, nvrtc = loaded
        cublas = rule.cublas(version)
        nvrtc_at = first_path(nvrtc, folders)
        cublas_at = first_path(cublas, folders)
        fallback = "" if version == attempts[0] else (
            f" (CUDA {version[0]}.{version[1]}'s NVRTC, after {rule.nvrtc(attempts[0])} was not found)")
        if cublas_at:
            return ok(f"NVRTC loads from {nvrtc_at}{fallback}; cuBLAS from {cublas_at}", details=tuple(details))
        missing = [("cublas", cublas)]
        message = (f"NVRTC loads from {nvrtc_at}{fallback}, but {cublas} is in no PATH folder: the first BLAS "
                   "call fails with `Missing Blas library`")
    else:
        missing = [("nvrtc", rule.nvrtc(attempts[0]))]
        if not providers(rule.cublas(attempts[0]), folders):
            missing.append(("cublas", rule.cublas(attempts[0])))
        message = (f"libgpuarray will not find NVRTC: none of {', '.join(rule.nvrtc(v) for v in attempts)} is in a "
                   f"PATH folder, so pygpu fails with `Could not load \"{rule.nvrtc(attempts[-1])}\"`")
    if pygpu_activated(facts):
        return ok("pygpu initialised the GPU in the target, so the names resolved (from a folder the doctor "
                  "did not see)", details=(message, *details))
    copies, absent = [], []
    for lib, name in missing:
        src = _lib_in(kit, lib, f"{lib}64_", "nvrtc-builtins" if lib == "nvrtc" else "cublaslt")
        if src:
            copies.append((subpath(kit["bin_dir"] if kit and kit.get("bin_dir") else "", src), name))
        else:
            absent.append(name)
    why = f"Missing: {', '.join(name for _, name in missing)}."
    if absent:
        why += (f" The toolkit in use has no file to copy for {', '.join(absent)}"
                + (f" ({kit_label(kit)})" if kit else " (no CUDA toolkit found)") + ".")
    remedy, commands = copy_remedy(copies, kit, why)
    if kit and kit.get("bin_dir") and not any(
            norm_path(f.path, WINDOWS) == norm_path(kit["bin_dir"], WINDOWS) for f in folders):
        remedy += f" {kit['bin_dir']} itself is not on PATH either: add it too, the toolkit's other DLLs live there."
    remedy += (" The CUDA-10.0-style names some guides add (cublas64_100.dll, ...) do not help pygpu; a driver "
               "update that changes its CUDA version changes the names asked for.")
    return error(message, cause=nvrtc_cause, remedy=remedy, commands=commands, details=tuple(details),
                 fix_id="cuda-dll-aliases")


@check("cuda10-dll-aliases", "The CUDA-10.0-style DLL names guides add (cublas64_100.dll, ...)",
       area="libraries")
def cuda10_dll_aliases(facts: Facts, options: Options) -> Outcome:
    chosen = _windows_kit(facts, options)
    if isinstance(chosen, Outcome):
        return chosen
    _, kit = chosen
    version = kit.get("version")
    if not version:
        return skipped(f"the version of the toolkit at {kit['root']} is unknown")
    aliases = kb_libs.aliases_for(version)
    if aliases is None:
        if version == "10.0":
            return ok("CUDA 10.0 ships the 10.0 names itself (cublas64_100.dll, cudart64_100.dll, ...)")
        return skipped(f"the CUDA-10.0-style aliases concern CUDA 10.1/10.2 toolkits; the one in use is CUDA {version}")
    folders, origin = windows_folders(facts)
    found = {name: first_path(name, folders) for name in aliases.names.values()}
    details = tuple(f"{name}: {at or 'not found'}" for name, at in found.items()) + unseen(folders)
    missing = [lib for lib, name in aliases.names.items() if not found[name]]
    if not missing:
        return ok(f"all present on {origin}: {', '.join(aliases.names.values())}", details=details)
    copies = []
    for lib in missing:
        src = _lib_in(kit, lib, f"{lib}64_", "cublaslt")
        if src:
            copies.append((subpath(kit.get("bin_dir") or "", src), aliases.names[lib]))
    remedy, commands = copy_remedy(
        copies, kit, "Only if a package you use asks for one of these names (e.g. `cublas64_100.dll not found`):")
    return warn(
        f"{', '.join(aliases.names[lib] for lib in missing)} not on PATH ({kit_label(kit)})",
        cause="Guides for CUDA 10.1/10.2 tell users to copy cublas64_10.dll to cublas64_100.dll, and the same for "
              "cudart/cufft/curand/cusolver. Some prebuilt packages built against CUDA 10.0 look for those names; "
              "pygpu/libgpuarray does not (its names come from the driver: see gpuarray-dll-names).",
        remedy=remedy, commands=commands, details=details + (f"source: {aliases.source}",), fix_id="cuda-dll-aliases")


@check("cudart-dll", "The CUDA runtime DLL of the toolkit in use is on PATH", area="libraries")
def cudart_dll(facts: Facts, options: Options) -> Outcome:
    chosen = _windows_kit(facts, options)
    if isinstance(chosen, Outcome):
        return chosen
    use, kit = chosen
    version = kit.get("version")
    row = kb_libs.names_for(WINDOWS, version) if version else None
    expected = row.name("cudart", version) if row and version else None
    shipped = [str(n) for n in kit.get("libraries") or [] if str(n).lower().startswith("cudart64_")]
    bin_dir = kit.get("bin_dir") or subpath(kit["root"], "bin")
    inferred = " (name inferred from the pattern)" if row and "cudart" in row.inferred else ""
    if expected and not kit_has(kit, expected):
        return warn(f"{bin_dir} has no {expected}{inferred}: the {kit_label(kit)} install looks incomplete",
                    details=(f"cudart DLLs there: {', '.join(shipped) or 'none'}", in_use_line(use)),
                    remedy=f"Reinstall CUDA {version} (or repair the install).")
    name = expected or (shipped[0] if shipped else None)
    if not name:
        return skipped(f"the cudart DLL name of CUDA {version or '?'} is not in the table and {bin_dir} lists none")
    folders, origin = windows_folders(facts)
    at = first_path(name, folders)
    if at:
        return ok(f"{name} loads from {at}", details=(in_use_line(use),) + unseen(folders))
    return warn(f"{name} is in {bin_dir}, but that folder is not on PATH",
                cause="Windows looks for a DLL by bare name in the program's folder, the system folders and the "
                      "PATH folders; with the toolkit's bin off PATH, programs linked against its runtime do not "
                      "start.",
                remedy=f"Add {bin_dir} to PATH (System Properties > Environment Variables).",
                fix_id="env-path", details=(f"searched {origin}",) + unseen(folders))
