/*
 * tests/signal-ref-fft.c: the host FFT of cusci-signal
 * (reference/signal/fft.h), against references that need no FFT:
 *  - a direct DFT in long double, at lengths 1 to 64, the fixtures'
 *    lengths (97, 128, 1000, 1009), primes and powers up to 4096, both
 *    signs, both precisions, the mixed-radix and Bluestein paths;
 *  - at 2^20, 2^20 + 7 (prime), 3^13, 10^6 and 10^6 + 3: an impulse and a
 *    pure tone, whose transforms are known in closed form, the round trip
 *    back, and, for the composite lengths, the mixed-radix result against
 *    Bluestein's;
 *  - the real transforms against the complex ones, at lengths even and
 *    odd;
 *  - the DCT and DST of types 1 to 4 against their direct sums;
 * each within a relative RMS error of 4 eps (log2 n + 1).
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "reference/signal/fft.h"
#include "tests/tap.h"

#define TWO_PI 6.283185307179586476925286766559005768L

static uint64_t seed = 88172645463325252ull;
static double uniform(void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
}

/* exp(sign 2 pi i e / n) in long double. */
static long double complex unit(uint64_t e, int64_t n, int sign)
{
  long double a = TWO_PI * (long double)(e % (uint64_t)n) / (long double)n;
  return cosl(a) + sign * I * sinl(a);
}

static double tolerance(int64_t n, bool single) { return 4 * (single ? FLT_EPSILON : DBL_EPSILON) * (log2((double)n) + 1); }

/* The relative RMS distance of got (double or float, n complex) from want. */
static double distance(int64_t n, const void *got, bool single, const long double complex *want)
{
  long double num = 0, den = 0;
  for (int64_t i = 0; i < n; i++) {
    long double complex g = single ? (long double complex)((const float complex *)got)[i] : (long double complex)((const double complex *)got)[i];
    long double complex d = g - want[i];
    num += creall(d) * creall(d) + cimagl(d) * cimagl(d);
    den += creall(want[i]) * creall(want[i]) + cimagl(want[i]) * cimagl(want[i]);
  }
  return (double)sqrtl(num / (den > 0 ? den : 1));
}

/* Transform x (n complex of the precision) in place with a fresh plan;
 * false when there is no plan or no memory. */
static bool transform(int64_t n, bool single, bool bluestein, void *x, int sign)
{
  bool good = false;
  if (single) {
    cusci__fft_f *p = cusci__fft_plan_f(n, bluestein);
    void *w = p ? malloc(cusci__fft_work_f(p)) : NULL;
    if (w) {
      cusci__fft_run_f(p, x, sign, w);
      good = true;
    }
    free(w);
    cusci__fft_free_f(p);
  } else {
    cusci__fft_d *p = cusci__fft_plan_d(n, bluestein);
    void *w = p ? malloc(cusci__fft_work_d(p)) : NULL;
    if (w) {
      cusci__fft_run_d(p, x, sign, w);
      good = true;
    }
    free(w);
    cusci__fft_free_d(p);
  }
  return good;
}

static void *buffer(int64_t n, bool single) { return malloc((single ? sizeof(float complex) : sizeof(double complex)) * (size_t)(n ? n : 1)); }
static void put(void *x, bool single, int64_t i, long double complex v)
{
  if (single)
    ((float complex *)x)[i] = (float complex)v;
  else
    ((double complex *)x)[i] = (double complex)v;
}
static long double complex get(const void *x, bool single, int64_t i)
{
  return single ? (long double complex)((const float complex *)x)[i] : (long double complex)((const double complex *)x)[i];
}

