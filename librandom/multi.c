/*
 * librandom/multi.c: the vector-valued distributions: multinomial,
 * dirichlet, multivariate_normal, multivariate_hypergeometric. Parameters
 * are checked and prepared on the host (for multivariate_normal, a
 * lower-triangular factor of the covariance), then each row of the output
 * is drawn by reference/random/rows.h on the host or the GPU.
 */
#include "librandom/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reference/random/reference.h"
#include "kernels/random/launch.h"

/* A 1-D (or, with want_ndim 2, 2-D) parameter array as host doubles. */
static cusci_status load(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, int want_ndim,
                         double **out)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, name, a));
  if (cusci_array_ndim(a) != want_ndim)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "%s has %d dimensions, expected %d", name, cusci_array_ndim(a),
                          want_ndim);
  char kind = cusci_dtype_kind(cusci_array_dtype(a));
  if (kind != 'f' && kind != 'i' && kind != 'u')
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "%s has dtype %s, expected a real dtype", name,
                          cusci_dtype_name(cusci_array_dtype(a)));
  cusci_array *d = NULL;
  CUSCI_TRY(cusci_array_astype(ctx, (cusci_array *)a, CUSCI_FLOAT64, false, &d));
  int64_t n = cusci_array_size(d);
  double *h = malloc((size_t)(n > 0 ? n : 1) * sizeof *h);
  cusci_status st = h ? cusci_array_to_host(ctx, d, h, (size_t)n * sizeof *h)
                      : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %s", name);
  cusci_array_release(d);
  if (st != CUSCI_OK) {
    free(h);
    return st;
  }
  for (int64_t i = 0; i < n; i++)
    if (!isfinite(h[i])) {
      double v = h[i];
      free(h);
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%s[%lld] = %g, expected finite values", name, (long long)i, v);
    }
  *out = h;
  return CUSCI_OK;
}

/* Draw rows of k values (params v, host memory, nv doubles) into a new or
 * given array of shape (shape..., k). */
static cusci_status draw_rows(cusci_ctx *ctx, const char *fn, cusci_random_generator *g, int kind, const double *v,
                              int64_t nv, int64_t k, const cusci__rparams *p, int ndim, const int64_t *shape,
                              cusci_array **out)
{
  if (ndim + 1 > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "ndim %d + 1 exceeds %d", ndim, CUSCI_MAX_NDIM);
  int64_t full[CUSCI_MAX_NDIM];
  int64_t rows = 1;
  for (int i = 0; i < ndim; i++) {
    full[i] = shape[i];
    rows *= shape[i];
  }
  full[ndim] = k;
  cusci_dtype dt = cusci__rrow_discrete(kind) ? CUSCI_INT64 : CUSCI_FLOAT64;
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim + 1, full, 8));
  cusci_array *r = NULL, *tmp = NULL, *vd = NULL;
  CUSCI_TRY(cusci_prepare_out(ctx, fn, out, ndim + 1, full, dt, &r));
  cusci_array *dst = r;
  cusci_status st = CUSCI_OK;
  if (!cusci_array_is_c_contiguous(r)) {
    st = cusci_array_empty(ctx, ndim + 1, full, dt, &tmp);
    dst = tmp;
  }
  if (st == CUSCI_OK && rows > 0 && k > 0) {
    if (cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST) {
      cusci__rhost_rows(kind, v, k, p, g->key, g->ctr, rows, cusci_array_data(dst));
    } else {
      st = cusci_array_from_host(ctx, v, 1, &nv, CUSCI_FLOAT64, &vd);
      if (st == CUSCI_OK)
        st = cusci_ctx_use_device(ctx, fn);
      if (st == CUSCI_OK) {
        int e = cusci__launch_rrows(cusci_ctx_stream(ctx), kind, cusci_array_data(vd), k, p, g->key, g->ctr, rows,
                                    cusci_array_data(dst));
        if (e != 0)
          st = cusci_ctx_gpu_status(ctx, fn, NULL, e);
      }
    }
  }
  if (st == CUSCI_OK && tmp)
    st = cusci_array_copy(ctx, tmp, &r);
  cusci_array_release(tmp);
  cusci_array_release(vd);
  if (st != CUSCI_OK) {
    if (r != *out)
      cusci_array_release(r);
    return st;
  }
  g->ctr += (uint64_t)rows;
  *out = r;
  return CUSCI_OK;
}

