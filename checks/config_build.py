"""The link settings a config file gives Theano, resolved on the machine the files are on (host
probe `build`): a `[blas] ldflags` or `[lib] amdlibm` library the linker cannot find lets
`import theano` work and fails every compiled computation (the configured `cxx` is judged by
cxx-compiler). Reproduced with real Theano 1.0.5 by tests/test_config_build.py."""

from __future__ import annotations

from theanodoctor.engine import Options, Outcome, check, error, ok, warn
from theanodoctor.facts import Facts

from .config_files import parsed


@check("theanorc-build", "The libraries the config links with are on this machine", area="config")
def theanorc_build(facts: Facts, options: Options) -> Outcome:
    files = parsed(facts)
    if isinstance(files, Outcome):
        return files
    errors: list[tuple[str, str]] = []  # (headline, detail)
    doubts: list[str] = []
    judged = 0
    for rc in files:
        build = rc.get("build")
        if not isinstance(build, dict):
            continue
        path = str(rc.get("path"))
        link = build.get("link")
        if not isinstance(link, dict):
            continue
        judged += 1
        for lib in link.get("libraries") or []:
            if lib.get("found"):
                continue
            head = f"{path}: the linker cannot find {lib.get('flag')}"
            text = (f"{head} (looked in the -L folders, the compiler's search folders and LIBRARY_PATH): "
                    + ("`[lib] amdlibm = True` makes Theano compile math ops against AMD LibM, so `import "
                       "theano` works, but every compiled math op fails (`fatal error: amdlibm.h: No such file "
                       "or directory`)" if lib.get("from") == "amdlibm" else
                       "`import theano` works, but every compiled computation fails with `ld: cannot find "
                       f"{lib.get('flag')}`"))
            if link.get("searched"):
                errors.append((head, text))
            else:
                doubts.append(text + " (the compiler's search folders are unknown, so this is not certain)")
        errors += [(f"{path}: -L{d}: no such folder",
                    f"{path}: -L{d}: no such folder: Theano lists each -L folder when it compiles, so `import "
                    f"theano` works, but every compiled computation fails with `FileNotFoundError: [Errno 2] No "
                    f"such file or directory: '{d}'`") for d in link.get("missing_dirs") or []]
    errors.sort(key=lambda e: ": -L" not in e[0])  # a missing folder fails before any library is looked up
    if errors:
        return error(errors[0][0] + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""),
                     cause="`[blas] ldflags` (or `[lib] amdlibm = True`) names a library or folder that is not "
                           "on this machine; Theano uses them for every compiled module.",
                     remedy="Install the library, or change `ldflags` (left empty, `ldflags =`, Theano uses "
                            "numpy's BLAS through its C API), or set `amdlibm = False`.",
                     details=tuple([text for _, text in errors] + doubts))
    if doubts:
        return warn(doubts[0], cause="Some link settings could not be confirmed.",
                    remedy="Check the folders and libraries named.", details=tuple(doubts))
    if not judged:
        return ok("no config file sets [blas] ldflags or [lib] amdlibm")
    return ok("the libraries the config names are there")
