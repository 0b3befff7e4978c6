/*
 * libcore/stats.c: numpy.quantile, percentile, median, histogram and
 * bincount: argument checks, the rows of the reduced axes (libcore/sort.c),
 * their sort, dispatch to the host loops (reference/core/sort.c) or the
 * kernels (kernels/core/sort.cu), and the output convention.
 */
#include "libcore/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>

#include "kernels/core/launch.h"
#include "libcore/backend.h"
#include "libcore/sort.h"
#include "reference/core/sort.h"
#include "reference/core/sort_ops.h"

/* The axes of a that are reduced (mask[d] true); all of them for naxes 0. */
static cusci_status axes_mask(cusci_ctx *ctx, const char *fn, const cusci_array *a, int naxes, const int *axes,
                              bool *mask)
{
  int nd = a->ndim;
  memset(mask, 0, CUSCI_MAX_NDIM * sizeof *mask);
  if (naxes == 0) {
    for (int d = 0; d < nd; d++)
      mask[d] = true;
    return CUSCI_OK;
  }
  if (naxes < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "naxes is %d", naxes);
  if (!axes)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "axes is NULL with naxes %d", naxes);
  for (int i = 0; i < naxes; i++) {
    int ax = axes[i];
    if (ax < -nd || ax >= nd)
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of bounds for an array of dimension %d", ax, nd);
    if (ax < 0)
      ax += nd;
    if (mask[ax])
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is repeated", axes[i]);
    mask[ax] = true;
  }
  return CUSCI_OK;
}

/* Computing dtype code of sort_ops.h for a float dtype. */
static int ct_of(cusci_dtype dt)
{
  return dt == CUSCI_FLOAT16 ? 2 : dt == CUSCI_FLOAT32 ? 1 : 0;
}

/* Copy a fresh contiguous result r (released here) of shape (nd, shape) to the caller. */
static cusci_status give(cusci_ctx *ctx, const char *fn, cusci_array *r, int nd, const int64_t *shape,
                         cusci_array **out)
{
  int64_t strides[CUSCI_MAX_NDIM];
  cusci__c_strides(nd, shape, strides);
  cusci_array *v = NULL;
  cusci_status st = cusci__array_view(ctx, fn, r, nd, shape, strides, r->data, &v);
  cusci_array_release(r);
  if (st != CUSCI_OK)
    return st;
  return cusci__finish_view(ctx, fn, v, out);
}

/* A new device (or host) array of n doubles from host memory. */
static cusci_status from_doubles(cusci_ctx *ctx, const double *v, int64_t n, cusci_array **out)
{
  return cusci_array_from_host(ctx, v, 1, &n, CUSCI_FLOAT64, out);
}

/* ------------------------------------------------------------ quantiles */

/*
 * numpy.quantile (and median, method CUSCI__Q_MEDIAN): each slice over the
 * reduced axes sorted (a segmented sort on the GPU), then every quantile
 * of every slice in one pass. nq < 0: q is a scalar (a weak Python float).
 */
