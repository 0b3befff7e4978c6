/*
 * tests/linalg-eig.c: liblinalg's eigenproblems, Schur and Hessenberg
 * forms, polar, ldl and pinvh on the host backend: SciPy's results
 * (tests/fixtures/fixtures_linalg_eig.py), the property suite
 * (tests/linalg-eig-suite.h) and every error path.
 */
#include <math.h>
#include <stdlib.h>

#include "tests/linalg-eig-suite.h"

static cusci_ctx *ctx;

static cusci_array *fx(const char *name)
{
  cusci_array *a = tk_fixture(ctx, "linalg_eig", name, false);
  if (!a) {
    printf("Bail out! missing fixture %s\n", name);
    exit(1);
  }
  return a;
}

/* got against fixture `name` (same shape and dtype), within c n eps of the
 * fixture's dtype times its scale; sorted: compare as sets of eigenvalues. */
static void check(cusci_status st, cusci_array **gotp, const char *name, int64_t n, bool sorted, const char *what)
{
  cusci_array *got = *gotp; /* read after the call that set it */
  cusci_array *want = fx(name);
  bool same = st == CUSCI_OK && lu_same_shape(got, want, false);
  double err = INFINITY, tol = 0;
  if (same) {
    int64_t size = cusci_array_size(want), m = cusci_array_ndim(want) ? cusci_array_shape(want)[cusci_array_ndim(want) - 1] : 1;
    lu_c *g = lu_values(ctx, got), *w = lu_values(ctx, want);
    double scale = lu_maxabs(w, size);
    tol = 200 * n * lu_eps(cusci_array_dtype(want)) * (scale > 1 ? scale : 1);
    err = sorted ? le_match_eigs(g, w, m ? size / m : 0, m) : lu_maxdiff(g, w, size);
    free(g);
    free(w);
  }
  ok(same && err <= tol, "%s: %s, max error %.3g <= %.3g", what,
     st == CUSCI_OK ? (same ? "shape and dtype match" : "shape or dtype differ") : cusci_ctx_last_error(ctx), err, tol);
  cusci_array_release(want);
}

