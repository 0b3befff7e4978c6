/*
 * libsignal/convolve.c: convolve, correlate, fftconvolve and
 * correlation_lags of signal.h.
 *
 * The FFT method is the real (or complex) n-d transform of both inputs at
 * a fast length of the full result, their product and the inverse
 * transform, then the window of the mode: the calls of fft.h and the core
 * on either backend. The direct method sums the products over the
 * overlap (reference/signal/filter.c on the host, the same sums in the
 * same order on the GPU). correlate is convolve with the second input
 * reversed and conjugated.
 */
#include "libsignal/internal.h"

#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/fft.h>
#include <cusci/kit/dtypes.h>
#include <cusci/signal.h>

#include "kernels/signal/launch.h"
#include "reference/signal/filter.h"

static cusci_dtype result_dtype(cusci_dtype a, cusci_dtype b)
{
  return cusci__sig_dtype(2, (cusci_dtype[]){ a, b });
}

static const char *mode_name(cusci_signal_mode m)
{
  return m == CUSCI_SIGNAL_FULL ? "full" : m == CUSCI_SIGNAL_SAME ? "same" : "valid";
}

/* Both inputs checked: of ctx's device, one number of dimensions, not
 * empty, a known mode. */
static cusci_status check_pair(cusci_ctx *ctx, const char *fn, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, "in1", in1));
  CUSCI_TRY(cusci_check_array(ctx, fn, "in2", in2));
  if ((int)mode < 0 || mode > CUSCI_SIGNAL_VALID)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "mode %d is not one of full, same and valid", (int)mode);
  if (cusci_array_ndim(in1) != cusci_array_ndim(in2))
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "in1 has %d dimensions and in2 %d: they must have the same number", cusci_array_ndim(in1),
                          cusci_array_ndim(in2));
  if (cusci_array_size(in1) == 0 || cusci_array_size(in2) == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "in%d is empty: there is nothing to convolve", cusci_array_size(in1) == 0 ? 1 : 2);
  CUSCI_TRY(cusci_check_dtype(ctx, fn, "in1", cusci_array_dtype(in1)));
  CUSCI_TRY(cusci_check_dtype(ctx, fn, "in2", cusci_array_dtype(in2)));
  return CUSCI_OK;
}

/* SciPy's _inputs_swap_needed over the axes `on` (a mask): in VALID mode
 * one input must be at least as large as the other along each; *swap when
 * in2 is the larger. */
static cusci_status valid_order(cusci_ctx *ctx, const char *fn, cusci_signal_mode mode, int nd, const int64_t *s1, const int64_t *s2, const bool *on,
                                bool *swap)
{
  *swap = false;
  if (mode != CUSCI_SIGNAL_VALID)
    return CUSCI_OK;
  bool ok1 = true, ok2 = true;
  for (int i = 0; i < nd; i++)
    if (on[i])
      ok1 &= s1[i] >= s2[i], ok2 &= s2[i] >= s1[i];
  if (!ok1 && !ok2) {
    char a[128], b[128];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "in valid mode one input must be at least as large as the other along every axis (%s and %s)",
                          cusci_shape_str(nd, s1, a, sizeof a), cusci_shape_str(nd, s2, b, sizeof b));
  }
  *swap = !ok1;
  return CUSCI_OK;
}

/* The mode's window of the full result along one axis: its start and
 * length, for inputs of lengths n1 and n2 (n1 >= n2 in VALID mode). */
static void window(cusci_signal_mode mode, int64_t n1, int64_t n2, int64_t *start, int64_t *len)
{
  const int64_t full = n1 + n2 - 1;
  *len = mode == CUSCI_SIGNAL_FULL ? full : mode == CUSCI_SIGNAL_SAME ? n1 : n1 - n2 + 1;
  *start = (full - *len) / 2;
}

/* x reversed along every axis and conjugated, a new contiguous array. */
static cusci_status reverse_conj(cusci_ctx *ctx, const cusci_array *x, cusci_array **out)
{
  const int nd = cusci_array_ndim(x);
  int64_t st[SIG_MAXD];
  for (int i = 0; i < nd; i++)
    st[i] = -1;
  cusci_array *r = NULL;
  CUSCI_TRY(cusci_array_slice(ctx, (cusci_array *)x, NULL, NULL, st, &r));
  cusci_status s = cusci_dtype_is_complex(cusci_array_dtype(x)) ? cusci_conj(ctx, r, out) : cusci_array_copy(ctx, r, out);
  cusci_array_release(r);
  return s;
}

