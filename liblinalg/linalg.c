/*
 * liblinalg/linalg.c: the API layer of liblinalg. Each function checks its
 * arguments once, makes C-contiguous working copies in the working dtype,
 * then hands them to the host backend (reference/linalg, LAPACKE and CBLAS)
 * or the CUDA backend (kernels/linalg, cuBLAS and cuSOLVER) by the
 * context's device, and reports a numerical failure as scipy.linalg does.
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
/* Plain C: its declarations, and the small-matrix predicates that decide
 * a GPU call's copies, build without CUDA too (a host context makes its
 * copies whatever they say: read_copy). */
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
  CUSCI_ENTRY_CTX(ctx, __func__);
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
static cusci_status work_copy(cusci_ctx *ctx, const cusci_array *a, cusci_dtype dt, cusci_array **w)
{
  *w = NULL;
  return cusci_array_astype(ctx, (cusci_array *)a, dt, true, w);
}

/* a for a GPU path that only reads it (the small-matrix kernels, n <= 32):
 * a C-contiguous array of the working dtype serves as is, without the copy. */
static cusci_status read_copy(cusci_ctx *ctx, const cusci_array *a, cusci_dtype dt, bool read_only, cusci_array **w)
{
  if (read_only && !cusci__la_on_host(ctx) && cusci_array_dtype(a) == dt && cusci_array_is_c_contiguous(a)) {
    *w = cusci_array_retain((cusci_array *)a);
    return CUSCI_OK;
  }
  return work_copy(ctx, a, dt, w);
}

/* Hand a finished result to the caller: as *out when it was NULL, else
 * copied into the caller's array. Takes the reference to res. */
cusci_status cusci__la_give(cusci_ctx *ctx, cusci_array *res, cusci_array **out)
{
  if (*out == NULL) {
    *out = res;
    return CUSCI_OK;
  }
  cusci_status st = cusci_array_copy(ctx, res, out);
  cusci_array_release(res);
  return st;
}

cusci_status cusci__la_give_all(cusci_ctx *ctx, cusci_status st, int n, cusci_array **res, cusci_array ***out)
{
  for (int i = 0; i < n; i++) {
    if (st == CUSCI_OK && out[i] && res[i]) {
      st = cusci__la_give(ctx, res[i], out[i]);
      res[i] = NULL;
    }
    cusci_array_release(res[i]);
  }
  return st;
}

/* Check a caller's output array against the result it will receive, before
 * any work (so that a mismatch costs nothing). */
cusci_status cusci__la_check_out(cusci_ctx *ctx, const char *fn, cusci_array **out, int ndim, const int64_t *shape, cusci_dtype dt)
{
  if (!out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "an output pointer is NULL");
  if (*out == NULL)
    return CUSCI_OK;
  cusci_array *r;
  return cusci_prepare_out(ctx, fn, out, ndim, shape, dt, &r);
}

/* "[1, 2]" for flat batch index i of the batch shape (nb dims). */
static const char *batch_str(int nb, const int64_t *bshape, int64_t i, char *buf, size_t len)
{
  int64_t idx[CUSCI_MAX_NDIM];
  for (int d = nb - 1; d >= 0; d--) {
    idx[d] = bshape[d] ? i % bshape[d] : 0;
    i = bshape[d] ? i / bshape[d] : 0;
  }
  size_t o = 0;
  o += (size_t)snprintf(buf + o, len - o, "[");
  for (int d = 0; d < nb && o < len; d++)
    o += (size_t)snprintf(buf + o, len - o, d ? ", %lld" : "%lld", (long long)idx[d]);
  if (o < len)
    snprintf(buf + o, len - o, "]");
  return buf;
}

enum {
  FAIL_SINGULAR = CUSCI__LA_FAIL_SINGULAR,
  FAIL_NOT_PD = CUSCI__LA_FAIL_NOT_PD,
  FAIL_SVD = CUSCI__LA_FAIL_SVD,
  FAIL_EIG = CUSCI__LA_FAIL_EIG,
  FAIL_TRIANGULAR = CUSCI__LA_FAIL_TRIANGULAR
};

/* CUSCI_ERR_LINALG with SciPy's words, the failing index and the batch
 * index (for a batch). */
cusci_status cusci__la_fail_linalg(cusci_ctx *ctx, const char *fn, int kind, cusci__la_fail f, int nb, const int64_t *bshape)
{
  char where[300] = "";
  if (nb > 0) {
    char idx[256];
    snprintf(where, sizeof where, " (batch index %s)", batch_str(nb, bshape, f.batch, idx, sizeof idx));
  }
  long long i = (long long)f.info;
  switch (kind) {
  case FAIL_SINGULAR:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "singular matrix: pivot U[%lld, %lld] is exactly zero%s", i - 1, i - 1, where);
  case FAIL_NOT_PD:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "%lld-th leading minor of the array is not positive definite%s", i, where);
  case FAIL_TRIANGULAR:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "singular matrix: resolution failed at diagonal %lld (it is exactly zero)%s", i - 1, where);
  case FAIL_SVD:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "SVD did not converge (info %lld)%s", i, where);
  case CUSCI__LA_FAIL_TOEPLITZ:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "singular principal minor (of order %lld)%s", i, where);
  default:
    return cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "the eigenvalue solver did not converge (info %lld)%s", i, where);
  }
}

static cusci_status fail_nonfinite(cusci_ctx *ctx, const char *fn)
{
  return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "array must not contain infs or NaNs");
}

static cusci_status fail_lapack(cusci_ctx *ctx, const char *fn, int info)
{
  /* LAPACK_WORK_MEMORY_ERROR and LAPACK_TRANSPOSE_MEMORY_ERROR */
  if (info == -1010 || info == -1011)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "LAPACKE could not allocate its workspace");
  return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "LAPACKE rejected argument %d", -info);
}

/* ---------------------------------------------------------------- matmul */

/*
 * One operand of matmul as the backends want it: C-contiguous in dtype dt,
 * either one matrix (batch stride 0) or the whole broadcast batch.
 */
static cusci_status gemm_operand(cusci_ctx *ctx, const cusci_array *a, cusci_dtype dt, int nb, const int64_t *bshape,
                                 int64_t rows, int64_t cols, cusci_array **w, int64_t *stride)
{
  int nd = cusci_array_ndim(a);
  int64_t shape[CUSCI_MAX_NDIM + 2];
  cusci_array *c = NULL, *v = NULL;
  *w = NULL;
  bool one = cusci__la_prod(nd > 2 ? nd - 2 : 0, cusci_array_shape(a)) == 1 || nd <= 2;
  int64_t mat[2] = { rows, cols };
  cusci_status st;
  if (one) {
    /* One matrix, repeated with stride 0 over the batch. */
    st = cusci_array_reshape(ctx, (cusci_array *)a, 2, mat, &v);
    *stride = 0;
  } else {
    memcpy(shape, bshape, sizeof *shape * (size_t)nb);
    shape[nb] = rows;
    shape[nb + 1] = cols;
    cusci_array *r = NULL;
    st = cusci_array_reshape(ctx, (cusci_array *)a, nd == 1 ? 2 : nd, nd == 1 ? mat : cusci_array_shape(a), &r);
    if (st == CUSCI_OK)
      st = cusci_array_broadcast_to(ctx, r, nb + 2, shape, &v);
    cusci_array_release(r);
    *stride = rows * cols;
  }
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, v, dt, false, &c);
  cusci_array_release(v);
  if (st == CUSCI_OK) {
    st = cusci_array_ascontiguousarray(ctx, c, w);
    cusci_array_release(c);
  }
  return st;
}

