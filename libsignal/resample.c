/*
 * libsignal/resample.c: upfirdn, resample_poly, resample (the Fourier
 * method), hilbert and medfilt of signal.h.
 *
 * upfirdn and medfilt are kernels of their own (reference/signal/filter.c
 * on the host, kernels/signal/filter.cu on the GPU, the same sums and the
 * same selection); resample_poly is upfirdn with SciPy's Kaiser-windowed
 * FIR filter; resample and hilbert are fft.h's transforms and the core's
 * arithmetic, on either backend.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/fft.h>
#include <cusci/kit/dtypes.h>
#include <cusci/signal.h>

#include "kernels/signal/launch.h"
#include "reference/signal/design.h"
#include "reference/signal/filter.h"


/* result_type(h, x, float32): bool and integers as float64. */
/* result_type(h, x, float32), integers as float64. */
static cusci_dtype fir_dtype(cusci_dtype a, cusci_dtype b)
{
  return cusci__sig_dtype(2, (cusci_dtype[]){ a, b });
}

static cusci_status axis_of(cusci_ctx *ctx, const char *fn, const cusci_array *x, int axis, int *out)
{
  return cusci__sig_axis(ctx, fn, "x", cusci_array_ndim(x), axis, out);
}

static void split(int nd, const int64_t *shape, int axis, int64_t *outer, int64_t *inner)
{
  *outer = 1, *inner = 1;
  for (int i = 0; i < axis; i++)
    *outer *= shape[i];
  for (int i = axis + 1; i < nd; i++)
    *inner *= shape[i];
}

/* ------------------------------------------------ upfirdn */

/* upfirdn of h (1-D, of dt, contiguous) and x along axis into a new
 * array *out: its first nout outputs (0: all). */
static cusci_status upfirdn_run(cusci_ctx *ctx, const char *fn, const cusci_array *h, const cusci_array *x, int64_t up, int64_t down, int axis,
                                int64_t nout, cusci_dtype dt, cusci_array **out)
{
  const int nd = cusci_array_ndim(x);
  const int64_t *sh = cusci_array_shape(x), n = sh[axis], nh = cusci_array_size(h);
  int64_t outer, inner, os[SIG_MAXD];
  split(nd, sh, axis, &outer, &inner);
  memcpy(os, sh, sizeof(int64_t) * (size_t)nd);
  /* The natural length, or nout outputs (those past the filter's reach
   * empty sums, 0). */
  os[axis] = nout ? nout : n ? ((n - 1) * up + nh - 1) / down + 1 : 0;
  cusci_array *xc = NULL, *hc = NULL, *r = NULL;
  cusci_status st = cusci__sig_contiguous(ctx, x, dt, &xc);
  if (st == CUSCI_OK)
    st = cusci__sig_contiguous(ctx, h, dt, &hc);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, os, dt, &r);
  if (st == CUSCI_OK && n) {
    if (cusci_ctx_device(ctx) >= 0) {
      int code = cusci__sig_upfirdn_gpu(cusci_ctx_stream(ctx), cusci__sig_prec(dt), nh, cusci_array_data(hc), outer, n, inner, cusci_array_data(xc), up, down, 0,
                                        0, n, os[axis], cusci_array_data(r));
      if (code)
        st = cusci_ctx_gpu_status(ctx, fn, "the upfirdn kernel", code);
    } else {
      cusci__sig_upfirdn(cusci__sig_prec(dt), nh, cusci_array_data(hc), outer, n, inner, cusci_array_data(xc), up, down, 0, 0, n, os[axis],
                         cusci_array_data(r));
    }
  }
  cusci_array_release(xc), cusci_array_release(hc);
  if (st != CUSCI_OK) {
    cusci_array_release(r);
    return st;
  }
  *out = r;
  return CUSCI_OK;
}

static cusci_status rates(cusci_ctx *ctx, const char *fn, int64_t up, int64_t down)
{
  if (up < 1 || down < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "up is %lld and down %lld: both must be at least 1", (long long)up, (long long)down);
  return CUSCI_OK;
}

cusci_status cusci_signal_upfirdn(cusci_ctx *ctx, const cusci_array *h, const cusci_array *x, int64_t up, int64_t down, int axis, cusci_array **out)
{
  static const char fn[] = "cusci_signal_upfirdn";
  CUSCI_ENTRY(ctx, fn, h, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "h", h));
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  CUSCI_TRY(rates(ctx, fn, up, down));
  if (cusci_array_ndim(h) != 1 || cusci_array_size(h) == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "h must be 1-D and not empty (it has %d dimensions and %lld values)", cusci_array_ndim(h),
                          (long long)cusci_array_size(h));
  int ax;
  CUSCI_TRY(axis_of(ctx, fn, x, axis, &ax));
  const cusci_dtype dt = fir_dtype(cusci_array_dtype(h), cusci_array_dtype(x));
  int64_t os[SIG_MAXD];
  const int64_t n = cusci_array_shape(x)[ax];
  memcpy(os, cusci_array_shape(x), sizeof(int64_t) * (size_t)cusci_array_ndim(x));
  os[ax] = n ? ((n - 1) * up + cusci_array_size(h) - 1) / down + 1 : 0;
  CUSCI_TRY(cusci_check_out(ctx, fn, out, cusci_array_ndim(x), os, dt, CUSCI_CASTING_NO));
  cusci_array *r = NULL;
  CUSCI_TRY(upfirdn_run(ctx, fn, h, x, up, down, ax, 0, dt, &r));
  return cusci_give_out(ctx, fn, r, out);
}

/* ------------------------------------------------ extensions */

/* x (as dt) extended by E samples at each end along axis as upfirdn's
 * mode: the index modes through the padding kernel; antisymmetric,
 * antireflect, line and smooth from it with the edge values (E < n for
 * those). A new contiguous array. */
