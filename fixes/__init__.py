"""Repairs, one module each, applied through the safe file layer (see the fix command).

``FIX_IDS`` is the shared vocabulary: findings, causes (profiles/causes.yaml) and named stacks
name a repair by one of these ids. Importing this package loads nothing else."""

FIX_IDS = (
    "theanorc-encoding", "theanorc-rename", "theanorc-inline-comment", "theanorc-device", "theanorc-obsolete",
    "theanorc-pymc-names", "theanorc-write", "blas-ldflags", "cuda-dll-aliases", "cuda-soname-links",
    "cache-clear", "cache-purge", "cache-unlock", "env-path", "env-packages",
)
