"""The plan that builds the environment a resolution describes: the files to write and the exact
commands to run. With conda/mamba: `env create` from the emitted environment.yml into a new env;
otherwise a given interpreter + venv + pip for what PyPI has (never pygpu). Planning runs nothing
that changes anything, so `--dry-run` can print the plan as it is."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import NamedTuple

from theanodoctor import proc
from theanodoctor.clikit import Failure
from theanodoctor.resolver import emit
from theanodoctor.resolver.model import Resolution

INSTALL_TIMEOUT = 1800.0  # a Theano sdist build plus wheel downloads on a slow line
QUICK_TIMEOUT = 60.0
KEEP_ALL = 1 << 30  # an env list is parsed as JSON and a build log is kept whole: nothing clipped


class Step(NamedTuple):
    title: str
    argv: tuple[str, ...]
    timeout: float


class Plan(NamedTuple):
    method: str              # "conda" | "venv"
    tool: str                # the conda/mamba executable, or the base interpreter
    target: str              # the new env's folder (or conda env name)
    python: str              # the new env's interpreter ("" until a named conda env exists)
    workdir: str             # where the emitted files and the log go
    files: tuple[tuple[str, str], ...]  # (path, text) written before the steps
    steps: tuple[Step, ...]
    notes: tuple[str, ...]
    theanorc: str            # the .theanorc text, written into the new env after it exists
    variables: tuple[tuple[str, str], ...] = ()  # set by the env's startup hook too (KERAS_BACKEND)

    @property
    def log(self) -> str:
        return os.path.join(self.workdir, "provision.log")


def state_dir() -> Path:
    """Where provisioning keeps its files and logs (never inside an existing env)."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "theanodoctor"
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "theanodoctor"


def env_python(prefix: str) -> str:
    return os.path.join(prefix, "python.exe") if sys.platform == "win32" else os.path.join(prefix, "bin", "python")


def env_prefix(python: str) -> str:
    """The environment folder of its interpreter (the inverse of ``env_python``)."""
    return os.path.dirname(python) if sys.platform == "win32" else os.path.dirname(os.path.dirname(python))


def conda_tool() -> str | None:
    return shutil.which("mamba") or shutil.which("conda")


def run_quick(argv: list[str]) -> str:
    """A read-only query (interpreter version, env list); its output, or Failure(3)."""
    done = proc.run(argv, QUICK_TIMEOUT, keep=KEEP_ALL)
    if not done.ran:
        raise Failure(f"{argv[0]} could not be run: {done.error}", 3, "provision")
    if done.returncode != 0:
        tail = done.stderr.strip()[-500:]
        raise Failure(f"`{' '.join(argv)}` failed ({done.returncode}): {tail}", 3, "provision")
    return done.stdout


def _refuse_existing(folder: str, force: bool) -> None:
    path = Path(folder)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        if force and (path / "pyvenv.cfg").is_file():
            return
        raise Failure(f"{folder} exists and is not empty: provision builds only new environments "
                      "(choose another --prefix; --force replaces an existing venv)", 2)


def _conda_envs(tool: str) -> list[str]:
    try:
        listed = json.loads(run_quick([tool, "env", "list", "--json"]))
    except ValueError as exc:
        raise Failure(f"`{tool} env list --json` did not print JSON: {exc}", 3, "provision") from exc
    envs = listed.get("envs") if isinstance(listed, dict) else None
    return [e for e in envs if isinstance(e, str)] if isinstance(envs, list) else []


def _workdir(name: str) -> str:
    return str(state_dir() / "provision" / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}")


