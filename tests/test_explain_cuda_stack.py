"""`explain` on the CUDA stack's own messages, in the form Theano, libgpuarray and the system tools
print them: the runtime's and driver's error strings, NVML / nvidia-smi, the kernel module, cuBLAS
and cuDNN statuses, and nvcc's fatal messages (the rows' sources name each upstream text)."""

from __future__ import annotations

import pytest

from theanodoctor.explain import explain_text
from theanodoctor.sources import problem

PYGPU = "ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n"
# libgpuarray v0.7.6 src/private_cuda.h:45-50: '<call>: <CUresult name>: <cuGetErrorString>'
LIBGPUARRAY = PYGPU + "pygpu.gpuarray.GpuArrayException: b'cuInit: {name}: {text}'\n"
# Theano rel-0.9.0 theano/sandbox/cuda/basic_ops.py:832-836: 'Cuda error: <kernel>: <cudaGetErrorString>.'
OLD_BACKEND = ("Traceback (most recent call last):\n"
               "  File \"/env/lib/python2.7/site-packages/theano/compile/function_module.py\", line 859, in __call__\n"
               "RuntimeError: Cuda error: kernel_reduce_ccontig_node_0: {text}. "
               "(grid: 1 x 1; block: 1024 x 1 x 1)\n")

SPECIFIC = [
    (LIBGPUARRAY.format(name="CUDA_ERROR_JIT_COMPILER_NOT_FOUND", text="PTX JIT compiler library not found"),
     "ptx-jit-compiler-missing", "high"),
    (LIBGPUARRAY.format(name="CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
                        text="forward compatibility was attempted on non supported HW"),
     "cuda-forward-compat-unsupported", "medium"),
    (LIBGPUARRAY.format(name="CUDA_ERROR_SYSTEM_NOT_READY", text="system not yet initialized"),
     "nvswitch-fabric-manager-down", "medium"),
    (OLD_BACKEND.format(text="too many resources requested for launch"), "cuda-launch-out-of-resources", "medium"),
    (OLD_BACKEND.format(text="uncorrectable ECC error encountered"), "gpu-ecc-uncorrectable", "high"),
    ("$ nvidia-smi\nUnable to determine the device handle for GPU 0000:02:00.0: GPU is lost.  Reboot the system "
     "to recover this GPU\n", "gpu-fallen-off-bus", "high"),
    ("[ 1843.30] NVRM: Xid (PCI:0000:44:00): 79, pid=1234, GPU has fallen off the bus.\n",
     "gpu-fallen-off-bus", "high"),
    ("[ 9.42] NVRM: API mismatch: the client has the version 367.44, but\n"
     "NVRM: this kernel module has the version 367.35.  Please\n", "driver-library-mismatch", "high"),
    ("$ nvidia-smi\nNo devices were found\n", "no-gpu-visible", "medium"),
    ("$ sudo modprobe nvidia\nmodprobe: ERROR: could not insert 'nvidia': Required key not available\n",
     "nvidia-module-secure-boot", "high"),
    ("modprobe: ERROR: could not insert 'nvidia_uvm': Key was rejected by service\n",
     "nvidia-module-secure-boot", "high"),
    ("$ sudo modprobe nvidia\nmodprobe: FATAL: Module nvidia not found in directory /lib/modules/5.4.0-42-generic\n",
     "nvidia-module-not-built", "high"),
    ("ERROR: The Nouveau kernel driver is currently in use by your system.  This\n"
     "       driver is incompatible with the NVIDIA driver, and must be disabled\n", "nouveau-blocks-nvidia", "high"),
    ("[ 15.30] NVRM: The NVIDIA Tesla M2070 GPU installed in this system is\n"
     "NVRM:  supported through the NVIDIA 390.xx Legacy drivers. Please\n", "gpu-not-supported-by-driver", "medium"),
    ("nvcc fatal   : Value 'sm_86' is not defined for option 'gpu-name'\n", "gpu-arch-unsupported", "medium"),
    ("tmpxft_0000120c_00000000-1.cpp\nnvcc fatal   : Host compiler targets unsupported OS.\n",
     "nvcc-host-compiler-target", "medium"),
    ("NVCC src/caffe/util/im2col.cu\nnvcc fatal   : Path to libdevice library not specified\n",
     "nvcc-libdevice-not-found", "medium"),
    (PYGPU + "GpuArrayException: b'cublasSgemm(h->h, ...): (cublas) Operation not supported by device.'\n",
     "cublas-op-not-on-this-gpu", "medium"),
    (PYGPU + "GpuArrayException: b'cublasSgemm(h->h, ...): (cublas) GPU ressource allocation failed.'\n",
     "gpu-out-of-memory", "medium"),
    ("RuntimeError: Could not set tensorNd descriptor: CUDNN_STATUS_VERSION_MISMATCH\n",
     "cudnn-version-mixed", "medium"),
    # Theano rel-0.9.0 theano/sandbox/cuda/dnn_gi.c:303 under a .theanorc that forces the algorithm
    ("[dnn.conv]\nalgo_bwd_data = winograd\nRuntimeError: GpuDnnConvGradI: error getting worksize: "
     "CUDNN_STATUS_NOT_SUPPORTED\nApply node that caused the error: GpuDnnConvGradI{algo='winograd', "
     "inplace=True}(GpuContiguous.0)\n", "cudnn-conv-algo-unsupported", "medium"),
    # the old back-end's cuDNN code compiled by nvcc against a cuDNN without the v4 entry points
    ('mod.cu(77): error: identifier "cudnnSetFilterNdDescriptor_v4" is undefined\n'
     '1 error detected in the compilation of "/tmp/tmpxft_0000_00000000-9_mod.cpp1.ii".\n', "cudnn-too-new", "medium"),
    # Theano rel-1.0.5 theano/tensor/nnet/bn.py:220 as Python 2 prints a float32 1e-5
    ("ValueError: epsilon must be at least 1e-5, got 9.99999974738e-06\n", "batchnorm-epsilon-too-small", "high"),
    # the old back-end holds the GPU when pygpu sets it up (device=gpu with contexts=)
    ("Using gpu device 0: GeForce GTX 1080 (CNMeM is disabled, cuDNN 5105)\n" + PYGPU +
     "GpuArrayException: cannot set while device is active in this process: 0\n", "gpu-backends-mixed", "medium"),
]


