/*
 * tests/core-argscan.c: arg-reductions (argmax, argmin, nanargmax,
 * nanargmin), scans (cumsum, cumprod, nancumsum, nancumprod), complex min,
 * max, nanmin, nanmax and complex clip on the host against NumPy: 14
 * dtypes, the flattened array and each axis, keepdims, ties, NaN rows and
 * scattered NaNs; the output convention; every error status.
 */
#include "tests/compute-util.h"

typedef cusci_status (*as_fn)(cusci_ctx *, const cusci_array *, const cusci_reduce_opts *, cusci_array **);

/* The function, and the input it reads (tests/fixtures/fixtures_compute.py's
 * ARGSCAN): integer dtypes have x only. */
static const struct {
  const char *name;
  as_fn fn;
  const char *src;
} fns[] = {{"argmax", cusci_argmax, "xn"},       {"argmin", cusci_argmin, "xn"},
           {"nanargmax", cusci_nanargmax, "xm"}, {"nanargmin", cusci_nanargmin, "xm"},
           {"cumsum", cusci_cumsum, "x"},        {"cumprod", cusci_cumprod, "x"},
           {"nancumsum", cusci_nancumsum, "xn"}, {"nancumprod", cusci_nancumprod, "xn"},
           {"min", cusci_min, "xn"},             {"max", cusci_max, "xn"},
           {"nanmin", cusci_nanmin, "xn"},       {"nanmax", cusci_nanmax, "xn"}};

static const int ax0[] = {0}, ax1[] = {1}, axm1[] = {-1};
static const struct {
  const char *code;
  cusci_reduce_opts opts;
} axes[] = {{"all", {0, NULL, false, 0}},
            {"0", {1, ax0, false, 0}},
            {"1", {1, ax1, false, 0}},
            {"m1k", {1, axm1, true, 0}}};

/* Relative tolerance of a scan's float results against NumPy's (or the
 * host's): relative to the larger of |want| and 1. */
static double scan_tol(cusci_dtype dt)
{
  cusci_dtype part = dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : dt == CUSCI_COMPLEX128 ? CUSCI_FLOAT64 : dt;
  return part == CUSCI_FLOAT16 ? 1e-2 : part == CUSCI_FLOAT32 ? 1e-5 : 1e-13;
}

static bool is_scan(const char *name)
{
  return strstr(name, "cum") != NULL;
}

/* The input of fns[f] for dtype d in z, or NULL. */
static cusci_array *input_of(cusci_npz *z, size_t f, int d)
{
  char key[96];
  snprintf(key, sizeof key, "%s_%s", fns[f].src, cu_dtype_names[d]);
  cusci_array *x = cusci_npz_get(z, key);
  if (!x) {
    snprintf(key, sizeof key, "x_%s", cu_dtype_names[d]);
    x = cusci_npz_get(z, key);
  }
  return x;
}

#ifndef ARGSCAN_GPU
static cusci_ctx *ctx;

static void test_fixtures(void)
{
  cusci_npz *z = cu_archive(ctx, "argscan");
  if (!z) {
    ok(0, "argscan fixtures load");
    return;
  }
  for (size_t f = 0; f < sizeof fns / sizeof *fns; f++)
    for (int d = 0; d < CUSCI_N_DTYPES; d++) {
      cusci_array *x = input_of(z, f, d);
      if (!x)
        continue;
      for (size_t a = 0; a < sizeof axes / sizeof *axes; a++) {
        char key[96];
        snprintf(key, sizeof key, "%s_%s_%s", fns[f].name, cu_dtype_names[d], axes[a].code);
        cusci_array *want = cusci_npz_get(z, key);
        if (!want)
          continue;
        cusci_array *got = NULL;
        cusci_status st = fns[f].fn(ctx, x, &axes[a].opts, &got);
        int good = cu_matches(ctx, st, got, want, is_scan(fns[f].name) ? scan_tol(cusci_array_dtype(want)) : 0);
        ok(good, "%s", key);
        cusci_array_release(got);
      }
    }
  cusci_npz_free(z);
}