static cusci_status ext_signal(cusci_ctx *ctx, const char *fn, const cusci_array *x, int axis, int64_t E, int mode, double cval, cusci_dtype dt,
                               cusci_array **out)
{
  const int nd = cusci_array_ndim(x);
  const int64_t n = cusci_array_shape(x)[axis];
  static const int index_of[] = { CUSCI__SIG_PAD_FILL,   CUSCI__SIG_PAD_SYMM,   CUSCI__SIG_PAD_MIRROR, CUSCI__SIG_PAD_NEAREST, CUSCI__SIG_PAD_WRAP,
                                  CUSCI__SIG_PAD_SYMM,   CUSCI__SIG_PAD_MIRROR, CUSCI__SIG_PAD_FILL,   CUSCI__SIG_PAD_FILL };
  if (mode >= CUSCI_SIGNAL_EXT_ANTISYMMETRIC && E >= n)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the %s extension needs more samples (%lld) than the filter's reach (%lld)",
                          mode == CUSCI_SIGNAL_EXT_LINE ? "line" : mode == CUSCI_SIGNAL_EXT_SMOOTH ? "smooth" : "anti-", (long long)n, (long long)E);
  int64_t before[SIG_MAXD] = { 0 };
  before[axis] = E;
  cusci_array *e = NULL;
  CUSCI_TRY(cusci__sig_pad_array(ctx, fn, x, dt, before, before, index_of[mode], mode == CUSCI_SIGNAL_EXT_CONSTANT ? cval : 0, &e));
  cusci_status st = CUSCI_OK;
  for (int side = 0; side < 2 && st == CUSCI_OK && mode >= CUSCI_SIGNAL_EXT_ANTISYMMETRIC && E > 0; side++) {
    /* The extension's part, the edge sample and its neighbour. */
    cusci_array *part = NULL, *edge = NULL, *nb = NULL, *t = NULL, *u = NULL, *g = NULL, *ga = NULL, *gr = NULL;
    st = cusci__sig_along(ctx, e, axis, side ? E + n : 0, side ? 2 * E + n : E, 1, &part);
    if (st == CUSCI_OK)
      st = cusci__sig_along(ctx, e, axis, side ? E + n - 1 : E, side ? E + n : E + 1, 1, &edge);
    if (st == CUSCI_OK && mode == CUSCI_SIGNAL_EXT_ANTISYMMETRIC) {
      st = cusci_ufunc_unary(ctx, CUSCI_UFUNC_NEGATIVE, cusci_operand_array(part), &part);
    } else if (st == CUSCI_OK && mode == CUSCI_SIGNAL_EXT_ANTIREFLECT) {
      st = cusci_add(ctx, edge, edge, &t);
      if (st == CUSCI_OK)
        st = cusci_subtract(ctx, t, part, &part);
    } else if (st == CUSCI_OK) {
      /* line: the slope (x[n-1] - x[0]) / (n - 1); smooth: the edge's
       * (x[1] - x[0], or x[n-1] - x[n-2]); the samples edge + d slope, d
       * the distance (negative on the left). */
      cusci_array *a0 = NULL, *a1 = NULL;
      if (mode == CUSCI_SIGNAL_EXT_LINE) {
        st = cusci__sig_along(ctx, e, axis, E, E + 1, 1, &a0);
        if (st == CUSCI_OK)
          st = cusci__sig_along(ctx, e, axis, E + n - 1, E + n, 1, &a1);
      } else {
        st = cusci__sig_along(ctx, e, axis, side ? E + n - 2 : E, side ? E + n - 1 : E + 1, 1, &a0);
        if (st == CUSCI_OK)
          st = cusci__sig_along(ctx, e, axis, side ? E + n - 1 : E + 1, side ? E + n : E + 2, 1, &a1);
      }
      if (st == CUSCI_OK)
        st = cusci_subtract(ctx, a1, a0, &t);
      if (st == CUSCI_OK && mode == CUSCI_SIGNAL_EXT_LINE)
        st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(t), cusci_operand_float((double)(n - 1)), &t);
      double *dv = st == CUSCI_OK ? malloc(sizeof *dv * (size_t)E) : NULL;
      if (st == CUSCI_OK && !dv)
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
      for (int64_t k = 0; st == CUSCI_OK && k < E; k++)
        dv[k] = side ? (double)(k + 1) : (double)(k - E);
      int64_t ds[SIG_MAXD];
      for (int i = 0; i < nd; i++)
        ds[i] = i == axis ? E : 1;
      if (st == CUSCI_OK)
        st = cusci__sig_upload_real(ctx, dv, 1, &E, cusci_dtype_real_of(dt), &ga);
      free(dv);
      if (st == CUSCI_OK)
        st = cusci_array_reshape(ctx, ga, nd, ds, &gr);
      if (st == CUSCI_OK)
        st = cusci_multiply(ctx, gr, t, &u);
      if (st == CUSCI_OK)
        st = cusci_add(ctx, side ? a1 : a0, u, &part);
      SIG_RELEASE(a0, a1);
    }
    SIG_RELEASE(part, edge, nb, t, u, g, ga, gr);
  }
  if (st != CUSCI_OK) {
    cusci_array_release(e);
    return st;
  }
  *out = e;
  return CUSCI_OK;
}

/* The samples E an extension needs at each end for nh taps at up and
 * down: ceil(nh / up), rounded up to a multiple of down so that the
 * extended signal's outputs fall on the original's. */
static int64_t ext_len(int64_t nh, int64_t up, int64_t down)
{
  const int64_t e = (nh + up - 1) / up;
  return (e + down - 1) / down * down;
}

/* upfirdn of x extended as mode: the outputs of the extended signal from
 * off = E up / down on, nout of them. */
static cusci_status upfirdn_ext(cusci_ctx *ctx, const char *fn, const cusci_array *h, const cusci_array *x, int64_t up, int64_t down, int ax,
                                int mode, double cval, int64_t first, int64_t nout, cusci_dtype dt, cusci_array **out)
{
  const int64_t E = ext_len(cusci_array_size(h), up, down), off = E * up / down;
  cusci_array *xe = NULL, *ye = NULL, *v = NULL;
  cusci_status st = ext_signal(ctx, fn, x, ax, E, mode, cval, dt, &xe);
  if (st == CUSCI_OK)
    st = upfirdn_run(ctx, fn, h, xe, up, down, ax, off + first + nout, dt, &ye);
  if (st == CUSCI_OK)
    st = cusci__sig_along(ctx, ye, ax, off + first, off + first + nout, 1, &v);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, v, out);
  SIG_RELEASE(xe, ye, v);
  return st;
}

