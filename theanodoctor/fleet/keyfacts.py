"""The facts that identify a machine's Theano stack, read from a snapshot: the rows of
`report`'s markdown block and the columns of `summarize`'s table.

Each fact has a short ``value`` (what machines are compared on: versions, names) and an
optional ``where`` (a path or a source, shown in a single machine's report only).
"""

from __future__ import annotations

from typing import NamedTuple

from theanodoctor.checks.common import config_value, dist_version, flavour, source_label, stage
from theanodoctor.checks.cuda_toolkits import toolkit_in_use
from theanodoctor.facts import Facts, dig, section

UNKNOWN = "?"


class KeyFact(NamedTuple):
    label: str
    value: str
    where: str | None = None


def _os(facts: Facts) -> KeyFact:
    system = section(facts, "system")
    name = system.get("os") or stage(facts, "interpreter").get("system")
    if not name:
        return KeyFact("OS", UNKNOWN)
    extra = system.get("distribution") if name == "Linux" else system.get("release")
    return KeyFact("OS", f"{name} {extra}" if extra else str(name), system.get("machine"))


def _python(facts: Facts) -> KeyFact:
    interp = stage(facts, "interpreter")
    if not interp.get("version"):
        target = section(facts, "target")
        return KeyFact("Python", UNKNOWN, target.get("python") or target.get("error"))
    kind = "conda" if interp.get("is_conda") else "venv" if interp.get("is_venv") else None
    bits = f"{interp['bits']}-bit" if interp.get("bits") else None
    value = " ".join(filter(None, [str(interp["version"]), f"({', '.join(filter(None, [bits, kind]))})"
                                   if bits or kind else None]))
    return KeyFact("Python", value, interp.get("executable"))


def _listed(facts: Facts) -> bool:
    """Whether the probe listed the target's packages (else "not installed" cannot be told)."""
    return bool(stage(facts, "distributions").get("ok"))


def _theano(facts: Facts) -> KeyFact:
    name = flavour(facts)
    if name is None:
        return KeyFact("Theano", "not installed" if _listed(facts) else UNKNOWN)
    imported = stage(facts, "theano_import")
    status = None if imported.get("ok") or not imported else "import fails"
    return KeyFact("Theano", f"{name} {dist_version(facts, name) or UNKNOWN}", status)


def _package(facts: Facts, label: str, name: str) -> KeyFact:
    return KeyFact(label, dist_version(facts, name) or ("not installed" if _listed(facts) else UNKNOWN))


def _driver(facts: Facts) -> KeyFact:
    nvidia = section(facts, "nvidia")
    if not nvidia.get("driver_version"):
        return KeyFact("NVIDIA driver", "none" if nvidia.get("status") == "missing" else UNKNOWN)
    cuda = nvidia.get("cuda_driver_version")
    return KeyFact("NVIDIA driver", str(nvidia["driver_version"]),
                   f"supports CUDA up to {cuda}" if cuda else None)


def _gpus(facts: Facts) -> KeyFact:
    gpus = [g for g in section(facts, "nvidia").get("gpus") or [] if isinstance(g, dict)]
    if not gpus:
        return KeyFact("GPUs", "none")
    names = [f"{g.get('name') or 'GPU'} (sm_{str(g['compute_capability']).replace('.', '')})"
             if g.get("compute_capability") else str(g.get("name") or "GPU") for g in gpus]
    return KeyFact("GPUs", ", ".join(names))


def _cuda(facts: Facts) -> KeyFact:
    use = toolkit_in_use(facts)
    if use.kit is None:
        return KeyFact("CUDA toolkit", "none", use.why_none or None)
    found = len(section(facts, "cuda").get("toolkits") or [])
    where = f"{use.kit.get('root')}, chosen by {use.rule}" + (f"; {found} toolkits found" if found > 1 else "")
    return KeyFact("CUDA toolkit", str(use.kit.get("version") or UNKNOWN), where)


def _cudnn(facts: Facts) -> KeyFact:
    installs = [i for i in section(facts, "cudnn").get("installs") or [] if isinstance(i, dict)]
    if not installs:
        return KeyFact("cuDNN", "none")
    return KeyFact("cuDNN", ", ".join(str(i.get("version") or UNKNOWN) for i in installs),
                   ", ".join(str(i.get("root")) for i in installs if i.get("root")) or None)


def _compiler(facts: Facts) -> KeyFact:
    compilers = section(facts, "compilers")
    used = compilers.get("theano_cxx")
    known = [c for c in compilers.get("cxx") or [] if isinstance(c, dict)]
    entry = next((c for c in known if c.get("path") == used), known[0] if known and not used else None)
    if entry is None:
        return KeyFact("C++ compiler", "none" if not used else UNKNOWN, used)
    value = " ".join(filter(None, [entry.get("name"), entry.get("version"),
                                   f"({entry['bits']}-bit)" if entry.get("bits") else None]))
    return KeyFact("C++ compiler", value or UNKNOWN, entry.get("path"))


def _device(facts: Facts) -> KeyFact:
    value, source = config_value(facts, "device")
    return KeyFact("Theano device", str(value) if value else UNKNOWN, None if value is None else source_label(source))


def key_facts(facts: Facts) -> list[KeyFact]:
    return [_os(facts), _python(facts), _theano(facts), _package(facts, "numpy", "numpy"),
            _package(facts, "scipy", "scipy"), _package(facts, "pygpu", "pygpu"), _driver(facts),
            _gpus(facts), _cuda(facts), _cudnn(facts), _compiler(facts), _device(facts)]


def machine_name(facts: Facts) -> str | None:
    """The host name a snapshot carries (None when it was redacted or never probed)."""
    name = dig(section(facts, "system"), "hostname")
    return name if isinstance(name, str) and name and not name.startswith("<") else None

