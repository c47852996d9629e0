"""The candidate stacks and what rules them out.

A candidate is a Python side (Theano flavour, Python, numpy, scipy) times a GPU side (OS, CUDA,
cuDNN; or CPU only). Each violation names the one input whose removal lifts it (``mask``), or 0
when the candidate is impossible whatever the inputs (a table rule about the candidate itself).
The sides are built once each and combined with integer masks, so the whole table is cheap."""

from __future__ import annotations

import functools
from typing import NamedTuple

from packaging.version import InvalidVersion, Version

from theanodoctor import kb_cuda, kb_libs, kb_stacks, knowledge
from theanodoctor.resolver import cites
from theanodoctor.resolver.inputs import BIT, THEANO_CHOICES, Constraints
from theanodoctor.resolver.model import Reason

OS_LABEL = {"windows": "Windows", "linux": "Linux", "macos": "macOS"}


class Violation(NamedTuple):
    mask: int     # the input whose removal lifts it; 0: the candidate itself is impossible
    rule: bool    # a table rule (False: only "not what was asked")
    about: int    # the inputs the rule concerns (to pick the reasons of a conflict)
    reason: Reason
    remedy: str = ""


class PySide(NamedTuple):
    flavour: str
    theano: str
    python: str
    numpy: str | None
    scipy: str | None
    verified: knowledge.Verified | None
    violations: tuple[Violation, ...]


class GpuSide(NamedTuple):
    os: str
    cuda: str | None
    cudnn: str | None
    cudnn_row: kb_libs.CudnnBuild | None
    violations: tuple[Violation, ...]


class Candidate(NamedTuple):
    py: PySide
    gpu: GpuSide
    cross: tuple[Violation, ...]
    block: int       # inputs that rule it out, OR-ed
    intrinsic: bool  # impossible whatever the inputs

    def violations(self) -> tuple[Violation, ...]:
        return self.py.violations + self.gpu.violations + self.cross


def vkey(version: str) -> tuple[int, ...]:
    return kb_cuda.vtuple(version) or ()


def matches(spec: object, version: str | None) -> bool:
    if spec is None:
        return True
    if version is None:
        return False
    try:
        return Version(version) in spec  # type: ignore[operator]
    except InvalidVersion:
        return False


def asked(key: str, text: str) -> Violation:
    return Violation(BIT[key], False, BIT[key], Reason(text))


# --- the Python side ---------------------------------------------------------------------------

def _numpy_options(python: str, flavour: str, given: str | None
                   ) -> list[tuple[str | None, str | None, knowledge.Verified | None]]:
    rows = [v for v in knowledge.verified_stacks() if v.python == python]
    options: dict[tuple[str, str], knowledge.Verified | None] = {}
    for row in rows:
        pair = (row.numpy, row.scipy)
        if row.flavour == flavour or pair not in options:
            options[pair] = row if row.flavour == flavour else None
    found: list[tuple[str | None, str | None, knowledge.Verified | None]] = [
        (n, s, v) for (n, s), v in options.items()]
    if given and all(given != n for n, _, _ in found):
        found.append((given, rows[0].scipy if rows else None, None))
    return found or [(None, None, None)]


def _scipy_violations(numpy: str, scipy: str) -> list[Violation]:
    return [Violation(0, True, BIT["numpy"] | BIT["python"],
                      Reason(f"scipy {scipy} (the verified scipy for this Python) needs numpy {pair.numpy}",
                             (cites.scipy_pair(pair),)))
            for pair in kb_stacks.scipy_pairs() if matches(pair.scipy, scipy) and not matches(pair.numpy, numpy)]


def _flavoured(flavour: str, theano: str, message: str) -> str:
    """A rule's message, saying which flavour it is about unless it already does."""
    return message if message.startswith(flavour) else f"{flavour} {theano}: {message}"


