/*
 * libcore/backend_cuda.c: every CUDA runtime call libcore makes.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcore/backend.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a call that needs CUDA says in a build without it. */
#define NO_CUDA "this build of cusci has no CUDA backend (configured --without-cuda or without a toolkit)"

#ifdef CUSCI_HAVE_CUDA

#include <cublas_api.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <curand.h>
#include <cusolver_common.h>
/* Its enums only; the deprecated declarations need no warning here. */
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>

#include "kernels/core/launch.h"

/* Run `call` with `device` current, restoring the caller's device after. */
#define ON_DEVICE(device, call)                  \
  do {                                           \
    int cur_ = -1;                               \
    cudaGetDevice(&cur_);                        \
    if (cur_ != (device))                        \
      cudaSetDevice(device);                     \
    call;                                        \
    if (cur_ != (device) && cur_ >= 0)           \
      cudaSetDevice(cur_);                       \
  } while (0)


static void cuda_msg(char *err, size_t len, const char *what, cudaError_t e)
{
  if (err && len)
    snprintf(err, len, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

/* A CUDA error as a status: memory, missing devices and the rest. */
static cusci_status cuda_status(cudaError_t e)
{
  switch (e) {
  case cudaSuccess:
    return CUSCI_OK;
  case cudaErrorMemoryAllocation:
    return CUSCI_ERR_OUT_OF_MEMORY;
  case cudaErrorNoDevice:
  case cudaErrorInsufficientDriver:
  case cudaErrorInvalidDevice:
  case cudaErrorDevicesUnavailable:
  case cudaErrorInitializationError:
    return CUSCI_ERR_NO_DEVICE;
  default:
    return CUSCI_ERR_CUDA;
  }
}

/* ------------------------------------------------ device faults */

/*
 * A fault in a kernel or a copy (an illegal address, an illegal
 * instruction, a trap, an uncorrectable memory error) destroys the
 * device's CUDA context for the whole process: every later CUDA call on it
 * returns the same error. The first such error seen on a device is kept,
 * and every later cusci call that would use the device returns
 * CUSCI_ERR_DEVICE_FAULT with a message naming it, rather than messages
 * about events or launches that follow from it.
 */
#define MAX_GPUS 64

static struct {
  atomic_int state; /* 0: none; 1: being recorded; 2: recorded in msg */
  char msg[640];
} faults[MAX_GPUS];

static bool sticky(cudaError_t e)
{
  switch (e) {
  case cudaErrorIllegalAddress:
  case cudaErrorLaunchTimeout:
  case cudaErrorHardwareStackError:
  case cudaErrorIllegalInstruction:
  case cudaErrorMisalignedAddress:
  case cudaErrorInvalidAddressSpace:
  case cudaErrorInvalidPc:
  case cudaErrorLaunchFailure:
  case cudaErrorAssert:
  case cudaErrorECCUncorrectable:
  case cudaErrorNvlinkUncorrectable:
    return true;
  default:
    return false;
  }
}

static void note_fault(int device, cudaError_t e, const char *fn, const char *what)
{
  if (device < 0 || device >= MAX_GPUS)
    return;
  int none = 0;
  if (!atomic_compare_exchange_strong(&faults[device].state, &none, 1))
    return;
  snprintf(faults[device].msg, sizeof faults[device].msg,
           "GPU %d is unusable after a device fault: %s (%s), first reported to %s by %s. The fault destroyed the GPU's "
           "CUDA context for the whole process: restart the process to use this GPU again",
           device, cudaGetErrorName(e), cudaGetErrorString(e), fn ? fn : "cusci", what);
  atomic_store(&faults[device].state, 2);
}

/* CUSCI_ERR_DEVICE_FAULT on ctx when its device has faulted, else OK. */
static cusci_status fault_check(cusci_ctx *ctx, const char *fn, int device)
{
  if (device < 0 || device >= MAX_GPUS || atomic_load(&faults[device].state) == 0)
    return CUSCI_OK;
  if (atomic_load(&faults[device].state) == 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE_FAULT, fn, "%s", faults[device].msg);
  return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE_FAULT, fn, "GPU %d is unusable after a device fault; restart the process",
                        device);
}

cusci_status cusci__gpu_fault_check(cusci_ctx *ctx, const char *fn)
{
  return ctx ? fault_check(ctx, fn, ctx->device) : CUSCI_OK;
}

static cusci_status cuda_fail(cusci_ctx *ctx, const char *fn, const char *what, cudaError_t e)
{
  if (sticky(e) && ctx) {
    note_fault(ctx->device, e, fn, what);
    return fault_check(ctx, fn, ctx->device);
  }
  return cusci_ctx_fail(ctx, cuda_status(e), fn, "%s failed: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

cusci_status cusci__gpu_count(int *count, char *err, size_t len)
{
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();
    cuda_msg(err, len, "cudaGetDeviceCount", e);
    *count = 0;
    return cuda_status(e) == CUSCI_ERR_CUDA ? CUSCI_ERR_NO_DEVICE : cuda_status(e);
  }
  *count = n;
  return CUSCI_OK;
}

static cusci_status check_ordinal(int device, char *err, size_t len)
{
  int n = 0;
  cusci_status st = cusci__gpu_count(&n, err, len);
  if (st != CUSCI_OK)
    return st;
  if (device < 0 || device >= n) {
    snprintf(err, len, "no CUDA device %d (%d usable)", device, n);
    return CUSCI_ERR_NO_DEVICE;
  }
  return CUSCI_OK;
}

cusci_status cusci__gpu_props(int device, char *name, size_t name_len, int *major, int *minor, char *err, size_t len)
{
  cusci_status st = check_ordinal(device, err, len);
  if (st != CUSCI_OK)
    return st;
  struct cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, device);
  if (e != cudaSuccess) {
    cuda_msg(err, len, "cudaGetDeviceProperties", e);
    return CUSCI_ERR_NO_DEVICE;
  }
  if (name && name_len)
    snprintf(name, name_len, "%s", p.name);
  if (major)
    *major = p.major;
  if (minor)
    *minor = p.minor;
  return CUSCI_OK;
}

cusci_status cusci__gpu_memory(int device, size_t *free_bytes, size_t *total_bytes, char *err, size_t len)
{
  cusci_status st = check_ordinal(device, err, len);
  if (st != CUSCI_OK)
    return st;
  int prev = 0;
  cudaGetDevice(&prev);
  cudaError_t e = cudaSetDevice(device);
  size_t f = 0, t = 0;
  if (e == cudaSuccess)
    e = cudaMemGetInfo(&f, &t);
  cudaSetDevice(prev);
  if (e != cudaSuccess) {
    cuda_msg(err, len, "cudaMemGetInfo", e);
    return cuda_status(e);
  }
  if (free_bytes)
    *free_bytes = f;
  if (total_bytes)
    *total_bytes = t;
  return CUSCI_OK;
}

cusci_status cusci__gpu_ctx_init(int device, void **stream, char *err, size_t len)
{
  cusci_status st = check_ordinal(device, err, len);
  if (st != CUSCI_OK)
    return st;
  if (atomic_load(&faults[device].state) != 0) {
    snprintf(err, len, "%s", atomic_load(&faults[device].state) == 2 ? faults[device].msg : "the GPU faulted earlier");
    return CUSCI_ERR_DEVICE_FAULT;
  }
  cudaError_t e = cudaSetDevice(device);
  if (e != cudaSuccess) {
    cuda_msg(err, len, "cudaSetDevice", e);
    return CUSCI_ERR_NO_DEVICE;
  }
  cudaStream_t s;
  e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (e != cudaSuccess) {
    cuda_msg(err, len, "cudaStreamCreateWithFlags", e);
    return cuda_status(e) == CUSCI_ERR_OUT_OF_MEMORY ? CUSCI_ERR_OUT_OF_MEMORY : CUSCI_ERR_NO_DEVICE;
  }
  *stream = s;
  return CUSCI_OK;
}

void cusci__gpu_ctx_fini(int device, void *stream)
{
  if (cudaSetDevice(device) == cudaSuccess && stream) {
    cudaStreamSynchronize((cudaStream_t)stream);
    cudaStreamDestroy((cudaStream_t)stream);
  }
}

cusci_status cusci__gpu_use(cusci_ctx *ctx, const char *fn)
{
  CUSCI_TRY(fault_check(ctx, fn, ctx->device));
  int cur = -1;
  if (cudaGetDevice(&cur) == cudaSuccess && cur == ctx->device)
    return CUSCI_OK;
  cudaError_t e = cudaSetDevice(ctx->device);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaSetDevice", e);
}

static cusci_status memcpy_async(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
  if (n == 0)
    return CUSCI_OK;
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaError_t e = cudaMemcpyAsync(dst, src, n, kind, (cudaStream_t)ctx->stream);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaMemcpyAsync", e);
}

cusci_status cusci__gpu_memcpy_h2d(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n)
{
  return memcpy_async(ctx, fn, dst, src, n, cudaMemcpyHostToDevice);
}

cusci_status cusci__gpu_memcpy_d2h(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n)
{
  return memcpy_async(ctx, fn, dst, src, n, cudaMemcpyDeviceToHost);
}

cusci_status cusci__gpu_memcpy_d2d(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n)
{
  return memcpy_async(ctx, fn, dst, src, n, cudaMemcpyDeviceToDevice);
}

cusci_status cusci__gpu_memset(cusci_ctx *ctx, const char *fn, void *dst, int byte, size_t n)
{
  if (n == 0)
    return CUSCI_OK;
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaError_t e = cudaMemsetAsync(dst, byte, n, (cudaStream_t)ctx->stream);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaMemsetAsync", e);
}

cusci_status cusci__gpu_sync(cusci_ctx *ctx, const char *fn)
{
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaError_t e = cudaStreamSynchronize((cudaStream_t)ctx->stream);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "work queued on the context's stream", e);
}

