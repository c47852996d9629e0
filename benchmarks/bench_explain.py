"""`theanodoctor explain` on a generated multi-megabyte log, side by side with baselines measured
in the same run (ratios; never asserted in tests), and its score on the real-log corpus.

1. ``theanodoctor explain BIG.log`` / ``python -c`` reading the same file line by line
   (both start an interpreter and read every line; the ratio is the cost of understanding it).
2. The same / ``grep -c error BIG.log`` (when grep exists).
3. Corpus scores, for each real-log set (tests/explain_sets.py: the first corpus, its held-out
   set, later batches; each split into the logs tuned on and those held out): share of logs
   whose labelled cause comes first (right), whose first confident cause is another one
   (confidently wrong), with nothing recognised, and with only low-confidence hints.

Runs are interleaved (A, B, A, B, ...) so drift hits both sides alike; medians are reported.

    python benchmarks/bench_explain.py [--mb 20] [--runs 5] [--errors] [--no-corpus | --corpus-only]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from timing import side_by_side  # noqa: E402

READ_LINES = "import sys\nn = 0\nwith open(sys.argv[1], 'rb') as f:\n    for line in f:\n        n += 1\nprint(n)"


def write_log(path: Path, megabytes: int, errors: bool = False) -> int:
    """A g++ log of warnings and source echo with one real error in the middle and one at the end;
    ``errors``: every line a compiler error instead (each one a line the scan must read)."""
    if errors:
        block = "".join(f"/home/u/.theano/compiledir_Linux/tmpab12cd/mod.cpp:{i}:17: error: 'V{i}' was not "
                        f"declared in this scope; undefined reference to 'f{i}'\n" for i in range(1000))
    else:
        block = "".join(
            f"/home/u/.theano/compiledir_Linux/tmpab12cd/mod.cpp:{i}:17: warning: unused variable 'V{i}' "
            f"[-Wunused-variable]\n   {i} |     npy_float64 V{i} = 0;\n      |                 ^~\n"
            for i in range(1000))
    target = megabytes * 1_000_000
    with path.open("w", encoding="utf-8") as out:
        written = 0
        middle = False
        while written < target:
            out.write(block)
            written += len(block)
            if not middle and written >= target // 2:
                out.write("AttributeError: module 'numpy' has no attribute 'bool'.\n")
                middle = True
        out.write("collect2: error: ld returned 1 exit status\n")
    return path.stat().st_size


def outcome(case: Any) -> tuple[str, str]:
    """How `explain` does on one real log (a ``tests.explain_sets.Case``): right (the labelled
    cause first, or nothing confident for a `none` label), confidently_wrong (another cause first
    with high or medium confidence), unrecognised (nothing at all), low_only (only low hints)."""
    proc = subprocess.run([sys.executable, "-m", "theanodoctor", "explain", str(case.log), "-f", "json"],
                          capture_output=True, check=False, timeout=120)
    findings = json.loads(proc.stdout)["explain"]["findings"]
    named = [f["cause"] for f in findings if f["confidence"] != "low"]
    expected = case.label["suggested_cause_id"]
    if named[:1] == ([] if expected == "none" else [expected]):
        return "right", ""
    if named:
        return "confidently_wrong", f"{case.set}/{case.stem}: {named[0]} (labelled {expected})"
    return ("low_only" if findings else "unrecognised"), ""


def corpus_score(outcomes: list[tuple[str, str]]) -> dict[str, Any]:
    counts = {"right": 0, "confidently_wrong": 0, "unrecognised": 0, "low_only": 0}
    for kind, _ in outcomes:
        counts[kind] += 1
    total = max(len(outcomes), 1)
    wrong = [detail for kind, detail in outcomes if kind == "confidently_wrong"]
    return {"logs": len(outcomes), **{k: v / total for k, v in counts.items()}, "wrong": wrong}


def print_score(name: str, score: dict[str, Any], show_wrong: bool = False) -> None:
    print(f"{name} ({score['logs']} real logs): right {score['right']:.0%}, confidently wrong "
          f"{score['confidently_wrong']:.0%}, unrecognised {score['unrecognised']:.0%}, "
          f"low-confidence only {score['low_only']:.0%}")
    for line in score["wrong"] if show_wrong else ():
        print(f"  confidently wrong: {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=20, help="size of the generated log in MB")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--errors", action="store_true",
                        help="a log whose every line is a compiler error (every line is read), not warnings")
    parser.add_argument("--no-corpus", action="store_true", help="skip the corpus scores")
    parser.add_argument("--corpus-only", action="store_true", help="only the corpus scores (no timing)")
    args = parser.parse_args()
    os.environ.setdefault("NO_COLOR", "1")
    if args.corpus_only:
        return _scores()
    env_cmd = [sys.executable, "-m", "theanodoctor", "explain"]
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "big.log"
        size = write_log(log, args.mb, args.errors)
        print(f"log: {size / 1e6:.1f} MB")
        explain = env_cmd + [str(log)]
        a, b, ratio = side_by_side(explain, [sys.executable, "-c", READ_LINES, str(log)], args.runs)
        print(f"explain {a:.3f} s vs python line-by-line read {b:.3f} s: ratio {ratio:.2f}")
        grep = shutil.which("grep")
        if grep:
            a, b, ratio = side_by_side(explain, [grep, "-c", "error", str(log)], args.runs)
            print(f"explain {a:.3f} s vs grep -c {b:.3f} s: ratio {ratio:.2f}")
        print(f"throughput: {size / 1e6 / a:.1f} MB/s")
    return 0 if args.no_corpus else _scores()


def _scores() -> int:
    from tests.explain_sets import all_cases

    results = [(case, outcome(case)) for case in all_cases()]
    for name in dict.fromkeys(case.set for case, _ in results):
        for part, heldout in (("tuned on", False), ("held out", True)):
            chosen = [out for case, out in results if case.set == name and case.heldout == heldout]
            if chosen:
                print_score(f"{name}, {part}", corpus_score(chosen), show_wrong=True)
    opened = [out for case, out in results if case.label.get("opened")]
    if opened:
        print_score("opened for tuning after their untuned measurement", corpus_score(opened))
    print_score("all held out", corpus_score([out for case, out in results if case.heldout]))
    # A thread that never established its cause (label confidence low) cannot be got right.
    established = [out for case, out in results if case.heldout and case.label["confidence_of_label"] != "low"]
    print_score("all held out, cause established in the thread", corpus_score(established))
    print_score("all", corpus_score([out for _, out in results]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