def py_side(flavour: str, theano: str, python: str, numpy: str | None, scipy: str | None,
            verified: knowledge.Verified | None, cons: Constraints) -> PySide:
    found: list[Violation] = []
    if cons.theano and (flavour, theano) != cons.flavour():
        found.append(asked("theano", f"{flavour} {theano}"))
    if cons.python and python != cons.python:
        found.append(asked("python", f"Python {python}"))
    if cons.numpy and numpy != cons.numpy:
        found.append(asked("numpy", f"numpy {numpy}"))
    about = BIT["python"] | BIT["numpy"] | BIT["theano"]
    for rule in knowledge.compat_rules():
        if (rule.flavour == flavour and rule.result == "broken" and not rule.unless_flag
                and matches(rule.python, python) and (rule.numpy is None or matches(rule.numpy, numpy))):
            text = _flavoured(flavour, theano, rule.message.format(python=python, numpy=numpy))
            found.append(Violation(0, True, about, Reason(text, (cites.rule(rule),)), rule.remedy))
    if (numpy is None or scipy is None) and not any(v.mask == 0 for v in found):
        found.append(Violation(0, True, BIT["python"] | BIT["numpy"], Reason(
            f"profiles/theano_compat.yaml has no verified numpy/scipy for Python {python} (the verified "
            f"ones: Python {', '.join(sorted({v.python for v in knowledge.verified_stacks()}, key=vkey))})")))
        found += [Violation(0, True, about, Reason(_flavoured(flavour, theano, rule.message.format(python=python)),
                                                   (cites.rule(rule),)), rule.remedy)
                  for rule in knowledge.compat_rules()
                  if rule.flavour == flavour and rule.result == "degraded" and rule.numpy is None
                  and matches(rule.python, python)]
    if cons.numpy and numpy == cons.numpy and scipy:
        found += _scipy_violations(numpy, scipy)
    last = kb_stacks.last_wheels().get(python)
    if last and numpy and vkey(numpy) > vkey(last.numpy):
        found.append(Violation(0, True, BIT["numpy"] | BIT["python"], Reason(
            f"Python {python} has numpy wheels up to numpy {last.numpy} (scipy {last.scipy})", (cites.wheels(last),))))
    return PySide(flavour, theano, python, numpy, scipy, verified, tuple(found))


def py_sides(cons: Constraints) -> list[PySide]:
    pythons = sorted({v.python for v in knowledge.verified_stacks()} | ({cons.python} if cons.python else set()),
                     key=vkey)
    return [py_side(flavour, theano, python, numpy, scipy, verified, cons)
            for flavour, theano in THEANO_CHOICES.values()
            for python in pythons
            for numpy, scipy, verified in _numpy_options(python, flavour, cons.numpy)]


# --- the GPU side ------------------------------------------------------------------------------

@knowledge.table
def cuda_versions() -> tuple[str, ...]:
    return tuple(sorted({r.cuda for r in kb_cuda.driver_table().releases}, key=vkey))


def cudnn_pin(row: kb_libs.CudnnBuild) -> str:
    """The version to pin from a builds row: "7.6.3-7.6.4" -> "7.6.4", "7.1.x" -> "7.1"."""
    return row.label.split("-")[-1].replace(".x", "")


def best_cudnn(cuda: str) -> kb_libs.CudnnBuild | None:
    return kb_libs.cudnn_for_cuda(cuda, kb_libs.theano_cudnn().unusable_from_major)


def _cudnn_options(cuda: str, given: str | None) -> list[tuple[str | None, kb_libs.CudnnBuild | None]]:
    best = best_cudnn(cuda)
    found: list[tuple[str | None, kb_libs.CudnnBuild | None]] = [(cudnn_pin(best), best)] if best else []
    found.append((None, None))
    if given and all(given != pin for pin, _ in found):
        found.append((given, kb_libs.build_for(given)))
    return found


