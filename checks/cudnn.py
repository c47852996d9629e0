"""cuDNN: present, a version Theano 1.0.5 can use (5-7), built for the toolkit in use, its
library where Theano loads it, and consistent with ``dnn.enabled`` (Theano rel-1.0.5 theano/gpuarray/dnn.py).

Theano uses the cuDNN under ``dnn.base_path``: by default ``cuda.root`` when
``<cuda.root>/include/cudnn.h`` exists, else none (on Linux an empty base leaves the compiler's
default paths, e.g. Debian's /usr/include/cudnn.h, and ``ctypes.util.find_library``).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from theanodoctor import kb_libs
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts, section

from .common import config_value, env_var, is_windows, norm_path, reported, target_os
from .cuda_toolkits import cuda_root, in_use_line, kit_at, toolkit_in_use, toolkits
from .gpu_common import not_gpu, wants_gpu
from .lib_folders import subpath

ENABLED = ("auto", "True", "False", "no_check")


def installs(facts: Facts) -> list[dict[str, Any]]:
    found = section(facts, "cudnn").get("installs") or []
    return [i for i in found if isinstance(i, dict) and i.get("root")] if isinstance(found, list) else []


def _install_at(facts: Facts, root: str) -> dict[str, Any] | None:
    os_name = target_os(facts)
    return next((i for i in installs(facts) if norm_path(i["root"], os_name) == norm_path(root, os_name)), None)


def _probed(facts: Facts, root: str) -> bool:
    """Whether the cuDNN probe looked at ``root`` (toolkit roots, CUDNN_PATH/HOME, /usr)."""
    os_name = target_os(facts)
    looked = [k["root"] for k in toolkits(facts)] + [env_var(facts, n) or "" for n in ("CUDNN_PATH", "CUDNN_HOME")]
    if not is_windows(facts):
        looked.append("/usr")
    return kit_at(facts, root) is not None or any(
        p and norm_path(p, os_name) == norm_path(root, os_name) for p in looked)


def dnn_base(facts: Facts) -> tuple[str, str]:
    """(dnn.base_path as Theano resolves it, "" for none; how it came to be)."""
    value, source = config_value(facts, "dnn.base_path")
    if source != "default" or reported(facts, "dnn.base_path") is not None:
        return (value or "").strip(), f"dnn.base_path = {value or '(empty)'} ({source})"
    root = cuda_root(facts).path
    if not root:
        return "", "cuda.root is unset, so dnn.base_path defaults to empty"
    found = _install_at(facts, root)
    if found and found.get("has_cudnn_h"):
        return root, f"dnn.base_path defaults to cuda.root {root}, which has include/cudnn.h"
    if _probed(facts, root):
        return "", f"dnn.base_path defaults to empty: cuda.root {root} has no include/cudnn.h"
    return "", f"dnn.base_path defaults to cuda.root {root} only if it has include/cudnn.h (not probed)"


def used_install(facts: Facts) -> tuple[dict[str, Any] | None, str]:
    """(the cuDNN install Theano will use, why)."""
    base, why = dnn_base(facts)
    if base:
        found = _install_at(facts, base)
        if found:
            return found, why
        return None, why + ("; no cuDNN header there" if _probed(facts, base) else "; the doctor did not look there")
    if not is_windows(facts):
        system = _install_at(facts, "/usr")
        if system:
            return system, why + "; the compiler's default paths find the system cuDNN in /usr"
    return None, why


def enabled(facts: Facts) -> tuple[str, str]:
    value, source = config_value(facts, "dnn.enabled")
    return (value if value is not None else "auto").strip(), source


def _label(install: dict[str, Any]) -> str:
    return f"cuDNN {install.get('version') or '(version unknown)'} at {install['root']}"


def suggestion(facts: Facts) -> str:
    """What cuDNN to install for the toolkit in use, and where it goes."""
    kit = toolkit_in_use(facts).kit
    rules = kb_libs.theano_cudnn()
    if not kit or not kit.get("version"):
        return "Install a CUDA toolkit, then cuDNN 7.x built for it (Theano needs cuDNN 5-7)."
    build = kb_libs.cudnn_for_cuda(kit["version"], rules.unusable_from_major)
    if build is None:
        return (f"No cuDNN 5-7 build exists for CUDA {kit['version']}, and Theano cannot use cuDNN 8+: run without "
                "cuDNN (dnn.enabled=auto or False), or use CUDA <= 10.2 with cuDNN 7.6.5.")
    if is_windows(facts):
        place = (f"copy its bin\\cudnn64_7.dll, include\\cudnn.h and lib\\x64\\cudnn.lib into {kit['root']}'s bin, "
                 "include and lib\\x64 (NVIDIA's cuDNN 7 install guide; Program Files needs administrator rights)")
    else:
        place = (f"copy cuda/include/cudnn.h to {kit['root']}/include and cuda/lib64/libcudnn* to "
                 f"{kit.get('lib_dir') or kit['root'] + '/lib64'} (sudo cp ...; sudo chmod a+r ...)")
    return f"Install cuDNN {build.label} for CUDA {kit['version']} and {place}; or set [dnn] base_path to its folder."


# -- what Theano would make of the cuDNN it uses -------------------------------------------------

def _lib_versions(install: dict[str, Any]) -> list[tuple[str, tuple[int, ...]]]:
    """Versions the library file names carry: libcudnn.so.7.6.5, cudnn64_7.dll."""
    found = []
    for name in install.get("libraries") or []:
        match = re.match(r"^libcudnn\.so\.(\d+(?:\.\d+)*)$", str(name)) or re.match(
            r"^cudnn64_(\d+)\.dll$", str(name), re.IGNORECASE)
        if match:
            found.append((str(name), tuple(int(p) for p in match.group(1).split("."))))
    return found


def _header_tuple(install: dict[str, Any]) -> tuple[int, ...] | None:
    parts = [install.get(k) for k in ("major", "minor", "patch")]
    return tuple(int(p) for p in parts) if all(isinstance(p, int) for p in parts) else None  # type: ignore[arg-type]


def _mismatch(install: dict[str, Any]) -> tuple[str, str] | None:
    """(header version, library file) when a library file names another version."""
    header = _header_tuple(install)
    if header is None:
        return None
    for name, version in _lib_versions(install):
        if header[:len(version)] != version:
            return ".".join(map(str, header)), name
    return None


def library_problem(facts: Facts, install: dict[str, Any]) -> tuple[str, str] | None:
    """(status, why) when Theano cannot load/link this cuDNN's library, else None."""
    rules = kb_libs.theano_cudnn()
    names = {str(n).lower() for n in install.get("libraries") or []}
    major = install.get("major")
    if is_windows(facts):
        dll = f"cudnn64_{major}.dll"
        if dll not in [n.lower() for n in rules.windows_names]:
            have = sorted(n for n in install.get("libraries") or [] if str(n).lower().endswith(".dll"))
            return "error", (f"Theano's Windows loader only looks for {', '.join(rules.windows_names)}; this cuDNN "
                             f"has {', '.join(have) or 'no DLL'} in {subpath(install['root'], 'bin')}")
        if dll not in names:
            return "error", f"{subpath(install['root'], 'bin')} has no {dll}"
        if "cudnn.lib" not in names:
            lib_x64 = subpath(subpath(install["root"], "lib"), "x64")
            return "error", (f"{lib_x64} has no cudnn.lib, the import library Theano's compile check links with "
                             "`-l cudnn`")
        return None
    library_path, _ = config_value(facts, "dnn.library_path")
    if not library_path and install["root"] != "/usr":
        library_path = posixpath.join(install["root"], "lib64")
    files = [str(f) for f in install.get("library_files") or []]
    wanted = rules.linux_name
    here = [f for f in files if posixpath.basename(f) == wanted
            and (not library_path or posixpath.dirname(f) == posixpath.normpath(library_path))]
    if here:
        return None
    versioned = [posixpath.basename(f) for f in files if posixpath.basename(f).startswith(wanted + ".")]
    where_ = library_path or "the system library folders"
    if versioned:
        return "error", (f"{where_} has {', '.join(sorted(set(versioned)))} but not the unversioned {wanted} "
                         "Theano loads and links (`-l cudnn`)")
    return "error", f"no {wanted} in {where_}"


