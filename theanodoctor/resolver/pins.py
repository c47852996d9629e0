"""The pins of a chosen candidate, one reason each, citing the table rows they rest on."""

from __future__ import annotations

from theanodoctor import kb_cuda, kb_era, kb_libs, kb_stacks, knowledge
from theanodoctor.resolver import cites
from theanodoctor.resolver.gpu_side import best_cudnn, driver_minimum
from theanodoctor.resolver.inputs import Constraints
from theanodoctor.resolver.model import Cite, Pin, Reason
from theanodoctor.resolver.space import Candidate, backend_pygpu, pygpu_source
from theanodoctor.resolver.violation import OS_LABEL


def _given(cons: Constraints, key: str) -> str:
    return f"as asked (--{key}); " if getattr(cons, key) else ""


def _python(c: Candidate, cons: Constraints) -> Pin:
    py = c.py
    bad = [r for r in knowledge.compat_rules() if r.flavour == py.flavour and r.python is not None
           and r.numpy is None and knowledge.applies(r, py.theano)]
    limits = "; ".join(f"Python {r.python}: {r.result}" for r in bad)
    row = py.verified
    text = _given(cons, "python") + (
        f"{py.flavour} {py.theano} with numpy {py.numpy} / scipy {py.scipy} was reproduced end to end on it"
        if row else f"no rule against {py.flavour} on it (not a verified combination)")
    found: tuple[Cite, ...] = ((cites.verified(row),) if row else ()) + tuple(cites.rule(r) for r in bad)
    return Pin("python", py.python, Reason(text + (f"; {limits}" if limits else ""), found))


def _numpy(c: Candidate, cons: Constraints) -> Pin:
    py = c.py
    rules = [r for r in knowledge.compat_rules() if r.flavour == py.flavour and r.numpy is not None
             and knowledge.applies(r, py.theano)]
    parts = [f"numpy {r.numpy} " + (f"needs {r.unless_flag} set" if r.unless_flag else
                                    "breaks `import theano`" if "`import theano` fails" in r.message
                                    else "partly broken" if r.result == "degraded" else "broken")
             for r in rules]
    head = _given(cons, "numpy") + ("recommended (verified)" if py.verified else "expected to work")
    found = ((cites.verified(py.verified),) if py.verified else ()) + tuple(cites.rule(r) for r in rules)
    return Pin("numpy", py.numpy or "", Reason(f"{head}; for {py.flavour}: " + ", ".join(parts), found))


def _scipy(c: Candidate) -> Pin:
    py = c.py
    text = (f"the scipy verified with numpy {py.numpy} on Python {py.python}" if py.verified
            else f"the scipy verified on Python {py.python}")
    return Pin("scipy", py.scipy or "", Reason(text, (cites.verified(py.verified),) if py.verified else ()))


def _theano(c: Candidate, cons: Constraints) -> Pin:
    py = c.py
    release = kb_era.release(py.flavour, py.theano)
    newest = release is None or _release_is_newest(release)
    text = _given(cons, "theano") or (
        "auto: plain Theano unless Theano-PyMC is asked for (--theano pymc-1.1.2); " if py.flavour == "Theano"
        else "auto: Theano-PyMC, because plain Theano 1.0.5 cannot hold with these inputs; ")
    if release is not None and not newest:
        text += (f"released {release.date}; it declares Python {', '.join(release.python)} and needs numpy "
                 f"{release.numpy}, scipy {release.scipy}; ")
    text += "source-only on PyPI (pip builds it)"
    if release is not None and release.pre:
        text += "; a pre-release: pip installs it only pinned exactly"
    if release is not None and release.naming == "dunder":
        text += "; its config flags are spelled with `__` (blas__ldflags, gpuarray__preallocate)"
    found = ((cites.verified(py.verified),) if py.verified else ()) + ((cites.release(release),) if release else ())
    return Pin("theano", f"{py.flavour}=={py.theano}", Reason(text, found))


def _release_is_newest(release: kb_era.Release) -> bool:
    return release.version == knowledge.NEWEST[release.flavour]


def _device(c: Candidate) -> Pin:
    if c.gpu.cuda is None:
        return Pin("device", "cpu", Reason("no GPU stack: Theano runs on the CPU"))
    backend = next(b for b in kb_era.backends() if b.id == c.backend)
    value = "gpu" if c.old_backend else "cuda"
    return Pin("device", value, Reason(f"{backend.name}", (cites.backend(backend),)))


def _pygpu(c: Candidate) -> Pin:
    if c.gpu.cuda is None:
        return Pin("pygpu", "none", Reason("not needed: device=cpu never imports pygpu"))
    if c.old_backend:
        return Pin("pygpu", "none", Reason("not used: the old back-end (device=gpu) builds with nvcc, not libgpuarray"))
    allowed = backend_pygpu(c.backend)
    source = pygpu_source(c.py.python, c.gpu.os, allowed)
    assert source is not None  # a feasible GPU candidate has one
    text = (f"pygpu {source.version} + libgpuarray {source.version} from the {source.channel} channel: "
            f"{c.py.flavour} {c.py.theano} needs pygpu {allowed}, and pygpu is not on PyPI")
    return Pin("pygpu", source.version, Reason(text, (cites.pygpu(source),)))


