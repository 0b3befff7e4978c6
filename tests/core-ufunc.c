/*
 * tests/core-ufunc.c: the ufuncs, where and clip on the host against NumPy:
 * result dtypes of every ufunc for all 196 dtype pairs, values for every
 * (ufunc, dtype) NumPy accepts, broadcasting, NEP 50 scalars, the out
 * convention, and every error status.
 */
#include "tests/compute-util.h"
#include "tests/signed-zero.h"

static cusci_ctx *ctx;

/* ------------------------------------------------------- result dtypes */

static void test_result_types(void)
{
  cusci_array *t = tk_fixture(ctx, "compute", "result_type", false);
  if (!t || cusci_array_ndim(t) != 3 || cusci_array_shape(t)[0] != CUSCI_N_UFUNCS) {
    ok(0, "result_type fixture has one table per ufunc");
    cusci_array_release(t);
    return;
  }
  const int32_t *want = cusci_array_data(t);
  for (int f = 0; f < CUSCI_N_UFUNCS; f++) {
    int bad = -1;
    cusci_dtype got_dt = CUSCI_BOOL;
    for (int i = 0; i < 14 && bad < 0; i++)
      for (int j = 0; j < 14 && bad < 0; j++) {
        int32_t w = want[(f * 14 + i) * 14 + j];
        cusci_status st = cusci_ufunc_result_type((cusci_ufunc)f, (cusci_dtype)i, (cusci_dtype)j, &got_dt);
        int got = st == CUSCI_OK ? (int)got_dt : st == CUSCI_ERR_DTYPE ? -1 : -2;
        if (got != w) {
          bad = i * 14 + j;
          diag("%s(%s, %s): got %d, NumPy %d", cusci_ufunc_name((cusci_ufunc)f), cu_dtype_names[i],
               cu_dtype_names[j], got, w);
        }
      }
    ok(bad < 0, "result dtypes of %s match NumPy for all dtype pairs", cusci_ufunc_name((cusci_ufunc)f));
  }
  cusci_array_release(t);
}

/* ---------------------------------------------------------------- values */

static void test_values(void)
{
  for (int f = 0; f < CUSCI_N_UFUNCS; f++) {
    const char *name = cusci_ufunc_name((cusci_ufunc)f);
    cusci_npz *z = cu_archive(ctx, name);
    if (!z) {
      ok(0, "%s: fixtures load", name);
      continue;
    }
    int nin = cusci_ufunc_nin((cusci_ufunc)f);
    for (int d = 0; d < CUSCI_N_DTYPES; d++) {
      char key[64];
      snprintf(key, sizeof key, "%s_out", cu_dtype_names[d]);
      cusci_array *want = cusci_npz_get(z, key);
      if (!want)
        continue;
      snprintf(key, sizeof key, "%s_x1", cu_dtype_names[d]);
      cusci_array *x1 = cusci_npz_get(z, key);
      snprintf(key, sizeof key, "%s_x2", cu_dtype_names[d]);
      cusci_array *x2 = cusci_npz_get(z, key);
      cusci_array *got = NULL;
      cusci_status st = nin == 2 ? cusci_ufunc_binary(ctx, (cusci_ufunc)f, cusci_operand_array(x1),
                                                      cusci_operand_array(x2), &got)
                                 : cusci_ufunc_unary(ctx, (cusci_ufunc)f, cusci_operand_array(x1), &got);
      int good = st == CUSCI_OK && cusci_array_dtype(got) == cusci_array_dtype(want) &&
                 cusci_array_size(got) == cusci_array_size(want);
      int64_t bad = -1;
      if (good) {
        bad = tk_first_far(cusci_array_dtype(want), cusci_array_data(got), cusci_array_data(want),
                           cusci_array_size(want), cu_ulps((cusci_ufunc)f, cusci_array_dtype(x1)));
        good = bad < 0;
      }
      ok(good, "%s(%s) matches NumPy", name, cu_dtype_names[d]);
      if (st != CUSCI_OK)
        diag("status %s: %s", cusci_status_name(st), cusci_ctx_last_error(ctx));
      else if (cusci_array_dtype(got) != cusci_array_dtype(want))
        diag("dtype %s, NumPy %s", cusci_dtype_name(cusci_array_dtype(got)),
             cusci_dtype_name(cusci_array_dtype(want)));
      else if (bad >= 0) {
        char a[96], b[96], c[96], e[96];
        diag("element %lld: x1 %s x2 %s got %s want %s", (long long)bad,
             tk_elem_str(cusci_array_dtype(x1), cusci_array_data(x1), bad, a, sizeof a),
             x2 ? tk_elem_str(cusci_array_dtype(x2), cusci_array_data(x2), bad, b, sizeof b) : "-",
             tk_elem_str(cusci_array_dtype(got), cusci_array_data(got), bad, c, sizeof c),
             tk_elem_str(cusci_array_dtype(want), cusci_array_data(want), bad, e, sizeof e));
      }
      cusci_array_release(got);
    }
    cusci_npz_free(z);
  }
}

