/*
 * reference/linalg/solvers.c: the host backend of liblinalg's structured
 * solvers: diagonal, tridiagonal (LAPACKE gtsv), banded (gbsv), Hermitian
 * positive definite banded (pbsv), Toeplitz (Levinson-Durbin recursion)
 * and the plain DFT that solve_circulant uses. The band routines are called
 * with LAPACK_COL_MAJOR on column-major copies, which is what LAPACK's band
 * storage is; SciPy's ab (rows, n) row-major is that storage transposed.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include <cusci/core.h>
#include <cusci/kit/dtypes.h>

#include "reference/linalg/reference.h"

#define NOMEM (-1010) /* LAPACK_WORK_MEMORY_ERROR: what the API layer reads as no memory */

/* b (n, k) row-major <-> bc (n, k) column-major. */
#define TO_COLS(T, b, bc, n, k)                  \
  for (int64_t i_ = 0; i_ < (n); i_++)           \
    for (int64_t j_ = 0; j_ < (k); j_++)         \
      (bc)[j_ * (n) + i_] = (b)[i_ * (k) + j_];
#define FROM_COLS(T, b, bc, n, k)                \
  for (int64_t i_ = 0; i_ < (n); i_++)           \
    for (int64_t j_ = 0; j_ < (k); j_++)         \
      (b)[i_ * (k) + j_] = (bc)[j_ * (n) + i_];

/*
 * One instance per LAPACK prefix p (element T). The dense a is read as
 * A(i, j) = a[i n + j], or a[j n + i] when trans.
 */
