/* Test double of NVRTC (libnvrtc.so) for libgpuarray 0.7.6: every symbol of its
 * src/loaders/libnvrtc.fn. Compiling succeeds and yields a placeholder PTX. */
#include <string.h>

typedef int nvrtcResult;
typedef void *nvrtcProgram;
static char token;
static const char ptx[] = "// stand-in PTX\n";

nvrtcResult nvrtcCreateProgram(nvrtcProgram *p, const char *src, const char *name, int n,
                               const char **headers, const char **names) {
  (void)src; (void)name; (void)n; (void)headers; (void)names; *p = &token; return 0;
}
nvrtcResult nvrtcCompileProgram(nvrtcProgram p, int n, const char **opts) { (void)p; (void)n; (void)opts; return 0; }
nvrtcResult nvrtcDestroyProgram(nvrtcProgram *p) { (void)p; return 0; }
nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram p, size_t *size) { (void)p; *size = 1; return 0; }
nvrtcResult nvrtcGetProgramLog(nvrtcProgram p, char *log) { (void)p; log[0] = 0; return 0; }
nvrtcResult nvrtcGetPTXSize(nvrtcProgram p, size_t *size) { (void)p; *size = sizeof(ptx); return 0; }
nvrtcResult nvrtcGetPTX(nvrtcProgram p, char *out) { (void)p; memcpy(out, ptx, sizeof(ptx)); return 0; }
const char *nvrtcGetErrorString(nvrtcResult r) { return r == 0 ? "NVRTC_SUCCESS" : "NVRTC_ERROR_COMPILATION"; }
