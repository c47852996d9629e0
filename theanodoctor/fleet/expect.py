"""The machines a fleet run should hear from (`summarize --expect`): a hosts file, an Ansible
inventory (INI or YAML) or a Slurm host list expression such as ``node[01-04,07]``.

A machine that is expected and sent nothing usable is a row of its own in the summary, so a
dead machine is never hidden by its silence.
"""

from __future__ import annotations

import itertools
import math
import os
import re
from typing import Any

import yaml

# One bracket group of a host pattern: Slurm writes ``[01-04,07]``, Ansible ``[01:04]``, ``[a:f]``
# and ``[01:50:2]`` (a step).
_GROUP = re.compile(r"\[([^\[\]]+)\]")
MAX_HOSTS = 1_000_000  # a typo such as node[1-100000000] is refused, not expanded


class ExpectError(ValueError):
    """An --expect source that cannot be read (a usage error)."""


def _range(part: str) -> list[str]:
    bounds = re.split(r"[-:]", part)
    if len(bounds) == 1:
        return [part]
    if len(bounds) not in (2, 3) or not all(bounds):
        raise ExpectError(f"bad range {part!r} in a host pattern")
    start, end = bounds[0], bounds[1]
    step = int(bounds[2]) if len(bounds) == 3 and bounds[2].isdigit() else 1
    if start.isdigit() and end.isdigit():
        width = len(start) if start.startswith("0") else 0
        if int(end) - int(start) > MAX_HOSTS:
            raise ExpectError(f"range {part!r} names more than {MAX_HOSTS} hosts")
        return [str(n).zfill(width) for n in range(int(start), int(end) + 1, step)]
    if len(start) == len(end) == 1 and start.isalpha() and end.isalpha():
        return [chr(c) for c in range(ord(start), ord(end) + 1, step)]
    raise ExpectError(f"bad range {part!r} in a host pattern")


def expand(pattern: str) -> list[str]:
    """``node[01-03]-ib`` -> node01-ib, node02-ib, node03-ib (every bracket group, in order)."""
    pieces = _GROUP.split(pattern)  # literal, group, literal, group, ...
    choices = [[piece] if i % 2 == 0 else [v for part in piece.split(",") for v in _range(part.strip())]
               for i, piece in enumerate(pieces)]
    if math.prod(len(c) for c in choices) > MAX_HOSTS:
        raise ExpectError(f"{pattern!r} names more than {MAX_HOSTS} hosts")
    return ["".join(combo) for combo in itertools.product(*choices)]


def hostlist(expression: str) -> list[str]:
    """A Slurm host list (``a[1-2],b3``): commas outside brackets separate patterns."""
    patterns, depth, current = [], 0, ""
    for char in expression.strip():
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            patterns.append(current)
            current = ""
        else:
            current += char
    patterns.append(current)
    return [host for p in patterns if p.strip() for host in expand(p.strip())]


def _plain(text: str) -> list[str]:
    """One host (or host list expression) per line, as `scontrol show hostnames` prints them."""
    hosts: list[str] = []
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            hosts += hostlist(words[0])
    return hosts


def _ini_groups(text: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    hosts: dict[str, list[str]] = {"ungrouped": []}
    children: dict[str, list[str]] = {}
    group, kind = "ungrouped", "hosts"
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            group, _, kind = line[1:-1].partition(":")
            kind = kind or "hosts"
            hosts.setdefault(group, [])
            continue
        name = line.split()[0]
        if kind == "hosts":
            hosts[group] += expand(name)
        elif kind == "children":
            children.setdefault(group, []).append(name)
    return hosts, children


def _yaml_groups(data: Any, hosts: dict[str, list[str]], children: dict[str, list[str]], name: str = "all") -> None:
    if not isinstance(data, dict):
        return
    listed = data.get("hosts")
    hosts.setdefault(name, [])
    if isinstance(listed, dict):
        hosts[name] += [h for pattern in listed for h in expand(str(pattern))]
    kids = data.get("children")
    if isinstance(kids, dict):
        children[name] = [str(k) for k in kids]
        for child, body in kids.items():
            _yaml_groups(body, hosts, children, str(child))


def _members(group: str, hosts: dict[str, list[str]], children: dict[str, list[str]], seen: set[str]) -> list[str]:
    if group in seen:
        return []
    seen.add(group)
    found = list(hosts.get(group, []))
    for child in children.get(group, []):
        found += _members(child, hosts, children, seen)
    return found


def ansible_inventory(text: str, group: str | None = None) -> list[str]:
    """The hosts of an Ansible inventory file (INI or YAML), all of them or one group's."""
    hosts: dict[str, list[str]] = {}
    children: dict[str, list[str]] = {}
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        data = None
    if isinstance(data, dict):
        for name, body in data.items():
            _yaml_groups(body, hosts, children, str(name))
    else:
        hosts, children = _ini_groups(text)
    if group is None:
        return list(dict.fromkeys(h for listed in hosts.values() for h in listed))
    if group not in hosts and group not in children:
        raise ExpectError(f"the inventory has no group {group!r} (groups: {', '.join(sorted(hosts))})")
    return list(dict.fromkeys(_members(group, hosts, children, set())))


def _looks_like_inventory(path: str, text: str) -> bool:
    if path.endswith((".yml", ".yaml")):
        return True
    return any(line.strip().startswith("[") and line.strip().endswith("]") for line in text.splitlines()[:200])


def expected_hosts(source: str, ansible: bool = False, group: str | None = None) -> list[str]:
    """The hosts ``source`` names: an existing file (an Ansible inventory, forced by ``ansible``
    or recognised by its form, else one host or host list per line), or else a host list
    expression (``$SLURM_JOB_NODELIST``)."""
    if not os.path.isfile(source):
        if ansible or os.sep in source or not source.strip():
            raise ExpectError(f"cannot read {source!r}: no such file")
        return hostlist(source)
    try:
        with open(source, encoding="utf-8-sig") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ExpectError(f"cannot read {source}: {exc}") from exc
    if ansible or group is not None or _looks_like_inventory(source, text):
        return ansible_inventory(text, group)
    return _plain(text)
