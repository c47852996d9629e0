"""The smoke test: real Theano work in the target, judged (runner.py runs, result.py judges)."""

from __future__ import annotations

from typing import Any


def smoke_test(python: str, options: Any) -> Any:
    """Run the smoke script in ``python`` with ``runner.Options`` and judge it (a SmokeResult)."""
    from theanodoctor.smoke.result import judge
    from theanodoctor.smoke.runner import run_smoke

    return judge(run_smoke(python, options), options.device, options.stages)