int cusci__gpu_pointer_device(const void *ptr)
{
  struct cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
    cudaGetLastError();
    return CUSCI_DEVICE_HOST;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : CUSCI_DEVICE_HOST;
}

bool cusci__gpu_is_pinned(const void *ptr)
{
  struct cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

void cusci__gpu_stream_sync(void *stream)
{
  if (stream && cudaStreamSynchronize((cudaStream_t)stream) != cudaSuccess)
    cudaGetLastError();
}

/* ------------------------------------------------ launchers' codes */

/* The vendor libraries' statuses by name, from the enums of their headers,
 * and which of them mean that memory ran out. */
#define VENDOR_(lib, x, oom) {lib, (int)(x), #x, oom},
static const struct {
  cusci_gpu_lib lib;
  int value;
  const char *name;
  bool oom;
} vendor_codes[] = {
  VENDOR_(CUSCI_GPU_CUBLAS, CUBLAS_STATUS_NOT_INITIALIZED, false) VENDOR_(CUSCI_GPU_CUBLAS, CUBLAS_STATUS_ALLOC_FAILED, true)
  VENDOR_(CUSCI_GPU_CUBLAS, CUBLAS_STATUS_INVALID_VALUE, false) VENDOR_(CUSCI_GPU_CUBLAS, CUBLAS_STATUS_ARCH_MISMATCH, false)
  VENDOR_(CUSCI_GPU_CUBLAS, CUBLAS_STATUS_MAPPING_ERROR, false) VENDOR_(CUSCI_GPU_CUBLAS, CUBLAS_STATUS_EXECUTION_FAILED, false)
  VENDOR_(CUSCI_GPU_CUBLAS, CUBLAS_STATUS_INTERNAL_ERROR, false) VENDOR_(CUSCI_GPU_CUBLAS, CUBLAS_STATUS_NOT_SUPPORTED, false)
  VENDOR_(CUSCI_GPU_CUBLAS, CUBLAS_STATUS_LICENSE_ERROR, false)
  VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_NOT_INITIALIZED, false) VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_ALLOC_FAILED, true)
  VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_INVALID_VALUE, false) VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_ARCH_MISMATCH, false)
  VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_MAPPING_ERROR, false)
  VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_EXECUTION_FAILED, false)
  VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_INTERNAL_ERROR, false)
  VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED, false)
  VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_NOT_SUPPORTED, false) VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_ZERO_PIVOT, false)
  VENDOR_(CUSCI_GPU_CUSOLVER, CUSOLVER_STATUS_INVALID_LICENSE, false)
  VENDOR_(CUSCI_GPU_CUFFT, CUFFT_INVALID_PLAN, false) VENDOR_(CUSCI_GPU_CUFFT, CUFFT_ALLOC_FAILED, true)
  VENDOR_(CUSCI_GPU_CUFFT, CUFFT_INVALID_TYPE, false) VENDOR_(CUSCI_GPU_CUFFT, CUFFT_INVALID_VALUE, false)
  VENDOR_(CUSCI_GPU_CUFFT, CUFFT_INTERNAL_ERROR, false) VENDOR_(CUSCI_GPU_CUFFT, CUFFT_EXEC_FAILED, false)
  VENDOR_(CUSCI_GPU_CUFFT, CUFFT_SETUP_FAILED, false) VENDOR_(CUSCI_GPU_CUFFT, CUFFT_INVALID_SIZE, false)
  VENDOR_(CUSCI_GPU_CUFFT, CUFFT_UNALIGNED_DATA, false) VENDOR_(CUSCI_GPU_CUFFT, CUFFT_INVALID_DEVICE, false)
  VENDOR_(CUSCI_GPU_CUFFT, CUFFT_NO_WORKSPACE, false) VENDOR_(CUSCI_GPU_CUFFT, CUFFT_NOT_IMPLEMENTED, false)
  VENDOR_(CUSCI_GPU_CUFFT, CUFFT_NOT_SUPPORTED, false)
  VENDOR_(CUSCI_GPU_CUSPARSE, CUSPARSE_STATUS_NOT_INITIALIZED, false) VENDOR_(CUSCI_GPU_CUSPARSE, CUSPARSE_STATUS_ALLOC_FAILED, true)
  VENDOR_(CUSCI_GPU_CUSPARSE, CUSPARSE_STATUS_INVALID_VALUE, false) VENDOR_(CUSCI_GPU_CUSPARSE, CUSPARSE_STATUS_ARCH_MISMATCH, false)
  VENDOR_(CUSCI_GPU_CUSPARSE, CUSPARSE_STATUS_EXECUTION_FAILED, false)
  VENDOR_(CUSCI_GPU_CUSPARSE, CUSPARSE_STATUS_INTERNAL_ERROR, false)
  VENDOR_(CUSCI_GPU_CUSPARSE, CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED, false)
  VENDOR_(CUSCI_GPU_CUSPARSE, CUSPARSE_STATUS_ZERO_PIVOT, false) VENDOR_(CUSCI_GPU_CUSPARSE, CUSPARSE_STATUS_NOT_SUPPORTED, false)
  VENDOR_(CUSCI_GPU_CUSPARSE, CUSPARSE_STATUS_INSUFFICIENT_RESOURCES, true)
  VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_VERSION_MISMATCH, false) VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_NOT_INITIALIZED, false)
  VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_ALLOCATION_FAILED, true) VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_TYPE_ERROR, false)
  VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_OUT_OF_RANGE, false) VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_LENGTH_NOT_MULTIPLE, false)
  VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_DOUBLE_PRECISION_REQUIRED, false)
  VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_LAUNCH_FAILURE, false)
  VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_PREEXISTING_FAILURE, false)
  VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_INITIALIZATION_FAILED, false)
  VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_ARCH_MISMATCH, false) VENDOR_(CUSCI_GPU_CURAND, CURAND_STATUS_INTERNAL_ERROR, false)
};
#undef VENDOR_