/* Broadcast two batch shapes (NumPy's rule); CUSCI_ERR_BROADCAST if they do not. */
cusci_status cusci__la_broadcast_batch(cusci_ctx *ctx, const char *fn, int na, const int64_t *sa, int nb, const int64_t *sb,
                                    int *nout, int64_t *out)
{
  int n = na > nb ? na : nb;
  for (int i = 0; i < n; i++) {
    int64_t x = i < n - na ? 1 : sa[i - (n - na)], y = i < n - nb ? 1 : sb[i - (n - nb)];
    if (x != y && x != 1 && y != 1) {
      char b1[256], b2[256];
      return cusci_ctx_fail(ctx, CUSCI_ERR_BROADCAST, fn, "batch shapes %s and %s do not broadcast", cusci_shape_str(na, sa, b1, sizeof b1),
                            cusci_shape_str(nb, sb, b2, sizeof b2));
    }
    out[i] = x == 1 ? y : x;
  }
  *nout = n;
  return CUSCI_OK;
}

/*
 * numpy.matmul. The batch axes broadcast; an operand whose batch is a
 * single matrix is not copied but repeated (batch stride 0).
 */
cusci_status cusci_linalg_matmul(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_matmul";
  TRY(cusci__la_check_input(ctx, fn, "a", a, 1));
  TRY(cusci__la_check_input(ctx, fn, "b", b, 1));
  cusci_dtype dt;
  TRY(cusci_promote_types(cusci_array_dtype(a), cusci_array_dtype(b), &dt));
  if (dt != CUSCI_FLOAT32 && dt != CUSCI_FLOAT64 && dt != CUSCI_COMPLEX64 && dt != CUSCI_COMPLEX128)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "operands of dtype %s and %s: matmul takes float32, float64, complex64 and complex128",
                          cusci_dtype_name(cusci_array_dtype(a)), cusci_dtype_name(cusci_array_dtype(b)));
  int na = cusci_array_ndim(a), nbd = cusci_array_ndim(b);
  const int64_t *sa = cusci_array_shape(a), *sb = cusci_array_shape(b);
  int64_t m = na == 1 ? 1 : sa[na - 2], k = sa[na - 1];
  int64_t kb = nbd == 1 ? sb[0] : sb[nbd - 2], n = nbd == 1 ? 1 : sb[nbd - 1];
  if (k != kb) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "a has shape %s and b %s: the inner dimensions differ (%lld != %lld)",
                          cusci_shape_str(na, sa, b1, sizeof b1), cusci_shape_str(nbd, sb, b2, sizeof b2), (long long)k, (long long)kb);
  }
  int nb;
  int64_t bshape[CUSCI_MAX_NDIM + 2];
  TRY(cusci__la_broadcast_batch(ctx, fn, na > 2 ? na - 2 : 0, sa, nbd > 2 ? nbd - 2 : 0, sb, &nb, bshape));
  int64_t oshape[CUSCI_MAX_NDIM + 2];
  int nout = nb;
  memcpy(oshape, bshape, sizeof *oshape * (size_t)nb);
  if (na > 1)
    oshape[nout++] = m;
  if (nbd > 1)
    oshape[nout++] = n;
  if (nout > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the result would have %d dimensions", nout);
  TRY(cusci__la_check_lapack(ctx, fn, m, k, false));
  TRY(cusci__la_check_lapack(ctx, fn, k, n, false));
  TRY(cusci__la_check_lapack(ctx, fn, m, n, false));
  TRY(cusci__la_check_out(ctx, fn, out, nout, oshape, dt));
  int64_t batch = cusci__la_prod(nb, bshape);

  cusci_array *wa = NULL, *wb = NULL, *res = NULL;
  int64_t stra = 0, strb = 0;
  cusci_status st = gemm_operand(ctx, a, dt, nb, bshape, m, k, &wa, &stra);
  if (st == CUSCI_OK)
    st = gemm_operand(ctx, b, dt, nb, bshape, k, n, &wb, &strb);
  /* Write straight into a caller's C-contiguous out; else into a new array. */
  if (st == CUSCI_OK) {
    if (*out && cusci_array_is_c_contiguous(*out))
      res = cusci_array_retain(*out);
    else
      st = cusci_array_empty(ctx, nout, oshape, dt, &res);
  }
  if (st == CUSCI_OK && batch > 0 && m > 0 && n > 0) {
    if (cusci__la_on_host(ctx)) {
      if (cusci__ref_la_gemm(dt, batch, m, n, k, cusci_array_data(wa), stra, cusci_array_data(wb), strb, cusci_array_data(res)) != 0)
        st = cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "no host gemm for dtype %s", cusci_dtype_name(dt));
    } else {
#ifdef CUSCI_HAVE_CUDA
      st = cusci__gpu_la_gemm(ctx, fn, dt, batch, m, n, k, cusci_array_data(wa), stra, cusci_array_data(wb), strb, cusci_array_data(res));
#else
      st = cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "this build has no CUDA backend");
#endif
    }
  }
  cusci_array_release(wa);
  cusci_array_release(wb);
  if (st != CUSCI_OK) {
    cusci_array_release(res);
    return st;
  }
  if (*out && res == *out) {
    cusci_array_release(res);
    return CUSCI_OK;
  }
  return cusci__la_give(ctx, res, out);
}

/* ----------------------------------------------------------- factorizations */

static cusci_status cholesky_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, bool lower, cusci_array **out);

#ifdef CUSCI_HAVE_CUDA
#define GPU_CALL(call) (call)
#else
#define GPU_CALL(call) cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "this build has no CUDA backend")
#endif

/* The status of a backend call: a non-finite input first (as SciPy checks
 * before it factors), then a numerical failure, then LAPACKE's own error. */
cusci_status cusci__la_outcome(cusci_ctx *ctx, const char *fn, cusci_status st, int lapack_info, bool nonfinite, cusci__la_fail f,
                               int kind, int nb, const int64_t *bshape)
{
  if (st != CUSCI_OK)
    return st;
  cusci__la_defer_tag(ctx, kind); /* what a deferred check will call a failure */
  if (nonfinite)
    return fail_nonfinite(ctx, fn);
  if (lapack_info != 0)
    return fail_lapack(ctx, fn, lapack_info);
  if (f.info > 0)
    return cusci__la_fail_linalg(ctx, fn, kind, f, nb, bshape);
  return CUSCI_OK;
}

#define outcome cusci__la_outcome

/* On the host, the inf/NaN check runs before the work. */
static bool host_nonfinite(cusci_array *a)
{
  return cusci__ref_la_nonfinite(cusci_array_dtype(a), cusci_array_size(a), cusci_array_data(a));
}

/*
 * scipy.linalg.solve. a is broadcast to the common batch and b to it as
 * well, b as one column when it is 1-D (NumPy 2's rule).
 */
