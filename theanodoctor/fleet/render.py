"""The fleet view as text or markdown (formatters: they return text and never print).

The table shows the key facts that differ between machines (marked `*`), a row for every machine
that sent no usable report (with the reason), one line lists what every machine shares, and the
failures follow grouped by cause, each with its machines and the versions they have.
"""

from __future__ import annotations

from collections.abc import Sequence

from theanodoctor.fleet.causes import FailureGroup
from theanodoctor.fleet.table import Fleet, Machine
from theanodoctor.render.markdown import code, table

MAX_LISTED = 8  # machines named in one failure group before "and N more"


def _name(machine: Machine) -> str:
    return f"{machine.members[0]} (+{len(machine.members) - 1} same)" if machine.members else machine.name


def _rows(fleet: Fleet) -> tuple[list[str], list[list[str]]]:
    headers = ["machine", *(f"{c} *" for c in fleet.differing), "checks", "smoke test", "exit"]
    index = [fleet.columns.index(c) for c in fleet.differing]
    rows = [[_name(m), *(m.values[i] if m.reported else "-" for i in index), m.verdict, m.smoke_verdict,
             str(m.exit_code)] for m in fleet.machines]
    return headers, rows


def _same(fleet: Fleet) -> list[str]:
    reported = fleet.reported
    if not reported:
        return []
    return [f"{c}: {reported[0].values[i]}" for i, c in enumerate(fleet.columns) if c not in fleet.differing]


def _most_common(values: Sequence[str]) -> str:
    return max(dict.fromkeys(values), key=values.count)


def _listed(names: Sequence[str]) -> str:
    shown = ", ".join(names[:MAX_LISTED])
    return shown + (f" and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else "")


def _plain_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    line = "  ".join("{:<%d}" % w for w in widths)  # noqa: UP031  (a template of templates)
    return [line.format(*headers).rstrip(), line.format(*("-" * w for w in widths)),
            *(line.format(*row).rstrip() for row in rows)]


def counts_line(fleet: Fleet) -> str:
    machines = sum(len(m.members) or 1 for m in fleet.machines)
    silent = sum(len(m.members) or 1 for m in fleet.machines if not m.reported)
    broken = sum(len(m.members) or 1 for m in fleet.machines if m.reported and m.exit_code)
    expected = f" ({fleet.expected} expected)" if fleet.expected else ""
    return (f"{machines} machines{expected}: {silent} without a usable report, "
            f"{broken} with a blocking problem")


def _header(group: FailureGroup) -> str:
    name = group.cause_id or group.checks[0]
    also = [c for c in group.checks if c != name]
    return name + (f" (seen by {', '.join(also)})" if also else "")


def _versions(group: FailureGroup) -> str:
    return "; ".join(f"{fact}: " + ", ".join(f"{v} ({n})" for v, n in values.items())
                     for fact, values in group.versions.items())


def _identical(fleet: Fleet) -> list[str]:
    return [f"  {_name(m)}: {_listed(m.members)}" for m in fleet.machines if m.members]


def render_text(fleet: Fleet) -> str:
    out = [counts_line(fleet), ""]
    if fleet.machines:
        out += _plain_table(*_rows(fleet))
        out += ["", "* differs between machines" if fleet.differing else "no key fact differs between machines"]
        same = _same(fleet)
        if same:
            out += ["same on every machine: " + "; ".join(same)]
    if _identical(fleet):
        out += ["", "Identical machines:", *_identical(fleet)]
    if fleet.groups:
        out += ["", "Failures by cause:"]
        for group in fleet.groups:
            out += [f"  [{group.status}] {_header(group)} on {len(group.machines)} machine(s): "
                    f"{_listed(group.machines)}", f"      {group.cause}"]
            if group.versions:
                out.append(f"      versions: {_versions(group)}")
            if group.cause != group.example:
                out.append(f"      e.g. {group.example}")
            if group.remedy:
                out.append(f"      -> {group.remedy}")
    return "\n".join(out) + "\n"


def render_markdown(fleet: Fleet) -> str:
    out = ["### theanodoctor fleet summary", "", counts_line(fleet), ""]
    if fleet.machines:
        headers, rows = _rows(fleet)
        common = [_most_common([row[i] for row in rows]) for i in range(len(headers))]
        differs = range(1, 1 + len(fleet.differing))
        out += [table([h.replace(" *", " ≠") for h in headers],
                      [[f"**{v}**" if i in differs and v != common[i] else v for i, v in enumerate(row)]
                       for row in rows]), ""]
        out += ["≠: differs between machines; **bold**: not what most machines have." if fleet.differing
                else "No key fact differs between machines."]
        same = _same(fleet)
        if same:
            out += ["", "Same on every machine: " + "; ".join(same)]
    if _identical(fleet):
        out += ["", "#### Identical machines", "", *(f"-{line[1:]}" for line in _identical(fleet))]
    if fleet.groups:
        out += ["", "#### Failures by cause", ""]
        for group in fleet.groups:
            out.append(f"- **{group.status}** {code(_header(group))} on {len(group.machines)} machine(s) "
                       f"({_listed(group.machines)}): {group.cause}")
            if group.versions:
                out.append(f"  - versions: {_versions(group)}")
            if group.cause != group.example:
                out.append(f"  - e.g. {group.example}")
            if group.remedy:
                out.append(f"  - fix: {group.remedy}")
    return "\n".join(out) + "\n"
