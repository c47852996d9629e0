"""`theanodoctor fix`: plan repairs from the findings, show them, apply them through the
journal, re-check, and undo on request."""

from __future__ import annotations

import re
import sys
from typing import Any

import click

from theanodoctor.clikit import Failure, emit, format_option, json_doc, note, python_option, style, timeout_option

FIX_EXIT_CODES_HELP = """\b
Exit codes:
  0  the plan was applied and no blocking error is left (or --history)
  1  a blocking error is left (one no repair covers, or one whose commands are
     only printed), an action was refused or failed (a file changed since the
     plan, a live compile lock, another fix run holds the lock), or an undo left
     something; --dry-run exits 1 too when its plan would leave an error
  2  usage error (bad option, unknown fix id or --cuda version, no --yes
     without a terminal to ask on)
  3  the doctor or a probe failed
  130  stopped by Ctrl-C (143: SIGTERM, 129: SIGHUP); nothing it started is left running
"""


def _cuda_kit(facts: Any, wanted: str) -> dict[str, Any]:
    from theanodoctor.checks.cuda_toolkits import kit_label, toolkits

    if not re.fullmatch(r"\d+\.\d+", wanted):
        raise click.BadParameter(f"{wanted!r} is not a CUDA version like 10.2", param_hint="--cuda")
    kits = toolkits(facts)
    found = [k for k in kits if k.get("version") == wanted]
    if not found:
        have = ", ".join(kit_label(k) for k in kits) or "no CUDA toolkit at all"
        raise Failure(f"CUDA {wanted} was not found; found: {have}. Install the CUDA {wanted} toolkit first "
                      f"(`theanodoctor resolve --cuda {wanted}` lists the driver, cuDNN and compiler it needs); "
                      "`fix` never installs a toolkit.", 2)
    return found[0]


def _facts(python_spec: str | None, snapshot: str | None, timeout: float) -> tuple[Any, str | None, Any]:
    from theanodoctor.facts import Facts

    if snapshot:
        return Facts.load(snapshot), None, None
    from theanodoctor.gather import Pending, select_target

    python, candidates = select_target(python_spec)
    return Pending(python, candidates, probe_timeout=timeout).wait(), python, candidates


def _judge(facts: Any) -> tuple[Any, ...]:
    from theanodoctor import engine

    return tuple(engine.run_checks(facts, engine.all_checks()))


def _confirm() -> bool:
    if not sys.stdin.isatty():
        return False
    return click.confirm("Apply this plan?", default=False, err=True)


def _finish(fmt: str, doc: dict[str, Any], code: int) -> None:
    if fmt == "json":
        emit(json_doc({**doc, "exit_code": code}))
    sys.exit(code)


def _history(fmt: str) -> None:
    from theanodoctor.render.fix import render_history
    from theanodoctor.repair.journal import list_runs
    from theanodoctor.repair.state import state_dir

    runs = list_runs()
    if fmt == "json":
        emit(json_doc({"state_dir": state_dir(), "runs": [r.to_dict() for r in runs], "exit_code": 0}))
    else:
        emit(render_history(runs, style()))


def _undo(run_id: str, fmt: str) -> None:
    from theanodoctor.render.fix import render_undo
    from theanodoctor.repair.lock import LockBusy, RunLock
    from theanodoctor.repair.state import state_dir
    from theanodoctor.repair.undo import UnknownRun, latest_run, undo_run

    run_id = run_id or latest_run() or ""
    if not run_id:
        raise Failure("no fix run to undo (see `theanodoctor fix --history`)", 2)
    try:
        with RunLock(state_dir()):
            results = undo_run(run_id)
    except UnknownRun as exc:
        raise Failure(str(exc), 2) from exc
    except LockBusy as exc:
        raise Failure(str(exc), 1, "busy") from exc
    code = 0 if all(r.status in ("restored", "removed", "nothing", "not-undoable") for r in results) else 1
    if fmt == "text":
        emit(render_undo(run_id, results, style()))
    _finish(fmt, {"undo": run_id, "steps": [r.to_dict() for r in results]}, code)