def usable(facts: Facts) -> tuple[dict[str, Any] | None, str | None]:
    """(install, None) when Theano can use its cuDNN, else (install or None, why not)."""
    install, why = used_install(facts)
    if install is None:
        return None, f"Theano finds no cuDNN: {why}"
    rules = kb_libs.theano_cudnn()
    number, major = install.get("version_number"), install.get("major")
    if not isinstance(number, int) or not isinstance(major, int):
        return install, f"{install.get('header')} carries no version"
    if number < rules.min_version:
        return install, rules.too_old % number
    if major >= rules.unusable_from_major:
        return install, f"cuDNN {install.get('version')} is {rules.unusable_from_major}+, which Theano cannot use"
    problem = library_problem(facts, install)
    if problem:
        return install, problem[1]
    mixed = _mismatch(install)
    if mixed:
        return install, rules.mixed % mixed
    return install, None


def _gate(facts: Facts, options: Options) -> Outcome | None:
    if section(facts, "cudnn").get("status") != "ok":
        return skipped(f"cuDNN was not probed ({section(facts, 'cudnn').get('error') or 'no cudnn section'})")
    if not wants_gpu(facts, options):
        return not_gpu(facts)
    return None


def _used(facts: Facts, options: Options) -> tuple[dict[str, Any], str] | Outcome:
    """(the cuDNN install Theano uses, why) for the checks that judge it, or the skipped outcome."""
    gate = _gate(facts, options)
    if gate:
        return gate
    install, why = used_install(facts)
    if install is None:
        return skipped(f"Theano uses no cuDNN here ({why})")
    return install, why


