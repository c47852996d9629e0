"""What a resolved stack still needs after installing, and what it cannot do, each with its rows
and, where `theanodoctor fix` can apply it, the fix id."""

from __future__ import annotations

from theanodoctor import kb_cuda, kb_era, kb_libs, knowledge
from theanodoctor.resolver import cites
from theanodoctor.resolver.model import Caveat, Reason
from theanodoctor.resolver.space import Candidate, backend_pygpu, pygpu_source
from theanodoctor.resolver.violation import matches, vkey


def _windows_dlls(cuda: str) -> Caveat | None:
    """libgpuarray 0.7.6 asks for nvrtc64_<major><minor>.dll of the driver's CUDA, then the
    fallbacks; a toolkit whose NVRTC file is none of those names is not found without aliases."""
    rule = kb_libs.loader_rule()
    names = kb_libs.names_for("Windows", cuda)
    shipped = names.name("nvrtc", cuda) if names else None
    if names is None or shipped is None:
        return None
    asked = {rule.nvrtc(v) for v in rule.fallbacks}
    if shipped in asked:
        return None
    exact = rule.nvrtc(kb_libs.split_version(cuda))
    cublas = names.name("cublas", cuda)
    pattern = rule.windows_nvrtc.replace("{major}", "<major>").replace("{minor}", "<minor>")
    text = (f"stock pygpu 0.7.6 (libgpuarray) asks for `{pattern}` of the CUDA version the driver "
            f"reports, then {', '.join(f'{a}.{b}' for a, b in rule.fallbacks)}; CUDA {cuda} ships `{shipped}`"
            + (f" and `{cublas}`" if cublas else "") + ", so pygpu finds no NVRTC"
            + (f" unless the driver reports exactly CUDA {cuda} (`{exact}`)" if shipped == exact else "")
            + ": after installing, run `theanodoctor fix` (it adds copies under the names pygpu asks for)")
    found = (cites.loader(rule), cites.library_names(names))
    return Caveat("cuda-dll-aliases", Reason(text, found), "cuda-dll-aliases")


def _linux_libs() -> Caveat:
    rule = kb_libs.loader_rule()
    text = (f"libgpuarray loads {', '.join(rule.linux)} by these unversioned names: the toolkit's lib64 "
            "(with its unversioned links) must be on the loader path (LD_LIBRARY_PATH)")
    return Caveat("cuda-soname-links", Reason(text, (cites.loader(rule),)), "cuda-soname-links")


def _cudnn(c: Candidate) -> list[Caveat]:
    theano = kb_libs.theano_cudnn()
    if c.gpu.cudnn is None:
        return [Caveat("no-cudnn", Reason(
            "no cuDNN: Theano's GPU back-end runs without it; the emitted .theanorc sets `[dnn] enabled = False` "
            "(disable cuDNN even if present) so Theano neither looks for one nor uses a cuDNN 8+ it cannot run",
            (cites.cudnn_theano(theano),)))]
    major, minor = (vkey(c.gpu.cudnn) + (0, 0))[:2]
    if major * 1000 + minor * 100 >= theano.warn_from:
        return [Caveat("cudnn-newer-than-theano", Reason(
            f"Theano warns about cuDNN {c.gpu.cudnn} (\"{theano.too_recent}\") and still uses it",
            (cites.cudnn_theano(theano),)))]
    return []


def _python_rules(c: Candidate) -> list[Caveat]:
    found = []
    for rule in knowledge.compat_rules():
        if (rule.flavour == c.py.flavour and (rule.unless_flag or rule.result == "degraded")
                and knowledge.applies(rule, c.py.theano) and matches(rule.python, c.py.python)
                and (rule.numpy is None or matches(rule.numpy, c.py.numpy))):
            fix = "blas-ldflags" if rule.unless_flag else None
            text = rule.message.format(python=c.py.python, numpy=c.py.numpy) + " " + rule.remedy
            found.append(Caveat(fix or "degraded", Reason(text, (cites.rule(rule),)), fix))
    return found


def _driver(c: Candidate) -> list[Caveat]:
    need = kb_cuda.driver_need(c.gpu.cuda or "", None, c.gpu.os)
    if need is None or need.release is None or need.hard is None:
        return []
    text = (f"a driver from {need.hard.version} runs CUDA {c.gpu.cuda} under minor-version compatibility "
            f"(\"with limited feature-set\"); its own release minimum is {need.release.version}")
    return [Caveat("minor-version-compat", Reason(text, (cites.minimum(need.hard), cites.minimum(need.release))))]


def _pygpu(c: Candidate) -> list[Caveat]:
    source = None if c.old_backend else pygpu_source(c.py.python, c.gpu.os, backend_pygpu(c.backend))
    if source is None:
        return []
    found = []
    if source.channel != "conda-forge":
        found.append(Caveat("pygpu-channel", Reason(f"{source.note}; conda-forge has none for Python {c.py.python}",
                                                    (cites.pygpu(source),))))
    elif source.id != "conda-forge":  # an old build: say what is and is not known about it
        found.append(Caveat("pygpu-channel", Reason(source.note, (cites.pygpu(source),))))
    elif c.py.numpy and vkey(c.py.numpy) < (1, 18):
        found.append(Caveat("pygpu-numpy", Reason(
            f"{source.note} (numpy {c.py.numpy} here); if conda reports a conflict, numpy 1.21.6 or older still works "
            "with Theano 1.0.5", (cites.pygpu(source),))))
    return found


def _old_backend() -> list[Caveat]:
    rules = kb_era.old_backend()
    return [Caveat("old-gpu-backend", Reason(
        f"device=gpu is the old back-end: {rules.nvcc}; {rules.float32_only}; {rules.driver_test}",
        (cites.old_backend("nvcc", rules.nvcc_source), cites.old_backend("float32_only", rules.float32_source),
         cites.old_backend("driver_test", rules.driver_test_source))))]


def caveats(c: Candidate) -> tuple[Caveat, ...]:
    found = _python_rules(c)
    if c.gpu.cuda is None:
        return tuple(found)
    if c.old_backend:
        return tuple(found + _old_backend() + _driver(c))
    if c.gpu.os == "windows":
        dlls = _windows_dlls(c.gpu.cuda)
        found += [dlls] if dlls else []
    elif c.gpu.os == "linux":
        found.append(_linux_libs())
    return tuple(found + _cudnn(c) + _driver(c) + _pygpu(c))
