"""`.theanorc` files in the repository: ported by fix's own line-keeping repairs
(fixes/rc_repairs.py: device=gpu -> cuda, lib.cnmem -> gpuarray.preallocate, nvcc.* dropped), judged
as Theano 1.0.5 reads them."""

from __future__ import annotations

from theanodoctor.facts import Facts, envelope
from theanodoctor.fixes import rc_repairs
from theanodoctor.fixes.context import Context
from theanodoctor.fixes.rc_draft import Draft
from theanodoctor.repair.action import Action

TARGET = Facts(target=envelope("ok", stages={"distributions": {"versions": {"Theano": "1.0.5"},
                                                               "theano_owner": "Theano"}}))
# fix's repairs -> the port rules each carries out (a repair runs whole: all of its rules or none)
REPAIRS = ((rc_repairs.fix_device, ("device-gpu", "init-gpu-device-gpu")),
           (rc_repairs.fix_obsolete, ("lib-cnmem", "nvcc-flags")))


def port_rc(path: str, data: bytes, wanted: set[str]) -> tuple[Action | None, list[tuple[str, str]], list[str]]:
    """The write action (None: nothing to change), (rule ids, what) per edit, and the repairs
    left out because only some of their rules were chosen."""
    draft = Draft(path, data)
    if not draft.editable:
        return None, [], []
    ctx = Context(TARGET, (), frozenset())
    edits: list[tuple[str, str]] = []
    partial: list[str] = []
    for repair, ids in REPAIRS:
        chosen = [i for i in ids if i in wanted]
        if not chosen:
            continue
        if len(chosen) < len(ids):
            partial.append(f"{' and '.join(ids)} are one repair of this file: choose all of them or none")
            continue
        done = len(draft.changes)
        repair(ctx, draft)
        edits += [(", ".join(ids), what) for _, what in draft.changes[done:]]
    return draft.action(), edits, partial
