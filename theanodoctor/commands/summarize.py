"""`theanodoctor summarize`: one view of many machines, from the reports they sent in."""

from __future__ import annotations

import sys

import click

from theanodoctor.clikit import Failure, emit, note

SUMMARIZE_HELP = """\b
Collect one JSON document per machine with what you already run (examples/ci/ has each one
ready to copy):
  ansible-playbook -i inventory.ini examples/ci/ansible-fleet-report.yml
  sbatch --nodelist='node[01-08]' examples/ci/slurm-fleet-report.sbatch
  a CI matrix job per runner saving `preflight --format json` as an artifact
then name the machines you expect, so a dead one is a row that fails the run:
  theanodoctor summarize reports/ --expect inventory.ini
  theanodoctor summarize reports/ --expect 'node[01-08]'
Reports are redacted, so a machine is named by its file (or its host name with --no-redact).
The doctor does no remote execution of its own.

\b
Exit codes (the same rule as preflight, per machine; the worst machine wins):
  0  every machine reported and none has a blocking problem
  1  a machine has a blocking problem (a check error, a failed smoke test, a failed preflight
     document), or sent no usable report (missing, empty, unreadable), or with --strict a warning
  2  usage error (no input, or no input file could be used and no --expect given)
  3  the doctor failed, or a machine's checks could not finish
  130  stopped by Ctrl-C (143: SIGTERM, 129: SIGHUP); nothing it started is left running
"""


@click.command(epilog=SUMMARIZE_HELP)
@click.argument("paths", nargs=-1, metavar="REPORT.json... | FOLDER")
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True, help="text for people; markdown to paste; json for tools.")
@click.option("--expect", "expect", multiple=True, metavar="HOSTS",
              help="The machines that should have reported: a hosts file (one name or host list per line), "
                   "an Ansible inventory (INI or YAML, recognised by its form) or a Slurm host list such as "
                   "'node[01-08]'. Each one without a usable report is a row and fails the run. Repeatable.")
@click.option("--expect-ansible", "expect_ansible", multiple=True, metavar="INVENTORY",
              help="Like --expect, read as an Ansible inventory whatever its form.")
@click.option("--group", metavar="NAME", help="With an Ansible inventory: expect only this group's hosts.")
@click.option("--require-gpu", is_flag=True, help="Judge every machine as a GPU machine (no GPU path is an error).")
@click.option("--strict", is_flag=True, help="A warning fails the machine too (what preflight does).")
@click.option("--by-config", is_flag=True, help="One row for identical machines (same facts and results).")
@click.option("--problems-only", is_flag=True, help="Show only the machines that fail (and those without a report).")
def summarize(paths: tuple[str, ...], fmt: str, expect: tuple[str, ...], expect_ansible: tuple[str, ...],
              group: str | None, require_gpu: bool, strict: bool, by_config: bool, problems_only: bool) -> None:
    """One table of many machines, from the reports they sent in.

    Merges snapshots (`report --format json`) and check/preflight JSON outputs: the key facts and
    Theano settings per machine, what differs between machines, and the failures grouped by
    root cause. Every machine is judged again by this doctor's checks with the same options, so
    the rows compare; a preflight document's own verdict stands as well."""
    from theanodoctor import engine
    from theanodoctor.fleet import table
    from theanodoctor.fleet.expect import ExpectError, expected_hosts
    from theanodoctor.fleet.load import load_each

    if not paths and not (expect or expect_ansible):
        raise click.UsageError("give the reports (files or folders), and --expect for the machines that should "
                               "have sent one")
    try:
        expected = [h for source in expect for h in expected_hosts(source, group=group)]
        expected += [h for source in expect_ansible for h in expected_hosts(source, ansible=True, group=group)]
    except ExpectError as exc:
        raise Failure(f"--expect: {exc}", 2) from exc
    fleet = table.merge(load_each(paths), engine.all_checks(), engine.Options(require_gpu=require_gpu),
                        strict=strict, expected=expected)
    exit_code = fleet.exit_code
    shown = table.by_config(fleet) if by_config else fleet
    shown = table.problems_only(shown) if problems_only else shown
    if fmt == "json":
        from theanodoctor.facts import SCHEMA_VERSION
        from theanodoctor.fleet.jsondoc import json_chunks

        for chunk in json_chunks(shown, {"schema_version": SCHEMA_VERSION, "exit_code": exit_code}):
            sys.stdout.write(chunk)
        sys.stdout.flush()
    elif fmt == "markdown":
        from theanodoctor.fleet.render import render_markdown

        emit(render_markdown(shown))
    else:
        from theanodoctor.fleet.render import render_text

        emit(render_text(shown))
    if not fleet.reported and not fleet.expected:
        note(f"theanodoctor: none of the {len(fleet.problems)} input file(s) is a theanodoctor snapshot or report")
    sys.exit(exit_code)
