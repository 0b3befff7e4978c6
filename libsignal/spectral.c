/*
 * libsignal/spectral.c: spectral estimates by Welch's method as
 * scipy.signal's welch, csd, periodogram and coherence compute them,
 * where the data is: overlapping segments of each line (a strided view,
 * no copy), detrended, windowed, transformed by the module's FFT, their
 * power (or cross power) scaled and averaged over the segments, all by
 * the core's array operations on the context's device. The window, the
 * scales and the frequencies are made on the host.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/signal.h>

#include "reference/signal/design.h"

/* What Welch's method does to each line of x. */
typedef struct spectral {
  int axis, nd;
  int64_t n, nperseg, noverlap, nfft, nseg, nfreq, lines;
  bool onesided, complex_in;
  cusci_dtype rdt, wdt;    /* the real and the working dtype */
  double scale;
  cusci_array *win;        /* nperseg values of rdt */
  cusci_array *factor;     /* nfreq values of rdt: scale, doubled where one-sided */
  const cusci_signal_spectral_opts *o;
} spectral;

static void spectral_free(spectral *s)
{
  cusci_array_release(s->win), cusci_array_release(s->factor);
  s->win = s->factor = NULL;
}

/* SciPy's result_type(x, complex64): float32 work for float16, float32
 * and complex64, float64 for the rest. */
static void work_dtypes(cusci_dtype dt, cusci_dtype *rdt, cusci_dtype *wdt)
{
  const bool single = dt == CUSCI_FLOAT32 || dt == CUSCI_FLOAT16 || dt == CUSCI_COMPLEX64;
  const bool cplx = cusci_dtype_kind(dt) == 'c';
  *rdt = single ? CUSCI_FLOAT32 : CUSCI_FLOAT64;
  *wdt = cplx ? (single ? CUSCI_COMPLEX64 : CUSCI_COMPLEX128) : *rdt;
}

/* The window: opts' array or its name (get_window, periodic), or dflt. */
static cusci_status segment_window(cusci_ctx *ctx, const char *fn, const cusci_signal_spectral_opts *o, const char *dflt, int64_t nperseg,
                                  double **w)
{
  *w = NULL;
  if (o->win) {
    double complex *h = NULL;
    CUSCI_TRY(cusci__sig_host_values(ctx, fn, "opts->win", o->win, &h));
    *w = malloc(sizeof **w * (size_t)(nperseg ? nperseg : 1));
    if (*w)
      for (int64_t i = 0; i < nperseg; i++)
        (*w)[i] = creal(h[i]);
    free(h);
    return *w ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the window");
  }
  return cusci__sig_window_host(ctx, fn, o->window ? o->window : dflt, nperseg, true, w);
}

/* Check the arguments and make the plan. nperseg 0 is the default (256,
 * or the signal when shorter; periodogram passes the whole line). */
