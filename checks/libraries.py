"""The CUDA libraries libgpuarray (pygpu) loads, under the names it asks for.

libgpuarray 0.7.6 loads one name per attempt. On Windows the names come from the *driver's* CUDA
version (``nvrtc64_<maj><min>.dll``, ``cublas64_<maj><min>.dll``), which CUDA >= 10.0 toolkits
never ship; on Linux they are the fixed unversioned ``libcuda.so``, ``libnvrtc.so``,
``libcublas.so`` (FACTS.md s4). These checks say which file would load from where and which
name is missing, from the facts only.
"""

from __future__ import annotations

import ntpath
import posixpath
from collections.abc import Iterable
from typing import Any, NamedTuple

from packaging.version import InvalidVersion, Version

from theanodoctor import kb_libs
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts, dig, section

from .common import config_value, env_var, gpu_device, stage, target_os

WINDOWS = "Windows"
USER_FOLDER = r"%USERPROFILE%\cuda-dll-aliases"


# -- shared by the library, cuDNN and compiler checks ------------------------------------------

def wants_gpu(facts: Facts, options: Options) -> bool:
    device, _ = config_value(facts, "device")
    return gpu_device(device) or options.require_gpu


def not_gpu(facts: Facts) -> Outcome:
    device, _ = config_value(facts, "device")
    return skipped(f"device={device or 'cpu'}: Theano loads no CUDA library; judge them with "
                   "--require-gpu or device=cuda")


def is_windows(facts: Facts) -> bool:
    return target_os(facts) == WINDOWS


def norm(path: str, windows: bool) -> str:
    """A folder as the OS compares it (Windows: case-insensitive, either slash)."""
    path = path.strip().strip('"')
    if windows:
        return ntpath.normcase(ntpath.normpath(path))
    return posixpath.normpath(path)


def join(folder: str, name: str) -> str:
    sep = "\\" if "\\" in folder else "/"
    return folder.rstrip("\\/") + sep + name


def toolkits(facts: Facts) -> list[dict[str, Any]]:
    found = dig(section(facts, "cuda"), "toolkits", default=[])
    return [k for k in found if isinstance(k, dict) and k.get("root")] if isinstance(found, list) else []


def find_toolkit(facts: Facts, path: str | None) -> dict[str, Any] | None:
    """The found toolkit whose root (or a symlink to it) is ``path``."""
    if not path:
        return None
    windows = is_windows(facts)
    wanted = norm(path, windows)
    for kit in toolkits(facts):
        if any(norm(p, windows) == wanted for p in [kit["root"], *(kit.get("aliases") or [])]):
            return kit
    return None


def _version_key(kit: dict[str, Any]) -> Version:
    try:
        return Version(kit.get("version_full") or kit.get("version") or "0")
    except InvalidVersion:
        return Version("0")


def toolkit_in_use(facts: Facts) -> tuple[dict[str, Any] | None, str]:
    """(toolkit, why) -- the toolkit Theano and pygpu will use.

    Mirrors Theano's rule for ``cuda.root`` (CUDA_ROOT, else CUDA_PATH, else the parent of an
    ``nvcc`` on PATH): the target's own ``cuda.root`` when it names a found toolkit, else the
    host probe's reading of that rule, else ``CUDA_PATH``, else the newest toolkit found.
    (checks/toolkit.py judges the choice itself; this can be unified with it later.)
    """
    root, source = config_value(facts, "cuda.root")
    kit = find_toolkit(facts, root)
    if kit:
        return kit, f"cuda.root = {root} ({source})"
    host = dig(section(facts, "cuda"), "theano_cuda_root", default={})
    kit = find_toolkit(facts, host.get("toolkit") if isinstance(host, dict) else None)
    if kit:
        return kit, f"Theano's cuda.root rule ({host.get('source')})"
    kit = find_toolkit(facts, env_var(facts, "CUDA_PATH"))
    if kit:
        return kit, "CUDA_PATH"
    found = sorted(toolkits(facts), key=_version_key)
    if found:
        return found[-1], "the newest toolkit found" + (f" (cuda.root = {root} is not one)" if root else "")
    return None, "no CUDA toolkit found"


def kit_label(kit: dict[str, Any]) -> str:
    return f"CUDA {kit.get('version') or '?'} at {kit['root']}"


def kit_has(kit: dict[str, Any] | None, name: str) -> bool:
    return bool(kit) and name.lower() in {str(n).lower() for n in (kit or {}).get("libraries") or []}


def needs_admin(folder: str) -> bool:
    return "program files" in folder.lower()


class Folder(NamedTuple):
    path: str
    files: dict[str, str] | None  # lower-cased name -> name; None = contents unknown


