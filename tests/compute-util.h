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

#include "tests/testkit.h"

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
    return -8; /* see tk_first_far */
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

/* A call's result (status st, array got on ctx) against NumPy's want:
 * the status, dtype and shape, then every element within tol
 * (tk_first_off). Diagnostics say what differs. */
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
  void *g = tk_to_host(ctx, got);
  int64_t bad = tk_first_off(cusci_array_dtype(want), g, cusci_array_data(want), cusci_array_size(want), tol);
  if (bad >= 0) {
    char s1[96], s2[96];
    diag("element %lld: got %s want %s", (long long)bad, tk_elem_str(cusci_array_dtype(want), g, bad, s1, sizeof s1),
         tk_elem_str(cusci_array_dtype(want), cusci_array_data(want), bad, s2, sizeof s2));
  }
  free(g);
  return bad < 0;
}

#endif
