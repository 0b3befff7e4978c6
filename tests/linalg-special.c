/*
 * tests/linalg-special.c: scipy.linalg's special matrices against SciPy's
 * (tests/fixtures/fixtures_linalg.py), integers exactly and floats within
 * a few ulps, batched inputs, and their error statuses. Run on the host
 * and, where there is one, on a GPU (the same results, copied there).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-util.h"

static cusci_ctx *ctx;

static cusci_array *fx(const char *name) { return lu_fixture(ctx, "", name); }

/* *gotp against fixture `name`: shape and dtype equal; integers bit-equal,
 * floats within 1e-13 relative to the largest entry. */
static void check(cusci_status st, cusci_array **gotp, const char *name)
{
  cusci_array *got = *gotp, *want = fx(name);
  bool same = st == CUSCI_OK && lu_same_shape(got, want, false);
  double err = INFINITY, tol = 0;
  if (same) {
    cusci_dtype dt = cusci_array_dtype(want);
    int64_t n = cusci_array_size(want);
    if (cusci_dtype_kind(dt) == 'f' || cusci_dtype_kind(dt) == 'c') {
      lu_c *g = lu_values(ctx, got), *w = lu_values(ctx, want);
      double scale = lu_maxabs(w, n);
      tol = 8 * lu_eps(dt) * (scale > 1 ? scale : 1);
      err = lu_maxdiff(g, w, n);
      free(g);
      free(w);
    } else {
      void *g = tk_to_host(ctx, got), *w = tk_to_host(ctx, want);
      err = tk_first_mismatch(dt, g, w, NULL, n) < 0 ? 0 : INFINITY;
      free(g);
      free(w);
    }
  }
  ok(same && err <= tol, "%s: %s, error %.3g <= %.3g", name, st == CUSCI_OK ? (same ? "shape and dtype match" : "shape or dtype differ") : cusci_ctx_last_error(ctx), err, tol);
  cusci_array_release(want);
  cusci_array_release(got);
  *gotp = NULL;
}

