/*
 * kernels/linalg/eig.cu: liblinalg's eigenproblems on cuSOLVER, with the
 * small kernels around them.
 *
 * The arrays are row-major and cuSOLVER column-major, so a row-major
 * buffer is read by cuSOLVER as the transpose:
 *  - eig: Xgeev needs A itself, so A is transposed into scratch first; its
 *    right eigenvectors come back column-major and are transposed (and,
 *    for real A, expanded from LAPACK's packed pairs to complex vectors);
 *  - eigh with a subset or b: the buffers hold A^T = conj(A) and conj(B);
 *    the eigenvalues of the conjugated problem are A's (real), its
 *    eigenvectors the conjugates of A's, so v is the conjugate transpose of
 *    the column-major result, and SciPy's lower triangle is the buffers'
 *    upper one (as eigh in kernels/linalg/linalg.cu).
 * cuSOLVER has no batched form of these solvers: the calls are looped on
 * the stream, and the info words are read with one synchronisation at the
 * end.
 */
#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <stdlib.h>

#include <cusci/core_ext.h>

#include "kernels/linalg/common.cuh"
#include "kernels/linalg/eig_launch.h"

namespace {

cudaDataType complex_type(int dt) { return cusci_dtype_is_single(dt) ? CUDA_C_32F : CUDA_C_64F; }


/* ------------------------------------------------------------ kernels */

/* dst[b][j][i] = src[b][i][j] (conj when C) for rows x cols matrices. */
template <typename T, bool C>
__global__ void transpose_kernel(const T *src, T *dst, int64_t rows, int64_t cols, int64_t total)
{
  for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < total; k += (int64_t)gridDim.x * blockDim.x) {
    int64_t mat = rows * cols, b = k / mat, r = k % mat, j = r / rows, i = r % rows;
    T v = src[b * mat + i * cols + j];
    if (C)
      v.y = -v.y;
    dst[b * mat + j * rows + i] = v;
  }
}
template <typename T>
__global__ void transpose_real_kernel(const T *src, T *dst, int64_t rows, int64_t cols, int64_t total)
{
  for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < total; k += (int64_t)gridDim.x * blockDim.x) {
    int64_t mat = rows * cols, b = k / mat, r = k % mat, j = r / rows, i = r % rows;
    dst[b * mat + j * rows + i] = src[b * mat + i * cols + j];
  }
}

/* Per matrix, the role of each eigenvalue of a real matrix: 0 real, 1
 * the first of a complex pair, 2 the second (a sequential scan). */
template <typename C>
__global__ void pair_roles_kernel(const C *w, int64_t n, int64_t batch, int *role)
{
  for (int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; b < batch; b += (int64_t)gridDim.x * blockDim.x) {
    bool second = false;
    for (int64_t j = 0; j < n; j++) {
      int r = 0;
      if (second)
        r = 2, second = false;
      else if (w[b * n + j].y != 0 && j + 1 < n)
        r = 1, second = true;
      role[b * n + j] = r;
    }
  }
}

/* v (row-major complex) from the column-major real VR packed as LAPACK
 * packs it: v[:, j] = x + i y for the first of a pair (x, y its columns j,
 * j + 1), x - i y for the second. */
template <typename R, typename C>
__global__ void expand_kernel(const R *x, const int *role, C *v, int64_t n, int64_t total)
{
  for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < total; k += (int64_t)gridDim.x * blockDim.x) {
    int64_t nn = n * n, b = k / nn, r = k % nn, i = r / n, j = r % n;
    const R *xb = x + b * nn;
    int ro = role[b * n + j];
    C out;
    if (ro == 1) {
      out.x = xb[j * n + i];
      out.y = xb[(j + 1) * n + i];
    } else if (ro == 2) {
      out.x = xb[(j - 1) * n + i];
      out.y = -xb[j * n + i];
    } else {
      out.x = xb[j * n + i];
      out.y = 0;
    }
    v[k] = out;
  }
}