/* Against the direct DFT of random input. */
static void direct(int64_t n, bool single, bool bluestein)
{
  void *x = buffer(n, single), *y = buffer(n, single);
  long double complex *want = malloc(sizeof *want * (size_t)n);
  for (int64_t i = 0; i < n; i++)
    put(x, single, i, uniform() + I * uniform());
  long double complex *roots = malloc(sizeof *roots * (size_t)n);
  for (int64_t e = 0; e < n; e++)
    roots[e] = unit((uint64_t)e, n, -1);
  double worst = 0;
  bool made = true;
  for (int sign = -1; sign <= 1; sign += 2) {
    for (int64_t k = 0; k < n; k++) {
      long double complex acc = 0;
      for (int64_t j = 0, e = 0; j < n; j++, e = (e + k) % n)
        acc += get(x, single, j) * (sign < 0 ? roots[e] : conjl(roots[e]));
      want[k] = acc;
      put(y, single, k, get(x, single, k));
    }
    made &= transform(n, single, bluestein, y, sign);
    double d = distance(n, y, single, want);
    worst = d > worst || isnan(d) ? d : worst;
  }
  ok(made && worst <= tolerance(n, single), "%s n = %lld%s: forward and backward = the direct DFT, error %.3g <= %.3g",
     single ? "float" : "double", (long long)n, bluestein ? " (Bluestein)" : "", worst, tolerance(n, single));
  free(x), free(y), free(want), free(roots);
}

/* Whether the plan of length n is mixed radix: no prime factor above
 * CUSCI__FFT_DIRECT_MAX. */
static bool mixed_radix(int64_t n)
{
  for (int64_t d = 2; d <= CUSCI__FFT_DIRECT_MAX; d++)
    while (n % d == 0)
      n /= d;
  return n == 1;
}

/* Large n: an impulse at j0 transforms to exp(-2 pi i j0 k / n), a tone
 * exp(2 pi i f j / n) to n at k = f; random x comes back as n x; and the
 * two algorithms agree. */
static void large(int64_t n, bool single)
{
  void *x = buffer(n, single);
  long double complex *want = malloc(sizeof *want * (size_t)n);
  const int64_t j0 = n / 3 + 1, f = n / 7 + 2;
  for (int64_t i = 0; i < n; i++) {
    put(x, single, i, i == j0 ? 1 : 0);
    want[i] = unit((uint64_t)j0 * (uint64_t)i, n, -1);
  }
  bool made = transform(n, single, false, x, -1);
  double d = distance(n, x, single, want);
  ok(made && d <= tolerance(n, single), "%s n = %lld: an impulse, error %.3g", single ? "float" : "double", (long long)n, d);
  for (int64_t i = 0; i < n; i++) {
    put(x, single, i, unit((uint64_t)f * (uint64_t)i, n, 1));
    want[i] = i == f ? (long double)n : 0;
  }
  made = transform(n, single, false, x, -1);
  d = distance(n, x, single, want);
  ok(made && d <= tolerance(n, single), "%s n = %lld: a pure tone, error %.3g", single ? "float" : "double", (long long)n, d);
  void *y = buffer(n, single);
  for (int64_t i = 0; i < n; i++) {
    want[i] = uniform() + I * uniform();
    put(x, single, i, want[i]);
  }
  made = transform(n, single, false, x, -1);
  for (int64_t i = 0; i < n; i++)
    put(y, single, i, get(x, single, i));
  made &= transform(n, single, false, x, 1);
  for (int64_t i = 0; i < n; i++)
    put(x, single, i, get(x, single, i) / (long double)n);
  d = distance(n, x, single, want);
  ok(made && d <= 2 * tolerance(n, single), "%s n = %lld: backward(forward(x)) / n = x, error %.3g", single ? "float" : "double", (long long)n, d);
  /* y holds the forward transform: Bluestein's of the same x, where the
   * plan took the mixed-radix path (a prime length takes Bluestein's
   * anyway). */
  if (!mixed_radix(n)) {
    free(x), free(y), free(want);
    return;
  }
  for (int64_t i = 0; i < n; i++)
    put(x, single, i, want[i]);
  made = transform(n, single, true, x, -1);
  for (int64_t i = 0; i < n; i++)
    want[i] = get(y, single, i);
  d = distance(n, x, single, want);
  ok(made && d <= 2 * tolerance(n, single), "%s n = %lld: Bluestein = mixed radix, error %.3g", single ? "float" : "double", (long long)n, d);
  free(x), free(y), free(want);
}

/* rfft of the n reals xr into X (forward), or irfft of X into xr, with a
 * fresh plan; false when there is no plan or no memory. */
