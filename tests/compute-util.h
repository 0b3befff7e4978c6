/*
 * tests/compute-util.h: what the compute tests share: fixture archives,
 * the ufuncs whose results are rounded by a math library, and an ulp
 * comparison.
 */
#ifndef CUSCI_TESTS_COMPUTE_UTIL_H
#define CUSCI_TESTS_COMPUTE_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/testutil.h"

static const char *const cu_dtype_names[CUSCI_N_DTYPES] = {
  "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
  "float16", "float32", "float64", "complex64", "complex128"};

/* tests/fixtures/compute/<name>.npz on ctx, or NULL with a diagnostic. */
static inline cusci_npz *cu_archive(cusci_ctx *ctx, const char *name)
{
  const char *dir = getenv("CUSCI_FIXTURES");
  char path[1024];
  snprintf(path, sizeof path, "%s/compute/%s.npz", dir ? dir : "tests/fixtures", name);
  cusci_npz *z = NULL;
  if (cusci_npz_load(ctx, path, &z) != CUSCI_OK) {
    printf("# fixture %s does not load: %s\n", path, cusci_ctx_last_error(ctx));
    return NULL;
  }
  return z;
}

/*
 * Ulps allowed between two results of f: 0 where both sides round each
 * operation exactly (IEEE arithmetic, comparisons, rounding functions);
 * 4 where a math library rounds (libm, NumPy's SIMD loops, CUDA's math
 * library), whose functions are accurate to a few ulp.
 */
static inline int cu_ulps(cusci_ufunc f, cusci_dtype dt)
{
  /* Complex elementary functions: within 16 eps of |result| (cusci
   * evaluates complex64 in double, NumPy in float); power within 256, as
   * exp(b log a) scales the rounding of log a by |b log a|. */
  if (cusci_dtype_kind(dt) == 'c') {
    switch (f) {
    case CUSCI_UFUNC_POWER: return -256;
    case CUSCI_UFUNC_SQRT: case CUSCI_UFUNC_EXP: case CUSCI_UFUNC_EXP2: case CUSCI_UFUNC_EXPM1:
    case CUSCI_UFUNC_LOG: case CUSCI_UFUNC_LOG2: case CUSCI_UFUNC_LOG10: case CUSCI_UFUNC_LOG1P:
    case CUSCI_UFUNC_SIN: case CUSCI_UFUNC_COS: case CUSCI_UFUNC_TAN: case CUSCI_UFUNC_ARCSIN:
    case CUSCI_UFUNC_ARCCOS: case CUSCI_UFUNC_ARCTAN: case CUSCI_UFUNC_SINH: case CUSCI_UFUNC_COSH:
    case CUSCI_UFUNC_TANH: case CUSCI_UFUNC_ARCSINH: case CUSCI_UFUNC_ARCCOSH: case CUSCI_UFUNC_ARCTANH:
      return -16;
    case CUSCI_UFUNC_RINT: return 0;
    default: break;
    }
  }
  if (cusci_dtype_kind(dt) == 'c' && (f == CUSCI_UFUNC_MULTIPLY || f == CUSCI_UFUNC_DIVIDE || f == CUSCI_UFUNC_SQUARE))
    return -8; /* see cu_first_far */
  switch (f) {
  case CUSCI_UFUNC_POWER:
    return cusci_dtype_kind(dt) == 'f' ? 4 : 0;
  case CUSCI_UFUNC_ABS:
  case CUSCI_UFUNC_SIGN:
    return cusci_dtype_kind(dt) == 'c' ? 4 : 0;
  case CUSCI_UFUNC_ARCTAN2: case CUSCI_UFUNC_HYPOT: case CUSCI_UFUNC_SQRT: case CUSCI_UFUNC_CBRT:
  case CUSCI_UFUNC_EXP: case CUSCI_UFUNC_EXP2: case CUSCI_UFUNC_EXPM1: case CUSCI_UFUNC_LOG:
  case CUSCI_UFUNC_LOG2: case CUSCI_UFUNC_LOG10: case CUSCI_UFUNC_LOG1P: case CUSCI_UFUNC_SIN:
  case CUSCI_UFUNC_COS: case CUSCI_UFUNC_TAN: case CUSCI_UFUNC_ARCSIN: case CUSCI_UFUNC_ARCCOS:
  case CUSCI_UFUNC_ARCTAN: case CUSCI_UFUNC_SINH: case CUSCI_UFUNC_COSH: case CUSCI_UFUNC_TANH:
  case CUSCI_UFUNC_ARCSINH: case CUSCI_UFUNC_ARCCOSH: case CUSCI_UFUNC_ARCTANH: case CUSCI_UFUNC_ANGLE:
    return 4;
  default:
    return 0;
  }
}

