"""How the doctor is stopped: Ctrl-C (SIGINT), a CI runner's SIGTERM, a closed terminal's SIGHUP.

Each becomes one exception, :class:`Stopped`, raised in the main thread, so every ``finally`` and
every "kill the child I started" handler runs on the way out; the exit code is the shell's
convention, 128 + the signal number (130, 143, 129). Starting a child process is a short
section the signal must not cut in two (a child started but not yet registered for killing):
:func:`deferred` holds a signal back until the section ends.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

NAMES = ("SIGINT", "SIGTERM", "SIGHUP")
_state = {"depth": 0, "pending": 0}


class Stopped(BaseException):
    """The doctor was told to stop by a signal (a BaseException, like KeyboardInterrupt)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(f"stopped by {self.name}")

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def _handler(signum: int, frame: FrameType | None) -> None:
    if _state["depth"]:
        _state["pending"] = _state["pending"] or signum
        return
    _ignore_more()
    raise Stopped(signum)


def _ignore_more() -> None:
    """After the first stop, a second Ctrl-C must not cut the cleanup short."""
    for name in NAMES:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)


def install() -> None:
    for name in NAMES:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _handler)


@contextmanager
def deferred() -> Iterator[None]:
    """A signal that arrives inside the block is acted on when the block ends (main thread only:
    signals are delivered to it; other threads need no shield)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _state["depth"] += 1
    try:
        yield
    finally:
        _state["depth"] -= 1
        pending, _state["pending"] = _state["pending"], 0
        if pending and not _state["depth"] and signal.getsignal(pending) is _handler:
            _ignore_more()
            raise Stopped(pending)
