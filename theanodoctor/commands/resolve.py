"""`theanodoctor resolve`, `profiles` and `provision`: pin a working version matrix, list the
named stacks, build an environment. Parse, call, render; the work is in theanodoctor.resolver."""

from __future__ import annotations

import platform
import re
import sys
from collections.abc import Callable
from typing import Any

import click

from theanodoctor.clikit import Failure, emit, format_option, json_doc, note, style

RESOLVE_EXIT_CODES = """\b
Exit codes:
  0  resolved: a stack satisfies every constraint (pins printed or emitted)
  1  conflict: no stack satisfies them (the conflicts and ways out are printed)
  2  usage error (unknown GPU name, bad version, existing --output without --force)
  3  the doctor or the probe failed (--from-machine)
  130  stopped by Ctrl-C (143: SIGTERM, 129: SIGHUP); nothing it started is left running
"""

_VERSION = re.compile(r"^\d+(\.\d+)+$")


def constraint_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The inputs `resolve` and `provision` share (any subset)."""
    options = [
        click.option("--os", "os_name", metavar="OS", help="windows, linux or macos (default: this machine's)."),
        click.option("--cuda", metavar="X.Y", help="CUDA toolkit version, e.g. 10.2."),
        click.option("--python", "python", metavar="X.Y|PATH",
                     help="Python version (3.7); or an interpreter PATH (with --from-machine, or for provision)."),
        click.option("--gpu", metavar="NAME", help='GPU name as nvidia-smi shows it, e.g. "GTX 1660 SUPER".'),
        click.option("--arch", metavar="sm_XY", help="GPU architecture instead of a name, e.g. sm_75."),
        click.option("--driver", metavar="VERSION", help="NVIDIA driver version, e.g. 451.67."),
        click.option("--theano", metavar="RELEASE", default=None,
                     help="A Theano release of 0.7-1.0.5 or Theano-PyMC 1.0.5-1.1.2, as people write it: 0.8.2, "
                          "theano==0.9.0, 0.8 (the newest 0.8.x), >=0.9,<1.0, Theano-PyMC==1.1.0, pymc; or auto "
                          "(default: Theano 1.0.5)."),
        click.option("--numpy", metavar="VERSION", help="A numpy version to keep, e.g. 1.21.6."),
        click.option("--cudnn", metavar="VERSION", help="A cuDNN version to keep, e.g. 7.6.5."),
        click.option("--cpu-only", is_flag=True, help="A CPU-only stack (no CUDA, cuDNN, pygpu)."),
        click.option("--profile", metavar="NAME", help="Check a named stack (see `theanodoctor profiles`)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def project_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """A repository instead of versions: `resolve --project` and `provision --project`."""
    command = click.option("--as-of", "as_of", metavar="YYYY-MM-DD",
                           help="With --project: resolve its unpinned requirements as of this date "
                                "(default: its last commit, else what its files say).")(command)
    return click.option("--project", metavar="PATH",
                        help="A repository folder: scan it and lock what it needs (Theano release, Python, "
                             "frameworks, the rest as of its date).")(command)


def host_os() -> str:
    return {"Windows": "windows", "Darwin": "macos"}.get(platform.system(), "linux")


def python_value(value: str | None) -> tuple[str | None, str | None]:
    """--python as (version, interpreter path): a version like 3.7, or anything else as a path."""
    if value is None:
        return None, None
    return (value, None) if _VERSION.match(value.strip()) else (None, value)


def build_constraints(opts: dict[str, Any], machine: dict[str, str | None] | None = None) -> Any:
    """Constraints from the options; facts from the machine fill what the options leave open."""
    from theanodoctor.resolver.inputs import InputError, build

    given = {"os": opts.get("os_name"), "python": python_value(opts.get("python"))[0], "numpy": opts.get("numpy"),
             "theano": opts.get("theano"), "cuda": opts.get("cuda"), "cudnn": opts.get("cudnn"),
             "gpu": opts.get("gpu"), "arch": opts.get("arch"), "driver": opts.get("driver")}
    cc, cpu_only = None, bool(opts.get("cpu_only"))
    gpu_asked = any(given[k] for k in ("cuda", "cudnn", "gpu", "arch", "driver"))
    for key, value in (machine or {}).items():
        if key == "cc":
            cc = None if given["gpu"] or given["arch"] else value
        elif key == "cpu_only":
            cpu_only = cpu_only or not gpu_asked
        elif given.get(key) is None and not (key == "gpu" and given["arch"]):
            given[key] = value
    try:
        return build(**given, cc=cc, cpu_only=cpu_only, host_os=host_os())
    except InputError as exc:
        raise click.UsageError(str(exc)) from exc


def probe_machine(python: str | None, fmt: str) -> dict[str, str | None]:
    from theanodoctor.gather import Pending, select_target
    from theanodoctor.resolver.machine import machine_options

    target, candidates = select_target(python)
    if fmt == "text":
        note(f"taking the facts from this machine and {target or 'no Python environment'}")
    facts = Pending(target, candidates).wait()
    probe = facts.target
    if target and probe.get("status") != "ok":
        raise Failure(f"the probe of {target} failed ({probe.get('status')}: {probe.get('error')}); "
                      "`theanodoctor check --python` shows why", 3, "probe")
    return machine_options(facts)


def run_resolution(opts: dict[str, Any], fmt: str, from_machine: bool = False) -> Any:
    from theanodoctor.resolver.inputs import InputError
    from theanodoctor.resolver.resolve import check_profile, resolve

    version, path = python_value(opts.get("python"))
    if path and not from_machine:
        raise click.UsageError(f"--python {path}: a version like 3.7 (an interpreter path needs --from-machine)")
    machine = probe_machine(path, fmt) if from_machine else None
    cons = build_constraints(opts, machine)
    try:
        return check_profile(opts["profile"], cons) if opts.get("profile") else resolve(cons)
    except InputError as exc:
        raise click.UsageError(str(exc)) from exc


@click.command(epilog=RESOLVE_EXIT_CODES)
@constraint_options
@project_options
@click.option("--from-machine", is_flag=True,
              help="Take the OS, Python, GPU, driver, CUDA, cuDNN and Theano flavour from the probe of this machine.")
@click.option("--emit", "emit_kind", type=click.Choice(["conda", "pip", "theanorc"]),
              help="Print (or --output) an environment.yml, a requirements file or a .theanorc instead of the table.")
@click.option("--output", "-o", metavar="FILE", help="Write the --emit file here (atomically).")
@click.option("--force", is_flag=True, help="Let --output replace an existing file.")
@click.option("-v", "--verbose", is_flag=True, help="Also show each cited row's source.")
@format_option
def resolve(from_machine: bool, emit_kind: str | None = None, output: str | None = None, force: bool = False,
            verbose: bool = False, fmt: str = "text", **opts: Any) -> None:
    """Pin a working version matrix for the given constraints (any subset), with one reason per pin
    citing the table row behind it; explain conflicts and the ways out.

    \b
    Examples:
      theanodoctor resolve --os windows --gpu "GTX 1660 SUPER"
      theanodoctor resolve --gpu "RTX 3090" --cuda 10.2          # conflict, explained
      theanodoctor resolve --cpu-only --emit pip -o requirements.txt
      theanodoctor resolve --from-machine
      theanodoctor resolve --project ./paper-code --emit pip -o requirements.lock
    """
    if output and not emit_kind:
        raise click.UsageError("--output needs --emit conda|pip|theanorc")
    if opts.get("project"):
        from theanodoctor.commands.project import resolve_project

        resolve_project(opts, fmt, emit_kind, output, force, verbose)
    if opts.get("as_of"):
        raise click.UsageError("--as-of needs --project")
    res = run_resolution(opts, fmt, from_machine)
    unasked = None
    if not from_machine and not any(v for k, v in opts.items() if k != "profile") and not opts.get("profile"):
        unasked = ("no constraints given, so this is the default stack, not one fitted to this machine: "
                   "--from-machine fits it to this machine (its GPU or none), --cpu-only asks for no GPU")
        if fmt == "text":
            note(unasked)
    text = None
    if emit_kind and res.resolved:
        from theanodoctor.resolver.emit import EMITTERS, write_new

        text = EMITTERS[emit_kind](res)
        if output:
            write_new(output, text, force)
    if fmt == "json":
        document = res.to_dict()
        if unasked:
            document["note"] = unasked
        if emit_kind:
            document["emitted"] = {"kind": emit_kind, "path": output, "text": text}
        emit(json_doc(document))
    elif text is not None and not output:
        emit(text)
        note(_summary_line(res))
    else:
        from theanodoctor.render.resolution import render_resolution

        emit(render_resolution(res, style(), verbose))
        if output and text is not None:
            note(f"wrote {output}")
    sys.exit(res.exit_code)


def _summary_line(res: Any) -> str:
    device = f"CUDA {res.pin('cuda')}" if res.gpu else "CPU only"
    return f"resolved: {res.pin('theano')} on Python {res.pin('python')}, {device}"


@click.command()
@click.option("-v", "--verbose", is_flag=True, help="Also show each stack's title and sources.")
@format_option
def profiles(verbose: bool, fmt: str) -> None:
    """List the named known-good stacks (profiles/stacks.yaml), each with its sources."""
    from theanodoctor import kb_stacks

    stacks = kb_stacks.stacks()
    if fmt == "json":
        emit(json_doc({"stacks": [{k: v for k, v in s._asdict().items() if k != "where"} for s in stacks]}))
        return
    from theanodoctor.render.resolution import render_profiles

    emit(render_profiles(stacks, style(), verbose))


PROVISION_EXIT_CODES = """\b
Exit codes:
  0  built; `check` is clean and `smoke-test` passed on the new env (--dry-run: plan printed)
  1  the constraints conflict (also: the --python interpreter's version and the profile), or the
     new env failed `check` / `smoke-test` (a GPU stack built with venv lacks pygpu, which pip
     cannot install)
  2  usage error (non-empty --prefix, existing conda env, no interpreter for the venv, a stack
     for another OS than this machine's without --dry-run)
  3  a provisioning command failed or timed out (see the log), or the doctor failed
  130  stopped by Ctrl-C (143: SIGTERM, 129: SIGHUP); nothing it started is left running
"""


@click.command(epilog=PROVISION_EXIT_CODES)
@constraint_options
@project_options
@click.option("--prefix", metavar="DIR", help="Folder of the new environment (must not exist, or be empty).")
@click.option("--name", metavar="NAME", help="Name of the new conda env (conda/mamba only).")
@click.option("--method", type=click.Choice(["auto", "conda", "venv"]), default="auto", show_default=True,
              help="auto: conda/mamba when on PATH, else venv + pip with --python.")
@click.option("--dry-run", is_flag=True, help="Print the files and exact commands; change nothing.")
@click.option("--force", is_flag=True, help="Replace an existing conda env of that name, or an existing venv.")
@format_option
def provision(prefix: str | None, name: str | None, method: str, dry_run: bool, force: bool, fmt: str,
              **opts: Any) -> None:
    """Build the environment a resolution describes, then run `check` and `smoke-test` on it.

    With conda or mamba: `env create` from the emitted environment.yml (pygpu from conda-forge).
    Otherwise venv + pip with --python /path/to/pythonX.Y, for what PyPI has (not pygpu). Never
    touches an existing environment unless --force. Every command and its output go to a log.

    \b
    Examples:
      theanodoctor provision --profile cpu-py37 --python /usr/bin/python3.7 --prefix ./theano37
      theanodoctor provision --os windows --gpu "GTX 1660 SUPER" --name theano37 --dry-run
      theanodoctor provision --project ./paper-code --python ~/.pyenv/versions/2.7.18/bin/python

    With --project: scan the repository, lock what it needs (`resolve --project`), build it with
    venv (virtualenv for Python 2.7) + pip, then `check`, `smoke-test` and an import of each of the
    repository's own top-level modules in the new env (imports only; failures explained).
    """
    from theanodoctor.resolver import provision as provisioning
    from theanodoctor.resolver import runner

    _, interpreter = python_value(opts.get("python"))
    if opts.get("project"):
        from theanodoctor.commands.project import provision_project

        if name or method == "conda":
            raise click.UsageError("--project builds a venv (virtualenv for 2.7): --name and --method conda "
                                   "do not apply")
        provision_project({**opts, "python": None}, interpreter, prefix, dry_run, force, fmt)
        return
    if opts.get("as_of"):
        raise click.UsageError("--as-of needs --project")
    if interpreter:
        opts["python"] = provisioning.interpreter_version(interpreter)
    res = run_resolution(opts, fmt)
    if not res.resolved:
        from theanodoctor.render.resolution import render_resolution

        emit(json_doc(res.to_dict()) if fmt == "json" else render_resolution(res, style()))
        sys.exit(1)
    if not dry_run and res.os != host_os():  # e.g. m2w64-toolchain has no Linux build: conda would fail late
        raise Failure(f"this stack is for {res.os} and this machine runs {host_os()}: provision builds only for "
                      "this machine (--dry-run shows the plan; `resolve --emit conda` writes the file to use there)", 2)
    plan = provisioning.plan(res, method, interpreter, prefix, name, force, dry_run)
    device = "config" if res.gpu and plan.method == "conda" else "cpu"
    document: dict[str, Any] = {"resolution": res.to_dict(), "dry_run": dry_run, "plan": {
        "method": plan.method, "target": plan.target, "log": plan.log, "files": [p for p, _ in plan.files],
        "commands": [list(s.argv) for s in plan.steps], "notes": list(plan.notes)}}
    if dry_run:
        emit(json_doc({**document, "exit_code": 0}) if fmt == "json" else runner.describe(plan, device))
        return
    if fmt == "text":
        note(f"provisioning {_summary_line(res)} with {plan.method} into {plan.target} (log: {plan.log})")
    python = runner.build(plan)
    verified = runner.verify(python, device)
    code = max(verified.exit_code, 1 if res.gpu and plan.method == "venv" else 0)
    if fmt == "json":
        emit(json_doc({**document, "python": python, "check": verified.check, "smoke": verified.smoke,
                       "verdict": verified.verdict, "exit_code": code}))
    else:
        emit(f"new environment: {python}\n{verified.verdict}\n" + "".join(f"note: {n}\n" for n in plan.notes))
    sys.exit(code)
