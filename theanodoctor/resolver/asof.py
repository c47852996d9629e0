"""Resolve what a repository leaves unpinned as of its date, with a real resolver.

pip 26.0 added ``--uploaded-prior-to``; with ``--python-version``, ``--platform``, ``--abi``,
``--only-binary=:all:``, ``--dry-run`` and ``--report`` a current pip resolves wheels for a target
Python it cannot run itself (2.7 included) without installing anything. uv's ``--exclude-newer``
would do the same, but uv refuses targets older than Python 3.6 ("Python <3.6 is not supported").

A package with no wheel for the target (many of that era's, Theano included, are source-only)
cannot be resolved that way: pip would have to build its metadata with this machine's Python,
which fails for setup scripts of that age. Such a package, when the repository names it, is
pinned to its newest release uploaded before the date (``pip index versions``, same cut-off);
its own dependencies come from the target's pip when the package is built."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from theanodoctor import proc

PIP_WITH_CUTOFF = Version("26.0")
INDEX = "https://pypi.org/simple"  # the index that carries upload times (PEP 700)
TIMEOUT = 300.0
MAX_MOVE_DAYS = 366  # a wheel that came years later belongs to another era: build that one from source
# pip: "Could not find a version that satisfies the requirement pyyaml (from keras) (from versions: none)"
_NO_WHEEL = re.compile(r"satisfies the requirement ([A-Za-z0-9._-]+)[^(\n]*(?:\(from ([A-Za-z0-9._-]+)[^)]*\) )?"
                       r"\(from versions: none\)")
_NO_DIST = re.compile(r"no matching distributions available for your environment:\s*\n\s+([A-Za-z0-9._-]+)")
_DEPENDS = re.compile(r"^\s+([A-Za-z0-9._-]+) \S+ depends on ([A-Za-z0-9._-]+)", re.M)
_MANYLINUX = ((5, "manylinux1"), (12, "manylinux2010"), (17, "manylinux2014"), (24, None), (27, None), (28, None))


class AsOfPin(NamedTuple):
    name: str
    version: str
    reason: str


class AsOf(NamedTuple):
    pins: tuple[AsOfPin, ...]
    tool: str              # "pip 26.3"
    problem: str | None    # why nothing was resolved (then pins is empty)

    @property
    def ok(self) -> bool:
        return self.problem is None


def pip_version(python: str = sys.executable) -> Version | None:
    done = proc.run([python, "-m", "pip", "--version"], 60.0)
    found = re.match(r"pip (\S+)", done.stdout) if done.ran and done.returncode == 0 else None
    try:
        return Version(found.group(1)) if found else None
    except InvalidVersion:
        return None


def cutoff(day: dt.date) -> str:
    """Everything uploaded during the repository's last day counts."""
    return (day + dt.timedelta(days=1)).strftime("%Y-%m-%dT00:00:00Z")


def target_options(python: str) -> list[str]:
    """pip's options for a CPython ``python`` ("2.7") on this machine's platform."""
    major, minor = (int(p) for p in python.split(".")[:2])
    abi = f"cp{major}{minor}" + ("mu" if major == 2 else "m" if (major, minor) < (3, 8) else "")
    options = ["--python-version", python, "--implementation", "cp", "--abi", abi]
    if sys.platform.startswith("linux"):
        machine = platform.machine()
        libc, glibc = platform.libc_ver()
        top = int(glibc.split(".")[1]) if libc == "glibc" and glibc.count(".") >= 1 else 17
        for minor_glibc, legacy in _MANYLINUX:
            if minor_glibc <= top:
                options += ["--platform", f"manylinux_2_{minor_glibc}_{machine}"]
                options += ["--platform", f"{legacy}_{machine}"] if legacy else []
    return options


def _pip(python: str, args: Sequence[str], timeout: float) -> proc.ProcResult:
    # --isolated: no pip.conf, no PIP_* variables (a find-links folder has no upload times)
    return proc.run([python, "-m", "pip", *args, "--isolated", "--disable-pip-version-check", "--no-input",
                     "--index-url", INDEX], timeout, keep=1 << 24)


