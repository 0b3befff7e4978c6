/*
 * reference/linalg/funm.c: sqrtm, logm and funm on the host, each from a
 * complex Schur form a = z t z^H.
 *
 * A real matrix is reduced by the real Schur form (dgees) and then made
 * complex upper triangular by rsf2csf, as SciPy does, so that its real
 * eigenvalues stay exactly real; a complex matrix by zgees. Every function
 * then works on the triangular t and transforms back with z.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include <cusci/kit/dtypes.h>

#include "reference/linalg/eig.h"
#include "reference/linalg/funm.h"

static const double pi = 3.14159265358979323846;

static const cusci_cdouble one = 1, zero = 0, minus_one = -1;

/* The complex Schur form of one n x n matrix a (double or double complex,
 * not changed): t and z (n x n). w is scratch for n * n doubles complex.
 * Returns LAPACKE's info (negative) or gees's failure (positive). */
static int cschur(bool cplx, int64_t n, const void *a, cusci_cdouble *t, cusci_cdouble *z, cusci_cdouble *w)
{
  size_t nn = (size_t)(n * n);
  cusci__la_fail f = { 0, 0 };
  int info;
  if (cplx) {
    memcpy(t, a, nn * sizeof *t);
    info = cusci__ref_la_schur(true, 1, n, t, z, &f);
  } else {
    double *ra = (double *)w, *rz = ra + nn;
    memcpy(ra, a, nn * sizeof *ra);
    info = cusci__ref_la_schur(false, 1, n, ra, rz, &f);
    if (info == 0 && f.info == 0) {
      for (size_t i = 0; i < nn; i++)
        t[i] = ra[i], z[i] = rz[i];
      cusci__ref_la_rsf2csf(1, n, t, z);
    }
  }
  return info ? info : (int)f.info;
}

/* x = z u z^H; w is n x n scratch. */
static void back_transform(int64_t n, const cusci_cdouble *z, const cusci_cdouble *u, cusci_cdouble *x, cusci_cdouble *w)
{
  int N = (int)n;
  cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, &one, z, N, u, N, &zero, w, N);
  cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasConjTrans, N, N, N, &one, w, N, z, N, &zero, x, N);
}

/*
 * The principal square root r of an upper triangular t (Björck and
 * Hammarling 1983), blocked as Deadman, Higham and Ralha (2013): each
 * diagonal block by the point recurrence
 *   r_jj = sqrt(t_jj),  r_ij = (t_ij - sum_{i<k<j} r_ik r_kj) / (r_ii + r_jj),
 * then each off-diagonal block R_IJ, going up a block column, from the
 * Sylvester equation R_II X + X R_JJ = T_IJ - sum_K R_IK R_KJ, its
 * right-hand side by one gemm and the equation by substitution.
 * w is scratch for n * n elements. r and t may not alias.
 */
static void sqrt_triu(int64_t n, const cusci_cdouble *t, cusci_cdouble *r, cusci_cdouble *w)
{
  const int64_t bs = 64;
  memset(r, 0, sizeof *r * (size_t)(n * n));
  for (int64_t j0 = 0; j0 < n; j0 += bs) {
    int64_t j1 = j0 + bs < n ? j0 + bs : n;
    for (int64_t j = j0; j < j1; j++) {
      r[j * n + j] = csqrt(t[j * n + j]);
      for (int64_t i = j - 1; i >= j0; i--) {
        cusci_cdouble s = t[i * n + j];
        for (int64_t k = i + 1; k < j; k++)
          s -= r[i * n + k] * r[k * n + j];
        r[i * n + j] = s / (r[i * n + i] + r[j * n + j]);
      }
    }
    for (int64_t i0 = j0 - bs; i0 >= 0; i0 -= bs) {
      int64_t i1 = i0 + bs, mi = bs, mj = j1 - j0;
      for (int64_t i = 0; i < mi; i++)
        for (int64_t j = 0; j < mj; j++)
          w[i * mj + j] = t[(i0 + i) * n + j0 + j];
      if (j0 > i1)
        cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)mi, (int)mj, (int)(j0 - i1), &minus_one, r + i0 * n + i1, (int)n,
                    r + i1 * n + j0, (int)n, &one, w, (int)mj);
      /* R_II X + X R_JJ = W by substitution, X's columns left to right
       * and each from the bottom up (what trsyl does, without LAPACKE's
       * row-major copies). */
      for (int64_t j = 0; j < mj; j++)
        for (int64_t i = mi - 1; i >= 0; i--) {
          cusci_cdouble v = w[i * mj + j];
          for (int64_t k = i + 1; k < mi; k++)
            v -= r[(i0 + i) * n + i0 + k] * w[k * mj + j];
          for (int64_t k = 0; k < j; k++)
            v -= w[i * mj + k] * r[(j0 + k) * n + j0 + j];
          w[i * mj + j] = v / (r[(i0 + i) * n + i0 + i] + r[(j0 + j) * n + j0 + j]);
        }
      for (int64_t i = 0; i < mi; i++)
        for (int64_t j = 0; j < mj; j++)
          r[(i0 + i) * n + j0 + j] = w[i * mj + j];
    }
  }
}

