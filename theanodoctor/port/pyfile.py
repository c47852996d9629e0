"""Port one Python file (2 or 3) through its lossless fissix tree: imports, references under moved
modules, calls whose arguments changed, removed calls, THEANO_FLAGS strings. Comments and
formatting outside the edited tokens are kept byte for byte."""

from __future__ import annotations

import re
from typing import Any

from fissix.pgen2 import token
from fissix.pygram import python_symbols as syms
from fissix.pytree import Leaf

from theanodoctor.kb_port import Rule
from theanodoctor.scan import py2tree

from .calls import plan_call, rewrite_call
from .flags import port_flags
from .imports import Binding, Imports, read_imports
from .model import Change, Manual, Ported
from .moves import call_rule, exact, manual, move
from .tree import (
    assigned,
    attr_trailer,
    attribute_name,
    code_of,
    is_attr_trailer,
    is_call_trailer,
    is_target,
    keyword_name,
    neutralize,
    statement_of,
)

_LITERAL = re.compile(r"(?P<prefix>[A-Za-z]*)(?P<quote>'''|\"\"\"|'|\")(?P<body>.*)(?P=quote)", re.S)
# Every rule's target contains one of these: an import names `theano` (or `pylearn2`), a flag
# string that changes holds gpu, cnmem or nvcc.
_WORDS = ("theano", "pylearn2", "gpu", "cnmem", "nvcc.")
REMOVED_NOTE = "removed by theanodoctor port: set the device in THEANO_FLAGS or .theanorc, e.g. device=cuda0"
DEVICE_RULE = "device-gpu"
# Theano rel-1.0.5 theano/configdefaults.py:132-137 (DeviceParam, allow_override=False) and
# theano/configparser.py:339-343 (the refusal).
DEVICE_SET = ("config.device is set here, after `import theano`: Theano 1.0.5 refuses that (\"Can't change the value "
              "of this config parameter after initialization!\"); set device=cuda in THEANO_FLAGS or .theanorc")
DEVICE_TEST = ("this compares config.device with the old back-end's 'gpu' names; after port the device is 'cuda' or "
               "'cudaN', so the test is never true: compare with 'cuda' (or test theano.gpuarray.pygpu_activated)")
_STOP = (syms.simple_stmt, syms.if_stmt, syms.while_stmt, syms.suite, syms.file_input)


def _callee(node: Any, call: Any) -> str:
    return "".join(str(c).strip() for c in node.children[:node.children.index(call)])


def _reach(new: str, local: str, bindings: dict[str, Binding]) -> list[str] | None:
    """The attributes after ``local`` that name ``new`` once the imports are ported."""
    base = bindings[local].new
    if new == base:
        return []
    return new[len(base) + 1:].split(".") if new.startswith(base + ".") else None


def _imported_only(tree: Any, name: str) -> bool:
    """``name`` is bound by imports alone in this file (never assigned, never a parameter)."""
    return not any(leaf.type == token.NAME and leaf.value == name and assigned(leaf) and not _in_import(leaf)
                   for leaf in tree.leaves())


def _in_import(leaf: Any) -> bool:
    node = leaf.parent
    while node is not None:
        if node.type in (syms.import_name, syms.import_from):
            return True
        node = node.parent
    return False


