"""Import statements: what each one binds (local name -> the module or object it names, before and
after porting), rewritten where every name it imports moves the same way."""

from __future__ import annotations

from typing import Any, NamedTuple

from fissix.pgen2 import token
from fissix.pygram import python_symbols as syms
from fissix.pytree import Leaf, Node

from theanodoctor.kb_port import Rule

from .model import Change, Manual
from .moves import manual, move
from .tree import assigned, code_of, dotted, dotted_text


class Binding(NamedTuple):
    old: str  # the full name the local name stood for
    new: str  # what it stands for after porting
    rule: Rule | None  # the module rule that moved it


class Imports(NamedTuple):
    bindings: dict[str, Binding]
    renames: dict[str, str]  # local name -> its new local name (a renamed import)
    changes: list[Change]
    manual: list[Manual]
    guarded: list[tuple[Any, str]]  # (import statement, module) of a manual-rule module: decided at the end


def _free(tree: Any, name: str) -> bool:
    return not any(leaf.type == token.NAME and leaf.value == name for leaf in tree.leaves())


def _renamable(tree: Any, old: str, new: str, import_leaf: Any) -> bool:
    """Renaming the local name `old` to `new` everywhere is safe: `new` is used nowhere and `old`
    is bound nowhere else."""
    if not _free(tree, new):
        return False
    return not any(leaf.type == token.NAME and leaf.value == old and leaf is not import_leaf and assigned(leaf)
                   for leaf in tree.leaves())


def _bind_import_name(node: Any, rules: tuple[Rule, ...], out: Imports) -> None:
    group = node.children[1]
    items = [c for c in group.children if c.type != token.COMMA] if group.type == syms.dotted_as_names else [group]
    for item in items:
        name_node = item.children[0] if item.type == syms.dotted_as_name else item
        alias = item.children[2].value if item.type == syms.dotted_as_name else None
        full = dotted_text(name_node)
        moved = move(full, rules)
        new = full
        if moved and moved.new:
            new = moved.new
            name_node.replace(dotted(new, name_node.prefix))
            out.changes.append(Change(moved.rule.id, node.get_lineno(), f"import {full} -> import {new}"))
        elif moved:
            out.manual.append(Manual(moved.rule.id, node.get_lineno(), code_of(node), moved.rule.says))
        elif manual(full, rules):
            out.guarded.append((node, full))
        if alias:
            out.bindings[alias] = Binding(full, new, moved.rule if moved else None)
        else:
            first, new_first = full.split(".")[0], new.split(".")[0]
            out.bindings.setdefault(first, Binding(first, first, None))
            out.bindings.setdefault(new_first, Binding(new_first, new_first, None))


def _from_items(node: Any) -> list[tuple[Any, Any | None]] | None:
    """(name leaf, alias leaf) of each imported name; None for a star import."""
    rest = [c for c in node.children[3:] if c.type not in (token.LPAR, token.RPAR)]
    if rest and rest[0].type == token.STAR:
        return None
    group = rest[0]
    items = [c for c in group.children if c.type != token.COMMA] if group.type == syms.import_as_names else [group]
    return [(i.children[0], i.children[2]) if i.type == syms.import_as_name else (i, None) for i in items]


def _unported_from(node: Any, fulls: list[str], moves: list[Any], rules: tuple[Rule, ...]) -> list[Manual]:
    """Why a `from` import that moved only in part stays as it is: per name without a same-meaning
    new name (its own manual row where it has one), or names bound for different modules."""
    line, code = node.get_lineno(), code_of(node)
    found = []
    lost = [(f, m) for f, m in zip(fulls, moves) if m and m.new is None]
    generic = []
    for full, moved in lost:
        listed = manual(full, rules)
        if listed and len(listed.old) > len(moved.rule.old):
            found.append(Manual(listed.id, line, code, listed.says))
        else:
            generic.append(full.rpartition(".")[2])
    for moved in {m.rule.id: m for m in moves if m}.values():
        if generic:
            what = (f"{', '.join(generic)} {'has' if len(generic) == 1 else 'have'} no same-meaning name in "
                    f"{moved.rule.new}: port {'it' if len(generic) == 1 else 'them'} by hand. {moved.rule.says}")
        elif not lost:
            what = f"these names move to different modules: split the import by hand. {moved.rule.says}"
        else:
            continue
        found.append(Manual(moved.rule.id, line, code, what))
    return found


