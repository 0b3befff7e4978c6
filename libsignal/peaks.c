/*
 * libsignal/peaks.c: scipy.signal's find_peaks (every condition, and its
 * properties), peak_prominences and peak_widths. The walk from peak to
 * base is sequential per peak, so the values come to the host once and
 * the steps are reference/signal/peaks.c's; the results go back to the
 * context's device.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/signal.h>

#include "reference/signal/design.h"

/* x's values (1-d, real) on the host as float64. */
static cusci_status values_of(cusci_ctx *ctx, const char *fn, const cusci_array *x, bool one_d, double **v, int64_t *n)
{
  *v = NULL, *n = 0;
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (one_d && cusci_array_ndim(x) != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "x has %d dimensions; it must be 1-d", cusci_array_ndim(x));
  if (cusci_dtype_kind(cusci_array_dtype(x)) == 'c')
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "x is complex; peaks are of real signals");
  *n = cusci_array_size(x);
  cusci_array *d = NULL;
  CUSCI_TRY(cusci_array_astype(ctx, (cusci_array *)x, CUSCI_FLOAT64, true, &d));
  *v = malloc(sizeof **v * (size_t)(*n ? *n : 1));
  cusci_status st = *v ? cusci_array_to_host(ctx, d, *v, sizeof **v * (size_t)*n)
                       : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld values", (long long)*n);
  cusci_array_release(d);
  if (st != CUSCI_OK)
    free(*v), *v = NULL;
  return st;
}

static cusci_status signal_values(cusci_ctx *ctx, const char *fn, const cusci_array *x, double **v, int64_t *n)
{
  return values_of(ctx, fn, x, true, v, n);
}

/* wlen (0: none) as SciPy's: above 1, rounded up; -1 for none. */
static cusci_status window_length(cusci_ctx *ctx, const char *fn, double wlen, int64_t *out)
{
  *out = -1;
  if (wlen == 0)
    return CUSCI_OK;
  if (!(wlen > 1) || !isfinite(wlen))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "wlen %g must be larger than 1 (0: the whole signal)", wlen);
  *out = wlen > 9e18 ? INT64_MAX : (int64_t)ceil(wlen);
  return CUSCI_OK;
}

/* The properties, in find_peaks' order, with SciPy's names. */
enum {
  P_PLATEAU, P_LEFT_EDGE, P_RIGHT_EDGE, P_HEIGHT, P_LEFT_T, P_RIGHT_T, P_PROM, P_LEFT_BASE, P_RIGHT_BASE, P_WIDTH, P_WHEIGHT, P_LEFT_IP, P_RIGHT_IP,
  NPROP
};
static const bool prop_int[NPROP] = {[P_PLATEAU] = true, [P_LEFT_EDGE] = true, [P_RIGHT_EDGE] = true, [P_LEFT_BASE] = true, [P_RIGHT_BASE] = true};

typedef struct found {
  int64_t m, *peaks;
  double *prop[NPROP]; /* NULL: not computed */
} found;

static void found_free(found *f)
{
  free(f->peaks);
  for (int i = 0; i < NPROP; i++)
    free(f->prop[i]);
}

static bool new_prop(found *f, int i, int64_t cap)
{
  f->prop[i] = malloc(sizeof *f->prop[i] * (size_t)(cap ? cap : 1));
  return f->prop[i] != NULL;
}

/* Keep the peaks (and their properties) where keep is set. */
static void compact(found *f, const bool *keep)
{
  int64_t k = 0;
  for (int64_t i = 0; i < f->m; i++) {
    if (!keep[i])
      continue;
    f->peaks[k] = f->peaks[i];
    for (int j = 0; j < NPROP; j++)
      if (f->prop[j])
        f->prop[j][k] = f->prop[j][i];
    k++;
  }
  f->m = k;
}

static bool interval_on(const cusci_signal_interval *c)
{
  return c->has_min || c->has_max;
}