# -- the checks ------------------------------------------------------------------------------------

@check("cudnn-present", "cuDNN is installed where Theano looks for it", area="cudnn")
def cudnn_present(facts: Facts, options: Options) -> Outcome:
    gate = _gate(facts, options)
    if gate:
        return gate
    value, _ = enabled(facts)
    found = installs(facts)
    details = tuple(f"{_label(i)} (header {i.get('header')}"
                    + (f", in the CUDA toolkit {i['in_toolkit']})" if i.get("in_toolkit") else ")") for i in found)
    if value == "False":
        found_some = f"; found {len(found)} install(s)" if found else ""
        return ok(f"dnn.enabled=False: Theano does not use cuDNN{found_some}", details=details)
    if not found:
        return warn("no cuDNN found: convolutions run without it (slower)",
                    cause="With dnn.enabled=auto Theano silently runs conv without cuDNN; with True, GPU init fails.",
                    remedy=suggestion(facts))
    install, why = used_install(facts)
    if install:
        return ok(f"{_label(install)} is the one Theano uses ({why})", details=details)
    return warn(f"cuDNN found at {', '.join(i['root'] for i in found)}, but not where Theano looks",
                cause=f"Theano uses the cuDNN under dnn.base_path: {why}.",
                remedy=f"Set `[dnn] base_path = {found[0]['root']}` in .theanorc (or THEANO_FLAGS=dnn.base_path=...), "
                       "or copy the cuDNN files into the CUDA toolkit Theano uses.",
                details=details)


