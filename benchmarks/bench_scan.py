"""`theanodoctor scan` on a generated 1,000-file repository, side by side with a baseline measured
in the same run: a bare `os.walk` + read of the same files (ratios; never asserted in tests),
and its score on the real-repository corpus (tests/scan_corpus, labels written before scanning).

1. In process: `scan_repo(folder)` / walk + read every file (medians of interleaved runs).
2. End to end: `theanodoctor scan FOLDER -f json` / `python -c` walking and reading the same files.
3. Corpus: per field (python, theano min, max, frameworks), how many repositories match their labels.

Every module of the generated repository imports Theano (the worst case: each is parsed and
walked); --python2 sets the share that needs the Python 2 path (rewrite, then parse).

    python benchmarks/bench_scan.py [--files 1000] [--python2 0.3] [--runs 5] [--no-corpus]
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from timing import side_by_side  # noqa: E402

CORPUS = HERE.parent / "tests" / "scan_corpus"
WALK_READ = ("import os, sys\nn = 0\nfor d, _, names in os.walk(sys.argv[1]):\n    for name in names:\n"
             "        with open(os.path.join(d, name), 'rb') as f:\n            n += len(f.read())\nprint(n)")

PY3 = '''import numpy as np
import theano
import theano.tensor as T
from theano.tensor.signal import pool
from lasagne.layers import DenseLayer


def layer_{i}(x, w):
    """Layer {i}: a dense step and a pool."""
    h = T.nnet.sigmoid(T.dot(x, w))
    return pool.pool_2d(h.reshape((1, 1, 8, 8)), ws=(2, 2), ignore_border=True)


class Model{i}(object):
    def __init__(self, n):
        self.w = theano.shared(np.zeros((n, n), dtype="float32"), name="w{i}")

    def step(self, x):
        return layer_{i}(x, self.w)
'''
PY2 = '''import numpy as np
import theano
import theano.tensor as T
from theano.tensor.signal import downsample


def layer_{i}(x, w):
    h = T.tanh(T.dot(x, w))
    print "layer {i}", w.get_value().shape
    return downsample.max_pool_2d(h, (2, 2))


class Model{i}(object):
    def __init__(self, n):
        try:
            self.w = theano.shared(np.zeros((n, n), dtype="float32"))
        except ValueError, e:
            print >>sys.stderr, "cannot build", e
'''


def make_repo(root: Path, files: int, python2: float) -> int:
    """``files`` files: metadata, a README, and Python modules of which a share is Python 2."""
    (root / "requirements.txt").write_text("Theano==0.8.2\nnumpy\nscipy\nLasagne==0.1\n")
    (root / "setup.py").write_text("from setuptools import setup\nsetup(name='m', install_requires=['theano'])\n")
    (root / "README.md").write_text("# model\nTested with Theano 0.8.2 and Python 2.7.\n")
    (root / "Dockerfile").write_text("FROM nvidia/cuda:8.0-cudnn5-devel\nENV THEANO_FLAGS=device=gpu,floatX=float32\n")
    made = 4
    package = root / "model"
    package.mkdir()
    (package / "__init__.py").write_text("")
    made += 1
    old = int((files - made) * python2)
    for i in range(files - made):
        sub = package / f"part{i // 100}"
        sub.mkdir(exist_ok=True)
        (sub / f"m{i}.py").write_text((PY2 if i < old else PY3).format(i=i))
        made += 1
    return made


def walk_read(root: Path) -> int:
    total = 0
    for folder, _, names in os.walk(root):
        for name in names:
            with open(os.path.join(folder, name), "rb") as fh:
                total += len(fh.read())
    return total


def interleaved(a: Callable[[], Any], b: Callable[[], Any], runs: int) -> tuple[float, float, float]:
    ta, tb = [], []
    for _ in range(runs):
        for fn, out in ((a, ta), (b, tb)):
            started = time.perf_counter()
            fn()
            out.append(time.perf_counter() - started)
    return statistics.median(ta), statistics.median(tb), statistics.median(x / y for x, y in zip(ta, tb))


def corpus_score(folder: Path = CORPUS) -> dict[str, Any]:
    """Per field, the repositories whose scan matches the label (as_of: the commit date in SOURCE,
    what the repository's own .git would give)."""
    import yaml

    from theanodoctor.scan import scan_repo

    labels = yaml.safe_load((folder / "labels.yaml").read_text(encoding="utf-8"))["repos"]
    fields = ("python", "theano_min", "theano_max", "frameworks")
    right = dict.fromkeys(fields, 0)
    wrong: list[str] = []
    for name, want in labels.items():
        result = scan_repo(folder / name, as_of=source_date(folder / name))
        got = {"python": result.python_major, "theano_min": result.theano_min, "theano_max": result.theano_max,
               "frameworks": sorted(f.name for f in result.frameworks)}
        for field in fields:
            expected = sorted(want[field]) if field == "frameworks" else want[field]
            if got[field] == expected:
                right[field] += 1
            else:
                wrong.append(f"{name} {field}: scan says {got[field]}, label {expected}")
    whole = len(labels) - len({w.split()[0] for w in wrong})
    return {"repositories": len(labels), "right": right, "all_fields": whole, "wrong": wrong}


def source_date(folder: Path) -> datetime.date:
    for line in (folder / "SOURCE").read_text(encoding="utf-8").splitlines():
        if line.startswith("date "):
            return datetime.date.fromisoformat(line.split()[1][:10])
    raise ValueError(f"{folder}/SOURCE has no date line")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--python2", type=float, default=0.3, help="share of the modules that are Python 2")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-corpus", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("NO_COLOR", "1")
    from theanodoctor.scan import scan_repo

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        made = make_repo(root, args.files, args.python2)
        size = walk_read(root)
        print(f"repository: {made} files, {size / 1e6:.1f} MB, {args.python2:.0%} of the modules Python 2")
        scan_repo(root)  # warm: tables parsed, modules imported, as on a second call in one process
        a, b, ratio = interleaved(lambda: scan_repo(root), lambda: walk_read(root), args.runs)
        started = time.process_time()
        scan_repo(root)
        cpu = time.process_time() - started
        print(f"in process: scan_repo {a:.3f} s (CPU {cpu:.3f} s) vs os.walk + read {b:.4f} s: ratio {ratio:.1f}"
              f" (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
        cli = [sys.executable, "-m", "theanodoctor", "scan", str(root), "-f", "json"]
        a, b, ratio = side_by_side(cli, [sys.executable, "-c", WALK_READ, str(root)], args.runs)
        print(f"end to end: theanodoctor scan {a:.3f} s vs python walk + read {b:.3f} s: ratio {ratio:.2f}")
    if not args.no_corpus:
        score = corpus_score()
        fields = ", ".join(f"{k} {v}/{score['repositories']}" for k, v in score["right"].items())
        print(f"corpus ({score['repositories']} real repositories): {fields}; "
              f"all fields right in {score['all_fields']}")
        for line in score["wrong"]:
            print(f"  differs: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
