/*
 * libsignal/firdesign.c: scipy.signal's FIR design beyond windowed sincs:
 * firwin2 (frequency sampling), firls (least squares), remez
 * (Parks-McClellan) and minimum_phase. Checked here as SciPy checks them,
 * designed on the host by reference/signal/firdesign.c and remez.c,
 * returned as float64 on the context's device.
 */
#include "libsignal/internal.h"

#include <math.h>
#include <stdlib.h>

#include <cusci/signal.h>

#include "reference/signal/design.h"

/* n values of v (name) finite, else CUSCI_ERR_VALUE. */
static cusci_status all_finite(cusci_ctx *ctx, const char *fn, const char *name, const double *v, int64_t n)
{
  for (int64_t i = 0; i < n; i++)
    if (!isfinite(v[i]))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%s[%lld] %g is not finite", name, (long long)i, v[i]);
  return CUSCI_OK;
}

static cusci_status firwin2_check(cusci_ctx *ctx, const char *fn, int64_t numtaps, int64_t nf, const double *freq, const double *gain,
                                  const cusci_signal_firwin2_opts *o, double nyq)
{
  if (numtaps < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld: a filter has at least one tap", (long long)numtaps);
  if (numtaps > (INT64_C(1) << 30))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld is more than 2^30 taps", (long long)numtaps);
  if (nf < 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nfreq %lld: freq and gain need at least the points 0 and fs/2", (long long)nf);
  if (o->nfreqs != 0 && numtaps >= o->nfreqs)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nfreqs %lld must be more than numtaps %lld", (long long)o->nfreqs, (long long)numtaps);
  if (o->nfreqs < 0 || o->nfreqs > (INT64_C(1) << 31))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nfreqs %lld must lie in (numtaps, 2^31] (0: the default)", (long long)o->nfreqs);
  CUSCI_TRY(all_finite(ctx, fn, "freq", freq, nf));
  CUSCI_TRY(all_finite(ctx, fn, "gain", gain, nf));
  if (freq[0] != 0 || freq[nf - 1] != nyq)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "freq runs from %g to %g: it must start with 0 and end with fs/2 = %g", freq[0], freq[nf - 1], nyq);
  for (int64_t i = 0; i + 1 < nf; i++) {
    if (freq[i + 1] < freq[i])
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "freq[%lld] %g: the values in freq must be nondecreasing", (long long)(i + 1), freq[i + 1]);
    if (i + 2 < nf && freq[i] == freq[i + 2])
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "freq[%lld] %g: a value in freq must not occur more than twice", (long long)i, freq[i]);
  }
  if (freq[1] == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "freq[1] is 0: the value 0 must not be repeated in freq");
  if (freq[nf - 2] == nyq)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "freq[%lld] is fs/2: the value fs/2 must not be repeated in freq", (long long)(nf - 2));
  const bool even = numtaps % 2 == 0;
  if (!o->antisymmetric && even && gain[nf - 1] != 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld: a type II filter must have zero gain at the Nyquist frequency", (long long)numtaps);
  if (o->antisymmetric && !even && (gain[0] != 0 || gain[nf - 1] != 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld: a type III filter must have zero gain at zero and Nyquist frequencies",
                          (long long)numtaps);
  if (o->antisymmetric && even && gain[0] != 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld: a type IV filter must have zero gain at zero frequency", (long long)numtaps);
  return CUSCI_OK;
}

cusci_status cusci_signal_firwin2(cusci_ctx *ctx, int64_t numtaps, int64_t nfreq, const double *freq, const double *gain,
                                  const cusci_signal_firwin2_opts *opts, cusci_array **h)
{
  static const char fn[] = "cusci_signal_firwin2";
  CUSCI_ENTRY(ctx, fn, freq, gain, h);
  const cusci_signal_firwin2_opts o = opts ? *opts : (cusci_signal_firwin2_opts){0};
  CUSCI_TRY(cusci__sig_check_fs(ctx, fn, o.fs, false));
  const double nyq = o.fs > 0 ? 0.5 * o.fs : 1.0;
  CUSCI_TRY(firwin2_check(ctx, fn, numtaps, nfreq, freq, gain, &o, nyq));
  const int64_t nfreqs = o.nfreqs ? o.nfreqs : 1 + ((int64_t)1 << (int)ceil(log((double)numtaps) / log(2.0)));
  double *win = NULL;
  CUSCI_TRY(cusci__sig_window_host(ctx, fn, o.window ? o.window : "hamming", numtaps, false, &win));
  double *taps = malloc(sizeof *taps * (size_t)numtaps);
  cusci_status st = CUSCI_OK;
  int rc = taps ? cusci__sig_firwin2(numtaps, freq, gain, nfreq, nfreqs, o.antisymmetric, nyq, win, taps) : CUSCI__SIG_DESIGN_MEMORY;
  if (rc != CUSCI__SIG_DESIGN_OK)
    st = cusci__sig_design_fail(ctx, fn, rc);
  st = cusci__sig_give_real(ctx, fn, st, taps, numtaps, h);
  free(taps), free(win);
  return st;
}

/* firls' and remez's band edges: 2 nbands values, finite, in [0, nyq],
 * as normalized copies (divided by scale) in a new host array *out. */
static cusci_status band_edges(cusci_ctx *ctx, const char *fn, int64_t nbands, const double *bands, double nyq, double scale, double **out)
{
  *out = NULL;
  if (nbands < 1 || nbands > (INT64_C(1) << 20))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nbands %lld: at least one band (and at most 2^20)", (long long)nbands);
  CUSCI_TRY(all_finite(ctx, fn, "bands", bands, 2 * nbands));
  for (int64_t i = 0; i < 2 * nbands; i++)
    if (bands[i] < 0 || bands[i] > nyq)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "bands[%lld] %g: band edges must lie in [0, fs/2 = %g]", (long long)i, bands[i], nyq);
  double *e = malloc(sizeof *e * (size_t)(2 * nbands));
  if (!e)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  for (int64_t i = 0; i < 2 * nbands; i++)
    e[i] = bands[i] / scale;
  *out = e;
  return CUSCI_OK;
}

/* nbands weights (NULL: ones) checked nonnegative (positive when
 * positive is true) into a new host array *out. */
static cusci_status band_weights(cusci_ctx *ctx, const char *fn, int64_t nbands, const double *weight, bool positive, double **out)
{
  *out = malloc(sizeof **out * (size_t)nbands);
  if (!*out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  for (int64_t i = 0; i < nbands; i++) {
    const double w = weight ? weight[i] : 1.0;
    if (!isfinite(w) || w < 0 || (positive && w == 0)) {
      free(*out), *out = NULL;
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "weight[%lld] %g must be %s and finite", (long long)i, w, positive ? "positive" : "non-negative");
    }
    (*out)[i] = w;
  }
  return CUSCI_OK;
}

static cusci_status firls_check(cusci_ctx *ctx, const char *fn, int64_t nbands, const double *e, const double *desired)
{
  for (int64_t i = 0; i < nbands; i++) {
    if (!(e[2 * i + 1] > e[2 * i]))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "band %lld [%g, %g]: bands must be monotonically nondecreasing and have width > 0", (long long)i,
                            e[2 * i], e[2 * i + 1]);
    if (i && e[2 * i] < e[2 * i - 2])
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "band %lld: bands must be monotonically nondecreasing", (long long)i);
    if (i && e[2 * i - 1] > e[2 * i])
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "band %lld: bands must not overlap", (long long)i);
  }
  for (int64_t i = 0; i < 2 * nbands; i++)
    if (!(desired[i] >= 0) || isinf(desired[i]))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "desired[%lld] %g must be non-negative and finite", (long long)i, desired[i]);
  return CUSCI_OK;
}