class _File:
    def __init__(self, tree: Any, rules: tuple[Rule, ...]) -> None:
        self.tree, self.rules = tree, rules
        self.imports: Imports = read_imports(tree, rules)
        self.changes: list[Change] = list(self.imports.changes)
        self.manual: list[Manual] = list(self.imports.manual)
        self.removed_under: set[str] = set()
        self.kept_under: set[str] = set()

    def note_manual(self, rule: Rule, node: Any, what: str | None = None) -> None:
        item = Manual(rule.id, node.get_lineno(), code_of(node)[:160], what or rule.says)
        if item not in self.manual:
            self.manual.append(item)

    def power(self, node: Any) -> None:
        first = node.children[0]
        if first.type != token.NAME or first.value not in self.imports.bindings:
            return
        binding = self.imports.bindings[first.value]
        attrs: list[Any] = []
        for trailer in node.children[1:]:
            if not is_attr_trailer(trailer):
                break
            attrs.append(trailer)
        names = [t.children[1].value for t in attrs]
        old = ".".join([binding.old, *names])  # what the code named before porting
        now = ".".join([binding.new, *names])  # what it names once its import is ported
        rest = node.children[1 + len(attrs):]
        call = rest[0] if rest and is_call_trailer(rest[0]) else None
        removed = exact(old, self.rules, "removed")
        if removed and call is not None and len(rest) == 1 and statement_of(node) is not None \
                and "\n" not in str(node).strip():  # one line becomes one line: the file keeps its lines
            self.changes.append(Change(removed.id, node.get_lineno(), f"{code_of(node)} -> pass (Theano 1.0.5 has no "
                                       "such call; the device is set in the config: see Device below)"))
            neutralize(statement_of(node), REMOVED_NOTE)
            self.removed_under.add(old)
            return
        self.kept_under.add(old)
        if removed and call is not None:
            self.note_manual(removed, node, f"this call spans lines or is part of an expression: take it out by "
                                            f"hand. {removed.says}")
            return
        if is_target(node):
            listed = manual(old, self.rules) or (moved.rule if (moved := move(old, self.rules)) else None)
            if listed:
                self.note_manual(listed, node, f"{old} is assigned here (a stand-in or a patch), not used: "
                                               f"port by hand. {listed.says}")
            return
        function = exact(old, self.rules, "function")
        if function and call is not None:
            self.function(node, attrs, function, call, old)
            return
        moved = move(old, self.rules)
        listed = manual(old, self.rules)
        if listed and (moved is None or len(listed.old) > len(moved.rule.old)):
            self.note_manual(listed, node)
            return
        if moved and moved.new is None:
            self.note_manual(moved.rule, node, f"{old.rpartition('.')[2]} has no same-meaning name in "
                                               f"{moved.rule.new}: port it by hand. {moved.rule.says}")
            return
        target = moved.new if moved and moved.new else now
        if moved and target != now:
            reach = _reach(target, first.value, self.imports.bindings)
            if reach is None:
                self.note_manual(moved.rule, node, f"its import is not ported (see the import above), so "
                                                   f"{target} is not reached from here. {moved.rule.says}")
                return
            self._set_attrs(node, attrs, reach)
            self.changes.append(Change(moved.rule.id, node.get_lineno(), f"{old} -> {target}"))
        if call is not None:
            self.arguments(node, call, (old, target))

    @staticmethod
    def _set_attrs(node: Any, attrs: list[Any], names: list[str]) -> None:
        for trailer in attrs:
            trailer.remove()
        for i, name in enumerate(names):
            node.insert_child(1 + i, attr_trailer(name))

    def function(self, node: Any, attrs: list[Any], rule: Rule, call: Any, old: str) -> None:
        """A moved function (the old conv.conv2d): reached through the reference's own import, else
        through another name this file imports and never rebinds (`T.nnet.conv2d`)."""
        first = node.children[0]
        bindings = self.imports.bindings
        reach = _reach(rule.new, first.value, bindings)
        local = first.value
        if reach is None:
            others = sorted((n for n in bindings if _reach(rule.new, n, bindings) is not None
                             and _imported_only(self.tree, n) and n not in self.imports.renames),
                            key=lambda n: -len(bindings[n].new))
            if not others:
                self.note_manual(rule, node, f"no import in this file reaches {rule.new}: import it and call it "
                                             f"here. {rule.says}")
                return
            local, reach = others[0], _reach(rule.new, others[0], bindings)
        what, why = plan_call(call, rule)
        if why or reach is None:
            self.note_manual(rule, node, f"left alone: {why}. {rule.says}")
            return
        before, line = _callee(node, call), node.get_lineno()
        if local != first.value:
            first.replace(Leaf(token.NAME, local, prefix=first.prefix))
        self._set_attrs(node, attrs, reach)
        rewrite_call(call, rule)
        self.changes.append(Change(rule.id, line, f"{before}(...) -> {_callee(node, call)}(...)"
                                   + (": " + "; ".join(what) if what else "")))

    def arguments(self, node: Any, call: Any, names: tuple[str, ...]) -> None:
        rule = call_rule(names, self.rules)
        if rule is None:
            return
        what, why = plan_call(call, rule)
        if why:
            self.note_manual(rule, node, f"left alone: {why}. {rule.says}")
        elif what and not (rule.same_positions and names[0] == names[1] and what[0].startswith("positional")
                           and len(what) == 1):  # a call already in the new form keeps its style
            rewrite_call(call, rule)
            self.changes.append(Change(rule.id, node.get_lineno(), f"{_callee(node, call)}(...): " + "; ".join(what)))

    def dynamic(self, leaf: Any) -> None:
        """A moved module with kept names used as a value (`getattr(downsample, name)`)."""
        binding = self.imports.bindings.get(leaf.value)
        if binding is None or binding.rule is None or binding.rule.names is None or binding.old != binding.rule.old:
            return
        parent = leaf.parent
        if parent is not None and parent.type == syms.power and parent.children[0] is leaf:
            return
        if parent is not None and parent.type in (syms.import_as_name, syms.dotted_as_name, syms.import_from,
                                                   syms.import_as_names, syms.import_name):
            return
        self.note_manual(binding.rule, leaf.parent or leaf, f"{leaf.value} ({binding.old}) is used as a value: "
                                                            f"which of its names are meant is not known here. "
                                                            f"{binding.rule.says}")

    def rename(self) -> None:
        renames = self.imports.renames
        for leaf in self.tree.leaves():
            if leaf.type == token.NAME and leaf.value in renames and not attribute_name(leaf) \
                    and not keyword_name(leaf):
                leaf.value = renames[leaf.value]

    def strings(self) -> None:
        wanted = {r.id for r in self.rules}
        for leaf in self.tree.leaves():
            if leaf.type != token.STRING:
                continue
            found = _LITERAL.fullmatch(leaf.value)
            if not found or "\\" in found.group("body") or py2tree.literal(leaf.value) != found.group("body"):
                continue
            ported = port_flags(found.group("body"), wanted)
            if ported is None:
                continue
            new, edits = ported
            leaf.value = found.group("prefix") + found.group("quote") + new + found.group("quote")
            for rule_id, what in edits:
                self.changes.append(Change(rule_id, leaf.lineno, f"THEANO_FLAGS string: {what}"))

    def device_uses(self, rule: Rule) -> None:
        """`theano.config.device` set after the import, or compared with 'gpu': no rewrite keeps
        their meaning (the device is read once, at import), so both are listed."""
        for node in self.tree.pre_order():
            if node.type != syms.power:
                continue
            names = [c.children[1].value for c in node.children[1:] if is_attr_trailer(c)]
            if not any(a == "config" and b == "device" for a, b in zip(names, names[1:])) \
                    and not (node.children[0].type == token.NAME and node.children[0].value == "config"
                             and names[:1] == ["device"]):
                continue
            if is_target(node):
                self.note_manual(rule, node.parent, DEVICE_SET)
                continue
            expr = node
            while expr.parent is not None and expr.parent.type not in _STOP:
                expr = expr.parent
            if any(leaf.type == token.STRING and (py2tree.literal(leaf.value) or "").startswith("gpu")
                   for leaf in expr.leaves()):
                self.note_manual(rule, expr, DEVICE_TEST)

    def guarded_imports(self) -> None:
        """`import theano.sandbox.cuda` (raises on Theano 1.0.5): taken out when the file used it
        only for removed calls; else listed."""
        for stmt_node, module in self.imports.guarded:
            used = {n for n in self.kept_under if n == module or n.startswith(module + ".")}
            gone = {n for n in self.removed_under if n.startswith(module + ".")}
            rule = manual(module, self.rules)
            stmt = statement_of(stmt_node)
            if gone and not (used - {module}) and stmt is not None and rule is not None:
                self.changes.append(Change(rule.id, stmt_node.get_lineno(), f"{code_of(stmt_node)} -> pass: "
                                           "the file used it only for calls that were taken out"))
                neutralize(stmt, "removed by theanodoctor port: Theano 1.0.5 refuses to import it")
            elif rule is not None:
                self.note_manual(rule, stmt_node)

    def run(self) -> None:
        self.rename()  # first, so what the report quotes is the code as it will read
        for old, new in self.imports.renames.items():
            self.imports.bindings[new] = self.imports.bindings.pop(old)
        for node in list(self.tree.pre_order()):
            if node.parent is None and node is not self.tree:
                continue  # replaced by an earlier rewrite
            if node.type == syms.power:
                self.power(node)
            elif node.type == token.NAME and not attribute_name(node) and not keyword_name(node):
                self.dynamic(node)
        self.strings()
        self.guarded_imports()
        device = next((r for r in self.rules if r.id == DEVICE_RULE), None)
        if device is not None:
            self.device_uses(device)


def port_source(text: str, rules: tuple[Rule, ...]) -> Ported | None:
    """The ported text with what changed and what is left; None when the text is not Python (2 or 3)
    that the lossless reader takes back byte for byte."""
    if not any(word in text for word in _WORDS):
        return Ported(text, (), ())  # nothing a rule reads can be in it: not worth the tree
    tree = py2tree.parse(text)
    added = not text.endswith("\n")
    if tree is None or str(tree) != text + ("\n" if added else ""):
        return None
    work = _File(tree, rules)
    work.run()
    new = str(tree)
    if added and new.endswith("\n"):
        new = new[:-1]
    manual_items = sorted(work.manual, key=lambda m: (m.line, m.rule))
    return Ported(new, tuple(sorted(work.changes, key=lambda c: c.line)), tuple(manual_items))
