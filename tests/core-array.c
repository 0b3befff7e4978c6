/*
 * tests/core-array.c: array creation and views on the host against NumPy
 * (shapes, strides and values from tests/fixtures), transfers and
 * reference counting.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/testkit.h"

static int same_values(cusci_ctx *ctx, const cusci_array *got, const cusci_array *want, const char *what)
{
  int good = cusci_array_dtype(got) == cusci_array_dtype(want) && cusci_array_ndim(got) == cusci_array_ndim(want);
  for (int i = 0; good && i < cusci_array_ndim(got); i++)
    good = cusci_array_shape(got)[i] == cusci_array_shape(want)[i];
  if (!good) {
    char a[128], b[128];
    diag("%s: got %s %s, NumPy %s %s", what, cusci_dtype_name(cusci_array_dtype(got)),
         cusci_shape_str(cusci_array_ndim(got), cusci_array_shape(got), a, sizeof a),
         cusci_dtype_name(cusci_array_dtype(want)),
         cusci_shape_str(cusci_array_ndim(want), cusci_array_shape(want), b, sizeof b));
    return 0;
  }
  void *g = tk_to_host(ctx, got), *w = tk_to_host(ctx, want);
  int64_t bad = tk_first_mismatch(cusci_array_dtype(got), g, w, NULL, cusci_array_size(got));
  if (bad >= 0) {
    char x[64], y[64];
    diag("%s: element %lld is %s, NumPy gives %s", what, (long long)bad,
         tk_elem_str(cusci_array_dtype(got), g, bad, x, sizeof x), tk_elem_str(cusci_array_dtype(got), w, bad, y, sizeof y));
  }
  free(g);
  free(w);
  return bad < 0;
}

static void creation(cusci_ctx *ctx)
{
  static const struct { const char *name; double start, stop, step; cusci_dtype dt; } ar[] = {
    {"a_i64", 0, 10, 1, CUSCI_INT64}, {"a_i32_half", 0.5, 5, 1, CUSCI_INT32},
    {"a_f64", -3, 7.5, 0.7, CUSCI_FLOAT64}, {"a_f32", 1, 2, 0.1, CUSCI_FLOAT32},
    {"a_f16", 0, 1, 0.1, CUSCI_FLOAT16}, {"a_f64_down", 10, 0, -1.5, CUSCI_FLOAT64},
    {"a_empty", 5, 5, 1, CUSCI_FLOAT64}, {"a_bool", 0, 2, 1, CUSCI_BOOL},
    {"a_u8_wrap", 3, 300, 7, CUSCI_UINT8}, {"a_c128", 0, 3, 0.5, CUSCI_COMPLEX128},
    {"a_c64", 0, 1, 0.3, CUSCI_COMPLEX64}, {"a_big", 1e15, 1e15 + 10, 1.5, CUSCI_FLOAT64},
    {"a_i16_frac", -2.5, 3, 0.25, CUSCI_INT16}, {"a_u64", 7, 1000, 13, CUSCI_UINT64},
  };
  for (size_t i = 0; i < sizeof ar / sizeof *ar; i++) {
    cusci_array *got = NULL, *want = tk_fixture(ctx, "create", ar[i].name, false);
    cusci_status st = cusci_array_arange(ctx, ar[i].start, ar[i].stop, ar[i].step, ar[i].dt, &got);
    ok(want && st == CUSCI_OK && same_values(ctx, got, want, ar[i].name), "arange %s matches NumPy", ar[i].name);
    cusci_array_release(got);
    cusci_array_release(want);
  }
  static const struct { const char *name; double start, stop; int64_t num; bool endpoint; cusci_dtype dt; } ls[] = {
    {"l_f64", 0, 1, 5, true, CUSCI_FLOAT64}, {"l_f64_open", 0, 1, 5, false, CUSCI_FLOAT64},
    {"l_f32", -2.5, 7.1, 13, true, CUSCI_FLOAT32}, {"l_i32", 0, 10, 7, true, CUSCI_INT32},
    {"l_i64_neg", -3, 3, 4, true, CUSCI_INT64}, {"l_one", 1.5, 9, 1, true, CUSCI_FLOAT64},
    {"l_one_open", 1.5, 9, 1, false, CUSCI_FLOAT64}, {"l_empty", 2, 3, 0, true, CUSCI_FLOAT64},
    {"l_f16", 0, 1, 11, true, CUSCI_FLOAT16}, {"l_bool", 0, 5, 6, true, CUSCI_BOOL},
    {"l_c128", 5, -5, 9, true, CUSCI_COMPLEX128}, {"l_u8", 0.3, 250.9, 17, false, CUSCI_UINT8},
  };
  for (size_t i = 0; i < sizeof ls / sizeof *ls; i++) {
    cusci_array *got = NULL, *want = tk_fixture(ctx, "create", ls[i].name, false);
    cusci_status st = cusci_array_linspace(ctx, ls[i].start, ls[i].stop, ls[i].num, ls[i].endpoint, ls[i].dt, &got);
    ok(want && st == CUSCI_OK && same_values(ctx, got, want, ls[i].name), "linspace %s matches NumPy", ls[i].name);
    cusci_array_release(got);
    cusci_array_release(want);
  }
  static const struct { const char *name; int64_t n, m, k; cusci_dtype dt; } ey[] = {
    {"e_f64", 3, -1, 0, CUSCI_FLOAT64}, {"e_i32", 3, 5, 1, CUSCI_INT32}, {"e_c64", 4, 2, -1, CUSCI_COMPLEX64},
    {"e_out", 3, 3, 5, CUSCI_FLOAT32}, {"e_zero", 0, 0, 0, CUSCI_FLOAT64}, {"e_bool", 5, 4, -2, CUSCI_BOOL},
  };
  for (size_t i = 0; i < sizeof ey / sizeof *ey; i++) {
    cusci_array *got = NULL, *want = tk_fixture(ctx, "create", ey[i].name, false);
    cusci_status st = cusci_array_eye(ctx, ey[i].n, ey[i].m, ey[i].k, ey[i].dt, &got);
    ok(want && st == CUSCI_OK && same_values(ctx, got, want, ey[i].name), "eye %s matches NumPy", ey[i].name);
    cusci_array_release(got);
    cusci_array_release(want);
  }

  /* empty / zeros / ones / full. */
  int64_t shape[3] = {2, 3, 7};
  cusci_array *z = NULL, *o = NULL, *f = NULL, *e = NULL, *s = NULL;
  int16_t fv = -1234;
  ok(cusci_array_empty(ctx, 3, shape, CUSCI_COMPLEX64, &e) == CUSCI_OK && cusci_array_size(e) == 42 &&
         cusci_array_nbytes(e) == 42 * 8 && cusci_array_strides(e)[0] == 21 && cusci_array_strides(e)[2] == 1 &&
         cusci_array_is_c_contiguous(e) && cusci_array_device(e) == CUSCI_DEVICE_HOST,
     "empty: shape, C strides, size, nbytes, device");
  cusci_array_zeros(ctx, 3, shape, CUSCI_FLOAT16, &z);
  cusci_array_ones(ctx, 3, shape, CUSCI_COMPLEX128, &o);
  cusci_array_full(ctx, 3, shape, CUSCI_INT16, &fv, &f);
  uint16_t zb[42];
  double ob[84];
  int16_t fb[42];
  cusci_array_to_host(ctx, z, zb, sizeof zb);
  cusci_array_to_host(ctx, o, ob, sizeof ob);
  cusci_array_to_host(ctx, f, fb, sizeof fb);
  int zg = 1, og = 1, fg = 1;
  for (int i = 0; i < 42; i++) {
    zg &= zb[i] == 0;
    og &= ob[2 * i] == 1.0 && ob[2 * i + 1] == 0.0;
    fg &= fb[i] == -1234;
  }
  ok(zg, "zeros is all zero");
  ok(og, "ones(complex128) is 1+0j");
  ok(fg, "full(int16, -1234)");
  ok(cusci_array_zeros(ctx, 0, NULL, CUSCI_FLOAT64, &s) == CUSCI_OK && cusci_array_size(s) == 1 &&
         cusci_array_ndim(s) == 0,
     "a 0-d array has one element");
  cusci_array_release(e);
  cusci_array_release(z);
  cusci_array_release(o);
  cusci_array_release(f);
  cusci_array_release(s);
}

