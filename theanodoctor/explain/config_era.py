"""Legacy code reading a Theano configuration variable or section that the installed release does
not register (profiles/theano_config_eras.yaml):

  AttributeError: 'TheanoConfigParser' object has no attribute 'scan'   (theano.config.scan.allow_gc = False
                                                                         on Theano 0.6: a newer Theano)
  AttributeError: 'SubObj' object has no attribute 'cnmem'              (theano.config.lib.cnmem on Theano
                                                                         1.0: an older one; the section
                                                                         comes from the code line)
Only the code's own use is judged: where the code line is in Theano's own files, its parts come
from different releases (another cause); the judgement itself is api_era.judge's."""

from __future__ import annotations

import re

from theanodoctor import kb_config_eras
from theanodoctor.kb_causes import Cause

from .api_era import Use, code_line, installed_versions, judge
from .context import Fact
from .result import Evidence, Finding

WATCH = ("object has no attribute",)
MESSAGE = re.compile(r"'(?P<owner>TheanoConfigParser|SubObj)' object has no attribute '(?P<name>\w+)'")
# a frame's header: Python's (`File "<path>", line N, in f`) or IPython's (`<path> in f(args)`, the numbered
# source lines below it); one of Theano's own files (an installed package, or a source checkout)
_FRAME = re.compile(r'File "[^"]*"|\S\.pyc? in [\w<]')
_THEANOS_OWN = re.compile(r'[/\\]theano[/\\][^"\s]*\.pyc?(?:"| in )')


def findings(watched: list[tuple[int, str, tuple[str, ...], str]], causes: dict[str, Cause],
             shown: dict[str, Fact]) -> list[tuple[Finding, int]]:
    installed = installed_versions(shown)
    for number, text, before, _ in watched:
        m = MESSAGE.search(text)
        if m is None:
            continue
        back, code = code_line(before)
        name = _name(m, before, back, code)
        era = kb_config_eras.lookup(name) if name else None
        if era is None:
            continue
        shown_code = (Evidence(number - back, code.strip()[:400]),) if code else ()
        use = Use(kb_config_eras.MODULE, name, shown_code + (Evidence(number, text.strip()[:400]),),
                  said=f"`theano.config.{name}`")
        finding = judge(use, era, installed, causes)
        if finding is not None:
            return [(finding, number)]
    return []


def _name(m: re.Match[str], before: tuple[str, ...], back: int, code: str) -> str | None:
    """The configuration name the code (``code``, ``back`` lines above the message) reads: the
    attribute, under the section the code line names for a section's object (`config.lib.cnmem`
    -> `lib.cnmem`); None for Theano's own code."""
    header = before[-back - 1] if 0 < back < len(before) else ""
    if not _FRAME.search(header):  # IPython's header is above the frame's numbered lines
        header = next((line for line in reversed(before) if _FRAME.search(line)), "")
    if _THEANOS_OWN.search(header):
        return None
    if m["owner"] == "TheanoConfigParser":
        return m["name"]
    section = re.search(rf"\bconfig((?:\.\w+)+)\.{m['name']}\b", code)
    return f"{section[1][1:]}.{m['name']}" if section else None
