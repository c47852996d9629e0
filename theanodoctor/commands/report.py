"""`theanodoctor report`: the facts snapshot for bug reports and `check --from`."""

from __future__ import annotations

import click

from theanodoctor.clikit import emit, python_option, timeout_option


@click.command()
@python_option
@click.option("--format", "-f", "fmt", type=click.Choice(["json"]), default="json", show_default=True,
              help="json: the full facts snapshot, loadable with `check --from`.")
@click.option("--no-redact", is_flag=True, help="Keep home paths, host names and GPU UUIDs.")
@timeout_option
def report(python_spec: str | None, fmt: str, no_redact: bool, timeout: float) -> None:
    """Print the facts snapshot (redacted by default) for bug reports and `check --from`."""
    from theanodoctor.gather import Pending, select_target

    python, candidates = select_target(python_spec)
    facts = Pending(python, candidates, probe_timeout=timeout).wait()
    data = facts.to_dict()
    if not no_redact:
        from theanodoctor.redact import redact

        data = redact(data)
    from theanodoctor.render.jsonfmt import dumps

    emit(dumps(data))
