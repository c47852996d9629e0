"""Python 2 source read with fissix (lib2to3's maintained fork): a lossless tree of code that
Python 3's `ast` refuses (print statements, `except X, e`, backticks, `0777`, `ur''`)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable, Iterator
from typing import Any

# A fissix tree's (module or attribute name, keyword names, line) and string (value, line) items
Ref = tuple[str, tuple[str, ...], int]


@functools.cache
def _drivers() -> tuple[Any, Any]:
    from fissix import pygram, pytree
    from fissix.pgen2 import driver

    return (driver.Driver(pygram.python_grammar, convert=pytree.convert),
            driver.Driver(pygram.python_grammar_no_print_statement, convert=pytree.convert))


def parse(text: str) -> Any | None:
    """The tree, or None when the text is not Python 2 either. The grammar with the print
    statement first, then the one without (files with `from __future__ import print_function`)."""
    from fissix.pgen2.parse import ParseError
    from fissix.pgen2.tokenize import TokenError

    if not text.endswith("\n"):
        text += "\n"
    for driver in _drivers():
        try:
            return driver.parse_string(text)
        except (ParseError, TokenError, IndentationError, SyntaxError):
            continue
    return None


def _nodes(tree: Any, kind: str) -> Iterator[Any]:
    from fissix.pygram import python_symbols as syms

    wanted = getattr(syms, kind)
    for node in tree.pre_order():
        if node.type == wanted:
            yield node


def import_statements(tree: Any) -> Iterator[tuple[str, int]]:
    """Each import statement's source (Python 3 can parse those) and its line."""
    for kind in ("import_name", "import_from"):
        for node in _nodes(tree, kind):
            yield " ".join(str(node).split()), node.get_lineno()


def references(tree: Any) -> Iterator[Ref]:
    """Dotted names `a.b.c` as written (not resolved), with keyword names where called."""
    from fissix.pgen2 import token
    from fissix.pygram import python_symbols as syms

    for node in _nodes(tree, "power"):
        children = node.children
        if not children or children[0].type != token.NAME:
            continue
        parts = [children[0].value]
        keywords: tuple[str, ...] = ()
        for trailer in children[1:]:
            if trailer.type != syms.trailer:
                break
            first = trailer.children[0].value if trailer.children else ""
            if first == "." and len(trailer.children) == 2:
                parts.append(trailer.children[1].value)
                continue
            if first == "(":
                keywords = tuple(_keywords(trailer))
            break
        yield ".".join(parts), keywords, node.get_lineno()


def _keywords(trailer: Any) -> Iterator[str]:
    from fissix.pygram import python_symbols as syms

    arguments = trailer.children[1:-1]
    if arguments and arguments[0].type == syms.arglist:
        arguments = arguments[0].children
    for arg in arguments:
        if arg.type == syms.argument and len(arg.children) == 3 and str(arg.children[1]).strip() == "=":
            yield str(arg.children[0]).strip()


def strings(tree: Any) -> Iterator[tuple[str, int]]:
    """Every string literal's value and line."""
    from fissix.pgen2 import token

    for leaf in tree.leaves():
        if leaf.type == token.STRING:
            value = literal(leaf.value)
            if value is not None:
                yield value, leaf.lineno


def literal(source: str) -> str | None:
    """A Python 2 string literal's value (`ur''` read as `r''`); None for bytes or nonsense."""
    if source[:2].lower() == "ur":
        source = source[1:]
    try:
        value = ast.literal_eval(source)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def keyword_strings(tree: Any, keys: Iterable[str]) -> Iterator[tuple[str, list[tuple[str, int]]]]:
    """For each `key=...` argument in a call: the string literals inside its value."""
    from fissix.pgen2 import token

    wanted = set(keys)
    for node in _nodes(tree, "argument"):
        if len(node.children) == 3 and str(node.children[0]).strip() in wanted:
            found = [(v, leaf.lineno) for leaf in node.children[2].leaves()
                     if leaf.type == token.STRING and (v := literal(leaf.value)) is not None]
            yield str(node.children[0]).strip(), found


def try_lines(tree: Any) -> set[int]:
    """The lines of every `try:` statement (its body and its handlers)."""
    lines: set[int] = set()
    for node in _nodes(tree, "try_stmt"):
        leaves = list(node.leaves())
        if leaves:
            lines.update(range(leaves[0].lineno, leaves[-1].lineno + 1))
    return lines
