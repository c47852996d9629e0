"""`theanodoctor port`: rewrite a repository's uses of removed Theano APIs by the rules in
profiles/port_rules.yaml, show the diffs, ask, apply through the journal, report, undo."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from theanodoctor.clikit import Failure, emit, format_option, json_doc, note, style

PORT_HELP_EPILOG = """\b
Examples:
  theanodoctor port ./repo --dry-run          show the diffs and the report, touch nothing
  theanodoctor port ./repo                     show the plan, ask, apply
  theanodoctor port ./repo --yes               apply without asking (CI)
  theanodoctor port ./repo --only signal-downsample --only pool-2d-ws
  theanodoctor port ./repo --skip sandbox-cuda-use
  theanodoctor port --undo                     take the latest port run back, byte for byte
  theanodoctor port ./repo --format json       the plan (or the run) as one JSON document

\b
Exit codes:
  0  everything found was rewritten (or nothing needed it), or --undo restored all
  1  uses are left to port by hand (listed with file:line), or a file was left
     alone (changed since the plan) or could not be written; --dry-run exits 1
     too when the port would leave such uses
  2  usage error (bad option, unknown rule id, no --yes without a terminal)
  3  the doctor failed
"""


def _root() -> str:
    from theanodoctor.repair.state import state_dir

    return os.path.join(state_dir(), "port")


def _finish(fmt: str, doc: dict[str, Any], code: int) -> None:
    if fmt == "json":
        emit(json_doc({**doc, "exit_code": code}))
    sys.exit(code)


def _undo(run_id: str, fmt: str) -> None:
    from theanodoctor.render.fix import render_undo
    from theanodoctor.repair.lock import LockBusy, RunLock
    from theanodoctor.repair.state import state_dir
    from theanodoctor.repair.undo import UnknownRun, latest_run, undo_run

    run_id = run_id or latest_run(_root()) or ""
    if not run_id:
        raise Failure("no port run to undo", 2)
    try:
        with RunLock(state_dir()):
            results = undo_run(run_id, _root())
    except UnknownRun as exc:
        raise Failure(f"no port run {run_id!r}", 2) from exc
    except LockBusy as exc:
        raise Failure(str(exc), 1, "busy") from exc
    code = 0 if all(r.status in ("restored", "removed", "nothing") for r in results) else 1
    if fmt == "text":
        emit(render_undo(run_id, results, style()))
    _finish(fmt, {"undo": run_id, "steps": [r.to_dict() for r in results]}, code)


def _rules(only: tuple[str, ...], skip: tuple[str, ...]) -> tuple[Any, ...]:
    from theanodoctor import kb_port

    known = kb_port.rule_ids()
    unknown = [r for r in only + skip if r not in known]
    if unknown:
        raise click.UsageError(f"unknown rule id {', '.join(unknown)} (rules: {', '.join(known)})")
    return tuple(r for r in kb_port.rules() if (not only or r.id in only) and r.id not in skip)


def _apply(plan: Any) -> tuple[str, str, list[Any]]:
    from theanodoctor.repair.apply import apply_actions
    from theanodoctor.repair.journal import Journal
    from theanodoctor.repair.lock import LockBusy, RunLock
    from theanodoctor.repair.state import new_run_id, state_dir

    try:
        with RunLock(state_dir()):
            journal = Journal(new_run_id(), _root())
            journal.start([a.to_dict() for a in plan.actions], plan.root)
            steps = apply_actions(list(plan.actions), journal)
    except LockBusy as exc:
        raise Failure(str(exc), 1, "busy") from exc
    return journal.run_id, journal.dir, steps


def _write_report(path: str, text: str) -> None:
    from theanodoctor.repair.fsops import atomic_write

    try:
        atomic_write(path, text.encode("utf-8"))
    except OSError as exc:
        raise Failure(f"cannot write the report to {path}: {exc.strerror or exc}", 3, "io") from exc


@click.command(epilog=PORT_HELP_EPILOG)
@click.argument("path", required=False, type=click.Path(exists=True, file_okay=True, dir_okay=True))
@click.option("--yes", "-y", is_flag=True, help="Apply without asking (CI).")
@click.option("--dry-run", is_flag=True, help="Only print the plan and the report; touch nothing at all.")
@click.option("--only", multiple=True, metavar="RULE", help="Apply only this rule (repeatable).")
@click.option("--skip", multiple=True, metavar="RULE", help="Leave this rule out (repeatable).")
@click.option("--undo", "undo", is_flag=False, flag_value="", default=None, metavar="[RUN_ID]",
              help="Take a previous port run back from its journal (default: the latest).")
@click.option("--report", "report_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="Also write the report here (default: report.txt beside the run's journal, outside your tree).")
@format_option
def port(path: str | None, yes: bool, dry_run: bool, only: tuple[str, ...], skip: tuple[str, ...],
         undo: str | None, report_path: str | None, fmt: str) -> None:
    """Move code written for Theano 0.7-0.9 onto Theano 1.0.5: the old GPU back-end's modules
    (theano.sandbox.cuda.dnn, basic ops) to theano.gpuarray, signal.downsample to signal.pool,
    max_pool_2d/pool_2d's old arguments to ws/stride/pad, the old conv.conv2d to nnet.conv2d,
    theano.compat.six to six, sandbox.cuda.use(...) out, and device=gpu, lib.cnmem, nvcc.* in
    .theanorc files and THEANO_FLAGS strings. Only rewrites that keep the meaning are made (each
    rule and its upstream source: profiles/port_rules.yaml); the rest is listed with file:line and
    what to do by hand. Shows unified diffs and asks first; every edit is journaled and undoable.
    """
    if undo is not None:
        return _undo(undo, fmt)
    if path is None:
        raise click.UsageError("PATH is required (the repository folder or a file to port)")
    rules = _rules(only, skip)
    from theanodoctor.port.plan import make_plan
    from theanodoctor.render.port import render_plan, render_report

    plan = make_plan(path, rules)
    doc: dict[str, Any] = {"path": plan.root, "rules": [r.id for r in rules],
                           "plan": [a.to_dict() for a in plan.actions], "files": [f.to_dict() for f in plan.files],
                           "manual": [{"file": rel, **m.to_dict()} for rel, m in plan.manual],
                           "skipped": [p.to_json() for p in plan.skipped], "needs": list(plan.needs),
                           "sources": [{"rule": r.id, "says": r.says, "old": r.old_source, "new": r.new_source}
                                       for r in plan.cited]}
    left = 1 if plan.manual else 0
    if fmt == "text":
        emit(render_plan(plan, style()))
    if dry_run or not plan.actions:
        mode = "dry-run" if dry_run else "nothing-to-apply"
        report = render_report(plan, "dry run: nothing was applied, nothing was written" if dry_run
                               else "nothing to apply")
        if report_path:
            _write_report(report_path, report)
            doc["report_file"] = os.path.abspath(report_path)
        if fmt == "text":
            emit(report)
        return _finish(fmt, {**doc, "mode": mode}, left)
    if not yes and not (fmt == "text" and sys.stdin.isatty() and
                        click.confirm("Apply this plan?", default=False, err=True)):
        asked = sys.stdin.isatty() and fmt == "text"
        note("not applied" if asked else "not applied: nothing can be asked here (stdin is not a terminal, or "
             "--format json); review the plan above and re-run with --yes to apply it")
        return _finish(fmt, {**doc, "mode": "refused"}, 0 if asked else 2)
    run_id, run_dir, steps = _apply(plan)
    report = render_report(plan, f"applied in run {run_id} (take it back: theanodoctor port --undo {run_id})", steps)
    target = os.path.join(run_dir, "report.txt")
    for where in (target, report_path):
        if where:
            _write_report(where, report)
    if fmt == "text":
        from theanodoctor.render.fix import render_steps

        emit(render_steps(run_id, steps, style()))
        emit(report)
        note(f"report written to {target}" + (f" and {report_path}" if report_path else ""))
    code = max(left, 0 if all(s.status == "applied" for s in steps) else 1)
    _finish(fmt, {**doc, "mode": "applied", "run_id": run_id, "steps": [s.to_dict() for s in steps],
                  "report_file": os.path.abspath(report_path or target)}, code)
