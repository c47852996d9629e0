"""`resolve --project`: a repository's scan turned into a lock. The Theano release its markers
allow and the Python its code needs come from the era tables; framework pins from the framework
table; what the repository leaves unpinned is resolved as of its date (``asof``), capped by the
tables; the GPU side comes from the stack resolver (Theano 1.0) or the old backend's rules."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from theanodoctor.resolver import eras, frameworks
from theanodoctor.resolver.asof import AsOf, resolve_as_of
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


def lock_project(scan: dict[str, Any], gpu: GpuAsk, as_of: dt.date | None = None,
                 resolver: Callable[[Sequence[str], str, dt.date], AsOf] = resolve_as_of) -> ProjectLock:
    """The lock for a scanned repository (``scan``: ``ScanResult.to_json()["scan"]``)."""
    day = as_of or dt.date.fromisoformat(str(scan.get("as_of") or dt.date.today().isoformat()))
    theano = scan.get("theano") or {}
    major = (scan.get("python") or {}).get("major")
    conflicts: list[Conflict] = []
    notes: list[str] = [str(p) for p in scan.get("problems") or []]
    choice = eras.choose(theano.get("min"), theano.get("max"), major, day)
    base = dict(root=str(scan.get("root") or ""), as_of=day.isoformat(),
                as_of_source="option" if as_of else scan.get("as_of_source"),
                constraints=tuple(scan.get("constraints") or ()), modules=tuple(scan.get("modules") or ()))
    if isinstance(choice, Conflict):
        return ProjectLock(python=None, theano=None, device="cpu", pins=(), settings=(), conflicts=(choice,),
                           notes=tuple(notes), resolver=None, **base)
    pins = [LockPin("python", choice.python, choice.python_reason, choice.cites),
            LockPin(choice.flavour, f"=={choice.version}", choice.reason, choice.cites)]
    settings: list[Setting] = []
    wanted = list(choice.requires) + list(choice.caps)
    for item in scan.get("frameworks") or []:
        found = frameworks.pin(item, choice, day)
        if isinstance(found, Conflict):
            conflicts.append(found)
            continue
        pins += found.pins
        wanted += found.requires
        settings += found.settings
    taken = {canonicalize_name(p.name) for p in pins}
    for item in scan.get("requirements") or []:
        name, spec = str(item.get("name") or ""), str(item.get("spec") or "")
        key = canonicalize_name(name) if name else ""
        if not key or key in taken:
            continue
        if key in THEANO_NAMES:
            notes.append(f"{name}{spec} ({_where(item.get('evidence') or [])}) is replaced by "
                         f"{choice.flavour}=={choice.version}, the release the code's markers allow")
            continue
        if "://" in spec:
            pins.append(LockPin(name, spec, f"as the repository names it ({_where(item.get('evidence') or [])})"))
            taken.add(key)
            continue
        req = _req(name, spec)
        if req is None:
            notes.append(f"cannot read the requirement {name}{spec} ({_where(item.get('evidence') or [])})")
            continue
        wanted.append(str(req))
        clash = eras.cap_clash(req, choice)
        if clash:
            conflicts.append(clash)
    if conflicts:
        return ProjectLock(python=choice.python, theano=choice.version, device="cpu", pins=tuple(pins),
                           settings=tuple(settings), conflicts=tuple(conflicts), notes=tuple(notes),
                           resolver=None, **base)
    found = resolver(wanted, choice.python, day)
    if not found.ok:
        conflict = Conflict(("the repository's unpinned requirements",), (Reason(found.problem or ""),),
                            ("pin the requirements by hand (resolve --emit pip shows the rest of the lock)",))
        return ProjectLock(python=choice.python, theano=choice.version, device="cpu", pins=tuple(pins),
                           settings=tuple(settings), conflicts=(conflict,), notes=tuple(notes),
                           resolver=found.tool, **base)
    stated = {canonicalize_name(r.split("=")[0]) for r in wanted if "==" in r}
    for got in found.pins:
        key = canonicalize_name(got.name)
        if key in taken:
            continue
        reason = (f"pinned by the repository; {got.reason}" if key in stated else got.reason)
        pins.append(LockPin(got.name, f"=={got.version}", reason + eras.cap_note(key, choice)))
        taken.add(key)
    from theanodoctor.resolver import project_gpu

    side = project_gpu.gpu_side(choice, gpu, scan)
    settings += side.settings
    return ProjectLock(python=choice.python, theano=choice.version, device=side.device, pins=tuple(pins),
                       settings=tuple(settings), conflicts=side.conflicts, notes=tuple(notes + list(side.notes)),
                       resolver=found.tool, gpu_pins=side.pins, **base)