static cusci_status plan(cusci_ctx *ctx, const char *fn, const cusci_array *x, double fs, int64_t nperseg, int axis,
                         const cusci_signal_spectral_opts *o, const char *dflt_window, bool whole_line, spectral *s)
{
  static const cusci_signal_spectral_opts none = {0};
  memset(s, 0, sizeof *s);
  s->o = o ? o : &none;
  o = s->o;
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  s->nd = cusci_array_ndim(x);
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "x", s->nd, axis, &s->axis));
  if (!(fs > 0) || !isfinite(fs))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fs %g must be positive and finite", fs);
  s->n = cusci_array_shape(x)[s->axis];
  s->lines = s->n ? cusci_array_size(x) / s->n : 0;
  if (s->n == 0 || s->lines == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "x is empty");
  const cusci_dtype dt = cusci_array_dtype(x);
  s->complex_in = cusci_dtype_kind(dt) == 'c';
  work_dtypes(dt, &s->rdt, &s->wdt);
  if (nperseg < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nperseg %lld must be positive (0: the default)", (long long)nperseg);
  if ((unsigned)o->detrend > CUSCI_SIGNAL_DETREND_NONE || (unsigned)o->scaling > CUSCI_SIGNAL_SCALING_SPECTRUM ||
      (unsigned)o->average > CUSCI_SIGNAL_AVERAGE_MEDIAN)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "opts has a detrend, scaling or average outside its enum");
  if (o->win && o->window)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "opts gives both a window name and a window array");
  if (o->win) {
    CUSCI_TRY(cusci_check_array(ctx, fn, "opts->win", o->win));
    const int64_t nw = cusci_array_size(o->win);
    if (cusci_array_ndim(o->win) != 1)
      return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the window must be 1-d");
    if (nw > s->n)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the window (%lld) is longer than the signal (%lld)", (long long)nw, (long long)s->n);
    if (nperseg && nperseg != nw)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nperseg %lld differs from the window's length %lld", (long long)nperseg, (long long)nw);
    nperseg = nw;
  } else if (whole_line) {
    nperseg = s->n;
  } else if (nperseg > s->n) {
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nperseg %lld is larger than the signal (%lld samples along axis %d)", (long long)nperseg,
                          (long long)s->n, s->axis);
  } else if (nperseg == 0) {
    nperseg = s->n < 256 ? s->n : 256;
  }
  s->nperseg = nperseg;
  s->nfft = o->nfft ? o->nfft : nperseg;
  if (s->nfft < nperseg)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nfft %lld must be at least nperseg %lld", (long long)o->nfft, (long long)nperseg);
  if (o->noverlap < CUSCI_SIGNAL_NO_OVERLAP)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "noverlap %lld is negative (0: nperseg / 2, CUSCI_SIGNAL_NO_OVERLAP: none)",
                          (long long)o->noverlap);
  s->noverlap = o->noverlap == CUSCI_SIGNAL_NO_OVERLAP ? 0 : o->noverlap ? o->noverlap : nperseg / 2;
  if (s->noverlap >= nperseg)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "noverlap %lld must be less than nperseg %lld", (long long)s->noverlap, (long long)nperseg);
  s->nseg = (s->n - nperseg) / (nperseg - s->noverlap) + 1;
  s->onesided = !o->return_twosided && !s->complex_in;
  s->nfreq = s->onesided ? s->nfft / 2 + 1 : s->nfft;

  double *w = NULL;
  CUSCI_TRY(segment_window(ctx, fn, o, dflt_window, nperseg, &w));
  double sw = 0, sw2 = 0;
  for (int64_t i = 0; i < nperseg; i++)
    sw += w[i], sw2 += w[i] * w[i];
  s->scale = o->scaling == CUSCI_SIGNAL_SCALING_SPECTRUM ? 1.0 / (sw * sw) : 1.0 / (fs * sw2);
  double *f = malloc(sizeof *f * (size_t)s->nfreq);
  cusci_status st = f ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (st == CUSCI_OK) {
    for (int64_t i = 0; i < s->nfreq; i++)
      f[i] = s->scale;
    if (s->onesided) /* SciPy doubles all but DC and, for an even nfft, Nyquist */
      for (int64_t i = 1; i < (s->nfft % 2 ? s->nfreq : s->nfreq - 1); i++)
        f[i] = s->scale * 2;
    st = cusci__sig_upload_real(ctx, w, 1, &nperseg, s->rdt, &s->win);
  }
  if (st == CUSCI_OK)
    st = cusci__sig_upload_real(ctx, f, 1, &s->nfreq, s->rdt, &s->factor);
  free(w), free(f);
  if (st != CUSCI_OK)
    spectral_free(s);
  return st;
}

/* numpy.fft.rfftfreq or fftfreq of the plan, d = 1 / fs. */
static cusci_status frequencies(cusci_ctx *ctx, const char *fn, const spectral *s, double fs, cusci_array **out)
{
  double *f = malloc(sizeof *f * (size_t)s->nfreq);
  if (!f)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  const double val = 1.0 / ((double)s->nfft * (1.0 / fs));
  for (int64_t i = 0; i < s->nfreq; i++) {
    const int64_t k = s->onesided || i <= (s->nfft - 1) / 2 ? i : i - s->nfft;
    f[i] = (double)k * val;
  }
  cusci_array *r = NULL;
  cusci_status st = cusci__sig_upload_real(ctx, f, 1, &s->nfreq, CUSCI_FLOAT64, &r);
  free(f);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, out);
  return st;
}