static double fro2(int64_t count, const cusci_cdouble *x)
{
  double s = 0;
  for (int64_t i = 0; i < count; i++)
    s += creal(x[i]) * creal(x[i]) + cimag(x[i]) * cimag(x[i]);
  return s;
}

/* scratch of k matrices of n x n double complex elements. */
static cusci_cdouble *scratch(int64_t n, int k) { return malloc(sizeof(cusci_cdouble) * (size_t)(n * n > 0 ? n * n : 1) * (size_t)k); }

/* The complex Schur form t, z of matrix b of the batch a (real or complex,
 * n x n each): true when it is there; false when it failed, with LAPACK's
 * negative info in *ret or the matrix and its positive info in *fail. */
static bool batch_schur(bool cplx, const void *a, int64_t b, int64_t n, cusci_cdouble *t, cusci_cdouble *z, cusci_cdouble *w, int *ret, cusci__la_fail *fail)
{
  size_t nn = (size_t)(n * n);
  const void *ab = cplx ? (const void *)((const cusci_cdouble *)a + b * nn) : (const void *)((const double *)a + b * nn);
  int info = cschur(cplx, n, ab, t, z, w);
  if (info < 0)
    *ret = info;
  else if (info > 0)
    *fail = (cusci__la_fail){ b, info };
  return info == 0;
}

int cusci__ref_la_sqrtm(bool cplx, int64_t batch, int64_t n, const void *a, cusci_cdouble *x, bool *neg_real, double *errest, cusci__la_fail *fail)
{
  size_t nn = (size_t)(n * n);
  cusci_cdouble *t = scratch(n, 5), *z = t + nn, *r = z + nn, *w = r + nn;
  if (!t)
    return LAPACK_WORK_MEMORY_ERROR;
  int ret = 0;
  *neg_real = false;
  for (int64_t b = 0; b < batch; b++) {
    if (!batch_schur(cplx, a, b, n, t, z, w, &ret, fail))
      break;
    for (int64_t i = 0; i < n; i++)
      if (cimag(t[i * n + i]) == 0 && creal(t[i * n + i]) < 0)
        *neg_real = true;
    sqrt_triu(n, t, r, w);
    back_transform(n, z, r, x + b * nn, w);
    if (errest) {
      /* SciPy's figure: ||x x - a||_F^2 / ||a||_F. */
      int N = (int)n;
      for (size_t i = 0; i < nn; i++)
        w[i] = cplx ? ((const cusci_cdouble *)a)[b * nn + i] : ((const double *)a)[b * nn + i];
      double na = sqrt(fro2((int64_t)nn, w));
      cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, &one, x + b * nn, N, x + b * nn, N, &minus_one, w, N);
      double e = fro2((int64_t)nn, w);
      errest[b] = isfinite(e) ? e / na : INFINITY;
    }
  }
  free(t);
  return ret;
}

/* ---------------------------------------------------------------- logm */

