/*
 * reference/signal/design.c: IIR design steps (the Butterworth prototype,
 * the frequency transforms, the bilinear transform, zpk to polynomials and
 * to second-order sections) and the windows of scipy.signal, in float64.
 * Each follows SciPy's definition step by step, so that the results agree
 * with SciPy's to rounding.
 */
#include "design.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* NumPy's complex quotient (Smith's method) and its product with a real
 * promoted to complex: the transforms use NumPy's arithmetic, so that the
 * signs of zero imaginary parts, which decide the order of conjugate
 * roots, are SciPy's. */
double complex cusci__sig_np_div(double complex x, double complex y)
{
  const double a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);
  if (fabs(c) >= fabs(d)) {
    if (c == 0 && d == 0)
      return CMPLX(a / fabs(c), b / fabs(c));
    const double rat = d / c, scl = 1.0 / (c + d * rat);
    return CMPLX((a + b * rat) * scl, (b - a * rat) * scl);
  }
  const double rat = c / d, scl = 1.0 / (d + c * rat);
  return CMPLX((a * rat + b) * scl, (b * rat - a) * scl);
}

static double complex np_mulr(double complex x, double r)
{
  const double a = creal(x), b = cimag(x);
  return CMPLX(a * r - b * 0.0, a * 0.0 + b * r);
}

void cusci__sig_buttap(int N, double complex *p)
{
  /* p = -exp(i pi m / (2N)), m = -N+1, -N+3, ..., N-1. */
  for (int i = 0; i < N; i++) {
    const double m = (double)(-N + 1 + 2 * i);
    const double t = M_PI * m / (2.0 * N);
    p[i] = -CMPLX(cos(t), sin(t));
  }
}

static double complex prod_neg(const double complex *v, int64_t n)
{
  double complex r = 1;
  for (int64_t i = 0; i < n; i++)
    r *= -v[i];
  return r;
}

int cusci__sig_lp2lp_zpk(double complex *z, int64_t nz, double complex *p, int64_t np, double *k, double wo)
{
  if (nz > np)
    return CUSCI__SIG_DESIGN_DEGREE;
  for (int64_t i = 0; i < nz; i++)
    z[i] = np_mulr(z[i], wo);
  for (int64_t i = 0; i < np; i++)
    p[i] = np_mulr(p[i], wo);
  *k *= pow(wo, (double)(np - nz));
  return 0;
}

int cusci__sig_lp2hp_zpk(double complex *z, int64_t *nz, double complex *p, int64_t np, double *k, double wo)
{
  const int64_t n = *nz;
  if (n > np)
    return CUSCI__SIG_DESIGN_DEGREE;
  *k *= creal(cusci__sig_np_div(prod_neg(z, n), prod_neg(p, np)));
  for (int64_t i = 0; i < n; i++)
    z[i] = cusci__sig_np_div(wo, z[i]);
  for (int64_t i = 0; i < np; i++)
    p[i] = cusci__sig_np_div(wo, p[i]);
  for (int64_t i = n; i < np; i++)
    z[i] = 0;
  *nz = np;
  return 0;
}

/* v[0..n) becomes the 2n roots s of s^2 - 2 u s + wo^2 = 0 for u = v c:
 * u + sqrt(u^2 - wo^2) for each, then u - sqrt(u^2 - wo^2) for each. */
static void split_roots(double complex *v, int64_t n, double wo)
{
  for (int64_t i = 0; i < n; i++) {
    const double complex u = v[i], r = csqrt(u * u - wo * wo);
    v[i] = u + r;
    v[n + i] = u - r;
  }
}

int cusci__sig_lp2bp_zpk(double complex *z, int64_t *nz, double complex *p, int64_t *np, double *k, double wo, double bw)
{
  const int64_t n = *nz, m = *np;
  if (n > m)
    return CUSCI__SIG_DESIGN_DEGREE;
  for (int64_t i = 0; i < n; i++)
    z[i] = cusci__sig_np_div(np_mulr(z[i], bw), 2);
  for (int64_t i = 0; i < m; i++)
    p[i] = cusci__sig_np_div(np_mulr(p[i], bw), 2);
  split_roots(z, n, wo);
  split_roots(p, m, wo);
  for (int64_t i = 2 * n; i < n + m; i++)
    z[i] = 0;
  *k *= pow(bw, (double)(m - n));
  *nz = n + m, *np = 2 * m;
  return 0;
}