static cusci_status quantile_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, int64_t nq, const double *q,
                                  double scale, int naxes, const int *axes, bool keepdims, int method,
                                  cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  if (method < 0 || method > CUSCI__Q_MEDIAN)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "method %d is not a cusci_quantile_method", method);
  bool scalar = nq < 0;
  if (scalar)
    nq = 1;
  else if (nq > 0 && !q)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "q is NULL with nq %lld", (long long)nq);
  char k = cusci_dtype_kind(a->dtype);
  bool discrete = cusci__q_discrete(method);
  if (k == 'c')
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "a must be an array of real numbers, not %s",
                          cusci_dtype_name(a->dtype));
  if (k == 'b' && !discrete && method != CUSCI__Q_MEDIAN)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "interpolation between bool values is not defined (NumPy's "
                          "boolean subtract); use a method that picks an element");
  double *qs = malloc((size_t)nq * sizeof *qs + 1);
  if (!qs)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "%lld quantiles", (long long)nq);
  for (int64_t i = 0; i < nq; i++) {
    qs[i] = q[i] / scale;
    if (!(qs[i] >= 0.0 && qs[i] <= 1.0)) {
      free(qs);
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, scale == 1 ? "Quantiles must be in the range [0, 1]; q[%lld] is %g"
                                                                 : "Percentiles must be in the range [0, 100]; q[%lld] is %g",
                            (long long)i, q[i]);
    }
  }
  bool mask[CUSCI_MAX_NDIM];
  cusci_status st = axes_mask(ctx, fn, a, naxes, axes, mask);
  int64_t r = 1, shape[CUSCI_MAX_NDIM + 1];
  int nd = 0;
  if (!scalar)
    shape[nd++] = nq;
  for (int d = 0; d < a->ndim; d++) {
    if (mask[d])
      r *= a->shape[d];
    if (!mask[d])
      shape[nd++] = a->shape[d];
    else if (keepdims)
      shape[nd++] = 1;
  }
  if (st == CUSCI_OK && r == 0)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the slices to take quantiles of are empty");
  if (st == CUSCI_OK && nd > CUSCI_MAX_NDIM)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the result would have %d dimensions", nd);
  /* Result dtype: NumPy's (see compute.h). */
  cusci_dtype rdt = a->dtype;
  if (!discrete) {
    if (k != 'f' || (!scalar && method != CUSCI__Q_MEDIAN))
      rdt = CUSCI_FLOAT64;
  }
  if (st == CUSCI_OK && *out) {
    cusci_array *chk = NULL;
    st = cusci_prepare_out(ctx, fn, out, nd, shape, rdt, &chk);
  }
  if (st != CUSCI_OK) {
    free(qs);
    return st;
  }
  cusci_array *rows = NULL, *sorted = NULL, *res = NULL, *qd = NULL;
  int64_t m, rr, total;
  int perm[CUSCI_MAX_NDIM];
  st = cusci__rows_of(ctx, fn, a, mask, &rows, &m, &rr, perm);
  if (st == CUSCI_OK)
    st = cusci__sort_rows(ctx, fn, rows, m, rr, &sorted, NULL, false);
  total = nq * m;
  if (st == CUSCI_OK)
    st = cusci__array_new(ctx, fn, 1, &total, rdt, &res);
  int ct = ct_of(rdt);
  if (st == CUSCI_OK && total > 0) {
    if (ctx->device < 0) {
      cusci__host_quantile_rows(a->dtype, rdt, method, ct, m, rr, sorted->data, nq, qs, res->data);
    } else {
      st = from_doubles(ctx, qs, nq, &qd);
      if (st == CUSCI_OK)
        st = cusci_ctx_gpu_status(ctx, fn, NULL, cusci__launch_quantile_rows(ctx->stream, a->dtype, method, ct, m, rr,
                                                                      sorted->data, nq, (const double *)qd->data,
                                                                      res->data));
    }
  }
  free(qs);
  cusci_array_release(rows);
  cusci_array_release(sorted);
  cusci_array_release(qd);
  if (st != CUSCI_OK) {
    cusci_array_release(res);
    return st;
  }
  return give(ctx, fn, res, nd, shape, out);
}

static int method_of(const cusci_quantile_opts *o)
{
  return o ? (int)o->method : 0;
}

cusci_status cusci_quantile(cusci_ctx *ctx, const cusci_array *a, double q, const cusci_quantile_opts *opts,
                            cusci_array **out)
{
  return quantile_impl(ctx, __func__, a, -1, &q, 1, opts ? opts->naxes : 0, opts ? opts->axes : NULL,
                       opts && opts->keepdims, method_of(opts), out);
}

cusci_status cusci_quantile_n(cusci_ctx *ctx, const cusci_array *a, int64_t nq, const double *q,
                              const cusci_quantile_opts *opts, cusci_array **out)
{
  if (ctx && nq < 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "nq is %lld", (long long)nq);
  return quantile_impl(ctx, __func__, a, nq, q, 1, opts ? opts->naxes : 0, opts ? opts->axes : NULL,
                       opts && opts->keepdims, method_of(opts), out);
}

cusci_status cusci_percentile(cusci_ctx *ctx, const cusci_array *a, double q, const cusci_quantile_opts *opts,
                              cusci_array **out)
{
  return quantile_impl(ctx, __func__, a, -1, &q, 100, opts ? opts->naxes : 0, opts ? opts->axes : NULL,
                       opts && opts->keepdims, method_of(opts), out);
}

