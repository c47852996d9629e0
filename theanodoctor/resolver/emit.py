"""Files a resolution can be written as: conda environment.yml, pip requirements, .theanorc.
Formatters return text; ``write_new`` writes atomically and never replaces a file unasked."""

from __future__ import annotations

import os

from packaging.specifiers import SpecifierSet

from theanodoctor import kb_stacks
from theanodoctor.clikit import Failure
from theanodoctor.resolver.model import Resolution
from theanodoctor.resolver.space import pygpu_source
from theanodoctor.textfile import write_text_atomically

WINDOWS_CUDA = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v{cuda}"  # DlibDotNet nuget/BuildUtils.ps1:561
LINUX_CUDA = "/usr/local/cuda-{cuda}"


def _pygpu(res: Resolution) -> str | None:
    """The pinned pygpu, or None (a CPU stack, or the old back-end, which does not use it)."""
    value = res.pin("pygpu") if res.gpu else None
    return value if value not in (None, "none") else None


def pygpu_note(res: Resolution) -> str:
    """What to do about pygpu, which pip cannot install: the channel this resolution found for this
    Python (the same row its pygpu pin cites), or a source build."""
    version = _pygpu(res)
    if version is None:
        return ""
    python = res.pin("python") or ""
    source = pygpu_source(python, _os(res), SpecifierSet(f"=={version}"))
    head = f"pygpu {version} is not on PyPI (pip cannot install it): "
    build = f"build libgpuarray + pygpu {version} from source (github.com/Theano/libgpuarray, tag v{version})"
    if source is None:
        return head + build
    conda = f"`conda install -c {source.channel} pygpu={version}`"
    return head + f"install it with conda ({conda}; {source.note}) or {build}"


def _summary(res: Resolution) -> str:
    theano = (res.pin("theano") or "").replace("==", " ")
    where = f"CUDA {res.pin('cuda')} + cuDNN {res.pin('cudnn')}" if res.gpu else "CPU only"
    return f"{theano} on Python {res.pin('python')}, {where}" + (f" (stack {res.stack})" if res.stack else "")


def _os(res: Resolution) -> str:
    return res.os or res.constraints.os or res.constraints.host_os


def env_name(res: Resolution) -> str:
    return f"theano-{res.stack}" if res.stack else "theano-py" + (res.pin("python") or "").replace(".", "")


def conda_env(res: Resolution, name: str | None = None) -> str:
    """environment.yml: Python, numpy, scipy (and pygpu, the compiler) from conda; Theano via pip."""
    pygpu = _pygpu(res)
    source = pygpu_source(res.pin("python") or "", _os(res), SpecifierSet(f"=={pygpu}")) if pygpu else None
    channels = ["conda-forge"] + (["defaults"] if source and source.channel == "defaults" else [])
    deps = [f"python={res.pin('python')}", f"numpy={res.pin('numpy')}", f"scipy={res.pin('scipy')}", "pip"]
    if pygpu:
        deps += [f"pygpu={pygpu}", f"libgpuarray={pygpu}"]
    compiler = kb_stacks.compiler_for(_os(res))
    deps += list(compiler.conda) if compiler else []
    lines = [f"# {_summary(res)}", "# written by `theanodoctor resolve --emit conda`; create it with",
             "#   conda env create -f environment.yml", f"name: {name or env_name(res)}", "channels:"]
    lines += [f"  - {c}" for c in channels]
    lines += ["dependencies:"] + [f"  - {d}" for d in deps] + ["  - pip:", f"    - {res.pin('theano')}"]
    if res.gpu:
        lines += [f"# CUDA {res.pin('cuda')}, cuDNN {res.pin('cudnn')} and the driver ({res.pin('driver')}) are "
                  "installed outside conda (NVIDIA's installers)"]
    return "\n".join(lines) + "\n"


def pip_requirements(res: Resolution) -> str:
    """requirements.txt with exact pins; pygpu cannot come from PyPI, and the file says so."""
    lines = [f"# {_summary(res)}", f"# needs Python {res.pin('python')}: create the venv with that interpreter",
             f"numpy=={res.pin('numpy')}", f"scipy=={res.pin('scipy')}", f"{res.pin('theano')}"]
    if _pygpu(res):
        lines += ["# " + pygpu_note(res)]
    return "\n".join(lines) + "\n"


def theanorc(res: Resolution) -> str:
    """A .theanorc for the stack, written with the same editor `fix` uses on users' files."""
    from theanodoctor.fixes.rc_text import RcText

    rc = RcText(f"# {_summary(res)}\n")
    rc.set("global", "device", res.pin("device") or ("cuda" if res.gpu else "cpu"))
    if res.gpu:
        rc.set("global", "floatX", "float32")
        rc.set("cuda", "root", (WINDOWS_CUDA if _os(res) == "windows" else LINUX_CUDA).format(cuda=res.pin("cuda")))
        if res.pin("cudnn") == "none":
            rc.set("dnn", "enabled", "False")
    if any(c.fix_id == "blas-ldflags" for c in res.caveats):
        rc.set("blas", "ldflags", "")
    return rc.text()


EMITTERS = {"conda": conda_env, "pip": pip_requirements, "theanorc": theanorc}


def write_new(path: str, text: str, force: bool = False) -> None:
    """Write ``text`` to ``path`` atomically; an existing file is replaced only with ``force``."""
    if os.path.isdir(path):  # --force must not turn this into a rename error (exit 3)
        raise Failure(f"{path} is a folder: give a file name", 2)
    if os.path.lexists(path) and not force:
        raise Failure(f"{path} exists; use --force to replace it", 2)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise Failure(f"{folder} is not a folder", 2)
    try:
        write_text_atomically(path, text, replace=force)
    except FileExistsError:  # it appeared after the check above
        raise Failure(f"{path} exists; use --force to replace it", 2) from None
