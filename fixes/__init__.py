"""Repairs, one module each, applied through the safe file layer (see the fix command)."""
