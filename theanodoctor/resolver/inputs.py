"""The resolver's inputs: what the user (or the probe) fixed, validated against the tables.

Each input is one bit of a mask, so the solver can ask "which inputs cannot hold together".
``device`` is implicit: a GPU stack is wanted unless --cpu-only (or macOS) says otherwise."""

from __future__ import annotations

import difflib
import re
from typing import Any, NamedTuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from theanodoctor import kb_era

KEYS = ("os", "python", "numpy", "theano", "cuda", "cudnn", "gpu", "driver", "cpu_only", "device")
BIT = {key: 1 << i for i, key in enumerate(KEYS)}
_OS_NAMES = {"windows": "windows", "win": "windows", "win32": "windows", "linux": "linux",
             "macos": "macos", "darwin": "macos", "osx": "macos"}


class InputError(ValueError):
    """An input the resolver cannot use (a usage error, exit 2)."""


class Constraints(NamedTuple):
    os: str | None = None
    python: str | None = None     # "3.7"
    numpy: str | None = None      # "1.24.4"
    theano: str | None = None     # a release key of profiles/theano_releases.yaml: "0.8.2", "pymc-1.1.2" (None: auto)
    cuda: str | None = None       # "10.2"
    cudnn: str | None = None      # "7.6.5"
    gpu: str | None = None        # as typed: "GTX 1660 SUPER" or "sm_75"
    cc: str | None = None         # the GPU's compute capability: "7.5"
    driver: str | None = None     # "451.67"
    cpu_only: bool = False
    host_os: str = "linux"        # preferred when --os is not given

    def active(self) -> int:
        """The mask of the inputs that were given (plus the implicit wish for a GPU stack)."""
        mask = 0
        for key in KEYS[:-2]:
            if getattr(self, key) is not None:
                mask |= BIT[key]
        if self.cpu_only:
            mask |= BIT["cpu_only"]
        elif self.os != "macos":
            mask |= BIT["device"]
        return mask

    def flavour(self) -> tuple[str, str] | None:
        found = kb_era.by_key(self.theano or "")
        return (found.flavour, found.version) if found else None

    def label(self, key: str) -> str:
        """How an input reads in an explanation: as it was typed."""
        if key == "device":
            return "a GPU stack (no --cpu-only)"
        if key == "cpu_only":
            return "--cpu-only"
        if key == "gpu":
            typed = self.gpu or ""
            arch = "sm_" + (self.cc or "").replace(".", "")
            return f"--arch {typed}" if typed.startswith("sm_") else f'--gpu "{typed}" ({arch})'
        return f"--{key} {getattr(self, key)}"

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


def norm_os(value: str | None) -> str | None:
    if value is None:
        return None
    found = _OS_NAMES.get(value.strip().lower())
    if found is None:
        raise InputError(f"--os {value!r}: use windows, linux or macos")
    return found


def minor_version(value: str | None, option: str, example: str = "3.7") -> str | None:
    """"3.7.16" -> "3.7"; InputError for anything that is not a version."""
    if value is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\.(\d+)(?:\.\d+)*\s*", value)
    if not match:
        raise InputError(f"{option} {value!r} is not a version like {example}")
    return f"{int(match.group(1))}.{int(match.group(2))}"


def exact_version(value: str | None, option: str, example: str = "1.16.6") -> str | None:
    if value is None:
        return None
    if not re.fullmatch(r"\d+(\.\d+)+", value.strip()):
        raise InputError(f"{option} {value!r} is not a version like {example}")
    return value.strip()


def cudnn_version(value: str | None) -> str | None:
    """"7.6.5.32" (the build number in NVIDIA's file names, cudnn-10.2-windows10-x64-v7.6.5.32) -> "7.6.5"."""
    version = exact_version(value, "--cudnn", "7.6.5")
    return ".".join(version.split(".")[:3]) if version else None


def cuda_version(value: str | None) -> str | None:
    from theanodoctor.resolver.gpu_side import cuda_versions  # here: gpu_side imports this module

    version = minor_version(value, "--cuda", "10.2")
    if version is None:
        return None
    known = cuda_versions()
    if version not in known:
        raise InputError(f"--cuda {value}: not a CUDA release in profiles/cuda_driver.yaml "
                         f"(known: {', '.join(known)})")
    return version


def arch_cc(value: str) -> str:
    """"sm_75" / "compute_75" / "7.5" -> "7.5"; InputError when the tables do not know it."""
    from theanodoctor import kb_cuda

    text = value.strip().lower()
    match = re.fullmatch(r"(?:sm_|compute_)?(\d+)(\d)", text)
    cc = f"{int(match.group(1))}.{match.group(2)}" if match else text
    known = kb_cuda.architectures()
    if cc not in known:
        listed = ", ".join(a.sm for a in known.values())
        raise InputError(f"--arch {value}: not a GPU architecture in profiles/gpu_arch.yaml (known: {listed})")
    return cc


