"""README / INSTALL prose: "tested with Theano 0.8.2", "Python 2.7", "Keras 1.2 or later", and the
`pip install` lines users are told to run."""

from __future__ import annotations

import re

from theanodoctor.scan import read_env
from theanodoctor.scan.files import RepoFile
from theanodoctor.scan.findings import Findings
from theanodoctor.scan.model import evidence

_NAMES = {"theano": "theano", "python": "python", "lasagne": "lasagne", "keras": "keras", "numpy": "numpy",
          "scipy": "scipy", "cuda": "cuda", "cudnn": "cudnn", "pymc3": "pymc3", "blocks": "blocks",
          "fuel": "fuel", "nolearn": "nolearn", "scikit-learn": "scikit-learn", "sklearn": "scikit-learn"}
_MENTION = re.compile(r"\b(theano|python|lasagne|keras|numpy|scipy|cuda|cudnn|pymc3|blocks|fuel|nolearn|"
                      r"scikit-learn|sklearn)\b[\s:(]*(?:version\s*|v\.?\s*|==\s*|>=\s*|=\s*)?(\d+(?:\.\d+){0,2})"
                      r"(\.x|\+)?(\s*(?:or\s+(?:later|newer|higher|above)|and\s+(?:above|later|up)|\+))?", re.I)
_CONTEXT = re.compile(r"\b(tested|works?|working|worked|developed|verified|requires?|required|requirements?|"
                      r"needs?|depend\w*|prerequisites?|install\w*|versions?|using|uses|used|compatible|"
                      r"written|built|run|runs|ran)\b", re.I)
# "tested with Theano 0.8.2" names the version that worked; "requires Theano 0.7" (or a
# dependency list) names the one of its day, a floor
_TESTED = re.compile(r"\b(tested|developed|verified|works?|worked|working|ran|written|built|using|used)\b", re.I)
_FLOOR = re.compile(r"\b(requires?|required|requirements?|needs?|depend\w*|prerequisites?)\b", re.I)
_COMMAND = re.compile(r"((?:pip[23]?|conda)\s+install\s[^`\n]*)")
_SECTION = re.compile(r"^(#+|\*\*)?\s*(requirements?|dependencies|prerequisites|installation|install|setup|"
                      r"environment)\b", re.I)
_HEADING = re.compile(r"^(#+\s|\S.*\n[=\-~^]{3,}$)")


def read_doc(file: RepoFile, text: str, out: Findings) -> None:
    in_section = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#") or (stripped.startswith("**") and stripped.endswith("**")):
            in_section = bool(_SECTION.match(stripped.lstrip("#* ")))
        where = evidence(file.rel, number, line)
        if "pip install" in line or "conda install" in line:
            for command in _COMMAND.findall(line):  # inside backticks or a code block
                read_env.read_commands(command, where, out, file.rel)
            continue
        if not (in_section or _CONTEXT.search(line)):
            continue
        for match in _MENTION.finditer(line):
            subject = _NAMES[match.group(1).lower()]
            version, open_ended = match.group(2), bool(match.group(3) == "+" or match.group(4))
            if subject == "python" and (not version.startswith(("2", "3"))
                                        or _other_major(line[match.end():], version)):
                continue
            if "." not in version and subject not in ("python", "cuda", "cudnn"):
                continue  # "Keras 2" is a major version at most; too vague to pin
            spec = _spec(subject, version, open_ended, line[:match.start()])
            out.constrain(subject, spec, "stated", where, f"stated in {file.rel}")


def _other_major(rest: str, version: str) -> bool:
    """"Python 2.7 or 3.4", "Python 2.7/3.5": a list of both majors pins neither."""
    other = re.match(r"\s*(?:,|/|or|and|\||-)\s*(?:python\s*)?(\d)(?:\.\d+)?", rest, re.I)
    return other is not None and other.group(1) != version[0]


def _spec(subject: str, version: str, open_ended: bool, before: str) -> str:
    """From the words before the mention: the nearest of "tested with ..." (that version) and
    "requires ..." (a floor) decides; Python versions are read as that minor version."""
    if open_ended:
        return f">={version}"
    exact = f"=={version}" if version.count(".") == 2 else f"=={version}.*"
    tested = [m.start() for m in _TESTED.finditer(before)]
    floor = [m.start() for m in _FLOOR.finditer(before)]
    if subject == "python" or (tested and (not floor or tested[-1] > floor[-1])):
        return exact
    return f">={version}"
