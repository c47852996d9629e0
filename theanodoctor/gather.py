"""Collect one ``Facts`` snapshot: the target probe and the host probes, run concurrently.

The target probe (the slow part: it imports Theano) starts first, before anything heavy is
imported into the doctor; host probes run on a thread while it works; the compile dir is
probed last because its path comes from the target.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Mapping
from concurrent.futures import Future
from typing import Any

from theanodoctor.facts import Facts, dig, envelope
from theanodoctor.host.common import in_background
from theanodoctor.probe.runner import ProbeHandle, start_probe

DEFAULT_PROBE_TIMEOUT = 120.0  # a first `import theano` compiles C modules: allow for it
DEFAULT_HOST_TIMEOUT = 10.0


def _compiledir_of(target: dict[str, Any]) -> str | None:
    value = dig(target, "stages", "theano_config", "values", "compiledir", "value")
    return value if isinstance(value, str) and value else None


def _collect_host_yielding(env: Mapping[str, str], timeout: float) -> dict[str, dict[str, Any]]:
    """The host probes, run while the target probe (the long pole: it imports Theano) works.
    On Linux this thread lowers its own priority, and the probe threads and programs it starts
    inherit it, so they do not slow the target probe on a machine with few cores. The main thread
    keeps its priority: on a busy machine the doctor still answers at once when it is stopped."""
    if sys.platform.startswith("linux"):  # elsewhere the priority is the whole process's
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        except OSError:
            pass
    # Imported only now, so the target probe is already running while they load.
    from theanodoctor.host.collect import collect_host

    return collect_host(env=env, timeout=timeout)


class Pending:
    """Probes under way; ``wait()`` returns the finished snapshot."""

    def __init__(
        self,
        python: str | None,
        candidates: dict[str, Any],
        probe_timeout: float = DEFAULT_PROBE_TIMEOUT,
        host_timeout: float = DEFAULT_HOST_TIMEOUT,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self._env = dict(os.environ if env is None else env)
        self._candidates = candidates
        from theanodoctor.launch import take_early

        self._handle: ProbeHandle | None = None
        if python:
            self._handle = (take_early(python, probe_timeout) if env is None else None) or start_probe(
                python, timeout=probe_timeout, env=self._env)
        self._host: Future[dict[str, dict[str, Any]]] = in_background(
            _collect_host_yielding, self._env, host_timeout, thread_name="host-probes")

    def wait(self) -> Facts:
        host = self._host.result()
        if self._handle is None:
            target = envelope("skipped", "no Python environment with Theano was found")
            compiledir = envelope("skipped", "no target environment")
        else:
            from theanodoctor.host.compiledir import probe_compiledir

            target = self._handle.wait()
            path = _compiledir_of(target)
            compiledir = (probe_compiledir(path) if path
                          else envelope("skipped", "compile dir unknown: Theano did not report it"))
            host["theanorc"] = self._theanorc_as_target_sees_it(target, host["theanorc"])
        return Facts(
            system=host["system"], env=host["env"], nvidia=host["nvidia"], cuda=host["cuda"], cudnn=host["cudnn"],
            compilers=host["compilers"], theanorc=host["theanorc"],
            target=target, compiledir=compiledir, candidates=self._candidates,
        )

    def _theanorc_as_target_sees_it(self, target: dict[str, Any], seen: dict[str, Any]) -> dict[str, Any]:
        """The config files judged with the THEANORC the target has after its startup: an env built by
        `provision` sets it in a .pth hook, so Theano there reads the env's own file."""
        inside = dig(target, "stages", "interpreter", "theanorc_env")
        if not isinstance(inside, str) or inside == self._env.get("THEANORC"):
            return seen
        from theanodoctor.host.theanorc import probe_theanorc

        return {**probe_theanorc(env={**self._env, "THEANORC": inside}), "theanorc_env_source": "target startup"}

def select_target(python_spec: str | None) -> tuple[str | None, dict[str, Any]]:
    """The interpreter to probe and the ``candidates`` section explaining the choice.

    Raises ``targets.TargetError`` (a usage error) when ``--python`` names nothing usable.
    """
    from theanodoctor import targets

    if python_spec:
        python = targets.resolve_python(python_spec)
        return python, envelope(chosen=python, chosen_source="--python", candidates=[])
    candidates = targets.discover()
    best = targets.choose(candidates)
    return (best.python if best else None), envelope(
        chosen=best.python if best else None,
        chosen_source=best.source if best else None,
        candidates=[c.to_dict() for c in candidates],
    )
