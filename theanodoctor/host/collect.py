"""Run every host probe, concurrently, and return their sections; never raises.

The probes are independent except cuDNN, which searches the toolkits the CUDA probe found.
Kept free of heavy imports (no rich/click/yaml): it runs on every command.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Callable

from theanodoctor.facts import Json, envelope
from theanodoctor.host.common import describe, in_background, os_name_or_current
from theanodoctor.host.compilers import probe_compilers
from theanodoctor.host.cuda import probe_cuda
from theanodoctor.host.cudnn import probe_cudnn
from theanodoctor.host.envvars import probe_env
from theanodoctor.host.nvidia import probe_nvidia
from theanodoctor.host.system import probe_system
from theanodoctor.host.theanorc import probe_theanorc

HOST_SECTIONS = ("system", "env", "nvidia", "cuda", "cudnn", "compilers", "theanorc")


def guarded(fn: Callable[..., Json], *args: Any, **kwargs: Any) -> Json:
    """Call a probe; a bug in it becomes a "crash" section instead of killing the doctor."""
    started = time.monotonic()
    try:
        result = fn(*args, **kwargs)
    except Exception as exc:
        return envelope("crash", describe(exc), time.monotonic() - started)
    if not isinstance(result, dict):
        return envelope("crash", f"{getattr(fn, '__name__', fn)} returned "
                        f"{type(result).__name__}, not a section", time.monotonic() - started)
    return result


def collect_host(env: Mapping[str, str] | None = None, home: str | None = None,
                 os_name: str | None = None, timeout: float = 5.0) -> dict[str, Json]:
    env = dict(os.environ if env is None else env)
    os_name = os_name_or_current(os_name)
    jobs: dict[str, tuple[Callable[..., Json], dict[str, Any]]] = {
        "system": (probe_system, {}),
        "env": (probe_env, {"env": env, "os_name": os_name}),
        "nvidia": (probe_nvidia, {"timeout": timeout}),
        "cuda": (probe_cuda, {"env": env, "os_name": os_name, "timeout": timeout}),
        "compilers": (probe_compilers, {"env": env, "os_name": os_name, "timeout": timeout}),
        "theanorc": (probe_theanorc, {"env": env, "home": home, "os_name": os_name}),
    }
    futures: dict[str, Future[Json]] = {
        name: in_background(guarded, fn, **kwargs) for name, (fn, kwargs) in jobs.items()}
    sections = {name: _result(future, timeout) for name, future in futures.items()}
    toolkits = sections["cuda"].get("toolkits")
    sections["cudnn"] = guarded(probe_cudnn, toolkits if isinstance(toolkits, list) else [],
                                env=env, os_name=os_name)
    return {name: sections[name] for name in HOST_SECTIONS}


def _result(future: Future[Json], timeout: float) -> Json:
    # Each probe bounds its own external calls; this is a backstop for a probe that does not.
    # A probe makes several calls, so allow a generous multiple of the per-call timeout.
    limit = timeout * 4 + 5
    try:
        return future.result(timeout=limit)
    except FutureTimeout:
        return envelope("timeout", f"the probe gave no answer within {limit:g} s", limit)
    except Exception as exc:  # cannot happen through guarded(), kept as a last line
        return envelope("crash", describe(exc))
