"""The operating system and the doctor's own Python."""

from __future__ import annotations

import platform
import socket
import struct
import sys
import time

from theanodoctor.facts import Json, envelope
from theanodoctor.host.common import describe


def _os_release() -> str | None:
    # Linux distribution name ("Debian GNU/Linux 12 (bookworm)"); Python 3.10+ only.
    reader = getattr(platform, "freedesktop_os_release", None)
    if reader is None:
        return None
    try:
        return str(reader().get("PRETTY_NAME")) or None
    except OSError:
        return None


def probe_system() -> Json:
    started = time.monotonic()
    try:
        data = {
            "os": platform.system(),
            "release": platform.release(),
            "version": platform.version(),
            "machine": platform.machine(),
            "platform": platform.platform(),
            "distribution": _os_release(),
            "hostname": socket.gethostname(),
            "doctor_python": {
                "version": platform.python_version(),
                "executable": sys.executable,
                "bits": struct.calcsize("P") * 8,
            },
        }
    except Exception as exc:  # platform calls can fail in odd sandboxes; report, never raise
        return envelope("error", describe(exc), time.monotonic() - started)
    return envelope("ok", None, time.monotonic() - started, **data)