static bool real_transform(int64_t n, bool single, bool forward, void *xr, void *X)
{
  void *w = NULL;
  if (single) {
    cusci__rfft_f *p = cusci__rfft_plan_f(n);
    w = p ? malloc(cusci__rfft_work_f(p)) : NULL;
    if (w && forward)
      cusci__rfft_forward_f(p, xr, X, w);
    else if (w)
      cusci__rfft_backward_f(p, X, xr, w);
    cusci__rfft_free_f(p);
  } else {
    cusci__rfft_d *p = cusci__rfft_plan_d(n);
    w = p ? malloc(cusci__rfft_work_d(p)) : NULL;
    if (w && forward)
      cusci__rfft_forward_d(p, xr, X, w);
    else if (w)
      cusci__rfft_backward_d(p, X, xr, w);
    cusci__rfft_free_d(p);
  }
  const bool made = w != NULL;
  free(w);
  return made;
}

/* Real data: rfft against the complex transform of x with zero imaginary
 * parts, and irfft against the complex backward transform of the
 * Hermitian spectrum (imaginary parts of X_0 and X_{n/2} given but
 * ignored). An odd length goes through the complex transform itself, so
 * there this checks the packing; an even one takes the half-length path. */
static void real(int64_t n, bool single)
{
  const int64_t h = n / 2 + 1;
  void *xr = malloc((single ? sizeof(float) : sizeof(double)) * (size_t)n), *X = buffer(h, single), *c = buffer(n, single);
  long double complex *want = malloc(sizeof *want * (size_t)n);
  bool made = false;
  for (int64_t i = 0; i < n; i++) {
    double v = uniform();
    if (single)
      ((float *)xr)[i] = (float)v;
    else
      ((double *)xr)[i] = v;
    put(c, single, i, single ? (long double)((float *)xr)[i] : (long double)v);
  }
  made = transform(n, single, false, c, -1);
  for (int64_t k = 0; k < h; k++)
    want[k] = get(c, single, k);
  made &= real_transform(n, single, true, xr, X);
  double d = distance(h, X, single, want);
  ok(made && d <= tolerance(n, single), "%s n = %lld: rfft = the complex transform's first n/2 + 1, error %.3g", single ? "float" : "double",
     (long long)n, d);
  /* A random half spectrum, with imaginary parts at 0 and n/2 to ignore. */
  for (int64_t k = 0; k < h; k++)
    put(X, single, k, uniform() + I * uniform());
  for (int64_t k = 0; k < n; k++) {
    long double complex v = k < h ? get(X, single, k) : conjl(get(X, single, n - k));
    if (k == 0 || (n % 2 == 0 && k == n / 2))
      v = creall(v);
    put(c, single, k, v);
  }
  made = transform(n, single, false, c, 1);
  for (int64_t j = 0; j < n; j++)
    want[j] = creall(get(c, single, j));
  made &= real_transform(n, single, false, xr, X);
  for (int64_t j = 0; j < n; j++)
    put(c, single, j, single ? (long double)((float *)xr)[j] : (long double)((double *)xr)[j]);
  d = distance(n, c, single, want);
  ok(made && d <= tolerance(n, single), "%s n = %lld: irfft = the complex backward transform of the Hermitian spectrum, error %.3g",
     single ? "float" : "double", (long long)n, d);
  free(xr), free(X), free(c), free(want);
}