/* One thread per column j of a row-major complex (n, n): unit 2-norm, and
 * the component of largest modulus (the first such) made real positive. */
template <typename C, typename R>
__global__ void normalize_kernel(C *v, int64_t n, int64_t total)
{
  for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < total; k += (int64_t)gridDim.x * blockDim.x) {
    int64_t b = k / n, j = k % n;
    C *vb = v + b * n * n;
    R ss = 0, best = -1;
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++) {
      C x = vb[i * n + j];
      R m = x.x * x.x + x.y * x.y;
      ss += m;
      if (m > best)
        best = m, at = i;
    }
    if (!(ss > 0))
      continue;
    C p = vb[at * n + j];
    R pm = sqrt(p.x * p.x + p.y * p.y), nrm = sqrt(ss);
    /* multiply by conj(p) / (|p| nrm) */
    R cr = p.x / (pm * nrm), ci = -p.y / (pm * nrm);
    for (int64_t i = 0; i < n; i++) {
      C x = vb[i * n + j];
      C y;
      y.x = x.x * cr - x.y * ci;
      y.y = x.x * ci + x.y * cr;
      vb[i * n + j] = y;
    }
  }
}

/* dst = src^T (conj^T when conj) for a batch of rows x cols matrices. */
cusci_status transpose(cusci_ctx *ctx, const char *fn, int dt, const void *src, void *dst, int64_t rows, int64_t cols, int64_t batch,
                       bool conj)
{
  int64_t total = rows * cols * batch;
  if (total == 0)
    return CUSCI_OK;
  cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
  unsigned g = blocks_for(total, 256);
  switch (dt) {
  case CUSCI_FLOAT32:
    transpose_real_kernel<float><<<g, 256, 0, s>>>((const float *)src, (float *)dst, rows, cols, total);
    break;
  case CUSCI_FLOAT64:
    transpose_real_kernel<double><<<g, 256, 0, s>>>((const double *)src, (double *)dst, rows, cols, total);
    break;
  case CUSCI_COMPLEX64:
    if (conj)
      transpose_kernel<float2, true><<<g, 256, 0, s>>>((const float2 *)src, (float2 *)dst, rows, cols, total);
    else
      transpose_kernel<float2, false><<<g, 256, 0, s>>>((const float2 *)src, (float2 *)dst, rows, cols, total);
    break;
  default:
    if (conj)
      transpose_kernel<double2, true><<<g, 256, 0, s>>>((const double2 *)src, (double2 *)dst, rows, cols, total);
    else
      transpose_kernel<double2, false><<<g, 256, 0, s>>>((const double2 *)src, (double2 *)dst, rows, cols, total);
  }
  CUDA_TRY(cudaGetLastError());
  return CUSCI_OK;
}

/* info[0..batch) per matrix and the inf/NaN flag, read with one sync. */
struct status_words {
  int *dev = nullptr;
  int64_t batch = 0;
  cusci_status init(cusci_ctx *ctx, const char *fn, scratch_set &sc, int64_t nbatch)
  {
    batch = nbatch;
    void *p;
    TRY(sc.get(ctx, fn, sizeof(int) * (size_t)(batch + 1), &p));
    dev = (int *)p;
    CUDA_TRY(cudaMemsetAsync(dev, 0, sizeof(int) * (size_t)(batch + 1), (cudaStream_t)cusci_ctx_stream(ctx)));
    return CUSCI_OK;
  }
  int *flag() { return dev + batch; }
  cusci_status read(cusci_ctx *ctx, const char *fn, cusci__la_fail *fail, bool *nonfinite)
  {
    int *h = (int *)malloc(sizeof(int) * (size_t)(batch + 1));
    if (!h)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the info words");
    cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
    cudaError_t e = cudaMemcpyAsync(h, dev, sizeof(int) * (size_t)(batch + 1), cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess)
      e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) {
      free(h);
      return cuda_fail(ctx, fn, "reading the solver's info", e);
    }
    *nonfinite = h[batch] != 0;
    *fail = cusci__la_fail{ 0, 0 };
    for (int64_t i = 0; i < batch; i++)
      if (h[i] != 0) {
        *fail = cusci__la_fail{ i, h[i] };
        break;
      }
    free(h);
    if (fail->info < 0)
      return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "cuSOLVER rejected argument %lld", (long long)-fail->info);
    return CUSCI_OK;
  }
};