static cusci_status check_interval(cusci_ctx *ctx, const char *fn, const char *name, const cusci_signal_interval *c)
{
  if ((c->has_min && isnan(c->min)) || (c->has_max && isnan(c->max)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the %s condition has a NaN bound", name);
  return CUSCI_OK;
}

static void select_by(found *f, const double *v, const cusci_signal_interval *c, bool *keep)
{
  for (int64_t i = 0; i < f->m; i++)
    keep[i] = (!c->has_min || c->min <= v[i]) && (!c->has_max || v[i] <= c->max);
  compact(f, keep);
}

static cusci_status upload_vec(cusci_ctx *ctx, const double *v, int64_t n, bool as_int, cusci_array **out)
{
  if (!as_int)
    return cusci__sig_upload_real(ctx, v, 1, &n, CUSCI_FLOAT64, out);
  int64_t *iv = malloc(sizeof *iv * (size_t)(n ? n : 1));
  if (!iv)
    return CUSCI_ERR_OUT_OF_MEMORY;
  for (int64_t i = 0; i < n; i++)
    iv[i] = (int64_t)v[i];
  const cusci_status st = cusci_array_from_host(ctx, iv, 1, &n, CUSCI_INT64, out);
  free(iv);
  return st;
}

cusci_status cusci_signal_find_peaks(cusci_ctx *ctx, const cusci_array *x, const cusci_signal_find_peaks_opts *opts, cusci_array **peaks)
{
  static const char fn[] = "cusci_signal_find_peaks";
  CUSCI_ENTRY(ctx, fn, x, peaks);
  const cusci_signal_find_peaks_opts none = {0};
  const cusci_signal_find_peaks_opts *o = opts ? opts : &none;
  static const char *const names[] = {"height", "threshold", "prominence", "width", "plateau_size"};
  const cusci_signal_interval *conds[] = {&o->height, &o->threshold, &o->prominence, &o->width, &o->plateau_size};
  for (int i = 0; i < 5; i++)
    CUSCI_TRY(check_interval(ctx, fn, names[i], conds[i]));
  if (o->distance != 0 && !(o->distance >= 1))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "distance %g must be at least 1 (0: none)", o->distance);
  if (!(o->rel_height >= 0) || !isfinite(o->rel_height))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "rel_height %g must be at least 0 (0: 0.5)", o->rel_height);
  int64_t wlen;
  CUSCI_TRY(window_length(ctx, fn, o->wlen, &wlen));
  double *v = NULL;
  int64_t n = 0;
  CUSCI_TRY(signal_values(ctx, fn, x, &v, &n));
  found f = {0};
  const int64_t cap = n / 2 + 1;
  bool *keep = malloc((size_t)cap);
  f.peaks = malloc(sizeof *f.peaks * (size_t)cap);
  int64_t *le = malloc(sizeof *le * (size_t)cap), *re = malloc(sizeof *re * (size_t)cap);
  cusci_status st = keep && f.peaks && le && re ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (st == CUSCI_OK) {
    f.m = cusci__sig_local_maxima(v, n, f.peaks, le, re);
    if (interval_on(&o->plateau_size)) {
      if (!new_prop(&f, P_PLATEAU, cap) || !new_prop(&f, P_LEFT_EDGE, cap) || !new_prop(&f, P_RIGHT_EDGE, cap))
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
      for (int64_t i = 0; st == CUSCI_OK && i < f.m; i++)
        f.prop[P_PLATEAU][i] = (double)(re[i] - le[i] + 1), f.prop[P_LEFT_EDGE][i] = (double)le[i], f.prop[P_RIGHT_EDGE][i] = (double)re[i];
      if (st == CUSCI_OK)
        select_by(&f, f.prop[P_PLATEAU], &o->plateau_size, keep);
    }
  }
  if (st == CUSCI_OK && interval_on(&o->height)) {
    if (!new_prop(&f, P_HEIGHT, cap))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    for (int64_t i = 0; st == CUSCI_OK && i < f.m; i++)
      f.prop[P_HEIGHT][i] = v[f.peaks[i]];
    if (st == CUSCI_OK)
      select_by(&f, f.prop[P_HEIGHT], &o->height, keep);
  }
  if (st == CUSCI_OK && interval_on(&o->threshold)) {
    if (!new_prop(&f, P_LEFT_T, cap) || !new_prop(&f, P_RIGHT_T, cap))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    for (int64_t i = 0; st == CUSCI_OK && i < f.m; i++) {
      const int64_t p = f.peaks[i];
      const double l = v[p] - v[p - 1], r = v[p] - v[p + 1];
      f.prop[P_LEFT_T][i] = l, f.prop[P_RIGHT_T][i] = r;
      keep[i] = (!o->threshold.has_min || o->threshold.min <= fmin(l, r)) && (!o->threshold.has_max || fmax(l, r) <= o->threshold.max);
    }
    if (st == CUSCI_OK)
      compact(&f, keep);
  }
  if (st == CUSCI_OK && o->distance != 0) {
    double *h = malloc(sizeof *h * (size_t)cap);
    if (!h)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    for (int64_t i = 0; st == CUSCI_OK && i < f.m; i++)
      h[i] = v[f.peaks[i]];
    if (st == CUSCI_OK) {
      const int rc = cusci__sig_peak_distance(f.peaks, h, f.m, o->distance, keep);
      st = rc ? cusci__sig_design_fail(ctx, fn, rc) : CUSCI_OK;
    }
    if (st == CUSCI_OK)
      compact(&f, keep);
    free(h);
  }
  if (st == CUSCI_OK && (interval_on(&o->prominence) || interval_on(&o->width))) {
    if (!new_prop(&f, P_PROM, cap) || !new_prop(&f, P_LEFT_BASE, cap) || !new_prop(&f, P_RIGHT_BASE, cap))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK) {
      cusci__sig_peak_prominences(v, n, f.peaks, f.m, wlen, f.prop[P_PROM], le, re);
      for (int64_t i = 0; i < f.m; i++)
        f.prop[P_LEFT_BASE][i] = (double)le[i], f.prop[P_RIGHT_BASE][i] = (double)re[i];
      select_by(&f, f.prop[P_PROM], &o->prominence, keep);
    }
  }
  if (st == CUSCI_OK && interval_on(&o->width)) {
    if (!new_prop(&f, P_WIDTH, cap) || !new_prop(&f, P_WHEIGHT, cap) || !new_prop(&f, P_LEFT_IP, cap) || !new_prop(&f, P_RIGHT_IP, cap))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK) {
      for (int64_t i = 0; i < f.m; i++)
        le[i] = (int64_t)f.prop[P_LEFT_BASE][i], re[i] = (int64_t)f.prop[P_RIGHT_BASE][i];
      cusci__sig_peak_widths(v, f.peaks, f.m, o->rel_height == 0 ? 0.5 : o->rel_height, f.prop[P_PROM], le, re, f.prop[P_WIDTH], f.prop[P_WHEIGHT],
                             f.prop[P_LEFT_IP], f.prop[P_RIGHT_IP]);
      select_by(&f, f.prop[P_WIDTH], &o->width, keep);
    }
  }
  /* the peaks, and the properties asked for */
  cusci_array *r = NULL, *pa[NPROP] = {NULL};
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, f.peaks, 1, &f.m, CUSCI_INT64, &r);
  for (int i = 0; st == CUSCI_OK && o->properties && i < NPROP; i++)
    if (f.prop[i])
      st = upload_vec(ctx, f.prop[i], f.m, prop_int[i], &pa[i]);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, peaks);
  else
    cusci_array_release(r);
  if (o->properties) {
    cusci_signal_peak_properties *pp = o->properties;
    cusci_array **slot[NPROP] = {&pp->plateau_sizes, &pp->left_edges,    &pp->right_edges, &pp->peak_heights, &pp->left_thresholds,
                                 &pp->right_thresholds, &pp->prominences, &pp->left_bases,  &pp->right_bases,  &pp->widths,
                                 &pp->width_heights,  &pp->left_ips,     &pp->right_ips};
    for (int i = 0; i < NPROP; i++) {
      if (st == CUSCI_OK)
        *slot[i] = pa[i];
      else
        cusci_array_release(pa[i]);
    }
  }
  free(keep), free(le), free(re), free(v);
  found_free(&f);
  return st;
}