int cusci__sig_lp2bs_zpk(double complex *z, int64_t *nz, double complex *p, int64_t *np, double *k, double wo, double bw)
{
  const int64_t n = *nz, m = *np;
  if (n > m)
    return CUSCI__SIG_DESIGN_DEGREE;
  *k *= creal(cusci__sig_np_div(prod_neg(z, n), prod_neg(p, m)));
  for (int64_t i = 0; i < n; i++)
    z[i] = cusci__sig_np_div(bw / 2, z[i]);
  for (int64_t i = 0; i < m; i++)
    p[i] = cusci__sig_np_div(bw / 2, p[i]);
  split_roots(z, n, wo);
  split_roots(p, m, wo);
  for (int64_t i = 0; i < m - n; i++) {
    z[2 * n + i] = CMPLX(0, wo);
    z[2 * n + (m - n) + i] = CMPLX(0, -wo);
  }
  *nz = 2 * m, *np = 2 * m;
  return 0;
}

int cusci__sig_bilinear_zpk(double complex *z, int64_t *nz, double complex *p, int64_t np, double *k, double fs)
{
  const int64_t n = *nz;
  if (n > np)
    return CUSCI__SIG_DESIGN_DEGREE;
  const double fs2 = 2.0 * fs;
  double complex nz_prod = 1, np_prod = 1;
  for (int64_t i = 0; i < n; i++)
    nz_prod *= fs2 - z[i];
  for (int64_t i = 0; i < np; i++)
    np_prod *= fs2 - p[i];
  *k *= creal(cusci__sig_np_div(nz_prod, np_prod));
  for (int64_t i = 0; i < n; i++)
    z[i] = cusci__sig_np_div(fs2 + z[i], fs2 - z[i]);
  for (int64_t i = 0; i < np; i++)
    p[i] = cusci__sig_np_div(fs2 + p[i], fs2 - p[i]);
  for (int64_t i = n; i < np; i++)
    z[i] = -1;
  *nz = np;
  return 0;
}