def conda_plan(res: Resolution, tool: str, prefix: str | None, name: str | None, force: bool,
               absent: bool = False) -> Plan:
    """``absent``: conda is not on PATH and this is only a dry run: plan the commands it would run."""
    name = name or (os.path.basename(os.path.abspath(prefix)) if prefix else emit.env_name(res))
    if prefix:
        _refuse_existing(prefix, force)
        target = ("--prefix", os.path.abspath(prefix))
    else:
        if not force and not absent and any(os.path.basename(e) == name for e in _conda_envs(tool)):
            raise Failure(f"a conda env named {name} exists: provision builds only new environments "
                          "(choose another --name, or --force to replace it)", 2)
        target = ("--name", name)
    workdir = _workdir(name)
    yml = os.path.join(workdir, "environment.yml")
    argv = (tool, "env", "create", "--file", yml, *target) + (("--yes",) if force else ())
    notes = ("neither mamba nor conda is on PATH: these are the commands conda would run (install Miniforge, "
             "or give --prefix and --python for venv + pip)" if absent else "",
             "CUDA, cuDNN and the NVIDIA driver are not conda packages here: install them with NVIDIA's "
             "installers" if res.gpu else "")
    return Plan("conda", tool, target[1], env_python(target[1]) if prefix else "", workdir,
                ((yml, emit.conda_env(res, name)),), (Step(f"{os.path.basename(tool)} env create", argv,
                                                           INSTALL_TIMEOUT),),
                tuple(n for n in notes if n), emit.theanorc(res))


def interpreter_version(python: str) -> str:
    """"3.7" for an interpreter; an interpreter that does not run is a usage error (exit 2)."""
    try:
        return run_quick([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"]).strip()
    except Failure as exc:
        raise Failure(f"--python {python} is not a Python that runs here: {exc}", 2) from exc


def create_step(base: str, version: str, folder: str, force: bool) -> Step:
    """venv, or for Python 2 (which has no venv module) the virtualenv the doctor depends on (20.21,
    the last that creates 2.7 envs; its bundled pip 20.3.4 and setuptools 44 need no download)."""
    clear = ("--clear",) if force else ()
    if version.startswith("2."):
        return Step(f"create the virtualenv {folder}", (sys.executable, "-m", "virtualenv", "--no-download",
                                                        "-p", base, *clear, folder), QUICK_TIMEOUT * 5)
    return Step(f"create the venv {folder}", (base, "-m", "venv", *clear, folder), QUICK_TIMEOUT * 5)


def venv_plan(res: Resolution, python: str | None, prefix: str | None, force: bool) -> Plan:
    notes = (emit.pygpu_note(res) + "; without it Theano runs on the CPU",) if emit.pygpu_note(res) else ()
    return pip_plan(res.pin("python") or "", python, prefix or emit.env_name(res), force,
                    emit.pip_requirements(res), emit.theanorc(res), notes)


def pip_plan(wanted: str, python: str | None, prefix: str, force: bool, requirements_text: str, theanorc: str,
             notes: tuple[str, ...], variables: tuple[tuple[str, str], ...] = ()) -> Plan:
    """A new env for Python ``wanted`` (venv, or virtualenv for 2.7) and `pip install -r` of the pins."""
    base = python or shutil.which(f"python{wanted}")
    if not base:
        raise Failure(f"no conda or mamba found, and no python{wanted} on PATH: give --python /path/to/python{wanted}",
                      2)
    found = interpreter_version(base)
    if found != wanted:
        raise Failure(f"{base} is Python {found}; the stack needs Python {wanted}", 2)
    folder = os.path.abspath(prefix)
    _refuse_existing(folder, force)
    workdir = _workdir(os.path.basename(folder))
    requirements = os.path.join(workdir, "requirements.txt")
    new_python = env_python(folder)
    steps = (create_step(base, wanted, folder, force),
             Step("pip install the pins (Theano and other source-only packages build from their sdists)",
                  (new_python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
                   "-r", requirements), INSTALL_TIMEOUT))
    return Plan("venv", base, folder, new_python, workdir, ((requirements, requirements_text),), steps,
                notes, theanorc, variables)


def plan(res: Resolution, method: str, python: str | None, prefix: str | None, name: str | None,
         force: bool, dry_run: bool = False) -> Plan:
    """The plan for a resolved stack. ``method``: conda, venv or auto (conda/mamba when present). A dry
    run that asks for conda (--method conda, or --name) shows conda's commands even without conda."""
    tool = conda_tool() if method in ("auto", "conda") else None
    if tool is None and dry_run and (method == "conda" or (name and method == "auto")):
        return conda_plan(res, "conda", prefix, name, force, absent=True)
    if method == "conda" and tool is None:
        raise Failure("--method conda: neither mamba nor conda is on PATH", 2)
    if tool is not None:
        return conda_plan(res, tool, prefix, name, force)
    if name:
        raise Failure("--name names a conda env; for a venv give --prefix", 2)
    return venv_plan(res, python, prefix, force)
