/*
 * reference/signal/spectral.h: the short-time Fourier analysis' three
 * passes around the FFT, on C-contiguous arrays of one of the SDCZ
 * precisions (reference/signal/filter.h's `prec`): the frames (segments of
 * each line, the line extended at its ends, each segment detrended and
 * windowed), the spectrum of the frames' transforms (power, magnitude,
 * angle, unwrapped phase, scaled; optionally averaged over the segments or
 * with the segments last) and the overlap-add of inverse transforms. The
 * host backend (reference/signal/spectral.c) and the kernels
 * (kernels/signal/spectral.cu) share the per-element arithmetic below,
 * all in double and rounded once to the element type; they differ only
 * in the order of the segment sums of a frame's trend.
 */
#ifndef CUSCI_REFERENCE_SIGNAL_SPECTRAL_H
#define CUSCI_REFERENCE_SIGNAL_SPECTRAL_H

#include <math.h>
#include <stdint.h>

#include <cusci/kit/dtypes.h>

/* A frame's trend removed before the window. */
enum { CUSCI__SIG_TREND_NONE = 0, CUSCI__SIG_TREND_CONSTANT, CUSCI__SIG_TREND_LINEAR };
/* A line's extension at both ends (SciPy's zero_ext, even_ext, odd_ext and
 * const_ext), before the zeros of the padding. */
enum { CUSCI__SIG_EXTEND_ZEROS = 0, CUSCI__SIG_EXTEND_EVEN, CUSCI__SIG_EXTEND_ODD, CUSCI__SIG_EXTEND_CONSTANT };
/* What the spectrum pass makes of X (lines x nseg x nfreq): the power
 * |X|^2 factor[f] with the segments last (lines x nfreq x nseg), in X's
 * order, or averaged over the segments (lines x nfreq); X factor[f]
 * (complex), |X| factor[f], the angle of X, or that angle unwrapped along
 * the frequencies (numpy.unwrap), each with the segments last. */
enum {
  CUSCI__SIG_SPEC_POWER = 0,
  CUSCI__SIG_SPEC_POWER_SEGMENTS,
  CUSCI__SIG_SPEC_POWER_MEAN,
  CUSCI__SIG_SPEC_COMPLEX,
  CUSCI__SIG_SPEC_MAGNITUDE,
  CUSCI__SIG_SPEC_ANGLE,
  CUSCI__SIG_SPEC_PHASE
};
/* Sums of a window's squares at or below this leave an overlap-added
 * sample as it is (SciPy's istft, where the NOLA condition fails). */
#define CUSCI__SIG_NOLA_TINY 1e-10
/* The GPU's mean over the segments sums chunks of this many segments
 * first, into a work area of doubles (lines x chunks x nfreq). */
#define CUSCI__SIG_MEAN_CHUNK 128
CUSCI_HD int64_t cusci__sig_mean_work(int64_t lines, int64_t nseg, int64_t nfreq)
{
  return lines * ((nseg + CUSCI__SIG_MEAN_CHUNK - 1) / CUSCI__SIG_MEAN_CHUNK) * nfreq;
}

/* Element i of p (precision prec) as a complex double. */
CUSCI_HD cusci_c128 cusci__sig_ld(int prec, const void *p, int64_t i)
{
  cusci_c128 v;
  switch (prec) {
  case 0: v.re = ((const float *)p)[i], v.im = 0; break;
  case 1: v.re = ((const double *)p)[i], v.im = 0; break;
  case 2: v.re = ((const float *)p)[2 * i], v.im = ((const float *)p)[2 * i + 1]; break;
  default: v.re = ((const double *)p)[2 * i], v.im = ((const double *)p)[2 * i + 1]; break;
  }
  return v;
}

/* v rounded into element i of p (the real part for a real prec). */
CUSCI_HD void cusci__sig_st(int prec, void *p, int64_t i, cusci_c128 v)
{
  switch (prec) {
  case 0: ((float *)p)[i] = (float)v.re; break;
  case 1: ((double *)p)[i] = v.re; break;
  case 2: ((float *)p)[2 * i] = (float)v.re, ((float *)p)[2 * i + 1] = (float)v.im; break;
  default: ((double *)p)[2 * i] = v.re, ((double *)p)[2 * i + 1] = v.im; break;
  }
}

/* The real precision of prec. */
CUSCI_HD int cusci__sig_real_prec(int prec) { return prec & 1; }

/*
 * The sample at position p of a line of n samples extended by ext_n at
 * each end as ext and then by zeros: x[*i] (*i -1: zero), or, for an odd
 * extension, 2 x[*edge] - x[*i] (*edge -1 otherwise). n > ext_n.
 */
