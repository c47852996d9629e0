"""Knowledge as data: YAML tables with a source for every row (loaded by theanodoctor.knowledge)."""
