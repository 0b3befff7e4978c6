/*
 * liblinalg/products.c: numpy's dot, inner, outer and kron, written as one
 * matrix product (cusci_linalg_matmul, so cuBLAS gemm on a GPU) between
 * reshaped and transposed views of the operands.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA, before any cusci header */
#endif

#include <string.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"
#include "kernels/linalg/launch.h"
#include "reference/linalg/reference.h"

/* Both operands given, on ctx's device, of the dtypes matmul takes; their
 * promoted dtype in *dt. */
static cusci_status check2(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_array *b, int min_ndim, cusci_dtype *dt)
{
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_array(ctx, fn, "a", a));
  TRY(cusci_check_array(ctx, fn, "b", b));
  if (cusci_array_ndim(a) < min_ndim || cusci_array_ndim(b) < min_ndim)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "a has %d dimensions and b %d, expected at least %d each", cusci_array_ndim(a),
                          cusci_array_ndim(b), min_ndim);
  TRY(cusci_promote_types(cusci_array_dtype(a), cusci_array_dtype(b), dt));
  if (*dt != CUSCI_FLOAT32 && *dt != CUSCI_FLOAT64 && *dt != CUSCI_COMPLEX64 && *dt != CUSCI_COMPLEX128)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "operands of dtype %s and %s: the products take float32, float64, complex64 and complex128",
                          cusci_dtype_name(cusci_array_dtype(a)), cusci_dtype_name(cusci_array_dtype(b)));
  return CUSCI_OK;
}


/* r = reshape(x, shape); the caller releases r. */
static cusci_status reshape(cusci_ctx *ctx, const cusci_array *x, int ndim, const int64_t *shape, cusci_array **r)
{
  *r = NULL;
  return cusci_array_reshape(ctx, (cusci_array *)x, ndim, shape, r);
}

/* matmul(p, q) reshaped to (ndim, shape) and given to *out; releases p, q. */
static cusci_status product(cusci_ctx *ctx, const char *fn, cusci_array *p, cusci_array *q, int ndim, const int64_t *shape, cusci_array **out)
{
  cusci_array *m = NULL, *r = NULL;
  cusci_status st = cusci_linalg_matmul(ctx, p, q, &m);
  cusci_array_release(p);
  cusci_array_release(q);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, m, ndim, shape, &r);
  cusci_array_release(m);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, r, out);
}

/*
 * numpy.outer: a and b flattened, out[i, j] = a[i] b[j], as the product of
 * an (M, 1) column and a (1, N) row.
 */
cusci_status cusci_linalg_outer(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_outer";
  cusci_dtype dt;
  TRY(check2(ctx, fn, a, b, 0, &dt));
  int64_t M = cusci_array_size(a), N = cusci_array_size(b), shape[2] = { M, N };
  TRY(cusci_check_out(ctx, fn, out, 2, shape, dt, CUSCI_CASTING_NO));
  int64_t col[2] = { M, 1 }, row[2] = { 1, N };
  cusci_array *p = NULL, *q = NULL;
  cusci_status st = reshape(ctx, a, 2, col, &p);
  if (st == CUSCI_OK)
    st = reshape(ctx, b, 2, row, &q);
  if (st != CUSCI_OK) {
    cusci_array_release(p);
    cusci_array_release(q);
    return st;
  }
  return product(ctx, fn, p, q, 2, shape, out);
}

/*
 * numpy.inner: the sum over the last axes, a (..., k) and b (..., k) giving
 * a.shape[:-1] + b.shape[:-1]: (P, k) times the transpose of (Q, k).
 */
cusci_status cusci_linalg_inner(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_inner";
  cusci_dtype dt;
  TRY(check2(ctx, fn, a, b, 1, &dt));
  int na = cusci_array_ndim(a), nb = cusci_array_ndim(b);
  const int64_t *sa = cusci_array_shape(a), *sb = cusci_array_shape(b);
  if (sa[na - 1] != sb[nb - 1]) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "a has shape %s and b %s: their last axes differ", cusci_shape_str(na, sa, b1, sizeof b1),
                          cusci_shape_str(nb, sb, b2, sizeof b2));
  }
  if (na + nb - 2 > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the result would have %d dimensions", na + nb - 2);
  int64_t k = sa[na - 1], shape[2 * CUSCI_MAX_NDIM];
  memcpy(shape, sa, sizeof *shape * (size_t)(na - 1));
  memcpy(shape + na - 1, sb, sizeof *shape * (size_t)(nb - 1));
  TRY(cusci_check_out(ctx, fn, out, na + nb - 2, shape, dt, CUSCI_CASTING_NO));
  int64_t pa[2] = { cusci__la_prod(na - 1, sa), k }, pb[2] = { cusci__la_prod(nb - 1, sb), k };
  cusci_array *p = NULL, *q = NULL, *qt = NULL;
  cusci_status st = reshape(ctx, a, 2, pa, &p);
  if (st == CUSCI_OK)
    st = reshape(ctx, b, 2, pb, &q);
  if (st == CUSCI_OK)
    st = cusci_array_transpose(ctx, q, NULL, &qt);
  cusci_array_release(q);
  if (st != CUSCI_OK) {
    cusci_array_release(p);
    cusci_array_release(qt);
    return st;
  }
  return product(ctx, fn, p, qt, na + nb - 2, shape, out);
}

/*
 * numpy.dot: matmul's result where the two agree (either operand 1-D, or
 * both 2-D); for a (..., k) and b (..., k, n) of more axes, the sum over
 * a's last axis and b's second-to-last, a.shape[:-1] + b.shape[:-2] +
 * (n,): (P, k) times b with that axis moved first, as (k, Q n).
 */
