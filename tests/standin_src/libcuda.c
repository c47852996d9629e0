/* Test double of the NVIDIA driver library (libcuda.so) for libgpuarray 0.7.6: it exports every
 * symbol of libgpuarray's src/loaders/libcuda.fn. Memory is host memory (copies and memsets are
 * real); kernels "run" and compute nothing. What it reports is chosen per test through
 * environment variables:
 *   STANDIN_CUDA_DRIVER_VERSION  cuDriverGetVersion, e.g. 10020 (default 10020)
 *   STANDIN_CUDA_DEVICES         cuDeviceGetCount (default 1)
 *   STANDIN_CUDA_DEVICE_NAME     cuDeviceGetName (default "Stand-in GPU")
 *   STANDIN_CUDA_CC              compute capability "M.m" (default "7.5")
 *   STANDIN_CUDA_INIT_ERROR      a CUresult cuInit returns (default 0)
 *   STANDIN_CUDA_VERSION_ERROR   a CUresult cuDriverGetVersion returns (default 0)
 *   STANDIN_CUDA_NO_UVA          1: the device reports no unified addressing
 *   STANDIN_CUDA_MODULE_ERROR    a CUresult cuModuleLoadData(Ex) returns (default 0)
 */
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef int CUdevice;
typedef void *handle;

static int env_int(const char *name, int fallback) {
  const char *v = getenv(name);
  return v && *v ? atoi(v) : fallback;
}

static int cc_part(int minor) {
  const char *v = getenv("STANDIN_CUDA_CC");
  const char *dot;
  if (!v || !*v) v = "7.5";
  dot = strchr(v, '.');
  return minor ? (dot ? atoi(dot + 1) : 0) : atoi(v);
}

static int initialised = 0;
static int current_device = 0;
static char cubin[] = "stand-in cubin";
static char token;  /* the address handed out as every opaque handle */

CUresult cuInit(int flags) {
  int err = env_int("STANDIN_CUDA_INIT_ERROR", 0);
  (void)flags;
  if (err == 0) initialised = 1;
  return err;
}
CUresult cuDriverGetVersion(int *v) {
  *v = env_int("STANDIN_CUDA_DRIVER_VERSION", 10020);
  return env_int("STANDIN_CUDA_VERSION_ERROR", 0);
}

/* The names and texts the real driver gives for the codes the tests use (cuda.h, CUresult). */
static const char *error_text(CUresult e, int name) {
  switch (e) {
  case 0: return name ? "CUDA_SUCCESS" : "no error";
  case 3: return name ? "CUDA_ERROR_NOT_INITIALIZED" : "initialization error";
  case 34: return name ? "CUDA_ERROR_STUB_LIBRARY" : "CUDA driver is a stub library";
  case 100: return name ? "CUDA_ERROR_NO_DEVICE" : "no CUDA-capable device is detected";
  case 101: return name ? "CUDA_ERROR_INVALID_DEVICE" : "invalid device ordinal";
  case 209: return name ? "CUDA_ERROR_NO_BINARY_FOR_GPU" : "no kernel image is available for execution on the device";
  default: return name ? "CUDA_ERROR_UNKNOWN" : "unknown error";
  }
}
CUresult cuGetErrorName(CUresult e, const char **s) { *s = error_text(e, 1); return 0; }
CUresult cuGetErrorString(CUresult e, const char **s) { *s = error_text(e, 0); return 0; }

CUresult cuDeviceGetCount(int *count) {
  if (!initialised) return 3;
  *count = env_int("STANDIN_CUDA_DEVICES", 1);
  return 0;
}
CUresult cuDeviceGet(CUdevice *dev, int ordinal) {
  if (!initialised) return 3;
  if (ordinal < 0 || ordinal >= env_int("STANDIN_CUDA_DEVICES", 1)) return 101;
  *dev = ordinal;
  return 0;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  const char *v = getenv("STANDIN_CUDA_DEVICE_NAME");
  (void)dev;
  strncpy(name, v && *v ? v : "Stand-in GPU", len - 1);
  name[len - 1] = 0;
  return 0;
}
CUresult cuDeviceGetAttribute(int *pi, int attrib, CUdevice dev) {
  (void)dev;
  switch (attrib) {
  case 1: case 2: case 3: case 39: *pi = 1024; break;  /* threads per block, block x/y */
  case 4: *pi = 64; break;
  case 5: *pi = 2147483647; break;
  case 6: case 7: *pi = 65535; break;
  case 8: *pi = 49152; break;
  case 10: *pi = 32; break;
  case 16: *pi = 40; break;
  case 41: *pi = !env_int("STANDIN_CUDA_NO_UVA", 0); break;  /* unified addressing: libgpuarray requires it */
  case 75: *pi = cc_part(0); break;
  case 76: *pi = cc_part(1); break;
  default: *pi = 0;
  }
  return 0;
}
CUresult cuDeviceGetPCIBusId(char *bus, int len, CUdevice dev) {
  (void)dev;
  strncpy(bus, "0000:01:00.0", len - 1);
  bus[len - 1] = 0;
  return 0;
}

