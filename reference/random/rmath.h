/*
 * reference/random/rmath.h: the elementary functions that the samplers use,
 * written once in plain double arithmetic (+, -, *, /, sqrt, floor), so that
 * the host and the GPU round every step the same way and agree bit for bit.
 * libm's log or CUDA's log may differ in the last bit, and a sampler that
 * compares against a threshold would then take another branch.
 *
 * Both sides must compile this without contracting a*b+c into an FMA: the
 * kernels are built with nvcc -fmad=false and the host with
 * -ffp-contract=off.
 *
 * log, exp and the sine and cosine kernels follow FDLIBM 5.3 (Sun
 * Microsystems, 1993: e_log.c, e_exp.c, k_sin.c, k_cos.c): the same
 * argument reductions and minimax coefficients, accurate to about one ulp.
 */
#ifndef CUSCI_REFERENCE_RANDOM_RMATH_H
#define CUSCI_REFERENCE_RANDOM_RMATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <cusci/kit/convert.h>

#include "reference/random/philox.h"

#define CUSCI__PI 3.14159265358979323846
#define CUSCI__INF (1.0 / 0.0)

/* sqrt is correctly rounded on both sides (IEEE 754). */
CUSCI_HD double cusci__rsqrt(double x)
{
  return sqrt(x);
}

/*
 * Natural logarithm (FDLIBM e_log.c). x = 2^k (1 + f) with 1 + f in
 * [sqrt(2)/2, sqrt(2)); log(1 + f) = f - hfsq + s (hfsq + R(z)) with
 * s = f / (2 + f), z = s^2 and R a minimax polynomial.
 * log(0) = -inf, log(x < 0) = NaN, log(inf) = inf, log(NaN) = NaN.
 */
CUSCI_HD double cusci__rlog(double x)
{
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double Lg1 = 6.666666666666735130e-01, Lg2 = 3.999999999940941908e-01,
               Lg3 = 2.857142874366239149e-01, Lg4 = 2.222219843214978396e-01,
               Lg5 = 1.818357216161805012e-01, Lg6 = 1.531383769920937332e-01,
               Lg7 = 1.479819860511658591e-01;
  if (x != x || x < 0)
    return 0.0 / 0.0;
  if (x == 0)
    return -CUSCI__INF;
  if (x == CUSCI__INF)
    return x;
  int k = 0;
  uint64_t b = cusci_double_bits(x);
  if ((b >> 52) == 0) { /* subnormal: scale by 2^54 */
    x *= 18014398509481984.0;
    b = cusci_double_bits(x);
    k = -54;
  }
  k += (int)(b >> 52) - 1023;
  uint64_t m = b & UINT64_C(0x000fffffffffffff);
  double y = cusci_bits_double(m | UINT64_C(0x3ff0000000000000)); /* in [1, 2) */
  if (y > 1.4142135623730951) {
    y *= 0.5;
    k++;
  }
  double f = y - 1.0;
  double dk = (double)k;
  double s = f / (2.0 + f);
  double z = s * s;
  double w = z * z;
  double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
  double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
  double R = t2 + t1;
  double hfsq = 0.5 * f * f;
  return dk * ln2_hi - ((hfsq - (s * (hfsq + R) + dk * ln2_lo)) - f);
}

/*
 * log(1 + x), accurate for small x: with u = 1 + x rounded, the rounding
 * error is undone by the factor x / (u - 1) (Goldberg, "What every computer
 * scientist should know about floating-point arithmetic", 1991, Thm. 4).
 */
CUSCI_HD double cusci__rlog1p(double x)
{
  double u = 1.0 + x;
  if (u == 1.0)
    return x;
  return cusci__rlog(u) * (x / (u - 1.0));
}

/*
 * Exponential (FDLIBM e_exp.c). x = k ln2 + r with |r| <= ln2 / 2;
 * exp(r) = 1 + r + r c / (2 - c) with c = r - r^2 P(r^2); then scale by 2^k.
 */
CUSCI_HD double cusci__rexp(double x)
{
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10,
               invln2 = 1.44269504088896338700e+00;
  const double P1 = 1.66666666666666019037e-01, P2 = -2.77777777770155933842e-03,
               P3 = 6.61375632143793436117e-05, P4 = -1.65339022054652515390e-06,
               P5 = 4.13813679705723846039e-08;
  if (x != x)
    return x;
  if (x > 7.09782712893383973096e+02)
    return CUSCI__INF;
  if (x < -7.45133219101941108420e+02)
    return 0.0;
  if (x > -3.7252902984e-09 && x < 3.7252902984e-09)
    return 1.0 + x;
  int k = (int)(invln2 * x + (x < 0 ? -0.5 : 0.5));
  double dk = (double)k;
  double hi = x - dk * ln2_hi;
  double lo = dk * ln2_lo;
  double r = hi - lo;
  double t = r * r;
  double c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  if (k >= -1021)
    return cusci_bits_double(cusci_double_bits(y) + ((uint64_t)(int64_t)k << 52));
  return cusci_bits_double(cusci_double_bits(y) + ((uint64_t)(int64_t)(k + 1000) << 52)) * 9.33263618503218878990e-302;
}

