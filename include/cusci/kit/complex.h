/*
 * cusci/kit/complex.h: the complex elementary functions of the ufuncs,
 * written once for a host backend (C11) and kernels (CUDA C++), so that
 * both follow the same formulas. Part of the module kit (docs/modules.md),
 * installed with the core: cusci_cm_<f>(z) is C99's c<f>(z) with NumPy's
 * special values, on cusci_c128; names ending in _ are the kit's own
 * helpers.
 *
 * Each works in double: complex128 directly, complex64 by widening and
 * rounding the result once (more accurate than a float evaluation, and the
 * special values are the same). Special values (infinities, NaN, signed
 * zeros) follow C99/C11 Annex G, as NumPy's loops get them from the C
 * library; branch cuts are the principal ones, with the sign of a zero
 * imaginary part choosing the side, as in NumPy.
 *
 * Sources: W. Kahan, "Branch cuts for complex elementary functions, or
 * much ado about nothing's sign bit" (1987), for sqrt, asin, acos and
 * atanh and the tanh formula; log near |z| = 1 through log1p of
 * x^2 + y^2 - 1 computed with exact products; NumPy's funcs.inc.src for
 * exp2, expm1, log2, log10 and the integer powers of power.
 */
#ifndef CUSCI_KIT_COMPLEX_H
#define CUSCI_KIT_COMPLEX_H

#include <math.h>
#include <stdbool.h>

#include <cusci/kit/convert.h>

#define CUSCI_CM_INF ((double)INFINITY)
#define CUSCI_CM_NAN ((double)NAN)
#define CUSCI_CM_PI 3.141592653589793238462643383279502884
#define CUSCI_CM_PI_2 1.570796326794896619231321691639751442
#define CUSCI_CM_PI_4 0.785398163397448309615660845819875721
#define CUSCI_CM_LN2 0.693147180559945309417232121458176568
#define CUSCI_CM_LOG2E 1.442695040888963407359924681001892137
#define CUSCI_CM_LOG10E 0.434294481903251827651128918916605082

typedef cusci_c128 cusci_cm;

CUSCI_HD cusci_cm cusci_cm_c(double re, double im)
{
  cusci_cm r;
  r.re = re;
  r.im = im;
  return r;
}
CUSCI_HD bool cusci_cm_isnan(double x) { return x != x; }
CUSCI_HD bool cusci_cm_isinf(double x) { return fabs(x) == CUSCI_CM_INF; }
CUSCI_HD bool cusci_cm_isfin(double x) { return fabs(x) <= 1.7976931348623157e308; }
CUSCI_HD bool cusci_cm_neg(double x) { return copysign(1.0, x) < 0; }
/* Products that nvcc must not fuse, where a fused one would break an
 * exact-product identity. */
CUSCI_HD double cusci_cm_mul(double a, double b) { return CUSCI_DMUL(a, b); }
CUSCI_HD cusci_cm cusci_cm_cmul(cusci_cm a, cusci_cm b)
{
  return cusci_cm_c(CUSCI_DADD(cusci_cm_mul(a.re, b.re), -cusci_cm_mul(a.im, b.im)),
                     CUSCI_DADD(cusci_cm_mul(a.re, b.im), cusci_cm_mul(a.im, b.re)));
}
/* i*z, -i*z */
CUSCI_HD cusci_cm cusci_cm_mul_i(cusci_cm z) { return cusci_cm_c(-z.im, z.re); }
CUSCI_HD cusci_cm cusci_cm_mul_mi(cusci_cm z) { return cusci_cm_c(z.im, -z.re); }

/* sqrt: Kahan's, with scaling so that |x| + |z| neither overflows nor loses
 * subnormal bits. */