/* Complex arguments of functions NumPy has no complex loop for. */
static void test_not_supported(void)
{
  static const cusci_ufunc refused[] = {CUSCI_UFUNC_CBRT, CUSCI_UFUNC_FLOOR, CUSCI_UFUNC_CEIL, CUSCI_UFUNC_TRUNC,
                                        CUSCI_UFUNC_ARCTAN2, CUSCI_UFUNC_HYPOT};
  int64_t n = 3;
  cusci_array *z = NULL, *out = NULL;
  cusci_array_zeros(ctx, 1, &n, CUSCI_COMPLEX128, &z);
  int good = 1;
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    cusci_ufunc f = refused[i];
    cusci_status st = cusci_ufunc_nin(f) == 2
                          ? cusci_ufunc_binary(ctx, f, cusci_operand_array(z), cusci_operand_array(z), &out)
                          : cusci_ufunc_unary(ctx, f, cusci_operand_array(z), &out);
    good &= st == CUSCI_ERR_DTYPE && !out;
  }
  ok(good, "cbrt, floor, ceil, trunc, arctan2 and hypot of complex: CUSCI_ERR_DTYPE, as NumPy");
  cusci_array_release(z);
}

/* ----------------------------------------------------------------- cases */

static cusci_npz *cases;

static cusci_array *C(const char *name)
{
  cusci_array *a = cases ? cusci_npz_get(cases, name) : NULL;
  if (!a)
    diag("no case array %s", name);
  return a;
}

/* got (released here) equals the NumPy array `name` in dtype and values. */
static void check_case(cusci_status st, cusci_array *got, const char *name, int ulps)
{
  cusci_array *want = C(name);
  int good = st == CUSCI_OK && want && cusci_array_dtype(got) == cusci_array_dtype(want) &&
             cusci_array_ndim(got) == cusci_array_ndim(want) &&
             memcmp(cusci_array_shape(got), cusci_array_shape(want), sizeof(int64_t) * cusci_array_ndim(want)) == 0;
  if (good) {
    void *g = tk_to_host(ctx, got);
    good = tk_first_far(cusci_array_dtype(want), g, cusci_array_data(want), cusci_array_size(want), ulps) < 0;
    free(g);
  }
  ok(good, "case %s", name);
  if (st != CUSCI_OK)
    diag("status %s: %s", cusci_status_name(st), cusci_ctx_last_error(ctx));
  else if (want && cusci_array_dtype(got) != cusci_array_dtype(want))
    diag("dtype %s, NumPy %s", cusci_dtype_name(cusci_array_dtype(got)), cusci_dtype_name(cusci_array_dtype(want)));
  cusci_array_release(got);
}

