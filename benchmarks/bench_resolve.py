"""How fast the resolver is (reported, never asserted in tests).

1. In process: the resolver's own time per constraint set, over many sets (every GPU name in the
   tables x OS, CUDA versions, conflicts, CPU-only, profiles). The tables are loaded once first,
   as a running doctor would have them. Goal: well under 100 ms each.
2. The CLI: ``theanodoctor resolve ...`` wall time against ``theanodoctor --version`` measured
   side by side in the same run (interleaved, medians and the median of the paired ratios).

    python benchmarks/bench_resolve.py [--runs 9]
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import side_by_side, time_cmd  # noqa: E402


def constraint_sets() -> list[dict[str, Any]]:
    from theanodoctor import kb_cuda, kb_stacks

    gpus = [g.name for g in kb_cuda.gpu_names().gpus]
    sets: list[dict[str, Any]] = [{"gpu": g, "os": o} for g, o in itertools.product(gpus, ("windows", "linux"))]
    sets += [{"cuda": c, "os": "windows"} for c in ("9.0", "10.0", "10.1", "10.2", "11.2", "11.8", "12.4", "13.0")]
    sets += [{"gpu": "RTX 3090", "cuda": "10.2"}, {"gpu": "Tesla K80", "cuda": "12.0"},
             {"python": "3.12", "theano": "1.0.5"}, {"numpy": "1.24.4", "theano": "1.0.5"}, {"cudnn": "8.0.5"},
             {"os": "windows", "cuda": "10.2", "driver": "418.96"}, {"cpu_only": True}, {},
             {"python": "3.12", "gpu": "RTX 3090", "cuda": "10.2", "driver": "400.1", "cudnn": "8.0.5"}]
    sets += [{"profile": s.id, "gpu": "RTX 3090"} for s in kb_stacks.stacks()]
    return sets


def in_process(rounds: int) -> tuple[int, float, float, float]:
    """(constraint sets, median ms, 95th percentile ms, max ms) of resolve() alone."""
    from theanodoctor.resolver.inputs import build
    from theanodoctor.resolver.resolve import check_profile, resolve

    sets = constraint_sets()
    resolve(build())  # load the tables, as the CLI has them before resolving
    times = []
    for _ in range(rounds):
        for inputs in sets:
            profile = inputs.get("profile")
            cons = build(**{k: v for k, v in inputs.items() if k != "profile"})
            started = time.perf_counter()
            check_profile(profile, cons) if profile else resolve(cons)
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return len(sets), statistics.median(times), times[int(len(times) * 0.95)], times[-1]


def cli(runs: int) -> tuple[float, float, float]:
    doctor = [sys.executable, "-m", "theanodoctor"]
    resolve_cmd = doctor + ["resolve", "--os", "windows", "--gpu", "GTX 1660 SUPER"]
    version_cmd = doctor + ["--version"]
    time_cmd(resolve_cmd), time_cmd(version_cmd)  # byte-code caches written, as an installed copy has them
    return side_by_side(resolve_cmd, version_cmd, runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="CLI runs per side")
    parser.add_argument("--rounds", type=int, default=5, help="passes over the constraint sets in process")
    args = parser.parse_args()
    os.environ.setdefault("NO_COLOR", "1")
    count, median, p95, worst = in_process(args.rounds)
    print(f"resolve() in process: {count} constraint sets x {args.rounds}: median {median:.1f} ms, "
          f"p95 {p95:.1f} ms, max {worst:.1f} ms (goal < 100 ms)")
    resolve_s, version_s, ratio = cli(args.runs)
    print(f"CLI: `resolve --os windows --gpu \"GTX 1660 SUPER\"` {resolve_s * 1000:.0f} ms vs `--version` "
          f"{version_s * 1000:.0f} ms: ratio {ratio:.2f} (median of {args.runs} paired runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
