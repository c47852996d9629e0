"""The folders a loader searches for the CUDA libraries, and the files known to be in each
(Windows: PATH; Linux: LD_LIBRARY_PATH). Shared by the DLL, shared-library and cuDNN checks;
no checks live here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from theanodoctor.facts import Facts, Json, dig, section

from .common import WINDOWS, norm_path, stage
from .cuda_toolkits import kit_dirs, toolkits


def subpath(folder: str, name: str) -> str:
    """``folder/name`` written with the folder's own separator (for messages and commands)."""
    sep = "\\" if "\\" in folder else "/"
    return folder.rstrip("\\/") + sep + name


def kit_has(kit: Json | None, name: str) -> bool:
    return bool(kit) and name.lower() in {str(n).lower() for n in (kit or {}).get("libraries") or []}


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
    bins = {norm_path(k.get("bin_dir") or subpath(k["root"], "bin"), WINDOWS): k for k in toolkits(facts)}
    folders = []
    for entry in dig(section(facts, "env"), "path", default=[]) or []:
        kit = bins.get(norm_path(str(entry), WINDOWS))
        folders.append(Folder(str(entry), _files(kit.get("libraries") or []) if kit else None))
    return folders, "the host PATH (contents known for CUDA toolkit bin folders only)"


def ld_folders(facts: Facts) -> list[Folder]:
    """LD_LIBRARY_PATH in order, with the GPU libraries each holds: listed by the host probe, or
    (an older snapshot) known for toolkit library folders only."""
    lib_dirs: dict[str, Json] = {}
    for kit in toolkits(facts):
        lib_dirs.update(dict.fromkeys(kit_dirs(kit, "Linux", "lib64"), kit))
        if kit.get("lib_dir"):
            lib_dirs[norm_path(kit["lib_dir"], "Linux")] = kit
    env = section(facts, "env")
    listed = {str(d.get("dir")): d.get("files") for d in env.get("ld_library_files") or [] if isinstance(d, dict)}
    folders = []
    for entry in dig(env, "ld_library_path", default=[]) or []:
        owner = lib_dirs.get(norm_path(str(entry), "Linux"))
        if owner:
            folders.append(Folder(str(entry), _files(owner.get("libraries") or [])))
        else:
            folders.append(Folder(str(entry), _files(listed.get(str(entry)))))
    return folders


def providers(name: str, folders: Iterable[Folder]) -> list[tuple[Folder, str]]:
    """(folder, file name as found) for every folder known to hold ``name``, in order."""
    return [(f, f.files[name.lower()]) for f in folders if f.files and name.lower() in f.files]


def first_path(name: str, folders: list[Folder]) -> str | None:
    found = providers(name, folders)
    return subpath(found[0][0].path, found[0][1]) if found else None


def unseen(folders: list[Folder]) -> tuple[str, ...]:
    blind = [f.path for f in folders if f.files is None]
    return (f"contents not known: {', '.join(blind)}",) if blind else ()


def pygpu_activated(facts: Facts) -> bool:
    return stage(facts, "pygpu").get("pygpu_activated") is True
