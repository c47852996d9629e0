"""Theano's compile cache: the compiledir, its lock, stale modules and free disk
(Theano rel-1.0.5 theano/configdefaults.py:1724-1940).

Facts come from the host's ``compiledir`` section, probed at the path the target's Theano
reported; destructive remedies (unlocking, clearing) are only ever described, never commands.
"""

from __future__ import annotations

import ntpath
from typing import Any

from theanodoctor.engine import Options, Outcome, check, error, ok, skipped, warn
from theanodoctor.facts import Facts, section

from .common import PYMC, config_value, flavour, is_windows, stage

LOW_DISK_BYTES = 1 << 30  # a compiledir grows by tens of MB; under 1 GiB compiles start to fail


def _size(n: Any) -> str:
    if not isinstance(n, (int, float)):
        return "size unknown"
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return ""


def _cache(facts: Facts) -> tuple[dict[str, Any], Outcome | None]:
    cdir = section(facts, "compiledir")
    status = cdir.get("status")
    if status == "ok":
        return cdir, None
    if status == "error":
        return cdir, skipped(f"the compiledir could not be probed: {cdir.get('error')}")
    return cdir, skipped(f"no compiledir to judge ({cdir.get('error') or status})")


def _awkward(path: str) -> list[str]:
    found = []
    if " " in path:
        found.append("a space")
    if any(ord(c) > 127 for c in path):
        found.append("non-ASCII characters")
    return found


@check("compiledir", "Theano's compile cache folder is usable", area="cache")
def compiledir(facts: Facts, options: Options) -> Outcome:
    cdir, missing = _cache(facts)
    if missing:
        return missing
    path = str(cdir.get("path"))
    details = []
    if cdir.get("truncated"):
        details.append(f"size: {cdir['truncated']}")
    if cdir.get("delete_me_count"):
        details.append(f"{cdir['delete_me_count']} folder(s) marked for deletion by `theano-cache clear`")
    move = ("Point Theano at another folder: `base_compiledir = <folder>` under [global] in .theanorc, or "
            "THEANO_FLAGS=base_compiledir=<folder>.")
    if not cdir.get("writable"):
        said = ("compiledir '%s' exists but you don't have read, write or listing permissions." if cdir.get("exists")
                else "Unable to create the compiledir directory '%s'. Check the permissions.") % path
        return error(f"{path} is not writable: Theano cannot compile anything",
                     cause=f"Theano stops at import: `{said}`",
                     remedy="Give your user write access to the folder, or " + move[0].lower() + move[1:],
                     details=tuple(details))
    cxx, _ = config_value(facts, "cxx")
    mingw = cxx is None or "g++" in str(cxx).lower()
    awkward = _awkward(path)
    if is_windows(facts) and awkward and mingw:
        return warn(f"{path} contains {' and '.join(awkward)}",
                    cause="Theano passes this folder to g++ (MinGW) on every compile; spaces and non-ASCII "
                          "characters in it (typically from the Windows user name) are a known source of "
                          "compile failures with the MinGW toolchain.",
                    remedy=move.replace("<folder>", "a short ASCII path such as C:\\theano_cache", 1),
                    details=tuple(details))
    if not cdir.get("exists"):
        return ok(f"{path} does not exist yet; Theano will create it (the folder above is writable)",
                  details=tuple(details))
    return ok(f"{path}: {cdir.get('module_count', 0)} compiled modules, {_size(cdir.get('size_bytes'))}",
              details=tuple(details))


def _pymc_lock(cdir: dict[str, Any]) -> Outcome:
    lock = cdir.get("pymc_lock") or {}
    path = lock.get("path") or ".lock"
    never_stale = ("Theano-PyMC locks with the `filelock` package (`<compiledir>/.lock`): an OS lock that ends "
                   "with the process holding it, so it cannot be left stale; the file itself stays.")
    holders = lock.get("held_by")
    if holders:
        return warn(f"busy: process {', '.join(map(str, holders))} holds {path}; Theano-PyMC waits for it "
                    "(up to compile__timeout) before compiling", cause=never_stale,
                    remedy="Let that process finish, or stop it if it hangs.")
    if not lock.get("exists"):
        return ok("no compile lock held", details=(never_stale,))
    if holders is None:
        return ok(f"{path} exists; whether a process holds it right now cannot be read on this OS",
                  details=(never_stale,))
    return ok(f"{path} exists but no process holds it", details=(never_stale,))


