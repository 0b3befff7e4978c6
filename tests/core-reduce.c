/*
 * tests/core-reduce.c: reductions on the host against NumPy: 13 functions
 * over 11 dtypes, all axes, one axis, two axes, a negative axis with
 * keepdims, ddof; the output convention; every error status.
 */
#include "tests/compute-util.h"
#include "tests/signed-zero.h"

typedef cusci_status (*reduce_fn)(cusci_ctx *, const cusci_array *, const cusci_reduce_opts *, cusci_array **);

static const struct {
  const char *name;
  reduce_fn fn;
} fns[] = {{"sum", cusci_sum},   {"prod", cusci_prod},       {"mean", cusci_mean},     {"var", cusci_var},
           {"std", cusci_std},   {"min", cusci_min},         {"max", cusci_max},       {"any", cusci_any},
           {"all", cusci_all},   {"nansum", cusci_nansum},   {"nanmean", cusci_nanmean},
           {"nanmin", cusci_nanmin}, {"nanmax", cusci_nanmax}};

static const int ax1[] = {1}, ax02[] = {0, 2}, axm1[] = {-1};
static const struct {
  const char *code;
  cusci_reduce_opts opts;
} axes[] = {{"all", {0, NULL, false, 0}},
            {"1", {1, ax1, false, 0}},
            {"02", {2, ax02, false, 0}},
            {"m1k", {1, axm1, true, 0}},
            {"ddof1", {0, NULL, false, 1}}};

/* Relative tolerance of a floating-point reduction of dtype dt: the
 * summation order differs from NumPy's pairwise one. */
static double rel_tol(cusci_dtype dt, bool var)
{
  cusci_dtype part = dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : dt == CUSCI_COMPLEX128 ? CUSCI_FLOAT64 : dt;
  double t = part == CUSCI_FLOAT16 ? 2e-3 : part == CUSCI_FLOAT32 ? 1e-6 : 1e-14;
  return var ? t * 10 : t;
}

#ifndef REDUCE_GPU
static cusci_ctx *ctx;

static void test_fixtures(void)
{
  cusci_npz *z = cu_archive(ctx, "reduce");
  if (!z) {
    ok(0, "reduce fixtures load");
    return;
  }
  for (size_t f = 0; f < sizeof fns / sizeof *fns; f++)
    for (int d = 0; d < CUSCI_N_DTYPES; d++) {
      char key[96];
      snprintf(key, sizeof key, "%s_%s", fns[f].name[0] == 'n' ? "xn" : "x", cu_dtype_names[d]);
      cusci_array *x = cusci_npz_get(z, key);
      if (!x && fns[f].name[0] == 'n') {
        snprintf(key, sizeof key, "x_%s", cu_dtype_names[d]);
        x = cusci_npz_get(z, key);
      }
      if (!x)
        continue;
      for (size_t a = 0; a < sizeof axes / sizeof *axes; a++) {
        snprintf(key, sizeof key, "%s_%s_%s", fns[f].name, cu_dtype_names[d], axes[a].code);
        cusci_array *want = cusci_npz_get(z, key);
        if (!want)
          continue;
        cusci_array *got = NULL;
        cusci_status st = fns[f].fn(ctx, x, &axes[a].opts, &got);
        bool isvar = !strcmp(fns[f].name, "var") || !strcmp(fns[f].name, "std");
        int good = cu_matches(ctx, st, got, want, rel_tol(cusci_array_dtype(want), isvar));
        ok(good, "%s", key);
        cusci_array_release(got);
      }
    }
  cusci_npz_free(z);
}