/* x^y for x >= 0 as exp(y log x): the samplers need a few ulps, not one. */
CUSCI_HD double cusci__rpow(double x, double y)
{
  if (y == 0.0)
    return 1.0;
  if (x == 0.0)
    return y > 0 ? 0.0 : CUSCI__INF;
  return cusci__rexp(y * cusci__rlog(x));
}

/* sin and cos on [-pi/4, pi/4] (FDLIBM k_sin.c, k_cos.c, tails dropped). */
CUSCI_HD double cusci__rsin_k(double x)
{
  const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
               S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
               S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
  double z = x * x;
  double v = z * x;
  double r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  return x + v * (S1 + z * r);
}

CUSCI_HD double cusci__rcos_k(double x)
{
  const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
               C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
               C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
  double z = x * x;
  double r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  double hz = 0.5 * z;
  double w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + z * r);
}

/*
 * sin(2 pi u) and cos(2 pi u) for u in [0, 1]: 4u = q + t with q an integer
 * and |t| <= 1/2 (exact, since u is a dyadic fraction), then the kernels at
 * t pi/2 and the quadrant's symmetry.
 */
CUSCI_HD void cusci__rsincos_2pi(double u, double *s, double *c)
{
  double v = 4.0 * u;
  double q = floor(v + 0.5);
  double x = (v - q) * (CUSCI__PI / 2);
  double sk = cusci__rsin_k(x), ck = cusci__rcos_k(x);
  switch ((int)q & 3) {
  case 0: *s = sk; *c = ck; break;
  case 1: *s = ck; *c = -sk; break;
  case 2: *s = -sk; *c = -ck; break;
  default: *s = -ck; *c = sk; break;
  }
}

/* cos(pi u) for u in [0, 1]. */
CUSCI_HD double cusci__rcos_pi(double u)
{
  double s, c;
  cusci__rsincos_2pi(0.5 * u, &s, &c);
  return c;
}

/* ------------------------------------------------------------- float */
/*
 * Single-precision twins for the float32 samplers, where double arithmetic
 * would cost far more than the float result needs. The same rules: plain
 * float operations, sqrtf and division correctly rounded on both sides.
 */

/*
 * logf for 0 < x < inf (FreeBSD e_logf.c: FDLIBM's reduction with a
 * four-term minimax polynomial for float). x = 0 gives -inf.
 */
CUSCI_HD float cusci__rlogf(float x)
{
  const float ln2_hi = 6.9313812256e-01f, ln2_lo = 9.0580006145e-06f;
  const float Lg1 = 0.66666662693f, Lg2 = 0.40000972152f, Lg3 = 0.28498786688f, Lg4 = 0.24279078841f;
  if (x == 0.0f)
    return -1.0f / 0.0f;
  int k = 0;
  uint32_t b = cusci_float_bits(x);
  if ((b >> 23) == 0) { /* subnormal */
    x *= 33554432.0f; /* 2^25 */
    b = cusci_float_bits(x);
    k = -25;
  }
  k += (int)(b >> 23) - 127;
  float y = cusci_bits_float((b & 0x007fffffu) | 0x3f800000u);
  if (y > 1.41421356f) {
    y *= 0.5f;
    k++;
  }
  float f = y - 1.0f;
  float dk = (float)k;
  float sv = f / (2.0f + f);
  float z = sv * sv;
  float w = z * z;
  float t1 = w * (Lg2 + w * Lg4);
  float t2 = z * (Lg1 + w * Lg3);
  float R = t2 + t1;
  float hfsq = 0.5f * f * f;
  return dk * ln2_hi - ((hfsq - (sv * (hfsq + R) + dk * ln2_lo)) - f);
}

/*
 * Arc tangent (FDLIBM s_atan.c): |x| reduced to [0, 7/16] through the
 * tangent's addition formula at 1/2, 1, 3/2 or infinity, then an odd
 * polynomial of degree 23 in minimax form.
 */
