/*
 * kernels/linalg/qr.cu: qr on cuSOLVER. The row-major input is transposed
 * into column-major order (a row-major A is read by cuSOLVER as A^T), then
 * Xgeqrf factors it in place; R is read out of its upper triangle and Q is
 * formed by orgqr / ungqr from the reflectors, then transposed back. The
 * routines are called once per matrix of a batch, on the context's stream,
 * with one workspace from the pool; nothing waits for the device unless the
 * finite check must be read.
 */
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <limits.h>
#include <stdlib.h>

#include <cusci/core_ext.h>

#include "kernels/linalg/common.cuh"
#include "kernels/linalg/qr_launch.h"

namespace {

/* The context's cuSOLVER handle and params (shared with the rest of
 * liblinalg), on the context's stream. */
struct qr_state {
  cusolverDnHandle_t solver;
  cusolverDnParams_t params;
};

cusci_status get_state(cusci_ctx *ctx, const char *fn, qr_state *out)
{
  void *blas, *solver, *params;
  TRY(cusci__gpu_la_handles(ctx, fn, &blas, &solver, &params));
  out->solver = (cusolverDnHandle_t)solver;
  out->params = (cusolverDnParams_t)params;
  return CUSCI_OK;
}


/* dst (column-major rows x cols, ld rows) from src (row-major rows x cols),
 * or back when `back`; a batch of such matrices. Element types of 4, 8 and
 * 16 bytes are moved as float, double and double2. */
template <typename T>
__global__ void reorder_kernel(const T *__restrict__ src, T *__restrict__ dst, int64_t rows, int64_t cols, int64_t batch, bool back)
{
  int64_t total = batch * rows * cols, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += stride) {
    int64_t b = t / (rows * cols), e = t % (rows * cols);
    int64_t i = e / cols, j = e % cols; /* row-major index (i, j) */
    int64_t rm = b * rows * cols + i * cols + j, cm = b * rows * cols + j * rows + i;
    if (back)
      dst[rm] = src[cm];
    else
      dst[cm] = src[rm];
  }
}

/* r (row-major rrows x n) = the upper triangle of the column-major m x n
 * factored matrix fc (ld m), zeros below the diagonal. */
template <typename T>
__global__ void take_r_kernel(const T *__restrict__ fc, T *__restrict__ r, int64_t m, int64_t n, int64_t rrows, int64_t batch)
{
  int64_t total = batch * rrows * n, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += stride) {
    int64_t b = t / (rrows * n), e = t % (rrows * n), i = e / n, j = e % n;
    T v;
    if (j >= i)
      v = fc[b * m * n + j * m + i];
    else
      memset(&v, 0, sizeof v);
    r[t] = v;
  }
}

/* qc (column-major m x qcols) = the first min(n, qcols) columns of fc
 * (column-major m x n), the remaining columns zero (orgqr fills them). */
template <typename T>
__global__ void seed_q_kernel(const T *__restrict__ fc, T *__restrict__ qc, int64_t m, int64_t n, int64_t qcols, int64_t batch)
{
  int64_t total = batch * m * qcols, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += stride) {
    int64_t b = t / (m * qcols), e = t % (m * qcols), j = e / m, i = e % m;
    T v;
    if (j < n)
      v = fc[b * m * n + j * m + i];
    else
      memset(&v, 0, sizeof v);
    qc[t] = v;
  }
}

cusci_status reorder(cusci_ctx *ctx, const char *fn, size_t isz, const void *src, void *dst, int64_t rows, int64_t cols, int64_t batch, bool back)
{
  int64_t total = batch * rows * cols;
  if (total == 0)
    return CUSCI_OK;
  cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
  unsigned g = blocks_for(total, 256);
  if (isz == 4)
    reorder_kernel<float><<<g, 256, 0, s>>>((const float *)src, (float *)dst, rows, cols, batch, back);
  else if (isz == 8)
    reorder_kernel<double><<<g, 256, 0, s>>>((const double *)src, (double *)dst, rows, cols, batch, back);
  else
    reorder_kernel<double2><<<g, 256, 0, s>>>((const double2 *)src, (double2 *)dst, rows, cols, batch, back);
  CUDA_TRY(cudaGetLastError());
  return CUSCI_OK;
}

cusci_status take_r(cusci_ctx *ctx, const char *fn, size_t isz, const void *fc, void *r, int64_t m, int64_t n, int64_t rrows, int64_t batch)
{
  int64_t total = batch * rrows * n;
  if (total == 0)
    return CUSCI_OK;
  cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
  unsigned g = blocks_for(total, 256);
  if (isz == 4)
    take_r_kernel<float><<<g, 256, 0, s>>>((const float *)fc, (float *)r, m, n, rrows, batch);
  else if (isz == 8)
    take_r_kernel<double><<<g, 256, 0, s>>>((const double *)fc, (double *)r, m, n, rrows, batch);
  else
    take_r_kernel<double2><<<g, 256, 0, s>>>((const double2 *)fc, (double2 *)r, m, n, rrows, batch);
  CUDA_TRY(cudaGetLastError());
  return CUSCI_OK;
}

