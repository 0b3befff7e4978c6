/*
 * libsignal/decimate.c: decimate of signal.h, SciPy's: an order-n
 * Chebyshev type I low-pass (0.05 dB ripple, cutoff 0.8 / q) as second-
 * order sections, run forward and backward (sosfiltfilt) or forward
 * (sosfilt), then every q-th sample; or a Hamming-windowed FIR filter of
 * n + 1 taps through resample_poly or upfirdn.
 *
 * The Chebyshev sections are designed on the host as SciPy's cheby1 does:
 * the analog prototype's poles (cheb1ap), the low-pass transform to the
 * prewarped cutoff, the bilinear transform, and zpk2sos's "nearest"
 * pairing (the poles closest to the unit circle in the last section, the
 * gain in the first).
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/kit/dtypes.h>
#include <cusci/signal.h>

/* The index of the pole (or zero, real only when `real`) of v[0..n-1]
 * (live[i]) nearest to `to`, or closest to the unit circle when to is
 * NAN. -1 when none. */
static int64_t pick(const double complex *v, const bool *live, int64_t n, double complex to, bool real)
{
  int64_t best = -1;
  double bd = INFINITY;
  for (int64_t i = 0; i < n; i++) {
    if (!live[i] || (real && cimag(v[i]) != 0))
      continue;
    const double d = isnan(creal(to)) ? fabs(1 - cabs(v[i])) : cabs(v[i] - to);
    if (d < bd)
      bd = d, best = i;
  }
  return best;
}

/* cheby1(N, rp, Wn, output='sos') of a digital low-pass into sos
 * ((N + 1) / 2 rows of 6). false when memory runs out. */
static bool cheby1_sos(int64_t N, double rp, double Wn, double *sos)
{
  const double pi = 3.14159265358979323846;
  const int64_t nsec = (N + 1) / 2, np2 = 2 * nsec;
  double complex *p = calloc((size_t)np2, sizeof *p), *z = calloc((size_t)np2, sizeof *z);
  bool *pl = calloc((size_t)np2, sizeof *pl), *zl = calloc((size_t)np2, sizeof *zl);
  if (!p || !z || !pl || !zl) {
    free(p), free(z), free(pl), free(zl);
    return false;
  }
  /* cheb1ap: p = -sinh(mu + j theta), theta = pi m / (2N), m = -N+1,
   * -N+3, ..., N-1; k = prod(-p), over sqrt(1 + eps^2) for an even N. */
  const double eps = sqrt(pow(10.0, 0.1 * rp) - 1), mu = asinh(1 / eps) / (double)N;
  double complex k = 1;
  for (int64_t i = 0; i < N; i++) {
    const double theta = pi * (double)(-N + 1 + 2 * i) / (double)(2 * N);
    p[i] = -csinh(mu + I * theta);
    k *= -p[i];
  }
  double kr = creal(k);
  if (N % 2 == 0)
    kr /= sqrt(1 + eps * eps);
  /* lp2lp to the warped cutoff (fs 2), then the bilinear transform: N zeros
   * at -1, p -> (4 + p) / (4 - p), k times wo^N / prod(4 - p). */
  const double wo = 4 * tan(pi * Wn / 2);
  double complex den = 1;
  for (int64_t i = 0; i < N; i++) {
    p[i] *= wo;
    kr *= wo;
    den *= 4 - p[i];
    p[i] = (4 + p[i]) / (4 - p[i]);
    z[i] = -1;
  }
  kr *= creal(1 / den);
  /* zpk2sos, pairing nearest: an odd count padded with a pole and a zero
   * at 0; of each conjugate pair only the one of positive imaginary part
   * kept (its conjugate joins it in its section). */
  const int64_t n = N % 2 ? N + 1 : N;
  for (int64_t i = 0; i < n; i++) {
    pl[i] = cimag(p[i]) >= 0 || fabs(cimag(p[i])) < 1e-15 * cabs(p[i]);
    if (pl[i] && fabs(cimag(p[i])) < 1e-15 * cabs(p[i]))
      p[i] = creal(p[i]);
    zl[i] = true;
  }
  for (int64_t si = nsec - 1; si >= 0; si--) {
    const int64_t i1 = pick(p, pl, n, NAN, false);
    const double complex p1 = p[i1];
    pl[i1] = false;
    double complex p2, z1, z2 = 0;
    bool one_zero = false, real_left = false;
    for (int64_t i = 0; i < n; i++)
      real_left |= pl[i] && cimag(p[i]) == 0;
    if (cimag(p1) == 0 && !real_left) {
      /* The last real pole: with the nearest real zero and the origin. */
      const int64_t j = pick(z, zl, n, p1, true);
      z1 = z[j], zl[j] = false, p2 = 0, one_zero = true;
    } else {
      if (cimag(p1) == 0) {
        int64_t i2 = -1;
        double bd = INFINITY;
        for (int64_t i = 0; i < n; i++)
          if (pl[i] && cimag(p[i]) == 0 && fabs(1 - cabs(p[i])) < bd)
            bd = fabs(1 - cabs(p[i])), i2 = i;
        p2 = p[i2], pl[i2] = false;
      } else {
        p2 = conj(p1);
      }
      const int64_t j1 = pick(z, zl, n, p1, false);
      z1 = z[j1], zl[j1] = false;
      const int64_t j2 = pick(z, zl, n, p1, true);
      if (j2 >= 0)
        z2 = z[j2], zl[j2] = false;
      else
        one_zero = true;
    }
    double *s = sos + 6 * si;
    if (one_zero && cimag(p1) == 0 && p2 == 0) {
      /* poly([z1, 0]), poly([p1, 0]) */
      s[0] = 1, s[1] = -creal(z1), s[2] = 0;
      s[3] = 1, s[4] = -creal(p1), s[5] = 0;
    } else {
      s[0] = 1, s[1] = -creal(z1 + z2), s[2] = creal(z1 * z2);
      if (one_zero)
        s[0] = 0, s[1] = 1, s[2] = -creal(z1);
      s[3] = 1, s[4] = -creal(p1 + p2), s[5] = creal(p1 * p2);
    }
  }
  for (int j = 0; j < 3; j++)
    sos[j] *= kr;
  free(p), free(z), free(pl), free(zl);
  return true;
}

