/*
 * libsignal/iirord.c: IIR order selection (scipy.signal's buttord,
 * cheb1ord, cheb2ord, ellipord) on the host: the spec checked as SciPy's
 * iirdesign checks it, prewarped, passed to reference/signal/iirord.c, and
 * its natural frequencies brought back to the caller's units.
 */
#include "libsignal/internal.h"

#include <limits.h>
#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include <cusci/signal.h>

#include "reference/signal/design.h"

/* SciPy's filter type of a checked spec: 1 lowpass, 2 highpass,
 * 3 bandstop, 4 bandpass (and the cusci_signal_btype of each). */
static const int btype_of_type[5] = {0, CUSCI_SIGNAL_LOWPASS, CUSCI_SIGNAL_HIGHPASS, CUSCI_SIGNAL_BANDSTOP, CUSCI_SIGNAL_BANDPASS};

static cusci_status check_spec(cusci_ctx *ctx, const char *fn, int nwn, const double *wp, const double *ws, double gpass, double gstop, bool analog,
                               double fs, double *w, int *type)
{
  if (nwn != 1 && nwn != 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nwn %d: wp and ws have 1 edge each (lowpass, highpass) or 2 (bandpass, bandstop)", nwn);
  if (!(gpass > 0) || !isfinite(gpass))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "gpass %g: the passband loss (dB) must be positive and finite", gpass);
  if (!(gstop > 0) || !isfinite(gstop))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "gstop %g: the stopband attenuation (dB) must be positive and finite", gstop);
  if (!(gpass < gstop))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "gpass %g, gstop %g: the passband loss must be below the stopband attenuation", gpass, gstop);
  CUSCI_TRY(cusci__sig_check_fs(ctx, fn, fs, analog));
  for (int i = 0; i < 2 * nwn; i++) {
    const double f = i < nwn ? wp[i] : ws[i - nwn];
    const char *name = i < nwn ? "wp" : "ws";
    const int j = i < nwn ? i : i - nwn;
    if (!(f > 0) || !isfinite(f))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%s[%d] %g: band edges must be greater than 0 and finite", name, j, f);
    w[i] = fs > 0 ? f / (fs / 2) : f;
    if (!analog && !(w[i] < 1)) {
      if (fs > 0)
        return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%s[%d] %g: digital band edges must be below fs/2 (fs %g, fs/2 %g)", name, j, f, fs, fs / 2);
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%s[%d] %g: digital band edges must be below 1 (relative to Nyquist)", name, j, f);
    }
  }
  if (nwn == 1) {
    if (w[0] == w[1])
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "wp %g equal to ws: the transition band has no width", wp[0]);
    *type = w[0] < w[1] ? 1 : 2;
    return CUSCI_OK;
  }
  const double *p = w, *s = w + 2;
  if (s[0] < p[0] && p[0] < p[1] && p[1] < s[1])
    *type = 4;
  else if (p[0] < s[0] && s[0] < s[1] && s[1] < p[1])
    *type = 3;
  else
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn,
                          "wp %g, %g and ws %g, %g: the passband must lie strictly inside the stopband (bandpass) or the stopband strictly inside "
                          "the passband (bandstop)",
                          wp[0], wp[1], ws[0], ws[1]);
  return CUSCI_OK;
}

cusci_status cusci__sig_select_order(cusci_ctx *ctx, const char *fn, int ftype, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                     bool analog, double fs, int *N, double *Wn, int *btype)
{
  static const cusci__sig_ord_kind kinds[4] = {CUSCI__SIG_ORD_BUTTER, CUSCI__SIG_ORD_CHEB1, CUSCI__SIG_ORD_CHEB2, CUSCI__SIG_ORD_ELLIP};
  if (ftype < CUSCI_SIGNAL_BUTTER || ftype > CUSCI_SIGNAL_BESSEL_MAG)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ftype %d is not a cusci_signal_iir_type", ftype);
  if (ftype > CUSCI_SIGNAL_ELLIP)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ftype %d: Bessel filters have no order selection (design them with iirfilter or bessel)", ftype);
  double w[4];
  int type = 0;
  CUSCI_TRY(check_spec(ctx, fn, nwn, wp, ws, gpass, gstop, analog, fs, w, &type));
  double passb[2], stopb[2], order = 0, WN[2];
  for (int i = 0; i < nwn; i++) {
    passb[i] = analog ? w[i] : tan(M_PI * w[i] / 2);
    stopb[i] = analog ? w[nwn + i] : tan(M_PI * w[nwn + i] / 2);
  }
  cusci__sig_iirord(kinds[ftype], type, passb, stopb, gpass, gstop, &order, WN);
  if (!(order >= 1) || !(order <= INT_MAX))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "no order meets this spec (the order computes as %g): the transition band is too narrow", order);
  for (int i = 0; i < nwn; i++) {
    const double wn = analog ? WN[i] : atan(WN[i]) * 2 / M_PI;
    Wn[i] = fs > 0 ? wn * fs / 2 : wn;
  }
  *N = (int)order;
  if (btype)
    *btype = btype_of_type[type];
  return CUSCI_OK;
}

static cusci_status order(cusci_ctx *ctx, const char *fn, int ftype, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                          const cusci_signal_iir_opts *opts, int *N, double *Wn)
{
  CUSCI_ENTRY(ctx, fn, wp, ws, N, Wn);
  return cusci__sig_select_order(ctx, fn, ftype, nwn, wp, ws, gpass, gstop, opts && opts->analog, opts ? opts->fs : 0, N, Wn, NULL);
}

cusci_status cusci_signal_buttord(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                  const cusci_signal_iir_opts *opts, int *N, double *Wn)
{
  return order(ctx, "cusci_signal_buttord", CUSCI_SIGNAL_BUTTER, nwn, wp, ws, gpass, gstop, opts, N, Wn);
}

cusci_status cusci_signal_cheb1ord(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                   const cusci_signal_iir_opts *opts, int *N, double *Wn)
{
  return order(ctx, "cusci_signal_cheb1ord", CUSCI_SIGNAL_CHEBY1, nwn, wp, ws, gpass, gstop, opts, N, Wn);
}

cusci_status cusci_signal_cheb2ord(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                   const cusci_signal_iir_opts *opts, int *N, double *Wn)
{
  return order(ctx, "cusci_signal_cheb2ord", CUSCI_SIGNAL_CHEBY2, nwn, wp, ws, gpass, gstop, opts, N, Wn);
}

cusci_status cusci_signal_ellipord(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                   const cusci_signal_iir_opts *opts, int *N, double *Wn)
{
  return order(ctx, "cusci_signal_ellipord", CUSCI_SIGNAL_ELLIP, nwn, wp, ws, gpass, gstop, opts, N, Wn);
}
