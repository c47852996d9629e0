"""The packages around Theano in the target: duplicates, scipy/numpy, bitness, pygpu, MKL, BLAS."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from theanodoctor import knowledge
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts

from .common import (
    PYMC,
    THEANO,
    config_value,
    dist_version,
    env_var,
    flavour,
    gpuarray_device,
    probe_ran,
    stage,
    target_os,
)

TABLE = "scipy_numpy.yaml"
PYGPU_RANGE = SpecifierSet(">=0.7.0,<0.8.0")  # Theano rel-1.0.5 theano/gpuarray/__init__.py:61-84
LIBGPUARRAY_API = 2
INSTALL_PYGPU = ("pygpu is not on PyPI: install pygpu 0.7.x from conda-forge (`conda install -c conda-forge pygpu`, "
                 "Python 3.7-3.10) or build libgpuarray + pygpu 0.7.6 from source.")


class Pair(NamedTuple):
    scipy: SpecifierSet
    numpy: SpecifierSet
    source: str


@knowledge.table
def scipy_pairs() -> tuple[Pair, ...]:
    return tuple(
        Pair(knowledge.version_range(TABLE, row, "scipy"), knowledge.version_range(TABLE, row, "numpy"),
             knowledge.source(TABLE, row, "source"))
        for row in knowledge.rows(TABLE, "pairs")
    )


def _package(facts: Facts, name: str) -> dict[str, Any]:
    value = (stage(facts, "distributions").get("packages") or {}).get(name)
    return value if isinstance(value, dict) else {}


def _version_in(spec: SpecifierSet, version: str) -> bool | None:
    try:
        return Version(version) in spec
    except InvalidVersion:
        return None


def _gpu_wanted(facts: Facts) -> bool:
    device, _ = config_value(facts, "device")
    return gpuarray_device(device)


# -- Theano and Theano-PyMC side by side ---------------------------------------------------------

@check("theano-duplicates", "Only one Theano is installed", area="python")
def theano_duplicates(facts: Facts, options: Options) -> Outcome:
    dists = stage(facts, "distributions")
    if not dists:
        return skipped("the target probe did not get as far as the installed packages")
    installed = [n for n in (THEANO, PYMC) if dist_version(facts, n)]
    if not installed:
        return skipped("neither Theano nor Theano-PyMC is installed (see python-stack)")
    label = {n: f"{n} {dist_version(facts, n)}" for n in installed}
    if len(installed) == 2:
        owner = dists.get("theano_owner")
        used = (f"`import theano` loads {label[owner]}'s files" if owner in label else
                "which one's files `import theano` loads cannot be told from the files")
        return warn(f"{label[THEANO]} and {label[PYMC]} are both installed: {used}",
                    cause="Both distributions install the same package folder, `theano`: only one can be "
                          "imported, the last one installed may have overwritten the other's files, and "
                          "uninstalling either one deletes files the other still counts on.",
                    remedy="Uninstall both (`pip uninstall Theano Theano-PyMC`), then install the one you mean "
                           "to use: `pip install Theano==1.0.5` or `pip install Theano-PyMC==1.1.2`.",
                    details=tuple(f"{n}: {_package(facts, n).get('path') or '?'}" for n in installed))
    name = installed[0]
    others = _package(facts, name).get("others") or []
    if others:
        paths = [str(o.get("path")) for o in others if isinstance(o, dict)]
        return warn(f"{label[name]} is installed {len(paths) + 1} times; the copy first on sys.path is used",
                    cause="Another copy of its metadata sits further down sys.path (a user-site install, or a "
                          "half-finished uninstall); pip and `import theano` can then disagree about the version.",
                    remedy="Remove the copies you do not use (pip uninstall, run with each copy's Python).",
                    details=(f"used: {_package(facts, name).get('path')}",) + tuple(f"shadowed: {p}" for p in paths))
    return ok(f"only {label[name]} is installed")


# -- scipy / numpy -------------------------------------------------------------------------------

def declared_numpy(facts: Facts) -> tuple[SpecifierSet, str] | None:
    """The numpy range the installed scipy declares, else a table row for that scipy."""
    scipy = dist_version(facts, "scipy") or ""
    for line in _package(facts, "scipy").get("requires") or []:
        try:
            req = Requirement(str(line))
        except InvalidRequirement:
            continue
        if req.name.lower() == "numpy" and req.specifier:
            return req.specifier, f"scipy {scipy}'s own package metadata"
    for pair in scipy_pairs():
        if _version_in(pair.scipy, scipy):
            return pair.numpy, pair.source
    return None


@check("scipy-numpy", "scipy works with the installed numpy", area="python")
def scipy_numpy(facts: Facts, options: Options) -> Outcome:
    if not stage(facts, "distributions") or flavour(facts) is None:
        return skipped("no Theano in the target (see python-stack)")
    scipy, numpy = dist_version(facts, "scipy"), dist_version(facts, "numpy")
    if numpy is None:
        return skipped("numpy is not installed (see python-stack)")
    if scipy is None:
        return warn("scipy is not installed", cause="Theano 1.0.5 declares scipy>=0.14 as a requirement.",
                    remedy="Install the scipy that matches numpy (scipy 1.2.1 with numpy 1.16.6 on Python 3.7).")
    declared = declared_numpy(facts)
    if declared is None:
        return skipped(f"scipy {scipy} declares no numpy range (no metadata) and no table row covers it")
    spec, source = declared
    if _version_in(spec, numpy) is not False:
        return ok(f"scipy {scipy} accepts numpy {numpy} (it needs numpy {spec})", details=(f"source: {source}",))
    return warn(f"scipy {scipy} needs numpy {spec}, but numpy {numpy} is installed",
                cause=f"scipy {scipy} declares that it needs numpy {spec} ({source}); numpy {numpy} is outside "
                      "that range.",
                remedy="Install a numpy in that range that Theano also accepts (python-stack names it), or the "
                       f"scipy release made for numpy {numpy}.",
                details=(f"source: {source}",))


# -- bitness -------------------------------------------------------------------------------------

@check("python-bits", "The target Python is 64-bit", area="python")
def python_bits(facts: Facts, options: Options) -> Outcome:
    bits = stage(facts, "interpreter").get("bits")
    if not isinstance(bits, int):
        return skipped("the target's bitness is unknown")
    if bits == 64:
        return ok("64-bit Python")
    status = "error" if options.require_gpu or _gpu_wanted(facts) else "warn"
    return Outcome(status, f"{bits}-bit Python: the GPU stack has no builds for it",
                   cause="CUDA's Windows libraries live under lib\\x64, every cuDNN package is an x64 build, and "
                         "conda-forge's pygpu is built for 64-bit platforms only (linux-64, osx-64, osx-arm64, "
                         "win-64).",
                   remedy="Install a 64-bit Python (64-bit Miniconda, for example) and build the environment there.",
                   details=("source: https://github.com/pytorch/builder/tree/f4cfb706 (cudnn-*-windows10-x64-* "
                            "packages); https://anaconda.org/conda-forge/pygpu/files (conda-forge pygpu builds)",))


# -- pygpu / libgpuarray -------------------------------------------------------------------------

def _library_facts(pygpu: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """(names pygpu's extensions need, libgpuarray files found, details)."""
    files: dict[str, Any] = pygpu["files"] if isinstance(pygpu.get("files"), dict) else {}
    needed: list[str] = []
    for names in (files.get("extensions") or {}).values():
        needed += [n for n in names if n not in needed]
    found = [str(p) for p in files.get("libgpuarray") or []]
    details = []
    if files.get("package_dir"):
        details.append(f"pygpu package: {files['package_dir']}")
    if needed:
        details.append(f"pygpu's extension asks the loader for {', '.join(needed)}")
    details.append("libgpuarray files found: " + (", ".join(found) if found else "none in the usual folders"))
    loaded = pygpu.get("libgpuarray_loaded")
    if loaded:
        details.append(f"libgpuarray loaded from {', '.join(loaded)}")
    return needed, found, details


def _cuda_note(facts: Facts, pygpu: dict[str, Any]) -> tuple[str | None, str]:
    """(problem or None, note) about whether this pygpu drives CUDA."""
    device, _ = config_value(facts, "device")
    cuda = str(device or "").startswith("cuda")
    if pygpu.get("pygpu_activated") and cuda:
        return None, f"it initialised device={device}: this build drives CUDA"
    return None, ("whether this build supports CUDA cannot be told from its files (libgpuarray 0.7.6 loads the "
                  "CUDA driver at run time)")


@check("pygpu-version", "pygpu 0.7.x with libgpuarray API 2 is importable", area="python")
def pygpu_version(facts: Facts, options: Options) -> Outcome:
    if not probe_ran(facts) or not stage(facts, "distributions"):
        return skipped("the target probe did not get as far as the installed packages")
    if flavour(facts) is None:
        return skipped("no Theano in the target (see python-stack)")
    pygpu = stage(facts, "pygpu")
    needed, found, details = _library_facts(pygpu)
    version = pygpu.get("version") or dist_version(facts, "pygpu")
    has_files = bool((pygpu.get("files") or {}).get("package_dir")) if isinstance(pygpu.get("files"), dict) else False
    wanted = _gpu_wanted(facts)
    bad = "error" if wanted else "warn"
    if not (version or has_files or pygpu.get("ok")):
        if wanted:
            return skipped("pygpu is not installed; theano-device says what that means for the configured device")
        return ok("pygpu is not installed (it is needed only for a GPU device)")
    label = f"pygpu {version}" if version else "pygpu (version unknown)"
    if version and _version_in(PYGPU_RANGE, version) is False:
        return Outcome(bad, f"{label}: Theano 1.0 needs pygpu 0.7.x",
                       cause="Theano checks pygpu's version when it initialises the GPU and refuses others: `Your "
                             f"installed version of pygpu({version}) is too old, please upgrade to 0.7.0 or later "
                             "(but below 0.8.0)` (printed for 0.8 and later too).",
                       remedy=INSTALL_PYGPU, details=tuple(details))
    if pygpu.get("skipped") and not pygpu.get("error"):
        return skipped(f"{label} is installed; whether it imports is unknown ({pygpu['skipped']})",
                       details=tuple(details))
    err = pygpu.get("error")
    if not pygpu.get("ok") and isinstance(err, dict):
        text = f"{err.get('type')}: {err.get('message')}"
        missing = [n for n in needed if not any(f.endswith(n) or f.split("/")[-1].startswith(n) for f in found)]
        module = re.search(r"No module named '?(\w+)", text)
        imported = " Theano then cannot use the GPU (`pygpu was configured but could not be imported`)."
        if module and module.group(1) != "pygpu" and "libgpuarray" not in text:
            return Outcome(bad, f"{label} does not import: {text.splitlines()[0]}",
                           cause=f"pygpu imports {module.group(1)}, which is not installed in this environment "
                                 "(pygpu 0.7.6 imports mako and six: pygpu/reduction.py, pygpu/operations.py)."
                                 + imported,
                           remedy="Install it into the same environment: `pip install Mako six`.",
                           details=tuple(details))
        cause = (f"pygpu's extension needs {', '.join(missing)}, and the loader cannot find it: libgpuarray is "
                 "missing or not on the library path." if missing or "libgpuarray" in text
                 else "pygpu is installed but broken.")
        return Outcome(bad, f"{label} does not import: {text.splitlines()[0]}",
                       cause=cause + imported,
                       remedy="Install pygpu and libgpuarray together (conda-forge's pygpu brings libgpuarray.so.3), "
                              "or put the folder holding libgpuarray on the library path. " + INSTALL_PYGPU,
                       details=tuple(details))
    if not pygpu.get("ok"):
        return skipped(f"{label} is installed; the probe did not try to import it", details=tuple(details))
    api, abi = pygpu.get("api_version"), pygpu.get("abi_version")
    if isinstance(api, list) and api and api[0] != LIBGPUARRAY_API:
        return Outcome(bad, f"{label} uses libgpuarray API {api[0]}; Theano 1.0 needs API {LIBGPUARRAY_API}",
                       cause="Theano refuses it: `Your installed version of libgpuarray is not in sync with the "
                             "current Theano version.`",
                       remedy="Install libgpuarray 0.7.x (API 2, libgpuarray.so.3) with pygpu 0.7.x.",
                       details=tuple(details))
    problem, note = _cuda_note(facts, pygpu)
    if problem:
        return warn(f"{label}: {problem}", cause="device=cuda needs a libgpuarray built with CUDA support.",
                    remedy=INSTALL_PYGPU, details=tuple(details) + (note,))
    versions = f" (libgpuarray API {api[0]}, ABI {abi[0]})" if isinstance(api, list) and isinstance(abi, list) \
        and api and abi else ""
    return ok(f"{label}{versions} imports", details=tuple(details) + (note,))


# -- MKL and BLAS --------------------------------------------------------------------------------

def _numpy_blas(facts: Facts) -> str | None:
    blas = stage(facts, "numpy_import").get("blas")
    if isinstance(blas, dict):
        libs = blas.get("libraries") or blas.get("name")
        return " ".join(dict.fromkeys(map(str, libs))) if isinstance(libs, list) else str(libs or "")
    return None


@check("mkl-service", "mkl-service is there when Theano uses MKL", area="python")
def mkl_service(facts: Facts, options: Options) -> Outcome:
    if not probe_ran(facts) or flavour(facts) is None:
        return skipped("no Theano in the target")
    numpy_blas = _numpy_blas(facts)
    ldflags, source = config_value(facts, "blas.ldflags")
    if numpy_blas is None and ldflags is None:
        return skipped("neither numpy's BLAS nor blas.ldflags is known")
    uses = [w for w, t in (("numpy's BLAS", numpy_blas), ("blas.ldflags", ldflags)) if t and "mkl" in t.lower()]
    if not uses:
        return ok(f"MKL is not used (numpy's BLAS: {numpy_blas or 'unknown'})")
    service = dist_version(facts, "mkl-service")
    if service:
        return ok(f"MKL in use ({' and '.join(uses)}); mkl-service {service} is installed")
    imported = stage(facts, "theano_import")
    error_text = str((imported.get("error") or {}).get("message") or "")
    escape = None
    if target_os(facts) == "Darwin":
        escape = "Theano skips its MKL check on macOS"
    elif env_var(facts, "MKL_THREADING_LAYER") == "GNU":
        escape = "MKL_THREADING_LAYER=GNU satisfies Theano's MKL check"
    elif stage(facts, "numpy_import").get("mklinit"):
        escape = "numpy's own _mklinit satisfies Theano's MKL check"
    elif source != "default":
        escape = "blas.ldflags is set explicitly, so Theano's BLAS detection and its MKL check do not run"
    elif imported.get("ok"):
        escape = "`import theano` passed Theano's MKL check"
    cause = ("When its BLAS detection picks MKL, Theano 1.0.5 checks the MKL threading layer and needs the `mkl` "
             "module from mkl-service: `RuntimeError: Could not import 'mkl'.` (configdefaults.py "
             "check_mkl_openmp); its detection also prefers MKL only when `import mkl` works.")
    remedy = ("Install mkl-service (`conda install mkl-service`), or set MKL_THREADING_LAYER=GNU in the "
              "environment.")
    if escape:
        return ok(f"MKL in use ({' and '.join(uses)}) without mkl-service: {escape}", details=(cause,))
    if "Could not import 'mkl'" in error_text:
        return error("`import theano` fails: MKL is in use and mkl-service is missing", cause=cause, remedy=remedy)
    return warn(f"MKL in use ({' and '.join(uses)}) but mkl-service is not installed", cause=cause, remedy=remedy)


@check("blas-ldflags", "How Theano calls BLAS (blas.ldflags)", area="python")
def blas_ldflags(facts: Facts, options: Options) -> Outcome:
    if not probe_ran(facts) or flavour(facts) is None:
        return skipped("no Theano in the target")
    value, source = config_value(facts, "blas.ldflags")
    origin = source[len("file:"):] if source.startswith("file:") else source
    where = "" if source == "default" else f" (set in {origin})"
    if value is None:
        if not stage(facts, "theano_import").get("ok"):
            return skipped("`import theano` failed, so Theano's BLAS choice is unknown (python-stack reports numpy "
                           "1.22/1.23 with blas.ldflags unset)")
        return skipped("Theano did not report blas.ldflags")
    if not value.strip():
        numpy_blas = _numpy_blas(facts)
        return ok(f"blas.ldflags is empty{where}: Theano uses NumPy's C-API for BLAS (slower, but it works)",
                  cause="`WARNING (theano.tensor.blas): Using NumPy C-API based implementation for BLAS functions.`",
                  remedy="For speed, set blas.ldflags to link the BLAS numpy uses"
                         + (f" ({numpy_blas})" if numpy_blas else "") + ".")
    return ok(f"Theano links BLAS directly: blas.ldflags = {value}{where}")
