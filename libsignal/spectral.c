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

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "kernels/signal/launch.h"
#include "reference/signal/design.h"
#include "reference/signal/spectral.h"

/* What the short-time analysis does to each line of x. */
typedef struct spectral {
  int axis, nd;
  int64_t n, nperseg, noverlap, nfft, nseg, nfreq, lines;
  int64_t ext_n, len; /* the extension at each end; the extended, padded length */
  int ext, trend;     /* CUSCI__SIG_EXTEND_*, CUSCI__SIG_TREND_* */
  bool onesided, complex_in;
  cusci_dtype rdt, wdt; /* the real and the working dtype */
  double scale;
  cusci_array *win;    /* nperseg values of rdt */
  cusci_array *factor; /* nfreq values of rdt: scale, doubled where one-sided (power) */
} spectral;

/* How a caller wants it: SciPy's defaults of its function and its
 * options, already read from that function's opts. */
typedef struct plan_in {
  const char *dflt_window, *window;
  const cusci_array *win;
  int64_t noverlap, nfft;
  int overlap_div;  /* the default noverlap: nperseg / overlap_div */
  bool whole_line;  /* periodogram: one segment, the whole line */
  bool twosided;
  int ext;          /* a CUSCI__SIG_EXTEND_* of nperseg / 2 at each end, or -1 */
  bool padded;      /* zeros after, to a whole number of segments */
  bool density;     /* density scaling, else spectrum */
  bool amplitude;   /* the square root of the scale, never doubled (stft) */
  int trend;
} plan_in;

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

/* The window: an array (1-d, its length nperseg) or a name (get_window,
 * periodic); nperseg values on the host. */
static cusci_status segment_window(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *win, int64_t nperseg, double **w)
{
  *w = NULL;
  if (win) {
    double complex *h = NULL;
    CUSCI_TRY(cusci__sig_host_values(ctx, fn, "the window", win, &h));
    *w = malloc(sizeof **w * (size_t)(nperseg ? nperseg : 1));
    if (*w)
      for (int64_t i = 0; i < nperseg; i++)
        (*w)[i] = creal(h[i]);
    free(h);
    return *w ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the window");
  }
  return cusci__sig_window_host(ctx, fn, name, nperseg, true, w);
}

/* A window array's checks: 1-d, its length *nperseg (0: take it). */
static cusci_status check_window_array(cusci_ctx *ctx, const char *fn, const cusci_array *win, int64_t *nperseg)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, "the window", win));
  const int64_t nw = cusci_array_size(win);
  if (cusci_array_ndim(win) != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the window must be 1-d");
  if (*nperseg && *nperseg != nw)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nperseg %lld differs from the window's length %lld", (long long)*nperseg, (long long)nw);
  *nperseg = nw;
  return CUSCI_OK;
}

/* noverlap as given (0: nperseg / div, CUSCI_SIGNAL_NO_OVERLAP: none),
 * checked against nperseg. */
static cusci_status overlap_of(cusci_ctx *ctx, const char *fn, int64_t given, int div, int64_t nperseg, int64_t *noverlap)
{
  if (given < CUSCI_SIGNAL_NO_OVERLAP)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "noverlap %lld is negative (0: the default, CUSCI_SIGNAL_NO_OVERLAP: none)", (long long)given);
  *noverlap = given == CUSCI_SIGNAL_NO_OVERLAP ? 0 : given ? given : nperseg / div;
  if (*noverlap >= nperseg)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "noverlap %lld must be less than nperseg %lld", (long long)*noverlap, (long long)nperseg);
  return CUSCI_OK;
}

/* Check the arguments and make the plan. nperseg 0 is the default (256,
 * or the signal when shorter). */
