/*
 * kernels/linalg/lu.cu: the LU family on cuSOLVER: solve (with its
 * triangular, symmetric, Hermitian and positive definite kinds), inv,
 * det, slogdet, lu_factor and lu_solve.
 *
 * The arrays are row-major and cuSOLVER column-major, so a row-major A is
 * read by it as A^T. Each operation uses that instead of moving data where
 * it can:
 *  - inv: inv(A^T) = inv(A)^T, so the column-major inverse of the buffer is
 *    the row-major inverse of A;
 *  - det: det(A^T) = det(A);
 *  - solve: getrf of A^T, then getrs with the transposed operator solves
 *    A x = b; b and x are transposed (only when b has several columns);
 *  - Hermitian A (solve with pos): A^T = conj(A), whose factor read
 *    row-major is the one asked for (see solve).
 * Matrices of n <= 32 go to the small-matrix kernels (small.cu).
 */
#include "kernels/linalg/common.cuh"

using namespace cusci_la;

namespace {

/* An exactly zero pivot (abs1_ is LAPACK's pivot size). */
template <typename T> __device__ inline bool is_zero_(T a) { return abs1_(a) == 0; }


/* det = prod(diag(U)) * (-1)^(row swaps) from getrf's factors; one thread
 * per matrix. */
template <typename T>
__global__ void det_kernel(const T *lu, const int64_t *ipiv, T *det, int64_t n, int64_t batch)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < batch; b += stride) {
    const T *m = lu + b * n * n;
    const int64_t *p = ipiv + b * n;
    T d = one_<T>();
    for (int64_t j = 0; j < n; j++) {
      d = mul_(d, m[j * n + j]);
      if (p[j] != j + 1)
        d = neg_(d);
    }
    det[b] = d;
  }
}

/* slogdet from getrf's factors: sign = prod(d / |d|) * (-1)^(row swaps),
 * logabsdet = sum(log |d|) over the diagonal d of U; sign 0 and -inf for a
 * zero pivot. One thread per matrix. */
template <typename T, typename R>
__global__ void slogdet_kernel(const T *lu, const int64_t *ipiv, T *sign, R *logdet, int64_t n, int64_t batch)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < batch; b += stride) {
    const T *m = lu + b * n * n;
    const int64_t *p = ipiv + b * n;
    T sg = one_<T>();
    R la = 0;
    for (int64_t j = 0; j < n; j++) {
      T d = m[j * n + j];
      R ad = abs_(d);
      if (ad == 0) {
        sg = zero_<T>();
        la = -INFINITY;
        break;
      }
      sg = mul_(sg, scale_(d, (R)1 / ad));
      la += log(ad);
      if (p[j] != j + 1)
        sg = neg_(sg);
    }
    sign[b] = sg;
    logdet[b] = la;
  }
}

/* det (logdet NULL: into sign) or slogdet from getrf's factors. */
struct pivots_op {
  cusci__la_gpu *g;
  const void *lu;
  const int64_t *ipiv;
  void *sign, *logdet;
  int64_t n, batch;
  template <typename T>
  int run()
  {
    if (batch == 0)
      return 0;
    typedef typename real_t<T>::type R;
    if (logdet)
      LAUNCH(slogdet_kernel<T, R><<<blocks_for(batch, 128), 128, 0, stream_of(g)>>>((const T *)lu, ipiv, (T *)sign, (R *)logdet, n, batch));
    else
      LAUNCH(det_kernel<T><<<blocks_for(batch, 128), 128, 0, stream_of(g)>>>((const T *)lu, ipiv, (T *)sign, n, batch));
    return 0;
  }
};

/* info[b] = the first exactly zero diagonal element (1-based), or 0. */
template <typename T>
__global__ void zero_diag_kernel(const T *a, int64_t n, int64_t batch, int *info)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < batch; b += stride) {
    int first = 0;
    for (int64_t j = n - 1; j >= 0; j--)
      if (is_zero_(a[b * n * n + j * n + j]))
        first = (int)j + 1;
    info[b] = first;
  }
}

/* cuBLAS trsm per element type (it has no generic-type trsm). */
cublasStatus_t trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag, int m, int n, const float *a,
                    float *b)
{
  const float one = 1;
  return cublasStrsm(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, &one, a, m, b, m);
}
cublasStatus_t trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag, int m, int n, const double *a,
                    double *b)
{
  const double one = 1;
  return cublasDtrsm(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, &one, a, m, b, m);
}
cublasStatus_t trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag, int m, int n, const float2 *a,
                    float2 *b)
{
  const cuComplex one = make_cuComplex(1, 0);
  return cublasCtrsm(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, &one, a, m, b, m);
}
cublasStatus_t trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag, int m, int n, const double2 *a,
                    double2 *b)
{
  const cuDoubleComplex one = make_cuDoubleComplex(1, 0);
  return cublasZtrsm(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, &one, a, m, b, m);
}