cusci_status cusci_percentile_n(cusci_ctx *ctx, const cusci_array *a, int64_t nq, const double *q,
                                const cusci_quantile_opts *opts, cusci_array **out)
{
  if (ctx && nq < 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "nq is %lld", (long long)nq);
  return quantile_impl(ctx, __func__, a, nq, q, 100, opts ? opts->naxes : 0, opts ? opts->axes : NULL,
                       opts && opts->keepdims, method_of(opts), out);
}

cusci_status cusci_median(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out)
{
  double half = 0.5;
  return quantile_impl(ctx, __func__, a, -1, &half, 1, opts ? opts->naxes : 0, opts ? opts->axes : NULL,
                       opts && opts->keepdims, CUSCI__Q_MEDIAN, out);
}

/* ------------------------------------------------------------ histogram */

/* One element of a 0-d or 1-element array, as a double (synchronous). */
static cusci_status scalar_of(cusci_ctx *ctx, cusci_array *x, double *v)
{
  cusci_array *d = NULL;
  CUSCI_TRY(cusci_array_astype(ctx, x, CUSCI_FLOAT64, false, &d));
  cusci_status st = cusci_array_to_host(ctx, d, v, sizeof *v);
  cusci_array_release(d);
  return st;
}

/* x flattened, C-contiguous, as dtype dt (x itself when it already is). */
static cusci_status flat_as(cusci_ctx *ctx, const cusci_array *x, cusci_dtype dt, cusci_array **out)
{
  cusci_array *t = NULL, *c = NULL;
  CUSCI_TRY(cusci_array_astype(ctx, (cusci_array *)x, dt, false, &t));
  cusci_status st = cusci_array_ascontiguousarray(ctx, t, &c);
  cusci_array_release(t);
  if (st != CUSCI_OK)
    return st;
  int64_t n = x->size;
  st = cusci_array_reshape(ctx, c, 1, &n, out);
  cusci_array_release(c);
  return st;
}

/*
 * numpy.linspace(start, stop, nb + 1) computed in dtype ct (0 double,
 * 1 float32, 2 float16) as NumPy computes it: step = (stop - start) / nb,
 * e[i] = i * step + start, the last edge exactly stop.
 */
static void linspace_edges(int ct, double start, double stop, int64_t nb, double *e)
{
  double delta = cusci__q_round(ct, stop - start), step = cusci__q_round(ct, delta / (double)nb);
  for (int64_t i = 0; i <= nb; i++) {
    double y = step == 0 ? cusci__q_round(ct, cusci__q_round(ct, (double)i / (double)nb) * delta)
                         : cusci__q_round(ct, (double)i * step);
    e[i] = cusci__q_round(ct, y + start);
  }
  e[nb] = stop;
}

static cusci_status hist_check(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_histogram_opts *o,
                               cusci_array **hist)
{
  CUSCI_ENTRY(ctx, fn, hist);
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  if (cusci_dtype_kind(a->dtype) == 'c')
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "a is %s; histograms of complex numbers are not defined",
                          cusci_dtype_name(a->dtype));
  if (o && o->weights) {
    const cusci_array *w = o->weights;
    CUSCI_TRY(cusci_check_array(ctx, fn, "weights", w));
    bool same = w->ndim == a->ndim;
    for (int d = 0; same && d < a->ndim; d++)
      same = w->shape[d] == a->shape[d];
    if (!same) {
      char s1[256], s2[256];
      return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "weights has shape %s, a %s",
                            cusci_shape_str(w->ndim, w->shape, s1, sizeof s1),
                            cusci_shape_str(a->ndim, a->shape, s2, sizeof s2));
    }
    if (cusci_dtype_kind(w->dtype) == 'c')
      return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "complex weights (%s) are not supported",
                            cusci_dtype_name(w->dtype));
  }
  return CUSCI_OK;
}

/*
 * Count (or sum the weights of) the elements of a in the nb bins with the
 * edges e (host doubles), and give hist and bin_edges (edges as dtype
 * edt) to the caller. density divides by the bin widths (edges
 * subtracted in dtype edt) and the total.
 */