/* peaks' values as indices into x of n values. */
static cusci_status peak_indices(cusci_ctx *ctx, const char *fn, const cusci_array *peaks, int64_t n, int64_t **p, int64_t *m)
{
  *p = NULL, *m = 0;
  CUSCI_TRY(cusci_check_array(ctx, fn, "peaks", peaks));
  if (cusci_array_ndim(peaks) != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "peaks must be 1-d");
  const char kind = cusci_dtype_kind(cusci_array_dtype(peaks));
  if (kind != 'i' && kind != 'u')
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "peaks must be of an integer dtype, not %s", cusci_dtype_name(cusci_array_dtype(peaks)));
  *m = cusci_array_size(peaks);
  cusci_array *d = NULL;
  CUSCI_TRY(cusci_array_astype(ctx, (cusci_array *)peaks, CUSCI_INT64, true, &d));
  *p = malloc(sizeof **p * (size_t)(*m ? *m : 1));
  cusci_status st = *p ? cusci_array_to_host(ctx, d, *p, sizeof **p * (size_t)*m) : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array_release(d);
  for (int64_t i = 0; st == CUSCI_OK && i < *m; i++)
    if ((*p)[i] < 0 || (*p)[i] >= n)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "peaks[%lld] = %lld is not an index of x (%lld values)", (long long)i, (long long)(*p)[i],
                          (long long)n);
  if (st != CUSCI_OK)
    free(*p), *p = NULL;
  return st;
}