cusci_status cusci_signal_firls(cusci_ctx *ctx, int64_t numtaps, int64_t nbands, const double *bands, const double *desired, const double *weight,
                                double fs, cusci_array **h)
{
  static const char fn[] = "cusci_signal_firls";
  CUSCI_ENTRY(ctx, fn, bands, desired, h);
  if (numtaps < 1 || numtaps % 2 == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld must be odd and >= 1", (long long)numtaps);
  if (numtaps > 65535)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld: the normal equations of more than 65535 taps are too large", (long long)numtaps);
  CUSCI_TRY(cusci__sig_check_fs(ctx, fn, fs, false));
  const double nyq = fs > 0 ? 0.5 * fs : 1.0;
  double *e = NULL, *w = NULL, *taps = NULL;
  cusci_status st = band_edges(ctx, fn, nbands, bands, nyq, nyq, &e);
  if (st == CUSCI_OK)
    st = firls_check(ctx, fn, nbands, e, desired);
  if (st == CUSCI_OK)
    st = band_weights(ctx, fn, nbands, weight, false, &w);
  if (st == CUSCI_OK && !(taps = malloc(sizeof *taps * (size_t)numtaps)))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld taps", (long long)numtaps);
  int rc;
  if (st == CUSCI_OK && (rc = cusci__sig_firls(numtaps, e, desired, w, nbands, taps)) != CUSCI__SIG_DESIGN_OK)
    st = cusci__sig_design_fail(ctx, fn, rc);
  st = cusci__sig_give_real(ctx, fn, st, taps, numtaps, h);
  free(taps), free(w), free(e);
  return st;
}

cusci_status cusci_signal_remez(cusci_ctx *ctx, int64_t numtaps, int64_t nbands, const double *bands, const double *desired,
                                const cusci_signal_remez_opts *opts, cusci_array **h)
{
  static const char fn[] = "cusci_signal_remez";
  CUSCI_ENTRY(ctx, fn, bands, desired, h);
  const cusci_signal_remez_opts o = opts ? *opts : (cusci_signal_remez_opts){0};
  if ((unsigned)o.type > CUSCI_SIGNAL_REMEZ_HILBERT)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "type %d is not a cusci_signal_remez_type (bandpass, differentiator or hilbert)", (int)o.type);
  if (numtaps < 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld: the number of taps must be greater than 1", (long long)numtaps);
  if (numtaps > 65535)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld: more than 65535 taps", (long long)numtaps);
  if (o.maxiter < 0 || o.grid_density < 0 || o.grid_density > 4096)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "maxiter %d and grid_density %d must be positive (0: 25 and 16; grid_density at most 4096)",
                          o.maxiter, o.grid_density);
  CUSCI_TRY(cusci__sig_check_fs(ctx, fn, o.fs, false));
  const double fs = o.fs > 0 ? o.fs : 1.0;
  double *e = NULL, *w = NULL, *taps = NULL;
  cusci_status st = band_edges(ctx, fn, nbands, bands, fs / 2, fs, &e);
  for (int64_t i = 1; st == CUSCI_OK && i < 2 * nbands; i++)
    if (bands[i] < bands[i - 1])
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "bands[%lld] %g: bands must be monotonic starting at zero", (long long)i, bands[i]);
  if (st == CUSCI_OK)
    st = all_finite(ctx, fn, "desired", desired, nbands);
  if (st == CUSCI_OK)
    st = band_weights(ctx, fn, nbands, o.weight, true, &w);
  if (st == CUSCI_OK && !(taps = malloc(sizeof *taps * (size_t)numtaps)))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld taps", (long long)numtaps);
  int rc;
  if (st == CUSCI_OK && (rc = cusci__sig_remez(numtaps, e, desired, w, nbands, (int)o.type + 1, o.maxiter ? o.maxiter : 25,
                                               o.grid_density ? o.grid_density : 16, taps)) != CUSCI__SIG_DESIGN_OK)
    st = cusci__sig_design_fail(ctx, fn, rc);
  st = cusci__sig_give_real(ctx, fn, st, taps, numtaps, h);
  free(taps), free(w), free(e);
  return st;
}

