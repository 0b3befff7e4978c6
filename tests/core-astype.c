/*
 * tests/core-astype.c: astype on the host, all 196 dtype pairs, against the
 * values NumPy produced (tests/fixtures/astype), from contiguous arrays and
 * from strided, reversed views; and astype's copy semantics.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/testkit.h"

/* Check out == want where the mask says NumPy's result is defined. */
static int compare(cusci_ctx *ctx, cusci_dtype d, const cusci_array *out, const cusci_array *want, const cusci_array *mask,
                   const char *what)
{
  void *got = tk_to_host(ctx, out);
  int64_t n = cusci_array_size(want);
  int64_t bad = cusci_array_size(out) == n
                    ? tk_first_mismatch(d, got, cusci_array_data(want), mask ? cusci_array_data(mask) : NULL, n)
                    : 0;
  if (bad >= 0) {
    char g[64], w[64];
    diag("%s: element %lld is %s, NumPy gives %s", what, (long long)bad, tk_elem_str(d, got, bad, g, sizeof g),
         tk_elem_str(d, cusci_array_data(want), bad, w, sizeof w));
  }
  free(got);
  return bad < 0;
}

int main(void)
{
  cusci_ctx *ctx = tk_host_ctx();
  int pairs = 0, pairs_strided = 0;
  for (int s = 0; s < 14; s++) {
    char name[64];
    snprintf(name, sizeof name, "src_%s", cusci_dtype_name((cusci_dtype)s));
    cusci_array *src = tk_fixture(ctx, "astype", name, false);
    if (!src) {
      ok(0, "fixture %s loads", name);
      continue;
    }
    /* The same values through a strided, reversed view: a 2n array holding
     * them at odd positions, backwards, then sliced [::-2]. */
    int64_t n = cusci_array_size(src), n2 = 2 * n;
    cusci_array *wide = NULL, *rev = NULL, *fill_view = NULL;
    cusci_array_zeros(ctx, 1, &n2, (cusci_dtype)s, &wide);
    cusci_array_slice(ctx, wide, (const int64_t[]){-1}, (const int64_t[]){CUSCI_SLICE_NONE}, (const int64_t[]){-2},
                      &rev);
    cusci_array_slice(ctx, wide, (const int64_t[]){-1}, (const int64_t[]){CUSCI_SLICE_NONE}, (const int64_t[]){-2},
                      &fill_view);
    cusci_array_astype(ctx, src, (cusci_dtype)s, true, &fill_view); /* writes through the view */
    for (int d = 0; d < 14; d++) {
      char pair[64], mname[80];
      snprintf(pair, sizeof pair, "%s_to_%s", cusci_dtype_name((cusci_dtype)s), cusci_dtype_name((cusci_dtype)d));
      snprintf(mname, sizeof mname, "%s_mask", pair);
      cusci_array *want = tk_fixture(ctx, "astype", pair, false);
      cusci_array *mask = tk_fixture(ctx, "astype", mname, true);
      cusci_array *out = NULL, *out2 = NULL;
      if (want && cusci_array_astype(ctx, src, (cusci_dtype)d, true, &out) == CUSCI_OK &&
          compare(ctx, (cusci_dtype)d, out, want, mask, pair))
        pairs++;
      if (want && cusci_array_astype(ctx, rev, (cusci_dtype)d, true, &out2) == CUSCI_OK &&
          compare(ctx, (cusci_dtype)d, out2, want, mask, pair))
        pairs_strided++;
      cusci_array_release(out);
      cusci_array_release(out2);
      cusci_array_release(want);
      cusci_array_release(mask);
    }
    cusci_array_release(fill_view);
    cusci_array_release(rev);
    cusci_array_release(wide);
    cusci_array_release(src);
  }
  is_int(pairs, 196, "all 196 pairs match NumPy from contiguous arrays");
  is_int(pairs_strided, 196, "all 196 pairs match NumPy from reversed strided views");

  /* copy semantics: astype(copy=false) of the same dtype is the array itself. */
  int64_t shape[2] = {3, 5};
  cusci_array *a = NULL, *same = NULL, *copy = NULL, *conv = NULL;
  cusci_array_arange(ctx, 0, 15, 1, CUSCI_FLOAT32, &a);
  cusci_array *a15 = NULL;
  cusci_array_reshape(ctx, a, 2, shape, &a15);
  ok(cusci_array_astype(ctx, a15, CUSCI_FLOAT32, false, &same) == CUSCI_OK && same == a15,
     "astype(copy=false) with the same dtype hands back the array itself");
  ok(cusci_array_astype(ctx, a15, CUSCI_FLOAT32, true, &copy) == CUSCI_OK && copy != a15 &&
         cusci_array_data(copy) != cusci_array_data(a15),
     "astype(copy=true) makes a new array");
  ok(cusci_array_astype(ctx, a15, CUSCI_INT16, false, &conv) == CUSCI_OK && conv != a15 &&
         cusci_array_dtype(conv) == CUSCI_INT16 && cusci_array_ndim(conv) == 2 && cusci_array_shape(conv)[1] == 5,
     "astype(copy=false) to another dtype converts");
  /* astype into a given out, including a transposed one. */
  cusci_array *o = NULL, *ot = NULL, *given;
  cusci_array_zeros(ctx, 2, (const int64_t[]){5, 3}, CUSCI_FLOAT64, &o);
  cusci_array_transpose(ctx, o, NULL, &ot);
  given = ot;
  ok(cusci_array_astype(ctx, a15, CUSCI_FLOAT64, true, &given) == CUSCI_OK && given == ot,
     "astype writes into a given out (a transposed view)");
  double back[15];
  cusci_array_to_host(ctx, o, back, sizeof back);
  is_double(back[1 * 3 + 2], 11.0, 0, "o[1, 2] == a[2, 1] after writing through the transpose");
  cusci_array_release(same);
  cusci_array_release(copy);
  cusci_array_release(conv);
  cusci_array_release(ot);
  cusci_array_release(o);
  cusci_array_release(a15);
  cusci_array_release(a);
  cusci_ctx_destroy(ctx);
  return done_testing();
}