/* ------------------------------------------------ the FFT method */

/* The FFT convolution of in1 and in2 (checked, the mode's order taken
 * care of) over the axes `on`, the other axes broadcast. */
static cusci_status fft_method(cusci_ctx *ctx, const char *fn, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                               const bool *on, cusci_array **out)
{
  const int nd = cusci_array_ndim(in1);
  const int64_t *s1 = cusci_array_shape(in1), *s2 = cusci_array_shape(in2);
  const cusci_dtype dt = result_dtype(cusci_array_dtype(in1), cusci_array_dtype(in2));
  const bool cx = cusci_dtype_is_complex(dt);
  int axes[SIG_MAXD], na = 0;
  int64_t fs[SIG_MAXD], full[SIG_MAXD], oshape[SIG_MAXD], start[SIG_MAXD], stop[SIG_MAXD];
  for (int i = 0; i < nd; i++) {
    if (on[i]) {
      axes[na] = i;
      full[i] = s1[i] + s2[i] - 1;
      CUSCI_TRY(cusci_fft_next_fast_len(full[i], !cx, &fs[na]));
      na++;
      int64_t w0, wl;
      window(mode, s1[i], s2[i], &w0, &wl);
      start[i] = w0, stop[i] = w0 + wl, oshape[i] = wl;
    } else {
      if (s1[i] != s2[i] && s1[i] != 1 && s2[i] != 1) {
        char a[128], b[128];
        return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "in1 %s and in2 %s: along axis %d, which is not convolved, the extents must be equal or 1",
                              cusci_shape_str(nd, s1, a, sizeof a), cusci_shape_str(nd, s2, b, sizeof b), i);
      }
      /* Broadcast; SciPy's same mode then keeps in1's extent here too,
       * centred (_apply_conv_mode). */
      const int64_t m = s1[i] > s2[i] ? s1[i] : s2[i];
      oshape[i] = mode == CUSCI_SIGNAL_SAME ? s1[i] : m;
      start[i] = (m - oshape[i]) / 2, stop[i] = start[i] + oshape[i];
    }
  }
  CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, oshape, dt, CUSCI_CASTING_NO));
  cusci_array *c1 = NULL, *c2 = NULL, *f1 = NULL, *f2 = NULL, *p = NULL, *r = NULL, *w = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)in1, dt, false, &c1);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, (cusci_array *)in2, dt, false, &c2);
  if (st == CUSCI_OK)
    st = cx ? cusci_fft_fftn(ctx, c1, na, fs, axes, CUSCI_FFT_BACKWARD, &f1) : cusci_fft_rfftn(ctx, c1, na, fs, axes, CUSCI_FFT_BACKWARD, &f1);
  if (st == CUSCI_OK)
    st = cx ? cusci_fft_fftn(ctx, c2, na, fs, axes, CUSCI_FFT_BACKWARD, &f2) : cusci_fft_rfftn(ctx, c2, na, fs, axes, CUSCI_FFT_BACKWARD, &f2);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, f1, f2, &p);
  if (st == CUSCI_OK)
    st = cx ? cusci_fft_ifftn(ctx, p, na, fs, axes, CUSCI_FFT_BACKWARD, &r) : cusci_fft_irfftn(ctx, p, na, fs, axes, CUSCI_FFT_BACKWARD, &r);
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, r, start, stop, NULL, &w);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, w, out);
  SIG_RELEASE(c1, c2, f1, f2, p, r, w);
  return st;
}

/* ------------------------------------------------ the direct method */


