"""JSON documents: always an object with ``schema_version``, on success and failure alike."""

from __future__ import annotations

import json
from typing import Any

from theanodoctor.facts import SCHEMA_VERSION


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=False, default=str)


def error_document(kind: str, message: str, exit_code: int) -> str:
    return dumps({"schema_version": SCHEMA_VERSION, "error": {"kind": kind, "message": message},
                  "exit_code": exit_code})
