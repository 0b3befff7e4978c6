/*
 * tests/signal-design.c: filter design and windows on the host: SciPy's
 * fixtures (tests/signal-design-suite.h); properties (a Butterworth
 * lowpass passes DC and stops Nyquist, the ripple families keep their
 * ripple and attenuation, each Bessel norm does what it names, a bank
 * equals its filters one by one, iirdesign meets its spec, firwin's lowpass has unit DC gain, the
 * periodic Hann window sums to a constant at half overlap; the
 * conversions' roots rebuild their polynomials, their round trips); bad input,
 * each with its status and a message naming the function.
 */
#include "tests/signal-design-suite.h"

static cusci_ctx *host;

/* |H(z)| of sections (host values, n rows) at z = e^{i w}. */
static double sos_gain(const double *s, int64_t n, double w)
{
  const double complex z1 = cexp(-I * w), z2 = z1 * z1;
  double complex h = 1;
  for (int64_t q = 0; q < n; q++, s += 6)
    h *= (s[0] + s[1] * z1 + s[2] * z2) / (s[3] + s[4] * z1 + s[5] * z2);
  return cabs(h);
}

static void properties(void)
{
  bool good = true;
  for (int N = 1; N <= 20; N++) {
    cusci_array *sos = NULL;
    const double wn = 0.05 * N - 0.02;
    if (cusci_signal_butter_sos(host, N, 1, &wn, CUSCI_SIGNAL_LOWPASS, NULL, &sos) != CUSCI_OK) {
      good = false;
      continue;
    }
    double *h = tk_to_host(host, sos);
    const int64_t n = cusci_array_shape(sos)[0];
    good &= h && fabs(sos_gain(h, n, 0) - 1) < 1e-12 && sos_gain(h, n, M_PI) < 1e-12 && fabs(sos_gain(h, n, M_PI * wn) - sqrt(0.5)) < 1e-10;
    free(h), cusci_array_release(sos);
  }
  ok(good, "butter lowpass, orders 1 to 20: gain 1 at DC, 0 at Nyquist, 1/sqrt(2) at Wn");

  const int orders[4] = {2, 5, 8, 3};
  const double edges[8] = {0.1, 0.2, 0.3, 0.5, 0.05, 0.6, 0.4, 0.45};
  cusci_array *bank = NULL;
  cusci_status st = cusci_signal_butter_sos_bank(host, 4, orders, 2, edges, CUSCI_SIGNAL_BANDPASS, NULL, &bank);
  good = st == CUSCI_OK && cusci_array_ndim(bank) == 3 && cusci_array_shape(bank)[0] == 4 && cusci_array_shape(bank)[1] == 8;
  double *hb = good ? tk_to_host(host, bank) : NULL;
  for (int i = 0; i < 4 && hb; i++) {
    cusci_array *one = NULL;
    good &= cusci_signal_butter_sos(host, orders[i], 2, edges + 2 * i, CUSCI_SIGNAL_BANDPASS, NULL, &one) == CUSCI_OK;
    double *h1 = one ? tk_to_host(host, one) : NULL;
    const int64_t n = one ? cusci_array_shape(one)[0] : 0;
    good &= h1 && !memcmp(h1, hb + i * 8 * 6, sizeof *h1 * (size_t)(6 * n));
    for (int64_t q = n; q < 8; q++)
      good &= hb[(i * 8 + q) * 6] == 1 && hb[(i * 8 + q) * 6 + 3] == 1 && hb[(i * 8 + q) * 6 + 4] == 0;
    free(h1), cusci_array_release(one);
  }
  ok(good, "butter_sos_bank of 4 bandpass filters (orders 2 to 8): each row = butter_sos alone, identity sections after: %s", cusci_status_name(st));
  free(hb), cusci_array_release(bank);

  cusci_array *h = NULL;
  const double fc = 0.3;
  st = cusci_signal_firwin(host, 61, 1, &fc, NULL, &h);
  double *hh = st == CUSCI_OK ? tk_to_host(host, h) : NULL, sum = 0;
  for (int i = 0; hh && i < 61; i++)
    sum += hh[i];
  ok(hh && fabs(sum - 1) < 1e-14, "firwin(61, 0.3): DC gain 1 (%.17g)", sum);
  free(hh), cusci_array_release(h);

  cusci_array *w = NULL;
  st = cusci_signal_get_window(host, "hann", 64, true, &w);
  double *hw = st == CUSCI_OK ? tk_to_host(host, w) : NULL;
  good = hw != NULL;
  for (int i = 0; hw && i < 32; i++)
    good &= fabs(hw[i] + hw[i + 32] - 1) < 1e-15;
  ok(good, "the periodic Hann window of 64: shifted by 32 sums to 1 (COLA)");
  free(hw), cusci_array_release(w);
}

/* H(jw) of analog zeros, poles and gain (host copies of the arrays). */
static double complex zpk_at(cusci_array *z, cusci_array *p, double k, double w)
{
  double complex *hz = tk_to_host(host, z), *hp = tk_to_host(host, p), h = k;
  for (int64_t i = 0; hz && i < cusci_array_size(z); i++)
    h *= I * w - hz[i];
  for (int64_t i = 0; hp && i < cusci_array_size(p); i++)
    h /= I * w - hp[i];
  free(hz), free(hp);
  return h;
}

/* The largest and smallest |H| of sections over w in [w0, w1] (2001 points). */
static void sos_range(const double *s, int64_t n, double w0, double w1, double *lo, double *hi)
{
  *lo = INFINITY, *hi = 0;
  for (int i = 0; i <= 2000; i++) {
    const double g = sos_gain(s, n, w0 + (w1 - w0) * i / 2000);
    *lo = fmin(*lo, g), *hi = fmax(*hi, g);
  }
}

/* The ripple families as SciPy defines them: Chebyshev I within rp dB of 1
 * in the passband and 10^(-rp/20) at Wn; Chebyshev II at most -rs dB from
 * Wn to Nyquist; elliptic both, with the stopband from the edge where the
 * gain first reaches -rs dB. */
static void ripple_properties(void)
{
  bool good = true;
  for (int N = 1; N <= 10; N++) {
    const double wn = 0.04 + 0.07 * N, rp = 0.25 * N, rs = 20 + 4 * N;
    const double gp = pow(10, -rp / 20), gs = pow(10, -rs / 20);
    cusci_array *c1 = NULL, *c2 = NULL, *el = NULL;
    good &= cusci_signal_cheby1_sos(host, N, rp, 1, &wn, CUSCI_SIGNAL_LOWPASS, NULL, &c1) == CUSCI_OK;
    good &= cusci_signal_cheby2_sos(host, N, rs, 1, &wn, CUSCI_SIGNAL_LOWPASS, NULL, &c2) == CUSCI_OK;
    good &= cusci_signal_ellip_sos(host, N, rp, rs, 1, &wn, CUSCI_SIGNAL_LOWPASS, NULL, &el) == CUSCI_OK;
    double *h1 = c1 ? tk_to_host(host, c1) : NULL, *h2 = c2 ? tk_to_host(host, c2) : NULL, *he = el ? tk_to_host(host, el) : NULL;
    if (h1 && h2 && he) {
      const int64_t n1 = cusci_array_shape(c1)[0], n2 = cusci_array_shape(c2)[0], ne = cusci_array_shape(el)[0];
      double lo, hi;
      sos_range(h1, n1, 0, M_PI * wn, &lo, &hi);
      good &= lo > gp * (1 - 1e-9) && hi < 1 + 1e-9 && fabs(sos_gain(h1, n1, M_PI * wn) - gp) < 1e-9 * gp;
      good &= fabs(sos_gain(h1, n1, 0) - (N % 2 ? 1 : gp)) < 1e-12;
      sos_range(h2, n2, M_PI * wn, M_PI, &lo, &hi);
      good &= hi < gs * (1 + 1e-7) && fabs(sos_gain(h2, n2, M_PI * wn) - gs) < 1e-7 * gs && fabs(sos_gain(h2, n2, 0) - 1) < 1e-12;
      sos_range(he, ne, 0, M_PI * wn, &lo, &hi);
      good &= lo > gp * (1 - 1e-9) && hi < 1 + 1e-9 && fabs(sos_gain(he, ne, M_PI * wn) - gp) < 1e-9 * gp;
      double ws = M_PI * wn;
      while (ws < M_PI && sos_gain(he, ne, ws) > gs * (1 + 1e-7))
        ws += 1e-5;
      sos_range(he, ne, ws, M_PI, &lo, &hi);
      good &= ws < M_PI && hi < gs * (1 + 1e-6);
    } else
      good = false;
    free(h1), free(h2), free(he);
    cusci_array_release(c1), cusci_array_release(c2), cusci_array_release(el);
  }
  ok(good, "cheby1, cheby2, ellip lowpass, orders 1 to 10: passband within rp dB, stopband at most -rs dB, the edges where SciPy puts them");

  /* Bessel: |H| ~ (Wn/w)^N at high frequency, Butterworth's asymptote
   * (phase norm: |prod p| = Wn^N; the phase midpoint is only near Wn, as
   * in SciPy), group delay 1/Wn at DC (delay norm), |H| = 1/sqrt(2) at Wn
   * (mag norm); analog, orders 1 to 25. */
  good = true;
  for (int N = 1; N <= 25; N++) {
    const double wn = 0.5 + 0.1 * N;
    for (int norm = CUSCI_SIGNAL_NORM_PHASE; norm <= CUSCI_SIGNAL_NORM_MAG; norm++) {
      cusci_array *z = NULL, *p = NULL;
      double k = 0;
      if (cusci_signal_bessel_zpk(host, N, 1, &wn, CUSCI_SIGNAL_LOWPASS, norm, &(cusci_signal_iir_opts){.analog = true}, &z, &p, &k) != CUSCI_OK) {
        good = false;
        continue;
      }
      double complex *hp = tk_to_host(host, p);
      double lprod = 0, delay = 0;
      for (int64_t i = 0; hp && i < cusci_array_size(p); i++)
        lprod += log(cabs(hp[i])), delay += creal(-1 / hp[i]);
      free(hp);
      if (norm == CUSCI_SIGNAL_NORM_PHASE)
        good &= fabs(lprod - N * log(wn)) < 1e-12 * N;
      else if (norm == CUSCI_SIGNAL_NORM_DELAY)
        good &= fabs(delay * wn - 1) < 1e-12;
      else
        good &= fabs(cabs(zpk_at(z, p, k, wn)) - sqrt(0.5)) < 1e-8;
      good &= fabs(cabs(zpk_at(z, p, k, 0)) - 1) < 1e-12;
      cusci_array_release(z), cusci_array_release(p);
    }
  }
  ok(good, "bessel analog, orders 1 to 25: |prod p| = Wn^N, delay 1/Wn at DC, |H| 1/sqrt(2) at Wn by norm; DC gain 1");

  const int orders[3] = {4, 7, 1};
  const double edges[6] = {0.1, 0.3, 0.2, 0.25, 0.6, 0.9};
  cusci_array *bank = NULL;
  cusci_status st = cusci_signal_iirfilter_sos_bank(host, 3, orders, 2, edges, 1, 40, CUSCI_SIGNAL_BANDSTOP, CUSCI_SIGNAL_ELLIP, NULL, &bank);
  good = st == CUSCI_OK && cusci_array_ndim(bank) == 3 && cusci_array_shape(bank)[0] == 3 && cusci_array_shape(bank)[1] == 7;
  double *hb = good ? tk_to_host(host, bank) : NULL;
  for (int i = 0; i < 3 && hb; i++) {
    cusci_array *one = NULL;
    good &= cusci_signal_ellip_sos(host, orders[i], 1, 40, 2, edges + 2 * i, CUSCI_SIGNAL_BANDSTOP, NULL, &one) == CUSCI_OK;
    double *h1 = one ? tk_to_host(host, one) : NULL;
    const int64_t n = one ? cusci_array_shape(one)[0] : 0;
    good &= h1 && !memcmp(h1, hb + i * 7 * 6, sizeof *h1 * (size_t)(6 * n));
    for (int64_t q = n; q < 7; q++)
      good &= hb[(i * 7 + q) * 6] == 1 && hb[(i * 7 + q) * 6 + 3] == 1 && hb[(i * 7 + q) * 6 + 1] == 0;
    free(h1), cusci_array_release(one);
  }
  ok(good, "iirfilter_sos_bank of 3 elliptic bandstops (orders 4, 7, 1): each row = ellip_sos alone, identity sections after: %s",
     cusci_status_name(st));
  free(hb), cusci_array_release(bank);
}