def gpu_cc(name: str) -> str:
    """The compute capability of a GPU name; InputError naming close matches when unknown."""
    from theanodoctor import kb_cuda

    # People type "gtx1080ti" or "RTX2070": split letters from digits when the name as typed is unknown.
    spaced = re.sub(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])", " ", name.lower())
    entry = kb_cuda.cc_from_name(name) or kb_cuda.cc_from_name(spaced)
    if entry is not None:
        return entry.cc
    table = kb_cuda.gpu_names()
    keys = {" ".join(g.tokens): g.name for g in table.gpus}
    typed = " ".join(kb_cuda.tokens(spaced, table.vendor_words))
    # First the same model number ("RTX 2070 SUPER" -> RTX 2070, "GTX 1660 Ti" -> GTX 1660 SUPER).
    model = re.match(r"\D*\d+", typed)
    close = [k for k in keys if model and (k + " ").startswith(model.group() + " ")]
    close += [k for k in keys if typed and k.startswith(typed)]
    close += difflib.get_close_matches(typed, list(keys), cutoff=0.6)
    spelled = list(dict.fromkeys(keys[k] for k in close))[:5]
    hint = f"; close matches: {', '.join(spelled)}" if spelled else ""
    raise InputError(f"--gpu {name!r}: not in profiles/gpu_names.yaml{hint} (or give --arch sm_XY)")


def driver_version(value: str | None) -> str | None:
    if value is None:
        return None
    if not re.fullmatch(r"\d+(\.\d+)*", value.strip()):
        raise InputError(f"--driver {value!r} is not a driver version like 451.67")
    return value.strip()


_PYMC = re.compile(r"^(theano[-_]?pymc|pymc)\s*")
_PLAIN = re.compile(r"^theano\b\s*")


def _newest(flavour: str, allowed: SpecifierSet, typed: str) -> str:
    """The newest release of ``flavour`` in ``allowed``: final releases first, pre-releases only when
    no final one matches (the 0.10 line has only betas)."""
    rows = [r for r in kb_era.releases() if r.flavour == flavour]
    found = ([r for r in rows if not r.pre and allowed.contains(r.version, prereleases=False)]
             or [r for r in rows if allowed.contains(r.version, prereleases=True)])
    if not found:
        known = ", ".join(r.version for r in kb_era.releases() if r.flavour == flavour)
        raise InputError(f"--theano {typed!r}: no {flavour} release in profiles/theano_releases.yaml matches "
                         f"(known: {known})")
    return max(found, key=lambda r: kb_era.vkey(r.version)).key


def theano_choice(value: str | None) -> str | None:
    """--theano as people write it -> a release key (None: auto). "0.8.2", "theano==0.9.0", "0.8"
    (the newest 0.8.x), "Theano-PyMC==1.1.0", "pymc" (the newest Theano-PyMC), ">=0.9,<1.0" (the
    newest release in the range); InputError naming the known releases for anything else."""
    if value is None or value.strip().lower() in ("", "auto"):
        return None
    typed = value.strip()
    text = typed.lower()
    flavour = "Theano"
    if _PYMC.match(text):
        flavour, text = "Theano-PyMC", _PYMC.sub("", text, count=1)
    elif _PLAIN.match(text):
        text = _PLAIN.sub("", text, count=1)
    text = text.lstrip("-_ ").replace(" ", "")
    if not text:
        return _newest(flavour, SpecifierSet(), typed)
    if re.fullmatch(r"\d+(\.\d+)*([ab]\d+)?", text):
        exact = next((r for r in kb_era.releases() if r.flavour == flavour and r.version == text), None)
        if exact is not None:
            return exact.key
        if text.count(".") == 1:  # a line: "0.8" -> the newest 0.8.x
            return _newest(flavour, SpecifierSet(f"=={text}.*"), typed)
        text = "==" + text
    try:
        allowed = SpecifierSet(text)
    except InvalidSpecifier:
        raise InputError(f"--theano {typed!r}: use a release (0.8.2, 1.0.5, Theano-PyMC==1.1.2), a range "
                         "(>=0.9,<1.0), pymc or auto") from None
    return _newest(flavour, allowed, typed)


def build(*, os: str | None = None, python: str | None = None, numpy: str | None = None,
          theano: str | None = None, cuda: str | None = None, cudnn: str | None = None,
          gpu: str | None = None, arch: str | None = None, driver: str | None = None,
          cpu_only: bool = False, host_os: str = "linux", cc: str | None = None) -> Constraints:
    """Validated constraints from option values (InputError on the first bad one). ``cc``: the
    GPU's compute capability when it is known (from the probe), so the name is not looked up."""
    if gpu and arch:
        raise InputError("--gpu and --arch exclude each other")
    theano = theano_choice(theano)
    if cc:
        cc = arch_cc(cc)
    elif gpu or arch:
        cc = gpu_cc(gpu) if gpu else arch_cc(arch or "")
    return Constraints(
        os=norm_os(os), python=minor_version(python, "--python"), numpy=exact_version(numpy, "--numpy"),
        theano=theano, cuda=cuda_version(cuda),
        # --arch as sm_XY whatever its spelling (7.5, 75, compute_75): explanations label it --arch by that prefix
        cudnn=cudnn_version(cudnn), cc=cc,
        gpu=gpu or ("sm_" + (cc or "").replace(".", "") if arch else None),
        driver=driver_version(driver), cpu_only=cpu_only, host_os=norm_os(host_os) or "linux",
    )