static cusci_status hist_count(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_histogram_opts *o,
                               int64_t nb, const double *e, cusci_dtype edt, cusci_array **hist,
                               cusci_array **bin_edges)
{
  const cusci_array *w = o ? o->weights : NULL;
  bool density = o && o->density;
  cusci_dtype hdt = density ? CUSCI_FLOAT64 : w ? w->dtype : CUSCI_INT64;
  int64_t ne = nb + 1;
  cusci_status st = CUSCI_OK;
  if (*hist) {
    cusci_array *chk = NULL;
    st = cusci_prepare_out(ctx, fn, hist, 1, &nb, hdt, &chk);
  }
  if (st == CUSCI_OK && bin_edges && *bin_edges) {
    cusci_array *chk = NULL;
    st = cusci_prepare_out(ctx, fn, bin_edges, 1, &ne, edt, &chk);
  }
  if (st != CUSCI_OK)
    return st;
  cusci_array *af = NULL, *wf = NULL, *ed = NULL, *cnt = NULL, *edges_out = NULL, *h = NULL;
  st = flat_as(ctx, a, a->dtype, &af);
  if (st == CUSCI_OK && w)
    st = flat_as(ctx, w, CUSCI_FLOAT64, &wf);
  if (st == CUSCI_OK)
    st = from_doubles(ctx, e, ne, &ed);
  if (st == CUSCI_OK)
    st = cusci__array_new(ctx, fn, 1, &nb, w ? CUSCI_FLOAT64 : CUSCI_INT64, &cnt);
  if (st == CUSCI_OK && nb > 0) {
    if (ctx->device < 0)
      cusci__host_histogram(a->dtype, af->size, af->data, nb, e, CUSCI_FLOAT64, wf ? wf->data : NULL,
                            (int64_t *)cnt->data, (double *)cnt->data);
    else if ((st = cusci__gpu_use(ctx, fn)) == CUSCI_OK)
      st = cusci_ctx_gpu_status(ctx, fn, NULL, cusci__launch_histogram(ctx->stream, a->dtype, af->size, af->data, nb,
                                                                (const double *)ed->data, CUSCI_FLOAT64,
                                                                wf ? wf->data : NULL, (int64_t *)cnt->data,
                                                                (double *)cnt->data));
  }
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, cnt, w ? w->dtype : CUSCI_INT64, false, &h);
  if (st == CUSCI_OK && density) {
    /* NumPy: n / np.diff(edges).astype(float) / n.sum(), n in its own dtype. */
    size_t hb = (size_t)(nb ? nb : 1) * sizeof(double);
    double *hv = malloc(hb), *dens = malloc(hb);
    cusci_array *hd = NULL;
    if (!hv || !dens)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "%lld bins", (long long)nb);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, h, CUSCI_FLOAT64, false, &hd);
    if (st == CUSCI_OK)
      st = cusci_array_to_host(ctx, hd, hv, hb);
    if (st == CUSCI_OK) {
      int ect = ct_of(edt);
      double total = 0;
      for (int64_t i = 0; i < nb; i++)
        total += hv[i];
      if (w)
        total = cusci__q_round(ct_of(w->dtype), total);
      for (int64_t i = 0; i < nb; i++)
        dens[i] = hv[i] / cusci__q_round(ect, e[i + 1] - e[i]) / total;
      cusci_array_release(h);
      h = NULL;
      st = from_doubles(ctx, dens, nb, &h);
    }
    cusci_array_release(hd);
    free(hv);
    free(dens);
  }
  if (st == CUSCI_OK && bin_edges)
    st = cusci_array_astype(ctx, ed, edt, true, &edges_out);
  cusci_array_release(af);
  cusci_array_release(wf);
  cusci_array_release(ed);
  cusci_array_release(cnt);
  if (st != CUSCI_OK) {
    cusci_array_release(h);
    cusci_array_release(edges_out);
    return st;
  }
  st = give(ctx, fn, h, 1, &nb, hist);
  if (bin_edges) {
    if (st == CUSCI_OK)
      st = give(ctx, fn, edges_out, 1, &ne, bin_edges);
    else
      cusci_array_release(edges_out);
  }
  return st;
}

/*
 * numpy.histogram with `bins` equal bins: the outer edges from range or
 * from a's min and max (widened by 0.5 when equal), the edges made by
 * numpy.linspace in NumPy's dtype, then the counts.
 */