static cusci_status direct_method(cusci_ctx *ctx, const char *fn, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                                  cusci_array **out)
{
  const int nd = cusci_array_ndim(in1);
  const int64_t *s1 = cusci_array_shape(in1), *s2 = cusci_array_shape(in2);
  const cusci_dtype d1 = cusci_array_dtype(in1), d2 = cusci_array_dtype(in2);
  /* Integers and bools keep NumPy's promoted dtype, as SciPy's direct
   * method: the sums in uint64 modulo 2^64, whose image in that dtype is
   * its own wrapped arithmetic (bool: any product true). */
  const bool exact = !cusci_dtype_is_inexact(d1) && !cusci_dtype_is_inexact(d2);
  cusci_dtype rt = CUSCI_FLOAT64;
  if (exact)
    CUSCI_TRY(cusci_promote_types(d1, d2, &rt));
  const cusci_dtype dt = exact ? CUSCI_UINT64 : result_dtype(d1, d2);
  const bool gpu = cusci_ctx_device(ctx) >= 0;
  if (gpu && nd > CUSCI__SIG_CONV_MAXD)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the direct method on a GPU takes up to %d dimensions; these inputs have %d (use the FFT method)",
                          CUSCI__SIG_CONV_MAXD, nd);
  int64_t start[SIG_MAXD], oshape[SIG_MAXD];
  for (int i = 0; i < nd; i++)
    window(mode, s1[i], s2[i], &start[i], &oshape[i]);
  CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, oshape, exact ? rt : dt, CUSCI_CASTING_NO));
  cusci_array *c1 = NULL, *c2 = NULL, *t1 = NULL, *t2 = NULL, *r = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)in1, dt, false, &t1);
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, t1, &c1);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, (cusci_array *)in2, dt, false, &t2);
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, t2, &c2);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, oshape, dt, &r);
  if (st == CUSCI_OK) {
    if (gpu) {
      int code = cusci__sig_convolve_gpu(cusci_ctx_stream(ctx), cusci__sig_prec(dt), nd, s1, cusci_array_data(c1), s2, cusci_array_data(c2), start, oshape,
                                         cusci_array_data(r));
      if (code)
        st = cusci_ctx_gpu_status(ctx, fn, "the convolution kernel", code);
    } else {
      cusci__sig_convolve(cusci__sig_prec(dt), nd, s1, cusci_array_data(c1), s2, cusci_array_data(c2), start, oshape, cusci_array_data(r));
    }
  }
  if (st == CUSCI_OK && exact) {
    cusci_array *w = NULL;
    st = cusci_array_astype(ctx, r, rt, false, &w);
    cusci_array_release(r);
    r = w;
  }
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, out), r = NULL;
  SIG_RELEASE(c1, c2, t1, t2, r);
  return st;
}

/* ------------------------------------------------ the calls */

/* Direct where one input is small, or for integers (exact sums, as
 * SciPy's choice); else the FFT. */
static bool pick_direct(const cusci_array *in1, const cusci_array *in2)
{
  const cusci_dtype d1 = cusci_array_dtype(in1), d2 = cusci_array_dtype(in2);
  if (!cusci_dtype_is_inexact(d1) && !cusci_dtype_is_inexact(d2))
    return true;
  const int64_t n1 = cusci_array_size(in1), n2 = cusci_array_size(in2), small = n1 < n2 ? n1 : n2;
  return small <= 64 || (double)n1 * (double)n2 <= 1 << 20;
}

cusci_status cusci_signal_choose_conv_method(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                                             cusci_signal_method *method)
{
  static const char fn[] = "cusci_signal_choose_conv_method";
  CUSCI_ENTRY(ctx, fn, in1, in2, method);
  CUSCI_TRY(check_pair(ctx, fn, in1, in2, mode));
  *method = pick_direct(in1, in2) ? CUSCI_SIGNAL_DIRECT : CUSCI_SIGNAL_FFT;
  return CUSCI_OK;
}

static cusci_status conv(cusci_ctx *ctx, const char *fn, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                         cusci_signal_method method, cusci_array **out)
{
  CUSCI_TRY(check_pair(ctx, fn, in1, in2, mode));
  if ((int)method < 0 || method > CUSCI_SIGNAL_FFT)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "method %d is not one of auto, direct and fft", (int)method);
  const int nd = cusci_array_ndim(in1);
  bool on[SIG_MAXD], swap;
  for (int i = 0; i < nd; i++)
    on[i] = true;
  CUSCI_TRY(valid_order(ctx, fn, mode, nd, cusci_array_shape(in1), cusci_array_shape(in2), on, &swap));
  if (swap) {
    const cusci_array *t = in1;
    in1 = in2, in2 = t;
  }
  if (nd == 0)
    return cusci_multiply(ctx, in1, in2, out);
  const bool direct = method == CUSCI_SIGNAL_DIRECT || (method == CUSCI_SIGNAL_AUTO && pick_direct(in1, in2));
  return direct ? direct_method(ctx, fn, in1, in2, mode, out) : fft_method(ctx, fn, in1, in2, mode, on, out);
}

cusci_status cusci_signal_convolve(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode, cusci_signal_method method,
                                   cusci_array **out)
{
  static const char fn[] = "cusci_signal_convolve";
  CUSCI_ENTRY(ctx, fn, in1, in2, out);
  return conv(ctx, fn, in1, in2, mode, method, out);
}

