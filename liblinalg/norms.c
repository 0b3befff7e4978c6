/*
 * liblinalg/norms.c: numpy.linalg.norm and cond, numpy.trace,
 * scipy.linalg.null_space and orth. Each is composed of array views, core's
 * element-wise functions and reductions (cusci/compute.h) and the SVD, so
 * it runs on the device of its input with no code of its own there.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA, before any cusci header */
#endif

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"
#include "liblinalg/qr_internal.h"


static cusci_status check_in(cusci_ctx *ctx, const char *fn, const cusci_array *x, cusci_array **out)
{
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_array(ctx, fn, "x", x));
  if (!out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "out is NULL");
  return CUSCI_OK;
}

/* A reduction over one or two axes. */
typedef cusci_status (*reduce_fn)(cusci_ctx *, const cusci_array *, const cusci_reduce_opts *, cusci_array **);
static cusci_status reduce(cusci_ctx *ctx, reduce_fn f, cusci_array *x, int naxes, const int *axes, bool keepdims, cusci_array **out)
{
  cusci_reduce_opts o = { .naxes = naxes, .axes = axes, .keepdims = keepdims };
  *out = NULL;
  return f(ctx, x, &o, out);
}

/* y = f(x) with x released (a pipeline step). */
static cusci_status step_unary(cusci_ctx *ctx, cusci_ufunc f, cusci_array **x)
{
  cusci_array *y = NULL;
  cusci_status st = cusci_ufunc_unary(ctx, f, cusci_operand_array(*x), &y);
  cusci_array_release(*x);
  *x = y;
  return st;
}
static cusci_status step_reduce(cusci_ctx *ctx, reduce_fn f, cusci_array **x, int naxes, const int *axes, bool keepdims)
{
  cusci_array *y = NULL;
  cusci_status st = reduce(ctx, f, *x, naxes, axes, keepdims, &y);
  cusci_array_release(*x);
  *x = y;
  return st;
}
static cusci_status step_pow(cusci_ctx *ctx, cusci_array **x, double p)
{
  cusci_array *y = NULL;
  cusci_status st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_POWER, cusci_operand_array(*x), cusci_operand_float(p), &y);
  cusci_array_release(*x);
  *x = y;
  return st;
}

/* sqrt(sum |x|^2) over the axes (all when naxes == 0). */
static cusci_status two_norm(cusci_ctx *ctx, cusci_array *x, int naxes, const int *axes, bool keepdims, cusci_array **out)
{
  cusci_array *t = cusci_array_retain(x);
  cusci_status st = step_unary(ctx, CUSCI_UFUNC_ABS, &t);
  if (st == CUSCI_OK)
    st = step_unary(ctx, CUSCI_UFUNC_SQUARE, &t);
  if (st == CUSCI_OK)
    st = step_reduce(ctx, cusci_sum, &t, naxes, axes, keepdims);
  if (st == CUSCI_OK)
    st = step_unary(ctx, CUSCI_UFUNC_SQRT, &t);
  if (st != CUSCI_OK) {
    cusci_array_release(t);
    return st;
  }
  *out = t;
  return CUSCI_OK;
}

