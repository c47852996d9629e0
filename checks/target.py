"""Did the target interpreter answer the probe at all?"""

from __future__ import annotations

from theanodoctor.engine import Options, Outcome, check, error, ok
from theanodoctor.facts import Facts, dig, section

from .common import stage


@check("target-probe", "The target Python answers the probe", area="target")
def target_probe(facts: Facts, options: Options) -> Outcome:
    target = section(facts, "target")
    status = target.get("status")
    where = target.get("python") or "the target interpreter"
    if status == "ok":
        interp = stage(facts, "interpreter")
        kind = "conda env" if interp.get("is_conda") else "venv" if interp.get("is_venv") else "install"
        details = []
        extra = target.get("extra_stdout") or ""
        if extra.strip():
            details.append(f"it printed {len(extra)} characters outside the probe's answer (kept)")
        return ok(f"Python {interp.get('version', '?')} ({interp.get('bits', '?')}-bit {kind}) at {where}",
                  details=tuple(details))
    if status == "timeout":
        return Outcome("timeout", f"{where} did not answer within the timeout and was stopped",
                       cause=target.get("error") or "",
                       remedy="Run `python -c \"import theano\"` in that environment to see where it hangs; "
                              "a stale compile lock is a common cause (`theano-cache unlock`).")
    if status in ("skipped", "missing", None):
        looked = dig(section(facts, "candidates"), "candidates", default=[])
        return error(
            "no Python environment with Theano or Theano-PyMC was found"
            + (f" among the {len(looked)} interpreters looked at" if looked else ""),
            remedy="If one exists elsewhere, point the doctor at it: `theanodoctor check --python PATH` "
                   "(an interpreter, a venv or a conda env folder). To build one: `theanodoctor resolve "
                   "--from-machine` pins a stack that works on this machine, and `theanodoctor provision` "
                   "with the same options builds it (e.g. `theanodoctor provision --profile cpu-py37`).",
            details=tuple(f"looked at {c.get('python')} ({c.get('source')})" for c in looked),
            data={"no_theano": True},
        )
    return Outcome("crash", f"the probe could not run in {where}",
                   cause=target.get("error") or f"probe status {status!r}",
                   remedy="Check that the path is a working Python interpreter (2.7 or 3.x).")