/* iirdesign meets its spec: at most gpass dB lost at the passband edges,
 * at least gstop dB at the stopband edges, for each family and band type. */
static void spec_properties(void)
{
  static const double specs[4][4] = {{0.2, 0.3}, {0.35, 0.25}, {0.2, 0.5, 0.1, 0.6}, {0.1, 0.6, 0.2, 0.5}};
  static const char *const fams[] = {"butter", "cheby1", "cheby2", "ellip"};
  for (int ft = 0; ft < 4; ft++) {
    bool good = true;
    for (int t = 0; t < 4; t++) {
      const int nwn = t < 2 ? 1 : 2;
      const double *wp = specs[t], *ws = specs[t] + nwn, gpass = 1, gstop = 45;
      cusci_array *sos = NULL;
      if (cusci_signal_iirdesign_sos(host, nwn, wp, ws, gpass, gstop, (cusci_signal_iir_type)ft, NULL, &sos) != CUSCI_OK) {
        good = false;
        continue;
      }
      double *h = tk_to_host(host, sos);
      const int64_t n = cusci_array_shape(sos)[0];
      for (int i = 0; h && i < nwn; i++)
        good &= sos_gain(h, n, M_PI * wp[i]) >= pow(10, -gpass / 20) * (1 - 1e-9) && sos_gain(h, n, M_PI * ws[i]) <= pow(10, -gstop / 20) * (1 + 1e-9);
      good &= h != NULL;
      free(h), cusci_array_release(sos);
    }
    ok(good, "iirdesign %s, each band type (gpass 1 dB, gstop 45 dB): the passband edges lose at most gpass, the stopband edges at least gstop",
       fams[ft]);
  }

  /* Analog bandpass Chebyshev II and elliptic specs whose zeros are one
   * real (at 0) and the rest complex: SciPy 1.17's minimal pairing fails
   * on them; the sections must still be the zpk system. */
  for (int ft = CUSCI_SIGNAL_CHEBY2; ft <= CUSCI_SIGNAL_ELLIP; ft++) {
    const double wp[2] = {1, 4}, ws[2] = {0.5, 6}, gpass = ft == CUSCI_SIGNAL_CHEBY2 ? 3 : 0.5, gstop = ft == CUSCI_SIGNAL_CHEBY2 ? 40 : 60;
    const cusci_signal_iir_opts an = {.analog = true};
    cusci_array *sos = NULL, *z = NULL, *p = NULL;
    double k = 0, worst = INFINITY;
    cusci_status st = cusci_signal_iirdesign_sos(host, 2, wp, ws, gpass, gstop, (cusci_signal_iir_type)ft, &an, &sos);
    if (st == CUSCI_OK)
      st = cusci_signal_iirdesign_zpk(host, 2, wp, ws, gpass, gstop, (cusci_signal_iir_type)ft, &an, &z, &p, &k);
    double *h = st == CUSCI_OK ? tk_to_host(host, sos) : NULL;
    if (h) {
      worst = 0;
      for (double w = 0.1; w < 10; w *= 1.3) {
        const double complex jw = I * w;
        double complex hs = 1;
        for (int64_t q = 0; q < cusci_array_shape(sos)[0]; q++) {
          const double *r = h + 6 * q;
          hs *= (r[0] * jw * jw + r[1] * jw + r[2]) / (r[3] * jw * jw + r[4] * jw + r[5]);
        }
        const double complex hz = zpk_at(z, p, k, w);
        worst = fmax(worst, cabs(hs - hz) / cabs(hz));
      }
    }
    ok(worst < 1e-9, "iirdesign %s analog bandpass (1, 4 in 0.5, 6): the sections' response = the zpk's within %.2g: %s", fams[ft], worst,
       cusci_status_name(st));
    free(h), cusci_array_release(sos), cusci_array_release(z), cusci_array_release(p);
  }
}

/* A call that must fail with want, its message naming fn. */
static void refuses(cusci_status st, cusci_status want, const char *fn, const char *what)
{
  const char *msg = cusci_ctx_last_error(host);
  ok(st == want && msg && strstr(msg, fn), "%s: %s (%s)", what, cusci_status_name(st), msg ? msg : "");
}

