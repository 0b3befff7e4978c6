/*
 * kernels/linalg/eig.cu: eig on cuSOLVER (Xgeev), with the small kernels
 * around it.
 *
 * The arrays are row-major and cuSOLVER column-major, so a row-major
 * buffer is read by cuSOLVER as the transpose: Xgeev needs A itself, so A
 * is transposed into scratch first; its right eigenvectors come back
 * column-major and are transposed (and, for real A, expanded from
 * LAPACK's packed pairs to complex vectors). cuSOLVER has no batched form
 * of geev: the calls are looped on the stream.
 */
#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <stdlib.h>

#include <cusci/core_ext.h>

#include "kernels/linalg/common.cuh"

using namespace cusci_la;

namespace {

cudaDataType complex_type(int dt) { return cusci_dtype_is_single(dt) ? CUDA_C_32F : CUDA_C_64F; }

/* ------------------------------------------------------------ kernels */

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

} // namespace

/*
 * eig. Xgeev on A (transposed into scratch), W complex. For real A the
 * right eigenvectors come packed in a real VR as LAPACK's geev packs them.
 */
extern "C" int cusci__launch_la_eig(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *w, void *vr)
{
  cusolverDnHandle_t solver = solver_of(g);
  cusolverDnParams_t params = params_of(g);
  cudaStream_t s = stream_of(g);
  if (check_finite)
    RUN(flag_nonfinite(g, dt, batch * n * n, a));
  size_t isz = cusci_kit_itemsize(dt), csz = cusci_dtype_is_single(dt) ? 8 : 16, nn = (size_t)(n * n);
  void *at, *x = NULL;
  RUN(take(g, nn * (size_t)batch * isz, &at));
  RUN(transpose(g, dt, a, at, n, n, batch, false));
  if (vr)
    RUN(take(g, nn * (size_t)batch * isz, &x));
  cudaDataType t = cuda_type(dt), ct = complex_type(dt);
  cusolverEigMode_t jobvr = vr ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  size_t dbytes = 0, hbytes = 0;
  SOLVER_QUERY(cusolverDnXgeev_bufferSize(solver, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, t, at, n, ct, w, t, NULL, n, t, x, n, t,
                                        &dbytes, &hbytes));
  void *dw, *hw;
  RUN(take_zeroed(g, dbytes, &dw));
  RUN(take_host(g, hbytes, &hw));
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
                               hw, hbytes, g->info + i));
  if (vr) {
    if (cusci_dtype_is_complex(dt)) {
      /* Column-major VR read row-major is VR^T: transpose back. */
      RUN(transpose(g, dt, x, vr, n, n, batch, false));
    } else {
      void *role;
      RUN(take(g, sizeof(int) * (size_t)(batch * n), &role));
      int64_t total = (int64_t)nn * batch;
      if (cusci_dtype_is_single(dt)) {
        LAUNCH(pair_roles_kernel<float2><<<blocks_for(batch, 128), 128, 0, s>>>((const float2 *)w, n, batch, (int *)role));
        LAUNCH(expand_kernel<float, float2><<<blocks_for(total, 256), 256, 0, s>>>((const float *)x, (const int *)role, (float2 *)vr, n, total));
      } else {
        LAUNCH(pair_roles_kernel<double2><<<blocks_for(batch, 128), 128, 0, s>>>((const double2 *)w, n, batch, (int *)role));
        LAUNCH(expand_kernel<double, double2><<<blocks_for(total, 256), 256, 0, s>>>((const double *)x, (const int *)role, (double2 *)vr, n,
                                                                                    total));
      }
    }
  }
  return 0;
}

extern "C" int cusci__launch_la_eig_normalize(cusci__la_gpu *g, int cdt, int64_t batch, int64_t n, void *v)
{
  int64_t total = batch * n;
  if (total == 0)
    return 0;
  if (cusci_dtype_is_single(cdt))
    LAUNCH(normalize_kernel<float2, float><<<blocks_for(total, 128), 128, 0, stream_of(g)>>>((float2 *)v, n, total));
  else
    LAUNCH(normalize_kernel<double2, double><<<blocks_for(total, 128), 128, 0, stream_of(g)>>>((double2 *)v, n, total));
  return 0;
}