def _cudnn_rules(cuda: str, cudnn: str, row: kb_libs.CudnnBuild | None) -> list[Violation]:
    theano = kb_libs.theano_cudnn()
    major = int(cudnn.split(".")[0])
    cite = (cites.cudnn_theano(theano),)
    remedy = ("run without cuDNN (`[dnn] enabled = False`), or pick a GPU and CUDA where cuDNN 7 works "
              "(cuDNN 7.6.5 exists for CUDA 10.1 and 10.2)")
    if major >= theano.unusable_from_major:
        return [Violation(0, True, BIT["cudnn"], Reason(
            f"Theano cannot use cuDNN {major}: it needs cuDNN 5-{theano.unusable_from_major - 1} (on Windows it "
            f"loads only {', '.join(theano.windows_names)}; its C code calls cuDNN 7 functions that cuDNN 8 "
            "removed)", cite), remedy)]
    if major < theano.min_version // 1000:
        return [Violation(0, True, BIT["cudnn"], Reason(
            "Theano rejects it: " + theano.too_old.replace("%d", cudnn), cite))]
    if row is None:
        return [Violation(0, True, BIT["cudnn"], Reason(f"profiles/cudnn.yaml has no builds row for cuDNN {cudnn}"))]
    if cuda not in row.cuda and cuda not in row.cuda_unverified:
        extra = f" ({', '.join(row.cuda_unverified)} expected, unverified)" if row.cuda_unverified else ""
        return [Violation(0, True, BIT["cudnn"] | BIT["cuda"], Reason(
            f"cuDNN {cudnn} exists for CUDA {', '.join(row.cuda)} only{extra}", (cites.cudnn_build(row),)))]
    return []


def _gpu_label(cons: Constraints) -> str:
    arch = kb_cuda.architectures()[cons.cc or ""]
    typed = cons.gpu or arch.sm
    return f"{arch.sm} ({arch.family})" if typed.startswith("sm_") else f"{typed} ({arch.sm}, {arch.family})"


def _gpu_cites(cons: Constraints) -> tuple:  # type: ignore[type-arg]
    arch = kb_cuda.architectures()[cons.cc or ""]
    named = kb_cuda.cc_from_name(cons.gpu) if cons.gpu and not cons.gpu.startswith("sm_") else None
    return ((cites.gpu_name(named),) if named else ()) + (cites.arch(arch),)


def _gpu_rules(cuda: str, cons: Constraints) -> list[Violation]:
    if not cons.cc:
        return []
    found = []
    verdict = kb_cuda.arch_support(cons.cc, cuda)
    if verdict.supported is False:
        found.append(Violation(BIT["gpu"], True, BIT["gpu"] | BIT["cuda"],
                               Reason(f"{_gpu_label(cons)} needs {verdict.needs}", _gpu_cites(cons))))
    for limit in kb_stacks.gpu_limits():
        if matches(limit.cc, cons.cc):
            major, minor = cons.cc.split(".")
            text = limit.message.format(cc=cons.cc, cut=(major + minor)[:2])
            found.append(Violation(BIT["gpu"], True, BIT["gpu"], Reason(f"{_gpu_label(cons)}: {text}",
                                                                         (cites.gpu_limit(limit),))))
    return found


@knowledge.table
def _minimums() -> dict[tuple[str, str], kb_cuda.Minimum | None]:
    """The hard driver minimum of every CUDA in the tables, per OS (looked up once)."""
    found = {}
    for cuda in cuda_versions():
        for os_name in ("linux", "windows"):
            need = kb_cuda.driver_need(cuda, None, os_name)
            found[(cuda, os_name)] = need.hard if need else None
    return found


def driver_minimum(cuda: str, os_name: str) -> kb_cuda.Minimum | None:
    return _minimums().get((cuda, os_name))


def newest_cuda_for(driver: str, os_name: str) -> tuple[str | None, kb_cuda.Minimum | None]:
    """(the newest CUDA the driver runs, the minimum of the next one up) on an OS."""
    newest, above = None, None
    for cuda in cuda_versions():
        found = driver_minimum(cuda, os_name)
        if found is None:
            continue
        if kb_cuda.vcmp(vkey(driver), vkey(found.version)) >= 0:
            newest = cuda
        elif above is None:
            above = found
    return newest, above


def _driver_rule(cuda: str, os_name: str, cons: Constraints,
                 newest: tuple[str | None, kb_cuda.Minimum | None]) -> list[Violation]:
    found = driver_minimum(cuda, os_name) if cons.driver else None
    if found is None or kb_cuda.vcmp(vkey(cons.driver or ""), vkey(found.version)) >= 0:
        return []
    about = BIT["driver"] | BIT["cuda"] | BIT["os"]
    label = OS_LABEL[os_name]
    if cons.cuda:
        text = f"CUDA {cuda} on {label} needs driver >= {found.version} ({found.what}); the driver is {cons.driver}"
        return [Violation(BIT["driver"], True, about, Reason(text, (cites.minimum(found),)))]
    top, above = newest
    head = f"driver {cons.driver} on {label} runs "
    text = head + (f"CUDA {top} at most" if top else "no CUDA in the tables")
    if above is not None:
        text += f" ({above.what} needs >= {above.version})"
    return [Violation(BIT["driver"], True, about, Reason(text, (cites.minimum(above or found),)))]


