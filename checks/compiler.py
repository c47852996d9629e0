"""A C++ compiler that Theano finds (it compiles its C code, and the GPU back-end needs it)."""

from __future__ import annotations

from theanodoctor.engine import Options, Outcome, check, error, ok, warn
from theanodoctor.facts import Facts, section

from .common import config_value, probe_ran, stage, target_os

NO_CXX = (
    "Theano logs `WARNING (theano.configdefaults): g++ not detected ! Theano will be unable to "
    "execute optimized C-implementations (for both CPU and GPU) ...`; the GPU back-end then refuses "
    "to start: `RuntimeError: The new gpu-backend need a c++ compiler.`"
)


def _install_hint(facts: Facts) -> str:
    if target_os(facts) == "Windows":
        return "Install MinGW-w64 into the conda env: `conda install m2w64-toolchain`."
    return "Install g++ (Debian/Ubuntu: `sudo apt install g++`)."


@check("cxx-compiler", "A C++ compiler is available to Theano", area="compiler")
def cxx_compiler(facts: Facts, options: Options) -> Outcome:
    if probe_ran(facts) and stage(facts, "theano_import").get("ok"):
        cxx, source = config_value(facts, "cxx")
        if cxx:
            return ok(f"Theano uses {cxx.strip(chr(34))}")
        if source != "default":
            return warn("cxx is set empty on purpose: Theano runs slow Python code and the GPU back-end "
                        "cannot start", remedy="Remove the empty cxx setting once a compiler is installed.")
        return error("Theano found no C++ compiler", cause=NO_CXX, remedy=_install_hint(facts))
    found = section(facts, "compilers").get("cxx") or []
    if found:
        first = found[0]
        return ok(f"{first.get('name')} {first.get('version') or ''} at {first.get('path')}".replace("  ", " "))
    if section(facts, "compilers").get("status") != "ok":
        return Outcome("skipped", "compilers were not probed")
    return error("no C++ compiler found on PATH", cause=NO_CXX, remedy=_install_hint(facts))
