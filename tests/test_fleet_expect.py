"""The machines `summarize --expect` waits for: Slurm host lists, Ansible inventories (INI and
YAML, groups and children), plain host files, read from real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from theanodoctor.fleet.expect import ExpectError, ansible_inventory, expected_hosts, hostlist


def test_slurm_host_lists() -> None:
    assert hostlist("node[01-03,07]") == ["node01", "node02", "node03", "node07"]
    assert hostlist("gpu[8-10],login1") == ["gpu8", "gpu9", "gpu10", "login1"]
    assert hostlist("r[1-2]-n[1-2]") == ["r1-n1", "r1-n2", "r2-n1", "r2-n2"]
    assert hostlist("localhost") == ["localhost"]
    with pytest.raises(ExpectError):
        hostlist("node[1-]")
    with pytest.raises(ExpectError, match="more than"):
        hostlist("node[1-100000000]")  # a typo, refused instead of filling the memory


INI = """\
# lab inventory
[gpus]
gpu[01:03].lab ansible_user=theano
oldbox ansible_host=10.0.0.9

[cpus]
cpu1

[workers:children]
gpus
cpus

[gpus:vars]
theano_env=/opt/envs/theano37
"""

YAML = """\
all:
  children:
    gpus:
      hosts:
        gpu01.lab: {}
        gpu[02:03].lab:
          ansible_user: theano
    cpus:
      hosts:
        cpu1:
"""


@pytest.mark.parametrize("text", [INI, YAML], ids=["ini", "yaml"])
def test_ansible_inventories(text: str, tmp_path: Path) -> None:
    hosts = ansible_inventory(text)
    assert {"gpu01.lab", "gpu02.lab", "gpu03.lab", "cpu1"} <= set(hosts)
    assert "theano_env=/opt/envs/theano37" not in hosts and "gpus" not in hosts
    assert ansible_inventory(text, "cpus") == ["cpu1"]
    path = tmp_path / ("inventory.yml" if text is YAML else "inventory.ini")
    path.write_text(text)
    assert expected_hosts(str(path)) == hosts  # recognised by its form
    with pytest.raises(ExpectError, match="no group"):
        expected_hosts(str(path), group="nope")


def test_ini_children_group() -> None:
    assert ansible_inventory(INI, "workers") == ["gpu01.lab", "gpu02.lab", "gpu03.lab", "oldbox", "cpu1"]


def test_plain_files_and_expressions(tmp_path: Path) -> None:
    hosts = tmp_path / "hosts.txt"
    hosts.write_text("node01\nnode[02-03]  # rack 2\n\n# retired: node04\n")
    assert expected_hosts(str(hosts)) == ["node01", "node02", "node03"]
    assert expected_hosts("node[1-2]") == ["node1", "node2"]  # not a file: a host list
    with pytest.raises(ExpectError, match="no such file"):
        expected_hosts(str(tmp_path / "missing" / "hosts"))