static cusci_status plan(cusci_ctx *ctx, const char *fn, const cusci_array *x, double fs, int64_t nperseg, int axis, const plan_in *in, spectral *s)
{
  memset(s, 0, sizeof *s);
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
  if (in->win && in->window)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "opts gives both a window name and a window array");
  if (in->win) {
    CUSCI_TRY(check_window_array(ctx, fn, in->win, &nperseg));
    if (nperseg > s->n)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the window (%lld) is longer than the signal (%lld)", (long long)nperseg, (long long)s->n);
  } else if (in->whole_line) {
    nperseg = s->n;
  } else if (nperseg > s->n) {
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nperseg %lld is larger than the signal (%lld samples along axis %d)", (long long)nperseg,
                          (long long)s->n, s->axis);
  } else if (nperseg == 0) {
    nperseg = s->n < 256 ? s->n : 256;
  }
  s->nperseg = nperseg;
  s->nfft = in->nfft ? in->nfft : nperseg;
  if (s->nfft < nperseg)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nfft %lld must be at least nperseg %lld", (long long)in->nfft, (long long)nperseg);
  CUSCI_TRY(overlap_of(ctx, fn, in->noverlap, in->overlap_div, nperseg, &s->noverlap));
  const int64_t step = nperseg - s->noverlap;
  s->ext = in->ext < 0 ? CUSCI__SIG_EXTEND_ZEROS : in->ext;
  s->ext_n = in->ext < 0 ? 0 : nperseg / 2;
  s->len = s->n + 2 * s->ext_n;
  if (in->padded) /* SciPy: (-(len - nperseg) % step) % nperseg more zeros */
    s->len += ((((s->nperseg - s->len) % step) + step) % step) % nperseg;
  s->nseg = (s->len - nperseg) / step + 1;
  s->trend = in->trend;
  s->onesided = !in->twosided && !s->complex_in;
  s->nfreq = s->onesided ? s->nfft / 2 + 1 : s->nfft;

  double *w = NULL;
  CUSCI_TRY(segment_window(ctx, fn, in->window ? in->window : in->dflt_window, in->win, nperseg, &w));
  double sw = 0, sw2 = 0;
  for (int64_t i = 0; i < nperseg; i++)
    sw += w[i], sw2 += w[i] * w[i];
  s->scale = in->density ? 1.0 / (fs * sw2) : 1.0 / (sw * sw);
  if (in->amplitude)
    s->scale = sqrt(s->scale);
  double *f = malloc(sizeof *f * (size_t)s->nfreq);
  cusci_status st = f ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (st == CUSCI_OK) {
    for (int64_t i = 0; i < s->nfreq; i++)
      f[i] = s->scale;
    if (s->onesided && !in->amplitude) /* SciPy doubles all but DC and, for an even nfft, Nyquist */
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

/* The plan's input from welch's options (and its function's defaults). */
static cusci_status welch_in(cusci_ctx *ctx, const char *fn, const cusci_signal_spectral_opts *o, const char *dflt_window, int overlap_div,
                             plan_in *in)
{
  static const cusci_signal_spectral_opts none = {0};
  o = o ? o : &none;
  if ((unsigned)o->detrend > CUSCI_SIGNAL_DETREND_NONE || (unsigned)o->scaling > CUSCI_SIGNAL_SCALING_SPECTRUM ||
      (unsigned)o->average > CUSCI_SIGNAL_AVERAGE_MEDIAN)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "opts has a detrend, scaling or average outside its enum");
  *in = (plan_in){ .dflt_window = dflt_window, .window = o->window, .win = o->win, .noverlap = o->noverlap, .nfft = o->nfft,
                   .overlap_div = overlap_div, .twosided = o->return_twosided, .ext = -1, .density = o->scaling == CUSCI_SIGNAL_SCALING_DENSITY,
                   .trend = o->detrend == CUSCI_SIGNAL_DETREND_NONE       ? CUSCI__SIG_TREND_NONE
                            : o->detrend == CUSCI_SIGNAL_DETREND_LINEAR ? CUSCI__SIG_TREND_LINEAR
                                                                         : CUSCI__SIG_TREND_CONSTANT };
  return CUSCI_OK;
}

/* The n host values v (malloc'ed; freed here) as a float64 array on ctx,
 * to *out. */
static cusci_status give_vector(cusci_ctx *ctx, const char *fn, double *v, int64_t n, cusci_array **out)
{
  const cusci_status st = cusci__sig_give_real(ctx, fn, CUSCI_OK, v, n, out);
  free(v);
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
  return give_vector(ctx, fn, f, s->nfreq, out);
}

/* The segments' times (SciPy's arange(nperseg / 2, len - nperseg / 2 + 1,
 * step) / fs, less nperseg / 2 / fs for an extended line). */
static cusci_status times(cusci_ctx *ctx, const char *fn, const spectral *s, double fs, cusci_array **out)
{
  double *t = malloc(sizeof *t * (size_t)s->nseg);
  if (!t)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  const double half = (double)s->nperseg / 2, step = (double)(s->nperseg - s->noverlap);
  for (int64_t i = 0; i < s->nseg; i++)
    t[i] = (half + (double)i * step) / fs - (s->ext_n ? half / fs : 0);
  return give_vector(ctx, fn, t, s->nseg, out);
}

/* The lines of a (axis moved last) as dt, contiguous, (lines, n). */
static cusci_status lines_of(cusci_ctx *ctx, const cusci_array *a, int axis, cusci_dtype dt, cusci_array **out)
{
  const int nd = cusci_array_ndim(a);
  int perm[32];
  for (int i = 0, j = 0; i < nd; i++)
    if (i != axis)
      perm[j++] = i;
  perm[nd - 1] = axis;
  const int64_t n = cusci_array_shape(a)[axis];
  cusci_array *t = NULL, *c = NULL;
  CUSCI_TRY(cusci_array_transpose(ctx, (cusci_array *)a, perm, &t));
  cusci_status st = cusci__sig_contiguous(ctx, t, dt, &c);
  cusci_array_release(t);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, c, 2, (const int64_t[]){ n ? cusci_array_size(a) / n : 0, n }, out);
  cusci_array_release(c);
  return st;
}