def gpu_side(os_name: str, cuda: str | None, cudnn: str | None, row: kb_libs.CudnnBuild | None,
             cons: Constraints, newest: tuple[str | None, kb_cuda.Minimum | None] | None = None) -> GpuSide:
    found: list[Violation] = []
    if cons.os and os_name != cons.os:
        found.append(asked("os", OS_LABEL[os_name]))
    if cons.cudnn and cudnn != cons.cudnn:
        found.append(asked("cudnn", f"cuDNN {cudnn or 'none'}"))
    if cons.cuda and cuda != cons.cuda:
        found.append(asked("cuda", f"CUDA {cuda or 'none'}"))
    if cuda is None:
        if not cons.cpu_only:
            found.append(asked("device", "CPU only"))
        return GpuSide(os_name, None, None, None, tuple(found))
    if cons.cpu_only:
        found.append(asked("cpu_only", f"CUDA {cuda}"))
    if os_name == "macos":
        found.append(Violation(0, True, BIT["os"] | BIT["device"], Reason(
            "the tables know CUDA drivers for Linux and Windows only (profiles/cuda_driver.yaml); "
            "on macOS the resolver offers CPU-only stacks")))
    if cudnn and row is not best_cudnn(cuda):
        found += _cudnn_rules(cuda, cudnn, row)
    found += _gpu_rules(cuda, cons)
    if os_name != "macos" and cons.driver:
        found += _driver_rule(cuda, os_name, cons, newest or newest_cuda_for(cons.driver, os_name))
    return GpuSide(os_name, cuda, cudnn, row, tuple(found))


def gpu_sides(cons: Constraints) -> list[GpuSide]:
    oses = ["linux", "windows"] + (["macos"] if "macos" in (cons.os, cons.host_os) else [])
    found = []
    for os_name in oses:
        found.append(gpu_side(os_name, None, None, None, cons))
        newest = newest_cuda_for(cons.driver, os_name) if cons.driver and os_name != "macos" else None
        for cuda in cuda_versions():
            found += [gpu_side(os_name, cuda, cudnn, row, cons, newest)
                      for cudnn, row in _cudnn_options(cuda, cons.cudnn)]
    return found


# --- across the two sides ----------------------------------------------------------------------

def pygpu_source(python: str, os_name: str) -> kb_stacks.PygpuSource | None:
    return next((s for s in kb_stacks.pygpu_sources() if os_name in s.os and matches(s.python, python)), None)


@functools.cache
def _pygpu_rule(python: str, os_name: str, sources: tuple[kb_stacks.PygpuSource, ...]) -> tuple[Violation, ...]:
    """Cached per table (``sources`` is the loaded table itself)."""
    if pygpu_source(python, os_name) is not None:
        return ()
    ranges = "; ".join(f"{s.channel}: Python {s.python}" for s in sources)
    text = (f"pygpu 0.7.x (Theano's GPU back-end) is not on PyPI and its conda builds cover {ranges}: "
            f"none for Python {python}")
    return (Violation(0, True, BIT["python"] | BIT["device"] | BIT["cuda"],
                      Reason(text, tuple(cites.pygpu(s) for s in sources))),)


def combine(py: PySide, gpu: GpuSide) -> Candidate:
    cross = _pygpu_rule(py.python, gpu.os, kb_stacks.pygpu_sources()) if gpu.cuda else ()
    block, intrinsic = 0, False
    for violation in py.violations + gpu.violations + cross:
        block |= violation.mask
        intrinsic = intrinsic or violation.mask == 0
    return Candidate(py, gpu, cross, block, intrinsic)


def space(cons: Constraints) -> list[Candidate]:
    gpus = gpu_sides(cons)
    return [combine(py, gpu) for py in py_sides(cons) for gpu in gpus]
