/*
 * reference/linalg/qr.c: the host backend of qr and lstsq on LAPACKE.
 * Row-major matrices as in reference/linalg/lapack.c; one instance per
 * LAPACK prefix (s, d, c, z), picked by dtype at the end.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include <cusci/core.h>
#include <cusci/kit/dtypes.h>

#include "reference/linalg/qr.h"

/*
 * qr: A P = Q R by LAPACK's geqrf (geqp3 when jpvt is not NULL, which then
 * receives the 0-based column permutation), R copied out of the factored
 * matrix with zeros below the diagonal (rrows rows), Q formed by orgqr /
 * ungqr with qcols columns (0: no Q). The Householder reflectors of geqrf
 * leave R's diagonal with the signs LAPACK chooses, as scipy.linalg.qr.
 *
 * lstsq: min |A x - B| by gelsd, gelss (SVD) or gelsy (complete orthogonal
 * factorization), driver 0, 1, 2; A (m x n) is destroyed, B (mx x k) with
 * mx = max(m, n) holds b in its first m rows and x in its first n rows on
 * return, and, for gelsd and gelss with rank n < m, the residual's
 * components in rows n..m-1 (as SciPy reads them). s (min(m, n)) receives
 * the singular values (not for gelsy), *rank the effective rank.
 */
#define QR_DEFINE(p, T, R, ORGQR)                                                             \
  static int qr_##p(int64_t batch, int64_t m, int64_t n, int64_t rrows, int64_t qcols, T *a, T *q, \
                    T *r, int32_t *jpvt)                                                           \
  {                                                                                                \
    int64_t K = m < n ? m : n;                                                                     \
    T *tau = malloc(sizeof *tau * (size_t)(K ? K : 1));                                            \
    lapack_int *piv = malloc(sizeof *piv * (size_t)(n ? n : 1));                                   \
    if (!tau || !piv) {                                                                            \
      free(tau);                                                                                   \
      free(piv);                                                                                   \
      return LAPACK_WORK_MEMORY_ERROR;                                                             \
    }                                                                                              \
    lapack_int info = 0;                                                                           \
    for (int64_t b = 0; b < batch && info == 0; b++) {                                             \
      T *ab = a + b * m * n;                                                                       \
      if (jpvt) {                                                                                  \
        memset(piv, 0, sizeof *piv * (size_t)(n ? n : 1));                                         \
        info = LAPACKE_##p##geqp3(LAPACK_ROW_MAJOR, m, n, ab, n ? n : 1, piv, tau);                \
        for (int64_t j = 0; j < n; j++)                                                            \
          jpvt[b * n + j] = (int32_t)(piv[j] - 1);                                                 \
      } else {                                                                                     \
        info = LAPACKE_##p##geqrf(LAPACK_ROW_MAJOR, m, n, ab, n ? n : 1, tau);                     \
      }                                                                                            \
      if (info != 0)                                                                               \
        break;                                                                                     \
      T *rb = r + b * rrows * n;                                                                   \
      for (int64_t i = 0; i < rrows; i++)                                                          \
        for (int64_t j = 0; j < n; j++)                                                            \
          rb[i * n + j] = j >= i ? ab[i * n + j] : 0;                                              \
      if (qcols > 0) {                                                                             \
        T *qb = q + b * m * qcols;                                                                 \
        for (int64_t i = 0; i < m; i++)                                                            \
          for (int64_t j = 0; j < qcols; j++)                                                      \
            qb[i * qcols + j] = j < n ? ab[i * n + j] : 0;                                         \
        info = LAPACKE_##p##ORGQR(LAPACK_ROW_MAJOR, m, qcols, K, qb, qcols, tau);                  \
      }                                                                                            \
    }                                                                                              \
    free(tau);                                                                                     \
    free(piv);                                                                                     \
    return info < 0 ? info : 0;                                                                    \
  }                                                                                                \
                                                                                                   \
  static int lstsq_##p(int driver, double cond, int64_t m, int64_t n, int64_t k, T *a, T *b, R *s, \
                       int64_t *rank, cusci__la_fail *fail)                                        \
  {                                                                                                \
    lapack_int rk = 0, info;                                                                       \
    R rcond = (R)cond;                                                                             \
    if (driver == 2) {                                                                             \
      lapack_int *jp = calloc((size_t)(n ? n : 1), sizeof *jp);                                    \
      if (!jp)                                                                                     \
        return LAPACK_WORK_MEMORY_ERROR;                                                           \
      info = LAPACKE_##p##gelsy(LAPACK_ROW_MAJOR, m, n, k, a, n ? n : 1, b, k ? k : 1, jp, rcond,  \
                                &rk);                                                              \
      free(jp);                                                                                    \
    } else if (driver == 1) {                                                                      \
      info = LAPACKE_##p##gelss(LAPACK_ROW_MAJOR, m, n, k, a, n ? n : 1, b, k ? k : 1, s, rcond,   \
                                &rk);                                                              \
    } else {                                                                                       \
      info = LAPACKE_##p##gelsd(LAPACK_ROW_MAJOR, m, n, k, a, n ? n : 1, b, k ? k : 1, s, rcond,   \
                                &rk);                                                              \
    }                                                                                              \
    *rank = rk;                                                                                    \
    if (info > 0) {                                                                                \
      *fail = (cusci__la_fail){ 0, info };                                                         \
      return 0;                                                                                    \
    }                                                                                              \
    return info;                                                                                   \
  }

QR_DEFINE(s, float, float, orgqr)
QR_DEFINE(d, double, double, orgqr)
QR_DEFINE(c, cusci_cfloat, float, ungqr)
QR_DEFINE(z, cusci_cdouble, double, ungqr)

int cusci__ref_la_qr(int dt, int64_t batch, int64_t m, int64_t n, int64_t rrows, int64_t qcols, void *a, void *q, void *r, int32_t *jpvt)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, qr, batch, m, n, rrows, qcols, a, q, r, jpvt)
}

int cusci__ref_la_lstsq(int dt, int driver, double cond, int64_t m, int64_t n, int64_t k, void *a, void *b, void *s, int64_t *rank, cusci__la_fail *fail)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, lstsq, driver, cond, m, n, k, a, b, s, rank, fail)
}