/* r (lines, ... extents, the first nfreq) as a's other extents with nfreq
 * at axis and, when with_last, r's last extent last (contiguous). */
static cusci_status to_axis(cusci_ctx *ctx, const char *fn, const cusci_array *a, int axis, cusci_array *r, bool with_last, cusci_array **out)
{
  const int nd = cusci_array_ndim(a), rn = cusci_array_ndim(r);
  int64_t shape[33];
  for (int i = 0, j = 0; i < nd; i++)
    if (i != axis)
      shape[j++] = cusci_array_shape(a)[i];
  shape[nd - 1] = cusci_array_shape(r)[with_last ? rn - 2 : rn - 1];
  if (with_last)
    shape[nd] = cusci_array_shape(r)[rn - 1];
  int perm[33];
  for (int i = 0, j = 0; i < nd; i++)
    perm[i] = i == axis ? nd - 1 : j++;
  perm[nd] = nd;
  cusci_array *v = NULL, *tv = NULL, *res = NULL;
  cusci_status st = cusci_array_reshape(ctx, r, nd + with_last, shape, &v);
  if (st == CUSCI_OK)
    st = cusci_array_transpose(ctx, v, perm, &tv);
  if (st == CUSCI_OK)
    st = cusci__sig_contiguous(ctx, tv, cusci_array_dtype(tv), &res);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, res, out);
  cusci_array_release(v), cusci_array_release(tv);
  return st;
}

/* A kernel's code as a status. */
static cusci_status launched(cusci_ctx *ctx, const char *fn, const char *what, int code)
{
  return code ? cusci_ctx_gpu_status(ctx, fn, what, code) : CUSCI_OK;
}

/* The transforms of x's frames: (lines, nseg, nfreq) complex. */
static cusci_status transforms(cusci_ctx *ctx, const char *fn, const spectral *s, const cusci_array *x, cusci_array **X)
{
  cusci_array *xl = NULL, *fr = NULL;
  CUSCI_TRY(lines_of(ctx, x, s->axis, s->wdt, &xl));
  cusci_status st = cusci_array_empty(ctx, 3, (const int64_t[]){ s->lines, s->nseg, s->nperseg }, s->wdt, &fr);
  if (st == CUSCI_OK) {
    const int prec = cusci__sig_prec(s->wdt);
    const int64_t step = s->nperseg - s->noverlap;
    const void *w = cusci_array_data(s->win), *xd = cusci_array_data(xl);
    void *y = cusci_array_data(fr);
    if (cusci_ctx_device(ctx) >= 0)
      st = launched(ctx, fn, "the frames kernel",
                    cusci__sig_frames_gpu(cusci_ctx_stream(ctx), prec, s->lines, s->n, s->ext, s->ext_n, s->nseg, s->nperseg, step, s->trend, w, xd, y));
    else
      cusci__sig_frames(prec, s->lines, s->n, s->ext, s->ext_n, s->nseg, s->nperseg, step, s->trend, w, xd, y);
  }
  if (st == CUSCI_OK)
    st = s->onesided ? cusci_fft_rfft(ctx, fr, s->nfft, -1, CUSCI_FFT_BACKWARD, X) : cusci_fft_fft(ctx, fr, s->nfft, -1, CUSCI_FFT_BACKWARD, X);
  cusci_array_release(xl), cusci_array_release(fr);
  return st;
}

