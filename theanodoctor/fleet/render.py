"""The fleet view as text or markdown (formatters: they return text and never print).

The table shows the key facts that differ between machines (marked `*`), one line lists what
every machine shares, and the failures follow grouped by cause, each with its machines.
"""

from __future__ import annotations

from collections.abc import Sequence

from theanodoctor.fleet.table import Fleet, Machine
from theanodoctor.render.markdown import code, table

MAX_LISTED = 8  # machines named in one failure group before "and N more"


def _rows(fleet: Fleet) -> tuple[list[str], list[list[str]]]:
    headers = ["machine", *(f"{c} *" for c in fleet.differing), "checks", "smoke test"]
    rows = [[m.name, *(m.facts.get(c, "") for c in fleet.differing), m.report.verdict, m.smoke_verdict]
            for m in fleet.machines]
    return headers, rows


def _same(fleet: Fleet) -> list[str]:
    if not fleet.machines:
        return []
    first: Machine = fleet.machines[0]
    return [f"{c}: {first.facts[c]}" for c in fleet.columns if c not in fleet.differing]


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


def _counts(fleet: Fleet) -> str:
    broken = sum(1 for m in fleet.machines if m.exit_code)
    return f"{len(fleet.machines)} machines, {broken} with a blocking problem"


def render_text(fleet: Fleet) -> str:
    out = [_counts(fleet), ""]
    if fleet.machines:
        out += _plain_table(*_rows(fleet))
        out += ["", "* differs between machines" if fleet.differing else "no key fact differs between machines"]
        same = _same(fleet)
        if same:
            out += ["same on every machine: " + "; ".join(same)]
    if fleet.groups:
        out += ["", "Failures by cause:"]
        for group in fleet.groups:
            out += [f"  [{group.status}] {group.check} on {len(group.machines)} machine(s): {_listed(group.machines)}",
                    f"      {group.cause}"]
            if group.cause != group.example:
                out.append(f"      e.g. {group.example}")
            if group.remedy:
                out.append(f"      -> {group.remedy}")
    if fleet.problems:
        out += ["", "Files not used:"] + [f"  {p.path}: {p.reason}" for p in fleet.problems]
    return "\n".join(out) + "\n"


def render_markdown(fleet: Fleet) -> str:
    out = ["### theanodoctor fleet summary", "", _counts(fleet), ""]
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
    if fleet.groups:
        out += ["", "#### Failures by cause", ""]
        for group in fleet.groups:
            out.append(f"- **{group.status}** {code(group.check)} on {len(group.machines)} machine(s) "
                       f"({_listed(group.machines)}): {group.cause}")
            if group.cause != group.example:
                out.append(f"  - e.g. {group.example}")
            if group.remedy:
                out.append(f"  - fix: {group.remedy}")
    if fleet.problems:
        out += ["", "#### Files not used", ""] + [f"- {code(p.path)}: {p.reason}" for p in fleet.problems]
    return "\n".join(out) + "\n"