cusci_status cusci_signal_correlate(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode, cusci_signal_method method,
                                    cusci_array **out)
{
  static const char fn[] = "cusci_signal_correlate";
  CUSCI_ENTRY(ctx, fn, in1, in2, out);
  CUSCI_TRY(check_pair(ctx, fn, in1, in2, mode));
  cusci_array *r = NULL;
  CUSCI_TRY(reverse_conj(ctx, in2, &r));
  cusci_status st = conv(ctx, fn, in1, r, mode, method, out);
  cusci_array_release(r);
  return st;
}

/* naxes axes (0 and NULL: all) of inputs of nd dimensions as a mask. */
static cusci_status axes_mask(cusci_ctx *ctx, const char *fn, int nd, int naxes, const int *axes, bool *on)
{
  if (naxes < 0 || naxes > nd)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "%d axes for inputs of %d dimensions", naxes, nd);
  if (naxes > 0 && !axes)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "axes is NULL with naxes %d", naxes);
  for (int i = 0; i < (naxes ? naxes : nd); i++) {
    int a = naxes ? axes[i] : i;
    if (a < -nd || a >= nd)
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of range for inputs of %d dimensions", a, nd);
    a = a < 0 ? a + nd : a;
    if (on[a])
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is given twice", a);
    on[a] = true;
  }
  return CUSCI_OK;
}

cusci_status cusci_signal_fftconvolve(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode, int naxes,
                                      const int *axes, cusci_array **out)
{
  static const char fn[] = "cusci_signal_fftconvolve";
  CUSCI_ENTRY(ctx, fn, in1, in2, out);
  CUSCI_TRY(check_pair(ctx, fn, in1, in2, mode));
  const int nd = cusci_array_ndim(in1);
  bool on[SIG_MAXD] = { false }, swap;
  CUSCI_TRY(axes_mask(ctx, fn, nd, naxes, axes, on));
  CUSCI_TRY(valid_order(ctx, fn, mode, nd, cusci_array_shape(in1), cusci_array_shape(in2), on, &swap));
  if (nd == 0)
    return cusci_multiply(ctx, in1, in2, out);
  return swap ? fft_method(ctx, fn, in2, in1, mode, on, out) : fft_method(ctx, fn, in1, in2, mode, on, out);
}

cusci_status cusci_signal_correlation_lags(cusci_ctx *ctx, int64_t n1, int64_t n2, cusci_signal_mode mode, cusci_array **out)
{
  static const char fn[] = "cusci_signal_correlation_lags";
  CUSCI_ENTRY(ctx, fn, out);
  if (n1 < 1 || n2 < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the lengths are %lld and %lld; both must be at least 1", (long long)n1, (long long)n2);
  if ((int)mode < 0 || mode > CUSCI_SIGNAL_VALID)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "mode %d is not one of full, same and valid", (int)mode);
  /* SciPy's: full -n2+1 .. n1-1; same the middle n1 of those; valid
   * 0 .. n1-n2 (or n1-n2 .. 0). */
  int64_t lo = -n2 + 1, n = n1 + n2 - 1;
  if (mode == CUSCI_SIGNAL_SAME) {
    const int64_t mid = n / 2, bound = n1 / 2;
    lo += mid - bound;
    n = n1 % 2 ? 2 * bound + 1 : 2 * bound;
  } else if (mode == CUSCI_SIGNAL_VALID) {
    const int64_t bound = n1 - n2;
    lo = bound >= 0 ? 0 : bound;
    n = (bound >= 0 ? bound : -bound) + 1;
  }
  int64_t *v = malloc((size_t)n * sizeof *v);
  if (!v)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld lags (%s)", (long long)n, mode_name(mode));
  for (int64_t i = 0; i < n; i++)
    v[i] = lo + i;
  cusci_array *r = NULL;
  cusci_status st = cusci_array_from_host(ctx, v, 1, &n, CUSCI_INT64, &r);
  free(v);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, r, out);
}

/* ------------------------------------------------ convolve2d, correlate2d */

