"""The Slurm examples run for real on a single-node Slurm (Debian's slurm-wlm and munge, started
on 127.0.0.1 by the test and stopped after): the documented srun line, the batch job and the job
array each leave reports/<node>.json with the JSON only (stderr apart), and `summarize --expect`
with the node list passes; a node list naming one more node fails on that node."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Callable

import pytest

from tests.fleet_helpers import EXAMPLES, documented_block, machine_env, summary, with_values
from tests.slurm_cluster import NODE, slurm_cluster


@pytest.fixture(scope="module")
def slurm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    with slurm_cluster(tmp_path_factory.mktemp("slurm")) as env:
        yield env


def _job_env(slurm: dict[str, str], tmp_path: Path, python: str) -> dict[str, str]:
    return {**machine_env(tmp_path / "home"), "SLURM_CONF": slurm["SLURM_CONF"], "THEANO_ENV": python}


def _check_reports(reports: Path, env: dict[str, str]) -> None:
    assert sorted(p.name for p in reports.iterdir()) == [f"{NODE}.err", f"{NODE}.json"]
    code, doc = summary(reports, "--expect", NODE, env=env)
    assert code == 0, doc
    [machine] = doc["machines"]
    assert machine["name"] == NODE and machine["verdict"] == "CPU only" and machine["kind"] == "snapshot"
    code, doc = summary(reports, "--expect", f"{NODE},{NODE}-gone", env=env)
    assert code == 1 and doc["machines"][-1]["kind"] == "missing"


def test_the_documented_srun_line(slurm: dict[str, str], legacy_python: Callable[[str], str],
                                  tmp_path: Path) -> None:
    python = legacy_python("healthy37")
    block = with_values(documented_block("srun "), NODES=NODE, THEANO_ENV=python)
    lines = [line for line in block.splitlines() if line.strip()]
    assert lines[-1].startswith("theanodoctor summarize")
    env = _job_env(slurm, tmp_path, python)
    run = subprocess.run(["sh", "-ec", "\n".join(lines[:-1])], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    _check_reports(tmp_path / "reports", env)
    final = subprocess.run(["sh", "-c", "\n".join(lines)], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=300)
    assert final.returncode == 0 and final.stdout.startswith("1 machines (1 expected): 0 without"), final.stdout


@pytest.mark.parametrize("how", [["--nodelist", NODE], ["--array", "1-1"]], ids=["batch", "array"])
def test_the_batch_job(how: list[str], slurm: dict[str, str], legacy_python: Callable[[str], str],
                       tmp_path: Path) -> None:
    env = _job_env(slurm, tmp_path, legacy_python("healthy37"))
    run = subprocess.run(["sbatch", "--wait", *how, str(EXAMPLES / "slurm-fleet-report.sbatch")], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=600)
    logs = "".join(p.read_text(errors="replace") for p in tmp_path.glob("theanodoctor-report-*.log"))
    assert run.returncode == 0, run.stdout + run.stderr + logs
    _check_reports(tmp_path / "reports", env)


def test_the_srun_line_never_waits_for_nodes_the_cluster_lacks(slurm: dict[str, str],
                                                                legacy_python: Callable[[str], str],
                                                                tmp_path: Path) -> None:
    """`srun --nodes=8` on a smaller cluster waits forever; the documented line names its nodes,
    so a node the cluster does not have is an immediate error, and summarize names it missing."""
    python = legacy_python("healthy37")
    nodes = f"{NODE},{NODE}-gone"
    block = with_values(documented_block("srun "), NODES=nodes, THEANO_ENV=python)
    lines = [line for line in block.splitlines() if line.strip()]
    env = _job_env(slurm, tmp_path, python)
    run = subprocess.run(["sh", "-c", "\n".join(lines[:-1])], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode != 0 and "node" in run.stderr.lower(), run.stderr
    code, doc = summary(tmp_path / "reports", "--expect", nodes, env=env)
    assert code == 1 and {m["kind"] for m in doc["machines"]} == {"missing"}