CUSCI_HD cusci_cm cusci_cm_sqrt(cusci_cm z)
{
  double x = z.re, y = z.im;
  if (x == 0 && y == 0)
    return cusci_cm_c(0.0, y);
  if (cusci_cm_isinf(y))
    return cusci_cm_c(CUSCI_CM_INF, y);
  if (cusci_cm_isnan(x))
    return cusci_cm_c(x, x);
  if (cusci_cm_isinf(x)) {
    if (x > 0)
      return cusci_cm_c(x, cusci_cm_isnan(y) ? y : copysign(0.0, y));
    return cusci_cm_c(cusci_cm_isnan(y) ? y : 0.0, copysign(CUSCI_CM_INF, y));
  }
  if (cusci_cm_isnan(y))
    return cusci_cm_c(y, y);
  double scale = 1.0, ax = fabs(x), ay = fabs(y);
  if (ax > 0x1p1020 || ay > 0x1p1020) {
    x *= 0.25;
    y *= 0.25;
    scale = 2.0;
  } else if (ax < 0x1p-1000 && ay < 0x1p-1000) {
    x *= 0x1p600;
    y *= 0x1p600;
    scale = 0x1p-300;
  }
  double t = sqrt((fabs(x) + hypot(x, y)) * 0.5);
  if (x >= 0)
    return cusci_cm_c(scale * t, scale * (y / (2 * t)));
  return cusci_cm_c(scale * (fabs(y) / (2 * t)), scale * copysign(t, y));
}

/* exp: e^x cis y; for x past exp's overflow, e^(x/2) twice, so that a
 * small cos y or sin y still gives a finite part. */
CUSCI_HD cusci_cm cusci_cm_exp(cusci_cm z)
{
  double x = z.re, y = z.im;
  if (cusci_cm_isfin(x) && cusci_cm_isfin(y)) {
    if (y == 0)
      return cusci_cm_c(exp(x), y);
    double c = cos(y), s = sin(y);
    if (x > 709.0) {
      double h = exp(0.5 * x);
      return cusci_cm_c((h * c) * h, (h * s) * h);
    }
    double e = exp(x);
    return cusci_cm_c(e * c, e * s);
  }
  if (cusci_cm_isnan(x))
    return cusci_cm_c(x, y == 0 ? y : x);
  if (cusci_cm_isinf(x)) {
    if (x > 0) {
      if (y == 0)
        return cusci_cm_c(x, y);
      if (!cusci_cm_isfin(y))
        return cusci_cm_c(x, y - y);
      return cusci_cm_c(x * cos(y), x * sin(y));
    }
    if (!cusci_cm_isfin(y))
      return cusci_cm_c(0.0, copysign(0.0, y)); /* Annex G: signs free; glibc's */
    return cusci_cm_c(0.0 * cos(y), 0.0 * sin(y));
  }
  return cusci_cm_c(y - y, y - y);
}

/*
 * x^2 + y^2 - 1 for 1/sqrt(2) <= x <= sqrt(2), y <= x: the products
 * split exactly by fma, x^2 - 1 exact by Sterbenz's lemma, the sum
 * compensated.
 */
CUSCI_HD double cusci_cm_x2y2m1(double x, double y)
{
  double p1 = cusci_cm_mul(x, x), e1 = fma(x, x, -p1);
  double p2 = cusci_cm_mul(y, y), e2 = fma(y, y, -p2);
  double a = p1 - 1.0;
  double s = a + p2, bb = s - a;
  double err = (a - (s - bb)) + (p2 - bb);
  return s + (err + (e1 + e2));
}

/* log: log|z| + i arg z, log|z| through log1p near the unit circle. */
CUSCI_HD cusci_cm cusci_cm_log(cusci_cm z)
{
  double x = z.re, y = z.im;
  double im = atan2(y, x);
  double ax = fabs(x), ay = fabs(y);
  if (!cusci_cm_isfin(ax) || !cusci_cm_isfin(ay))
    return cusci_cm_c(cusci_cm_isinf(ax) || cusci_cm_isinf(ay) ? CUSCI_CM_INF : CUSCI_CM_NAN, im);
  if (ax < ay) {
    double t = ax;
    ax = ay;
    ay = t;
  }
  if (ax == 0)
    return cusci_cm_c(-CUSCI_CM_INF, im);
  double re;
  if (ax >= 0.7071067811865476 && ax <= 1.4142135623730951)
    re = 0.5 * log1p(cusci_cm_x2y2m1(ax, ay));
  else
    re = log(hypot(ax, ay));
  return cusci_cm_c(re, im);
}