/* The spectrum pass op of X (lines, nseg, nfreq) with the plan's factors. */
static cusci_status spectrum(cusci_ctx *ctx, const char *fn, const spectral *s, int op, const cusci_array *X, cusci_array **out)
{
  const int64_t L = s->lines, S = s->nseg, F = s->nfreq;
  const cusci_dtype dt = op == CUSCI__SIG_SPEC_COMPLEX ? cusci_array_dtype(X) : s->rdt;
  cusci_array *P = NULL, *work = NULL;
  cusci_status st = op == CUSCI__SIG_SPEC_POWER_MEAN       ? cusci_array_empty(ctx, 2, (const int64_t[]){ L, F }, dt, &P)
                    : op == CUSCI__SIG_SPEC_POWER_SEGMENTS ? cusci_array_empty(ctx, 3, (const int64_t[]){ L, S, F }, dt, &P)
                                                           : cusci_array_empty(ctx, 3, (const int64_t[]){ L, F, S }, dt, &P);
  const int prec = cusci__sig_prec(cusci_array_dtype(X));
  if (st == CUSCI_OK && cusci_ctx_device(ctx) >= 0) {
    if (op == CUSCI__SIG_SPEC_POWER_MEAN)
      st = cusci_array_empty(ctx, 1, (const int64_t[]){ cusci__sig_mean_work(L, S, F) }, CUSCI_FLOAT64, &work);
    if (st == CUSCI_OK)
      st = launched(ctx, fn, "the spectrum kernel",
                    cusci__sig_spectrum_gpu(cusci_ctx_stream(ctx), prec, op, L, S, F, cusci_array_data(s->factor), cusci_array_data(X),
                                            cusci_array_data(P), work ? cusci_array_data(work) : NULL));
  } else if (st == CUSCI_OK) {
    cusci__sig_spectrum(prec, op, L, S, F, cusci_array_data(s->factor), cusci_array_data(X), cusci_array_data(P));
  }
  cusci_array_release(work);
  if (st != CUSCI_OK) {
    cusci_array_release(P);
    P = NULL;
  }
  *out = P;
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

/* The average over the segments of P (lines, nseg, nfreq) as avg. */
static cusci_status average(cusci_ctx *ctx, cusci_signal_average avg, cusci_array *P, cusci_array **out)
{
  const cusci_reduce_opts segs = { .naxes = 1, .axes = (const int[]){ 1 } };
  const int64_t nseg = cusci_array_shape(P)[1];
  cusci_array *A = NULL, *r = NULL, *im = NULL, *t = NULL, *re = NULL, *ii = NULL;
  cusci_status st = CUSCI_OK;
  if (avg == CUSCI_SIGNAL_AVERAGE_MEAN || nseg == 1) {
    st = cusci_mean(ctx, P, &segs, &A);
  } else if (cusci_dtype_kind(cusci_array_dtype(P)) != 'c') {
    st = cusci_median(ctx, P, &segs, &A);
  } else {
    /* a complex median: of the real and imaginary parts apart, as SciPy's */
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
  }
  if (st == CUSCI_OK && avg == CUSCI_SIGNAL_AVERAGE_MEDIAN && nseg > 1)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(A), cusci_operand_float(median_bias(nseg)), &A);
  cusci_array *all[] = { r, im, t, re, ii };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  if (st != CUSCI_OK) {
    cusci_array_release(A);
    A = NULL;
  }
  *out = A;
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
  plan_in in;
  CUSCI_TRY(welch_in(ctx, fn, opts, dflt_window, 2, &in));
  in.whole_line = whole_line;
  const cusci_signal_average avg = opts ? opts->average : CUSCI_SIGNAL_AVERAGE_MEAN;
  /* csd: the working dtype of x and y together */
  cusci_dtype joint = cusci_array_dtype(x);
  if (y)
    CUSCI_TRY(cusci_promote_types(joint, cusci_array_dtype(y), &joint));
  CUSCI_TRY(plan(ctx, fn, x, fs, nperseg, axis, &in, &s));
  if (y) {
    s.complex_in = cusci_dtype_kind(joint) == 'c';
    work_dtypes(joint, &s.rdt, &s.wdt);
    s.onesided = !in.twosided && !s.complex_in;
    if (s.nfreq != (s.onesided ? s.nfft / 2 + 1 : s.nfft)) {
      spectral_free(&s);
      return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "a complex y with a real x: make x complex too");
    }
  }
  cusci_array *X = NULL, *Y = NULL, *P = NULL, *cx = NULL, *A = NULL;
  cusci_status st = transforms(ctx, fn, &s, x, &X);
  if (st == CUSCI_OK && y) {
    st = transforms(ctx, fn, &s, y, &Y);
    if (st == CUSCI_OK)
      st = cusci_conj(ctx, X, &cx);
    if (st == CUSCI_OK)
      st = cusci_multiply(ctx, cx, Y, &P);
    if (st == CUSCI_OK)
      st = cusci_multiply(ctx, P, s.factor, &P);
    if (st == CUSCI_OK)
      st = average(ctx, avg, P, &A);
  } else if (st == CUSCI_OK && (avg == CUSCI_SIGNAL_AVERAGE_MEAN || s.nseg == 1)) {
    st = spectrum(ctx, fn, &s, CUSCI__SIG_SPEC_POWER_MEAN, X, &A);
  } else if (st == CUSCI_OK) {
    st = spectrum(ctx, fn, &s, CUSCI__SIG_SPEC_POWER_SEGMENTS, X, &P);
    if (st == CUSCI_OK)
      st = average(ctx, avg, P, &A);
  }
  cusci_array *res = NULL;
  if (st == CUSCI_OK)
    st = to_axis(ctx, fn, x, s.axis, A, false, &res);
  if (st == CUSCI_OK)
    st = frequencies(ctx, fn, &s, fs, f);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, res, out);
  else
    cusci_array_release(res);
  cusci_array *all[] = { X, Y, P, cx, A };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  spectral_free(&s);
  return st;
}

/* The short-time spectra of x as the spectrum pass op: f, t and (x's
 * other extents, nfreq at axis, the segments last). */