/* x's lines (axis moved last) in the working dtype, contiguous, (lines, n). */
static cusci_status lines_of(cusci_ctx *ctx, const spectral *s, const cusci_array *x, cusci_array **out)
{
  int perm[32];
  for (int i = 0, j = 0; i < s->nd; i++)
    if (i != s->axis)
      perm[j++] = i;
  perm[s->nd - 1] = s->axis;
  cusci_array *t = NULL, *c = NULL;
  CUSCI_TRY(cusci_array_transpose(ctx, (cusci_array *)x, perm, &t));
  cusci_status st = cusci__sig_contiguous(ctx, t, s->wdt, &c);
  cusci_array_release(t);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, c, 2, (const int64_t[]){s->lines, s->n}, out);
  cusci_array_release(c);
  return st;
}

/* The transforms of x's detrended, windowed segments: (lines, nseg, nfreq)
 * complex. */
static cusci_status transforms(cusci_ctx *ctx, const spectral *s, const cusci_array *x, cusci_array **X)
{
  cusci_array *xl = NULL, *seg = NULL, *d = NULL;
  CUSCI_TRY(lines_of(ctx, s, x, &xl));
  const int64_t step = s->nperseg - s->noverlap;
  cusci_status st = cusci_array_wrap(ctx, cusci_array_data(xl), 3, (const int64_t[]){s->lines, s->nseg, s->nperseg},
                                     (const int64_t[]){s->n, step, 1}, s->wdt, &seg);
  if (st == CUSCI_OK && s->o->detrend != CUSCI_SIGNAL_DETREND_NONE)
    st = cusci_signal_detrend(ctx, seg, -1, s->o->detrend == CUSCI_SIGNAL_DETREND_LINEAR ? CUSCI_SIGNAL_TREND_LINEAR : CUSCI_SIGNAL_TREND_CONSTANT,
                              0, NULL, &d);
  else if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, seg, &d);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, d, s->win, &d);
  if (st == CUSCI_OK)
    st = s->onesided ? cusci_fft_rfft(ctx, d, s->nfft, -1, CUSCI_FFT_BACKWARD, X) : cusci_fft_fft(ctx, d, s->nfft, -1, CUSCI_FFT_BACKWARD, X);
  cusci_array_release(seg), cusci_array_release(xl), cusci_array_release(d);
  return st;
}

/* 1 + sum_{k=1}^{(n-1)/2} (1 / (2k + 1) - 1 / (2k)): the median's bias for
 * chi-squared values of two degrees of freedom (SciPy's _median_bias). */
static double median_bias(int64_t n)
{
  double b = 1;
  for (int64_t k = 1; k <= (n - 1) / 2; k++)
    b += 1.0 / (double)(2 * k + 1) - 1.0 / (double)(2 * k);
  return b;
}

/* The average over the segments of P (lines, nseg, nfreq) into x's shape
 * with nfreq along axis, then to *out. */
