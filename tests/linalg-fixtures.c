/*
 * tests/linalg-fixtures.c: liblinalg's host backend against SciPy's
 * results (tests/fixtures/fixtures_linalg.py). The fixture matrices are
 * well conditioned, so the tolerance is a small multiple of n * eps of the
 * dtype times the scale of the result.
 */
#include <math.h>
#include <stdlib.h>

#include "tests/linalg-util.h"

static cusci_ctx *ctx;

static cusci_array *fx(const char *name) { return lu_fixture(ctx, "", name); }

/* got against the fixture `name`: same shape and dtype, values within
 * c * n * eps * max(1, |want|). */
static void check(cusci_status st, cusci_array **gotp, const char *name, int64_t n, const char *what)
{
  cusci_array *got = *gotp; /* read after the call that set it */
  cusci_array *want = fx(name);
  bool same = st == CUSCI_OK && lu_same_shape(got, want, false);
  double err = INFINITY, tol = 0, scale = 1;
  if (same) {
    err = lu_array_diff(ctx, got, ctx, want, &scale);
    tol = 64 * n * lu_eps(cusci_array_dtype(want)) * scale;
  }
  ok(same && err <= tol, "%s: %s, max error %.3g <= %.3g", what, st == CUSCI_OK ? (same ? "shape and dtype match" : "shape or dtype differ") : cusci_ctx_last_error(ctx),
     err, tol);
  cusci_array_release(want);
}

static void matmul_case(const char *c)
{
  char na[64], nb[64], no[64];
  snprintf(na, sizeof na, "matmul_%s_a", c);
  snprintf(nb, sizeof nb, "matmul_%s_b", c);
  snprintf(no, sizeof no, "matmul_%s_out", c);
  cusci_array *a = fx(na), *b = fx(nb), *out = NULL;
  check(cusci_linalg_matmul(ctx, a, b, &out), &out, no, 8, no);
  cusci_array_release(a);
  cusci_array_release(b);
  cusci_array_release(out);
}

static void solve_case(const char *c, cusci_linalg_solve_opts *o, int64_t n)
{
  char na[64], nb[64], nx[64];
  snprintf(na, sizeof na, "solve_%s_a", c);
  snprintf(nb, sizeof nb, "solve_%s_b", c);
  snprintf(nx, sizeof nx, "solve_%s_x", c);
  cusci_array *a = fx(na), *b = fx(nb), *x = NULL;
  check(cusci_linalg_solve(ctx, a, b, o, &x), &x, nx, n, nx);
  cusci_array_release(a);
  cusci_array_release(b);
  cusci_array_release(x);
}

typedef cusci_status (*binary_fn)(cusci_ctx *, const cusci_array *, const cusci_array *, cusci_array **);

static void binary_case(binary_fn f, const char *c, int64_t n)
{
  char na[64], nb[64], no[64];
  snprintf(na, sizeof na, "%s_a", c);
  snprintf(nb, sizeof nb, "%s_b", c);
  snprintf(no, sizeof no, "%s_out", c);
  cusci_array *a = fx(na), *b = fx(nb), *out = NULL;
  check(f(ctx, a, b, &out), &out, no, n, no);
  cusci_array_release(a);
  cusci_array_release(b);
  cusci_array_release(out);
}

typedef cusci_status (*unary_fn)(cusci_ctx *, const cusci_array *, cusci_array **);

static void unary_case(unary_fn f, const char *in, const char *want, int64_t n)
{
  cusci_array *a = fx(in), *out = NULL;
  check(f(ctx, a, &out), &out, want, n, want);
  cusci_array_release(a);
  cusci_array_release(out);
}

static void chol_case(const char *c, bool lower, int64_t n)
{
  char na[64], no[64];
  snprintf(na, sizeof na, "chol_%s_a", c);
  snprintf(no, sizeof no, "chol_%s_out", c);
  cusci_array *a = fx(na), *out = NULL;
  check(cusci_linalg_cholesky(ctx, a, lower, &out), &out, no, n, no);
  cusci_array_release(a);
  cusci_array_release(out);
}

static void cho_case(const char *c, bool lower, int64_t n)
{
  char nc[64], nb[64], nx[64];
  snprintf(nc, sizeof nc, "cho_%s_c", c);
  snprintf(nb, sizeof nb, "cho_%s_b", c);
  snprintf(nx, sizeof nx, "cho_%s_x", c);
  cusci_array *f = fx(nc), *b = fx(nb), *x = NULL;
  check(cusci_linalg_cho_solve(ctx, f, lower, b, &x), &x, nx, n, nx);
  cusci_array_release(f);
  cusci_array_release(b);
  cusci_array_release(x);
}

