/*
 * kernels/linalg/svd.cu: svd on cuSOLVER: gesvd for full matrices and
 * double precision, and single precision through a float64 Gram matrix.
 */
#include "kernels/linalg/common.cuh"

using namespace cusci_la;

namespace {

/*
 * svd by gesvd (QR iteration): with full_matrices, economic (econ; jobs
 * 'S') or values only (uv false; 'N'). gesvd returns V^H rather than V.
 * The column-major problem has rows >= cols, as in cusci__launch_la_svd;
 * U' is rows x ucols and VT' vrows x cols (ucols = vrows = K when econ,
 * else rows and cols).
 * n >= m: the buffer is A^T = U' S V'^H, so vh = U'^T is U' read row-major
 * and u = conj(V') is V'^H (gesvd's VT) read row-major: no copies.
 * m > n: the buffer is A = U' S V'^H; u = U' and vh = VT, each transposed.
 */
int svd_gesvd(cusci__la_gpu *g, int dt, int64_t batch, int64_t m, int64_t n, bool econ, bool uv, void *buf, void *u, void *s, void *vh)
{
  bool wide = n >= m;
  int64_t rows = wide ? n : m, cols = wide ? m : n, K = cols;
  int64_t ucols = econ ? K : rows, vrows = econ ? K : cols;
  signed char job = !uv ? 'N' : econ ? 'S' : 'A';
  size_t isz = cusci_kit_itemsize(dt), rsz = cusci_dtype_is_single(dt) ? 4 : 8;
  cudaDataType t = cuda_type(dt), rt = real_type(dt);
  void *Uc = uv && wide ? vh : NULL, *VTc = uv && wide ? u : NULL;
  if (uv && !wide) {
    RUN(take(g, (size_t)(batch * rows * ucols) * isz, &Uc));
    RUN(take(g, (size_t)(batch * vrows * cols) * isz, &VTc));
  }
  size_t dbytes = 0, hbytes = 0;
  SOLVER_QUERY(cusolverDnXgesvd_bufferSize(solver_of(g), params_of(g), job, job, rows, cols, t, buf, rows, rt, s, t, Uc, rows, t, VTc, vrows, t,
                                         &dbytes, &hbytes));
  void *dw, *hw;
  RUN(take_zeroed(g, dbytes, &dw));
  RUN(take_host(g, hbytes, &hw));
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXgesvd(solver_of(g), params_of(g), job, job, rows, cols, t, (char *)buf + (size_t)(i * m * n) * isz, rows, rt,
                                (char *)s + (size_t)(i * K) * rsz, t, uv ? (char *)Uc + (size_t)(i * rows * ucols) * isz : NULL, rows, t,
                                uv ? (char *)VTc + (size_t)(i * vrows * cols) * isz : NULL, vrows, t, dw, dbytes, hw, hbytes, g->info + i));
  if (uv && !wide) {
    RUN(transpose(g, dt, Uc, u, ucols, rows, batch, false));
    RUN(transpose(g, dt, VTc, vh, cols, vrows, batch, false));
  }
  return 0;
}

/* ---- the single-precision SVD through float64 (svd_gram) */

__device__ inline double wide_(float v) { return (double)v; }
__device__ inline double2 wide_(float2 v) { return make_double2(v.x, v.y); }
__device__ inline float narrow_(double v) { return (float)v; }
__device__ inline float2 narrow_(double2 v) { return make_float2((float)v.x, (float)v.y); }

/* dst = src widened to double precision, n elements. */
template <typename S, typename D>
__global__ void widen_kernel(const S *__restrict__ src, D *__restrict__ dst, int64_t n)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    dst[i] = wide_(src[i]);
}

/* dst (rows x cols, column-major) = src with its columns in reverse order. */
template <typename T>
__global__ void reverse_cols_kernel(const T *__restrict__ src, T *__restrict__ dst, int64_t rows, int64_t cols)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < rows * cols; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t c = i / rows, r = i - c * rows;
    dst[i] = src[(cols - 1 - c) * rows + r];
  }
}

/* ph[j] = R[j][j] / |R[j][j]| (1 for a zero), R in the upper triangle of
 * the column-major y (ld rows). */