/* ------------------------------------------- generalized eigh, by type */

#define GVDX(T, R, C)                                                                                                            \
  cusolverStatus_t gvdx_size(cusolverDnHandle_t h, cusolverEigType_t it, cusolverEigMode_t jz, cusolverEigRange_t rg,            \
                             cublasFillMode_t up, int n, const T *a, const T *b, R vl, R vu, int il, int iu, int *meig, const R *w, \
                             int *lwork)                                                                                         \
  {                                                                                                                              \
    return cusolverDn##C##_bufferSize(h, it, jz, rg, up, n, a, n, b, n, vl, vu, il, iu, meig, w, lwork);                         \
  }                                                                                                                              \
  cusolverStatus_t gvdx(cusolverDnHandle_t h, cusolverEigType_t it, cusolverEigMode_t jz, cusolverEigRange_t rg,                 \
                        cublasFillMode_t up, int n, T *a, T *b, R vl, R vu, int il, int iu, int *meig, R *w, T *work, int lwork,  \
                        int *info)                                                                                               \
  {                                                                                                                              \
    return cusolverDn##C(h, it, jz, rg, up, n, a, n, b, n, vl, vu, il, iu, meig, w, work, lwork, info);                          \
  }
GVDX(float, float, Ssygvdx)
GVDX(double, double, Dsygvdx)
GVDX(cuComplex, float, Chegvdx)
GVDX(cuDoubleComplex, double, Zhegvdx)

struct gen_op {
  cusci_ctx *ctx;
  const char *fn;
  cusolverDnHandle_t h;
  scratch_set *sc;
  int *info;
  cusolverEigType_t itype;
  cusolverEigMode_t jobz;
  cusolverEigRange_t range;
  cublasFillMode_t uplo;
  int64_t batch, n;
  cusci__la_range r;
  void *a, *b, *w;
  int64_t *m;
  template <typename T, typename R>
  cusci_status run()
  {
    int ni = (int)n, meig = 0, lwork = 0;
    R vl = (R)r.vlo, vu = (R)r.vhi;
    int il = (int)(r.lo + 1), iu = (int)(r.hi + 1);
    SOLVER_TRY(gvdx_size(h, itype, jobz, range, uplo, ni, (const T *)a, (const T *)b, vl, vu, il, iu, &meig, (const R *)w, &lwork));
    void *work;
    TRY(sc->get(ctx, fn, sizeof(T) * (size_t)(lwork > 0 ? lwork : 1), &work));
    for (int64_t i = 0; i < batch; i++) {
      SOLVER_TRY(gvdx(h, itype, jobz, range, uplo, ni, (T *)a + i * n * n, (T *)b + i * n * n, vl, vu, il, iu, &meig, (R *)w + i * n,
                      (T *)work, lwork, info + i));
      m[i] = meig;
    }
    return CUSCI_OK;
  }
};

} // namespace

/*
 * eig. Xgeev on A (transposed into scratch), W complex. For real A the
 * right eigenvectors come packed in a real VR as LAPACK's geev packs them.
 */
