"""Side-by-side timings for the start-up goals (ratios, measured in one run; never asserted in tests).

1. ``theanodoctor check --python ENV`` wall time / that interpreter's bare
   ``python -c "import theano"`` (goal: <= 1.15).
2. ``theanodoctor --version`` / bare ``python -c pass`` of the doctor's own Python.

Runs are interleaved (A, B, A, B, ...) so drift on the machine hits both sides alike; the
median of each side is reported. Theano's compile cache is warmed first, so both sides measure
a normal, warm start.

    python benchmarks/bench_check.py [--python ENV_PYTHON] [--runs 9]

Without --python it uses the healthy legacy test environment (Python 3.7 + Theano 1.0.5),
building it if needed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from timing import default_python, side_by_side, time_cmd  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", help="interpreter of a healthy Theano environment")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    target = args.python or default_python()
    doctor = [sys.executable, "-m", "theanodoctor"]
    os.environ.setdefault("NO_COLOR", "1")
    # Measure what users run: byte-code caches written and used (an installed wheel ships them;
    # an editable install writes them on first use), unless this shell forbids writing them.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

    time_cmd([target, "-c", "import theano"])  # warm the compile cache and the page cache
    time_cmd(doctor + ["check", "--python", target])

    check_s, import_s, check_ratio = side_by_side(doctor + ["check", "--python", target],
                                     [target, "-c", "import theano"], args.runs)
    version_s, bare_s, version_ratio = side_by_side(doctor + ["--version"], [sys.executable, "-c", "pass"], args.runs)

    print(f"target: {target}   runs: {args.runs} (medians)")
    print(f"check --python     {check_s * 1000:8.1f} ms")
    print(f"import theano      {import_s * 1000:8.1f} ms")
    print(f"  ratio            {check_ratio:8.3f}   (median of paired ratios; goal <= 1.15)")
    print(f"--version          {version_s * 1000:8.1f} ms")
    print(f"python -c pass     {bare_s * 1000:8.1f} ms")
    print(f"  ratio            {version_ratio:8.3f}   (median of paired ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