static cusci_status solve_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_array *b, const cusci_linalg_solve_opts *opts,
                               int special, int tri_trans, bool unit, cusci_array **x)
{
  cusci_linalg_solve_opts o = opts ? *opts : (cusci_linalg_solve_opts){ 0 };
  TRY(cusci__la_check_square(ctx, fn, "a", a));
  TRY(cusci__la_check_input(ctx, fn, "b", b, 1));
  if ((int)o.assume_a < 0 || o.assume_a > CUSCI_LINALG_ASSUME_LOWER_TRIANGULAR)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "assume_a is %d, not a cusci_linalg_assume_a", (int)o.assume_a);
  cusci_dtype da, db, dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &da));
  TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
  TRY(cusci_promote_types(da, db, &dt));
  if (o.transposed && cusci_dtype_is_complex(dt))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "transposed solves are for real matrices only (as SciPy)");
  int na = cusci_array_ndim(a), nbd = cusci_array_ndim(b);
  const int64_t *sa = cusci_array_shape(a), *sb = cusci_array_shape(b);
  int64_t n = sa[na - 1];
  bool vec = nbd == 1;
  int64_t bn = vec ? sb[0] : sb[nbd - 2], k = vec ? 1 : sb[nbd - 1];
  if (bn != n) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "a has shape %s and b %s: b must have %lld rows", cusci_shape_str(na, sa, b1, sizeof b1),
                          cusci_shape_str(nbd, sb, b2, sizeof b2), (long long)n);
  }
  int nb;
  int64_t shape[CUSCI_MAX_NDIM + 2];
  TRY(cusci__la_broadcast_batch(ctx, fn, na - 2, sa, vec ? 0 : nbd - 2, sb, &nb, shape));
  if (nb + (vec ? 1 : 2) > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the result would have %d dimensions", nb + 2);
  TRY(cusci__la_check_lapack(ctx, fn, n, n, false));
  TRY(cusci__la_check_lapack(ctx, fn, n, k, false));
  int64_t xshape[CUSCI_MAX_NDIM + 2];
  memcpy(xshape, shape, sizeof *shape * (size_t)nb);
  xshape[nb] = n;
  if (!vec)
    xshape[nb + 1] = k;
  TRY(cusci__la_check_out(ctx, fn, x, nb + (vec ? 1 : 2), xshape, dt));
  int64_t batch = cusci__la_prod(nb, shape);

  /* Working copies: a (batch, n, n) and b (batch, n, k), C-contiguous. */
  cusci_array *va = NULL, *vb = NULL, *b2 = NULL, *wa = NULL, *wb = NULL, *res = NULL;
  shape[nb] = n;
  shape[nb + 1] = n;
  int assume = o.assume_a == CUSCI_LINALG_ASSUME_HER && !cusci_dtype_is_complex(dt) ? CUSCI__LA_SYM : (int)o.assume_a;
  if (special) /* cho_solve's factor, or solve_triangular's matrix */
    assume = special;
  /* solve's structured kinds (liblinalg/solvers.c's backends). */
  bool lower = o.lower;
  switch (o.assume_a) {
  case CUSCI_LINALG_ASSUME_DIAGONAL: assume = CUSCI__LA_DIAGONAL; break;
  case CUSCI_LINALG_ASSUME_TRIDIAGONAL: assume = CUSCI__LA_TRIDIAGONAL; break;
  case CUSCI_LINALG_ASSUME_BANDED: assume = CUSCI__LA_BANDED; break;
  case CUSCI_LINALG_ASSUME_UPPER_TRIANGULAR:
  case CUSCI_LINALG_ASSUME_LOWER_TRIANGULAR:
    assume = special = CUSCI__LA_TRIANGULAR;
    tri_trans = o.transposed;
    lower = o.assume_a == CUSCI_LINALG_ASSUME_LOWER_TRIANGULAR;
    break;
  default: break;
  }
  /* a^T = a for sym, her (real) and pos (real) and diagonal. */
  int trans = special == CUSCI__LA_TRIANGULAR ? tri_trans
                                              : o.transposed && (assume == CUSCI__LA_GEN || assume == CUSCI__LA_TRIDIAGONAL || assume == CUSCI__LA_BANDED);
  cusci_status st = cusci_array_broadcast_to(ctx, (cusci_array *)a, nb + 2, shape, &va);
  /* The small-matrix kernels read b (and a general a) where they are and
   * write x apart. */
  bool small = cusci__la_small_solve(assume, n);
  bool read_only = small && cusci__la_small_reads_a(assume);
  if (st == CUSCI_OK)
    st = read_copy(ctx, va, dt, read_only, &wa);
  shape[nb + 1] = k;
  int64_t col[2] = { n, 1 };
  if (st == CUSCI_OK)
    st = vec ? cusci_array_reshape(ctx, (cusci_array *)b, 2, col, &b2) : cusci_array_ascontiguousarray(ctx, (cusci_array *)b, &b2);
  if (st == CUSCI_OK)
    st = cusci_array_broadcast_to(ctx, b2, nb + 2, shape, &vb);
  /* rb: the right-hand sides, b itself where it serves as is; wb: x,
   * solved in place in rb's copy, or new. */
  cusci_array *rb = NULL;
  if (st == CUSCI_OK)
    st = read_copy(ctx, vb, dt, small, &rb);
  if (st == CUSCI_OK)
    st = rb == vb ? cusci_array_empty(ctx, nb + 2, shape, dt, &wb) : (wb = cusci_array_retain(rb), CUSCI_OK);
  cusci_array_release(va);
  cusci_array_release(vb);
  cusci_array_release(b2);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && batch > 0 && n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = !o.no_check_finite && (host_nonfinite(wa) || host_nonfinite(wb));
      if (!nonfinite)
        info = cusci__ref_la_solve(dt, assume, lower, trans, unit, batch, n, k, cusci_array_data(wa), cusci_array_data(wb), &f);
    } else {
      st = GPU_CALL(cusci__gpu_la_solve(ctx, fn, dt, assume, lower, trans, unit, !o.no_check_finite, batch, n, k, cusci_array_data(wa),
                                        cusci_array_data(rb), cusci_array_data(wb), &f, &nonfinite));
    }
  }
  cusci_array_release(wa);
  cusci_array_release(rb);
  st = outcome(ctx, fn, st, info, nonfinite, f,
                assume == CUSCI__LA_POS ? FAIL_NOT_PD : assume == CUSCI__LA_TRIANGULAR ? FAIL_TRIANGULAR : FAIL_SINGULAR, nb, shape);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, wb, nb + (vec ? 1 : 2), xshape, &res);
  cusci_array_release(wb);
  if (st != CUSCI_OK)
    return st;
  return cusci__la_give(ctx, res, x);
}

cusci_status cusci_linalg_solve(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_solve_opts *opts, cusci_array **x)
{
  return solve_impl(ctx, "cusci_linalg_solve", a, b, opts, 0, 0, false, x);
}

/* scipy.linalg.solve_triangular: LAPACKE trtrs; cuBLAS trsm. */
cusci_status cusci_linalg_solve_triangular(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_solve_triangular_opts *opts,
                                           cusci_array **x)
{
  static const char fn[] = "cusci_linalg_solve_triangular";
  cusci_linalg_solve_triangular_opts t = opts ? *opts : (cusci_linalg_solve_triangular_opts){ 0 };
  if ((int)t.trans < 0 || t.trans > CUSCI_LINALG_TRANS_C)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "trans is %d, not a cusci_linalg_trans", (int)t.trans);
  cusci_linalg_solve_opts o = { .lower = t.lower, .no_check_finite = t.no_check_finite };
  return solve_impl(ctx, fn, a, b, &o, CUSCI__LA_TRIANGULAR, (int)t.trans, t.unit_diagonal, x);
}