static const char *vendor_status(cusci_gpu_lib lib, int v, bool *oom)
{
  *oom = false;
  for (size_t i = 0; i < sizeof vendor_codes / sizeof *vendor_codes; i++)
    if (vendor_codes[i].lib == lib && vendor_codes[i].value == v) {
      *oom = vendor_codes[i].oom;
      return vendor_codes[i].name;
    }
  return "a status this build of cusci does not know";
}

cusci_status cusci_ctx_gpu_status(cusci_ctx *ctx, const char *fn, const char *what, int code)
{
  if (code == 0)
    return CUSCI_OK;
  if (!what)
    what = "a kernel launch";
  cusci_gpu_lib lib = CUSCI_GPU_CODE_LIB(code);
  int v = CUSCI_GPU_CODE_VALUE(code);
  if (lib == CUSCI_GPU_CUDA)
    return cuda_fail(ctx, fn, what, (cudaError_t)v);
  if (lib == CUSCI_GPU_NO_CUDA)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NO_DEVICE, fn, "%s: %s", what, NO_CUDA);
  /* A library call fails too when an earlier kernel faulted: the runtime
   * knows, and the fault is what the caller must hear of. */
  cudaError_t pending = cudaPeekAtLastError();
  if (sticky(pending))
    return cuda_fail(ctx, fn, what, pending);
  bool oom = false;
  const char *name = vendor_status(lib, v, &oom);
  return cusci_ctx_fail(ctx, oom ? CUSCI_ERR_OUT_OF_MEMORY : CUSCI_ERR_CUDA, fn, "%s failed: %s (%d)", what, name, v);
}