struct triangular_op {
  cusci__la_gpu *g;
  cublasFillMode_t uplo;
  cublasOperation_t op;
  cublasDiagType_t diag;
  bool check_diag;
  int64_t n, k, batch;
  const void *a;
  void *bc;
  int *info;
  template <typename T>
  int run()
  {
    if (check_diag)
      LAUNCH(zero_diag_kernel<T><<<blocks_for(batch, 128), 128, 0, stream_of(g)>>>((const T *)a, n, batch, info));
    BLAS_TRY(cublasSetPointerMode(blas_of(g), CUBLAS_POINTER_MODE_HOST));
    for (int64_t i = 0; i < batch; i++)
      BLAS_TRY(trsm(blas_of(g), uplo, op, diag, (int)n, (int)k, (const T *)a + i * n * n, (T *)bc + i * n * k));
    return 0;
  }
};

/*
 * solve_triangular. The buffer is A^T, triangular the other way (row-major
 * lower is column-major upper). trsm with op = T solves (A^T)^T x = b;
 * op = N solves A^T x = b; A^H x = b is A^T conj(x) = conj(b), so b and x
 * are conjugated in their transposes. A zero diagonal element is found by
 * a kernel first (trsm does not look), unless the diagonal is unit.
 */
int triangular(cusci__la_gpu *g, int dt, bool lower, int trans, bool unit, int64_t batch, int64_t n, int64_t k, void *a, void *b)
{
  bool cj = trans == 2 && cusci_dtype_is_complex(dt);
  void *bc;
  RUN(take(g, (size_t)(batch * n * k) * cusci_kit_itemsize(dt), &bc));
  RUN(transpose(g, dt, b, bc, n, k, batch, cj));
  triangular_op op{ g, lower ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER, trans == 0 ? CUBLAS_OP_T : CUBLAS_OP_N,
                    unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, !unit, n, k, batch, a, bc, g->info };
  RUN(cusci::by_sdcz(dt, op));
  RUN(transpose(g, dt, bc, b, k, n, batch, cj));
  return 0;
}

} // namespace

/*
 * solve. General: the buffer is A^T; getrf factors it and getrs with
 * op = T solves (A^T)^T x = b (op = N for `trans`). Symmetric and
 * Hermitian matrices are first completed from the triangle SciPy reads.
 * Positive definite: the buffer is conj(A) (A Hermitian), so potrf and
 * potrs on conj(b) give conj(x); the transposes of b and x conjugate too.
 * A factor from cholesky, read column-major, is what potrf leaves in that
 * buffer (see cholesky), so cho_solve is the same path without potrf.
 * The triangle: row-major lower is column-major upper.
 */
