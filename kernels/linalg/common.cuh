/*
 * kernels/linalg/common.cuh: what liblinalg's CUDA files share: turning a
 * CUDA, cuBLAS or cuSOLVER failure into a status recorded on the context,
 * the macros that return it, the context's cached handles, a call's
 * scratch, the dtype helpers, element arithmetic on the four types, and
 * the inf/NaN check.
 */
#ifndef CUSCI_KERNELS_LINALG_COMMON_CUH
#define CUSCI_KERNELS_LINALG_COMMON_CUH

#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/core_ext.h>
#include <cusci/kit/dispatch.cuh>

#include "kernels/linalg/launch.h"

/* Defined in kernels/linalg/linalg.cu: the context's cuBLAS and cuSOLVER
 * handles and cuSOLVER's params, made on first use and bound to the
 * context's stream (one set per context for all of liblinalg). */
extern "C" cusci_status cusci__gpu_la_handles(cusci_ctx *ctx, const char *fn, void **blas, void **solver, void **params);

namespace {

/* A CUDA, cuBLAS or cuSOLVER failure as a status and a message, through
 * the core's one helper (which also notes a device fault). */
inline cusci_status cuda_fail(cusci_ctx *ctx, const char *fn, const char *what, cudaError_t e)
{
  return cusci_ctx_gpu_status(ctx, fn, what, (int)e);
}

inline cusci_status blas_fail(cusci_ctx *ctx, const char *fn, const char *what, cublasStatus_t e)
{
  return cusci_ctx_gpu_status(ctx, fn, what, CUSCI_GPU_CODE(CUSCI_GPU_CUBLAS, (int)e));
}

inline cusci_status solver_fail(cusci_ctx *ctx, const char *fn, const char *what, cusolverStatus_t e)
{
  return cusci_ctx_gpu_status(ctx, fn, what, CUSCI_GPU_CODE(CUSCI_GPU_CUSOLVER, (int)e));
}

/* Device scratch from the pool, as a uint8 array; released by the caller. */
inline cusci_status scratch(cusci_ctx *ctx, size_t bytes, cusci_array **arr, void **ptr)
{
  int64_t n = (int64_t)(bytes ? bytes : 1);
  CUSCI_TRY(cusci_array_empty(ctx, 1, &n, CUSCI_UINT8, arr));
  *ptr = cusci_array_data(*arr);
  return CUSCI_OK;
}

/* A call's scratch, freed when the set goes: device buffers from the pool
 * (uint8 arrays, ordered on the context's stream) and host workspaces
 * (malloc). */
struct scratch_set {
  cusci_array *dev[8] = {};
  int ndev = 0;
  void *host[2] = {};
  int nhost = 0;
  scratch_set() = default;
  scratch_set(const scratch_set &) = delete;
  scratch_set &operator=(const scratch_set &) = delete;
  ~scratch_set()
  {
    for (int i = 0; i < ndev; i++)
      cusci_array_release(dev[i]);
    for (int i = 0; i < nhost; i++)
      free(host[i]);
  }
  cusci_status get(cusci_ctx *ctx, const char *fn, size_t bytes, void **p)
  {
    if (ndev == (int)(sizeof dev / sizeof *dev))
      return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "more scratch buffers than a call may hold");
    CUSCI_TRY(scratch(ctx, bytes, &dev[ndev], p));
    ndev++;
    return CUSCI_OK;
  }
  /* A vendor library's workspace, zeroed: cuSOLVER copies parts of its
   * workspace that it never wrote back to the host (gesvd does), which
   * would be reads of uninitialised memory. */
  cusci_status get_zeroed(cusci_ctx *ctx, const char *fn, size_t bytes, void **p)
  {
    CUSCI_TRY(get(ctx, fn, bytes, p));
    cudaError_t e = bytes ? cudaMemsetAsync(*p, 0, bytes, (cudaStream_t)cusci_ctx_stream(ctx)) : cudaSuccess;
    return e == cudaSuccess ? CUSCI_OK : cuda_fail(ctx, fn, "cudaMemsetAsync", e);
  }
  cusci_status get_host(cusci_ctx *ctx, const char *fn, size_t bytes, void **p)
  {
    *p = NULL;
    if (!bytes)
      return CUSCI_OK;
    if (nhost == (int)(sizeof host / sizeof *host))
      return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "more host workspaces than a call may hold");
    *p = malloc(bytes);
    if (!*p)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %zu bytes of solver workspace", bytes);
    host[nhost++] = *p;
    return CUSCI_OK;
  }
};

} // namespace

