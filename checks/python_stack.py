"""Theano flavour x Python x numpy: the combinations that really work (profiles/theano_compat.yaml)."""

from __future__ import annotations

from packaging.version import InvalidVersion, Version

from theanodoctor import kb_era, knowledge
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped
from theanodoctor.facts import Facts

from .common import dist_version, flavour, is_set, python_version, stage
from .numpy_pin import numpy_remedy


def _matches(spec: object, version: str) -> bool:
    if spec is None:
        return True
    try:
        return Version(version) in spec  # type: ignore[operator]
    except InvalidVersion:
        return False


def compat_hits(flav: str, python: str | None, numpy: str, theano: str | None = None) -> list[knowledge.CompatRule]:
    """The rules of ``flav`` that match this numpy and Python (every Python when it is unknown) and
    cover this release (``theano``; None: the rules without a release range)."""
    return [rule for rule in knowledge.compat_rules()
            if rule.flavour == flav and knowledge.applies(rule, theano)
            and (python is None or _matches(rule.python, python)) and _matches(rule.numpy, numpy)]


def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


@check("python-stack", "Theano, Python and numpy versions work together", area="python")
def python_stack(facts: Facts, options: Options) -> Outcome:
    if not stage(facts, "distributions"):
        return skipped("the target probe did not get as far as the installed packages")
    python = python_version(facts)
    flav = flavour(facts)
    if flav is None:
        blocked = [r for r in knowledge.compat_rules() if r.flavour == "Theano" and r.numpy is None
                   and r.result == "broken" and python and _matches(r.python, python)]
        if blocked:
            return error("neither Theano nor Theano-PyMC is installed, and Theano cannot be installed here",
                         cause=blocked[0].message.format(python=python), remedy=blocked[0].remedy,
                         details=(f"source: {blocked[0].source}",), data={"no_theano": True})
        return error("neither Theano nor Theano-PyMC is installed in this environment",
                     remedy="Install Theano 1.0.5 (`pip install Theano==1.0.5`) into it, or point "
                            "the doctor at the right environment with --python; `theanodoctor resolve "
                            "--from-machine` and `theanodoctor provision` build a new one.",
                     data={"no_theano": True})
    theano = dist_version(facts, flav) or "?"
    numpy = dist_version(facts, "numpy")
    if python is None or numpy is None:
        return skipped("Python or numpy version unknown (numpy is not installed?)")
    exe = stage(facts, "interpreter").get("executable") or "python"
    label = f"{flav} {theano} on Python {python} with numpy {numpy}"
    hits = [rule for rule in compat_hits(flav, python, numpy, theano)
            if not (rule.unless_flag and is_set(facts, rule.unless_flag.replace("__", ".")))]
    if hits:
        worst = "broken" if any(r.result == "broken" for r in hits) else "degraded"
        fmt = {"python": python, "numpy": numpy, "python_exe": exe}
        first = next(r for r in hits if r.result == worst)
        remedy, commands = first.remedy, tuple(c.format(**fmt) for r in hits for c in r.commands)
        concrete = numpy_remedy(facts) if first.numpy is not None and first.commands else None
        if concrete is not None:  # the same words theano-import uses for the error this causes
            remedy, commands = concrete.text, tuple(filter(None, [concrete.command]))
        return Outcome(
            "error" if worst == "broken" else "warn",
            f"{label}: {'does not work' if worst == 'broken' else 'partly broken'}",
            cause=" ".join(r.message.format(**fmt) for r in hits),
            remedy=remedy,
            commands=commands,
            details=tuple(f"source: {r.source}" for r in hits),
            fix_id="blas-ldflags" if first.unless_flag else ("env-packages" if first.commands else None),
        )
    verified = [v for v in knowledge.verified_stacks()
                if v.flavour == flav and v.theano == theano and v.python == _minor(python) and v.numpy == numpy]
    if verified:
        return ok(f"{label}: a verified combination", details=(f"source: {verified[0].source}",))
    release = kb_era.release(flav, theano)
    if (release and not release.reproduced and release.numpy_known
            and kb_era.vkey(numpy) > kb_era.vkey(release.numpy_known)):
        return Outcome("warn", f"{label}: numpy newer than any known to work with {release.label}",
                       cause=f"The newest numpy known to work with {release.label} is {release.numpy_known} "
                             f"({release.numpy_known_source}); numpy {numpy} is untested with it.",
                       remedy=f"If it misbehaves, install numpy {release.numpy_known}.",
                       details=(f"source: {release.where}",))
    minor = _minor(python)
    if release and not release.reproduced and minor not in {*release.python, *(p.python for p in release.pins)}:
        return Outcome("warn", f"{label}: Python {minor} is not one {release.label} is known to work on",
                       cause=f"{release.label} declares Python {', '.join(release.python)} "
                             f"({release.python_source}); it was not run on Python {minor} here.",
                       remedy="If it misbehaves, use a Python it declares (`theanodoctor resolve --theano "
                              f"{release.key}` pins one).",
                       details=(f"source: {release.where}",))
    return ok(f"{label}: no known problem (not a verified combination)")
