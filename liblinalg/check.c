/*
 * liblinalg/check.c: what every function of liblinalg's API layer checks
 * and shares: the working dtype, square and LAPACK-sized inputs, working
 * copies, the output convention, and the status of a backend call as
 * scipy.linalg reports it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA */
#endif

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"
#include "kernels/linalg/launch.h"
#include "reference/linalg/reference.h"

/* The dtype that linalg computes in for an input of dtype dt: the four
 * float and complex dtypes as they are, bool and integers as float64 (as
 * NumPy converts them), float16 refused (as numpy.linalg refuses it). */
cusci_status cusci__la_work_dtype(cusci_ctx *ctx, const char *fn, const char *name, cusci_dtype dt, cusci_dtype *out)
{
  TRY(cusci_check_dtype(ctx, fn, name, dt));
  switch (dt) {
  case CUSCI_FLOAT32:
  case CUSCI_FLOAT64:
  case CUSCI_COMPLEX64:
  case CUSCI_COMPLEX128:
    *out = dt;
    return CUSCI_OK;
  case CUSCI_FLOAT16:
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "%s has dtype float16, which linalg does not support", name);
  default:
    *out = CUSCI_FLOAT64;
    return CUSCI_OK;
  }
}



/* A C-contiguous host copy of a in the wide dtype wdt, from either device;
 * *count is the number of doubles in it. Caller frees. */
cusci_status cusci__la_host_copy(cusci_ctx *ctx, const char *fn, const cusci_array *a, cusci_dtype wdt, void **buf, size_t *count)
{
  cusci_array *c = NULL;
  *buf = NULL;
  TRY(cusci_array_astype(ctx, (cusci_array *)a, wdt, true, &c));
  size_t bytes = cusci_array_nbytes(c);
  void *p = malloc(bytes ? bytes : 1);
  cusci_status st = p ? cusci_array_to_host(ctx, c, p, bytes) : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %zu bytes", bytes);
  cusci_array_release(c);
  if (st != CUSCI_OK) {
    free(p);
    return st;
  }
  *buf = p;
  if (count)
    *count = bytes / sizeof(double);
  return CUSCI_OK;
}

/* An array of dtype dt on ctx's device from host values of dtype wdt. */
cusci_status cusci__la_put(cusci_ctx *ctx, const void *buf, int nd, const int64_t *shape, cusci_dtype wdt, cusci_dtype dt, cusci_array **out)
{
  cusci_array *t = NULL;
  *out = NULL;
  TRY(cusci_array_from_host(ctx, buf, nd, shape, wdt, &t));
  if (wdt == dt) {
    *out = t;
    return CUSCI_OK;
  }
  cusci_status st = cusci_array_astype(ctx, t, dt, true, out);
  cusci_array_release(t);
  return st;
}

cusci_status cusci__la_check_input(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, int min_ndim)
{
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_array(ctx, fn, name, a));
  if (cusci_array_ndim(a) < min_ndim)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "%s has %d dimensions, expected at least %d", name, cusci_array_ndim(a), min_ndim);
  return CUSCI_OK;
}

cusci_status cusci__la_check_square(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a)
{
  TRY(cusci__la_check_input(ctx, fn, name, a, 2));
  int nd = cusci_array_ndim(a);
  const int64_t *sh = cusci_array_shape(a);
  if (sh[nd - 1] != sh[nd - 2]) {
    char buf[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "%s has shape %s, expected square matrices", name,
                          cusci_shape_str(nd, sh, buf, sizeof buf));
  }
  return CUSCI_OK;
}

