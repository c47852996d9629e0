"""`resolve --project`: a repository's scan turned into a lock. The Theano release its markers
allow and the Python its code needs come from the era tables; framework pins from the framework
table; what the repository leaves unpinned is resolved as of its date (``asof``), capped by the
tables; the GPU side comes from the stack resolver for the chosen release (project_gpu)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, NamedTuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from theanodoctor.resolver import eras, frameworks
from theanodoctor.resolver.asof import resolve_as_of
from theanodoctor.resolver.lock import LockPin, ProjectLock, Setting
from theanodoctor.resolver.model import Conflict, Reason

THEANO_NAMES = {"theano", "theano-pymc"}


class GpuAsk(NamedTuple):
    """The GPU side asked for: the options given, else this machine's first GPU (None: no GPU)."""
    cpu_only: bool
    cc: str | None        # "8.6"
    label: str | None     # "--gpu \"RTX 3090\"" or "this machine's NVIDIA H200"
    options: dict[str, Any]  # --cuda/--gpu/--arch/--driver/--cudnn as given, for the stack resolver


def _where(evidence: Sequence[dict[str, Any]]) -> str:
    places = [f"{e.get('file')}:{e.get('line')}" for e in evidence[:3] if isinstance(e, dict)]
    return ", ".join(places) + (f" (+{len(evidence) - 3})" if len(evidence) > 3 else "")


def _req(name: str, spec: str) -> Requirement | None:
    try:
        return Requirement(f"{name}{spec}" if spec and "://" not in spec else name)
    except InvalidRequirement:
        return None


def lock_project(scan: dict[str, Any], gpu: GpuAsk, as_of: dt.date | None = None) -> ProjectLock:
    """The lock for a scanned repository (``scan``: ``ScanResult.to_json()["scan"]`` plus "root")."""
    day = as_of or dt.date.fromisoformat(str(scan.get("as_of") or dt.date.today().isoformat()))
    notes: list[str] = [f"scan: {p.get('file')}: {p.get('message')}" if isinstance(p, dict) else str(p)
                        for p in scan.get("problems") or []] + [str(n) for n in scan.get("notes") or []]
    lock = ProjectLock(str(scan.get("root") or ""), day.isoformat(),
                       "option" if as_of else scan.get("as_of_source"), None, None, "cpu", (), (),
                       tuple(scan.get("constraints") or ()), (), (), tuple(scan.get("modules") or ()), None)
    span = eras.theano_line(scan.get("constraints") or ())
    choice = eras.choose(span, (scan.get("python") or {}).get("major"), day)
    if isinstance(choice, Conflict):
        return lock._replace(conflicts=(choice,), notes=tuple(notes))
    notes += [f"{said}; the code's markers decide: Theano {choice.version}" for said in span.said]
    lock = lock._replace(python=choice.python, theano=choice.version)
    pins = [LockPin("python", choice.python, choice.python_reason, choice.cites[:1]),
            LockPin(choice.flavour, f"=={choice.version}", choice.reason, choice.cites)]
    settings: list[Setting] = []
    conflicts: list[Conflict] = []
    wanted = list(choice.requires) + list(choice.caps)
    for item in scan.get("frameworks") or []:
        framework = frameworks.pin(item, choice, day)
        if isinstance(framework, Conflict):
            conflicts.append(framework)
            continue
        pins += framework.pins
        wanted += framework.requires
        settings += framework.settings
    taken: set[str] = {canonicalize_name(p.name) for p in pins}
    for item in scan.get("requirements") or []:
        line = _requirement_line(item, choice, taken, notes, pins, conflicts)
        if line:
            wanted.append(line)
    if conflicts:
        return lock._replace(pins=tuple(pins), settings=tuple(settings), conflicts=tuple(conflicts),
                             notes=tuple(notes))
    resolved = resolve_as_of(wanted, choice.python, day)
    lock = lock._replace(resolver=resolved.tool)
    if not resolved.ok:
        conflict = Conflict(("the repository's unpinned requirements",), (Reason(resolved.problem or ""),),
                            ("pin them by hand in the repository's requirements file",))
        return lock._replace(pins=tuple(pins), settings=tuple(settings), conflicts=(conflict,), notes=tuple(notes))
    stated = {canonicalize_name(Requirement(r).name) for r in wanted if "==" in r}
    for got in resolved.pins:
        key = canonicalize_name(got.name)
        if key not in taken:
            reason = f"pinned by the repository; {got.reason}" if key in stated else got.reason
            pins.append(LockPin(got.name, f"=={got.version}", reason + eras.cap_note(key, choice)))
            taken.add(key)
    from theanodoctor.resolver import project_gpu

    side = project_gpu.gpu_side(choice, gpu, scan)
    return lock._replace(device=side.device, pins=tuple(pins), settings=tuple(settings + list(side.settings)),
                         conflicts=side.conflicts, notes=tuple(notes + list(side.notes)), gpu_pins=side.pins)


def _requirement_line(item: dict[str, Any], choice: eras.Choice, taken: set[str], notes: list[str],
                      pins: list[LockPin], conflicts: list[Conflict]) -> str | None:
    """One requirement the repository states: a line for the resolver, a URL pin, or a note."""
    name, spec = str(item.get("name") or ""), str(item.get("spec") or "")
    key = canonicalize_name(name) if name else ""
    where = _where(item.get("evidence") or [])
    if not key or key in taken:
        return None
    if key in THEANO_NAMES:
        notes.append(f"{name}{spec} ({where}) is replaced by {choice.flavour}=={choice.version}, the release "
                     "the code's markers allow")
        return None
    if "://" in spec:
        pins.append(LockPin(name, spec, f"as the repository names it ({where})"))
        taken.add(key)
        return None
    req = _req(name, spec)
    if req is None:
        notes.append(f"cannot read the requirement {name}{spec} ({where})")
        return None
    clash = eras.cap_clash(req, choice)
    if clash:
        conflicts.append(clash)
    return str(req)
