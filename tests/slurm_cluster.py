"""A real single-node Slurm for the tests: Debian's munged, slurmctld and slurmd, started on
127.0.0.1 with a config written into a temporary folder, and stopped after.

Every daemon runs in the foreground as a child of the test process; `sinfo` tells when the node
is up (polled, with a deadline: a cluster that does not come up fails the test with the
daemons' logs, it is never skipped).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DAEMONS = ("munged", "slurmctld", "slurmd")
# The node is named like the machine: srun's %N and `hostname -s` give the host's short name.
NODE = socket.gethostname().split(".")[0]
START_DEADLINE_S = 120.0

CONFIG = """\
ClusterName=theanodoctor-test
SlurmctldHost={node}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={root}/munge.socket
CredType=cred/munge
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/slurmctld.log
SlurmdLogFile={root}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName={node} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=debug Nodes={node} Default=YES MaxTime=INFINITE State=UP
"""


class SlurmError(RuntimeError):
    pass


def missing_programs() -> list[str]:
    return [p for p in (*DAEMONS, "srun", "sbatch", "sinfo", "munge") if shutil.which(p) is None]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _logs(root: Path) -> str:
    parts = []
    for name in ("munged.log", "slurmctld.log", "slurmd.log", "slurmctld.out", "slurmd.out"):
        path = root / name
        if path.exists():
            parts.append(f"--- {name}\n" + path.read_text(errors="replace")[-3000:])
    return "\n".join(parts)


def _start(args: list[str], out: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    with open(out, "wb") as fh:
        return subprocess.Popen(args, stdout=fh, stderr=subprocess.STDOUT, env=env, start_new_session=True)


def _wait_until_idle(root: Path, env: dict[str, str], procs: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + START_DEADLINE_S
    while time.monotonic() < deadline:
        for proc in procs:
            if proc.poll() is not None:
                raise SlurmError(f"{proc.args[0]} exited with {proc.returncode}\n{_logs(root)}")
        state = subprocess.run(["sinfo", "-h", "-n", NODE, "-o", "%t"], env=env, capture_output=True,
                               text=True, timeout=30)
        if state.returncode == 0 and state.stdout.strip() in ("idle", "mix", "alloc"):
            return
        time.sleep(0.5)
    raise SlurmError(f"the Slurm node did not come up within {START_DEADLINE_S:.0f} s\n{_logs(root)}")


@contextmanager
def slurm_cluster(root: Path) -> Iterator[dict[str, str]]:
    """Start the cluster in ``root``; yields the environment (SLURM_CONF) for srun/sbatch."""
    missing = missing_programs()
    if missing:
        raise SlurmError(f"not installed: {', '.join(missing)} (Debian: apt-get install slurm-wlm munge)")
    root.chmod(0o755)  # munged wants its socket folder reachable by the clients
    for folder in ("state", "spool"):
        (root / folder).mkdir()
    key = root / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o600)
    conf = root / "slurm.conf"
    conf.write_text(CONFIG.format(node=NODE, root=root, ctld_port=_free_port(), slurmd_port=_free_port(),
                                  cpus=min(os.cpu_count() or 1, 2)))
    env = {**os.environ, "SLURM_CONF": str(conf)}
    procs: list[subprocess.Popen[bytes]] = []
    try:
        procs.append(_start(["munged", "--foreground", "--force", f"--key-file={key}",
                             f"--socket={root}/munge.socket", f"--pid-file={root}/munged.pid",
                             f"--log-file={root}/munged.log", f"--seed-file={root}/munged.seed"],
                            root / "munged.out", env))
        deadline = time.monotonic() + 30
        while not (root / "munge.socket").exists():
            if procs[0].poll() is not None or time.monotonic() > deadline:
                raise SlurmError(f"munged did not start\n{_logs(root)}")
            time.sleep(0.1)
        procs.append(_start(["slurmctld", "-D", "-i", "-f", str(conf)], root / "slurmctld.out", env))
        procs.append(_start(["slurmd", "-D", "-N", NODE, "-f", str(conf)], root / "slurmd.out", env))
        _wait_until_idle(root, env, procs)
        yield env
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=30)