/* Complex clip against NumPy, with scalar and array bounds. */
static void test_clip(void)
{
  cusci_npz *z = cu_archive(ctx, "argscan");
  if (!z) {
    ok(0, "argscan fixtures load");
    return;
  }
  for (int c = 0; c < 2; c++) {
    const char *dn = c ? "complex128" : "complex64";
    cusci_dtype dt = c ? CUSCI_COMPLEX128 : CUSCI_COMPLEX64;
    char key[96];
    snprintf(key, sizeof key, "clip_%s_a", dn);
    cusci_array *a = cusci_npz_get(z, key);
    snprintf(key, sizeof key, "clip_%s_lo", dn);
    cusci_array *lo = cusci_npz_get(z, key);
    if (!a || !lo) {
      ok(0, "clip fixtures of %s", dn);
      continue;
    }
    /* Typed scalars keep the array's dtype as NumPy's scalars of it do. */
    double lohi[4] = {-0.5, 0.25, 1.25, -0.25}, nanlo[2] = {0.5, NAN}, hi2[2] = {1.25, 0.5};
    float f[4];
    const void *p1 = lohi, *p2 = lohi + 2, *p3 = nanlo, *p4 = hi2;
    float fn[2], fh[2];
    if (!c) {
      for (int i = 0; i < 4; i++)
        f[i] = (float)lohi[i];
      fn[0] = 0.5f, fn[1] = NAN, fh[0] = 1.25f, fh[1] = 0.5f;
      p1 = f, p2 = f + 2, p3 = fn, p4 = fh;
    }
    struct {
      const char *code;
      cusci_operand lo, hi;
    } cases[] = {{"lohi", cusci_operand_scalar(dt, p1), cusci_operand_scalar(dt, p2)},
                 {"arr", cusci_operand_array(lo), cusci_operand_scalar(dt, p4)},
                 {"nanlo", cusci_operand_scalar(dt, p3), cusci_operand_scalar(dt, p4)}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
      snprintf(key, sizeof key, "clip_%s_%s", dn, cases[k].code);
      cusci_array *want = cusci_npz_get(z, key), *got = NULL;
      cusci_status st = cusci_clip(ctx, a, cases[k].lo, cases[k].hi, &got);
      int good = want && st == CUSCI_OK && cusci_array_dtype(got) == dt && cusci_array_size(got) == cusci_array_size(want);
      if (good) {
        void *g = tk_to_host(ctx, got);
        int64_t bad = tk_first_mismatch(dt, g, cusci_array_data(want), NULL, cusci_array_size(want));
        if (bad >= 0) {
          char s1[96], s2[96];
          diag("element %lld: got %s want %s", (long long)bad, tk_elem_str(dt, g, bad, s1, sizeof s1),
               tk_elem_str(dt, cusci_array_data(want), bad, s2, sizeof s2));
        }
        good = bad < 0;
        free(g);
      } else if (st != CUSCI_OK) {
        diag("status %s: %s", cusci_status_name(st), cusci_ctx_last_error(ctx));
      }
      ok(good, "%s", key);
      cusci_array_release(got);
    }
  }
  cusci_npz_free(z);
}