/* numpy's vector norms of x (float or complex) over axis ax. */
static cusci_status vector_norm(cusci_ctx *ctx, const char *fn, cusci_array *x, cusci_linalg_ord ord, double p, int ax, bool keepdims,
                                cusci_array **out)
{
  if (ord == CUSCI_LINALG_ORD_FRO || ord == CUSCI_LINALG_ORD_NUC)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "invalid norm order '%s' for vectors", ord == CUSCI_LINALG_ORD_FRO ? "fro" : "nuc");
  if (ord == CUSCI_LINALG_ORD_NONE || (ord == CUSCI_LINALG_ORD_P && p == 2))
    return two_norm(ctx, x, 1, &ax, keepdims, out);
  cusci_array *t = cusci_array_retain(x);
  cusci_status st = step_unary(ctx, CUSCI_UFUNC_ABS, &t);
  if (st == CUSCI_OK) {
    if (ord == CUSCI_LINALG_ORD_INF) {
      st = step_reduce(ctx, cusci_max, &t, 1, &ax, keepdims);
    } else if (ord == CUSCI_LINALG_ORD_NEG_INF) {
      st = step_reduce(ctx, cusci_min, &t, 1, &ax, keepdims);
    } else if (p == 0) {
      cusci_dtype rt = cusci_array_dtype(t);
      cusci_array *nz = NULL;
      st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_NOT_EQUAL, cusci_operand_array(t), cusci_operand_float(0), &nz);
      cusci_array_release(t);
      t = NULL;
      if (st == CUSCI_OK)
        st = cusci_array_astype(ctx, nz, rt, false, &t);
      cusci_array_release(nz);
      if (st == CUSCI_OK)
        st = step_reduce(ctx, cusci_sum, &t, 1, &ax, keepdims);
    } else if (p == 1) {
      st = step_reduce(ctx, cusci_sum, &t, 1, &ax, keepdims);
    } else if (isinf(p)) {
      st = step_reduce(ctx, p > 0 ? cusci_max : cusci_min, &t, 1, &ax, keepdims);
    } else {
      st = step_pow(ctx, &t, p);
      if (st == CUSCI_OK)
        st = step_reduce(ctx, cusci_sum, &t, 1, &ax, keepdims);
      if (st == CUSCI_OK)
        st = step_pow(ctx, &t, 1.0 / p);
    }
  }
  if (st != CUSCI_OK) {
    cusci_array_release(t);
    return st;
  }
  *out = t;
  return CUSCI_OK;
}

/* The shape of x with the axes r and c removed, or set to 1 (keepdims). */
static int reduced_shape(const cusci_array *x, int r, int c, bool keepdims, int64_t *shape)
{
  int nd = cusci_array_ndim(x), k = 0;
  for (int i = 0; i < nd; i++) {
    if (i == r || i == c) {
      if (keepdims)
        shape[k++] = 1;
    } else {
      shape[k++] = cusci_array_shape(x)[i];
    }
  }
  return k;
}

/* numpy's matrix norms of x over the axes r (rows) and c (columns). */
static cusci_status matrix_norm(cusci_ctx *ctx, const char *fn, cusci_array *x, cusci_linalg_ord ord, double p, int r, int c, bool keepdims,
                                cusci_array **out)
{
  int nd = cusci_array_ndim(x);
  int64_t shape[CUSCI_MAX_NDIM];
  int k = reduced_shape(x, r, c, keepdims, shape);
  cusci_array *t = NULL;
  cusci_status st = CUSCI_OK;
  if (ord == CUSCI_LINALG_ORD_NONE || ord == CUSCI_LINALG_ORD_FRO) {
    int axes[2] = { r, c };
    st = two_norm(ctx, x, 2, axes, false, &t);
  } else if (ord == CUSCI_LINALG_ORD_NUC || (ord == CUSCI_LINALG_ORD_P && (p == 2 || p == -2))) {
    /* Move r and c last, then reduce the singular values. */
    int perm[CUSCI_MAX_NDIM], j = 0;
    for (int i = 0; i < nd; i++)
      if (i != r && i != c)
        perm[j++] = i;
    perm[j++] = r;
    perm[j++] = c;
    cusci_array *v = NULL;
    st = cusci_array_transpose(ctx, x, perm, &v);
    if (st == CUSCI_OK)
      st = cusci_linalg_svdvals(ctx, v, &t);
    cusci_array_release(v);
    int last = nd - 2;
    if (st == CUSCI_OK)
      st = step_reduce(ctx, ord == CUSCI_LINALG_ORD_NUC ? cusci_sum : p == 2 ? cusci_max : cusci_min, &t, 1, &last, false);
  } else if (ord == CUSCI_LINALG_ORD_INF || ord == CUSCI_LINALG_ORD_NEG_INF || (ord == CUSCI_LINALG_ORD_P && (p == 1 || p == -1))) {
    /* 1 / -1: column sums (over rows r), then max / min over c; inf /
     * -inf: row sums (over c), then over r. */
    bool cols = ord == CUSCI_LINALG_ORD_P;
    bool take_max = ord == CUSCI_LINALG_ORD_INF || (cols && p == 1);
    int first = cols ? r : c, second = cols ? c : r;
    if (second > first)
      second--;
    t = cusci_array_retain(x);
    st = step_unary(ctx, CUSCI_UFUNC_ABS, &t);
    if (st == CUSCI_OK)
      st = step_reduce(ctx, cusci_sum, &t, 1, &first, false);
    if (st == CUSCI_OK)
      st = step_reduce(ctx, take_max ? cusci_max : cusci_min, &t, 1, &second, false);
  } else {
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "invalid norm order for matrices");
  }
  if (st == CUSCI_OK && keepdims) {
    cusci_array *y = NULL;
    st = cusci_array_reshape(ctx, t, k, shape, &y);
    cusci_array_release(t);
    t = y;
  }
  if (st != CUSCI_OK) {
    cusci_array_release(t);
    return st;
  }
  *out = t;
  return CUSCI_OK;
}

