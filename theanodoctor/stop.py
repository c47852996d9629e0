"""How the doctor is stopped: Ctrl-C (SIGINT), a CI runner's SIGTERM, a closed terminal's SIGHUP.

Each becomes one exception, :class:`Stopped`, raised in the main thread, so every ``finally`` and
every "kill the child I started" handler runs on the way out; the exit code is the shell's
convention, 128 + the signal number (130, 143, 129). Starting a child process is a short
section the signal must not cut in two (a child started but not yet registered for killing):
:func:`deferred` holds a signal back until the section ends.

Python runs a signal's handler wherever the main thread is, and that may be inside a finalizer
(a ``__del__``, a generator closed by the garbage collector) that the collector ran at that moment.
An exception raised there is printed as "Exception ignored in ..." and dropped, and the doctor
would go on with its handlers already ignoring further signals. :func:`_not_lost` catches such a
:class:`Stopped` and has a timer (SIGALRM) send the signal again until it is raised outside a
finalizer; like any signal, the timer's also ends a blocking wait of the main thread.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

NAMES = ("SIGINT", "SIGTERM", "SIGHUP")
_state = {"depth": 0, "pending": 0, "in_hook": 0, "lost": 0}
_RESEND = getattr(signal, "SIGALRM", 0)
_previous_hook: list[Callable[[Any], object]] = [sys.__unraisablehook__]


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
    if signum == _RESEND:
        signum = _state["lost"]
    if _state["in_hook"] or not signum:
        return  # the timer sends it again
    if _state["depth"]:
        _state["pending"] = _state["pending"] or signum
        return
    _stopping()
    raise Stopped(signum)


def _stopping() -> None:
    """After the first stop, a second Ctrl-C must not cut the cleanup short."""
    if _state["lost"]:
        _state["lost"] = 0
        signal.setitimer(signal.ITIMER_REAL, 0)
    for name in NAMES:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)


def install() -> None:
    for name in NAMES:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _handler)
    if sys.unraisablehook is not _not_lost:
        _previous_hook[:] = [sys.unraisablehook]
        sys.unraisablehook = _not_lost


def _not_lost(unraisable: Any) -> None:
    """A Stopped that a finalizer swallowed comes again every few milliseconds, from a timer, until
    it is raised outside one. (No thread is started and no lock taken here: the collector may have
    run the finalizer while the main thread held one.)"""
    exc = unraisable.exc_value
    if not isinstance(exc, Stopped) or not hasattr(signal, "setitimer"):
        _previous_hook[0](unraisable)
        return
    _state["in_hook"] = 1
    install()
    signal.signal(_RESEND, _handler)
    _state["lost"] = exc.signum
    signal.setitimer(signal.ITIMER_REAL, 0.02, 0.02)
    _state["in_hook"] = 0


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
            _stopping()
            raise Stopped(pending)