cusci_status cusci__gpu_event_create(cusci_ctx *ctx, const char *fn, void **ev)
{
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaEvent_t e_;
  cudaError_t e = cudaEventCreate(&e_);
  if (e != cudaSuccess)
    return cuda_fail(ctx, fn, "cudaEventCreate", e);
  *ev = e_;
  return CUSCI_OK;
}

void cusci__gpu_event_destroy(int device, void *ev)
{
  (void)device;
  cudaEventDestroy((cudaEvent_t)ev);
}

cusci_status cusci__gpu_event_record(cusci_ctx *ctx, const char *fn, void *ev)
{
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaError_t e = cudaEventRecord((cudaEvent_t)ev, (cudaStream_t)ctx->stream);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaEventRecord", e);
}

cusci_status cusci__gpu_event_wait(cusci_ctx *ctx, const char *fn, void *ev)
{
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaError_t e = cudaStreamWaitEvent((cudaStream_t)ctx->stream, (cudaEvent_t)ev, 0);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaStreamWaitEvent", e);
}

/* Record ev on, or make wait on it, a stream that is not ctx's (a DLPack
 * peer's), with ctx's device current. */
cusci_status cusci__gpu_event_record_on(cusci_ctx *ctx, const char *fn, void *ev, void *stream)
{
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaError_t e = cudaEventRecord((cudaEvent_t)ev, (cudaStream_t)stream);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaEventRecord", e);
}