extern "C" int cusci__launch_la_solve(cusci__la_gpu *g, int dt, int assume, bool lower, int trans, bool unit, bool check_finite, int64_t batch, int64_t n, int64_t k, void *a, const void *bin, void *b)
{
  bool pos = assume == CUSCI__LA_POS || assume == CUSCI__LA_FACTORED;
  /* Small general, banded (dense in memory), symmetric and Hermitian
   * matrices: one per thread (n <= 8) or per warp (small.cu), in
   * registers, which write every info word and the first failure
   * themselves. */
  const bool small = cusci__la_small_solve(assume, n);
  /* The small kernels check a and b as they load them (general a only: a
   * symmetric one is checked whole before its triangle is mirrored). */
  const bool fused = small && cusci__la_small_reads_a(assume);
  if (check_finite && !fused) {
    RUN(flag_nonfinite(g, dt, batch * n * n, a));
    RUN(flag_nonfinite(g, dt, batch * n * k, bin));
  }
  if (small) {
    /* x goes from bin to b. */
    if (assume == CUSCI__LA_SYM || assume == CUSCI__LA_HER)
      RUN(triangle(g, dt, a, n, batch, lower ? MIRROR_LOWER : MIRROR_UPPER, assume == CUSCI__LA_HER));
    int *flag = fused && check_finite ? g->flag : NULL;
    return small_run(g, dt, CUSCI__LA_SMALL_SOLVE, trans != 0, batch, n, k, a, bin, b, NULL, g->info, g->first, flag, g->post);
  }
  /* The other paths solve in place. */
  size_t isz = cusci_kit_itemsize(dt);
  if (bin != b && batch * n * k > 0)
    CUDA_TRY(cudaMemcpyAsync(b, bin, (size_t)(batch * n * k) * isz, cudaMemcpyDeviceToDevice, stream_of(g)));
  cudaDataType t = cuda_type(dt);
  if (assume == CUSCI__LA_TRIANGULAR)
    return triangular(g, dt, lower, trans, unit, batch, n, k, a, b);
  /* solve's structured kinds: diagonal and tridiagonal by the banded LU
   * kernel (kernels/linalg/solvers.cu); banded a is dense in memory
   * already, so it takes the general path. */
  if (assume == CUSCI__LA_DIAGONAL || assume == CUSCI__LA_TRIDIAGONAL) {
    int64_t w = assume == CUSCI__LA_DIAGONAL ? 0 : 1;
    return band_queue(g, dt, CUSCI__LA_GEN, trans ? 1 : 0, batch, n, k, w, w, false, a, b, g->info);
  }
  if (assume == CUSCI__LA_BANDED)
    assume = CUSCI__LA_GEN;
  /* b in column-major order: a transpose unless it is one column. */
  void *bc = b;
  if (k > 1 || (pos && cusci_dtype_is_complex(dt))) {
    RUN(take(g, (size_t)(batch * n * k) * isz, &bc));
    RUN(transpose(g, dt, b, bc, n, k, batch, pos));
  }
  void *rinfo; /* getrs/potrs report only argument errors: kept apart */
  RUN(take(g, sizeof(int), &rinfo));
  if (pos) {
    cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    if (assume == CUSCI__LA_POS) /* FACTORED: a is the factor already */
      RUN(potrf_batch(g, dt, batch, n, uplo, a, g->info));
    for (int64_t i = 0; i < batch; i++)
      SOLVER_TRY(cusolverDnXpotrs(solver_of(g), params_of(g), uplo, n, k, t, (char *)a + (size_t)(i * n * n) * isz, n, t,
                                  (char *)bc + (size_t)(i * n * k) * isz, n, (int *)rinfo));
  } else {
    if (assume == CUSCI__LA_SYM || assume == CUSCI__LA_HER)
      RUN(triangle(g, dt, a, n, batch, lower ? MIRROR_LOWER : MIRROR_UPPER, assume == CUSCI__LA_HER));
    void *ipiv;
    RUN(take(g, sizeof(int64_t) * (size_t)(batch * n), &ipiv));
    RUN(getrf_batch(g, dt, batch, n, a, (int64_t *)ipiv, g->info));
    for (int64_t i = 0; i < batch; i++)
      SOLVER_TRY(cusolverDnXgetrs(solver_of(g), params_of(g), trans ? CUBLAS_OP_N : CUBLAS_OP_T, n, k, t,
                                  (char *)a + (size_t)(i * n * n) * isz, n, (int64_t *)ipiv + i * n, t,
                                  (char *)bc + (size_t)(i * n * k) * isz, n, (int *)rinfo));
  }
  if (bc != b)
    RUN(transpose(g, dt, bc, b, k, n, batch, pos));
  return 0;
}

/*
 * inv: the buffer is A^T and inv(A^T) = inv(A)^T, so solving the buffer's
 * system against the identity (getrs, op = N) leaves, column-major,
 * inv(A)^T: row-major, inv(A).
 */
extern "C" int cusci__launch_la_inv(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *out)
{
  /* The small kernels (n <= 32) check a as they load it, and write every
   * info word and the first failure themselves. */
  const bool small = n <= CUSCI__LA_SMALL_MAX;
  if (check_finite && !small)
    RUN(flag_nonfinite(g, dt, batch * n * n, a));
  if (small) {
    int *flag = check_finite ? g->flag : NULL;
    return small_run(g, dt, CUSCI__LA_SMALL_INV, false, batch, n, 0, a, NULL, NULL, out, g->info, g->first, flag, g->post);
  }
  size_t isz = cusci_kit_itemsize(dt);
  cudaDataType t = cuda_type(dt);
  void *ipiv, *rinfo;
  RUN(take(g, sizeof(int64_t) * (size_t)(batch * n), &ipiv));
  RUN(take(g, sizeof(int), &rinfo));
  RUN(getrf_batch(g, dt, batch, n, a, (int64_t *)ipiv, g->info));
  RUN(eye(g, dt, out, n, batch));
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXgetrs(solver_of(g), params_of(g), CUBLAS_OP_N, n, n, t, (char *)a + (size_t)(i * n * n) * isz, n,
                                (int64_t *)ipiv + i * n, t, (char *)out + (size_t)(i * n * n) * isz, n, (int *)rinfo));
  return 0;
}

