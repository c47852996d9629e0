"""Make a new environment's own config file take effect: Theano reads only the files THEANORC names
(default ``~/.theanorc``), so ``<env>/theanorc`` alone would be ignored. A ``.pth`` file in the env's
site-packages runs at every start of its interpreter (``site`` executes ``.pth`` lines beginning
with ``import``, on Python 2.7 and 3.x alike, with or without activation) and sets THEANORC to that
file when it is unset, so a THEANORC the user sets still wins."""

from __future__ import annotations

import os

from theanodoctor.resolver import emit
from theanodoctor.resolver.provision import env_prefix, run_quick

HOOK_NAME = "theanodoctor-theanorc.pth"
_SITE = "import sysconfig; print(sysconfig.get_paths()['purelib'])"


def hook_line(theanorc: str) -> str:
    return f"import os; os.environ.setdefault('THEANORC', {theanorc!r})\n"


def install(python: str, theanorc_text: str) -> tuple[str, str]:
    """Write ``<env>/theanorc`` and the hook that points Theano at it; (theanorc path, hook path)."""
    theanorc = os.path.join(env_prefix(python), "theanorc")
    emit.write_new(theanorc, theanorc_text, force=True)
    site = run_quick([python, "-c", _SITE]).strip().splitlines()[-1]
    hook = os.path.join(site, HOOK_NAME)
    emit.write_new(hook, hook_line(theanorc), force=True)
    return theanorc, hook
