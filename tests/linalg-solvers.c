/*
 * tests/linalg-solvers.c: liblinalg's structured solvers, matrix functions
 * and context options on the host backend: values against SciPy
 * (tests/fixtures/fixtures_linalg_solve.py), properties that need no
 * reference (residuals, expm(a) expm(-a) = I), and every error path.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-util.h"

static cusci_ctx *ctx;

#define REL(a) (cusci_array_release(a), (a) = NULL)

static cusci_array *fx(const char *name) { return lu_fixture(ctx, "ls_", name); }

/* got against the fixture: shape and dtype, values within
 * c * n * eps * max(1, |want|). */
static void check(cusci_status st, cusci_array **gotp, const char *name, double c, const char *what)
{
  cusci_array *got = *gotp; /* read after the call that set it */
  cusci_array *want = fx(name);
  bool same = st == CUSCI_OK && lu_same_shape(got, want, false);
  double err = INFINITY, tol = 0, scale = 1;
  if (same) {
    err = lu_array_diff(ctx, got, ctx, want, &scale);
    tol = c * lu_eps(cusci_array_dtype(want)) * scale;
  }
  ok(same && err <= tol, "%s: %s, max error %.3g <= %.3g", what,
     st == CUSCI_OK ? (same ? "shape and dtype match" : "shape or dtype differ") : cusci_ctx_last_error(ctx), err, tol);
  cusci_array_release(want);
}

static void solve_fx(const char *c, cusci_linalg_solve_opts o)
{
  char na[64], nb[64], nx[64];
  snprintf(na, sizeof na, "%s_a", c);
  snprintf(nb, sizeof nb, "%s_b", c);
  snprintf(nx, sizeof nx, "%s_x", c);
  cusci_array *a = fx(na), *b = fx(nb), *x = NULL;
  cusci_status st = cusci_linalg_solve(ctx, a, b, &o, &x);
  check(st, &x, nx, 400, nx);
  REL(a), REL(b), REL(x);
}

static void banded_fx(const char *c, int64_t l, int64_t u, bool herm, bool lower)
{
  char na[64], nb[64], nx[64];
  snprintf(na, sizeof na, "%s_ab", c);
  snprintf(nb, sizeof nb, "%s_b", c);
  snprintf(nx, sizeof nx, "%s_x", c);
  cusci_array *a = fx(na), *b = fx(nb), *x = NULL;
  cusci_linalg_banded_opts o = { .lower = lower };
  cusci_status st = herm ? cusci_linalg_solveh_banded(ctx, a, b, &o, &x) : cusci_linalg_solve_banded(ctx, l, u, a, b, &o, &x);
  check(st, &x, nx, 400, nx);
  REL(a), REL(b), REL(x);
}

typedef cusci_status (*unary_fn)(cusci_ctx *, const cusci_array *, cusci_array **);

static void unary_fx(unary_fn f, const char *in, const char *outname, double c)
{
  cusci_array *a = fx(in), *x = NULL;
  check(f(ctx, a, &x), &x, outname, c, outname);
  REL(a), REL(x);
}