@check("cudnn-version", "The cuDNN version is one Theano 1.0 can use (5-7)", area="cudnn")
def cudnn_version(facts: Facts, options: Options) -> Outcome:
    found = _used(facts, options)
    if isinstance(found, Outcome):
        return found
    install, why = found
    rules = kb_libs.theano_cudnn()
    number, major = install.get("version_number"), install.get("major")
    where_ = f"(header {install.get('header')}; {why})"
    if not isinstance(number, int) or not isinstance(major, int):
        return warn(f"{install.get('header')} defines no CUDNN_MAJOR: a cuDNN 8+ header whose cudnn_version.h was "
                    "not copied along?", details=(where_,),
                    cause="Theano reads the version by compiling against this header; without the macros that fails.",
                    remedy=suggestion(facts))
    label = f"cuDNN {install.get('version')} ({number})"
    if number < rules.min_version:
        return error(f"{label} is too old for Theano", cause=f"Theano rejects it: `{rules.too_old % number}`",
                     remedy=suggestion(facts), details=(where_,))
    if major >= rules.unusable_from_major:
        windows = ((f"On Windows Theano does not even find it: its loader only knows "
                    f"{', '.join(rules.windows_names)}.",) if is_windows(facts) else ())
        return error(f"{label} is unusable by Theano: its C code calls cuDNN 7 functions cuDNN 8 removed",
                     cause=f"Theano 1.0.5 supports cuDNN 5-7 (source: {rules.source}).",
                     remedy=suggestion(facts) + " Or set dnn.enabled=False to run without cuDNN.",
                     details=(where_, *windows))
    if number >= rules.warn_from:
        return warn(f"{label}: Theano uses it but warns that it is newer than Theano knows",
                    cause=f"Theano warns: `{rules.too_recent}`", details=(where_,),
                    remedy="Nothing to do unless conv ops misbehave; then cuDNN 7.1 is the newest Theano "
                           "knows without a warning.")
    return ok(f"{label} {where_}")


@check("cudnn-cuda-match", "cuDNN was built for the CUDA toolkit in use", area="cudnn")
def cudnn_cuda_match(facts: Facts, options: Options) -> Outcome:
    found = _used(facts, options)
    if isinstance(found, Outcome):
        return found
    install, why = found
    use = toolkit_in_use(facts)
    kit = use.kit
    if not kit or not kit.get("version"):
        return skipped("the CUDA toolkit in use (or its version) is unknown")
    version = install.get("version")
    if not version:
        return skipped(f"the cuDNN version at {install['root']} is unknown, so its CUDA build cannot be judged")
    build = kb_libs.build_for(version)
    cuda = kit["version"]
    details = [in_use_line(use), f"cuDNN: {_label(install)} ({why})"]
    home = kit_at(facts, install.get("in_toolkit"))
    if build is None:
        return skipped(f"the build table has no row for cuDNN {version}: which CUDA it was built for cannot be "
                       "known", details=tuple(details))
    details.append(f"cuDNN {build.label} builds exist for CUDA {', '.join(build.cuda)}"
                   + (f" (expected, not confirmed: {', '.join(build.cuda_unverified)})" if build.cuda_unverified
                      else "") + f"; source: {build.source}")
    if cuda not in build.cuda and cuda not in build.cuda_unverified:
        return error(f"no cuDNN {version} build exists for CUDA {cuda}: this copy was built for another CUDA",
                     cause="NVIDIA builds each cuDNN for specific CUDA versions (cudnn-<CUDA>-<os>-x64-v<cuDNN>).",
                     remedy=suggestion(facts), details=tuple(details))
    if home is not None and home.get("version") and home.get("version") != cuda:
        return warn(f"{_label(install)} sits in the CUDA {home['version']} toolkit, but Theano uses CUDA {cuda}",
                    cause="NVIDIA's install guide copies each cuDNN build into the toolkit it was built for, so this "
                          f"copy is most likely the CUDA {home['version']} build.",
                    remedy=suggestion(facts), details=tuple(details))
    unknown = "the files do not say which CUDA build this copy is"
    if cuda in build.cuda_unverified:
        return warn(f"a cuDNN {version} build for CUDA {cuda} is expected but not confirmed; {unknown}",
                    details=tuple(details))
    place = "it sits in that toolkit" if home is not None else "it is a separate install"
    return ok(f"a cuDNN {version} build exists for CUDA {cuda} and {place} ({unknown})", details=tuple(details))


