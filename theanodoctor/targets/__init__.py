"""Find the Python environment to check, by reading the file system only.

``theanodoctor check`` without ``--python`` calls :func:`discover` and :func:`choose` before
anything else, so this package never runs a candidate interpreter (the probe runs the chosen one,
once) and imports only light stdlib modules.

- :mod:`.fs`: bounded file-system helpers that never raise;
- :mod:`.layout`: where an environment keeps its interpreter, and which prefix it belongs to;
- :mod:`.resolve`: what the user passed as ``--python``;
- :mod:`.describe` (with :mod:`.version`, :mod:`.sites`, :mod:`.packages`): one environment
  described from its files;
- :mod:`.sources` and :mod:`.discover`: where environments are looked for, and the walk;
- :mod:`.candidate`: what is found, and the rule that picks one.
"""

from __future__ import annotations

from theanodoctor.targets.candidate import SOURCES, Candidate, choose
from theanodoctor.targets.describe import inspect_prefix
from theanodoctor.targets.discover import discover
from theanodoctor.targets.layout import env_prefix
from theanodoctor.targets.resolve import TargetError, resolve_python

__all__ = [
    "SOURCES",
    "Candidate",
    "TargetError",
    "choose",
    "discover",
    "env_prefix",
    "inspect_prefix",
    "resolve_python",
]