static void svd_case(const char *c, int64_t n)
{
  char na[64], ns[64];
  snprintf(na, sizeof na, "%s_a", c);
  snprintf(ns, sizeof ns, "%s_s", c);
  cusci_array *a = fx(na), *s = NULL, *s2 = NULL, *u = NULL, *vh = NULL;
  check(cusci_linalg_svd(ctx, a, false, false, NULL, &s, NULL), &s, ns, n, ns);
  check(cusci_linalg_svd(ctx, a, true, true, &u, &s2, &vh), &s2, ns, n, "s of the full svd");
  cusci_array *s3 = NULL;
  check(cusci_linalg_svdvals(ctx, a, &s3), &s3, ns, n, "svdvals");
  cusci_array_release(s3);
  cusci_array_release(a);
  cusci_array_release(s);
  cusci_array_release(s2);
  cusci_array_release(u);
  cusci_array_release(vh);
}

static void eigh_case(const char *c, bool upper, int64_t n)
{
  char na[64], nw[64];
  snprintf(na, sizeof na, "eigh_%s_a", c);
  snprintf(nw, sizeof nw, "eigh_%s_w", c);
  cusci_array *a = fx(na), *w = NULL, *w2 = NULL, *v = NULL;
  cusci_linalg_eigh_opts o = { .upper = upper };
  check(cusci_linalg_eigh(ctx, a, &o, &w, NULL), &w, nw, n, nw);
  check(cusci_linalg_eigh(ctx, a, &o, &w2, &v), &w2, nw, n, "w of eigh with vectors");
  cusci_array *w3 = NULL;
  check(cusci_linalg_eigvalsh(ctx, a, &o, &w3), &w3, nw, n, "eigvalsh");
  cusci_array_release(w3);
  cusci_array_release(a);
  cusci_array_release(w);
  cusci_array_release(w2);
  cusci_array_release(v);
}

static void slogdet_case(const char *c, int64_t n)
{
  char na[64], ns[64], nl[64];
  snprintf(na, sizeof na, "slogdet_%s_a", c);
  snprintf(ns, sizeof ns, "slogdet_%s_sign", c);
  snprintf(nl, sizeof nl, "slogdet_%s_log", c);
  cusci_array *a = fx(na), *sg = NULL, *lg = NULL;
  cusci_status st = cusci_linalg_slogdet(ctx, a, &sg, &lg);
  check(st, &sg, ns, n, ns);
  check(st, &lg, nl, n, nl);
  cusci_array_release(a);
  cusci_array_release(sg);
  cusci_array_release(lg);
}

static void lu_case(const char *c, int64_t n)
{
  char na[64], nl[64], np[64], nb[64], nx[64];
  snprintf(na, sizeof na, "lu_%s_a", c);
  snprintf(nl, sizeof nl, "lu_%s_lu", c);
  snprintf(np, sizeof np, "lu_%s_piv", c);
  snprintf(nb, sizeof nb, "lu_%s_b", c);
  cusci_array *a = fx(na), *lu = NULL, *piv = NULL, *slu = fx(nl), *spiv = fx(np), *b = fx(nb);
  cusci_status st = cusci_linalg_lu_factor(ctx, a, &lu, &piv);
  check(st, &lu, nl, n, nl);
  check(st, &piv, np, 1, np);
  for (int t = 0; t < 3; t++) {
    cusci_array *x = NULL;
    snprintf(nx, sizeof nx, "lu_%s_x%d", c, t);
    check(cusci_linalg_lu_solve(ctx, slu, spiv, b, (cusci_linalg_trans)t, &x), &x, nx, n, nx);
    cusci_array_release(x);
  }
  cusci_array_release(a);
  cusci_array_release(lu);
  cusci_array_release(piv);
  cusci_array_release(slu);
  cusci_array_release(spiv);
  cusci_array_release(b);
}

static void plu_case(const char *c, bool p_indices, bool permute_l, int64_t n)
{
  char na[64], np[64], nl[64], nu[64];
  snprintf(na, sizeof na, "plu_%s_a", c);
  snprintf(np, sizeof np, "plu_%s_p", c);
  snprintf(nl, sizeof nl, "plu_%s_l", c);
  snprintf(nu, sizeof nu, "plu_%s_u", c);
  cusci_array *a = fx(na), *p = NULL, *l = NULL, *u = NULL;
  cusci_linalg_lu_opts o = { .permute_l = permute_l, .p_indices = p_indices };
  cusci_status st = cusci_linalg_lu(ctx, a, &o, permute_l ? NULL : &p, &l, &u);
  if (!permute_l)
    check(st, &p, np, 1, np);
  check(st, &l, nl, n, nl);
  check(st, &u, nu, n, nu);
  cusci_array_release(a);
  cusci_array_release(p);
  cusci_array_release(l);
  cusci_array_release(u);
}

static void tri_case(const char *c, const cusci_linalg_solve_triangular_opts *o, int64_t n)
{
  char na[64], nb[64], nx[64];
  snprintf(na, sizeof na, "%s_a", c);
  snprintf(nb, sizeof nb, "%s_b", c);
  snprintf(nx, sizeof nx, "%s_x", c);
  cusci_array *a = fx(na), *b = fx(nb), *x = NULL;
  check(cusci_linalg_solve_triangular(ctx, a, b, o, &x), &x, nx, n, nx);
  cusci_array_release(a);
  cusci_array_release(b);
  cusci_array_release(x);
}

