/*
 * kernels/linalg/solvers.cu: the CUDA backend of liblinalg's structured
 * solvers: banded LU with partial pivoting and banded Cholesky (one matrix
 * per thread, in band storage in pool scratch; cuSOLVER has no band
 * solver), the Levinson-Durbin recursion for Toeplitz systems (one thread
 * block), and cuFFT transforms for solve_circulant.
 */
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cufft.h>

#include <stdlib.h>

#include <cusci/core_ext.h>

#include "kernels/linalg/common.cuh"

using namespace cusci_la;

namespace {

/* ------------------------------------------------------------ banded LU */

/* Element (i, j) of matrix t of the input: dense, dense transposed, or
 * SciPy's band storage ab (l + u + 1, n), ab[u + i - j, j] = a[i, j]. */
template <typename T>
__device__ inline T band_get(const T *a, int mode, int64_t t, int64_t n, int64_t l, int64_t u, int64_t i, int64_t j)
{
  if (mode == 0)
    return a[(t * n + i) * n + j];
  if (mode == 1)
    return a[(t * n + j) * n + i];
  return a[(t * (l + u + 1) + (u + i - j)) * n + j];
}

/*
 * LAPACK's gbtf2 and gbtrs (no transpose), one matrix per thread. W holds
 * column j's rows j - l - u .. j + l at W[j ld + l + u + i - j],
 * ld = 2l + u + 1: the band, and the l extra superdiagonals that row
 * interchanges fill. The pivot is the first largest |.| in the column;
 * an exactly zero pivot stops that matrix (info = its 1-based index).
 */
template <typename T>
__global__ void band_lu_kernel(const T *__restrict__ a, T *__restrict__ b, T *__restrict__ work, int *__restrict__ pivs, int mode, int64_t batch,
                               int64_t n, int64_t k, int64_t l, int64_t u, int *info)
{
  int64_t ld = 2 * l + u + 1, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < batch; t += stride) {
    T *W = work + t * n * ld;
    int *piv = pivs + t * n;
    if (n == 1 && mode == 2) { /* SciPy divides by the one element, zero or not */
      info[t] = 0;
      for (int64_t col = 0; col < k; col++)
        b[t * k + col] = div_(b[t * k + col], band_get(a, mode, t, n, l, u, 0, 0));
      continue;
    }
#define WE(i, j) W[(j) * ld + l + u + (i) - (j)]
    for (int64_t j = 0; j < n; j++) {
      for (int64_t r = 0; r < ld; r++)
        W[j * ld + r] = zero_<T>();
      int64_t i0 = j - u < 0 ? 0 : j - u, i1 = j + l < n - 1 ? j + l : n - 1;
      for (int64_t i = i0; i <= i1; i++)
        WE(i, j) = band_get(a, mode, t, n, l, u, i, j);
    }
    int fail = 0;
    int64_t ju = 0;
    for (int64_t j = 0; j < n && !fail; j++) {
      int64_t km = l < n - 1 - j ? l : n - 1 - j, p = j;
      double best = abs1_(WE(j, j));
      for (int64_t i = j + 1; i <= j + km; i++)
        if (abs1_(WE(i, j)) > best) {
          best = abs1_(WE(i, j));
          p = i;
        }
      piv[j] = (int)p;
      if (best == 0) {
        fail = (int)j + 1;
        break;
      }
      int64_t last = p + u < n - 1 ? p + u : n - 1;
      ju = ju > last ? ju : last;
      if (p != j)
        for (int64_t c = j; c <= ju; c++) {
          T x = WE(j, c);
          WE(j, c) = WE(p, c);
          WE(p, c) = x;
        }
      T d = WE(j, j);
      for (int64_t i = j + 1; i <= j + km; i++)
        WE(i, j) = div_(WE(i, j), d);
      for (int64_t c = j + 1; c <= ju; c++) {
        T x = WE(j, c);
        for (int64_t i = j + 1; i <= j + km; i++)
          WE(i, c) = sub_(WE(i, c), mul_(WE(i, j), x));
      }
    }
    info[t] = fail;
    if (fail)
      continue;
    T *bt = b + t * n * k;
    for (int64_t col = 0; col < k; col++) {
      /* L with the interchanges as they were made, then U (band l + u). */
      for (int64_t j = 0; j < n; j++) {
        int64_t p = piv[j], km = l < n - 1 - j ? l : n - 1 - j;
        if (p != j) {
          T x = bt[j * k + col];
          bt[j * k + col] = bt[p * k + col];
          bt[p * k + col] = x;
        }
        T x = bt[j * k + col];
        for (int64_t i = j + 1; i <= j + km; i++)
          bt[i * k + col] = sub_(bt[i * k + col], mul_(WE(i, j), x));
      }
      for (int64_t j = n - 1; j >= 0; j--) {
        T x = div_(bt[j * k + col], WE(j, j));
        bt[j * k + col] = x;
        int64_t i0 = j - l - u < 0 ? 0 : j - l - u;
        for (int64_t i = i0; i < j; i++)
          bt[i * k + col] = sub_(bt[i * k + col], mul_(WE(i, j), x));
      }
    }
#undef WE
  }
}

