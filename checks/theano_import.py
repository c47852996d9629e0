"""Did ``import theano`` work in the target, and if not, which known failure was it?"""

from __future__ import annotations

from theanodoctor.diagnose import diagnose
from theanodoctor.engine import Options, Outcome, check, error, ok, skipped
from theanodoctor.facts import Facts, section

from .common import flavour, probe_ran, stage
from .numpy_pin import numpy_remedy


def failure_text(result: dict) -> str:
    err = result.get("error") or {}
    lines = [f"{err.get('type', '')}: {err.get('message', '')}"]
    lines += _notable(result)
    return "\n".join(lines)


# Causes that are "this numpy is too new for Theano": their remedy is the concrete numpy pin.
NUMPY_TOO_NEW = frozenset({"numpy-bool-alias", "numpy2-c-api"})

# Printed by every Cython extension built against an older numpy; harmless and never shown to
# users by Python's default filters, so not worth a line in the report.
_NOISE = ("numpy.ufunc size changed", "numpy.dtype size changed")


def _notable(result: dict) -> list[str]:
    lines = [str(line).splitlines()[0] for line in result.get("log", []) if str(line).strip()]
    for w in result.get("warnings", []):
        w = w if isinstance(w, dict) else {"message": str(w)}
        text = str(w.get("message", ""))
        if not text.startswith(_NOISE):
            lines.append(f"{w.get('category', 'Warning')}: {text}")
    return list(dict.fromkeys(lines))[:10]


def _interrupted(target: dict) -> Outcome:
    """`import theano` itself killed or hung the interpreter: a finding about the environment."""
    if target.get("status") == "timeout":
        return Outcome("timeout", "`import theano` did not finish within the timeout",
                       cause=target.get("error") or "",
                       remedy="A compile lock held by another process makes Theano wait (`Waiting for existing "
                              "lock by process ...`); a first import also compiles C modules. Retry with a longer "
                              "--timeout, or run `python -c \"import theano\"` there to watch it.")
    how = f"killed by {target['signal']}" if target.get("signal") else f"exit code {target.get('returncode')}"
    return error(f"`import theano` crashed the interpreter ({how})",
                 cause="A native extension loaded during the import crashed: typically a compiled module built "
                       "against another numpy or Python, a broken BLAS/MKL, or a corrupt compile cache.",
                 remedy="Run `python -X faulthandler -c \"import theano\"` in that environment to see where; "
                        "if it is in a compiled module, clear the compile cache (`theano-cache clear`).",
                 details=(target.get("error") or "",))


def _unreadable_config(facts: Facts, err: dict) -> str | None:
    """`import theano` failed inside configparser, and a config file Theano reads fails to decode
    or parse: that file is the cause (the config checks name what is wrong with it)."""
    if not any("configparser" in str(f.get("file")) for f in err.get("frames", []) if isinstance(f, dict)):
        return None
    for rc in section(facts, "theanorc").get("files") or []:
        parse = rc.get("parse") if isinstance(rc, dict) else None
        if isinstance(parse, dict) and rc.get("exists") and parse.get("ok") is False:
            return (f"Theano's config reader failed on {rc.get('path')}: {parse.get('error_type')}: "
                    f"{parse.get('error')}")
    return None


@check("theano-import", "`import theano` works in the target", area="python")
def theano_import(facts: Facts, options: Options) -> Outcome:
    target = section(facts, "target")
    if target.get("interrupted_stage") == "theano_import":
        return _interrupted(target)
    if not probe_ran(facts):
        return skipped("the target probe did not run")
    if flavour(facts) is None:
        return skipped("Theano is not installed (see python-stack)")
    result = stage(facts, "theano_import")
    if not result:
        return skipped("the probe did not reach `import theano`")
    if result.get("ok"):
        elapsed = result.get("elapsed_s")
        took = f" in {elapsed:.2f} s" if isinstance(elapsed, (int, float)) else ""
        return ok(f"{flavour(facts)} {result.get('version', '?')} imports{took}",
                  details=tuple(_notable(result)))
    err = result.get("error") or {}
    message = str(err.get("message") or "").strip()
    headline = f"{err.get('type', 'Error')}: {message.splitlines()[0] if message else ''}"
    frames = tuple(
        f"{f.get('file')}:{f.get('line')} in {f.get('function')}" for f in err.get("frames", [])[-3:]
        if isinstance(f, dict)
    )
    known = diagnose(failure_text(result))
    unreadable = _unreadable_config(facts, err) if known is None else None
    if unreadable:
        return error(f"import theano fails: {headline}", cause=unreadable,
                     remedy="Make that file a UTF-8 text file Theano can parse, or move it away: theanorc-encoding "
                            "and theanorc-parse say what is wrong with it.", details=frames)
    if known is None:
        return error(f"import theano fails: {headline}",
                     cause="not a failure this doctor knows yet",
                     remedy="Run `theanodoctor report` and include it when asking for help.",
                     details=frames)
    remedy = known.remedy
    commands: tuple[str, ...] = ()
    concrete = numpy_remedy(facts) if known.id in NUMPY_TOO_NEW else None
    if concrete is not None:  # the remedy python-stack gives for the same cause, word for word
        remedy, commands = concrete.text, tuple(filter(None, [concrete.command]))
    return error(f"import theano fails: {headline}", cause=known.cause, remedy=remedy, fix_id=known.fix,
                 commands=commands, details=frames + (f"known failure: {known.id} (source: {known.source})",))