/* Prominences and bases of the given peaks on the host. */
static cusci_status prominences_host(cusci_ctx *ctx, const char *fn, const cusci_array *x, const cusci_array *peaks, double wlen, double **v,
                                     int64_t *n, int64_t **p, int64_t *m, double **prom, int64_t **lb, int64_t **rb)
{
  *v = NULL, *p = NULL, *prom = NULL, *lb = *rb = NULL;
  int64_t w;
  CUSCI_TRY(window_length(ctx, fn, wlen, &w));
  CUSCI_TRY(signal_values(ctx, fn, x, v, n));
  cusci_status st = peak_indices(ctx, fn, peaks, *n, p, m);
  if (st == CUSCI_OK) {
    *prom = malloc(sizeof **prom * (size_t)(*m ? *m : 1));
    *lb = malloc(sizeof **lb * (size_t)(*m ? *m : 1)), *rb = malloc(sizeof **rb * (size_t)(*m ? *m : 1));
    if (!*prom || !*lb || !*rb)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  if (st == CUSCI_OK)
    cusci__sig_peak_prominences(*v, *n, *p, *m, w, *prom, *lb, *rb);
  if (st != CUSCI_OK) {
    free(*v), free(*p), free(*prom), free(*lb), free(*rb);
    *v = NULL, *p = NULL, *prom = NULL, *lb = *rb = NULL;
  }
  return st;
}

cusci_status cusci_signal_peak_prominences(cusci_ctx *ctx, const cusci_array *x, const cusci_array *peaks, double wlen, cusci_array **prominences,
                                           cusci_array **left_bases, cusci_array **right_bases)
{
  static const char fn[] = "cusci_signal_peak_prominences";
  CUSCI_ENTRY(ctx, fn, x, peaks, prominences, left_bases, right_bases);
  double *v, *prom;
  int64_t n, m, *p, *lb, *rb;
  CUSCI_TRY(prominences_host(ctx, fn, x, peaks, wlen, &v, &n, &p, &m, &prom, &lb, &rb));
  cusci_array *a = NULL, *b = NULL, *c = NULL;
  cusci_status st = cusci__sig_upload_real(ctx, prom, 1, &m, CUSCI_FLOAT64, &a);
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, lb, 1, &m, CUSCI_INT64, &b);
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, rb, 1, &m, CUSCI_INT64, &c);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, a, prominences);
  else
    cusci_array_release(a);
  st = cusci__sig_give_two(ctx, fn, st, b, left_bases, c, right_bases);
  free(v), free(p), free(prom), free(lb), free(rb);
  return st;
}

cusci_status cusci_signal_peak_widths(cusci_ctx *ctx, const cusci_array *x, const cusci_array *peaks, double rel_height, double wlen,
                                      cusci_array **widths, cusci_array **width_heights, cusci_array **left_ips, cusci_array **right_ips)
{
  static const char fn[] = "cusci_signal_peak_widths";
  CUSCI_ENTRY(ctx, fn, x, peaks, widths, width_heights, left_ips, right_ips);
  if (!(rel_height >= 0) || !isfinite(rel_height))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "rel_height %g must be at least 0", rel_height);
  double *v, *prom;
  int64_t n, m, *p, *lb, *rb;
  CUSCI_TRY(prominences_host(ctx, fn, x, peaks, wlen, &v, &n, &p, &m, &prom, &lb, &rb));
  double *w = malloc(sizeof *w * (size_t)(4 * (m ? m : 1)));
  cusci_status st = w ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array *r[4] = {NULL, NULL, NULL, NULL};
  if (st == CUSCI_OK) {
    const int64_t q = m ? m : 1;
    cusci__sig_peak_widths(v, p, m, rel_height, prom, lb, rb, w, w + q, w + 2 * q, w + 3 * q);
    for (int i = 0; i < 4 && st == CUSCI_OK; i++)
      st = cusci__sig_upload_real(ctx, w + i * q, 1, &m, CUSCI_FLOAT64, &r[i]);
  }
  st = cusci__sig_give_two(ctx, fn, st, r[0], widths, r[1], width_heights);
  st = cusci__sig_give_two(ctx, fn, st, r[2], left_ips, r[3], right_ips);
  free(w), free(v), free(p), free(prom), free(lb), free(rb);
  return st;
}