CUSCI_HD void cusci__sig_extended(int ext, int64_t ext_n, int64_t n, int64_t p, int64_t *i, int64_t *edge)
{
  const int64_t q = p - ext_n;
  *edge = -1;
  if (q >= 0 && q < n) {
    *i = q;
    return;
  }
  if (q >= n + ext_n || ext == CUSCI__SIG_EXTEND_ZEROS) {
    *i = -1;
    return;
  }
  const int64_t e = q < 0 ? 0 : n - 1;
  if (ext == CUSCI__SIG_EXTEND_CONSTANT) {
    *i = e;
    return;
  }
  *i = q < 0 ? -q : 2 * (n - 1) - q;
  if (ext == CUSCI__SIG_EXTEND_ODD)
    *edge = e;
}

/* That sample's value from x (prec). */
CUSCI_HD cusci_c128 cusci__sig_extended_value(int prec, const void *x, int ext, int64_t ext_n, int64_t n, int64_t p)
{
  int64_t i, e;
  cusci__sig_extended(ext, ext_n, n, p, &i, &e);
  cusci_c128 v;
  v.re = v.im = 0;
  if (i < 0)
    return v;
  v = cusci__sig_ld(prec, x, i);
  if (e >= 0) {
    const cusci_c128 a = cusci__sig_ld(prec, x, e);
    v.re = 2 * a.re - v.re, v.im = 2 * a.im - v.im;
  }
  return v;
}

/* A frame's value at j (of m) from its sample v: less the trend a + b (j -
 * (m - 1) / 2) (a the mean, b the slope), times the window's w. */
CUSCI_HD cusci_c128 cusci__sig_frame_value(cusci_c128 v, cusci_c128 a, cusci_c128 b, int64_t j, int64_t m, double w)
{
  const double c = (double)j - 0.5 * (double)(m - 1);
  v.re = (v.re - (a.re + b.re * c)) * w;
  v.im = (v.im - (a.im + b.im * c)) * w;
  return v;
}

/* The trend of a frame from its sums s0 = sum v_j and s1 = sum (j - (m -
 * 1) / 2) v_j: its mean *a and (linear) slope *b, the least-squares line. */
CUSCI_HD void cusci__sig_frame_trend(int trend, int64_t m, cusci_c128 s0, cusci_c128 s1, cusci_c128 *a, cusci_c128 *b)
{
  a->re = a->im = b->re = b->im = 0;
  if (trend == CUSCI__SIG_TREND_NONE)
    return;
  a->re = s0.re / (double)m, a->im = s0.im / (double)m;
  const double md = (double)m, q = md * (md * md - 1) / 12; /* sum of (j - (m - 1) / 2)^2 */
  if (trend == CUSCI__SIG_TREND_LINEAR && q > 0)
    b->re = s1.re / q, b->im = s1.im / q;
}

/* NumPy's floating remainder of a by b (the sign of b). */
CUSCI_HD double cusci__sig_fmod_floor(double a, double b)
{
  double r = fmod(a, b);
  if (r != 0 && ((b < 0) != (r < 0)))
    r += b;
  return r;
}

/* numpy.unwrap's correction of one step dd between neighbouring angles. */
CUSCI_HD double cusci__sig_unwrap_step(double dd)
{
  const double pi = 3.141592653589793238462643383279502884;
  double m = cusci__sig_fmod_floor(dd + pi, 2 * pi) - pi;
  if (m == -pi && dd > 0)
    m = pi;
  return fabs(dd) < pi ? 0 : m - dd;
}

/* One element of the spectrum pass (not the mean or the phase) from x and
 * the frequency's factor f. */
CUSCI_HD cusci_c128 cusci__sig_spec_value(int op, cusci_c128 x, double f)
{
  cusci_c128 r;
  r.im = 0;
  switch (op) {
  case CUSCI__SIG_SPEC_COMPLEX: r.re = x.re * f, r.im = x.im * f; break;
  case CUSCI__SIG_SPEC_MAGNITUDE: r.re = hypot(x.re, x.im) * f; break;
  case CUSCI__SIG_SPEC_ANGLE: case CUSCI__SIG_SPEC_PHASE: r.re = atan2(x.im, x.re); break;
  default: r.re = (x.re * x.re + x.im * x.im) * f; break;
  }
  return r;
}

/* Output sample p of the overlap-add of nseg frames of m (each frame's
 * row rowlen apart in xs, prec) placed step apart, each times scale and
 * the window w (real of prec): its sum over the frames that cover p,
 * divided by the sum of their windows' squares where that is not tiny. */