static void bad_input(void)
{
  cusci_status st;
  cusci_array *a = NULL, *b = NULL;
  const double w1 = 0.3, w2[2] = {0.4, 0.2}, big = 1.2, hz = 600;
  refuses(cusci_signal_butter_sos(host, 0, 1, &w1, CUSCI_SIGNAL_LOWPASS, NULL, &a), CUSCI_ERR_VALUE, "cusci_signal_butter_sos", "butter order 0");
  refuses(cusci_signal_butter_sos(host, 4, 1, &big, CUSCI_SIGNAL_LOWPASS, NULL, &a), CUSCI_ERR_VALUE, "cusci_signal_butter_sos", "butter Wn 1.2");
  refuses(cusci_signal_butter_ba(host, 4, 1, &hz, CUSCI_SIGNAL_LOWPASS, &(cusci_signal_iir_opts){.fs = 1000}, &a, &b), CUSCI_ERR_VALUE,
          "cusci_signal_butter_ba", "butter Wn 600 above fs/2 = 500");
  refuses(cusci_signal_butter_sos(host, 4, 1, &w1, CUSCI_SIGNAL_BANDPASS, NULL, &a), CUSCI_ERR_VALUE, "cusci_signal_butter_sos",
          "bandpass with one frequency");
  refuses(cusci_signal_butter_sos(host, 4, 2, w2, CUSCI_SIGNAL_BANDSTOP, NULL, &a), CUSCI_ERR_VALUE, "cusci_signal_butter_sos", "band edges reversed");
  refuses(cusci_signal_butter_sos(host, 4, 1, &w1, CUSCI_SIGNAL_LOWPASS, &(cusci_signal_iir_opts){.analog = true, .fs = 10}, &a), CUSCI_ERR_VALUE,
          "cusci_signal_butter_sos", "analog filter with fs");
  refuses(cusci_signal_butter_sos_bank(host, 2, (const int[]){3, -1}, 1, (const double[]){0.2, 0.3}, CUSCI_SIGNAL_LOWPASS, NULL, &a), CUSCI_ERR_VALUE,
          "cusci_signal_butter_sos_bank", "bank with an order -1");
  refuses(cusci_signal_cheby1_sos(host, 4, 0, 1, &w1, CUSCI_SIGNAL_LOWPASS, NULL, &a), CUSCI_ERR_VALUE, "cusci_signal_cheby1_sos", "cheby1 rp 0");
  refuses(cusci_signal_cheby1_ba(host, 4, -1, 1, &w1, CUSCI_SIGNAL_LOWPASS, NULL, &a, &b), CUSCI_ERR_VALUE, "cusci_signal_cheby1_ba", "cheby1 rp -1");
  refuses(cusci_signal_cheby2_sos(host, 4, NAN, 1, &w1, CUSCI_SIGNAL_LOWPASS, NULL, &a), CUSCI_ERR_VALUE, "cusci_signal_cheby2_sos", "cheby2 rs NaN");
  refuses(cusci_signal_ellip_sos(host, 4, 3, 2, 1, &w1, CUSCI_SIGNAL_LOWPASS, NULL, &a), CUSCI_ERR_VALUE, "cusci_signal_ellip_sos",
          "ellip with the ripple above the attenuation");
  refuses(cusci_signal_ellip_sos(host, 4, 1, INFINITY, 1, &w1, CUSCI_SIGNAL_LOWPASS, NULL, &a), CUSCI_ERR_VALUE, "cusci_signal_ellip_sos", "ellip rs inf");
  refuses(cusci_signal_bessel_sos(host, 4, 1, &w1, CUSCI_SIGNAL_LOWPASS, (cusci_signal_bessel_norm)7, NULL, &a), CUSCI_ERR_VALUE,
          "cusci_signal_bessel_sos", "bessel norm 7");
  refuses(cusci_signal_iirfilter_sos(host, 4, 1, &w1, 1, 40, CUSCI_SIGNAL_LOWPASS, (cusci_signal_iir_type)99, NULL, &a), CUSCI_ERR_VALUE,
          "cusci_signal_iirfilter_sos", "iirfilter ftype 99");
  refuses(cusci_signal_iirfilter_sos(host, 0, 1, &w1, 1, 40, CUSCI_SIGNAL_LOWPASS, CUSCI_SIGNAL_CHEBY1, NULL, &a), CUSCI_ERR_VALUE,
          "cusci_signal_iirfilter_sos", "iirfilter order 0");
  double kk = 0;
  refuses(cusci_signal_iirfilter_ba(host, 3, 1, &big, 1, 40, CUSCI_SIGNAL_LOWPASS, CUSCI_SIGNAL_ELLIP, NULL, &a, &b), CUSCI_ERR_VALUE,
          "cusci_signal_iirfilter_ba", "iirfilter_ba Wn 1.2");
  refuses(cusci_signal_iirfilter_zpk(host, 3, 1, &w1, -1, 40, CUSCI_SIGNAL_LOWPASS, CUSCI_SIGNAL_CHEBY1, NULL, &a, &b, &kk), CUSCI_ERR_VALUE,
          "cusci_signal_iirfilter_zpk", "iirfilter_zpk cheby1 rp -1");
  refuses(cusci_signal_iirfilter_sos_bank(host, 2, (const int[]){3, 2}, 1, (const double[]){0.2, 1.5}, 1, 40, CUSCI_SIGNAL_LOWPASS,
                                          CUSCI_SIGNAL_CHEBY2, NULL, &a),
          CUSCI_ERR_VALUE, "cusci_signal_iirfilter_sos_bank", "iirfilter bank with a cutoff 1.5");
  refuses(cusci_signal_besselap(host, -1, CUSCI_SIGNAL_NORM_PHASE, &a, &b, &kk), CUSCI_ERR_VALUE, "cusci_signal_besselap", "besselap N -1");
  refuses(cusci_signal_cheb1ap(host, 3, -2, &a, &b, &kk), CUSCI_ERR_VALUE, "cusci_signal_cheb1ap", "cheb1ap rp -2");
  refuses(cusci_signal_ellipap(host, 5, 1, 0.5, &a, &b, &kk), CUSCI_ERR_VALUE, "cusci_signal_ellipap", "ellipap rp 1 above rs 0.5");
  int no = 0;
  double wn2[2];
  refuses(cusci_signal_buttord(host, 1, &w1, &w1, 3, 40, NULL, &no, wn2), CUSCI_ERR_VALUE, "cusci_signal_buttord", "buttord wp = ws");
  refuses(cusci_signal_cheb1ord(host, 1, (const double[]){0.2}, (const double[]){0.3}, 40, 3, NULL, &no, wn2), CUSCI_ERR_VALUE,
          "cusci_signal_cheb1ord", "cheb1ord gpass above gstop");
  refuses(cusci_signal_cheb2ord(host, 1, (const double[]){0.2}, (const double[]){0.3}, 0, 40, NULL, &no, wn2), CUSCI_ERR_VALUE,
          "cusci_signal_cheb2ord", "cheb2ord gpass 0");
  refuses(cusci_signal_ellipord(host, 2, (const double[]){0.2, 0.5}, (const double[]){0.3, 0.6}, 1, 40, NULL, &no, wn2), CUSCI_ERR_VALUE,
          "cusci_signal_ellipord", "ellipord bands overlapping");
  refuses(cusci_signal_buttord(host, 1, &hz, (const double[]){700}, 1, 40, &(cusci_signal_iir_opts){.fs = 1000}, &no, wn2), CUSCI_ERR_VALUE,
          "cusci_signal_buttord", "buttord edge above fs/2");
  refuses(cusci_signal_buttord(host, 3, w2, w2, 1, 40, NULL, &no, wn2), CUSCI_ERR_VALUE, "cusci_signal_buttord", "buttord nwn 3");
  refuses(cusci_signal_iirdesign_sos(host, 1, (const double[]){0.2}, (const double[]){0.3}, 1, 40, CUSCI_SIGNAL_BESSEL_PHASE, NULL, &a),
          CUSCI_ERR_VALUE, "cusci_signal_iirdesign_sos", "iirdesign of a Bessel filter");
  refuses(cusci_signal_iirdesign_ba(host, 1, (const double[]){0.2}, (const double[]){0.3}, 1, 40, (cusci_signal_iir_type)-1, NULL, &a, &b),
          CUSCI_ERR_VALUE, "cusci_signal_iirdesign_ba", "iirdesign ftype -1");
  refuses(cusci_signal_iirdesign_zpk(host, 1, (const double[]){0.2}, NULL, 1, 40, CUSCI_SIGNAL_ELLIP, NULL, &a, &b, &kk), CUSCI_ERR_NULL_POINTER,
          "cusci_signal_iirdesign_zpk", "iirdesign ws NULL");
  refuses(cusci_signal_get_window(host, "hannn", 8, true, &a), CUSCI_ERR_VALUE, "cusci_signal_get_window", "unknown window");
  refuses(cusci_signal_get_window(host, "kaiser", 8, true, &a), CUSCI_ERR_VALUE, "cusci_signal_get_window", "kaiser without beta");
  refuses(cusci_signal_get_window(host, "hann,2", 8, true, &a), CUSCI_ERR_VALUE, "cusci_signal_get_window", "hann with a parameter");
  refuses(cusci_signal_get_window(host, "kaiser,x", 8, true, &a), CUSCI_ERR_VALUE, "cusci_signal_get_window", "kaiser,x");
  refuses(cusci_signal_get_window(host, "hann", 0, true, &a), CUSCI_ERR_VALUE, "cusci_signal_get_window", "nx 0");
  refuses(cusci_signal_get_window(host, "kbd,4", 8, true, &a), CUSCI_ERR_VALUE, "cusci_signal_get_window", "periodic Kaiser-Bessel derived");
  refuses(cusci_signal_get_window(host, "kbd,4", 7, false, &a), CUSCI_ERR_VALUE, "cusci_signal_get_window", "Kaiser-Bessel derived of odd length");
  refuses(cusci_signal_get_window(host, "dpss,5", 8, true, &a), CUSCI_ERR_VALUE, "cusci_signal_get_window", "dpss NW >= nx/2");
  refuses(cusci_signal_get_window(host, "exponential,2,1", 8, false, &a), CUSCI_ERR_VALUE, "cusci_signal_get_window",
          "symmetric exponential with a center");
  refuses(cusci_signal_firwin(host, 30, 1, &w1, &(cusci_signal_firwin_opts){.pass_zero = CUSCI_SIGNAL_PASS_ZERO_FALSE}, &a), CUSCI_ERR_VALUE,
          "cusci_signal_firwin", "firwin highpass of 30 taps");
  refuses(cusci_signal_firwin(host, 31, 2, w2, NULL, &a), CUSCI_ERR_VALUE, "cusci_signal_firwin", "firwin cutoffs decreasing");
  refuses(cusci_signal_firwin(host, 31, 1, &big, NULL, &a), CUSCI_ERR_VALUE, "cusci_signal_firwin", "firwin cutoff 1.2");
  refuses(cusci_signal_firwin(host, 31, 1, &w1, &(cusci_signal_firwin_opts){.window = "nope"}, &a), CUSCI_ERR_VALUE, "cusci_signal_firwin",
          "firwin unknown window");
  int64_t nt;
  double beta;
  refuses(cusci_signal_kaiserord(host, 5, 0.1, &nt, &beta), CUSCI_ERR_VALUE, "cusci_signal_kaiserord", "kaiserord ripple 5 dB");
  const double complex zc[1] = {0.5 + 0.5 * I}, pc[2] = {0.3, 0.2};
  cusci_array *z = NULL, *p = NULL;
  cusci_array_from_host(host, zc, 1, (const int64_t[]){1}, CUSCI_COMPLEX128, &z);
  cusci_array_from_host(host, pc, 1, (const int64_t[]){2}, CUSCI_COMPLEX128, &p);
  refuses(cusci_signal_zpk2sos(host, z, p, 1, CUSCI_SIGNAL_PAIRING_DEFAULT, false, &a), CUSCI_ERR_VALUE, "cusci_signal_zpk2sos",
          "zpk2sos with a zero without its conjugate");
  refuses(cusci_signal_zpk2sos(host, p, z, 1, CUSCI_SIGNAL_PAIRING_NEAREST, true, &a), CUSCI_ERR_VALUE, "cusci_signal_zpk2sos",
          "analog zpk2sos with nearest pairing");
  refuses(cusci_signal_lp2hp_zpk(host, p, z, 1, 1, &a, &b, &beta), CUSCI_ERR_VALUE, "cusci_signal_lp2hp_zpk", "lp2hp with more zeros than poles");
  ok(a == NULL && b == NULL, "no result is left where a call failed");
  cusci_array_release(z), cusci_array_release(p);
  ok(cusci_signal_kaiser_beta(65) == 0.1102 * (65 - 8.7) && fabs(cusci_signal_kaiser_beta(30) - 2.1166248611409806) < 1e-15 &&
         cusci_signal_kaiser_beta(10) == 0 && fabs(cusci_signal_kaiser_atten(211, 0.0625) - 102.1683271765664) < 1e-12,
     "kaiser_beta(65, 30, 10) and kaiser_atten(211, 0.0625) as SciPy 1.17's (6.20426, 2.1166248611409806, 0, 102.1683271765664)");
  int64_t n2 = 0;
  st = cusci_signal_kaiserord(host, 65, 24.0 / 500, &n2, &beta);
  ok(st == CUSCI_OK && n2 == 167 && fabs(beta - 0.1102 * (65 - 8.7)) < 1e-12,
     "kaiserord(65, 24/500) = %lld taps, beta %.10g (SciPy 1.17: 167, 6.20426)", (long long)n2, beta);
}

static cusci_array *vec(const double *v, int64_t n)
{
  cusci_array *a = NULL;
  return cusci_array_from_host(host, v, 1, &n, CUSCI_FLOAT64, &a) == CUSCI_OK ? a : NULL;
}

static cusci_array *mat(const double *v, int64_t r, int64_t c)
{
  cusci_array *a = NULL;
  return cusci_array_from_host(host, v, 2, (const int64_t[]){r, c}, CUSCI_FLOAT64, &a) == CUSCI_OK ? a : NULL;
}

/* Conversions: roots rebuild their polynomials, round trips return what
 * went in, a system without states, and bad input. */