/* An axis in -nd..nd-1, normalized. */
static cusci_status norm_axis(cusci_ctx *ctx, const char *fn, int nd, int ax, int *outp)
{
  if (ax < -nd || ax >= nd)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of bounds for an array of dimension %d", ax, nd);
  *outp = ax < 0 ? ax + nd : ax;
  return CUSCI_OK;
}

static cusci_status norm_impl(cusci_ctx *ctx, const char *fn, const cusci_array *x, const cusci_linalg_norm_opts *opts, cusci_array **res)
{
  cusci_linalg_norm_opts o = opts ? *opts : (cusci_linalg_norm_opts){ 0 };
  if ((int)o.ord < 0 || o.ord > CUSCI_LINALG_ORD_P)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "ord %d is outside cusci_linalg_ord", (int)o.ord);
  if (o.ord == CUSCI_LINALG_ORD_P && isnan(o.p))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ord p is NaN");
  if (o.naxes < 0 || o.naxes > 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "naxes %d: axis takes 0 (None), 1 or 2 axes", o.naxes);
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "x", cusci_array_dtype(x), &dt));
  int nd = cusci_array_ndim(x);
  cusci_array *w = NULL;
  TRY(cusci_array_astype(ctx, (cusci_array *)x, dt, false, &w));
  cusci_status st = CUSCI_OK;
  *res = NULL;
  if (o.naxes == 0 && o.ord == CUSCI_LINALG_ORD_NONE) {
    st = two_norm(ctx, w, 0, NULL, o.keepdims, res);
  } else if (o.naxes == 0) {
    if (nd == 1)
      st = vector_norm(ctx, fn, w, o.ord, o.p, 0, o.keepdims, res);
    else if (nd == 2)
      st = matrix_norm(ctx, fn, w, o.ord, o.p, 0, 1, o.keepdims, res);
    else
      st = cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "improper number of dimensions to norm: %d with an ord and axis=None", nd);
  } else if (o.naxes == 1) {
    int ax = 0;
    st = norm_axis(ctx, fn, nd, o.axes[0], &ax);
    if (st == CUSCI_OK)
      st = vector_norm(ctx, fn, w, o.ord, o.p, ax, o.keepdims, res);
  } else {
    int r = 0, c = 0;
    st = norm_axis(ctx, fn, nd, o.axes[0], &r);
    if (st == CUSCI_OK)
      st = norm_axis(ctx, fn, nd, o.axes[1], &c);
    if (st == CUSCI_OK && r == c)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "duplicate axes given");
    if (st == CUSCI_OK)
      st = matrix_norm(ctx, fn, w, o.ord, o.p, r, c, o.keepdims, res);
  }
  cusci_array_release(w);
  return st;
}

cusci_status cusci_linalg_norm(cusci_ctx *ctx, const cusci_array *x, const cusci_linalg_norm_opts *opts, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_norm";
  TRY(check_in(ctx, fn, x, out));
  cusci_array *res = NULL;
  TRY(norm_impl(ctx, fn, x, opts, &res));
  if (*out) {
    cusci_array *chk = NULL;
    cusci_status st = cusci_prepare_out(ctx, fn, out, cusci_array_ndim(res), cusci_array_shape(res), cusci_array_dtype(res), &chk);
    if (st != CUSCI_OK) {
      cusci_array_release(res);
      return st;
    }
  }
  return cusci_give_out(ctx, fn, res, out);
}