CUSCI_HD cusci_cm cusci_cm_log2(cusci_cm z)
{
  cusci_cm r = cusci_cm_log(z);
  return cusci_cm_c(r.re * CUSCI_CM_LOG2E, r.im * CUSCI_CM_LOG2E);
}

CUSCI_HD cusci_cm cusci_cm_log10(cusci_cm z)
{
  cusci_cm r = cusci_cm_log(z);
  return cusci_cm_c(r.re * CUSCI_CM_LOG10E, r.im * CUSCI_CM_LOG10E);
}

/* exp2(z) = exp(z ln 2), as NumPy. */
CUSCI_HD cusci_cm cusci_cm_exp2(cusci_cm z)
{
  return cusci_cm_exp(cusci_cm_c(z.re * CUSCI_CM_LN2, z.im * CUSCI_CM_LN2));
}

/* expm1(z) = (expm1(x) cos y - 2 sin^2(y/2)) + i e^x sin y, NumPy's formula
 * (no cancellation near 0), for every z, so that its special values are
 * NumPy's too (an overflowing e^x times sin 0 is NaN). */
CUSCI_HD cusci_cm cusci_cm_expm1(cusci_cm z)
{
  double x = z.re, y = z.im;
  double h = sin(0.5 * y);
  return cusci_cm_c(expm1(x) * cos(y) - 2.0 * h * h, exp(x) * sin(y));
}

/* log1p(z) = log(1 + z); near 0, log|1 + z| = log1p(2x + x^2 + y^2) / 2. */
CUSCI_HD cusci_cm cusci_cm_log1p(cusci_cm z)
{
  double x = z.re, y = z.im;
  if (cusci_cm_isfin(x) && cusci_cm_isfin(y) && fabs(x) < 0.5 && fabs(y) < 0.5) {
    double re = 0.5 * log1p(x * (2.0 + x) + y * y);
    return cusci_cm_c(re, atan2(y, 1.0 + x));
  }
  return cusci_cm_log(cusci_cm_c(x + 1.0, y));
}

/* sinh: sinh x cos y + i cosh x sin y, scaled past cosh's overflow. */
CUSCI_HD cusci_cm cusci_cm_sinh(cusci_cm z)
{
  double x = z.re, y = z.im;
  if (cusci_cm_isfin(x) && cusci_cm_isfin(y)) {
    if (y == 0)
      return cusci_cm_c(sinh(x), y);
    double c = cos(y), s = sin(y);
    if (fabs(x) > 709.0) {
      double h = exp(0.5 * fabs(x));
      return cusci_cm_c(copysign(1.0, x) * ((0.5 * h * c) * h), (0.5 * h * s) * h);
    }
    return cusci_cm_c(sinh(x) * c, cosh(x) * s);
  }
  if (x == 0)
    return cusci_cm_c(x, y - y);
  if (cusci_cm_isinf(x)) {
    if (y == 0)
      return cusci_cm_c(x, y);
    if (cusci_cm_isfin(y))
      return cusci_cm_c(x * cos(y), CUSCI_CM_INF * sin(y));
    return cusci_cm_c(CUSCI_CM_INF, y - y); /* Annex G: sign unspecified; glibc's + */
  }
  if (cusci_cm_isnan(x) && y == 0)
    return cusci_cm_c(x, y);
  return cusci_cm_c(CUSCI_CM_NAN, CUSCI_CM_NAN);
}