static void views(cusci_ctx *ctx)
{
  cusci_array *base = tk_fixture(ctx, "view", "base", false);
  ok(base != NULL, "view base fixture loads");
  if (!base)
    return;
  for (int i = 0; tk_view_names[i]; i++) {
    const char *name = tk_view_names[i];
    char sname[64];
    snprintf(sname, sizeof sname, "%s_strides", name);
    cusci_array *want = tk_fixture(ctx, "view", name, false), *wstr = tk_fixture(ctx, "view", sname, false);
    cusci_array *v = NULL;
    cusci_status st = tk_view_case(ctx, base, name, &v);
    int good = want && wstr && st == CUSCI_OK && same_values(ctx, v, want, name);
    if (good) {
      const int64_t *ws = cusci_array_data(wstr);
      for (int d = 0; d < cusci_array_ndim(v); d++)
        if (cusci_array_shape(v)[d] > 1 && cusci_array_strides(v)[d] != ws[d]) {
          diag("%s: stride %d is %lld, NumPy's %lld", name, d, (long long)cusci_array_strides(v)[d],
               (long long)ws[d]);
          good = 0;
        }
    } else if (st != CUSCI_OK) {
      diag("%s: %s", name, cusci_ctx_last_error(ctx));
    }
    ok(good, "view %s: shape, strides and values match NumPy", name);
    cusci_array_release(v);
    cusci_array_release(want);
    cusci_array_release(wstr);
  }

  /* Views share storage and outlive their base. */
  cusci_array *t = NULL, *r = NULL, *c = NULL, *cc = NULL;
  cusci_array_transpose(ctx, base, NULL, &t);
  ok(cusci_array_data(t) == cusci_array_data(base), "transpose is a view");
  cusci_array_reshape(ctx, base, 1, (const int64_t[]){120}, &r);
  ok(cusci_array_data(r) == cusci_array_data(base), "reshape of a contiguous array is a view");
  cusci_array_ascontiguousarray(ctx, base, &c);
  ok(c == base, "ascontiguousarray of a contiguous array is the array itself");
  cusci_array_release(c);
  cusci_array_ascontiguousarray(ctx, t, &cc);
  ok(cc != t && cusci_array_is_c_contiguous(cc) && !cusci_array_is_c_contiguous(t),
     "ascontiguousarray of a transpose copies");
  cusci_array_release(base);
  double first[2];
  cusci_array_to_host(ctx, r, NULL, 0); /* size check only: returns BUFFER_TOO_SMALL */
  cusci_array *r2 = NULL;
  cusci_array_slice(ctx, r, NULL, (const int64_t[]){2}, NULL, &r2);
  ok(cusci_array_to_host(ctx, r2, first, sizeof first) == CUSCI_OK && first[0] == -7.25 && first[1] == -5.75,
     "a view keeps the storage alive after its base is released");
  /* A view written into a given out copies. */
  cusci_array *dst = NULL, *given;
  cusci_array_empty(ctx, 2, (const int64_t[]){5, 24}, CUSCI_FLOAT64, &dst);
  given = dst;
  ok(cusci_array_reshape(ctx, r, 2, (const int64_t[]){5, 24}, &given) == CUSCI_OK && given == dst,
     "reshape into a given out writes there");
  cusci_array_release(dst);
  cusci_array_release(r2);
  cusci_array_release(r);
  cusci_array_release(t);
  cusci_array_release(cc);
}

