"""Theano config settings: `.theanorc` files, and THEANO_FLAGS strings in code, shell scripts and
Dockerfiles (`device=gpu,floatX=float32,lib.cnmem=0.8`)."""

from __future__ import annotations

import configparser
import re

from theanodoctor.fixes.rc_text import RcText
from theanodoctor.scan.files import RepoFile
from theanodoctor.scan.findings import Findings, Setting
from theanodoctor.scan.model import Evidence, Problem, evidence

# A string is read as THEANO_FLAGS only when it names one of these (a bare `a=b,c=d` is not)
_KNOWN = re.compile(r"^(device|floatx|mode|optimizer|init_gpu_device|force_device|contexts|allow_gc|openmp|"
                    r"base_compiledir|compiledir|warn_float64|exception_verbosity|cxx|"
                    r"(lib|nvcc|gpuarray|dnn|cuda|blas|pycuda|cublas)\.[\w.]+)$")
_ITEM = re.compile(r"^[A-Za-z_][\w.]*=[^=]*$")
_IN_SHELL = re.compile(r"THEANO_FLAGS\s*[=:]?\s*[\"']?([^\"'\s]+)")
_KERAS_BACKEND = re.compile(r"KERAS_BACKEND\s*[=:]\s*[\"']?(theano|tensorflow|cntk)\b")


def flag_pairs(value: str) -> list[tuple[str, str]] | None:
    """The (option, value) items of a bare THEANO_FLAGS string; None when it is not one."""
    items = [i.strip() for i in value.strip().split(",") if i.strip()]
    if not items or not all(_ITEM.match(i) for i in items):
        return None
    pairs = [(k, v) for k, v in (i.split("=", 1) for i in items)]
    return pairs if any(_KNOWN.match(k.lower()) for k, _ in pairs) else None


def read_flag_string(value: str, where: Evidence, out: Findings) -> None:
    """A string from code: `THEANO_FLAGS=...` or the bare flags."""
    value = value.strip()
    if value.startswith("THEANO_FLAGS"):
        match = _IN_SHELL.match(value)
        value = match.group(1) if match else ""
    pairs = flag_pairs(value)
    if pairs:
        out.settings.extend(Setting(k.lower(), v, where) for k, v in pairs)


def shell_flags(line: str) -> str | None:
    """The value of `THEANO_FLAGS=...` on a shell, Makefile or Dockerfile line."""
    match = _IN_SHELL.search(line) if "THEANO_FLAGS" in line else None
    return match.group(1) if match else None


def read_script(file: RepoFile, text: str, out: Findings) -> None:
    """Shell scripts, Makefiles, Dockerfile ENV lines: `THEANO_FLAGS=...` and `KERAS_BACKEND=...`."""
    for number, line in enumerate(text.splitlines(), 1):
        found = shell_flags(line)
        if found:
            read_flag_string(found, evidence(file.rel, number, line), out)
        backend = _KERAS_BACKEND.search(line)
        if backend:
            out.keras_backend.append((backend.group(1), evidence(file.rel, number, line)))


def read_theanorc(file: RepoFile, text: str, out: Findings) -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        out.problems.append(Problem(file.rel, f"not a valid .theanorc ({exc.__class__.__name__}): "
                                              "Theano itself would refuse it at import"))
        return
    rc = RcText(text)  # fix's line-keeping reader says where each option stands
    for section in parser.sections():
        for option, value in parser.items(section):
            key = option if section == "global" else f"{section}.{option}"
            line = rc.find(section, option)
            where = (evidence(file.rel, line.at + 1, rc.lines[line.at]) if line else
                     evidence(file.rel, 1, f"[{section}] {option}"))
            out.settings.append(Setting(key.lower(), value.strip(), where))
