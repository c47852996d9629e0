"""Turn facts and findings into a plan: which repairs may run, and the actions of each.

Without ``--only``, a repair runs when a finding asks for it (its ``fix_id``) or when it judges
the config files itself; ``--cuda`` adds what a toolkit needs. ``--only`` runs exactly the
named repairs (that is how the cache is cleared or purged on request).
"""

from __future__ import annotations

from collections.abc import Iterable

from theanodoctor.engine import Result
from theanodoctor.facts import Facts, Json

from . import FIX_IDS, cache, dll_aliases, env_advice, soname_links, theanorc
from .context import Context, Note, Plan

# Repairs that look at the config files themselves, so they run without a finding naming them.
SELF_JUDGING = ("theanorc-encoding", "theanorc-rename", "theanorc-inline-comment", "theanorc-device",
                "theanorc-obsolete", "theanorc-pymc-names", "blas-ldflags")
FOR_TOOLKIT = ("theanorc-write", "cuda-dll-aliases", "cuda-soname-links", "env-path")
PLANNERS = (theanorc.plan_rename, theanorc.plan_rc, dll_aliases.plan_aliases, soname_links.plan_links,
            cache.plan_cache, env_advice.plan_advice)


class UnknownFix(ValueError):
    pass


def validate(ids: Iterable[str]) -> None:
    unknown = sorted(set(ids) - set(FIX_IDS))
    if unknown:
        raise UnknownFix(f"unknown fix id: {', '.join(unknown)} (known: {', '.join(FIX_IDS)})")


def wanted_fixes(results: Iterable[Result], only: Iterable[str], skip: Iterable[str], cuda: bool) -> frozenset[str]:
    only, skip = set(only), set(skip)
    validate(only | skip)
    if only:
        chosen = only
    else:
        asked = {r.outcome.fix_id for r in results if r.outcome.fix_id and r.status in ("warn", "error")}
        chosen = asked | set(SELF_JUDGING) | (set(FOR_TOOLKIT) if cuda else set())
        chosen.discard("cache-purge")  # only on request: it deletes the whole compiledir
    return frozenset(chosen - skip)


def make_plan(facts: Facts, results: tuple[Result, ...], wanted: frozenset[str], cuda: Json | None = None,
              force: bool = False) -> Plan:
    ctx = Context(facts, results, wanted, cuda, force)
    actions, notes = [], []
    for planner in PLANNERS:
        found, said = planner(ctx)
        actions += found
        notes += said
    return Plan(tuple(actions), tuple(dict.fromkeys(notes)))


def affected_checks(results: Iterable[Result], plan: Plan) -> list[str]:
    """Checks to compare before and after: those whose findings named a planned repair, and the
    config/library/cache checks the actions touch."""
    fixes = {f for a in plan.actions for f in a.fix_ids}
    areas = set()
    for action in plan.actions:
        areas |= {"config"} if action.kind in ("write", "rename") else set()
        areas |= {"libraries"} if action.kind in ("link", "symlink") else set()
        areas |= {"cache"} if action.kind in ("clear", "purge", "unlock") else set()
    return [r.id for r in results if r.outcome.fix_id in fixes or r.area in areas
            or (r.id in ("python-stack", "theano-import") and "blas-ldflags" in fixes)]


def left_blocking(results: Iterable[Result], plan: Plan) -> list[Result]:
    """The errors this plan leaves as they are: neither their repair nor any file they judge is
    in it (a repair that only prints commands leaves its error until the user runs them). The
    re-probe after applying has the last word."""
    results = list(results)
    applied = {f for a in plan.applicable for f in a.fix_ids}
    touched = set(affected_checks(results, Plan(tuple(plan.applicable), plan.notes)))
    return [r for r in results if r.status == "error" and r.outcome.fix_id not in applied and r.id not in touched]


__all__ = ["FIX_IDS", "Note", "Plan", "UnknownFix", "affected_checks", "left_blocking", "make_plan",
           "wanted_fixes"]