def _apply(plan: Any, python: str | None, fmt: str) -> tuple[str, list[Any]]:
    from theanodoctor.render.fix import render_steps
    from theanodoctor.repair.apply import apply_actions
    from theanodoctor.repair.journal import Journal, list_runs
    from theanodoctor.repair.lock import LockBusy, RunLock
    from theanodoctor.repair.state import new_run_id, state_dir

    try:
        with RunLock(state_dir()):
            for old in list_runs():
                if old.status == "interrupted":
                    note(f"fix run {old.run_id} was interrupted part-way: `theanodoctor fix --undo {old.run_id}` "
                         "takes it back; this run plans afresh from the files as they are")
            journal = Journal(new_run_id())
            journal.start([a.to_dict() for a in plan.applicable], python)
            steps = apply_actions(list(plan.actions), journal)
    except LockBusy as exc:
        raise Failure(str(exc), 1, "busy") from exc
    if fmt == "text":
        emit(render_steps(journal.run_id, steps, style()))
    return journal.run_id, steps


def _after(python: str | None, candidates: Any, before: tuple[Any, ...], ids: list[str], timeout: float
           ) -> tuple[list[dict[str, Any]], tuple[Any, ...] | None]:
    """Re-probe the target and re-run the checks: the affected ones before and after, and the
    whole new judgement (None without a target to probe)."""
    if python is None:
        return [], None
    from theanodoctor.gather import Pending

    judged = _judge(Pending(python, candidates, probe_timeout=timeout).wait())
    now = {r.id: r for r in judged}
    rows = []
    for result in before:
        if result.id in ids and result.id in now:
            after = now[result.id]
            rows.append({"id": result.id, "before": result.status, "after": after.status,
                         "message": after.outcome.message})
    return rows, judged


def _blocking_doc(blocking: list[Any]) -> list[dict[str, Any]]:
    return [{"id": r.id, "message": r.outcome.message, "fix_id": r.outcome.fix_id} for r in blocking]


def _say_blocking(fmt: str, blocking: list[Any], plan: Any, after: bool) -> None:
    if fmt == "text" and blocking:
        from theanodoctor.render.fix import render_blocking

        printed = {f for a in plan.actions if not a.applies for f in a.fix_ids}
        applied = {f for a in plan.actions if a.applies for f in a.fix_ids}
        emit(render_blocking(blocking, printed, applied, style(), after))


@click.command(epilog=FIX_EXIT_CODES_HELP)
@python_option
@click.option("--from", "snapshot", metavar="FILE", type=click.Path(dir_okay=False),
              help="Plan from a saved snapshot (`theanodoctor report --format json`) instead of probing. "
                   "A report is redacted by default (the home folder as ~): its config files are edited "
                   "only where this home holds the same file; the rest needs the machine the report came "
                   "from (or `report --no-redact`), and the plan says so.")
@click.option("--cuda", metavar="X.Y", help="Target this CUDA toolkit: write .theanorc for it and add the DLL "
              "or soname aliases it needs.")
@click.option("--yes", "-y", is_flag=True, help="Apply without asking (CI).")
@click.option("--dry-run", is_flag=True, help="Only print the plan; touch nothing at all.")
@click.option("--only", multiple=True, metavar="FIX_ID", help="Run only this repair (repeatable); also runs it "
              "without a finding (e.g. --only cache-clear).")
@click.option("--skip", multiple=True, metavar="FIX_ID", help="Leave this repair out (repeatable).")
@click.option("--force", is_flag=True, help="Cache repairs: act even when the lock's owner cannot be proven dead.")
@click.option("--undo", "undo", is_flag=False, flag_value="", default=None, metavar="[RUN_ID]",
              help="Revert a previous run from its journal (default: the latest).")