extern "C" cusci_status cusci__gpu_la_eig(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, void *a,
                                          void *w, void *vr, cusci__la_fail *fail, bool *nonfinite)
{
  void *blas, *solver_, *params_;
  TRY(cusci__gpu_la_handles(ctx, fn, &blas, &solver_, &params_));
  cusolverDnHandle_t solver = (cusolverDnHandle_t)solver_;
  cusolverDnParams_t params = (cusolverDnParams_t)params_;
  cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
  scratch_set sc;
  status_words sw;
  TRY(sw.init(ctx, fn, sc, batch));
  if (check_finite)
    TRY(check_finite_async(ctx, fn, dt, batch * n * n, a, sw.flag()));
  size_t isz = cusci_kit_itemsize(dt), csz = cusci_dtype_is_single(dt) ? 8 : 16, nn = (size_t)(n * n);
  void *at, *x = NULL;
  TRY(sc.get(ctx, fn, nn * (size_t)batch * isz, &at));
  TRY(transpose(ctx, fn, dt, a, at, n, n, batch, false));
  if (vr)
    TRY(sc.get(ctx, fn, nn * (size_t)batch * isz, &x));
  cudaDataType t = cuda_type(dt), ct = complex_type(dt);
  cusolverEigMode_t jobvr = vr ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  size_t dbytes = 0, hbytes = 0;
  SOLVER_TRY(cusolverDnXgeev_bufferSize(solver, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t, at, n, ct, w, t, NULL, n, t, x, n, t,
                                        &dbytes, &hbytes));
  void *dw, *hw;
  TRY(sc.get_zeroed(ctx, fn, dbytes, &dw));
  TRY(sc.get_host(ctx, fn, hbytes, &hw));
  /* A matrix whose QR iteration fails leaves w and VR partly unwritten,
   * and the kernels below read them: zeros, not garbage. */
  if (batch * n > 0) {
    CUDA_TRY(cudaMemsetAsync(w, 0, (size_t)(batch * n) * csz, s));
    if (vr)
      CUDA_TRY(cudaMemsetAsync(x, 0, nn * (size_t)batch * isz, s));
  }
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXgeev(solver, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t, (char *)at + i * nn * isz, n, ct,
                               (char *)w + (size_t)(i * n) * csz, t, NULL, n, t, vr ? (char *)x + i * nn * isz : NULL, n, t, dw, dbytes,
                               hw, hbytes, sw.dev + i));
  if (vr) {
    if (cusci_dtype_is_complex(dt)) {
      /* Column-major VR read row-major is VR^T: transpose back. */
      TRY(transpose(ctx, fn, dt, x, vr, n, n, batch, false));
    } else {
      void *role;
      TRY(sc.get(ctx, fn, sizeof(int) * (size_t)(batch * n), &role));
      int64_t total = (int64_t)nn * batch;
      if (cusci_dtype_is_single(dt)) {
        pair_roles_kernel<float2><<<blocks_for(batch, 128), 128, 0, s>>>((const float2 *)w, n, batch, (int *)role);
        expand_kernel<float, float2><<<blocks_for(total, 256), 256, 0, s>>>((const float *)x, (const int *)role, (float2 *)vr, n, total);
      } else {
        pair_roles_kernel<double2><<<blocks_for(batch, 128), 128, 0, s>>>((const double2 *)w, n, batch, (int *)role);
        expand_kernel<double, double2><<<blocks_for(total, 256), 256, 0, s>>>((const double *)x, (const int *)role, (double2 *)vr, n,
                                                                            total);
      }
      CUDA_TRY(cudaGetLastError());
    }
  }
  return sw.read(ctx, fn, fail, nonfinite);
}

extern "C" cusci_status cusci__gpu_la_eig_normalize(cusci_ctx *ctx, const char *fn, int cdt, int64_t batch, int64_t n, void *v)
{
  int64_t total = batch * n;
  if (total == 0)
    return CUSCI_OK;
  TRY(cusci_ctx_use_device(ctx, fn));
  cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
  if (cusci_dtype_is_single(cdt))
    normalize_kernel<float2, float><<<blocks_for(total, 128), 128, 0, s>>>((float2 *)v, n, total);
  else
    normalize_kernel<double2, double><<<blocks_for(total, 128), 128, 0, s>>>((double2 *)v, n, total);
  CUDA_TRY(cudaGetLastError());
  return CUSCI_OK;
}

/*
 * eigh with a subset (Xsyevdx) or with b (sygvdx / hegvdx, whose range
 * ALL is sygvd's problem). The count of eigenvalues found comes back to
 * the host per call (cuSOLVER returns it there).
 */
