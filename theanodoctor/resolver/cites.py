"""One citation per kind of table row: the file, the row's key as the table spells it, its source."""

from __future__ import annotations

from typing import Any

from theanodoctor import kb_cuda, kb_era, kb_libs, kb_stacks, knowledge
from theanodoctor.resolver.model import Cite

P = "profiles/"


def verified(row: knowledge.Verified) -> Cite:
    return Cite(P + "theano_compat.yaml",
                f"verified: {row.flavour} + Python {row.python} + numpy {row.numpy} + scipy {row.scipy}", row.source)


def rule(row: knowledge.CompatRule) -> Cite:
    cond = " ".join(f"{k} {v}" for k, v in (("python", row.python), ("numpy", row.numpy)) if v is not None)
    return Cite(P + "theano_compat.yaml", f"rules: {row.flavour} {cond} -> {row.result}", row.source)


def minimum(found: kb_cuda.Minimum) -> Cite:
    return Cite(P + "cuda_driver.yaml", found.what, found.source)


def arch(row: kb_cuda.Arch) -> Cite:
    return Cite(P + "gpu_arch.yaml", f"cc {row.cc} ({row.family}, {row.sm}): {row.span()}", row.source)


def gpu_name(row: kb_cuda.GpuName) -> Cite:
    return Cite(P + "gpu_names.yaml", f"{row.name} -> cc {row.cc}", row.source)


def cudnn_build(row: kb_libs.CudnnBuild) -> Cite:
    return Cite(P + "cudnn.yaml", f"builds: cuDNN {row.label} for CUDA {', '.join(row.cuda)}", row.source)


def cudnn_theano(row: kb_libs.TheanoCudnn) -> Cite:
    return Cite(P + "cudnn.yaml", f"theano: {row.id} (cuDNN 5-{row.unusable_from_major - 1})", row.source)


def gcc(row: kb_libs.GccLimit) -> Cite:
    return Cite(P + "host_compilers.yaml", f"gcc: CUDA {row.cuda} -> GCC <= {row.max_gcc}", row.source)


def loader(row: kb_libs.LoaderRule) -> Cite:
    return Cite(P + "cuda_libraries.yaml", f"loader: {row.id}", row.source)


def library_names(row: kb_libs.LibraryNames) -> Cite:
    return Cite(P + "cuda_libraries.yaml", f"{row.os.lower()}: CUDA {row.cuda}", row.source)


def scipy_pair(row: Any) -> Cite:
    return Cite(P + "scipy_numpy.yaml", f"pairs: scipy {row.scipy} -> numpy {row.numpy}", row.source)


def pygpu(row: kb_stacks.PygpuSource) -> Cite:
    return Cite(P + "stacks.yaml", f"pygpu: {row.id} (pygpu {row.version}, Python {row.python})", row.source)


def wheels(row: kb_stacks.LastWheels) -> Cite:
    first = f"{row.first_numpy} <= " if row.first_numpy else ""
    return Cite(P + "stacks.yaml", f"wheels: Python {row.python} -> {first}numpy <= {row.numpy}, scipy <= {row.scipy}",
                row.source)


def compiler(row: kb_stacks.Compiler) -> Cite:
    return Cite(P + "stacks.yaml", f"compilers: {row.id}", row.source)


def gpu_limit(row: kb_stacks.GpuLimit) -> Cite:
    return Cite(P + "stacks.yaml", f"gpu_limits: {row.id} (cc {row.cc})", row.source)


def stack(row: kb_stacks.Stack) -> Cite:
    return Cite(P + "stacks.yaml", f"stacks: {row.id}", row.source)


def release(row: kb_era.Release) -> Cite:
    return Cite(P + "theano_releases.yaml", f"releases: {row.label} ({row.date})", row.requires_source)


def old_backend(text: str, source: str) -> Cite:
    return Cite(P + "theano_releases.yaml", f"old_backend: {text}", source)


def backend(row: kb_era.Backend) -> Cite:
    return Cite(P + "theano_releases.yaml", f"backends: {row.id}", row.source)