static cusci_status average(cusci_ctx *ctx, const char *fn, const spectral *s, const cusci_array *x, cusci_array *P, cusci_array **out)
{
  const cusci_reduce_opts segs = {.naxes = 1, .axes = (const int[]){1}};
  cusci_array *A = NULL, *r = NULL, *im = NULL, *v = NULL, *t = NULL;
  cusci_status st = CUSCI_OK;
  if (s->o->average == CUSCI_SIGNAL_AVERAGE_MEAN || s->nseg == 1) {
    st = cusci_mean(ctx, P, &segs, &A);
  } else if (cusci_dtype_kind(cusci_array_dtype(P)) != 'c') {
    st = cusci_median(ctx, P, &segs, &A);
  } else {
    /* a complex median: of the real and imaginary parts apart, as SciPy's */
    cusci_array *re = NULL, *ii = NULL;
    st = cusci_real(ctx, P, &re);
    if (st == CUSCI_OK)
      st = cusci_imag(ctx, P, &ii);
    if (st == CUSCI_OK)
      st = cusci_median(ctx, re, &segs, &r);
    if (st == CUSCI_OK)
      st = cusci_median(ctx, ii, &segs, &im);
    if (st == CUSCI_OK)
      st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(im), cusci_operand_complex(0, 1), &t);
    if (st == CUSCI_OK)
      st = cusci_add(ctx, r, t, &A);
    cusci_array_release(re), cusci_array_release(ii);
  }
  if (st == CUSCI_OK && s->o->average == CUSCI_SIGNAL_AVERAGE_MEDIAN && s->nseg > 1)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(A), cusci_operand_float(median_bias(s->nseg)), &A);
  /* (lines, nfreq) -> x's other extents, nfreq -> nfreq along axis */
  int64_t shape[32];
  for (int i = 0, j = 0; i < s->nd; i++)
    if (i != s->axis)
      shape[j++] = cusci_array_shape(x)[i];
  shape[s->nd - 1] = s->nfreq;
  int perm[32];
  for (int i = 0, j = 0; i < s->nd; i++)
    perm[i] = i == s->axis ? s->nd - 1 : j++;
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, A, s->nd, shape, &v);
  cusci_array *tv = NULL, *res = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_transpose(ctx, v, perm, &tv);
  if (st == CUSCI_OK)
    st = cusci__sig_contiguous(ctx, tv, cusci_array_dtype(tv), &res);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, res, out);
  cusci_array *all[] = {A, r, im, v, t, tv};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  return st;
}

/* Power spectral density (y NULL) or cross spectral density of x and y. */
static cusci_status density(cusci_ctx *ctx, const char *fn, const cusci_array *x, const cusci_array *y, double fs, int64_t nperseg, int axis,
                            const cusci_signal_spectral_opts *opts, const char *dflt_window, bool whole_line, cusci_array **f, cusci_array **out)
{
  spectral s;
  if (y) {
    CUSCI_TRY(cusci_check_array(ctx, fn, "y", y));
    bool same = cusci_array_ndim(x) == cusci_array_ndim(y);
    for (int i = 0; same && i < cusci_array_ndim(x); i++)
      same = cusci_array_shape(x)[i] == cusci_array_shape(y)[i];
    if (!same)
      return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "x and y must have the same shape");
  }
  /* csd: the working dtype of x and y together */
  cusci_dtype joint = cusci_array_dtype(x);
  if (y)
    CUSCI_TRY(cusci_promote_types(joint, cusci_array_dtype(y), &joint));
  CUSCI_TRY(plan(ctx, fn, x, fs, nperseg, axis, opts, dflt_window, whole_line, &s));
  if (y) {
    s.complex_in = cusci_dtype_kind(joint) == 'c';
    work_dtypes(joint, &s.rdt, &s.wdt);
    s.onesided = !s.o->return_twosided && !s.complex_in;
    if (s.nfreq != (s.onesided ? s.nfft / 2 + 1 : s.nfft)) {
      spectral_free(&s);
      return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "a complex y with a real x: make x complex too");
    }
  }
  cusci_array *X = NULL, *Y = NULL, *P = NULL, *cx = NULL;
  cusci_status st = transforms(ctx, &s, x, &X);
  if (st == CUSCI_OK && y) {
    st = transforms(ctx, &s, y, &Y);
    if (st == CUSCI_OK)
      st = cusci_conj(ctx, X, &cx);
    if (st == CUSCI_OK)
      st = cusci_multiply(ctx, cx, Y, &P);
  } else if (st == CUSCI_OK) {
    st = cusci_abs(ctx, X, &P);
    if (st == CUSCI_OK)
      st = cusci_square(ctx, P, &P);
  }
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, P, s.factor, &P);
  cusci_array *res = NULL;
  if (st == CUSCI_OK)
    st = average(ctx, fn, &s, x, P, &res);
  if (st == CUSCI_OK)
    st = frequencies(ctx, fn, &s, fs, f);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, res, out);
  else
    cusci_array_release(res);
  cusci_array_release(X), cusci_array_release(Y), cusci_array_release(P), cusci_array_release(cx);
  spectral_free(&s);
  return st;
}

