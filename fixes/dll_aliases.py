"""Windows: the toolkit's DLLs under the names libgpuarray 0.7.6 asks for
(libgpuarray v0.7.6 src/loaders/libnvrtc.c:36, src/loaders/libcublas.c:50).

The names come from the driver's CUDA version (``nvrtc64_<maj><min>.dll``,
``cublas64_<maj><min>.dll``), plus the CUDA-10.0-style names guides add for 10.1/10.2. Each is a
hard link (else a copy, verified by hash) of the toolkit's own file; an existing file is never
overwritten. The toolkit's ``bin`` under Program Files needs administrator rights, so the
aliases then go to a folder in the user's home, and the PATH change is printed.
"""

from __future__ import annotations

import os

from theanodoctor.checks.lib_folders import first_path, kit_has, subpath, windows_folders
from theanodoctor.checks.libraries import _lib_in, needs_admin

from theanodoctor import kb_libs
from theanodoctor.facts import Json, section
from theanodoctor.repair.action import Action
from theanodoctor.repair.fsops import sha256_file

from .context import Context, Note
from .rc_write import chosen_kit
from .shells import path_commands

FIX = "cuda-dll-aliases"
USER_FOLDER = "cuda-dll-aliases"


def wanted_names(ctx: Context, kit: Json) -> list[tuple[str, str, str]]:
    """(library, alias name, why) for every name to provide."""
    names: list[tuple[str, str, str]] = []
    driver = section(ctx.facts, "nvidia").get("cuda_driver_version")
    rule = kb_libs.loader_rule()
    if driver:
        try:
            version = kb_libs.split_version(str(driver))
            names += [("nvrtc", rule.nvrtc(version), f"libgpuarray asks for it: the driver reports CUDA {driver}"),
                      ("cublas", rule.cublas(version), f"libgpuarray asks for it: the driver reports CUDA {driver}")]
        except ValueError:
            pass
    guide = kb_libs.aliases_for(kit.get("version"))
    if guide:
        names += [(lib, name, "the CUDA-10.0-style name some packages look for") for lib, name in guide.names.items()]
    return list({n[1].lower(): n for n in names}.values())


def _alias_folder(ctx: Context, bin_dir: str) -> tuple[str, bool]:
    """(folder for the aliases, whether it is the toolkit's own bin)."""
    if bin_dir and not needs_admin(bin_dir) and os.access(bin_dir, os.W_OK):
        return bin_dir, True
    return subpath(ctx.home, USER_FOLDER), False


def plan_aliases(ctx: Context) -> tuple[list[Action], list[Note]]:
    if not ctx.wants(FIX) or not ctx.windows:
        return [], []
    kit = chosen_kit(ctx)
    if kit is None:
        return [], [Note(FIX, "no CUDA toolkit found: nothing to alias")]
    bin_dir = str(kit.get("bin_dir") or subpath(str(kit["root"]), "bin"))
    folders, _ = windows_folders(ctx.facts)
    folder, in_bin = _alias_folder(ctx, bin_dir)
    actions, notes = [], []
    for lib, name, why in wanted_names(ctx, kit):
        if kit_has(kit, name) or first_path(name, folders):
            continue
        source_name = _lib_in(kit, lib, f"{lib}64_", "nvrtc-builtins" if lib == "nvrtc" else "cublaslt")
        if not source_name:
            notes.append(Note(FIX, f"{name}: the toolkit at {kit['root']} has no {lib} DLL to alias"))
            continue
        source, dest = subpath(bin_dir, source_name), subpath(folder, name)
        if os.path.lexists(dest):
            notes.append(Note(FIX, f"{dest} exists already; never overwritten"))
            continue
        actions.append(Action("link", dest, (FIX,), f"{name} <- {source_name} ({why})",
                              before=sha256_file(source), source=source,
                              notes=() if os.path.exists(source) else (f"{source} is not on this machine",)))
    if actions and not in_bin:
        why = (f"{bin_dir} is under Program Files: writing there needs administrator rights"
               if needs_admin(bin_dir) else f"{bin_dir} is not writable")
        notes.append(Note(FIX, f"{why}; the aliases go to {folder}, which must be on PATH"))
        actions.append(Action("advice", folder, ("env-path",), f"put {folder} on PATH (before the CUDA bin)",
                              commands=path_commands(folder, True)))
    return actions, notes
