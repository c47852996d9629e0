"""The GPU side of a candidate: OS, CUDA, cuDNN (or CPU only), and the table rules that rule it
out: GPU architecture per toolkit, driver minimums, cuDNN builds and what Theano accepts."""

from __future__ import annotations

from typing import NamedTuple

from theanodoctor import kb_cuda, kb_libs, kb_stacks, knowledge
from theanodoctor.resolver import cites
from theanodoctor.resolver.inputs import BIT, Constraints
from theanodoctor.resolver.model import Reason
from theanodoctor.resolver.violation import OS_LABEL, Violation, asked, matches, vkey


class GpuSide(NamedTuple):
    os: str
    cuda: str | None
    cudnn: str | None
    cudnn_row: kb_libs.CudnnBuild | None
    violations: tuple[Violation, ...]



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
    five = kb_libs.cudnn_for_cuda(cuda, 6)  # the old back-end's (Theano <= 0.9) officially supported cuDNN 5
    if five is not None and five is not best:
        found.append((cudnn_pin(five), five))
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
    if cudnn and (row is None or row not in (best_cudnn(cuda), kb_libs.cudnn_for_cuda(cuda, 6))):
        # a cuDNN the tables lack is checked too
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
