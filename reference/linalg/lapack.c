/*
 * reference/linalg/lapack.c: the host backend of liblinalg on LAPACKE and
 * CBLAS. Each operation is written once, as a macro over the LAPACK type
 * prefix, and instantiated for s, d, c and z; the functions at the end pick
 * the instance by dtype. The matrices are row-major, so every LAPACKE call
 * passes LAPACK_ROW_MAJOR; LAPACKE transposes where LAPACK needs it.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include <cusci/core.h>
#include <cusci/kit/dtypes.h>

#include "reference/linalg/reference.h"

/* lu_factor hands LAPACK's pivots out as int32 (SciPy's dtype). */
_Static_assert(sizeof(lapack_int) == 4, "lapack_int is 32 bits");

bool cusci__ref_la_nonfinite(int dt, int64_t n, const void *x)
{
  int64_t parts = (dt == CUSCI_COMPLEX64 || dt == CUSCI_COMPLEX128) ? 2 * n : n;
  if (dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64) {
    const float *f = x;
    for (int64_t i = 0; i < parts; i++)
      if (!isfinite(f[i]))
        return true;
  } else {
    const double *d = x;
    for (int64_t i = 0; i < parts; i++)
      if (!isfinite(d[i]))
        return true;
  }
  return false;
}

/* Zero the triangle of the n x n row-major matrix a that a factor leaves
 * alone: above the diagonal when lower, else below it. */
#define ZERO_TRIANGLE(T, a, n, lower)                   \
  for (int64_t i_ = 0; i_ < (n); i_++)                  \
    for (int64_t j_ = 0; j_ < (n); j_++)                \
      if ((lower) ? j_ > i_ : j_ < i_)                  \
        (a)[i_ * (n) + j_] = 0;

/*
 * One instance per LAPACK prefix p (element T, real part R). SYEVD and HESV
 * are the Hermitian routines for complex prefixes (heevd, hesv) and the
 * symmetric ones for real prefixes; ABS and LOG are |.| and log for T and R.
 */