static void fixtures(void)
{
  solve_fx("diag", (cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_DIAGONAL });
  solve_fx("tri", (cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_TRIDIAGONAL, .transposed = true });
  solve_fx("tric", (cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_TRIDIAGONAL });
  solve_fx("band", (cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_BANDED });
  solve_fx("triu", (cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_UPPER_TRIANGULAR });
  banded_fx("sb", 1, 2, false, false);
  banded_fx("sbt", 1, 1, false, false);
  banded_fx("sbb", 2, 1, false, false);
  banded_fx("shu", 0, 0, true, false);
  banded_fx("shl", 0, 0, true, true);
  {
    cusci_array *c = fx("tz_c"), *r = fx("tz_r"), *b = fx("tz_b"), *x = NULL;
    check(cusci_linalg_solve_toeplitz(ctx, c, r, b, false, &x), &x, "tz_x", 400, "solve_toeplitz (c, r) float64");
    REL(c), REL(r), REL(b), REL(x);
    c = fx("tzh_c"), b = fx("tzh_b");
    check(cusci_linalg_solve_toeplitz(ctx, c, NULL, b, false, &x), &x, "tzh_x", 400, "solve_toeplitz c complex128");
    REL(c), REL(b), REL(x);
  }
  {
    const char *cases[3] = { "cc", "ccz", "ccs" };
    for (int i = 0; i < 3; i++) {
      char nc[32], nb[32], nx[32];
      snprintf(nc, sizeof nc, "%s_c", cases[i]);
      snprintf(nb, sizeof nb, "%s_b", cases[i]);
      snprintf(nx, sizeof nx, "%s_x", cases[i]);
      cusci_array *c = fx(nc), *b = fx(nb), *x = NULL;
      cusci_linalg_circulant_opts o = { .singular = i == 2 ? CUSCI_LINALG_SINGULAR_LSTSQ : CUSCI_LINALG_SINGULAR_RAISE };
      check(cusci_linalg_solve_circulant(ctx, c, b, &o, &x), &x, nx, 400, nx);
      REL(c), REL(b), REL(x);
    }
  }
  unary_fx(cusci_linalg_expm, "expm_small_a", "expm_small_out", 200);
  unary_fx(cusci_linalg_expm, "expm_big_a", "expm_big_out", 2000);
  unary_fx(cusci_linalg_expm, "expm_c_a", "expm_c_out", 200);
  unary_fx(cusci_linalg_expm, "expm_b_a", "expm_b_out", 200);
  unary_fx(cusci_linalg_expm, "expm_1_a", "expm_1_out", 16);
  unary_fx(cusci_linalg_cosm, "fun_a", "fun_cosm", 200);
  unary_fx(cusci_linalg_sinm, "fun_a", "fun_sinm", 200);
  unary_fx(cusci_linalg_tanm, "fun_a", "fun_tanm", 400);
  unary_fx(cusci_linalg_coshm, "fun_a", "fun_coshm", 200);
  unary_fx(cusci_linalg_sinhm, "fun_a", "fun_sinhm", 200);
  unary_fx(cusci_linalg_tanhm, "fun_a", "fun_tanhm", 400);
  unary_fx(cusci_linalg_cosm, "func_a", "func_cosm", 200);
  unary_fx(cusci_linalg_sinm, "func_a", "func_sinm", 200);
}
#define N_FIXTURES 28

/* max |a x - b| / (|a| |x| + |b|) with a dense (n, n), x and b (n, k). */
static double residual(const lu_c *a, const lu_c *x, const lu_c *b, int64_t n, int64_t k)
{
  lu_c *ax = malloc(sizeof *ax * (size_t)(n * k));
  lu_gemm('N', a, x, ax, n, k, n);
  double r = lu_maxdiff(ax, b, n * k), s = lu_maxabs(a, n * n) * lu_maxabs(x, n * k) * (double)n + lu_maxabs(b, n * k);
  free(ax);
  return r / s;
}