cusci_status cusci_signal_upfirdn_ex(cusci_ctx *ctx, const cusci_array *h, const cusci_array *x, int64_t up, int64_t down, int axis,
                                     cusci_signal_ext mode, double cval, cusci_array **out)
{
  static const char fn[] = "cusci_signal_upfirdn_ex";
  CUSCI_ENTRY(ctx, fn, h, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "h", h));
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  CUSCI_TRY(rates(ctx, fn, up, down));
  if ((int)mode < 0 || mode > CUSCI_SIGNAL_EXT_SMOOTH)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "mode %d is not one of upfirdn's extensions", (int)mode);
  if (cusci_array_ndim(h) != 1 || cusci_array_size(h) == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "h must be 1-D and not empty (it has %d dimensions and %lld values)", cusci_array_ndim(h),
                          (long long)cusci_array_size(h));
  int ax;
  CUSCI_TRY(axis_of(ctx, fn, x, axis, &ax));
  const int64_t n = cusci_array_shape(x)[ax], nout = n ? ((n - 1) * up + cusci_array_size(h) - 1) / down + 1 : 0;
  if (n == 0)
    return cusci_signal_upfirdn(ctx, h, x, up, down, axis, out);
  const cusci_dtype dt = fir_dtype(cusci_array_dtype(h), cusci_array_dtype(x));
  int64_t os[SIG_MAXD];
  memcpy(os, cusci_array_shape(x), sizeof(int64_t) * (size_t)cusci_array_ndim(x));
  os[ax] = nout;
  CUSCI_TRY(cusci_check_out(ctx, fn, out, cusci_array_ndim(x), os, dt, CUSCI_CASTING_NO));
  cusci_array *hc = NULL;
  CUSCI_TRY(cusci__sig_contiguous(ctx, h, dt, &hc));
  cusci_status st = upfirdn_ext(ctx, fn, hc, x, up, down, ax, mode, cval, 0, nout, dt, out);
  cusci_array_release(hc);
  return st;
}

/* ------------------------------------------------ resample_poly */

void cusci__sig_firwin(int64_t taps, double fc, int window, double *h)
{
  /* firwin(taps, fc) with the window's symmetric values in h first. */
  const double beta = 5.0, edges[2] = {0, fc};
  cusci__sig_window(window == CUSCI__SIG_WIN_HAMMING ? CUSCI__WIN_HAMMING : CUSCI__WIN_KAISER, &beta, 1, taps, true, h);
  cusci__sig_firwin_bands(taps, edges, 1, h, true, h);
}

double *cusci__sig_poly_taps(int64_t up, int64_t down, const double *win, int64_t nwin, int64_t *nh, int64_t *remove)
{
  /* SciPy's filter: the given window, or firwin(2 half_len + 1, 1 /
   * max_rate) with a Kaiser window of beta 5 (a windowed sinc scaled to a
   * DC gain of 1); zeros before it so that the outputs are centred. SciPy
   * pads it with zeros after it too until the output is long enough; here
   * the outputs past the filter's reach are empty sums. */
  const int64_t max_rate = up > down ? up : down, half = win ? (nwin - 1) / 2 : 10 * max_rate, taps = win ? nwin : 2 * half + 1;
  const int64_t pre = down - half % down;
  double *hv = calloc((size_t)(pre + taps), sizeof *hv);
  if (!hv)
    return NULL;
  if (win)
    memcpy(hv + pre, win, sizeof *hv * (size_t)taps);
  else
    cusci__sig_firwin(taps, 1.0 / (double)max_rate, CUSCI__SIG_WIN_KAISER5, hv + pre);
  *nh = pre + taps, *remove = (half + pre) / down;
  return hv;
}

cusci_status cusci__sig_resample_poly(cusci_ctx *ctx, const char *fn, const cusci_array *x, int64_t up, int64_t down, int axis, const double *win,
                                      int64_t nwin, cusci_dtype wdt, double cval, int ext, cusci_array **out)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  CUSCI_TRY(rates(ctx, fn, up, down));
  int ax;
  CUSCI_TRY(axis_of(ctx, fn, x, axis, &ax));
  const cusci_dtype xt = cusci_array_dtype(x);
  /* x's dtype (integers: float64); with a given window, SciPy's h keeps
   * the window's dtype and the two promote. */
  const cusci_dtype xdt = cusci_dtype_is_inexact(xt) && xt != CUSCI_FLOAT16 ? xt : xt == CUSCI_FLOAT16 ? CUSCI_FLOAT32 : CUSCI_FLOAT64;
  const cusci_dtype dt = win ? fir_dtype(wdt, xdt) : xdt;
  const int nd = cusci_array_ndim(x);
  const int64_t g = cusci__sig_gcd(up, down), n_in = cusci_array_shape(x)[ax];
  up /= g, down /= g;
  int64_t os[SIG_MAXD];
  memcpy(os, cusci_array_shape(x), sizeof(int64_t) * (size_t)nd);
  const int64_t n_out = n_in * up / down + (n_in * up % down != 0);
  os[ax] = n_out;
  /* Equal rates: a copy of x in its own dtype, as SciPy's. */
  if (up == 1 && down == 1) {
    CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, os, xt, CUSCI_CASTING_NO));
    return cusci_array_copy(ctx, x, out);
  }
  CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, os, dt, CUSCI_CASTING_NO));
  int64_t nh = 0, remove = 0;
  double *hv = cusci__sig_poly_taps(up, down, win, nwin, &nh, &remove);
  if (!hv)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the filter's taps");
  /* A constant cval beyond the ends: by linearity, upfirdn of x - cval
   * (zeros beyond) plus cval times the sum of the taps of each output's
   * phase, S[(i down) mod up] (SciPy's upfirdn mode constant). */
  double *phase = cval != 0 ? calloc((size_t)up, sizeof *phase) : NULL;
  if (cval != 0 && !phase) {
    free(hv);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  for (int64_t k = 0; phase && k < nh; k++)
    phase[k % up] += hv[k] * (double)up;
  cusci_array *h0 = NULL, *h = NULL, *y = NULL, *keep = NULL, *hh = NULL, *xs = NULL, *pat = NULL, *pr = NULL, *sum = NULL;
  cusci_status st = cusci_array_from_host(ctx, hv, 1, &nh, CUSCI_FLOAT64, &hh);
  free(hv);
  if (st == CUSCI_OK && phase) {
    double *pv = malloc(sizeof *pv * (size_t)(n_out ? n_out : 1));
    int64_t ps[SIG_MAXD];
    for (int i = 0; i < nd; i++)
      ps[i] = i == ax ? n_out : 1;
    st = pv ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    for (int64_t i = 0; st == CUSCI_OK && i < n_out; i++)
      pv[i] = cval * phase[((remove + i) * down) % up];
    if (st == CUSCI_OK)
      st = cusci_array_from_host(ctx, pv, 1, &n_out, CUSCI_FLOAT64, &pr);
    if (st == CUSCI_OK)
      st = cusci_array_reshape(ctx, pr, nd, ps, &pat);
    if (st == CUSCI_OK)
      st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_SUBTRACT, cusci_operand_array(x), cusci_operand_float(cval), &xs);
    free(pv);
  }
  free(phase);
  /* Rounded to x's dtype first, then times up in it, as SciPy's. */
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, hh, dt, true, &h0);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(h0), cusci_operand_int(up), &h);
  if (st == CUSCI_OK && ext > CUSCI_SIGNAL_EXT_CONSTANT) {
    /* An extension of upfirdn's: the outputs of the extended signal. */
    st = upfirdn_ext(ctx, fn, h, x, up, down, ax, ext, 0, remove, n_out, dt, &keep);
  } else {
    if (st == CUSCI_OK)
      st = upfirdn_run(ctx, fn, h, xs ? xs : x, up, down, ax, remove + n_out, dt, &y);
    if (st == CUSCI_OK)
      st = cusci__sig_along(ctx, y, ax, remove, remove + n_out, 1, &keep);
  }
  if (st == CUSCI_OK && pat) {
    cusci_array *t = NULL;
    st = cusci_add(ctx, keep, pat, &t);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, t, dt, false, &sum);
    cusci_array_release(t);
  }
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, sum ? sum : keep, out);
  SIG_RELEASE(hh, h0, h, y, keep, xs, pat, pr, sum);
  return st;
}

