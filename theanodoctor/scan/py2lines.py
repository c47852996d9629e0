"""A fast way through Python 2 source: rewrite its Python-2-only statement forms line by line
(print and exec statements, `except X, e`, `raise E, msg`, backticks, `0777`, `10L`, `ur''`, `<>`)
so that Python 3's `ast` reads it, line numbers unchanged. The copy is only read, never written
back; a file it cannot bring to parse goes to the lossless fissix parser (py2tree)."""

from __future__ import annotations

import re

_PRINT = re.compile(r"^(\s*)print\b(?!\s*[(=.\[])\s*(>>\s*([^,]+),?)?(.*)$")
_EXEC = re.compile(r"^(\s*)exec\b(?!\s*\()\s+(.+?)(\s+in\s+.+)?$")
_EXCEPT = re.compile(r"^(\s*)except\s+([^,:]+?)\s*,\s*([A-Za-z_]\w*)\s*:")
_RAISE = re.compile(r"^(\s*)raise\s+([\w.]+)\s*,\s*(.+)$")
_BACKTICK = re.compile(r"`([^`\n]*)`")
_OCTAL = re.compile(r"(?<![\w.])0([0-7]+)(?![\w.])")
_LONG = re.compile(r"(?<![\w.])(\d+)[lL](?!\w)")
_UR = re.compile(r"(?<![\w])[uU]([rR])(?=['\"])")


_KEYWORDS = ("print", "exec", "except", "raise")


def repair(text: str) -> str:
    if "`" in text:
        text = _BACKTICK.sub(r"repr(\1)", text)
    text = _UR.sub(r"\1", _LONG.sub(r"\1", _OCTAL.sub(r"0o\1", text.replace("<>", "!="))))
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith(_KEYWORDS):
            out.append(lines[i])
            i += 1
            continue
        code, comment = _split_comment(lines[i])
        match = _PRINT.match(code)
        if match and _open(code):  # a print statement over several lines: one call over them
            end = i
            while end + 1 < len(lines) and _open("\n".join(_split_comment(x)[0] for x in lines[i:end + 1])):
                end += 1
            last_code, last_comment = _split_comment(lines[end])
            out.append(_fix(code.replace("print", "print(", 1).rstrip().rstrip("\\") + comment))
            out.extend(_fix(_split_comment(x)[0].rstrip().rstrip("\\")) for x in lines[i + 1:end])
            if end > i:
                out.append(_fix(last_code.rstrip().rstrip(",")) + ")" + last_comment)
            else:
                out[-1] = out[-1] + ")"
            i = end + 1
            continue
        out.append(_line(code, comment))
        i += 1
    return "\n".join(out)


def _open(code: str) -> bool:
    """Whether the code so far leaves a bracket open or ends with a backslash (strings ignored)."""
    bare = _strip_strings(code)
    depth = sum(bare.count(c) for c in "([{") - sum(bare.count(c) for c in ")]}")
    return depth > 0 or code.rstrip().endswith("\\")


def _strip_strings(code: str) -> str:
    return re.sub(r"(\"\"\"|'''|\"|')(?:\\.|(?!\1).)*?\1", "", code, flags=re.S)


def _fix(code: str) -> str:
    return _line(code, "")


def _line(code: str, comment: str) -> str:
    match = _PRINT.match(code)
    if match and not code.rstrip().endswith("\\"):
        indent, _, target, rest = match.groups()
        args = rest.strip().rstrip(",")
        code = f"{indent}print({args}{', ' if args and target else ''}{'file=' + target if target else ''})"
    elif (match := _EXEC.match(code)) and not code.rstrip().endswith("\\"):
        code = f"{match.group(1)}exec({match.group(2)})"
    elif match := _EXCEPT.match(code):
        code = f"{match.group(1)}except {match.group(2)} as {match.group(3)}:" + code[match.end():]
    elif (match := _RAISE.match(code)) and not code.rstrip().endswith(("\\", ",")):
        code = f"{match.group(1)}raise {match.group(2)}({match.group(3)})"
    return code + comment


def _split_comment(line: str) -> tuple[str, str]:
    """The code before a `#` that is outside string quotes on this line, and the comment."""
    if "#" not in line:
        return line, ""
    quote = ""
    i = 0
    while i < len(line):
        char = line[i]
        if quote:
            if char == "\\":
                i += 1
            elif line.startswith(quote, i):
                i += len(quote) - 1
                quote = ""
        elif char in "'\"":
            quote = line[i:i + 3] if line[i:i + 3] in ('"""', "'''") else char
            i += len(quote) - 1
        elif char == "#":
            return line[:i], line[i:]
        i += 1
    return line, ""