@click.option("--history", is_flag=True, help="List previous fix runs.")
@format_option
@timeout_option
def fix(python_spec: str | None, snapshot: str | None, cuda: str | None, yes: bool, dry_run: bool,
        only: tuple[str, ...], skip: tuple[str, ...], force: bool, undo: str | None, history: bool,
        fmt: str, timeout: float) -> None:
    """Repair what `check` finds: write or merge .theanorc, alias CUDA DLL/soname names, clear or
    unlock the compile cache, work around numpy/BLAS breakage. Shows the plan (with diffs) and
    asks first; every change is journaled and can be undone (--undo). PATH and package changes are
    printed as commands, never run.

    Fix ids: theanorc-encoding, theanorc-rename, theanorc-inline-comment, theanorc-device,
    theanorc-obsolete, theanorc-pymc-names, theanorc-enum-case, theanorc-write, blas-ldflags, cuda-dll-aliases,
    cuda-soname-links, cache-clear, cache-purge, cache-unlock, env-path, env-packages.
    """
    if history:
        return _history(fmt)
    if undo is not None:
        return _undo(undo, fmt)
    if python_spec and snapshot:
        raise click.UsageError("--python and --from exclude each other")
    from theanodoctor.fixes.plan import UnknownFix, affected_checks, left_blocking, make_plan, validate, wanted_fixes

    try:
        validate(only + skip)
    except UnknownFix as exc:
        raise click.UsageError(str(exc)) from exc
    facts, python, candidates = _facts(python_spec, snapshot, timeout)
    before = _judge(facts)
    kit = _cuda_kit(facts, cuda) if cuda else None
    plan = make_plan(facts, before, wanted_fixes(before, only, skip, bool(cuda)), kit, force)
    doc: dict[str, Any] = {"target": python, "from": snapshot,
                           "plan": [a.to_dict() for a in plan.actions], "notes": [n.to_dict() for n in plan.notes]}
    # A probe that crashed or hung leaves the plan blind to what it would have found: never "all fine".
    unfinished = [r for r in before if r.status in ("crash", "timeout")]
    if unfinished:
        doc["unfinished_checks"] = [{"id": r.id, "status": r.status, "message": r.outcome.message} for r in unfinished]
        if fmt == "text":
            for r in unfinished:
                note(f"{r.id} could not finish ({r.status}): {r.outcome.message}; the plan covers only what was found")
    if fmt == "text":
        from theanodoctor.render.fix import render_plan

        emit(render_plan(plan, style()))
    refused = 3 if unfinished else 1 if any(n.refused for n in plan.notes) else 0
    left = left_blocking(before, plan)
    doc["still_blocking"] = _blocking_doc(left)
    if dry_run or not plan.applicable:
        _say_blocking(fmt, left, plan, after=False)
        if dry_run and fmt == "text":
            note("dry run: nothing was applied, nothing was written")
        return _finish(fmt, {**doc, "mode": "dry-run" if dry_run else "nothing-to-apply"},
                       max(refused, 1 if left else 0))
    if not yes and not (fmt == "text" and _confirm()):
        note("not applied: nothing can be asked here (stdin is not a terminal, or --format json); "
             "review the plan above and re-run with --yes to apply it"
             if not sys.stdin.isatty() or fmt == "json" else "not applied")
        return _finish(fmt, {**doc, "mode": "refused"}, 2 if not sys.stdin.isatty() or fmt == "json" else 0)
    run_id, steps = _apply(plan, python, fmt)
    rows, judged = _after(python, candidates, before, affected_checks(before, plan), timeout)
    if judged is not None:  # what the re-probe says, not what the plan hoped
        left = [r for r in judged if r.status == "error"]
        doc["still_blocking"] = _blocking_doc(left)
    if fmt == "text":
        from theanodoctor.render.fix import render_before_after

        if rows:
            emit(render_before_after(rows, style()))
        elif snapshot:
            note("planned from a snapshot: run `theanodoctor check` to see the effect")
    _say_blocking(fmt, left, plan, after=True)
    code = max(refused, 0 if all(s.status == "applied" for s in steps) else 1, 1 if left else 0)
    _finish(fmt, {**doc, "mode": "applied", "run_id": run_id, "steps": [s.to_dict() for s in steps],
                  "before_after": rows}, code)
