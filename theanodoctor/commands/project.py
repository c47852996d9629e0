"""`resolve --project` and `provision --project`: parse, call, render; the work is in
theanodoctor.resolver.project_run (the lock) and theanodoctor.resolver.runner (the build)."""

from __future__ import annotations

import datetime as dt
import os
import sys
from typing import Any

import click

from theanodoctor.clikit import emit, json_doc, note

IGNORED_WITH_PROJECT = ("profile", "numpy", "theano", "os_name", "python")


def as_of_value(value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise click.UsageError(f"--as-of {value!r}: a date like 2017-06-30") from None


def lock_for(opts: dict[str, Any], fmt: str) -> Any:
    from theanodoctor.resolver.inputs import InputError
    from theanodoctor.resolver.project_run import scan_and_lock

    path = opts["project"]
    if not os.path.isdir(path):
        raise click.UsageError(f"--project {path}: not a folder")
    given = [k for k in IGNORED_WITH_PROJECT if opts.get(k)]
    if given:
        raise click.UsageError("--project decides " + ", ".join(f"--{k.replace('_name', '')}" for k in given)
                               + " from the repository; leave them out")
    if fmt == "text":
        note(f"scanning {path} and resolving its stack (unpinned requirements as of its date) ...")
    try:
        return scan_and_lock(path, as_of_value(opts.get("as_of")), opts)
    except InputError as exc:
        raise click.UsageError(str(exc)) from exc


def emitted(lock: Any, kind: str) -> str:
    from theanodoctor.resolver import project_run

    return {"pip": lock.requirements, "theanorc": lambda: project_run.theanorc_text(lock),
            "conda": lambda: project_run.conda_text(lock)}[kind]()


def resolve_project(opts: dict[str, Any], fmt: str, emit_kind: str | None, output: str | None, force: bool,
                    verbose: bool) -> None:
    from theanodoctor.render.project import render_lock
    from theanodoctor.resolver.emit import write_new

    lock = lock_for(opts, fmt)
    text = emitted(lock, emit_kind) if emit_kind and lock.resolved else None
    if text is not None and output:
        write_new(output, text, force)
    if fmt == "json":
        document = {"lock": lock.to_dict()}
        if emit_kind:
            document["emitted"] = {"kind": emit_kind, "path": output, "text": text}
        emit(json_doc(document))
    elif text is not None and not output:
        emit(text)
    else:
        emit(render_lock(lock, verbose))
        if output and text is not None:
            note(f"wrote {output}")
    sys.exit(lock.exit_code)


def provision_project(opts: dict[str, Any], interpreter: str | None, prefix: str | None, dry_run: bool,
                      force: bool, fmt: str) -> None:
    from theanodoctor.render.project import render_imports, render_lock
    from theanodoctor.resolver import project_run, provision, runner
    from theanodoctor.resolver.import_smoke import import_smoke

    lock = lock_for(opts, fmt)
    if not lock.resolved:
        emit(json_doc({"lock": lock.to_dict()}) if fmt == "json" else render_lock(lock))
        sys.exit(1)
    folder = prefix or os.path.join(os.getcwd(), f"{os.path.basename(os.path.abspath(lock.root))}-env")
    # a venv cannot hold pygpu (not on PyPI): the gpuarray stack's env is set up for the CPU, and says so
    device = "cpu" if lock.device == "cuda" else lock.device
    notes = lock.notes + (("device=cpu in this venv: pygpu, which device=cuda needs, is not on PyPI (a conda env "
                           "with pygpu from the channel the lock names runs it on the GPU)",) if device != lock.device
                          else ())
    variables = tuple(project_run.env_settings(lock).items())
    plan = provision.pip_plan(lock.python or "", interpreter, folder, force, lock.requirements(),
                              project_run.theanorc_text(lock, device), notes, variables)
    document: dict[str, Any] = {"lock": lock.to_dict(), "dry_run": dry_run, "plan": {
        "method": plan.method, "target": plan.target, "log": plan.log, "files": [p for p, _ in plan.files],
        "commands": [list(s.argv) for s in plan.steps], "notes": list(plan.notes)}}
    if dry_run:
        emit(json_doc({**document, "exit_code": 0}) if fmt == "json" else
             render_lock(lock) + runner.describe(plan, "cpu"))
        return
    if fmt == "text":
        note(f"provisioning Theano {lock.theano} on Python {lock.python} into {plan.target} (log: {plan.log})")
    python = runner.build(plan)
    verified = runner.verify(python, "cpu" if device == "cpu" else "config")
    if fmt == "text":
        note(f"import smoke of {len(lock.modules)} module(s) of {lock.root}")
    imports = import_smoke(python, os.path.abspath(lock.root), lock.modules, dict(variables))
    failed = [r for r in imports if not r.ok]
    code = max(verified.exit_code, 1 if failed else 0)
    if fmt == "json":
        emit(json_doc({**document, "python": python, "check": verified.check, "smoke": verified.smoke,
                       "imports": [r.to_dict() for r in imports], "verdict": verified.verdict, "exit_code": code}))
    else:
        emit(f"new environment: {python}\n{verified.verdict}\n" + render_imports(imports)
             + f"imports: {len(imports) - len(failed)} of {len(imports)} modules import\n"
             + "".join(f"note: {n}\n" for n in plan.notes))
    sys.exit(code)