static void transfers(cusci_ctx *ctx)
{
  int32_t src[24], back[24];
  for (int i = 0; i < 24; i++)
    src[i] = i * 7919 - 50000;
  cusci_array *a = NULL, *rt = NULL;
  ok(cusci_array_from_host(ctx, src, 3, (const int64_t[]){2, 3, 4}, CUSCI_INT32, &a) == CUSCI_OK,
     "from_host");
  src[0] = 99;
  ok(cusci_array_to_host(ctx, a, back, sizeof back) == CUSCI_OK && back[0] == -50000 && back[23] == 23 * 7919 - 50000,
     "from_host copied: later changes to src do not show");
  cusci_array_retain(a);
  cusci_array_release(a);
  ok(cusci_array_to_host(ctx, a, back, sizeof back) == CUSCI_OK, "retain then release keeps the array");
  cusci_array_transpose(ctx, a, (const int[]){2, 0, 1}, &rt);
  cusci_array_to_host(ctx, rt, back, sizeof back);
  /* rt[k, i, j] == a[i, j, k] */
  ok(back[(3 * 2 + 1) * 3 + 2] == 1 * 12 + 2 * 4 + 3 - 50000 + (1 * 12 + 2 * 4 + 3) * 7918,
     "to_host of a transposed view is in C order of the view");
  cusci_array_release(rt);
  cusci_array_release(a);
}

static void wrapped(cusci_ctx *ctx)
{
  /* The caller's buffer, seen as the 3x4 transpose of a 4x3 C array. */
  float mem[12];
  for (int i = 0; i < 12; i++)
    mem[i] = 0.5f * (float)i - 2.0f;
  cusci_array *w = NULL, *c = NULL;
  ok(cusci_array_wrap(ctx, mem, 2, (const int64_t[]){3, 4}, (const int64_t[]){1, 3}, CUSCI_FLOAT32, &w) == CUSCI_OK &&
         cusci_array_data(w) == mem && cusci_array_strides(w)[1] == 3,
     "wrap a caller's buffer with strides");
  float out[12];
  cusci_array_copy(ctx, w, &c);
  cusci_array_to_host(ctx, c, out, sizeof out);
  ok(out[1] == mem[3] && out[4] == mem[1], "its values are read through the strides");
  cusci_array_full(ctx, 2, (const int64_t[]){3, 4}, CUSCI_FLOAT32, &(float){7.25f}, &w);
  ok(mem[5] == 7.25f, "writing into it writes the caller's memory");
  cusci_array_release(w);
  cusci_array_release(c);
  mem[0] = 1.0f; /* still the caller's: nothing was freed */
  ok(mem[0] == 1.0f, "releasing it leaves the memory alone");
  cusci_array *z = NULL;
  ok(cusci_array_wrap(ctx, NULL, 1, (const int64_t[]){0}, NULL, CUSCI_INT8, &z) == CUSCI_OK && cusci_array_size(z) == 0,
     "an empty wrap needs no memory");
  cusci_array_release(z);
}

int main(void)
{
  cusci_ctx *ctx = tk_host_ctx();
  wrapped(ctx);
  creation(ctx);
  views(ctx);
  transfers(ctx);
  cusci_ctx_destroy(ctx);
  return done_testing();
}
