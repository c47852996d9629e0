"""`theanodoctor summarize` as the fleet grows: peak memory and time per report, side by side
with a bare `json.load` of the same files, measured in one run (ratios; never asserted in tests).

The fleets are copies of the recorded snapshots in tests/snapshots (Linux and Windows GPU
machines), each copy with its own host name and probe timings, written to a temp folder: once as
a lab's fleet is (a few configurations on many machines, judged once per configuration), once
with every machine its own configuration (the worst case: every machine judged).

1. Peak memory (the process's maximum RSS) of `summarize` over SMALL and LARGE reports: the
   goal is LARGE at most twice SMALL (memory stays flat: one report is held at a time).
2. Time per report: (time(LARGE) - time(SMALL)) / (LARGE - SMALL), for `summarize` and for a
   bare Python that `json.load`s every file; the difference removes the start-up of both. The
   goal is at most three times the bare load.

Runs are interleaved (A, B, A, B, ...) so drift hits both sides alike; medians are reported.

    python benchmarks/bench_summarize.py [--small 50] [--large 5000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SNAPSHOTS = HERE.parent / "tests" / "snapshots"
LOAD_ALL = ("import json, pathlib, sys\n"
            "for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.json')):\n"
            "    with open(p, 'rb') as f:\n"
            "        json.load(f)\n")
# Runs a command; prints its exit code and peak RSS in KB (Linux: ru_maxrss of the waited-for child).
PEAK = ("import resource, subprocess, sys\n"
        "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def _retimed(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        return {k: rng.uniform(0.01, 3.0) if k == "elapsed_s" else _retimed(v, rng) for k, v in value.items()}
    if isinstance(value, list):
        return [_retimed(v, rng) for v in value]
    return value


def write_fleet(folder: Path, count: int, distinct: bool) -> None:
    """``count`` reports, each with its own host name and probe timings; ``distinct``: each also
    differs in one more fact, so no two machines share a configuration (the worst case)."""
    sources = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(SNAPSHOTS.glob("*.json"))]
    rng = random.Random(count)
    folder.mkdir(parents=True)
    for i in range(count):
        data = _retimed(sources[i % len(sources)], rng)
        data.setdefault("system", {})["hostname"] = f"node{i:05d}"
        if distinct:
            data["system"]["boot_id"] = f"{i:08x}"  # read by no check, but a fact all the same
        (folder / f"node{i:05d}.json").write_text(json.dumps(data), encoding="utf-8")


def summarize_cmd(folder: Path) -> list[str]:
    return [sys.executable, "-m", "theanodoctor", "summarize", str(folder), "--format", "json"]


def seconds(cmd: list[str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} exited with {proc.returncode}")
    return time.perf_counter() - started


def peak_kb(cmd: list[str]) -> int:
    out = subprocess.run([sys.executable, "-c", PEAK, *cmd], capture_output=True, text=True, timeout=3600)
    code, peak = out.stdout.split()
    if code not in ("0", "1"):  # 1: some machines in the fleet are broken, as they should be
        raise SystemExit(f"{' '.join(cmd)} exited with {code}")
    return int(peak)


def measure(root: Path, small: int, large: int, runs: int, distinct: bool) -> None:
    small_dir, large_dir = root / f"small-{distinct}", root / f"large-{distinct}"
    write_fleet(small_dir, small, distinct)
    write_fleet(large_dir, large, distinct)
    size = sum(p.stat().st_size for p in large_dir.iterdir()) / large / 1000
    kind = "every machine its own configuration" if distinct else \
        f"{len(list(SNAPSHOTS.glob('*.json')))} configurations, host names and timings differ"
    print(f"\nfleets of {small} and {large} reports ({kind}; {size:.0f} KB per report on average)")
    peaks: dict[int, list[int]] = {small: [], large: []}
    timings: dict[str, list[float]] = {"summarize": [], "json.load": []}
    commands = {"summarize": summarize_cmd, "json.load": lambda f: [sys.executable, "-c", LOAD_ALL, str(f)]}
    for _ in range(runs):
        peaks[small].append(peak_kb(summarize_cmd(small_dir)))
        peaks[large].append(peak_kb(summarize_cmd(large_dir)))
        for name, cmd in commands.items():
            timings[name].append((seconds(cmd(large_dir)) - seconds(cmd(small_dir))) / (large - small))
    p_small, p_large = (statistics.median(peaks[n]) / 1024 for n in (small, large))
    print(f"  peak memory: {p_small:.1f} MB at {small} reports, {p_large:.1f} MB at {large} "
          f"-> {p_large / p_small:.2f}x (goal: at most 2x)")
    per = {name: statistics.median(values) * 1000 for name, values in timings.items()}
    print(f"  time per report: summarize {per['summarize']:.2f} ms, bare json.load {per['json.load']:.2f} ms "
          f"-> {per['summarize'] / per['json.load']:.2f}x (goal: at most 3x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--large", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-summarize-"))
    try:
        for distinct in (False, True):
            measure(root, args.small, args.large, args.runs, distinct)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