/* The DCT or DST of type t of random x against its direct sum (fft.h). */
static void trig(int t, bool sine, int64_t n, bool single)
{
  void *x = malloc(8 * (size_t)n), *y = malloc(8 * (size_t)n);
  long double *xv = malloc(sizeof *xv * (size_t)n);
  long double complex *want = malloc(sizeof *want * (size_t)n), *gotv = malloc(sizeof *gotv * (size_t)n);
  for (int64_t j = 0; j < n; j++) {
    double v = uniform();
    if (single)
      ((float *)x)[j] = (float)v, xv[j] = (float)v;
    else
      ((double *)x)[j] = v, xv[j] = v;
  }
  const long double pi = TWO_PI / 2;
  for (int64_t k = 0; k < n; k++) {
    long double acc = 0;
    for (int64_t j = 0; j < n; j++) {
      long double a, c = 2;
      if (!sine) {
        switch (t) {
        case 1: a = pi * j * k / (n - 1), c = j == 0 || j == n - 1 ? 1 : 2; break;
        case 2: a = pi * k * (2 * j + 1) / (2 * n); break;
        case 3: a = pi * j * (2 * k + 1) / (2 * n), c = j == 0 ? 1 : 2; break;
        default: a = pi * (2 * j + 1) * (2 * k + 1) / (4 * n);
        }
        acc += c * xv[j] * cosl(a);
      } else {
        switch (t) {
        case 1: a = pi * (j + 1) * (k + 1) / (n + 1); break;
        case 2: a = pi * (k + 1) * (2 * j + 1) / (2 * n); break;
        case 3: a = pi * (j + 1) * (2 * k + 1) / (2 * n), c = j == n - 1 ? 1 : 2; break;
        default: a = pi * (2 * j + 1) * (2 * k + 1) / (4 * n);
        }
        acc += c * xv[j] * sinl(a);
      }
    }
    want[k] = acc;
  }
  int rc = single ? cusci__dct_f(t, sine, n, x, y) : cusci__dct_d(t, sine, n, x, y);
  for (int64_t k = 0; k < n; k++)
    gotv[k] = single ? ((float *)y)[k] : ((double *)y)[k];
  /* distance() reads the precision's complex type: compare in long double. */
  long double num = 0, den = 0;
  for (int64_t k = 0; k < n; k++) {
    long double d = creall(gotv[k]) - creall(want[k]);
    num += d * d, den += creall(want[k]) * creall(want[k]);
  }
  double d = (double)sqrtl(num / (den > 0 ? den : 1));
  ok(rc == 0 && d <= tolerance(8 * n, single), "%s %s-%d n = %lld = the direct sum, error %.3g", single ? "float" : "double", sine ? "DST" : "DCT",
     t, (long long)n, d);
  free(x), free(y), free(xv), free(want), free(gotv);
}

int main(void)
{
  static const int64_t lengths[] = { 97, 100, 127, 128, 243, 256, 625, 1000, 1009, 1024, 2048, 2187, 4096 };
  for (int single = 0; single < 2; single++) {
    for (int64_t n = 1; n <= 64; n++)
      direct(n, single, false);
    for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++) {
      direct(lengths[i], single, false);
      direct(lengths[i], single, true);
    }
  }
  static const int64_t big[] = { INT64_C(1) << 20, (INT64_C(1) << 20) + 7, 1594323, 1000000, 1000003 };
  for (int single = 0; single < 2; single++)
    for (size_t i = 0; i < sizeof big / sizeof *big; i++)
      large(big[i], single);
  static const int64_t real_lengths[] = { 1, 2, 3, 4, 5, 6, 7, 8, 16, 17, 30, 97, 128, 1000, 1009, 4096, 1000000, 1000003 };
  for (int single = 0; single < 2; single++)
    for (size_t i = 0; i < sizeof real_lengths / sizeof *real_lengths; i++)
      real(real_lengths[i], single);
  static const int64_t trig_lengths[] = { 1, 2, 3, 4, 5, 16, 17, 30, 97, 128, 1000, 1009 };
  for (int single = 0; single < 2; single++)
    for (int t = 1; t <= 4; t++)
      for (int sine = 0; sine < 2; sine++)
        for (size_t i = 0; i < sizeof trig_lengths / sizeof *trig_lengths; i++)
          if (sine || t != 1 || trig_lengths[i] > 1)
            trig(t, sine, trig_lengths[i], single);
  double one = 1, out;
  ok(cusci__dct_d(5, false, 4, &one, &out) == -2 && cusci__dct_d(0, true, 4, &one, &out) == -2 && cusci__dct_d(2, false, 0, &one, &out) == -2 &&
         cusci__dct_d(1, false, 1, &one, &out) == -2 && cusci__dct_d(1, true, 1, &one, &out) == 0 && fabs(out - 2) < 1e-15,
     "DCT/DST: type 5 or 0, n = 0 and the DCT-I of one element refused; the DST-I of one element is 2 x_0");
  ok(cusci__rfft_plan_d(0) == NULL && cusci__rfft_plan_f(-1) == NULL, "no real plan for n = 0 or a negative n");
  ok(cusci__fft_plan_d(0, false) == NULL && cusci__fft_plan_f(-3, false) == NULL && cusci__fft_plan_d(CUSCI__FFT_MAX_N + 1, false) == NULL,
     "no plan for n = 0, a negative n or n past CUSCI__FFT_MAX_N");
  return done_testing();
}
