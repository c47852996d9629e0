"""One module per command beyond the core ones in cli.py; each exposes a click command that
cli.py registers."""
