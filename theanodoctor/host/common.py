"""Small helpers shared by the host probes: OS conventions, PATH lookup, timed calls.

Probes take an ``os_name`` ("Linux", "Windows", "Darwin") so Windows rules can be exercised on
a Linux test machine against temp-dir trees: names and separators follow ``os_name``, while
existence is always checked on the real filesystem.
"""

from __future__ import annotations

import os
import platform
import threading
from collections.abc import Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Callable, TypeVar

WINDOWS = "Windows"
T = TypeVar("T")


def os_name_or_current(os_name: str | None) -> str:
    return os_name or platform.system() or "Linux"


def normalize_env(env: Mapping[str, str] | None, os_name: str) -> dict[str, str]:
    """A plain dict of ``env``; on Windows names are case-insensitive, so they are upper-cased."""
    source = os.environ if env is None else env
    if os_name == WINDOWS:
        return {k.upper(): v for k, v in source.items()}
    return dict(source)


def pathsep(os_name: str) -> str:
    return ";" if os_name == WINDOWS else ":"


def split_paths(value: str | None, os_name: str) -> list[str]:
    """Entries of a PATH-like variable in order, empty entries dropped."""
    return [p for p in (value or "").split(pathsep(os_name)) if p]


def exe_name(name: str, os_name: str) -> str:
    return name + ".exe" if os_name == WINDOWS and not name.lower().endswith(".exe") else name


def is_program(path: str, os_name: str) -> bool:
    # Windows runs any file with a known extension; POSIX needs the execute bit.
    return os.path.isfile(path) and (os_name == WINDOWS or os.access(path, os.X_OK))


def which(name: str, env: Mapping[str, str], os_name: str) -> str | None:
    """First ``name`` (``name.exe`` on Windows) on the PATH of ``env``, as the OS finds it."""
    name = exe_name(name, os_name)
    for folder in split_paths(env.get("PATH"), os_name):
        candidate = os.path.join(folder.strip('"'), name)
        if is_program(candidate, os_name):
            return candidate
    return None


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def describe(exc: BaseException) -> str:
    message = first_line(str(exc))
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def in_background(fn: Callable[..., T], *args: Any, thread_name: str = "theanodoctor-probe",
                  **kwargs: Any) -> Future[T]:
    """Run ``fn`` on a daemon thread and return its future. Unlike a ThreadPoolExecutor's worker,
    the thread is not waited for when the doctor exits: a stopped doctor ends at once, whatever a
    probe was doing (proc.start refuses new children once the doctor is closing)."""
    future: Future[T] = Future()
    future.set_running_or_notify_cancel()

    def target() -> None:
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: B036 - everything becomes a value
            future.set_exception(exc)

    threading.Thread(target=target, name=thread_name, daemon=True).start()
    return future


def call_with_timeout(fn: Callable[[], Any], timeout: float) -> tuple[str, Any]:
    """Run ``fn`` in a daemon thread; ("ok", value), ("error", exception) or ("timeout", None).

    For library calls that cannot be interrupted (NVML): a hung call is abandoned, not killed,
    and being a daemon thread it cannot keep the doctor from exiting.
    """
    future = in_background(fn, thread_name="theanodoctor-timed-call")
    try:
        error = future.exception(timeout)  # a stop of the doctor while waiting is not the call's error
    except FutureTimeout:
        return "timeout", None
    return ("error", error) if error is not None else ("ok", future.result())