def newest_before(name: str, spec: str, python: str, day: dt.date, timeout: float = TIMEOUT,
                  pip: str = sys.executable) -> str | None:
    """The newest release of ``name`` matching ``spec`` uploaded before the end of ``day``."""
    done = _pip(pip, ["index", "versions", name, "--json", "--uploaded-prior-to", cutoff(day),
                                 *target_options(python)], timeout)
    try:
        versions = json.loads(done.stdout).get("versions", []) if done.ran and done.returncode == 0 else []
    except ValueError:
        return None
    wanted = Requirement(f"{name}{spec}").specifier
    return next((v for v in versions if Version(v) in wanted), None)


def _requirement(line: str) -> Requirement | None:
    try:
        return Requirement(line)
    except InvalidRequirement:
        return None


def resolve_as_of(requirements: Sequence[str], python: str, day: dt.date, timeout: float = TIMEOUT,
                  pip_python: str = sys.executable) -> AsOf:
    """Exact pins for ``requirements`` (PEP 508 lines) on CPython ``python`` as of ``day``, by the pip
    of ``pip_python`` (the doctor's own)."""
    found = pip_version(pip_python)
    tool = f"pip {found}" if found else "pip"
    if found is None or found < PIP_WITH_CUTOFF:
        return AsOf((), tool, f"as-of resolution needs pip >= {PIP_WITH_CUTOFF} (--uploaded-prior-to); "
                              f"{pip_python} has {tool}: `{pip_python} -m pip install -U pip`")
    state = _State([r for r in requirements if _requirement(r) is not None], [], python, day, tool, timeout, pip_python)
    for _ in range(2 * len(state.wheels) + 8):
        done, report = _resolve(state.wheels, python, state.day, timeout, True, pip_python)
        if report is not None:
            why = f"resolved as of {state.day.isoformat()} by {tool} for Python {python}" + (
                f" ({', '.join(state.moved)} had no wheel for it by {day.isoformat()}: the first month with one)"
                if state.moved else "")
            pins = [AsOfPin(item["metadata"]["name"], item["metadata"]["version"], why) for item in report]
            return AsOf(tuple(pins + state.fixed), tool, None)
        problem = state.step(done)
        if problem:
            return AsOf((), tool, problem)
    return AsOf((), tool, "the resolution did not settle")


def first_wheel_day(line: str, python: str, day: dt.date, timeout: float = TIMEOUT,
                    pip: str = sys.executable) -> dt.date | None:
    """The first month after ``day`` by which ``line`` has a wheel for the target (None: never yet).
    numpy and scipy of early 2016 were source only on Linux then; their first manylinux wheels came later,
    and building them from source on a machine of today is what a new user should be spared."""
    today = dt.date.today()
    if not _resolve([line], python, today, timeout, False, pip)[1]:
        return None
    months = (today.year - day.year) * 12 + today.month - day.month
    low, high = 0, max(months, 1)  # low: no wheel yet; high: a wheel
    while high - low > 1:
        middle = (low + high) // 2
        if _resolve([line], python, _plus_months(day, middle), timeout, False, pip)[1]:
            high = middle
        else:
            low = middle
    return min(_plus_months(day, high), today)


def _plus_months(day: dt.date, months: int) -> dt.date:
    year, month = divmod(day.month - 1 + months, 12)
    return dt.date(day.year + year, month + 1, min(day.day, 28))


def _merged(lines: Sequence[str]) -> str | None:
    """One requirement line with every specifier the lines give for the same name."""
    reqs = [Requirement(r) for r in lines]
    if not reqs:
        return None
    spec = reqs[0].specifier
    for req in reqs[1:]:
        spec &= req.specifier
    return f"{reqs[0].name}{spec}"