static void test_errors(void)
{
  int64_t shape[2] = {3, 4}, zero[2] = {3, 0};
  cusci_array *a = NULL, *e = NULL, *nan_row = NULL, *out = NULL;
  cusci_array_ones(ctx, 2, shape, CUSCI_FLOAT32, &a);
  cusci_array_ones(ctx, 2, zero, CUSCI_FLOAT64, &e);
  float v[12] = {1, 2, 3, 4, NAN, NAN, NAN, NAN, 5, NAN, -1, 7};
  cusci_array_from_host(ctx, v, 2, shape, CUSCI_FLOAT32, &nan_row);
  int two[2] = {0, 1}, bad_axis = 2, ax1v = 1, ax0v = 0;
  cusci_reduce_opts o2 = {2, two, false, 0}, ob = {1, &bad_axis, false, 0}, on = {1, NULL, false, 0},
                    oneg = {-1, NULL, false, 0}, r1 = {1, &ax1v, false, 0}, r0 = {1, &ax0v, false, 0};
  is_int(cusci_argmax(NULL, a, NULL, &out), CUSCI_ERR_NULL_POINTER, "ctx NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_argmax(ctx, NULL, NULL, &out), CUSCI_ERR_NULL_POINTER, "a NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_cumsum(ctx, a, NULL, NULL), CUSCI_ERR_NULL_POINTER, "out NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_argmin(ctx, a, &o2, &out), CUSCI_ERR_AXIS, "argmin over two axes: CUSCI_ERR_AXIS");
  is_int(cusci_cumprod(ctx, a, &o2, &out), CUSCI_ERR_AXIS, "cumprod over two axes: CUSCI_ERR_AXIS");
  is_int(cusci_nancumsum(ctx, a, &ob, &out), CUSCI_ERR_AXIS, "axis 2 of a 2-d array: CUSCI_ERR_AXIS");
  is_int(cusci_nanargmax(ctx, a, &oneg, &out), CUSCI_ERR_AXIS, "naxes -1: CUSCI_ERR_AXIS");
  is_int(cusci_nanargmin(ctx, a, &on, &out), CUSCI_ERR_NULL_POINTER, "naxes 1 with axes NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_argmax(ctx, e, NULL, &out), CUSCI_ERR_VALUE, "argmax of an empty array: CUSCI_ERR_VALUE");
  is_int(cusci_argmin(ctx, e, &r1, &out), CUSCI_ERR_VALUE, "argmin along an empty axis: CUSCI_ERR_VALUE");
  is_int(cusci_nanargmax(ctx, nan_row, &r1, &out), CUSCI_ERR_VALUE, "nanargmax with an all-NaN row: CUSCI_ERR_VALUE");
  ok(strstr(cusci_ctx_last_error(ctx), "All-NaN") != NULL, "the message says All-NaN: %s", cusci_ctx_last_error(ctx));
  cusci_array *i8 = NULL, *o = NULL;
  cusci_array_empty(ctx, 1, shape, CUSCI_INT8, &i8);
  o = i8;
  is_int(cusci_argmax(ctx, a, &r0, &o), CUSCI_ERR_SHAPE, "argmax into an out of 3 for a result of 4: CUSCI_ERR_SHAPE");
  int64_t four = 4;
  cusci_array *i8b = NULL;
  cusci_array_empty(ctx, 1, &four, CUSCI_BOOL, &i8b);
  o = i8b;
  is_int(cusci_argmax(ctx, a, &r0, &o), CUSCI_ERR_CAST, "int64 indices into a bool out: CUSCI_ERR_CAST");
  int64_t twelve = 12;
  cusci_array *i32 = NULL;
  cusci_array_empty(ctx, 1, &twelve, CUSCI_INT32, &i32);
  o = i32;
  is_int(cusci_cumsum(ctx, a, NULL, &o), CUSCI_ERR_CAST, "float32 cumsum into an int32 out: CUSCI_ERR_CAST");
  ok(out == NULL, "no failing call allocated an output");

  /* What NumPy allows: an all-NaN row for argmax (the first NaN), an empty
   * kept extent, an empty scan, a 0-d scan, a scan into a given out. */
  cusci_array *r = NULL;
  is_int(cusci_argmax(ctx, nan_row, &r1, &r), CUSCI_OK, "argmax with an all-NaN row");
  int64_t want_idx[3] = {3, 0, 1}, got_idx[3] = {0};
  cusci_array_to_host(ctx, r, got_idx, sizeof got_idx);
  ok(!memcmp(got_idx, want_idx, sizeof want_idx), "is 3, 0 (the first NaN), 1 (the first NaN)");
  cusci_array_release(r);
  r = NULL;
  is_int(cusci_nanargmin(ctx, nan_row, &r0, &r), CUSCI_OK, "nanargmin down the columns");
  int64_t want_c[4] = {0, 0, 2, 0}, got_c[4] = {0};
  cusci_array_to_host(ctx, r, got_c, sizeof got_c);
  ok(!memcmp(got_c, want_c, sizeof want_c), "is 0, 0, 2, 0");
  cusci_array_release(r);
  r = NULL;
  int64_t z3[2] = {0, 3};
  cusci_array *ez = NULL;
  cusci_array_ones(ctx, 2, z3, CUSCI_INT16, &ez);
  is_int(cusci_argmax(ctx, ez, &r1, &r), CUSCI_OK, "argmax along a full axis of a 0x3 array");
  ok(r && cusci_array_size(r) == 0 && cusci_array_dtype(r) == CUSCI_INT64, "is empty int64");
  cusci_array_release(r);
  r = NULL;
  is_int(cusci_cumsum(ctx, ez, NULL, &r), CUSCI_OK, "cumsum of an empty array");
  ok(r && cusci_array_ndim(r) == 1 && cusci_array_size(r) == 0 && cusci_array_dtype(r) == CUSCI_INT64,
     "is 1-d, empty, int64");
  cusci_array_release(r);
  r = NULL;
  cusci_array *s0 = NULL;
  double three = 3.5;
  cusci_array_from_host(ctx, &three, 0, NULL, CUSCI_FLOAT64, &s0);
  is_int(cusci_cumprod(ctx, s0, NULL, &r), CUSCI_OK, "cumprod of a 0-d array");
  ok(r && cusci_array_ndim(r) == 1 && cusci_array_size(r) == 1 && *(double *)cusci_array_data(r) == 3.5, "is [3.5]");
  cusci_array_release(r);
  r = NULL;
  is_int(cusci_cumsum(ctx, s0, &r0, &r), CUSCI_ERR_AXIS, "cumsum of a 0-d array along axis 0: CUSCI_ERR_AXIS");
  cusci_array *f64 = NULL;
  cusci_array_empty(ctx, 1, &twelve, CUSCI_FLOAT64, &f64);
  o = f64;
  is_int(cusci_nancumsum(ctx, nan_row, NULL, &o), CUSCI_OK, "float32 nancumsum into a float64 out");
  double *pf = cusci_array_data(f64);
  ok(o == f64 && pf[3] == 10 && pf[8] == 15 && pf[11] == 21, "is 10 after the first row, 15, 21 at the end");
  cusci_array *arrs[] = {a, e, nan_row, i8, i8b, i32, ez, s0, f64};
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
    cusci_array_release(arrs[i]);
}

int main(void)
{
  ctx = tk_host_ctx();
  test_fixtures();
  test_clip();
  test_errors();
  cusci_ctx_destroy(ctx);
  return done_testing();
}
#endif
