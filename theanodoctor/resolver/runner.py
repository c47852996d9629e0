"""Carry out a provisioning plan: write its files, run each command (timeout, output captured into
the log, progress on stderr), then judge the new env with the doctor's own `check` and
`smoke-test`."""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from collections.abc import Iterator
from typing import Any, NamedTuple, TextIO

from theanodoctor import proc
from theanodoctor.clikit import Failure, note
from theanodoctor.facts import envelope
from theanodoctor.resolver import emit, envhook
from theanodoctor.resolver.provision import KEEP_ALL, Plan, Step, _conda_envs, env_python


class Verified(NamedTuple):
    python: str
    check: dict[str, Any]
    smoke: dict[str, Any]
    exit_code: int
    verdict: str


def describe(plan: Plan, device: str) -> str:
    """The plan as text: files, exact commands, and the verification that follows (--dry-run)."""
    lines = [f"method: {plan.method} ({plan.tool})", f"new environment: {plan.target}", f"log: {plan.log}"]
    lines += [f"write {path}:" + "".join(f"\n    {line}" for line in text.splitlines()) for path, text in plan.files]
    lines += [f"run: {shlex.join(step.argv)}   (timeout {step.timeout:.0f} s)" for step in plan.steps]
    python = plan.python or f"<the python of conda env {plan.target}>"
    folder = plan.target if os.path.isabs(plan.target) else f"<conda env {plan.target}>"
    lines.append(f"write {os.path.join(folder, 'theanorc')} and {envhook.HOOK_NAME} in its site-packages "
                 "(sets THEANORC to that file when unset)")
    lines.append(f"then: theanodoctor check --python {python}; theanodoctor smoke-test --python {python} "
                 f"--device {device}")
    lines += [f"note: {n}" for n in plan.notes]
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def _progress(title: str) -> Iterator[None]:
    """A spinner with elapsed time on stderr while a long step runs (a plain line when piped)."""
    if not sys.stderr.isatty():
        note(f"{title} ...")
        yield
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        progress.add_task(title, total=None)
        yield
    note(f"done: {title}")


def _run(step: Step, log: TextIO) -> None:
    log.write(f"$ {shlex.join(step.argv)}\n")
    log.flush()
    with _progress(step.title):
        done = proc.run(step.argv, step.timeout, keep=KEEP_ALL)
    if done.status == "timeout":
        log.write(done.stdout + done.stderr + f"\n[timed out after {step.timeout:.0f} s]\n")
        raise Failure(f"{step.title}: timed out after {step.timeout:.0f} s (log: {log.name})", 3, "provision")
    if not done.ran:
        log.write(f"[could not start: {done.error}]\n")
        raise Failure(f"{step.title}: could not start {step.argv[0]}: {done.error}", 3, "provision")
    output = done.stdout + done.stderr
    log.write(output + f"\n[exit {done.returncode} after {done.elapsed_s:.1f} s]\n\n")
    log.flush()
    if done.returncode != 0:
        tail = "\n".join(output.strip().splitlines()[-15:])
        raise Failure(f"{step.title}: `{step.argv[0]}` exited {done.returncode} (log: {log.name})\n{tail}", 3,
                      "provision")


def _new_python(plan: Plan) -> str:
    if plan.python:
        return plan.python
    found = [e for e in _conda_envs(plan.tool) if os.path.basename(e) == plan.target]
    if not found:
        raise Failure(f"conda env {plan.target} was not found after creating it", 3, "provision")
    return env_python(found[0])


def build(plan: Plan) -> str:
    """Write the plan's files, run its steps, write the env's theanorc; the new interpreter."""
    os.makedirs(plan.workdir, exist_ok=True)
    for path, text in plan.files:
        emit.write_new(path, text)
    with open(plan.log, "a", encoding="utf-8") as log:
        log.write(f"# theanodoctor provision: {plan.method} -> {plan.target}\n")
        for step in plan.steps:
            _run(step, log)
        python = _new_python(plan)
        log.write(f"# new interpreter: {python}\n")
    envhook.install(python, plan.theanorc, dict(plan.variables))
    return python


def verify(python: str, device: str) -> Verified:
    """`check` and `smoke-test` on the new env, through the doctor's own modules, in the doctor's own
    environment: the new env's config applies through its own startup hook, as it will for the user."""
    from theanodoctor import engine, knowledge
    from theanodoctor.gather import Pending
    from theanodoctor.report import judge as judge_checks
    from theanodoctor.smoke.result import judge
    from theanodoctor.smoke.runner import Options, run_smoke

    env = dict(os.environ)
    with _progress(f"check {python}"):
        pending = Pending(python, envelope(chosen=python, chosen_source="provision", candidates=[]), env=env)
        knowledge.preload()
        facts = pending.wait()
        report = judge_checks(facts, engine.all_checks())
    with _progress(f"smoke-test --device {device}"):
        smoke_options = Options(device=None if device == "config" else device)
        smoke = judge(run_smoke(python, smoke_options, env=env), smoke_options.device, smoke_options.stages)
    code = max(report.exit_code(), smoke.exit_code)
    return Verified(python, report.to_dict(), smoke.to_dict(), code,
                    f"check: {report.verdict}; smoke-test: {smoke.verdict}")