#define LA_DEFINE(p, T, R, SYEVD, HESV, ABS, LOG)                                                   \
  static int solve_##p(int assume, bool lower, int trans, bool unit, int64_t batch,       \
                       int64_t n, int64_t k, T *a, T *b, cusci__la_fail *fail)            \
  {                                                                                       \
    lapack_int *ipiv = malloc(sizeof *ipiv * (size_t)(n ? n : 1));                        \
    if (!ipiv)                                                                            \
      return LAPACK_WORK_MEMORY_ERROR;                                                    \
    char uplo = lower ? 'L' : 'U';                                                        \
    lapack_int info = 0;                                                                  \
    for (int64_t i = 0; i < batch && info == 0; i++) {                                    \
      T *ai = a + i * n * n, *bi = b + i * n * k;                                         \
      switch (assume) {                                                                   \
      case CUSCI__LA_POS:                                                                 \
        info = LAPACKE_##p##posv(LAPACK_ROW_MAJOR, uplo, n, k, ai, n, bi, k);             \
        break;                                                                            \
      case CUSCI__LA_TRIANGULAR:                                                          \
        info = LAPACKE_##p##trtrs(LAPACK_ROW_MAJOR, uplo, trans == 2 ? 'C' : trans ? 'T' : 'N', \
                                  unit ? 'U' : 'N', n, k, ai, n, bi, k);                  \
        break;                                                                            \
      case CUSCI__LA_FACTORED:                                                            \
        info = LAPACKE_##p##potrs(LAPACK_ROW_MAJOR, uplo, n, k, ai, n, bi, k);            \
        break;                                                                            \
      case CUSCI__LA_SYM:                                                                 \
        info = LAPACKE_##p##sysv(LAPACK_ROW_MAJOR, uplo, n, k, ai, n, ipiv, bi, k);       \
        break;                                                                            \
      case CUSCI__LA_HER:                                                                 \
        info = LAPACKE_##p##HESV(LAPACK_ROW_MAJOR, uplo, n, k, ai, n, ipiv, bi, k);       \
        break;                                                                            \
      default:                                                                            \
        if (!trans) {                                                                     \
          info = LAPACKE_##p##gesv(LAPACK_ROW_MAJOR, n, k, ai, n, ipiv, bi, k);           \
        } else {                                                                          \
          info = LAPACKE_##p##getrf(LAPACK_ROW_MAJOR, n, n, ai, n, ipiv);                 \
          if (info == 0)                                                                  \
            info = LAPACKE_##p##getrs(LAPACK_ROW_MAJOR, 'T', n, k, ai, n, ipiv, bi, k);   \
        }                                                                                 \
      }                                                                                   \
      if (info > 0)                                                                       \
        *fail = (cusci__la_fail){ i, info };                                              \
    }                                                                                     \
    free(ipiv);                                                                           \
    return info < 0 ? info : 0;                                                           \
  }                                                                                       \
                                                                                          \
  static int inv_##p(int64_t batch, int64_t n, T *a, cusci__la_fail *fail)                \
  {                                                                                       \
    lapack_int *ipiv = malloc(sizeof *ipiv * (size_t)(n ? n : 1));                        \
    if (!ipiv)                                                                            \
      return LAPACK_WORK_MEMORY_ERROR;                                                    \
    lapack_int info = 0;                                                                  \
    for (int64_t i = 0; i < batch && info == 0; i++) {                                    \
      T *ai = a + i * n * n;                                                              \
      info = LAPACKE_##p##getrf(LAPACK_ROW_MAJOR, n, n, ai, n, ipiv);                     \
      if (info == 0)                                                                      \
        info = LAPACKE_##p##getri(LAPACK_ROW_MAJOR, n, ai, n, ipiv);                      \
      if (info > 0)                                                                       \
        *fail = (cusci__la_fail){ i, info };                                              \
    }                                                                                     \
    free(ipiv);                                                                           \
    return info < 0 ? info : 0;                                                           \
  }                                                                                       \
                                                                                          \
  /* det(a) = prod(diag(U)) * (-1)^(number of row swaps), from a = P L U. */              \
  static int det_##p(int64_t batch, int64_t n, T *a, T *det)                              \
  {                                                                                       \
    lapack_int *ipiv = malloc(sizeof *ipiv * (size_t)(n ? n : 1));                        \
    if (!ipiv)                                                                            \
      return LAPACK_WORK_MEMORY_ERROR;                                                    \
    for (int64_t i = 0; i < batch; i++) {                                                 \
      T *ai = a + i * n * n;                                                              \
      lapack_int info = n ? LAPACKE_##p##getrf(LAPACK_ROW_MAJOR, n, n, ai, n, ipiv) : 0;  \
      if (info < 0) {                                                                     \
        free(ipiv);                                                                       \
        return info;                                                                      \
      }                                                                                   \
      T d = 1;                                                                            \
      for (int64_t j = 0; j < n; j++) {                                                   \
        d *= ai[j * n + j];                                                               \
        if (ipiv[j] != j + 1)                                                             \
          d = -d;                                                                         \
      }                                                                                   \
      det[i] = d;                                                                         \
    }                                                                                     \
    free(ipiv);                                                                           \
    return 0;                                                                             \
  }                                                                                       \
                                                                                          \
  /* slogdet: sign = prod(d / |d|) (-1)^(swaps), logabsdet = sum log|d|. */            \
  static int slogdet_##p(int64_t batch, int64_t n, T *a, T *sign, R *logdet)              \
  {                                                                                       \
    lapack_int *ipiv = malloc(sizeof *ipiv * (size_t)(n ? n : 1));                        \
    if (!ipiv)                                                                            \
      return LAPACK_WORK_MEMORY_ERROR;                                                    \
    for (int64_t i = 0; i < batch; i++) {                                                 \
      T *ai = a + i * n * n;                                                              \
      lapack_int info = n ? LAPACKE_##p##getrf(LAPACK_ROW_MAJOR, n, n, ai, n, ipiv) : 0;  \
      if (info < 0) {                                                                     \
        free(ipiv);                                                                       \
        return info;                                                                      \
      }                                                                                   \
      T sg = 1;                                                                           \
      R la = 0;                                                                           \
      for (int64_t j = 0; j < n; j++) {                                                   \
        R ad = ABS(ai[j * n + j]);                                                        \
        if (ad == 0) {                                                                    \
          sg = 0;                                                                         \
          la = -INFINITY;                                                                 \
          break;                                                                          \
        }                                                                                 \
        sg *= ai[j * n + j] / ad;                                                         \
        la += LOG(ad);                                                                    \
        if (ipiv[j] != j + 1)                                                             \
          sg = -sg;                                                                       \
      }                                                                                   \
      sign[i] = sg;                                                                       \
      logdet[i] = la;                                                                     \
    }                                                                                     \
    free(ipiv);                                                                           \
    return 0;                                                                             \
  }                                                                                       \
                                                                                          \
  static int lu_factor_##p(int64_t batch, int64_t n, T *a, int32_t *ipiv)                 \
  {                                                                                       \
    for (int64_t i = 0; i < batch; i++) {                                                 \
      lapack_int info = LAPACKE_##p##getrf(LAPACK_ROW_MAJOR, n, n, a + i * n * n, n,      \
                                           (lapack_int *)(ipiv + i * n));                 \
      if (info < 0)                                                                       \
        return info;                                                                      \
    }                                                                                     \
    return 0;                                                                             \
  }                                                                                       \
                                                                                          \
  static int lu_solve_##p(int trans, int64_t batch, int64_t n, int64_t k, const T *lu,    \
                          const int32_t *ipiv, T *b)                                      \
  {                                                                                       \
    char op = trans == 1 ? 'T' : trans == 2 ? 'C' : 'N';                                  \
    for (int64_t i = 0; i < batch; i++) {                                                 \
      lapack_int info = LAPACKE_##p##getrs(LAPACK_ROW_MAJOR, op, n, k, lu + i * n * n, n, \
                                           (const lapack_int *)(ipiv + i * n),            \
                                           b + i * n * k, k);                             \
      if (info < 0)                                                                       \
        return info;                                                                      \
    }                                                                                     \
    return 0;                                                                             \
  }                                                                                       \
                                                                                          \
  static int cholesky_##p(int64_t batch, int64_t n, bool lower, T *a, cusci__la_fail *fail) \
  {                                                                                       \
    for (int64_t i = 0; i < batch; i++) {                                                 \
      T *ai = a + i * n * n;                                                              \
      lapack_int info = LAPACKE_##p##potrf(LAPACK_ROW_MAJOR, lower ? 'L' : 'U', n, ai, n); \
      if (info < 0)                                                                       \
        return info;                                                                      \
      if (info > 0) {                                                                     \
        *fail = (cusci__la_fail){ i, info };                                              \
        return 0;                                                                         \
      }                                                                                   \
      ZERO_TRIANGLE(T, ai, n, lower)                                                      \
    }                                                                                     \
    return 0;                                                                             \
  }                                                                                       \
                                                                                          \
  static int svd_##p(int64_t batch, int64_t m, int64_t n, bool full, bool uv, T *a, T *u, \
                     R *s, T *vh, cusci__la_fail *fail)                                   \
  {                                                                                       \
    int64_t K = m < n ? m : n;                                                            \
    int64_t ucols = full ? m : K, vrows = full ? n : K;                                   \
    char jobz = !uv ? 'N' : full ? 'A' : 'S';                                             \
    T dummy[1];                                                                           \
    for (int64_t i = 0; i < batch; i++) {                                                 \
      T *ui = uv ? u + i * m * ucols : dummy, *vi = uv ? vh + i * vrows * n : dummy;      \
      lapack_int info = LAPACKE_##p##gesdd(LAPACK_ROW_MAJOR, jobz, m, n, a + i * m * n,   \
                                           n, s + i * K, ui, ucols, vi, n);               \
      if (info < 0)                                                                       \
        return info;                                                                      \
      if (info > 0) {                                                                     \
        *fail = (cusci__la_fail){ i, info };                                              \
        return 0;                                                                         \
      }                                                                                   \
    }                                                                                     \
    return 0;                                                                             \
  }                                                                                       \
                                                                                          \
  static int eigh_##p(int64_t batch, int64_t n, bool upper, bool vectors, T *a, R *w,     \
                      cusci__la_fail *fail)                                               \
  {                                                                                       \
    for (int64_t i = 0; i < batch; i++) {                                                 \
      lapack_int info = LAPACKE_##p##SYEVD(LAPACK_ROW_MAJOR, vectors ? 'V' : 'N',         \
                                           upper ? 'U' : 'L', n, a + i * n * n, n ? n : 1, \
                                           w + i * n);                                    \
      if (info < 0)                                                                       \
        return info;                                                                      \
      if (info > 0) {                                                                     \
        *fail = (cusci__la_fail){ i, info };                                              \
        return 0;                                                                         \
      }                                                                                   \
    }                                                                                     \
    return 0;                                                                             \
  }