@pytest.mark.parametrize(("log", "cause", "confidence"), SPECIFIC, ids=[c for _, c, _ in SPECIFIC])
def test_each_upstream_message_names_its_cause_first(log, cause, confidence):
    first = explain_text(log).recognised[0]
    assert (first.cause, first.confidence) == (cause, confidence)
    assert first.signature_sources and all(problem(s) is None for s in first.signature_sources)


@pytest.mark.parametrize("text", ["an illegal memory access was encountered", "unspecified launch failure",
                                  "misaligned address", "device-side assert triggered"])
def test_a_kernel_fault_is_only_a_hint_that_asks_what_would_decide(text):
    result = explain_text(OLD_BACKEND.format(text=text))
    assert result.recognised == ()
    fault = next(f for f in result.findings if f.cause == "cuda-kernel-fault")
    assert fault.confidence == "low" and fault.asks and "CUDA_LAUNCH_BLOCKING=1" in fault.remedy


def test_a_hardware_error_beside_the_fault_is_its_root():
    log = OLD_BACKEND.format(text="uncorrectable ECC error encountered") + \
        "RuntimeError: Cuda error: GpuElemwise node_1: an illegal memory access was encountered.\n"
    found = explain_text(log).findings
    assert found[0].cause == "gpu-ecc-uncorrectable"
    fault = next(f for f in found if f.cause == "cuda-kernel-fault")
    assert fault.consequence_of == "gpu-ecc-uncorrectable"


def test_a_refused_module_explains_nvidia_smi_failing():
    log = ("$ sudo modprobe nvidia\nmodprobe: ERROR: could not insert 'nvidia': Required key not available\n"
           "$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
           "Make sure that the latest NVIDIA driver is installed and running.\n")
    found = explain_text(log).findings
    assert [f.cause for f in found][:2] == ["nvidia-module-secure-boot", "no-gpu-visible"]
    assert found[1].consequence_of == "nvidia-module-secure-boot"
    assert found[0].values == {"module": "nvidia"}


def test_the_module_taint_of_a_working_driver_is_never_the_cause():
    taint = "[ 2.84] nvidia: module verification failed: signature and/or required key missing - tainting kernel\n"
    alone = explain_text(taint)
    assert alone.recognised == ()
    assert [(f.cause, f.confidence) for f in alone.findings] == [("kernel-module-taint-harmless", "low")]
    beside = explain_text(taint + OLD_BACKEND.format(text="too many resources requested for launch"))
    assert [f.cause for f in beside.recognised] == ["cuda-launch-out-of-resources"]


def test_host_compiler_properties_and_nvml_unknown_error_only_ask():
    preprocess = "gcc: No such file or directory\nnvcc fatal   : Failed to preprocess host compiler properties.\n"
    for log, cause in ((preprocess, "nvcc-host-compiler-unusable"),
                       ("$ nvidia-smi\nFailed to initialize NVML: Unknown Error\n", "no-gpu-visible")):
        result = explain_text(log)
        assert result.recognised == ()
        hint = next(f for f in result.findings if f.cause == cause)
        assert hint.confidence == "low" and hint.asks