cusci_status seed_q(cusci_ctx *ctx, const char *fn, size_t isz, const void *fc, void *qc, int64_t m, int64_t n, int64_t qcols, int64_t batch)
{
  int64_t total = batch * m * qcols;
  if (total == 0)
    return CUSCI_OK;
  cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
  unsigned g = blocks_for(total, 256);
  if (isz == 4)
    seed_q_kernel<float><<<g, 256, 0, s>>>((const float *)fc, (float *)qc, m, n, qcols, batch);
  else if (isz == 8)
    seed_q_kernel<double><<<g, 256, 0, s>>>((const double *)fc, (double *)qc, m, n, qcols, batch);
  else
    seed_q_kernel<double2><<<g, 256, 0, s>>>((const double2 *)fc, (double2 *)qc, m, n, qcols, batch);
  CUDA_TRY(cudaGetLastError());
  return CUSCI_OK;
}

} // namespace

/*
 * qr. fc is A in column-major order (m x n, ld m); Xgeqrf leaves R in its
 * upper triangle and the reflectors below, with tau (K per matrix). For Q,
 * the reflectors are copied into qc (m x qcols), which orgqr overwrites with
 * the first qcols columns of Q.
 */
extern "C" cusci_status cusci__gpu_la_qr(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t m, int64_t n,
                                         int64_t rrows, int64_t qcols, void *a, void *q, void *r, bool *nonfinite)
{
  *nonfinite = false;
  qr_state state, *st = &state;
  TRY(get_state(ctx, fn, &state));
  if (qcols > 0 && (m > INT_MAX || qcols > INT_MAX))
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a %lldx%lld Q exceeds cuSOLVER's 32-bit orgqr", (long long)m, (long long)qcols);
  cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
  scratch_set sc;
  size_t isz = cusci_kit_itemsize(dt);
  int64_t K = m < n ? m : n;
  cudaDataType t = cuda_type(dt);
  int *dinfo;
  TRY(sc.get(ctx, fn, sizeof(int) * (size_t)(batch + 1), (void **)&dinfo));
  CUDA_TRY(cudaMemsetAsync(dinfo, 0, sizeof(int) * (size_t)(batch + 1), s));
  if (check_finite && batch * m * n > 0) {
    int64_t parts = batch * m * n * (int64_t)(isz / (cusci_dtype_is_single(dt) ? 4 : 8));
    if (cusci_dtype_is_single(dt))
      nonfinite_kernel<float><<<blocks_for(parts, 256), 256, 0, s>>>((const float *)a, parts, dinfo + batch);
    else
      nonfinite_kernel<double><<<blocks_for(parts, 256), 256, 0, s>>>((const double *)a, parts, dinfo + batch);
    CUDA_TRY(cudaGetLastError());
  }
  void *fc, *tau;
  TRY(sc.get(ctx, fn, (size_t)(batch * m * n) * isz, &fc));
  TRY(sc.get(ctx, fn, (size_t)(batch * (K ? K : 1)) * isz, &tau));
  TRY(reorder(ctx, fn, isz, a, fc, m, n, batch, false));
  if (m > 0 && n > 0) {
    size_t dbytes = 0, hbytes = 0;
    SOLVER_TRY(cusolverDnXgeqrf_bufferSize(st->solver, st->params, m, n, t, fc, m, t, tau, t, &dbytes, &hbytes));
    void *dw, *hw;
    TRY(sc.get_zeroed(ctx, fn, dbytes, &dw));
    TRY(sc.get_host(ctx, fn, hbytes, &hw));
    for (int64_t i = 0; i < batch; i++)
      SOLVER_TRY(cusolverDnXgeqrf(st->solver, st->params, m, n, t, (char *)fc + (size_t)(i * m * n) * isz, m, t,
                                  (char *)tau + (size_t)(i * K) * isz, t, dw, dbytes, hw, hbytes, dinfo + i));
  }
  TRY(take_r(ctx, fn, isz, fc, r, m, n, rrows, batch));
  if (qcols > 0) {
    void *qc;
    TRY(sc.get(ctx, fn, (size_t)(batch * m * qcols) * isz, &qc));
    TRY(seed_q(ctx, fn, isz, fc, qc, m, n, qcols, batch));
    if (m > 0) {
      int lwork = 0;
      SOLVER_TRY(orgqr_size(st->solver, dt, (int)m, (int)qcols, (int)K, qc, (int)m, tau, &lwork));
      void *work;
      TRY(sc.get(ctx, fn, (size_t)(lwork > 0 ? lwork : 1) * isz, &work));
      for (int64_t i = 0; i < batch; i++)
        SOLVER_TRY(orgqr(st->solver, dt, (int)m, (int)qcols, (int)K, (char *)qc + (size_t)(i * m * qcols) * isz, (int)m,
                         (char *)tau + (size_t)(i * K) * isz, work, lwork, dinfo + i));
    }
    TRY(reorder(ctx, fn, isz, qc, q, m, qcols, batch, true));
  }
  if (!check_finite && sc.nhost == 0)
    return CUSCI_OK;
  /* The finite flag is read, or the host workspace must outlive the calls. */
  int flag = 0;
  CUDA_TRY(cudaMemcpyAsync(&flag, dinfo + batch, sizeof flag, cudaMemcpyDeviceToHost, s));
  CUDA_TRY(cudaStreamSynchronize(s));
  *nonfinite = flag != 0;
  return CUSCI_OK;
}
