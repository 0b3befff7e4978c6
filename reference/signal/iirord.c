/*
 * reference/signal/iirord.c: IIR order selection as scipy.signal's
 * buttord, cheb1ord, cheb2ord and ellipord, on analog (prewarped) band
 * edges. A bandstop's passband edges are first moved, each within its
 * side, to the place that needs the lowest order, by Brent's bounded
 * minimization (Forsythe, Malcolm and Moler's fmin, as scipy.optimize's
 * fminbound runs it: absolute tolerance 1e-5, at most 500 evaluations).
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "reference/signal/design.h"

/* The smallest |ratio| over both stopband edges for lowpass prototype
 * frequencies of a bandstop (sign -1) or bandpass (sign 1) pair. */
static double band_nat(const double *passb, const double *stopb, int sign)
{
  double nat = INFINITY;
  for (int i = 0; i < 2; i++) {
    const double num = stopb[i] * (passb[0] - passb[1]), den = stopb[i] * stopb[i] - passb[0] * passb[1];
    nat = fmin(nat, fabs(sign < 0 ? num / den : den / num));
  }
  return nat;
}

/* The (non-integer) order of a lowpass prototype with stopband edge nat;
 * the elliptic one as SciPy's ellipord computes it (final) or as its
 * bandstop objective does. */
static double order_at(cusci__sig_ord_kind kind, double nat, double gpass, double gstop, bool final)
{
  const double GSTOP = pow(10, 0.1 * fabs(gstop)), GPASS = pow(10, 0.1 * fabs(gpass));
  switch (kind) {
  case CUSCI__SIG_ORD_BUTTER: return log10((GSTOP - 1) / (GPASS - 1)) / (2 * log10(nat));
  case CUSCI__SIG_ORD_CHEB1:
  case CUSCI__SIG_ORD_CHEB2: return acosh(sqrt((GSTOP - 1) / (GPASS - 1))) / acosh(nat);
  default:
    if (final) {
      const double arg1_sq = cusci__sig_pow10m1(0.1 * gpass) / cusci__sig_pow10m1(0.1 * gstop), arg0_sq = 1 / (nat * nat);
      return cusci__sig_ellipk(arg0_sq) * cusci__sig_ellipkm1(arg1_sq) / (cusci__sig_ellipkm1(arg0_sq) * cusci__sig_ellipk(arg1_sq));
    } else {
    const double arg1 = sqrt((pow(10, 0.1 * gpass) - 1) / (pow(10, 0.1 * gstop) - 1)), arg0 = 1 / nat;
    return cusci__sig_ellipk(arg0 * arg0) * cusci__sig_ellipk(1 - arg1 * arg1) / (cusci__sig_ellipk(1 - arg0 * arg0) * cusci__sig_ellipk(arg1 * arg1));
    }
  }
}

typedef struct stop_objective {
  cusci__sig_ord_kind kind;
  int ind;
  const double *passb, *stopb;
  double gpass, gstop;
} stop_objective;

/* The order of the bandstop with passband edge ind moved to wp. */
static double stop_order(const stop_objective *o, double wp)
{
  double passb[2] = {o->passb[0], o->passb[1]};
  passb[o->ind] = wp;
  return order_at(o->kind, band_nat(passb, o->stopb, -1), o->gpass, o->gstop, false);
}

static double sign1(double x)
{
  return x > 0 ? 1 : x < 0 ? -1 : 1;
}

/* The minimizer of the objective on [a, b]: golden-section steps, and
 * parabolic ones where the parabola through the three best points is
 * acceptable. */
static double fminbound(const stop_objective *o, double a, double b)
{
  const double sqrt_eps = sqrt(2.2e-16), golden = 0.5 * (3 - sqrt(5.0)), xatol = 1e-5;
  double v = a + golden * (b - a), w = v, x = v;
  double fx = stop_order(o, x), fv = fx, fw = fx;
  double d = 0, e = 0;
  double xm = 0.5 * (a + b), tol1 = sqrt_eps * fabs(x) + xatol / 3, tol2 = 2 * tol1;
  for (int num = 1; fabs(x - xm) > tol2 - 0.5 * (b - a) && num < 500; num++) {
    bool take_golden = true;
    if (fabs(e) > tol1) {
      double r = (x - w) * (fx - fv), q = (x - v) * (fx - fw), p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0)
        p = -p;
      q = fabs(q);
      r = e, e = d;
      if (fabs(p) < fabs(0.5 * q * r) && p > q * (a - x) && p < q * (b - x)) {
        d = p / q;
        const double u = x + d;
        if (u - a < tol2 || b - u < tol2)
          d = tol1 * sign1(xm - x);
        take_golden = false;
      }
    }
    if (take_golden) {
      e = x >= xm ? a - x : b - x;
      d = golden * e;
    }
    const double u = x + sign1(d) * fmax(fabs(d), tol1), fu = stop_order(o, u);
    if (fu <= fx) {
      if (u >= x)
        a = x;
      else
        b = x;
      v = w, fv = fw, w = x, fw = fx, x = u, fx = fu;
    } else {
      if (u < x)
        a = u;
      else
        b = u;
      if (fu <= fw || w == x)
        v = w, fv = fw, w = u, fw = fu;
      else if (fu <= fv || v == x || v == w)
        v = u, fv = fu;
    }
    xm = 0.5 * (a + b), tol1 = sqrt_eps * fabs(x) + xatol / 3, tol2 = 2 * tol1;
  }
  return x;
}