static void rank_case(const char *c, const cusci_linalg_matrix_rank_opts *o)
{
  char na[64], no[64];
  snprintf(na, sizeof na, "rank_%s_a", c);
  snprintf(no, sizeof no, "rank_%s_out", c);
  cusci_array *a = fx(na), *out = NULL;
  check(cusci_linalg_matrix_rank(ctx, a, o, &out), &out, no, 1, no);
  cusci_array_release(a);
  cusci_array_release(out);
}

int main(void)
{
  ctx = tk_host_ctx();
  plan(97);
  matmul_case("f64");
  matmul_case("c64");
  matmul_case("vec");
  binary_case(cusci_linalg_dot, "dot_nd", 4);
  binary_case(cusci_linalg_dot, "dot_mv", 4);
  binary_case(cusci_linalg_dot, "dot_vn", 4);
  binary_case(cusci_linalg_dot, "dot_vv", 4);
  binary_case(cusci_linalg_dot, "dot_mm", 4);
  binary_case(cusci_linalg_inner, "inner_nd", 4);
  binary_case(cusci_linalg_inner, "inner_vv", 5);
  binary_case(cusci_linalg_outer, "outer", 1);
  binary_case(cusci_linalg_kron, "kron_2d", 1);
  binary_case(cusci_linalg_kron, "kron_mixed", 1);
  binary_case(cusci_linalg_kron, "kron_3d", 1);

  solve_case("gen", NULL, 4);
  solve_case("vec", NULL, 4);
  solve_case("f32", NULL, 5);
  solve_case("trans", &(cusci_linalg_solve_opts){ .transposed = true }, 4);
  solve_case("pos", &(cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_POS, .lower = true }, 5);
  solve_case("sym", &(cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_SYM }, 4);
  solve_case("her", &(cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_HER, .lower = true }, 4);
  solve_case("posc", &(cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_POS }, 3);

  unary_case(cusci_linalg_inv, "inv_f64_a", "inv_f64_out", 4);
  unary_case(cusci_linalg_inv, "inv_c64_a", "inv_c64_out", 3);
  unary_case(cusci_linalg_det, "det_f64_a", "det_f64_out", 3);
  unary_case(cusci_linalg_det, "det_c128_a", "det_c128_out", 4);
  unary_case(cusci_linalg_det, "det_sing_a", "det_sing_out", 3);
  slogdet_case("f64", 3);
  slogdet_case("c128", 4);
  slogdet_case("sing", 2);
  slogdet_case("big", 40);
  slogdet_case("f32", 5);

  chol_case("upper", false, 4);
  chol_case("lower", true, 5);
  chol_case("f32", true, 3);

  lu_case("f64", 4);
  lu_case("c128", 3);
  lu_case("f32", 5);
  tri_case("tri_lower", &(cusci_linalg_solve_triangular_opts){ .lower = true }, 4);
  tri_case("tri_upper_c", &(cusci_linalg_solve_triangular_opts){ .trans = CUSCI_LINALG_TRANS_C }, 3);
  tri_case("tri_unit_t", &(cusci_linalg_solve_triangular_opts){ .lower = true, .unit_diagonal = true, .trans = CUSCI_LINALG_TRANS_T }, 5);
  plu_case("f64", false, false, 4);
  plu_case("idx", true, false, 3);
  plu_case("perm", false, true, 5);
  cho_case("lower", true, 4);
  cho_case("upper", false, 3);

  svd_case("svd_tall", 5);
  svd_case("svd_wide", 6);
  svd_case("svd_f32", 4);
  svd_case("svd_c64", 5);

  {
    cusci_array *a = fx("rank_a"), *out = NULL;
    check(cusci_linalg_matrix_rank(ctx, a, NULL, &out), &out, "rank_out", 1, "rank_out");
    cusci_array_release(a);
    cusci_array_release(out);
  }
  rank_case("herm", &(cusci_linalg_matrix_rank_opts){ .hermitian = true });
  rank_case("f32", NULL);
  rank_case("tol", &(cusci_linalg_matrix_rank_opts){ .has_tol = true, .tol = 1e-5 });

  {
    static const char *const pc[4] = { "tall", "wide_c", "rankdef", "f32" };
    for (int i = 0; i < 4; i++) {
      char na[64], no[64];
      snprintf(na, sizeof na, "pinv_%s_a", pc[i]);
      snprintf(no, sizeof no, "pinv_%s_out", pc[i]);
      cusci_array *a = fx(na), *out = NULL;
      check(cusci_linalg_pinv(ctx, a, NULL, &out), &out, no, 6, no);
      cusci_array_release(a);
      cusci_array_release(out);
    }
  }

  eigh_case("f64", false, 5);
  eigh_case("upper", true, 4);
  eigh_case("c64", false, 3);
  cusci_ctx_destroy(ctx);
  return done_testing();
}