@dataclass
class _State:
    wheels: list[str]         # the lines pip resolves from wheels
    fixed: list[AsOfPin]      # pinned around pip: source-only packages, and the packages needing them
    python: str
    day: dt.date              # the cut-off, moved on when a package had no wheel yet
    tool: str
    timeout: float
    pip: str                  # the interpreter whose pip resolves
    moved: list[str] = field(default_factory=list)

    def step(self, done: proc.ProcResult) -> str | None:
        """Take the source-only package pip stopped at out of its hands; a problem, or None."""
        when = self.day.isoformat()
        found = _missing(done.stdout + done.stderr)
        if found is None:
            tail = done.error or "\n".join(done.stderr.strip().splitlines()[-6:])
            return f"{self.tool} found no set of releases as of {when} for Python {self.python}: {tail}"
        name, parent = found
        later = first_wheel_day(_merged([r for r in self.wheels if _same(r, name)]) or name, self.python,
                                self.day, self.timeout, self.pip)
        if later is not None and (later - self.day).days <= MAX_MOVE_DAYS and name not in self.moved:
            self.day = later
            self.moved.append(name)
            return None
        if parent is None:
            return self._source_only(name, self._pop(name))
        line = self._pop(parent) or parent
        report = _resolve([line], self.python, self.day, self.timeout, False, self.pip)[1]
        if not report:
            return f"{parent} (which needs {name}, source only) has no wheel either as of {when}"
        meta = report[0]["metadata"]
        needed = [r for r in meta.get("requires_dist") or [] if _applies(r, self.python)]
        own = next((r for r in needed if _same(r, name)), name)
        self.wheels.extend(r for r in needed if not _same(r, name))
        self.fixed.append(AsOfPin(meta["name"], meta["version"], f"resolved as of {when} by {self.tool} for Python "
                                  f"{self.python} (its dependencies resolved beside it: {name} has no wheel)"))
        return self._source_only(name, own)

    def _pop(self, name: str) -> str | None:
        """Take every line for ``name`` out of pip's hands; one line with all their specifiers."""
        popped = [r for r in self.wheels if _same(r, name)]
        self.wheels[:] = [r for r in self.wheels if not _same(r, name)]
        return _merged(popped)

    def _source_only(self, name: str, line: str | None) -> str | None:
        req = _requirement(line or name)
        if req is None or any(_same(p.name, req.name) for p in self.fixed if "source only" in p.reason):
            return None if req is not None else f"cannot read the requirement {line!r}"
        version = newest_before(req.name, str(req.specifier), self.python, self.day, self.timeout, self.pip)
        if version is None:
            return f"no release of {req} was uploaded to PyPI before the end of {self.day.isoformat()}"
        self.fixed.append(AsOfPin(req.name, version, f"the newest release before the end of {self.day.isoformat()} "
                                  f"({self.tool}); source only, so its own dependencies come when it is built"))
        return None


def _missing(stderr: str) -> tuple[str, str | None] | None:
    """The package pip found no wheel of, and the package that needs it (None: asked for directly)."""
    direct = _NO_WHEEL.search(stderr)
    if direct:
        return direct.group(1), direct.group(2)
    # a conflict report: "keras 2.0.8 depends on pyyaml" ... "no matching distributions available ...: pyyaml"
    listed = _NO_DIST.search(stderr)
    if not listed:
        return None
    name = listed.group(1)
    parent = next((m.group(1) for m in _DEPENDS.finditer(stderr) if _same(m.group(2), name)), None)
    return name, parent


def _applies(line: str, python: str) -> bool:
    """A dependency that applies to the target: no extra, and its markers hold for that Python."""
    req = _requirement(line)
    if req is None:
        return False
    if req.marker is None:
        return True
    env = {"python_version": python, "python_full_version": f"{python}.0", "extra": "", "sys_platform": sys.platform,
           "platform_system": platform.system(), "platform_machine": platform.machine(), "os_name": os.name,
           "implementation_name": "cpython", "platform_python_implementation": "CPython"}
    try:
        return req.marker.evaluate(env)
    except Exception:  # an unknown marker variable: leave the dependency to the target's pip
        return False


def _same(line: str, name: str) -> bool:
    req = _requirement(line)
    return req is not None and canonicalize_name(req.name) == canonicalize_name(name)


def _resolve(lines: Sequence[str], python: str, day: dt.date, timeout: float, deps: bool,
             pip: str) -> tuple[proc.ProcResult, list[dict] | None]:  # type: ignore[type-arg]
    with tempfile.TemporaryDirectory(prefix="theanodoctor-asof-") as folder:
        reqs, out = os.path.join(folder, "requirements.txt"), os.path.join(folder, "report.json")
        with open(reqs, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        # not --quiet: pip names the package without a wheel only in its full conflict report
        done = _pip(pip, ["install", "--dry-run", "--ignore-installed", "--progress-bar", "off", "--report", out,
                          "--only-binary=:all:", "--uploaded-prior-to", cutoff(day),
                          *(() if deps else ("--no-deps",)), *target_options(python), "-r", reqs], timeout)
        if not (done.ran and done.returncode == 0 and os.path.isfile(out)):
            return done, None
        try:
            with open(out, encoding="utf-8") as handle:
                return done, list(json.load(handle).get("install", []))
        except (OSError, ValueError):
            return done, None