#define SOLVERS_DEFINE(p, T)                                                                        \
  /* gbsv of the band (l, u) of A given by get(i, j); gtsv when l = u = 1. */                             \
  static int band_##p(int64_t n, int64_t k, int64_t l, int64_t u, const T *src, int mode, T *b, int64_t *info) \
  {                                                                                                       \
    /* mode 0: dense a; 1: dense a^T; 2: SciPy's ab (l + u + 1, n). */                                    \
    T *bc = malloc(sizeof *bc * (size_t)(n * k));                                                         \
    if (!bc)                                                                                              \
      return NOMEM;                                                                                       \
    TO_COLS(T, b, bc, n, k)                                                                               \
    int r = 0;                                                                                            \
    if (l == 1 && u == 1 && n > 1) {                                                                      \
      T *d = malloc(sizeof *d * (size_t)(3 * n));                                                         \
      if (!d) {                                                                                           \
        free(bc);                                                                                         \
        return NOMEM;                                                                                     \
      }                                                                                                   \
      T *dl = d + n, *du = d + 2 * n;                                                                     \
      for (int64_t i = 0; i < n; i++) {                                                                   \
        d[i] = mode == 2 ? src[n + i] : src[i * n + i];                                                   \
        if (i + 1 < n) {                                                                                  \
          T lo = mode == 2 ? src[2 * n + i] : mode == 1 ? src[i * n + i + 1] : src[(i + 1) * n + i];      \
          T up = mode == 2 ? src[i + 1] : mode == 1 ? src[(i + 1) * n + i] : src[i * n + i + 1];          \
          dl[i] = lo;                                                                                     \
          du[i] = up;                                                                                     \
        }                                                                                                 \
      }                                                                                                   \
      r = LAPACKE_##p##gtsv(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)k, dl, d, du, bc, (lapack_int)n); \
      free(d);                                                                                            \
    } else {                                                                                              \
      int64_t ld = 2 * l + u + 1;                                                                         \
      T *ab = calloc((size_t)(ld * n), sizeof *ab);                                                       \
      lapack_int *piv = malloc(sizeof *piv * (size_t)n);                                                  \
      if (!ab || !piv) {                                                                                  \
        free(ab);                                                                                         \
        free(piv);                                                                                        \
        free(bc);                                                                                         \
        return NOMEM;                                                                                     \
      }                                                                                                   \
      /* LAPACK: AB(l + u + i - j, j) = A(i, j), 0-based. */                                              \
      for (int64_t j = 0; j < n; j++)                                                                     \
        for (int64_t i = j - u < 0 ? 0 : j - u; i <= j + l && i < n; i++)                                 \
          ab[j * ld + l + u + i - j] = mode == 2 ? src[(u + i - j) * n + j] : mode == 1 ? src[j * n + i] : src[i * n + j]; \
      r = LAPACKE_##p##gbsv(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)l, (lapack_int)u, (lapack_int)k, ab, (lapack_int)ld, piv, \
                            bc, (lapack_int)n);                                                           \
      free(ab);                                                                                           \
      free(piv);                                                                                          \
    }                                                                                                     \
    if (r > 0)                                                                                            \
      *info = r;                                                                                          \
    else if (r == 0)                                                                                      \
      FROM_COLS(T, b, bc, n, k)                                                                           \
    free(bc);                                                                                             \
    return r < 0 ? r : 0;                                                                                 \
  }                                                                                                       \
                                                                                                          \
  static int structured_##p(int assume, int trans, int64_t batch, int64_t n, int64_t k, const T *a, T *b, cusci__la_fail *fail) \
  {                                                                                                       \
    int64_t l = assume == CUSCI__LA_DIAGONAL ? 0 : 1, u = l;                                              \
    if (assume == CUSCI__LA_BANDED) {                                                                     \
      /* The band of nonzeros of the whole batch (SciPy's bandwidth). */                                  \
      l = u = 0;                                                                                          \
      for (int64_t t = 0; t < batch; t++)                                                                 \
        for (int64_t i = 0; i < n; i++)                                                                   \
          for (int64_t j = 0; j < n; j++)                                                                 \
            if (a[(t * n + i) * n + j] != 0) {                                                            \
              if (i - j > l)                                                                              \
                l = i - j;                                                                                \
              if (j - i > u)                                                                              \
                u = j - i;                                                                                \
            }                                                                                             \
      if (trans) {                                                                                        \
        int64_t x = l;                                                                                    \
        l = u;                                                                                            \
        u = x;                                                                                            \
      }                                                                                                   \
    }                                                                                                     \
    for (int64_t t = 0; t < batch; t++) {                                                                 \
      const T *at = a + t * n * n;                                                                        \
      T *bt = b + t * n * k;                                                                              \
      int64_t info = 0;                                                                                   \
      if (l == 0 && u == 0) {                                                                             \
        for (int64_t i = 0; i < n && !info; i++)                                                          \
          if (at[i * n + i] == 0)                                                                         \
            info = i + 1;                                                                                 \
        for (int64_t i = 0; i < n && !info; i++)                                                          \
          for (int64_t j = 0; j < k; j++)                                                                 \
            bt[i * k + j] /= at[i * n + i];                                                               \
      } else {                                                                                            \
        int r = band_##p(n, k, l, u, at, trans ? 1 : 0, bt, &info);                                       \
        if (r < 0)                                                                                        \
          return r;                                                                                       \
      }                                                                                                   \
      if (info) {                                                                                         \
        *fail = (cusci__la_fail){ t, info };                                                              \
        return 0;                                                                                         \
      }                                                                                                   \
    }                                                                                                     \
    return 0;                                                                                             \
  }                                                                                                       \
                                                                                                          \
  static int gbsv_##p(int64_t batch, int64_t n, int64_t k, int64_t l, int64_t u, const T *ab, T *b, cusci__la_fail *fail) \
  {                                                                                                       \
    for (int64_t t = 0; t < batch; t++) {                                                                 \
      const T *at = ab + t * (l + u + 1) * n;                                                             \
      T *bt = b + t * n * k;                                                                              \
      int64_t info = 0;                                                                                   \
      if (n == 1) { /* SciPy divides by the one element, zero or not */                                   \
        for (int64_t j = 0; j < k; j++)                                                                   \
          bt[j] /= at[u];                                                                                 \
      } else {                                                                                            \
        int r = band_##p(n, k, l, u, at, 2, bt, &info);                                                   \
        if (r < 0)                                                                                        \
          return r;                                                                                       \
      }                                                                                                   \
      if (info) {                                                                                         \
        *fail = (cusci__la_fail){ t, info };                                                              \
        return 0;                                                                                         \
      }                                                                                                   \
    }                                                                                                     \
    return 0;                                                                                             \
  }                                                                                                       \
                                                                                                          \
  static int pbsv_##p(int64_t batch, int64_t n, int64_t k, int64_t u, bool lower, const T *ab, T *b, cusci__la_fail *fail) \
  {                                                                                                       \
    int64_t ld = u + 1;                                                                                   \
    T *w = malloc(sizeof *w * (size_t)(ld * n + n * k));                                                  \
    if (!w)                                                                                               \
      return NOMEM;                                                                                       \
    T *bc = w + ld * n;                                                                                   \
    for (int64_t t = 0; t < batch; t++) {                                                                 \
      const T *at = ab + t * ld * n;                                                                      \
      T *bt = b + t * n * k;                                                                              \
      for (int64_t j = 0; j < n; j++)                                                                     \
        for (int64_t r = 0; r < ld; r++)                                                                  \
          w[j * ld + r] = at[r * n + j];                                                                  \
      TO_COLS(T, bt, bc, n, k)                                                                            \
      lapack_int r = LAPACKE_##p##pbsv(LAPACK_COL_MAJOR, lower ? 'L' : 'U', (lapack_int)n, (lapack_int)u, (lapack_int)k, w,   \
                                       (lapack_int)ld, bc, (lapack_int)n);                                \
      if (r < 0) {                                                                                        \
        free(w);                                                                                          \
        return r;                                                                                         \
      }                                                                                                   \
      if (r > 0) {                                                                                        \
        *fail = (cusci__la_fail){ t, r };                                                                 \
        break;                                                                                            \
      }                                                                                                   \
      FROM_COLS(T, bt, bc, n, k)                                                                          \
    }                                                                                                     \
    free(w);                                                                                              \
    return 0;                                                                                             \
  }                                                                                                       \
                                                                                                          \
  /* Levinson-Durbin: forward and backward vectors f, b of the leading     \
   * minors and the solutions x, grown one order a step. */                                               \
  static int levinson_##p(int64_t n, int64_t k, const T *c, const T *r, T *y, cusci__la_fail *fail)       \
  {                                                                                                       \
    T *f = malloc(sizeof *f * (size_t)(4 * n));                                                           \
    if (!f)                                                                                               \
      return NOMEM;                                                                                       \
    T *bw = f + n, *nf = f + 2 * n, *nb = f + 3 * n;                                                      \
    T *x = malloc(sizeof *x * (size_t)(n * k));                                                           \
    if (!x) {                                                                                             \
      free(f);                                                                                            \
      return NOMEM;                                                                                       \
    }                                                                                                     \
    /* t(d) = T[i][j] for d = i - j. */                                                                   \
    if (c[0] == 0) {                                                                                      \
      *fail = (cusci__la_fail){ 0, 1 };                                                                   \
      goto done_##p;                                                                                      \
    }                                                                                                     \
    f[0] = bw[0] = 1 / c[0];                                                                              \
    for (int64_t j = 0; j < k; j++)                                                                       \
      x[j] = y[j] / c[0];                                                                                 \
    for (int64_t m = 1; m < n; m++) {                                                                     \
      T ef = 0, eb = 0;                                                                                   \
      for (int64_t i = 0; i < m; i++) {                                                                   \
        ef += c[m - i] * f[i];  /* row m of the minor times (f, 0) */                                     \
        eb += r[i + 1] * bw[i]; /* row 0 times (0, b) */                                                  \
      }                                                                                                   \
      T den = 1 - ef * eb;                                                                                \
      if (den == 0) {                                                                                     \
        *fail = (cusci__la_fail){ 0, m + 1 };                                                             \
        goto done_##p;                                                                                    \
      }                                                                                                   \
      for (int64_t i = 0; i <= m; i++) {                                                                  \
        T fi = i < m ? f[i] : 0, bi = i > 0 ? bw[i - 1] : 0;                                              \
        nf[i] = (fi - ef * bi) / den;                                                                     \
        nb[i] = (bi - eb * fi) / den;                                                                     \
      }                                                                                                   \
      memcpy(f, nf, sizeof *f * (size_t)(m + 1));                                                         \
      memcpy(bw, nb, sizeof *f * (size_t)(m + 1));                                                        \
      for (int64_t j = 0; j < k; j++) {                                                                   \
        T ex = 0;                                                                                         \
        for (int64_t i = 0; i < m; i++)                                                                   \
          ex += c[m - i] * x[i * k + j];                                                                  \
        T g = y[m * k + j] - ex;                                                                          \
        for (int64_t i = 0; i <= m; i++)                                                                  \
          x[i * k + j] = (i < m ? x[i * k + j] : 0) + g * bw[i];                                          \
      }                                                                                                   \
    }                                                                                                     \
    memcpy(y, x, sizeof *x * (size_t)(n * k));                                                            \
  done_##p:                                                                                               \
    free(f);                                                                                              \
    free(x);                                                                                              \
    return 0;                                                                                             \
  }

