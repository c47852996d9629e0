"""The fix runner: plans, the safe file layer (atomic write, backup, journal, lock) and undo.
The repairs themselves live in fixes/."""