/* scipy.linalg.cho_factor: the Cholesky factor, other triangle zero. */
cusci_status cusci_linalg_cho_factor(cusci_ctx *ctx, const cusci_array *a, bool lower, cusci_array **c)
{
  return cholesky_impl(ctx, "cusci_linalg_cho_factor", a, lower, c);
}

/* scipy.linalg.cho_solve: potrs with the factor from cho_factor. */
cusci_status cusci_linalg_cho_solve(cusci_ctx *ctx, const cusci_array *c, bool lower, const cusci_array *b, cusci_array **x)
{
  cusci_linalg_solve_opts o = { .assume_a = CUSCI_LINALG_ASSUME_POS, .lower = lower };
  return solve_impl(ctx, "cusci_linalg_cho_solve", c, b, &o, CUSCI__LA_FACTORED, 0, false, x);
}

/* scipy.linalg.lu_factor; the pivots go through the host to become SciPy's
 * 0-based int32 (the GPU's are cuSOLVER's 1-based int64). */
cusci_status cusci_linalg_lu_factor(cusci_ctx *ctx, const cusci_array *a, cusci_array **lu, cusci_array **piv)
{
  static const char fn[] = "cusci_linalg_lu_factor";
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  TRY(cusci__la_check_out(ctx, fn, lu, in.nd, in.sh, in.dt));
  TRY(cusci__la_check_out(ctx, fn, piv, in.nd - 1, in.sh, CUSCI_INT32));
  cusci_array *w = NULL, *p = NULL, *dp = NULL;
  int32_t *hp = malloc(sizeof *hp * (size_t)(in.batch * in.n > 0 ? in.batch * in.n : 1));
  if (!hp)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_status st = work_copy(ctx, a, in.dt, &w);
  bool nonfinite = false;
  int info = 0;
  if (st == CUSCI_OK && in.batch * in.n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_lu_factor(in.dt, in.batch, in.n, cusci_array_data(w), hp);
    } else {
      int64_t np = in.batch * in.n;
      st = cusci_array_empty(ctx, 1, &np, CUSCI_INT64, &dp);
      if (st == CUSCI_OK)
        st = GPU_CALL(cusci__gpu_la_lu_factor(ctx, fn, in.dt, true, in.batch, in.n, cusci_array_data(w), cusci_array_data(dp), &nonfinite));
      int64_t *h64 = st == CUSCI_OK ? malloc(sizeof *h64 * (size_t)np) : NULL;
      if (st == CUSCI_OK && !h64)
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
      if (st == CUSCI_OK)
        st = cusci_array_to_host(ctx, dp, h64, sizeof *h64 * (size_t)np);
      for (int64_t i = 0; st == CUSCI_OK && i < np; i++)
        hp[i] = (int32_t)h64[i];
      free(h64);
    }
  }
  cusci_array_release(dp);
  /* LAPACK's 1-based pivots to SciPy's 0-based. */
  for (int64_t i = 0; st == CUSCI_OK && !nonfinite && info == 0 && i < in.batch * in.n; i++)
    hp[i] -= 1;
  st = outcome(ctx, fn, st, info, nonfinite, (cusci__la_fail){ 0, 0 }, FAIL_SINGULAR, in.nd - 2, in.sh);
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, hp, in.nd - 1, in.sh, CUSCI_INT32, &p);
  free(hp);
  return cusci__la_give_all(ctx, st, 2, (cusci_array *[]){ w, p }, (cusci_array **[]){ lu, piv });
}

/*
 * scipy.linalg.lu from lu_factor: the row interchanges piv give the
 * permutation perm (P_lapack a = l u with (P_lapack a)[i] = a[perm[i]]),
 * so SciPy's p has p[perm[i], i] = 1 and its row indices are perm's
 * inverse; l is the strict lower part of the factors plus the identity,
 * u the upper part.
 */
cusci_status cusci_linalg_lu(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_lu_opts *opts, cusci_array **p, cusci_array **l, cusci_array **u)
{
  static const char fn[] = "cusci_linalg_lu";
  cusci_linalg_lu_opts o = opts ? *opts : (cusci_linalg_lu_opts){ 0 };
  TRY(cusci__la_check_square(ctx, fn, "a", a));
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  cusci_dtype rt = cusci_dtype_real_of(dt);
  int nd = cusci_array_ndim(a);
  const int64_t *sh = cusci_array_shape(a);
  int64_t n = sh[nd - 1], batch = cusci__la_prod(nd - 2, sh);
  if (!o.permute_l)
    TRY(cusci__la_check_out(ctx, fn, p, o.p_indices ? nd - 1 : nd, sh, o.p_indices ? CUSCI_INT32 : rt));
  TRY(cusci__la_check_out(ctx, fn, l, nd, sh, dt));
  TRY(cusci__la_check_out(ctx, fn, u, nd, sh, dt));
  cusci_array *lu = NULL, *piv = NULL, *c = NULL;
  TRY(cusci_linalg_lu_factor(ctx, a, &lu, &piv));
  /* Work on the host in complex128, then convert. */
  size_t nn = (size_t)(batch * n * n);
  double complex *f = malloc(sizeof *f * (nn ? nn : 1)), *lv = calloc(nn ? nn : 1, sizeof *lv), *uv = calloc(nn ? nn : 1, sizeof *uv);
  double *pm = calloc(nn ? nn : 1, sizeof *pm);
  int32_t *pv = malloc(sizeof *pv * (size_t)(batch * n > 0 ? batch * n : 1)), *perm = malloc(sizeof *perm * (size_t)(n > 0 ? n : 1));
  int32_t *pidx = malloc(sizeof *pidx * (size_t)(batch * n > 0 ? batch * n : 1));
  cusci_status st = f && lv && uv && pm && pv && perm && pidx ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, lu, CUSCI_COMPLEX128, true, &c);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, c, f, sizeof *f * nn);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, piv, pv, sizeof *pv * (size_t)(batch * n));
  for (int64_t b = 0; st == CUSCI_OK && b < batch; b++) {
    for (int64_t i = 0; i < n; i++)
      perm[i] = (int32_t)i;
    for (int64_t i = 0; i < n; i++) {
      int32_t j = pv[b * n + i], t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    for (int64_t i = 0; i < n; i++) {
      pm[b * n * n + (int64_t)perm[i] * n + i] = 1;
      pidx[b * n + perm[i]] = (int32_t)i;
    }
    const double complex *fb = f + b * n * n;
    double complex *lb = lv + b * n * n, *ub = uv + b * n * n;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        if (j < i)
          lb[i * n + j] = fb[i * n + j];
        else
          ub[i * n + j] = fb[i * n + j];
        if (i == j)
          lb[i * n + j] = 1;
      }
    if (o.permute_l) {
      /* p l: row perm[i] of the result is row i of l. */
      double complex *t = malloc(sizeof *t * (size_t)(n * n > 0 ? n * n : 1));
      if (!t) {
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
        break;
      }
      for (int64_t i = 0; i < n; i++)
        memcpy(t + (int64_t)perm[i] * n, lb + i * n, sizeof *t * (size_t)n);
      memcpy(lb, t, sizeof *t * (size_t)(n * n));
      free(t);
    }
  }
  cusci_array_release(lu);
  cusci_array_release(piv);
  cusci_array_release(c);
  cusci_array *rl = NULL, *ru = NULL, *rp = NULL, *tmp = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, lv, nd, sh, CUSCI_COMPLEX128, &tmp);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, tmp, dt, false, &rl);
  cusci_array_release(tmp);
  tmp = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, uv, nd, sh, CUSCI_COMPLEX128, &tmp);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, tmp, dt, false, &ru);
  cusci_array_release(tmp);
  tmp = NULL;
  if (st == CUSCI_OK && !o.permute_l) {
    if (o.p_indices) {
      st = cusci_array_from_host(ctx, pidx, nd - 1, sh, CUSCI_INT32, &rp);
    } else {
      st = cusci_array_from_host(ctx, pm, nd, sh, CUSCI_FLOAT64, &tmp);
      if (st == CUSCI_OK)
        st = cusci_array_astype(ctx, tmp, rt, false, &rp);
      cusci_array_release(tmp);
    }
  }
  free(f), free(lv), free(uv), free(pm), free(pv), free(perm), free(pidx);
  return cusci__la_give_all(ctx, st, 3, (cusci_array *[]){ rp, rl, ru }, (cusci_array **[]){ p, l, u });
}

