"""Compile-cache repairs against `rm -rf` and `theano-cache purge`, side by side in one run
(ratios reported, never asserted in tests).

A synthetic cache of 3,000 module folders (about 320 MB) shaped like Theano's
(``tmpXXXXXXXX/{key.pkl, mod.cpp, m<hash>.so}`` next to real ``cutils_ext``/``lazylinker_ext``)
is built afresh for every contender:

1. doctor clear (plan: prove the compiledir, list proven module folders; apply: re-check,
   delete) / ``rm -rf`` of the same module folders           (goal: <= 1.25)
2. doctor purge / ``rm -rf`` of the compiledir               (goal: <= 1.25)
3. doctor purge / ``theano-cache purge`` of the healthy37 env (HOME and base_compiledir pointed
   at the synthetic cache; it imports Theano first)

The doctor's side is the repair layer itself, as `fix` runs it after the probe. Each ratio is
the median of per-pair ratios (the two sides of a pair run back to back, so drift on a shared
machine hits both alike). ``--dir`` chooses where the cache lives: a folder on the disk (the
default: the system's temp folder) measures the file system too; a RAM disk such as /dev/shm
isolates what the doctor's own checks cost.

    python benchmarks/bench_cache.py [--modules 3000] [--repeats 3] [--dir FOLDER] [--python ENV_PYTHON]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from timing import default_python, time_cmd  # noqa: E402

SIZES = {"key.pkl": 3_000, "mod.cpp": 30_000, "so": 74_000}  # ~107 KB a module, as measured on real ones


def template(python: str, root: Path) -> tuple[Path, str]:
    """Let real Theano make a compiledir (cutils_ext, lazylinker_ext, ...); returns it and its
    name, which depends on the platform and Python only."""
    base = root / "template"
    env = {**os.environ, "HOME": str(root), "THEANO_FLAGS": f"base_compiledir={base}"}
    out = subprocess.run([python, "-c", "import theano; print(theano.config.compiledir)"], env=env,
                         capture_output=True, text=True, timeout=600, check=True)
    compiledir = Path(out.stdout.strip().splitlines()[-1])
    return compiledir, compiledir.name


def build(base: Path, tpl: Path, modules: int, blob: bytes) -> Path:
    if base.exists():
        shutil.rmtree(base)
    compiledir = base / tpl.name
    shutil.copytree(tpl, compiledir, symlinks=True)
    for i in range(modules):
        folder = compiledir / f"tmp{i:08x}"
        folder.mkdir()
        (folder / "key.pkl").write_bytes(blob[:SIZES["key.pkl"]])
        (folder / "mod.cpp").write_bytes(blob[:SIZES["mod.cpp"]])
        (folder / f"m{i:040x}.so").write_bytes(blob[:SIZES["so"]])
    os.sync()
    return compiledir


def _doctor(compiledir: Path, fix_id: str, state: Path) -> float:
    from theanodoctor.fixes.plan import make_plan

    from theanodoctor.facts import Facts, envelope
    from theanodoctor.repair.apply import apply_actions
    from theanodoctor.repair.journal import Journal

    started = time.perf_counter()
    plan = make_plan(Facts(compiledir=envelope(path=str(compiledir))), (), frozenset({fix_id}))
    journal = Journal(f"bench-{time.time_ns()}", str(state))
    journal.start([a.to_dict() for a in plan.applicable], None)
    steps = apply_actions(list(plan.actions), journal)
    took = time.perf_counter() - started
    assert steps and all(s.status == "applied" for s in steps), steps
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modules", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dir", help="where to build the synthetic cache (default: the temp folder)")
    parser.add_argument("--python", help="interpreter with Theano 1.0.5 (default: healthy37)")
    args = parser.parse_args()
    python = args.python or default_python()
    root = Path(tempfile.mkdtemp(prefix="bench-cache-", dir=args.dir))
    need = args.modules * sum(SIZES.values()) * 2
    free = shutil.disk_usage(root).free
    if free < need:
        sys.exit(f"not enough free disk in {root}: {free >> 20} MB free, {need >> 20} MB needed")
    try:
        tpl, _ = template(python, root)
        blob = os.urandom(max(SIZES.values()))
        base, state = root / "base", root / "state"
        theano_cache = str(Path(python).parent / "theano-cache")
        env = {**os.environ, "HOME": str(root), "THEANO_FLAGS": f"base_compiledir={base}"}
        times: dict[str, list[float]] = {k: [] for k in ("clear", "rm_modules", "purge", "rm_dir", "theano_cache")}
        for _ in range(args.repeats):
            cdir = build(base, tpl, args.modules, blob)
            times["clear"].append(_doctor(cdir, "cache-clear", state))
            cdir = build(base, tpl, args.modules, blob)
            modules = [str(p) for p in sorted(cdir.glob("tmp*"))]
            times["rm_modules"].append(time_cmd(["rm", "-rf", *modules], check=True))
            cdir = build(base, tpl, args.modules, blob)
            times["purge"].append(_doctor(cdir, "cache-purge", state))
            cdir = build(base, tpl, args.modules, blob)
            times["rm_dir"].append(time_cmd(["rm", "-rf", str(cdir)], check=True))
            cdir = build(base, tpl, args.modules, blob)
            times["theano_cache"].append(time_cmd([python, theano_cache, "purge"], env=env, check=True))
            assert not list(cdir.glob("tmp*")), "theano-cache purge left modules behind"
        med = {k: statistics.median(v) for k, v in times.items()}
        mb = args.modules * sum(SIZES.values()) / 1e6
        print(f"synthetic cache in {root.parent}: {args.modules} module folders, {mb:.0f} MB; "
              f"median of {args.repeats} run(s)")
        for key, label in (("clear", "doctor clear"), ("rm_modules", "rm -rf module folders"),
                           ("purge", "doctor purge"), ("rm_dir", "rm -rf compiledir"),
                           ("theano_cache", "theano-cache purge")):
            print(f"  {label:<24} {med[key]:.3f} s")
        for a, b, label in (("clear", "rm_modules", "doctor clear / rm -rf modules    "),
                            ("purge", "rm_dir", "doctor purge / rm -rf compiledir "),
                            ("purge", "theano_cache", "doctor purge / theano-cache purge"),
                            ("clear", "theano_cache", "doctor clear / theano-cache purge")):
            ratio = statistics.median(x / y for x, y in zip(times[a], times[b]))
            goal = "  (goal <= 1.25)" if b.startswith("rm") else ""
            print(f"{label} = {ratio:.2f}{goal}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
