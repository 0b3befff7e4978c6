/*
 * libsignal/notch.c: scipy.signal's iirnotch, iirpeak, iircomb and
 * gammatone: checked here, designed by reference/signal/notch.c on the
 * host, b and a (float64) returned on the context's device.
 */
#include "libsignal/internal.h"

#include <math.h>
#include <stdlib.h>

#include <cusci/signal.h>

#include "reference/signal/design.h"

/* fs (0: SciPy's 2) checked positive and finite into *out. */
static cusci_status sampling(cusci_ctx *ctx, const char *fn, double fs, double *out)
{
  *out = fs == 0 ? 2.0 : fs;
  if (!(*out > 0) || !isfinite(*out))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fs %g must be positive and finite", fs);
  return CUSCI_OK;
}

static cusci_status give_ba(cusci_ctx *ctx, const char *fn, const double *b, int64_t nb, const double *a, int64_t na, cusci_array **ob,
                            cusci_array **oa)
{
  cusci_array *rb = NULL, *ra = NULL;
  cusci_status st = cusci__sig_upload_real(ctx, b, 1, &nb, CUSCI_FLOAT64, &rb);
  if (st == CUSCI_OK)
    st = cusci__sig_upload_real(ctx, a, 1, &na, CUSCI_FLOAT64, &ra);
  return cusci__sig_give_two(ctx, fn, st, rb, ob, ra, oa);
}

static cusci_status notch_peak(cusci_ctx *ctx, const char *fn, bool peak, double w0, double Q, double fs, cusci_array **b, cusci_array **a)
{
  CUSCI_ENTRY(ctx, fn, b, a);
  double f;
  CUSCI_TRY(sampling(ctx, fn, fs, &f));
  const double w = 2 * w0 / f;
  if (!(w >= 0 && w <= 1))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "w0 %g must lie in [0, fs/2 = %g]", w0, f / 2);
  if (!(Q > 0) || !isfinite(Q))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "Q %g must be positive and finite", Q);
  double vb[3], va[3];
  cusci__sig_notch_peak(w, Q, peak, vb, va);
  return give_ba(ctx, fn, vb, 3, va, 3, b, a);
}

cusci_status cusci_signal_iirnotch(cusci_ctx *ctx, double w0, double Q, double fs, cusci_array **b, cusci_array **a)
{
  return notch_peak(ctx, "cusci_signal_iirnotch", false, w0, Q, fs, b, a);
}

cusci_status cusci_signal_iirpeak(cusci_ctx *ctx, double w0, double Q, double fs, cusci_array **b, cusci_array **a)
{
  return notch_peak(ctx, "cusci_signal_iirpeak", true, w0, Q, fs, b, a);
}

cusci_status cusci_signal_iircomb(cusci_ctx *ctx, double w0, double Q, cusci_signal_comb_type ftype, double fs, bool pass_zero, cusci_array **b,
                                  cusci_array **a)
{
  static const char fn[] = "cusci_signal_iircomb";
  CUSCI_ENTRY(ctx, fn, b, a);
  double f;
  CUSCI_TRY(sampling(ctx, fn, fs, &f));
  if ((unsigned)ftype > CUSCI_SIGNAL_COMB_PEAK)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ftype %d is not a cusci_signal_comb_type", (int)ftype);
  if (!(w0 > 0 && w0 < f / 2))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "w0 %g must lie in (0, fs/2 = %g)", w0, f / 2);
  if (!(Q > 0) || !isfinite(Q))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "Q %g must be positive and finite", Q);
  const double r = nearbyint(f / w0);
  if (fabs(w0 - f / r) / f > 1e-14)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fs %g is not a multiple of w0 %g", f, w0);
  if (r > 1e8)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fs / w0 = %g coefficients is too many", r);
  const int64_t N = (int64_t)r;
  double *v = malloc(sizeof *v * (size_t)(2 * (N + 1)));
  if (!v)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld coefficients", (long long)(2 * (N + 1)));
  cusci__sig_comb(w0, Q, f, N, ftype == CUSCI_SIGNAL_COMB_PEAK, pass_zero, v, v + N + 1);
  const cusci_status st = give_ba(ctx, fn, v, N + 1, v + N + 1, N + 1, b, a);
  free(v);
  return st;
}

cusci_status cusci_signal_gammatone(cusci_ctx *ctx, double freq, cusci_signal_gammatone_type ftype, const cusci_signal_gammatone_opts *opts,
                                    cusci_array **b, cusci_array **a)
{
  static const char fn[] = "cusci_signal_gammatone";
  CUSCI_ENTRY(ctx, fn, b, a);
  const cusci_signal_gammatone_opts d = {0};
  if (!opts)
    opts = &d;
  double f;
  CUSCI_TRY(sampling(ctx, fn, opts->fs, &f));
  if ((unsigned)ftype > CUSCI_SIGNAL_GAMMATONE_IIR)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ftype %d is not a cusci_signal_gammatone_type", (int)ftype);
  if (!(freq > 0 && freq < f / 2))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the frequency %g must lie in (0, fs/2 = %g)", freq, f / 2);
  if (ftype == CUSCI_SIGNAL_GAMMATONE_IIR) {
    if (opts->order || opts->numtaps)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "order and numtaps are the FIR gammatone's; the IIR one is of order 4 with 9 coefficients");
    double vb[5], va[9];
    cusci__sig_gammatone_iir(freq, f, vb, va);
    return give_ba(ctx, fn, vb, 5, va, 9, b, a);
  }
  const int order = opts->order ? opts->order : 4;
  if (order < 1 || order > 24)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "order %d must lie in [1, 24]", order);
  const double dflt = fmax(trunc(f * 0.015), 15);
  if (!opts->numtaps && dflt > 1e9)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fs %g makes the default numtaps %g too many", f, dflt);
  const int64_t numtaps = opts->numtaps ? opts->numtaps : (int64_t)dflt;
  if (numtaps < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "numtaps %lld must be positive", (long long)numtaps);
  double *v = malloc(sizeof *v * (size_t)numtaps);
  if (!v)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld taps", (long long)numtaps);
  cusci__sig_gammatone_fir(freq, order, numtaps, f, v);
  const double one = 1;
  const cusci_status st = give_ba(ctx, fn, v, numtaps, &one, 1, b, a);
  free(v);
  return st;
}