extern "C" cusci_status cusci__gpu_la_eigh_ex(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n,
                                              bool upper, cusci__la_range r, int type, void *a, void *b, void *w, void *v, int64_t *m,
                                              cusci__la_fail *fail, bool *nonfinite)
{
  void *blas, *solver_, *params_;
  TRY(cusci__gpu_la_handles(ctx, fn, &blas, &solver_, &params_));
  cusolverDnHandle_t solver = (cusolverDnHandle_t)solver_;
  cusolverDnParams_t params = (cusolverDnParams_t)params_;
  scratch_set sc;
  status_words sw;
  TRY(sw.init(ctx, fn, sc, batch));
  if (check_finite) {
    TRY(check_finite_async(ctx, fn, dt, batch * n * n, a, sw.flag()));
    if (b)
      TRY(check_finite_async(ctx, fn, dt, batch * n * n, b, sw.flag()));
  }
  cusolverEigMode_t jobz = v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  cublasFillMode_t uplo = upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  cusolverEigRange_t range = r.kind == 1 ? CUSOLVER_EIG_RANGE_I : r.kind == 2 ? CUSOLVER_EIG_RANGE_V : CUSOLVER_EIG_RANGE_ALL;
  size_t isz = cusci_kit_itemsize(dt), rsz = cusci_dtype_is_single(dt) ? 4 : 8, nn = (size_t)(n * n);
  if (b) {
    if (n > 2147483647 / (n ? n : 1))
      return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a %lldx%lld matrix exceeds cuSOLVER's int for sygvd", (long long)n, (long long)n);
    cusolverEigType_t it = type == 2 ? CUSOLVER_EIG_TYPE_2 : type == 3 ? CUSOLVER_EIG_TYPE_3 : CUSOLVER_EIG_TYPE_1;
    gen_op op{ ctx, fn, solver, &sc, sw.dev, it, jobz, range, uplo, batch, n, r, a, b, w, m };
    switch (dt) {
    case CUSCI_FLOAT32:
      TRY((op.run<float, float>()));
      break;
    case CUSCI_FLOAT64:
      TRY((op.run<double, double>()));
      break;
    case CUSCI_COMPLEX64:
      TRY((op.run<cuComplex, float>()));
      break;
    default:
      TRY((op.run<cuDoubleComplex, double>()));
    }
  } else {
    cudaDataType t = cuda_type(dt), rt = cusci_dtype_is_single(dt) ? CUDA_R_32F : CUDA_R_64F;
    double vl = r.vlo, vu = r.vhi;
    float vlf = (float)r.vlo, vuf = (float)r.vhi;
    void *pvl = cusci_dtype_is_single(dt) ? (void *)&vlf : (void *)&vl, *pvu = cusci_dtype_is_single(dt) ? (void *)&vuf : (void *)&vu;
    int64_t meig = 0;
    size_t dbytes = 0, hbytes = 0;
    SOLVER_TRY(cusolverDnXsyevdx_bufferSize(solver, params, jobz, range, uplo, n, t, a, n, pvl, pvu, r.lo + 1, r.hi + 1, &meig, rt, w, t,
                                            &dbytes, &hbytes));
    void *dw, *hw;
    TRY(sc.get_zeroed(ctx, fn, dbytes, &dw));
    TRY(sc.get_host(ctx, fn, hbytes, &hw));
    for (int64_t i = 0; i < batch; i++) {
      SOLVER_TRY(cusolverDnXsyevdx(solver, params, jobz, range, uplo, n, t, (char *)a + i * nn * isz, n, pvl, pvu, r.lo + 1, r.hi + 1,
                                   &meig, rt, (char *)w + (size_t)(i * n) * rsz, t, dw, dbytes, hw, hbytes, sw.dev + i));
      m[i] = meig;
    }
  }
  if (v)
    TRY(transpose(ctx, fn, dt, a, v, n, n, batch, true));
  return sw.read(ctx, fn, fail, nonfinite);
}