def _bind_import_from(tree: Any, node: Any, rules: tuple[Rule, ...], out: Imports) -> None:
    module = node.children[1]
    if module.type not in (token.NAME, syms.dotted_name):
        return  # a relative import: the repository's own code
    parent, line = dotted_text(module), node.get_lineno()
    items = _from_items(node)
    if items is None:
        hit = move(parent, rules) or manual(parent, rules)
        if hit:
            rule = hit if isinstance(hit, Rule) else hit.rule
            out.manual.append(Manual(rule.id, line, code_of(node), "a star import: which names it brings is not "
                                     f"known here; import the names by hand. {rule.says}"))
        return
    fulls = [f"{parent}.{name.value}" for name, _ in items]
    moves = [move(f, rules) for f in fulls]
    for (name, alias), full, moved in zip(items, fulls, moves):
        local = (alias or name).value
        out.bindings[local] = Binding(full, moved.new if moved and moved.new else full, moved.rule if moved else None)
    if not any(moves):
        for full in fulls:
            listed = manual(full, rules)
            if listed:
                out.manual.append(Manual(listed.id, line, code_of(node), listed.says))
        return
    news = [m.new if m else None for m in moves]
    parents = {n.rpartition(".")[0] if n else None for n in news}
    if None in news or len(parents) != 1:
        out.manual.extend(_unported_from(node, fulls, moves, rules))
        for (name, alias), full in zip(items, fulls):  # nothing is rewritten: every name keeps its old meaning
            out.bindings[(alias or name).value] = Binding(full, full, None)
        return
    new_parent = parents.pop() or ""
    before = code_of(node)
    rules_hit = list(dict.fromkeys(m.rule.id for m in moves if m))
    if not new_parent:  # `from theano.compat import six` -> `import six`
        name, alias = items[0]
        if len(items) != 1:
            return
        as_text = f" as {alias.value}" if alias else ""
        tail = [Leaf(token.NAME, "as", prefix=" "), Leaf(token.NAME, alias.value, prefix=" ")] if alias else []
        node.replace(Node(syms.import_name, [Leaf(token.NAME, "import", prefix=node.prefix),
                                             dotted(str(news[0]), " "), *tail]))
        out.changes.append(Change(rules_hit[0], line, f"{before} -> import {news[0]}{as_text}"))
        return
    module.replace(dotted(new_parent, module.prefix))
    for (name, alias), new in zip(items, news):
        new_name = str(new).rpartition(".")[2]
        if new_name == name.value:
            continue
        old_name = name.value
        if alias is None and _renamable(tree, old_name, new_name, name):
            out.renames[old_name] = new_name  # bindings stay under the old name until the rename pass
            name.value = new_name
        elif alias is None:
            name.replace(Node(syms.import_as_name, [Leaf(token.NAME, new_name, prefix=name.prefix),
                                                    Leaf(token.NAME, "as", prefix=" "),
                                                    Leaf(token.NAME, old_name, prefix=" ")]))
        else:
            name.value = new_name
    out.changes.append(Change(", ".join(rules_hit), line, f"{before} -> {code_of(node)}"))


def read_imports(tree: Any, rules: tuple[Rule, ...]) -> Imports:
    out = Imports({}, {}, [], [], [])
    for node in list(tree.pre_order()):
        if node.type == syms.import_name:
            _bind_import_name(node, rules, out)
        elif node.type == syms.import_from:
            _bind_import_from(tree, node, rules, out)
    return out
