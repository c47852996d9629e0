"""Repairs, one module each, applied through the safe file layer (see the fix command).

``FIX_IDS`` is the shared vocabulary: findings, causes (profiles/causes.yaml) and named stacks
name a repair by one of these ids. Importing this package loads nothing else."""

FIX_IDS = (
    "theanorc-encoding", "theanorc-rename", "theanorc-inline-comment", "theanorc-device", "theanorc-obsolete",
    "theanorc-pymc-names", "theanorc-enum-case", "theanorc-write", "blas-ldflags", "cuda-dll-aliases",
    "cuda-soname-links",
    "cache-clear", "cache-purge", "cache-unlock", "env-path", "env-packages",
)
# Repairs that change the environment (PATH, packages): `fix` prints the commands, never runs them.
PRINTS_ONLY = frozenset({"env-path", "env-packages"})


def fix_offer(fix_id: str) -> str:
    """What `fix` really does for this repair, in the words a user reads."""
    if fix_id in PRINTS_ONLY:
        return f"`theanodoctor fix --only {fix_id}` prints the commands to run (it never runs them)"
    return f"`theanodoctor fix --only {fix_id}` can do this"
