"""What every benchmark script shares: timing a command, interleaved side-by-side medians, and
the healthy legacy environment to measure against. Scripts import it from their own folder."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def time_cmd(cmd: list[str], env: dict[str, str] | None = None, check: bool = False) -> float:
    """Wall seconds of one run of ``cmd`` (output discarded)."""
    started = time.perf_counter()
    subprocess.run(cmd, env=env, check=check, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
    return time.perf_counter() - started


def side_by_side(a: list[str], b: list[str], runs: int) -> tuple[float, float, float]:
    """Medians of A and B, run interleaved (A, B, A, B, ...) so drift hits both alike, and the
    median of the per-pair ratios A/B (robust to drift)."""
    ta, tb = [], []
    for _ in range(runs):
        ta.append(time_cmd(a))
        tb.append(time_cmd(b))
    return statistics.median(ta), statistics.median(tb), statistics.median(x / y for x, y in zip(ta, tb))


def default_python() -> str:
    """The healthy legacy test environment's interpreter (Python 3.7 + Theano 1.0.5), built if needed."""
    sys.path.insert(0, str(REPO))
    from tests import legacy_envs

    return str(legacy_envs.env_python(legacy_envs.ensure_env("healthy37")))
