"""Judge the smoke script's stage records: passed or failed, why, where it ran, how fast.

Pure functions over the records (real ones, or recorded GPU-machine ones in the tests)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from theanodoctor.smoke.runner import STAGES, RunRecord

EXIT_OK, EXIT_FAILED, EXIT_DOCTOR = 0, 1, 3
GPU_DEVICES = ("cuda", "opencl", "gpu")
_COMPILER = re.compile(r"((?:fatal )?error: .+?)(?=\.\s+\d+\s*\||\.\s+compilation terminated|\n|$)")
_CUDNN = re.compile(r"(Using cuDNN version .*|Can not use cuDNN.*)")


@dataclass(frozen=True)
class Stage:
    name: str
    passed: bool
    error: str | None = None  # first meaningful line
    compiler: str | None = None  # the compiler's own message when C compilation failed
    compile_s: float | None = None
    run_s: float | None = None  # median of the runs after the first
    first_run_s: float | None = None
    ran_on: str | None = None  # "gpu", "cpu", None (did not run)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SmokeResult:
    python: str
    device: str  # what was asked for (--device, else the target's config)
    expects_gpu: bool
    stages: tuple[Stage, ...]
    verdict: str
    exit_code: int
    versions: dict[str, Any]
    flags: str
    fresh_cache: bool
    elapsed_s: float
    restarts: int
    diagnosis: dict[str, Any] | None = None  # a known cause (theanodoctor.diagnose)
    gpu: dict[str, Any] = field(default_factory=dict)  # cudnn, matmul speed-up

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["stages"] = [asdict(s) for s in self.stages]
        return data


def compiler_message(message: str) -> str | None:
    found = _COMPILER.search(message)
    return found.group(1).strip()[:300] if found else None


def first_line(message: str) -> str:
    for line in message.splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def _said(record: dict[str, Any]) -> str:
    log = record.get("log")
    lines = [str(line) for line in log] if isinstance(log, list) else []
    return "\n".join([*lines, str(record.get("stderr") or ""), str(record.get("stdout") or "")])


def _stage(name: str, record: dict[str, Any] | None, expects_gpu: bool, device: str,
           missing: str) -> Stage:
    if not isinstance(record, dict):
        return Stage(name, False, error=f"not run: {missing}")
    on_gpu = record.get("on_gpu")
    ran_on = None if on_gpu is None else ("gpu" if on_gpu else "cpu")
    timing = {k: record.get(k) for k in ("compile_s", "run_s", "first_run_s")}
    details: dict[str, Any] = {k: record[k] for k in ("check", "shape", "size", "losses", "cudnn") if k in record}
    error = record.get("error") if isinstance(record.get("error"), dict) else None
    if not record.get("ok") or error:
        message = str((error or {}).get("message") or "failed")
        compiler = compiler_message(message)
        kind = str((error or {}).get("type") or "")
        text = compiler or first_line(message)
        return Stage(name, False, error=f"{kind}: {text}" if kind and kind not in ("Exception",) else text,
                     compiler=compiler, ran_on=ran_on, details=details, **timing)
    if expects_gpu and ran_on != "gpu":
        return Stage(name, False, error=f"device={device} but this ran on the CPU (no Gpu op in the graph)",
                     ran_on=ran_on, details=details, **timing)
    return Stage(name, True, ran_on=ran_on, details=details, **timing)


def _diagnose(text: str) -> dict[str, Any] | None:
    from theanodoctor.diagnose import diagnose

    found = diagnose(text)
    return {"id": found.id, "cause": found.cause, "remedy": found.remedy, "fix": found.fix} if found else None


def _gpu_facts(records: dict[str, Any]) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    said = "\n".join(_said(r) for r in records.values() if isinstance(r, dict))
    cudnn = _CUDNN.search(said)
    if cudnn:
        facts["cudnn"] = cudnn.group(1).strip()
    conv = records.get("conv")
    if isinstance(conv, dict) and "cudnn" in conv:
        facts["conv_uses_cudnn"] = bool(conv["cudnn"])
    matmul = records.get("matmul")
    cpu = matmul.get("cpu") if isinstance(matmul, dict) else None
    if isinstance(cpu, dict) and isinstance(matmul, dict):
        facts["matmul_cpu_run_s"] = cpu.get("run_s")
        gpu_s, cpu_s = matmul.get("run_s"), cpu.get("run_s")
        if cpu.get("ok") and isinstance(gpu_s, (int, float)) and isinstance(cpu_s, (int, float)) and gpu_s > 0:
            facts["matmul_speedup"] = round(cpu_s / gpu_s, 2)
        elif cpu.get("error"):
            facts["matmul_cpu_error"] = first_line(str(cpu["error"]))
    return facts


def judge(run: RunRecord, requested: str | None, stages: tuple[str, ...] = STAGES) -> SmokeResult:
    records = run.stages
    imported = records.get("import") if isinstance(records.get("import"), dict) else None
    versions = {k: imported.get(k) for k in ("python", "numpy", "theano", "device", "floatX",
                                             "pygpu_activated")} if imported else {}
    device = requested or str(versions.get("device") or "cpu")
    expects_gpu = device.startswith(GPU_DEVICES)
    common = dict(python=run.python, device=device, expects_gpu=expects_gpu, versions=versions,
                  flags=run.flags, fresh_cache=run.fresh_cache, elapsed_s=run.elapsed_s,
                  restarts=run.restarts)
    if run.problem:
        return SmokeResult(stages=tuple(Stage(n, False, error="not run: the target did not run the smoke script")
                                        for n in stages), verdict=f"Smoke test could not run: {run.problem}",
                           exit_code=EXIT_DOCTOR, **common)  # type: ignore[arg-type]
    if imported is None or not imported.get("ok"):
        why = _stage("import", imported, False, device, "the target stopped first")
        text = "\n".join([why.error or "", _said(imported or {})])
        not_run = tuple(Stage(n, False, error="not run: import theano failed") for n in stages)
        return SmokeResult(stages=not_run, verdict=f"Broken: import theano failed: {why.error}",
                           exit_code=EXIT_FAILED, diagnosis=_diagnose(text), **common)  # type: ignore[arg-type]
    judged = tuple(_stage(n, records.get(n), expects_gpu, device, "the run stopped before it") for n in stages)
    failed = tuple(s for s in judged if not s.passed)
    ran = [s for s in judged if s.ran_on]
    gpu = _gpu_facts(records) if any(s.ran_on == "gpu" for s in judged) or expects_gpu else {}
    diagnosis = None
    if expects_gpu and ran and all(s.ran_on == "cpu" for s in ran):
        verdict = f"device={device} but everything ran on the CPU"
        diagnosis = _diagnose(_said(imported))
    elif failed:
        verdict = (f"Failed: {len(failed)} of {len(judged)} stages ({', '.join(s.name for s in failed)})")
        diagnosis = _diagnose("\n".join(s.error or "" for s in failed))
    else:
        where = "the GPU" if expects_gpu else "the CPU"
        verdict = f"Passed: all {len(judged)} stages computed correctly on {where}"
    return SmokeResult(stages=judged, verdict=verdict, exit_code=EXIT_FAILED if failed else EXIT_OK,
                       diagnosis=diagnosis, gpu=gpu, **common)  # type: ignore[arg-type]