#define FIXTURE_TESTS 48
static void fixtures(void)
{
  char nm[96];
  /* eig / eigvals */
  const char *eigs[] = { "f64", "c128", "f32", "c64" };
  for (int i = 0; i < 4; i++) {
    snprintf(nm, sizeof nm, "eig_%s_a", eigs[i]);
    cusci_array *a = fx(nm), *w = NULL;
    snprintf(nm, sizeof nm, "eig_%s_w", eigs[i]);
    check(cusci_linalg_eigvals(ctx, a, NULL, NULL, &w), &w, nm, 6, true, nm);
    cusci_array_release(a), cusci_array_release(w);
  }
  const char *gens[] = { "gen", "genc" };
  for (int i = 0; i < 2; i++) {
    snprintf(nm, sizeof nm, "eig_%s_a", gens[i]);
    cusci_array *a = fx(nm), *w = NULL, *b;
    snprintf(nm, sizeof nm, "eig_%s_b", gens[i]);
    b = fx(nm);
    snprintf(nm, sizeof nm, "eig_%s_w", gens[i]);
    check(cusci_linalg_eigvals(ctx, a, b, NULL, &w), &w, nm, 50, true, nm);
    cusci_array_release(a), cusci_array_release(b), cusci_array_release(w);
  }
  /* eigh subsets and b */
  {
    cusci_array *a = fx("eighx_f64_a"), *r = fx("eighx_f64_range"), *w = NULL;
    double range[2];
    cusci_array_to_host(ctx, r, range, sizeof range);
    check(cusci_linalg_eigvalsh(ctx, a, &(cusci_linalg_eigh_opts){ .subset = CUSCI_LINALG_SUBSET_INDEX, .lo = 2, .hi = 4 }, &w), &w,
          "eighx_f64_idx_w", 7, false, "eigvalsh subset_by_index [2, 4]");
    cusci_array_release(w), w = NULL;
    check(cusci_linalg_eigvalsh(ctx, a, &(cusci_linalg_eigh_opts){ .subset = CUSCI_LINALG_SUBSET_VALUE, .vlo = range[0], .vhi = range[1] }, &w), &w,
          "eighx_f64_val_w", 7, false, "eigvalsh subset_by_value");
    cusci_array_release(w), w = NULL;
    cusci_array_release(a), cusci_array_release(r);
    a = fx("eighx_c128_a");
    check(cusci_linalg_eigvalsh(ctx, a, &(cusci_linalg_eigh_opts){ .upper = true, .subset = CUSCI_LINALG_SUBSET_INDEX, .lo = 3, .hi = 5 }, &w), &w, "eighx_c128_idx_w", 6, false, "eigvalsh complex128 batch, upper, subset_by_index [3, 5]");
    cusci_array_release(w), w = NULL;
    cusci_array_release(a);
    a = fx("eighg_f64_a");
    cusci_array *b = fx("eighg_f64_b");
    for (int t = 1; t <= 3; t++) {
      snprintf(nm, sizeof nm, "eighg_f64_t%d_w", t);
      check(cusci_linalg_eigvalsh(ctx, a, &(cusci_linalg_eigh_opts){ .b = b, .type = t }, &w), &w, nm, 36, false, nm);
      cusci_array_release(w), w = NULL;
    }
    check(cusci_linalg_eigvalsh(ctx, a, &(cusci_linalg_eigh_opts){ .b = b, .subset = CUSCI_LINALG_SUBSET_INDEX, .lo = 1, .hi = 3 }, &w), &w,
          "eighg_f64_idx_w", 36, false, "eigvalsh with b, subset_by_index [1, 3]");
    cusci_array_release(w), w = NULL;
    cusci_array_release(a), cusci_array_release(b);
    a = fx("eighg_c64_a"), b = fx("eighg_c64_b");
    check(cusci_linalg_eigvalsh(ctx, a, &(cusci_linalg_eigh_opts){ .b = b }, &w), &w, "eighg_c64_w", 25, false, "eigvalsh complex64 with b");
    cusci_array_release(w), cusci_array_release(a), cusci_array_release(b);
  }
  /* eigh_tridiagonal */
  {
    cusci_array *d = fx("tri_f64_d"), *e = fx("tri_f64_e"), *w = NULL;
    check(cusci_linalg_eigvalsh_tridiagonal(ctx, d, e, NULL, &w), &w, "tri_f64_w", 8, false, "eigvalsh_tridiagonal");
    cusci_array_release(w), w = NULL;
    check(cusci_linalg_eigvalsh_tridiagonal(ctx, d, e, &(cusci_linalg_eigh_tridiagonal_opts){ .select = CUSCI_LINALG_SUBSET_INDEX, .lo = 2, .hi = 5 },
                                            &w), &w, "tri_f64_idx_w", 8, false, "eigvalsh_tridiagonal select='i'");
    cusci_array_release(w), w = NULL;
    check(cusci_linalg_eigvalsh_tridiagonal(
              ctx, d, e, &(cusci_linalg_eigh_tridiagonal_opts){ .select = CUSCI_LINALG_SUBSET_VALUE, .vlo = -1.0, .vhi = 1.5 }, &w), &w, "tri_f64_val_w", 8, false, "eigvalsh_tridiagonal select='v'");
    cusci_array_release(w), w = NULL;
    cusci_array_release(d), cusci_array_release(e);
    d = fx("tri_f32_d"), e = fx("tri_f32_e");
    check(cusci_linalg_eigvalsh_tridiagonal(ctx, d, e, NULL, &w), &w, "tri_f32_w", 5, false, "eigvalsh_tridiagonal float32 batch");
    cusci_array_release(w), cusci_array_release(d), cusci_array_release(e);
  }
  /* schur: T and Z as LAPACK makes them; the complex form's eigenvalues;
   * rsf2csf of SciPy's real form. */
  {
    cusci_array *a = fx("schur_f64_a"), *t = NULL, *z = NULL, *st = fx("schur_f64_t"), *sz = fx("schur_f64_z");
    cusci_status s = cusci_linalg_schur(ctx, a, NULL, &t, &z);
    check(s, &t, "schur_f64_t", 6, false, "schur T");
    check(s, &z, "schur_f64_z", 6, false, "schur Z");
    cusci_array_release(t), cusci_array_release(z), t = z = NULL;
    s = cusci_linalg_schur(ctx, a, &(cusci_linalg_schur_opts){ .complex_output = true }, &t, &z);
    cusci_array *dg = NULL, *tdg = NULL;
    if (s == CUSCI_OK) {
      /* the diagonal through a strided view: T viewed as (n*n) with step n + 1 */
      int64_t flat = 36, start = 0, stop = 36, step = 7;
      cusci_array *fl = NULL;
      cusci_array_reshape(ctx, t, 1, &flat, &fl);
      cusci_array_slice(ctx, fl, &start, &stop, &step, &dg);
      cusci_array_copy(ctx, dg, &tdg);
      cusci_array_release(fl);
    }
    check(s, &tdg, "schur_f64_w", 6, true, "schur complex: eigenvalues on T's diagonal");
    cusci_array_release(t), cusci_array_release(z), cusci_array_release(dg), cusci_array_release(tdg), t = z = NULL;
    s = cusci_linalg_rsf2csf(ctx, st, sz, &t, &z);
    check(s, &t, "rsf2csf_f64_t", 6, false, "rsf2csf T");
    check(s, &z, "rsf2csf_f64_z", 6, false, "rsf2csf Z");
    cusci_array_release(t), cusci_array_release(z), cusci_array_release(st), cusci_array_release(sz), cusci_array_release(a);
  }
  /* hessenberg */
  const char *hs[] = { "f64", "c128" };
  for (int i = 0; i < 2; i++) {
    snprintf(nm, sizeof nm, "hess_%s_a", hs[i]);
    cusci_array *a = fx(nm), *h = NULL, *q = NULL;
    cusci_status s = cusci_linalg_hessenberg(ctx, a, &h, &q);
    snprintf(nm, sizeof nm, "hess_%s_h", hs[i]);
    check(s, &h, nm, 6, false, nm);
    snprintf(nm, sizeof nm, "hess_%s_q", hs[i]);
    check(s, &q, nm, 6, false, nm);
    cusci_array_release(a), cusci_array_release(h), cusci_array_release(q);
  }
  /* ldl */
  const char *ls[] = { "f64_lower", "f64_upper", "c128_herm", "c128_sym", "c128_upper" };
  const cusci_linalg_ldl_opts lo[] = { { 0 }, { .upper = true }, { 0 }, { .not_hermitian = true }, { .upper = true } };
  for (int i = 0; i < 5; i++) {
    snprintf(nm, sizeof nm, "ldl_%s_a", ls[i]);
    cusci_array *a = fx(nm), *lu = NULL, *d = NULL, *p = NULL;
    cusci_status s = cusci_linalg_ldl(ctx, a, &lo[i], &lu, &d, &p);
    snprintf(nm, sizeof nm, "ldl_%s_lu", ls[i]);
    check(s, &lu, nm, 7, false, nm);
    snprintf(nm, sizeof nm, "ldl_%s_d", ls[i]);
    check(s, &d, nm, 7, false, nm);
    snprintf(nm, sizeof nm, "ldl_%s_perm", ls[i]);
    check(s, &p, nm, 1, false, nm);
    cusci_array_release(a), cusci_array_release(lu), cusci_array_release(d), cusci_array_release(p);
  }
  /* polar */
  const char *ps[] = { "tall", "wide" };
  for (int i = 0; i < 2; i++) {
    snprintf(nm, sizeof nm, "polar_%s_a", ps[i]);
    cusci_array *a = fx(nm), *u = NULL, *p = NULL;
    cusci_status s = cusci_linalg_polar(ctx, a, i ? CUSCI_LINALG_POLAR_LEFT : CUSCI_LINALG_POLAR_RIGHT, &u, &p);
    snprintf(nm, sizeof nm, "polar_%s_u", ps[i]);
    check(s, &u, nm, 5, false, nm);
    snprintf(nm, sizeof nm, "polar_%s_p", ps[i]);
    check(s, &p, nm, 5, false, nm);
    cusci_array_release(a), cusci_array_release(u), cusci_array_release(p);
  }
  /* pinvh */
  {
    cusci_array *a = fx("pinvh_f64_a"), *p = NULL;
    check(cusci_linalg_pinvh(ctx, a, NULL, &p), &p, "pinvh_f64_out", 60, false, "pinvh float64, rank 4 of 6");
    cusci_array_release(a), cusci_array_release(p), p = NULL;
    a = fx("pinvh_c128_a");
    check(cusci_linalg_pinvh(ctx, a, &(cusci_linalg_pinvh_opts){ .atol = 1e-3 }, &p), &p, "pinvh_c128_out", 60, false,
          "pinvh complex128, rank 3 of 5, atol");
    cusci_array_release(a), cusci_array_release(p);
  }
}

