"""The check engine: a registry of pure checks over ``Facts`` and the run that judges them.

A check is a plain function ``(facts, options) -> Outcome``. It is registered with a stable
kebab-case id, a one-line title and an area. The engine adds timing, turns an exception into a
``crash`` result so the other checks still run, and keeps the registration order as the output
order.
"""

from __future__ import annotations

import re
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

from theanodoctor.facts import Facts

STATUSES = ("ok", "warn", "error", "skipped", "timeout", "crash")
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Options:
    """What the user asked for that changes how facts are judged."""

    require_gpu: bool = False


@dataclass(frozen=True)
class Outcome:
    """What one check concluded. ``commands`` are safe to run as-is; destructive steps only ever
    appear in ``remedy`` prose."""

    status: str
    message: str
    cause: str = ""
    remedy: str = ""
    commands: tuple[str, ...] = ()
    fix_id: str | None = None
    details: tuple[str, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")


def ok(message: str, **kw: Any) -> Outcome:
    return Outcome("ok", message, **kw)


def warn(message: str, **kw: Any) -> Outcome:
    return Outcome("warn", message, **kw)


def error(message: str, **kw: Any) -> Outcome:
    return Outcome("error", message, **kw)


def skipped(reason: str, **kw: Any) -> Outcome:
    """The check cannot tell (a fact it needs is missing). Never report ``ok`` instead."""
    return Outcome("skipped", reason, **kw)


CheckFunc = Callable[[Facts, Options], Outcome]


class Check(NamedTuple):
    id: str
    title: str
    area: str
    func: CheckFunc


class Result(NamedTuple):
    id: str
    title: str
    area: str
    outcome: Outcome
    duration_s: float

    @property
    def status(self) -> str:
        return self.outcome.status


REGISTRY: dict[str, Check] = {}


def check(check_id: str, title: str, area: str) -> Callable[[CheckFunc], CheckFunc]:
    """Register a check. Ids are stable: users pass them to ``--only``/``--skip`` and CI keys on
    them, so never rename one."""

    def register(func: CheckFunc) -> CheckFunc:
        if not _ID.match(check_id):
            raise ValueError(f"check id {check_id!r} is not kebab-case")
        if check_id in REGISTRY:
            raise ValueError(f"check id {check_id!r} registered twice")
        REGISTRY[check_id] = Check(check_id, title, area, func)
        return func

    return register


def all_checks() -> list[Check]:
    import theanodoctor.checks  # noqa: F401  (registers every check module, in order)

    return list(REGISTRY.values())


class UnknownCheck(ValueError):
    pass


def select(checks: Iterable[Check], only: Iterable[str] = (), skip: Iterable[str] = ()) -> list[Check]:
    checks = list(checks)
    known = {c.id for c in checks}
    wanted, unwanted = set(only), set(skip)
    unknown = sorted((wanted | unwanted) - known)
    if unknown:
        raise UnknownCheck(
            f"unknown check id: {', '.join(unknown)} (see `theanodoctor check --list`)"
        )
    return [c for c in checks if (not wanted or c.id in wanted) and c.id not in unwanted]


def run_checks(facts: Facts, checks: Iterable[Check], options: Options = Options()) -> list[Result]:
    results = []
    for chk in checks:
        started = time.perf_counter()
        try:
            outcome = chk.func(facts, options)
            if not isinstance(outcome, Outcome):
                raise TypeError(f"check returned {type(outcome).__name__}, not an Outcome")
        except Exception as exc:  # a broken check must not take the report down with it
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            outcome = Outcome(
                "crash",
                f"the check itself failed: {type(exc).__name__}: {exc}",
                details=(f"at {frame.filename}:{frame.lineno} in {frame.name}",),
            )
        results.append(Result(chk.id, chk.title, chk.area, outcome, time.perf_counter() - started))
    return results
