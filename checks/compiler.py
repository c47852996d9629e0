"""The C++ compiler Theano finds (it compiles its C code, and the GPU back-end needs it), whether
it fits the target Python (bitness, Python.h, libpythonXY on Windows), and nvcc's host-compiler
limits (profiles/host_compilers.yaml)."""

from __future__ import annotations

import ntpath

from theanodoctor import kb_libs
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts, dig, section

from .common import (
    WINDOWS,
    config_value,
    is_windows,
    norm_path,
    old_backend_device,
    probe_ran,
    stage,
    target_os,
)

NO_CXX = (
    "Theano logs `WARNING (theano.configdefaults): g++ not detected ! Theano will be unable to "
    "execute optimized C-implementations (for both CPU and GPU) ...`; the GPU back-end then refuses "
    "to start: `RuntimeError: The new gpu-backend need a c++ compiler.`"
)


def _install_hint(facts: Facts) -> str:
    if is_windows(facts):
        return "Install MinGW-w64 into the conda env: `conda install m2w64-toolchain`."
    return "Install g++ (Debian/Ubuntu: `sudo apt install g++`)."


def _describe(entry: dict) -> str:
    return f"{entry.get('name')} {entry.get('version') or ''} at {entry.get('path')}".replace("  ", " ")


@check("cxx-compiler", "A C++ compiler is available to Theano", area="compiler")
def cxx_compiler(facts: Facts, options: Options) -> Outcome:
    missing = _configured_but_missing(facts)
    if missing:
        value, path = missing
        return error(f"the compiler the config names, {value} (from {path}), is not on this machine",
                     cause="Theano runs the configured `cxx` and does not fall back to another compiler: "
                           f"`import theano` fails with `AssertionError: [Errno 2] No such file or directory: "
                           f"'{value}'` (reproduced by tests/test_config_build.py).",
                     remedy=f"Set `cxx` in {path} to a compiler that is installed, or remove the line (Theano "
                            "then uses g++ from PATH).")
    if probe_ran(facts) and stage(facts, "theano_import").get("ok"):
        cxx, source = config_value(facts, "cxx")
        if cxx:
            return ok(f"Theano uses {cxx.strip(chr(34))}")
        if source != "default":
            return warn("cxx is set empty on purpose: Theano runs slow Python code and the GPU back-end "
                        "cannot start", remedy="Remove the empty cxx setting once a compiler is installed.")
        return error("Theano found no C++ compiler", cause=NO_CXX, remedy=_install_hint(facts))
    found = section(facts, "compilers").get("cxx") or []
    if found:
        return ok(_describe(found[0]))
    if section(facts, "compilers").get("status") != "ok":
        return Outcome("skipped", "compilers were not probed")
    return error("no C++ compiler found on PATH", cause=NO_CXX, remedy=_install_hint(facts))


def _configured_but_missing(facts: Facts) -> tuple[str, str] | None:
    """(value, file) when the `cxx` in effect comes from a config file and names no compiler here."""
    _, source = config_value(facts, "cxx")
    for rc in section(facts, "theanorc").get("files") or []:
        build = rc.get("build") if isinstance(rc, dict) else None
        cxx = build.get("cxx") if isinstance(build, dict) else None
        if isinstance(cxx, dict) and not cxx.get("found") and source == f"file:{rc.get('path')}":
            return str(cxx.get("value")), str(rc.get("path"))
    return None


# -- which compiler, and does it fit the target Python ------------------------------------------

def _entries(facts: Facts) -> list[dict]:
    found = section(facts, "compilers").get("cxx") or []
    return [c for c in found if isinstance(c, dict) and c.get("path")] if isinstance(found, list) else []


def _same(a: str, b: str, os_name: str) -> bool:
    return norm_path(a, os_name) == norm_path(b, os_name)


def theano_compiler(facts: Facts) -> tuple[dict | None, str]:
    """(the compiler entry Theano runs, why): the target's own ``cxx`` when the host probe saw
    that file, else the host probe's reading of Theano's rule (g++ on PATH, else conda's MinGW)."""
    os_name = target_os(facts)
    entries = _entries(facts)
    cxx, source = config_value(facts, "cxx")
    cxx = (cxx or "").strip().strip('"')
    if cxx:
        found = next((c for c in entries if _same(c["path"], cxx, os_name)), None)
        if found:
            return found, f"cxx = {cxx} ({source})"
    chosen = section(facts, "compilers").get("theano_cxx")
    found = next((c for c in entries if chosen and _same(c["path"], chosen, os_name)), None)
    if found:
        return found, "Theano's rule: g++ on PATH, else <python>\\Library\\mingw-w64\\bin\\g++ on Windows"
    return None, "no compiler Theano would run was found"