int main(int argc, char **argv)
{
  ctx = argc > 1 && strcmp(argv[1], "--gpu") == 0 ? tk_gpu_ctx_or_skip() : tk_host_ctx();
  plan(38);
  cusci_array *o = NULL, *c, *r;

  c = fx("toeplitz_c"), r = fx("toeplitz_r");
  check(cusci_linalg_toeplitz(ctx, c, r, &o), &o, "toeplitz_out");
  cusci_array_release(c), cusci_array_release(r);
  c = fx("toeplitz_conj_c");
  check(cusci_linalg_toeplitz(ctx, c, NULL, &o), &o, "toeplitz_conj_out");
  cusci_array_release(c);
  c = fx("toeplitz_batch_c");
  check(cusci_linalg_toeplitz(ctx, c, NULL, &o), &o, "toeplitz_batch_out");
  cusci_array_release(c);
  c = fx("circulant_c");
  check(cusci_linalg_circulant(ctx, c, &o), &o, "circulant_out");
  cusci_array_release(c);
  c = fx("circulant_batch_c");
  check(cusci_linalg_circulant(ctx, c, &o), &o, "circulant_batch_out");
  cusci_array_release(c);
  c = fx("hankel_c");
  check(cusci_linalg_hankel(ctx, c, NULL, &o), &o, "hankel_out");
  cusci_array_release(c);
  c = fx("hankel_cr_c"), r = fx("hankel_cr_r");
  check(cusci_linalg_hankel(ctx, c, r, &o), &o, "hankel_cr_out");
  cusci_array_release(c), cusci_array_release(r);
  c = fx("companion_a");
  check(cusci_linalg_companion(ctx, c, &o), &o, "companion_out");
  cusci_array_release(c);
  c = fx("companion_batch_a");
  check(cusci_linalg_companion(ctx, c, &o), &o, "companion_batch_out");
  cusci_array_release(c);
  c = fx("leslie_f"), r = fx("leslie_s");
  check(cusci_linalg_leslie(ctx, c, r, &o), &o, "leslie_out");
  cusci_array_release(c), cusci_array_release(r);
  check(cusci_linalg_hilbert(ctx, 5, &o), &o, "hilbert_5");
  check(cusci_linalg_invhilbert(ctx, 6, false, &o), &o, "invhilbert_6");
  check(cusci_linalg_invhilbert(ctx, 6, true, &o), &o, "invhilbert_6_exact");
  check(cusci_linalg_invhilbert(ctx, 14, true, &o), &o, "invhilbert_14_exact");
  check(cusci_linalg_invhilbert(ctx, 16, false, &o), &o, "invhilbert_16");
  check(cusci_linalg_pascal(ctx, 5, CUSCI_LINALG_PASCAL_SYMMETRIC, true, &o), &o, "pascal_5");
  check(cusci_linalg_pascal(ctx, 5, CUSCI_LINALG_PASCAL_LOWER, true, &o), &o, "pascal_5_lower");
  check(cusci_linalg_pascal(ctx, 6, CUSCI_LINALG_PASCAL_UPPER, false, &o), &o, "pascal_6_upper");
  check(cusci_linalg_pascal(ctx, 33, CUSCI_LINALG_PASCAL_SYMMETRIC, true, &o), &o, "pascal_33");
  check(cusci_linalg_dft(ctx, 5, CUSCI_LINALG_DFT_SCALE_NONE, &o), &o, "dft_5");
  check(cusci_linalg_dft(ctx, 4, CUSCI_LINALG_DFT_SCALE_SQRTN, &o), &o, "dft_4_sqrtn");
  check(cusci_linalg_dft(ctx, 6, CUSCI_LINALG_DFT_SCALE_N, &o), &o, "dft_6_n");
  check(cusci_linalg_hadamard(ctx, 8, CUSCI_INT64, &o), &o, "hadamard_8");
  check(cusci_linalg_hadamard(ctx, 4, CUSCI_FLOAT32, &o), &o, "hadamard_4_f32");
  check(cusci_linalg_helmert(ctx, 5, false, &o), &o, "helmert_5");
  check(cusci_linalg_helmert(ctx, 4, true, &o), &o, "helmert_4_full");

  /* Errors. */
  int64_t one[1] = { 1 }, three[1] = { 3 };
  double zero_lead[3] = { 0, 1, 2 };
  cusci_array *z = NULL, *a1 = NULL, *a0 = NULL;
  cusci_array_from_host(ctx, zero_lead, 1, three, CUSCI_FLOAT64, &z);
  cusci_array_from_host(ctx, zero_lead, 1, one, CUSCI_FLOAT64, &a1);
  cusci_array_zeros(ctx, 0, NULL, CUSCI_FLOAT64, &a0);
  is_int(cusci_linalg_companion(ctx, z, &o), CUSCI_ERR_VALUE, "companion: a[0] == 0");
  is_int(cusci_linalg_companion(ctx, a1, &o), CUSCI_ERR_SHAPE, "companion: one coefficient");
  is_int(cusci_linalg_toeplitz(ctx, a0, NULL, &o), CUSCI_ERR_NDIM, "toeplitz: a 0-d c");
  is_int(cusci_linalg_toeplitz(ctx, NULL, NULL, &o), CUSCI_ERR_NULL_POINTER, "toeplitz: NULL c");
  is_int(cusci_linalg_leslie(ctx, z, z, &o), CUSCI_ERR_SHAPE, "leslie: s as long as f");
  is_int(cusci_linalg_hadamard(ctx, 6, CUSCI_INT64, &o), CUSCI_ERR_VALUE, "hadamard: 6 is not a power of 2");
  is_int(cusci_linalg_hilbert(ctx, -1, &o), CUSCI_ERR_VALUE, "hilbert: n = -1");
  is_int(cusci_linalg_invhilbert(ctx, 15, true, &o), CUSCI_ERR_OVERFLOW, "invhilbert: exact beyond 14");
  is_int(cusci_linalg_pascal(ctx, 34, CUSCI_LINALG_PASCAL_SYMMETRIC, true, &o), CUSCI_ERR_OVERFLOW, "pascal: exact beyond 33");
  is_int(cusci_linalg_pascal(ctx, 3, (cusci_linalg_pascal_kind)7, true, &o), CUSCI_ERR_INVALID_ARGUMENT, "pascal: kind 7");
  is_int(cusci_linalg_helmert(ctx, 0, false, &o), CUSCI_ERR_VALUE, "helmert: n = 0");
  ok(o == NULL, "failed calls left *out NULL");
  cusci_array_release(z), cusci_array_release(a1), cusci_array_release(a0);
  cusci_ctx_destroy(ctx);
  return done_testing();
}
