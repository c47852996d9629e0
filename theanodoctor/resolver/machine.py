"""A machine as resolver inputs (``resolve --from-machine``), and a named stack compared with a
facts snapshot (``stack_mismatches``, for ``preflight --profile``). Pure: Facts in, values out."""

from __future__ import annotations

from typing import Any, NamedTuple

from theanodoctor import kb_cuda, kb_era
from theanodoctor.facts import Facts, section
from theanodoctor.kb_stacks import Stack


def _readers() -> Any:
    from theanodoctor.checks import common, cuda_toolkits, cudnn

    return common, cuda_toolkits, cudnn


def _minor(version: str | None) -> str | None:
    found = kb_cuda.minor_of(version)
    return f"{found[0]}.{found[1]}" if found else None


def _first_gpu(facts: Facts) -> dict[str, Any]:
    nvidia = section(facts, "nvidia")
    gpus = [g for g in nvidia.get("gpus") or [] if isinstance(g, dict)] if nvidia.get("status") == "ok" else []
    return gpus[0] if gpus else {}


class Found(NamedTuple):
    """What the machine has, in the resolver's terms (None: unknown or absent)."""

    os: str | None
    python: str | None
    flavour: str | None
    theano: str | None
    numpy: str | None
    scipy: str | None
    pygpu: str | None
    gpu: str | None
    cc: str | None
    driver: str | None
    cuda: str | None
    cudnn: str | None


def found(facts: Facts) -> Found:
    common, cuda_toolkits, cudnn = _readers()
    flav = common.flavour(facts)
    os_name = (common.target_os(facts) or "").lower().replace("darwin", "macos") or None
    gpu = _first_gpu(facts)
    install = cudnn.used_install(facts)[0] or {}
    driver = section(facts, "nvidia").get("driver_version")
    return Found(
        os=os_name, python=_minor(common.python_version(facts)), flavour=flav,
        theano=common.dist_version(facts, flav) if flav else None,
        numpy=common.dist_version(facts, "numpy"), scipy=common.dist_version(facts, "scipy"),
        pygpu=common.dist_version(facts, "pygpu"), gpu=gpu.get("name"),
        cc=gpu.get("compute_capability") if isinstance(gpu.get("compute_capability"), str) else None,
        driver=driver if isinstance(driver, str) else None,
        cuda=cuda_toolkits.kit_version(cuda_toolkits.toolkit_in_use(facts)),
        cudnn=install.get("version") if isinstance(install.get("version"), str) else None,
    )


def machine_options(facts: Facts) -> dict[str, str | None]:
    """The resolver options the machine fixes: OS, Python, GPU, driver, toolkit, cuDNN, flavour.
    Installed numpy/scipy are not constraints: the resolver pins them. No NVIDIA GPU seen: a
    CPU-only stack (``cpu_only`` set), whatever toolkits are installed."""
    have = found(facts)
    theano = next((r.key for r in kb_era.releases() if (r.flavour, r.version) == (have.flavour, have.theano)), None)
    common = {"os": have.os, "python": have.python, "theano": theano}
    if not have.gpu:
        return {**common, "cpu_only": "yes"}
    named = kb_cuda.cc_from_name(have.gpu)
    cc = have.cc or (named.cc if named else None)
    if cc not in kb_cuda.architectures():  # neither reported nor in the tables: not a constraint
        return {**common, "driver": have.driver, "cuda": have.cuda, "cudnn": have.cudnn}
    return {**common, "gpu": have.gpu, "cc": cc, "driver": have.driver, "cuda": have.cuda, "cudnn": have.cudnn}


class Mismatch(NamedTuple):
    name: str
    pinned: str
    found: str | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


def _same_minor(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and kb_cuda.minor_of(a) == kb_cuda.minor_of(b)


def _gpu_mismatches(stack: Stack, have: Found) -> list[Mismatch]:
    found: list[Mismatch] = []
    if not _same_minor(have.pygpu, stack.pygpu):
        found.append(Mismatch("pygpu", f"{stack.pygpu} (0.7.x)", have.pygpu,
                              f"pygpu {have.pygpu or 'is not installed'}; the stack needs pygpu {stack.pygpu}"))
    if not _same_minor(have.cuda, stack.cuda):
        found.append(Mismatch("cuda", stack.cuda or "", have.cuda,
                              f"the toolkit in use is {'CUDA ' + have.cuda if have.cuda else 'none'}; "
                              f"the stack pins CUDA {stack.cuda}"))
    if stack.cudnn and have.cudnn != stack.cudnn:
        found.append(Mismatch("cudnn", stack.cudnn, have.cudnn,
                              f"cuDNN {have.cudnn or 'not found'} where Theano looks; the stack pins {stack.cudnn}"))
    need = kb_cuda.driver_need(stack.cuda or "", None, have.os or stack.os)
    minimum = need.hard.version if need and need.hard else None
    if minimum and (have.driver is None or kb_cuda.vcmp(kb_cuda.vtuple(have.driver) or (),
                                                        kb_cuda.vtuple(minimum) or ()) < 0):
        found.append(Mismatch("driver", f">= {minimum}", have.driver,
                              f"driver {have.driver or 'not found'}; CUDA {stack.cuda} needs >= {minimum}"))
    return found


def stack_mismatches(stack: Stack, facts: Facts) -> list[Mismatch]:
    """Where the machine and environment in ``facts`` differ from a named stack's pins (python,
    numpy, scipy, Theano flavour and version; for a GPU stack also pygpu, CUDA, cuDNN, driver).
    An empty list: the environment is that stack."""
    have = found(facts)
    mismatches = []
    if stack.os != "any" and have.os != stack.os:
        mismatches.append(Mismatch("os", stack.os, have.os, f"this is {have.os or 'an unknown OS'}, "
                                                            f"the stack is for {stack.os}"))
    pairs = (("python", stack.python, have.python), ("numpy", stack.numpy, have.numpy),
             ("scipy", stack.scipy, have.scipy),
             ("theano", f"{stack.flavour}=={stack.theano}",
              f"{have.flavour}=={have.theano}" if have.flavour else None))
    for name, pinned, value in pairs:
        if value != pinned:
            mismatches.append(Mismatch(name, pinned, value, f"{name} {value or 'is not installed'}; "
                                                            f"the stack pins {pinned}"))
    if stack.gpu:
        mismatches += _gpu_mismatches(stack, have)
    return mismatches
