"""CUDA toolkits: which exist, which one Theano uses, and whether PATH, CUDA_PATH and the
loader path agree with it."""

from __future__ import annotations

from theanodoctor.engine import Options, Outcome, check, ok, skipped, warn
from theanodoctor.facts import Facts, Json, section

from .common import WINDOWS, and_more, config_value, env_var, is_set, norm_path, old_backend_device, target_os
from .cuda_toolkits import bins_on_path, find_kit, kit_dirs, kit_label, toolkit_in_use, toolkits
from .gpu_common import not_needed, os_label, wants_cuda

SET_ROOT = ("Point Theano at the toolkit: set CUDA_ROOT or CUDA_PATH to its folder, or `cuda.root` in "
            "THEANO_FLAGS / the [cuda] section of .theanorc (`root = <folder>`).")


def _probed(facts: Facts, *names: str) -> Outcome | None:
    for name in names:
        part = section(facts, name)
        if part.get("status") != "ok":
            return skipped(f"the {name} section was not probed ({part.get('error') or part.get('status')})")
    return None


def _gate(facts: Facts, options: Options) -> Outcome | None:
    """Skipped when the CUDA path is not used, or the toolkits or the environment were not probed."""
    return not_needed(facts, options) or _probed(facts, "cuda", "env")


def _kit_line(kit: Json) -> str:
    aliases = kit.get("aliases") or []
    also = f"; also reached as {', '.join(aliases)}" if aliases else ""
    return f"{kit_label(kit)} (found via {', '.join(kit.get('sources') or []) or '?'}{also})"


@check("cuda-toolkit", "Which CUDA toolkits exist and which one Theano uses", area="cuda")
def cuda_toolkit(facts: Facts, options: Options) -> Outcome:
    missing = _probed(facts, "cuda")
    if missing:
        return missing
    kits = toolkits(facts)
    wanted = wants_cuda(facts, options)
    cuda = section(facts, "cuda")
    nvcc = cuda.get("nvcc_on_path_version") or {}
    extra: tuple[str, ...] = ()
    if cuda.get("nvcc_on_path") and not nvcc.get("toolkit"):
        extra = (f"nvcc on PATH is {cuda.get('nvcc_on_path')} (CUDA {nvcc.get('version') or '?'}), outside every "
                 "toolkit folder (a wrapper or a link)",)
    if not kits:
        if not wanted:
            return ok("no CUDA toolkit found (not needed: Theano is configured for the CPU)", details=extra)
        return warn("no CUDA toolkit found",
                    cause="libgpuarray loads NVRTC and cuBLAS from a CUDA toolkit when Theano opens the GPU "
                          "(libgpuarray v0.7.6 src/loaders/libnvrtc.c:29-58, src/loaders/libcublas.c:43-71); none was "
                          "found in the default folders, CUDA_* variables or PATH.",
                    remedy="Install a CUDA toolkit your driver supports and put its bin folder on PATH "
                           "(Windows also sets CUDA_PATH), or set CUDA_ROOT to where it is.",
                    details=extra)
    use = toolkit_in_use(facts)
    details = tuple(_kit_line(k) for k in kits) + extra
    message = f"the toolkit in use is {kit_label(use.kit or {})}, chosen by {use.rule}"
    problems = []
    os_name = target_os(facts)
    if use.cuda_root and find_kit(use.cuda_root, kits, os_name) is None:
        root_key = norm_path(use.cuda_root, os_name)
        rejected = next((r for r in cuda.get("rejected") or []
                         if norm_path(str(r.get("path")), os_name) == root_key), None)
        why = rejected.get("why") if rejected else "is not one of the toolkits found"
        problems.append(f"Theano's cuda.root={use.cuda_root} (from {use.cuda_root_source}) {why}")
    elif not use.cuda_root:
        problems.append(f"Theano has no cuda.root ({use.cuda_root_source})")
    if use.kit and not use.kit.get("version"):
        problems.append(f"the version of {use.kit.get('root')} is unknown: {use.kit.get('version_error')}")
    if problems and wanted:
        return warn(f"{message}; but {problems[0]}",
                    cause="Theano takes its cuDNN default (dnn.base_path) from cuda.root (Theano rel-1.0.5 "
                          "theano/configdefaults.py:374-385), so a "
                          "cuda.root that is not a toolkit leaves it pointing nowhere.",
                    remedy=SET_ROOT, details=details + tuple(problems[1:]))
    return ok(message, details=details + tuple(problems))


