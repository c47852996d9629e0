"""The Ansible examples run for real: ansible-core (the test extra) runs the playbook and the
documented ad-hoc commands against local-connection hosts, each with its own legacy environment
and HOME: a healthy one, a broken one, one without the doctor on its PATH, and one that cannot
be reached (ssh to a closed port). Then `summarize --expect-ansible` names every one of them."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Callable

import pytest
import yaml

from tests.fleet_helpers import DOCTOR_BIN, EXAMPLES, documented_block, machine_env, summary


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # free once closed: nothing listens there


def _unreachable() -> dict[str, object]:
    return {"ansible_connection": "ssh", "ansible_host": "127.0.0.1", "ansible_port": _closed_port(),
            "ansible_ssh_common_args": "-o BatchMode=yes -o StrictHostKeyChecking=no -o ConnectTimeout=10"}


def _ansible_env(tmp_path: Path) -> dict[str, str]:
    """The controller's environment: ansible-core from this venv, its state in the temp folder,
    started in the temp folder (PWD as a shell sets it)."""
    if shutil.which("ansible-playbook", path=DOCTOR_BIN) is None:
        pytest.fail("ansible-playbook is not installed in this venv (pip install -e '.[test]' installs it)")
    return machine_env(tmp_path / "controller", PWD=str(tmp_path), ANSIBLE_LOCAL_TEMP=str(tmp_path / "ansible-local"),
                       ANSIBLE_REMOTE_TMP=str(tmp_path / "ansible-remote"), ANSIBLE_NOCOLOR="1",
                       ANSIBLE_HOST_KEY_CHECKING="False", ANSIBLE_RETRY_FILES_ENABLED="False")


def _host(legacy: str, home: Path, doctor: bool = True) -> dict[str, object]:
    env = machine_env(home, doctor=doctor)
    return {"ansible_connection": "local", "ansible_python_interpreter": DOCTOR_BIN + "/python",
            "theano_env": legacy, "report_env": {"HOME": env["HOME"], "PATH": env["PATH"]}}


def test_the_playbook_on_four_hosts(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    inventory = tmp_path / "inventory.yml"
    hosts = {"healthy": _host(legacy_python("healthy37"), tmp_path / "home-healthy"),
             "broken": _host(legacy_python("numpy124"), tmp_path / "home-broken"),
             "nodoctor": _host(legacy_python("healthy37"), tmp_path / "home-nodoctor", doctor=False),
             "down": _unreachable()}
    inventory.write_text(yaml.safe_dump({"gpu_nodes": {"hosts": hosts}}))
    run = subprocess.run([f"{DOCTOR_BIN}/ansible-playbook", "-i", str(inventory),
                          str(EXAMPLES / "ansible-fleet-report.yml")],
                         cwd=tmp_path, env=_ansible_env(tmp_path), capture_output=True, text=True, timeout=900)
    assert run.returncode == 4, run.stdout + run.stderr  # 4: some host was unreachable
    assert "down" in run.stdout and "UNREACHABLE" in run.stdout
    assert len(run.stdout) < 20_000  # task lines, not a JSON document per host
    reports = tmp_path / "reports"
    assert sorted(p.name for p in reports.iterdir()) == sorted(
        f"{h}.{ext}" for h in ("healthy", "broken", "nodoctor") for ext in ("json", "err"))

    code, doc = summary(reports, "--expect-ansible", str(inventory))
    assert code == 1
    rows = {m["name"]: m for m in doc["machines"]}
    assert set(rows) == {"healthy", "broken", "nodoctor", "down"}
    assert rows["healthy"]["exit_code"] == 0 and rows["healthy"]["verdict"] == "CPU only"
    assert rows["broken"]["exit_code"] == 1 and rows["broken"]["checks"]["theano-import"] == "error"
    assert rows["nodoctor"]["kind"] == "unusable" and "theanodoctor: not found" in rows["nodoctor"]["verdict"]
    assert rows["down"]["kind"] == "missing"
    [numpy] = [g for g in doc["failures"] if g["cause_id"] == "numpy-bool-alias"]
    assert numpy["machines"] == ["broken"]
    # the healthy host alone, expected alone: the run passes
    code, _ = summary(reports / "healthy.json", "--expect", "healthy")
    assert code == 0


def test_the_documented_ad_hoc_commands(legacy_python: Callable[[str], str], tmp_path: Path) -> None:
    alpha = f"alpha{os.getpid()}"  # the commands write /tmp/theanodoctor-<host>.json on the host
    (tmp_path / "inventory.ini").write_text(
        "[gpu_nodes]\n"
        f"{alpha} ansible_connection=local ansible_python_interpreter={DOCTOR_BIN}/python\n"
        "down " + " ".join(f"{k}={v!r}" if " " in str(v) else f"{k}={v}" for k, v in _unreachable().items()) + "\n"
        f"[gpu_nodes:vars]\ntheano_env={legacy_python('healthy37')}\n")
    env = _ansible_env(tmp_path)
    env["PATH"] = f"{DOCTOR_BIN}:{env['PATH']}"
    block = documented_block("ansible gpu_nodes")
    lines = [line for line in block.splitlines() if line.strip()]
    assert lines[-1].startswith("theanodoctor summarize")
    try:
        for line in lines[:-1]:  # as written; each exits 4 because of the unreachable host
            run = subprocess.run(["sh", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True,
                                 timeout=600)
            assert run.returncode == 4 and f"{alpha} | CHANGED" in run.stdout, run.stdout + run.stderr
    finally:
        for suffix in (".json", ".err"):
            Path(f"/tmp/theanodoctor-{alpha}{suffix}").unlink(missing_ok=True)
    assert len(run.stdout) < 2_000  # a fetch result, not a report printed per host
    final = subprocess.run(["sh", "-c", lines[-1].replace("summarize", "summarize --format json", 1)],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert final.returncode == 1, final.stderr
    rows = {m["name"]: m for m in json.loads(final.stdout)["machines"]}
    assert rows[alpha]["exit_code"] == 0 and rows[alpha]["verdict"] == "CPU only"
    assert rows["down"]["kind"] == "missing"