cusci_status cusci_signal_minimum_phase(cusci_ctx *ctx, const cusci_array *h, const cusci_signal_minimum_phase_opts *opts, cusci_array **out)
{
  static const char fn[] = "cusci_signal_minimum_phase";
  CUSCI_ENTRY(ctx, fn, h, out);
  const cusci_signal_minimum_phase_opts o = opts ? *opts : (cusci_signal_minimum_phase_opts){0};
  const cusci_dtype dt = cusci_array_dtype(h);
  if (dt == CUSCI_COMPLEX64 || dt == CUSCI_COMPLEX128)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "h is %s: complex filters are not supported", cusci_dtype_name(dt));
  const int64_t n = cusci_array_size(h);
  if (cusci_array_ndim(h) != 1 || n <= 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "h must be 1-D and at least 3 samples long (it has %d dimensions, %lld values)",
                          cusci_array_ndim(h), (long long)n);
  if ((unsigned)o.method > CUSCI_SIGNAL_MINIMUM_PHASE_HILBERT)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "method %d must be homomorphic or hilbert", (int)o.method);
  const bool hilbert = o.method == CUSCI_SIGNAL_MINIMUM_PHASE_HILBERT;
  if (hilbert && o.whole)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "whole (SciPy's half=False) is only supported by the homomorphic method");
  if (n > (INT64_C(1) << 24))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "h has %lld taps, more than 2^24", (long long)n);
  const int64_t n_fft = o.n_fft ? o.n_fft : (int64_t)1 << (int)ceil(log2(2.0 * (double)(n - 1) / 0.01));
  if (n_fft < n || n_fft > (INT64_C(1) << 32))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n_fft %lld must be at least len(h) == %lld (and at most 2^32)", (long long)n_fft, (long long)n);
  double *hr;
  CUSCI_TRY(cusci__sig_host_reals(ctx, fn, "h", h, &hr));
  cusci_status st = CUSCI_OK;
  const int rc = cusci__sig_minimum_phase(hr, n, hilbert, n_fft, !o.whole, hr);
  if (rc != CUSCI__SIG_DESIGN_OK)
    st = cusci__sig_design_fail(ctx, fn, rc);
  st = cusci__sig_give_real(ctx, fn, st, hr, o.whole ? n : n / 2 + n % 2, out);
  free(hr);
  return st;
}