static void test_cases(void)
{
  cases = cu_archive(ctx, "cases");
  cusci_array *r = NULL;
  cusci_status st = cusci_add(ctx, C("bcast_a"), C("bcast_b"), &r);
  check_case(st, r, "bcast_add", 0);
  r = NULL;
  st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(C("f32")), cusci_operand_float(2.5), &r);
  check_case(st, r, "f32_mul_2_5", 0);
  r = NULL;
  double v = 1.25;
  st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_ADD, cusci_operand_array(C("f32")), cusci_operand_scalar(CUSCI_FLOAT64, &v),
                          &r);
  check_case(st, r, "f32_add_typed_f64", 0);
  r = NULL;
  st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_ADD, cusci_operand_array(C("i16")), cusci_operand_float(0.5), &r);
  check_case(st, r, "i16_add_0_5", 0);
  r = NULL;
  st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_SUBTRACT, cusci_operand_int(7), cusci_operand_array(C("i16")), &r);
  check_case(st, r, "i16_rsub_7", 0);
  r = NULL;
  st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_ADD, cusci_operand_array(C("f16")), cusci_operand_complex(0, 2), &r);
  check_case(st, r, "f16_add_1j", 0);
  r = NULL;
  st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_GREATER, cusci_operand_array(C("u8")), cusci_operand_int(200), &r);
  check_case(st, r, "u8_gt_200", 0);
  r = NULL;
  st = cusci_where(ctx, C("cond"), cusci_operand_array(C("f32")), cusci_operand_float(3.5), &r);
  check_case(st, r, "where_f32_3_5", 0);
  r = NULL;
  st = cusci_where(ctx, C("cond"), cusci_operand_array(C("i8")), cusci_operand_array(C("f32")), &r);
  check_case(st, r, "where_i8_f32", 0);
  r = NULL;
  st = cusci_clip(ctx, C("f32"), cusci_operand_float(-1.5), cusci_operand_float(2.25), &r);
  check_case(st, r, "clip_f32", 0);
  r = NULL;
  st = cusci_clip(ctx, C("i32"), cusci_operand_array(C("lo")), cusci_operand_int(100), &r);
  check_case(st, r, "clip_i32_lo_100", 0);
  r = NULL;
  st = cusci_clip(ctx, C("f32"), cusci_operand_none(), cusci_operand_float(0.0), &r);
  check_case(st, r, "clip_f32_none_0", 0);

  /* Strided views: f[:, ::2] - f[::-1, 1::2]. */
  cusci_array *f = C("f32"), *v1 = NULL, *v2 = NULL;
  int64_t st1[2] = {1, 2}, s0[2] = {CUSCI_SLICE_NONE, 1}, stp[2] = {-1, 2};
  cusci_array_slice(ctx, f, NULL, NULL, st1, &v1);
  cusci_array_slice(ctx, f, s0, NULL, stp, &v2);
  r = NULL;
  st = cusci_subtract(ctx, v1, v2, &r);
  check_case(st, r, "f32_strided_sub", 0);
  cusci_array_release(v1);
  cusci_array_release(v2);

  /* exp of int16 % 9: an integer input takes the smallest float, float32. */
  cusci_array *m = NULL;
  r = NULL;
  cusci_ufunc_binary(ctx, CUSCI_UFUNC_MOD, cusci_operand_array(C("i16")), cusci_operand_int(9), &m);
  st = cusci_exp(ctx, m, &r);
  check_case(st, r, "exp_i16", 4);
  cusci_array_release(m);

  /* In place: a += b, with out == a. */
  cusci_array *a = NULL;
  cusci_array_copy(ctx, C("f32"), &a);
  cusci_array *same = a;
  st = cusci_add(ctx, a, a, &same);
  cusci_array *want = NULL;
  cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(C("f32")), cusci_operand_float(2.0), &want);
  ok(st == CUSCI_OK && same == a && tk_first_mismatch(CUSCI_FLOAT32, cusci_array_data(a), cusci_array_data(want), NULL,
                                                      cusci_array_size(a)) < 0,
     "in place: add(a, a, out=a) is 2a");
  cusci_array_release(want);
  cusci_array_release(a);

  /* Overlapping out: a[1:] = a[:-1] + 1 reads every input before writing. */
  int64_t n = 6;
  double vals[6] = {1, 2, 3, 4, 5, 6}, expect[6] = {1, 2, 3, 4, 5, 6};
  cusci_array *x = NULL, *head = NULL, *tail = NULL;
  cusci_array_from_host(ctx, vals, 1, &n, CUSCI_FLOAT64, &x);
  int64_t b0 = 0, e0 = 5, b1 = 1;
  cusci_array_slice(ctx, x, &b0, &e0, NULL, &head);
  cusci_array_slice(ctx, x, &b1, NULL, NULL, &tail);
  st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_ADD, cusci_operand_array(head), cusci_operand_float(1.0), &tail);
  for (int i = 1; i < 6; i++)
    expect[i] = vals[i - 1] + 1;
  ok(st == CUSCI_OK && memcmp(cusci_array_data(x), expect, sizeof expect) == 0,
     "out overlapping an input shifted: computed as if through a copy");
  cusci_array_release(head);
  cusci_array_release(tail);
  cusci_array_release(x);

  /* out of another dtype under same_kind: int8 + int8 into float32. */
  cusci_array *o = NULL;
  cusci_array_empty(ctx, 3, cusci_array_shape(C("bcast_add")), CUSCI_FLOAT32, &o);
  cusci_array *o2 = o;
  st = cusci_add(ctx, C("bcast_a"), C("bcast_b"), &o2);
  cusci_array *wf = NULL;
  cusci_array_astype(ctx, C("bcast_add"), CUSCI_FLOAT32, true, &wf);
  ok(st == CUSCI_OK && o2 == o && tk_first_mismatch(CUSCI_FLOAT32, cusci_array_data(o), cusci_array_data(wf), NULL,
                                                    cusci_array_size(o)) < 0,
     "out of a wider dtype: int8 + int8 written into float32");
  cusci_array_release(wf);
  cusci_array_release(o);

  /* Scalars only: a 0-d result. */
  r = NULL;
  st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_FLOOR_DIVIDE, cusci_operand_int(-7), cusci_operand_int(2), &r);
  ok(st == CUSCI_OK && cusci_array_ndim(r) == 0 && cusci_array_dtype(r) == CUSCI_INT64 &&
         *(int64_t *)cusci_array_data(r) == -4,
     "floor_divide(-7, 2) of two Python ints is int64 -4, 0-d");
  cusci_array_release(r);
  r = NULL;
  st = cusci_ufunc_unary(ctx, CUSCI_UFUNC_ISNAN, cusci_operand_int(3), &r);
  ok(st == CUSCI_OK && cusci_array_dtype(r) == CUSCI_BOOL && *(uint8_t *)cusci_array_data(r) == 0,
     "isnan of an int is False");
  cusci_array_release(r);
  r = NULL;
  st = cusci_ufunc_unary(ctx, CUSCI_UFUNC_REAL, cusci_operand_float(2.5), &r);
  ok(st == CUSCI_OK && cusci_array_dtype(r) == CUSCI_FLOAT64 && *(double *)cusci_array_data(r) == 2.5,
     "real of a float is itself");
  cusci_array_release(r);

  cusci_npz_free(cases);
}

