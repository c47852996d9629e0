"""Linux: the unversioned names libgpuarray dlopen()s (``libcuda.so``, ``libnvrtc.so``,
``libcublas.so``; libgpuarray v0.7.6 src/loaders/*.c) as symlinks to the versioned files, in a
folder of the user's, plus the LD_LIBRARY_PATH line to add (printed, never set). The toolkit's
files back the NVRTC and cuBLAS links; ``libcuda.so`` links to the driver's ``libcuda.so.1``
where an LD_LIBRARY_PATH folder holds it (a driver-only install)."""

from __future__ import annotations

import os
import posixpath

from theanodoctor.checks.gpu_common import wsl
from theanodoctor.checks.lib_folders import Folder, first_path, kit_has, ld_folders

from theanodoctor import kb_libs
from theanodoctor.repair.action import Action

from .context import Context, Note
from .rc_write import chosen_kit
from .shells import path_commands

FIX = "cuda-soname-links"
FOLDER = "cuda-links"  # the folder checks/linux_libs.py names in its remedy


def _driver_link(ctx: Context, folders: list[Folder], folder: str) -> tuple[list[Action], list[Note]]:
    """The ``libcuda.so`` link to the driver's ``libcuda.so.1`` in an LD_LIBRARY_PATH folder, or in
    WSL2's driver folder (whose unversioned name dlopen does not find)."""
    if first_path("libcuda.so", folders):
        return [], []
    on_wsl = wsl(ctx.facts) or {}
    wsl_folder = [Folder(str(on_wsl["lib_dir"]), {str(n).lower(): str(n) for n in on_wsl.get("lib_files") or []})
                  ] if on_wsl.get("lib_dir") else []
    target = first_path("libcuda.so.1", folders + wsl_folder)
    if target is None:
        return [], []
    dest = posixpath.join(folder, "libcuda.so")
    if os.path.lexists(dest):
        return [], [Note(FIX, f"{dest} exists already; never overwritten")]
    return [Action("symlink", dest, (FIX,), f"libcuda.so -> {target}", target=target)], []


def plan_links(ctx: Context) -> tuple[list[Action], list[Note]]:
    if not ctx.wants(FIX) or ctx.os_name != "Linux":
        return [], []
    folder = posixpath.join(ctx.home, FOLDER)
    folders = ld_folders(ctx.facts)
    actions, notes = _driver_link(ctx, folders, folder)
    kit = chosen_kit(ctx)
    if kit is None:
        notes.append(Note(FIX, "no CUDA toolkit found: no NVRTC or cuBLAS to link"))
        return _with_path(actions, folders, folder), notes
    lib_dir = str(kit.get("lib_dir") or posixpath.join(str(kit["root"]), "lib64"))
    for name in kb_libs.loader_rule().linux:
        if name == "libcuda.so" or first_path(name, folders):
            continue
        if kit_has(kit, name):
            notes.append(Note("env-path", f"{name} is in {lib_dir}; that folder must be on LD_LIBRARY_PATH"))
            continue
        versioned = sorted((str(n) for n in kit.get("libraries") or [] if str(n).startswith(name + ".")),
                           key=lambda n: (n.count("."), n))
        if not versioned:
            notes.append(Note(FIX, f"{name}: {lib_dir} has no versioned {name}.* to link to"))
            continue
        dest, target = posixpath.join(folder, name), posixpath.join(lib_dir, versioned[0])
        if os.path.lexists(dest):
            notes.append(Note(FIX, f"{dest} exists already; never overwritten"))
            continue
        actions.append(Action("symlink", dest, (FIX,), f"{name} -> {target}", target=target))
    return _with_path(actions, folders, folder), notes


def _with_path(actions: list[Action], folders: list[Folder], folder: str) -> list[Action]:
    if actions and not any(f.path.rstrip("/") == folder for f in folders):
        actions.append(Action("advice", folder, ("env-path",), f"put {folder} on LD_LIBRARY_PATH",
                              commands=path_commands(folder, False)))
    return actions
