"""`explain` tells the host's memory from the GPU's, and names what the spawn start method, data
paths and downloaded files do wrong. The messages come from real processes where they can run
here (the pyenv Pythons, the cached numpy environments, a C++ program built by g++), and are
rebuilt from the upstream source as printed where they cannot (the kernel's out-of-memory killer,
Windows, PyMC3's sampler, pylearn2)."""

from __future__ import annotations

import gzip
import os
import pickle
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests import legacy_envs
from tests.explain_tables import assert_sourced, first_cause, string_constants, traceback_of
from tests.explain_tables import found as _found
from theanodoctor.explain import explain_text


def _interpreter(where: str) -> str:
    if where[0].isdigit():
        return str(legacy_envs.find_interpreter(where))
    return str(legacy_envs.env_python(legacy_envs.ensure_env(where)))


def _stderr(command: list[str], cwd: Path) -> str:
    proc = subprocess.run(command, cwd=cwd, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    return proc.stderr.decode("utf-8", "replace")


# a Pool worker whose result (a sampler's whole trace) cannot be pickled back for want of memory:
# the result raises the MemoryError its pickling would, and the real multiprocessing reports it
POOL_RESULT = ("import multiprocessing as mp\nclass Trace:\n    def __reduce__(self):\n        raise MemoryError()\n"
               "def chain(i):\n    return Trace()\nif __name__ == '__main__':\n    mp.Pool(1).map(chain, [0])")
# 1 PiB is more than an x86_64 process can address: the allocation fails whatever the machine has.
HOST_ALLOCATIONS = [
    ("numpy124", "import numpy as np\nnp.empty(2 ** 50, dtype=np.uint8)"),  # numpy >= 1.17: Unable to allocate
    ("healthy37", "import numpy as np\nnp.empty(2 ** 50, dtype=np.uint8)"),  # numpy 1.16: a bare MemoryError
    ("3.10", "bytearray(2 ** 60)"),
    ("2.7", "bytearray(2 ** 60)"),
    ("3.6", POOL_RESULT),
    ("3.12", POOL_RESULT),
]


@pytest.mark.parametrize(("where", "code"), HOST_ALLOCATIONS, ids=[w for w, _ in HOST_ALLOCATIONS])
def test_real_host_memory_errors_name_host_memory(where, code, tmp_path):
    (tmp_path / "snippet.py").write_text(code + "\n", encoding="utf-8")
    log = _stderr([_interpreter(where), "snippet.py"], tmp_path)
    assert "MemoryError" in log, log
    assert first_cause(log) == ["host-out-of-memory"], (log, _found(log))
    assert_sourced([(log, "host-out-of-memory")])


def test_theanos_cpu_convolution_that_cannot_get_host_memory(theano_home, tmp_path):
    # padding of 2 ** 14 on 2 ** 20 filters: an output of 2 ** 50 elements, more than any host has
    (tmp_path / "conv.py").write_text(
        "import numpy as np, theano, theano.tensor as T\nx, w = T.tensor4('x'), T.tensor4('w')\n"
        "f = theano.function([x, w], T.nnet.conv2d(x, w, border_mode=(2 ** 14, 2 ** 14)))\n"
        "f(np.zeros((1, 1, 1, 1), theano.config.floatX), np.zeros((2 ** 20, 1, 1, 1), theano.config.floatX))\n",
        encoding="utf-8")
    log = _stderr([_interpreter("healthy37"), "conv.py"], tmp_path)
    assert "BaseCorrMM: Failed to allocate output of 1 x 1048576 x 32769 x 32769" in log, log
    assert _found(log)[0] == ("host-out-of-memory", "high")
    # a negative size is a shape computed wrong, not memory
    assert _found("RuntimeError: BaseCorrMM: Failed to allocate output of 1 x 1 x -3 x 508\n")[:1] != \
        [("host-out-of-memory", "high")]


def test_numpy_names_the_size_it_could_not_get(tmp_path):
    (tmp_path / "snippet.py").write_text("import numpy as np\nnp.empty(2 ** 50, dtype=np.uint8)\n")
    finding = explain_text(_stderr([_interpreter("numpy124"), "snippet.py"], tmp_path)).findings[0]
    assert (finding.confidence, finding.values["size"]) == ("high", "1.00 PiB")


def test_a_real_cxx_bad_alloc_is_host_memory(tmp_path):
    (tmp_path / "alloc.cpp").write_text("#include <cstddef>\nint main() { char *p = new char[(std::size_t)1 << 60];"
                                        " return p[0]; }\n")
    subprocess.run(["g++", "-o", "alloc", "alloc.cpp"], cwd=tmp_path, check=True, timeout=120)
    log = _stderr([str(tmp_path / "alloc")], tmp_path)
    assert "std::bad_alloc" in log, log
    assert first_cause(log) == ["host-out-of-memory"]


# Theano rel-0.9.0 theano/sandbox/cuda/cuda_ndarray.cu (device_malloc), as Keras users posted it.
OLD_BACKEND_DEVICE = ("Using gpu device 0: GeForce GTX 960 (CNMeM is disabled, cuDNN 5105)\n"
                      "Traceback (most recent call last):\n"
                      "  File \"train.py\", line 40, in <module>\n"
                      "MemoryError: Error allocating 147865600 bytes of device memory (out of memory).\n"
                      "Apply node that caused the error: GpuElemwise{Add}[(0, 0)](GpuDot22.0, GpuDimShuffle{x,0}.0)\n")
BARE_IN_GPU_OP = ("Mapped name None to device cuda0: GeForce GTX 1080 (0000:01:00.0)\n"
                  "Traceback (most recent call last):\n"
                  "  File \"/usr/lib/python3.6/site-packages/theano/compile/function_module.py\", line 903, "
                  "in __call__\n"
                  "    self.fn() if output_subset is None else\\\n"
                  "MemoryError\n"
                  "Apply node that caused the error: GpuFromHost<None>(x)\n")
# The old back-end is in use, but the failing allocation is numpy's own (Keras 1's sharedX).
HOST_IN_GPU_RUN = ("Using gpu device 0: GeForce GTX 980 (CNMeM is disabled)\n"
                   "Traceback (most recent call last):\n"
                   "  File \"build/bdist.linux-x86_64/egg/keras/utils/theano_utils.py\", line 12, in sharedX\n"
                   "  File \"/usr/lib/python2.7/dist-packages/numpy/core/numeric.py\", line 460, in asarray\n"
                   "    return array(a, dtype, copy=False, order=order)\n"
                   "MemoryError\n")


def test_device_memory_is_the_gpu_and_a_bare_memoryerror_in_a_gpu_op_only_asks():
    assert first_cause(OLD_BACKEND_DEVICE) == ["gpu-out-of-memory"]
    assert "host-out-of-memory" not in [c for c, _ in _found(OLD_BACKEND_DEVICE)]
    found = explain_text(BARE_IN_GPU_OP).findings
    assert [(f.cause, f.confidence) for f in found] == [("host-out-of-memory", "low")] and found[0].asks
    assert first_cause(HOST_IN_GPU_RUN) == ["host-out-of-memory"]
    # theano/sandbox/cuda's own GPU-side MemoryErrors name no device; the CPU gemm's is the host's
    for gpu_side in ("failed to alloc sm output", "could not allocate tensor descriptor: CUDNN_STATUS_ALLOC_FAILED"):
        assert "host-out-of-memory" not in first_cause(f"MemoryError: {gpu_side}\n")
    assert first_cause("MemoryError: failed to alloc dot22 output\n") == ["host-out-of-memory"]
    # Theano rel-1.0.5 gpuarray/c_code/corr_gemm.c:532, as printed
    assert first_cause("GpuCorrMM failed to allocate working memory of 1152 x 50176\n") == ["gpu-out-of-memory"]


# IPython's traceback header (IPython/core/ultratb.py, VerboseTB) names the exception first; a post
# often cuts the traceback before its last line, here inside scan's Cython loop on the CPU.
IPYTHON_CUT = ("---------------------------------------------------------------------------\n"
               "MemoryError                               Traceback (most recent call last)\n"
               "scan_perform.pyx in theano.scan_module.scan_perform.perform()\n\n"
               "~/envs/gp/lib/site-packages/theano/scan_module/scan_op.py in rval(p, i, o, n, allow_gc)\n"
               "--> 963             r = p(n, [x[0] for x in i], o)\n")


def test_ipythons_header_names_a_memory_error_the_post_cut_off():
    assert first_cause(IPYTHON_CUT) == ["host-out-of-memory"]
    # another exception's header, or the words in prose, name nothing
    assert first_cause(IPYTHON_CUT.replace("MemoryError   ", "ValueError    ")) != ["host-out-of-memory"]
    assert first_cause("I think it is a MemoryError Traceback (most recent call last) problem\n") == []
    # the header above the old back-end's own message, which names device memory: not the host's
    # (Theano rel-0.9.0 theano/sandbox/cuda/cuda_ndarray.cu device_malloc, with a CNMeM status)
    device = (IPYTHON_CUT + "\nMemoryError: ('Error allocating 411041792 bytes of device memory "
              "(CNMEM_STATUS_CUDA_ERROR).', \"you might consider using 'theano.shared(..., borrow=True)'\")\n")
    assert ("host-out-of-memory", "medium") not in _found(device)


# linux v4.9 and v5.4 mm/oom_kill.c (oom_kill_process), as dmesg shows them.
OOM_KILLER = [
    "[12345.678901] Out of memory: Kill process 2611 (python) score 990 or sacrifice child\n",
    "[ 8021.113] Out of memory: Killed process 4242 (python3) total-vm:31457280kB, anon-rss:15728640kB\n",
    "[ 8021.113] Memory cgroup out of memory: Killed process 4242 (python) total-vm:3145728kB\n",
]


@pytest.mark.parametrize("line", OOM_KILLER)
def test_the_oom_killer_is_host_memory_even_on_a_gpu_machine(line):
    log = "Using gpu device 0: GeForce GTX 1070 (CNMeM is disabled, cuDNN 5105)\nEpoch 10\n" + line
    assert first_cause(log) == ["host-out-of-memory"], _found(log)
    assert "gpu-out-of-memory" not in [c for c, level in _found(log) if level != "low"]


@pytest.mark.parametrize("line", ["Killed\n", "Killed: 9\n", "zsh: killed     python train.py\n",
                                  "./run.sh: line 12:  4242 Killed   python train.py\n",
                                  "subprocess.CalledProcessError: Command '['python', 'x.py']' died with "
                                  "<Signals.SIGKILL: 9>.\n"])
def test_sigkill_alone_is_only_a_hint_that_asks(line):
    found = explain_text("Epoch 3/50\n" + line).findings
    assert [(f.cause, f.confidence) for f in found] == [("host-out-of-memory", "low")]
    assert "dmesg" in found[0].asks[0]


# the kill cuts a Keras progress bar mid-way (the terminal leaves the bar and the shell's word on one line):
# the process was running batches, where memory grows with the generator's queue; an epoch's header alone
# above `Killed` stays a hint
@pytest.mark.parametrize("bar", ["165376/296960 [===============>..............] - ETA: 365s - loss: 2.1371",
                                 "  800/1000 [=======================>......] - ETA: 2s - loss: 0.3417 - acc: 0.91"])
def test_sigkill_that_cuts_a_progress_bar_is_the_hosts_memory(bar):
    found = explain_text("Epoch 1/1\n" + bar + "Killed\n").findings
    assert [(f.cause, f.confidence) for f in found][:1] == [("host-out-of-memory", "medium")]
    assert "dmesg" in found[0].asks[0]
    assert _found("Epoch 1/1\n" + bar + "\nKilled\n") == [("host-out-of-memory", "low")]


def test_a_spawned_child_without_the_main_guard_is_named(tmp_path):
    script = ("import multiprocessing as mp\n"
              "p = mp.get_context('spawn').Process(target=print, args=('child',))\n"
              "p.start()\np.join()\n")
    (tmp_path / "sample.py").write_text(script, encoding="utf-8")
    log = _stderr([_interpreter("3.10"), "sample.py"], tmp_path)
    assert first_cause(log) == ["multiprocessing-main-guard-missing"], log
    # PyMC3 on Windows then reports the broken pipe: the missing guard stays the root
    pymc = log + ("Traceback (most recent call last):\n"
                  "  File \"C:\\Users\\u\\Anaconda3\\lib\\site-packages\\pymc3\\parallel_sampling.py\", line 251, "
                  "in __init__\n    raise exc\n" + PYMC3_PIPE)
    findings = explain_text(pymc).findings
    assert findings[0].cause == "multiprocessing-main-guard-missing"
    spawn = next(f for f in findings if f.cause == "windows-multiprocessing-spawn")
    assert spawn.consequence_of == "multiprocessing-main-guard-missing"
    # a post cut before the child's error: its traceback through the re-import of the script
    cut = log[:log.index("_fixup_main_from_path(")] + "_fixup_main_from_path(data['init_main_from_path'])\n"
    assert [(f.cause, f.confidence) for f in explain_text(cut).findings][:1] == [
        ("multiprocessing-main-guard-missing", "medium")], cut


# pymc3 v3.8 pymc3/parallel_sampling.py (_get_broken_pipe_exception), its first two lines as printed.
PYMC3_PIPE = ("RuntimeError: The communication pipe between the main process and its spawned children is broken.\n"
              "In Windows OS, this usually means that the child process raised an exception while it was being "
              "spawned, before it was setup to communicate to the main process.\n")
# CPython's spawn.py in the Windows child whose parent could not send the process object.
SPAWN_EOF = ("Traceback (most recent call last):\n"
             "  File \"<string>\", line 1, in <module>\n"
             "  File \"C:\\Python37\\lib\\multiprocessing\\spawn.py\", line 105, in spawn_main\n"
             "    exitcode = _main(fd)\n"
             "  File \"C:\\Python37\\lib\\multiprocessing\\spawn.py\", line 115, in _main\n"
             "    self = reduction.pickle.load(from_parent)\n"
             "EOFError: Ran out of input\n")


# CPython's parent side on Windows, starting a worker of a Pool
PARENT_STARTING_WORKER = ("  File \"C:\\Anaconda\\lib\\multiprocessing\\pool.py\", line 239, in _repopulate_pool\n"
                          "    w.start()\n"
                          "  File \"C:\\Anaconda\\lib\\multiprocessing\\process.py\", line 105, in start\n"
                          "    self._popen = self._Popen(self)\n"
                          "  File \"C:\\Anaconda\\lib\\multiprocessing\\context.py\", line 322, in _Popen\n"
                          "    return Popen(process_obj)\n")


def test_a_generator_pickled_for_keras_workers_where_processes_are_spawned(tmp_path):
    """A real Python 3.6 refusing to pickle a generator, as Keras' workers with use_multiprocessing need on
    Windows (the warning Keras 2.2 prints for a generator and workers beside it); without Keras' words the
    message is not named so."""
    log = _stderr([_interpreter("3.6"), "-c", "import pickle; pickle.dumps(x for x in [])"], tmp_path)
    assert "TypeError: can't pickle generator objects" in log, log
    warning = ("C:\\Users\\u\\anaconda3\\lib\\site-packages\\keras\\engine\\training_generator.py:49: UserWarning: "
               "Using a generator with `use_multiprocessing=True` and multiple workers may duplicate your data.\n")
    assert first_cause(log + warning) == ["windows-multiprocessing-spawn"]
    assert first_cause(log) == []


def test_spawn_start_method_failures_are_named():
    cases = [
        ("Multiprocess sampling (4 chains in 4 jobs)\n" + PYMC3_PIPE, "windows-multiprocessing-spawn"),
        ("Multiprocess sampling (2 chains in 2 jobs)\nNUTS: [sigma, mu]\n"
         "BrokenPipeError: [Errno 32] Broken pipe\n", "windows-multiprocessing-spawn"),
        (SPAWN_EOF, "windows-multiprocessing-spawn"),
        # the parent on Windows starting a worker (Keras' data workers) below the child's EOFError
        ("EOFError: Ran out of input\n" + PARENT_STARTING_WORKER, "windows-multiprocessing-spawn"),
    ]
    for text, cause in cases:
        assert first_cause(text) == [cause], text
    assert_sourced(cases)


def test_broken_pipes_and_empty_pickles_elsewhere_name_no_cause(tmp_path):
    # `python x.py | head` and a pickle read from an empty file: the same texts, other roots
    assert first_cause("BrokenPipeError: [Errno 32] Broken pipe\n") == []
    (tmp_path / "empty.pkl").write_bytes(b"")
    log = _stderr([_interpreter("3.10"), "-c", "import pickle; pickle.load(open('empty.pkl', 'rb'))"], tmp_path)
    assert "Ran out of input" in log and first_cause(log) == []


@pytest.mark.parametrize(("where", "module"), [("3.10", "pickle"), ("2.7", "cPickle")])
def test_real_pointer_and_page_files_are_named(where, module, tmp_path):
    (tmp_path / "model.pkl").write_text("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a2146\n"
                                        "size 132645\n", encoding="ascii")
    (tmp_path / "page.pkl").write_text("<!DOCTYPE html>\n<html><head><title>Sign in</title>\n", encoding="ascii")
    for name, key in (("model.pkl", "v"), ("page.pkl", "<")):
        log = _stderr([_interpreter(where), "-c", f"import {module}; {module}.load(open('{name}', 'rb'))"], tmp_path)
        finding = explain_text(log).findings[0]
        assert (finding.cause, finding.confidence, finding.values["key"]) == ("downloaded-file-not-data", "medium",
                                                                              key), log


@pytest.mark.parametrize("given", ["'weights.npy'", "pathlib.Path('weights.npy')"])
def test_numpy_reading_a_pointer_file_is_named(tmp_path, given):
    # numpy names the file by the repr of what it was given: a string, or a path object
    (tmp_path / "weights.npy").write_text("version https://git-lfs.github.com/spec/v1\nsize 132645\n")
    log = _stderr([_interpreter("numpy124"), "-c", f"import numpy, pathlib; numpy.load({given}, allow_pickle=True)"],
                  tmp_path)
    assert "Failed to interpret file" in log and first_cause(log) == ["downloaded-file-not-data"], log
    assert explain_text(log).findings[0].values["path"] == "weights.npy"


# the first halves of a gzip'd pickle (an interrupted mnist.pkl.gz) and of an .npz, and a gzip'd pickle whose
# middle is another file's bytes (zlib's `Error -3 while decompressing`)
INCOMPLETE = [
    ("3.10", "import gzip, pickle; pickle.load(gzip.open('mnist.pkl.gz', 'rb'))"),
    ("2.7", "import gzip, cPickle; cPickle.load(gzip.open('mnist.pkl.gz', 'rb'))"),
    ("3.10", "import gzip, pickle; pickle.load(gzip.open('damaged.pkl.gz', 'rb'))"),
    ("2.7", "import gzip, cPickle; cPickle.load(gzip.open('damaged.pkl.gz', 'rb'))"),
    ("numpy124", "import numpy; numpy.load('mnist.npz')"),
    ("2.7", "import zipfile; zipfile.ZipFile('mnist.npz')"),
]


@pytest.mark.parametrize(("where", "code"), INCOMPLETE, ids=[f"{w}:{c[:30]}" for w, c in INCOMPLETE])
def test_real_incomplete_downloads_are_named(where, code, tmp_path):
    whole = gzip.compress(pickle.dumps(list(range(100000)), protocol=2))
    (tmp_path / "mnist.pkl.gz").write_bytes(whole[:len(whole) // 2])
    half = len(whole) // 2
    (tmp_path / "damaged.pkl.gz").write_bytes(whole[:half] + bytes(range(256)) * 4 + whole[half + 1024:])
    with zipfile.ZipFile(tmp_path / "whole.npz", "w") as archive:
        archive.writestr("x.npy", bytes(range(256)) * 400)
    npz = (tmp_path / "whole.npz").read_bytes()
    (tmp_path / "mnist.npz").write_bytes(npz[:len(npz) // 2])
    log = _stderr([_interpreter(where), "-c", code], tmp_path)
    assert first_cause(log) == ["downloaded-file-not-data"], log
    assert "damaged" not in code or "Error -3 while decompressing" in log, log


def test_data_paths_and_unwritable_compiledirs_are_named():
    cases = [
        # pylearn2 utils/exc.py (NoDataPathError) raised through string_utils.preprocess
        ("  File \"/home/u/pylearn2/pylearn2/utils/string_utils.py\", line 56, in preprocess\n"
         "    reraise_as(NoDataPathError())\n"
         "pylearn2.utils.exc.NoDataPathError: You need to define your PYLEARN2_DATA_PATH environment variable. "
         "If you are\nusing a computer at LISA, this should be set to /data/lisa/data.\n",
         "pylearn2-data-path-not-set"),
        # os.makedirs of Theano's compiledir on a read-only home (a container or cluster node)
        ("  File \"/usr/lib/python3.6/os.py\", line 220, in makedirs\n    mkdir(name, mode)\n"
         "OSError: [Errno 30] Read-only file system: '/home/u/.theano'\n", "compiledir-permission"),
    ]
    for text, cause in cases:
        assert first_cause(text) == [cause], text
    assert_sourced(cases)
    assert first_cause("OSError: [Errno 30] Read-only file system: '/mnt/data/out.csv'\n") == []


def test_a_missing_home_directory_is_named():
    # Theano rel-1.0.5 configdefaults.py as printed when HOME, expanduser('~') and USERPROFILE all fail
    log = ("  File \"/opt/conda/lib/python3.7/site-packages/theano/configdefaults.py\", line 1906, in <module>\n"
           "    default_base_compiledir = os.path.join(get_home_dir(), '.theano')\n"
           "  File \"/opt/conda/lib/python3.7/site-packages/theano/configdefaults.py\", line 1896, in get_home_dir\n"
           "    assert home is not None\nAssertionError\n")
    assert first_cause(log) == ["home-dir-unknown"]
    assert_sourced([(log, "home-dir-unknown")])


def test_quota_and_download_errors_are_named():
    cases = [
        ("  File \"/home/u/.local/lib/python2.7/site-packages/theano/gof/cmodule.py\", line 2204, in compile_str\n"
         "IOError: [Errno 122] Disk quota exceeded: '/home/u/.theano/compiledir_Linux/tmpx/mod.cpp'\n", "disk-full"),
        # urllib's HTTPError inside Keras 2.2.4 keras/utils/data_utils.py (get_file)
        ("  File \"/usr/lib/python3.6/site-packages/keras/utils/data_utils.py\", line 222, in get_file\n"
         "    urlretrieve(origin, fpath, dl_progress)\n"
         "urllib.error.HTTPError: HTTP Error 403: Forbidden\n", "keras-download-failed"),
    ]
    for text, cause in cases:
        assert first_cause(text) == [cause], text
    assert_sourced(cases)
    assert first_cause("urllib.error.HTTPError: HTTP Error 404: Not Found\n") == []


# A multiprocessing child (Process._bootstrap) whose first GPU call fails after a fork, as
# libgpuarray prints a CUDA error (function: cuGetErrorName: cuGetErrorString).
FORKED_CHILD = ("Process Process-1:\n"
                "Traceback (most recent call last):\n"
                "  File \"/usr/lib/python3.6/multiprocessing/process.py\", line 258, in _bootstrap\n"
                "    self.run()\n"
                "  File \"worker.py\", line 12, in predict\n"
                "pygpu.gpuarray.GpuArrayException: b'cuMemAlloc: CUDA_ERROR_NOT_INITIALIZED: initialization error'\n")


def test_cuda_not_initialised_in_a_forked_child_is_named():
    findings = explain_text(FORKED_CHILD).findings
    assert findings[0].cause == "cuda-fork-after-init" and findings[0].confidence == "medium"
    assert all(f.consequence_of == "cuda-fork-after-init" for f in findings[1:])
    assert_sourced([(FORKED_CHILD, "cuda-fork-after-init")])
    # the same error outside a child process names no fork
    alone = "pygpu.gpuarray.GpuArrayException: b'cuMemAlloc: CUDA_ERROR_NOT_INITIALIZED: initialization error'\n"
    assert "cuda-fork-after-init" not in first_cause(alone)


def test_an_s3_error_document_instead_of_the_weights_is_named():
    # S3's error response body (docs.aws.amazon.com ErrorResponses), as a browser or `cat` shows it
    for code in ("AccessDenied", "NoSuchKey"):
        text = (f"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>\n<Code>{code}</Code>\n"
                "<Message>Access Denied</Message>\n<RequestId>49776127F6B192E1</RequestId>\n</Error>\n")
        assert first_cause(text) == ["pretrained-weights-unavailable"]
        assert_sourced([(text, "pretrained-weights-unavailable")])


@pytest.mark.parametrize("text", [
    # Keras 1.2.2 keras/utils/data_utils.py:109-117 (get_file's error_msg) on the course's vgg16.py address
    "Exception: URL fetch failure on http://www.platform.ai/models/vgg16.h5: None -- [Errno -2] Name or service "
    "not known\n",
    # requests (the course's utils downloading its data) naming the host
    "ConnectionError: HTTPConnectionPool(host='platform.ai', port=80): Max retries exceeded with url: "
    "/data/dogscats.zip\n",
])
def test_the_fastai_courses_retired_address_is_the_file_moved_not_the_network(text):
    finding = explain_text(text).findings[0]
    assert (finding.cause, finding.confidence) == ("pretrained-weights-unavailable", "high")
    assert any("files.fast.ai" in e.note for e in finding.evidence)
    assert_sourced([(text, "pretrained-weights-unavailable")])
    # another host's failure stays Keras' download failure
    assert first_cause(text.replace("platform.ai", "example.org"))[:1] != ["pretrained-weights-unavailable"]


def test_an_hdf5_file_that_cannot_be_locked_is_named():
    # h5py's OSError around HDF5's own text (HSYS error: errno and strerror), as Keras users post it
    text = ("  File \"h5py/h5f.pyx\", line 88, in h5py.h5f.open\n"
            "OSError: Unable to open file (unable to lock file, errno = 11, error message = 'Resource temporarily "
            "unavailable')\n")
    finding = explain_text(text).findings[0]
    assert (finding.cause, finding.confidence, finding.values["errno"]) == ("hdf5-file-locked", "medium", "11")
    assert_sourced([(text, "hdf5-file-locked")])
    # HDF5 1.10's own capital, a file system whose locks fail (errno 5, an input/output error)
    other = "OSError: Unable to open file (Unable to lock file, errno = 5, error message = 'input/output error')\n"
    assert [(f.cause, f.values["errno"]) for f in explain_text(other).findings] == [("hdf5-file-locked", "5")]


@pytest.mark.parametrize("where", ["3.10", "2.7"])
def test_real_open_file_limit_is_named(where, tmp_path):
    code = ("import resource\nresource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))\n"
            "files = [open('f%d.txt' % i, 'w') for i in range(64)]\n")
    log = _stderr([_interpreter(where), "-c", code], tmp_path)
    assert "Errno 24" in log and first_cause(log) == ["too-many-open-files"], log
    assert_sourced([(log, "too-many-open-files")])


def test_the_systems_table_of_open_files_full_is_named():
    # Python's OSError for ENFILE (errno 23 on Linux and macOS), re-raised by Theano rel-1.0.5
    # theano/gof/vm.py:688-689 when it struck while the lazy linker was being built
    text = ('  File "/env/lib/python3.6/site-packages/theano/gof/vm.py", line 689, in <module>\n'
            "    if x.fullname == 'linker'][0].default.startswith('cvm'), e\n"
            "AssertionError: [Errno 23] Too many open files in system\n")
    finding = explain_text(text).findings[0]
    assert (finding.cause, finding.confidence) == ("too-many-open-files", "high")
    assert "whole system" in finding.evidence[-1].note
    assert_sourced([(text, "too-many-open-files")])


def test_a_windows_page_file_too_small_is_host_memory():
    # Python's OSError for ERROR_COMMITMENT_LIMIT, as printed on Windows
    text = "OSError: [WinError 1455] The paging file is too small for this operation to complete\n"
    assert first_cause(text) == ["host-out-of-memory"]


# Theano-PyMC's compile lock is filelock's lock on <compiledir>/.lock: a holder keeps it while
# a real Theano-PyMC 1.1.2 compiles in the same compiledir and gives up after compile__timeout.
FILE_LOCK_HOLDER = """\
import sys, time, filelock
lock = filelock.FileLock(sys.argv[1] + "/.lock")
lock.acquire()
print("locked", flush=True)
time.sleep(300)
"""


def test_theano_pymc_filelock_timeout_names_the_file_lock(legacy_python, theano_home, tmp_path):
    python = legacy_python("pymc39")
    compiledir = tmp_path / "compiledir_jobs"
    compiledir.mkdir()
    holder = subprocess.Popen([python, "-c", FILE_LOCK_HOLDER, str(compiledir)], stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"locked"
        flags = f"compiledir={compiledir},compile__timeout=1,blas__ldflags="
        # not traceback_of: the timeout may come only in a logged constant-folding failure, after
        # which Theano-PyMC goes on and can exit 0
        compiling = subprocess.run([python, "-c", "import theano, theano.tensor as T\nx = T.dvector()\n"
                                                  "theano.function([x], x * 2 + 1)"],
                                   cwd=tmp_path, capture_output=True, timeout=300, stdin=subprocess.DEVNULL,
                                   env={**os.environ, "THEANO_FLAGS": flags})
        log = compiling.stderr.decode("utf-8", "replace")
    finally:
        holder.kill()
        holder.communicate()
    assert f"The file lock '{compiledir}/.lock' could not be acquired." in log
    assert _found(log)[0] == ("compile-filelock-held", "high")
    assert_sourced([(log, "compile-filelock-held")])
    # filelock's message about a lock that is no compiledir's (a dataset's) is not Theano's lock
    other = log.replace(f"{compiledir}/.lock", "/data/shards/train.h5.lock")
    assert "compile-filelock-held" not in {cause for cause, _ in _found(other)}


# Theano 1.0.5's compile lock taken, then removed while held (as a process that found it not refreshed
# within compile.timeout does, or a deleted compiledir), then refreshed by its holder
LOCK_REMOVED = """
import os, shutil
from theano import config
from theano.gof import compilelock
compilelock.get_lock()
lock_dir = os.path.join(config.compiledir, "lock_dir")
shutil.rmtree(lock_dir)
compilelock.refresh_lock(os.path.join(lock_dir, "lock"))
"""


def test_a_compile_lock_removed_while_held_is_named(legacy_python, theano_home, tmp_path):
    log = traceback_of(legacy_python("healthy37"), LOCK_REMOVED, tmp_path, {"THEANO_FLAGS": "cxx="})
    assert "Refreshing lock failed" in log and "lock_dir/lock'" in log, log
    assert _found(log)[0] == ("compiledir-shared-across-hosts", "medium")
    assert_sourced([(log, "compiledir-shared-across-hosts")])
    # a missing file elsewhere in the compiledir is not the lock
    other = log.replace("lock_dir/lock'", "lock_dir/key.pkl'")
    assert other != log and ("compiledir-shared-across-hosts", "medium") not in _found(other)


# PyMC3 v3.8 pymc3/sampling.py:1079-1096, as printed for a run interrupted during tuning
PYMC3_INTERRUPTED = ("Multiprocess sampling (4 chains in 4 jobs)\nNUTS: [sigma, mu]\n"
                     "Traceback (most recent call last):\n"
                     "  File \"/env/lib/python3.7/site-packages/pymc3/sampling.py\", line 1080, in _mp_sample\n"
                     "    traces, length = _choose_chains(traces, tune)\n"
                     "  File \"/env/lib/python3.7/site-packages/pymc3/sampling.py\", line 1096, in _choose_chains\n"
                     "    raise ValueError(\"Not enough samples to build a trace.\")\n"
                     "ValueError: Not enough samples to build a trace.\n")



def test_tensorflows_oom_is_the_gpus_where_the_log_shows_one():
    # TensorFlow 1.15 tensorflow/core/framework/op_kernel.cc (allocate_tensor), as Keras' TensorFlow back-end
    # raises it; before TF 1.5 the message names no device, the failing node does
    gpu = ("ResourceExhaustedError: OOM when allocating tensor with shape[32,64,111,111] and type float on "
           "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n")
    assert _found(gpu) == [("gpu-out-of-memory", "medium")]
    old = ("ResourceExhaustedError: OOM when allocating tensor with shape[32,64,111,111]\n\t [[Node: conv = "
           "Conv2D[T=DT_FLOAT, _device=\"/job:localhost/replica:0/task:0/gpu:0\"](input, kernel)]]\n")
    assert first_cause(old) == ["gpu-out-of-memory"]
    # on the CPU (allocator cpu) it is the host's memory, not the GPU's
    cpu = gpu.replace("device:GPU:0 by allocator GPU_0_bfc", "device:CPU:0 by allocator cpu")
    assert [(cause, level) for cause, level in _found(cpu) if level != "low"] == [("host-out-of-memory", "medium")]

def test_sampling_interrupted_before_tuning_ended_is_named():
    assert first_cause(PYMC3_INTERRUPTED) == ["pymc3-sampling-interrupted"]
    assert _found(PYMC3_INTERRUPTED)[0] == ("pymc3-sampling-interrupted", "high")
    assert_sourced([(PYMC3_INTERRUPTED, "pymc3-sampling-interrupted")])


def _pymc3_messages(python: str, *modules: str) -> list[str]:
    """The string constants of PyMC3 3.9.3's own modules (its wheel from PyPI, read as Python, so the
    message's pieces split over lines are one string)."""
    site = legacy_envs.release(python, "pymc3==3.9.3")
    return [text for module in modules for text in string_constants(site / "pymc3" / module)]


def test_sampling_interrupted_in_one_process_leaves_no_posterior(legacy_python) -> None:
    # PyMC3 3.9.3's own words: the summary of what was sampled (sampling.py) and the check that finds
    # no posterior (backends/report.py), as a notebook shows a run stopped during tuning
    messages = _pymc3_messages(legacy_python("pymc39"), "backends/report.py", "sampling.py")
    empty = next(m for m in messages if m.startswith("No posterior samples"))
    assert empty == "No posterior samples. Unable to run convergence checks"
    assert " tune and " in messages and any(m.startswith(" draw iterations ") for m in messages)  # the summary's
    log = ("Sequential sampling (2 chains in 1 job)\nNUTS: [mu]\n"
           "Sampling 1 chain for 121 tune and 0 draw iterations (121 + 0 draws total) took 63 seconds.\n"
           f"{empty}\n")
    assert _found(log)[0] == ("pymc3-sampling-interrupted", "medium")
    assert_sourced([(log, "pymc3-sampling-interrupted")])
    # the summary of a run that drew is nothing
    assert _found(log.replace(f"{empty}\n", "").replace("0 draw", "1_000 draw")) == []


def test_pymc3_checks_of_its_draws_name_a_sampler_that_did_not_converge(legacy_python) -> None:
    messages = _pymc3_messages(legacy_python("pymc39"), "backends/report.py", "step_methods/hmc/base_hmc.py",
                               "step_methods/hmc/nuts.py", "step_methods/step_sizes.py", "tuning/starting.py")

    def message(start: str) -> str:
        return next(m for m in messages if m.startswith(start))
    divergences = message("There were %s divergences after tuning") % 23
    not_converged = message("The rhat statistic is larger than 1.4")
    # as a notebook's stderr shows them: printed, then PyMC3's logger's copy at its level
    for text in (divergences, not_converged, message("There was 1 divergence")):
        log = f"Sampling 4 chains, 23 divergences: 100%\n{text}\nERROR:pymc3:{text}\n"
        assert _found(log)[0] == ("pymc3-sampler-not-converged", "medium"), text
        assert_sourced([(log, "pymc3-sampler-not-converged")])
    # PyMC3 before 3.8 (v3.5 pymc3/backends/report.py:89) named the same statistic Gelman-Rubin's
    assert _found(not_converged.replace("rhat", "gelman-rubin"))[0] == ("pymc3-sampler-not-converged", "medium")
    # many divergences are the same check (pymc3-many-divergences asks what the model allows); a chain
    # whose every draw diverged is the model's numerics, as PyMC3 says
    assert first_cause(message("There were %s divergences after tuning") % 1907) == ["pymc3-sampler-not-converged"]
    assert first_cause(message("The chain contains only diverging samples")) == ["model-numerics-nan"]
    # find_MAP's progress bar (CostFuncWrapper) ending at a log-probability of -inf: no estimate
    progress = message("logp = {:,.5g}, ||grad|| = {:,.5g}")
    assert _found(progress.format(float("-inf"), 0) + ": 100%|##########| 2/2 [00:00<00:00, 57.19it/s]\n") == [
        ("model-numerics-nan", "medium")]
    assert _found(progress.format(-1234.5, 0.25) + ": 100%|##########| 9/9 [00:00<00:00, 57.19it/s]\n") == []
    # its other notes at its error or warn level name the check; those at its info level, and the tree
    # depth, which runs often pass with, are hints only
    for start in ("The estimated number of effective samples is smaller than 200",
                  "The number of effective samples is smaller than 10%", "The rhat statistic is larger than 1.2",
                  "The acceptance probability does not match"):
        text = message(start).replace("%s", "0.6")
        assert _found(text) == [("pymc3-sampler-not-converged", "medium")], text
    for start in ("The rhat statistic is larger than 1.05", "The number of effective samples is smaller than 25%",
                  "The chain reached the maximum tree depth"):
        text = message(start).replace("%s", "0.6")
        assert _found(text) == [("pymc3-sampler-not-converged", "low")], text
    # a set-up warning beside them comes first: a library's deprecation notice, then the draws
    deprecation = ("/env/lib/python3.7/site-packages/pymc3/model.py:384: FutureWarning: Conversion of the second "
                   "argument of issubdtype from `float` to `np.floating` is deprecated.\n")
    assert first_cause(deprecation + divergences + "\n") == ["library-code-deprecation-warning"]
    assert first_cause(divergences + "\n" + deprecation) == ["library-code-deprecation-warning"]
    # an exception after sampling is not explained by the draws' checks
    failed = (f"{not_converged}\nTraceback (most recent call last):\n  File \"plot.py\", line 3, in <module>\n"
              "KeyError: 'mu'\n")
    assert ("pymc3-sampler-not-converged", "medium") not in _found(failed)


def test_a_fork_refused_for_memory_is_the_root_of_keras_graphviz_message():
    # Keras 2.2.4 keras/utils/vis_utils.py:27-31 turns any OSError of running `dot` into its GraphViz advice
    refused = ("Traceback (most recent call last):\n  File \"/env/lib/python3.6/site-packages/pydot.py\", line 1915, "
               "in create\n    working_dir=tmp_dir,\n  File \"/usr/lib/python3.6/subprocess.py\", line 709, in "
               "__init__\nOSError: [Errno 12] Cannot allocate memory\n\n"
               "During handling of the above exception, another exception occurred:\n\n")
    graphviz = ("Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n    plot_model(model)\n"
                "  File \"/env/lib/python3.6/site-packages/keras/utils/vis_utils.py\", line 31, in _check_pydot\n"
                "OSError: `pydot` failed to call GraphViz.Please install GraphViz (https://www.graphviz.org/) and "
                "ensure that its executables are in the $PATH.\n")
    found = explain_text(refused + graphviz).findings
    assert [f.cause for f in found][:2] == ["host-out-of-memory", "graphviz-pydot-missing"]
    assert found[1].consequence_of == "host-out-of-memory"
    # alone, the message is GraphViz's
    assert first_cause(graphviz) == ["graphviz-pydot-missing"]


# TensorFlow 1.x's cuDNN failing to start (it reserved nearly all of the GPU's memory, or another process
# holds it), as its cuda_dnn.cc logs it and as its convolution kernel then fails
TF_CUDNN_START = (
    "2019-04-11 14:19:59.264535: E tensorflow/stream_executor/cuda/cuda_dnn.cc:334] Could not create cudnn handle: "
    "CUDNN_STATUS_INTERNAL_ERROR\n",
    "tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution algorithm. This is probably "
    "because cuDNN failed to initialize, so try looking to see if a warning log message was printed above.\n")


def test_tensorflows_cudnn_that_could_not_start() -> None:
    for log in TF_CUDNN_START:
        found = explain_text(log).findings
        assert [(f.cause, f.confidence) for f in found][:1] == [("cudnn-handle-failed", "medium")], log
        assert "allow_growth = True" in found[0].remedy


# Windows' wording for a folder of the path that is not there (ERROR_PATH_NOT_FOUND), a dataset's or an
# output folder's; Theano's own cache folders are the cache's
def test_a_windows_path_not_found():
    text = "FileNotFoundError: [WinError 3] The system cannot find the path specified: 'C:\\\\Users\\\\u/logs/'\n"
    found = explain_text(text).findings
    assert [(f.cause, f.confidence) for f in found] == [("dataset-file-missing", "medium")]
    assert_sourced([(text, "dataset-file-missing")])
    cache = text.replace("Users\\\\u/logs/", "Users\\\\u\\\\AppData\\\\Local\\\\Theano\\\\compiledir_x")
    assert "dataset-file-missing" not in first_cause(cache)
