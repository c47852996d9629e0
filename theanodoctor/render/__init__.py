"""Formatters: each returns text and never prints (the CLI decides where text goes)."""