cusci_status cusci_random_multinomial(cusci_ctx *ctx, cusci_random_generator *g, int64_t n, const cusci_array *pvals, int ndim, const int64_t *shape, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_philox(ctx, fn, g, out));
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim, shape, 8));
  if (n < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n = %lld, expected >= 0", (long long)n);
  double *pv;
  CUSCI_TRY(load(ctx, fn, "pvals", pvals, 1, &pv));
  int64_t k = cusci_array_size(pvals);
  double sum = 0;
  cusci_status st = CUSCI_OK;
  for (int64_t i = 0; i < k && st == CUSCI_OK; i++) {
    if (pv[i] < 0 || pv[i] > 1)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "pvals[%lld] = %g, expected in [0, 1]", (long long)i, pv[i]);
    if (i < k - 1)
      sum += pv[i];
  }
  if (st == CUSCI_OK && k == 0)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "pvals is empty");
  if (st == CUSCI_OK && sum > 1.0 + 1e-12)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "sum(pvals[:-1]) = %.17g > 1", sum);
  if (st == CUSCI_OK) {
    cusci__rparams p = {0};
    p.n = n;
    st = draw_rows(ctx, fn, g, CUSCI__RROW_MULTINOMIAL, pv, k, k, &p, ndim, shape, out);
  }
  free(pv);
  return st;
}

cusci_status cusci_random_dirichlet(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *alpha, int ndim, const int64_t *shape, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_philox(ctx, fn, g, out));
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim, shape, 8));
  double *a;
  CUSCI_TRY(load(ctx, fn, "alpha", alpha, 1, &a));
  int64_t k = cusci_array_size(alpha);
  cusci_status st = CUSCI_OK;
  for (int64_t i = 0; i < k && st == CUSCI_OK; i++)
    if (!(a[i] > 0))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "alpha[%lld] = %g, expected > 0", (long long)i, a[i]);
  if (st == CUSCI_OK) {
    cusci__rparams p = {0};
    st = draw_rows(ctx, fn, g, CUSCI__RROW_DIRICHLET, a, k, k, &p, ndim, shape, out);
  }
  free(a);
  return st;
}

cusci_status cusci_random_multivariate_hypergeometric(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *colors, int64_t nsample, int ndim, const int64_t *shape, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_philox(ctx, fn, g, out));
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim, shape, 8));
  if (colors && cusci_dtype_kind(cusci_array_dtype(colors)) != 'i' && cusci_dtype_kind(cusci_array_dtype(colors)) != 'u')
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "colors has dtype %s, expected an integer dtype",
                          cusci_dtype_name(cusci_array_dtype(colors)));
  double *c;
  CUSCI_TRY(load(ctx, fn, "colors", colors, 1, &c));
  int64_t k = cusci_array_size(colors);
  double total = 0;
  cusci_status st = CUSCI_OK;
  for (int64_t i = 0; i < k && st == CUSCI_OK; i++) {
    if (c[i] < 0)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "colors[%lld] = %g, expected >= 0", (long long)i, c[i]);
    total += c[i];
  }
  if (st == CUSCI_OK && total > 1e9)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "sum(colors) = %.0f, at most 10^9", total);
  if (st == CUSCI_OK && (nsample < 0 || (double)nsample > total))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nsample = %lld, expected in [0, sum(colors) = %.0f]",
                        (long long)nsample, total);
  if (st == CUSCI_OK) {
    cusci__rparams p = {0};
    p.n = nsample;
    p.a = total;
    st = draw_rows(ctx, fn, g, CUSCI__RROW_MVHYPER, c, k, k, &p, ndim, shape, out);
  }
  free(c);
  return st;
}

/* ------------------------------------------------- multivariate_normal */

/* Cholesky factor of the d x d symmetric c (row-major) into L (lower);
 * returns -1, or the index of the first non-positive pivot. */