template <typename T>
__global__ void phase_kernel(const T *__restrict__ y, T *__restrict__ ph, int64_t rows, int64_t k)
{
  typedef typename real_t<T>::type R;
  for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < k; j += (int64_t)gridDim.x * blockDim.x) {
    T d = y[j * rows + j];
    R a = abs_(d);
    ph[j] = a > 0 ? scale_(d, (R)1 / a) : one_<T>();
  }
}

/* The single-precision results: u (rows x k, column-major) = q times the
 * phases (q NULL: none), v = vrev narrowed (vrev NULL: none), and s[j] =
 * sqrt(lam[k - 1 - j]), the eigenvalues of the Gram matrix in descending
 * order, negative rounding clipped to 0. */
template <typename T, typename TS>
__global__ void gram_out_kernel(const T *__restrict__ q, const T *__restrict__ ph, const T *__restrict__ vrev, const double *__restrict__ lam,
                                TS *__restrict__ u, TS *__restrict__ v, float *__restrict__ s, int64_t rows, int64_t k)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < rows * k; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t j = i / rows;
    if (q)
      u[i] = narrow_(mul_(q[i], ph[j]));
    if (vrev && i < k * k)
      v[i] = narrow_(vrev[i]);
    if (i < k) {
      double l = lam[k - 1 - i];
      s[i] = (float)sqrt(l > 0 ? l : 0.0);
    }
  }
}

/* The double-precision Gram matrix of svd_gram: syrk for float64, herk
 * for complex128 (its Q comes from orgqr / ungqr, common.cuh). */
inline cublasStatus_t gram(cublasHandle_t h, int n, int k, const double *one, const double *c, const double *zero, double *g)
{
  return cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, n, k, one, c, k, zero, g, n);
}
inline cublasStatus_t gram(cublasHandle_t h, int n, int k, const double *one, const double2 *c, const double *zero, double2 *g)
{
  return cublasZherk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_C, n, k, one, c, k, zero, g, n);
}

/*
 * svd of float32 and complex64 matrices, economic or values only, in
 * float64: C (rows x cols, column-major, rows >= cols) is widened, its
 * Gram matrix G = C^H C formed (syrk / herk), and G = W L W^H by syevd;
 * s = sqrt(L), V = W with its columns in descending order, and U is the Q
 * of the Householder QR of C V (largest first, so that the columns of
 * tiny singular values are orthogonalised against the others, not the
 * other way round), each column times the phase of its R diagonal so that
 * U^H C V has a nonnegative diagonal. Results go to Uc (rows x cols) and
 * Vc (cols x cols), column-major in single precision, and s.
 *
 * Squaring the condition number costs nothing here: G is formed from
 * exact products of single-precision numbers in double, so an eigenvalue
 * is off by about eps64 |C|^2, and a singular value by
 * eps64 |C|^2 / (2 s), below a backward-stable single-precision SVD's
 * eps32 |C| for every s above 1e-9 |C|, and under 1e-8 |C| (a tenth of
 * eps32 |C|) for s near 0. The singular vectors err within clusters of
 * nearly equal singular values, as any SVD's do. It is several times
 * faster than gesvdp, which runs in single precision. S: float or float2;
 * D: double or double2.
 */
