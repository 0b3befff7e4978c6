/*
 * reference/signal/iirproto.c: the analog lowpass prototypes of
 * scipy.signal other than Butterworth's (cheb1ap, cheb2ap, ellipap,
 * besselap) and the special functions they stand on (the complete
 * elliptic integral K, the Jacobi elliptic functions, the exponentially
 * scaled K_{n+1/2}), in float64. Each builds its zeros and poles in
 * SciPy's order, so that the results compare with SciPy's elementwise.
 *
 * The elliptic functions are the arithmetic-geometric mean methods of
 * Abramowitz and Stegun 17.6 and 16.4; the elliptic prototype is Orfanidis'
 * ("Lecture notes on elliptic filter design", 2006), as SciPy's; the
 * Bessel poles are Campos and Calderon's starting values ("Approximate
 * closed-form formulas for the zeros of the Bessel polynomials", 2011)
 * polished by the Aberth-Ehrlich iteration and Newton's method on
 * K_{N+1/2}(1/x), as SciPy's.
 */
#include "design.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

double complex cusci__sig_np_mul(double complex x, double complex y)
{
  const double a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);
  return CMPLX(a * c - b * d, a * d + b * c);
}

/* The product of -v[i], left to right. */
static double complex prod_neg(const double complex *v, int64_t n)
{
  double complex r = 1;
  for (int64_t i = 0; i < n; i++)
    r = cusci__sig_np_mul(r, -v[i]);
  return r;
}

/* The arithmetic-geometric mean of a >= b > 0. */
static double agm(double a, double b)
{
  for (int i = 0; i < 64 && fabs(a - b) > DBL_EPSILON * a; i++) {
    const double t = 0.5 * (a + b);
    b = sqrt(a * b);
    a = t;
  }
  return 0.5 * (a + b);
}

/* K(m), the complete elliptic integral of the first kind with parameter
 * m, and K(1 - m1) for m1 near 0 (scipy.special.ellipk and ellipkm1). */
double cusci__sig_ellipk(double m)
{
  return m >= 1 ? INFINITY : M_PI / (2 * agm(1, sqrt(1 - m)));
}

double cusci__sig_ellipkm1(double m1)
{
  return m1 <= 0 ? INFINITY : M_PI / (2 * agm(1, sqrt(m1)));
}

/* The Jacobi elliptic functions sn, cn, dn of u with parameter 0 <= m <= 1
 * (scipy.special.ellipj): the descending AGM scale, then back up through
 * the amplitudes; the limits m -> 0 and m -> 1 by their first-order
 * expansions in m and 1 - m. */
static void ellipj(double u, double m, double *sn, double *cn, double *dn)
{
  if (m < 1e-9) {
    const double t = sin(u), b = cos(u), ai = 0.25 * m * (u - t * b);
    *sn = t - ai * b, *cn = b + ai * t, *dn = 1.0 - 0.5 * m * t * t;
    return;
  }
  if (m >= 0.9999999999) {
    const double ai = 0.25 * (1.0 - m), b = cosh(u), t = tanh(u), phi = 1.0 / b, twon = b * sinh(u);
    const double a2 = ai * t * phi;
    *sn = t + ai * (twon - u) / (b * b);
    *cn = phi - a2 * (twon - u), *dn = phi + a2 * (twon + u);
    return;
  }
  double a[10], c[10];
  double b = sqrt(1.0 - m), twon = 1;
  a[0] = 1, c[0] = sqrt(m);
  int i = 0;
  while (fabs(c[i] / a[i]) > DBL_EPSILON / 2 && i < 8) {
    const double ai = a[i];
    i++;
    c[i] = 0.5 * (ai - b);
    const double t = sqrt(ai * b);
    a[i] = 0.5 * (ai + b);
    b = t;
    twon *= 2;
  }
  double phi = twon * a[i] * u, prev = phi;
  for (; i > 0; i--) {
    const double t = c[i] * sin(phi) / a[i];
    prev = phi;
    phi = 0.5 * (asin(t) + phi);
  }
  *sn = sin(phi);
  *cn = cos(phi);
  *dn = *cn / cos(prev - phi);
}

