"""Linux: the unversioned names libgpuarray dlopen()s (``libnvrtc.so``, ``libcublas.so``;
FACTS.md s4) as symlinks to the toolkit's versioned files, in a folder of the user's, plus the
LD_LIBRARY_PATH line to add (printed, never set). ``libcuda.so`` belongs to the driver."""

from __future__ import annotations

import os
import posixpath

from theanodoctor.checks.lib_folders import first_path, kit_has, ld_folders

from theanodoctor import kb_libs
from theanodoctor.repair.action import Action

from .context import Context, Note
from .rc_write import chosen_kit
from .shells import path_commands

FIX = "cuda-soname-links"
FOLDER = "cuda-links"  # the folder checks/linux_libs.py names in its remedy


def plan_links(ctx: Context) -> tuple[list[Action], list[Note]]:
    if not ctx.wants(FIX) or ctx.os_name != "Linux":
        return [], []
    kit = chosen_kit(ctx)
    if kit is None:
        return [], [Note(FIX, "no CUDA toolkit found: nothing to link")]
    lib_dir = str(kit.get("lib_dir") or posixpath.join(str(kit["root"]), "lib64"))
    folder = posixpath.join(ctx.home, FOLDER)
    folders = ld_folders(ctx.facts)
    actions, notes = [], []
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
    if actions and not any(f.path.rstrip("/") == folder for f in folders):
        actions.append(Action("advice", folder, ("env-path",), f"put {folder} on LD_LIBRARY_PATH",
                              commands=path_commands(folder, False)))
    return actions, notes