cusci_status cusci_signal_resample_poly_ex(cusci_ctx *ctx, const cusci_array *x, int64_t up, int64_t down, int axis, const cusci_array *window,
                                           cusci_signal_poly_pad padtype, double cval, cusci_array **out)
{
  static const char fn[] = "cusci_signal_resample_poly_ex";
  CUSCI_ENTRY(ctx, fn, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if ((int)padtype < 0 || padtype > CUSCI_SIGNAL_POLY_PAD_SMOOTH)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "padtype %d is not one of resample_poly's", (int)padtype);
  if (cval != 0 && padtype != CUSCI_SIGNAL_POLY_PAD_CONSTANT)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "cval %g has no effect with padtype %d (constant only, as SciPy's)", cval, (int)padtype);
  int ax;
  CUSCI_TRY(axis_of(ctx, fn, x, axis, &ax));
  double *win = NULL;
  int64_t nwin = 0;
  cusci_status st = CUSCI_OK;
  if (window) {
    CUSCI_TRY(cusci_check_array(ctx, fn, "window", window));
    if (cusci_array_ndim(window) != 1 || cusci_array_size(window) == 0)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window must be 1-D and not empty (it has %d dimensions)", cusci_array_ndim(window));
    if (cusci_dtype_is_complex(cusci_array_dtype(window)))
      return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "window is complex: the FIR filter must be real");
    nwin = cusci_array_size(window);
    cusci_array *w64 = NULL;
    win = malloc(sizeof *win * (size_t)nwin);
    st = win ? cusci_array_astype(ctx, (cusci_array *)window, CUSCI_FLOAT64, false, &w64) : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK)
      st = cusci_array_to_host(ctx, w64, win, sizeof *win * (size_t)nwin);
    cusci_array_release(w64);
  }
  /* The background (mean, median, minimum or maximum along axis) taken off
   * before the filter and put back after, as SciPy's padtype. */
  cusci_array *bg = NULL, *xs = NULL, *y = NULL;
  const cusci_reduce_opts keep = { 1, &ax, true, 0 };
  if (st == CUSCI_OK && padtype != CUSCI_SIGNAL_POLY_PAD_CONSTANT && padtype <= CUSCI_SIGNAL_POLY_PAD_MAXIMUM) {
    st = padtype == CUSCI_SIGNAL_POLY_PAD_MEAN     ? cusci_mean(ctx, x, &keep, &bg)
         : padtype == CUSCI_SIGNAL_POLY_PAD_MEDIAN ? cusci_median(ctx, x, &keep, &bg)
         : padtype == CUSCI_SIGNAL_POLY_PAD_MINIMUM ? cusci_min(ctx, x, &keep, &bg)
                                                    : cusci_max(ctx, x, &keep, &bg);
    if (st == CUSCI_OK)
      st = cusci_subtract(ctx, x, bg, &xs);
  }
  if (st == CUSCI_OK)
    st = cusci__sig_resample_poly(ctx, fn, xs ? xs : x, up, down, ax, win, nwin, window ? cusci_array_dtype(window) : CUSCI_FLOAT64,
                                  padtype == CUSCI_SIGNAL_POLY_PAD_CONSTANT ? cval : 0,
                                  padtype >= CUSCI_SIGNAL_POLY_PAD_SYMMETRIC ? (int)(padtype - CUSCI_SIGNAL_POLY_PAD_SYMMETRIC) + CUSCI_SIGNAL_EXT_SYMMETRIC : 0,
                                  bg ? &y : out);
  if (st == CUSCI_OK && bg) {
    /* In y's dtype, as SciPy's y += background. */
    cusci_array *t = NULL, *tc = NULL;
    st = cusci_add(ctx, y, bg, &t);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, t, cusci_array_dtype(y), false, &tc);
    if (st == CUSCI_OK)
      st = cusci_give_out(ctx, fn, tc, out), tc = NULL;
    cusci_array_release(t), cusci_array_release(tc);
  }
  free(win);
  cusci_array_release(bg), cusci_array_release(xs), cusci_array_release(y);
  return st;
}

cusci_status cusci_signal_resample_poly(cusci_ctx *ctx, const cusci_array *x, int64_t up, int64_t down, int axis, cusci_array **out)
{
  static const char fn[] = "cusci_signal_resample_poly";
  CUSCI_ENTRY(ctx, fn, x, out);
  return cusci__sig_resample_poly(ctx, fn, x, up, down, axis, NULL, 0, CUSCI_FLOAT64, 0, 0, out);
}

/* ------------------------------------------------ resample and hilbert */

/* v (a view) times a scalar, in place. */
static cusci_status scale_view(cusci_ctx *ctx, cusci_array *v, double s)
{
  return cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(v), cusci_operand_float(s), &v);
}