static void conversions(void)
{
  /* Every tf2zpk fixture: zpk2tf of the roots = b and a normalized, to
   * 1e-12 (where multiple roots put the roots themselves only within
   * eps^(1/m) of SciPy's). */
  FILE *f = tk_manifest("signal_design", "cases.txt");
  char line[512], name[128];
  while (f && tk_manifest_line(f, line, sizeof line)) {
    if (sscanf(line, "tf2zpk %127s", name) != 1)
      continue;
    cusci_array *b = sd_load(host, name, "b"), *a = sd_load(host, name, "a"), *z = NULL, *p = NULL, *bb = NULL, *aa = NULL;
    cusci_array *wz = sd_load(host, name, "z"), *wp = sd_load(host, name, "p");
    double k = 0, wk = 0;
    sd_gain(host, name, &wk);
    cusci_status st = cusci_signal_tf2zpk(host, b, a, &z, &p, &k);
    if (st == CUSCI_OK && cusci_array_size(p) == cusci_array_size(wp) && cusci_array_size(z) == cusci_array_size(wz))
      st = cusci_signal_zpk2tf(host, z, p, k, &bb, &aa);
    else if (st == CUSCI_OK)
      st = CUSCI_ERR_SHAPE;
    /* SciPy's roots rebuilt by zpk2tf: the normalized b and a */
    cusci_array *sb = NULL, *sa = NULL;
    if (st == CUSCI_OK)
      st = cusci_signal_zpk2tf(host, wz, wp, wk, &sb, &sa);
    const double eb = sd_err(host, bb, host, sb), ea = sd_err(host, aa, host, sa);
    ok(st == CUSCI_OK && eb <= 1e-12 && ea <= 1e-12, "%s: zpk2tf(tf2zpk(b, a)) = zpk2tf of SciPy's roots, b to %.2g, a to %.2g: %s", name, eb, ea,
       cusci_status_name(st));
    cusci_array *all[] = {b, a, z, p, bb, aa, wz, wp, sb, sa};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
      cusci_array_release(all[i]);
  }
  if (f)
    fclose(f);

  /* ss2tf(tf2ss(b, a)) = b and a normalized; sos2tf(tf2sos) = b, a */
  const double b[] = {0, 2, 0.5, 0.25}, a[] = {2, 0.6, 0.2, 0.1}, nb[] = {1, 0.25, 0.125}, na[] = {1, 0.3, 0.1, 0.05};
  cusci_array *vb = vec(b, 4), *va = vec(a, 4), *A = NULL, *B = NULL, *C = NULL, *D = NULL, *num = NULL, *den = NULL;
  cusci_status st = cusci_signal_tf2ss(host, vb, va, &A, &B, &C, &D);
  if (st == CUSCI_OK)
    st = cusci_signal_ss2tf(host, A, B, C, D, 0, &num, &den);
  double *hn = st == CUSCI_OK ? tk_to_host(host, num) : NULL, *hd = st == CUSCI_OK ? tk_to_host(host, den) : NULL;
  double e = hn && hd && cusci_array_size(num) == 4 && cusci_array_size(den) == 4 ? fabs(hn[0]) : INFINITY;
  for (int i = 0; hn && hd && i < 3 && isfinite(e); i++)
    e = fmax(e, fmax(fabs(hn[i + 1] - nb[i]), fabs(hd[i] - na[i])));
  if (hd && isfinite(e))
    e = fmax(e, fabs(hd[3] - na[3]));
  ok(st == CUSCI_OK && e <= 1e-14, "ss2tf(tf2ss(b, a)) = b / a[0], a / a[0] (num (1, 4) with a leading 0), to %.2g: %s", e, cusci_status_name(st));
  free(hn), free(hd);
  cusci_array *sos = NULL, *b2 = NULL, *a2 = NULL;
  st = cusci_signal_tf2sos(host, vb, va, CUSCI_SIGNAL_PAIRING_DEFAULT, false, &sos);
  if (st == CUSCI_OK)
    st = cusci_signal_sos2tf(host, sos, &b2, &a2);
  hn = st == CUSCI_OK ? tk_to_host(host, b2) : NULL, hd = st == CUSCI_OK ? tk_to_host(host, a2) : NULL;
  /* the same response as nb / na (the sections may add a pole and a zero at 0) */
  e = hn && hd ? 0 : INFINITY;
  for (int q = 0; q < 7 && isfinite(e); q++) {
    const double complex z1 = cexp(-I * 0.45 * q);
    double complex h0 = 0, h1 = 0, g0 = 0, g1 = 0, zp = 1;
    for (int64_t i = 0; i < 5; i++, zp *= z1) {
      h0 += i < cusci_array_size(b2) ? hn[i] * zp : 0;
      h1 += i < cusci_array_size(a2) ? hd[i] * zp : 0;
      g0 += i < 3 ? nb[i] * zp : 0;
      g1 += i < 4 ? na[i] * zp : 0;
    }
    e = fmax(e, cabs(h0 / h1 - g0 / g1));
  }
  ok(st == CUSCI_OK && e <= 1e-13, "sos2tf(tf2sos(b, a)) has the response of b / a normalized, to %.2g: %s", e, cusci_status_name(st));
  free(hn), free(hd);
  cusci_array *list[] = {A, B, C, D, num, den, sos, b2, a2};
  for (size_t i = 0; i < sizeof list / sizeof *list; i++)
    cusci_array_release(list[i]);
  A = B = C = D = num = den = sos = b2 = a2 = NULL;

  /* no states: num = D's column, den [1] */
  const double dv[] = {1.5, -2, 3, 4};
  cusci_array *Dm = mat(dv, 2, 2), *A0 = mat(dv, 0, 0);
  st = cusci_signal_ss2tf(host, A0, NULL, NULL, Dm, 1, &num, &den);
  hn = st == CUSCI_OK ? tk_to_host(host, num) : NULL, hd = st == CUSCI_OK ? tk_to_host(host, den) : NULL;
  ok(hn && hd && cusci_array_ndim(num) == 2 && cusci_array_shape(num)[0] == 2 && cusci_array_shape(num)[1] == 1 && hn[0] == -2 && hn[1] == 4 &&
         cusci_array_size(den) == 1 && hd[0] == 1,
     "ss2tf of a system without states (A 0 x 0, D 2 x 2), input 1: num = D[:, 1] as (2, 1), den [1]: %s", cusci_status_name(st));
  free(hn), free(hd);
  cusci_array_release(num), cusci_array_release(den);
  num = den = NULL;

  /* bad input */
  double k = 0;
  cusci_array *z = NULL, *p = NULL;
  const double zeros[] = {0, 0};
  cusci_array *va0 = vec(zeros, 2), *empty = vec(zeros, 0), *lb = vec((const double[]){1, 2, 3, 4, 5}, 5), *sos5 = mat(dv, 1, 4);
  cusci_array *cz = NULL;
  cusci_array_from_host(host, (const double complex[]){1 + 2 * I, 3}, 1, (const int64_t[]){2}, CUSCI_COMPLEX128, &cz);
  refuses(cusci_signal_tf2zpk(host, vb, va0, &z, &p, &k), CUSCI_ERR_VALUE, "cusci_signal_tf2zpk", "tf2zpk with a = [0, 0]");
  refuses(cusci_signal_tf2zpk(host, empty, va, &z, &p, &k), CUSCI_ERR_VALUE, "cusci_signal_tf2zpk", "tf2zpk with an empty b");
  refuses(cusci_signal_tf2zpk(host, cz, va, &z, &p, &k), CUSCI_ERR_DTYPE, "cusci_signal_tf2zpk", "tf2zpk with a complex b");
  refuses(cusci_signal_tf2zpk(host, Dm, va, &z, &p, &k), CUSCI_ERR_NDIM, "cusci_signal_tf2zpk", "tf2zpk with a 2-d b");
  refuses(cusci_signal_tf2sos(host, vb, va, (cusci_signal_pairing)9, false, &sos), CUSCI_ERR_VALUE, "cusci_signal_tf2sos", "tf2sos pairing 9");
  refuses(cusci_signal_tf2sos(host, vb, va, CUSCI_SIGNAL_PAIRING_NEAREST, true, &sos), CUSCI_ERR_VALUE, "cusci_signal_tf2sos",
          "tf2sos of an analog system with the nearest pairing");
  refuses(cusci_signal_tf2sos(host, lb, va, CUSCI_SIGNAL_PAIRING_MINIMAL, true, &sos), CUSCI_ERR_VALUE, "cusci_signal_tf2sos",
          "tf2sos of an analog system with more zeros than poles");
  refuses(cusci_signal_sos2tf(host, sos5, &b2, &a2), CUSCI_ERR_SHAPE, "cusci_signal_sos2tf", "sos2tf of a (1, 4) sos");
  refuses(cusci_signal_sos2zpk(host, vb, &z, &p, &k), CUSCI_ERR_SHAPE, "cusci_signal_sos2zpk", "sos2zpk of a (1, 4) sos");
  refuses(cusci_signal_tf2ss(host, lb, va, &A, &B, &C, &D), CUSCI_ERR_VALUE, "cusci_signal_tf2ss", "tf2ss of an improper b / a");
  refuses(cusci_signal_zpk2ss(host, cz, va, 1, &A, &B, &C, &D), CUSCI_ERR_VALUE, "cusci_signal_zpk2ss", "zpk2ss with a zero 1+2j alone");
  refuses(cusci_signal_ss2tf(host, NULL, NULL, NULL, NULL, 0, &num, &den), CUSCI_ERR_VALUE, "cusci_signal_ss2tf", "ss2tf with nothing");
  refuses(cusci_signal_ss2tf(host, Dm, vb, NULL, Dm, 0, &num, &den), CUSCI_ERR_SHAPE, "cusci_signal_ss2tf", "ss2tf with A 2 x 2, B 1 x 4");
  refuses(cusci_signal_ss2tf(host, A0, NULL, NULL, Dm, 2, &num, &den), CUSCI_ERR_VALUE, "cusci_signal_ss2tf", "ss2tf input 2 of 2 inputs");
  refuses(cusci_signal_ss2zpk(host, A0, NULL, NULL, Dm, 0, &z, &p, &k), CUSCI_ERR_SHAPE, "cusci_signal_ss2zpk", "ss2zpk of two outputs");
  ok(!z && !p && !A && !B && !C && !D && !num && !den && !sos && !b2 && !a2, "no result is left where a conversion failed");
  cusci_array *rest[] = {vb, va, Dm, A0, va0, empty, lb, sos5, cz};
  for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
    cusci_array_release(rest[i]);
}

/* Frequency responses: a pure delay's group delay, a default-grid freqz
 * equal to freqz at the same frequencies given, sosfreqz = freqz of
 * sos2tf, freqz_sos = sosfreqz; bad input. */
static void responses(void)
{
  const double delay[] = {0, 0, 0, 1};
  cusci_array *b = vec(delay, 4), *w = NULL, *gd = NULL;
  cusci_status st = cusci_signal_group_delay(host, b, NULL, NULL, &w, &gd);
  double *h = st == CUSCI_OK ? tk_to_host(host, gd) : NULL, e = h && cusci_array_size(gd) == 512 ? 0 : INFINITY;
  for (int64_t i = 0; h && i < 512; i++)
    e = fmax(e, fabs(h[i] - 3));
  ok(st == CUSCI_OK && e <= 1e-12, "group_delay of z^-3 is 3 samples at 512 frequencies, to %.2g: %s", e, cusci_status_name(st));
  free(h), cusci_array_release(w), cusci_array_release(gd);
  w = gd = NULL;

  cusci_array *sos = NULL, *sb = NULL, *sa = NULL, *w1 = NULL, *h1 = NULL, *w2 = NULL, *h2 = NULL, *w3 = NULL, *h3 = NULL, *w4 = NULL, *h4 = NULL;
  const double wn[2] = {0.15, 0.4};
  st = cusci_signal_butter_sos(host, 6, 2, wn, CUSCI_SIGNAL_BANDPASS, NULL, &sos);
  if (st == CUSCI_OK)
    st = cusci_signal_sos2tf(host, sos, &sb, &sa);
  const cusci_signal_freqz_opts o = {.worN = 100, .fs = 44100};
  if (st == CUSCI_OK)
    st = cusci_signal_sosfreqz(host, sos, &o, &w1, &h1);
  if (st == CUSCI_OK)
    st = cusci_signal_freqz(host, sb, sa, &o, &w2, &h2);
  if (st == CUSCI_OK)
    st = cusci_signal_freqz_sos(host, sos, &o, &w4, &h4);
  double *hw = st == CUSCI_OK ? tk_to_host(host, w1) : NULL;
  if (hw)
    st = cusci_signal_freqz(host, sb, sa, &(cusci_signal_freqz_opts){.w = hw, .nw = 100, .fs = 44100}, &w3, &h3);
  const double e12 = sd_err(host, h1, host, h2), e23 = sd_err(host, h2, host, h3), ew = sd_err(host, w1, host, w3);
  ok(st == CUSCI_OK && e12 <= 1e-9 && e23 <= 1e-10 && ew <= 1e-12 && sd_err(host, h4, host, h1) == 0 && sd_err(host, w4, host, w1) == 0,
     "sosfreqz = freqz of sos2tf (%.2g), freqz on its own grid given = freqz (%.2g, w %.2g), freqz_sos = sosfreqz: %s", e12, e23, ew,
     cusci_status_name(st));
  free(hw);
  cusci_array *all[] = {sos, sb, sa, w1, h1, w2, h2, w3, h3, w4, h4};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);

  /* bad input */
  const double bad_a0[6] = {1, 0, 0, 2, 0, 0};
  cusci_array *s2 = mat(bad_a0, 1, 6), *s3 = mat(bad_a0, 2, 3), *empty = vec(delay, 0), *m2 = mat(bad_a0, 2, 3);
  sos = NULL;
  cusci_array *hh = NULL;
  refuses(cusci_signal_freqz(host, b, NULL, &(cusci_signal_freqz_opts){.worN = -1}, &w, &hh), CUSCI_ERR_VALUE, "cusci_signal_freqz", "freqz worN -1");
  refuses(cusci_signal_freqz(host, b, NULL, &(cusci_signal_freqz_opts){.fs = -2}, &w, &hh), CUSCI_ERR_VALUE, "cusci_signal_freqz", "freqz fs -2");
  refuses(cusci_signal_freqz(host, b, NULL, &(cusci_signal_freqz_opts){.nw = 3}, &w, &hh), CUSCI_ERR_VALUE, "cusci_signal_freqz",
          "freqz nw 3 with w NULL");
  refuses(cusci_signal_freqz(host, b, empty, NULL, &w, &hh), CUSCI_ERR_VALUE, "cusci_signal_freqz", "freqz with an empty a");
  refuses(cusci_signal_freqz(host, m2, NULL, NULL, &w, &hh), CUSCI_ERR_NDIM, "cusci_signal_freqz", "freqz with a 2-d b");
  refuses(cusci_signal_freqz(host, b, NULL, &(cusci_signal_freqz_opts){.w = (const double[]){0.1, NAN}, .nw = 2}, &w, &hh), CUSCI_ERR_VALUE,
          "cusci_signal_freqz", "freqz at a NaN frequency");
  refuses(cusci_signal_sosfreqz(host, s2, NULL, &w, &hh), CUSCI_ERR_VALUE, "cusci_signal_sosfreqz", "sosfreqz with a0 2");
  refuses(cusci_signal_sosfreqz(host, s3, NULL, &w, &hh), CUSCI_ERR_SHAPE, "cusci_signal_sosfreqz", "sosfreqz of a (2, 3) sos");
  refuses(cusci_signal_sosfreqz(host, b, &(cusci_signal_freqz_opts){.include_nyquist = true}, &w, &hh), CUSCI_ERR_SHAPE, "cusci_signal_sosfreqz",
          "sosfreqz of a 1-d sos");
  refuses(cusci_signal_freqz_zpk(host, b, b, NAN, NULL, &w, &hh), CUSCI_ERR_VALUE, "cusci_signal_freqz_zpk", "freqz_zpk k NaN");
  refuses(cusci_signal_freqs(host, b, b, &(cusci_signal_freqz_opts){.fs = 100}, &w, &hh), CUSCI_ERR_VALUE, "cusci_signal_freqs", "freqs with fs");
  refuses(cusci_signal_freqs_zpk(host, b, b, 1, &(cusci_signal_freqz_opts){.whole = true}, &w, &hh), CUSCI_ERR_VALUE, "cusci_signal_freqs_zpk",
          "freqs_zpk whole");
  refuses(cusci_signal_group_delay(host, b, NULL, &(cusci_signal_freqz_opts){.include_nyquist = true}, &w, &hh), CUSCI_ERR_VALUE,
          "cusci_signal_group_delay", "group_delay include_nyquist");
  ok(!w && !hh, "no result is left where a response failed");
  cusci_array *rest[] = {b, s2, s3, empty, m2};
  for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
    cusci_array_release(rest[i]);
}

