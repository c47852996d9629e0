"""One remedy for "this numpy breaks Theano", made concrete with the environment's own versions.

python-stack (the version rule) and theano-import (the error it causes) name the same cause, so
they give the same remedy: the numpy of the verified combination for this flavour and Python
(profiles/theano_compat.yaml), checked against the numpy range the installed scipy declares;
when that scipy cannot take it, the verified scipy goes with it.
"""

from __future__ import annotations

from typing import NamedTuple

from theanodoctor import knowledge
from theanodoctor.facts import Facts

from .common import dist_version, flavour, python_version, stage
from .packages import declared_numpy


class NumpyRemedy(NamedTuple):
    text: str
    command: str | None  # None: no pip command in this environment can do it
    source: str


def numpy_remedy(facts: Facts) -> NumpyRemedy | None:
    """The concrete remedy, or None when no verified combination covers this Python."""
    flav, python = flavour(facts), python_version(facts)
    if flav is None or python is None:
        return None
    minor = ".".join(python.split(".")[:2])
    ours = [v for v in knowledge.verified_stacks() if v.flavour == flav]
    verified = next((v for v in ours if v.python == minor), None)
    if verified is None:
        return _other_python(flav, minor, ours)
    exe = stage(facts, "interpreter").get("executable") or "python"
    scipy = dist_version(facts, "scipy")
    declared = declared_numpy(facts) if scipy else None
    pins = [f"numpy=={verified.numpy}"]
    why = f"the verified combination for {flav} on Python {minor}"
    if scipy and declared and verified.numpy in declared[0]:
        why += f"; scipy {scipy} here accepts it (it needs numpy {declared[0]})"
    elif scipy and declared:
        pins.append(f"scipy=={verified.scipy}")
        why += (f"; scipy {scipy} here needs numpy {declared[0]}, so scipy {verified.scipy} of that "
                "combination goes with it")
    text = f"Install {' and '.join(p.replace('==', ' ') for p in pins)} in that environment ({why})."
    command = f"{exe} -m pip install " + " ".join(f'"{p}"' for p in pins)
    return NumpyRemedy(text, command, verified.source)


def _minor_key(minor: str) -> tuple[int, ...]:
    return tuple(int(part) for part in minor.split(".") if part.isdigit())


def _other_python(flav: str, minor: str, ours: list[knowledge.Verified]) -> NumpyRemedy | None:
    """No verified combination on this Python: the numpy pin alone cannot help (no wheel of an
    old enough numpy may exist for it); the newest verified Python is the way out."""
    older = [v for v in ours if _minor_key(v.python) < _minor_key(minor)]
    if not older:
        return None
    best = max(older, key=lambda v: _minor_key(v.python))
    return NumpyRemedy(f"No combination of {flav} with Python {minor} is verified, and no numpy pin alone makes "
                       f"one: build an environment with Python {best.python}, numpy {best.numpy} and scipy "
                       f"{best.scipy} (the newest verified combination): `theanodoctor resolve --python {best.python}` "
                       "pins it, `theanodoctor provision` with the same options builds it.",
                       None, best.source)