@check("cxx-bitness", "The C++ compiler builds code of the target Python's bitness", area="compiler")
def cxx_bitness(facts: Facts, options: Options) -> Outcome:
    if section(facts, "compilers").get("status") != "ok":
        return skipped("compilers were not probed")
    entry, why = theano_compiler(facts)
    if entry is None:
        return skipped(f"{why} (see cxx-compiler)")
    py_bits = stage(facts, "interpreter").get("bits")
    if py_bits not in (32, 64):
        return skipped("the target Python's bitness is unknown (the probe did not run)")
    bits = entry.get("bits")
    if bits not in (32, 64):
        return skipped(f"the target of {_describe(entry)} is unknown ({entry.get('target') or entry.get('error')})")
    label = f"{_describe(entry)} builds {bits}-bit code ({entry.get('target') or 'from its folder'})"
    if bits == py_bits:
        return ok(f"{label}, like the {py_bits}-bit target Python", details=(why,))
    others = [c for c in _entries(facts) if c.get("bits") == py_bits and c is not entry and c.get("name") == "g++"]
    if bits == 32:
        remedy = ("Use a 64-bit MinGW-w64: `conda install m2w64-toolchain` in the target env, and take the 32-bit "
                  "MinGW folder off PATH (Theano runs the g++ on PATH first and only then "
                  "<python>\\Library\\mingw-w64\\bin\\g++)." if is_windows(facts)
                  else "Install a 64-bit g++ and put it first on PATH, or set cxx to it.")
        if others:
            remedy += f" A {py_bits}-bit g++ is already here: {others[0]['path']} (set cxx to it, or fix PATH)."
        return error(f"{label}, but the target Python is {py_bits}-bit",
                     cause="A 32-bit compiler cannot build extension modules for a 64-bit Python: every module "
                           "Theano compiles fails to link or to load.",
                     remedy=remedy, details=(why,))
    return warn(f"{label}, but the target Python is {py_bits}-bit",
                cause="Extension modules must match the Python's bitness; this only works if the compiler can "
                      "target 32-bit code.",
                remedy="Use a compiler for the Python's bitness, or a 64-bit Python.", details=(why,))


@check("cxx-order", "cl.exe does not come before MinGW's g++ on PATH (Windows)", area="compiler")
def cxx_order(facts: Facts, options: Options) -> Outcome:
    if not is_windows(facts):
        return skipped("Windows only")
    if section(facts, "compilers").get("status") != "ok":
        return skipped("compilers were not probed")
    entries = _entries(facts)
    path = [str(p) for p in dig(section(facts, "env"), "path", default=[]) or []]

    def position(entry: dict) -> int | None:
        folder = ntpath.dirname(entry["path"])
        return next((i for i, p in enumerate(path) if _same(p, folder, WINDOWS)), None)

    cls = [c for c in entries if c.get("name") == "cl" and position(c) is not None]
    gxx = [c for c in entries if c.get("name") == "g++" and position(c) is not None]
    if not cls:
        return ok("no cl.exe (MSVC) on PATH")
    if not gxx:
        return ok(f"cl.exe at {cls[0]['path']} is on PATH; no MinGW g++ is (Theano looks in "
                  "<python>\\Library\\mingw-w64\\bin itself)")
    cl_at, gxx_at = position(cls[0]), position(gxx[0])
    if cl_at is not None and gxx_at is not None and cl_at < gxx_at:
        return warn(f"cl.exe ({path[cl_at]}) comes before MinGW's g++ ({path[gxx_at]}) on PATH",
                    cause="Theano runs `g++` by name, so it still uses MinGW; but with MSVC's folder first, tools "
                          "run by bare name from this PATH resolve to MSVC's copy where both toolchains have one.",
                    remedy="Put the MinGW folder before the Visual Studio folders in PATH, or use a shell without the "
                           "Visual Studio environment for Theano.")
    return ok(f"MinGW's g++ ({path[gxx_at]}) comes before cl.exe ({path[cl_at]}) on PATH")  # type: ignore[index]


@check("python-headers", "Python.h is available for the target Python", area="compiler")
def python_headers(facts: Facts, options: Options) -> Outcome:
    if not probe_ran(facts):
        return skipped("the target probe did not run")
    interp = stage(facts, "interpreter")
    if "has_python_h" not in interp:
        return skipped("the probe did not report Python.h (a snapshot from an older probe)")
    include = interp.get("include_dir") or "(no include folder reported)"
    if interp.get("has_python_h"):
        return ok(f"Python.h in {include}")
    version = ".".join(str(interp.get("version") or "3").split(".")[:2])
    if is_windows(facts):
        remedy = "Reinstall this Python with its development files (the python.org and conda installers ship them)."
    else:
        remedy = (f"Install this Python's development headers (Debian/Ubuntu system Python: "
                  f"`sudo apt install python{version}-dev`); pyenv and conda builds include them.")
    return error(f"no Python.h in {include}",
                 cause="Theano compiles its C code against the target Python's headers; g++ stops with "
                       "`fatal error: Python.h: No such file or directory`.",
                 remedy=remedy)