/* Copy src[a0:a1] into dst[b0:b0 + a1 - a0] along axis. */
static cusci_status copy_part(cusci_ctx *ctx, cusci_array *src, cusci_array *dst, int axis, int64_t a0, int64_t a1, int64_t b0)
{
  if (a1 <= a0)
    return CUSCI_OK;
  cusci_array *s = NULL, *d = NULL;
  cusci_status st = cusci__sig_along(ctx, src, axis, a0, a1, 1, &s);
  if (st == CUSCI_OK)
    st = cusci__sig_along(ctx, dst, axis, b0, b0 + (a1 - a0), 1, &d);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, s, &d);
  cusci_array_release(s), cusci_array_release(d);
  return st;
}

/* SciPy's resample of a two-sided spectrum X (n_x bins along ax, complex)
 * to num samples: the first m = min(num, n_x) bins (the negative ones at
 * the end), the unpaired bin m / 2 of an even m joined (down) or split
 * (up), divided by n_x / num, the inverse transform. */
static cusci_status resample_freq(cusci_ctx *ctx, cusci_array *X, int64_t n_x, int64_t num, int ax, cusci_array **out)
{
  const double s_fac = (double)n_x / (double)num;
  const int64_t m = num < n_x ? num : n_x, m2 = m / 2 + 1;
  const int nd = cusci_array_ndim(X);
  int64_t ys[SIG_MAXD];
  memcpy(ys, cusci_array_shape(X), sizeof(int64_t) * (size_t)nd);
  ys[ax] = num;
  cusci_array *Y = NULL, *w = NULL, *Ys = NULL;
  cusci_status st = cusci_array_zeros(ctx, nd, ys, cusci_array_dtype(X), &Y);
  if (st == CUSCI_OK)
    st = copy_part(ctx, X, Y, ax, 0, m2, 0);
  if (st == CUSCI_OK && m2 < m)
    st = copy_part(ctx, X, Y, ax, n_x - (m - m2), n_x, num - (m - m2));
  if (st == CUSCI_OK && m % 2 == 0 && num < n_x) {
    /* Y[-m/2] += X[-m/2] */
    cusci_array *xa = NULL, *ya = NULL;
    st = cusci__sig_along(ctx, X, ax, n_x - m / 2, n_x - m / 2 + 1, 1, &xa);
    if (st == CUSCI_OK)
      st = cusci__sig_along(ctx, Y, ax, num - m / 2, num - m / 2 + 1, 1, &ya);
    if (st == CUSCI_OK)
      st = cusci_add(ctx, ya, xa, &ya);
    cusci_array_release(xa), cusci_array_release(ya);
  } else if (st == CUSCI_OK && m % 2 == 0 && n_x < num) {
    /* Y[m/2] /= 2; Y[num - m/2] = Y[m/2] */
    st = cusci__sig_along(ctx, Y, ax, m / 2, m / 2 + 1, 1, &w);
    if (st == CUSCI_OK)
      st = scale_view(ctx, w, 0.5);
    if (st == CUSCI_OK)
      st = copy_part(ctx, Y, Y, ax, m / 2, m / 2 + 1, num - m / 2);
  }
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(Y), cusci_operand_float(s_fac), &Ys);
  if (st == CUSCI_OK)
    st = cusci_fft_ifft(ctx, Ys, num, ax, CUSCI_FFT_BACKWARD, out);
  SIG_RELEASE(Y, w, Ys);
  return st;
}

cusci_status cusci_signal_resample(cusci_ctx *ctx, const cusci_array *x, int64_t num, int axis, cusci_array **out)
{
  static const char fn[] = "cusci_signal_resample";
  CUSCI_ENTRY(ctx, fn, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  int ax;
  CUSCI_TRY(axis_of(ctx, fn, x, axis, &ax));
  const int64_t n_x = cusci_array_shape(x)[ax];
  if (num < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "num is %lld: it must be at least 1", (long long)num);
  if (n_x < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "x has no samples along axis %d", ax);
  /* SciPy's: the spectrum's first m = min(num, n_x) bins (for a real x
   * the one-sided m // 2 + 1), the unpaired bin m / 2 of an even m doubled
   * (down) or halved (up), all divided by n_x / num, transformed back at
   * num points. */
  const double s_fac = (double)n_x / (double)num;
  const int64_t m = num < n_x ? num : n_x, m2 = m / 2 + 1;
  const bool cx = cusci_dtype_is_complex(cusci_array_dtype(x));
  cusci_array *X = NULL, *Y = NULL, *v = NULL, *w = NULL, *Ys = NULL;
  cusci_status st = cx ? cusci_fft_fft(ctx, x, 0, ax, CUSCI_FFT_BACKWARD, &X) : cusci_fft_rfft(ctx, x, 0, ax, CUSCI_FFT_BACKWARD, &X);
  if (!cx) {
    if (st == CUSCI_OK)
      st = cusci__sig_along(ctx, X, ax, 0, m2, 1, &v);
    if (st == CUSCI_OK)
      st = cusci_array_copy(ctx, v, &Y);
    if (st == CUSCI_OK && m % 2 == 0 && num != n_x) {
      st = cusci__sig_along(ctx, Y, ax, m / 2, m / 2 + 1, 1, &w);
      if (st == CUSCI_OK)
        st = scale_view(ctx, w, num < n_x ? 2.0 : 0.5);
    }
    if (st == CUSCI_OK)
      st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(Y), cusci_operand_float(s_fac), &Ys);
    if (st == CUSCI_OK)
      st = cusci_fft_irfft(ctx, Ys, num, ax, CUSCI_FFT_BACKWARD, out);
  } else if (st == CUSCI_OK) {
    st = resample_freq(ctx, X, n_x, num, ax, out);
  }
  SIG_RELEASE(X, Y, v, w, Ys);
  return st;
}

/* v (a view) set to zero. */
static cusci_status zero_view(cusci_ctx *ctx, cusci_array *a, int axis, int64_t start, int64_t stop)
{
  cusci_array *v = NULL;
  cusci_status st = cusci__sig_along(ctx, a, axis, start, stop, 1, &v);
  if (st == CUSCI_OK && cusci_array_size(v) > 0)
    st = scale_view(ctx, v, 0.0);
  cusci_array_release(v);
  return st;
}