/*
 * Banded Cholesky a = L L^H (LAPACK's pbtf2, lower), one matrix per thread,
 * L's column j rows j .. j + kd at W[j (kd + 1) + i - j], from SciPy's
 * upper form ab[kd + i - j, j] = a[i, j] (i <= j) or lower form
 * ab[i - j, j] = a[i, j] (i >= j). info = the order of the first leading
 * minor that is not positive definite.
 */
template <typename T>
__global__ void band_chol_kernel(const T *__restrict__ ab, T *__restrict__ b, T *__restrict__ work, int64_t batch, int64_t n, int64_t k,
                                 int64_t kd, bool lower, int *info)
{
  int64_t ld = kd + 1, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < batch; t += stride) {
    T *W = work + t * n * ld;
    const T *A = ab + t * ld * n;
#define WL(i, j) W[(j) * ld + (i) - (j)]
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = j; i <= j + kd; i++)
        WL(i, j) = i >= n ? zero_<T>() : lower ? A[(i - j) * n + j] : conj_(A[(kd + j - i) * n + i]);
    int fail = 0;
    for (int64_t j = 0; j < n; j++) {
      double ajj = re_(WL(j, j));
      if (!(ajj > 0)) {
        fail = (int)j + 1;
        break;
      }
      ajj = sqrt(ajj);
      WL(j, j) = real_<T>(ajj);
      int64_t kn = kd < n - 1 - j ? kd : n - 1 - j;
      T inv = real_<T>(1.0 / ajj);
      for (int64_t i = j + 1; i <= j + kn; i++)
        WL(i, j) = mul_(WL(i, j), inv);
      for (int64_t c = j + 1; c <= j + kn; c++) {
        T x = conj_(WL(c, j));
        for (int64_t i = c; i <= j + kn; i++)
          WL(i, c) = sub_(WL(i, c), mul_(WL(i, j), x));
      }
    }
    info[t] = fail;
    if (fail)
      continue;
    T *bt = b + t * n * k;
    for (int64_t col = 0; col < k; col++) {
      for (int64_t j = 0; j < n; j++) {
        T x = div_(bt[j * k + col], WL(j, j));
        bt[j * k + col] = x;
        int64_t kn = kd < n - 1 - j ? kd : n - 1 - j;
        for (int64_t i = j + 1; i <= j + kn; i++)
          bt[i * k + col] = sub_(bt[i * k + col], mul_(WL(i, j), x));
      }
      for (int64_t j = n - 1; j >= 0; j--) {
        int64_t kn = kd < n - 1 - j ? kd : n - 1 - j;
        T s = bt[j * k + col];
        for (int64_t i = j + 1; i <= j + kn; i++)
          s = sub_(s, mul_(conj_(WL(i, j)), bt[i * k + col]));
        bt[j * k + col] = div_(s, WL(j, j));
      }
    }
#undef WL
  }
}

