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

namespace {

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

int reorder(cusci__la_gpu *g, size_t isz, const void *src, void *dst, int64_t rows, int64_t cols, int64_t batch, bool back)
{
  int64_t total = batch * rows * cols;
  if (total == 0)
    return 0;
  cudaStream_t s = stream_of(g);
  unsigned gb = blocks_for(total, 256);
  if (isz == 4)
    LAUNCH(reorder_kernel<float><<<gb, 256, 0, s>>>((const float *)src, (float *)dst, rows, cols, batch, back));
  else if (isz == 8)
    LAUNCH(reorder_kernel<double><<<gb, 256, 0, s>>>((const double *)src, (double *)dst, rows, cols, batch, back));
  else
    LAUNCH(reorder_kernel<double2><<<gb, 256, 0, s>>>((const double2 *)src, (double2 *)dst, rows, cols, batch, back));
  return 0;
}

int take_r(cusci__la_gpu *g, size_t isz, const void *fc, void *r, int64_t m, int64_t n, int64_t rrows, int64_t batch)
{
  int64_t total = batch * rrows * n;
  if (total == 0)
    return 0;
  cudaStream_t s = stream_of(g);
  unsigned gb = blocks_for(total, 256);
  if (isz == 4)
    LAUNCH(take_r_kernel<float><<<gb, 256, 0, s>>>((const float *)fc, (float *)r, m, n, rrows, batch));
  else if (isz == 8)
    LAUNCH(take_r_kernel<double><<<gb, 256, 0, s>>>((const double *)fc, (double *)r, m, n, rrows, batch));
  else
    LAUNCH(take_r_kernel<double2><<<gb, 256, 0, s>>>((const double2 *)fc, (double2 *)r, m, n, rrows, batch));
  return 0;
}

int seed_q(cusci__la_gpu *g, size_t isz, const void *fc, void *qc, int64_t m, int64_t n, int64_t qcols, int64_t batch)
{
  int64_t total = batch * m * qcols;
  if (total == 0)
    return 0;
  cudaStream_t s = stream_of(g);
  unsigned gb = blocks_for(total, 256);
  if (isz == 4)
    LAUNCH(seed_q_kernel<float><<<gb, 256, 0, s>>>((const float *)fc, (float *)qc, m, n, qcols, batch));
  else if (isz == 8)
    LAUNCH(seed_q_kernel<double><<<gb, 256, 0, s>>>((const double *)fc, (double *)qc, m, n, qcols, batch));
  else
    LAUNCH(seed_q_kernel<double2><<<gb, 256, 0, s>>>((const double2 *)fc, (double2 *)qc, m, n, qcols, batch));
  return 0;
}

} // namespace

/*
 * qr. fc is A in column-major order (m x n, ld m); Xgeqrf leaves R in its
 * upper triangle and the reflectors below, with tau (K per matrix). For Q,
 * the reflectors are copied into qc (m x qcols), which orgqr overwrites with
 * the first qcols columns of Q.
 */
extern "C" int cusci__launch_la_qr(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t m, int64_t n, int64_t rrows,
                                   int64_t qcols, void *a, void *q, void *r)
{
  size_t isz = cusci_kit_itemsize(dt);
  int64_t K = m < n ? m : n;
  cudaDataType t = cuda_type(dt);
  int *dinfo; /* geqrf's and orgqr's info, which report only argument errors */
  RUN(take(g, sizeof(int) * (size_t)(batch > 0 ? batch : 1), (void **)&dinfo));
  if (check_finite)
    RUN(flag_nonfinite(g, dt, batch * m * n, a));
  void *fc, *tau;
  RUN(take(g, (size_t)(batch * m * n) * isz, &fc));
  RUN(take(g, (size_t)(batch * (K ? K : 1)) * isz, &tau));
  RUN(reorder(g, isz, a, fc, m, n, batch, false));
  if (m > 0 && n > 0) {
    size_t dbytes = 0, hbytes = 0;
    SOLVER_QUERY(cusolverDnXgeqrf_bufferSize(solver_of(g), params_of(g), m, n, t, fc, m, t, tau, t, &dbytes, &hbytes));
    void *dw, *hw;
    RUN(take_zeroed(g, dbytes, &dw));
    RUN(take_host(g, hbytes, &hw));
    for (int64_t i = 0; i < batch; i++)
      SOLVER_TRY(cusolverDnXgeqrf(solver_of(g), params_of(g), m, n, t, (char *)fc + (size_t)(i * m * n) * isz, m, t,
                                  (char *)tau + (size_t)(i * K) * isz, t, dw, dbytes, hw, hbytes, dinfo + i));
  }
  RUN(take_r(g, isz, fc, r, m, n, rrows, batch));
  if (qcols > 0) {
    void *qc;
    RUN(take(g, (size_t)(batch * m * qcols) * isz, &qc));
    RUN(seed_q(g, isz, fc, qc, m, n, qcols, batch));
    if (m > 0) {
      int lwork = 0;
      SOLVER_QUERY(orgqr_size(solver_of(g), dt, (int)m, (int)qcols, (int)K, qc, (int)m, tau, &lwork));
      void *work;
      RUN(take(g, (size_t)(lwork > 0 ? lwork : 1) * isz, &work));
      for (int64_t i = 0; i < batch; i++)
        SOLVER_TRY(orgqr(solver_of(g), dt, (int)m, (int)qcols, (int)K, (char *)qc + (size_t)(i * m * qcols) * isz, (int)m,
                         (char *)tau + (size_t)(i * K) * isz, work, lwork, dinfo + i));
    }
    RUN(reorder(g, isz, qc, q, m, qcols, batch, true));
  }
  return 0;
}