/* scipy.linalg.lu_solve: the pivots are checked and made 1-based on the
 * host, int32 for LAPACKE, int64 for cuSOLVER. */
cusci_status cusci_linalg_lu_solve(cusci_ctx *ctx, const cusci_array *lu, const cusci_array *piv, const cusci_array *b, cusci_linalg_trans trans, cusci_array **x)
{
  static const char fn[] = "cusci_linalg_lu_solve";
  TRY(cusci__la_check_square(ctx, fn, "lu", lu));
  TRY(cusci__la_check_input(ctx, fn, "piv", piv, 1));
  TRY(cusci__la_check_input(ctx, fn, "b", b, 1));
  if ((int)trans < 0 || trans > CUSCI_LINALG_TRANS_C)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "trans is %d, not a cusci_linalg_trans", (int)trans);
  if (cusci_array_dtype(piv) != CUSCI_INT32)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "piv has dtype %s, expected int32 (lu_factor's)", cusci_dtype_name(cusci_array_dtype(piv)));
  cusci_dtype da, db, dt;
  TRY(cusci__la_work_dtype(ctx, fn, "lu", cusci_array_dtype(lu), &da));
  TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
  TRY(cusci_promote_types(da, db, &dt));
  int nl = cusci_array_ndim(lu), np_ = cusci_array_ndim(piv), nbd = cusci_array_ndim(b);
  const int64_t *sl = cusci_array_shape(lu), *sp = cusci_array_shape(piv), *sb = cusci_array_shape(b);
  int64_t n = sl[nl - 1];
  bool same = np_ == nl - 1 && sp[np_ - 1] == n;
  for (int i = 0; same && i < nl - 2; i++)
    same = sp[i] == sl[i];
  if (!same) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "lu has shape %s and piv %s: piv must be lu's shape without its last axis",
                          cusci_shape_str(nl, sl, b1, sizeof b1), cusci_shape_str(np_, sp, b2, sizeof b2));
  }
  bool vec = nbd == 1;
  int64_t bn = vec ? sb[0] : sb[nbd - 2], k = vec ? 1 : sb[nbd - 1];
  if (bn != n) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "lu has shape %s and b %s: b must have %lld rows", cusci_shape_str(nl, sl, b1, sizeof b1),
                          cusci_shape_str(nbd, sb, b2, sizeof b2), (long long)n);
  }
  int nb;
  int64_t shape[CUSCI_MAX_NDIM + 2];
  TRY(cusci__la_broadcast_batch(ctx, fn, nl - 2, sl, vec ? 0 : nbd - 2, sb, &nb, shape));
  if (nb + 2 > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the result would have %d dimensions", nb + 2);
  TRY(cusci__la_check_lapack(ctx, fn, n, n, false));
  TRY(cusci__la_check_lapack(ctx, fn, n, k, false));
  int64_t xshape[CUSCI_MAX_NDIM + 2];
  memcpy(xshape, shape, sizeof *shape * (size_t)nb);
  xshape[nb] = n;
  if (!vec)
    xshape[nb + 1] = k;
  TRY(cusci__la_check_out(ctx, fn, x, nb + (vec ? 1 : 2), xshape, dt));
  int64_t batch = cusci__la_prod(nb, shape);

  /* Working copies broadcast to the common batch: lu, piv (host) and b. */
  cusci_array *vl = NULL, *vp = NULL, *pc = NULL, *b2 = NULL, *vb = NULL, *wl = NULL, *wb = NULL, *dp = NULL, *res = NULL;
  int32_t *hp = NULL;
  shape[nb] = n;
  shape[nb + 1] = n;
  cusci_status st = cusci_array_broadcast_to(ctx, (cusci_array *)lu, nb + 2, shape, &vl);
  if (st == CUSCI_OK)
    st = work_copy(ctx, vl, dt, &wl);
  if (st == CUSCI_OK)
    st = cusci_array_broadcast_to(ctx, (cusci_array *)piv, nb + 1, shape, &vp);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, vp, &pc);
  if (st == CUSCI_OK) {
    hp = malloc(sizeof *hp * (size_t)(batch * n > 0 ? batch * n : 1));
    st = hp ? cusci_array_to_host(ctx, pc, hp, sizeof *hp * (size_t)(batch * n)) : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  for (int64_t i = 0; st == CUSCI_OK && i < batch * n; i++) {
    if (hp[i] < 0 || hp[i] >= n)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "piv holds %d, outside 0..%lld", (int)hp[i], (long long)n - 1);
    else
      hp[i] += 1;
  }
  shape[nb + 1] = k;
  int64_t col[2] = { n, 1 };
  if (st == CUSCI_OK)
    st = vec ? cusci_array_reshape(ctx, (cusci_array *)b, 2, col, &b2) : cusci_array_ascontiguousarray(ctx, (cusci_array *)b, &b2);
  if (st == CUSCI_OK)
    st = cusci_array_broadcast_to(ctx, b2, nb + 2, shape, &vb);
  if (st == CUSCI_OK)
    st = work_copy(ctx, vb, dt, &wb);
  cusci_array_release(vl);
  cusci_array_release(vp);
  cusci_array_release(pc);
  cusci_array_release(b2);
  cusci_array_release(vb);
  bool nonfinite = false;
  int info = 0;
  if (st == CUSCI_OK && batch > 0 && n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = host_nonfinite(wl) || host_nonfinite(wb);
      if (!nonfinite)
        info = cusci__ref_la_lu_solve(dt, (int)trans, batch, n, k, cusci_array_data(wl), hp, cusci_array_data(wb));
    } else {
      int64_t np = batch * n;
      int64_t *h64 = malloc(sizeof *h64 * (size_t)np);
      if (!h64)
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
      for (int64_t i = 0; st == CUSCI_OK && i < np; i++)
        h64[i] = hp[i];
      if (st == CUSCI_OK)
        st = cusci_array_from_host(ctx, h64, 1, &np, CUSCI_INT64, &dp);
      free(h64);
      if (st == CUSCI_OK)
        st = GPU_CALL(cusci__gpu_la_lu_solve(ctx, fn, dt, true, batch, n, k, (int)trans, cusci_array_data(wl), cusci_array_data(dp),
                                             cusci_array_data(wb), &nonfinite));
    }
  }
  free(hp);
  cusci_array_release(dp);
  cusci_array_release(wl);
  st = outcome(ctx, fn, st, info, nonfinite, (cusci__la_fail){ 0, 0 }, FAIL_SINGULAR, nb, shape);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, wb, nb + (vec ? 1 : 2), xshape, &res);
  cusci_array_release(wb);
  if (st != CUSCI_OK)
    return st;
  return cusci__la_give(ctx, res, x);
}