LA_DEFINE(s, float, float, syevd, sysv, fabsf, logf)
LA_DEFINE(d, double, double, syevd, sysv, fabs, log)
LA_DEFINE(c, cusci_cfloat, float, heevd, hesv, cabsf, logf)
LA_DEFINE(z, cusci_cdouble, double, heevd, hesv, cabs, log)

int cusci__ref_la_solve(int dt, int assume, bool lower, int trans, bool unit, int64_t batch, int64_t n, int64_t k, void *a, void *b, cusci__la_fail *fail)
{
  if (assume >= CUSCI__LA_DIAGONAL)
    return cusci__ref_la_solve_structured(dt, assume, trans, batch, n, k, a, b, fail);
  CUSCI_DISPATCH_SDCZ(dt, -1, solve, assume, lower, trans, unit, batch, n, k, a, b, fail)
}

int cusci__ref_la_inv(int dt, int64_t batch, int64_t n, void *a, cusci__la_fail *fail)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, inv, batch, n, a, fail)
}

int cusci__ref_la_det(int dt, int64_t batch, int64_t n, void *a, void *det)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, det, batch, n, a, det)
}

int cusci__ref_la_slogdet(int dt, int64_t batch, int64_t n, void *a, void *sign, void *logdet)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, slogdet, batch, n, a, sign, logdet)
}

