/*
 * reference/signal/freqresp.c: frequency responses of linear systems as
 * scipy.signal's freqz, freqz_zpk, freqs, freqs_zpk, findfreqs and
 * group_delay evaluate them, in float64 and complex128, with NumPy's
 * complex quotient.
 */
#include "design.h"

#include <math.h>
#include <stdlib.h>

void cusci__sig_linspace(double start, double stop, int64_t n, bool endpoint, double *w)
{
  const int64_t div = endpoint ? n - 1 : n;
  const double step = div > 0 ? (stop - start) / (double)div : 0;
  for (int64_t i = 0; i < n; i++)
    w[i] = (double)i * step + start;
  if (endpoint && n > 1)
    w[n - 1] = stop;
}

/* c[0] + c[1] x + ... (numpy.polynomial.polynomial.polyval). */
static double complex polyval_low(const double complex *c, int64_t n, double complex x)
{
  if (n == 0)
    return 0;
  double complex r = c[n - 1];
  for (int64_t i = n - 2; i >= 0; i--)
    r = c[i] + cusci__sig_np_mul(r, x);
  return r;
}

/* c[0] x^(n-1) + ... + c[n-1] (numpy.polyval). */
static double complex polyval_high(const double complex *c, int64_t n, double complex x)
{
  double complex r = 0;
  for (int64_t i = 0; i < n; i++)
    r = cusci__sig_np_mul(r, x) + c[i];
  return r;
}

/* prod(x - r) (numpy.polynomial.polynomial.polyvalfromroots). */
static double complex fromroots(const double complex *r, int64_t n, double complex x)
{
  double complex v = 1;
  for (int64_t i = 0; i < n; i++)
    v = cusci__sig_np_mul(v, x - r[i]);
  return v;
}

static double complex expi(double t)
{
  return CMPLX(cos(t), sin(t));
}

void cusci__sig_freqz(const double complex *b, int64_t nb, const double complex *a, int64_t na, const double *w, int64_t n, double complex *h)
{
  for (int64_t i = 0; i < n; i++) {
    const double complex zm1 = expi(-w[i]);
    h[i] = cusci__sig_np_div(polyval_low(b, nb, zm1), polyval_low(a, na, zm1));
  }
}

void cusci__sig_freqz_zpk(const double complex *z, int64_t nz, const double complex *p, int64_t np, double k, const double *w, int64_t n,
                          double complex *h)
{
  for (int64_t i = 0; i < n; i++) {
    const double complex x = expi(w[i]);
    h[i] = cusci__sig_np_div(k * fromroots(z, nz, x), fromroots(p, np, x));
  }
}

void cusci__sig_freqs(const double complex *b, int64_t nb, const double complex *a, int64_t na, const double *w, int64_t n, double complex *h)
{
  for (int64_t i = 0; i < n; i++) {
    const double complex s = CMPLX(0, w[i]);
    h[i] = cusci__sig_np_div(polyval_high(b, nb, s), polyval_high(a, na, s));
  }
}

void cusci__sig_freqs_zpk(const double complex *z, int64_t nz, const double complex *p, int64_t np, double k, const double *w, int64_t n,
                          double complex *h)
{
  for (int64_t i = 0; i < n; i++) {
    const double complex s = CMPLX(0, w[i]);
    h[i] = k * cusci__sig_np_div(fromroots(z, nz, s), fromroots(p, np, s));
  }
}

void cusci__sig_findfreqs(const double complex *ep, int64_t nep, const double complex *tz, int64_t ntz, int64_t N, double *w)
{
  /* the poles (or a pole at -1000 when there is none) and the zeros below
   * 1e5 in magnitude, those in the upper half plane */
  static const double complex none = -1000;
  if (nep == 0)
    ep = &none, nep = 1;
  double hi = -INFINITY, lo = INFINITY;
  for (int64_t i = 0; i < nep + ntz; i++) {
    const double complex e = i < nep ? ep[i] : tz[i - nep];
    if (cimag(e) < 0 || (i >= nep && !(cabs(e) < 1e5)))
      continue;
    const double integ = cabs(e) < 1e-10 ? 1 : 0;
    hi = fmax(hi, 3 * fabs(creal(e) + integ) + 1.5 * cimag(e));
    lo = fmin(lo, fabs(creal(e) + integ) + 2 * cimag(e));
  }
  const double hfreq = nearbyint(log10(hi) + 0.5), lfreq = nearbyint(log10(0.1 * lo) - 0.5);
  cusci__sig_linspace(lfreq, hfreq, N, true, w);
  for (int64_t i = 0; i < N; i++)
    w[i] = pow(10, w[i]);
}

int cusci__sig_group_delay(const double complex *b, int64_t nb, const double complex *a, int64_t na, const double *w, int64_t n, double *gd)
{
  /* c = b * conj(a reversed); gd = Re(sum i c_i z^i / sum c_i z^i) - (na - 1) at z = e^{-iw} */
  const int64_t nc = nb + na - 1;
  double complex *c = malloc(sizeof *c * (size_t)(2 * nc));
  if (!c)
    return CUSCI__SIG_DESIGN_MEMORY;
  double complex *cr = c + nc;
  for (int64_t i = 0; i < nc; i++)
    c[i] = 0;
  for (int64_t i = 0; i < nb; i++)
    for (int64_t j = 0; j < na; j++)
      c[i + j] += cusci__sig_np_mul(b[i], conj(a[na - 1 - j]));
  for (int64_t i = 0; i < nc; i++)
    cr[i] = c[i] * (double)i;
  for (int64_t i = 0; i < n; i++) {
    const double complex z = expi(-w[i]);
    const double g = creal(cusci__sig_np_div(polyval_low(cr, nc, z), polyval_low(c, nc, z))) - (double)na + 1;
    gd[i] = isfinite(g) ? g : 0; /* SciPy sets a singular delay to 0 */
  }
  free(c);
  return 0;
}

void cusci__sig_sosfreqz(const double *sos, int64_t nsec, const double *w, int64_t n, double complex *h)
{
  for (int64_t i = 0; i < n; i++)
    h[i] = 1;
  for (int64_t s = 0; s < nsec; s++) {
    const double complex b[3] = {sos[6 * s], sos[6 * s + 1], sos[6 * s + 2]}, a[3] = {sos[6 * s + 3], sos[6 * s + 4], sos[6 * s + 5]};
    for (int64_t i = 0; i < n; i++) {
      const double complex zm1 = expi(-w[i]);
      h[i] = cusci__sig_np_mul(h[i], cusci__sig_np_div(polyval_low(b, 3, zm1), polyval_low(a, 3, zm1)));
    }
  }
}