/* scipy.linalg.inv. */
cusci_status cusci_linalg_inv(cusci_ctx *ctx, const cusci_array *a, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_inv";
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  TRY(cusci__la_check_out(ctx, fn, out, in.nd, in.sh, in.dt));
  cusci_array *w = NULL, *res = NULL;
  cusci_status st = read_copy(ctx, a, in.dt, in.n > 0 && in.n <= CUSCI__LA_SMALL_MAX && in.batch > 0, &w);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && in.batch > 0 && in.n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_inv(in.dt, in.batch, in.n, cusci_array_data(w), &f);
      res = cusci_array_retain(w);
    } else {
      st = cusci_array_empty(ctx, in.nd, in.sh, in.dt, &res);
      if (st == CUSCI_OK)
        st = GPU_CALL(cusci__gpu_la_inv(ctx, fn, in.dt, true, in.batch, in.n, cusci_array_data(w), cusci_array_data(res), &f, &nonfinite));
    }
  } else if (st == CUSCI_OK) {
    res = cusci_array_retain(w);
  }
  cusci_array_release(w);
  st = outcome(ctx, fn, st, info, nonfinite, f, FAIL_SINGULAR, in.nd - 2, in.sh);
  if (st != CUSCI_OK) {
    cusci_array_release(res);
    return st;
  }
  return cusci__la_give(ctx, res, out);
}

/* scipy.linalg.det. */
cusci_status cusci_linalg_det(cusci_ctx *ctx, const cusci_array *a, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_det";
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  TRY(cusci__la_check_out(ctx, fn, out, in.nd - 2, in.sh, in.dt));
  cusci_array *w = NULL, *res = NULL;
  cusci_status st;
  if (in.n == 0) { /* the determinant of an empty matrix is 1 */
    TRY(cusci_array_ones(ctx, in.nd - 2, in.sh, in.dt, &res));
    return cusci__la_give(ctx, res, out);
  }
  st = read_copy(ctx, a, in.dt, in.n <= CUSCI__LA_SMALL_MAX, &w);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, in.nd - 2, in.sh, in.dt, &res);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && in.batch > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_det(in.dt, in.batch, in.n, cusci_array_data(w), cusci_array_data(res));
    } else {
      st = GPU_CALL(cusci__gpu_la_det(ctx, fn, in.dt, true, in.batch, in.n, cusci_array_data(w), cusci_array_data(res), &nonfinite));
    }
  }
  cusci_array_release(w);
  st = outcome(ctx, fn, st, info, nonfinite, f, FAIL_SINGULAR, in.nd - 2, in.sh);
  if (st != CUSCI_OK) {
    cusci_array_release(res);
    return st;
  }
  return cusci__la_give(ctx, res, out);
}

/* numpy.linalg.slogdet. */
cusci_status cusci_linalg_slogdet(cusci_ctx *ctx, const cusci_array *a, cusci_array **sign, cusci_array **logabsdet)
{
  static const char fn[] = "cusci_linalg_slogdet";
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  cusci_dtype rt = cusci_dtype_real_of(in.dt);
  TRY(cusci__la_check_out(ctx, fn, sign, in.nd - 2, in.sh, in.dt));
  TRY(cusci__la_check_out(ctx, fn, logabsdet, in.nd - 2, in.sh, rt));
  cusci_array *w = NULL, *rs = NULL, *rl = NULL;
  cusci_status st;
  if (in.n == 0) { /* an empty matrix: sign 1, log|det| 0 */
    st = cusci_array_ones(ctx, in.nd - 2, in.sh, in.dt, &rs);
    if (st == CUSCI_OK)
      st = cusci_array_zeros(ctx, in.nd - 2, in.sh, rt, &rl);
  } else {
    st = work_copy(ctx, a, in.dt, &w);
    if (st == CUSCI_OK)
      st = cusci_array_empty(ctx, in.nd - 2, in.sh, in.dt, &rs);
    if (st == CUSCI_OK)
      st = cusci_array_empty(ctx, in.nd - 2, in.sh, rt, &rl);
  }
  bool nonfinite = false;
  int info = 0;
  if (st == CUSCI_OK && in.batch > 0 && in.n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_slogdet(in.dt, in.batch, in.n, cusci_array_data(w), cusci_array_data(rs), cusci_array_data(rl));
    } else {
      st = GPU_CALL(cusci__gpu_la_slogdet(ctx, fn, in.dt, true, in.batch, in.n, cusci_array_data(w), cusci_array_data(rs), cusci_array_data(rl),
                                          &nonfinite));
    }
  }
  cusci_array_release(w);
  st = outcome(ctx, fn, st, info, nonfinite, (cusci__la_fail){ 0, 0 }, FAIL_SINGULAR, in.nd - 2, in.sh);
  return cusci__la_give_all(ctx, st, 2, (cusci_array *[]){ rs, rl }, (cusci_array **[]){ sign, logabsdet });
}

/* scipy.linalg.cholesky (and cho_factor). */
static cusci_status cholesky_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, bool lower, cusci_array **out)
{
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  TRY(cusci__la_check_out(ctx, fn, out, in.nd, in.sh, in.dt));
  cusci_array *w = NULL;
  cusci_status st = work_copy(ctx, a, in.dt, &w);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && in.batch > 0 && in.n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_cholesky(in.dt, in.batch, in.n, lower, cusci_array_data(w), &f);
    } else {
      st = GPU_CALL(cusci__gpu_la_cholesky(ctx, fn, in.dt, true, in.batch, in.n, lower, cusci_array_data(w), &f, &nonfinite));
    }
  }
  st = outcome(ctx, fn, st, info, nonfinite, f, FAIL_NOT_PD, in.nd - 2, in.sh);
  if (st != CUSCI_OK) {
    cusci_array_release(w);
    return st;
  }
  return cusci__la_give(ctx, w, out);
}

/* batch identities of n x n in dtype dt (svd's u and vh of an empty matrix
 * with full_matrices). */
static cusci_status batch_eye(cusci_ctx *ctx, int nb, const int64_t *bshape, int64_t n, cusci_dtype dt, cusci_array **out)
{
  cusci_array *e = NULL, *v = NULL;
  int64_t shape[CUSCI_MAX_NDIM];
  memcpy(shape, bshape, sizeof *shape * (size_t)nb);
  shape[nb] = n;
  shape[nb + 1] = n;
  TRY(cusci_array_eye(ctx, n, n, 0, dt, &e));
  cusci_status st = cusci_array_broadcast_to(ctx, e, nb + 2, shape, &v);
  if (st == CUSCI_OK) {
    *out = NULL;
    st = cusci_array_copy(ctx, v, out);
  }
  cusci_array_release(v);
  cusci_array_release(e);
  return st;
}