cusci_status cusci_signal_decimate(cusci_ctx *ctx, const cusci_array *x, int64_t q, int64_t n, cusci_signal_ftype ftype, bool zero_phase, int axis,
                                   cusci_array **out)
{
  static const char fn[] = "cusci_signal_decimate";
  CUSCI_ENTRY(ctx, fn, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (q < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "q is %lld: it must be at least 1", (long long)q);
  if (n < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n is %lld: it must be 0 (the default) or more", (long long)n);
  if (ftype != CUSCI_SIGNAL_FTYPE_IIR && ftype != CUSCI_SIGNAL_FTYPE_FIR)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ftype %d is not iir or fir", (int)ftype);
  const int nd = cusci_array_ndim(x);
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "x", nd, axis, &axis));
  const cusci_dtype xt = cusci_array_dtype(x);
  const cusci_dtype dt = cusci_dtype_is_inexact(xt) && xt != CUSCI_FLOAT16 ? xt : CUSCI_FLOAT64;
  const int64_t len = cusci_array_shape(x)[axis], n_out = len / q + (len % q != 0);
  cusci_array *y = NULL, *v = NULL, *f = NULL, *fc = NULL, *xc = NULL;
  cusci_status st = CUSCI_OK;
  int64_t s0[SIG_MAXD], e0[SIG_MAXD], step[SIG_MAXD];
  for (int i = 0; i < nd; i++)
    s0[i] = e0[i] = CUSCI_SLICE_NONE, step[i] = 1;
  if (ftype == CUSCI_SIGNAL_FTYPE_IIR) {
    const int64_t order = n ? n : 8, nsec = (order + 1) / 2;
    double *sos = calloc((size_t)(6 * nsec), sizeof *sos);
    if (!sos || !cheby1_sos(order, 0.05, 0.8 / (double)q, sos))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the filter");
    const int64_t ss[2] = { nsec, 6 };
    /* SciPy casts the sections to x's dtype. */
    if (st == CUSCI_OK)
      st = cusci__sig_upload_real(ctx, sos, 2, ss, cusci_dtype_real_of(dt), &fc);
    free(sos);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, (cusci_array *)x, dt, false, &xc);
    if (st == CUSCI_OK)
      st = zero_phase ? cusci_signal_sosfiltfilt(ctx, fc, xc, axis, NULL, &y) : cusci_signal_sosfilt(ctx, fc, xc, axis, NULL, &y, NULL);
    step[axis] = q;
  } else {
    const int64_t taps = (n ? n : 20 * q) + 1;
    double *b = malloc(sizeof *b * (size_t)taps);
    if (!b)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the filter");
    if (st == CUSCI_OK) {
      cusci__sig_firwin(taps, 1.0 / (double)q, CUSCI__SIG_WIN_HAMMING, b);
      /* Rounded to the result's dtype, as SciPy's b. */
      if (cusci_dtype_is_single(dt))
        for (int64_t i = 0; i < taps; i++)
          b[i] = (float)b[i];
    }
    if (st == CUSCI_OK && zero_phase) {
      st = cusci__sig_resample_poly(ctx, fn, x, 1, q, axis, b, taps, dt, 0, 0, &y);
    } else if (st == CUSCI_OK) {
      st = cusci__sig_upload_real(ctx, b, 1, &taps, cusci_dtype_real_of(dt), &fc);
      if (st == CUSCI_OK)
        st = cusci_signal_upfirdn(ctx, fc, x, 1, q, axis, &y);
      e0[axis] = n_out;
    }
    free(b);
  }
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, y, s0, e0, step, &v);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, v, out);
  SIG_RELEASE(y, v, f, fc, xc);
  return st;
}
