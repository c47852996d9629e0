"""The pins of a chosen candidate, one reason each, citing the table rows they rest on."""

from __future__ import annotations

from theanodoctor import kb_cuda, kb_libs, kb_stacks, knowledge
from theanodoctor.resolver import cites
from theanodoctor.resolver.gpu_side import best_cudnn, driver_minimum
from theanodoctor.resolver.inputs import Constraints
from theanodoctor.resolver.model import Cite, Pin, Reason
from theanodoctor.resolver.space import Candidate, pygpu_source
from theanodoctor.resolver.violation import OS_LABEL


def _given(cons: Constraints, key: str) -> str:
    return f"as asked (--{key}); " if getattr(cons, key) else ""


def _python(c: Candidate, cons: Constraints) -> Pin:
    py = c.py
    bad = [r for r in knowledge.compat_rules() if r.flavour == py.flavour and r.python is not None
           and r.numpy is None]
    limits = "; ".join(f"Python {r.python}: {r.result}" for r in bad)
    row = py.verified
    text = _given(cons, "python") + (
        f"{py.flavour} {py.theano} with numpy {py.numpy} / scipy {py.scipy} was reproduced end to end on it"
        if row else f"no rule against {py.flavour} on it (not a verified combination)")
    found: tuple[Cite, ...] = ((cites.verified(row),) if row else ()) + tuple(cites.rule(r) for r in bad)
    return Pin("python", py.python, Reason(text + (f"; {limits}" if limits else ""), found))


def _numpy(c: Candidate, cons: Constraints) -> Pin:
    py = c.py
    rules = [r for r in knowledge.compat_rules() if r.flavour == py.flavour and r.numpy is not None]
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
    text = _given(cons, "theano") or (
        "auto: plain Theano unless Theano-PyMC is asked for (--theano pymc-1.1.2); " if py.flavour == "Theano"
        else "auto: Theano-PyMC, because plain Theano 1.0.5 cannot hold with these inputs; ")
    text += "source-only on PyPI (pip builds it)"
    if py.flavour == "Theano-PyMC":
        text += "; its config flags are spelled with `__` (blas__ldflags, gpuarray__preallocate)"
    found = (cites.verified(py.verified),) if py.verified else ()
    return Pin("theano", f"{py.flavour}=={py.theano}", Reason(text, found))


def _pygpu(c: Candidate) -> Pin:
    if c.gpu.cuda is None:
        return Pin("pygpu", "none", Reason("not needed: device=cpu never imports pygpu"))
    source = pygpu_source(c.py.python, c.gpu.os)
    assert source is not None  # a feasible GPU candidate has one
    text = (f"pygpu {source.version} + libgpuarray {source.version} from the {source.channel} channel: Theano 1.0 "
            "needs pygpu >=0.7.0,<0.8.0, and pygpu is not on PyPI")
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
    if gpu.cuda and gpu.os == "linux":
        limits = kb_libs.gcc_limits_for(gpu.cuda)
        if limits:
            text += (f"; nvcc is not needed (kernels go through NVRTC), but CUDA {gpu.cuda}'s nvcc would accept "
                     f"GCC <= {limits[-1].max_gcc}")
            found.append(cites.gcc(limits[-1]))
    return Pin("compiler", row.id, Reason(text, tuple(found)))


def pins(c: Candidate, cons: Constraints) -> tuple[Pin, ...]:
    return (_python(c, cons), _numpy(c, cons), _scipy(c), _theano(c, cons), _pygpu(c), _cuda(c, cons), _cudnn(c),
            _driver(c), _compiler(c))