/* ||(t - I)^p||_1 of an upper triangular t, exactly; w holds 3 n x n. */
static double pow_norm1(int64_t n, const cusci_cdouble *t, int p, cusci_cdouble *w)
{
  size_t nn = (size_t)(n * n);
  cusci_cdouble *m = w, *q = w + nn, *s = w + 2 * nn;
  memcpy(m, t, nn * sizeof *m);
  for (int64_t i = 0; i < n; i++)
    m[i * n + i] -= 1;
  memcpy(q, m, nn * sizeof *q);
  for (int k = 1; k < p; k++) {
    cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, &one, q, (int)n, m, (int)n, &zero, s, (int)n);
    memcpy(q, s, nn * sizeof *q);
  }
  double best = 0;
  for (int64_t j = 0; j < n; j++) {
    double c = 0;
    for (int64_t i = 0; i < n; i++)
      c += cabs(q[i * n + j]);
    if (c > best)
      best = c;
  }
  return best;
}

/* The m-point Gauss-Legendre rule on [0, 1]: nodes x, weights wt, by
 * Newton's method on the Legendre polynomial P_m from the Chebyshev-like
 * first guess cos(pi (i + 3/4) / (m + 1/2)). */
static void gauss_legendre01(int m, double *x, double *wt)
{
  for (int i = 0; i < m; i++) {
    double z = cos(pi * (i + 0.75) / (m + 0.5)), dp = 1;
    for (int it = 0; it < 100; it++) {
      double p0 = 1, p1 = z;
      for (int k = 2; k <= m; k++) {
        double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1, p1 = p2;
      }
      if (m == 1)
        p1 = z, p0 = 1;
      dp = m * (z * p1 - p0) / (z * z - 1);
      double dz = p1 / dp;
      z -= dz;
      if (fabs(dz) < 1e-16)
        break;
    }
    x[i] = 0.5 + 0.5 * z;
    wt[i] = 0.5 * 2 / ((1 - z * z) * dp * dp);
  }
}

/* The unwinding number of z: ceil((Im z - pi) / (2 pi)). */
static double unwind(cusci_cdouble z) { return ceil((cimag(z) - pi) / (2 * pi)); }

/* log(T)_{12} for the 2x2 upper triangular [[l1, t12], [0, l2]], by
 * Higham (2008), eq. (11.28), avoiding cancellation when l1 and l2 are
 * close. */
static cusci_cdouble log_superdiag(cusci_cdouble l1, cusci_cdouble l2, cusci_cdouble t12)
{
  if (l1 == l2)
    return t12 / l1;
  if (cabs(l2 - l1) > cabs(l1 + l2) / 2)
    return t12 * (clog(l2) - clog(l1)) / (l2 - l1);
  cusci_cdouble z = (l2 - l1) / (l2 + l1);
  double u = unwind(clog(l2) - clog(l1));
  return t12 * 2 * (catanh(z) + pi * I * u) / (l2 - l1);
}

/*
 * log of an upper triangular t0 (n x n, no zero on its diagonal) into u,
 * by the inverse scaling and squaring algorithm of Al-Mohy and Higham
 * (2012), Algorithm 4.1, with exact 1-norms of the powers of t - I where
 * the paper estimates them: take s square roots until the Padé degree m
 * chosen by the bounds theta_m (the paper's Table 2.1) is small, then
 *   log(t0) ~ 2^s r_m(t - I),  r_m(R) = sum_j w_j R (I + x_j R)^{-1}
 * in partial fractions (Gauss-Legendre nodes x_j and weights w_j on [0, 1]),
 * and recompute the diagonal and first superdiagonal from t0 directly.
 * w holds 4 n x n scratch.
 */
