"""The check catalogue, one module per concern. Importing this package registers every check;
the order of the imports below is the order of the report."""

from theanodoctor.checks import (  # noqa: F401
    target,
    python_stack,
    theano_import,
    driver,
    device,
    compiler,
)