#define TRY(expr) CUSCI_TRY(expr)
#define CUDA_TRY(call)                      \
  do {                                      \
    cudaError_t e_ = (call);                \
    if (e_ != cudaSuccess)                  \
      return cuda_fail(ctx, fn, #call, e_); \
  } while (0)
#define BLAS_TRY(call)                      \
  do {                                      \
    cublasStatus_t e_ = (call);             \
    if (e_ != CUBLAS_STATUS_SUCCESS)        \
      return blas_fail(ctx, fn, #call, e_); \
  } while (0)
#define SOLVER_TRY(call)                      \
  do {                                        \
    cusolverStatus_t e_ = (call);             \
    if (e_ != CUSOLVER_STATUS_SUCCESS)        \
      return solver_fail(ctx, fn, #call, e_); \
  } while (0)
#define LAUNCH_TRY() CUDA_TRY(cudaGetLastError())

namespace {

/* ---- dtypes (the four linalg computes in) */

inline cudaDataType cuda_type(int dt)
{
  return dt == CUSCI_FLOAT32 ? CUDA_R_32F : dt == CUSCI_FLOAT64 ? CUDA_R_64F : dt == CUSCI_COMPLEX64 ? CUDA_C_32F : CUDA_C_64F;
}
inline cudaDataType real_type(int dt) { return cusci_dtype_is_single(dt) ? CUDA_R_32F : CUDA_R_64F; }

/* orgqr / ungqr in the four types, 32-bit extents. */
inline cusolverStatus_t orgqr_size(cusolverDnHandle_t h, int dt, int m, int n, int k, void *a, int lda, void *tau, int *lwork)
{
  switch (dt) {
  case CUSCI_FLOAT32:
    return cusolverDnSorgqr_bufferSize(h, m, n, k, (float *)a, lda, (float *)tau, lwork);
  case CUSCI_FLOAT64:
    return cusolverDnDorgqr_bufferSize(h, m, n, k, (double *)a, lda, (double *)tau, lwork);
  case CUSCI_COMPLEX64:
    return cusolverDnCungqr_bufferSize(h, m, n, k, (cuComplex *)a, lda, (cuComplex *)tau, lwork);
  default:
    return cusolverDnZungqr_bufferSize(h, m, n, k, (cuDoubleComplex *)a, lda, (cuDoubleComplex *)tau, lwork);
  }
}

inline cusolverStatus_t orgqr(cusolverDnHandle_t h, int dt, int m, int n, int k, void *a, int lda, void *tau, void *work, int lwork, int *info)
{
  switch (dt) {
  case CUSCI_FLOAT32:
    return cusolverDnSorgqr(h, m, n, k, (float *)a, lda, (float *)tau, (float *)work, lwork, info);
  case CUSCI_FLOAT64:
    return cusolverDnDorgqr(h, m, n, k, (double *)a, lda, (double *)tau, (double *)work, lwork, info);
  case CUSCI_COMPLEX64:
    return cusolverDnCungqr(h, m, n, k, (cuComplex *)a, lda, (cuComplex *)tau, (cuComplex *)work, lwork, info);
  default:
    return cusolverDnZungqr(h, m, n, k, (cuDoubleComplex *)a, lda, (cuDoubleComplex *)tau, (cuDoubleComplex *)work, lwork, info);
  }
}

/* Blocks of `threads` for n items, for grid-stride kernels. */
inline unsigned blocks_for(int64_t n, int threads)
{
  int64_t b = (n + threads - 1) / threads;
  return (unsigned)(b < 1 ? 1 : b > 65535 * 8 ? 65535 * 8 : b);
}

/* ---- element arithmetic on float, double, float2 and double2 */

/* The real type of an element type. */
template <typename T> struct real_t { typedef T type; };
template <> struct real_t<float2> { typedef float type; };
template <> struct real_t<double2> { typedef double type; };

__device__ inline float add_(float a, float b) { return a + b; }
__device__ inline double add_(double a, double b) { return a + b; }
__device__ inline float2 add_(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ inline double2 add_(double2 a, double2 b) { return make_double2(a.x + b.x, a.y + b.y); }
__device__ inline float sub_(float a, float b) { return a - b; }
__device__ inline double sub_(double a, double b) { return a - b; }
__device__ inline float2 sub_(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ inline double2 sub_(double2 a, double2 b) { return make_double2(a.x - b.x, a.y - b.y); }
__device__ inline float mul_(float a, float b) { return a * b; }
__device__ inline double mul_(double a, double b) { return a * b; }
__device__ inline float2 mul_(float2 a, float2 b) { return cuCmulf(a, b); }
__device__ inline double2 mul_(double2 a, double2 b) { return cuCmul(a, b); }
__device__ inline float div_(float a, float b) { return a / b; }
__device__ inline double div_(double a, double b) { return a / b; }
__device__ inline float2 div_(float2 a, float2 b) { return cuCdivf(a, b); }
__device__ inline double2 div_(double2 a, double2 b) { return cuCdiv(a, b); }
__device__ inline float neg_(float a) { return -a; }
__device__ inline double neg_(double a) { return -a; }
__device__ inline float2 neg_(float2 a) { return make_float2(-a.x, -a.y); }
__device__ inline double2 neg_(double2 a) { return make_double2(-a.x, -a.y); }
__device__ inline float conj_(float a) { return a; }
__device__ inline double conj_(double a) { return a; }
__device__ inline float2 conj_(float2 a) { return make_float2(a.x, -a.y); }
__device__ inline double2 conj_(double2 a) { return make_double2(a.x, -a.y); }
/* The real part, as a real (re_) or as the element type (real_part). */
__device__ inline float re_(float a) { return a; }
__device__ inline double re_(double a) { return a; }
__device__ inline float re_(float2 a) { return a.x; }
__device__ inline double re_(double2 a) { return a.x; }
__device__ inline float real_part(float a) { return a; }
__device__ inline double real_part(double a) { return a; }
__device__ inline float2 real_part(float2 a) { return make_float2(a.x, 0.f); }
__device__ inline double2 real_part(double2 a) { return make_double2(a.x, 0.); }
/* LAPACK's pivot size: |x| for reals, |re| + |im| for complex (cabs1). */
__device__ inline float abs1_(float a) { return fabsf(a); }
__device__ inline double abs1_(double a) { return fabs(a); }
__device__ inline float abs1_(float2 a) { return fabsf(a.x) + fabsf(a.y); }
__device__ inline double abs1_(double2 a) { return fabs(a.x) + fabs(a.y); }
/* |x|, and x times a real. */
__device__ inline float abs_(float a) { return fabsf(a); }
__device__ inline double abs_(double a) { return fabs(a); }
__device__ inline float abs_(float2 a) { return hypotf(a.x, a.y); }
__device__ inline double abs_(double2 a) { return hypot(a.x, a.y); }
__device__ inline float scale_(float a, float s) { return a * s; }
__device__ inline double scale_(double a, double s) { return a * s; }
__device__ inline float2 scale_(float2 a, float s) { return make_float2(a.x * s, a.y * s); }
__device__ inline double2 scale_(double2 a, double s) { return make_double2(a.x * s, a.y * s); }
__device__ inline bool finite_(float a) { return isfinite(a); }
__device__ inline bool finite_(double a) { return isfinite(a); }
__device__ inline bool finite_(float2 a) { return isfinite(a.x) && isfinite(a.y); }
__device__ inline bool finite_(double2 a) { return isfinite(a.x) && isfinite(a.y); }
template <typename T> __device__ inline T one_();
template <> __device__ inline float one_<float>() { return 1.f; }
template <> __device__ inline double one_<double>() { return 1.; }
template <> __device__ inline float2 one_<float2>() { return make_float2(1.f, 0.f); }
template <> __device__ inline double2 one_<double2>() { return make_double2(1., 0.); }
template <typename T> __device__ inline T zero_() { T z; memset(&z, 0, sizeof z); return z; }
/* v as the element type. */
template <typename T> __device__ inline T real_(double v);
template <> __device__ inline float real_<float>(double v) { return (float)v; }
template <> __device__ inline double real_<double>(double v) { return v; }
template <> __device__ inline float2 real_<float2>(double v) { return make_float2((float)v, 0.f); }
template <> __device__ inline double2 real_<double2>(double v) { return make_double2(v, 0.); }

/* ---- the first failing matrix */

/* Record that matrix t failed with info (nonzero) in *first, which keeps
 * the failure of the smallest t: the complement of (t << 32 | info), so
 * that a zeroed word means none and atomicMax keeps the smallest key
 * (t < 2^32). */
__device__ inline void note_failure(unsigned long long *first, int64_t t, int info)
{
  if (first && info)
    atomicMax(first, ~(((unsigned long long)t << 32) | (uint32_t)info));
}

/* Matrix t's status: its info word (info not NULL) and, when it failed,
 * the summary word (note_failure). */
__device__ inline void report(int *info, unsigned long long *first, int64_t t, int first_zero)
{
  if (info)
    info[t] = first_zero;
  note_failure(first, t, first_zero);
}

/* ---- a call's outcome, posted without a copy */

/* The device words of a call that posts its outcome (cusci__la_post): the
 * first failure (note_failure), the inf/NaN flag and the count of blocks
 * done. Zero between calls: the last block resets them. */
struct la_mailbox {
  unsigned long long first;
  int flag;
  unsigned done;
};

/* Their copy in mapped host memory; epoch is written last. */
struct la_reply {
  unsigned long long first;
  int flag;
  unsigned epoch;
};

/* Every thread of every block of a one-dimensional grid, at the end: the
 * last block to finish copies the mailbox to the reply, resets it, and
 * then stamps the reply with the call's epoch, so that the host, which
 * polls the epoch, reads the words complete. */
__device__ inline void post_outcome(const cusci__la_post &post)
{
  if (!post.mailbox)
    return;
  __threadfence(); /* this thread's failures and flag before the count */
  __syncthreads();
  if (threadIdx.x == 0) {
    la_mailbox *mb = (la_mailbox *)post.mailbox;
    if (atomicAdd(&mb->done, 1u) == gridDim.x - 1) {
      __threadfence();
      la_reply *r = (la_reply *)post.reply;
      r->first = atomicExch(&mb->first, 0ull);
      r->flag = atomicExch(&mb->flag, 0);
      atomicExch(&mb->done, 0u);
      __threadfence_system();
      *(volatile unsigned *)&r->epoch = post.epoch;
    }
  }
}

/* ---- SciPy's check_finite */

/* flag = 1 when any of the n real numbers is inf or NaN. */
template <typename R>
__global__ void nonfinite_kernel(const R *__restrict__ x, int64_t n, int *flag)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    if (!isfinite(x[i]))
      *flag = 1;
}

/* Queue the inf/NaN check of n elements of dt into *flag. */
inline cusci_status check_finite_async(cusci_ctx *ctx, const char *fn, int dt, int64_t n, const void *x, int *flag)
{
  int64_t parts = cusci_dtype_is_complex(dt) ? 2 * n : n;
  if (parts == 0)
    return CUSCI_OK;
  cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
  if (cusci_dtype_is_single(dt))
    nonfinite_kernel<float><<<blocks_for(parts, 256), 256, 0, s>>>((const float *)x, parts, flag);
  else
    nonfinite_kernel<double><<<blocks_for(parts, 256), 256, 0, s>>>((const double *)x, parts, flag);
  LAUNCH_TRY();
  return CUSCI_OK;
}

} // namespace

#endif /* CUSCI_KERNELS_LINALG_COMMON_CUH */
