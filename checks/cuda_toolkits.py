"""The CUDA toolkits found, and the one rule for which of them is "in use".

Every check that judges against a toolkit (driver, GPU architecture, PATH, DLL names, cuDNN)
asks ``toolkit_in_use``. No checks live here (importing it registers nothing)."""

from __future__ import annotations

import ntpath
import posixpath
from typing import NamedTuple

from theanodoctor import kb_cuda
from theanodoctor.facts import Facts, Json, section

from .common import WINDOWS, config_value, env_var, norm_path, target_os

# --- the toolkits found, and their folders -------------------------------------------------------

def join(os_name: str, *parts: str) -> str:
    return (ntpath if os_name == WINDOWS else posixpath).join(*parts)


def kit_roots(kit: Json) -> list[str]:
    """Every spelling of a toolkit's root: the real folder and the symlinks that lead to it."""
    return [r for r in [kit.get("root"), *(kit.get("aliases") or [])] if isinstance(r, str) and r]


def kit_dirs(kit: Json, os_name: str, sub: str) -> set[str]:
    """Normalised ``<root>/<sub>`` for every spelling of the toolkit's root."""
    return {norm_path(join(os_name, root, *sub.split("/")), os_name) for root in kit_roots(kit)}


def find_kit(path: str | None, kits: list[Json], os_name: str) -> Json | None:
    """The toolkit whose root (or a symlink to it) is ``path``."""
    if not path:
        return None
    wanted = norm_path(path, os_name)
    return next((k for k in kits if wanted in {norm_path(r, os_name) for r in kit_roots(k)}), None)


def kit_label(kit: Json) -> str:
    return f"CUDA {kit.get('version') or '(version unknown)'} at {kit.get('root')}"


def toolkits(facts: Facts) -> list[Json]:
    """The toolkits the host probe found (a toolkit is known by its root folder)."""
    kits = section(facts, "cuda").get("toolkits")
    return [k for k in kits if isinstance(k, dict) and k.get("root")] if isinstance(kits, list) else []


def kit_at(facts: Facts, path: str | None) -> Json | None:
    return find_kit(path, toolkits(facts), target_os(facts))


def bins_on_path(facts: Facts) -> list[tuple[int, str, Json]]:
    """(position, PATH entry, toolkit) for each PATH entry that is a found toolkit's bin folder."""
    os_name = target_os(facts)
    kits = toolkits(facts)
    found = []
    for pos, entry in enumerate(section(facts, "env").get("path") or []):
        if not isinstance(entry, str):
            continue
        key = norm_path(entry, os_name)
        kit = next((k for k in kits if key in kit_dirs(k, os_name, "bin")), None)
        if kit is not None:
            found.append((pos, entry, kit))
    return found


# --- Theano's cuda.root ---------------------------------------------------------------------------

class CudaRoot(NamedTuple):
    """What Theano takes as ``cuda.root`` (None: nothing), and where that comes from."""

    path: str | None
    source: str


def cuda_root(facts: Facts) -> CudaRoot:
    """Theano's ``cuda.root``: the target's own value (or THEANO_FLAGS / the config files when it
    could not report one); only when the target reported nothing, the host probe's reading of
    Theano's rule (CUDA_ROOT, else CUDA_PATH, else the folder above a file named nvcc on PATH)."""
    value, source = config_value(facts, "cuda.root")
    if isinstance(value, str) and value.strip():
        where = {"default": "Theano's default: CUDA_ROOT, else CUDA_PATH, else nvcc on PATH",
                 "THEANO_FLAGS": "THEANO_FLAGS"}.get(source, source.replace("file:", "", 1))
        return CudaRoot(value.strip(), where)
    if value is not None:  # Theano reported an empty cuda.root: it found none
        return CudaRoot(None, "Theano found none")
    probe = section(facts, "cuda").get("theano_cuda_root") or {}
    if probe.get("path"):
        return CudaRoot(str(probe["path"]), f"{probe.get('source')} (Theano's rule applied by the host probe)")
    return CudaRoot(None, "none found (no CUDA_ROOT, no CUDA_PATH, no nvcc on PATH)")


# --- the toolkit in use ---------------------------------------------------------------------------

class InUse(NamedTuple):
    """The toolkit the checks judge against (None: ``why_none``), and the rule that chose it.
    ``cuda_root`` is what Theano takes as cuda.root (None: nothing)."""

    kit: Json | None
    rule: str
    cuda_root: str | None
    cuda_root_source: str
    why_none: str


def _newest(kits: list[Json]) -> Json | None:
    known = [k for k in kits if kb_cuda.minor_of(k.get("version"))]
    return max(known, key=lambda k: kb_cuda.vtuple(k.get("version_full") or k.get("version")) or ()) if known else None


def toolkit_in_use(facts: Facts) -> InUse:
    """The one rule: the toolkit Theano's cuda.root names (see ``cuda_root``: the target's value,
    or the host's reading of Theano's rule when the target reported none), else the one CUDA_PATH
    names, else the newest found."""
    cuda = section(facts, "cuda")
    root = cuda_root(facts)
    if cuda.get("status") != "ok":
        why = f"CUDA toolkits were not probed ({cuda.get('error') or cuda.get('status')})"
        return InUse(None, "", root.path, root.source, why)
    kits = toolkits(facts)
    if not kits:
        return InUse(None, "", root.path, root.source, "no CUDA toolkit was found")
    os_name = target_os(facts)
    kit = find_kit(root.path, kits, os_name)
    if kit is not None:
        return InUse(kit, f"Theano's cuda.root, from {root.source}", root.path, root.source, "")
    kit = find_kit(env_var(facts, "CUDA_PATH"), kits, os_name)
    if kit is not None:
        return InUse(kit, "CUDA_PATH (Theano's cuda.root names no toolkit)", root.path, root.source, "")
    kit = _newest(kits) or kits[0]
    return InUse(kit, "the newest toolkit found (neither cuda.root nor CUDA_PATH names one)", root.path, root.source,
                 "")


def kit_version(use: InUse) -> str | None:
    version = use.kit.get("version") if use.kit else None
    return version if kb_cuda.minor_of(version) else None


def in_use_line(use: InUse) -> str:
    """The detail line every check that judges against the toolkit in use shows."""
    return f"toolkit in use: {kit_label(use.kit or {})}, chosen by {use.rule}"