static void log_triu(int64_t n, const cusci_cdouble *t0, cusci_cdouble *u, cusci_cdouble *w)
{
  static const double theta[17] = { 0,       1.59e-5, 2.31e-3, 1.94e-2, 6.21e-2, 1.28e-1, 2.06e-1, 2.88e-1, 3.67e-1,
                                    4.39e-1, 5.03e-1, 5.60e-1, 6.09e-1, 6.52e-1, 6.89e-1, 7.21e-1, 7.49e-1 };
  size_t nn = (size_t)(n * n);
  cusci_cdouble *t = w, *r = w + nn, *pw = w + 2 * nn; /* pw: 3 matrices, the last shared with sqrt_triu's scratch */
  memcpy(t, t0, nn * sizeof *t);
  /* s0: square roots that bring the diagonal within theta_7 of 1. */
  int s0 = 0;
  for (;;) {
    double dmax = 0;
    for (int64_t i = 0; i < n; i++) {
      cusci_cdouble d = t0[i * n + i];
      for (int k = 0; k < s0; k++)
        d = csqrt(d);
      double e = cabs(d - 1);
      if (e > dmax)
        dmax = e;
    }
    if (!(dmax > theta[7]) || s0 >= 1000)
      break;
    s0++;
  }
  for (int k = 0; k < s0; k++) {
    sqrt_triu(n, t, r, pw);
    memcpy(t, r, nn * sizeof *t);
  }
  int s = s0, k = 0, m = 0;
  double d3 = pow(pow_norm1(n, t, 3, pw), 1.0 / 3), d2 = sqrt(pow_norm1(n, t, 2, pw));
  double a2 = d2 > d3 ? d2 : d3;
  for (int i = 1; i <= 2 && !m; i++)
    if (a2 <= theta[i])
      m = i;
  while (!m) {
    if (s > s0)
      d3 = pow(pow_norm1(n, t, 3, pw), 1.0 / 3);
    double d4 = pow(pow_norm1(n, t, 4, pw), 0.25);
    double a3 = d3 > d4 ? d3 : d4;
    if (a3 <= theta[7]) {
      int j1 = 3;
      while (a3 > theta[j1])
        j1++;
      if (j1 <= 6) {
        m = j1;
        break;
      }
      if (a3 / 2 <= theta[5] && k < 2) {
        k++;
        sqrt_triu(n, t, r, pw);
        memcpy(t, r, nn * sizeof *t);
        s++;
        continue;
      }
    }
    double d5 = pow(pow_norm1(n, t, 5, pw), 0.2);
    double a4 = d4 > d5 ? d4 : d5, eta = a3 < a4 ? a3 : a4;
    for (int i = 6; i <= 7 && !m; i++)
      if (eta <= theta[i])
        m = i;
    if (m || s >= 1000)
      break;
    sqrt_triu(n, t, r, pw);
    memcpy(t, r, nn * sizeof *t);
    s++;
  }
  if (!m)
    m = 7;
  /* R = t - I, then u = 2^s sum_j w_j (I + x_j R)^{-1} R. */
  for (int64_t i = 0; i < n; i++)
    t[i * n + i] -= 1;
  double x[16], wt[16];
  gauss_legendre01(m, x, wt);
  memset(u, 0, nn * sizeof *u);
  cusci_cdouble *lhs = pw, *rhs = pw + nn;
  for (int j = 0; j < m; j++) {
    for (size_t i = 0; i < nn; i++)
      lhs[i] = x[j] * t[i], rhs[i] = t[i];
    for (int64_t i = 0; i < n; i++)
      lhs[i * n + i] += 1;
    cusci_cdouble alpha = wt[j];
    cblas_ztrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, (int)n, (int)n, &alpha, lhs, (int)n, rhs, (int)n);
    for (size_t i = 0; i < nn; i++)
      u[i] += rhs[i];
  }
  double sc = ldexp(1.0, s);
  for (size_t i = 0; i < nn; i++)
    u[i] *= sc;
  /* The diagonal and superdiagonal exactly, where the principal branch
   * exists (no eigenvalue on the closed negative real axis). */
  bool principal = true;
  for (int64_t i = 0; i < n; i++) {
    cusci_cdouble d = t0[i * n + i];
    if (!(creal(d) > 0 || cimag(d) != 0))
      principal = false;
  }
  if (principal) {
    for (int64_t i = 0; i < n; i++)
      u[i * n + i] = clog(t0[i * n + i]);
    for (int64_t i = 0; i + 1 < n; i++)
      u[i * n + i + 1] = log_superdiag(t0[i * n + i], t0[(i + 1) * n + i + 1], t0[i * n + i + 1]);
  }
}