static void properties(uint64_t *seed)
{
  /* solve_banded: a random band (3 below, 2 above), n = 40, 2 columns,
   * in each dtype, against the dense matrix. */
  for (int d = 0; d < 4; d++) {
    cusci_dtype dt = lu_dtypes[d];
    int64_t n = 40, l = 3, u = 2, k = 2, rows = l + u + 1, sab[2] = { rows, n }, sb[2] = { n, k };
    lu_c *ab = lu_rand_values(seed, dt, 2, sab, 0), *b = lu_rand_values(seed, dt, 2, sb, 0);
    lu_c *a = calloc((size_t)(n * n), sizeof *a);
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = j - u < 0 ? 0 : j - u; i < n && i <= j + l; i++)
        a[i * n + j] = ab[(u + i - j) * n + j];
    cusci_array *A = lu_array(ctx, dt, 2, sab, ab), *B = lu_array(ctx, dt, 2, sb, b), *X = NULL;
    cusci_status st = cusci_linalg_solve_banded(ctx, l, u, A, B, NULL, &X);
    double r = INFINITY;
    if (st == CUSCI_OK) {
      lu_c *x = lu_values(ctx, X), *bb = lu_values(ctx, B), *aa = lu_values(ctx, A);
      for (int64_t j = 0; j < n; j++) /* the dense matrix in the dtype's precision */
        for (int64_t i = j - u < 0 ? 0 : j - u; i < n && i <= j + l; i++)
          a[i * n + j] = aa[(u + i - j) * n + j];
      r = residual(a, x, bb, n, k);
      free(x), free(bb), free(aa);
    }
    ok(st == CUSCI_OK && r < 64 * lu_eps(dt) * n, "solve_banded (3, 2) n=40 %s: residual %.3g", cusci_dtype_name(dt), r);
    REL(A), REL(B), REL(X);
    free(ab), free(b), free(a);
  }
  /* solve_toeplitz against the dense toeplitz matrix, n = 30, k = 3. */
  for (int d = 0; d < 4; d++) {
    cusci_dtype dt = lu_dtypes[d];
    int64_t n = 30, k = 3, sv[1] = { n }, sb[2] = { n, k };
    lu_c *c = lu_rand_values(seed, dt, 1, sv, 0), *r = lu_rand_values(seed, dt, 1, sv, 0), *b = lu_rand_values(seed, dt, 2, sb, 0);
    c[0] = 3.0 * n;
    cusci_array *C = lu_array(ctx, dt, 1, sv, c), *R = lu_array(ctx, dt, 1, sv, r), *B = lu_array(ctx, dt, 2, sb, b), *X = NULL, *T = NULL;
    cusci_status st = cusci_linalg_solve_toeplitz(ctx, C, R, B, false, &X);
    if (st == CUSCI_OK)
      st = cusci_linalg_toeplitz(ctx, C, R, &T);
    double res = INFINITY;
    if (st == CUSCI_OK) {
      lu_c *x = lu_values(ctx, X), *bb = lu_values(ctx, B), *t = lu_values(ctx, T);
      res = residual(t, x, bb, n, k);
      free(x), free(bb), free(t);
    }
    ok(st == CUSCI_OK && res < 64 * lu_eps(dt) * n, "solve_toeplitz n=30 k=3 %s: residual %.3g", cusci_dtype_name(dt), res);
    REL(C), REL(R), REL(B), REL(X), REL(T);
    free(c), free(r), free(b);
  }
  /* solve_circulant against the dense circulant matrix, n = 24, k = 2. */
  for (int d = 0; d < 4; d++) {
    cusci_dtype dt = lu_dtypes[d];
    int64_t n = 24, k = 2, sv[1] = { n }, sb[2] = { n, k };
    lu_c *c = lu_rand_values(seed, dt, 1, sv, 0), *b = lu_rand_values(seed, dt, 2, sb, 0);
    c[0] += 9.0;
    cusci_array *C = lu_array(ctx, dt, 1, sv, c), *B = lu_array(ctx, dt, 2, sb, b), *X = NULL, *M = NULL;
    cusci_status st = cusci_linalg_solve_circulant(ctx, C, B, NULL, &X);
    if (st == CUSCI_OK)
      st = cusci_linalg_circulant(ctx, C, &M);
    double res = INFINITY;
    if (st == CUSCI_OK) {
      lu_c *x = lu_values(ctx, X), *bb = lu_values(ctx, B), *m = lu_values(ctx, M);
      res = residual(m, x, bb, n, k);
      free(x), free(bb), free(m);
    }
    ok(st == CUSCI_OK && cusci_array_dtype(X) == dt && res < 64 * lu_eps(dt) * n, "solve_circulant n=24 k=2 %s: residual %.3g", cusci_dtype_name(dt),
       res);
    REL(C), REL(B), REL(X), REL(M);
    free(c), free(b);
  }
  /* expm(a) expm(-a) = I on a batch with norms from 0.01 to 30. */
  for (int d = 0; d < 4; d++) {
    cusci_dtype dt = lu_dtypes[d];
    int64_t n = 7, sa[3] = { 4, n, n };
    lu_c *a = lu_rand_values(seed, dt, 3, sa, 0);
    double sc[4] = { 0.004, 0.3, 1.1, 4.0 };
    for (int64_t t = 0; t < 4; t++)
      for (int64_t i = 0; i < n * n; i++)
        a[t * n * n + i] *= sc[t];
    lu_c *ma = malloc(sizeof *ma * (size_t)(4 * n * n));
    for (int64_t i = 0; i < 4 * n * n; i++)
      ma[i] = -a[i];
    cusci_array *A = lu_array(ctx, dt, 3, sa, a), *MA = lu_array(ctx, dt, 3, sa, ma), *E = NULL, *F = NULL, *P = NULL;
    cusci_status st = cusci_linalg_expm(ctx, A, &E);
    if (st == CUSCI_OK)
      st = cusci_linalg_expm(ctx, MA, &F);
    if (st == CUSCI_OK)
      st = cusci_linalg_matmul(ctx, E, F, &P);
    double err = INFINITY;
    if (st == CUSCI_OK) {
      lu_c *p = lu_values(ctx, P), *e = lu_values(ctx, E), *f = lu_values(ctx, F);
      err = 0;
      for (int64_t t = 0; t < 4; t++) {
        double s = lu_maxabs(e + t * n * n, n * n) * lu_maxabs(f + t * n * n, n * n) * n;
        for (int64_t i = 0; i < n; i++)
          for (int64_t j = 0; j < n; j++)
            err = fmax(err, cabs(p[t * n * n + i * n + j] - (i == j ? 1 : 0)) / s);
      }
      free(p), free(e), free(f);
    }
    ok(st == CUSCI_OK && err < 1000 * lu_eps(dt), "expm(a) expm(-a) = I, batch of 4 %s: %.3g", cusci_dtype_name(dt), err);
    REL(A), REL(MA), REL(E), REL(F), REL(P);
    free(a), free(ma);
  }
}
#define N_PROPERTIES 16

