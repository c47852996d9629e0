"""Which Theano releases register a configuration variable or section (`theano.config.scan`,
`theano.config.lib.cnmem`): ``profiles/theano_config_eras.yaml``, written by tools/config_eras.py
from the release trees.

``lookup("lib.cnmem")`` gives the releases that have it and where it is registered at the
releases that bound its range (the upstream file at the tag with its line); ``None`` for a name
no release read registers."""

from __future__ import annotations

from theanodoctor.kb_api_eras import Era, Project, name_era, read_project
from theanodoctor.knowledge import load_table, table

CONFIG_ERAS = "theano_config_eras.yaml"
MODULE = "theano.config"


@table
def project() -> tuple[Project, dict[str, str]]:
    """Theano's releases read, and name -> "RANGES [FILE:LINE ...]"."""
    row = load_table(CONFIG_ERAS)["theano"]
    return read_project(CONFIG_ERAS, "theano", row, {}), dict(r.split(" ", 1) for r in row["names"])


def lookup(name: str) -> Era | None:
    theano, names = project()
    value = names.get(name)
    return None if value is None else name_era(theano, {}, MODULE, name, value)