struct band_op {
  cusci__la_gpu *g;
  int kind, mode;
  int64_t batch, n, k, l, u;
  bool lower;
  const void *a;
  void *b;
  int *info;
  template <typename T> int run()
  {
    if (batch == 0 || n == 0)
      return 0;
    int64_t ld = kind == CUSCI__LA_POS ? l + u + 1 : 2 * l + u + 1;
    size_t cnt = (size_t)(batch * n * ld) * sizeof(T) + (kind == CUSCI__LA_POS ? 0 : (size_t)(batch * n) * sizeof(int));
    void *p;
    RUN(take(g, cnt, &p));
    T *w = (T *)p;
    if (kind == CUSCI__LA_POS)
      LAUNCH(band_chol_kernel<T><<<blocks_for(batch, 64), 64, 0, stream_of(g)>>>((const T *)a, (T *)b, w, batch, n, k, l + u, lower, info));
    else
      LAUNCH(band_lu_kernel<T><<<blocks_for(batch, 64), 64, 0, stream_of(g)>>>((const T *)a, (T *)b, w, (int *)(w + batch * n * ld), mode, batch,
                                                                               n, k, l, u, info));
    return 0;
  }
};

/* ------------------------------------------------------------ Levinson */

/* The sum over the block (blockDim.x a power of 2) through sh. */
template <typename T> __device__ T block_sum(T v, T *sh)
{
  sh[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      sh[threadIdx.x] = add_(sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads();
  }
  T r = sh[0];
  __syncthreads();
  return r;
}

/*
 * Levinson-Durbin for T x = y, T[i][j] = c[i - j] (i >= j), r[j - i]
 * (i < j), y (n, k) becoming x in place (x's first m rows are solved when
 * row m of y is read). f and g are the forward and backward vectors of
 * the leading minor of order m (double-buffered in work, 4n elements):
 * with ef = row m of T times (f, 0) and eb = row 0 times (0, g),
 * f' = ((f, 0) - ef (0, g)) / (1 - ef eb), g' = ((0, g) - eb (f, 0)) / (..),
 * and x' = (x, 0) + (y[m] - row m of T times (x, 0)) g'.
 */
template <typename T>
__global__ void levinson_kernel(const T *__restrict__ c, const T *__restrict__ r, T *y, T *work, int64_t n, int64_t k, int *info)
{
  extern __shared__ unsigned char sh_raw[];
  T *sh = (T *)sh_raw;
  T *f = work, *g = work + n, *nf = work + 2 * n, *ng = work + 3 * n;
  T c0 = c[0];
  if (abs1_(c0) == 0) {
    if (threadIdx.x == 0)
      info[0] = 1;
    return;
  }
  T inv0 = div_(real_<T>(1.0), c0);
  if (threadIdx.x == 0) {
    f[0] = g[0] = inv0;
  }
  for (int64_t j = threadIdx.x; j < k; j += blockDim.x)
    y[j] = mul_(y[j], inv0);
  __syncthreads();
  for (int64_t m = 1; m < n; m++) {
    T ef = zero_<T>(), eb = zero_<T>();
    for (int64_t i = threadIdx.x; i < m; i += blockDim.x) {
      ef = add_(ef, mul_(c[m - i], f[i]));
      eb = add_(eb, mul_(r[i + 1], g[i]));
    }
    ef = block_sum(ef, sh);
    eb = block_sum(eb, sh);
    T den = sub_(real_<T>(1.0), mul_(ef, eb));
    if (abs1_(den) == 0) {
      if (threadIdx.x == 0)
        info[0] = (int)m + 1;
      return;
    }
    for (int64_t i = threadIdx.x; i <= m; i += blockDim.x) {
      T fi = i < m ? f[i] : zero_<T>(), gi = i > 0 ? g[i - 1] : zero_<T>();
      nf[i] = div_(sub_(fi, mul_(ef, gi)), den);
      ng[i] = div_(sub_(gi, mul_(eb, fi)), den);
    }
    __syncthreads();
    T *tmp = f;
    f = nf;
    nf = tmp;
    tmp = g;
    g = ng;
    ng = tmp;
    for (int64_t j = 0; j < k; j++) {
      T yv = y[m * k + j];
      T ex = zero_<T>();
      for (int64_t i = threadIdx.x; i < m; i += blockDim.x)
        ex = add_(ex, mul_(c[m - i], y[i * k + j]));
      ex = block_sum(ex, sh); /* every read of y is done past here */
      T gam = sub_(yv, ex);
      for (int64_t i = threadIdx.x; i <= m; i += blockDim.x)
        y[i * k + j] = i < m ? add_(y[i * k + j], mul_(gam, g[i])) : mul_(gam, g[i]);
      __syncthreads();
    }
  }
}

struct levinson_op {
  cusci__la_gpu *g;
  int64_t n, k;
  const void *c, *r;
  void *y;
  int *info;
  template <typename T> int run()
  {
    void *scratch;
    RUN(take(g, (size_t)(4 * n) * sizeof(T), &scratch));
    const int threads = 256;
    LAUNCH(levinson_kernel<T><<<1, threads, threads * sizeof(T), stream_of(g)>>>((const T *)c, (const T *)r, (T *)y, (T *)scratch, n, k, info));
    return 0;
  }
};

} /* namespace */