static int64_t cholesky(const double *c, int64_t d, double *L)
{
  memset(L, 0, (size_t)(d * d) * sizeof *L);
  for (int64_t j = 0; j < d; j++) {
    double s = c[j * d + j];
    for (int64_t q = 0; q < j; q++)
      s -= L[j * d + q] * L[j * d + q];
    if (!(s > 0))
      return j;
    double ljj = sqrt(s);
    L[j * d + j] = ljj;
    for (int64_t i = j + 1; i < d; i++) {
      double t = c[i * d + j];
      for (int64_t q = 0; q < j; q++)
        t -= L[i * d + q] * L[j * d + q];
      L[i * d + j] = t / ljj;
    }
  }
  return -1;
}

/*
 * Eigenvalues w and eigenvectors V (columns) of the symmetric d x d matrix
 * a by cyclic Jacobi rotations (Golub and Van Loan, "Matrix Computations",
 * 4th ed., 8.5.2), a overwritten. Sweeps until the off-diagonal is
 * negligible.
 */
static void jacobi_eigh(double *a, int64_t d, double *w, double *V)
{
  for (int64_t i = 0; i < d * d; i++)
    V[i] = 0;
  for (int64_t i = 0; i < d; i++)
    V[i * d + i] = 1;
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0, on = 0;
    for (int64_t p = 0; p < d; p++)
      for (int64_t q = 0; q < d; q++)
        if (p == q)
          on += a[p * d + q] * a[p * d + q];
        else
          off += a[p * d + q] * a[p * d + q];
    if (off <= 1e-30 * on || off == 0)
      break;
    for (int64_t p = 0; p < d - 1; p++)
      for (int64_t q = p + 1; q < d; q++) {
        double apq = a[p * d + q];
        if (apq == 0)
          continue;
        double theta = (a[q * d + q] - a[p * d + p]) / (2 * apq);
        double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
        double c = 1 / sqrt(t * t + 1), s = t * c;
        for (int64_t k = 0; k < d; k++) { /* columns p, q */
          double akp = a[k * d + p], akq = a[k * d + q];
          a[k * d + p] = c * akp - s * akq;
          a[k * d + q] = s * akp + c * akq;
        }
        for (int64_t k = 0; k < d; k++) { /* rows p, q */
          double apk = a[p * d + k], aqk = a[q * d + k];
          a[p * d + k] = c * apk - s * aqk;
          a[q * d + k] = s * apk + c * aqk;
        }
        for (int64_t k = 0; k < d; k++) {
          double vkp = V[k * d + p], vkq = V[k * d + q];
          V[k * d + p] = c * vkp - s * vkq;
          V[k * d + q] = s * vkp + c * vkq;
        }
      }
  }
  for (int64_t i = 0; i < d; i++)
    w[i] = a[i * d + i];
}

/*
 * A lower-triangular L with L L^T = A A^T: the transpose of R in the
 * Householder QR of A^T (Golub and Van Loan, 5.2.1). A is d x d row-major;
 * L overwrites nothing else.
 */
static void lower_factor(const double *A, int64_t d, double *L, double *work)
{
  double *R = work; /* R = A^T, reduced in place */
  for (int64_t i = 0; i < d; i++)
    for (int64_t j = 0; j < d; j++)
      R[i * d + j] = A[j * d + i];
  double *v = work + d * d;
  for (int64_t k = 0; k < d; k++) {
    double norm = 0;
    for (int64_t i = k; i < d; i++)
      norm += R[i * d + k] * R[i * d + k];
    norm = sqrt(norm);
    if (norm == 0)
      continue;
    double alpha = R[k * d + k] > 0 ? -norm : norm;
    for (int64_t i = 0; i < d; i++)
      v[i] = i < k ? 0 : R[i * d + k];
    v[k] -= alpha;
    double vv = 0;
    for (int64_t i = k; i < d; i++)
      vv += v[i] * v[i];
    if (vv == 0)
      continue;
    for (int64_t j = k; j < d; j++) {
      double s = 0;
      for (int64_t i = k; i < d; i++)
        s += v[i] * R[i * d + j];
      s = 2 * s / vv;
      for (int64_t i = k; i < d; i++)
        R[i * d + j] -= s * v[i];
    }
  }
  for (int64_t i = 0; i < d; i++)
    for (int64_t j = 0; j < d; j++)
      L[i * d + j] = j <= i ? R[j * d + i] : 0.0;
}