/* STANDIN_CUDA_PRIMARY_ACTIVE=1: another library in the process already opened the primary context (flags 0) */
CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned int *f, int *a) {
  (void)d; *f = 0; *a = env_int("STANDIN_CUDA_PRIMARY_ACTIVE", 0); return 0;
}
CUresult cuDevicePrimaryCtxSetFlags(CUdevice d, unsigned int f) { (void)d; (void)f; return 0; }
CUresult cuDevicePrimaryCtxRelease(CUdevice d) { (void)d; return 0; }
CUresult cuDevicePrimaryCtxRetain(handle *ctx, CUdevice d) { current_device = d; *ctx = &token; return 0; }
CUresult cuCtxGetDevice(CUdevice *d) { *d = current_device; return 0; }
CUresult cuCtxPushCurrent_v2(handle c) { (void)c; return 0; }
CUresult cuCtxPopCurrent_v2(handle *c) { if (c) *c = &token; return 0; }

CUresult cuLinkCreate(unsigned int n, int *o, void **v, handle *st) { (void)n; (void)o; (void)v; *st = &token; return 0; }
CUresult cuLinkAddData(handle st, int t, void *d, size_t s, const char *n, unsigned int k, int *o, void **v) {
  (void)st; (void)t; (void)d; (void)s; (void)n; (void)k; (void)o; (void)v; return 0;
}
CUresult cuLinkComplete(handle st, void **out, size_t *size) { (void)st; *out = cubin; *size = sizeof(cubin); return 0; }
CUresult cuLinkDestroy(handle st) { (void)st; return 0; }
CUresult cuModuleLoadData(handle *m, const void *image) {
  (void)image; *m = &token; return env_int("STANDIN_CUDA_MODULE_ERROR", 0);
}
CUresult cuModuleLoadDataEx(handle *m, const void *image, unsigned int n, int *o, void **v) {
  (void)image; (void)n; (void)o; (void)v; *m = &token; return env_int("STANDIN_CUDA_MODULE_ERROR", 0);
}
CUresult cuModuleUnload(handle m) { (void)m; return 0; }
CUresult cuModuleGetFunction(handle *f, handle m, const char *name) { (void)m; (void)name; *f = &token; return 0; }

CUresult cuMemGetInfo_v2(size_t *free_b, size_t *total) { *free_b = (size_t)7 << 30; *total = (size_t)8 << 30; return 0; }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size) { *p = (CUdeviceptr)calloc(1, size ? size : 1); return *p ? 0 : 2; }
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)p); return 0; }
CUresult cuMemAllocHost_v2(void **p, size_t size) { *p = calloc(1, size ? size : 1); return *p ? 0 : 2; }
CUresult cuMemFreeHost(void *p) { free(p); return 0; }

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, handle st) { (void)st; memcpy((void *)d, s, n); return 0; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)d, s, n); return 0; }
CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, handle st) { (void)st; memcpy(d, (void *)s, n); return 0; }
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, handle st) { (void)st; memmove((void *)d, (void *)s, n); return 0; }
CUresult cuMemcpyPeerAsync(CUdeviceptr d, handle dc, CUdeviceptr s, handle sc, size_t n, handle st) {
  (void)dc; (void)sc; (void)st; memmove((void *)d, (void *)s, n); return 0;
}
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char c, size_t n, handle st) { (void)st; memset((void *)d, c, n); return 0; }

/* The point of the stand-in: a kernel launch succeeds and computes nothing. */
CUresult cuLaunchKernel(handle f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                        unsigned int by, unsigned int bz, unsigned int shm, handle st, void **params, void **extra) {
  (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)shm; (void)st; (void)params; (void)extra;
  return 0;
}
CUresult cuFuncGetAttribute(int *pi, int attrib, handle f) { (void)f; *pi = attrib == 0 ? 1024 : 0; return 0; }

CUresult cuEventCreate(handle *e, unsigned int f) { (void)f; *e = &token; return 0; }
CUresult cuEventRecord(handle e, handle s) { (void)e; (void)s; return 0; }
CUresult cuEventSynchronize(handle e) { (void)e; return 0; }
CUresult cuEventDestroy_v2(handle e) { (void)e; return 0; }
CUresult cuStreamCreate(handle *s, unsigned int f) { (void)f; *s = &token; return 0; }
CUresult cuStreamWaitEvent(handle s, handle e, unsigned int f) { (void)s; (void)e; (void)f; return 0; }
CUresult cuStreamSynchronize(handle s) { (void)s; return 0; }
CUresult cuStreamDestroy_v2(handle s) { (void)s; return 0; }

typedef struct { char reserved[64]; } ipc_handle;
CUresult cuIpcGetMemHandle(ipc_handle *h, CUdeviceptr p) { (void)h; (void)p; return 999; }
CUresult cuIpcOpenMemHandle(CUdeviceptr *p, ipc_handle h, unsigned int f) { (void)p; (void)h; (void)f; return 999; }
CUresult cuIpcCloseMemHandle(CUdeviceptr p) { (void)p; return 999; }