cusci_status cusci__gpu_event_wait_on(cusci_ctx *ctx, const char *fn, void *ev, void *stream)
{
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaError_t e = cudaStreamWaitEvent((cudaStream_t)stream, (cudaEvent_t)ev, 0);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaStreamWaitEvent", e);
}

cusci_status cusci__gpu_event_sync(cusci_ctx *ctx, const char *fn, void *ev)
{
  CUSCI_TRY(fault_check(ctx, fn, ctx->device));
  cudaError_t e = cudaEventSynchronize((cudaEvent_t)ev);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaEventSynchronize", e);
}

cusci_status cusci__gpu_event_elapsed(cusci_ctx *ctx, const char *fn, void *start, void *end, float *ms)
{
  CUSCI_TRY(fault_check(ctx, fn, ctx->device));
  cudaError_t e = cudaEventElapsedTime(ms, (cudaEvent_t)start, (cudaEvent_t)end);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaEventElapsedTime", e);
}

cusci_status cusci__gpu_gather(cusci_ctx *ctx, const char *fn, int device, cusci_pool *pool, const cusci_loop *loop,
                               cusci_dtype dtype, const void *src, size_t n, void **out)
{
  void *p = NULL;
  cusci_status st = cusci_pool_malloc(pool, n, NULL, &p);
  if (st != CUSCI_OK)
    return cusci_ctx_fail(ctx, st, fn, "GPU %d: %s", device, cusci_pool_last_error(pool));
  cudaError_t e;
  int err = 0;
  ON_DEVICE(device, {
    err = cusci__launch_astype(NULL, dtype, dtype, loop, p, src);
    e = err ? (cudaError_t)err : cudaStreamSynchronize(NULL);
  });
  if (e != cudaSuccess) {
    cusci_pool_free(pool, p, NULL);
    return cuda_fail(ctx, fn, "gathering a strided array on its GPU", e);
  }
  *out = p;
  return CUSCI_OK;
}

cusci_status cusci__gpu_d2h_from(cusci_ctx *ctx, const char *fn, int device, void *dst, const void *src, size_t n)
{
  cudaError_t e;
  ON_DEVICE(device, e = cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost));
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaMemcpy from another device", e);
}

cusci_status cusci__gpu_memcpy_peer(cusci_ctx *ctx, const char *fn, void *dst, const void *src, int src_device, size_t n)
{
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaError_t e = cudaMemcpyPeerAsync(dst, ctx->device, src, src_device, n, (cudaStream_t)ctx->stream);
  if (e == cudaSuccess)
    e = cudaStreamSynchronize((cudaStream_t)ctx->stream);
  return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaMemcpyPeerAsync", e);
}

/* ------------------------------------------------ allocators and events */

static int dev_of(void *user) { return (int)(intptr_t)user; }