namespace cusci_la {

int band_queue(cusci__la_gpu *g, int dt, int kind, int mode, int64_t batch, int64_t n, int64_t k, int64_t l, int64_t u, bool lower,
               const void *a, void *b, int *info)
{
  band_op op{ g, kind, mode, batch, n, k, l, u, lower, a, b, info };
  return cusci::by_sdcz(dt, op);
}

} // namespace cusci_la

extern "C" int cusci__launch_la_band(cusci__la_gpu *g, int dt, int kind, bool check_finite, int64_t batch, int64_t n, int64_t k, int64_t l,
                                     int64_t u, bool lower, const void *ab, void *b)
{
  if (check_finite) {
    RUN(flag_nonfinite(g, dt, batch * (l + u + 1) * n, ab));
    RUN(flag_nonfinite(g, dt, batch * n * k, b));
  }
  return band_queue(g, dt, kind, 2, batch, n, k, l, u, lower, ab, b, g->info);
}

extern "C" int cusci__launch_la_levinson(cusci__la_gpu *g, int dt, bool check_finite, int64_t n, int64_t k, const void *c, const void *r, void *b)
{
  if (check_finite) {
    RUN(flag_nonfinite(g, dt, n, c));
    RUN(flag_nonfinite(g, dt, n, r));
    RUN(flag_nonfinite(g, dt, n * k, b));
  }
  levinson_op op{ g, n, k, c, r, b, g->info };
  return cusci::by_sdcz(dt, op);
}

/* One cuFFT plan per call, its work area given (the API layer waits for
 * the transform before the plan goes). */
extern "C" int cusci__launch_la_fft_plan(int dt, int64_t n, int64_t k, void **plan, size_t *work_bytes)
{
  cufftHandle h;
  cufftResult fr = cufftCreate(&h);
  if (fr != CUFFT_SUCCESS)
    return CUSCI_GPU_CODE(CUSCI_GPU_CUFFT, (int)fr);
  long long nn = n, emb = n;
  cufftType type = dt == CUSCI_COMPLEX64 ? CUFFT_C2C : CUFFT_Z2Z;
  fr = cufftSetAutoAllocation(h, 0);
  if (fr == CUFFT_SUCCESS)
    fr = cufftMakePlanMany64(h, 1, &nn, &emb, k, 1, &emb, k, 1, type, k, work_bytes);
  if (fr != CUFFT_SUCCESS) {
    cufftDestroy(h);
    return CUSCI_GPU_CODE(CUSCI_GPU_CUFFT, (int)fr);
  }
  *plan = (void *)(uintptr_t)h;
  return 0;
}

extern "C" int cusci__launch_la_fft(void *plan, void *stream, void *work, int dt, bool inverse, void *x)
{
  cufftHandle h = (cufftHandle)(uintptr_t)plan;
  cufftResult fr = cufftSetWorkArea(h, work);
  if (fr == CUFFT_SUCCESS)
    fr = cufftSetStream(h, (cudaStream_t)stream);
  int dir = inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
  if (fr == CUFFT_SUCCESS)
    fr = dt == CUSCI_COMPLEX64 ? cufftExecC2C(h, (cufftComplex *)x, (cufftComplex *)x, dir)
                               : cufftExecZ2Z(h, (cufftDoubleComplex *)x, (cufftDoubleComplex *)x, dir);
  return CUSCI_GPU_CODE(CUSCI_GPU_CUFFT, (int)fr);
}

extern "C" int cusci__launch_la_fft_free(void *plan)
{
  return CUSCI_GPU_CODE(CUSCI_GPU_CUFFT, (int)cufftDestroy((cufftHandle)(uintptr_t)plan));
}