/* A real array's values as float64 on the host (caller frees). */
static cusci_status to_host_f64(cusci_ctx *ctx, const char *fn, cusci_array *a, double **v)
{
  cusci_array *c = NULL;
  int64_t n = cusci_array_size(a);
  *v = malloc(sizeof **v * (size_t)(n ? n : 1));
  if (!*v)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_status st = cusci_array_astype(ctx, a, CUSCI_FLOAT64, true, &c);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, c, *v, sizeof **v * (size_t)n);
  cusci_array_release(c);
  if (st != CUSCI_OK) {
    free(*v);
    *v = NULL;
  }
  return st;
}

/*
 * numpy.linalg.cond. With ord NONE, 2 or -2, s[0] / s[-1] (or its inverse)
 * from the singular values; otherwise norm(x) * norm(inv(x)). A singular
 * matrix gives inf, as NumPy's (where a NaN comes out of a matrix without
 * NaN, NumPy also returns inf).
 */
cusci_status cusci_linalg_cond(cusci_ctx *ctx, const cusci_array *x, cusci_linalg_ord ord, double p, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_cond";
  TRY(check_in(ctx, fn, x, out));
  int nd = cusci_array_ndim(x);
  if (nd < 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "x has %d dimensions, expected at least 2", nd);
  if ((int)ord < 0 || ord > CUSCI_LINALG_ORD_P)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "ord %d is outside cusci_linalg_ord", (int)ord);
  bool by_svd = ord == CUSCI_LINALG_ORD_NONE || (ord == CUSCI_LINALG_ORD_P && (p == 2 || p == -2));
  if (ord == CUSCI_LINALG_ORD_P && !by_svd && p != 1 && p != -1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "invalid norm order %g for matrices", p);
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "x", cusci_array_dtype(x), &dt));
  cusci_dtype rt = cusci_dtype_real_of(dt);
  const int64_t *sh = cusci_array_shape(x);
  int nb = nd - 2;
  int64_t batch = 1;
  for (int i = 0; i < nb; i++)
    batch *= sh[i];
  if (!by_svd && sh[nd - 1] != sh[nd - 2])
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "x is %lldx%lld: cond with this ord needs square matrices", (long long)sh[nd - 2],
                          (long long)sh[nd - 1]);
  TRY(cusci_check_out(ctx, fn, out, nb, sh, rt, CUSCI_CASTING_NO));
  double *res = malloc(sizeof *res * (size_t)(batch ? batch : 1));
  if (!res)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_status st = CUSCI_OK;
  cusci_array *s = NULL, *n1 = NULL, *iv = NULL, *n2 = NULL;
  double *hs = NULL, *h1 = NULL, *h2 = NULL;
  if (by_svd) {
    st = cusci_linalg_svdvals(ctx, x, &s);
    if (st == CUSCI_OK)
      st = to_host_f64(ctx, fn, s, &hs);
    int64_t K = st == CUSCI_OK ? cusci_array_shape(s)[nb] : 0;
    for (int64_t b = 0; st == CUSCI_OK && b < batch; b++) {
      double hi = K ? hs[b * K] : 0, lo = K ? hs[b * K + K - 1] : 0;
      double r = ord == CUSCI_LINALG_ORD_P && p == -2 ? lo / hi : hi / lo;
      res[b] = isnan(r) ? INFINITY : r;
    }
  } else {
    cusci_linalg_norm_opts no = { .ord = ord, .p = p, .naxes = 2, .axes = { -2, -1 } };
    st = norm_impl(ctx, fn, x, &no, &n1);
    if (st == CUSCI_OK)
      st = to_host_f64(ctx, fn, n1, &h1);
    cusci_status si = st == CUSCI_OK ? cusci_linalg_inv(ctx, x, &iv) : st;
    if (si == CUSCI_OK) {
      st = norm_impl(ctx, fn, iv, &no, &n2);
      if (st == CUSCI_OK)
        st = to_host_f64(ctx, fn, n2, &h2);
      for (int64_t b = 0; st == CUSCI_OK && b < batch; b++)
        res[b] = isnan(h1[b] * h2[b]) ? INFINITY : h1[b] * h2[b];
    } else if (si == CUSCI_ERR_LINALG) {
      /* Some matrix is singular: matrix by matrix, inf for those. */
      cusci_ctx_clear_error(ctx);
      int64_t n = sh[nd - 1], s3[3] = { batch, n, n };
      cusci_array *x3 = NULL;
      st = cusci_array_reshape(ctx, (cusci_array *)x, 3, s3, &x3);
      for (int64_t b = 0; st == CUSCI_OK && b < batch; b++) {
        int64_t lo[3] = { b, 0, 0 }, hi[3] = { b + 1, n, n };
        cusci_array *xb = NULL, *ib = NULL, *nb2 = NULL;
        double v = INFINITY;
        st = cusci_array_slice(ctx, x3, lo, hi, NULL, &xb);
        cusci_status sb = st == CUSCI_OK ? cusci_linalg_inv(ctx, xb, &ib) : st;
        if (sb == CUSCI_OK) {
          double *hb = NULL;
          st = norm_impl(ctx, fn, ib, &no, &nb2);
          if (st == CUSCI_OK)
            st = to_host_f64(ctx, fn, nb2, &hb);
          if (st == CUSCI_OK && !isnan(h1[b] * hb[0]))
            v = h1[b] * hb[0];
          free(hb);
        } else if (sb != CUSCI_ERR_LINALG) {
          st = sb;
        }
        res[b] = v;
        cusci_array_release(xb), cusci_array_release(ib), cusci_array_release(nb2);
      }
      cusci_array_release(x3);
    } else {
      st = si;
    }
  }
  cusci_array *r64 = NULL, *rr = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, res, nb, sh, CUSCI_FLOAT64, &r64);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, r64, rt, false, &rr);
  cusci_array_release(r64);
  free(res), free(hs), free(h1), free(h2);
  cusci_array_release(s), cusci_array_release(n1), cusci_array_release(iv), cusci_array_release(n2);
  return cusci__la_give_all(ctx, fn, st, 1, &rr, &out);
}