/* scipy.linalg.svd. */
static cusci_status svd_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, bool full_matrices, bool compute_uv, cusci_array **u,
                             cusci_array **s, cusci_array **vh)
{
  TRY(cusci__la_check_input(ctx, fn, "a", a, 2));
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  cusci_dtype rt = cusci_dtype_real_of(dt);
  int nd = cusci_array_ndim(a), nb = nd - 2;
  const int64_t *sh = cusci_array_shape(a);
  int64_t m = sh[nd - 2], n = sh[nd - 1], K = m < n ? m : n, batch = cusci__la_prod(nb, sh);
  TRY(cusci__la_check_lapack(ctx, fn, m, n, false));
  int64_t ushape[CUSCI_MAX_NDIM], sshape[CUSCI_MAX_NDIM], vshape[CUSCI_MAX_NDIM];
  memcpy(ushape, sh, sizeof *sh * (size_t)nb);
  memcpy(sshape, sh, sizeof *sh * (size_t)nb);
  memcpy(vshape, sh, sizeof *sh * (size_t)nb);
  sshape[nb] = K;
  ushape[nb] = m;
  ushape[nb + 1] = full_matrices ? m : K;
  vshape[nb] = full_matrices ? n : K;
  vshape[nb + 1] = n;
  TRY(cusci__la_check_out(ctx, fn, s, nb + 1, sshape, rt));
  if (compute_uv) {
    TRY(cusci__la_check_out(ctx, fn, u, nb + 2, ushape, dt));
    TRY(cusci__la_check_out(ctx, fn, vh, nb + 2, vshape, dt));
  }
  cusci_array *w = NULL, *ru = NULL, *rs = NULL, *rv = NULL;
  cusci_status st = work_copy(ctx, a, dt, &w);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nb + 1, sshape, rt, &rs);
  if (st == CUSCI_OK && compute_uv) {
    if (K == 0 && full_matrices) {
      st = batch_eye(ctx, nb, sh, m, dt, &ru);
      if (st == CUSCI_OK)
        st = batch_eye(ctx, nb, sh, n, dt, &rv);
    } else {
      st = cusci_array_empty(ctx, nb + 2, ushape, dt, &ru);
      if (st == CUSCI_OK)
        st = cusci_array_empty(ctx, nb + 2, vshape, dt, &rv);
    }
  }
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && batch > 0 && K > 0) {
    void *pu = compute_uv ? cusci_array_data(ru) : NULL, *pv = compute_uv ? cusci_array_data(rv) : NULL;
    if (cusci__la_on_host(ctx)) {
      nonfinite = host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_svd(dt, batch, m, n, full_matrices, compute_uv, cusci_array_data(w), pu, cusci_array_data(rs), pv, &f);
    } else {
      st = GPU_CALL(cusci__gpu_la_svd(ctx, fn, dt, true, batch, m, n, full_matrices, compute_uv, cusci_array_data(w), pu,
                                      cusci_array_data(rs), pv, &f, &nonfinite));
    }
  }
  cusci_array_release(w);
  st = outcome(ctx, fn, st, info, nonfinite, f, FAIL_SVD, nb, sh);
  /* Hand the results over only when all three can be: a caller's arrays
   * are checked above, so cusci__la_give() can fail only by a copy's own error. */
  return cusci__la_give_all(ctx, st, 3, (cusci_array *[]){ ru, rv, rs },
                            (cusci_array **[]){ compute_uv ? u : NULL, compute_uv ? vh : NULL, s });
}

/* scipy.linalg.eigh. */
static cusci_status eigh_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_linalg_eigh_opts *opts, cusci_array **w,
                              cusci_array **v)
{
  cusci_linalg_eigh_opts o = opts ? *opts : (cusci_linalg_eigh_opts){ 0 };
  if (o.subset != CUSCI_LINALG_SUBSET_ALL || o.b)
    return cusci__la_eigh_ex(ctx, fn, a, &o, w, v); /* liblinalg/eig.c */
  if (o.type < 0 || o.type > 3)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "type is %d, expected 1, 2 or 3", o.type);
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  cusci_dtype dt = in.dt, rt = cusci_dtype_real_of(dt);
  int nd = in.nd, nb = nd - 2;
  const int64_t *sh = in.sh;
  int64_t n = in.n, batch = in.batch;
  TRY(cusci__la_check_out(ctx, fn, w, nd - 1, sh, rt));
  if (v)
    TRY(cusci__la_check_out(ctx, fn, v, nd, sh, dt));
  cusci_array *work = NULL, *rw = NULL, *rv = NULL;
  cusci_status st = work_copy(ctx, a, dt, &work);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd - 1, sh, rt, &rw);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK) {
    if (cusci__la_on_host(ctx)) {
      if (batch > 0 && n > 0) {
        nonfinite = !o.no_check_finite && host_nonfinite(work);
        if (!nonfinite)
          info = cusci__ref_la_eigh(dt, batch, n, o.upper, v != NULL, cusci_array_data(work), cusci_array_data(rw), &f);
      }
      if (v)
        rv = cusci_array_retain(work);
    } else {
      if (v)
        st = cusci_array_empty(ctx, nd, sh, dt, &rv);
      if (st == CUSCI_OK && batch > 0 && n > 0)
        st = GPU_CALL(cusci__gpu_la_eigh(ctx, fn, dt, !o.no_check_finite, batch, n, o.upper, cusci_array_data(work), cusci_array_data(rw),
                                         v ? cusci_array_data(rv) : NULL, &f, &nonfinite));
    }
  }
  cusci_array_release(work);
  st = outcome(ctx, fn, st, info, nonfinite, f, FAIL_EIG, nb, sh);
  return cusci__la_give_all(ctx, st, 2, (cusci_array *[]){ rv, rw }, (cusci_array **[]){ v, w });
}

cusci_status cusci_linalg_svd(cusci_ctx *ctx, const cusci_array *a, bool full_matrices, bool compute_uv, cusci_array **u, cusci_array **s, cusci_array **vh)
{
  return svd_impl(ctx, "cusci_linalg_svd", a, full_matrices, compute_uv, u, s, vh);
}

cusci_status cusci_linalg_svdvals(cusci_ctx *ctx, const cusci_array *a, cusci_array **s)
{
  return svd_impl(ctx, "cusci_linalg_svdvals", a, false, false, NULL, s, NULL);
}

cusci_status cusci_linalg_eigh(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_eigh_opts *opts, cusci_array **w, cusci_array **v)
{
  return eigh_impl(ctx, "cusci_linalg_eigh", a, opts, w, v);
}

cusci_status cusci_linalg_eigvalsh(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_eigh_opts *opts, cusci_array **w)
{
  return eigh_impl(ctx, "cusci_linalg_eigvalsh", a, opts, w, NULL);
}

cusci_status cusci_linalg_cholesky(cusci_ctx *ctx, const cusci_array *a, bool lower, cusci_array **out)
{
  return cholesky_impl(ctx, "cusci_linalg_cholesky", a, lower, out);
}

/*
 * numpy.linalg.matrix_rank: S from svdvals (|w| from eigvalsh when
 * hermitian), then count S > tol on the host, where tol is opts->tol or
 * rtol * max(S), rtol defaulting to max(M, N) * eps (NumPy 2's rule).
 */