@check("libpython", "The Python import library Theano links with is present (Windows)", area="compiler")
def libpython(facts: Facts, options: Options) -> Outcome:
    if not is_windows(facts):
        return skipped("Windows only: elsewhere Theano takes libpython from the interpreter's own build settings")
    if not probe_ran(facts):
        return skipped("the target probe did not run")
    libs = stage(facts, "interpreter").get("python_libs")
    if not isinstance(libs, dict):
        return skipped("the probe did not report the libs folder (a snapshot from an older probe)")
    name, folder = libs.get("name") or "pythonXY", libs.get("dir") or "libs"
    files = libs.get("files")
    wanted = {f"{name}.lib", f"lib{name}.a"}
    have = [f for f in files or [] if str(f).lower() in wanted]
    if have:
        return ok(f"{', '.join(have)} in {folder}")
    gone = " (the folder does not exist)" if files is None else ""
    return error(f"no {name}.lib or lib{name}.a in {folder}{gone}",
                 cause=f"On Windows Theano links every module it compiles with `-l{name}` from {folder}; without it "
                       "the link fails.",
                 remedy="In a conda env: `conda install libpython` (Theano's conda recipe requires it on Windows); "
                        "otherwise reinstall Python with its libs folder.",
                 commands=("conda install libpython",),
                 details=(f"files there: {', '.join(files or []) or 'none'}",))


# -- nvcc's host compiler ----------------------------------------------------------------------------

def _uses_nvcc(facts: Facts) -> bool:
    """Theano < 1.0 with device=gpu*: the old CUDA back-end, which compiled with nvcc (its
    ``nvcc.*`` options are gone in 1.0). Theano 1.0 never runs nvcc."""
    device, _ = config_value(facts, "device")
    return old_backend_device(facts, device)


@check("nvcc-host-compiler", "The host compiler is one nvcc accepts (only for building with nvcc)",
       area="compiler")
def nvcc_host_compiler(facts: Facts, options: Options) -> Outcome:
    cuda = section(facts, "cuda")
    if cuda.get("status") != "ok":
        return skipped("CUDA toolkits were not probed")
    nvcc = cuda.get("nvcc_on_path")
    if not nvcc:
        return skipped("no nvcc on PATH; Theano 1.0's GPU back-end does not use nvcc")
    found = cuda.get("nvcc_on_path_version") or {}
    version, full = found.get("version"), found.get("version_full")
    if not version:
        return skipped(f"the version of {nvcc} is unknown ({found.get('error') or 'not reported'})")
    scope = ("Theano 1.0's gpuarray back-end compiles its C glue with the host C++ compiler and its kernels with "
             "NVRTC; it never runs nvcc. This matters only for building CUDA code with nvcc.")
    if is_windows(facts):
        row = kb_libs.msvc_range_for(version, full)
        accepts = f"CUDA {version}'s nvcc accepts Visual Studio {row.visual_studio}" if row else (
            f"no verified Visual Studio range for CUDA {version} is known here")
        return skipped(f"cl.exe's version is not probed; {accepts}",
                       details=((f"nvcc says otherwise: {row.error_text}",) if row and row.error_text else ())
                       + ((f"source: {row.source}",) if row else ()))
    gxx = next((c for c in _entries(facts) if c.get("name") == "g++" and c.get("source") == "PATH"), None)
    if gxx is None or not gxx.get("version"):
        return skipped("no g++ with a known version on PATH (nvcc's default host compiler comes from PATH)")
    rows = kb_libs.gcc_limits_for(version, full)
    if not rows:
        return skipped(f"the host-compiler table has no row for CUDA {version}")
    gcc = str(gxx["version"])
    too_new = [r for r in rows if kb_libs.gcc_newer_than(gcc, r.max_gcc)]
    too_old = [r for r in rows if r.min_gcc and kb_libs.gcc_older_than(gcc, r.min_gcc)]
    limits = " or ".join(f"GCC {(r.min_gcc + '-') if r.min_gcc else '<= '}{r.max_gcc}" for r in rows)
    details = (f"nvcc: {nvcc} (CUDA {full or version})", f"g++ on PATH: {gxx['path']} ({gcc})",
               *(f"source: {r.source}" for r in rows))
    if len(rows) > 1:
        details += (f"CUDA {version}'s limit depends on the update release, unknown here; the stricter applies",)
    if not too_new and not too_old:
        return ok(f"g++ {gcc} is within what CUDA {version}'s nvcc accepts ({limits})", details=details)
    said = next((r.error_text for r in too_new if r.error_text), "")
    problem = (f"g++ {gcc} is {'newer' if too_new else 'older'} than CUDA {version}'s nvcc accepts ({limits})")
    remedy = (f"For nvcc builds, install a GCC nvcc accepts ({limits}) and pass it with `nvcc -ccbin <that g++>`, "
              "or use a CUDA whose nvcc accepts this GCC.")
    cause = (f"nvcc refuses it: `{said}`. " if said else "nvcc's host_config.h rejects it. ") + scope
    if _uses_nvcc(facts):
        cause = cause.replace(scope, "The old back-end of Theano <= 0.9 (device=gpu) compiles its kernels with nvcc "
                                     "at run time.")
        return error(problem + ": the old CUDA back-end of this Theano compiles with nvcc", cause=cause,
                     remedy=remedy, details=details)
    return warn(problem, cause=cause, remedy=remedy, details=details)