/* A float's bits as an integer that orders like the value. */
static inline int64_t cu_ordered(double v, cusci_dtype part, const unsigned char *p)
{
  (void)v;
  if (part == CUSCI_FLOAT16) {
    uint16_t b;
    memcpy(&b, p, 2);
    return (b & 0x8000) ? -(int64_t)(b & 0x7fff) : (int64_t)b;
  }
  if (part == CUSCI_FLOAT32) {
    uint32_t b;
    memcpy(&b, p, 4);
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
  }
  uint64_t b;
  memcpy(&b, p, 8);
  return (b >> 63) ? -(int64_t)(b & 0x7fffffffffffffffull) : (int64_t)b;
}

static inline double cu_part(cusci_dtype part, const unsigned char *p)
{
  if (part == CUSCI_FLOAT16) {
    uint16_t b;
    memcpy(&b, p, 2);
    int e = (b >> 10) & 31;
    double m = b & 1023;
    double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return (b & 0x8000) ? -v : v;
  }
  if (part == CUSCI_FLOAT32) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  double d;
  memcpy(&d, p, 8);
  return d;
}

/*
 * Index of the first element farther apart than `ulps` (NaN matches NaN,
 * infinities and integers must be equal), or -1. A negative `ulps` -u
 * compares complex numbers as a whole, |got - want| <= u eps |want|:
 * complex products round differently with and without fused multiply-adds
 * (NumPy's SIMD loops use them), and a part that cancels can differ by
 * many of its own ulps.
 */
static inline int64_t cu_first_far(cusci_dtype dt, const void *got, const void *want, int64_t n, int ulps)
{
  char k = cusci_dtype_kind(dt);
  if (ulps < 0 && k == 'c') {
    double eps = dt == CUSCI_COMPLEX64 ? 0x1p-23 : 0x1p-52;
    for (int64_t i = 0; i < n; i++) {
      double g[2], w[2];
      for (int j = 0; j < 2; j++) {
        if (dt == CUSCI_COMPLEX64) {
          g[j] = ((const float *)got)[2 * i + j];
          w[j] = ((const float *)want)[2 * i + j];
        } else {
          g[j] = ((const double *)got)[2 * i + j];
          w[j] = ((const double *)want)[2 * i + j];
        }
      }
      int gn = isnan(g[0]) || isnan(g[1]), wn = isnan(w[0]) || isnan(w[1]);
      if (gn || wn) {
        if (gn != wn)
          return i;
        continue;
      }
      if (isinf(w[0]) || isinf(w[1]) || isinf(g[0]) || isinf(g[1])) {
        /* Infinite parts equal; a finite part beside one within the
         * tolerance of its own size (log(-inf + iy) = inf + i pi is
         * rounded by each side's atan2). */
        for (int j = 0; j < 2; j++)
          if ((isinf(w[j]) || isinf(g[j])) ? g[j] != w[j] : fabs(g[j] - w[j]) > -ulps * eps * fabs(w[j]))
            return i;
        continue;
      }
      if (hypot(g[0] - w[0], g[1] - w[1]) > -ulps * eps * hypot(w[0], w[1]))
        return i;
    }
    return -1;
  }
  if (ulps == 0 || (k != 'f' && k != 'c'))
    return tu_first_mismatch(dt, got, want, NULL, n);
  cusci_dtype part = dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : dt == CUSCI_COMPLEX128 ? CUSCI_FLOAT64 : dt;
  size_t ps = cusci_dtype_itemsize(part);
  int parts = k == 'c' ? 2 : 1;
  const unsigned char *g = got, *w = want;
  for (int64_t i = 0; i < n; i++) {
    for (int j = 0; j < parts; j++) {
      const unsigned char *a = g + ((size_t)i * parts + j) * ps, *b = w + ((size_t)i * parts + j) * ps;
      double va = cu_part(part, a), vb = cu_part(part, b);
      if (isnan(va) || isnan(vb)) {
        if (!(isnan(va) && isnan(vb)))
          return i;
        continue;
      }
      if (isinf(va) || isinf(vb)) {
        if (va != vb)
          return i;
        continue;
      }
      int64_t d = cu_ordered(va, part, a) - cu_ordered(vb, part, b);
      if (d < -ulps || d > ulps)
        return i;
    }
  }
  return -1;
}