/* 10^x - 1 for x near 0. */
double cusci__sig_pow10m1(double x)
{
  return expm1(2.30258509299404568402 * x);
}

int cusci__sig_cheb1ap(int N, double rp, double complex *p, double *k)
{
  const double eps = sqrt(pow(10, 0.1 * rp) - 1.0), mu = 1.0 / N * asinh(1 / eps);
  for (int i = 0; i < N; i++) {
    const double theta = M_PI * (double)(-N + 1 + 2 * i) / (2.0 * N);
    p[i] = -csinh(CMPLX(mu, theta));
  }
  *k = creal(prod_neg(p, N));
  if (N % 2 == 0)
    *k = *k / sqrt(1 + eps * eps);
  return 0;
}

int cusci__sig_cheb2ap(int N, double rs, double complex *z, int64_t *nz, double complex *p, double *k)
{
  const double de = 1.0 / sqrt(pow(10, 0.1 * rs) - 1), mu = asinh(1.0 / de) / N;
  int64_t n = 0;
  for (int m = -N + 1; m < N; m += 2)
    if (m != 0) /* odd N: the zero at infinity is left out */
      z[n++] = cusci__sig_np_div(I, sin(m * M_PI / (2.0 * N)));
  for (int i = 0; i < N; i++) {
    const double theta = M_PI * (double)(-N + 1 + 2 * i) / (2.0 * N);
    p[i] = -cusci__sig_np_div(1, csinh(CMPLX(mu, theta)));
  }
  *nz = n;
  *k = creal(cusci__sig_np_div(prod_neg(p, N), prod_neg(z, n)));
  return 0;
}

/* The degree equation: the parameter m of the order-n elliptic filter
 * whose selectivity goes with the discrimination parameter m1, by
 * Jacobi's nome series (seven terms, as SciPy's). */
static double ellipdeg(int n, double m1)
{
  const double K1 = cusci__sig_ellipk(m1), K1p = cusci__sig_ellipkm1(m1);
  const double q1 = exp(-M_PI * K1p / K1), q = pow(q1, 1.0 / n);
  double num = 0, den = 0;
  for (int i = 0; i <= 7; i++)
    num += pow(q, (double)(i * (i + 1)));
  for (int i = 1; i <= 8; i++)
    den += pow(q, (double)(i * i));
  den = 1 + 2 * den;
  return 16 * q * pow(num / den, 4);
}

/* The inverse of sn for complex w by descending Landen transformations;
 * CUSCI__SIG_DESIGN_ELLIPTIC when they do not converge. */
static int arc_jac_sn(double complex w, double m, double complex *out)
{
  double ks[12];
  ks[0] = sqrt(m);
  if (ks[0] > 1)
    return CUSCI__SIG_DESIGN_ELLIPTIC;
  if (ks[0] == 1) {
    *out = catanh(w);
    return 0;
  }
  int n = 0;
  while (ks[n] != 0) {
    if (n >= 10)
      return CUSCI__SIG_DESIGN_ELLIPTIC;
    const double kp = sqrt((1 - ks[n]) * (1 + ks[n]));
    ks[n + 1] = (1 - kp) / (1 + kp);
    n++;
  }
  double K = 1;
  for (int i = 1; i <= n; i++)
    K *= 1 + ks[i];
  K = K * M_PI / 2;
  for (int i = 0; i < n; i++) {
    const double complex kw = ks[i] * w;
    const double complex comp = csqrt(cusci__sig_np_mul(1 - kw, 1 + kw));
    w = cusci__sig_np_div(2 * w, (1 + ks[i + 1]) * (1 + comp));
  }
  *out = K * (2 / M_PI * casin(w));
  return 0;
}

