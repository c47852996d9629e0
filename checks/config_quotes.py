"""Quoted config values: Theano's config reader keeps quote marks as part of the value."""

from __future__ import annotations

from theanodoctor.engine import Options, Outcome, check, error, ok
from theanodoctor.facts import Facts

from .common import and_more
from .config_files import entries, parsed, place
from .config_keys import registry


def quoted(value: str) -> bool:
    return len(value) >= 2 and value[0] == value[-1] and value[0] in "'\""


@check("theanorc-quoted", "No config value is wrapped in quotes", area="config")
def theanorc_quoted(facts: Facts, options: Options) -> Outcome:
    files = parsed(facts)
    if isinstance(files, Outcome):
        return files
    reg = registry(facts)
    found = [place(str(rc.get("path")), sect, option, value) for rc in files for sect, option, value in entries(rc)
             if quoted(value) and (reg.lookup(sect, option) or not reg.complete)]
    if not found:
        return ok("no quoted values")
    return error(f"{found[0]}: the quotes are part of the value{and_more(found)}",
                 cause="Python's configparser, which Theano reads config files with, keeps quote marks as part "
                       "of the value: a quoted `ldflags` fails the first compiled computation (`invalid token "
                       "\"'-L...\" in ldflags_str`), a quoted `cxx` fails `import theano` (`No such file or "
                       "directory: '\"g++\"'`), a quoted enum value is refused at import (reproduced by "
                       "tests/test_config_build.py).",
                 remedy="Remove the quotes (`ldflags = -L/usr/lib -lblas`); a value runs to the end of its line.",
                 details=tuple(found))