cusci_status cusci_random_multivariate_normal(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *mean, const cusci_array *cov, const cusci_random_mvn_opts *opts, int ndim, const int64_t *shape, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_philox(ctx, fn, g, out));
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim, shape, 8));
  cusci_random_mvn_opts o = opts ? *opts : (cusci_random_mvn_opts){0};
  if ((int)o.method < CUSCI_MVN_EIGH || (int)o.method > CUSCI_MVN_CHOLESKY)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "opts->method = %d is not a cusci_random_mvn_method",
                          (int)o.method);
  double tol = o.tol > 0 ? o.tol : 1e-8;
  double *m = NULL, *c = NULL;
  CUSCI_TRY(load(ctx, fn, "mean", mean, 1, &m));
  cusci_status st = load(ctx, fn, "cov", cov, 2, &c);
  if (st != CUSCI_OK) {
    free(m);
    return st;
  }
  int64_t d = cusci_array_size(mean);
  const int64_t *cs = cusci_array_shape(cov);
  if (cs[0] != d || cs[1] != d) {
    free(m), free(c);
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "cov is %lldx%lld, mean has %lld entries: expected %lldx%lld",
                          (long long)cs[0], (long long)cs[1], (long long)d, (long long)d, (long long)d);
  }
  double *v = calloc((size_t)(d + d * d + 1), sizeof *v);
  double *work = malloc((size_t)(3 * d * d + 2 * d + 1) * sizeof *work);
  if (!v || !work) {
    free(m), free(c), free(v), free(work);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a %lldx%lld factor", (long long)d,
                          (long long)d);
  }
  memcpy(v, m, (size_t)d * sizeof *v);
  double *L = v + d;
  double scale = 0;
  for (int64_t i = 0; i < d * d; i++)
    scale = fabs(c[i]) > scale ? fabs(c[i]) : scale;
  for (int64_t i = 0; i < d && st == CUSCI_OK; i++)
    for (int64_t j = 0; j < i; j++)
      if (fabs(c[i * d + j] - c[j * d + i]) > tol * (scale > 1 ? scale : 1)) {
        st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "cov is not symmetric: cov[%lld, %lld] = %g, cov[%lld, %lld] = %g",
                            (long long)i, (long long)j, c[i * d + j], (long long)j, (long long)i, c[j * d + i]);
        break;
      }
  if (st == CUSCI_OK && o.method == CUSCI_MVN_CHOLESKY) {
    int64_t bad = cholesky(c, d, L);
    if (bad >= 0)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "cov is not positive definite (leading minor %lld)",
                          (long long)bad + 1);
  } else if (st == CUSCI_OK) {
    double *a = work, *V = work + d * d, *w = work + 2 * d * d;
    memcpy(a, c, (size_t)(d * d) * sizeof *a);
    jacobi_eigh(a, d, w, V);
    double wmax = 0;
    for (int64_t i = 0; i < d; i++)
      wmax = fabs(w[i]) > wmax ? fabs(w[i]) : wmax;
    for (int64_t i = 0; i < d && st == CUSCI_OK; i++)
      if (w[i] < -tol * (wmax > 1 ? wmax : 1))
        st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "cov is not positive semidefinite (eigenvalue %g)", w[i]);
    if (st == CUSCI_OK) {
      /* A = V sqrt(max(w, 0)), then its lower-triangular equivalent */
      double *A = work; /* a is no longer needed */
      for (int64_t i = 0; i < d; i++)
        for (int64_t j = 0; j < d; j++)
          A[i * d + j] = V[i * d + j] * sqrt(w[j] > 0 ? w[j] : 0);
      double *qr = malloc((size_t)(d * d + d + 1) * sizeof *qr);
      if (!qr) {
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
      } else {
        lower_factor(A, d, L, qr);
        free(qr);
      }
    }
  }
  if (st == CUSCI_OK) {
    cusci__rparams p = {0};
    st = draw_rows(ctx, fn, g, CUSCI__RROW_MVN, v, d + d * d, d, &p, ndim, shape, out);
  }
  free(m), free(c), free(v), free(work);
  return st;
}