static void *cuda_malloc(void *user, size_t n, void *stream)
{
  void *p = NULL;
  cudaError_t e;
  ON_DEVICE(dev_of(user), e = cudaMalloc(&p, n));
  if (e != cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  return p;
}

static void cuda_free(void *user, void *ptr, size_t n, void *stream)
{
  ON_DEVICE(dev_of(user), cudaFree(ptr));
}

static void *cuda_malloc_async(void *user, size_t n, void *stream)
{
  void *p = NULL;
  cudaError_t e;
  ON_DEVICE(dev_of(user), e = cudaMallocAsync(&p, n, (cudaStream_t)stream));
  if (e != cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  return p;
}

static void cuda_free_async(void *user, void *ptr, size_t n, void *stream)
{
  ON_DEVICE(dev_of(user), cudaFreeAsync(ptr, (cudaStream_t)stream));
}

static void *cuda_malloc_managed(void *user, size_t n, void *stream)
{
  void *p = NULL;
  cudaError_t e;
  ON_DEVICE(dev_of(user), e = cudaMallocManaged(&p, n, cudaMemAttachGlobal));
  if (e != cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  return p;
}

static void *pinned_malloc(void *user, size_t n, void *stream)
{
  void *p = NULL;
  if (cudaHostAlloc(&p, n, cudaHostAllocPortable) != cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  return p;
}

static void pinned_free(void *user, void *ptr, size_t n, void *stream)
{
  cudaFreeHost(ptr);
}

static void *ev_record(void *user, void *stream)
{
  cudaEvent_t e = NULL;
  cudaError_t r;
  ON_DEVICE(dev_of(user), r = cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  if (r != cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  if (cudaEventRecord(e, (cudaStream_t)stream) != cudaSuccess) {
    cudaGetLastError();
    cudaEventDestroy(e);
    return NULL;
  }
  return e;
}

static int ev_done(void *user, void *ev)
{
  cudaError_t r = cudaEventQuery((cudaEvent_t)ev);
  if (r == cudaErrorNotReady)
    return 0;
  cudaGetLastError();
  return 1; /* done, or failed: either way no longer pending */
}

static void ev_wait(void *user, void *ev)
{
  cudaEventSynchronize((cudaEvent_t)ev);
}

static void ev_destroy(void *user, void *ev)
{
  cudaEventDestroy((cudaEvent_t)ev);
}

cusci_status cusci__gpu_stream_events(int device, cusci_stream_events *out)
{
  *out = (cusci_stream_events){ev_record, ev_done, ev_wait, ev_destroy, (void *)(intptr_t)device};
  return CUSCI_OK;
}

static cusci_status cuda_allocator(cusci_allocator_kind kind, int device, cusci_allocator *out)
{
  void *user = (void *)(intptr_t)device;
  switch (kind) {
  case CUSCI_ALLOCATOR_CUDA_MALLOC: *out = (cusci_allocator){cuda_malloc, cuda_free, user}; return CUSCI_OK;
  case CUSCI_ALLOCATOR_CUDA_MALLOC_ASYNC: *out = (cusci_allocator){cuda_malloc_async, cuda_free_async, user}; return CUSCI_OK;
  case CUSCI_ALLOCATOR_CUDA_MANAGED: *out = (cusci_allocator){cuda_malloc_managed, cuda_free, user}; return CUSCI_OK;
  case CUSCI_ALLOCATOR_PINNED: *out = (cusci_allocator){pinned_malloc, pinned_free, NULL}; return CUSCI_OK;
  default: return CUSCI_ERR_INVALID_ARGUMENT;
  }
}

/* ------------------------------------------------ virtual memory (VMM) */

/* The driver's VMM entry points, fetched through the runtime so that
 * libcusci-core never links libcuda itself. */
typedef CUresult (*pfn_reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
typedef CUresult (*pfn_addrfree)(CUdeviceptr, size_t);
typedef CUresult (*pfn_create)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long);
typedef CUresult (*pfn_release)(CUmemGenericAllocationHandle);
typedef CUresult (*pfn_map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
typedef CUresult (*pfn_unmap)(CUdeviceptr, size_t);
typedef CUresult (*pfn_access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
typedef CUresult (*pfn_gran)(size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags);

static struct {
  pfn_reserve reserve;
  pfn_addrfree addrfree;
  pfn_create create;
  pfn_release release;
  pfn_map map;
  pfn_unmap unmap;
  pfn_access access;
  pfn_gran gran;
} drv;

static bool vmm_load(void)
{
  if (drv.map)
    return true;
  struct { const char *name; void **fn; } syms[] = {
    {"cuMemAddressReserve", (void **)&drv.reserve}, {"cuMemAddressFree", (void **)&drv.addrfree},
    {"cuMemCreate", (void **)&drv.create}, {"cuMemRelease", (void **)&drv.release},
    {"cuMemMap", (void **)&drv.map}, {"cuMemUnmap", (void **)&drv.unmap},
    {"cuMemSetAccess", (void **)&drv.access}, {"cuMemGetAllocationGranularity", (void **)&drv.gran},
  };
  for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
    enum cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion(syms[i].name, syms[i].fn, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !*syms[i].fn) {
      cudaGetLastError();
      return false;
    }
  }
  return true;
}

static CUmemAllocationProp vmm_prop(int device)
{
  CUmemAllocationProp prop;
  memset(&prop, 0, sizeof prop);
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  return prop;
}

static void *vmm_reserve(void *user, size_t bytes)
{
  CUdeviceptr va = 0;
  CUresult r;
  ON_DEVICE(dev_of(user), r = drv.reserve(&va, bytes, 0, 0, 0));
  return r == CUDA_SUCCESS ? (void *)(uintptr_t)va : NULL;
}

static void vmm_unreserve(void *user, void *va, size_t bytes)
{
  ON_DEVICE(dev_of(user), drv.addrfree((CUdeviceptr)(uintptr_t)va, bytes));
}

static void *vmm_map(void *user, void *va, size_t bytes)
{
  int device = dev_of(user);
  CUmemAllocationProp prop = vmm_prop(device);
  CUmemGenericAllocationHandle *h = malloc(sizeof *h);
  if (!h)
    return NULL;
  CUresult r;
  ON_DEVICE(device, {
    r = drv.create(h, bytes, &prop, 0);
    if (r == CUDA_SUCCESS) {
      r = drv.map((CUdeviceptr)(uintptr_t)va, bytes, 0, *h, 0);
      if (r != CUDA_SUCCESS)
        drv.release(*h);
    }
    if (r == CUDA_SUCCESS) {
      CUmemAccessDesc acc;
      memset(&acc, 0, sizeof acc);
      acc.location = prop.location;
      acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      r = drv.access((CUdeviceptr)(uintptr_t)va, bytes, &acc, 1);
      if (r != CUDA_SUCCESS) {
        drv.unmap((CUdeviceptr)(uintptr_t)va, bytes);
        drv.release(*h);
      }
    }
  });
  if (r != CUDA_SUCCESS) {
    free(h);
    return NULL;
  }
  return h;
}

static void vmm_unmap(void *user, void *va, size_t bytes, void *handle)
{
  CUmemGenericAllocationHandle *h = handle;
  ON_DEVICE(dev_of(user), {
    drv.unmap((CUdeviceptr)(uintptr_t)va, bytes);
    drv.release(*h);
  });
  free(h);
}

cusci_status cusci_vmm_builtin(int device, cusci_vmm_ops *out)
{
  if (!out)
    return CUSCI_ERR_NULL_POINTER;
  char err[256];
  int n = 0;
  if (cusci__gpu_count(&n, err, sizeof err) != CUSCI_OK || device < 0 || device >= n)
    return CUSCI_ERR_NO_DEVICE;
  if (!vmm_load())
    return CUSCI_ERR_NOT_SUPPORTED;
  CUmemAllocationProp prop = vmm_prop(device);
  size_t g = 0;
  CUresult r;
  ON_DEVICE(device, r = drv.gran(&g, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  if (r != CUDA_SUCCESS || g == 0)
    return CUSCI_ERR_NOT_SUPPORTED;
  *out = (cusci_vmm_ops){g, vmm_reserve, vmm_unreserve, vmm_map, vmm_unmap, (void *)(intptr_t)device};
  return CUSCI_OK;
}

#else /* !CUSCI_HAVE_CUDA */


cusci_status cusci__gpu_count(int *count, char *err, size_t len)
{
  *count = 0;
  return CUSCI_OK;
}

cusci_status cusci__gpu_props(int device, char *name, size_t name_len, int *major, int *minor, char *err, size_t len)
{
  snprintf(err, len, "%s", NO_CUDA);
  return CUSCI_ERR_NO_DEVICE;
}

cusci_status cusci__gpu_memory(int device, size_t *free_bytes, size_t *total_bytes, char *err, size_t len)
{
  snprintf(err, len, "%s", NO_CUDA);
  return CUSCI_ERR_NO_DEVICE;
}

cusci_status cusci__gpu_ctx_init(int device, void **stream, char *err, size_t len)
{
  snprintf(err, len, "%s", NO_CUDA);
  return CUSCI_ERR_NO_DEVICE;
}

void cusci__gpu_ctx_fini(int device, void *stream) {}

/* No GPU context can exist in this build, so the calls below are never
 * reached; they answer as a missing device would. */
#define UNREACHABLE_GPU return cusci_ctx_fail(ctx, CUSCI_ERR_NO_DEVICE, fn, "%s", NO_CUDA)

cusci_status cusci__gpu_use(cusci_ctx *ctx, const char *fn) { UNREACHABLE_GPU; }
void cusci__gpu_stream_sync(void *stream) {}
bool cusci__gpu_is_pinned(const void *ptr) { return false; }
int cusci__gpu_pointer_device(const void *ptr) { return CUSCI_DEVICE_HOST; }
cusci_status cusci__gpu_gather(cusci_ctx *ctx, const char *fn, int device, cusci_pool *pool, const cusci_loop *loop,
                               cusci_dtype dtype, const void *src, size_t n, void **out) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_d2h_from(cusci_ctx *ctx, const char *fn, int device, void *dst, const void *src, size_t n) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_memcpy_peer(cusci_ctx *ctx, const char *fn, void *dst, const void *src, int src_device, size_t n) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_memcpy_h2d(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_memcpy_d2h(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_memcpy_d2d(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_memset(cusci_ctx *ctx, const char *fn, void *dst, int byte, size_t n) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_sync(cusci_ctx *ctx, const char *fn) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_fault_check(cusci_ctx *ctx, const char *fn) { return CUSCI_OK; }
cusci_status cusci_ctx_gpu_status(cusci_ctx *ctx, const char *fn, const char *what, int code)
{
  if (code == 0)
    return CUSCI_OK;
  return cusci_ctx_fail(ctx, CUSCI_ERR_NO_DEVICE, fn, "%s: %s", what ? what : "a kernel launch", NO_CUDA);
}
cusci_status cusci__gpu_event_create(cusci_ctx *ctx, const char *fn, void **ev) { UNREACHABLE_GPU; }
void cusci__gpu_event_destroy(int device, void *ev) {}
cusci_status cusci__gpu_event_record(cusci_ctx *ctx, const char *fn, void *ev) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_event_wait(cusci_ctx *ctx, const char *fn, void *ev) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_event_sync(cusci_ctx *ctx, const char *fn, void *ev) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_event_record_on(cusci_ctx *ctx, const char *fn, void *ev, void *stream) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_event_wait_on(cusci_ctx *ctx, const char *fn, void *ev, void *stream) { UNREACHABLE_GPU; }
cusci_status cusci__gpu_event_elapsed(cusci_ctx *ctx, const char *fn, void *start, void *end, float *ms) { UNREACHABLE_GPU; }


cusci_status cusci__gpu_stream_events(int device, cusci_stream_events *out) { return CUSCI_ERR_NO_DEVICE; }

static cusci_status cuda_allocator(cusci_allocator_kind kind, int device, cusci_allocator *out)
{
  return CUSCI_ERR_NO_DEVICE;
}

cusci_status cusci_vmm_builtin(int device, cusci_vmm_ops *out)
{
  return out ? CUSCI_ERR_NO_DEVICE : CUSCI_ERR_NULL_POINTER;
}

#endif

/* ------------------------------------------------ host memory allocator */

static void *host_malloc(void *user, size_t n, void *stream)
{
  /* Exactly n bytes (a pool without caching asks for what an array
   * needs, so that AddressSanitizer sees its end), aligned to 512. */
  void *p = NULL;
  return posix_memalign(&p, 512, n ? n : 1) == 0 ? p : NULL;
}

static void host_free(void *user, void *ptr, size_t n, void *stream)
{
  free(ptr);
}

cusci_status cusci_allocator_builtin(cusci_allocator_kind kind, int device, cusci_allocator *out)
{
  if (!out)
    return CUSCI_ERR_NULL_POINTER;
  if (kind == CUSCI_ALLOCATOR_HOST) {
    *out = (cusci_allocator){host_malloc, host_free, NULL};
    return CUSCI_OK;
  }
  if ((unsigned)kind > CUSCI_ALLOCATOR_PINNED)
    return CUSCI_ERR_INVALID_ARGUMENT;
  return cuda_allocator(kind, device, out);
}