/* iirnotch stops w0 and iirpeak passes it at gain 1; iircomb stops every
 * multiple of w0; bad input. */
static void notches(void)
{
  cusci_array *b = NULL, *a = NULL, *w = NULL, *h = NULL;
  const double at[] = {60, 120, 180};
  const cusci_signal_freqz_opts o = {.w = at, .nw = 3, .fs = 600};
  cusci_status st = cusci_signal_iirnotch(host, 60, 20, 600, &b, &a);
  if (st == CUSCI_OK)
    st = cusci_signal_freqz(host, b, a, &o, &w, &h);
  double complex *v = st == CUSCI_OK ? tk_to_host(host, h) : NULL;
  ok(v && cabs(v[0]) < 1e-12 && cabs(v[1]) > 0.99, "iirnotch(60 Hz, Q 20, fs 600): |H(60)| = %.2g, |H(120)| = %.4f: %s", v ? cabs(v[0]) : NAN,
     v ? cabs(v[1]) : NAN, cusci_status_name(st));
  free(v);
  cusci_array_release(b), cusci_array_release(a), cusci_array_release(w), cusci_array_release(h);
  b = a = w = h = NULL;
  st = cusci_signal_iirpeak(host, 60, 20, 600, &b, &a);
  if (st == CUSCI_OK)
    st = cusci_signal_freqz(host, b, a, &o, &w, &h);
  v = st == CUSCI_OK ? tk_to_host(host, h) : NULL;
  ok(v && fabs(cabs(v[0]) - 1) < 1e-12 && cabs(v[1]) < 0.1, "iirpeak(60 Hz, Q 20, fs 600): |H(60)| = %.15f, |H(120)| = %.4f: %s",
     v ? cabs(v[0]) : NAN, v ? cabs(v[1]) : NAN, cusci_status_name(st));
  free(v);
  cusci_array_release(b), cusci_array_release(a), cusci_array_release(w), cusci_array_release(h);
  b = a = w = h = NULL;
  st = cusci_signal_iircomb(host, 60, 20, CUSCI_SIGNAL_COMB_NOTCH, 600, false, &b, &a);
  if (st == CUSCI_OK)
    st = cusci_signal_freqz(host, b, a, &o, &w, &h);
  v = st == CUSCI_OK ? tk_to_host(host, h) : NULL;
  ok(v && cabs(v[0]) < 1e-12 && cabs(v[1]) < 1e-12 && cabs(v[2]) < 1e-12 && cusci_array_size(b) == 11,
     "iircomb(60 Hz, fs 600): 11 coefficients, zeros at 60, 120 and 180 Hz: %s", cusci_status_name(st));
  free(v);
  cusci_array_release(b), cusci_array_release(a), cusci_array_release(w), cusci_array_release(h);
  b = a = NULL;

  refuses(cusci_signal_iirnotch(host, 0.3, 0, 0, &b, &a), CUSCI_ERR_VALUE, "cusci_signal_iirnotch", "iirnotch Q 0");
  refuses(cusci_signal_iirnotch(host, 400, 10, 600, &b, &a), CUSCI_ERR_VALUE, "cusci_signal_iirnotch", "iirnotch w0 400 above fs/2");
  refuses(cusci_signal_iirpeak(host, 0.3, 10, -1, &b, &a), CUSCI_ERR_VALUE, "cusci_signal_iirpeak", "iirpeak fs -1");
  refuses(cusci_signal_iircomb(host, 70, 10, CUSCI_SIGNAL_COMB_NOTCH, 600, false, &b, &a), CUSCI_ERR_VALUE, "cusci_signal_iircomb",
          "iircomb w0 70 not dividing fs 600");
  refuses(cusci_signal_iircomb(host, 0, 10, CUSCI_SIGNAL_COMB_PEAK, 600, false, &b, &a), CUSCI_ERR_VALUE, "cusci_signal_iircomb", "iircomb w0 0");
  refuses(cusci_signal_iircomb(host, 60, 10, (cusci_signal_comb_type)5, 600, false, &b, &a), CUSCI_ERR_VALUE, "cusci_signal_iircomb",
          "iircomb ftype 5");
  refuses(cusci_signal_gammatone(host, 440, CUSCI_SIGNAL_GAMMATONE_FIR, &(cusci_signal_gammatone_opts){.order = 25, .fs = 16000}, &b, &a),
          CUSCI_ERR_VALUE, "cusci_signal_gammatone", "gammatone order 25");
  refuses(cusci_signal_gammatone(host, 9000, CUSCI_SIGNAL_GAMMATONE_FIR, &(cusci_signal_gammatone_opts){.fs = 16000}, &b, &a), CUSCI_ERR_VALUE,
          "cusci_signal_gammatone", "gammatone at 9000 Hz above fs/2");
  refuses(cusci_signal_gammatone(host, 440, CUSCI_SIGNAL_GAMMATONE_IIR, &(cusci_signal_gammatone_opts){.numtaps = 30, .fs = 16000}, &b, &a),
          CUSCI_ERR_VALUE, "cusci_signal_gammatone", "IIR gammatone with numtaps");
  refuses(cusci_signal_gammatone(host, 440, CUSCI_SIGNAL_GAMMATONE_FIR, &(cusci_signal_gammatone_opts){.numtaps = -3, .fs = 16000}, &b, &a),
          CUSCI_ERR_VALUE, "cusci_signal_gammatone", "gammatone numtaps -3");
  ok(!b && !a, "no result is left where a notch, comb or gammatone design failed");
}

/* Spectral estimates: opts NULL is the zero opts; a sine's welch peaks at
 * its frequency; bad input. */
static void spectra(void)
{
  enum { N = 4000 };
  static double xs[N];
  for (int i = 0; i < N; i++)
    xs[i] = sin(2 * M_PI * 125.0 * i / 1000.0) + 0.01 * cos(0.37 * i * i);
  cusci_array *x = vec(xs, N), *f = NULL, *p = NULL, *f2 = NULL, *p2 = NULL;
  cusci_status st = cusci_signal_welch(host, x, 1000, 0, -1, NULL, &f, &p);
  if (st == CUSCI_OK)
    st = cusci_signal_welch(host, x, 1000, 256, 0, &(cusci_signal_spectral_opts){0}, &f2, &p2);
  double *hf = st == CUSCI_OK ? tk_to_host(host, f) : NULL, *hp = st == CUSCI_OK ? tk_to_host(host, p) : NULL;
  int64_t peak = 0;
  for (int64_t i = 0; hp && i < cusci_array_size(p); i++)
    if (hp[i] > hp[peak])
      peak = i;
  ok(hf && hp && cusci_array_size(p) == 129 && hf[peak] == 125 && sd_err(host, p, host, p2) == 0 && sd_err(host, f, host, f2) == 0,
     "welch(opts NULL, nperseg 0) = welch(zero opts, 256): 129 frequencies, the peak at %g Hz (125): %s", hf ? hf[peak] : NAN,
     cusci_status_name(st));
  free(hf), free(hp);
  cusci_array_release(f), cusci_array_release(p), cusci_array_release(f2), cusci_array_release(p2);
  f = p = NULL;
  cusci_array *w3 = vec(xs, 3), *short_x = vec(xs, 5);
  refuses(cusci_signal_welch(host, x, 1000, 5000, -1, NULL, &f, &p), CUSCI_ERR_VALUE, "cusci_signal_welch", "welch nperseg 5000 of 4000 samples");
  refuses(cusci_signal_welch(host, x, 1000, 100, -1, &(cusci_signal_spectral_opts){.noverlap = 100}, &f, &p), CUSCI_ERR_VALUE, "cusci_signal_welch",
          "welch noverlap 100 = nperseg");
  refuses(cusci_signal_welch(host, x, 1000, 100, -1, &(cusci_signal_spectral_opts){.window = "hanning_x"}, &f, &p), CUSCI_ERR_VALUE,
          "cusci_signal_welch", "welch with an unknown window");
  refuses(cusci_signal_welch(host, x, 0, 100, -1, NULL, &f, &p), CUSCI_ERR_VALUE, "cusci_signal_welch", "welch fs 0");
  refuses(cusci_signal_welch(host, x, 1000, 100, -1, &(cusci_signal_spectral_opts){.nfft = 50}, &f, &p), CUSCI_ERR_VALUE, "cusci_signal_welch",
          "welch nfft 50 below nperseg 100");
  refuses(cusci_signal_welch(host, x, 1000, 100, -1, &(cusci_signal_spectral_opts){.win = w3}, &f, &p), CUSCI_ERR_VALUE, "cusci_signal_welch",
          "welch nperseg 100 with a window of 3");
  refuses(cusci_signal_welch(host, x, 1000, 100, 1, NULL, &f, &p), CUSCI_ERR_AXIS, "cusci_signal_welch", "welch axis 1 of a 1-d x");
  refuses(cusci_signal_welch(host, x, 1000, -4, -1, NULL, &f, &p), CUSCI_ERR_VALUE, "cusci_signal_welch", "welch nperseg -4");
  refuses(cusci_signal_csd(host, x, short_x, 1000, 4, -1, NULL, &f, &p), CUSCI_ERR_SHAPE, "cusci_signal_csd", "csd of x and y of other shapes");
  refuses(cusci_signal_periodogram(host, x, 1000, -1, &(cusci_signal_spectral_opts){.average = CUSCI_SIGNAL_AVERAGE_MEDIAN}, &f, &p),
          CUSCI_ERR_VALUE, "cusci_signal_periodogram", "periodogram with a median average");
  refuses(cusci_signal_coherence(host, x, x, 1000, 100, -1, &(cusci_signal_spectral_opts){.detrend = (cusci_signal_segment_trend)9}, &f, &p),
          CUSCI_ERR_VALUE, "cusci_signal_coherence", "coherence detrend 9");
  ok(!f && !p, "no result is left where a spectral estimate failed");
  cusci_array_release(x), cusci_array_release(w3), cusci_array_release(short_x);
}

/* The short-time transforms: istft(stft(x)) = x for windows and overlaps
 * that meet the NOLA condition (each boundary, odd and even nperseg, a
 * multichannel x along axis 0, a two-sided complex x); bad input. */
