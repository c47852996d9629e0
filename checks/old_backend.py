"""The old GPU back-end (``device=gpu*``, theano.sandbox.cuda, Theano <= 0.9) judged by its own
needs (profiles/theano_releases.yaml ``old_backend``): nvcc where Theano looks for it, a CUDA whose
nvcc knows the GPU, cuDNN within what it supports, floatX=float32. No checks live here: the device
check calls ``judge``."""

from __future__ import annotations

from typing import NamedTuple

from theanodoctor import kb_cuda, kb_era
from theanodoctor.engine import Outcome, error, ok, warn
from theanodoctor.facts import Facts, section

from . import cuda_toolkits
from .common import config_value, release
from .gpu_common import gpu_cc


class Nvcc(NamedTuple):
    path: str
    version: str | None
    how: str


def find_nvcc(facts: Facts) -> Nvcc | None:
    """The nvcc Theano <= 0.9 runs: ``nvcc`` on PATH, else <cuda.root>/bin/nvcc."""
    cuda = section(facts, "cuda")
    on_path = cuda.get("nvcc_on_path")
    if isinstance(on_path, str) and on_path:
        version = (cuda.get("nvcc_on_path_version") or {}).get("version")
        return Nvcc(on_path, version if isinstance(version, str) else None, "on PATH")
    root = cuda_toolkits.cuda_root(facts)
    kit = cuda_toolkits.kit_at(facts, root.path)
    if kit and kit.get("nvcc"):
        return Nvcc(str(kit["nvcc"]), kit.get("version"), f"under cuda.root ({root.source})")
    return None


def _gpu_problems(facts: Facts, cuda: str | None, label: str) -> list[str]:
    found = []
    for gpu in section(facts, "nvidia").get("gpus") or []:
        cc, _ = gpu_cc(gpu)
        if not cc or not cuda:
            continue
        verdict = kb_cuda.arch_support(cc, cuda)
        if verdict.supported is False:
            arch = verdict.arch.sm if verdict.arch else f"cc {cc}"
            found.append(f"{gpu.get('name') or 'the GPU'} ({arch}) needs {verdict.needs}, but {label}'s nvcc is "
                         f"CUDA {cuda}: it compiles with -arch={arch} and fails")
    return found


def judge(facts: Facts, origin: str) -> Outcome:
    """``origin``: "device=gpu (from ...)"."""
    rules = kb_era.old_backend()
    found = release(facts)
    label = found.label if found else "this Theano"
    head = f"{origin}: the old GPU back-end of {label}"
    details = [f"source: {rules.nvcc_source}", f"source: {rules.cuda_source}"]
    nvcc = find_nvcc(facts)
    if nvcc is None:
        return error(f"{head}, but nvcc is not found",
                     cause=rules.nvcc + ".",
                     remedy="Put the CUDA toolkit's bin folder on PATH (or set CUDA_ROOT to the toolkit), or set "
                            "device=cpu to run on the CPU.",
                     details=tuple(details))
    cuda = nvcc.version
    details.insert(0, f"nvcc: {nvcc.path} ({nvcc.how}), CUDA {cuda or 'version unknown'}")
    problems = _gpu_problems(facts, cuda, label)
    if problems:
        ways = ("run on the CPU (device=cpu)", "the gpuarray back-end (device=cuda): Theano 0.9.0 has it with "
                "pygpu 0.6, Theano 1.0.5 with pygpu 0.7, after porting theano.sandbox.cuda code",
                f"a CUDA the old back-end is known to work with ({', '.join(rules.cuda_known)}) on a GPU it knows")
        return error(f"{head} cannot drive this GPU: " + problems[0],
                     cause=" ".join([rules.arch + ".", *problems[1:]]),
                     remedy="Ways out: " + "; ".join(ways) + ".",
                     details=tuple(details + [f"source: {rules.arch_source}"]))
    notes = []
    if cuda and cuda not in rules.cuda_known:
        notes.append(f"CUDA {cuda} with the old back-end is not known to work (known: {', '.join(rules.cuda_known)})")
    from .cudnn import used_install  # here: importing it first would change the report's check order

    cudnn = (used_install(facts)[0] or {}).get("version")
    if isinstance(cudnn, str) and kb_cuda.vtuple(cudnn) and (kb_cuda.vtuple(cudnn) or ()) >= (5, 2):
        notes.append(f"cuDNN {cudnn} is newer than the old back-end officially supports "
                     f"({rules.cudnn_max_official}); Theano warns and may misbehave")
        details.append(f"source: {rules.cudnn_source}")
    floatx, _ = config_value(facts, "floatX")
    if floatx and floatx.strip() != "float32":
        notes.append(f"floatX={floatx}: {rules.float32_only}")
        details.append(f"source: {rules.float32_source}")
    details.append(f"at import: {rules.driver_test} (source: {rules.driver_test_source})")
    if notes:
        return warn(f"{head}: " + "; ".join(notes), cause=rules.arch + ".",
                    remedy=f"Use CUDA {rules.cuda_known[-1]} with cuDNN {rules.cudnn_max_official} and "
                           "floatX=float32, as the old back-end was released for.",
                    details=tuple(details))
    return ok(f"{head}, with nvcc {nvcc.how} (CUDA {cuda or '?'})", details=tuple(details))
