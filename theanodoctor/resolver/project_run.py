"""From a repository folder to its lock: scan it, take the GPU side from the options or this
machine, lock it. Also the files a lock is written as (requirements, .theanorc, environment.yml)."""

from __future__ import annotations

import datetime as dt
import pathlib
from typing import Any

from theanodoctor.resolver.lock import ProjectLock
from theanodoctor.resolver.project import GpuAsk, lock_project

GPU_OPTIONS = ("cuda", "gpu", "arch", "driver", "cudnn")


def gpu_ask(opts: dict[str, Any]) -> GpuAsk:
    """The GPU side asked for: --cpu-only, the GPU options, else this machine's first NVIDIA GPU."""
    from theanodoctor.resolver.inputs import arch_cc, gpu_cc

    given = {k: opts[k] for k in GPU_OPTIONS if opts.get(k)}
    if opts.get("cpu_only"):
        return GpuAsk(True, None, "--cpu-only", {})
    if given.get("gpu"):
        return GpuAsk(False, gpu_cc(given["gpu"]), f'--gpu "{given["gpu"]}"', given)
    if given.get("arch"):
        return GpuAsk(False, arch_cc(given["arch"]), f"--arch {given['arch']}", given)
    from theanodoctor.host.nvidia import probe_nvidia

    gpus = [g for g in probe_nvidia().get("gpus") or [] if isinstance(g, dict)]
    cc = gpus[0].get("compute_capability") if gpus else None
    if isinstance(cc, str):
        return GpuAsk(False, cc, f"this machine's {gpus[0].get('name')} (sm_{cc.replace('.', '')})", given)
    return GpuAsk(False, None, " ".join(f"--{k} {v}" for k, v in given.items()) or None, given)


def scan_and_lock(path: str, as_of: dt.date | None, opts: dict[str, Any]) -> ProjectLock:
    from theanodoctor.scan import scan_repo

    root = pathlib.Path(path)
    scanned = scan_repo(root, as_of=as_of).to_json()["scan"]
    return lock_project({**scanned, "root": str(root)}, gpu_ask(opts), as_of)


def theanorc_text(lock: ProjectLock, device: str | None = None) -> str:
    """The lock's theanorc settings as a file (``device``: instead of the lock's own)."""
    from theanodoctor.fixes.rc_text import RcText

    rc = RcText(f"# Theano {lock.theano} on Python {lock.python} for {lock.root} (theanodoctor)\n")
    for setting in lock.settings:
        if setting.name.startswith("theanorc:"):
            section, key = setting.name.split(":", 1)[1].split(".", 1)
            rc.set(section, key, device if device and key == "device" else setting.value)
    return rc.text()


def conda_text(lock: ProjectLock) -> str:
    lines = [f"# lock for {lock.root} (as of {lock.as_of}); create it with `conda env create -f environment.yml`",
             f"name: {pathlib.Path(lock.root).name or 'project'}-theano", "channels:", "  - conda-forge",
             "dependencies:", f"  - python={lock.python}", "  - pip", "  - pip:"]
    lines += [f"    - {p.line}" for p in lock.pins if p.name != "python"]
    return "\n".join(lines) + "\n"


def env_settings(lock: ProjectLock) -> dict[str, str]:
    """The environment variables the code needs (KERAS_BACKEND), for the import smoke."""
    return {s.name: s.value for s in lock.settings if not s.name.startswith("theanorc:")}