def _files(names: Iterable[Any] | None) -> dict[str, str] | None:
    if names is None:
        return None
    return {str(n).lower(): str(n) for n in names}


def windows_folders(facts: Facts) -> tuple[list[Folder], str]:
    """PATH folders in order, with the DLLs known to be in each; and where that came from.

    The target probe lists the CUDA DLLs of every PATH folder of the target process (what
    LoadLibrary searches); an older snapshot only has the host PATH, where the doctor knows the
    contents of toolkit ``bin`` folders only.
    """
    listed = stage(facts, "interpreter").get("dll_dirs")
    if isinstance(listed, list):
        return ([Folder(str(d.get("dir")), _files(d.get("dlls"))) for d in listed if isinstance(d, dict)],
                "the target's PATH")
    bins = {norm(k.get("bin_dir") or join(k["root"], "bin"), True): k for k in toolkits(facts)}
    folders = []
    for entry in dig(section(facts, "env"), "path", default=[]) or []:
        kit = bins.get(norm(str(entry), True))
        folders.append(Folder(str(entry), _files(kit.get("libraries") or []) if kit else None))
    return folders, "the host PATH (contents known for CUDA toolkit bin folders only)"


def providers(name: str, folders: Iterable[Folder]) -> list[tuple[Folder, str]]:
    """(folder, file name as found) for every folder known to hold ``name``, in order."""
    return [(f, f.files[name.lower()]) for f in folders if f.files and name.lower() in f.files]


def first_path(name: str, folders: list[Folder]) -> str | None:
    found = providers(name, folders)
    return join(found[0][0].path, found[0][1]) if found else None


def unseen(folders: list[Folder]) -> tuple[str, ...]:
    blind = [f.path for f in folders if f.files is None]
    return (f"contents not known: {', '.join(blind)}",) if blind else ()


def pygpu_activated(facts: Facts) -> bool:
    return stage(facts, "pygpu").get("pygpu_activated") is True


def load_failures(facts: Facts) -> str:
    """What the target said while pygpu/Theano tried to load libraries (log and pygpu error)."""
    lines = [str(x) for x in stage(facts, "theano_import").get("log") or []]
    err = stage(facts, "pygpu").get("error")
    if isinstance(err, dict):
        lines.append(str(err.get("message") or ""))
    return "\n".join(lines)


def _lib_in(kit: dict[str, Any] | None, lib: str, prefix: str, exclude: str) -> str | None:
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