/* ------------------------------------------------------------- bad input */

static void test_errors(void)
{
  int64_t s3 = 3, s4 = 4;
  cusci_array *f3 = NULL, *f4 = NULL, *i3 = NULL, *out = NULL;
  cusci_array_zeros(ctx, 1, &s3, CUSCI_FLOAT32, &f3);
  cusci_array_zeros(ctx, 1, &s4, CUSCI_FLOAT32, &f4);
  cusci_array_zeros(ctx, 1, &s3, CUSCI_INT8, &i3);

  is_int(cusci_add(NULL, f3, f3, &out), CUSCI_ERR_NULL_POINTER, "ctx NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_add(ctx, f3, f3, NULL), CUSCI_ERR_NULL_POINTER, "out NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_add(ctx, NULL, f3, &out), CUSCI_ERR_NULL_POINTER, "x1 NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_exp(ctx, NULL, &out), CUSCI_ERR_NULL_POINTER, "x NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_ufunc_binary(ctx, CUSCI_UFUNC_ADD, cusci_operand_none(), cusci_operand_array(f3), &out),
         CUSCI_ERR_NULL_POINTER, "a None operand to add: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_ufunc_binary(ctx, CUSCI_UFUNC_EXP, cusci_operand_array(f3), cusci_operand_array(f3), &out),
         CUSCI_ERR_INVALID_ARGUMENT, "a unary ufunc through cusci_ufunc_binary: CUSCI_ERR_INVALID_ARGUMENT");
  is_int(cusci_ufunc_unary(ctx, (cusci_ufunc)999, cusci_operand_array(f3), &out), CUSCI_ERR_INVALID_ARGUMENT,
         "a ufunc outside the enum: CUSCI_ERR_INVALID_ARGUMENT");
  is_int(cusci_add(ctx, f3, f4, &out), CUSCI_ERR_BROADCAST, "shapes (3,) and (4,): CUSCI_ERR_BROADCAST");
  ok(strstr(cusci_ctx_last_error(ctx), "3") && strstr(cusci_ctx_last_error(ctx), "4"),
     "the message names both shapes: %s", cusci_ctx_last_error(ctx));
  is_int(cusci_bitwise_and(ctx, f3, f3, &out), CUSCI_ERR_DTYPE, "bitwise_and of float32: CUSCI_ERR_DTYPE");
  is_int(cusci_left_shift(ctx, i3, f3, &out), CUSCI_ERR_DTYPE, "left_shift of int8 and float32: CUSCI_ERR_DTYPE");
  is_int(cusci_bitwise_not(ctx, f3, &out), CUSCI_ERR_DTYPE, "bitwise_not of float32: CUSCI_ERR_DTYPE");
  cusci_array *b3 = NULL;
  cusci_array_zeros(ctx, 1, &s3, CUSCI_BOOL, &b3);
  is_int(cusci_subtract(ctx, b3, b3, &out), CUSCI_ERR_DTYPE, "subtract of bools: CUSCI_ERR_DTYPE");
  is_int(cusci_negative(ctx, b3, &out), CUSCI_ERR_DTYPE, "negative of bool: CUSCI_ERR_DTYPE");
  cusci_array *c3 = NULL;
  cusci_array_zeros(ctx, 1, &s3, CUSCI_COMPLEX64, &c3);
  is_int(cusci_floor_divide(ctx, c3, c3, &out), CUSCI_ERR_DTYPE, "floor_divide of complex: CUSCI_ERR_DTYPE");
  is_int(cusci_floor(ctx, c3, &out), CUSCI_ERR_DTYPE, "floor of complex: CUSCI_ERR_DTYPE");
  is_int(cusci_ufunc_binary(ctx, CUSCI_UFUNC_ADD, cusci_operand_array(i3), cusci_operand_int(300), &out),
         CUSCI_ERR_OVERFLOW, "int8 + 300: CUSCI_ERR_OVERFLOW (NumPy's OverflowError)");
  is_int(cusci_ufunc_binary(ctx, CUSCI_UFUNC_ADD, cusci_operand_array(i3), cusci_operand_scalar((cusci_dtype)77, NULL),
                            &out),
         CUSCI_ERR_DTYPE, "a typed scalar of an invalid dtype: CUSCI_ERR_DTYPE");
  cusci_array *o = f4;
  is_int(cusci_add(ctx, f3, f3, &o), CUSCI_ERR_SHAPE, "out of shape (4,) for (3,): CUSCI_ERR_SHAPE");
  o = i3;
  is_int(cusci_add(ctx, f3, f3, &o), CUSCI_ERR_CAST, "float32 result into int8 out: CUSCI_ERR_CAST");
  ok(o == i3, "a failed call leaves *out as it was");
  o = b3;
  is_int(cusci_less(ctx, f3, f3, &o), CUSCI_OK, "bool result into a bool out: CUSCI_OK");
  is_int(cusci_clip(ctx, f3, cusci_operand_none(), cusci_operand_none(), &out), CUSCI_ERR_INVALID_ARGUMENT,
         "clip with both bounds None: CUSCI_ERR_INVALID_ARGUMENT");
  is_int(cusci_where(ctx, NULL, cusci_operand_array(f3), cusci_operand_array(f3), &out), CUSCI_ERR_NULL_POINTER,
         "where without a condition: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_where(ctx, b3, cusci_operand_array(f4), cusci_operand_array(f3), &out), CUSCI_ERR_BROADCAST,
         "where with shapes that do not broadcast: CUSCI_ERR_BROADCAST");
  cusci_dtype dt;
  is_int(cusci_ufunc_result_type(CUSCI_UFUNC_ADD, CUSCI_INT8, CUSCI_INT8, NULL), CUSCI_ERR_NULL_POINTER,
         "result_type with out NULL: CUSCI_ERR_NULL_POINTER");
  is_int(cusci_ufunc_result_type((cusci_ufunc)-1, CUSCI_INT8, CUSCI_INT8, &dt), CUSCI_ERR_INVALID_ARGUMENT,
         "result_type of an unknown ufunc: CUSCI_ERR_INVALID_ARGUMENT");
  ok(out == NULL, "no failing call allocated an output");
  ok(!strcmp(cusci_ufunc_name(CUSCI_UFUNC_ARCTAN2), "arctan2") && !strcmp(cusci_ufunc_name((cusci_ufunc)-3), "invalid"),
     "cusci_ufunc_name");

  /* An array of another device. */
  int n = 0;
  cusci_device_count(&n);
  if (n > 0) {
    cusci_ctx *g = NULL;
    cusci_ctx_create(0, &g);
    cusci_array *gx = NULL;
    cusci_array_zeros(g, 1, &s3, CUSCI_FLOAT32, &gx);
    is_int(cusci_add(ctx, f3, gx, &out), CUSCI_ERR_DEVICE, "an operand on a GPU with a host context: CUSCI_ERR_DEVICE");
    cusci_array_release(gx);
    cusci_ctx_destroy(g);
  } else {
    skip(1, "no CUDA device for the device mismatch");
  }
  cusci_array_release(f3);
  cusci_array_release(f4);
  cusci_array_release(i3);
  cusci_array_release(b3);
  cusci_array_release(c3);
}

int main(void)
{
  ctx = tk_host_ctx();
  test_result_types();
  test_values();
  test_not_supported();
  test_cases();
  test_errors();
  sz_ufunc_cases(ctx, "host");
  cusci_ctx_destroy(ctx);
  return done_testing();
}