cusci_status cusci_signal_envelope(cusci_ctx *ctx, const cusci_array *z, const int64_t *bp_in, int64_t n_out, bool squared,
                                   cusci_signal_residual residual, int axis, cusci_array **out)
{
  static const char fn[] = "cusci_signal_envelope";
  CUSCI_ENTRY(ctx, fn, z, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "z", z));
  int ax;
  CUSCI_TRY(axis_of(ctx, fn, z, axis, &ax));
  const int64_t n = cusci_array_shape(z)[ax];
  if (n < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "z has no samples along axis %d", ax);
  if (n_out < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n_out is %lld: it must be 0 (n) or more", (long long)n_out);
  if ((int)residual < 0 || residual > CUSCI_SIGNAL_RESIDUAL_NONE)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "residual %d is not one of lowpass, all and none", (int)residual);
  const int64_t no = n_out ? n_out : n;
  const double fak = (double)no / (double)n;
  /* The band bp = [start, stop) of the spectrum's bins (negative from the
   * end), SciPy's default (1, None): the positive frequencies. */
  const int64_t start = bp_in && bp_in[0] != CUSCI_SLICE_NONE ? bp_in[0] : -(n / 2);
  const int64_t stop = bp_in && bp_in[1] != CUSCI_SLICE_NONE ? bp_in[1] : (n + 1) / 2;
  const int64_t lo = -((n + 1) / 2); /* Python's -n // 2 */
  if (!(lo <= start && start < stop && stop <= (n + 1) / 2))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "bp_in [%lld, %lld) does not lie within [%lld, %lld] for n = %lld", (long long)start,
                          (long long)stop, (long long)lo, (long long)((n + 1) / 2), (long long)n);
  const bool cx = cusci_dtype_is_complex(cusci_array_dtype(z)), straddle = start <= 0 && 0 < stop;
  const int nd = cusci_array_ndim(z);
  cusci_array *Z = NULL, *R = NULL, *v = NULL, *band = NULL, *sh = NULL, *bb = NULL, *bbs = NULL, *env = NULL, *res = NULL, *t = NULL, *r = NULL,
              *dst = NULL, *sq = NULL, *im = NULL;
  cusci_status st = CUSCI_OK;
  if (cx) {
    st = cusci_fft_fft(ctx, z, 0, ax, CUSCI_FFT_BACKWARD, &Z);
  } else {
    /* The one-sided spectrum in a two-sided array, made analytic within
     * the band. */
    st = cusci_fft_rfft(ctx, z, 0, ax, CUSCI_FFT_BACKWARD, &R);
    int64_t zs[SIG_MAXD];
    memcpy(zs, cusci_array_shape(z), sizeof(int64_t) * (size_t)nd);
    if (st == CUSCI_OK)
      st = cusci_array_zeros(ctx, nd, zs, cusci_array_dtype(R), &Z);
    if (st == CUSCI_OK)
      st = copy_part(ctx, R, Z, ax, 0, n / 2 + 1, 0);
    if (st == CUSCI_OK && (start > 0 || stop > 0)) {
      st = cusci__sig_along(ctx, Z, ax, start > 0 ? start : 1, stop, 1, &v);
      if (st == CUSCI_OK && cusci_array_size(v) > 0)
        st = scale_view(ctx, v, 2.0);
    }
  }
  /* The baseband signal: the band (shifted to contain 0 when it
   * straddles it) transformed back at n_out points, times n_out / n. */
  if (st == CUSCI_OK && straddle) {
    st = cusci_fft_fftshift(ctx, Z, 1, &ax, &sh);
    if (st == CUSCI_OK)
      st = cusci__sig_along(ctx, sh, ax, start + n / 2, stop + n / 2, 1, &band);
  } else if (st == CUSCI_OK) {
    st = cusci__sig_along(ctx, Z, ax, start, stop, 1, &band);
  }
  if (st == CUSCI_OK)
    st = cusci_fft_ifft(ctx, band, no, ax, CUSCI_FFT_BACKWARD, &bb);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(bb), cusci_operand_float(fak), &bbs);
  if (st == CUSCI_OK && !squared)
    st = cusci_ufunc_unary(ctx, CUSCI_UFUNC_ABS, cusci_operand_array(bbs), &env);
  if (st == CUSCI_OK && squared) {
    st = cusci_ufunc_unary(ctx, CUSCI_UFUNC_REAL, cusci_operand_array(bbs), &r);
    if (st == CUSCI_OK)
      st = cusci_ufunc_unary(ctx, CUSCI_UFUNC_IMAG, cusci_operand_array(bbs), &im);
    if (st == CUSCI_OK)
      st = cusci_multiply(ctx, r, r, &sq);
    if (st == CUSCI_OK)
      st = cusci_multiply(ctx, im, im, &t);
    if (st == CUSCI_OK)
      st = cusci_add(ctx, sq, t, &env);
    cusci_array_release(r), cusci_array_release(t), r = t = NULL;
  }
  if (st == CUSCI_OK && residual == CUSCI_SIGNAL_RESIDUAL_NONE) {
    st = cusci_array_copy(ctx, env, out);
    SIG_RELEASE(Z, R, v, band, sh, bb, bbs, env, res, t, r, dst, sq, im);
    return st;
  }
  /* The residual: the spectrum without the band (and, lowpass, without
   * the frequencies above it), transformed back at n_out points. */
  if (st == CUSCI_OK) {
    if (!straddle)
      st = zero_view(ctx, Z, ax, start, stop);
    else {
      st = zero_view(ctx, Z, ax, CUSCI_SLICE_NONE, stop);
      if (st == CUSCI_OK)
        st = zero_view(ctx, Z, ax, start, CUSCI_SLICE_NONE);
    }
  }
  if (st == CUSCI_OK && residual == CUSCI_SIGNAL_RESIDUAL_LOWPASS) {
    if (stop > 0)
      st = zero_view(ctx, Z, ax, stop, (n + 1) / 2);
    else {
      st = zero_view(ctx, Z, ax, start, CUSCI_SLICE_NONE);
      if (st == CUSCI_OK)
        st = zero_view(ctx, Z, ax, 0, (n + 1) / 2);
    }
  }
  if (st == CUSCI_OK && cx) {
    st = resample_freq(ctx, Z, n, no, ax, &res);
  } else if (st == CUSCI_OK) {
    const int64_t m = no < n ? no : n;
    if (no != n && m % 2 == 0) {
      cusci_array *u = NULL;
      st = cusci__sig_along(ctx, Z, ax, m / 2, m / 2 + 1, 1, &u);
      if (st == CUSCI_OK)
        st = scale_view(ctx, u, no < n ? 2.0 : 0.5);
      cusci_array_release(u);
    }
    if (st == CUSCI_OK)
      st = cusci_fft_irfft(ctx, Z, no, ax, CUSCI_FFT_BACKWARD, &t);
    if (st == CUSCI_OK)
      st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(t), cusci_operand_float(fak), &res);
  }
  /* Both, stacked: (2, z's shape with n_out along axis), in their
   * promoted dtype. */
  cusci_dtype dt = CUSCI_FLOAT64;
  if (st == CUSCI_OK)
    st = cusci_promote_types(cusci_array_dtype(env), cusci_array_dtype(res), &dt);
  int64_t os[SIG_MAXD + 1];
  os[0] = 2;
  for (int i = 0; i < nd; i++)
    os[i + 1] = i == ax ? no : cusci_array_shape(z)[i];
  cusci_array *all = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd + 1, os, dt, &all);
  for (int k = 0; k < 2 && st == CUSCI_OK; k++) {
    cusci_array *part = NULL, *c = NULL;
    st = cusci__sig_along(ctx, all, 0, k, k + 1, 1, &dst);
    if (st == CUSCI_OK)
      st = cusci_array_reshape(ctx, dst, nd, os + 1, &part);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, k ? res : env, dt, false, &c);
    if (st == CUSCI_OK)
      st = cusci_array_copy(ctx, c, &part);
    cusci_array_release(part), cusci_array_release(c), cusci_array_release(dst), dst = NULL;
  }
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, all, out), all = NULL;
  cusci_array_release(all);
  SIG_RELEASE(Z, R, v, band, sh, bb, bbs, env, res, t, r, dst, sq, im);
  return st;
}