SOLVERS_DEFINE(s, float)
SOLVERS_DEFINE(d, double)
SOLVERS_DEFINE(c, cusci_cfloat)
SOLVERS_DEFINE(z, cusci_cdouble)

int cusci__ref_la_solve_structured(int dt, int assume, int trans, int64_t batch, int64_t n, int64_t k, const void *a, void *b, cusci__la_fail *fail)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, structured, assume, trans, batch, n, k, a, b, fail)
}

int cusci__ref_la_gbsv(int dt, int64_t batch, int64_t n, int64_t k, int64_t l, int64_t u, const void *ab, void *b, cusci__la_fail *fail)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, gbsv, batch, n, k, l, u, ab, b, fail)
}

int cusci__ref_la_pbsv(int dt, int64_t batch, int64_t n, int64_t k, int64_t u, bool lower, const void *ab, void *b, cusci__la_fail *fail)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, pbsv, batch, n, k, u, lower, ab, b, fail)
}

int cusci__ref_la_levinson(int dt, int64_t n, int64_t k, const void *c, const void *r, void *b, cusci__la_fail *fail)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, levinson, n, k, c, r, b, fail)
}

/* The DFT along axis 0 of x (n, k), X[m] = sum_j x[j] w^(m j) with
 * w = exp(-+2 pi i / n); the twiddles are taken from a table of n entries
 * (index m j mod n) so that no angle grows with n^2. */
int cusci__ref_la_dft(int64_t n, int64_t k, bool inverse, void *xv)
{
  cusci_cdouble *x = xv;
  cusci_cdouble *w = malloc(sizeof *w * (size_t)(n + n * k));
  if (!w)
    return NOMEM;
  cusci_cdouble *y = w + n;
  double sgn = inverse ? 1 : -1;
  for (int64_t m = 0; m < n; m++)
    w[m] = cexp(sgn * 2 * 3.14159265358979323846 * I * (double)m / (double)n);
  for (int64_t m = 0; m < n; m++)
    for (int64_t c = 0; c < k; c++) {
      cusci_cdouble s = 0;
      int64_t idx = 0;
      for (int64_t j = 0; j < n; j++) {
        s += x[j * k + c] * w[idx];
        idx += m;
        if (idx >= n)
          idx -= n;
      }
      y[m * k + c] = inverse ? s / (double)n : s;
    }
  memcpy(x, y, sizeof *x * (size_t)(n * k));
  free(w);
  return 0;
}