cusci_status cusci_linalg_dot(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_dot";
  cusci_dtype dt;
  TRY(check2(ctx, fn, a, b, 1, &dt));
  int na = cusci_array_ndim(a), nb = cusci_array_ndim(b);
  const int64_t *sa = cusci_array_shape(a), *sb = cusci_array_shape(b);
  int64_t k = sa[na - 1], kb = nb == 1 ? sb[0] : sb[nb - 2];
  if (k != kb) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "a has shape %s and b %s: the summed axes differ (%lld != %lld)",
                          cusci_shape_str(na, sa, b1, sizeof b1), cusci_shape_str(nb, sb, b2, sizeof b2), (long long)k, (long long)kb);
  }
  int nd = na - 1 + (nb == 1 ? 0 : nb - 1);
  if (nd > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the result would have %d dimensions", nd);
  int64_t shape[2 * CUSCI_MAX_NDIM];
  memcpy(shape, sa, sizeof *shape * (size_t)(na - 1));
  if (nb > 1) {
    memcpy(shape + na - 1, sb, sizeof *shape * (size_t)(nb - 2));
    shape[nd - 1] = sb[nb - 1];
  }
  TRY(cusci_check_out(ctx, fn, out, nd, shape, dt, CUSCI_CASTING_NO));
  int64_t n = nb == 1 ? 1 : sb[nb - 1], Q = nb > 2 ? cusci__la_prod(nb - 2, sb) : 1;
  int64_t pa[2] = { cusci__la_prod(na - 1, sa), k }, pb[2] = { k, Q * n };
  cusci_array *p = NULL, *q = NULL, *bt = NULL;
  cusci_status st = reshape(ctx, a, 2, pa, &p);
  if (st == CUSCI_OK && nb > 2) {
    /* b's axis -2 first: (k, b0, ..., b_{nb-3}, n). */
    int axes[CUSCI_MAX_NDIM];
    axes[0] = nb - 2;
    for (int i = 0; i < nb - 2; i++)
      axes[i + 1] = i;
    axes[nb - 1] = nb - 1;
    st = cusci_array_transpose(ctx, (cusci_array *)b, axes, &bt);
    if (st == CUSCI_OK)
      st = reshape(ctx, bt, 2, pb, &q);
  } else if (st == CUSCI_OK) {
    st = reshape(ctx, b, 2, pb, &q);
  }
  cusci_array_release(bt);
  if (st != CUSCI_OK) {
    cusci_array_release(p);
    cusci_array_release(q);
    return st;
  }
  return product(ctx, fn, p, q, nd, shape, out);
}

/*
 * numpy.kron: with both shapes padded to the same number of axes d,
 * out[i0 p0 + j0, ..., i(d-1) p(d-1) + j(d-1)] = a[i...] b[j...] (p = b's
 * shape): the outer product of the flattened operands, seen as (a's shape,
 * b's shape), its axes interleaved, then merged in pairs.
 */
cusci_status cusci_linalg_kron(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_kron";
  cusci_dtype dt;
  TRY(check2(ctx, fn, a, b, 0, &dt));
  int na = cusci_array_ndim(a), nb = cusci_array_ndim(b), d = na > nb ? na : nb;
  if (2 * d > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "operands of %d dimensions: kron takes at most %d", d, CUSCI_MAX_NDIM / 2);
  int64_t pa[CUSCI_MAX_NDIM], pb[CUSCI_MAX_NDIM], shape[CUSCI_MAX_NDIM], both[CUSCI_MAX_NDIM];
  for (int i = 0; i < d; i++) {
    pa[i] = i < d - na ? 1 : cusci_array_shape(a)[i - (d - na)];
    pb[i] = i < d - nb ? 1 : cusci_array_shape(b)[i - (d - nb)];
    shape[i] = pa[i] * pb[i];
    both[i] = pa[i];
    both[d + i] = pb[i];
  }
  TRY(cusci_check_shape(ctx, fn, "the result", d, shape, cusci_dtype_itemsize(dt)));
  TRY(cusci_check_out(ctx, fn, out, d, shape, dt, CUSCI_CASTING_NO));
  cusci_array *o = NULL, *v = NULL, *t = NULL, *c = NULL, *r = NULL;
  cusci_status st = cusci_linalg_outer(ctx, a, b, &o);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, o, 2 * d, both, &v);
  int axes[CUSCI_MAX_NDIM];
  for (int i = 0; i < d; i++) {
    axes[2 * i] = i;
    axes[2 * i + 1] = d + i;
  }
  if (st == CUSCI_OK)
    st = cusci_array_transpose(ctx, v, axes, &t);
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, t, &c);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, c, d, shape, &r);
  cusci_array_release(o);
  cusci_array_release(v);
  cusci_array_release(t);
  cusci_array_release(c);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, r, out);
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
  TRY(cusci__la_check_int(ctx, fn, "cuBLAS", m, k));
  TRY(cusci__la_check_int(ctx, fn, "cuBLAS", k, n));
  TRY(cusci_check_out(ctx, fn, out, nout, oshape, dt, CUSCI_CASTING_NO));
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
      CUSCI__LA_GPU(st, ctx, fn, batch, 0, NULL, NULL, cusci__launch_la_gemm, dt, batch, m, n, k, cusci_array_data(wa), stra, cusci_array_data(wb),
                    strb, cusci_array_data(res));
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
  return cusci_give_out(ctx, fn, res, out);
}
