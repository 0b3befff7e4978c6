/*
 * tests/linalg-util.c: helpers of the linalg tests: random matrices,
 * complex128 host copies and residual norms by plain loops.
 */
#include "tests/linalg-util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const cusci_dtype lu_dtypes[4] = { CUSCI_FLOAT32, CUSCI_FLOAT64, CUSCI_COMPLEX64, CUSCI_COMPLEX128 };

cusci_array *lu_fixture(cusci_ctx *ctx, const char *prefix, const char *name)
{
  char full[128];
  snprintf(full, sizeof full, "%s%s", prefix, name);
  cusci_array *a = tk_fixture(ctx, "linalg", full, false);
  if (!a) {
    printf("Bail out! missing fixture %s\n", full);
    exit(1);
  }
  return a;
}

double lu_eps(cusci_dtype dt)
{
  return dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? FLT_EPSILON : DBL_EPSILON;
}

static bool cplx(cusci_dtype dt) { return dt == CUSCI_COMPLEX64 || dt == CUSCI_COMPLEX128; }

static int64_t size_of(int ndim, const int64_t *shape)
{
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= shape[i];
  return n;
}

lu_c *lu_rand_values(uint64_t *seed, cusci_dtype dt, int ndim, const int64_t *shape, double shift)
{
  int64_t n = size_of(ndim, shape);
  lu_c *v = malloc(sizeof *v * (size_t)(n ? n : 1));
  for (int64_t i = 0; i < n; i++) {
    double re = (tk_rand_double(seed) * 2 - 1) * 2.385;
    double im = cplx(dt) ? (tk_rand_double(seed) * 2 - 1) * 2.385 : 0;
    v[i] = re + I * im;
  }
  if (shift != 0 && ndim >= 2 && shape[ndim - 1] == shape[ndim - 2]) {
    int64_t m = shape[ndim - 1];
    for (int64_t b = 0; b < n / (m > 0 ? m * m : 1); b++)
      for (int64_t i = 0; i < m; i++)
        v[b * m * m + i * m + i] += shift;
  }
  return v;
}

lu_c *lu_hpd_values(uint64_t *seed, cusci_dtype dt, int ndim, const int64_t *shape)
{
  int64_t n = shape[ndim - 1], batch = size_of(ndim - 2, shape);
  lu_c *a = lu_rand_values(seed, dt, ndim, shape, 0);
  lu_c *h = malloc(sizeof *h * (size_t)(batch * n * n > 0 ? batch * n * n : 1));
  for (int64_t b = 0; b < batch; b++) {
    const lu_c *ab = a + b * n * n;
    lu_c *hb = h + b * n * n;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        lu_c s = 0;
        for (int64_t k = 0; k < n; k++)
          s += ab[i * n + k] * conj(ab[j * n + k]);
        hb[i * n + j] = s + (i == j ? (double)n : 0);
      }
  }
  free(a);
  return h;
}

cusci_array *lu_array(cusci_ctx *ctx, cusci_dtype dt, int ndim, const int64_t *shape, const lu_c *vals)
{
  cusci_array *c = NULL, *r = NULL;
  if (cusci_array_from_host(ctx, vals, ndim, shape, CUSCI_COMPLEX128, &c) != CUSCI_OK ||
      cusci_array_astype(ctx, c, dt, false, &r) != CUSCI_OK) {
    printf("Bail out! cannot make a test array: %s\n", cusci_ctx_last_error(ctx));
    exit(1);
  }
  cusci_array_release(c);
  return r;
}

lu_c *lu_values(cusci_ctx *ctx, const cusci_array *a)
{
  cusci_array *c = NULL;
  if (cusci_array_astype(ctx, (cusci_array *)a, CUSCI_COMPLEX128, true, &c) != CUSCI_OK) {
    printf("Bail out! astype failed: %s\n", cusci_ctx_last_error(ctx));
    exit(1);
  }
  lu_c *v = tk_to_host(ctx, c);
  cusci_array_release(c);
  return v;
}

double lu_maxdiff(const lu_c *x, const lu_c *y, int64_t n)
{
  double m = 0;
  for (int64_t i = 0; i < n; i++) {
    double d = x[i] == y[i] ? 0 : cabs(x[i] - y[i]); /* equal infinities agree */
    if (!(d <= m))
      m = d; /* NaN propagates */
  }
  return m;
}

double lu_maxabs(const lu_c *x, int64_t n)
{
  double m = 0;
  for (int64_t i = 0; i < n; i++)
    if (cabs(x[i]) > m)
      m = cabs(x[i]);
  return m;
}

bool lu_same_shape(const cusci_array *got, const cusci_array *want, bool any_dtype)
{
  bool same = got && cusci_array_ndim(got) == cusci_array_ndim(want) && (any_dtype || cusci_array_dtype(got) == cusci_array_dtype(want));
  for (int i = 0; same && i < cusci_array_ndim(got); i++)
    same = cusci_array_shape(got)[i] == cusci_array_shape(want)[i];
  return same;
}

double lu_array_diff(cusci_ctx *gctx, const cusci_array *got, cusci_ctx *wctx, const cusci_array *want, double *scale)
{
  int64_t n = cusci_array_size(want);
  lu_c *x = lu_values(gctx, got), *y = lu_values(wctx, want);
  double err = lu_maxdiff(x, y, n), s = lu_maxabs(y, n);
  *scale = s > 1 ? s : 1;
  free(x);
  free(y);
  return err;
}

void lu_gemm(char op, const lu_c *a, const lu_c *b, lu_c *c, int64_t m, int64_t n, int64_t k)
{
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      lu_c s = 0;
      for (int64_t l = 0; l < k; l++)
        s += (op == 'H' ? conj(a[l * m + i]) : a[i * k + l]) * b[l * n + j];
      c[i * n + j] = s;
    }
}