cusci_status cusci_signal_welch(cusci_ctx *ctx, const cusci_array *x, double fs, int64_t nperseg, int axis, const cusci_signal_spectral_opts *opts,
                                cusci_array **f, cusci_array **pxx)
{
  static const char fn[] = "cusci_signal_welch";
  CUSCI_ENTRY(ctx, fn, x, f, pxx);
  return density(ctx, fn, x, NULL, fs, nperseg, axis, opts, "hann", false, f, pxx);
}

cusci_status cusci_signal_csd(cusci_ctx *ctx, const cusci_array *x, const cusci_array *y, double fs, int64_t nperseg, int axis,
                              const cusci_signal_spectral_opts *opts, cusci_array **f, cusci_array **pxy)
{
  static const char fn[] = "cusci_signal_csd";
  CUSCI_ENTRY(ctx, fn, x, y, f, pxy);
  return density(ctx, fn, x, y, fs, nperseg, axis, opts, "hann", false, f, pxy);
}

cusci_status cusci_signal_periodogram(cusci_ctx *ctx, const cusci_array *x, double fs, int axis, const cusci_signal_spectral_opts *opts,
                                      cusci_array **f, cusci_array **pxx)
{
  static const char fn[] = "cusci_signal_periodogram";
  CUSCI_ENTRY(ctx, fn, x, f, pxx);
  if (opts && (opts->noverlap || opts->average))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a periodogram has one segment: noverlap and average do not apply");
  cusci_signal_spectral_opts o = opts ? *opts : (cusci_signal_spectral_opts){0};
  o.noverlap = CUSCI_SIGNAL_NO_OVERLAP;
  /* SciPy: nfft below the signal's length crops the signal to nfft */
  cusci_array *cut = NULL;
  const cusci_array *use = x;
  int ax = 0;
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "x", cusci_array_ndim(x), axis, &ax));
  if (o.nfft > 0 && o.nfft < cusci_array_shape(x)[ax]) {
    CUSCI_TRY(cusci__sig_along(ctx, (cusci_array *)x, ax, 0, o.nfft, 1, &cut));
    use = cut;
  }
  const cusci_status st = density(ctx, fn, use, NULL, fs, 0, axis, &o, "boxcar", true, f, pxx);
  cusci_array_release(cut);
  return st;
}

cusci_status cusci_signal_coherence(cusci_ctx *ctx, const cusci_array *x, const cusci_array *y, double fs, int64_t nperseg, int axis,
                                    const cusci_signal_spectral_opts *opts, cusci_array **f, cusci_array **cxy)
{
  static const char fn[] = "cusci_signal_coherence";
  CUSCI_ENTRY(ctx, fn, x, y, f, cxy);
  cusci_array *pxx = NULL, *pyy = NULL, *pxy = NULL, *fr = NULL, *m = NULL, *r = NULL;
  cusci_status st = density(ctx, fn, x, NULL, fs, nperseg, axis, opts, "hann", false, &fr, &pxx);
  if (st == CUSCI_OK)
    st = density(ctx, fn, y, NULL, fs, nperseg, axis, opts, "hann", false, &fr, &pyy);
  if (st == CUSCI_OK)
    st = density(ctx, fn, x, y, fs, nperseg, axis, opts, "hann", false, &fr, &pxy);
  /* |Pxy|^2 / Pxx / Pyy */
  if (st == CUSCI_OK)
    st = cusci_abs(ctx, pxy, &m);
  if (st == CUSCI_OK)
    st = cusci_square(ctx, m, &m);
  if (st == CUSCI_OK)
    st = cusci_divide(ctx, m, pxx, &m);
  if (st == CUSCI_OK)
    st = cusci_divide(ctx, m, pyy, &r);
  st = cusci__sig_give_two(ctx, fn, st, fr, f, r, cxy);
  cusci_array_release(pxx), cusci_array_release(pyy), cusci_array_release(pxy), cusci_array_release(m);
  return st;
}
