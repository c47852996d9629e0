"""Requirement strings as pip reads them: `name[extras] spec ; marker`, `-e git+URL#egg=name`,
`git+URL`, `-r other.txt`, and the arguments of `pip install` / `conda install` lines."""

from __future__ import annotations

import re
import shlex
from typing import NamedTuple

from packaging.requirements import InvalidRequirement
from packaging.requirements import Requirement as PipRequirement
from packaging.utils import canonicalize_name

_EGG = re.compile(r"[#&]egg=([A-Za-z0-9_.\-]+)")
_URL = re.compile(r"^(?:-e\s+|--editable\s+)?((?:git\+|hg\+|svn\+|bzr\+)?(?:https?|ssh|git|file)://\S+|git\+\S+)")
_REPO_NAME = re.compile(r"/([A-Za-z0-9_.\-]+?)(?:\.git)?(?:@[^/#]*)?(?:#.*)?$")
# Options of pip install whose next argument is not a requirement
_PIP_VALUE_OPTIONS = frozenset({"-i", "--index-url", "--extra-index-url", "-f", "--find-links", "-c", "--constraint",
                                "--target", "-t", "--prefix", "--root", "--trusted-host", "--src", "--cache-dir",
                                "--timeout", "--python-version", "--platform", "--log", "--proxy"})


class Parsed(NamedTuple):
    name: str  # canonical
    spec: str  # "" unpinned, a specifier, or a URL


def parse(text: str) -> Parsed | None:
    """One requirement (without a leading `-r`); None for what is not one."""
    text = text.split(" #", 1)[0].strip()
    if not text or text.startswith("#"):
        return None
    url = _URL.match(text)
    if url:
        link = url.group(1)
        egg = _EGG.search(link)
        name = egg.group(1) if egg else _name_from_url(link)
        return Parsed(canonicalize_name(name), link) if name else None
    if text.startswith("-"):
        return None
    if " @ " in text:  # PEP 508 direct reference: name @ URL
        name, link = text.split(" @ ", 1)
        return Parsed(canonicalize_name(name.split("[")[0].strip()), link.split(";")[0].strip())
    req: PipRequirement | None
    try:
        req = PipRequirement(text)
    except InvalidRequirement:
        req = _conda_style(text)
    if req is None:
        return None
    if req.marker is not None and not _may_apply(str(req.marker)):
        return None
    return Parsed(canonicalize_name(req.name), str(req.specifier))


def _name_from_url(link: str) -> str:
    hosted = re.search(r"(?:github\.com|gitlab\.com|bitbucket\.org)[/:][\w.\-]+/([\w.\-]+?)(?:\.git)?(?:[/@#]|$)", link)
    if hosted:
        return hosted.group(1)
    match = _REPO_NAME.search(link.split("#", 1)[0])
    return match.group(1) if match else ""


def _conda_style(text: str) -> PipRequirement | None:
    """`theano=0.8.2` (conda's one `=` means that version and its patch releases)."""
    match = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*=\s*([0-9][\w.]*?)(\.\*)?(=\S+)?", text)
    if not match:
        return None
    try:
        return PipRequirement(f"{match.group(1)}=={match.group(2)}.*")
    except InvalidRequirement:
        return None


def _may_apply(marker: str) -> bool:
    """Markers are kept unless they only apply to Windows or macOS (a Linux machine is the target)."""
    return not re.search(r"(sys_platform|platform_system|os_name)\s*==\s*['\"](win32|Windows|darwin|Darwin|nt)", marker)


def pip_install_args(command: str) -> list[str]:
    """The requirement arguments of every `pip install ...` in a shell command line."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        words = command.split()
    found: list[str] = []
    i = 0
    while i < len(words):
        if re.fullmatch(r"(\S*/)?pip[23]?(\.\d+)?", words[i]) and i + 1 < len(words) and words[i + 1] == "install":
            i += 2
            while i < len(words) and words[i] not in ("&&", ";", "||", "|"):
                word = words[i]
                if word in _PIP_VALUE_OPTIONS:
                    i += 1
                elif word in ("-r", "--requirement", "-e", "--editable"):
                    if word in ("-e", "--editable") and i + 1 < len(words):
                        found.append(words[i + 1])
                    i += 1
                elif not word.startswith("-") and word not in (".", "./"):
                    found.append(word)
                i += 1
        i += 1
    return found


def conda_install_args(command: str) -> list[str]:
    """The package arguments of `conda install ...` / `mamba install ...` in a shell command line."""
    match = re.search(r"\b(?:conda|mamba|micromamba)\s+install\s+(.*?)(?:&&|;|\|\||$)", command)
    if not match:
        return []
    words = match.group(1).split()
    skip_next = False
    found = []
    for word in words:
        if skip_next:
            skip_next = False
        elif word in ("-c", "--channel", "-n", "--name", "-p", "--prefix"):
            skip_next = True
        elif not word.startswith("-"):
            found.append(word.strip("'\""))
    return found
