"""Make a new environment's own config file take effect: Theano reads only the files THEANORC names
(default ``~/.theanorc``), so ``<env>/theanorc`` alone would be ignored. A ``.pth`` file in the env's
site-packages runs at every start of its interpreter (``site`` executes ``.pth`` lines beginning
with ``import``, on Python 2.7 and 3.x alike, with or without activation) and sets THEANORC to that
file when it is unset, so a THEANORC the user sets still wins. While THEANORC is set Theano does
not read ``~/.theanorc``: to add it, set ``THEANORC=<env>/theanorc:~/.theanorc`` (later files win)."""

from __future__ import annotations

import os

from theanodoctor.resolver import emit
from theanodoctor.resolver.provision import env_prefix, run_quick

HOOK_NAME = "theanodoctor-theanorc.pth"
_SITE = "import sysconfig; print(sysconfig.get_paths()['purelib'])"


def hook_line(settings: dict[str, str]) -> str:
    """One line (``site`` runs a .pth line only whole): each variable set when unset."""
    return "import os; " + "; ".join(f"os.environ.setdefault({k!r}, {v!r})" for k, v in settings.items()) + "\n"


def install(python: str, theanorc_text: str, more: dict[str, str] | None = None) -> tuple[str, str]:
    """Write ``<env>/theanorc`` and the hook that points Theano at it (plus ``more`` variables the
    code needs, such as KERAS_BACKEND); (theanorc path, hook path)."""
    theanorc = os.path.join(env_prefix(python), "theanorc")
    emit.write_new(theanorc, theanorc_text, force=True)
    site = run_quick([python, "-c", _SITE]).strip().splitlines()[-1]
    hook = os.path.join(site, HOOK_NAME)
    emit.write_new(hook, hook_line({"THEANORC": theanorc, **(more or {})}), force=True)
    return theanorc, hook
