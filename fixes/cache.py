"""Compile cache repairs (Theano rel-1.0.5 theano/gof/cmodule.py, theano/gof/compilelock.py), without
importing Theano: clear the compiled module folders, purge the compiledir, unlock a stale compile
lock. Nothing is planned unless the folder is proven to be a Theano compiledir; a live lock owner
blocks everything but --force."""

from __future__ import annotations

import os

from theanodoctor.facts import section
from theanodoctor.repair import compiledir as cdir
from theanodoctor.repair.action import Action

from .context import Context, Note


def _modules(path: str) -> list[str]:
    """Module folders: real tmp* folders holding key.pkl (re-checked one by one when deleting),
    in inode order, as `rm -rf` deletes, which spares the disk seeks."""
    found = []
    with os.scandir(path) as entries:
        for entry in entries:
            if entry.name.startswith("tmp") and entry.is_dir(follow_symlinks=False) and any(
                    os.path.isfile(os.path.join(entry.path, f)) for f in cdir.MODULE_FILES):
                found.append((entry.inode(), entry.name))
    return [name for _, name in sorted(found)]


def _holder(lock: cdir.LockState) -> str:
    if lock.pymc_holders and not lock.held:
        return "process " + ", ".join(map(str, lock.pymc_holders))
    if lock.owner_pid is None:
        return "no recorded owner (lock_dir holds no readable lock file; whether it is stale cannot be told)"
    if lock.alive:
        return f"process {lock.owner_pid} (alive)"
    if lock.same_host is False:
        return f"process {lock.owner_pid} on another host (it cannot be checked from here)"
    return f"process {lock.owner_pid} (its state cannot be told)"


def plan_cache(ctx: Context) -> tuple[list[Action], list[Note]]:
    wanted = [f for f in ("cache-unlock", "cache-clear", "cache-purge") if ctx.wants(f)]
    if not wanted:
        return [], []
    path = section(ctx.facts, "compiledir").get("path")
    if not path:
        return [], [Note(wanted[0], "the compiledir is unknown (Theano's config was not read)")]
    path = str(path)
    if not os.path.isdir(path):
        return [], [Note(wanted[0], f"{path} does not exist: nothing to do")]
    proof = cdir.prove_compiledir(path, ctx.home)
    if not proof.ok:
        return [], [Note(f, f"refused: {proof.why}") for f in wanted]
    lock = cdir.lock_state(path)
    actions, notes = [], []
    if "cache-unlock" in wanted and lock.held:
        if lock.alive is False or ctx.force:
            owner = f"process {lock.owner_pid}" if lock.owner_pid else "no owner recorded"
            state = "dead" if lock.alive is False else "state unknown, --force"
            actions.append(Action("unlock", path, ("cache-unlock",), f"remove the stale compile lock ({owner}, "
                                  f"{state})", force=ctx.force))
            lock = lock._replace(held=False, alive=None)
        else:
            notes.append(Note("cache-unlock", f"refused: the lock is held by {_holder(lock)} (--force overrides)"))
    if lock.live and not ctx.force and {"cache-clear", "cache-purge"} & set(wanted):
        notes.append(Note("cache-clear", f"refused: the compile lock is held by {_holder(lock)}: it may be "
                                         "compiling now (wait for it, or --force)"))
        return actions, notes
    if "cache-purge" in wanted:
        actions.append(Action("purge", path, ("cache-purge",), f"delete the compiledir {path} ({proof.why}); "
                              "Theano recreates it", force=ctx.force))
    elif "cache-clear" in wanted:
        modules = _modules(path)
        if modules:
            actions.append(Action("clear", path, ("cache-clear",), f"delete {len(modules)} compiled module "
                                  f"folder(s) in {path}; Theano recompiles what it needs", items=tuple(modules),
                                  force=ctx.force))
        else:
            notes.append(Note("cache-clear", f"{path} holds no compiled modules"))
    return actions, notes