cusci_status cusci__la_check_lapack(cusci_ctx *ctx, const char *fn, int64_t m, int64_t n, bool staged)
{
  if ((staged || cusci__la_on_host(ctx)) && (m > INT_MAX || n > INT_MAX || (m > 0 && n > INT_MAX / m)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a %lldx%lld matrix exceeds LAPACK's int on the host", (long long)m, (long long)n);
  return CUSCI_OK;
}

cusci_status cusci__la_rhs_of(cusci_ctx *ctx, const char *fn, const char *na, const cusci_array *a, const cusci_array *b, cusci_dtype dt,
                              cusci_array **x, cusci__la_rhs *r)
{
  int nda = cusci_array_ndim(a), nbd = cusci_array_ndim(b);
  const int64_t *sa = cusci_array_shape(a), *sb = cusci_array_shape(b);
  int64_t n = sa[nda - 1];
  r->vec = nbd == 1;
  r->n = n;
  r->k = r->vec ? 1 : sb[nbd - 1];
  int64_t bn = r->vec ? sb[0] : sb[nbd - 2];
  if (bn != n) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "%s has shape %s and b %s: b must have %lld rows", na, cusci_shape_str(nda, sa, b1, sizeof b1),
                          cusci_shape_str(nbd, sb, b2, sizeof b2), (long long)n);
  }
  TRY(cusci__la_broadcast_batch(ctx, fn, nda - 2, sa, r->vec ? 0 : nbd - 2, sb, &r->nb, r->shape));
  if (r->nb + 2 > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the result would have %d dimensions", r->nb + 2);
  TRY(cusci__la_check_lapack(ctx, fn, n, n, false));
  TRY(cusci__la_check_lapack(ctx, fn, n, r->k, false));
  memcpy(r->xshape, r->shape, sizeof *r->shape * (size_t)r->nb);
  r->xshape[r->nb] = n;
  if (!r->vec)
    r->xshape[r->nb + 1] = r->k;
  TRY(cusci_check_out(ctx, fn, x, r->nb + (r->vec ? 1 : 2), r->xshape, dt, CUSCI_CASTING_NO));
  r->batch = cusci__la_prod(r->nb, r->shape);
  return CUSCI_OK;
}

cusci_status cusci__la_rhs_view(cusci_ctx *ctx, const cusci_array *b, cusci__la_rhs *r, cusci_array **vb)
{
  r->shape[r->nb] = r->n;
  r->shape[r->nb + 1] = r->k;
  int64_t col[2] = { r->n, 1 };
  cusci_array *b2 = NULL;
  *vb = NULL;
  cusci_status st = r->vec ? cusci_array_reshape(ctx, (cusci_array *)b, 2, col, &b2) : cusci_array_ascontiguousarray(ctx, (cusci_array *)b, &b2);
  if (st == CUSCI_OK)
    st = cusci_array_broadcast_to(ctx, b2, r->nb + 2, r->shape, vb);
  cusci_array_release(b2);
  return st;
}

cusci_status cusci__la_check_int(cusci_ctx *ctx, const char *fn, const char *lib, int64_t m, int64_t n)
{
  if (!cusci__la_on_host(ctx) && (m > INT_MAX || n > INT_MAX))
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a %lldx%lld matrix exceeds %s's int", (long long)m, (long long)n, lib);
  return CUSCI_OK;
}

cusci_status cusci__la_square_input(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, bool staged, cusci__la_square *q)
{
  TRY(cusci__la_check_square(ctx, fn, name, a));
  TRY(cusci__la_work_dtype(ctx, fn, name, cusci_array_dtype(a), &q->dt));
  q->nd = cusci_array_ndim(a);
  q->sh = cusci_array_shape(a);
  q->n = q->sh[q->nd - 1];
  q->batch = cusci__la_prod(q->nd - 2, q->sh);
  return cusci__la_check_lapack(ctx, fn, q->n, q->n, staged);
}

/* A new C-contiguous copy of a in dtype dt (the working copy a factorization
 * overwrites). */
cusci_status cusci__la_work_copy(cusci_ctx *ctx, const cusci_array *a, cusci_dtype dt, cusci_array **w)
{
  *w = NULL;
  return cusci_array_astype(ctx, (cusci_array *)a, dt, true, w);
}

/* a for a GPU path that only reads it (the small-matrix kernels, n <= 32):
 * a C-contiguous array of the working dtype serves as is, without the copy. */
cusci_status cusci__la_read_copy(cusci_ctx *ctx, const cusci_array *a, cusci_dtype dt, bool read_only, cusci_array **w)
{
  if (read_only && !cusci__la_on_host(ctx) && cusci_array_dtype(a) == dt && cusci_array_is_c_contiguous(a)) {
    *w = cusci_array_retain((cusci_array *)a);
    return CUSCI_OK;
  }
  return cusci__la_work_copy(ctx, a, dt, w);
}

cusci_status cusci__la_give_all(cusci_ctx *ctx, const char *fn, cusci_status st, int n, cusci_array **res, cusci_array ***out)
{
  for (int i = 0; i < n; i++) {
    if (st == CUSCI_OK && out[i] && res[i]) {
      st = cusci_give_out(ctx, fn, res[i], out[i]);
      res[i] = NULL;
    }
    cusci_array_release(res[i]);
  }
  return st;
}

const char *cusci__la_where(int nb, const int64_t *bshape, int64_t i, char *buf, size_t len)
{
  if (nb <= 0) {
    buf[0] = 0;
    return buf;
  }
  int64_t idx[CUSCI_MAX_NDIM];
  for (int d = nb - 1; d >= 0; d--) {
    idx[d] = bshape[d] ? i % bshape[d] : 0;
    i = bshape[d] ? i / bshape[d] : 0;
  }
  size_t o = (size_t)snprintf(buf, len, " (batch index [");
  for (int d = 0; d < nb && o < len; d++)
    o += (size_t)snprintf(buf + o, len - o, d ? ", %lld" : "%lld", (long long)idx[d]);
  if (o < len)
    snprintf(buf + o, len - o, "])");
  return buf;
}

/* CUSCI_ERR_LINALG with SciPy's words, the failing index and the batch
 * index (for a batch). */
cusci_status cusci__la_fail_linalg(cusci_ctx *ctx, const char *fn, int kind, cusci__la_fail f, int nb, const int64_t *bshape)
{
  char where[300];
  cusci__la_where(nb, bshape, f.batch, where, sizeof where);
  long long i = (long long)f.info;
  switch (kind) {
  case CUSCI__LA_FAIL_SINGULAR:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "singular matrix: pivot U[%lld, %lld] is exactly zero%s", i - 1, i - 1, where);
  case CUSCI__LA_FAIL_NOT_PD:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "%lld-th leading minor of the array is not positive definite%s", i, where);
  case CUSCI__LA_FAIL_TRIANGULAR:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "singular matrix: resolution failed at diagonal %lld (it is exactly zero)%s", i - 1, where);
  case CUSCI__LA_FAIL_SVD:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "SVD did not converge (info %lld)%s", i, where);
  case CUSCI__LA_FAIL_TOEPLITZ:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "singular principal minor (of order %lld)%s", i, where);
  default:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "the eigenvalue solver did not converge (info %lld)%s", i, where);
  }
}