/* cosh: cosh x cos y + i sinh x sin y. */
CUSCI_HD cusci_cm cusci_cm_cosh(cusci_cm z)
{
  double x = z.re, y = z.im;
  if (cusci_cm_isfin(x) && cusci_cm_isfin(y)) {
    if (y == 0)
      return cusci_cm_c(cosh(x), copysign(0.0, x) * y);
    double c = cos(y), s = sin(y);
    if (fabs(x) > 709.0) {
      double h = exp(0.5 * fabs(x));
      return cusci_cm_c((0.5 * h * c) * h, copysign(1.0, x) * ((0.5 * h * s) * h));
    }
    return cusci_cm_c(cosh(x) * c, sinh(x) * s);
  }
  if (x == 0)
    return cusci_cm_c(y - y, 0.0);
  if (cusci_cm_isinf(x)) {
    if (y == 0)
      return cusci_cm_c(CUSCI_CM_INF, copysign(0.0, x) * y);
    if (cusci_cm_isfin(y))
      return cusci_cm_c(CUSCI_CM_INF * cos(y), x * sin(y));
    return cusci_cm_c(CUSCI_CM_INF, y - y);
  }
  if (cusci_cm_isnan(x) && y == 0)
    return cusci_cm_c(x, y);
  return cusci_cm_c(CUSCI_CM_NAN, CUSCI_CM_NAN);
}

/* tanh: Kahan's formula; e^(-2|x|) for the imaginary part when |x| >= 22,
 * where tanh x rounds to +-1. */
CUSCI_HD cusci_cm cusci_cm_tanh(cusci_cm z)
{
  double x = z.re, y = z.im;
  if (cusci_cm_isnan(x))
    return cusci_cm_c(x, y == 0 ? y : x);
  if (cusci_cm_isinf(x)) {
    double im = cusci_cm_isfin(y) ? sin(y) * cos(y) : y;
    return cusci_cm_c(copysign(1.0, x), copysign(0.0, im));
  }
  if (!cusci_cm_isfin(y))
    return cusci_cm_c(x == 0 ? x : y - y, y - y);
  if (fabs(x) >= 22.0) {
    double e = exp(-fabs(x));
    return cusci_cm_c(copysign(1.0, x), 4.0 * sin(y) * cos(y) * e * e);
  }
  double t = tan(y);
  double beta = 1.0 + t * t;
  double s = sinh(x);
  double rho = sqrt(1.0 + s * s);
  double den = 1.0 + beta * s * s;
  return cusci_cm_c((beta * rho * s) / den, t / den);
}

/* sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz); for sin of
 * a non-finite real part with an infinite imaginary part, where Annex G
 * leaves the sign free, glibc's (and so NumPy's) +inf. */
CUSCI_HD cusci_cm cusci_cm_sin(cusci_cm z)
{
  if (!cusci_cm_isfin(z.re) && cusci_cm_isinf(z.im))
    return cusci_cm_c(z.re - z.re, CUSCI_CM_INF);
  return cusci_cm_mul_mi(cusci_cm_sinh(cusci_cm_mul_i(z)));
}
CUSCI_HD cusci_cm cusci_cm_cos(cusci_cm z) { return cusci_cm_cosh(cusci_cm_mul_i(z)); }
CUSCI_HD cusci_cm cusci_cm_tan(cusci_cm z) { return cusci_cm_mul_mi(cusci_cm_tanh(cusci_cm_mul_i(z))); }

/* Kahan's asin for finite z: Re = atan(x / Re(sqrt(1-z) sqrt(1+z))),
 * Im = asinh(Im(conj(sqrt(1-z)) sqrt(1+z))). */
CUSCI_HD cusci_cm cusci_cm_asin_finite(cusci_cm z)
{
  cusci_cm a = cusci_cm_sqrt(cusci_cm_c(1.0 - z.re, -z.im));
  cusci_cm b = cusci_cm_sqrt(cusci_cm_c(1.0 + z.re, z.im));
  double re = atan2(z.re, CUSCI_DADD(cusci_cm_mul(a.re, b.re), -cusci_cm_mul(a.im, b.im)));
  double im = asinh(CUSCI_DADD(cusci_cm_mul(a.re, b.im), -cusci_cm_mul(a.im, b.re)));
  return cusci_cm_c(re, im);
}