cusci_status cusci__sig_pad_array(cusci_ctx *ctx, const char *fn, const cusci_array *x, cusci_dtype dt, const int64_t *before, const int64_t *after,
                                  int mode, double fill, cusci_array **out)
{
  const int nd = cusci_array_ndim(x);
  const int64_t *s1 = cusci_array_shape(x);
  if (nd > CUSCI__SIG_CONV_MAXD)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "an array of %d dimensions: the extension takes up to %d", nd, CUSCI__SIG_CONV_MAXD);
  int64_t os[SIG_MAXD];
  for (int i = 0; i < nd; i++)
    os[i] = s1[i] + before[i] + after[i];
  cusci_array *t = NULL, *c = NULL, *r = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)x, dt, false, &t);
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, t, &c);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, os, dt, &r);
  if (st == CUSCI_OK) {
    if (cusci_ctx_device(ctx) >= 0) {
      int code = cusci__sig_pad_gpu(cusci_ctx_stream(ctx), cusci__sig_prec(dt), nd, s1, before, os, mode, fill, 0, cusci_array_data(c), cusci_array_data(r));
      if (code)
        st = cusci_ctx_gpu_status(ctx, fn, "the padding kernel", code);
    } else {
      cusci__sig_pad(cusci__sig_prec(dt), nd, s1, before, os, mode, fill, 0, cusci_array_data(c), cusci_array_data(r));
    }
  }
  cusci_array_release(t), cusci_array_release(c);
  if (st != CUSCI_OK) {
    cusci_array_release(r);
    return st;
  }
  *out = r;
  return CUSCI_OK;
}

/* in1 (2-D, of dt) padded by n2 - 1 on each side as boundary. */
static cusci_status pad2d(cusci_ctx *ctx, const char *fn, const cusci_array *in1, const int64_t *s2, cusci_signal_boundary boundary, double fill,
                          cusci_dtype dt, cusci_array **out)
{
  const int64_t before[2] = { s2[0] - 1, s2[1] - 1 };
  const int mode = boundary == CUSCI_SIGNAL_BOUNDARY_WRAP ? CUSCI__SIG_PAD_WRAP : boundary == CUSCI_SIGNAL_BOUNDARY_SYMM ? CUSCI__SIG_PAD_SYMM
                                                                                                                         : CUSCI__SIG_PAD_FILL;
  return cusci__sig_pad_array(ctx, fn, in1, dt, before, before, mode, fill, out);
}

/* The 2-D convolution of in1 and in2 (checked, in1 the larger in VALID
 * mode) with in1 extended as boundary; reversed (both axes) when flip.
 * corr: a correlation (in2 reversed), whose SAME window SciPy's
 * correlate2d starts at n2 / 2 of the full result, not (n2 - 1) / 2. */
static cusci_status conv2d(cusci_ctx *ctx, const char *fn, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                           cusci_signal_boundary boundary, double fill, bool flip, bool corr, cusci_array **out)
{
  const cusci_dtype dt = result_dtype(cusci_array_dtype(in1), cusci_array_dtype(in2));
  const int64_t *s1 = cusci_array_shape(in1), *s2 = cusci_array_shape(in2);
  int64_t os[2], start[2];
  for (int i = 0; i < 2; i++)
    window(mode, s1[i], s2[i], &start[i], &os[i]);
  CUSCI_TRY(cusci_check_out(ctx, fn, out, 2, os, dt, CUSCI_CASTING_NO));
  cusci_array *p = NULL, *full = NULL, *w = NULL;
  cusci_status st = CUSCI_OK;
  if (mode == CUSCI_SIGNAL_VALID)
    st = direct_method(ctx, fn, in1, in2, CUSCI_SIGNAL_VALID, &full);
  else {
    st = pad2d(ctx, fn, in1, s2, boundary, fill, dt, &p);
    if (st == CUSCI_OK)
      st = direct_method(ctx, fn, p, in2, CUSCI_SIGNAL_VALID, &full);
  }
  /* The mode's window of the full result, reversed for a swapped
   * correlation. */
  int64_t b[2], e[2], stp[2];
  for (int i = 0; i < 2; i++) {
    const int64_t n = cusci_array_shape(full ? full : in1)[i];
    const int64_t lo = mode != CUSCI_SIGNAL_SAME ? 0 : corr ? s2[i] / 2 : (n - os[i]) / 2;
    b[i] = flip ? lo + os[i] - 1 : lo;
    e[i] = flip ? (lo - 1 < 0 ? CUSCI_SLICE_NONE : lo - 1) : lo + os[i];
    stp[i] = flip ? -1 : 1;
  }
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, full, b, e, stp, &w);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, w, out);
  cusci_array_release(p), cusci_array_release(full), cusci_array_release(w);
  return st;
}

static cusci_status check2d(cusci_ctx *ctx, const char *fn, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                            cusci_signal_boundary boundary)
{
  CUSCI_TRY(check_pair(ctx, fn, in1, in2, mode));
  if (cusci_array_ndim(in1) != 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "the inputs have %d dimensions: both must be 2-D", cusci_array_ndim(in1));
  if ((int)boundary < 0 || boundary > CUSCI_SIGNAL_BOUNDARY_SYMM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "boundary %d is not one of fill, wrap and symm", (int)boundary);
  return CUSCI_OK;
}