CUSCI_HD cusci_c128 cusci__sig_ola_value(int prec, const void *xs, const void *w, int64_t nseg, int64_t m, int64_t rowlen, int64_t step, int64_t p,
                                         double scale)
{
  const int rp = cusci__sig_real_prec(prec);
  int64_t lo = p < m ? 0 : (p - m) / step + 1, hi = p / step;
  if (hi > nseg - 1)
    hi = nseg - 1;
  cusci_c128 s;
  s.re = s.im = 0;
  double norm = 0;
  for (int64_t i = lo; i <= hi; i++) {
    const int64_t j = p - i * step;
    const double wj = cusci__sig_ld(rp, w, j).re;
    const cusci_c128 v = cusci__sig_ld(prec, xs, i * rowlen + j);
    s.re += v.re * scale * wj, s.im += v.im * scale * wj;
    norm += wj * wj;
  }
  if (norm > CUSCI__SIG_NOLA_TINY)
    s.re /= norm, s.im /= norm;
  return s;
}

/* SciPy's lombscargle normalizations. */
enum { CUSCI__SIG_LS_POWER = 0, CUSCI__SIG_LS_NORMALIZE, CUSCI__SIG_LS_AMPLITUDE };

/* The generalized Lomb-Scargle periodogram (Zechmeister and Kuerster,
 * 2009) at the angular frequency f of the n samples y at x with the
 * weights w (summing to 1), SciPy's sums in order: its power (or, for
 * AMPLITUDE, the complex amplitude). */
CUSCI_HD cusci_c128 cusci__sig_lombscargle(int64_t n, const double *x, const double *y, const double *w, double f, int floating, int norm)
{
  double Y = 0, YY = 0, CC = 0, CS = 0, C = 0, S = 0;
  for (int64_t i = 0; i < n; i++) {
    const double ft = f * x[i], c = cos(ft), s = sin(ft), wy = w[i] * y[i];
    Y += wy, YY += wy * y[i], CC += w[i] * (c * c), CS += w[i] * (c * s), C += w[i] * c, S += w[i] * s;
  }
  double SS = 1.0 - CC;
  if (floating)
    CC -= C * C, SS -= S * S, CS -= C * S;
  const double tau = 0.5 * atan2(2.0 * CS, CC - SS);
  double YC = 0, YS = 0, C2 = 0, S2 = 0, CC2 = 0;
  for (int64_t i = 0; i < n; i++) {
    const double ft = f * x[i] - tau, c = cos(ft), s = sin(ft), wy = w[i] * y[i];
    YC += wy * c, YS += wy * s, CC2 += w[i] * (c * c), C2 += w[i] * c, S2 += w[i] * s;
  }
  double SS2 = 1.0 - CC2;
  if (floating)
    YC -= Y * C2, YS -= Y * S2, CC2 -= C2 * C2, SS2 -= S2 * S2;
  const double epsneg = 1.1102230246251565e-16; /* numpy.finfo(float64).epsneg */
  if (CC2 < epsneg)
    CC2 = epsneg;
  if (SS2 < epsneg)
    SS2 = epsneg;
  const double a = YC / CC2, b = YS / SS2;
  cusci_c128 r;
  r.im = 0;
  if (norm == CUSCI__SIG_LS_AMPLITUDE) { /* (a + i b) exp(i tau) */
    const double ct = cos(tau), st = sin(tau);
    r.re = a * ct - b * st, r.im = a * st + b * ct;
    return r;
  }
  r.re = 2.0 * (a * YC + b * YS);
  if (norm == CUSCI__SIG_LS_POWER)
    r.re *= (double)n / 4.0;
  else
    r.re *= 0.5 / (floating ? YY - Y * Y : YY);
  return r;
}

#ifndef __CUDACC__
/* The host passes, for lines of x (lines x n, prec), frames y (lines x
 * nseg x m, prec) of segments step apart in the line extended by ext_n at
 * each end as ext (and zeros beyond), each less its trend and times the
 * window w (m reals of prec's real precision). */
void cusci__sig_frames(int prec, int64_t lines, int64_t n, int ext, int64_t ext_n, int64_t nseg, int64_t m, int64_t step, int trend, const void *w,
                       const void *x, void *y);
/* The spectrum op of X (complex of prec's precision, lines x nseg x nfreq)
 * with the factors f (nfreq reals) into P (reals, complex for COMPLEX). */
void cusci__sig_spectrum(int prec, int op, int64_t lines, int64_t nseg, int64_t nfreq, const void *f, const void *X, void *P);
/* The overlap-add of xs (lines x nseg rows of rowlen, the first m of each
 * the frame) into y (lines x nout): output j is sample first + j. */
void cusci__sig_overlap_add(int prec, int64_t lines, int64_t nseg, int64_t m, int64_t rowlen, int64_t step, int64_t first, int64_t nout,
                            double scale, const void *w, const void *xs, void *y);
/* lombscargle at nf angular frequencies into p (float64, complex128 for
 * AMPLITUDE). */
void cusci__sig_lombscargle_all(int64_t n, const double *x, const double *y, const double *w, int64_t nf, const double *freqs, int floating, int norm,
                                void *p);
#endif

#endif
