/*
 * kernels/linalg/common.cuh: what liblinalg's CUDA files share: the
 * backend contract's codes, macros and scratch (see launch.h), the dtype
 * helpers, element arithmetic on the four types, the first-failure record
 * and the posted outcome, the inf/NaN check, and the helpers of util.cu
 * (transposes, triangles, the batched getrf and potrf).
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

namespace {

/* ---- codes */

/* Name the failing call and return its code. */
inline int fail_(cusci__la_gpu *g, const char *what, int code)
{
  g->what = what;
  return code;
}

inline cudaStream_t stream_of(const cusci__la_gpu *g) { return (cudaStream_t)g->stream; }
inline cublasHandle_t blas_of(const cusci__la_gpu *g) { return (cublasHandle_t)g->blas; }
inline cusolverDnHandle_t solver_of(const cusci__la_gpu *g) { return (cusolverDnHandle_t)g->solver; }
inline cusolverDnParams_t params_of(const cusci__la_gpu *g) { return (cusolverDnParams_t)g->params; }

} // namespace

/* Return a failing code, from a function with a cusci__la_gpu *g. The
 * _TRY forms and LAUNCH queue work, and do nothing in a size query
 * (g->plan); SOLVER_QUERY, a workspace query, runs in both. */
#define RUN(expr)    \
  do {               \
    int c_ = (expr); \
    if (c_)          \
      return c_;     \
  } while (0)