static void short_time(void)
{
  enum { N = 1000 };
  static double xs[2 * N];
  for (int i = 0; i < 2 * N; i++)
    xs[i] = sin(0.05 * i) + 0.3 * cos(0.0011 * (double)i * i);
  cusci_array *x = vec(xs, N), *x2 = mat(xs, N, 2);
  static const struct {
    const char *window;
    int64_t nperseg, noverlap;
    cusci_signal_stft_boundary boundary;
    bool twosided, psd;
  } rt[] = {
    { NULL, 256, 0, CUSCI_SIGNAL_STFT_BOUNDARY_ZEROS, false, false },
    { "hamming", 101, 75, CUSCI_SIGNAL_STFT_BOUNDARY_EVEN, false, true },
    { "blackman", 64, 48, CUSCI_SIGNAL_STFT_BOUNDARY_ODD, true, false },
    { "boxcar", 50, CUSCI_SIGNAL_NO_OVERLAP, CUSCI_SIGNAL_STFT_BOUNDARY_CONSTANT, false, false },
  };
  for (size_t c = 0; c < sizeof rt / sizeof *rt; c++)
    for (int multi = 0; multi < 2; multi++) {
      const cusci_signal_stft_opts so = { .window = rt[c].window, .noverlap = rt[c].noverlap, .return_twosided = rt[c].twosided,
                                          .boundary = rt[c].boundary, .psd_scaling = rt[c].psd };
      const cusci_signal_istft_opts io = { .window = rt[c].window, .nperseg = rt[c].nperseg, .noverlap = rt[c].noverlap,
                                           .input_twosided = rt[c].twosided, .psd_scaling = rt[c].psd };
      cusci_array *f = NULL, *t = NULL, *z = NULL, *ti = NULL, *xi = NULL, *crop = NULL, *re = NULL;
      const cusci_array *in = multi ? x2 : x;
      /* the multichannel x: its samples along axis 0, so Zxx is (nfreq, 2, nseg) */
      cusci_status st = cusci_signal_stft(host, in, 100, rt[c].nperseg, 0, &so, &f, &t, &z);
      if (st == CUSCI_OK)
        st = cusci_signal_istft(host, z, 100, 0, -1, &io, &ti, &xi);
      /* the result's samples: along axis 0 for (nfreq, 2, nseg); x's length and then padding */
      if (st == CUSCI_OK && rt[c].twosided)
        st = cusci_real(host, xi, &re);
      const cusci_array *r = re ? re : xi;
      /* x back as (2, samples): the time axis was Zxx's last */
      if (st == CUSCI_OK && multi)
        st = cusci_array_slice(host, (cusci_array *)r, (const int64_t[]){ 0, 0 }, (const int64_t[]){ 2, N }, (const int64_t[]){ 1, 1 }, &crop);
      else if (st == CUSCI_OK)
        st = cusci_array_slice(host, (cusci_array *)r, (const int64_t[]){ 0 }, (const int64_t[]){ N }, (const int64_t[]){ 1 }, &crop);
      cusci_array *back = NULL;
      if (st == CUSCI_OK && multi)
        st = cusci_array_transpose(host, crop, (const int[]){ 1, 0 }, &back);
      const int64_t nout = st == CUSCI_OK ? cusci_array_shape(xi)[multi] : 0;
      const double e = st == CUSCI_OK ? sd_err(host, back ? back : crop, host, in) : NAN;
      cusci_array_release(back);
      ok(st == CUSCI_OK && e < 1e-13 && nout >= N && cusci_array_size(ti) == nout && cusci_array_ndim(xi) == 1 + multi,
         "istft(stft(x)) = x (%s, nperseg %lld, noverlap %lld, boundary %d%s%s): %s, error %.2g", rt[c].window ? rt[c].window : "hann",
         (long long)rt[c].nperseg, (long long)rt[c].noverlap, (int)rt[c].boundary, rt[c].twosided ? ", two-sided" : "",
         multi ? ", 2 channels" : "", cusci_status_name(st), e);
      cusci_array *all[] = { f, t, z, ti, xi, crop, re };
      for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        cusci_array_release(all[i]);
    }
  /* psd mode = magnitude mode squared, doubled but at DC and Nyquist */
  cusci_array *f = NULL, *t = NULL, *p = NULL, *m = NULL, *m2 = NULL;
  cusci_status st = cusci_signal_spectrogram(host, x, 10, 64, -1, NULL, CUSCI_SIGNAL_SPECTROGRAM_PSD, &f, &t, &p);
  if (st == CUSCI_OK)
    st = cusci_signal_spectrogram(host, x, 10, 64, -1, NULL, CUSCI_SIGNAL_SPECTROGRAM_MAGNITUDE, &f, &t, &m);
  if (st == CUSCI_OK)
    st = cusci_square(host, m, &m2);
  double *hp = st == CUSCI_OK ? tk_to_host(host, p) : NULL, *hm = st == CUSCI_OK ? tk_to_host(host, m2) : NULL, worst = 0;
  const int64_t nseg = hp ? cusci_array_shape(p)[1] : 0;
  for (int64_t k = 0; hp && hm && k < 33; k++)
    for (int64_t s = 0; s < nseg; s++) {
      const double want = hm[k * nseg + s] * (k == 0 || k == 32 ? 1 : 2);
      worst = fmax(worst, fabs(hp[k * nseg + s] - want) / fmax(fabs(want), 1e-300));
    }
  ok(hp && hm && cusci_array_shape(p)[0] == 33 && nseg == (N - 64) / 56 + 1 && worst < 1e-13,
     "spectrogram: psd = magnitude^2, doubled but at DC and Nyquist (33 x %lld, noverlap 64 / 8): %s, %.2g", (long long)nseg,
     cusci_status_name(st), worst);
  free(hp), free(hm);
  cusci_array_release(f), cusci_array_release(t), cusci_array_release(p), cusci_array_release(m), cusci_array_release(m2);
  f = t = p = NULL;
  cusci_array *w3 = vec(xs, 3), *z = NULL, *x1 = NULL;
  refuses(cusci_signal_spectrogram(host, x, 1, 64, -1, NULL, (cusci_signal_spectrogram_mode)9, &f, &t, &p), CUSCI_ERR_VALUE,
          "cusci_signal_spectrogram", "spectrogram mode 9");
  refuses(cusci_signal_spectrogram(host, x, 1, 64, -1, &(cusci_signal_spectral_opts){ .average = CUSCI_SIGNAL_AVERAGE_MEDIAN },
                                   CUSCI_SIGNAL_SPECTROGRAM_PSD, &f, &t, &p),
          CUSCI_ERR_VALUE, "cusci_signal_spectrogram", "spectrogram with a median average");
  refuses(cusci_signal_spectrogram(host, x, 1, 2000, -1, NULL, CUSCI_SIGNAL_SPECTROGRAM_PSD, &f, &t, &p), CUSCI_ERR_VALUE,
          "cusci_signal_spectrogram", "spectrogram nperseg 2000 of 1000 samples");
  refuses(cusci_signal_stft(host, x, 1, 64, -1, &(cusci_signal_stft_opts){ .boundary = (cusci_signal_stft_boundary)9 }, &f, &t, &p),
          CUSCI_ERR_VALUE, "cusci_signal_stft", "stft boundary 9");
  refuses(cusci_signal_stft(host, x, 1, 64, -1, &(cusci_signal_stft_opts){ .noverlap = 64 }, &f, &t, &p), CUSCI_ERR_VALUE, "cusci_signal_stft",
          "stft noverlap 64 = nperseg");
  refuses(cusci_signal_stft(host, x, 1, 64, -1, &(cusci_signal_stft_opts){ .window = "hannn" }, &f, &t, &p), CUSCI_ERR_VALUE,
          "cusci_signal_stft", "stft with an unknown window");
  refuses(cusci_signal_stft(host, x, -1, 64, -1, NULL, &f, &t, &p), CUSCI_ERR_VALUE, "cusci_signal_stft", "stft fs -1");
  refuses(cusci_signal_istft(host, x, 1, -2, -1, NULL, &t, &x1), CUSCI_ERR_NDIM, "cusci_signal_istft", "istft of a 1-d Zxx");
  cusci_status zs = cusci_signal_stft(host, x, 1, 64, -1, NULL, &f, &t, &z);
  cusci_array_release(f), cusci_array_release(t);
  f = t = NULL;
  ok(zs == CUSCI_OK, "stft for istft's bad input: %s", cusci_status_name(zs));
  refuses(cusci_signal_istft(host, z, 1, -1, 1, NULL, &t, &x1), CUSCI_ERR_AXIS, "cusci_signal_istft", "istft freq_axis = time_axis");
  refuses(cusci_signal_istft(host, z, 1, -2, -1, &(cusci_signal_istft_opts){ .nfft = 32 }, &t, &x1), CUSCI_ERR_VALUE, "cusci_signal_istft",
          "istft nfft 32 below nperseg 64");
  refuses(cusci_signal_istft(host, z, 1, -2, -1, &(cusci_signal_istft_opts){ .win = w3 }, &t, &x1), CUSCI_ERR_VALUE, "cusci_signal_istft",
          "istft nperseg 64 with a window of 3");
  refuses(cusci_signal_istft(host, z, 1, -2, -1, &(cusci_signal_istft_opts){ .noverlap = 70 }, &t, &x1), CUSCI_ERR_VALUE, "cusci_signal_istft",
          "istft noverlap 70 above nperseg");
  refuses(cusci_signal_istft(host, z, 1, -2, 5, NULL, &t, &x1), CUSCI_ERR_AXIS, "cusci_signal_istft", "istft time_axis 5 of 2");
  ok(!f && !t && !p && !x1, "no result is left where a short-time transform failed");
  cusci_array_release(x), cusci_array_release(x2), cusci_array_release(w3), cusci_array_release(z);
}

/* The waveforms of t: a square wave of duty 0.25 is +1 a quarter of a
 * period; bad input. */