cusci_status cusci_histogram(cusci_ctx *ctx, const cusci_array *a, int64_t bins, const cusci_histogram_opts *opts,
                             cusci_array **hist, cusci_array **bin_edges)
{
  const char *fn = __func__;
  CUSCI_TRY(hist_check(ctx, fn, a, opts, hist));
  if (bins < 1)
    CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "bins is %lld, expected a positive number", (long long)bins);
  bool isfloat = cusci_dtype_kind(a->dtype) == 'f';
  int ct; /* the dtype linspace computes in */
  double lo, hi;
  if (opts && opts->has_range) {
    lo = opts->range[0];
    hi = opts->range[1];
    if (lo > hi)
      CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "max must be larger than min in range parameter (range is [%g, %g])", lo, hi);
    if (!isfinite(lo) || !isfinite(hi))
      CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "supplied range of [%g, %g] is not finite", lo, hi);
    ct = 0;
  } else if (a->size == 0) {
    lo = 0;
    hi = 1;
    ct = 0;
  } else {
    cusci_array *mn = NULL, *mx = NULL;
    cusci_status st = cusci_min(ctx, a, NULL, &mn);
    if (st == CUSCI_OK)
      st = cusci_max(ctx, a, NULL, &mx);
    if (st == CUSCI_OK)
      st = scalar_of(ctx, mn, &lo);
    if (st == CUSCI_OK)
      st = scalar_of(ctx, mx, &hi);
    cusci_array_release(mn);
    cusci_array_release(mx);
    CUSCI_TRY(st);
    if (!isfinite(lo) || !isfinite(hi))
      CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "autodetected range of [%g, %g] is not finite", lo, hi);
    ct = isfloat ? ct_of(a->dtype) : 0;
  }
  if (lo == hi) {
    lo = cusci__q_round(ct, lo - 0.5);
    hi = cusci__q_round(ct, hi + 0.5);
  }
  cusci_dtype edt = isfloat ? a->dtype : CUSCI_FLOAT64;
  double *e = malloc((size_t)(bins + 1) * sizeof *e);
  if (!e)
    CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "%lld bins", (long long)bins);
  linspace_edges(ct, lo, hi, bins, e);
  for (int64_t i = 0; i <= bins; i++)
    e[i] = cusci__q_round(ct_of(edt), e[i]);
  cusci_status st = hist_count(ctx, fn, a, opts, bins, e, edt, hist, bin_edges);
  free(e);
  return st;
}

cusci_status cusci_histogram_edges(cusci_ctx *ctx, const cusci_array *a, const cusci_array *bins,
                                   const cusci_histogram_opts *opts, cusci_array **hist, cusci_array **bin_edges)
{
  const char *fn = __func__;
  CUSCI_TRY(hist_check(ctx, fn, a, opts, hist));
  CUSCI_TRY(cusci_check_array(ctx, fn, "bins", bins));
  if (bins->ndim != 1)
    CUSCI__FAIL(ctx, CUSCI_ERR_NDIM, "bins has %d dimensions, expected 1", bins->ndim);
  if (cusci_dtype_kind(bins->dtype) == 'c')
    CUSCI__FAIL(ctx, CUSCI_ERR_DTYPE, "bins is %s, expected real edges", cusci_dtype_name(bins->dtype));
  if (bins->size < 1)
    CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "bins has no edges");
  int64_t ne = bins->size, nb = ne - 1;
  double *e = malloc((size_t)ne * sizeof *e);
  if (!e)
    CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "%lld edges", (long long)ne);
  cusci_array *bd = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)bins, CUSCI_FLOAT64, true, &bd);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, bd, e, (size_t)ne * sizeof *e);
  cusci_array_release(bd);
  for (int64_t i = 0; st == CUSCI_OK && i < nb; i++)
    if (e[i] > e[i + 1])
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "bins must increase monotonically (edge %lld is %g, edge %lld is %g)",
                          (long long)i, e[i], (long long)(i + 1), e[i + 1]);
  if (st == CUSCI_OK)
    st = hist_count(ctx, fn, a, opts, nb, e, bins->dtype, hist, bin_edges);
  free(e);
  return st;
}

/* ------------------------------------------------------------- bincount */