cusci_status cusci_signal_convolve2d(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                                     cusci_signal_boundary boundary, double fillvalue, cusci_array **out)
{
  static const char fn[] = "cusci_signal_convolve2d";
  CUSCI_ENTRY(ctx, fn, in1, in2, out);
  CUSCI_TRY(check2d(ctx, fn, in1, in2, mode, boundary));
  const bool on[2] = { true, true };
  bool swap;
  CUSCI_TRY(valid_order(ctx, fn, mode, 2, cusci_array_shape(in1), cusci_array_shape(in2), on, &swap));
  return swap ? conv2d(ctx, fn, in2, in1, mode, boundary, fillvalue, false, false, out)
              : conv2d(ctx, fn, in1, in2, mode, boundary, fillvalue, false, false, out);
}

cusci_status cusci_signal_correlate2d(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                                      cusci_signal_boundary boundary, double fillvalue, cusci_array **out)
{
  static const char fn[] = "cusci_signal_correlate2d";
  CUSCI_ENTRY(ctx, fn, in1, in2, out);
  CUSCI_TRY(check2d(ctx, fn, in1, in2, mode, boundary));
  const bool on[2] = { true, true };
  bool swap;
  CUSCI_TRY(valid_order(ctx, fn, mode, 2, cusci_array_shape(in1), cusci_array_shape(in2), on, &swap));
  /* SciPy's: the inputs swapped in valid mode when in2 is the larger, the
   * second conjugated and reversed, and the result then reversed. */
  const cusci_array *a = swap ? in2 : in1, *k = swap ? in1 : in2;
  cusci_array *r = NULL;
  CUSCI_TRY(reverse_conj(ctx, k, &r));
  cusci_status st = conv2d(ctx, fn, a, r, mode, boundary, fillvalue, swap, true, out);
  cusci_array_release(r);
  return st;
}

/* ------------------------------------------------ oaconvolve */

/* The overlap-add convolution along one axis (the others broadcast) of
 * in1 (the longer along it) and in2: in1 cut into blocks of L samples,
 * each block's transform of nfft = L + n2 - 1 (a fast length) times in2's,
 * the inverse transforms added where they overlap. */