CUSCI_HD double cusci__ratan(double x)
{
  const double atanhi0 = 4.63647609000806093515e-01, atanhi1 = 7.85398163397448278999e-01,
               atanhi2 = 9.82793723247329054082e-01, atanhi3 = 1.57079632679489655800e+00;
  const double atanlo0 = 2.26987774529616870924e-17, atanlo1 = 3.06161699786838301793e-17,
               atanlo2 = 1.39033110312309984516e-17, atanlo3 = 6.12323399573676603587e-17;
  const double aT0 = 3.33333333333329318027e-01, aT1 = -1.99999999998764832476e-01,
               aT2 = 1.42857142725034663711e-01, aT3 = -1.11111104054623557880e-01,
               aT4 = 9.09088713343650656196e-02, aT5 = -7.69187620504482999495e-02,
               aT6 = 6.66107313738753120669e-02, aT7 = -5.83357013379057348645e-02,
               aT8 = 4.97687799461593236017e-02, aT9 = -3.65315727442169155270e-02,
               aT10 = 1.62858201153657823623e-02;
  if (x != x)
    return x;
  double ax = fabs(x);
  int id;
  double hi = 0, lo = 0;
  if (ax >= 3.6893488147419103e19) /* 2^65: atan(x) = pi/2 */
    return x > 0 ? atanhi3 + atanlo3 : -atanhi3 - atanlo3;
  if (ax < 0.4375) {
    if (ax < 3.7252902984e-09)
      return x;
    id = -1;
  } else if (ax < 1.1875) {
    if (ax < 0.6875) {
      id = 0;
      ax = (2.0 * ax - 1.0) / (2.0 + ax);
      hi = atanhi0, lo = atanlo0;
    } else {
      id = 1;
      ax = (ax - 1.0) / (ax + 1.0);
      hi = atanhi1, lo = atanlo1;
    }
  } else if (ax < 2.4375) {
    id = 2;
    ax = (ax - 1.5) / (1.0 + 1.5 * ax);
    hi = atanhi2, lo = atanlo2;
  } else {
    id = 3;
    ax = -1.0 / ax;
    hi = atanhi3, lo = atanlo3;
  }
  double z = ax * ax, w = z * z;
  double s1 = z * (aT0 + w * (aT2 + w * (aT4 + w * (aT6 + w * (aT8 + w * aT10)))));
  double s2 = w * (aT1 + w * (aT3 + w * (aT5 + w * (aT7 + w * aT9))));
  if (id < 0)
    return x - x * (s1 + s2);
  double r = hi - ((ax * (s1 + s2) - lo) - ax);
  return x < 0 ? -r : r;
}

/* arccos(x) for x in [-1, 1] as 2 atan(sqrt((1 - x) / (1 + x))). */
CUSCI_HD double cusci__racos(double x)
{
  if (x <= -1.0)
    return CUSCI__PI;
  return 2.0 * cusci__ratan(cusci__rsqrt((1.0 - x) / (1.0 + x)));
}

/*
 * log Gamma(x) for x > 0 by Stirling's series with ten terms, after moving
 * x up past 7 with the recurrence (Zhang and Jin, "Computation of Special
 * Functions", Wiley 1996, routine LGAMA; NumPy's random_loggam).
 */
CUSCI_HD double cusci__rlgamma(double x)
{
  const double a0 = 8.333333333333333e-02, a1 = -2.777777777777778e-03, a2 = 7.936507936507937e-04,
               a3 = -5.952380952380952e-04, a4 = 8.417508417508418e-04, a5 = -1.917526917526918e-03,
               a6 = 6.410256410256410e-03, a7 = -2.955065359477124e-02, a8 = 1.796443723688307e-01,
               a9 = -1.39243221690590e+00;
  if (x == 1.0 || x == 2.0)
    return 0.0;
  int64_t n = 0;
  double x0 = x;
  if (x <= 7.0) {
    n = (int64_t)(7.0 - x);
    x0 = x + (double)n;
  }
  double x2 = 1.0 / (x0 * x0);
  double g = a9;
  g = g * x2 + a8; g = g * x2 + a7; g = g * x2 + a6; g = g * x2 + a5; g = g * x2 + a4;
  g = g * x2 + a3; g = g * x2 + a2; g = g * x2 + a1; g = g * x2 + a0;
  double gl = g / x0 + 0.91893853320467274178 + (x0 - 0.5) * cusci__rlog(x0) - x0;
  for (int64_t k = 1; k <= n; k++) {
    gl -= cusci__rlog(x0 - 1.0);
    x0 -= 1.0;
  }
  return gl;
}

#endif /* CUSCI_REFERENCE_RANDOM_RMATH_H */
