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
# fix's repair ids -> the port rules they carry out
RULES = {"theanorc-device": ("device-gpu", "init-gpu-device-gpu"), "theanorc-obsolete": ("lib-cnmem", "nvcc-flags")}


def port_rc(path: str, data: bytes, wanted: set[str]) -> tuple[Action | None, list[tuple[str, str]]]:
    """The write action (None: nothing to change) and (rule ids, what) per edit."""
    draft = Draft(path, data)
    if not draft.editable:
        return None, []
    ctx = Context(TARGET, (), frozenset())
    if wanted & set(RULES["theanorc-device"]):
        rc_repairs.fix_device(ctx, draft)
    if wanted & set(RULES["theanorc-obsolete"]):
        rc_repairs.fix_obsolete(ctx, draft)
    edits = [(", ".join(r for r in RULES.get(fix_id, (fix_id,)) if r in wanted), what)
             for fix_id, what in draft.changes]
    return draft.action(), edits