static cusci_status overlap_add(cusci_ctx *ctx, const char *fn, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode, int axis,
                                int64_t nfft, cusci_array **out)
{
  const int nd = cusci_array_ndim(in1);
  const int64_t *s1 = cusci_array_shape(in1), *s2 = cusci_array_shape(in2), n1 = s1[axis], n2 = s2[axis];
  const cusci_dtype dt = result_dtype(cusci_array_dtype(in1), cusci_array_dtype(in2));
  const bool cx = cusci_dtype_is_complex(dt);
  const int64_t L = nfft - n2 + 1, nb = (n1 + L - 1) / L;
  int64_t before[SIG_MAXD] = { 0 }, after[SIG_MAXD] = { 0 }, bs[SIG_MAXD + 1], ys[SIG_MAXD], os[SIG_MAXD], w0[SIG_MAXD], w1[SIG_MAXD];
  after[axis] = nb * L - n1;
  /* Shapes with axis split into (blocks, samples). */
  for (int i = 0, k = 0; i < nd; i++) {
    const int64_t m = s1[i] > s2[i] ? s1[i] : s2[i];
    if (i == axis) {
      bs[k++] = nb, bs[k++] = L;
      ys[i] = (nb + 1) * L;
      int64_t st, ln;
      window(mode, n1, n2, &st, &ln);
      w0[i] = st, w1[i] = st + ln, os[i] = ln;
    } else {
      bs[k++] = s1[i];
      ys[i] = m;
      os[i] = mode == CUSCI_SIGNAL_SAME ? s1[i] : m;
      w0[i] = (m - os[i]) / 2, w1[i] = w0[i] + os[i];
    }
  }
  CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, os, dt, CUSCI_CASTING_NO));
  int64_t ks[SIG_MAXD + 1];
  for (int i = 0, k = 0; i < nd; i++) {
    if (i == axis)
      ks[k++] = 1;
    ks[k++] = s2[i];
  }
  const int ba = axis + 1; /* the samples' axis of the split shapes */
  cusci_array *p = NULL, *blk = NULL, *F1 = NULL, *c2 = NULL, *k2 = NULL, *F2 = NULL, *P = NULL, *r = NULL, *y = NULL, *yb = NULL, *dst = NULL,
              *src = NULL, *flat = NULL, *win = NULL;
  cusci_status st = cusci__sig_pad_array(ctx, fn, in1, dt, before, after, CUSCI__SIG_PAD_FILL, 0, &p);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, p, nd + 1, bs, &blk);
  if (st == CUSCI_OK)
    st = cx ? cusci_fft_fft(ctx, blk, nfft, ba, CUSCI_FFT_BACKWARD, &F1) : cusci_fft_rfft(ctx, blk, nfft, ba, CUSCI_FFT_BACKWARD, &F1);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, (cusci_array *)in2, dt, false, &c2);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, c2, nd + 1, ks, &k2);
  if (st == CUSCI_OK)
    st = cx ? cusci_fft_fft(ctx, k2, nfft, ba, CUSCI_FFT_BACKWARD, &F2) : cusci_fft_rfft(ctx, k2, nfft, ba, CUSCI_FFT_BACKWARD, &F2);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, F1, F2, &P);
  if (st == CUSCI_OK)
    st = cx ? cusci_fft_ifft(ctx, P, nfft, ba, CUSCI_FFT_BACKWARD, &r) : cusci_fft_irfft(ctx, P, nfft, ba, CUSCI_FFT_BACKWARD, &r);
  /* y, as (blocks + 1, L) along axis: each block's first L samples on its
   * own, its last n2 - 1 on the next block's first. */
  if (st == CUSCI_OK)
    st = cusci_array_zeros(ctx, nd, ys, dt, &y);
  int64_t ybs[SIG_MAXD + 1];
  for (int i = 0, k = 0; i < nd; i++) {
    if (i == axis)
      ybs[k++] = nb + 1, ybs[k++] = L;
    else
      ybs[k++] = ys[i];
  }
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, y, nd + 1, ybs, &yb);
  for (int part = 0; part < 2 && st == CUSCI_OK; part++) {
    int64_t a0[SIG_MAXD + 1], a1[SIG_MAXD + 1], b0[SIG_MAXD + 1], b1[SIG_MAXD + 1];
    for (int i = 0; i <= nd; i++)
      a0[i] = a1[i] = b0[i] = b1[i] = CUSCI_SLICE_NONE;
    if (part == 0)
      b0[axis] = 0, b1[axis] = nb, b0[ba] = 0, b1[ba] = L, a0[ba] = 0, a1[ba] = L;
    else
      b0[axis] = 1, b1[axis] = nb + 1, b0[ba] = 0, b1[ba] = n2 - 1, a0[ba] = L, a1[ba] = L + n2 - 1;
    if (part == 1 && n2 == 1)
      break;
    st = cusci_array_slice(ctx, yb, b0, b1, NULL, &dst);
    if (st == CUSCI_OK)
      st = cusci_array_slice(ctx, r, a0, a1, NULL, &src);
    if (st == CUSCI_OK)
      st = cusci_add(ctx, dst, src, &dst);
    cusci_array_release(dst), cusci_array_release(src), dst = src = NULL;
  }
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, y, w0, w1, NULL, &win);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, win, out);
  SIG_RELEASE(p, blk, F1, c2, k2, F2, P, r, y, yb, dst, src, flat, win);
  return st;
}

cusci_status cusci_signal_oaconvolve(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode, int naxes,
                                     const int *axes, cusci_array **out)
{
  static const char fn[] = "cusci_signal_oaconvolve";
  CUSCI_ENTRY(ctx, fn, in1, in2, out);
  CUSCI_TRY(check_pair(ctx, fn, in1, in2, mode));
  const int nd = cusci_array_ndim(in1);
  bool on[SIG_MAXD] = { false }, swap;
  CUSCI_TRY(axes_mask(ctx, fn, nd, naxes, axes, on));
  /* The axes that convolve (an extent of 1 in both is no convolution). */
  int count = 0, only = -1;
  for (int a = 0; a < nd; a++)
    if (on[a] && (cusci_array_shape(in1)[a] > 1 || cusci_array_shape(in2)[a] > 1))
      count++, only = a;
  CUSCI_TRY(valid_order(ctx, fn, mode, nd, cusci_array_shape(in1), cusci_array_shape(in2), on, &swap));
  if (nd == 0)
    return cusci_multiply(ctx, in1, in2, out);
  const cusci_array *a = in1, *b = in2;
  if (swap)
    a = in2, b = in1;
  /* Overlap-add along one axis when in2 is much the shorter there; else
   * (several axes, inputs of like length) one transform, as SciPy's
   * oaconvolve also falls back to fftconvolve. */
  if (count == 1 && mode != CUSCI_SIGNAL_VALID) {
    const int64_t n1 = cusci_array_shape(a)[only], n2 = cusci_array_shape(b)[only];
    const bool cx = cusci_dtype_is_complex(cusci_array_dtype(a)) || cusci_dtype_is_complex(cusci_array_dtype(b));
    int64_t nfft;
    CUSCI_TRY(cusci_fft_next_fast_len(8 * n2 > 64 ? 8 * n2 : 64, !cx, &nfft));
    if (n1 >= n2 && nfft - n2 + 1 < n1) {
      bool ok = true;
      for (int i = 0; i < nd; i++)
        ok &= i == only || on[i] || cusci_array_shape(a)[i] == cusci_array_shape(b)[i] || cusci_array_shape(a)[i] == 1 ||
              cusci_array_shape(b)[i] == 1;
      if (ok && mode == CUSCI_SIGNAL_SAME && a != in1)
        ok = false;
      if (ok)
        return overlap_add(ctx, fn, a, b, mode, only, nfft, out);
    }
  }
  return fft_method(ctx, fn, a, b, mode, on, out);
}

