"""Rewrite one call's arguments by a call rule: positional arguments after the kept ones become
keywords (in the new signature's order), old keyword names become new ones, and a keyword whose
default changed is written out. Anything the rule does not understand leaves the call alone."""

from __future__ import annotations

from typing import Any

from fissix.pgen2 import token
from fissix.pygram import python_symbols as syms
from fissix.pytree import Leaf, Node

from theanodoctor.kb_port import Rule

from .tree import keyword


def _arguments(trailer: Any) -> tuple[Any | None, list[Any]]:
    inner = trailer.children[1] if len(trailer.children) == 3 else None
    if inner is None:
        return None, []
    items = inner.children if inner.type == syms.arglist else [inner]
    return inner, [c for c in items if c.type != token.COMMA]


def _is_keyword(arg: Any) -> bool:
    return arg.type == syms.argument and len(arg.children) == 3 and arg.children[1].type == token.EQUAL


def _is_star(arg: Any) -> bool:
    first = arg.children[0] if arg.type == syms.argument else arg
    return first.type in (token.STAR, token.DOUBLESTAR) or (arg.type == syms.argument and not _is_keyword(arg))


def plan_call(trailer: Any, rule: Rule) -> tuple[list[str], str | None]:
    """What the call's rewrite would do (descriptions), or why it cannot be made."""
    _, args = _arguments(trailer)
    if any(_is_star(a) for a in args):
        return [], "arguments passed with * or ** (or a generator): which ones they are is not known here"
    positional = [a for a in args if not _is_keyword(a)]
    keywords = [str(a.children[0]).strip() for a in args if _is_keyword(a)]
    if len(positional) > rule.keep + len(rule.positional):
        return [], f"{len(positional)} positional arguments: more than the rule maps"
    names = [rule.positional[i - rule.keep] for i in range(rule.keep, len(positional))]
    renamed = [rule.rename.get(k, k) for k in keywords]
    unknown = [k for k in renamed[:] if k not in rule.allowed]
    if unknown:
        return [], f"keyword {', '.join(unknown)} is not one the rule knows the meaning of"
    given = names + renamed
    if len(set(given)) != len(given):
        return [], "the same argument given twice (old and new name)"
    what = []
    if names:
        what.append("positional " + ", ".join(names) + " as keywords")
    what += [f"{k}= -> {rule.rename[k]}=" for k in keywords if k in rule.rename]
    what += [f"{k}={v} written out" for k, v in rule.explicit.items() if k not in given]
    return what, None


def rewrite_call(trailer: Any, rule: Rule) -> None:
    """Apply what :func:`plan_call` found possible (call it first)."""
    _, args = _arguments(trailer)
    given = set()
    index = 0
    for arg in args:
        if _is_keyword(arg):
            leaf = arg.children[0]
            leaf.value = rule.rename.get(leaf.value, leaf.value)
            given.add(leaf.value)
            continue
        if index >= rule.keep:
            new = rule.positional[index - rule.keep]
            prefix = arg.prefix
            arg.prefix = ""
            clone = arg.clone()
            arg.replace(keyword(new, clone, prefix))
            given.add(new)
        index += 1
    missing = [(k, v) for k, v in rule.explicit.items() if k not in given]
    if not missing:
        return
    inner, args = _arguments(trailer)
    extra: list[Any] = []
    for name, value in missing:
        extra += [Leaf(token.COMMA, ","), keyword(name, Leaf(token.NAME, value), " ")]
    if inner is None:
        trailer.insert_child(1, Node(syms.arglist, extra[1:]))
        trailer.children[1].children[0].prefix = ""
    elif inner.type != syms.arglist:
        clone = inner.clone()
        inner.replace(Node(syms.arglist, [clone, *extra]))
    else:
        last = inner.children.index(args[-1])
        for offset, node in enumerate(extra, 1):
            inner.insert_child(last + offset, node)