static cusci_status short_time(cusci_ctx *ctx, const char *fn, const cusci_array *x, double fs, int64_t nperseg, int axis, const plan_in *in, int op,
                               cusci_array **f, cusci_array **t, cusci_array **out)
{
  spectral s;
  CUSCI_TRY(plan(ctx, fn, x, fs, nperseg, axis, in, &s));
  cusci_array *X = NULL, *P = NULL, *res = NULL, *fr = NULL;
  cusci_status st = transforms(ctx, fn, &s, x, &X);
  if (st == CUSCI_OK)
    st = spectrum(ctx, fn, &s, op, X, &P);
  if (st == CUSCI_OK)
    st = to_axis(ctx, fn, x, s.axis, P, true, &res);
  if (st == CUSCI_OK)
    st = frequencies(ctx, fn, &s, fs, &fr);
  if (st == CUSCI_OK)
    st = times(ctx, fn, &s, fs, t);
  st = cusci__sig_give_two(ctx, fn, st, fr, f, res, out);
  cusci_array_release(X), cusci_array_release(P);
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

cusci_status cusci_signal_spectrogram(cusci_ctx *ctx, const cusci_array *x, double fs, int64_t nperseg, int axis, const cusci_signal_spectral_opts *opts,
                                      cusci_signal_spectrogram_mode mode, cusci_array **f, cusci_array **t, cusci_array **sxx)
{
  static const char fn[] = "cusci_signal_spectrogram";
  CUSCI_ENTRY(ctx, fn, x, f, t, sxx);
  if ((unsigned)mode > CUSCI_SIGNAL_SPECTROGRAM_PHASE)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "mode %d is not one of psd, complex, magnitude, angle and phase", (int)mode);
  if (opts && opts->average)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a spectrogram keeps its segments: average does not apply");
  plan_in in;
  CUSCI_TRY(welch_in(ctx, fn, opts, "tukey,0.25", 8, &in));
  in.amplitude = mode != CUSCI_SIGNAL_SPECTROGRAM_PSD;
  static const int ops[] = { CUSCI__SIG_SPEC_POWER, CUSCI__SIG_SPEC_COMPLEX, CUSCI__SIG_SPEC_MAGNITUDE, CUSCI__SIG_SPEC_ANGLE, CUSCI__SIG_SPEC_PHASE };
  return short_time(ctx, fn, x, fs, nperseg, axis, &in, ops[mode], f, t, sxx);
}

cusci_status cusci_signal_stft(cusci_ctx *ctx, const cusci_array *x, double fs, int64_t nperseg, int axis, const cusci_signal_stft_opts *opts,
                               cusci_array **f, cusci_array **t, cusci_array **zxx)
{
  static const char fn[] = "cusci_signal_stft";
  CUSCI_ENTRY(ctx, fn, x, f, t, zxx);
  static const cusci_signal_stft_opts none = { 0 };
  const cusci_signal_stft_opts *o = opts ? opts : &none;
  if ((unsigned)o->boundary > CUSCI_SIGNAL_STFT_BOUNDARY_NONE)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "boundary %d is not one of zeros, even, odd, constant and none", (int)o->boundary);
  const plan_in in = { .dflt_window = "hann", .window = o->window, .win = o->win, .noverlap = o->noverlap, .nfft = o->nfft, .overlap_div = 2,
                       .twosided = o->return_twosided, .ext = o->boundary == CUSCI_SIGNAL_STFT_BOUNDARY_NONE ? -1 : (int)o->boundary,
                       .padded = !o->unpadded, .density = o->psd_scaling, .amplitude = true,
                       .trend = !o->detrend ? CUSCI__SIG_TREND_NONE : o->linear_trend ? CUSCI__SIG_TREND_LINEAR : CUSCI__SIG_TREND_CONSTANT };
  return short_time(ctx, fn, x, fs, nperseg, axis, &in, CUSCI__SIG_SPEC_COMPLEX, f, t, zxx);
}

/* istft's frames: Zxx's (lines, nseg, nfreq) inverse transforms of nfft. */
static cusci_status inverse_frames(cusci_ctx *ctx, const cusci_array *z, int fa, int ta, cusci_dtype cdt, bool twosided, int64_t nfft, int64_t *lines,
                                   cusci_array **xs)
{
  const int nd = cusci_array_ndim(z);
  int perm[32];
  for (int i = 0, j = 0; i < nd; i++)
    if (i != fa && i != ta)
      perm[j++] = i;
  perm[nd - 2] = ta, perm[nd - 1] = fa;
  const int64_t nseg = cusci_array_shape(z)[ta], nfreq = cusci_array_shape(z)[fa];
  *lines = cusci_array_size(z) / (nseg * nfreq); /* both positive */
  cusci_array *tz = NULL, *c = NULL, *r = NULL;
  CUSCI_TRY(cusci_array_transpose(ctx, (cusci_array *)z, perm, &tz));
  cusci_status st = cusci__sig_contiguous(ctx, tz, cdt, &c);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, c, 3, (const int64_t[]){ *lines, nseg, nfreq }, &r);
  if (st == CUSCI_OK)
    st = twosided ? cusci_fft_ifft(ctx, r, nfft, -1, CUSCI_FFT_BACKWARD, xs) : cusci_fft_irfft(ctx, r, nfft, -1, CUSCI_FFT_BACKWARD, xs);
  cusci_array_release(tz), cusci_array_release(c), cusci_array_release(r);
  return st;
}