/* st is `want` and the message holds `part`. */
static void err_is(cusci_status st, cusci_status want, const char *part, const char *what)
{
  const char *msg = cusci_ctx_last_error(ctx);
  ok(st == want && (!part || strstr(msg, part)), "%s: %s (%s)", what, cusci_status_name(st), msg);
}

static void errors(void)
{
  int64_t s33[2] = { 3, 4 }, s4[1] = { 4 }, s3[1] = { 3 }, s44[2] = { 4, 4 }, s34[2] = { 3, 4 };
  double v[16] = { 1.5, 2.25, 0, 0, 3.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  cusci_array *ab = NULL, *b = NULL, *b3 = NULL, *x = NULL, *sq = NULL, *nan = NULL;
  cusci_array_from_host(ctx, v, 2, s33, CUSCI_FLOAT64, &ab);
  double bv[4] = { 1, 2, 3, 4 };
  cusci_array_from_host(ctx, bv, 1, s4, CUSCI_FLOAT64, &b);
  cusci_array_from_host(ctx, bv, 1, s3, CUSCI_FLOAT64, &b3);
  cusci_array_from_host(ctx, v, 2, s34, CUSCI_FLOAT64, &sq);

  err_is(cusci_linalg_solve_banded(ctx, 1, 2, ab, b, NULL, &x), CUSCI_ERR_SHAPE, "rows", "solve_banded: ab rows != l + u + 1");
  err_is(cusci_linalg_solve_banded(ctx, -1, 3, ab, b, NULL, &x), CUSCI_ERR_VALUE, NULL, "solve_banded: l < 0");
  err_is(cusci_linalg_solve_banded(ctx, 1, 1, ab, b3, NULL, &x), CUSCI_ERR_SHAPE, NULL, "solve_banded: b rows");
  /* ab with a zero column: singular. */
  err_is(cusci_linalg_solve_banded(ctx, 1, 1, ab, b, NULL, &x), CUSCI_ERR_LINALG, "singular", "solve_banded: singular");
  err_is(cusci_linalg_solve_banded(ctx, 1, 1, NULL, b, NULL, &x), CUSCI_ERR_NULL_POINTER, NULL, "solve_banded: ab NULL");
  /* solveh_banded: a negative diagonal. */
  {
    double hv[8] = { 0.5, 0.5, 0.5, 0, 2.0, -3.0, 2.0, 2.0 };
    int64_t s24[2] = { 2, 4 };
    cusci_array *h = NULL;
    cusci_array_from_host(ctx, hv, 2, s24, CUSCI_FLOAT64, &h);
    err_is(cusci_linalg_solveh_banded(ctx, h, b, NULL, &x), CUSCI_ERR_LINALG, "2-th leading minor", "solveh_banded: not positive definite");
    hv[1] = NAN;
    REL(h);
    cusci_array_from_host(ctx, hv, 2, s24, CUSCI_FLOAT64, &h);
    err_is(cusci_linalg_solveh_banded(ctx, h, b, NULL, &x), CUSCI_ERR_VALUE, "inf", "solveh_banded: NaN");
    REL(h);
  }
  /* solve_toeplitz: c[0] = 0, a singular principal minor. */
  {
    double cv[4] = { 0, 1, 2, 3 };
    cusci_array *c = NULL;
    cusci_array_from_host(ctx, cv, 1, s4, CUSCI_FLOAT64, &c);
    err_is(cusci_linalg_solve_toeplitz(ctx, c, NULL, b, false, &x), CUSCI_ERR_LINALG, "singular principal minor", "solve_toeplitz: singular");
    err_is(cusci_linalg_solve_toeplitz(ctx, c, NULL, b3, false, &x), CUSCI_ERR_SHAPE, NULL, "solve_toeplitz: lengths");
    err_is(cusci_linalg_solve_toeplitz(ctx, sq, NULL, b, false, &x), CUSCI_ERR_NDIM, NULL, "solve_toeplitz: c 2-D");
    /* solve_circulant: c = (1, -1, 1, -1) has eigenvalue 0. */
    double zv[4] = { 1, -1, 1, -1 };
    cusci_array *z = NULL;
    cusci_array_from_host(ctx, zv, 1, s4, CUSCI_FLOAT64, &z);
    err_is(cusci_linalg_solve_circulant(ctx, z, b, NULL, &x), CUSCI_ERR_LINALG, "near singular", "solve_circulant: singular, raise");
    err_is(cusci_linalg_solve_circulant(ctx, z, b, &(cusci_linalg_circulant_opts){ .singular = 7 }, &x), CUSCI_ERR_INVALID_ARGUMENT, NULL,
           "solve_circulant: singular outside the enum");
    err_is(cusci_linalg_solve_circulant(ctx, c, b3, NULL, &x), CUSCI_ERR_SHAPE, NULL, "solve_circulant: lengths");
    REL(c), REL(z);
  }
  /* solve's structured kinds. */
  {
    double dv[16] = { 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4 };
    cusci_array *d = NULL, *dc = NULL;
    cusci_array_from_host(ctx, dv, 2, s44, CUSCI_FLOAT64, &d);
    err_is(cusci_linalg_solve(ctx, d, b, &(cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_DIAGONAL }, &x), CUSCI_ERR_LINALG,
           "U[2, 2]", "solve diagonal: a zero on the diagonal");
    err_is(cusci_linalg_solve(ctx, d, b, &(cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_TRIDIAGONAL }, &x), CUSCI_ERR_LINALG,
           "singular", "solve tridiagonal: singular");
    err_is(cusci_linalg_solve(ctx, d, b, &(cusci_linalg_solve_opts){ .assume_a = 99 }, &x), CUSCI_ERR_INVALID_ARGUMENT, NULL,
           "solve: assume_a outside the enum");
    cusci_array_astype(ctx, d, CUSCI_COMPLEX128, true, &dc);
    err_is(cusci_linalg_solve(ctx, dc, b, &(cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_TRIDIAGONAL, .transposed = true }, &x),
           CUSCI_ERR_NOT_SUPPORTED, NULL, "solve tridiagonal: transposed complex");
    REL(d), REL(dc);
  }
  /* expm and friends. */
  err_is(cusci_linalg_expm(ctx, sq, &x), CUSCI_ERR_SHAPE, "square", "expm: not square");
  err_is(cusci_linalg_expm(ctx, b, &x), CUSCI_ERR_NDIM, NULL, "expm: 1-D");
  {
    double nv[4] = { 1, NAN, 0, 1 };
    int64_t s22[2] = { 2, 2 };
    cusci_array_from_host(ctx, nv, 2, s22, CUSCI_FLOAT64, &nan);
    err_is(cusci_linalg_expm(ctx, nan, &x), CUSCI_ERR_VALUE, "inf", "expm: NaN");
    err_is(cusci_linalg_tanhm(ctx, nan, &x), CUSCI_ERR_VALUE, "inf", "tanhm: NaN");
    err_is(cusci_linalg_cosm(ctx, NULL, &x), CUSCI_ERR_NULL_POINTER, NULL, "cosm: a NULL");
  }
  ok(x == NULL, "no failed call wrote an output");
  REL(ab), REL(b), REL(b3), REL(sq), REL(nan);

  /* Context options on the host. */
  err_is(cusci_linalg_set_math_mode(ctx, 5), CUSCI_ERR_INVALID_ARGUMENT, NULL, "set_math_mode: outside the enum");
  err_is(cusci_linalg_set_check(ctx, -1), CUSCI_ERR_INVALID_ARGUMENT, NULL, "set_check: outside the enum");
  ok(cusci_linalg_set_math_mode(NULL, CUSCI_LINALG_MATH_TF32) == CUSCI_ERR_NULL_POINTER && cusci_linalg_check(NULL) == CUSCI_ERR_NULL_POINTER,
     "options: NULL context");
  ok(cusci_linalg_get_math_mode(ctx) == CUSCI_LINALG_MATH_DEFAULT && cusci_linalg_get_check(ctx) == CUSCI_LINALG_CHECK_IMMEDIATE,
     "options: defaults");
  {
    /* TF32 on the host: accepted, no effect (float32 matmul exact on
     * integers up to 2^24, which TF32 would round). */
    float av[4] = { 4097, 3, 1, 8191 }, bvv[4] = { 4099, 1, 5, 4095 };
    int64_t s22[2] = { 2, 2 };
    cusci_array *A = NULL, *B = NULL, *C = NULL;
    cusci_array_from_host(ctx, av, 2, s22, CUSCI_FLOAT32, &A);
    cusci_array_from_host(ctx, bvv, 2, s22, CUSCI_FLOAT32, &B);
    cusci_status st = cusci_linalg_set_math_mode(ctx, CUSCI_LINALG_MATH_TF32);
    if (st == CUSCI_OK)
      st = cusci_linalg_matmul(ctx, A, B, &C);
    float cv[4] = { 0 };
    if (st == CUSCI_OK)
      cusci_array_to_host(ctx, C, cv, sizeof cv);
    ok(st == CUSCI_OK && cusci_linalg_get_math_mode(ctx) == CUSCI_LINALG_MATH_TF32 && cv[0] == 4097.0f * 4099 + 3.0f * 5,
       "set_math_mode TF32 on the host: stored, products unchanged (%.1f)", cv[0]);
    cusci_linalg_set_math_mode(ctx, CUSCI_LINALG_MATH_DEFAULT);
    REL(A), REL(B), REL(C);
  }
  {
    /* Deferred on the host: failures are still reported at once. */
    double dv[4] = { 1, 2, 2, 4 };
    int64_t s22[2] = { 2, 2 }, s2[1] = { 2 };
    cusci_array *A = NULL, *B = NULL;
    cusci_array_from_host(ctx, dv, 2, s22, CUSCI_FLOAT64, &A);
    cusci_array_from_host(ctx, dv, 1, s2, CUSCI_FLOAT64, &B);
    cusci_linalg_set_check(ctx, CUSCI_LINALG_CHECK_DEFERRED);
    err_is(cusci_linalg_solve(ctx, A, B, NULL, &x), CUSCI_ERR_LINALG, "singular", "deferred on the host: solve still reports");
    ok(cusci_linalg_check(ctx) == CUSCI_OK && cusci_linalg_get_check(ctx) == CUSCI_LINALG_CHECK_DEFERRED, "check on the host: nothing pending");
    cusci_linalg_set_check(ctx, CUSCI_LINALG_CHECK_IMMEDIATE);
    REL(A), REL(B);
  }
}
#define N_ERRORS 30

int main(void)
{
  ctx = tk_host_ctx();
  plan(N_FIXTURES + N_PROPERTIES + N_ERRORS);
  uint64_t seed = 0x5eed1e;
  fixtures();
  properties(&seed);
  errors();
  cusci_ctx_destroy(ctx);
  return done_testing();
}