@check("cuda-path-order", "PATH finds the bin folder of the toolkit in use first", area="cuda")
def cuda_path_order(facts: Facts, options: Options) -> Outcome:
    gate = _gate(facts, options)
    if gate:
        return gate
    found = bins_on_path(facts)
    kits: list[tuple[str, Json]] = []
    for _, entry, kit in found:
        if kit not in [k for _, k in kits]:
            kits.append((entry, kit))
    listing = tuple(f"PATH entry {pos + 1}: {entry} ({kit_label(kit)})" for pos, entry, kit in found)
    if len(kits) < 2:
        return ok(f"{len(kits)} CUDA toolkit bin folder{'s' if len(kits) != 1 else ''} on PATH: no order to get wrong",
                  details=listing)
    use = toolkit_in_use(facts)
    if use.kit is None or use.rule.startswith("the newest"):
        first = kits[0][1]
        return ok(f"{len(kits)} CUDA bin folders on PATH; the first ({kit_label(first)}) wins, and neither "
                  "cuda.root nor CUDA_PATH names another", details=listing)
    if use.kit not in [k for _, k in kits]:
        return skipped(f"the bin folder of the toolkit in use ({kit_label(use.kit)}) is not on PATH at all; "
                       "cuda-path-env reports that")
    first_entry, first = kits[0]
    if first is use.kit:
        return ok(f"{kit_label(first)} comes first on PATH, matching {use.rule}", details=listing)
    wanted_entry = next(entry for entry, kit in kits if kit is use.kit)
    if target_os(facts) == WINDOWS:
        cause = (f"Windows looks for each DLL in the PATH folders in order, so a CUDA DLL that both folders "
                 f"provide (curand64_10.dll, for one) is loaded from CUDA {first.get('version')}, while Theano's "
                 f"cuda.root (where its cuDNN default comes from) is CUDA {use.kit.get('version')}.")
    else:
        cause = (f"`nvcc` and the other CUDA tools run from CUDA {first.get('version')}, not from CUDA "
                 f"{use.kit.get('version')}, the toolkit Theano uses; the libraries follow LD_LIBRARY_PATH "
                 "(see cuda-lib-path).")
    return warn(f"PATH finds {first_entry} (CUDA {first.get('version')}) before {wanted_entry} "
                f"(CUDA {use.kit.get('version')}), the toolkit in use ({use.rule})",
                cause=cause,
                remedy=f"Move {wanted_entry} before {first_entry} in PATH, or take the other toolkit's folders "
                       "off PATH.",
                details=listing)


@check("cuda-path-env", "CUDA_PATH, CUDA_ROOT and PATH agree", area="cuda")
def cuda_path_env(facts: Facts, options: Options) -> Outcome:
    gate = _gate(facts, options)
    if gate:
        return gate
    os_name = target_os(facts)
    kits = toolkits(facts)
    cuda = section(facts, "cuda")
    theano_source = (cuda.get("theano_cuda_root") or {}).get("source")
    problems = []
    for bad in cuda.get("rejected") or []:
        note = " (Theano takes cuda.root from it)" if bad.get("source") == theano_source else ""
        problems.append(f"{bad.get('source')}={bad.get('path')} {bad.get('why')}{note}")
    root_var, path_var = env_var(facts, "CUDA_ROOT"), env_var(facts, "CUDA_PATH")
    root_kit, path_kit = find_kit(root_var, kits, os_name), find_kit(path_var, kits, os_name)
    if root_kit and path_kit and root_kit is not path_kit:
        problems.append(f"CUDA_ROOT names {kit_label(root_kit)} and CUDA_PATH names {kit_label(path_kit)}; "
                        "Theano takes CUDA_ROOT")
    on_path = bins_on_path(facts)
    if path_kit is not None and path_kit not in [kit for _, _, kit in on_path]:
        if on_path:
            others = ", ".join(sorted({kit_label(kit) for _, _, kit in on_path}))
            problems.append(f"CUDA_PATH names {kit_label(path_kit)}, but PATH has the bin folder of {others} instead")
        elif os_name == WINDOWS:
            problems.append(f"CUDA_PATH names {kit_label(path_kit)}, but its bin folder is not on PATH: Windows "
                            "finds the CUDA DLLs through PATH")
    if os_name == WINDOWS and not root_var and not path_var and not is_set(facts, "cuda.root"):
        problems.append("neither CUDA_PATH nor CUDA_ROOT is set: on Windows Theano finds cuda.root only through "
                        "them (it looks for a file named exactly `nvcc`, never nvcc.exe)")
    if problems:
        return warn(problems[0] + and_more(problems),
                    cause="Theano takes cuda.root from CUDA_ROOT, else CUDA_PATH, else the folder above a file "
                          "named nvcc on PATH (Theano rel-1.0.5 theano/configdefaults.py:245-265); tools and DLL "
                          "loading follow PATH. When they name different toolkits, or a folder that is not there, "
                          "the parts do not fit together.",
                    remedy="Make CUDA_PATH (and CUDA_ROOT, if set) name the toolkit you want and put its bin "
                           "folder on PATH; remove variables that point at uninstalled toolkits.",
                    details=tuple(problems))
    shown = [f"{n}={v}" for n, v in (("CUDA_ROOT", root_var), ("CUDA_PATH", path_var)) if v]
    if not shown:
        return ok("no CUDA_ROOT or CUDA_PATH set; nothing to disagree with PATH")
    return ok(f"{' and '.join(shown)} {'agree' if len(shown) > 1 else 'agrees'} with PATH")


