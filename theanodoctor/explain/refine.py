"""Make a remedy concrete: with the values the log carries (the DLL name asked for, the gcc
limit, the Python seen in paths) and, when a target was probed, with its facts (the driver's
CUDA version and the toolkit's real file names, the Python to pin numpy for).

Each refiner returns extra detail lines; the cause's own remedy stays as written."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from theanodoctor import kb_era, kb_libs, knowledge
from theanodoctor.facts import dig, section

from .result import Finding
from .scan import OLD_BACKEND_SIGNS, ScanResult

Refiner = Callable[[Finding, ScanResult, Any], list[str]]
_REFINERS: dict[str, Refiner] = {}
FACTS_HINT = "Run `theanodoctor explain --python ENV LOG` on the machine that failed for the exact names to use."


def refiner(*cause_ids: str) -> Callable[[Refiner], Refiner]:
    def register(func: Refiner) -> Refiner:
        for cause_id in cause_ids:
            _REFINERS[cause_id] = func
        return func

    return register


def refine(findings: list[Finding], scan: ScanResult, facts: Any) -> tuple[list[Finding], list[str]]:
    refined = []
    for finding in findings:
        func = _REFINERS.get(finding.cause)
        details = tuple(func(finding, scan, facts)) if func else ()
        refined.append(replace(finding, details=finding.details + details) if details else finding)
    notes = []
    if facts is None and any(f.cause in _FACT_HUNGRY for f in refined):
        notes.append(FACTS_HINT)
    return refined, notes


_FACT_HUNGRY = {"nvrtc-dll-name", "cublas-dll-name", "numpy-bool-alias"}


def _driver_cuda(facts: Any) -> tuple[int, int] | None:
    value = section(facts, "nvidia").get("cuda_driver_version")
    try:
        return kb_libs.split_version(str(value)) if value else None
    except ValueError:
        return None


def _toolkit_files(facts: Any, prefix: str) -> list[tuple[str, str]]:
    """(bin folder, file) of every found toolkit's library whose name starts with ``prefix``."""
    found = []
    for kit in section(facts, "cuda").get("toolkits") or []:
        for name in kit.get("libraries") or []:
            if str(name).lower().startswith(prefix) and str(name).lower().endswith(".dll"):
                found.append((str(kit.get("bin_dir") or kit.get("root") or ""), str(name)))
    return found


def _alias_lines(facts: Any, lib: str) -> list[str]:
    driver = _driver_cuda(facts)
    if driver is None:
        return [] if facts is None else ["The probe could not read the driver's CUDA version (NVML)."]
    rule = kb_libs.loader_rule()
    wanted = rule.nvrtc(driver) if lib == "nvrtc" else rule.cublas(driver)
    lines = [f"This driver reports CUDA {driver[0]}.{driver[1]}, so libgpuarray 0.7.6 first asks for `{wanted}`."]
    prefix = "nvrtc64_" if lib == "nvrtc" else "cublas64_"
    have = [(folder, name) for folder, name in _toolkit_files(facts, prefix) if "builtins" not in name.lower()]
    if any(name.lower() == wanted.lower() for _, name in have):
        lines.append(f"A toolkit here has `{wanted}`: put its `bin` folder on PATH.")
    elif have:
        folder, name = have[-1]
        lines.append(f"Place a copy (or hard link) of `{folder}\\{name}` named `{wanted}` in a folder on PATH "
                     "(`theanodoctor fix --only cuda-dll-aliases` does this).")
    else:
        lines.append("No CUDA toolkit with that library was found here; libgpuarray 0.7.6 also tries the CUDA 9.1 "
                     "and 9.0 names, so those toolkits load without aliases.")
    return lines


@refiner("nvrtc-dll-name")
def _nvrtc(finding: Finding, scan: ScanResult, facts: Any) -> list[str]:
    lines = []
    dll = finding.values.get("dll", "").replace("\\_", "_")  # (as a post's markdown escapes it)
    if dll.lower() == "nvrtc64_70.dll":
        lines.append("`nvrtc64_70.dll` is only the last name libgpuarray 0.7.6 tried (CUDA 7.0); every name "
                     "before it, starting with the one derived from the driver's CUDA version, failed too.")
    return lines + _alias_lines(facts, "nvrtc")


@refiner("cublas-dll-name")
def _cublas(finding: Finding, scan: ScanResult, facts: Any) -> list[str]:
    return _alias_lines(facts, "cublas")