def test_the_garbage_and_the_gpu_architecture_values_keep_their_own_rows():
    assert explain_text("nvcc fatal   : Value 'sm_1234' is not defined for option 'gpu-name'\n").recognised == ()
    arch = explain_text("nvcc fatal   : Value 'sm_86' is not defined for option 'gpu-name'\n").recognised[0]
    assert arch.values.get("arch") == "sm_86"
    ptxas = explain_text("ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'\n").recognised[0]
    assert (ptxas.cause, ptxas.values.get("arch"), bool(ptxas.asks)) == ("gpu-arch-unsupported", "sm_121a", True)


@pytest.mark.parametrize("log", [
    # a dtype or shape cuDNN cannot do, with no algorithm forced in sight
    "RuntimeError: error getting worksize: CUDNN_STATUS_NOT_SUPPORTED\n",
    # another CUDA user in the process, no sign of the old back-end
    PYGPU + "GpuArrayException: cannot set while device is active in this process: 0\n",
])
def test_a_limit_or_mix_without_its_sign_in_the_log_is_a_hint_that_asks(log):
    found = explain_text(log)
    assert found.recognised == () and found.findings[0].asks, [(f.cause, f.confidence) for f in found.findings]


CONTEXT = 'File "basic_ops.py", line 127, in infer_context_name\nValueError: Could not infer context from inputs\n'


def test_no_context_to_infer_is_named_with_what_decides():
    # a gpuarray op on CPU tensors (theano/gpuarray/basic_ops.py:127, rel-1.0.5): the finding asks
    # for the device flag and Theano's `Mapped name` line
    found = explain_text(CONTEXT).recognised
    assert [(f.cause, f.confidence) for f in found] == [("gpu-context-missing", "medium")] and found[0].asks


def test_no_context_to_infer_in_a_graph_over_several_gpus_is_only_a_hint():
    # layers placed on two contexts (the experimental multi-GPU support) fail with the same words
    log = "THEANO_FLAGS=contexts=dev0->cuda0;dev1->cuda1 python train.py\n" + CONTEXT
    assert explain_text(log).recognised == ()


def test_an_unsupported_convolution_with_the_default_algorithm_is_no_forced_one():
    # float64 on cuDNN v5 (the node runs algo='none'): no configuration to blame
    log = ("RuntimeError: error getting worksize: CUDNN_STATUS_NOT_SUPPORTED\nApply node that caused the error: "
           "GpuDnnConvGradI{algo='none', inplace=True}(GpuContiguous.0, GpuContiguous.0)\n")
    assert "cudnn-conv-algo-unsupported" not in {f.cause for f in explain_text(log).findings}


def test_the_two_backends_mixed_explain_pygpu_not_initialising():
    log = ("Using gpu device 0: GeForce GTX 1080\n" + PYGPU
           + "GpuArrayException: cannot set while device is active in this process: 0\n")
    assert [f.cause for f in explain_text(log).recognised][:2] == ["gpu-backends-mixed", "pygpu-init-failed"]


# Theano 1.0.5 on Windows with cuDNN 8 under dnn.base_path: theano/gpuarray/dnn.py:184-187 warns that
# the header is newer than Theano, :108-111 cannot load a library of the names it knows (cuDNN 5-7),
# and theano/gpuarray/__init__.py:243 logs pygpu's initialisation as failed
CUDNN8_ON_WINDOWS = (
    "C:\\envs\\m\\lib\\site-packages\\theano\\gpuarray\\dnn.py:184: UserWarning: Your cuDNN version is more recent "
    "than Theano. If you encounter problems, try updating Theano or downgrading cuDNN to a version >= v5 and <= v7.\n"
    "  warnings.warn(\"Your cuDNN version is more recent than \"\n"
    "ERROR (theano.gpuarray): Could not initialize pygpu, support disabled\n"
    "Traceback (most recent call last):\n"
    "  File \"C:\\envs\\m\\lib\\site-packages\\theano\\gpuarray\\dnn.py\", line 109, in _dnn_lib\n"
    "    % config.dnn.base_path\n"
    "RuntimeError: Could not load cudnn library. Check your cudnn installation. Maybe using the Theano flag "
    "dnn.base_path can help you. Current value \"C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8\"\n")


def test_a_cudnn_too_new_to_load_is_the_root_of_the_failures_it_causes():
    found = explain_text(CUDNN8_ON_WINDOWS)
    # the warning explains the error, and is ranked with the errors, before pygpu's generic failure
    assert [f.cause for f in found.recognised][:2] == ["cudnn-too-new", "pygpu-init-failed"]
    assert {f.cause: f.consequence_of for f in found.findings}["cudnn-not-found"] == "cudnn-too-new"
    # without the warning, cuDNN is only not found
    alone = CUDNN8_ON_WINDOWS.split("ERROR (theano.gpuarray)", 1)[1]
    assert [f.cause for f in explain_text(alone).recognised][:1] == ["cudnn-not-found"]