/* asinh: Annex G's special values in the first quadrant, odd and
 * conjugate-symmetric; finite values as -i asin(iz). */
CUSCI_HD cusci_cm cusci_cm_asinh(cusci_cm z)
{
  double x = z.re, y = z.im;
  if (cusci_cm_isfin(x) && cusci_cm_isfin(y))
    return cusci_cm_mul_mi(cusci_cm_asin_finite(cusci_cm_mul_i(z)));
  double ax = fabs(x), ay = fabs(y), re, im;
  if (cusci_cm_isnan(x)) {
    if (y == 0)
      return cusci_cm_c(x, y);
    if (cusci_cm_isinf(y))
      return cusci_cm_c(CUSCI_CM_INF, x);
    return cusci_cm_c(x, x);
  }
  if (cusci_cm_isinf(ax)) {
    re = CUSCI_CM_INF;
    im = cusci_cm_isnan(y) ? y : cusci_cm_isinf(ay) ? CUSCI_CM_PI_4 : 0.0;
  } else if (cusci_cm_isinf(ay)) {
    re = CUSCI_CM_INF;
    im = CUSCI_CM_PI_2;
  } else {
    return cusci_cm_c(y, y); /* x finite, y NaN */
  }
  return cusci_cm_c(copysign(re, x), cusci_cm_isnan(im) ? im : copysign(im, y));
}

/* asin z = -i asinh(iz); with a NaN part, glibc's (NumPy's) choices: z
 * itself for a zero real part, NaN +- i inf (the sign of Im z) with an
 * infinite part. */
CUSCI_HD cusci_cm cusci_cm_asin(cusci_cm z)
{
  if (cusci_cm_isnan(z.re) || cusci_cm_isnan(z.im)) {
    if (z.re == 0)
      return z;
    if (cusci_cm_isinf(z.re) || cusci_cm_isinf(z.im))
      return cusci_cm_c(CUSCI_CM_NAN, copysign(CUSCI_CM_INF, z.im));
    return cusci_cm_c(CUSCI_CM_NAN, CUSCI_CM_NAN);
  }
  return cusci_cm_mul_mi(cusci_cm_asinh(cusci_cm_mul_i(z)));
}

/* acos: Kahan's Re = 2 atan(Re sqrt(1-z) / Re sqrt(1+z)),
 * Im = asinh(Im(conj(sqrt(1+z)) sqrt(1-z))); Annex G's special values for
 * Im z >= 0, conjugate-symmetric. */
CUSCI_HD cusci_cm cusci_cm_acos(cusci_cm z)
{
  double x = z.re, y = z.im;
  bool flip = cusci_cm_neg(y);
  double ay = fabs(y), re, im;
  if (cusci_cm_isfin(x) && cusci_cm_isfin(y)) {
    cusci_cm a = cusci_cm_sqrt(cusci_cm_c(1.0 - x, -ay));
    cusci_cm b = cusci_cm_sqrt(cusci_cm_c(1.0 + x, ay));
    re = 2.0 * atan2(a.re, b.re);
    im = asinh(CUSCI_DADD(cusci_cm_mul(b.re, a.im), -cusci_cm_mul(b.im, a.re)));
  } else if (cusci_cm_isnan(x)) {
    re = x;
    im = cusci_cm_isinf(ay) ? -CUSCI_CM_INF : x;
  } else if (cusci_cm_isinf(x)) {
    if (cusci_cm_isnan(y)) {
      re = y;
      im = -CUSCI_CM_INF;
    } else if (cusci_cm_isinf(ay)) {
      re = x > 0 ? CUSCI_CM_PI_4 : 3 * CUSCI_CM_PI_4;
      im = -CUSCI_CM_INF;
    } else {
      re = x > 0 ? 0.0 : CUSCI_CM_PI;
      im = -CUSCI_CM_INF;
    }
  } else if (cusci_cm_isinf(ay)) {
    re = CUSCI_CM_PI_2;
    im = -CUSCI_CM_INF;
  } else { /* x finite, y NaN */
    re = x == 0 ? CUSCI_CM_PI_2 : y;
    im = y;
  }
  return cusci_cm_c(re, flip ? -im : im);
}

