# -*- coding: utf-8 -*-
"""Facts about the Python/numpy/Theano stack, gathered *inside* the target interpreter.

Run as ``python target_probe.py COOKIE``. Standard library only; must parse and run on every
Python from 2.7 to 3.13 (no f-strings, annotations, walrus, keyword-only arguments, typing).
It avoids 2.7-only syntax too (dict/set comprehensions), so an older Python reaches the gate.

Protocol: every document is one JSON object written to stdout as
``COOKIE[::-1] + json + COOKIE + "\\n"`` (the reader finds it anywhere, even after a partial line
of the target's own). Documents are written as the probe goes, so a crash (a segfault while
importing Theano) keeps the facts gathered before it:

- ``{"probe_version": 1, "running": NAME}``            before stage NAME starts
- ``{"probe_version": 1, "stages": {NAME: {...}}}``    when it ends
- ``{"probe_version": 1, "done": true}``               after the last stage
- ``{"probe_version": 1, "refused": "why"}``           from the version gate (exit code 3)

The reader merges the ``stages`` of all documents. Anything else the target prints is not
part of the protocol; the runner keeps it as a fact. Every stage records ``ok``,
``elapsed_s`` and what was said while it ran (``warnings``, ``log``, ``stdout``, ``stderr``);
a failing stage records ``error`` = {type, message, frames} and hides nothing else.
"""
import sys

if sys.version_info < (2, 7):
    _COOKIE = len(sys.argv) > 1 and sys.argv[1] or ""
    sys.stdout.write(_COOKIE[::-1] + '{"probe_version": 1, "refused": "Python %d.%d.%d is'
                     ' too old: the probe needs Python 2.7 or newer"}' % tuple(sys.version_info[:3])
                     + _COOKIE + "\n")
    sys.stdout.flush()
    sys.exit(3)

import json  # noqa: E402  (after the gate on purpose)
import logging  # noqa: E402
import os  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402

PY2 = sys.version_info[0] == 2
if PY2:
    from StringIO import StringIO  # accepts both str and unicode, as Python 2 code prints both
    TEXT = unicode  # noqa: F821
    NUMBERS = (int, long, float)  # noqa: F821
else:
    from io import StringIO
    TEXT = str
    NUMBERS = (int, float)

PROBE_VERSION = 1
COOKIE = sys.argv[1] if len(sys.argv) > 1 else ""
OUT = sys.stdout  # the protocol channel, kept before any stage can swap sys.stdout
MAX_WARNINGS = 50
MAX_FRAMES = 8
WANTED_DISTS = ("numpy", "scipy", "Theano", "Theano-PyMC", "pygpu", "mkl-service", "six",
                "aesara", "pytensor")
CONFIG_KEYS = ("device", "floatX", "cxx", "base_compiledir", "compiledir", "blas.ldflags",
               "gpuarray.preallocate", "dnn.enabled", "cuda.root", "dnn.base_path",
               "dnn.library_path", "dnn.include_path", "mode", "init_gpu_device", "force_device",
               "optimizer", "linker", "contexts")
# Libraries libgpuarray dlopen()s at run time; which of them the process mapped proves they loaded.
GPU_LIBRARY_WORDS = ("libcuda.so", "libnvrtc.so", "libcublas.so", "libOpenCL.so", "libclblas", "libclblast")

# The script's own folder must not shadow anything the target imports.
if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]


# -- output -------------------------------------------------------------------------------------

def text(value):
    """A unicode string for any value, never raising (Python 2 messages may be odd bytes)."""
    try:
        if isinstance(value, TEXT):
            return value
        if isinstance(value, bytes):
            return value.decode("utf-8", "replace")
        return TEXT(value)
    except Exception:
        try:
            return text(repr(value))
        except Exception:
            return "<unprintable %s>" % type(value).__name__