cusci_status cusci_signal_istft(cusci_ctx *ctx, const cusci_array *zxx, double fs, int freq_axis, int time_axis, const cusci_signal_istft_opts *opts,
                                cusci_array **t, cusci_array **x)
{
  static const char fn[] = "cusci_signal_istft";
  CUSCI_ENTRY(ctx, fn, zxx, t, x);
  static const cusci_signal_istft_opts none = { 0 };
  const cusci_signal_istft_opts *o = opts ? opts : &none;
  CUSCI_TRY(cusci_check_array(ctx, fn, "Zxx", zxx));
  const int nd = cusci_array_ndim(zxx);
  if (nd < 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "Zxx must have at least 2 dimensions (frequencies and segments)");
  int fa = 0, ta = 0;
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "Zxx", nd, freq_axis, &fa));
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "Zxx", nd, time_axis, &ta));
  if (fa == ta)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "freq_axis and time_axis must differ (both are axis %d)", fa);
  if (!(fs > 0) || !isfinite(fs))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fs %g must be positive and finite", fs);
  const int64_t nseg = cusci_array_shape(zxx)[ta], nfreq = cusci_array_shape(zxx)[fa];
  if (nseg == 0 || nfreq == 0 || cusci_array_size(zxx) == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "Zxx is empty");
  const bool onesided = !o->input_twosided;
  const int64_t n_default = onesided ? 2 * (nfreq - 1) : nfreq;
  if (o->nperseg < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nperseg %lld must be positive (0: the default)", (long long)o->nperseg);
  if (o->win && o->window)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "opts gives both a window name and a window array");
  int64_t nperseg = o->nperseg ? o->nperseg : n_default;
  if (nperseg >= 1 && o->win)
    CUSCI_TRY(check_window_array(ctx, fn, o->win, &nperseg));
  if (nperseg < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nperseg %lld from Zxx's %lld frequencies is not positive: give nperseg", (long long)nperseg,
                          (long long)nfreq);
  int64_t nfft = o->nfft;
  if (nfft == 0)
    nfft = onesided && nperseg == n_default + 1 ? nperseg : n_default;
  else if (nfft < nperseg)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nfft %lld must be at least nperseg %lld", (long long)nfft, (long long)nperseg);
  if (nfft < nperseg)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nperseg %lld is larger than the transforms (%lld points): give nfft", (long long)nperseg,
                          (long long)nfft);
  int64_t noverlap = 0;
  CUSCI_TRY(overlap_of(ctx, fn, o->noverlap, 2, nperseg, &noverlap));
  const int64_t step = nperseg - noverlap;

  /* SciPy's Zxx + 0j: complex64 for single precision, else complex128 */
  cusci_dtype rdt, wdt;
  work_dtypes(cusci_array_dtype(zxx), &rdt, &wdt);
  const cusci_dtype cdt = rdt == CUSCI_FLOAT32 ? CUSCI_COMPLEX64 : CUSCI_COMPLEX128;
  double *w = NULL;
  CUSCI_TRY(segment_window(ctx, fn, o->window ? o->window : "hann", o->win, nperseg, &w));
  double sw = 0, sw2 = 0;
  for (int64_t i = 0; i < nperseg; i++)
    sw += w[i], sw2 += w[i] * w[i];
  const double scale = o->psd_scaling ? sqrt(fs * sw2) : sw;
  cusci_array *win = NULL, *xs = NULL, *y = NULL, *res = NULL;
  cusci_status st = cusci__sig_upload_real(ctx, w, 1, &nperseg, rdt, &win);
  free(w);
  int64_t lines = 0;
  if (st == CUSCI_OK)
    st = inverse_frames(ctx, zxx, fa, ta, cdt, !onesided, nfft, &lines, &xs);
  /* the output: nperseg + (nseg - 1) step samples, less nperseg / 2 at
   * each end with the boundary */
  const int64_t half = o->no_boundary ? 0 : nperseg / 2, nout = nperseg + (nseg - 1) * step - 2 * half;
  const cusci_dtype ydt = onesided ? rdt : cdt;
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, 2, (const int64_t[]){ lines, nout }, ydt, &y);
  if (st == CUSCI_OK) {
    const int prec = cusci__sig_prec(ydt);
    if (cusci_ctx_device(ctx) >= 0)
      st = launched(ctx, fn, "the overlap-add kernel",
                    cusci__sig_overlap_add_gpu(cusci_ctx_stream(ctx), prec, lines, nseg, nperseg, nfft, step, half, nout, scale, cusci_array_data(win),
                                               cusci_array_data(xs), cusci_array_data(y)));
    else
      cusci__sig_overlap_add(prec, lines, nseg, nperseg, nfft, step, half, nout, scale, cusci_array_data(win), cusci_array_data(xs),
                             cusci_array_data(y));
  }
  /* Zxx's other extents, the samples last; then at time_axis (one less
   * after a frequency axis before it), as SciPy puts them back */
  int64_t shape[32];
  int k = 0;
  for (int i = 0; i < nd; i++)
    if (i != fa && i != ta)
      shape[k++] = cusci_array_shape(zxx)[i];
  shape[k++] = nout;
  const int dest = ta == nd - 1 ? k - 1 : fa < ta ? ta - 1 : ta;
  int perm[32];
  for (int i = 0, j = 0; i < k; i++)
    perm[i] = i == dest ? k - 1 : j++;
  cusci_array *v = NULL, *tv = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, y, k, shape, &v);
  if (st == CUSCI_OK)
    st = cusci_array_transpose(ctx, v, perm, &tv);
  if (st == CUSCI_OK)
    st = cusci__sig_contiguous(ctx, tv, ydt, &res);
  /* the samples' times (SciPy's arange(x.shape[0]) / fs counts the first
   * axis of a multichannel result: these are the samples') */
  double *tt = st == CUSCI_OK ? malloc(sizeof *tt * (size_t)(nout ? nout : 1)) : NULL;
  if (st == CUSCI_OK && !tt)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  for (int64_t i = 0; tt && i < nout; i++)
    tt[i] = (double)i / fs;
  if (st == CUSCI_OK)
    st = give_vector(ctx, fn, tt, nout, t);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, res, x);
  else
    cusci_array_release(res);
  cusci_array *all[] = { win, xs, y, v, tv };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  return st;
}

