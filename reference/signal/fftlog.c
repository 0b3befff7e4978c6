/*
 * reference/signal/fftlog.c: the coefficients of the fast Hankel
 * transform by the FFTLog algorithm (A. J. S. Hamilton, "Uncorrelated
 * modes of the non-linear power spectrum", MNRAS 312, 2000, appendix B;
 * J. D. Talman, J. Comp. Phys. 29, 1978), as scipy.fft defines them, and
 * the complex log-gamma function they need.
 */
#include "reference/signal/reference.h"

#include <complex.h>
#include <math.h>

#define LN_2 0.693147180559945309417232121458176568
#define PI 3.14159265358979323846264338327950288

/*
 * log Gamma(z) up to a multiple of 2 pi i (which the coefficients, being
 * exponentials or compared modulo an integer, never see): Stirling's
 * series to z^-13 once Re z >= 10, after the recurrence
 * log Gamma(z) = log Gamma(z + 1) - log z. Its error is under 1e-16
 * relative there; at a pole (z = 0, -1, ...) the real part is +inf.
 */
static double complex loggamma(double complex z)
{
  static const double c[7] = { 1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156 };
  double complex shift = 0;
  while (creal(z) < 10) {
    shift += clog(z);
    z += 1;
  }
  const double complex r = 1 / z, r2 = r * r;
  double complex s = 0, p = r;
  for (int k = 0; k < 7; k++, p *= r2)
    s += c[k] * p;
  return (z - 0.5) * clog(z) - z + 0.5 * log(2 * PI) + s - shift;
}

/* Gamma(b) / Gamma(a), the limit at the poles: 0 where only a is one,
 * infinite where only b is, and (-1)^(i - j) i! / j! where a = -i and
 * b = -j. */
static double gamma_ratio(double b, double a)
{
  const bool pa = a <= 0 && a == floor(a), pb = b <= 0 && b == floor(b);
  if (pa && pb) {
    double r = 1;
    for (double k = -a; k > -b; k--)
      r *= k; /* i! / j! for i = -a > j = -b */
    for (double k = -b; k > -a; k--)
      r /= k;
    return fmod(fabs(a - b), 2.0) == 1.0 ? -r : r;
  }
  if (pa)
    return 0;
  if (pb)
    return INFINITY;
  return exp(lgamma(b) - lgamma(a)) * (signbit(tgamma(b)) != signbit(tgamma(a)) ? -1.0 : 1.0);
}

void cusci__fht_coeff(int64_t n, double dln, double mu, double offset, double bias, bool inverse, void *out)
{
  double complex *m = out;
  const double q = bias, xp = (mu + 1 + q) / 2, xm = (mu + 1 - q) / 2;
  const int64_t h = n / 2;
  const double stop = PI * (double)h / ((double)n * dln), step = h ? stop / (double)h : 0;
  for (int64_t k = 0; k <= h; k++) {
    const double y = k == h ? stop : (double)k * step;
    const double complex zp = loggamma(xp + I * y), zm = loggamma(xm + I * y);
    double complex u = cexp((creal(zp) - creal(zm) + LN_2 * q) + I * (cimag(zp) + cimag(zm) + 2 * y * (LN_2 - offset)));
    if (k == h && n % 2 == 0)
      u = creal(u);
    if (k == 0 && !(isfinite(creal(u)) && isfinite(cimag(u))))
      u = exp2(q) * gamma_ratio(xp, xm);
    if (!inverse)
      m[k] = k == 0 && isinf(creal(u)) ? 0 : u;
    else
      m[k] = k == 0 && u == 0 ? 0 : 1 / conj(u);
  }
}

double cusci__fhtoffset(double dln, double mu, double initial, double bias)
{
  const double q = bias, xp = (mu + 1 + q) / 2, xm = (mu + 1 - q) / 2, y = PI / (2 * dln);
  const double complex zp = loggamma(xp + I * y), zm = loggamma(xm + I * y);
  const double arg = (LN_2 - initial) / dln + (cimag(zp) + cimag(zm)) / PI;
  return initial + (arg - nearbyint(arg)) * dln;
}