/* The analytic signal's multipliers for an FFT of N points: 1, 2, ..., 2
 * below (N + 1) / 2, then 0, except 1 at N / 2 for an even N when
 * nyquist (hilbert's; hilbert2's is 0 there, as SciPy's). Host,
 * malloc'ed. */
static double *analytic_h(int64_t N, bool nyquist)
{
  double *h = calloc((size_t)N, sizeof *h);
  if (!h)
    return NULL;
  h[0] = 1;
  for (int64_t i = 1; i < (N + 1) / 2; i++)
    h[i] = 2;
  if (N % 2 == 0 && nyquist)
    h[N / 2] = 1;
  return h;
}

cusci_status cusci_signal_hilbert(cusci_ctx *ctx, const cusci_array *x, int64_t n, int axis, cusci_array **out)
{
  static const char fn[] = "cusci_signal_hilbert";
  CUSCI_ENTRY(ctx, fn, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (cusci_dtype_is_complex(cusci_array_dtype(x)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "x is %s: it must be real", cusci_dtype_name(cusci_array_dtype(x)));
  int ax;
  CUSCI_TRY(axis_of(ctx, fn, x, axis, &ax));
  const int64_t N = n ? n : cusci_array_shape(x)[ax];
  if (n < 0 || N < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "N is %lld: it must be positive", (long long)(n ? n : N));
  /* ifft(fft(x, N) h), h = 1, 2, ..., 2, (1 at N / 2 for an even N), 0, ...,
   * along axis. */
  const int nd = cusci_array_ndim(x);
  cusci_array *X = NULL, *h = NULL, *hr = NULL, *p = NULL;
  cusci_status st = cusci_fft_fft(ctx, x, N, ax, CUSCI_FFT_BACKWARD, &X);
  double *hv = st == CUSCI_OK ? analytic_h(N, true) : NULL;
  if (st == CUSCI_OK && !hv)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (st == CUSCI_OK) {
    int64_t hs[SIG_MAXD];
    for (int i = 0; i < nd; i++)
      hs[i] = i == ax ? N : 1;
    st = cusci__sig_upload_real(ctx, hv, 1, &N, cusci_dtype_real_of(cusci_array_dtype(X)), &hr);
    if (st == CUSCI_OK)
      st = cusci_array_reshape(ctx, hr, nd, hs, &h);
  }
  free(hv);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, X, h, &p);
  if (st == CUSCI_OK)
    st = cusci_fft_ifft(ctx, p, 0, ax, CUSCI_FFT_BACKWARD, out);
  cusci_array_release(X), cusci_array_release(h), cusci_array_release(hr), cusci_array_release(p);
  return st;
}

cusci_status cusci_signal_hilbert2(cusci_ctx *ctx, const cusci_array *x, const int64_t *N, const int *axes, cusci_array **out)
{
  static const char fn[] = "cusci_signal_hilbert2";
  CUSCI_ENTRY(ctx, fn, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (cusci_dtype_is_complex(cusci_array_dtype(x)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "x is %s: it must be real", cusci_dtype_name(cusci_array_dtype(x)));
  const int nd = cusci_array_ndim(x);
  if (nd < 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "x has %d dimensions: hilbert2 takes 2 or more", nd);
  int ax[2] = { axes ? axes[0] : -2, axes ? axes[1] : -1 };
  for (int i = 0; i < 2; i++) {
    if (ax[i] < -nd || ax[i] >= nd)
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of range for an array of %d dimensions", ax[i], nd);
    ax[i] = ax[i] < 0 ? ax[i] + nd : ax[i];
  }
  if (ax[0] == ax[1])
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "the two axes are both %d: they must differ", ax[0]);
  int64_t n[2];
  for (int i = 0; i < 2; i++) {
    n[i] = N ? N[i] : cusci_array_shape(x)[ax[i]];
    if (n[i] < 1)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "N is (%lld, %lld): both must be positive", (long long)n[0], (long long)n[1]);
  }
  cusci_array *X = NULL, *p = NULL;
  cusci_status st = cusci_fft_fft2(ctx, x, n, ax, CUSCI_FFT_BACKWARD, &X);
  const cusci_dtype rt = st == CUSCI_OK ? cusci_dtype_real_of(cusci_array_dtype(X)) : CUSCI_FLOAT64;
  /* X times h0 along ax[0] and h1 along ax[1]. */
  for (int i = 0; i < 2 && st == CUSCI_OK; i++) {
    double *hv = analytic_h(n[i], false);
    if (!hv) {
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
      break;
    }
    int64_t hs[SIG_MAXD];
    for (int d = 0; d < nd; d++)
      hs[d] = d == ax[i] ? n[i] : 1;
    cusci_array *h = NULL, *hr = NULL, *hc = NULL;
    st = cusci__sig_upload_real(ctx, hv, 1, &n[i], rt, &hc);
    free(hv);
    if (st == CUSCI_OK)
      st = cusci_array_reshape(ctx, hc, nd, hs, &hr);
    if (st == CUSCI_OK)
      st = cusci_multiply(ctx, X, hr, &X);
    cusci_array_release(h), cusci_array_release(hr), cusci_array_release(hc);
  }
  if (st == CUSCI_OK)
    st = cusci_fft_ifft2(ctx, X, NULL, ax, CUSCI_FFT_BACKWARD, out);
  cusci_array_release(X), cusci_array_release(p);
  return st;
}

/* ------------------------------------------------ order filters */

/* The rank-th of each window of x (ks), the mask's elements only (host
 * mask of w bytes or NULL, kept its non-zeros), into *out. */
static cusci_status order_run(cusci_ctx *ctx, const char *fn, const cusci_array *x, int nd, const int64_t *ks, const uint8_t *mask, int64_t kept,
                              int64_t rank, cusci_array **out)
{
  const cusci_dtype dt = cusci_array_dtype(x);
  if (!cusci_dtype_is_integer(dt) && dt != CUSCI_FLOAT32 && dt != CUSCI_FLOAT64)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "dtype %s is not supported (integers, float32, float64)", cusci_dtype_name(dt));
  const int64_t one = 1, *sh = cusci_array_ndim(x) ? cusci_array_shape(x) : &one;
  int64_t w = 1;
  for (int i = 0; i < nd; i++)
    w *= ks[i];
  const bool gpu = cusci_ctx_device(ctx) >= 0;
  if (gpu && (kept > CUSCI__SIG_MEDFILT_MAXW || nd > CUSCI__SIG_CONV_MAXD))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a window of %lld values over %d dimensions: the GPU takes up to %d values and %d dimensions",
                          (long long)kept, nd, CUSCI__SIG_MEDFILT_MAXW, CUSCI__SIG_CONV_MAXD);
  CUSCI_TRY(cusci_check_out(ctx, fn, out, cusci_array_ndim(x), cusci_array_shape(x), dt, CUSCI_CASTING_NO));
  cusci_array *xc = NULL, *r = NULL, *m = NULL;
  cusci_status st = cusci_array_ascontiguousarray(ctx, (cusci_array *)x, &xc);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, cusci_array_ndim(x), cusci_array_shape(x), dt, &r);
  if (st == CUSCI_OK && gpu && mask)
    st = cusci_array_from_host(ctx, mask, 1, &w, CUSCI_UINT8, &m);
  if (st == CUSCI_OK) {
    if (gpu) {
      int code = cusci__sig_order_gpu(cusci_ctx_stream(ctx), dt, nd, sh, ks, m ? cusci_array_data(m) : NULL, kept, rank, cusci_array_data(xc),
                                      cusci_array_data(r));
      if (code)
        st = cusci_ctx_gpu_status(ctx, fn, "the order-filter kernel", code);
    } else if (cusci__sig_order(dt, nd, sh, ks, mask, rank, cusci_array_data(xc), cusci_array_data(r))) {
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a window of %lld values", (long long)w);
    }
  }
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, out), r = NULL;
  cusci_array_release(xc), cusci_array_release(r), cusci_array_release(m);
  return st;
}

