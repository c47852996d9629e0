"""Which rule a dotted name falls under: a moved module (and the name it has now), a removed or
moved function, or a use that is listed for hand work."""

from __future__ import annotations

from typing import NamedTuple

from theanodoctor.kb_port import Rule


class Moved(NamedTuple):
    rule: Rule
    new: str | None  # None: under the moved module, but this name keeps no meaning there


def _under(full: str, prefix: str) -> bool:
    return full == prefix or full.startswith(prefix + ".")


def _longest(full: str, rules: tuple[Rule, ...], kinds: tuple[str, ...]) -> Rule | None:
    found = [r for r in rules if r.kind in kinds and _under(full, r.old)]
    return max(found, key=lambda r: len(r.old)) if found else None


def move(full: str, rules: tuple[Rule, ...]) -> Moved | None:
    rule = _longest(full, rules, ("module",))
    if rule is None:
        return None
    if full == rule.old:
        return Moved(rule, rule.new)
    rest = full[len(rule.old) + 1:].split(".")
    if rule.names is None:
        return Moved(rule, ".".join([rule.new, *rest]))
    if rest[0] in rule.names:
        return Moved(rule, ".".join([rule.new, rule.names[rest[0]], *rest[1:]]))
    return Moved(rule, None)


def exact(full: str, rules: tuple[Rule, ...], kind: str) -> Rule | None:
    return next((r for r in rules if r.kind == kind and r.old == full), None)


def manual(full: str, rules: tuple[Rule, ...]) -> Rule | None:
    return _longest(full, rules, ("manual",))


def call_rule(names: tuple[str, ...], rules: tuple[Rule, ...]) -> Rule | None:
    return next((r for r in rules if r.kind == "call" and
                 any(n in r.calls for n in names)), None)