/*
 * numpy.trace: axis1 and axis2 are moved last, the copy is flattened over
 * them, and the diagonal is the slice start:stop:(n2 + 1), summed.
 */
cusci_status cusci_linalg_trace(cusci_ctx *ctx, const cusci_array *a, int64_t offset, int axis1, int axis2, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_trace";
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_array(ctx, fn, "a", a));
  if (!out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "out is NULL");
  int nd = cusci_array_ndim(a);
  if (nd < 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "a has %d dimensions, trace needs at least 2", nd);
  int a1 = 0, a2 = 0;
  TRY(norm_axis(ctx, fn, nd, axis1, &a1));
  TRY(norm_axis(ctx, fn, nd, axis2, &a2));
  if (a1 == a2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis1 and axis2 cannot be the same");
  const int64_t *sh = cusci_array_shape(a);
  int perm[CUSCI_MAX_NDIM], j = 0;
  int64_t fshape[CUSCI_MAX_NDIM];
  for (int i = 0; i < nd; i++)
    if (i != a1 && i != a2) {
      fshape[j] = sh[i];
      perm[j++] = i;
    }
  perm[j] = a1;
  perm[j + 1] = a2;
  int64_t n1 = sh[a1], n2 = sh[a2];
  /* The diagonal's first element and length. */
  int64_t first = offset >= 0 ? offset : -offset * n2;
  int64_t len = offset >= 0 ? (n1 < n2 - offset ? n1 : n2 - offset) : (n1 + offset < n2 ? n1 + offset : n2);
  if (len < 0)
    len = 0;
  fshape[j] = n1 * n2;
  cusci_array *t = NULL, *c = NULL, *f = NULL, *d = NULL, *res = NULL;
  cusci_status st = cusci_array_transpose(ctx, (cusci_array *)a, perm, &t);
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, t, &c);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, c, j + 1, fshape, &f);
  if (st == CUSCI_OK) {
    int64_t lo[CUSCI_MAX_NDIM], hi[CUSCI_MAX_NDIM], stp[CUSCI_MAX_NDIM];
    for (int i = 0; i < j; i++)
      lo[i] = hi[i] = CUSCI_SLICE_NONE, stp[i] = 1;
    lo[j] = len > 0 ? first : 0;
    hi[j] = len > 0 ? first + (len - 1) * (n2 + 1) + 1 : 0;
    stp[j] = n2 + 1;
    st = cusci_array_slice(ctx, f, lo, hi, stp, &d);
  }
  int ax = j;
  if (st == CUSCI_OK)
    st = reduce(ctx, cusci_sum, d, 1, &ax, false, &res);
  cusci_array_release(t), cusci_array_release(c), cusci_array_release(f), cusci_array_release(d);
  if (st == CUSCI_OK && *out) {
    cusci_array *chk = NULL;
    st = cusci_prepare_out(ctx, fn, out, cusci_array_ndim(res), cusci_array_shape(res), cusci_array_dtype(res), &chk);
  }
  return cusci__la_give_all(ctx, fn, st, 1, &res, &out);
}

