/*
 * tests/signed-zero.h: which zero maximum, minimum, fmax, fmin and the
 * max/min reductions return when -0.0 and +0.0 tie, on any context (the
 * host programs and the GPU ones run the same checks).
 *
 * NumPy 2.4's float32 and float64 loops: maximum(-0.0, 0.0) is 0.0 and
 * maximum(0.0, -0.0) is -0.0 (the second operand), as minimum; fmax and
 * fmin return the first in their scalar loops. Complex maximum/minimum
 * return the first. The reductions (NumPy's own choice depends on the
 * order and its vector width) keep +0.0 for max and nanmax, -0.0 for min
 * and nanmin, whatever the order.
 */
#ifndef CUSCI_TESTS_SIGNED_ZERO_H
#define CUSCI_TESTS_SIGNED_ZERO_H

#include "tests/compute-util.h"

/* The sign bits of a float32 or float64 array's elements, as a string of
 * '-' and '+' (NaN 'n'), into s (n + 1 bytes). */
static inline void sz_signs(cusci_ctx *c, const cusci_array *a, char *s, int64_t n)
{
  void *b = tk_to_host(c, a);
  for (int64_t i = 0; i < n; i++) {
    double v = cusci_array_dtype(a) == CUSCI_FLOAT32 ? ((const float *)b)[i] : ((const double *)b)[i];
    s[i] = v != v ? 'n' : signbit(v) ? '-' : '+';
  }
  s[n] = 0;
  free(b);
}

static inline cusci_array *sz_array(cusci_ctx *c, cusci_dtype dt, const double *v, int64_t n)
{
  cusci_array *d = NULL, *a = NULL;
  cusci_array_from_host(c, v, 1, &n, CUSCI_FLOAT64, &d);
  cusci_array_astype(c, d, dt, true, &a);
  cusci_array_release(d);
  return a;
}

/* Element-wise: 19 elements (a vector path and its tail) of alternating
 * zeros, x2 the opposite signs of x1. */
static inline void sz_ufunc_cases(cusci_ctx *c, const char *side)
{
  enum { N = 19 };
  double v1[N], v2[N];
  char want_second[N + 1], want_first[N + 1], got[N + 1];
  for (int i = 0; i < N; i++) {
    v1[i] = i % 2 ? 0.0 : -0.0;
    v2[i] = i % 2 ? -0.0 : 0.0;
    want_first[i] = i % 2 ? '+' : '-';
    want_second[i] = i % 2 ? '-' : '+';
  }
  want_first[N] = want_second[N] = 0;
  static const cusci_dtype dts[] = {CUSCI_FLOAT32, CUSCI_FLOAT64};
  static const struct {
    cusci_ufunc f;
    int second;
  } fs[] = {{CUSCI_UFUNC_MAXIMUM, 1}, {CUSCI_UFUNC_MINIMUM, 1}, {CUSCI_UFUNC_FMAX, 0}, {CUSCI_UFUNC_FMIN, 0}};
  for (size_t d = 0; d < 2; d++) {
    cusci_array *a = sz_array(c, dts[d], v1, N), *b = sz_array(c, dts[d], v2, N);
    for (size_t k = 0; k < sizeof fs / sizeof *fs; k++) {
      cusci_array *r = NULL;
      cusci_status st = cusci_ufunc_binary(c, fs[k].f, cusci_operand_array(a), cusci_operand_array(b), &r);
      got[0] = 0;
      if (st == CUSCI_OK)
        sz_signs(c, r, got, N);
      const char *want = fs[k].second ? want_second : want_first;
      ok(st == CUSCI_OK && !strcmp(got, want), "%s %s(%s) of -0.0 and +0.0 returns the %s operand (%s, want %s)", side,
         cusci_ufunc_name(fs[k].f), cusci_dtype_name(dts[d]), fs[k].second ? "second" : "first", got, want);
      cusci_array_release(r);
    }
    /* clip with both bounds keeps a on a tie, as NumPy's clip loop. */
    cusci_array *r1 = NULL, *r2 = NULL;
    char g1[N + 1] = "", g2[N + 1] = "";
    cusci_status s1 = cusci_clip(c, a, cusci_operand_float(0.0), cusci_operand_float(1.0), &r1);
    cusci_status s2 = cusci_clip(c, a, cusci_operand_float(-1.0), cusci_operand_float(-0.0), &r2);
    if (s1 == CUSCI_OK)
      sz_signs(c, r1, g1, N);
    if (s2 == CUSCI_OK)
      sz_signs(c, r2, g2, N);
    ok(s1 == CUSCI_OK && s2 == CUSCI_OK && !strcmp(g1, want_first) && !strcmp(g2, want_first),
       "%s clip(%s) of zeros to [0.0, 1.0] and [-1.0, -0.0] keeps a's zeros (%s, %s, want %s)", side,
       cusci_dtype_name(dts[d]), g1, g2, want_first);
    cusci_array_release(r1);
    cusci_array_release(r2);
    cusci_array_release(a);
    cusci_array_release(b);
  }
}