/* ------------------------------------------------------------ errors */

static void expect(cusci_status got, cusci_status want, cusci_array *out, const char *what, const char *needle)
{
  const char *msg = cusci_ctx_last_error(ctx);
  ok(got == want && out == NULL && (!needle || (msg && strstr(msg, needle))), "%s: %s (%s)", what, cusci_status_name(got), msg ? msg : "");
}

#define ERROR_TESTS 26
static void errors(void)
{
  int64_t s34[2] = { 3, 4 }, s33[2] = { 3, 3 }, s44[2] = { 4, 4 }, s3[1] = { 3 }, s2[1] = { 2 };
  lu_c v[16];
  for (int i = 0; i < 16; i++)
    v[i] = 0.37 * i - 1.9 + (i % 3 == 0 ? 2.1 : 0);
  cusci_array *rect = lu_array(ctx, CUSCI_FLOAT64, 2, s34, v), *sq = lu_array(ctx, CUSCI_FLOAT64, 2, s33, v),
              *sq4 = lu_array(ctx, CUSCI_FLOAT64, 2, s44, v), *vec = lu_array(ctx, CUSCI_FLOAT64, 1, s3, v), *out = NULL, *o2 = NULL,
              *o3 = NULL;
  lu_c bad[9];
  for (int i = 0; i < 9; i++)
    bad[i] = v[i];
  bad[4] = NAN;
  cusci_array *nan = lu_array(ctx, CUSCI_FLOAT64, 2, s33, bad);
  expect(cusci_linalg_eig(ctx, rect, NULL, NULL, &out, NULL, &o2), CUSCI_ERR_SHAPE, out, "eig: non-square", "square");
  expect(cusci_linalg_eigvals(ctx, vec, NULL, NULL, &out), CUSCI_ERR_NDIM, out, "eigvals: 1-D", "dimensions");
  expect(cusci_linalg_eigvals(ctx, sq, sq4, NULL, &out), CUSCI_ERR_SHAPE, out, "eigvals: b of another shape", "same shape");
  expect(cusci_linalg_eigvals(ctx, nan, NULL, NULL, &out), CUSCI_ERR_VALUE, out, "eigvals: NaN", "infs or NaNs");
  expect(cusci_linalg_eigvals(ctx, sq, nan, NULL, &out), CUSCI_ERR_VALUE, out, "eigvals: NaN in b", "infs or NaNs");
  expect(cusci_linalg_eigvals(NULL, sq, NULL, NULL, &out), CUSCI_ERR_NULL_POINTER, out, "eigvals: NULL ctx", NULL);
  expect(cusci_linalg_eigvals(ctx, sq, NULL, NULL, NULL), CUSCI_ERR_NULL_POINTER, out, "eigvals: NULL w", NULL);
  /* A caller's out of the wrong dtype: left alone. */
  cusci_array *wrong = lu_array(ctx, CUSCI_FLOAT64, 1, s3, v), *keep = wrong;
  cusci_status st = cusci_linalg_eigvals(ctx, sq, NULL, NULL, &wrong);
  ok(st == CUSCI_ERR_DTYPE && wrong == keep, "eigvals: a float64 out for complex eigenvalues is refused (%s)", cusci_status_name(st));
  cusci_array_release(wrong);
  /* eigh's new options. */
  cusci_array *h = NULL;
  lu_c hv[9] = { 2.385, 0.5, -0.25, 0.5, 1.9, 0.75, -0.25, 0.75, -1.2 };
  h = lu_array(ctx, CUSCI_FLOAT64, 2, s33, hv);
  expect(cusci_linalg_eigvalsh(ctx, h, &(cusci_linalg_eigh_opts){ .subset = CUSCI_LINALG_SUBSET_INDEX, .lo = 1, .hi = 3 }, &out), CUSCI_ERR_VALUE,
         out, "eigvalsh: index range past n", "index range");
  expect(cusci_linalg_eigvalsh(ctx, h, &(cusci_linalg_eigh_opts){ .subset = CUSCI_LINALG_SUBSET_INDEX, .lo = 2, .hi = 1 }, &out), CUSCI_ERR_VALUE,
         out, "eigvalsh: lo > hi", "index range");
  expect(cusci_linalg_eigvalsh(ctx, h, &(cusci_linalg_eigh_opts){ .subset = CUSCI_LINALG_SUBSET_VALUE, .vlo = 1, .vhi = 1 }, &out), CUSCI_ERR_VALUE,
         out, "eigvalsh: empty value range", "value range");
  expect(cusci_linalg_eigvalsh(ctx, h, &(cusci_linalg_eigh_opts){ .subset = 7 }, &out), CUSCI_ERR_INVALID_ARGUMENT, out, "eigvalsh: subset 7",
         "subset");
  expect(cusci_linalg_eigvalsh(ctx, h, &(cusci_linalg_eigh_opts){ .b = h, .type = 4 }, &out), CUSCI_ERR_INVALID_ARGUMENT, out, "eigvalsh: type 4",
         "type");
  expect(cusci_linalg_eigvalsh(ctx, h, &(cusci_linalg_eigh_opts){ .b = sq4 }, &out), CUSCI_ERR_SHAPE, out, "eigvalsh: b of another shape",
         "same shape");
  /* b not positive definite: the numerical failure, with the minor's order. */
  lu_c nb[9] = { 1, 0, 0, 0, -1, 0, 0, 0, 1 };
  cusci_array *notpd = lu_array(ctx, CUSCI_FLOAT64, 2, s33, nb);
  expect(cusci_linalg_eigvalsh(ctx, h, &(cusci_linalg_eigh_opts){ .b = notpd }, &out), CUSCI_ERR_LINALG, out, "eigvalsh: b not positive definite",
         "leading minor of order 2 of b");
  /* In a batch, the message names the matrix. */
  {
    int64_t s233[3] = { 2, 3, 3 };
    lu_c hb[18], bb[18];
    for (int i = 0; i < 9; i++)
      hb[i] = hb[9 + i] = hv[i], bb[i] = i % 4 == 0 ? 1 : 0, bb[9 + i] = nb[i];
    cusci_array *ha = lu_array(ctx, CUSCI_FLOAT64, 3, s233, hb), *hbb = lu_array(ctx, CUSCI_FLOAT64, 3, s233, bb);
    expect(cusci_linalg_eigh(ctx, ha, &(cusci_linalg_eigh_opts){ .b = hbb }, &out, &o2), CUSCI_ERR_LINALG, out,
           "eigh: batch with a b not positive definite", "batch index [1]");
    cusci_array_release(ha), cusci_array_release(hbb);
  }
  cusci_array_release(notpd);
  /* schur, hessenberg, rsf2csf, ldl, polar, pinvh, tridiagonal. */
  expect(cusci_linalg_schur(ctx, rect, NULL, &out, &o2), CUSCI_ERR_SHAPE, out, "schur: non-square", "square");
  expect(cusci_linalg_schur(ctx, nan, NULL, &out, &o2), CUSCI_ERR_VALUE, out, "schur: NaN", "infs or NaNs");
  expect(cusci_linalg_hessenberg(ctx, rect, &out, NULL), CUSCI_ERR_SHAPE, out, "hessenberg: non-square", "square");
  expect(cusci_linalg_rsf2csf(ctx, sq, sq4, &out, &o2), CUSCI_ERR_SHAPE, out, "rsf2csf: t and z differ", "same shape");
  expect(cusci_linalg_ldl(ctx, rect, NULL, &out, &o2, &o3), CUSCI_ERR_SHAPE, out, "ldl: non-square", "square");
  expect(cusci_linalg_polar(ctx, vec, 0, &out, &o2), CUSCI_ERR_NDIM, out, "polar: 1-D", "dimensions");
  expect(cusci_linalg_polar(ctx, rect, 2, &out, &o2), CUSCI_ERR_INVALID_ARGUMENT, out, "polar: side 2", "side");
  expect(cusci_linalg_pinvh(ctx, h, &(cusci_linalg_pinvh_opts){ .rtol = -1 }, &out), CUSCI_ERR_VALUE, out, "pinvh: negative rtol", "non-negative");
  cusci_array *e2 = lu_array(ctx, CUSCI_FLOAT64, 1, s2, v);
  expect(cusci_linalg_eigvalsh_tridiagonal(ctx, vec, vec, NULL, &out), CUSCI_ERR_SHAPE, out, "eigvalsh_tridiagonal: e as long as d", "n - 1");
  expect(cusci_linalg_eigvalsh_tridiagonal(ctx, vec, e2, &(cusci_linalg_eigh_tridiagonal_opts){ .select = 3 }, &out), CUSCI_ERR_INVALID_ARGUMENT,
         out, "eigvalsh_tridiagonal: select 3", "select");
  cusci_array_release(e2);
  cusci_array_release(rect), cusci_array_release(sq), cusci_array_release(sq4), cusci_array_release(vec), cusci_array_release(nan);
  cusci_array_release(h);
}

int main(void)
{
  ctx = tk_host_ctx();
  plan(FIXTURE_TESTS + le_props_count() + ERROR_TESTS);
  fixtures();
  le_props(ctx);
  errors();
  cusci_ctx_destroy(ctx);
  return done_testing();
}
