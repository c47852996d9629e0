"""What one module's top level binds, read with `ast` (for tools/api_eras.py).

Written for Python 2.7 and 3 alike: sources in Python 2 syntax (Theano 0.7's print statements)
are read by running this file under a Python 2.7 (JSON in on stdin, JSON out)."""


import ast
import json
import sys
import warnings

_FUNCTIONS = tuple(getattr(ast, n) for n in ("FunctionDef", "AsyncFunctionDef") if hasattr(ast, n))
_DEFS = _FUNCTIONS + (ast.ClassDef,)
_TRIES = tuple(getattr(ast, n) for n in ("Try", "TryExcept", "TryFinally") if hasattr(ast, n))


def absolute(module, level, here, package):
    if not level:
        return module or ""
    parts = here.split(".") if package else here.split(".")[:-1]
    parts = parts[:len(parts) - (level - 1)]
    return ".".join(parts + ([module] if module else []))


def bound(stmts):
    """The names a block binds directly (definitions, assignments, imports), nested blocks included."""
    names = set()
    for st in stmts:
        if isinstance(st, _DEFS):
            names.add(st.name)
        elif isinstance(st, ast.Assign):
            names.update(t.id for t in st.targets if isinstance(t, ast.Name))
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in st.names if a.name != "*")
        for block in ("body", "orelse", "finalbody"):
            if not isinstance(st, _DEFS) and isinstance(getattr(st, block, None), list):
                names |= bound(getattr(st, block))
        for handler in getattr(st, "handlers", []):
            names |= bound(handler.body)
    return names


def _parameters(function):
    """The names a call may pass by keyword, and whether it takes **kwargs (Python 2 and 3 trees)."""
    args = function.args
    names = [getattr(a, "arg", None) or getattr(a, "id", None) for a in args.args + getattr(args, "kwonlyargs", [])]
    return [n for n in names if n and n not in ("self", "cls")], args.kwarg is not None


def calls(tree):
    """What a call of each function, class and public method of the top level accepts (private
    helpers too: legacy code imported Keras' ``_obtain_input_shape``):
    {"f" / "Class.__init__" / "Class.method": [line of the def, [keyword names], takes **kwargs]}."""
    found = {}
    for st in tree.body:
        if isinstance(st, _FUNCTIONS) and not st.name.startswith("__"):
            found[st.name] = [st.lineno] + list(_parameters(st))
        elif isinstance(st, ast.ClassDef) and not st.name.startswith("__"):
            for item in st.body:
                if isinstance(item, _FUNCTIONS) and (item.name == "__init__" or not item.name.startswith("_")):
                    found[st.name + "." + item.name] = [item.lineno] + list(_parameters(item))
    return found


def _self_attributes(function, found):
    """The attributes a method sets on its first argument (``self.x = ...``, ``self.x += ...``, in
    tuples and nested blocks), with the line of the first."""
    args = function.args.args
    first = args and (getattr(args[0], "arg", None) or getattr(args[0], "id", None))
    if not first:
        return
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id == first:
            found.setdefault(node.attr, node.lineno)


def classes(tree):
    """What an instance of each top-level class has besides its bases': {"Class": [line of the class,
    [the last name of each base], {attribute: line}]}, the attributes being the names its body binds
    (methods, class attributes) and those its methods set on ``self``."""
    found = {}
    for st in tree.body:
        if not isinstance(st, ast.ClassDef):
            continue
        bases = [b.attr if isinstance(b, ast.Attribute) else b.id for b in st.bases
                 if isinstance(b, (ast.Attribute, ast.Name))]
        attributes = {}
        for item in st.body:
            if isinstance(item, _FUNCTIONS):
                attributes.setdefault(item.name, item.lineno)
                _self_attributes(item, attributes)
        for name in bound(st.body):  # class attributes: cited at the class
            attributes.setdefault(name, st.lineno)
        found[st.name] = [st.lineno, bases, dict((n, line) for n, line in attributes.items()
                                                  if not (n.startswith("__") and n.endswith("__")))]
    return found


def walk(source, here, package):
    """names: name -> line; stars: [[module, line of a condition or 0]]; froms: name -> [module,
    name] (what `from module import name` bound); all: the literal __all__ or None; raises: the top
    level raises unconditionally; conditional: name -> line of the `if` it is bound (or deleted) under;
    defs: the names its `def` and `class` statements bind; calls: what each top-level function, class
    and method accepts by keyword (``calls``); classes: what the instances of each top-level class
    have (``classes``)."""
    out = {"names": {}, "stars": [], "froms": {}, "all": None, "raises": False, "conditional": {}, "defs": []}

    def bind(name, line, condition):
        if name not in out["names"]:
            out["names"][name] = line
            if condition:
                out["conditional"][name] = condition

    def targets(node, line, condition):
        if isinstance(node, ast.Name):
            bind(node.id, line, condition)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for elt in node.elts:
                targets(elt, line, condition)

    def body(stmts, top_level, condition):
        for st in stmts:
            if isinstance(st, _DEFS):
                bind(st.name, st.lineno, condition)
                out["defs"].append(st.name)
            elif isinstance(st, ast.Assign):
                for target in st.targets:
                    targets(target, st.lineno, condition)
                    if isinstance(target, ast.Name) and target.id == "__all__":
                        try:
                            out["all"] = [str(v) for v in ast.literal_eval(st.value)]
                        except ValueError:
                            pass
            elif getattr(ast, "AnnAssign", None) and isinstance(st, ast.AnnAssign):
                targets(st.target, st.lineno, condition)
            elif isinstance(st, ast.Delete):  # `del X` under a condition: X exists only sometimes
                for target in st.targets:
                    if isinstance(target, ast.Name):
                        out["conditional"].setdefault(target.id, condition or st.lineno)
            elif isinstance(st, ast.ImportFrom) and st.module != "__future__":
                # which of these are the project's own (Python 2 imports `from nnet import *`
                # relative to the package) is decided once every module is known
                source = absolute(st.module, st.level, here, package)
                for alias in st.names:
                    if alias.name == "*":
                        out["stars"].append([source, condition])
                    else:
                        bind(alias.asname or alias.name, st.lineno, condition)
                        out["froms"].setdefault(alias.asname or alias.name, [source, alias.name])
            elif isinstance(st, ast.Import) and package:
                for alias in st.names:
                    bind(alias.asname or alias.name.split(".")[0], st.lineno, condition)
            elif isinstance(st, ast.Raise) and top_level:
                out["raises"] = True
            elif isinstance(st, ast.If):
                body(st.body, False, condition or st.lineno)
                body(st.orelse, False, condition or st.lineno)
                if not condition:  # bound in both branches (`if PY3: ... else: ...`): always bound
                    for name in bound(st.body) & bound(st.orelse):
                        if out["conditional"].get(name) == st.lineno:
                            del out["conditional"][name]
            elif isinstance(st, _TRIES):  # try/except ImportError: a fallback, not a condition
                body(st.body, False, condition)
                for handler in getattr(st, "handlers", []):
                    body(handler.body, False, condition)
                body(getattr(st, "orelse", []), False, condition)
                body(getattr(st, "finalbody", []), False, condition)
            elif isinstance(st, ast.With):
                body(st.body, False, condition)

    with warnings.catch_warnings():  # old sources' invalid escapes are not this reader's business
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    body(tree.body, True, 0)
    out["calls"] = calls(tree)
    out["classes"] = classes(tree)
    return out


def main():
    results = []
    for source, here, package in json.load(sys.stdin):
        try:
            results.append(walk(source, here, package))
        except SyntaxError:
            results.append(None)
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