def _cuda(c: Candidate, cons: Constraints) -> Pin:
    gpu = c.gpu
    if gpu.cuda is None:
        return Pin("cuda", "none", Reason("--cpu-only" if cons.cpu_only else "CPU only"))
    found: list[Cite] = []
    if cons.cuda:
        text = "as asked (--cuda)"
    elif gpu.cudnn:
        text = f"the newest CUDA with a cuDNN 5-7 build ({gpu.cudnn})" + (" that knows the GPU" if cons.cc else "")
        found += [cites.cudnn_build(gpu.cudnn_row)] if gpu.cudnn_row else []
    else:
        text = "the oldest CUDA that knows the GPU (no CUDA with a cuDNN 5-7 build does)"
    if c.old_backend:
        rules = kb_era.old_backend()
        text += f"; the old back-end is known to work with CUDA {', '.join(rules.cuda_known)}"
        found.append(cites.old_backend("cuda_known", rules.cuda_source))
    if cons.cc:
        arch = kb_cuda.architectures()[cons.cc]
        text += f"; {arch.sm} ({arch.family}): {arch.span()}"
        found.append(cites.arch(arch))
    else:
        known = [a.sm for a in kb_cuda.architectures().values() if kb_cuda.arch_support(a.cc, gpu.cuda).supported]
        text += f"; it knows {known[0]} - {known[-1]} (give --gpu or --arch to check yours)" if known else ""
    return Pin("cuda", gpu.cuda, Reason(text, tuple(found)))


def _cudnn(c: Candidate) -> Pin:
    gpu = c.gpu
    theano = kb_libs.theano_cudnn()
    if gpu.cuda is None:
        return Pin("cudnn", "none", Reason("not needed on the CPU"))
    if gpu.cudnn is None or gpu.cudnn_row is None:
        best = best_cudnn(gpu.cuda)
        text = (f"no cuDNN 5-{theano.unusable_from_major - 1} build exists for CUDA {gpu.cuda} and Theano cannot "
                f"use cuDNN {theano.unusable_from_major}+: run without cuDNN (`[dnn] enabled = False`)"
                if best is None else "without cuDNN, as asked")
        return Pin("cudnn", "none", Reason(text, (cites.cudnn_theano(theano),)))
    row = gpu.cudnn_row
    status = "expected (unverified)" if gpu.cuda in row.cuda_unverified else "built"
    if c.old_backend:
        rules = kb_era.old_backend()
        text = (f"cuDNN {row.label} is {status} for CUDA {gpu.cuda}; the old back-end officially supports cuDNN up "
                f"to {rules.cudnn_max_official} (it warns above it)")
        return Pin("cudnn", gpu.cudnn, Reason(text, (cites.cudnn_build(row),
                                                     cites.old_backend("cudnn_max_official", rules.cudnn_source))))
    text = f"cuDNN {row.label} is {status} for CUDA {gpu.cuda}; Theano needs cuDNN 5-{theano.unusable_from_major - 1}"
    return Pin("cudnn", gpu.cudnn, Reason(text, (cites.cudnn_build(row), cites.cudnn_theano(theano))))


def _driver(c: Candidate) -> Pin:
    gpu = c.gpu
    found = driver_minimum(gpu.cuda, gpu.os) if gpu.cuda and gpu.os != "macos" else None
    if found is None:
        return Pin("driver", "none" if gpu.cuda is None else "unknown",
                   Reason("no NVIDIA driver needed" if gpu.cuda is None else "no minimum in the tables"))
    text = f"the minimum for {found.what} on {OS_LABEL[gpu.os]}"
    if not found.exact:
        text += " (a driver branch; the exact point release is not known)"
    return Pin("driver", f">= {found.version}", Reason(text, (cites.minimum(found),)))


def _compiler(c: Candidate) -> Pin:
    gpu = c.gpu
    row = kb_stacks.compiler_for(gpu.os)
    if row is None:
        return Pin("compiler", "unknown", Reason(f"no compiler row for {gpu.os} in profiles/stacks.yaml"))
    text = f"{row.label}: Theano compiles its C code (CPU and GPU glue) with it"
    found = [cites.compiler(row)]
    if gpu.cuda and c.old_backend:
        rules = kb_era.old_backend()
        text += f"; nvcc is needed: {rules.nvcc}"
        found.append(cites.old_backend("nvcc", rules.nvcc_source))
        limits = kb_libs.gcc_limits_for(gpu.cuda) if gpu.os == "linux" else []
        if limits:
            text += f"; CUDA {gpu.cuda}'s nvcc accepts GCC <= {limits[-1].max_gcc} (pass it with nvcc.compiler_bindir)"
            found.append(cites.gcc(limits[-1]))
    elif gpu.cuda and gpu.os == "linux":
        limits = kb_libs.gcc_limits_for(gpu.cuda)
        if limits:
            text += (f"; nvcc is not needed (kernels go through NVRTC), but CUDA {gpu.cuda}'s nvcc would accept "
                     f"GCC <= {limits[-1].max_gcc}")
            found.append(cites.gcc(limits[-1]))
    return Pin("compiler", row.id, Reason(text, tuple(found)))


def pins(c: Candidate, cons: Constraints) -> tuple[Pin, ...]:
    return (_python(c, cons), _numpy(c, cons), _scipy(c), _theano(c, cons), _device(c), _pygpu(c), _cuda(c, cons),
            _cudnn(c), _driver(c), _compiler(c))
