"""Small builders and readers over fissix trees (the lossless tree scan/py2tree.py parses)."""

from __future__ import annotations

from typing import Any

from fissix.pgen2 import token
from fissix.pygram import python_symbols as syms
from fissix.pytree import Leaf, Node


def code_of(node: Any) -> str:
    """The node's source on one line (for reports)."""
    return " ".join(str(node).split())


def dotted_text(node: Any) -> str:
    return "".join(leaf.value for leaf in node.leaves())


def dotted(name: str, prefix: str = "") -> Any:
    parts = name.split(".")
    if len(parts) == 1:
        return Leaf(token.NAME, parts[0], prefix=prefix)
    children: list[Any] = []
    for i, part in enumerate(parts):
        if i:
            children.append(Leaf(token.DOT, "."))
        children.append(Leaf(token.NAME, part))
    node = Node(syms.dotted_name, children)
    node.prefix = prefix
    return node


def attr_trailer(name: str) -> Any:
    return Node(syms.trailer, [Leaf(token.DOT, "."), Leaf(token.NAME, name)])


def keyword(name: str, value: Any, prefix: str = "") -> Any:
    return Node(syms.argument, [Leaf(token.NAME, name, prefix=prefix), Leaf(token.EQUAL, "="), value])


def is_attr_trailer(node: Any) -> bool:
    return (node.type == syms.trailer and len(node.children) == 2 and node.children[0].type == token.DOT
            and node.children[1].type == token.NAME)


def is_call_trailer(node: Any) -> bool:
    return node.type == syms.trailer and bool(node.children) and node.children[0].type == token.LPAR


def attribute_name(leaf: Any) -> bool:
    """`x` in `a.x`: an attribute, not a name of this module."""
    prev = leaf.prev_sibling
    return prev is not None and prev.type == token.DOT


def keyword_name(leaf: Any) -> bool:
    """`x` in `f(x=1)`: a keyword, not a name."""
    parent = leaf.parent
    return (parent is not None and parent.type == syms.argument and parent.children[0] is leaf
            and len(parent.children) == 3 and parent.children[1].type == token.EQUAL)


_BINDING_PARENTS = frozenset({syms.funcdef, syms.classdef, syms.parameters, syms.typedargslist, syms.varargslist,
                              syms.tname, syms.for_stmt, syms.global_stmt, syms.import_as_name, syms.dotted_as_name,
                              syms.import_as_names, syms.dotted_as_names, syms.import_from, syms.import_name,
                              syms.comp_for, syms.except_clause, syms.with_stmt})


def assigned(leaf: Any) -> bool:
    """Whether this name leaf is bound here (a def, a parameter, an assignment target, an import...)."""
    if leaf.parent is not None and leaf.parent.type in _BINDING_PARENTS:
        return True
    return is_target(leaf)


def is_target(node: Any) -> bool:
    """Whether ``node`` stands left of an assignment's `=` (or `+=` ...): written, not read."""
    while node.parent is not None and node.parent.type != syms.file_input:
        parent = node.parent
        if parent.type == syms.expr_stmt:
            ops = [i for i, c in enumerate(parent.children) if isinstance(c, Leaf) and c.value.endswith("=")]
            return bool(ops) and parent.children.index(node) < ops[-1]
        if parent.type in (syms.suite, syms.simple_stmt):
            return False
        node = parent
    return False


def statement_of(node: Any) -> Any | None:
    """The simple statement whose whole expression is ``node`` (`f(x)` on a line of its own)."""
    parent = node.parent
    if parent is not None and parent.type == syms.simple_stmt and len(parent.children) == 2 \
            and parent.children[0] is node:
        return parent
    return None


def neutralize(stmt: Any, note: str) -> None:
    """Turn ``stmt`` into `pass  # was: <code> (<note>)`: valid wherever the statement stood, and the
    old code stays readable in place."""
    body = stmt.children[0]
    code = code_of(body)
    newline = stmt.children[1]
    comment = f"  # was: {code} ({note})"
    newline.prefix = comment + (" " + newline.prefix.lstrip() if newline.prefix.strip() else "")
    body.replace(Leaf(token.NAME, "pass", prefix=body.prefix))
