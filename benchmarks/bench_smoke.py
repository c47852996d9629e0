"""Side-by-side timing of the smoke test's own overhead (a ratio measured in one run; never
asserted in tests).

``theanodoctor smoke-test --keep-cache --python ENV`` wall time / a bare script running the
same stages (the very stage functions of the smoke script: same graphs, same numpy checks, no
protocol, no doctor) in the same interpreter (goal: <= 1.15). Runs are interleaved and the
compile cache is warmed first, so both sides measure a warm start.

    python benchmarks/bench_smoke.py [--python ENV_PYTHON] [--runs 5] [--size 2048]

Without --python it uses the healthy legacy test environment (Python 3.7 + Theano 1.0.5).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from timing import default_python, side_by_side, time_cmd  # noqa: E402

SMOKE_DIR = HERE.parent / "theanodoctor" / "smoke"
BARE = """
import sys
sys.path.insert(0, sys.argv[1])
import target_smoke as smoke
config, state = {"size": int(sys.argv[2]), "repeats": 3}, {}
smoke.stage_import(config, state)
for name, stage in smoke.STAGES:
    assert stage(config, state).get("ok", True), name
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", help="interpreter of a healthy Theano environment")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", type=int, default=2048)
    args = parser.parse_args()
    target = args.python or default_python()
    os.environ.setdefault("NO_COLOR", "1")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    smoke = [sys.executable, "-m", "theanodoctor", "smoke-test", "--keep-cache", "--python", target,
             "--size", str(args.size)]
    bare = [target, "-c", BARE, str(SMOKE_DIR), str(args.size)]
    time_cmd(bare)  # warm the compile cache and the page cache
    time_cmd(smoke)
    smoke_s, bare_s, ratio = side_by_side(smoke, bare, args.runs)
    print(f"target: {target}   runs: {args.runs} (medians)   matmul size: {args.size}")
    print(f"smoke-test --keep-cache  {smoke_s * 1000:8.1f} ms")
    print(f"bare stages script       {bare_s * 1000:8.1f} ms")
    print(f"  ratio                  {ratio:8.3f}   (median of paired ratios; goal <= 1.15)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