/* acosh(z) = i acos(z) for Im z >= 0 (Re >= 0), conjugate-symmetric. */
CUSCI_HD cusci_cm cusci_cm_acosh(cusci_cm z)
{
  bool flip = cusci_cm_neg(z.im);
  cusci_cm w = cusci_cm_acos(cusci_cm_c(z.re, fabs(z.im)));
  cusci_cm r = cusci_cm_c(-w.im, w.re);
  if (flip)
    r.im = -r.im;
  return r;
}

/*
 * atanh: Kahan's Re = log1p(4x / ((1-x)^2 + y^2)) / 4,
 * Im = atan2(2y, (1-x)(1+x) - y^2) / 2, in the first quadrant (odd and
 * conjugate-symmetric), with |z| large and the pole at 1 taken apart.
 */
CUSCI_HD cusci_cm cusci_cm_atanh(cusci_cm z)
{
  double x = z.re, y = z.im;
  double ax = fabs(x), ay = fabs(y), re, im;
  if (cusci_cm_isnan(x)) {
    if (cusci_cm_isinf(y))
      return cusci_cm_c(copysign(0.0, x), copysign(CUSCI_CM_PI_2, y));
    return cusci_cm_c(x, x);
  }
  if (cusci_cm_isnan(y)) {
    if (cusci_cm_isinf(x) || x == 0)
      return cusci_cm_c(copysign(0.0, x), y);
    return cusci_cm_c(y, y);
  }
  if (cusci_cm_isinf(ax) || cusci_cm_isinf(ay)) {
    re = 0.0;
    im = CUSCI_CM_PI_2;
  } else if (ax > 1e150 || ay > 1e150) {
    double h = hypot(ax, ay);
    re = (ax / h) / h;
    im = CUSCI_CM_PI_2;
  } else if (ax == 1 && ay == 0) {
    re = CUSCI_CM_INF;
    im = 0.0;
  } else {
    double d = (1.0 - ax) * (1.0 - ax) + ay * ay;
    double q = 4.0 * ax / d;
    if (q < 1e300)
      re = 0.25 * log1p(q);
    else
      re = 0.25 * (log(4.0 * ax) - 2.0 * log(hypot(1.0 - ax, ay)));
    im = 0.5 * atan2(2.0 * ay, (1.0 - ax) * (1.0 + ax) - ay * ay);
  }
  return cusci_cm_c(copysign(re, x), copysign(im, y));
}

/* atan z = -i atanh(iz). */
CUSCI_HD cusci_cm cusci_cm_atan(cusci_cm z) { return cusci_cm_mul_mi(cusci_cm_atanh(cusci_cm_mul_i(z))); }

/* rint of each part, as NumPy. */
CUSCI_HD cusci_cm cusci_cm_rint(cusci_cm z) { return cusci_cm_c(rint(z.re), rint(z.im)); }

/* 1 / z by Smith's algorithm, as the divide loop. */
CUSCI_HD cusci_cm cusci_cm_recip(cusci_cm b)
{
  double abr = fabs(b.re), abi = fabs(b.im);
  if (abr >= abi) {
    if (abr == 0 && abi == 0)
      return cusci_cm_c(1.0 / abr, 0.0 / abr);
    double rat = b.im / b.re, scl = 1.0 / (b.re + b.im * rat);
    return cusci_cm_c(scl, -rat * scl);
  }
  double rat = b.re / b.im, scl = 1.0 / (b.im + b.re * rat);
  return cusci_cm_c(rat * scl, -scl);
}

/*
 * power, as NumPy's complex loop: z^0 = 1; 0^b is 0 for Re b > 0, NaN
 * otherwise; integral real exponents below 100 in magnitude by repeated
 * squaring (a reciprocal for negative ones); the rest exp(b log a).
 */