static void waveforms(void)
{
  enum { N = 4000 };
  static double ts[N];
  for (int i = 0; i < N; i++)
    ts[i] = 2 * M_PI * (i + 0.5) / N * 10; /* ten periods, off the jumps */
  cusci_array *t = vec(ts, N), *y = NULL, *q = NULL, *e = NULL;
  cusci_status st = cusci_signal_square(host, t, 0.25, &y);
  double *hy = st == CUSCI_OK ? tk_to_host(host, y) : NULL;
  int64_t up = 0;
  for (int i = 0; hy && i < N; i++)
    up += hy[i] == 1;
  ok(hy && up == N / 4, "square(t, 0.25) is +1 on a quarter of ten periods (%lld of %d): %s", (long long)up, N, cusci_status_name(st));
  free(hy);
  cusci_array_release(y);
  y = NULL;
  cusci_array *tc = NULL;
  cusci_array_astype(host, t, CUSCI_COMPLEX128, false, &tc);
  const cusci_signal_chirp_opts lg = {.method = CUSCI_SIGNAL_CHIRP_LOGARITHMIC}, hy_ = {.method = CUSCI_SIGNAL_CHIRP_HYPERBOLIC};
  refuses(cusci_signal_chirp(host, t, 1, 1, 2, &(cusci_signal_chirp_opts){.method = (cusci_signal_chirp_method)9}, &y), CUSCI_ERR_VALUE,
          "cusci_signal_chirp", "chirp method 9");
  refuses(cusci_signal_chirp(host, t, -1, 1, 2, &lg, &y), CUSCI_ERR_VALUE, "cusci_signal_chirp", "logarithmic chirp from -1 to 2");
  refuses(cusci_signal_chirp(host, t, 0, 1, 2, &hy_, &y), CUSCI_ERR_VALUE, "cusci_signal_chirp", "hyperbolic chirp from 0");
  refuses(cusci_signal_chirp(host, t, 1, 0, 2, NULL, &y), CUSCI_ERR_VALUE, "cusci_signal_chirp", "chirp with t1 0");
  refuses(cusci_signal_chirp(host, tc, 1, 1, 2, NULL, &y), CUSCI_ERR_DTYPE, "cusci_signal_chirp", "chirp of a complex t");
  refuses(cusci_signal_sweep_poly(host, t, 0, ts, 0, &y), CUSCI_ERR_VALUE, "cusci_signal_sweep_poly", "sweep_poly of no coefficients");
  refuses(cusci_signal_gausspulse(host, t, 1000, 0, -6, &y, &q, &e), CUSCI_ERR_VALUE, "cusci_signal_gausspulse", "gausspulse bw 0");
  refuses(cusci_signal_gausspulse(host, t, 1000, 0.5, 0, &y, NULL, NULL), CUSCI_ERR_VALUE, "cusci_signal_gausspulse", "gausspulse bwr 0 dB");
  refuses(cusci_signal_gausspulse(host, t, -5, 0.5, -6, &y, NULL, NULL), CUSCI_ERR_VALUE, "cusci_signal_gausspulse", "gausspulse fc -5");
  double cut = 0;
  refuses(cusci_signal_gausspulse_cutoff(host, 1000, 0.5, -6, 3, &cut), CUSCI_ERR_VALUE, "cusci_signal_gausspulse_cutoff", "gausspulse cutoff tpr 3 dB");
  refuses(cusci_signal_sawtooth(host, NULL, 1, &y), CUSCI_ERR_NULL_POINTER, "cusci_signal_sawtooth", "sawtooth of no t");
  const double w0[2] = {0, 0}, f3[3] = {0.1, 0.2, 0.3};
  refuses(cusci_signal_czt(host, t, -1, NULL, NULL, -1, &y), CUSCI_ERR_VALUE, "cusci_signal_czt", "czt m -1");
  refuses(cusci_signal_czt(host, t, 10, w0, NULL, -1, &y), CUSCI_ERR_VALUE, "cusci_signal_czt", "czt w 0");
  refuses(cusci_signal_czt(host, t, 10, NULL, NULL, 2, &y), CUSCI_ERR_AXIS, "cusci_signal_czt", "czt axis 2 of a 1-d x");
  refuses(cusci_signal_zoom_fft(host, t, 3, f3, 10, 2, false, -1, &y), CUSCI_ERR_VALUE, "cusci_signal_zoom_fft", "zoom_fft of 3 frequencies");
  refuses(cusci_signal_zoom_fft(host, t, 2, f3, 10, -1, false, -1, &y), CUSCI_ERR_VALUE, "cusci_signal_zoom_fft", "zoom_fft fs -1");
  refuses(cusci_signal_zoom_fft(host, t, 2, f3, 1, 2, true, -1, &y), CUSCI_ERR_VALUE, "cusci_signal_zoom_fft", "zoom_fft endpoint with m 1");
  cusci_array *zero = NULL, *m2 = mat(ts, 2, 3);
  const double z0 = 0;
  cusci_array_from_host(host, &z0, 0, NULL, CUSCI_FLOAT64, &zero);
  refuses(cusci_signal_vectorstrength(host, t, zero, &y, &q), CUSCI_ERR_VALUE, "cusci_signal_vectorstrength", "vectorstrength of period 0");
  refuses(cusci_signal_vectorstrength(host, m2, t, &y, &q), CUSCI_ERR_NDIM, "cusci_signal_vectorstrength", "vectorstrength of 2-d events");
  cusci_array *neg = NULL, *short_t = vec(ts, 7);
  cusci_ufunc_unary(host, CUSCI_UFUNC_NEGATIVE, cusci_operand_array(t), &neg);
  refuses(cusci_signal_lombscargle(host, t, t, short_t, &(cusci_signal_lombscargle_opts){.weights = neg}, &y), CUSCI_ERR_VALUE,
          "cusci_signal_lombscargle", "lombscargle with negative weights");
  refuses(cusci_signal_lombscargle(host, t, short_t, short_t, NULL, &y), CUSCI_ERR_SHAPE, "cusci_signal_lombscargle", "lombscargle of x and y of two lengths");
  refuses(cusci_signal_lombscargle(host, t, t, m2, NULL, &y), CUSCI_ERR_SHAPE, "cusci_signal_lombscargle", "lombscargle of 2-d freqs");
  refuses(cusci_signal_lombscargle(host, t, t, short_t, &(cusci_signal_lombscargle_opts){.normalize = (cusci_signal_lombscargle_norm)7}, &y),
          CUSCI_ERR_VALUE, "cusci_signal_lombscargle", "lombscargle normalize 7");
  cusci_array_release(zero), cusci_array_release(m2), cusci_array_release(neg), cusci_array_release(short_t);
  ok(!y && !q && !e, "no result is left where a waveform, chirp z-transform, vector strength or periodogram failed");
  cusci_array_release(t), cusci_array_release(tc);
}

/* FIR design beyond firwin: properties of the designs (a lowpass passes
 * DC and stops Nyquist, the taps are symmetric, minimum phase keeps the
 * square root of the magnitude) and bad input. */
static double tap_sum(cusci_array *h, double sign)
{
  double *v = h ? tk_to_host(host, h) : NULL, s = 0, f = 1;
  for (int64_t i = 0; v && i < cusci_array_size(h); i++, f *= sign)
    s += f * v[i];
  free(v);
  return h ? s : NAN;
}

static bool symmetric(cusci_array *h, double sign)
{
  double *v = h ? tk_to_host(host, h) : NULL;
  const int64_t n = h ? cusci_array_size(h) : 0;
  bool same = v != NULL;
  for (int64_t i = 0; same && i < n; i++)
    same = fabs(v[i] - sign * v[n - 1 - i]) <= 1e-15; /* taps below 1 */
  free(v);
  return same;
}

static void fir_design(void)
{
  const double lp[4] = {0, 0.2, 0.3, 0.5}, d2[2] = {1, 0}, ld[4] = {1, 1, 0, 0}, lp1[4] = {0, 0.4, 0.6, 1};
  cusci_array *h = NULL, *m = NULL;
  cusci_status st = cusci_signal_remez(host, 65, 2, lp, d2, NULL, &h);
  ok(st == CUSCI_OK && fabs(tap_sum(h, 1) - 1) < 1e-2 && fabs(tap_sum(h, -1)) < 1e-2 && symmetric(h, 1),
     "remez(65) lowpass: DC %.6f, Nyquist %.2g, symmetric", tap_sum(h, 1), tap_sum(h, -1));
  const cusci_signal_minimum_phase_opts mo = {0};
  st = cusci_signal_minimum_phase(host, h, &mo, &m);
  ok(st == CUSCI_OK && cusci_array_size(m) == 33 && fabs(tap_sum(m, 1) - sqrt(tap_sum(h, 1))) < 1e-3,
     "minimum_phase of it: 33 taps, DC gain %.6f = sqrt(%.6f)", tap_sum(m, 1), tap_sum(h, 1));
  cusci_array_release(h), cusci_array_release(m), h = m = NULL;
  const double hb[2] = {0.05, 0.45}, one = 1;
  st = cusci_signal_remez(host, 31, 1, hb, &one, &(cusci_signal_remez_opts){.type = CUSCI_SIGNAL_REMEZ_HILBERT}, &h);
  ok(st == CUSCI_OK && symmetric(h, -1) && fabs(tap_sum(h, 1)) < 1e-12, "remez(31) hilbert: antisymmetric, no DC");
  cusci_array_release(h), h = NULL;
  st = cusci_signal_firls(host, 41, 2, lp1, ld, NULL, 0, &h);
  ok(st == CUSCI_OK && fabs(tap_sum(h, 1) - 1) < 1e-2 && fabs(tap_sum(h, -1)) < 1e-2 && symmetric(h, 1), "firls(41) lowpass: DC %.6f, Nyquist %.2g",
     tap_sum(h, 1), tap_sum(h, -1));
  cusci_array_release(h), h = NULL;
  const double f3[3] = {0, 0.5, 1}, g3[3] = {1, 1, 0};
  st = cusci_signal_firwin2(host, 51, 4, lp1, ld, NULL, &h);
  ok(st == CUSCI_OK && fabs(tap_sum(h, 1) - 1) < 1e-2 && fabs(tap_sum(h, -1)) < 1e-2 && symmetric(h, 1), "firwin2(51) lowpass: DC %.6f, Nyquist %.2g",
     tap_sum(h, 1), tap_sum(h, -1));
  cusci_array_release(h), h = NULL;

  const double f_bad[3] = {0.1, 0.5, 1}, f_thrice[5] = {0, .5, .5, .5, 1}, g5[5] = {1, 1, 0, 0, 0}, g_ny[3] = {1, 1, 1};
  refuses(cusci_signal_firwin2(host, 51, 3, f_bad, g3, NULL, &h), CUSCI_ERR_VALUE, "cusci_signal_firwin2", "firwin2 freq not from 0");
  refuses(cusci_signal_firwin2(host, 51, 5, f_thrice, g5, NULL, &h), CUSCI_ERR_VALUE, "cusci_signal_firwin2", "firwin2 a frequency three times");
  refuses(cusci_signal_firwin2(host, 50, 3, f3, g_ny, NULL, &h), CUSCI_ERR_VALUE, "cusci_signal_firwin2", "firwin2 type II with gain at Nyquist");
  refuses(cusci_signal_firwin2(host, 51, 3, f3, g3, &(cusci_signal_firwin2_opts){.nfreqs = 40}, &h), CUSCI_ERR_VALUE, "cusci_signal_firwin2",
          "firwin2 nfreqs below numtaps");
  refuses(cusci_signal_firwin2(host, 51, 3, f3, g3, &(cusci_signal_firwin2_opts){.window = "pooka"}, &h), CUSCI_ERR_VALUE, "cusci_signal_firwin2",
          "firwin2 an unknown window");
  const double overlap[4] = {0, 0.5, 0.4, 1}, neg[4] = {1, -1, 0, 0};
  refuses(cusci_signal_firls(host, 40, 2, lp1, ld, NULL, 0, &h), CUSCI_ERR_VALUE, "cusci_signal_firls", "firls even numtaps");
  refuses(cusci_signal_firls(host, 41, 2, overlap, ld, NULL, 0, &h), CUSCI_ERR_VALUE, "cusci_signal_firls", "firls overlapping bands");
  refuses(cusci_signal_firls(host, 41, 2, lp1, neg, NULL, 0, &h), CUSCI_ERR_VALUE, "cusci_signal_firls", "firls a negative gain");
  refuses(cusci_signal_firls(host, 41, 2, lp1, ld, NULL, 1.5, &h), CUSCI_ERR_VALUE, "cusci_signal_firls", "firls a band above fs/2");
  const double narrow[2] = {1000, 1000}, back[4] = {0, 0.3, 0.2, 0.5}, zero_w[2] = {1, 0};
  refuses(cusci_signal_remez(host, 1, 2, lp, d2, NULL, &h), CUSCI_ERR_VALUE, "cusci_signal_remez", "remez one tap");
  refuses(cusci_signal_remez(host, 11, 2, lp, d2, &(cusci_signal_remez_opts){.type = (cusci_signal_remez_type)7}, &h), CUSCI_ERR_VALUE,
          "cusci_signal_remez", "remez type 7");
  refuses(cusci_signal_remez(host, 101, 1, narrow, &one, &(cusci_signal_remez_opts){.fs = 20000}, &h), CUSCI_ERR_VALUE, "cusci_signal_remez",
          "remez a band too narrow for the grid (scipy#24495)");
  refuses(cusci_signal_remez(host, 11, 2, back, d2, NULL, &h), CUSCI_ERR_VALUE, "cusci_signal_remez", "remez bands not monotonic");
  refuses(cusci_signal_remez(host, 11, 2, lp, d2, &(cusci_signal_remez_opts){.weight = zero_w}, &h), CUSCI_ERR_VALUE, "cusci_signal_remez",
          "remez a zero weight");
  refuses(cusci_signal_remez(host, 11, 2, lp, d2, &(cusci_signal_remez_opts){.fs = 0.8}, &h), CUSCI_ERR_VALUE, "cusci_signal_remez",
          "remez a band edge above fs/2");
  const double three[3] = {1, 2, 1}, two[2] = {1, 1};
  cusci_array *c3 = NULL, *r2 = vec(two, 2), *r3 = vec(three, 3);
  const int64_t n3 = 3;
  cusci_array_zeros(host, 1, &n3, CUSCI_COMPLEX128, &c3);
  refuses(cusci_signal_minimum_phase(host, c3, NULL, &h), CUSCI_ERR_DTYPE, "cusci_signal_minimum_phase", "minimum_phase a complex filter");
  refuses(cusci_signal_minimum_phase(host, r2, NULL, &h), CUSCI_ERR_SHAPE, "cusci_signal_minimum_phase", "minimum_phase two taps");
  refuses(cusci_signal_minimum_phase(host, r3, &(cusci_signal_minimum_phase_opts){.method = CUSCI_SIGNAL_MINIMUM_PHASE_HILBERT, .whole = true}, &h),
          CUSCI_ERR_VALUE, "cusci_signal_minimum_phase", "minimum_phase hilbert with whole");
  refuses(cusci_signal_minimum_phase(host, r3, &(cusci_signal_minimum_phase_opts){.n_fft = 2}, &h), CUSCI_ERR_VALUE, "cusci_signal_minimum_phase",
          "minimum_phase n_fft below len(h)");
  ok(!h, "no result is left where an FIR design failed");
  cusci_array_release(c3), cusci_array_release(r2), cusci_array_release(r3);
}