cusci_status cusci__la_backend_status(cusci_ctx *ctx, const char *fn, cusci_status st, int lapack_info, bool nonfinite)
{
  if (st != CUSCI_OK)
    return st;
  if (nonfinite)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "array must not contain infs or NaNs");
  /* LAPACK_WORK_MEMORY_ERROR and LAPACK_TRANSPOSE_MEMORY_ERROR */
  if (lapack_info == -1010 || lapack_info == -1011)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "LAPACKE could not allocate its workspace");
  if (lapack_info != 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "LAPACKE rejected argument %d", -lapack_info);
  return CUSCI_OK;
}

bool cusci__la_nonfinite_d(const double *x, size_t count)
{
  for (size_t i = 0; i < count; i++)
    if (!isfinite(x[i]))
      return true;
  return false;
}

cusci_status cusci__la_check_same_shape(cusci_ctx *ctx, const char *fn, const char *na, const cusci_array *a, const char *nb,
                                        const cusci_array *b)
{
  int nd = cusci_array_ndim(a);
  bool same = cusci_array_ndim(b) == nd;
  for (int i = 0; same && i < nd; i++)
    same = cusci_array_shape(a)[i] == cusci_array_shape(b)[i];
  if (!same) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "%s has shape %s and %s %s: expected the same shape", na,
                          cusci_shape_str(nd, cusci_array_shape(a), b1, sizeof b1), nb,
                          cusci_shape_str(cusci_array_ndim(b), cusci_array_shape(b), b2, sizeof b2));
  }
  return CUSCI_OK;
}

/* The status of a backend call: a non-finite input first (as SciPy checks
 * before it factors), then a numerical failure, then LAPACKE's own error. */
cusci_status cusci__la_outcome(cusci_ctx *ctx, const char *fn, cusci_status st, int lapack_info, bool nonfinite, cusci__la_fail f,
                               int kind, int nb, const int64_t *bshape)
{
  if (st != CUSCI_OK)
    return st;
  cusci__la_defer_tag(ctx, kind); /* what a deferred check will call a failure */
  CUSCI_TRY(cusci__la_backend_status(ctx, fn, st, lapack_info, nonfinite));
  if (f.info > 0)
    return cusci__la_fail_linalg(ctx, fn, kind, f, nb, bshape);
  return CUSCI_OK;
}

/* On the host, the inf/NaN check runs before the work. */
bool cusci__la_host_nonfinite(cusci_array *a)
{
  return cusci__ref_la_nonfinite(cusci_array_dtype(a), cusci_array_size(a), cusci_array_data(a));
}