cusci_status cusci_signal_vectorstrength(cusci_ctx *ctx, const cusci_array *events, const cusci_array *period, cusci_array **strength,
                                         cusci_array **phase)
{
  static const char fn[] = "cusci_signal_vectorstrength";
  CUSCI_ENTRY(ctx, fn, events, period, strength, phase);
  CUSCI_TRY(cusci_check_array(ctx, fn, "events", events));
  CUSCI_TRY(cusci_check_array(ctx, fn, "period", period));
  if (cusci_array_ndim(events) > 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "events must be 1-d (it has %d dimensions)", cusci_array_ndim(events));
  if (cusci_array_ndim(period) > 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "period must be 0-d or 1-d (it has %d dimensions)", cusci_array_ndim(period));
  if (cusci_dtype_kind(cusci_array_dtype(events)) == 'c' || cusci_dtype_kind(cusci_array_dtype(period)) == 'c')
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "events and period must be real");
  const int64_t np_ = cusci_array_size(period), ne = cusci_array_size(events);
  if (np_ == 0 || ne == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "events and period must not be empty");
  double complex *hp = NULL;
  CUSCI_TRY(cusci__sig_host_values(ctx, fn, "period", period, &hp));
  double *w = malloc(sizeof *w * (size_t)np_);
  cusci_status st = w ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  for (int64_t i = 0; st == CUSCI_OK && i < np_; i++) {
    if (!(creal(hp[i]) > 0))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "periods must be positive (period[%lld] = %g)", (long long)i, creal(hp[i]));
    else
      w[i] = 2 * M_PI / creal(hp[i]);
  }
  free(hp);
  /* exp(1j (2 pi / p) e), (periods, events), its mean over the events */
  cusci_array *wd = NULL, *ev = NULL, *arg = NULL, *z = NULL, *v = NULL, *mean = NULL, *s = NULL, *ph = NULL;
  if (st == CUSCI_OK)
    st = cusci__sig_upload_real(ctx, w, 2, (const int64_t[]){ np_, 1 }, CUSCI_FLOAT64, &wd);
  free(w);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, (cusci_array *)events, 2, (const int64_t[]){ 1, ne }, &ev);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, wd, ev, &arg);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_complex(0, 1), cusci_operand_array(arg), &z);
  if (st == CUSCI_OK)
    st = cusci_exp(ctx, z, &v);
  if (st == CUSCI_OK)
    st = cusci_mean(ctx, v, &(cusci_reduce_opts){ .naxes = 1, .axes = (const int[]){ 1 } }, &mean);
  /* a 0-d period gives 0-d results, as SciPy's scalars */
  cusci_array *m0 = NULL;
  if (st == CUSCI_OK && cusci_array_ndim(period) == 0)
    st = cusci_array_reshape(ctx, mean, 0, NULL, &m0);
  if (st == CUSCI_OK)
    st = cusci_abs(ctx, m0 ? m0 : mean, &s);
  if (st == CUSCI_OK)
    st = cusci_angle(ctx, m0 ? m0 : mean, &ph);
  st = cusci__sig_give_two(ctx, fn, st, s, strength, ph, phase);
  cusci_array *all[] = { wd, ev, arg, z, v, mean, m0 };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  return st;
}