/* Index of the first element of got (host memory) not within tol of want
 * (relative, absolute below 1), or -1; integers, bools and tol 0 exactly
 * (NaN equal to NaN). */
static inline int64_t cu_first_off(cusci_dtype dt, const void *got, const void *want, int64_t n, double tol)
{
  char k = cusci_dtype_kind(dt);
  if ((k != 'f' && k != 'c') || tol == 0)
    return tu_first_mismatch(dt, got, want, NULL, n);
  cusci_dtype part = dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : dt == CUSCI_COMPLEX128 ? CUSCI_FLOAT64 : dt;
  size_t ps = cusci_dtype_itemsize(part);
  int parts = k == 'c' ? 2 : 1;
  for (int64_t i = 0; i < n * parts; i++) {
    double g = cu_part(part, (const unsigned char *)got + i * ps), w = cu_part(part, (const unsigned char *)want + i * ps);
    if (isnan(g) || isnan(w)) {
      if (!(isnan(g) && isnan(w)))
        return i / parts;
    } else if (isinf(g) || isinf(w)) {
      if (g != w)
        return i / parts;
    } else if (fabs(g - w) > tol * (fabs(w) > 1 ? fabs(w) : 1)) {
      return i / parts;
    }
  }
  return -1;
}

/* A call's result (status st, array got on ctx) against NumPy's want:
 * the status, dtype and shape, then every element within tol
 * (cu_first_off). Diagnostics say what differs. */
static inline int cu_matches(cusci_ctx *ctx, cusci_status st, const cusci_array *got, const cusci_array *want, double tol)
{
  if (st != CUSCI_OK) {
    diag("status %s: %s", cusci_status_name(st), cusci_ctx_last_error(ctx));
    return 0;
  }
  if (cusci_array_dtype(got) != cusci_array_dtype(want) || cusci_array_ndim(got) != cusci_array_ndim(want) ||
      memcmp(cusci_array_shape(got), cusci_array_shape(want), sizeof(int64_t) * cusci_array_ndim(want))) {
    diag("dtype %s ndim %d, NumPy %s ndim %d", cusci_dtype_name(cusci_array_dtype(got)), cusci_array_ndim(got),
         cusci_dtype_name(cusci_array_dtype(want)), cusci_array_ndim(want));
    return 0;
  }
  void *g = tu_to_host(ctx, got);
  int64_t bad = cu_first_off(cusci_array_dtype(want), g, cusci_array_data(want), cusci_array_size(want), tol);
  if (bad >= 0) {
    char s1[96], s2[96];
    diag("element %lld: got %s want %s", (long long)bad, tu_elem_str(cusci_array_dtype(want), g, bad, s1, sizeof s1),
         tu_elem_str(cusci_array_dtype(want), cusci_array_data(want), bad, s2, sizeof s2));
  }
  free(g);
  return bad < 0;
}

#endif
