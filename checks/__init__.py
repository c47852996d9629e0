"""The check catalogue, one module per concern. Importing this package registers every check;
``MODULES`` is the order of the report (kept as data so import sorting cannot change it)."""

import importlib

MODULES = (
    "target", "python_stack", "theano_import", "packages",
    "driver", "gpu", "toolkit", "libraries", "linux_libs", "cudnn", "compiler",
    "theanorc", "config_values", "config_quotes", "config_build", "theano_flags", "device", "cache",
)

for _name in MODULES:
    importlib.import_module(f"{__name__}.{_name}")