/* a as a contiguous 1-d float64 array. */
static cusci_status flat64(cusci_ctx *ctx, const cusci_array *a, cusci_array **out)
{
  return cusci__sig_contiguous(ctx, a, CUSCI_FLOAT64, out);
}

cusci_status cusci_signal_lombscargle(cusci_ctx *ctx, const cusci_array *x, const cusci_array *y, const cusci_array *freqs,
                                      const cusci_signal_lombscargle_opts *opts, cusci_array **pgram)
{
  static const char fn[] = "cusci_signal_lombscargle";
  CUSCI_ENTRY(ctx, fn, x, y, freqs, pgram);
  static const cusci_signal_lombscargle_opts none = { 0 };
  const cusci_signal_lombscargle_opts *o = opts ? opts : &none;
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  CUSCI_TRY(cusci_check_array(ctx, fn, "y", y));
  CUSCI_TRY(cusci_check_array(ctx, fn, "freqs", freqs));
  if (o->weights)
    CUSCI_TRY(cusci_check_array(ctx, fn, "weights", o->weights));
  if ((unsigned)o->normalize > CUSCI_SIGNAL_LOMBSCARGLE_AMPLITUDE)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "normalize %d is not one of power, normalize and amplitude", (int)o->normalize);
  const int64_t n = cusci_array_size(x), nf = cusci_array_size(freqs);
  const bool same = cusci_array_ndim(y) == 1 && cusci_array_size(y) == n &&
                    (!o->weights || (cusci_array_ndim(o->weights) == 1 && cusci_array_size(o->weights) == n));
  if (cusci_array_ndim(x) != 1 || n == 0 || !same)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "x, y and weights must be 1-d arrays of one nonzero length");
  if (cusci_array_ndim(freqs) != 1 || nf == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "freqs must be a 1-d array of nonzero length");
  const cusci_array *in[] = { x, y, freqs, o->weights };
  for (int i = 0; i < 4; i++)
    if (in[i] && cusci_dtype_kind(cusci_array_dtype(in[i])) == 'c')
      return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "x, y, freqs and weights must be real");
  cusci_array *xd = NULL, *yd = NULL, *fd = NULL, *wd = NULL, *wn = NULL, *sum = NULL, *low = NULL, *p = NULL;
  cusci_status st = flat64(ctx, x, &xd);
  if (st == CUSCI_OK)
    st = flat64(ctx, y, &yd);
  if (st == CUSCI_OK)
    st = flat64(ctx, freqs, &fd);
  if (st == CUSCI_OK && o->weights)
    st = flat64(ctx, o->weights, &wd);
  else if (st == CUSCI_OK)
    st = cusci_array_ones(ctx, 1, &n, CUSCI_FLOAT64, &wd);
  /* the weights: nonnegative, a positive sum, scaled to sum to 1 */
  double total = 0, least = 0;
  if (st == CUSCI_OK)
    st = cusci_sum(ctx, wd, NULL, &sum);
  if (st == CUSCI_OK)
    st = cusci_min(ctx, wd, NULL, &low);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, sum, &total, sizeof total);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, low, &least, sizeof least);
  if (st == CUSCI_OK && !(least >= 0 && total > 0))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the weights must be nonnegative with a positive sum (least %g, sum %g)", least, total);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(wd), cusci_operand_float(1.0 / total), &wn); /* wd may be the caller's */
  const int norm = (int)o->normalize;
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, 1, &nf, norm == CUSCI__SIG_LS_AMPLITUDE ? CUSCI_COMPLEX128 : CUSCI_FLOAT64, &p);
  if (st == CUSCI_OK) {
    const double *xp = cusci_array_data(xd), *yp = cusci_array_data(yd), *wp = cusci_array_data(wn), *fp = cusci_array_data(fd);
    if (cusci_ctx_device(ctx) >= 0)
      st = launched(ctx, fn, "the Lomb-Scargle kernel",
                    cusci__sig_lombscargle_gpu(cusci_ctx_stream(ctx), n, xp, yp, wp, nf, fp, o->floating_mean, norm, cusci_array_data(p)));
    else
      cusci__sig_lombscargle_all(n, xp, yp, wp, nf, fp, o->floating_mean, norm, cusci_array_data(p));
  }
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, p, pgram);
  else
    cusci_array_release(p);
  cusci_array *all[] = { xd, yd, fd, wd, wn, sum, low };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  return st;
}