def clean(value):
    """Plain JSON data, whatever odd objects a stage picked up."""
    if value is None or isinstance(value, bool) or isinstance(value, NUMBERS):
        return value
    if isinstance(value, dict):
        return dict((text(k), clean(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return text(value)


def emit(doc):
    doc["probe_version"] = PROBE_VERSION
    try:
        payload = json.dumps(clean(doc), ensure_ascii=True, sort_keys=True)
    except Exception as exc:
        payload = json.dumps({"probe_version": PROBE_VERSION,
                              "error": "could not serialise: " + text(exc)})
    OUT.write(COOKIE[::-1] + payload + COOKIE + "\n")
    OUT.flush()


def describe_exception(exc):
    cls = type(exc)
    name = getattr(cls, "__qualname__", cls.__name__)
    module = getattr(cls, "__module__", "")
    if module not in ("builtins", "exceptions", "__builtin__", "__main__", None):
        name = module + "." + name
    try:
        message = str(exc)
    except Exception:
        message = repr(exc)
    frames = []
    tb = [f for f in traceback.extract_tb(sys.exc_info()[2]) if f[0] != __file__]  # not ours
    for frame in tb[-MAX_FRAMES:]:
        frames.append({"file": frame[0], "line": frame[1], "function": frame[2],
                       "text": frame[3]})
    return {"type": name, "message": text(message), "frames": frames}


# -- capturing what a stage says ------------------------------------------------------------------

class LogLines(logging.Handler):
    """Collects the "theano" logger's records as Theano itself would print them.

    Attached before ``import theano``, so Theano adds no stderr handler of its own."""

    def __init__(self):
        logging.Handler.__init__(self)
        self.lines = []
        self.setFormatter(logging.Formatter("%(levelname)s (%(name)s): %(message)s"))

    def emit(self, record):
        try:
            self.lines.append(self.format(record))
        except Exception:
            self.lines.append(text(getattr(record, "msg", record)))


LOG = LogLines()
logging.getLogger("theano").addHandler(LOG)


class Capture(object):
    """Warnings, "theano" log lines and Python-level stdout/stderr while a stage runs.

    Output written straight to the file descriptors (C code, compilers) still reaches the real
    stdout/stderr, where the runner keeps it."""

    def __enter__(self):
        self.catcher = warnings.catch_warnings(record=True)
        self.caught = self.catcher.__enter__()
        warnings.simplefilter("always")
        self.first_log = len(LOG.lines)
        self.saved = (sys.stdout, sys.stderr)
        self.buffers = (StringIO(), StringIO())
        sys.stdout, sys.stderr = self.buffers
        return self

    def __exit__(self, *exc_info):
        sys.stdout, sys.stderr = self.saved
        self.catcher.__exit__(*exc_info)
        rebind_log_streams(self.buffers, self.saved)
        return False

    def said(self):
        return {"warnings": summarise_warnings(self.caught),
                "log": LOG.lines[self.first_log:],
                "stdout": buffer_text(self.buffers[0]),
                "stderr": buffer_text(self.buffers[1])}


def buffer_text(buf):
    try:
        return text(buf.getvalue())
    except Exception as exc:  # Python 2 StringIO mixing non-ASCII str and unicode
        return "<unreadable output: %s>" % text(exc)


def rebind_log_streams(buffers, real):
    """A StreamHandler created during a capture holds our buffer; point it back at the real
    stream so later messages are not lost."""
    loggers = [logging.getLogger()] + list(logging.Logger.manager.loggerDict.values())
    for logger in loggers:
        for handler in getattr(logger, "handlers", ()):
            stream = getattr(handler, "stream", None)
            for buf, target in zip(buffers, real):
                if stream is buf:
                    handler.stream = target


def summarise_warnings(caught):
    unique = {}
    order = []
    for item in caught:
        key = (item.category.__name__, text(item.message), item.filename, item.lineno)
        if key not in unique:
            if len(order) >= MAX_WARNINGS:
                continue
            order.append(key)
            unique[key] = 0
        unique[key] += 1
    return [{"category": k[0], "message": k[1], "file": k[2], "line": k[3], "count": unique[k]}
            for k in order]


def run_stage(stages, name, func):
    emit({"running": name})
    started = time.time()
    with Capture() as capture:
        try:
            result = func(stages)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit from a broken package is a fact too
            result = {"ok": False, "error": describe_exception(exc)}
    result.setdefault("ok", True)
    result.setdefault("error", None)
    result.update(capture.said())
    result["elapsed_s"] = round(time.time() - started, 4)
    stages[name] = result
    emit({"stages": {name: result}})


# -- stages -------------------------------------------------------------------------------------

def stage_interpreter(stages):
    import platform
    import struct
    import sysconfig

    base_prefix = getattr(sys, "real_prefix", None) or getattr(sys, "base_prefix", sys.prefix)
    try:
        include = sysconfig.get_paths()["include"]
    except Exception:
        include = None
    try:
        import locale
        preferred = locale.getpreferredencoding(False)
    except Exception:
        preferred = None
    return {
        "version": "%d.%d.%d" % tuple(sys.version_info[:3]),
        "version_info": list(sys.version_info),
        "implementation": platform.python_implementation(),
        "bits": struct.calcsize("P") * 8,
        "executable": sys.executable,
        "prefix": sys.prefix,
        "base_prefix": base_prefix,
        "is_venv": base_prefix != sys.prefix,
        "is_conda": os.path.isdir(os.path.join(sys.prefix, "conda-meta")),
        "platform": platform.platform(),
        "system": platform.system(),
        "machine": platform.machine(),
        "maxunicode": sys.maxunicode,
        "filesystem_encoding": sys.getfilesystemencoding(),
        "preferred_encoding": preferred,
        "include_dir": include,
        "has_python_h": bool(include) and os.path.isfile(os.path.join(include, "Python.h")),
        "python_libs": python_libs(include),
        "dll_dirs": windows_dll_dirs(),
        # as the target sees it after its startup: a .pth hook of the env may have set it
        "theanorc_env": os.environ.get("THEANORC"),
    }


def python_libs(include):
    """Windows: the import library Theano links every module with (-l pythonXY from the
    ``libs`` folder beside the include folder, as theano/gof/cmodule.py does); else None."""
    if sys.platform != "win32" or not include:
        return None
    folder = os.path.join(os.path.dirname(include), "libs")
    try:
        files = sorted(n for n in os.listdir(folder) if n.lower().startswith(("python", "libpython")))
    except OSError:
        files = None
    return {"dir": folder, "name": "python%d%d" % tuple(sys.version_info[:2]), "files": files}


CUDA_DLL_PREFIXES = ("nvrtc64_", "cublas64_", "cudart64_", "cufft64_", "curand64_", "cusolver64_",
                     "cusparse64_", "cudnn64_", "nvcuda")
MAX_DLL_DIRS = 200


def windows_dll_dirs():
    """Windows: the CUDA/cuDNN DLLs in each PATH folder of this process, in PATH order (where
    pygpu's LoadLibrary looks for nvrtc64_*/cublas64_* by bare name); None elsewhere. A folder
    that cannot be listed has ``dlls`` None."""
    if sys.platform != "win32":
        return None
    found = []
    for entry in os.environ.get("PATH", "").split(os.pathsep)[:MAX_DLL_DIRS]:
        folder = entry.strip().strip('"')
        if not folder:
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            found.append({"dir": folder, "dlls": None})
            continue
        found.append({"dir": folder, "dlls": sorted(
            n for n in names if n.lower().endswith(".dll") and n.lower().startswith(CUDA_DLL_PREFIXES))})
    return found


def norm_name(name):
    return name.lower().replace("-", "_").replace(".", "_")


def metadata_file(path):
    """The file holding Name/Version headers of a *.dist-info / *.egg-info / *.egg entry."""
    if path.endswith(".dist-info"):
        return os.path.join(path, "METADATA")
    if path.endswith(".egg"):
        return os.path.join(path, "EGG-INFO", "PKG-INFO")
    return os.path.join(path, "PKG-INFO") if os.path.isdir(path) else path


def read_headers(path):
    import io
    found = {}
    with io.open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            line = line.rstrip("\r\n")
            if not line:
                break
            key, sep, value = line.partition(":")
            if sep and key in ("Name", "Version"):
                found[key] = value.strip()
            elif sep and key == "Requires-Dist" and "extra" not in value:
                found.setdefault("requires", []).append(value.strip())
    return found


def egg_requires(path):
    """Unconditional requirements of an *.egg-info folder (requires.txt, before any [section])."""
    import io
    found = []
    with io.open(os.path.join(path, "requires.txt"), encoding="utf-8", errors="replace") as handle:
        for line in handle:
            line = line.strip()
            if line.startswith("["):
                break
            if line:
                found.append(line)
    return found


def scan_dists(wanted):
    """Installed distributions by reading metadata along sys.path, importing nothing.

    One code path for 2.7 ... 3.13: importlib.metadata only exists from 3.8 and does not
    normalise '-'/'_' in names before 3.10. The first hit on sys.path is what import uses;
    later ones are kept as ``others`` (a shadowed or half-uninstalled copy is a real bug)."""
    found = {}
    theano_dir = None
    seen = set()
    for entry in sys.path:
        folder = os.path.abspath(entry or ".")
        if folder in seen or not os.path.isdir(folder):
            continue
        seen.add(folder)
        try:
            children = sorted(os.listdir(folder))
        except OSError:
            continue
        if theano_dir is None and "theano" in children and \
                os.path.isfile(os.path.join(folder, "theano", "__init__.py")):
            theano_dir = folder
        for child in children:
            stem = None
            for ext in (".dist-info", ".egg-info", ".egg"):
                if child.endswith(ext):
                    stem = child[:-len(ext)]
            key = stem is not None and wanted.get(norm_name(stem.split("-")[0]))
            if not key:
                continue
            path = os.path.join(folder, child)
            record = {"location": folder, "path": path, "version": None}
            try:
                headers = read_headers(metadata_file(path))
                record["name"] = headers.get("Name")
                record["version"] = headers.get("Version")
                # What the package declares it needs (scipy: its numpy range).
                record["requires"] = headers.get("requires") or []
                if path.endswith(".egg-info") and os.path.isdir(path) and not record["requires"]:
                    record["requires"] = attempt([], "requires", egg_requires, path) or []
            except (IOError, OSError):  # a zipped .egg: the file name carries the version
                parts = stem.split("-")
                record["version"] = parts[1] if len(parts) > 1 else None
            found.setdefault(key, []).append(record)
    return found, theano_dir


def record_hash_matches(record, package_dir):
    """Whether theano/__init__.py on disk is the one listed in this dist's RECORD."""
    import base64
    import hashlib
    try:
        with open(os.path.join(record["path"], "RECORD")) as handle:
            for line in handle:
                parts = line.strip().split(",")
                if parts[0] == "theano/__init__.py" and parts[1].startswith("sha256="):
                    with open(os.path.join(package_dir, "theano", "__init__.py"), "rb") as src:
                        digest = hashlib.sha256(src.read()).digest()
                    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == parts[1][7:]
    except (IOError, OSError, IndexError):
        pass
    return False


def theano_owner(found, theano_dir):
    """Theano 1.0.5 and Theano-PyMC both install the package ``theano``: which one is it?"""
    here = []
    for name in ("Theano", "Theano-PyMC"):
        for record in found.get(name, ()):
            if record["location"] == theano_dir:
                here.append((name, record))
    if len(here) == 1:
        return here[0][0]
    matching = [name for name, record in here if record_hash_matches(record, theano_dir)]
    return matching[0] if len(matching) == 1 else None


def stage_distributions(stages):
    wanted = dict((norm_name(name), name) for name in WANTED_DISTS)
    found, theano_dir = scan_dists(wanted)
    packages, versions = {}, {}
    for name in WANTED_DISTS:
        records = found.get(name)
        packages[name] = dict(records[0], others=records[1:]) if records else None
        versions[name] = records[0]["version"] if records else None
    return {"method": "scan", "versions": versions, "packages": packages,
            "theano_dir": theano_dir,
            "theano_owner": theano_owner(found, theano_dir) if theano_dir else None}


def stage_numpy_import(stages):
    import numpy
    result = {"version": getattr(numpy, "__version__", None),
              "file": getattr(numpy, "__file__", None)}
    config = getattr(numpy, "__config__", None)
    if config is not None:
        # Theano 1.0.5 reads blas_opt_info (gone from numpy 1.22 wheels); record what is there.
        result["config_info_names"] = sorted(n for n in dir(config) if n.endswith("_info"))
        blas = getattr(config, "blas_opt_info", None)
        if blas is None:
            blas = getattr(config, "CONFIG", {}).get("Build Dependencies", {}).get("blas")
        result["blas"] = blas
    # The C ABI version Theano writes into every compiled module's key (NPY_ABI_VERSION=0x...).
    result["ndarray_c_version"] = attempt([], "abi", ndarray_c_version)
    folder = os.path.dirname(getattr(numpy, "__file__", "") or "")
    # Anaconda's MKL numpy ships numpy/_mklinit*, which satisfies Theano's MKL check without mkl.
    result["mklinit"] = bool(folder) and any(
        n.startswith("_mklinit") for n in (attempt([], "mklinit", os.listdir, folder) or []))
    return result


def ndarray_c_version():
    """As Theano 1.0.5 computes it (gof/cc.py), for numpy 1.x and 2.x."""
    import importlib
    for name in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath",
                 "numpy.core.multiarray"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        getter = getattr(module, "_get_ndarray_c_version", None)
        if getter is not None:
            return "0x%X" % getter()
    return None


def stage_theano_import(stages):
    import theano
    return {"version": getattr(theano, "__version__", None),
            "file": getattr(theano, "__file__", None)}


def parse_flags(value):
    """THEANO_FLAGS exactly as Theano splits it: shlex on commas, right-most value wins."""
    import shlex
    flags = {}
    splitter = shlex.shlex(value, posix=True)
    splitter.whitespace = ","
    splitter.whitespace_split = True
    for pair in splitter:
        pair = pair.strip()
        if "=" in pair:
            key, val = pair.split("=", 1)
            flags[key] = val
    return flags


def config_files(cfgmod):
    files = getattr(cfgmod, "config_files", None)  # Theano 1.0.x: module-level list
    if files is None:  # Theano-PyMC computes it inside _create_default_config()
        files = cfgmod.config_files_from_theanorc()
    return list(files)


def read_config_files(paths):
    if PY2:
        import ConfigParser as configparser
    else:
        import configparser
    parsed, errors = [], {}
    for path in paths:
        if not os.path.isfile(path):
            continue
        parser = configparser.RawConfigParser()
        try:
            parser.read([path])
            parsed.append((path, parser))
        except Exception as exc:
            errors[path] = type(exc).__name__ + ": " + text(exc)
    return parsed, errors


def config_source(name, sep, flags, parsed):
    if name in flags:
        return "THEANO_FLAGS"
    section, option = name.rsplit(sep, 1) if sep in name else ("global", name)
    for path, parser in reversed(parsed):  # later files override earlier ones
        if parser.has_option(section, option):
            return "file:" + path
    return "default"


def config_value(config, name, sep):
    value = config
    for part in name.split(".") if sep == "." else [name]:
        value = getattr(value, part)
    return None if value is None else text(value)


def attempt(problems, what, func, *args):
    """An unknown Theano layout failing in one place must not hide the other facts."""
    try:
        return func(*args)
    except Exception as exc:
        problems.append("%s: %s: %s" % (what, type(exc).__name__, text(exc)))
        return None


def config_registry(config, cfgmod):
    registry = getattr(config, "_config_var_dict", None)  # Theano-PyMC >= 1.0.12
    if registry is not None:
        return sorted(registry), "__"
    return sorted(cv.fullname for cv in cfgmod._config_var_list), "."  # Theano 1.0.x


def config_kind(param):
    """What values a config variable accepts: enum, device, str, int, float, bool or other."""
    cls = type(param).__name__
    if cls in ("EnumStr", "DeviceParam"):
        return "enum" if cls == "EnumStr" else "device"
    if cls in ("StrParam", "IntParam", "FloatParam", "BoolParam"):  # Theano-PyMC classes
        return cls[:-len("Param")].lower()
    mytype = getattr(getattr(param, "mytype", None), "__name__", "")  # Theano 1.0.x TypedParam
    return {"str": "str", "int": "int", "float": "float", "booltype": "bool",
            "bool": "bool"}.get(mytype, "other")


def config_kinds(config, cfgmod):
    registry = getattr(config, "_config_var_dict", None)
    params = registry.items() if registry is not None else [
        (cv.fullname, cv) for cv in cfgmod._config_var_list]
    kinds, options = {}, {}
    for name, param in params:
        kinds[name] = config_kind(param)
        if kinds[name] == "enum" and getattr(param, "all", None) is not None:
            options[name] = [text(v) for v in param.all]
    return kinds, options


def stage_theano_config(stages):
    if not stages.get("theano_import", {}).get("ok"):
        return {"ok": False, "skipped": "import theano failed"}
    theano = sys.modules["theano"]
    config, cfgmod = theano.config, theano.configparser
    problems = []
    known, sep = attempt(problems, "config registry", config_registry, config, cfgmod) or \
        (None, "__" if "blas__ldflags" in dir(config) else ".")
    kinds, options = attempt(problems, "config kinds", config_kinds, config, cfgmod) or (None, None)
    flags = parse_flags(os.environ.get("THEANO_FLAGS", ""))
    files = attempt(problems, "config files", config_files, cfgmod) or []
    parsed, file_errors = read_config_files(files)
    values = {}
    for key in CONFIG_KEYS:
        name = key.replace(".", sep)
        entry = {"name": name, "value": None, "source": None,
                 "registered": None if known is None else name in known}
        if entry["registered"] is not False:
            entry["source"] = config_source(name, sep, flags, parsed)
            entry["value"] = attempt(problems, name, config_value, config, name, sep)
        values[key] = entry
    return {"flag_naming": "dotted" if sep == "." else "dunder",
            "known_keys": known,
            "known_kinds": kinds,
            "enum_options": options,
            "flags_unrecognised": None if known is None else sorted(
                k for k in flags if k not in known),
            "files": files,
            "files_present": [path for path, _ in parsed],
            "file_errors": file_errors,
            "values": values,
            "problems": problems}


def gpu_requested(stages):
    values = stages.get("theano_config", {}).get("values", {})
    for key in ("device", "init_gpu_device"):
        value = (values.get(key) or {}).get("value") or ""
        if value.startswith("cuda") or value.startswith("opencl"):
            return True
    return "->" in ((values.get("contexts") or {}).get("value") or "")


def pygpu_package_dir():
    for entry in sys.path:
        folder = os.path.join(os.path.abspath(entry or "."), "pygpu")
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            return folder
    return None


def library_names(path):
    """libgpuarray file names an extension module asks the loader for, read from its bytes
    (the dynamic section's strings; the PE import table on Windows)."""
    import re
    with open(path, "rb") as handle:
        data = handle.read(32 * 1024 * 1024)
    pattern = br"(?:lib)?gpuarray(?:[.-][0-9]+)*\.(?:so(?:\.[0-9]+)*|dll|dylib)"
    names = []
    for match in re.findall(pattern, data, re.I):
        name = match.decode("ascii", "replace")
        if name not in names:
            names.append(name)
    return names


def gpuarray_library_dirs(package_dir):
    prefix = sys.prefix
    dirs = [package_dir, os.path.join(prefix, "lib"), os.path.join(prefix, "lib64"),
            os.path.join(prefix, "Library", "bin"), os.path.join(prefix, "Library", "lib"),
            os.path.join(prefix, "DLLs")]
    dirs += [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(":") if p]
    dirs += ["/usr/local/lib", "/usr/lib", "/usr/lib64", "/usr/lib/x86_64-linux-gnu"]
    return dirs


def pygpu_files(stages):
    """Where pygpu lives and which libgpuarray it needs and can find, from files only."""
    package_dir = pygpu_package_dir()
    found = {"package_dir": package_dir, "extensions": {}, "libgpuarray": []}
    if package_dir is None:
        return found
    for name in sorted(os.listdir(package_dir)):
        if name.startswith("gpuarray") and (name.endswith(".pyd") or ".so" in name):
            path = os.path.join(package_dir, name)
            found["extensions"][name] = attempt([], name, library_names, path) or []
    seen = set()
    for folder in gpuarray_library_dirs(package_dir):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            is_lib = name.startswith("libgpuarray") or (
                name.lower().startswith("gpuarray") and name.lower().endswith(".dll"))
            if is_lib and name not in found["extensions"] and path not in seen:
                seen.add(path)
                found["libgpuarray"].append(path)
    return found


def loaded_libraries(word):
    """Files of this process mapped into memory whose name contains ``word`` (Linux only)."""
    paths = []
    with open("/proc/self/maps") as handle:
        for line in handle:
            parts = line.split(None, 5)
            path = parts[5].strip() if len(parts) == 6 else ""
            if word in os.path.basename(path) and path not in paths:
                paths.append(path)
    return paths


def stage_pygpu(stages):
    files = attempt([], "pygpu files", pygpu_files, stages) or {}
    if not stages.get("theano_import", {}).get("ok"):
        return {"ok": False, "skipped": "import theano failed", "files": files}
    packages = stages.get("distributions", {}).get("packages") or {}
    if not (gpu_requested(stages) or packages.get("pygpu") or files.get("package_dir")):
        return {"ok": False, "skipped": "no GPU device configured and no pygpu installed",
                "files": files}
    gpuarray = sys.modules.get("theano.gpuarray")  # imported by Theano itself for device=cuda*
    result = {"gpuarray_imported": gpuarray is not None,
              "pygpu_activated": getattr(gpuarray, "pygpu_activated", None), "files": files}
    try:
        import pygpu
        result.update(ok=True, version=getattr(pygpu, "__version__", None),
                      file=getattr(pygpu, "__file__", None))
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        result.update(ok=False, error=describe_exception(exc))
        return result
    module = sys.modules.get("pygpu.gpuarray")
    for key in ("api_version", "abi_version"):
        getter = getattr(module, key, None)
        result[key] = attempt([], key, getter) if getter is not None else None
    if os.path.exists("/proc/self/maps"):
        result["libgpuarray_loaded"] = attempt([], "maps", loaded_libraries, "libgpuarray")
        result["gpu_libraries_loaded"] = dict(
            (word, attempt([], "maps", loaded_libraries, word) or []) for word in GPU_LIBRARY_WORDS)
    return result


STAGES = (("interpreter", stage_interpreter), ("distributions", stage_distributions),
          ("numpy_import", stage_numpy_import), ("theano_import", stage_theano_import),
          ("theano_config", stage_theano_config), ("pygpu", stage_pygpu))


def main():
    stages = {}
    for name, func in STAGES:
        run_stage(stages, name, func)
    emit({"done": True})
    return 0


if __name__ == "__main__":
    sys.exit(main())