@check("cuda-lib-path", "The loader finds the libraries of the toolkit in use (Linux)", area="cuda")
def cuda_lib_path(facts: Facts, options: Options) -> Outcome:
    gate = _gate(facts, options)
    if gate:
        return gate
    os_name = target_os(facts)
    if os_name != "Linux":
        return skipped(f"Linux only; {os_label(facts)} does not use LD_LIBRARY_PATH (Windows finds the CUDA "
                       "DLLs through PATH: see cuda-path-env)")
    use = toolkit_in_use(facts)
    if use.kit is None:
        return skipped(f"no toolkit in use: {use.why_none}")
    kits = toolkits(facts)

    def owner(entry: str) -> Json | None:
        key = norm_path(entry, os_name)
        return next((k for k in kits if key in kit_dirs(k, os_name, "lib64")
                     | kit_dirs(k, os_name, "targets/x86_64-linux/lib")), None)

    ld_path = [e for e in section(facts, "env").get("ld_library_path") or [] if isinstance(e, str)]
    lib = use.kit.get("lib_dir") or f"{use.kit.get('root')}/lib64"
    device, _ = config_value(facts, "device")
    old = old_backend_device(facts, device)
    cause = ("Theano's old back-end (device=gpu) links its modules against the toolkit's libcudart "
             "(Theano rel-0.9.0 theano/sandbox/cuda/nvcc_compiler.py:209-211 adds -lcudart); the loader finds it "
             "through LD_LIBRARY_PATH, ld.so.conf or the system folders." if old else
             "libgpuarray opens the unversioned libnvrtc.so and libcublas.so, which the loader finds only "
             "through LD_LIBRARY_PATH or ld.so.conf (libgpuarray v0.7.6 src/loaders/libnvrtc.c:56, "
             "src/loaders/libcublas.c:69).")
    missing = ("the CUDA libraries" if old else "libnvrtc.so and libcublas.so") + f" of {kit_label(use.kit)}"
    remedy = (f"Put {lib} first on LD_LIBRARY_PATH (`export LD_LIBRARY_PATH={lib}:$LD_LIBRARY_PATH` in your shell "
              f"profile), or list it in a file under /etc/ld.so.conf.d/ and run `sudo ldconfig`.")
    for pos, entry in enumerate(ld_path):
        kit = owner(entry)
        if kit is use.kit:
            return ok(f"{entry} is on LD_LIBRARY_PATH (entry {pos + 1}) for {kit_label(use.kit)}")
        if kit is not None:
            return warn(f"LD_LIBRARY_PATH lists {entry} ({kit_label(kit)}) before the toolkit in use, "
                        f"{kit_label(use.kit)}: the libraries would load from CUDA {kit.get('version')}",
                        cause=cause, remedy=remedy, details=tuple(ld_path))
    return warn(f"{lib} is not on LD_LIBRARY_PATH: unless it is listed in ld.so.conf, "
                f"{'Theano' if old else 'libgpuarray'} will not find {missing}",
                cause=cause + " This doctor reads LD_LIBRARY_PATH only, not ld.so.conf.",
                remedy=remedy, details=tuple(ld_path) or ("LD_LIBRARY_PATH is empty or unset",))