void cusci__sig_iirord(cusci__sig_ord_kind kind, int type, const double *passb_in, const double *stopb, double gpass, double gstop, double *order,
                       double *WN)
{
  double passb[2] = {passb_in[0], type >= 3 ? passb_in[1] : 0}, nat;
  switch (type) {
  case 1: nat = fabs(stopb[0] / passb[0]); break;
  case 2: nat = fabs(passb[0] / stopb[0]); break;
  case 3: {
    stop_objective o = {kind, 0, passb_in, stopb, gpass, gstop};
    passb[0] = fminbound(&o, passb_in[0], stopb[0] - 1e-12);
    o.ind = 1;
    passb[1] = fminbound(&o, stopb[1] + 1e-12, passb_in[1]);
    nat = band_nat(passb, stopb, -1);
    break;
  }
  default: nat = band_nat(passb, stopb, 1); break;
  }
  const double ord = ceil(order_at(kind, nat, gpass, gstop, true));
  *order = ord;
  const int nwn = type >= 3 ? 2 : 1;
  for (int i = 0; i < nwn; i++)
    WN[i] = passb[i]; /* Chebyshev I and elliptic: the passband edges */
  if (kind == CUSCI__SIG_ORD_BUTTER) {
    /* The natural frequency of the order found: exactly gpass at passb. */
    const double GPASS = pow(10, 0.1 * fabs(gpass)), W0 = pow(GPASS - 1, -1 / (2 * ord));
    if (type == 1)
      WN[0] = W0 * passb[0];
    else if (type == 2)
      WN[0] = passb[0] / W0;
    else if (type == 3) {
      const double discr = sqrt((passb[1] - passb[0]) * (passb[1] - passb[0]) + 4 * W0 * W0 * passb[0] * passb[1]);
      WN[0] = fabs((passb[1] - passb[0] + discr) / (2 * W0)), WN[1] = fabs((passb[1] - passb[0] - discr) / (2 * W0));
    } else {
      const double h = (passb[1] - passb[0]) / 2;
      WN[0] = fabs(W0 * h + sqrt(W0 * W0 / 4 * (passb[1] - passb[0]) * (passb[1] - passb[0]) + passb[0] * passb[1]));
      WN[1] = fabs(-W0 * h + sqrt(W0 * W0 / 4 * (passb[1] - passb[0]) * (passb[1] - passb[0]) + passb[0] * passb[1]));
    }
    if (nwn == 2 && WN[0] > WN[1]) {
      const double t = WN[0];
      WN[0] = WN[1], WN[1] = t;
    }
  } else if (kind == CUSCI__SIG_ORD_CHEB2) {
    /* The frequency where the response is -gpass dB. */
    const double GSTOP = pow(10, 0.1 * fabs(gstop)), GPASS = pow(10, 0.1 * fabs(gpass));
    const double nf = 1 / cosh(acosh(sqrt((GSTOP - 1) / (GPASS - 1))) / ord);
    if (type == 1)
      WN[0] = passb[0] / nf;
    else if (type == 2)
      WN[0] = passb[0] * nf;
    else if (type == 3) {
      WN[0] = nf / 2 * (passb[0] - passb[1]) + sqrt(nf * nf * (passb[1] - passb[0]) * (passb[1] - passb[0]) / 4 + passb[1] * passb[0]);
      WN[1] = passb[1] * passb[0] / WN[0];
    } else {
      WN[0] = 1 / (2 * nf) * (passb[0] - passb[1]) + sqrt((passb[1] - passb[0]) * (passb[1] - passb[0]) / (4 * nf * nf) + passb[1] * passb[0]);
      WN[1] = passb[0] * passb[1] / WN[0];
    }
  }
}