/* ------------------------------------------------ sepfir2d */

/* x convolved with h (odd length) along axis, x extended symmetrically
 * (the edge repeated) by half of h at each end: the same length. */
static cusci_status sym_pass(cusci_ctx *ctx, const char *fn, const cusci_array *x, const cusci_array *h, int axis, cusci_dtype dt, cusci_array **out)
{
  const int64_t n = cusci_array_size(h);
  int64_t pad[2] = { 0, 0 }, ks[2] = { 1, 1 };
  pad[axis] = (n - 1) / 2, ks[axis] = n;
  cusci_array *p = NULL, *hc = NULL, *k = NULL;
  cusci_status st = cusci__sig_pad_array(ctx, fn, x, dt, pad, pad, CUSCI__SIG_PAD_SYMM, 0, &p);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, (cusci_array *)h, dt, false, &hc);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, hc, 2, ks, &k);
  if (st == CUSCI_OK)
    st = direct_method(ctx, fn, p, k, CUSCI_SIGNAL_VALID, out);
  cusci_array_release(p), cusci_array_release(hc), cusci_array_release(k);
  return st;
}

cusci_status cusci_signal_sepfir2d(cusci_ctx *ctx, const cusci_array *input, const cusci_array *hrow, const cusci_array *hcol, cusci_array **out)
{
  static const char fn[] = "cusci_signal_sepfir2d";
  CUSCI_ENTRY(ctx, fn, input, hrow, hcol, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "input", input));
  CUSCI_TRY(cusci_check_array(ctx, fn, "hrow", hrow));
  CUSCI_TRY(cusci_check_array(ctx, fn, "hcol", hcol));
  if (cusci_array_ndim(input) != 2 || cusci_array_size(input) == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "input must be 2-D and not empty (it has %d dimensions)", cusci_array_ndim(input));
  if (cusci_array_ndim(hrow) != 1 || cusci_array_ndim(hcol) != 1 || cusci_array_size(hrow) % 2 != 1 || cusci_array_size(hcol) % 2 != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "hrow (%lld values) and hcol (%lld) must be 1-D of odd length", (long long)cusci_array_size(hrow),
                          (long long)cusci_array_size(hcol));
  /* Half a filter must fit inside the input: the mirror image is taken
   * once (SciPy's result is undefined beyond). */
  for (int a = 0; a < 2; a++) {
    const int64_t half = (cusci_array_size(a ? hrow : hcol) - 1) / 2, n = cusci_array_shape(input)[a];
    if (half >= n)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%s has %lld values: half of it must be shorter than the input's %lld along axis %d",
                            a ? "hrow" : "hcol", (long long)cusci_array_size(a ? hrow : hcol), (long long)n, a);
  }
  cusci_dtype dt = result_dtype(cusci_array_dtype(input), result_dtype(cusci_array_dtype(hrow), cusci_array_dtype(hcol)));
  CUSCI_TRY(cusci_check_out(ctx, fn, out, 2, cusci_array_shape(input), dt, CUSCI_CASTING_NO));
  /* Along the rows (axis 1) with hrow, then along the columns with hcol. */
  cusci_array *r = NULL;
  cusci_status st = sym_pass(ctx, fn, input, hrow, 1, dt, &r);
  if (st == CUSCI_OK)
    st = sym_pass(ctx, fn, r, hcol, 0, dt, out);
  cusci_array_release(r);
  return st;
}
