"""Framework pins for a repository's lock: what the scan found (Lasagne, Keras, Blocks, ...) as pins,
requirements for the as-of resolver, and the settings the framework needs (Keras's backend)."""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from theanodoctor.resolver.eras import Choice
from theanodoctor.resolver.lock import LockPin, Setting
from theanodoctor.resolver.model import Conflict, Reason

# Keras reads its backend from KERAS_BACKEND, else ~/.keras/keras.json (keras/backend/__init__.py)
KERAS_BACKEND = Setting("KERAS_BACKEND", "theano", "Keras 1/2 default to TensorFlow; KERAS_BACKEND=theano (or "
                                                   "\"backend\": \"theano\" in ~/.keras/keras.json) selects Theano")


class FrameworkPins(NamedTuple):
    pins: tuple[LockPin, ...]
    requires: tuple[str, ...]
    settings: tuple[Setting, ...]


def _where(item: dict[str, Any]) -> str:
    evidence = item.get("evidence") or []
    return ", ".join(f"{e.get('file')}:{e.get('line')}" for e in evidence[:2] if isinstance(e, dict)) or "the scan"


def pin(item: dict[str, Any], choice: Choice, day: dt.date) -> FrameworkPins | Conflict:
    """One framework the scan found; ``spec`` is a URL, a version specifier, or empty."""
    name, spec = str(item.get("name") or ""), str(item.get("spec") or "")
    settings = (KERAS_BACKEND,) if name.lower() == "keras" else ()
    why = item.get("reason") or f"the code uses {name} ({_where(item)})"
    if "://" in spec:
        return FrameworkPins((LockPin(name, spec, f"{why}; {name} from its repository at this commit/tag"),), (),
                             settings)
    if name.lower() == "blocks":
        return Conflict(("blocks",), (Reason("Blocks was never released on PyPI"),),
                        ("install it from its git tag (git+https://github.com/mila-iqia/blocks.git@<tag>) matching "
                         f"Theano {choice.version}",))
    return FrameworkPins((), (f"{name}{spec}",), settings)