int cusci__sig_ellipap(int N, double rp, double rs, double complex *z, int64_t *nz, double complex *p, int64_t *np, double *k)
{
  if (N == 1) {
    const double p0 = -sqrt(1.0 / cusci__sig_pow10m1(0.1 * rp));
    p[0] = p0, *np = 1, *nz = 0, *k = -p0;
    return 0;
  }
  const double eps_sq = cusci__sig_pow10m1(0.1 * rp), eps = sqrt(eps_sq), ck1_sq = eps_sq / cusci__sig_pow10m1(0.1 * rs);
  if (ck1_sq == 0)
    return CUSCI__SIG_DESIGN_ELLIPTIC;
  const double K1 = cusci__sig_ellipk(ck1_sq);
  const double m = ellipdeg(N, ck1_sq), capk = cusci__sig_ellipk(m);
  double complex r;
  const int rc = arc_jac_sn(CMPLX(0, 1.0 / eps), ck1_sq, &r);
  if (rc != 0 || fabs(creal(r)) > 1e-14)
    return CUSCI__SIG_DESIGN_ELLIPTIC;
  const double v0 = capk * cimag(r) / (N * K1);
  double sv, cv, dv;
  ellipj(v0, 1 - m, &sv, &cv, &dv);
  const int jj = (N + (N % 2)) / 2; /* j = 1 - N % 2, 3 - N % 2, ..., below N */
  int64_t n = 0;
  double norm = 0;
  for (int i = 0; i < jj; i++) {
    const int j = 1 - N % 2 + 2 * i;
    double s, c, d;
    ellipj(j * capk / N, m, &s, &c, &d);
    if (fabs(s) > 2e-16)
      z[n++] = CMPLX(0, 1.0 / (sqrt(m) * s));
    p[i] = cusci__sig_np_div(-CMPLX(c * d * sv * cv, s * dv), 1 - (d * sv) * (d * sv));
    norm += creal(p[i]) * creal(p[i]) + cimag(p[i]) * cimag(p[i]);
  }
  for (int64_t i = 0; i < n; i++)
    z[n + i] = conj(z[i]);
  *nz = 2 * n;
  int64_t q = jj;
  for (int i = 0; i < jj; i++)
    if (N % 2 == 0 || fabs(cimag(p[i])) > 2e-16 * sqrt(norm))
      p[q++] = conj(p[i]);
  *np = q;
  *k = creal(cusci__sig_np_div(prod_neg(p, q), prod_neg(z, *nz)));
  if (N % 2 == 0)
    *k = *k / sqrt(1 + eps_sq);
  return 0;
}

/* kve(N + 1/2 + d, 1/x) for d = -1, 0, 1, up to a factor common to the
 * three, at x in the left half-plane, where 1/x = -w with Re w > 0. By
 * the continuation of K across its cut (DLMF 10.34.2), K_v(-w) is, up to
 * a factor, (-1)^n e^{-2w} K_v(w) e^w + pi I_v(w) e^{-w} for v = n + 1/2:
 * two terms each computed to full relative precision (K by the forward
 * recurrence, stable for Re w > 0; I by Miller's backward recurrence), so
 * that the zeros, where they cancel, come out to rounding. The common
 * factor sqrt(pi / (2w)) is left out of both. */
static void kve_half(int N, double complex x, double complex g[3])
{
  const double complex w = -cusci__sig_np_div(1, x), wi = cusci__sig_np_div(1, w), e2 = cexp(-2 * w);
  /* K: K_0 = 1, K_1 = 1 + 1/w, K_{n+1} = K_{n-1} + (2n + 1)/w K_n. */
  double complex kn[3], a = 1, b = 1 + wi;
  for (int n = 0; n <= N + 1; n++) {
    if (n >= N - 1)
      kn[n - (N - 1)] = a;
    const double complex c = a + cusci__sig_np_mul((2.0 * n + 3.0) * wi, b);
    a = b, b = c;
  }
  /* pi I (over the same factor): Miller's recurrence down from well above
   * both N and |w|, normalized by pi I_{1/2} = 1 - e^{-2w} or
   * pi I_{-1/2} = 1 + e^{-2w}, whichever is larger. */
  const int M = N + 2 + 2 * (int)fmin(cabs(w), 1e4) + 40;
  double complex in[3], hi = 0, lo = 1, y0 = 0;
  for (int n = M; n >= 0; n--) {
    /* lo = y_n, hi = y_{n+1}: y_{n-1} = y_{n+1} + (2n + 1)/w y_n. */
    if (n <= N + 1 && n >= N - 1)
      in[n - (N - 1)] = lo;
    if (n == 0)
      y0 = lo;
    const double complex next = hi + cusci__sig_np_mul((2.0 * n + 1.0) * wi, lo);
    hi = lo, lo = next;
    if (cabs(lo) > 1e250) {
      const double sc = 1e-250;
      lo *= sc, hi *= sc, y0 *= sc;
      for (int d = 0; d < 3; d++)
        in[d] *= sc;
    }
  }
  const double complex ym1 = lo, t0 = 1 - e2, tm1 = 1 + e2;
  const double complex scale = cabs(t0) >= cabs(tm1) ? cusci__sig_np_div(t0, y0) : cusci__sig_np_div(tm1, ym1);
  for (int d = 0; d < 3; d++) {
    const int n = N - 1 + d;
    g[d] = cusci__sig_np_mul((n % 2 ? -1.0 : 1.0) * e2, kn[d]) + cusci__sig_np_mul(scale, in[d]);
  }
}