def copy_remedy(copies: list[tuple[str, str]], kit: dict[str, Any] | None, why: str) -> tuple[str, tuple[str, ...]]:
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
    if not wants_gpu(facts, options):
        return not_gpu(facts)
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
    kit, how = toolkit_in_use(facts)
    details = [
        f"the driver reports CUDA {driver}: libgpuarray 0.7.6 asks for {rule.nvrtc(attempts[0])}, then "
        + ", ".join(rule.nvrtc(v) for v in attempts[1:]) + f"; cuBLAS under the same numbers (source: {rule.source})",
        f"searched {origin}, in order: " + "; ".join(f.path for f in folders),
        *unseen(folders),
    ]
    if kit:
        details.append(f"toolkit in use: {kit_label(kit)} ({how}); its bin holds "
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
            copies.append((join(kit["bin_dir"] if kit and kit.get("bin_dir") else "", src), name))
        else:
            absent.append(name)
    why = f"Missing: {', '.join(name for _, name in missing)}."
    if absent:
        why += (f" The toolkit in use has no file to copy for {', '.join(absent)}"
                + (f" ({kit_label(kit)})" if kit else " (no CUDA toolkit found)") + ".")
    remedy, commands = copy_remedy(copies, kit, why)
    if kit and kit.get("bin_dir") and not any(norm(f.path, True) == norm(kit["bin_dir"], True) for f in folders):
        remedy += f" {kit['bin_dir']} itself is not on PATH either: add it too, the toolkit's other DLLs live there."
    remedy += (" The CUDA-10.0-style names some guides add (cublas64_100.dll, ...) do not help pygpu; a driver "
               "update that changes its CUDA version changes the names asked for.")
    return error(message, cause=nvrtc_cause, remedy=remedy, commands=commands, details=tuple(details))


@check("cuda10-dll-aliases", "The CUDA-10.0-style DLL names guides add (cublas64_100.dll, ...)",
       area="libraries")
def cuda10_dll_aliases(facts: Facts, options: Options) -> Outcome:
    if not is_windows(facts):
        return skipped("Windows only")
    if not wants_gpu(facts, options):
        return not_gpu(facts)
    kit, how = toolkit_in_use(facts)
    if not kit:
        return skipped("no CUDA toolkit found")
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
            copies.append((join(kit.get("bin_dir") or "", src), aliases.names[lib]))
    remedy, commands = copy_remedy(
        copies, kit, "Only if a package you use asks for one of these names (e.g. `cublas64_100.dll not found`):")
    return warn(
        f"{', '.join(aliases.names[lib] for lib in missing)} not on PATH ({kit_label(kit)})",
        cause="Guides for CUDA 10.1/10.2 tell users to copy cublas64_10.dll to cublas64_100.dll, and the same for "
              "cudart/cufft/curand/cusolver. Some prebuilt packages built against CUDA 10.0 look for those names; "
              "pygpu/libgpuarray does not (its names come from the driver: see gpuarray-dll-names).",
        remedy=remedy, commands=commands, details=details + (f"source: {aliases.source}",))


@check("cudart-dll", "The CUDA runtime DLL of the toolkit in use is on PATH", area="libraries")
def cudart_dll(facts: Facts, options: Options) -> Outcome:
    if not is_windows(facts):
        return skipped("Windows only")
    if not wants_gpu(facts, options):
        return not_gpu(facts)
    kit, how = toolkit_in_use(facts)
    if not kit:
        return skipped("no CUDA toolkit found")
    version = kit.get("version")
    row = kb_libs.names_for(WINDOWS, version) if version else None
    expected = row.name("cudart", version) if row and version else None
    shipped = [str(n) for n in kit.get("libraries") or [] if str(n).lower().startswith("cudart64_")]
    bin_dir = kit.get("bin_dir") or join(kit["root"], "bin")
    inferred = " (name inferred from the pattern)" if row and "cudart" in row.inferred else ""
    if expected and not kit_has(kit, expected):
        return warn(f"{bin_dir} has no {expected}{inferred}: the {kit_label(kit)} install looks incomplete",
                    details=(f"cudart DLLs there: {', '.join(shipped) or 'none'}", f"toolkit in use: {how}"),
                    remedy=f"Reinstall CUDA {version} (or repair the install).")
    name = expected or (shipped[0] if shipped else None)
    if not name:
        return skipped(f"the cudart DLL name of CUDA {version or '?'} is not in the table and {bin_dir} lists none")
    folders, origin = windows_folders(facts)
    at = first_path(name, folders)
    if at:
        return ok(f"{name} loads from {at}", details=(f"toolkit in use: {kit_label(kit)} ({how})",) + unseen(folders))
    return warn(f"{name} is in {bin_dir}, but that folder is not on PATH",
                cause="Windows looks for a DLL by bare name in the program's folder, the system folders and the "
                      "PATH folders; with the toolkit's bin off PATH, programs linked against its runtime do not "
                      "start.",
                remedy=f"Add {bin_dir} to PATH (System Properties > Environment Variables).",
                details=(f"searched {origin}",) + unseen(folders))


# -- Linux: the fixed names, the way dlopen finds them -------------------------------------------

def _ld_folders(facts: Facts) -> list[Folder]:
    lib_dirs: dict[str, dict[str, Any]] = {}
    for kit in toolkits(facts):
        for root in [kit["root"], *(kit.get("aliases") or [])]:
            lib_dirs[norm(posixpath.join(root, "lib64"), False)] = kit
        if kit.get("lib_dir"):
            lib_dirs[norm(kit["lib_dir"], False)] = kit
    folders = []
    for entry in dig(section(facts, "env"), "ld_library_path", default=[]) or []:
        owner = lib_dirs.get(norm(str(entry), False))
        folders.append(Folder(str(entry), _files(owner.get("libraries") or []) if owner else None))
    return folders


@check("linux-cuda-libs", "libcuda.so, libnvrtc.so, libcublas.so resolve for libgpuarray", area="libraries")
def linux_cuda_libs(facts: Facts, options: Options) -> Outcome:
    if is_windows(facts) or target_os(facts) != "Linux":
        return skipped("Linux only (Windows: see gpuarray-dll-names)")
    if not wants_gpu(facts, options):
        return not_gpu(facts)
    if section(facts, "env").get("status") != "ok":
        return skipped("the environment (LD_LIBRARY_PATH) was not probed")
    rule = kb_libs.loader_rule()
    folders = _ld_folders(facts)
    kit, how = toolkit_in_use(facts)
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
    details = tuple(line for _, line in parts) + unseen(folders) + (
        (f"toolkit in use: {kit_label(kit)} ({how})",) if kit else ())
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
                     cause=cause, remedy=remedy, details=details)
    if "warn" in statuses:
        return warn(f"{', '.join(line.split(':')[0] for line in bad)} may not resolve for libgpuarray",
                    cause=cause, remedy=remedy, details=details)
    return ok("; ".join(line for status, line in parts if status == "ok"), details=details)