@check("compile-lock", "No stale or busy compile lock", area="cache")
def compile_lock(facts: Facts, options: Options) -> Outcome:
    cdir, missing = _cache(facts)
    if missing:
        return missing
    if flavour(facts) == PYMC:
        return _pymc_lock(cdir)
    lock = cdir.get("lock") or {}
    lock_dir = ntpath.dirname(str(lock.get("path") or "<compiledir>/lock_dir/lock"))  # either separator
    age = f" (written {lock['age_s']:.0f} s ago)" if isinstance(lock.get("age_s"), (int, float)) else ""
    release = (f"Remove it with `theano-cache unlock` (it imports Theano first), or by deleting {lock_dir}; "
               "do either only once no Theano process is compiling.")
    if not lock.get("exists") and not lock.get("dir_exists"):
        return ok("no compile lock held")
    details = (f"lock file: {lock.get('path')}", f"content: {lock.get('raw')}") if lock.get("raw") else ()
    pid, host = lock.get("owner_pid"), lock.get("owner_host")
    if not lock.get("exists") or pid is None or lock.get("same_host") is None:
        return warn(f"{lock_dir} exists without a readable owner{age}: Theano waits compile.timeout "
                    "(120 s by default) before overriding it",
                    cause="Theano reads the owner from lock_dir/lock; without one it waits for the lock to stay "
                          "unchanged for compile.timeout, then takes it.",
                    remedy=release, details=details)
    if lock.get("same_host") is False:
        return warn(f"held by process {pid} on host {host}{age}: whether it is alive cannot be told from here",
                    cause="The compiledir is shared with another machine. Theano waits while the owner keeps "
                          "refreshing the lock and overrides it once it stays unchanged for compile.timeout "
                          "(120 s by default).",
                    remedy=f"Check process {pid} on {host}. If it is gone: " + release, details=details)
    if lock.get("alive") is None:
        return skipped(f"lock held by process {pid} on this host; whether it is alive is unknown", details=details)
    if lock.get("alive"):
        return warn(f"busy: process {pid} holds the compile lock{age}; Theano will wait "
                    f"(`Waiting for existing lock by process '{pid}'`)",
                    cause="Only one process compiles in a compiledir at a time; others wait for the lock.",
                    remedy=f"Let process {pid} finish. If it hangs, stop it; Theano then overrides the lock.",
                    details=details)
    if lock.get("theano_sees_same_host") is False:
        return warn(f"stale: process {pid} is dead, but Theano cannot tell: every compile waits compile.timeout "
                    "(120 s by default) before overriding the lock",
                    cause=f"The host name '{host}' contains '_': Theano compares only the text after the second '_' "
                          "of the lock's owner with its host name, never sees the owner as local, and so never "
                          "checks whether it is alive.",
                    remedy=release, details=details, fix_id="cache-unlock")
    return warn(f"stale: the lock's owner, process {pid}, is dead{age}",
                cause="A Theano process died while compiling. The next compile overrides the lock itself "
                      f"(`Overriding existing lock by dead process '{pid}'`).",
                remedy=release, details=details, fix_id="cache-unlock")


@check("compiledir-numpy", "Compiled modules match this numpy", area="cache")
def compiledir_numpy(facts: Facts, options: Options) -> Outcome:
    cdir, missing = _cache(facts)
    if missing:
        return missing
    keys = cdir.get("module_keys")
    if not isinstance(keys, dict):
        return skipped("the compiledir probe did not read the modules' keys")
    if not keys.get("modules_total"):
        return ok("no compiled modules yet")
    current = stage(facts, "numpy_import").get("ndarray_c_version")
    if not current:
        return skipped("this numpy's C ABI version is unknown (numpy did not import in the target)")
    abis: dict[str, int] = keys.get("abi_versions") or {}
    if not abis:
        return skipped(f"none of the {keys.get('modules_read')} module keys read records NPY_ABI_VERSION")
    other = {abi: n for abi, n in abis.items() if abi.lower() != str(current).lower()}
    sampled = f"{keys.get('modules_read')} of {keys.get('modules_total')} modules read"
    compilers = tuple(f"compiled with {c}: {n}" for c, n in sorted((keys.get("compilers") or {}).items()))
    if not other:
        return ok(f"all compiled modules were built for this numpy's C ABI ({current}); {sampled}",
                  details=compilers)
    stale = sum(other.values())
    return warn(f"{stale} compiled module(s) were built for another numpy C ABI "
                f"({', '.join(sorted(other))}; this numpy: {current})",
                cause="Theano writes numpy's C ABI version (NPY_ABI_VERSION) into each module's key and reuses a "
                      "module only when the key matches: these are stale, left from another numpy, never loaded "
                      "again, and only take space. (numpy 1.x releases share one ABI version, so this shows a "
                      "change of major version.)",
                remedy="Clear the cache once no Theano process runs: `theano-cache clear` in this environment "
                       "(it deletes compiled modules; Theano recompiles what it needs).",
                details=(sampled,) + compilers, fix_id="cache-clear")


@check("disk-space", "Free disk space where the compile cache lives", area="cache")
def disk_space(facts: Facts, options: Options) -> Outcome:
    cdir, missing = _cache(facts)
    if missing:
        return missing
    free = cdir.get("free_disk_bytes")
    if not isinstance(free, (int, float)):
        return skipped("free disk space was not measured")
    where = cdir.get("path")
    if free < LOW_DISK_BYTES:
        return warn(f"only {_size(free)} free on the disk holding {where}",
                    cause="Every compiled op adds a module (tens to hundreds of KB) to the compiledir; when the "
                          "disk fills, compiles fail.",
                    remedy="Free space, or move the cache elsewhere with `base_compiledir` "
                           "(THEANO_FLAGS=base_compiledir=<folder>).")
    return ok(f"{_size(free)} free on the disk holding the compiledir")