@check("cudnn-library", "The cuDNN library is where Theano loads it, matching the header", area="cudnn")
def cudnn_library(facts: Facts, options: Options) -> Outcome:
    found = _used(facts, options)
    if isinstance(found, Outcome):
        return found
    install, why = found
    rules = kb_libs.theano_cudnn()
    details = (f"{_label(install)} ({why})", f"library files: {', '.join(install.get('libraries') or []) or 'none'}")
    if not isinstance(install.get("major"), int):
        return skipped(f"the cuDNN version at {install['root']} is unknown, so the library name cannot be told",
                       details=details)
    problem = library_problem(facts, install)
    if problem:
        return error(problem[1], cause="Theano compiles a test against cuDNN (`-l cudnn`) and loads the library "
                     "from dnn.library_path / dnn.bin_path; without it: `Could not find cudnn library` or "
                     "`cannot compile with cuDNN`.",
                     remedy=suggestion(facts), details=details)
    mixed = _mismatch(install)
    if mixed:
        return error(f"header {mixed[0]} but library {mixed[1]}", cause=f"Theano refuses: `{rules.mixed % mixed}`",
                     remedy="Copy the header and the library from the same cuDNN package.", details=details)
    libs = ", ".join(name for name, _ in _lib_versions(install)) or rules.linux_name
    return ok(f"{libs} at {install['root']}, matching header {install.get('version')}", details=details)


@check("cudnn-config", "dnn.enabled and dnn.base_path agree with the cuDNN found", area="cudnn")
def cudnn_config(facts: Facts, options: Options) -> Outcome:
    gate = _gate(facts, options)
    if gate:
        return gate
    value, source = enabled(facts)
    if value not in ENABLED:
        return skipped(f"dnn.enabled = {value!r} is not a value Theano accepts (the config checks report it)")
    install, problem = usable(facts)
    _, base_why = dnn_base(facts)
    details = (f"dnn.enabled = {value} ({source})", base_why)
    rules = kb_libs.theano_cudnn()
    if value == "False":
        extra = f"; {_label(install)} would be usable with auto" if install and not problem else ""
        return ok(f"dnn.enabled=False: Theano never uses cuDNN (`Disabled by dnn.enabled flag`){extra}",
                  details=details)
    if not problem:
        return ok(f"dnn.enabled={value}: Theano uses {_label(install)}", details=details)  # type: ignore[arg-type]
    if value == "True":
        return error(f"dnn.enabled=True, but {problem}; so GPU initialisation fails",
                     cause=f"Theano raises `{rules.enabled_but_unusable % problem}`, then logs `Could not initialize "
                           "pygpu, support disabled` and runs everything on the CPU.",
                     remedy=suggestion(facts) + " Or set dnn.enabled=auto to run without cuDNN.", details=details)
    if value == "no_check":
        return error(f"dnn.enabled=no_check assumes a usable cuDNN, but {problem}",
                     cause="no_check skips Theano's presence and header/library checks, so the failure comes later, "
                           "when a cuDNN op compiles or runs.",
                     remedy=suggestion(facts) + " Or set dnn.enabled=auto.", details=details)
    major = (install or {}).get("major")
    if install and isinstance(major, int) and major >= rules.unusable_from_major:
        if is_windows(facts):
            message = (f"dnn.enabled=auto with cuDNN {install.get('version')}: Theano's Windows loader does not find "
                       f"its DLL (it looks for {', '.join(rules.windows_names)}), so at best conv runs without cuDNN")
        else:
            message = (f"dnn.enabled=auto will pick up cuDNN {install.get('version')}, and its conv code fails to "
                       "compile")
        return warn(message, cause="Theano only warns about cuDNN >= 7.2 and then uses it; cuDNN 8 removed "
                    "functions Theano's C code calls.",
                    remedy=suggestion(facts) + " Or set dnn.enabled=False.", details=details)
    return ok(f"dnn.enabled=auto and {problem}: Theano runs without cuDNN, so conv will not use it",
              details=details)
