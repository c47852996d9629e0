"""Settings `fix` writes into the config file: the ones a toolkit needs (``theanorc-write``:
device, floatX, ``[cuda] root``, ``[dnn] base_path``) and ``blas.ldflags`` for numpy 1.22/1.23
(Theano rel-1.0.5 theano/configdefaults.py:1276-1284: an explicit value, even empty, skips Theano's
failing BLAS probe)."""

from __future__ import annotations

from theanodoctor.checks.common import (
    config_value,
    dist_version,
    flavour,
    gpuarray_device,
    is_set,
    norm_path,
    old_backend_device,
)
from theanodoctor.checks.common import python_version as target_python
from theanodoctor.checks.cuda_toolkits import toolkit_in_use

from theanodoctor.facts import Json, section

from .context import Context
from .rc_draft import Draft


def chosen_kit(ctx: Context) -> Json | None:
    return ctx.cuda or toolkit_in_use(ctx.facts).kit


def _set(draft: Draft, fix_id: str, sect: str, option: str, value: str, why: str) -> None:
    if draft.rc.get(sect, option) != value and draft.rc.set(sect, option, value):
        draft.note(fix_id, f"[{sect}] {option} = {value}".rstrip() + (f" ({why})" if why else ""))


def _cudnn_root(ctx: Context, kit: Json) -> str | None:
    """A cuDNN 5-7 install outside the toolkit (Theano finds one inside it by itself)."""
    for install in section(ctx.facts, "cudnn").get("installs") or []:
        if isinstance(install, dict) and install.get("major") in (5, 6, 7) and not install.get("in_toolkit") \
                and install.get("root"):
            return str(install["root"])
    return None


def write_for_toolkit(ctx: Context, draft: Draft) -> None:
    kit = chosen_kit(ctx)
    if kit is None:
        return
    fix = "theanorc-write"
    device, source = config_value(ctx.facts, "device")
    keep_old = old_backend_device(ctx.facts, device)  # Theano <= 0.9 already set up for its old back-end
    if not keep_old and (not gpuarray_device(device) or ctx.cuda is not None and not str(device).startswith("cuda")):
        _set(draft, fix, "global", "device", "cuda", "the gpuarray back-end on the first GPU")
    if not is_set(ctx.facts, "floatX") and draft.rc.get("global", "floatx") is None:
        _set(draft, fix, "global", "floatX", "float32", "what GPUs compute fast")
    root, _ = config_value(ctx.facts, "cuda.root")
    if not root or norm_path(str(root), ctx.os_name) != norm_path(str(kit["root"]), ctx.os_name):
        _set(draft, fix, "cuda", "root", str(kit["root"]), f"CUDA {kit.get('version') or '?'}")
    cudnn = _cudnn_root(ctx, kit)
    base, _ = config_value(ctx.facts, "dnn.base_path")
    if cudnn and (not base or norm_path(str(base), ctx.os_name) != norm_path(cudnn, ctx.os_name)):
        _set(draft, fix, "dnn", "base_path", cudnn, "cuDNN found outside the toolkit")


def needs_blas_ldflags(ctx: Context) -> bool:
    flav, numpy, python = flavour(ctx.facts), dist_version(ctx.facts, "numpy"), target_python(ctx.facts)
    if not flav or not numpy or is_set(ctx.facts, "blas.ldflags"):
        return False
    from theanodoctor.checks.python_stack import compat_hits

    return any(r.unless_flag and r.unless_flag.replace("__", ".") == "blas.ldflags"
               for r in compat_hits(flav, python, numpy, dist_version(ctx.facts, flav)))


def write_blas_ldflags(ctx: Context, draft: Draft) -> None:
    if needs_blas_ldflags(ctx) and draft.rc.get("blas", "ldflags") is None:
        _set(draft, "blas-ldflags", "blas", "ldflags", "",
             "empty: Theano then skips numpy's missing blas_opt_info and uses NumPy's C-API for BLAS")