@refiner("numpy-bool-alias", "numpy-blas-opt-info")
def _numpy_pin(finding: Finding, scan: ScanResult, facts: Any) -> list[str]:
    python = _python(facts) or scan.python_hint
    if not python:
        return []
    origin = "the probed target" if _python(facts) else "this log"
    stack = next((v for v in knowledge.verified_stacks() if v.flavour == "Theano" and v.python == python), None)
    if stack is None:
        return [f"Python {python} (from {origin}): pin numpy below 1.24 (`pip install \"numpy<1.24\"`)."]
    return [f"Python {python} (from {origin}): numpy {stack.numpy} with scipy {stack.scipy} is a verified "
            f"combination for Theano 1.0.5 (`pip install numpy=={stack.numpy} scipy=={stack.scipy}`)."]


def _python(facts: Any) -> str | None:
    version = dig(section(facts, "target"), "stages", "interpreter", "version")
    if not isinstance(version, str):
        return None
    parts = version.split(".")
    return ".".join(parts[:2]) if len(parts) >= 2 else None


@refiner("theano-too-old-for-numpy116")
def _compat_rule(finding: Finding, scan: ScanResult, facts: Any) -> list[str]:
    """The compatibility table's rule for the numpy attribute the log says is missing."""
    attr = finding.values.get("attr")
    rule = next((r for r in knowledge.compat_rules() if attr and attr in r.message), None)
    if rule is None:
        return []
    return [f"Theano's compatibility table marks Theano {rule.theano} with numpy {rule.numpy} as {rule.result} "
            f"(source: {rule.source.split(';')[0]})."]


@refiner("nvcc-gcc-too-new")
def _gcc(finding: Finding, scan: ScanResult, facts: Any) -> list[str]:
    limit = finding.values.get("gcc_limit")
    if not limit:
        return []
    return [f"This nvcc accepts gcc {limit} at most: point it at an older gcc (`-ccbin`), or use a CUDA "
            "toolkit that accepts your gcc."]


@refiner("cuda-lib-not-found-linux")
def _soname(finding: Finding, scan: ScanResult, facts: Any) -> list[str]:
    lib = finding.values.get("lib") or finding.values.get("lib2")
    return [f"The loader looked for `{lib}` by that exact name."] if lib else []


@refiner("theano-too-old-for-code", "theano-too-new-for-code")
def _theano_release(finding: Finding, scan: ScanResult, facts: Any) -> list[str]:
    """The Theano releases that have what this one lacks, from the API markers `scan` uses."""
    from theanodoctor.scan.markers import markers

    api = finding.values.get("api") or finding.values.get("api2")
    func, keyword = finding.values.get("func"), finding.values.get("kw")
    for marker in markers():
        last = marker.name.rsplit(".", 1)[-1]
        if (marker.kind == "module" and last == api) or \
                (marker.kind == "call" and last == func and keyword and re.fullmatch(marker.keyword, keyword)):
            return [f"{marker.says}: this code needs Theano {marker.spec} ({marker.source.split(' ; ')[0].strip()})."]
    return []


@refiner("pygpu-init-failed", "compile-failed", "cudnn-unusable", "old-backend-gpu-unavailable", "gpu-context-missing")
def _final_exception(finding: Finding, scan: ScanResult, facts: Any) -> list[str]:
    """A generic symptom: point at the exception the log ends with, which names the real error."""
    final = scan.final_exception
    if final is None or finding.consequence_of or any(e.line == final[0] for e in finding.evidence):
        return []
    return [f"The log ends with this exception (line {final[0]}): {final[1]}"]


def _old_backend_log(scan: ScanResult) -> bool:
    return any(sign in scan.context_seen for sign in OLD_BACKEND_SIGNS)


@refiner("cudnn-too-new")
def _old_backend_cudnn(finding: Finding, scan: ScanResult, facts: Any) -> list[str]:
    """What the old back-end accepts, from the era table: the same cuDNN can be fine for Theano 1.0."""
    if not _old_backend_log(scan):
        return []
    era = kb_era.old_backend()
    return [f"This log comes from the old back-end (theano.sandbox.cuda, Theano 0.9 and older); Theano 0.9's "
            f"accepts cuDNN {era.cudnn_min} and newer and officially supports up to cuDNN "
            f"{era.cudnn_max_official} ({era.cudnn_source})."]


@refiner("gpu-arch-unsupported")
def _old_backend_arch(finding: Finding, scan: ScanResult, facts: Any) -> list[str]:
    if not _old_backend_log(scan):
        return []
    era = kb_era.old_backend()
    return [f"{era.arch} ({era.arch_source})."]