/* The count of s[i] > rcond * max(s), rcond <= 0 meaning eps * max(M, N). */
static cusci_status rank_of(cusci_ctx *ctx, const char *fn, cusci_array *s, double rcond, int64_t m, int64_t n, int64_t *num)
{
  double *hs = NULL;
  TRY(to_host_f64(ctx, fn, s, &hs));
  int64_t K = cusci_array_size(s);
  double eps = cusci_array_dtype(s) == CUSCI_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
  double rc = rcond > 0 ? rcond : eps * (double)(m > n ? m : n), mx = 0;
  for (int64_t i = 0; i < K; i++)
    mx = hs[i] > mx ? hs[i] : mx;
  *num = 0;
  for (int64_t i = 0; i < K; i++)
    *num += hs[i] > mx * rc;
  free(hs);
  return CUSCI_OK;
}

/* null_space (null true): vh[num:, :]^H; orth: u[:, :num]. */
static cusci_status basis(cusci_ctx *ctx, const char *fn, const cusci_array *a, double rcond, bool null, cusci_array **out)
{
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_array(ctx, fn, "a", a));
  if (!out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "out is NULL");
  if (cusci_array_ndim(a) != 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "a has %d dimensions, expected 2", cusci_array_ndim(a));
  if (isnan(rcond))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "rcond is NaN");
  int64_t m = cusci_array_shape(a)[0], n = cusci_array_shape(a)[1];
  cusci_array *u = NULL, *s = NULL, *vh = NULL, *v = NULL, *t = NULL, *res = NULL;
  /* null_space needs the full V; orth the economic U, from the accurate
   * SVD so that the rank is decided on exact small singular values. */
  cusci_status st = null ? cusci_linalg_svd(ctx, a, true, true, &u, &s, &vh) : cusci__la_svd_accurate(ctx, fn, a, &u, &s, &vh);
  int64_t num = 0;
  if (st == CUSCI_OK)
    st = rank_of(ctx, fn, s, rcond, m, n, &num);
  if (st == CUSCI_OK) {
    int64_t lo[2] = { 0, 0 }, hi[2];
    if (null) {
      lo[0] = num, hi[0] = n, hi[1] = n;
      st = cusci_array_slice(ctx, vh, lo, hi, NULL, &v);
      int perm[2] = { 1, 0 };
      if (st == CUSCI_OK)
        st = cusci_array_transpose(ctx, v, perm, &t);
      if (st == CUSCI_OK)
        st = cusci_dtype_is_complex(cusci_array_dtype(t)) ? cusci_conj(ctx, t, &res) : cusci_array_ascontiguousarray(ctx, t, &res);
    } else {
      hi[0] = m, hi[1] = num;
      st = cusci_array_slice(ctx, u, lo, hi, NULL, &v);
      if (st == CUSCI_OK)
        st = cusci_array_copy(ctx, v, &res);
    }
  }
  cusci_array_release(u), cusci_array_release(s), cusci_array_release(vh), cusci_array_release(v), cusci_array_release(t);
  if (st == CUSCI_OK && *out) {
    cusci_array *chk = NULL;
    st = cusci_prepare_out(ctx, fn, out, 2, cusci_array_shape(res), cusci_array_dtype(res), &chk);
  }
  return cusci__la_give_all(ctx, fn, st, 1, &res, &out);
}

cusci_status cusci_linalg_null_space(cusci_ctx *ctx, const cusci_array *a, double rcond, cusci_array **out)
{
  return basis(ctx, "cusci_linalg_null_space", a, rcond, true, out);
}

cusci_status cusci_linalg_orth(cusci_ctx *ctx, const cusci_array *a, double rcond, cusci_array **out)
{
  return basis(ctx, "cusci_linalg_orth", a, rcond, false, out);
}