static void test_errors(void)
{
  int64_t shape[2] = {3, 4}, zero[2] = {0, 4};
  cusci_array *a = NULL, *e = NULL, *c = NULL, *out = NULL;
  cusci_array_ones(ctx, 2, shape, CUSCI_FLOAT32, &a);
  cusci_array_ones(ctx, 2, zero, CUSCI_FLOAT64, &e);
  cusci_array_ones(ctx, 2, shape, CUSCI_COMPLEX64, &c);
  int bad_axis = 2, rep[2] = {1, -1};
  cusci_reduce_opts o1 = {1, &bad_axis, false, 0}, o2 = {2, rep, false, 0}, o3 = {-1, NULL, false, 0},
                    o4 = {1, NULL, false, 0};
  is_int(cusci_sum(NULL, a, NULL, &out), CUSCI_ERR_NULL_POINTER, "ctx NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_sum(ctx, NULL, NULL, &out), CUSCI_ERR_NULL_POINTER, "a NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_sum(ctx, a, NULL, NULL), CUSCI_ERR_NULL_POINTER, "out NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_sum(ctx, a, &o1, &out), CUSCI_ERR_AXIS, "axis 2 of a 2-d array: CUSCI_ERR_AXIS");
  is_int(cusci_mean(ctx, a, &o2, &out), CUSCI_ERR_AXIS, "axes 1 and -1 repeat: CUSCI_ERR_AXIS");
  is_int(cusci_var(ctx, a, &o3, &out), CUSCI_ERR_AXIS, "naxes -1: CUSCI_ERR_AXIS");
  is_int(cusci_max(ctx, a, &o4, &out), CUSCI_ERR_NULL_POINTER, "naxes 1 with axes NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_max(ctx, e, NULL, &out), CUSCI_ERR_VALUE, "max of an empty array: CUSCI_ERR_VALUE");
  is_int(cusci_nanmin(ctx, e, NULL, &out), CUSCI_ERR_VALUE, "nanmin of an empty array: CUSCI_ERR_VALUE");
  cusci_array *cm = NULL;
  is_int(cusci_min(ctx, c, NULL, &cm), CUSCI_OK, "min of complex64 (lexicographic; see tests/core-argscan)");
  ok(cm && ((float *)cusci_array_data(cm))[0] == 1.0f && ((float *)cusci_array_data(cm))[1] == 0.0f, "is 1+0j");
  cusci_array_release(cm);
  cusci_array *i8 = NULL;
  cusci_array_empty(ctx, 0, NULL, CUSCI_INT8, &i8);
  cusci_array *o = i8;
  is_int(cusci_sum(ctx, a, NULL, &o), CUSCI_ERR_CAST, "float32 sum into an int8 out: CUSCI_ERR_CAST");
  o = a;
  is_int(cusci_sum(ctx, a, NULL, &o), CUSCI_ERR_SHAPE, "a 0-d sum into a 3x4 out: CUSCI_ERR_SHAPE");
  ok(out == NULL, "no failing call allocated an output");

  /* Edge values: the sum of an empty array is 0; out of a wider dtype. */
  cusci_array *s = NULL;
  is_int(cusci_sum(ctx, e, NULL, &s), CUSCI_OK, "sum of an empty array");
  ok(s && cusci_array_ndim(s) == 0 && *(double *)cusci_array_data(s) == 0.0, "is 0.0");
  cusci_array_release(s);
  cusci_array *f64 = NULL;
  cusci_array_empty(ctx, 0, NULL, CUSCI_FLOAT64, &f64);
  o = f64;
  is_int(cusci_sum(ctx, a, NULL, &o), CUSCI_OK, "float32 sum into a float64 out");
  ok(o == f64 && *(double *)cusci_array_data(f64) == 12.0, "is 12");
  int ax0 = 0;
  cusci_reduce_opts r0 = {1, &ax0, false, 0};
  s = NULL;
  is_int(cusci_sum(ctx, e, &r0, &s), CUSCI_OK, "sum over axis 0 of a 0x4 array");
  ok(s && cusci_array_size(s) == 4 && ((double *)cusci_array_data(s))[3] == 0.0, "is four zeros");
  cusci_array_release(s);
  cusci_array *arrs[] = {a, e, c, i8, f64};
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
    cusci_array_release(arrs[i]);
}

int main(void)
{
  ctx = tk_host_ctx();
  test_fixtures();
  test_errors();
  sz_reduce_cases(ctx, "host");
  cusci_ctx_destroy(ctx);
  return done_testing();
}
#endif