int cusci__sig_cmp_double(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

bool cusci__sig_poly(const double complex *r, int64_t n, double k, double complex *c)
{
  c[0] = 1;
  for (int64_t i = 0; i < n; i++) {
    c[i + 1] = -r[i] * c[i];
    for (int64_t j = i; j >= 1; j--)
      c[j] = c[j] + -r[i] * c[j - 1];
  }
  /* Real when the roots' imaginary parts are symmetric about zero, as
   * NumPy's poly decides. */
  bool real = true;
  double *im = n ? malloc(sizeof *im * (size_t)n) : NULL;
  if (n && !im) {
    real = false;
    for (int64_t i = 0; i < n && !real; i++)
      real = cimag(r[i]) == 0;
  } else if (n) {
    for (int64_t i = 0; i < n; i++)
      im[i] = cimag(r[i]);
    qsort(im, (size_t)n, sizeof *im, cusci__sig_cmp_double);
    for (int64_t i = 0; i < n && real; i++)
      real = im[i] == -im[n - 1 - i];
    free(im);
  }
  for (int64_t i = 0; i <= n; i++)
    c[i] = real ? k * creal(c[i]) : k * c[i];
  return real;
}

/* Sort by real part, then by |imag| (stable). */
static void sort_re_absim(double complex *v, int64_t n)
{
  for (int64_t i = 1; i < n; i++) {
    const double complex x = v[i];
    int64_t j = i;
    while (j > 0 && (creal(v[j - 1]) > creal(x) || (creal(v[j - 1]) == creal(x) && fabs(cimag(v[j - 1])) > fabs(cimag(x))))) {
      v[j] = v[j - 1];
      j--;
    }
    v[j] = x;
  }
}

static void sort_absim(double complex *v, int64_t n)
{
  for (int64_t i = 1; i < n; i++) {
    const double complex x = v[i];
    int64_t j = i;
    while (j > 0 && fabs(cimag(v[j - 1])) > fabs(cimag(x))) {
      v[j] = v[j - 1];
      j--;
    }
    v[j] = x;
  }
}

/* SciPy's _cplxreal: one value per conjugate pair (the upper one, the
 * pair's average), sorted by real part then |imag|, then the real values
 * ascending (imaginary part exactly zero); out has room for n. Returns the
 * count, or -1 for a complex value without its conjugate. */
static int64_t cplxreal(const double complex *z, int64_t n, double complex *out)
{
  if (n == 0)
    return 0;
  double complex *s = malloc(sizeof *s * (size_t)(3 * n));
  if (!s)
    return -2;
  double complex *zp = s + n, *zn = s + 2 * n;
  memcpy(s, z, sizeof *s * (size_t)n);
  sort_re_absim(s, n);
  const double tol = 100 * DBL_EPSILON;
  int64_t nr = 0, npos = 0, nneg = 0;
  double *re = malloc(sizeof *re * (size_t)n);
  if (!re) {
    free(s);
    return -2;
  }
  for (int64_t i = 0; i < n; i++) {
    if (fabs(cimag(s[i])) <= tol * cabs(s[i]))
      re[nr++] = creal(s[i]);
    else if (cimag(s[i]) > 0)
      zp[npos++] = s[i];
    else
      zn[nneg++] = s[i];
  }
  int64_t r = -1;
  if (npos == nneg) {
    /* Runs of nearly equal real parts, each sorted by |imag|. */
    int64_t i = 0;
    while (i + 1 < npos) {
      int64_t j = i;
      while (j + 1 < npos && creal(zp[j + 1]) - creal(zp[j]) <= tol * cabs(zp[j]))
        j++;
      if (j > i) {
        sort_absim(zp + i, j - i + 1);
        sort_absim(zn + i, j - i + 1);
      }
      i = j + 1;
    }
    bool matched = true;
    for (int64_t q = 0; q < npos && matched; q++)
      matched = cabs(zp[q] - conj(zn[q])) <= tol * cabs(zn[q]);
    if (matched) {
      for (int64_t q = 0; q < npos; q++)
        out[q] = (zp[q] + conj(zn[q])) / 2;
      for (int64_t q = 0; q < nr; q++)
        out[npos + q] = re[q];
      r = npos + nr;
    }
  }
  free(s), free(re);
  return r;
}

int64_t cusci__sig_zpk2sos_sections(int64_t nz, int64_t np, cusci__sig_pairing pairing)
{
  if (nz == 0 && np == 0)
    return 1;
  const int64_t n = pairing == CUSCI__SIG_PAIR_MINIMAL ? np : (nz > np ? nz : np);
  return (n + 1) / 2;
}

static bool is_real(double complex v)
{
  return cimag(v) == 0;
}

static int64_t count_real(const double complex *v, int64_t n)
{
  int64_t c = 0;
  for (int64_t i = 0; i < n; i++)
    c += is_real(v[i]);
  return c;
}

static double complex take(double complex *v, int64_t *n, int64_t i)
{
  const double complex x = v[i];
  memmove(v + i, v + i + 1, sizeof *v * (size_t)(*n - i - 1));
  (*n)--;
  return x;
}

/* The "worst" value: closest to the unit circle (digital) or to the
 * imaginary axis (analog); among those with real ones only when
 * real_only. First of equals. -1 when there is none. */
static int64_t idx_worst(const double complex *p, int64_t n, bool analog, bool real_only)
{
  int64_t best = -1;
  double bd = INFINITY;
  for (int64_t i = 0; i < n; i++) {
    if (real_only && !is_real(p[i]))
      continue;
    const double d = analog ? fabs(creal(p[i])) : fabs(1 - cabs(p[i]));
    if (best < 0 || d < bd)
      best = i, bd = d;
  }
  return best;
}

/* The value of fro nearest to `to`: 'a'ny, 'r'eal or 'c'omplex. */
static int64_t idx_nearest(const double complex *fro, int64_t n, double complex to, char which)
{
  int64_t best = -1;
  double bd = INFINITY;
  for (int64_t i = 0; i < n; i++) {
    if ((which == 'r' && !is_real(fro[i])) || (which == 'c' && is_real(fro[i])))
      continue;
    const double d = cabs(fro[i] - to);
    if (best < 0 || d < bd)
      best = i, bd = d;
  }
  return best;
}

/* One section from up to two zeros and two poles. */
static void single_sos(const double complex *z, int nz, const double complex *p, int np, double *sos)
{
  double complex b[3], a[3];
  cusci__sig_poly(z, nz, 1, b);
  cusci__sig_poly(p, np, 1, a);
  for (int j = 0; j < 6; j++)
    sos[j] = 0;
  for (int j = 0; j <= nz; j++)
    sos[3 - (nz + 1) + j] = creal(b[j]);
  for (int j = 0; j <= np; j++)
    sos[6 - (np + 1) + j] = creal(a[j]);
}

int cusci__sig_zpk2sos(const double complex *z0, int64_t nz0, const double complex *p0, int64_t np0, double k, cusci__sig_pairing pairing,
                       bool analog, double *sos)
{
  if (nz0 == 0 && np0 == 0) {
    const double row[2][6] = {{k, 0, 0, 1, 0, 0}, {0, 0, k, 0, 0, 1}};
    memcpy(sos, row[analog], sizeof row[0]);
    return 0;
  }
  if (pairing == CUSCI__SIG_PAIR_MINIMAL && np0 < nz0)
    return CUSCI__SIG_DESIGN_DEGREE;
  const int64_t nsec = cusci__sig_zpk2sos_sections(nz0, np0, pairing);
  const int64_t cap = (nz0 > np0 ? nz0 : np0) + 1;
  double complex *buf = malloc(sizeof *buf * (size_t)(4 * cap));
  if (!buf)
    return CUSCI__SIG_DESIGN_MEMORY;
  double complex *zs = buf, *ps = buf + cap, *z = buf + 2 * cap, *p = buf + 3 * cap;
  int64_t nz = nz0, np = np0;
  memcpy(zs, z0, sizeof *zs * (size_t)nz0);
  memcpy(ps, p0, sizeof *ps * (size_t)np0);
  if (pairing != CUSCI__SIG_PAIR_MINIMAL) {
    /* As many poles as zeros, the extra ones at the origin; with an odd
     * count and nearest pairing, one more of each. */
    while (np < nz)
      ps[np++] = 0;
    while (nz < np)
      zs[nz++] = 0;
    if (np % 2 == 1 && pairing == CUSCI__SIG_PAIR_NEAREST)
      ps[np++] = 0, zs[nz++] = 0;
  }
  nz = cplxreal(zs, nz, z);
  np = nz >= 0 ? cplxreal(ps, np, p) : np;
  int rc = nz == -2 || np == -2 ? CUSCI__SIG_DESIGN_MEMORY : nz < 0 || np < 0 ? CUSCI__SIG_DESIGN_CONJ : 0;
  for (int64_t si = nsec - 1; si >= 0 && rc == 0; si--) {
    double *row = sos + 6 * si;
    const double complex p1 = take(p, &np, idx_worst(p, np, analog, false));
    if (is_real(p1) && count_real(p, np) == 0) {
      /* The last real pole: a first-order section. */
      const int64_t zi = idx_nearest(z, nz, p1, 'r');
      if (pairing != CUSCI__SIG_PAIR_MINIMAL) {
        if (zi < 0) {
          rc = CUSCI__SIG_DESIGN_CONJ;
          break;
        }
        const double complex zz[2] = {take(z, &nz, zi), 0}, pp[2] = {p1, 0};
        single_sos(zz, 2, pp, 2, row);
      } else if (nz > 0 && zi >= 0) {
        const double complex zz = take(z, &nz, zi);
        single_sos(&zz, 1, &p1, 1, row);
      } else {
        single_sos(NULL, 0, &p1, 1, row);
      }
    } else if (np + 1 == nz && !is_real(p1) && count_real(p, np) == 1 && count_real(z, nz) == 1) {
      /* One real pole and one real zero left: pair with a complex zero. */
      const double complex z1 = take(z, &nz, idx_nearest(z, nz, p1, 'c'));
      const double complex zz[2] = {z1, conj(z1)}, pp[2] = {p1, conj(p1)};
      single_sos(zz, 2, pp, 2, row);
    } else {
      double complex p2;
      if (is_real(p1))
        p2 = take(p, &np, idx_worst(p, np, analog, true));
      else
        p2 = conj(p1);
      const double complex pp[2] = {p1, p2};
      if (nz > 0) {
        const double complex z1 = take(z, &nz, idx_nearest(z, nz, p1, 'a'));
        if (!is_real(z1)) {
          const double complex zz[2] = {z1, conj(z1)};
          single_sos(zz, 2, pp, 2, row);
        } else if (nz > 0) {
          const int64_t zi = idx_nearest(z, nz, p1, 'r');
          if (zi >= 0) {
            const double complex zz[2] = {z1, take(z, &nz, zi)};
            single_sos(zz, 2, pp, 2, row);
          } else if (pairing == CUSCI__SIG_PAIR_MINIMAL) {
            /* The only real zero, complex ones left for later sections
             * (SciPy 1.17 fails here): the zero alone with the pair. */
            single_sos(&z1, 1, pp, 2, row);
          } else {
            rc = CUSCI__SIG_DESIGN_CONJ;
            break;
          }
        } else {
          single_sos(&z1, 1, pp, 2, row);
        }
      } else {
        single_sos(NULL, 0, pp, 2, row);
      }
    }
  }
  free(buf);
  if (rc == 0)
    for (int j = 0; j < 3; j++)
      sos[j] *= k;
  return rc;
}

/* ---- windows ---- */

double cusci__sig_i0(double x)
{
  /* sum (x/2)^2k / (k!)^2: positive terms, so accurate to a few ulps. */
  const double q = x * x / 4;
  double term = 1, sum = 1;
  for (int k = 1; k < 1000; k++) {
    term *= q / ((double)k * k);
    sum += term;
    if (term < sum * 1e-17)
      break;
  }
  return sum;
}

static double sinc(double x)
{
  const double y = M_PI * (x == 0 ? 1.0e-20 : x);
  return sin(y) / y;
}

/* NumPy's linspace(a, b, n)[i]. */
static double linspace(double a, double b, int64_t n, int64_t i)
{
  if (i == n - 1)
    return b;
  return (double)i * ((b - a) / (double)(n - 1)) + a;
}

static void general_cosine(const double *a, int na, int64_t M, double *w)
{
  for (int64_t i = 0; i < M; i++) {
    const double fac = linspace(-M_PI, M_PI, M, i);
    double v = 0;
    for (int k = 0; k < na; k++)
      v += a[k] * cos(k * fac);
    w[i] = v;
  }
}

static void kaiser(double beta, int64_t M, double *w)
{
  const double alpha = (M - 1) / 2.0, den = cusci__sig_i0(beta);
  for (int64_t i = 0; i < M; i++) {
    const double r = ((double)i - alpha) / alpha;
    w[i] = cusci__sig_i0(beta * sqrt(1 - r * r)) / den;
  }
}

static void chebwin(double at, int64_t M, double *w)
{
  const double order = M - 1.0;
  const double beta = cosh(1.0 / order * acosh(pow(10, fabs(at) / 20.)));
  double *p = malloc(sizeof *p * (size_t)M);
  if (!p)
    return;
  for (int64_t k = 0; k < M; k++) {
    const double x = beta * cos(M_PI * (double)k / (double)M);
    if (x > 1)
      p[k] = cosh(order * acosh(x));
    else if (x < -1)
      p[k] = (2 * (M % 2) - 1) * cosh(order * acosh(-x));
    else
      p[k] = cos(order * acos(x));
  }
  /* The real part of the DFT (for even M, of p times exp(i pi k / M)),
   * the angles reduced exactly: pi * (k * c mod 2M) / M. */
  const int64_t M2 = 2 * M;
  double mx = -INFINITY;
  if (M % 2) {
    const int64_t n = (M + 1) / 2;
    for (int64_t j = 0; j < n; j++) {
      double v = 0;
      for (int64_t k = 0; k < M; k++)
        v += p[k] * cos(M_PI * (double)((2 * j * k) % M2) / (double)M);
      w[n - 1 + j] = v, w[n - 1 - j] = v;
      mx = fmax(mx, v);
    }
  } else {
    const int64_t n = M / 2 + 1;
    for (int64_t j = 1; j < n; j++) {
      double v = 0;
      for (int64_t k = 0; k < M; k++) {
        const int64_t c = ((k * (1 - 2 * j)) % M2 + M2) % M2;
        v += p[k] * cos(M_PI * (double)c / (double)M);
      }
      w[n - 1 - j] = v, w[n - 2 + j] = v;
      mx = fmax(mx, v);
    }
  }
  for (int64_t i = 0; i < M; i++)
    w[i] /= mx;
  free(p);
}

static void taylor(int nbar, double sll, bool norm, int64_t M, double *w)
{
  const double B = pow(10, sll / 20), A = acosh(B) / M_PI;
  const double s2 = (double)nbar * nbar / (A * A + (nbar - 0.5) * (nbar - 0.5));
  double Fm[nbar > 1 ? nbar - 1 : 1];
  for (int mi = 0; mi < nbar - 1; mi++) {
    const double m = mi + 1, m2 = m * m;
    double numer = 1, denom = 1;
    for (int j = 0; j < nbar - 1; j++) {
      const double mj = j + 1;
      numer *= 1 - m2 / s2 / (A * A + (mj - 0.5) * (mj - 0.5));
      if (j != mi)
        denom *= 1 - m2 / (mj * mj);
    }
    Fm[mi] = (mi % 2 ? -1 : 1) * numer / (2 * denom);
  }
  const double Md = (double)M;
  double scale = 1;
  if (norm) {
    double v = 0;
    for (int mi = 0; mi < nbar - 1; mi++)
      v += Fm[mi] * cos(2 * M_PI * (mi + 1) * ((Md - 1) / 2 - Md / 2. + 0.5) / Md);
    scale = 1.0 / (1 + 2 * v);
  }
  for (int64_t i = 0; i < M; i++) {
    double v = 0;
    for (int mi = 0; mi < nbar - 1; mi++)
      v += Fm[mi] * cos(2 * M_PI * (mi + 1) * ((double)i - Md / 2. + 0.5) / Md);
    w[i] = (1 + 2 * v) * scale;
  }
}

/* The number of eigenvalues of the symmetric tridiagonal (d, e) below x
 * (Sturm sequence). */
static int64_t sturm_count(const double *d, const double *e, int64_t n, double x)
{
  int64_t c = 0;
  double q = 1;
  for (int64_t i = 0; i < n; i++) {
    const double off = i ? e[i - 1] * e[i - 1] : 0;
    q = d[i] - x - (i ? off / q : 0);
    if (q == 0)
      q = -DBL_EPSILON * (fabs(d[i]) + fabs(x) + DBL_MIN);
    c += q < 0;
  }
  return c;
}

/* The first Slepian window: the eigenvector of the largest eigenvalue of
 * the tridiagonal matrix that commutes with the time-frequency
 * concentration problem (largest eigenvalue by bisection, its vector by
 * inverse iteration with partial pivoting). */
static int dpss(double NW, int64_t M, double *w)
{
  const double W = NW / (double)M;
  double *d = malloc(sizeof *d * (size_t)(7 * M));
  if (!d)
    return CUSCI__SIG_DESIGN_MEMORY;
  double *e = d + M, *lo = e + M, *di = lo + M, *up = di + M, *up2 = up + M, *x = up2 + M;
  double gl = INFINITY, gu = -INFINITY;
  for (int64_t i = 0; i < M; i++) {
    const double t = (M - 1 - 2.0 * (double)i) / 2.;
    d[i] = t * t * cos(2 * M_PI * W);
    if (i)
      e[i - 1] = (double)i * (double)(M - i) / 2.;
  }
  for (int64_t i = 0; i < M; i++) {
    const double r = (i ? fabs(e[i - 1]) : 0) + (i + 1 < M ? fabs(e[i]) : 0);
    gl = fmin(gl, d[i] - r), gu = fmax(gu, d[i] + r);
  }
  /* Bisection for the largest eigenvalue: count(x) < M below it. */
  double a = gl, b = gu;
  for (int it = 0; it < 200 && b - a > 2 * DBL_EPSILON * fmax(fabs(a), fabs(b)); it++) {
    const double mid = 0.5 * (a + b);
    if (sturm_count(d, e, M, mid) < M)
      a = mid;
    else
      b = mid;
  }
  const double lam = 0.5 * (a + b);
  const double tiny = DBL_EPSILON * fmax(fabs(gl), fabs(gu));
  /* T - (lam + tiny) I = P L U by Gaussian elimination with row
   * interchanges (as LAPACK's gttrf): lo the multipliers, di, up and up2
   * the diagonals of U, sw[i] where rows i and i + 1 were swapped. */
  unsigned char *sw = calloc((size_t)M, 1);
  if (!sw) {
    free(d);
    return CUSCI__SIG_DESIGN_MEMORY;
  }
  for (int64_t i = 0; i < M; i++) {
    di[i] = d[i] - (lam + tiny), up2[i] = 0;
    if (i + 1 < M)
      up[i] = lo[i] = e[i];
  }
  for (int64_t i = 0; i + 1 < M; i++) {
    if (fabs(di[i]) >= fabs(lo[i])) {
      const double f = di[i] != 0 ? lo[i] / di[i] : 0;
      lo[i] = f;
      di[i + 1] -= f * up[i];
    } else {
      const double f = di[i] / lo[i];
      sw[i] = 1;
      di[i] = lo[i];
      lo[i] = f;
      const double t = up[i];
      up[i] = di[i + 1];
      di[i + 1] = t - f * di[i + 1];
      if (i + 2 < M) {
        up2[i] = up[i + 1];
        up[i + 1] = -f * up[i + 1];
      }
    }
  }
  for (int64_t i = 0; i < M; i++)
    if (di[i] == 0)
      di[i] = tiny;
  for (int64_t i = 0; i < M; i++)
    x[i] = 1;
  for (int it = 0; it < 4; it++) {
    for (int64_t i = 0; i + 1 < M; i++) {
      if (sw[i]) {
        const double t = x[i];
        x[i] = x[i + 1];
        x[i + 1] = t - lo[i] * x[i];
      } else {
        x[i + 1] -= lo[i] * x[i];
      }
    }
    for (int64_t i = M - 1; i >= 0; i--) {
      double v = x[i];
      if (i + 1 < M)
        v -= up[i] * x[i + 1];
      if (i + 2 < M)
        v -= up2[i] * x[i + 2];
      x[i] = v / di[i];
    }
    double nrm = 0;
    for (int64_t i = 0; i < M; i++)
      nrm = fmax(nrm, fabs(x[i]));
    for (int64_t i = 0; i < M; i++)
      x[i] /= nrm;
  }
  double sum = 0, mx = -INFINITY;
  for (int64_t i = 0; i < M; i++)
    sum += x[i];
  const double sgn = sum < 0 ? -1 : 1;
  for (int64_t i = 0; i < M; i++)
    mx = fmax(mx, sgn * x[i]);
  const double corr = M % 2 == 0 ? (double)M * M / ((double)M * M + NW) : 1;
  for (int64_t i = 0; i < M; i++)
    w[i] = sgn * x[i] / mx * corr;
  free(sw), free(d);
  return 0;
}

int cusci__sig_window(cusci__sig_window_kind kind, const double *par, int npar, int64_t M, bool sym, double *w)
{
  if (kind == CUSCI__WIN_KBD) {
    /* Symmetric and of even length (checked by the caller). */
    const int64_t h = M / 2;
    double *kw = malloc(sizeof *kw * (size_t)(h + 1));
    if (!kw)
      return CUSCI__SIG_DESIGN_MEMORY;
    kaiser(par[0], h + 1, kw);
    double total = 0;
    for (int64_t i = 0; i <= h; i++)
      total += kw[i];
    double c = 0;
    for (int64_t i = 0; i < h; i++) {
      c += kw[i];
      w[i] = w[M - 1 - i] = sqrt(c / total);
    }
    free(kw);
    return 0;
  }
  if (M <= 1) {
    for (int64_t i = 0; i < M; i++)
      w[i] = 1;
    return 0;
  }
  /* The periodic window is the symmetric one of M + 1, less its last. */
  const int64_t N = sym ? M : M + 1;
  double *v = sym ? w : malloc(sizeof *v * (size_t)N);
  if (!v)
    return CUSCI__SIG_DESIGN_MEMORY;
  int rc = 0;
  const double Nd = (double)N;
  switch (kind) {
  case CUSCI__WIN_BARTHANN:
    for (int64_t i = 0; i < N; i++) {
      const double fac = fabs((double)i / (Nd - 1) - 0.5);
      v[i] = 0.62 - 0.48 * fac + 0.38 * cos(2 * M_PI * fac);
    }
    break;
  case CUSCI__WIN_BARTLETT:
    for (int64_t i = 0; i < N; i++)
      v[i] = (double)i <= (Nd - 1) / 2.0 ? 2.0 * (double)i / (Nd - 1) : 2.0 - 2.0 * (double)i / (Nd - 1);
    break;
  case CUSCI__WIN_BLACKMAN:
    general_cosine((const double[]){0.42, 0.50, 0.08}, 3, N, v);
    break;
  case CUSCI__WIN_BLACKMANHARRIS:
    general_cosine((const double[]){0.35875, 0.48829, 0.14128, 0.01168}, 4, N, v);
    break;
  case CUSCI__WIN_BOHMAN:
    v[0] = v[N - 1] = 0;
    for (int64_t i = 1; i + 1 < N; i++) {
      const double fac = fabs(linspace(-1, 1, N, i));
      v[i] = (1 - fac) * cos(M_PI * fac) + 1.0 / M_PI * sin(M_PI * fac);
    }
    break;
  case CUSCI__WIN_BOXCAR:
    for (int64_t i = 0; i < N; i++)
      v[i] = 1;
    break;
  case CUSCI__WIN_CHEBWIN:
    chebwin(par[0], N, v);
    break;
  case CUSCI__WIN_COSINE:
    for (int64_t i = 0; i < N; i++)
      v[i] = sin(M_PI / Nd * ((double)i + .5));
    break;
  case CUSCI__WIN_DPSS:
    rc = dpss(par[0], N, v);
    break;
  case CUSCI__WIN_EXPONENTIAL: {
    const double center = isnan(par[0]) ? (Nd - 1) / 2 : par[0];
    for (int64_t i = 0; i < N; i++)
      v[i] = exp(-fabs((double)i - center) / par[1]);
    break;
  }
  case CUSCI__WIN_FLATTOP:
    general_cosine((const double[]){0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368}, 5, N, v);
    break;
  case CUSCI__WIN_GAUSSIAN:
    for (int64_t i = 0; i < N; i++) {
      const double n = (double)i - (Nd - 1.0) / 2.0;
      v[i] = exp(-(n * n) / (2 * par[0] * par[0]));
    }
    break;
  case CUSCI__WIN_GENERAL_COSINE:
    general_cosine(par, npar, N, v);
    break;
  case CUSCI__WIN_GENERAL_GAUSSIAN:
    for (int64_t i = 0; i < N; i++) {
      const double n = (double)i - (Nd - 1.0) / 2.0;
      v[i] = exp(-0.5 * pow(fabs(n / par[1]), 2 * par[0]));
    }
    break;
  case CUSCI__WIN_GENERAL_HAMMING:
    general_cosine((const double[]){par[0], 1.0 - par[0]}, 2, N, v);
    break;
  case CUSCI__WIN_HAMMING:
    general_cosine((const double[]){0.54, 1.0 - 0.54}, 2, N, v);
    break;
  case CUSCI__WIN_HANN:
    general_cosine((const double[]){0.5, 1.0 - 0.5}, 2, N, v);
    break;
  case CUSCI__WIN_KAISER:
    kaiser(par[0], N, v);
    break;
  case CUSCI__WIN_LANCZOS:
    for (int64_t i = 0; i < N; i++) {
      /* Evaluated on the right half and mirrored, as SciPy does. */
      const int64_t j = 2 * i >= N ? i : N - 1 - i;
      v[i] = 2 * i + 1 == N ? 1.0 : sinc(2. * (double)j / (Nd - 1) - 1.0);
    }
    break;
  case CUSCI__WIN_NUTTALL:
    general_cosine((const double[]){0.3635819, 0.4891775, 0.1365995, 0.0106411}, 4, N, v);
    break;
  case CUSCI__WIN_PARZEN:
    for (int64_t i = 0; i < N; i++) {
      const double n = fabs(-(Nd - 1) / 2.0 + (double)i), r = n / (Nd / 2);
      v[i] = n <= (Nd - 1) / 4.0 ? 1 - 6 * r * r + 6 * r * r * r : 2 * (1 - r) * (1 - r) * (1 - r);
    }
    break;
  case CUSCI__WIN_TAYLOR:
    taylor((int)par[0], par[1], par[2] != 0, N, v);
    break;
  case CUSCI__WIN_TRIANG: {
    const int64_t h = (N + 1) / 2;
    for (int64_t n = 1; n <= h; n++) {
      const double t = N % 2 == 0 ? (2.0 * (double)n - 1.0) / Nd : 2.0 * (double)n / (Nd + 1.0);
      v[n - 1] = v[N - n] = t;
    }
    break;
  }
  case CUSCI__WIN_TUKEY: {
    const double alpha = par[0];
    if (alpha <= 0) {
      for (int64_t i = 0; i < N; i++)
        v[i] = 1;
    } else if (alpha >= 1) {
      general_cosine((const double[]){0.5, 0.5}, 2, N, v);
    } else {
      const int64_t width = (int64_t)floor(alpha * (Nd - 1) / 2.0);
      for (int64_t i = 0; i < N; i++) {
        const double n = (double)i;
        if (i <= width)
          v[i] = 0.5 * (1 + cos(M_PI * (-1 + 2.0 * n / alpha / (Nd - 1))));
        else if (i < N - width - 1)
          v[i] = 1;
        else
          v[i] = 0.5 * (1 + cos(M_PI * (-2.0 / alpha + 1 + 2.0 * n / alpha / (Nd - 1))));
      }
    }
    break;
  }
  case CUSCI__WIN_KBD:
    break;
  }
  if (!sym) {
    memcpy(w, v, sizeof *w * (size_t)M);
    free(v);
  }
  return rc;
}

void cusci__sig_firwin_bands(int64_t numtaps, const double *edges, int64_t nb, const double *win, bool scale, double *h)
{
  const double alpha = 0.5 * (double)(numtaps - 1);
  for (int64_t i = 0; i < numtaps; i++) {
    const double m = (double)i - alpha;
    double v = 0;
    for (int64_t j = 0; j < nb; j++) {
      const double left = edges[2 * j], right = edges[2 * j + 1];
      v += right * sinc(right * m);
      v -= left * sinc(left * m);
    }
    h[i] = v * win[i];
  }
  if (scale) {
    const double left = edges[0], right = edges[1];
    const double f = left == 0 ? 0.0 : right == 1 ? 1.0 : 0.5 * (left + right);
    double s = 0;
    for (int64_t i = 0; i < numtaps; i++)
      s += h[i] * cos(M_PI * ((double)i - alpha) * f);
    for (int64_t i = 0; i < numtaps; i++)
      h[i] /= s;
  }
}
