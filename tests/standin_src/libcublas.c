/* Test double of cuBLAS (libcublas.so) for libgpuarray 0.7.6: every symbol of its
 * src/loaders/libcublas.fn. A handle is created; every operation succeeds and computes nothing. */
static char token;

int cublasCreate_v2(void **handle) { *handle = &token; return 0; }
int cublasGetPointerMode_v2(void *handle, int *mode) { (void)handle; *mode = 0; return 0; }

/* No-ops: the System V x86-64 calling convention lets a function with an empty (unprototyped)
 * parameter list be called with any arguments. */
int cublasDestroy_v2() { return 0; }
int cublasSetStream_v2() { return 0; }
int cublasSetPointerMode_v2() { return 0; }
int cublasSetAtomicsMode() { return 0; }
int cublasSdot_v2() { return 0; }
int cublasDdot_v2() { return 0; }
int cublasSgemm_v2() { return 0; }
int cublasDgemm_v2() { return 0; }
int cublasSgemv_v2() { return 0; }
int cublasDgemv_v2() { return 0; }
int cublasSger_v2() { return 0; }
int cublasDger_v2() { return 0; }
int cublasSgemmEx() { return 0; }
int cublasGemmEx() { return 0; }
int cublasSgemmBatched() { return 0; }
int cublasDgemmBatched() { return 0; }
int cublasHgemmStridedBatched() { return 0; }
int cublasSgemmStridedBatched() { return 0; }
int cublasDgemmStridedBatched() { return 0; }