/* f(x) = kve(N + 1/2, 1/x) over its derivative in x, so that Newton's
 * step is -ratio: f' = (kve(N - 1/2) / 2 - kve(N + 1/2) + kve(N + 3/2) / 2)
 * / x^2. */
static double complex bessel_ratio(int N, double complex x)
{
  double complex g[3];
  kve_half(N, x, g);
  const double complex x2 = cusci__sig_np_mul(x, x);
  const double complex fp = cusci__sig_np_div(g[0], 2.0 * x2) - cusci__sig_np_div(g[1], x2) + cusci__sig_np_div(g[2], 2.0 * x2);
  return cusci__sig_np_div(g[1], fp);
}

/* c[0] + c[1] x + ... + c[n-1] x^(n-1), lowest power first. */
static double polyval(double x, const double *c, int n)
{
  double r = c[n - 1];
  for (int i = n - 2; i >= 0; i--)
    r = c[i] + r * x;
  return r;
}

int cusci__sig_besselap(int N, int norm, double complex *p, double *k)
{
  double complex *x = p;
  if (N == 1) {
    x[0] = -1;
  } else {
    /* Campos and Calderon's approximate zeros, x_k = a1 k + a2 k^2 + i (b0 + ... + b3 k^3) ... */
    const double n = N;
    const double s = polyval(n, (const double[]){0, 0, 2, 0, -3, 1}, 6);
    const double b3 = polyval(n, (const double[]){16, -8}, 2) / s, b2 = polyval(n, (const double[]){-24, -12, 12}, 3) / s;
    const double b1 = polyval(n, (const double[]){8, 24, -12, -2}, 4) / s, b0 = polyval(n, (const double[]){0, -6, 0, 5, -1}, 5) / s;
    const double r = polyval(n, (const double[]){0, 0, 2, 1}, 4), a1 = polyval(n, (const double[]){-6, -6}, 2) / r, a2 = 6 / r;
    for (int i = 0; i < N; i++) {
      const double kk = i + 1;
      x[i] = CMPLX(polyval(kk, (const double[]){0, a1, a2}, 3), polyval(kk, (const double[]){b0, b1, b2, b3}, 4));
    }
  }
  /* ... polished by Aberth-Ehrlich (all at once) ... */
  double complex *alpha = malloc(sizeof *alpha * (size_t)N * 2);
  if (!alpha)
    return CUSCI__SIG_DESIGN_MEMORY;
  double complex *beta = alpha + N;
  for (int it = 0; it < 50; it++) {
    bool small = true;
    for (int i = 0; i < N; i++) {
      alpha[i] = -bessel_ratio(N, x[i]);
      small &= cabs(alpha[i]) <= 1e-15;
    }
    for (int i = 0; i < N; i++) {
      double complex bsum = 0;
      for (int j = i + 1; j < N; j++)
        bsum += cusci__sig_np_div(1, x[i] - x[j]);
      double complex b2 = 0;
      for (int j = 0; j < i; j++)
        b2 += cusci__sig_np_div(1, x[i] - x[j]);
      beta[i] = bsum + b2;
    }
    bool finite = true;
    for (int i = 0; i < N; i++) {
      x[i] += cusci__sig_np_div(alpha[i], 1 + cusci__sig_np_mul(alpha[i], beta[i]));
      finite &= isfinite(creal(x[i])) && isfinite(cimag(x[i]));
    }
    if (!finite) {
      free(alpha);
      return CUSCI__SIG_DESIGN_CONVERGE;
    }
    if (small)
      break;
  }
  /* ... and by Newton's method one by one, then made conjugate-symmetric. */
  for (int i = 0; i < N; i++) {
    for (int it = 0; it < 50; it++) {
      const double complex step = bessel_ratio(N, x[i]), nx = x[i] - step;
      const bool close = cabs(nx - x[i]) <= 1e-15;
      x[i] = nx;
      if (close)
        break;
    }
  }
  for (int i = 0; i < N; i++)
    alpha[i] = x[i];
  for (int i = 0; i < N; i++)
    x[i] = (alpha[i] + conj(alpha[N - 1 - i])) / 2;
  free(alpha);
  for (int i = 0; i < N; i++) {
    if (!isfinite(creal(x[i])) || !isfinite(cimag(x[i])))
      return CUSCI__SIG_DESIGN_CONVERGE;
    p[i] = cusci__sig_np_div(1, x[i]);
  }
  /* a_last = (2N)! / (N! 2^N), the Bessel polynomial's constant term. */
  if (norm == CUSCI__SIG_BESSEL_PHASE) {
    double lg = 0;
    for (int j = N + 1; j <= 2 * N; j++)
      lg += log10((double)j);
    lg -= N * log10(2.0);
    const double scale = pow(10, -lg / N);
    for (int i = 0; i < N; i++)
      p[i] = CMPLX(creal(p[i]) * scale, cimag(p[i]) * scale);
    *k = 1;
    return 0;
  }
  double a_last = 1;
  for (int j = 1; j <= N; j++)
    a_last *= (N + j) / 2.0;
  if (!isfinite(a_last))
    return CUSCI__SIG_DESIGN_CONVERGE;
  *k = a_last;
  if (norm == CUSCI__SIG_BESSEL_MAG) {
    /* The frequency where |k / prod(i w - p)| = 1/sqrt(2), by the secant
     * method from 1.5 as SciPy's (tolerance 1.48e-8). */
    double p0 = 1.5, p1 = 1.5 * (1 + 1e-4) + 1e-4;
    double q0 = 0, q1 = 0;
    for (int side = 0; side < 2; side++) {
      const double w = side ? p1 : p0;
      double complex d = 1;
      for (int i = 0; i < N; i++)
        d = cusci__sig_np_mul(d, CMPLX(-creal(p[i]), w - cimag(p[i])));
      const double g = cabs(cusci__sig_np_div(a_last, d)) - 1 / sqrt(2.0);
      if (side)
        q1 = g;
      else
        q0 = g;
    }
    if (fabs(q1) < fabs(q0)) {
      double t = p0;
      p0 = p1, p1 = t;
      t = q0, q0 = q1, q1 = t;
    }
    double w = p1;
    for (int it = 0; it < 50; it++) {
      if (q1 == q0) {
        w = (p1 + p0) / 2;
        break;
      }
      w = fabs(q1) > fabs(q0) ? (-q0 / q1 * p1 + p0) / (1 - q0 / q1) : (-q1 / q0 * p0 + p1) / (1 - q1 / q0);
      if (fabs(w - p1) <= 1.48e-8)
        break;
      p0 = p1, q0 = q1, p1 = w;
      double complex d = 1;
      for (int i = 0; i < N; i++)
        d = cusci__sig_np_mul(d, CMPLX(-creal(p[i]), w - cimag(p[i])));
      q1 = cabs(cusci__sig_np_div(a_last, d)) - 1 / sqrt(2.0);
    }
    for (int i = 0; i < N; i++)
      p[i] = cusci__sig_np_div(p[i], w);
    *k = pow(w, -N) * a_last;
  }
  return 0;
}