/* Sequences and the STFT window checks: bad input. */
static void sequences(void)
{
  bool r = true;
  cusci_array *h = NULL, *w = NULL;
  const double wv[4] = {1, 1, 1, 1};
  w = vec(wv, 4);
  refuses(cusci_signal_check_COLA(host, "hann", NULL, 64, 64, CUSCI_SIGNAL_COLA_TOL, &r), CUSCI_ERR_VALUE, "cusci_signal_check_COLA",
          "check_COLA noverlap = nperseg");
  refuses(cusci_signal_check_NOLA(host, "hann", NULL, 64, -1, CUSCI_SIGNAL_COLA_TOL, &r), CUSCI_ERR_VALUE, "cusci_signal_check_NOLA",
          "check_NOLA a negative noverlap");
  refuses(cusci_signal_check_COLA(host, "hann", w, 4, 2, CUSCI_SIGNAL_COLA_TOL, &r), CUSCI_ERR_INVALID_ARGUMENT, "cusci_signal_check_COLA",
          "check_COLA a name and values");
  refuses(cusci_signal_check_COLA(host, NULL, w, 8, 2, CUSCI_SIGNAL_COLA_TOL, &r), CUSCI_ERR_SHAPE, "cusci_signal_check_COLA",
          "check_COLA a window of the wrong length");
  refuses(cusci_signal_check_COLA(host, "pooka", NULL, 8, 2, CUSCI_SIGNAL_COLA_TOL, &r), CUSCI_ERR_VALUE, "cusci_signal_check_COLA",
          "check_COLA an unknown window");
  const cusci_status st = cusci_signal_check_COLA(host, NULL, w, 4, 2, CUSCI_SIGNAL_COLA_TOL, &r);
  ok(st == CUSCI_OK && r, "check_COLA of a boxcar of 4 at overlap 2: true");
  const int64_t shape[2] = {3, 4}, far[2] = {1, 4};
  refuses(cusci_signal_unit_impulse(host, 2, shape, far, false, CUSCI_FLOAT64, &h), CUSCI_ERR_VALUE, "cusci_signal_unit_impulse",
          "unit_impulse an index out of bounds");
  refuses(cusci_signal_unit_impulse(host, 2, shape, far, true, CUSCI_FLOAT64, &h), CUSCI_ERR_INVALID_ARGUMENT, "cusci_signal_unit_impulse",
          "unit_impulse idx and mid");
  const int8_t zeros[4] = {0};
  const int big_tap = 9;
  refuses(cusci_signal_max_len_seq(host, 40, NULL, 10, 0, NULL, &h, NULL), CUSCI_ERR_VALUE, "cusci_signal_max_len_seq",
          "max_len_seq 40 bits without taps");
  refuses(cusci_signal_max_len_seq(host, 4, zeros, 10, 0, NULL, &h, NULL), CUSCI_ERR_VALUE, "cusci_signal_max_len_seq",
          "max_len_seq an all-zero state");
  refuses(cusci_signal_max_len_seq(host, 4, NULL, 10, 1, &big_tap, &h, NULL), CUSCI_ERR_VALUE, "cusci_signal_max_len_seq",
          "max_len_seq a tap above nbits");
  refuses(cusci_signal_max_len_seq(host, 4, NULL, -5, 0, NULL, &h, NULL), CUSCI_ERR_VALUE, "cusci_signal_max_len_seq",
          "max_len_seq a negative length");
  const double w0[2] = {0, 0};
  refuses(cusci_signal_czt_points(host, 0, NULL, NULL, &h), CUSCI_ERR_VALUE, "cusci_signal_czt_points", "czt_points m 0");
  refuses(cusci_signal_czt_points(host, 8, w0, NULL, &h), CUSCI_ERR_VALUE, "cusci_signal_czt_points", "czt_points w 0");
  ok(!h, "no result is left where a sequence failed");
  cusci_array *idx[2] = {NULL, NULL}, *c3 = NULL;
  const int64_t n3 = 3;
  refuses(cusci_signal_argrelmax(host, w, 0, 0, CUSCI_SIGNAL_TAKE_CLIP, idx), CUSCI_ERR_VALUE, "cusci_signal_argrelmax", "argrelmax order 0");
  refuses(cusci_signal_argrelmin(host, w, 1, 1, CUSCI_SIGNAL_TAKE_CLIP, idx), CUSCI_ERR_AXIS, "cusci_signal_argrelmin", "argrelmin axis 1 of 1-d x");
  refuses(cusci_signal_argrelextrema(host, w, (cusci_signal_comparator)9, 0, 1, CUSCI_SIGNAL_TAKE_CLIP, idx), CUSCI_ERR_VALUE,
          "cusci_signal_argrelextrema", "argrelextrema comparator 9");
  cusci_array_zeros(host, 1, &n3, CUSCI_COMPLEX64, &c3);
  refuses(cusci_signal_argrelmax(host, c3, 0, 1, CUSCI_SIGNAL_TAKE_WRAP, idx), CUSCI_ERR_DTYPE, "cusci_signal_argrelmax", "argrelmax complex x");
  ok(!idx[0], "no index array is left where argrelextrema failed");
  idx[0] = w;
  refuses(cusci_signal_argrelmax(host, w, 0, 1, CUSCI_SIGNAL_TAKE_CLIP, idx), CUSCI_ERR_INVALID_ARGUMENT, "cusci_signal_argrelmax",
          "argrelmax out[0] not NULL");
  cusci_array_release(c3);
  cusci_array_release(w);
}

/* Peaks: opts NULL finds every local maximum, properties only where asked;
 * bad input. */
static void peaks(void)
{
  const double xs[] = {0, 2, 1, 3, 3, 1, 4, 0, 1, 0};
  cusci_array *x = vec(xs, 10), *pk = NULL, *m2 = mat(xs, 2, 5), *pr = NULL, *lb = NULL, *rb = NULL;
  cusci_status st = cusci_signal_find_peaks(host, x, NULL, &pk);
  int64_t got[8] = {0};
  if (st == CUSCI_OK && cusci_array_size(pk) <= 8)
    st = cusci_array_to_host(host, pk, got, sizeof got[0] * (size_t)cusci_array_size(pk));
  ok(st == CUSCI_OK && cusci_array_size(pk) == 4 && got[0] == 1 && got[1] == 3 && got[2] == 6 && got[3] == 8 &&
         cusci_array_dtype(pk) == CUSCI_INT64,
     "find_peaks(opts NULL) of [0 2 1 3 3 1 4 0 1 0] = [1 3 6 8] (a plateau's left middle), int64: %s", cusci_status_name(st));
  cusci_signal_peak_properties pp = {NULL};
  cusci_array_release(pk), pk = NULL;
  st = cusci_signal_find_peaks(host, x, &(cusci_signal_find_peaks_opts){.height = {.has_min = true, .min = 2}, .properties = &pp}, &pk);
  ok(st == CUSCI_OK && cusci_array_size(pk) == 3 && pp.peak_heights && cusci_array_size(pp.peak_heights) == 3 && !pp.prominences && !pp.widths,
     "find_peaks(height >= 2): three peaks, peak_heights alone among the properties: %s", cusci_status_name(st));
  cusci_array_release(pk), cusci_array_release(pp.peak_heights), pk = NULL;
  refuses(cusci_signal_find_peaks(host, m2, NULL, &pk), CUSCI_ERR_NDIM, "cusci_signal_find_peaks", "find_peaks of a 2-d x");
  refuses(cusci_signal_find_peaks(host, x, &(cusci_signal_find_peaks_opts){.distance = 0.5}, &pk), CUSCI_ERR_VALUE, "cusci_signal_find_peaks",
          "find_peaks distance 0.5");
  refuses(cusci_signal_find_peaks(host, x, &(cusci_signal_find_peaks_opts){.wlen = 1}, &pk), CUSCI_ERR_VALUE, "cusci_signal_find_peaks",
          "find_peaks wlen 1");
  refuses(cusci_signal_find_peaks(host, x, &(cusci_signal_find_peaks_opts){.rel_height = -1}, &pk), CUSCI_ERR_VALUE, "cusci_signal_find_peaks",
          "find_peaks rel_height -1");
  refuses(cusci_signal_find_peaks(host, x, &(cusci_signal_find_peaks_opts){.width = {.has_max = true, .max = NAN}}, &pk), CUSCI_ERR_VALUE,
          "cusci_signal_find_peaks", "find_peaks width below NaN");
  const double bad[] = {3, 12};
  cusci_array *fp = vec(bad, 2), *ip = NULL;
  cusci_array_astype(host, fp, CUSCI_INT64, true, &ip);
  refuses(cusci_signal_peak_prominences(host, x, fp, 0, &pr, &lb, &rb), CUSCI_ERR_DTYPE, "cusci_signal_peak_prominences",
          "peak_prominences of float peaks");
  refuses(cusci_signal_peak_prominences(host, x, ip, 0, &pr, &lb, &rb), CUSCI_ERR_VALUE, "cusci_signal_peak_prominences",
          "peak_prominences of a peak at 12 of 10 values");
  cusci_array *w = NULL, *wh = NULL, *li = NULL, *ri = NULL;
  refuses(cusci_signal_peak_widths(host, x, ip, -0.5, 0, &w, &wh, &li, &ri), CUSCI_ERR_VALUE, "cusci_signal_peak_widths",
          "peak_widths rel_height -0.5");
  ok(!pk && !pr && !lb && !rb && !w && !wh && !li && !ri, "no result is left where a peak function failed");
  cusci_array_release(x), cusci_array_release(m2), cusci_array_release(fp), cusci_array_release(ip);
}

int main(void)
{
  host = tk_host_ctx();
  sd_fixtures(host, NULL);
  sd_chain(host);
  properties();
  ripple_properties();
  spec_properties();
  bad_input();
  conversions();
  responses();
  notches();
  spectra();
  short_time();
  waveforms();
  peaks();
  fir_design();
  sequences();
  cusci_ctx_destroy(host);
  return done_testing();
}