static cusci_status median(cusci_ctx *ctx, const char *fn, const cusci_array *x, int nk, const int64_t *kernel_size, bool two_d, cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (two_d && cusci_array_ndim(x) != 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "the input has %d dimensions: medfilt2d takes 2", cusci_array_ndim(x));
  /* SciPy's atleast_1d: a 0-d x is one element. */
  const int nd = cusci_array_ndim(x) ? cusci_array_ndim(x) : 1;
  if (kernel_size && nk != 1 && nk != nd)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "%d kernel sizes for an array of %d dimensions (give 1 or %d)", nk, nd, nd);
  int64_t ks[SIG_MAXD], w = 1;
  for (int i = 0; i < nd; i++) {
    ks[i] = kernel_size ? kernel_size[nk == 1 ? 0 : i] : 3;
    if (ks[i] < 1 || ks[i] % 2 != 1)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "kernel_size[%d] is %lld: each must be odd", i, (long long)ks[i]);
    w *= ks[i];
  }
  return order_run(ctx, fn, x, nd, ks, NULL, w, w / 2, out);
}

cusci_status cusci_signal_medfilt(cusci_ctx *ctx, const cusci_array *x, int nk, const int64_t *kernel_size, cusci_array **out)
{
  return median(ctx, "cusci_signal_medfilt", x, nk, kernel_size, false, out);
}

cusci_status cusci_signal_medfilt2d(cusci_ctx *ctx, const cusci_array *x, int nk, const int64_t *kernel_size, cusci_array **out)
{
  return median(ctx, "cusci_signal_medfilt2d", x, nk, kernel_size, true, out);
}

cusci_status cusci_signal_order_filter(cusci_ctx *ctx, const cusci_array *a, const cusci_array *domain, int64_t rank, cusci_array **out)
{
  static const char fn[] = "cusci_signal_order_filter";
  CUSCI_ENTRY(ctx, fn, a, domain, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  CUSCI_TRY(cusci_check_array(ctx, fn, "domain", domain));
  const int nd = cusci_array_ndim(a);
  if (nd < 1 || cusci_array_ndim(domain) != nd)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "domain has %d dimensions and a %d: they must be the same, at least 1", cusci_array_ndim(domain),
                          nd);
  int64_t ks[SIG_MAXD], w = 1;
  for (int i = 0; i < nd; i++) {
    ks[i] = cusci_array_shape(domain)[i];
    if (ks[i] % 2 != 1)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "domain's extent %d is %lld: each must be odd", i, (long long)ks[i]);
    w *= ks[i];
  }
  cusci_array *mb = NULL;
  CUSCI_TRY(cusci_array_astype(ctx, (cusci_array *)domain, CUSCI_BOOL, false, &mb));
  uint8_t *mask = malloc((size_t)w);
  cusci_status st = mask ? cusci_array_to_host(ctx, mb, mask, (size_t)w) : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array_release(mb);
  int64_t kept = 0;
  for (int64_t i = 0; st == CUSCI_OK && i < w; i++)
    kept += mask[i] != 0;
  if (st == CUSCI_OK && (rank < 0 || rank >= kept))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "rank %lld is not within the %lld elements of the domain", (long long)rank, (long long)kept);
  if (st == CUSCI_OK)
    st = order_run(ctx, fn, a, nd, ks, mask, kept, rank, out);
  free(mask);
  return st;
}