cusci_status cusci_bincount(cusci_ctx *ctx, const cusci_array *x, const cusci_array *weights, int64_t minlength,
                            cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, __func__, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (x->ndim != 1)
    CUSCI__FAIL(ctx, CUSCI_ERR_NDIM, "x has %d dimensions, expected 1", x->ndim);
  char k = cusci_dtype_kind(x->dtype);
  if (k != 'b' && k != 'i' && k != 'u')
    CUSCI__FAIL(ctx, CUSCI_ERR_DTYPE, "x is %s, expected integers", cusci_dtype_name(x->dtype));
  if (weights) {
    CUSCI_TRY(cusci_check_array(ctx, fn, "weights", weights));
    if (weights->ndim != 1 || weights->shape[0] != x->shape[0]) {
      char s1[256];
      CUSCI__FAIL(ctx, CUSCI_ERR_SHAPE, "weights has shape %s, expected (%lld,)",
                  cusci_shape_str(weights->ndim, weights->shape, s1, sizeof s1), (long long)x->shape[0]);
    }
    if (cusci_dtype_kind(weights->dtype) == 'c')
      CUSCI__FAIL(ctx, CUSCI_ERR_DTYPE, "weights is %s, expected real numbers", cusci_dtype_name(weights->dtype));
  }
  if (minlength < 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "minlength must be non-negative (it is %lld)", (long long)minlength);
  int64_t len = minlength;
  if (x->size > 0) {
    cusci_array *mn = NULL, *mx = NULL, *mn64 = NULL, *mx64 = NULL;
    int64_t vmin = 0, vmax = 0;
    cusci_status st = cusci_min(ctx, x, NULL, &mn);
    if (st == CUSCI_OK)
      st = cusci_max(ctx, x, NULL, &mx);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, mn, CUSCI_INT64, false, &mn64);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, mx, CUSCI_INT64, false, &mx64);
    if (st == CUSCI_OK)
      st = cusci_array_to_host(ctx, mn64, &vmin, sizeof vmin);
    if (st == CUSCI_OK)
      st = cusci_array_to_host(ctx, mx64, &vmax, sizeof vmax);
    cusci_array *arrs[] = {mn, mx, mn64, mx64};
    for (int i = 0; i < 4; i++)
      cusci_array_release(arrs[i]);
    CUSCI_TRY(st);
    if (x->dtype == CUSCI_UINT64 && vmax < 0)
      CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "x holds a value above the int64 range");
    if (vmin < 0)
      CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "x must have no negative elements (it holds %lld)", (long long)vmin);
    if (vmax == INT64_MAX)
      CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "x holds %lld; its bins cannot be counted", (long long)vmax);
    if (vmax + 1 > len)
      len = vmax + 1;
  }
  cusci_dtype rdt = weights ? CUSCI_FLOAT64 : CUSCI_INT64;
  if (*out) {
    cusci_array *chk = NULL;
    CUSCI_TRY(cusci_prepare_out(ctx, fn, out, 1, &len, rdt, &chk));
  }
  cusci_array *xf = NULL, *wf = NULL, *res = NULL;
  cusci_status st = flat_as(ctx, x, CUSCI_INT64, &xf);
  if (st == CUSCI_OK && weights)
    st = flat_as(ctx, weights, CUSCI_FLOAT64, &wf);
  if (st == CUSCI_OK)
    st = cusci__array_new(ctx, fn, 1, &len, rdt, &res);
  if (st == CUSCI_OK && len > 0) {
    if (ctx->device < 0)
      cusci__host_bincount(CUSCI_INT64, xf->size, xf->data, CUSCI_FLOAT64, wf ? wf->data : NULL, len,
                           (int64_t *)res->data, (double *)res->data);
    else
      st = cusci_ctx_gpu_status(ctx, fn, NULL, cusci__launch_bincount(ctx->stream, CUSCI_INT64, xf->size, xf->data,
                                                               CUSCI_FLOAT64, wf ? wf->data : NULL, len,
                                                               (int64_t *)res->data, (double *)res->data));
  }
  cusci_array_release(xf);
  cusci_array_release(wf);
  if (st != CUSCI_OK) {
    cusci_array_release(res);
    return st;
  }
  return give(ctx, fn, res, 1, &len, out);
}