/* det(A) = det(A^T): getrf of the buffer, then the diagonal's product. */
extern "C" int cusci__launch_la_det(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *det)
{
  /* The small kernels (n <= 32) check a as they load it; det reads no
   * info words. */
  const bool small = n <= CUSCI__LA_SMALL_MAX;
  if (check_finite && !small)
    RUN(flag_nonfinite(g, dt, batch * n * n, a));
  if (small) {
    int *flag = check_finite ? g->flag : NULL;
    return small_run(g, dt, CUSCI__LA_SMALL_DET, false, batch, n, 0, a, NULL, NULL, det, NULL, NULL, flag, g->post);
  }
  void *ipiv;
  RUN(take(g, sizeof(int64_t) * (size_t)(batch * n), &ipiv));
  RUN(getrf_batch(g, dt, batch, n, a, (int64_t *)ipiv, g->info));
  pivots_op d{ g, a, (const int64_t *)ipiv, det, NULL, n, batch };
  RUN(cusci::by_sdcz(dt, d));
  /* A zero pivot is no failure here: the determinant is 0. */
  return 0;
}

/* slogdet: getrf of the buffer (det(A^T) = det(A)), then the diagonal's
 * signs and log magnitudes. */
extern "C" int cusci__launch_la_slogdet(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *sign, void *logdet)
{
  const bool small = n <= CUSCI__LA_SMALL_MAX;
  if (small) {
    /* The register kernel of small.cu, for every n it takes; it checks a
     * as it loads it. */
    return small_run(g, dt, CUSCI__LA_SMALL_SLOGDET, false, batch, n, 0, a, NULL, logdet, sign, NULL, NULL, check_finite ? g->flag : NULL,
                     g->post);
  }
  if (check_finite)
    RUN(flag_nonfinite(g, dt, batch * n * n, a));
  void *ipiv;
  RUN(take(g, sizeof(int64_t) * (size_t)(batch * n), &ipiv));
  RUN(getrf_batch(g, dt, batch, n, a, (int64_t *)ipiv, g->info));
  pivots_op op{ g, a, (const int64_t *)ipiv, sign, logdet, n, batch };
  RUN(cusci::by_sdcz(dt, op));
  /* A zero pivot is no failure: sign 0, logabsdet -inf. */
  return 0;
}

/*
 * lu_factor: the factors of A itself (SciPy's), not of the A^T that the
 * row-major buffer is to cuSOLVER: A is transposed into column-major order,
 * factored by getrf, and transposed back. ipiv: n per matrix, 1-based.
 */
extern "C" int cusci__launch_la_lu_factor(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, void *a, int64_t *ipiv)
{
  if (check_finite)
    RUN(flag_nonfinite(g, dt, batch * n * n, a));
  void *buf;
  RUN(take(g, (size_t)(batch * n * n) * cusci_kit_itemsize(dt), &buf));
  RUN(transpose(g, dt, a, buf, n, n, batch, false));
  RUN(getrf_batch(g, dt, batch, n, buf, ipiv, g->info));
  RUN(transpose(g, dt, buf, a, n, n, batch, false));
  /* A zero pivot is no failure here (SciPy only warns). */
  return 0;
}

/*
 * lu_solve: op(A) x = b from lu_factor's factors of A (row-major), which
 * are transposed into column-major order for getrs; b and x are transposed
 * as in solve. trans: 0 A, 1 A^T, 2 A^H.
 */
extern "C" int cusci__launch_la_lu_solve(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, int64_t k, int trans, const void *lu, const int64_t *ipiv, void *b)
{
  if (check_finite) {
    RUN(flag_nonfinite(g, dt, batch * n * n, lu));
    RUN(flag_nonfinite(g, dt, batch * n * k, b));
  }
  size_t isz = cusci_kit_itemsize(dt);
  cudaDataType t = cuda_type(dt);
  void *lc, *bc, *rinfo;
  RUN(take(g, (size_t)(batch * n * n) * isz, &lc));
  RUN(take(g, (size_t)(batch * n * k) * isz, &bc));
  RUN(take(g, sizeof(int), &rinfo));
  RUN(transpose(g, dt, lu, lc, n, n, batch, false));
  RUN(transpose(g, dt, b, bc, n, k, batch, false));
  cublasOperation_t op = trans == 1 ? CUBLAS_OP_T : trans == 2 ? CUBLAS_OP_C : CUBLAS_OP_N;
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXgetrs(solver_of(g), params_of(g), op, n, k, t, (char *)lc + (size_t)(i * n * n) * isz, n, ipiv + i * n, t,
                                (char *)bc + (size_t)(i * n * k) * isz, n, (int *)rinfo));
  RUN(transpose(g, dt, bc, b, k, n, batch, false));
  return 0;
}