CUSCI_HD cusci_cm cusci_cm_pow(cusci_cm a, cusci_cm b)
{
  if (b.re == 0 && b.im == 0)
    return cusci_cm_c(1.0, 0.0);
  if (a.re == 0 && a.im == 0) {
    if (b.re > 0)
      return cusci_cm_c(0.0, 0.0);
    return cusci_cm_c(CUSCI_CM_NAN, CUSCI_CM_NAN);
  }
  if (b.im == 0 && fabs(b.re) < 100 && b.re == trunc(b.re)) {
    int n = (int)b.re;
    if (n == 1)
      return a;
    if (n == 2)
      return cusci_cm_cmul(a, a);
    if (n == 3)
      return cusci_cm_cmul(a, cusci_cm_cmul(a, a));
    int m = n < 0 ? -n : n;
    cusci_cm acc = cusci_cm_c(1.0, 0.0), p = a;
    for (int mask = 1;; mask <<= 1) {
      if (m & mask)
        acc = cusci_cm_cmul(acc, p);
      if (m < (mask << 1))
        break;
      p = cusci_cm_cmul(p, p);
    }
    return n < 0 ? cusci_cm_recip(acc) : acc;
  }
  return cusci_cm_exp(cusci_cm_cmul(b, cusci_cm_log(a)));
}

/*
 * complex64: the double functions, rounded once, except where NumPy's
 * float evaluation gives a different special value or argument: expm1,
 * whose e^x overflows at float's range, exp2, whose argument z ln 2 is a
 * float product, and log2 and log10 (below).
 */
CUSCI_HD double cusci_cm_f32(double v) { return (double)(float)v; }
CUSCI_HD cusci_cm cusci_cm_expm1_64(cusci_cm z)
{
  double x = z.re, y = z.im;
  double h = sin(0.5 * y);
  return cusci_cm_c(cusci_cm_f32(expm1(x)) * cos(y) - 2.0 * h * h, cusci_cm_f32(exp(x)) * sin(y));
}
CUSCI_HD cusci_cm cusci_cm_exp2_64(cusci_cm z)
{
  float ln2 = 0.693147182f;
  return cusci_cm_exp(cusci_cm_c((double)((float)z.re * ln2), (double)((float)z.im * ln2)));
}
#define CUSCI_CM_SAME64_(f) \
  CUSCI_HD cusci_cm cusci_cm_##f##_64(cusci_cm z) { return cusci_cm_##f(z); }
/* log2 and log10 scale float parts by a float constant, as NumPy's float
 * loop does. */
CUSCI_HD cusci_cm cusci_cm_log2_64(cusci_cm z)
{
  cusci_cm r = cusci_cm_log(z);
  float k = 1.44269504f;
  return cusci_cm_c((double)((float)r.re * k), (double)((float)r.im * k));
}
CUSCI_HD cusci_cm cusci_cm_log10_64(cusci_cm z)
{
  cusci_cm r = cusci_cm_log(z);
  float k = 0.434294482f;
  return cusci_cm_c((double)((float)r.re * k), (double)((float)r.im * k));
}
CUSCI_CM_SAME64_(sqrt) CUSCI_CM_SAME64_(exp) CUSCI_CM_SAME64_(log) CUSCI_CM_SAME64_(log1p) CUSCI_CM_SAME64_(sin) CUSCI_CM_SAME64_(cos)
CUSCI_CM_SAME64_(tan) CUSCI_CM_SAME64_(asin) CUSCI_CM_SAME64_(acos) CUSCI_CM_SAME64_(atan)
CUSCI_CM_SAME64_(sinh) CUSCI_CM_SAME64_(cosh) CUSCI_CM_SAME64_(tanh) CUSCI_CM_SAME64_(asinh)
CUSCI_CM_SAME64_(acosh) CUSCI_CM_SAME64_(atanh) CUSCI_CM_SAME64_(rint)

#endif /* CUSCI_REFERENCE_COMPLEX_MATH_H */