int cusci__ref_la_lu_factor(int dt, int64_t batch, int64_t n, void *a, int32_t *ipiv)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, lu_factor, batch, n, a, ipiv)
}

int cusci__ref_la_lu_solve(int dt, int trans, int64_t batch, int64_t n, int64_t k, const void *lu, const int32_t *ipiv, void *b)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, lu_solve, trans, batch, n, k, lu, ipiv, b)
}

int cusci__ref_la_cholesky(int dt, int64_t batch, int64_t n, bool lower, void *a, cusci__la_fail *fail)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, cholesky, batch, n, lower, a, fail)
}

int cusci__ref_la_svd(int dt, int64_t batch, int64_t m, int64_t n, bool full, bool uv, void *a, void *u, void *s, void *vh, cusci__la_fail *fail)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, svd, batch, m, n, full, uv, a, u, s, vh, fail)
}

int cusci__ref_la_eigh(int dt, int64_t batch, int64_t n, bool upper, bool vectors, void *a, void *w, cusci__la_fail *fail)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, eigh, batch, n, upper, vectors, a, w, fail)
}

/* C = A B through CBLAS gemm, one call per matrix of the batch. */
int cusci__ref_la_gemm(int dt, int64_t batch, int64_t m, int64_t n, int64_t k, const void *a, int64_t sa, const void *b, int64_t sb, void *c)
{
  size_t isz = dt == CUSCI_FLOAT32 ? 4 : dt == CUSCI_COMPLEX128 ? 16 : 8;
  const char *pa = a, *pb = b;
  char *pc = c;
  int lda = k ? (int)k : 1, ldb = n ? (int)n : 1, ldc = n ? (int)n : 1;
  for (int64_t i = 0; i < batch; i++) {
    const void *ai = pa + (size_t)(i * sa) * isz, *bi = pb + (size_t)(i * sb) * isz;
    void *ci = pc + (size_t)(i * m * n) * isz;
    if (k == 0) {
      memset(ci, 0, (size_t)(m * n) * isz);
      continue;
    }
    switch (dt) {
    case CUSCI_FLOAT32:
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, ai, lda, bi, ldb, 0.0f, ci, ldc);
      break;
    case CUSCI_FLOAT64:
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, ai, lda, bi, ldb, 0.0, ci, ldc);
      break;
    case CUSCI_COMPLEX64: {
      const cusci_cfloat one = 1, zero = 0;
      cblas_cgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, ai, lda, bi, ldb, &zero, ci, ldc);
      break;
    }
    case CUSCI_COMPLEX128: {
      const cusci_cdouble one = 1, zero = 0;
      cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, ai, lda, bi, ldb, &zero, ci, ldc);
      break;
    }
    default:
      return -1;
    }
  }
  return 0;
}