cusci_status cusci_linalg_matrix_rank(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_matrix_rank_opts *opts, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_matrix_rank";
  cusci_linalg_matrix_rank_opts o = opts ? *opts : (cusci_linalg_matrix_rank_opts){ 0 };
  TRY(cusci__la_check_input(ctx, fn, "a", a, 0));
  if ((o.has_tol && !(o.tol >= 0)) || !(o.rtol >= 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "tol and rtol must be non-negative numbers");
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  int nd = cusci_array_ndim(a);
  const int64_t *sh = cusci_array_shape(a);
  int nb = nd >= 2 ? nd - 2 : 0;
  TRY(cusci__la_check_out(ctx, fn, out, nb, sh, CUSCI_INT64));
  int64_t batch = cusci__la_prod(nb, sh);
  int64_t *rank = malloc(sizeof *rank * (size_t)(batch ? batch : 1));
  if (!rank)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array *sv = NULL, *c = NULL;
  cusci_status st = CUSCI_OK;
  if (nd < 2) {
    /* Any nonzero element: rank 1. */
    st = cusci_array_astype(ctx, (cusci_array *)a, CUSCI_COMPLEX128, true, &c);
    size_t bytes = cusci_array_nbytes(c);
    double *v = st == CUSCI_OK ? malloc(bytes ? bytes : 1) : NULL;
    if (st == CUSCI_OK && !v)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK)
      st = cusci_array_to_host(ctx, c, v, bytes);
    rank[0] = 0;
    for (int64_t i = 0; st == CUSCI_OK && i < 2 * cusci_array_size(c); i++)
      if (v[i] != 0)
        rank[0] = 1;
    free(v);
  } else {
    int64_t m = sh[nd - 2], n = sh[nd - 1];
    if (o.hermitian)
      st = eigh_impl(ctx, fn, a, NULL, &sv, NULL);
    else
      st = svd_impl(ctx, fn, a, false, false, NULL, &sv, NULL);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, sv, CUSCI_FLOAT64, false, &c);
    int64_t k = st == CUSCI_OK ? cusci_array_shape(c)[nb] : 0;
    double *s = st == CUSCI_OK ? malloc(sizeof *s * (size_t)(batch * k > 0 ? batch * k : 1)) : NULL;
    if (st == CUSCI_OK && !s)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK)
      st = cusci_array_to_host(ctx, c, s, sizeof *s * (size_t)(batch * k));
    double eps = dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
    double rtol = o.rtol > 0 ? o.rtol : (double)(m > n ? m : n) * eps;
    for (int64_t b = 0; st == CUSCI_OK && b < batch; b++) {
      double mx = 0;
      for (int64_t i = 0; i < k; i++)
        mx = fabs(s[b * k + i]) > mx ? fabs(s[b * k + i]) : mx;
      double tol = o.has_tol ? o.tol : rtol * mx;
      rank[b] = 0;
      for (int64_t i = 0; i < k; i++)
        rank[b] += fabs(s[b * k + i]) > tol;
    }
    free(s);
  }
  cusci_array_release(sv);
  cusci_array_release(c);
  cusci_array *r = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, rank, nb, sh, CUSCI_INT64, &r);
  free(rank);
  if (st != CUSCI_OK)
    return st;
  return cusci__la_give(ctx, r, out);
}

/*
 * scipy.linalg.pinv = V diag(s+) U^H, s+ = 1/s above the cutoff, else 0.
 * From the economic SVD u (M, K), s (K), vh (K, N): the host forms
 * P = vh^H diag(s+) (N, K) and Q = u^H (K, M), and one matmul on the
 * device gives P Q.
 */
cusci_status cusci_linalg_pinv(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_pinv_opts *opts, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_pinv";
  cusci_linalg_pinv_opts o = opts ? *opts : (cusci_linalg_pinv_opts){ 0 };
  TRY(cusci__la_check_input(ctx, fn, "a", a, 2));
  if (!(o.atol >= 0) || !(o.rtol >= 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "atol and rtol must be non-negative numbers");
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  int nd = cusci_array_ndim(a), nb = nd - 2;
  const int64_t *sh = cusci_array_shape(a);
  int64_t m = sh[nd - 2], n = sh[nd - 1], K = m < n ? m : n, batch = cusci__la_prod(nb, sh);
  int64_t oshape[CUSCI_MAX_NDIM], pshape[CUSCI_MAX_NDIM], qshape[CUSCI_MAX_NDIM];
  memcpy(oshape, sh, sizeof *sh * (size_t)nb);
  memcpy(pshape, sh, sizeof *sh * (size_t)nb);
  memcpy(qshape, sh, sizeof *sh * (size_t)nb);
  oshape[nb] = n, oshape[nb + 1] = m;
  pshape[nb] = n, pshape[nb + 1] = K;
  qshape[nb] = K, qshape[nb + 1] = m;
  TRY(cusci__la_check_out(ctx, fn, out, nd, oshape, dt));
  cusci_array *u = NULL, *s = NULL, *vh = NULL;
  TRY(svd_impl(ctx, fn, a, false, true, &u, &s, &vh));
  size_t nu = (size_t)(batch * m * K), nv = (size_t)(batch * K * n), ns = (size_t)(batch * K);
  double complex *hu = malloc(sizeof *hu * (nu ? nu : 1)), *hv = malloc(sizeof *hv * (nv ? nv : 1));
  double complex *P = malloc(sizeof *P * (nv ? nv : 1)), *Q = malloc(sizeof *Q * (nu ? nu : 1));
  double *hs = malloc(sizeof *hs * (ns ? ns : 1));
  cusci_status st = hu && hv && P && Q && hs ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array *cu = NULL, *cs = NULL, *cv = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, u, CUSCI_COMPLEX128, true, &cu);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, s, CUSCI_FLOAT64, true, &cs);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, vh, CUSCI_COMPLEX128, true, &cv);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, cu, hu, sizeof *hu * nu);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, cs, hs, sizeof *hs * ns);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, cv, hv, sizeof *hv * nv);
  cusci_array_release(u), cusci_array_release(s), cusci_array_release(vh);
  cusci_array_release(cu), cusci_array_release(cs), cusci_array_release(cv);
  double eps = dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
  double rtol = o.rtol > 0 ? o.rtol : (double)(m > n ? m : n) * eps;
  for (int64_t b = 0; st == CUSCI_OK && b < batch; b++) {
    const double *sb = hs + b * K;
    double smax = K ? sb[0] : 0; /* descending */
    double cut = o.atol + rtol * smax;
    for (int64_t j = 0; j < K; j++) {
      double inv = sb[j] > cut ? 1.0 / sb[j] : 0.0;
      for (int64_t i = 0; i < n; i++)
        P[b * n * K + i * K + j] = conj(hv[b * K * n + j * n + i]) * inv;
      for (int64_t i = 0; i < m; i++)
        Q[b * K * m + j * m + i] = conj(hu[b * m * K + i * K + j]);
    }
  }
  cusci_array *tp = NULL, *tq = NULL, *pp = NULL, *qq = NULL, *r = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, P, nd, pshape, CUSCI_COMPLEX128, &tp);
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, Q, nd, qshape, CUSCI_COMPLEX128, &tq);
  free(hu), free(hv), free(P), free(Q), free(hs);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, tp, dt, false, &pp);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, tq, dt, false, &qq);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(ctx, pp, qq, &r);
  cusci_array_release(tp), cusci_array_release(tq), cusci_array_release(pp), cusci_array_release(qq);
  if (st != CUSCI_OK)
    return st;
  return cusci__la_give(ctx, r, out);
}