template <typename S, typename D>
int svd_gram_t(cusci__la_gpu *g, int dt, int64_t batch, int64_t rows, int64_t cols, const void *buf, bool uv, void *Uc, void *Vc, void *s)
{
  const int dt64 = dt == CUSCI_COMPLEX64 ? CUSCI_COMPLEX128 : CUSCI_FLOAT64;
  const size_t wsz = sizeof(D);
  const cudaDataType t = cuda_type(dt64);
  const int64_t K = cols;
  cudaStream_t stream = stream_of(g);
  const cusolverEigMode_t jobz = uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t lower = CUBLAS_FILL_MODE_LOWER;
  /* One device buffer for c64, y, gm, vrev, lam, tau, ph and qinfo, and one
   * workspace the solvers share (they run one after another). */
  size_t off[9], at = 0;
  const size_t sizes[8] = { (size_t)(rows * cols) * wsz, uv ? (size_t)(rows * cols) * wsz : 0, (size_t)(cols * cols) * wsz,
                            uv ? (size_t)(cols * cols) * wsz : 0, (size_t)K * 8, uv ? (size_t)K * wsz : 0, uv ? (size_t)K * wsz : 0,
                            sizeof(int) };
  for (int i = 0; i < 8; i++) {
    off[i] = at;
    at += (sizes[i] + 255) / 256 * 256;
  }
  off[8] = at;
  char *base;
  RUN(take(g, off[8], (void **)&base));
  D *c64 = (D *)(base + off[0]), *y = (D *)(base + off[1]), *gm = (D *)(base + off[2]), *vrev = (D *)(base + off[3]),
    *tau = (D *)(base + off[5]), *ph = (D *)(base + off[6]);
  double *lam = (double *)(base + off[4]);
  int *qinfo = (int *)(base + off[7]);
  size_t dsyevd = 0, hsyevd = 0, dgeqrf = 0, hgeqrf = 0;
  int lorgqr = 0;
  SOLVER_QUERY(cusolverDnXsyevd_bufferSize(solver_of(g), params_of(g), jobz, lower, cols, t, gm, cols, CUDA_R_64F, lam, t, &dsyevd, &hsyevd));
  if (uv) {
    SOLVER_QUERY(cusolverDnXgeqrf_bufferSize(solver_of(g), params_of(g), rows, cols, t, y, rows, t, tau, t, &dgeqrf, &hgeqrf));
    SOLVER_QUERY(orgqr_size(solver_of(g), dt64, (int)rows, (int)cols, (int)cols, y, (int)rows, tau, &lorgqr));
  }
  size_t dwork = dsyevd > dgeqrf ? dsyevd : dgeqrf;
  if ((size_t)lorgqr * wsz > dwork)
    dwork = (size_t)lorgqr * wsz;
  const size_t hwork = hsyevd > hgeqrf ? hsyevd : hgeqrf;
  void *dw, *hw;
  RUN(take_zeroed(g, dwork, &dw));
  RUN(take_host(g, hwork, &hw));
  const double one[2] = { 1.0, 0.0 }, zero[2] = { 0.0, 0.0 };
  BLAS_TRY(cublasSetPointerMode(blas_of(g), CUBLAS_POINTER_MODE_HOST));
  const unsigned gb = blocks_for(rows * cols, 256), kb = blocks_for(K, 256);
  /* syrk and herk write G's lower triangle only, and syevd's back
   * transformation (ormqr) loads the strictly upper one too, seen by
   * compute-sanitizer initcheck: zeros there, once, so that what it loads
   * is never garbage (NaN bits from the pool, say). */
  CUDA_TRY(cudaMemsetAsync(gm, 0, sizes[2], stream));
  for (int64_t i = 0; i < batch; i++) {
    const S *ci = (const S *)buf + i * rows * cols;
    float *si = (float *)s + i * K;
    LAUNCH(widen_kernel<S, D><<<gb, 256, 0, stream>>>(ci, c64, rows * cols));
    BLAS_TRY(gram(blas_of(g), (int)cols, (int)rows, one, c64, zero, gm));
    SOLVER_TRY(cusolverDnXsyevd(solver_of(g), params_of(g), jobz, lower, cols, t, gm, cols, CUDA_R_64F, lam, t, dw, dsyevd, hw, hsyevd,
                                g->info + i));
    if (!uv) {
      LAUNCH(gram_out_kernel<D, S><<<kb, 256, 0, stream>>>(NULL, NULL, NULL, lam, NULL, NULL, si, 1, K));
      continue;
    }
    LAUNCH(reverse_cols_kernel<D><<<blocks_for(cols * cols, 256), 256, 0, stream>>>(gm, vrev, cols, cols));
    BLAS_TRY(cublasGemmEx(blas_of(g), CUBLAS_OP_N, CUBLAS_OP_N, (int)rows, (int)cols, (int)cols, one, c64, t, (int)rows, vrev, t, (int)cols,
                          zero, y, t, (int)rows, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
    SOLVER_TRY(cusolverDnXgeqrf(solver_of(g), params_of(g), rows, cols, t, y, rows, t, tau, t, dw, dgeqrf, hw, hgeqrf, qinfo));
    LAUNCH(phase_kernel<D><<<kb, 256, 0, stream>>>(y, ph, rows, K));
    SOLVER_TRY(orgqr(solver_of(g), dt64, (int)rows, (int)cols, (int)cols, y, (int)rows, tau, dw, lorgqr, qinfo));
    LAUNCH(gram_out_kernel<D, S><<<gb, 256, 0, stream>>>(y, ph, vrev, lam, (S *)Uc + i * rows * K, (S *)Vc + i * cols * K, si, rows, K));
  }
  return 0;
}

int svd_gram(cusci__la_gpu *g, int dt, int64_t batch, int64_t rows, int64_t cols, const void *buf, bool uv, void *Uc, void *Vc, void *s)
{
  if (dt == CUSCI_COMPLEX64)
    return svd_gram_t<float2, double2>(g, dt, batch, rows, cols, buf, uv, Uc, Vc, s);
  return svd_gram_t<float, double>(g, dt, batch, rows, cols, buf, uv, Uc, Vc, s);
}

} // namespace

/*
 * svd of row-major A (m x n). The solvers want a column-major matrix with
 * at least as many rows as columns, C: for n >= m the buffer is A^T (n x
 * m), A^T = U' S V'^H gives A = conj(V') S U'^T, so vh = U'^T is U'
 * (written straight into vh) read row-major and u = conj(V') is the
 * conjugate transpose of V' read row-major; for m > n A is transposed into
 * column-major order first, A = U' S V'^H, u is U' transposed and vh =
 * V'^H is V' read row-major, conjugated. Single precision, economic or
 * values only: svd_gram; the rest: svd_gesvd.
 */
extern "C" int cusci__launch_la_svd(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t m, int64_t n, bool full, bool uv, void *a, void *u, void *s, void *vh)
{
  if (check_finite)
    RUN(flag_nonfinite(g, dt, batch * m * n, a));
  int64_t K = m < n ? m : n;
  bool wide = n >= m;
  int64_t rows = wide ? n : m, cols = wide ? m : n; /* of the column-major problem */
  size_t isz = cusci_kit_itemsize(dt);
  void *buf = a;
  if (!wide) {
    RUN(take(g, (size_t)(batch * m * n) * isz, &buf));
    RUN(transpose(g, dt, a, buf, m, n, batch, false));
  }
  /* full_matrices, and double precision, by gesvd: gesvdp, tried first,
   * left singular values near zero off by about 1e-11 |A| in float64 (a
   * half-rank 40 x 24 matrix rebuilt to 3e-11 against gesvd's 4e-14). */
  if ((uv && full) || !cusci_dtype_is_single(dt))
    return svd_gesvd(g, dt, batch, m, n, !(uv && full), uv, buf, u, s, vh);
  /* Single precision through float64 (svd_gram): column-major factors Uc
   * (rows x K), Vc (cols x K); none for the values alone. */
  void *Uc = NULL, *Vc = NULL;
  if (uv && wide)
    Uc = vh; /* vh (K x n) row-major is Uc (n x K) column-major */
  else if (uv)
    RUN(take(g, (size_t)(batch * rows * K) * isz, &Uc));
  if (uv && !wide)
    Vc = vh; /* vh (K x n) row-major is Vc (n x K) column-major, conjugated */
  else if (uv)
    RUN(take(g, (size_t)(batch * cols * K) * isz, &Vc));
  RUN(svd_gram(g, dt, batch, rows, cols, buf, uv, Uc, Vc, s));
  if (uv) {
    if (wide) {
      /* u (m x K) = conj(Vc)^T with Vc read row-major as (K x m). */
      RUN(transpose(g, dt, Vc, u, K, cols, batch, true));
    } else {
      /* u (m x K) = Uc^T read row-major as (K x m). */
      RUN(transpose(g, dt, Uc, u, K, rows, batch, false));
      RUN(conj_inplace(g, dt, vh, batch * n * K));
    }
  }
  return 0;
}