#define CUDA_TRY(call)                   \
  do {                                   \
    if (!g->plan) {                      \
      cudaError_t e_ = (call);           \
      if (e_ != cudaSuccess)             \
        return fail_(g, #call, (int)e_); \
    }                                    \
  } while (0)
#define BLAS_TRY(call)                                                     \
  do {                                                                     \
    if (!g->plan) {                                                        \
      cublasStatus_t e_ = (call);                                          \
      if (e_ != CUBLAS_STATUS_SUCCESS)                                     \
        return fail_(g, #call, CUSCI_GPU_CODE(CUSCI_GPU_CUBLAS, (int)e_)); \
    }                                                                      \
  } while (0)
#define SOLVER_TRY(call)                                                     \
  do {                                                                       \
    if (!g->plan) {                                                          \
      cusolverStatus_t e_ = (call);                                          \
      if (e_ != CUSOLVER_STATUS_SUCCESS)                                     \
        return fail_(g, #call, CUSCI_GPU_CODE(CUSCI_GPU_CUSOLVER, (int)e_)); \
    }                                                                        \
  } while (0)
#define SOLVER_QUERY(call)                                                 \
  do {                                                                     \
    cusolverStatus_t e_ = (call);                                          \
    if (e_ != CUSOLVER_STATUS_SUCCESS)                                     \
      return fail_(g, #call, CUSCI_GPU_CODE(CUSCI_GPU_CUSOLVER, (int)e_)); \
  } while (0)
/* A kernel launch: LAUNCH(kernel<<<grid, block, smem, stream_of(g)>>>(...)). */
#define LAUNCH(...)                        \
  do {                                     \
    if (!g->plan) {                        \
      __VA_ARGS__;                         \
      cudaError_t e_ = cudaGetLastError(); \
      if (e_ != cudaSuccess)               \
        return fail_(g, NULL, (int)e_);    \
    }                                      \
  } while (0)

namespace {

/* ---- scratch */

/* The next 256-byte aligned piece of `bytes` of the device (host: of the
 * host) scratch; in a size query only counted, *p then a stand-in that
 * nothing reads. */
inline int take_from(cusci__la_gpu *g, bool host, size_t bytes, void **p)
{
  size_t *used = host ? &g->host_used : &g->dev_used;
  size_t at = (*used + 255) / 256 * 256;
  if (!g->plan && at + bytes > (host ? g->host_bytes : g->dev_bytes))
    return fail_(g, "taking more scratch than the size query counted", (int)cudaErrorInvalidValue);
  *p = g->plan ? (void *)(uintptr_t)(at + 256) : (host ? g->host : g->dev) + at;
  *used = at + bytes;
  return 0;
}
inline int take(cusci__la_gpu *g, size_t bytes, void **p) { return take_from(g, false, bytes, p); }
/* A vendor library's workspace, zeroed: cuSOLVER copies parts of its
 * workspace that it never wrote back to the host (gesvd does), which
 * would be reads of uninitialised memory. */
inline int take_zeroed(cusci__la_gpu *g, size_t bytes, void **p)
{
  RUN(take(g, bytes, p));
  if (bytes)
    CUDA_TRY(cudaMemsetAsync(*p, 0, bytes, stream_of(g)));
  return 0;
}
/* Host workspace (cuSOLVER's 64-bit API asks for some); NULL for none. */
inline int take_host(cusci__la_gpu *g, size_t bytes, void **p)
{
  if (!bytes) {
    *p = NULL;
    return 0;
  }
  return take_from(g, true, bytes, p);
}

} // namespace

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
    cusci__la_mailbox *mb = (cusci__la_mailbox *)post.mailbox;
    if (atomicAdd(&mb->done, 1u) == gridDim.x - 1) {
      __threadfence();
      cusci__la_reply *r = (cusci__la_reply *)post.reply;
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

/* Queue the inf/NaN check of n elements of dt into g->flag. */
inline int flag_nonfinite(cusci__la_gpu *g, int dt, int64_t n, const void *x)
{
  int64_t parts = cusci_dtype_is_complex(dt) ? 2 * n : n;
  if (parts == 0)
    return 0;
  if (cusci_dtype_is_single(dt))
    LAUNCH(nonfinite_kernel<float><<<blocks_for(parts, 256), 256, 0, stream_of(g)>>>((const float *)x, parts, g->flag));
  else
    LAUNCH(nonfinite_kernel<double><<<blocks_for(parts, 256), 256, 0, stream_of(g)>>>((const double *)x, parts, g->flag));
  return 0;
}

} // namespace

/* ---- util.cu: what several launchers do */
namespace cusci_la {

/* The triangles of n x n row-major matrices (triangle): ZERO_UPPER /
 * ZERO_LOWER clear the part strictly above / below the diagonal;
 * MIRROR_LOWER / MIRROR_UPPER copy the lower / upper triangle onto the
 * other (conjugated when conj, the diagonal made real: a Hermitian matrix
 * from the triangle LAPACK would read); MOVE_UPPER transposes the upper
 * triangle into the lower one and clears it (conjugating when conj, the
 * diagonal too). */
enum { ZERO_UPPER, ZERO_LOWER, MIRROR_LOWER, MIRROR_UPPER, MOVE_UPPER };

/* dst = op(src)^T for a batch of rows x cols row-major matrices, op the
 * conjugate when conj (complex dt). */
int transpose(cusci__la_gpu *g, int dt, const void *src, void *dst, int64_t rows, int64_t cols, int64_t batch, bool conj);
int triangle(cusci__la_gpu *g, int dt, void *a, int64_t n, int64_t batch, int mode, bool conj);
/* In-place conjugate of n elements (nothing for a real dt). */
int conj_inplace(cusci__la_gpu *g, int dt, void *a, int64_t n);
/* batch identities of n x n. */
int eye(cusci__la_gpu *g, int dt, void *a, int64_t n, int64_t batch);
/* cuSOLVER's Xgetrf / Xpotrf for each matrix of a batch (ipiv n per
 * matrix, 1-based; info one per matrix). */
int getrf_batch(cusci__la_gpu *g, int dt, int64_t batch, int64_t n, void *a, int64_t *ipiv, int *info);
int potrf_batch(cusci__la_gpu *g, int dt, int64_t batch, int64_t n, cublasFillMode_t uplo, void *a, int *info);
/* solve, inv, det and slogdet of matrices of n <= CUSCI__LA_SMALL_MAX
 * (small.cu): the one-matrix-per-thread register kernel up to n = 8, the
 * warp kernels above. Gaussian elimination with partial pivoting
 * (getrf's order) of the batch of n x n matrices a (read as a^T when
 * trans): SOLVE reads b (n, k) from bin and writes x to b (bin may be b;
 * a failed matrix's x is its b), INV writes inv(a) to out, DET writes
 * det(a) to out, SLOGDET writes the sign to out and log|det| (the real
 * type) to b. info[i] (when not NULL) = the first exactly zero pivot of
 * matrix i, 1-based, or 0; *first (when not NULL) keeps the first failing
 * matrix as note_failure does. *flag (when not NULL) is set to 1 if a, or
 * b for SOLVE, holds an inf or NaN, checked as they load. The last block
 * to finish posts *first and *flag as post says. */
int small_run(cusci__la_gpu *g, int dt, int mode, bool trans, int64_t batch, int64_t n, int64_t k, const void *a, const void *bin, void *b,
              void *out, int *info, unsigned long long *first, int *flag, cusci__la_post post);
/* The banded LU or Cholesky of solvers.cu, one matrix per thread, of the
 * matrices in a: mode 0 dense (n, n), 1 dense read transposed, 2 band
 * storage (l + u + 1, n); b (n, k) becomes x; info[t] the first failing
 * index (1-based). */
int band_queue(cusci__la_gpu *g, int dt, int kind, int mode, int64_t batch, int64_t n, int64_t k, int64_t l, int64_t u, bool lower,
               const void *a, void *b, int *info);

} // namespace cusci_la

#endif /* CUSCI_KERNELS_LINALG_COMMON_CUH */