/* ------------------------------------------------ argrelextrema */

static cusci_status relextrema(cusci_ctx *ctx, const char *fn, const cusci_array *x, cusci_signal_comparator cmp, int axis, int order,
                               cusci_signal_take_mode mode, cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, x, out);
  if ((unsigned)cmp > CUSCI_SIGNAL_LESS_EQUAL)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "comparator %d is not a cusci_signal_comparator", (int)cmp);
  if ((unsigned)mode > CUSCI_SIGNAL_TAKE_WRAP)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "mode %d must be clip or wrap", (int)mode);
  if (order < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "order %d must be an int >= 1", order);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  const int nd = cusci_array_ndim(x);
  int ax;
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "x", nd, axis, &ax));
  for (int d = 0; d < nd; d++)
    if (out[d])
      return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "out[%d] must be NULL: each of the %d index arrays is new", d, nd);
  double *v;
  int64_t size;
  CUSCI_TRY(values_of(ctx, fn, x, false, &v, &size));
  const int64_t *shape = cusci_array_shape(x);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < ax; d++)
    outer *= shape[d];
  for (int d = ax + 1; d < nd; d++)
    inner *= shape[d];
  bool *mask = malloc(size ? (size_t)size : 1);
  if (!mask) {
    free(v);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  const int64_t m = cusci__sig_relextrema(v, outer, shape[ax], inner, (int)cmp, order, mode == CUSCI_SIGNAL_TAKE_WRAP, mask);
  free(v);
  /* numpy.nonzero: the coordinates of the true values in C order, one
   * int64 array per dimension */
  int64_t *idx = malloc(sizeof *idx * (size_t)(m * nd + 1));
  cusci_status st = idx ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  for (int64_t f = 0, k = 0; st == CUSCI_OK && f < size; f++) {
    if (!mask[f])
      continue;
    int64_t r = f;
    for (int d = nd - 1; d >= 0; d--) {
      idx[d * m + k] = r % shape[d];
      r /= shape[d];
    }
    k++;
  }
  free(mask);
  cusci_array *res[32] = {NULL};
  for (int d = 0; d < nd && st == CUSCI_OK; d++)
    st = cusci_array_from_host(ctx, idx + d * m, 1, &m, CUSCI_INT64, &res[d]);
  free(idx);
  for (int d = 0; d < nd; d++) {
    if (st == CUSCI_OK)
      out[d] = res[d];
    else
      cusci_array_release(res[d]);
  }
  return st;
}

cusci_status cusci_signal_argrelextrema(cusci_ctx *ctx, const cusci_array *x, cusci_signal_comparator comparator, int axis, int order,
                                        cusci_signal_take_mode mode, cusci_array **out)
{
  return relextrema(ctx, "cusci_signal_argrelextrema", x, comparator, axis, order, mode, out);
}

cusci_status cusci_signal_argrelmax(cusci_ctx *ctx, const cusci_array *x, int axis, int order, cusci_signal_take_mode mode, cusci_array **out)
{
  return relextrema(ctx, "cusci_signal_argrelmax", x, CUSCI_SIGNAL_GREATER, axis, order, mode, out);
}

cusci_status cusci_signal_argrelmin(cusci_ctx *ctx, const cusci_array *x, int axis, int order, cusci_signal_take_mode mode, cusci_array **out)
{
  return relextrema(ctx, "cusci_signal_argrelmin", x, CUSCI_SIGNAL_LESS, axis, order, mode, out);
}