int cusci__ref_la_logm(bool cplx, int64_t batch, int64_t n, const void *a, cusci_cdouble *x, cusci__la_fail *fail)
{
  size_t nn = (size_t)(n * n);
  cusci_cdouble *t = scratch(n, 8), *z = t + nn, *u = z + nn, *w = u + nn;
  if (!t)
    return LAPACK_WORK_MEMORY_ERROR;
  int ret = 0;
  for (int64_t b = 0; b < batch; b++) {
    if (!batch_schur(cplx, a, b, n, t, z, w, &ret, fail))
      break;
    /* The logarithm of a singular matrix does not exist; SciPy moves its
     * zero eigenvalues to 1e-20 and goes on, and so does this. */
    for (int64_t i = 0; i < n; i++)
      if (t[i * n + i] == 0)
        t[i * n + i] = 1e-20;
    log_triu(n, t, u, w);
    back_transform(n, z, u, x + b * nn, w);
  }
  free(t);
  return ret;
}

/* ---------------------------------------------------------------- funm */

/*
 * f(t) of an upper triangular t by Parlett's recurrence (Golub and Van
 * Loan, Algorithm 9.1.1), superdiagonal by superdiagonal:
 *   f_ii = f(t_ii),
 *   f_ij = (t_ij (f_jj - f_ii) + sum_{i<k<j} (t_ik f_kj - f_ik t_kj)) / (t_jj - t_ii),
 * where a zero denominator (a repeated eigenvalue) is left undivided, as
 * SciPy does: the recurrence does not apply there and the error estimate
 * says so. Returns the smallest |t_jj - t_ii| met (|t_00| when n is 1).
 */
static double parlett(int64_t n, const cusci_cdouble *t, cusci_cdouble (*f)(cusci_cdouble, void *), void *user, cusci_cdouble *F)
{
  memset(F, 0, sizeof *F * (size_t)(n * n));
  for (int64_t i = 0; i < n; i++)
    F[i * n + i] = f(t[i * n + i], user);
  double minden = n ? cabs(t[0]) : 0;
  for (int64_t p = 1; p < n; p++)
    for (int64_t i = 0; i + p < n; i++) {
      int64_t j = i + p;
      cusci_cdouble s = t[i * n + j] * (F[j * n + j] - F[i * n + i]);
      for (int64_t k = i + 1; k < j; k++)
        s += t[i * n + k] * F[k * n + j] - F[i * n + k] * t[k * n + j];
      cusci_cdouble den = t[j * n + j] - t[i * n + i];
      if (den != 0)
        s /= den;
      F[i * n + j] = s;
      if (cabs(den) < minden)
        minden = cabs(den);
    }
  return minden;
}

int cusci__ref_la_funm(bool cplx, int64_t batch, int64_t n, const void *a, cusci_cdouble (*f)(cusci_cdouble, void *), void *user, double tol, cusci_cdouble *x,
                       double *errest, cusci__la_fail *fail)
{
  size_t nn = (size_t)(n * n);
  cusci_cdouble *t = scratch(n, 5), *z = t + nn, *F = z + nn, *w = F + nn;
  if (!t)
    return LAPACK_WORK_MEMORY_ERROR;
  int ret = 0;
  for (int64_t b = 0; b < batch; b++) {
    if (!batch_schur(cplx, a, b, n, t, z, w, &ret, fail))
      break;
    double minden = parlett(n, t, f, user, F);
    back_transform(n, z, F, x + b * nn, w);
    if (errest) {
      /* SciPy's estimate: min(1, max(tol, tol / minden ||triu(t, 1)||_1)). */
      double nrm = 0;
      for (int64_t j = 0; j < n; j++) {
        double c = 0;
        for (int64_t i = 0; i < j; i++)
          c += cabs(t[i * n + j]);
        if (c > nrm)
          nrm = c;
      }
      if (minden == 0)
        minden = tol;
      double e = tol / minden * nrm;
      e = e > tol ? e : tol;
      e = e < 1 ? e : 1;
      for (size_t i = 0; i < nn; i++)
        if (!isfinite(creal(x[b * nn + i])) || !isfinite(cimag(x[b * nn + i])))
          e = INFINITY;
      errest[b] = e;
    }
  }
  free(t);
  return ret;
}