/* One reduction's sign of zero: fn over v (n float32 or float64). */
static inline char sz_reduce(cusci_ctx *c, cusci_status (*fn)(cusci_ctx *, const cusci_array *,
                                                              const cusci_reduce_opts *, cusci_array **),
                             cusci_dtype dt, const double *v, int64_t n)
{
  cusci_array *a = sz_array(c, dt, v, n), *r = NULL;
  char s[2] = {'?', 0};
  if (fn(c, a, NULL, &r) == CUSCI_OK && cusci_array_size(r) == 1)
    sz_signs(c, r, s, 1);
  cusci_array_release(a);
  cusci_array_release(r);
  return s[0];
}

/* Reductions: two zeros in either order, with a NaN for the nan variants,
 * and 100003 zeros of one sign with a single one of the other (the GPU's
 * multi-block path). */
static inline void sz_reduce_cases(cusci_ctx *c, const char *side)
{
  static const cusci_dtype dts[] = {CUSCI_FLOAT32, CUSCI_FLOAT64};
  const int64_t n = 100003;
  double *big = malloc((size_t)n * sizeof *big);
  for (size_t d = 0; d < 2; d++) {
    const char *dn = cusci_dtype_name(dts[d]);
    double mp[2] = {-0.0, 0.0}, pm[2] = {0.0, -0.0}, nmp[3] = {NAN, -0.0, 0.0}, npm[3] = {0.0, NAN, -0.0};
    ok(sz_reduce(c, cusci_max, dts[d], mp, 2) == '+' && sz_reduce(c, cusci_max, dts[d], pm, 2) == '+',
       "%s max(%s) of -0.0 and +0.0 in either order is +0.0", side, dn);
    ok(sz_reduce(c, cusci_min, dts[d], mp, 2) == '-' && sz_reduce(c, cusci_min, dts[d], pm, 2) == '-',
       "%s min(%s) of -0.0 and +0.0 in either order is -0.0", side, dn);
    ok(sz_reduce(c, cusci_nanmax, dts[d], nmp, 3) == '+' && sz_reduce(c, cusci_nanmax, dts[d], npm, 3) == '+',
       "%s nanmax(%s) of NaN, -0.0 and +0.0 is +0.0", side, dn);
    ok(sz_reduce(c, cusci_nanmin, dts[d], nmp, 3) == '-' && sz_reduce(c, cusci_nanmin, dts[d], npm, 3) == '-',
       "%s nanmin(%s) of NaN, -0.0 and +0.0 is -0.0", side, dn);
    ok(sz_reduce(c, cusci_max, dts[d], mp, 1) == '-' && sz_reduce(c, cusci_min, dts[d], pm, 1) == '+',
       "%s max(%s) of -0.0 alone is -0.0, min of +0.0 alone +0.0", side, dn);
    for (int64_t i = 0; i < n; i++)
      big[i] = -0.0;
    big[77777] = 0.0;
    char mx = sz_reduce(c, cusci_max, dts[d], big, n), nmx = sz_reduce(c, cusci_nanmax, dts[d], big, n);
    big[77777] = -0.0;
    char all = sz_reduce(c, cusci_max, dts[d], big, n);
    for (int64_t i = 0; i < n; i++)
      big[i] = 0.0;
    big[12345] = -0.0;
    char mn = sz_reduce(c, cusci_min, dts[d], big, n), nmn = sz_reduce(c, cusci_nanmin, dts[d], big, n);
    ok(mx == '+' && nmx == '+' && all == '-' && mn == '-' && nmn == '-',
       "%s %lld %s zeros: max and nanmax find the one +0.0, min and nanmin the one -0.0 (%c%c%c%c%c)", side,
       (long long)n, dn, mx, nmx, all, mn, nmn);
  }
  free(big);
}

#endif
