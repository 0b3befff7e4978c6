/*
 * tests/linalg-funm.c: sqrtm, logm and funm on the host backend: values
 * against SciPy (tests/fixtures/fixtures_linalg_fun.py), properties that
 * need no reference (sqrtm(a)^2 = a, expm(logm(a)) = a, funm(exp) = expm)
 * and every error path.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-util.h"

static cusci_ctx *ctx;

#define REL(a) (cusci_array_release(a), (a) = NULL)

static cusci_array *fx(const char *name) { return lu_fixture(ctx, "lf_", name); }

/* got against the fixture: shape, dtype want_dt (SciPy's, except where the
 * header says cusci keeps the input's precision), values within
 * c * eps(want_dt) * max(1, |want|). */
static void check(cusci_status st, cusci_array **gotp, const char *name, cusci_dtype want_dt, double c, const char *what)
{
  cusci_array *got = *gotp; /* read after the call that set it */
  cusci_array *want = fx(name);
  bool same = st == CUSCI_OK && lu_same_shape(got, want, true) && cusci_array_dtype(got) == want_dt;
  double err = INFINITY, tol = 0, scale = 1;
  if (same) {
    err = lu_array_diff(ctx, got, ctx, want, &scale);
    tol = c * lu_eps(want_dt) * scale;
  }
  ok(same && err <= tol, "%s: %s, max error %.3g <= %.3g", what,
     st == CUSCI_OK ? (same ? "shape and dtype match" : "shape or dtype differ") : cusci_ctx_last_error(ctx), err, tol);
  cusci_array_release(want);
}

static double complex f_sin(double complex z, void *user)
{
  (void)user;
  return csin(z);
}

static double complex f_exp(double complex z, void *user)
{
  int *calls = user;
  if (calls)
    ++*calls;
  return cexp(z);
}

/* Each case's input dtype and whether SciPy's results are complex. */
static const struct {
  const char *name;
  cusci_dtype in, sqrt_dt, log_dt;
  double c;
} cases[] = {
  { "f64", CUSCI_FLOAT64, CUSCI_FLOAT64, CUSCI_FLOAT64, 200 },
  { "f32", CUSCI_FLOAT32, CUSCI_FLOAT32, CUSCI_FLOAT32, 200 }, /* SciPy's logm gives complex128 here */
  { "c128", CUSCI_COMPLEX128, CUSCI_COMPLEX128, CUSCI_COMPLEX128, 200 },
  { "c64", CUSCI_COMPLEX64, CUSCI_COMPLEX64, CUSCI_COMPLEX64, 200 }, /* SciPy's logm gives complex128 here */
  { "batch", CUSCI_FLOAT64, CUSCI_FLOAT64, CUSCI_FLOAT64, 200 },
  { "big", CUSCI_FLOAT64, CUSCI_FLOAT64, CUSCI_FLOAT64, 2000 },
  { "rot", CUSCI_FLOAT64, CUSCI_FLOAT64, CUSCI_FLOAT64, 200 },
  { "neg", CUSCI_FLOAT64, CUSCI_COMPLEX128, CUSCI_COMPLEX128, 200 },
  { "one", CUSCI_FLOAT64, CUSCI_FLOAT64, CUSCI_FLOAT64, 16 },
  { "triu", CUSCI_FLOAT64, CUSCI_FLOAT64, CUSCI_FLOAT64, 200 },
  { "sing", CUSCI_FLOAT64, CUSCI_FLOAT64, CUSCI_FLOAT64, 200 },
  { "int", CUSCI_INT64, CUSCI_FLOAT64, CUSCI_FLOAT64, 200 },
};
#define N_CASES ((int)(sizeof cases / sizeof *cases))
#define N_FUNM 5
#define N_FIXTURES (2 * N_CASES + 2 * N_FUNM)

static void fixtures(void)
{
  char na[64], nw[64];
  for (int i = 0; i < N_CASES; i++) {
    snprintf(na, sizeof na, "sqrtm_%s_a", cases[i].name);
    cusci_array *a = fx(na), *x = NULL;
    snprintf(nw, sizeof nw, "sqrtm_%s_out", cases[i].name);
    check(cusci_linalg_sqrtm(ctx, a, &x, NULL), &x, nw, cases[i].sqrt_dt, cases[i].c, nw);
    REL(x);
    snprintf(nw, sizeof nw, "logm_%s_out", cases[i].name);
    check(cusci_linalg_logm(ctx, a, &x, NULL), &x, nw, cases[i].log_dt, cases[i].c, nw);
    REL(x), REL(a);
  }
  const char *fcases[N_FUNM] = { "f64", "c128", "rot", "batch", "f32" };
  const cusci_dtype fdt[N_FUNM] = { CUSCI_FLOAT64, CUSCI_COMPLEX128, CUSCI_FLOAT64, CUSCI_FLOAT64, CUSCI_FLOAT32 };
  for (int i = 0; i < N_FUNM; i++) {
    snprintf(na, sizeof na, "sqrtm_%s_a", fcases[i]);
    cusci_array *a = fx(na), *x = NULL;
    snprintf(nw, sizeof nw, "funm_sin_%s_out", fcases[i]);
    check(cusci_linalg_funm(ctx, a, f_sin, NULL, &x, NULL), &x, nw, fdt[i], 400, nw);
    REL(x);
    snprintf(nw, sizeof nw, "funm_exp_%s_out", fcases[i]);
    check(cusci_linalg_funm(ctx, a, f_exp, NULL, &x, NULL), &x, nw, fdt[i], 400, nw);
    REL(x), REL(a);
  }
}

/* max |x - y| / max(1, max |y|) between two arrays' values. */
static double rel_diff(const cusci_array *x, const cusci_array *y)
{
  int64_t n = cusci_array_size(y);
  lu_c *a = lu_values(ctx, x), *b = lu_values(ctx, y);
  double s = lu_maxabs(b, n), e = lu_maxdiff(a, b, n) / (s > 1 ? s : 1);
  free(a), free(b);
  return e;
}

#define N_PROPERTIES (4 * 4 + 4 + 4)

static void properties(uint64_t *seed)
{
  /* A batch of 2 x 3 matrices of 9, 33 and 70 (blocked) with eigenvalues
   * off the negative real axis: sqrtm(a)^2 = a, expm(logm(a)) = a,
   * funm(a, exp) = expm(a), and sqrtm's errest against its definition. */
  const int64_t ns[2] = { 9, 70 };
  for (int d = 0; d < 4; d++)
    for (int k = 0; k < 2; k++) {
      cusci_dtype dt = lu_dtypes[d];
      int64_t n = ns[k], sh[3] = { 3, n, n };
      lu_c *v = lu_rand_values(seed, dt, 3, sh, 2.5 * sqrt((double)n));
      cusci_array *a = lu_array(ctx, dt, 3, sh, v), *r = NULL, *r2 = NULL, *l = NULL, *e = NULL, *est = NULL;
      free(v);
      double tol = 500 * n * lu_eps(dt);
      cusci_status st = cusci_linalg_sqrtm(ctx, a, &r, &est);
      if (st == CUSCI_OK)
        st = cusci_linalg_matmul(ctx, r, r, &r2);
      double err = st == CUSCI_OK ? rel_diff(r2, a) : INFINITY;
      bool est_ok = st == CUSCI_OK && cusci_array_ndim(est) == 1 && cusci_array_shape(est)[0] == 3 && cusci_array_dtype(est) == CUSCI_FLOAT64;
      if (est_ok) {
        double ev[3];
        cusci_array_to_host(ctx, est, ev, sizeof ev);
        for (int i = 0; i < 3; i++)
          est_ok = est_ok && ev[i] >= 0 && ev[i] < tol * tol * 10 * n;
      }
      ok(st == CUSCI_OK && cusci_array_dtype(r) == dt && err <= tol && est_ok, "sqrtm(a)^2 = a, %s 3 x %lldx%lld: %.3g <= %.3g, errest %s", cusci_dtype_name(dt),
         (long long)n, (long long)n, err, tol, est_ok ? "sane" : "wrong");
      st = cusci_linalg_logm(ctx, a, &l, NULL);
      if (st == CUSCI_OK)
        st = cusci_linalg_expm(ctx, l, &e);
      err = st == CUSCI_OK ? rel_diff(e, a) : INFINITY;
      ok(st == CUSCI_OK && cusci_array_dtype(l) == dt && err <= 4 * tol, "expm(logm(a)) = a, %s 3 x %lldx%lld: %.3g <= %.3g", cusci_dtype_name(dt),
         (long long)n, (long long)n, err, 4 * tol);
      REL(a), REL(r), REL(r2), REL(l), REL(e), REL(est);
    }
  {
    /* funm with exp against expm, the callback called once per eigenvalue. */
    int64_t sh[3] = { 2, 6, 6 };
    lu_c *v = lu_rand_values(seed, CUSCI_FLOAT64, 3, sh, 0.7);
    for (int i = 0; i < 72; i++)
      v[i] *= 0.5;
    cusci_array *a = lu_array(ctx, CUSCI_FLOAT64, 3, sh, v), *f = NULL, *e = NULL, *est = NULL;
    free(v);
    int calls = 0;
    cusci_status st = cusci_linalg_funm(ctx, a, f_exp, &calls, &f, &est);
    if (st == CUSCI_OK)
      st = cusci_linalg_expm(ctx, a, &e);
    double err = st == CUSCI_OK ? rel_diff(f, e) : INFINITY, ev[2] = { -1, -1 };
    if (st == CUSCI_OK)
      cusci_array_to_host(ctx, est, ev, sizeof ev);
    ok(st == CUSCI_OK && err < 1e-10 && calls == 12, "funm(a, exp) = expm(a), batch of 2 6x6: %.3g, %d calls", err, calls);
    ok(ev[0] >= DBL_EPSILON && ev[0] <= 1 && ev[1] >= DBL_EPSILON && ev[1] <= 1, "funm errest in [eps, 1]: %.3g %.3g", ev[0], ev[1]);
    REL(a), REL(f), REL(e), REL(est);
  }
  {
    /* funm on a repeated eigenvalue: the simple recurrence gets a
     * non-normal [[2, 1], [0, 2]] wrong for exp (true f_01 = e^2), and the
     * error estimate says 1. */
    double v[4] = { 2, 1, 0, 2 }, ev = 0;
    int64_t sh[2] = { 2, 2 };
    cusci_array *a = NULL, *f = NULL, *est = NULL;
    cusci_array_from_host(ctx, v, 2, sh, CUSCI_FLOAT64, &a);
    cusci_status st = cusci_linalg_funm(ctx, a, f_exp, NULL, &f, &est);
    if (st == CUSCI_OK)
      cusci_array_to_host(ctx, est, &ev, sizeof ev);
    ok(st == CUSCI_OK && cusci_array_ndim(est) == 0 && ev == 1, "funm on a defective matrix: errest %.3g == 1", ev);
    REL(a), REL(f), REL(est);
  }
  {
    /* logm of the nilpotent [[0, 1], [0, 0]]: as SciPy, its zero
     * eigenvalues become 1e-20, giving log(1e-20) on the diagonal and
     * 1 / 1e-20 above it; errest is returned, not a failure. */
    double v[4] = { 0, 1, 0, 0 }, lv[4] = { 0 }, ev = -1;
    int64_t sh[2] = { 2, 2 };
    cusci_array *a = NULL, *l = NULL, *est = NULL;
    cusci_array_from_host(ctx, v, 2, sh, CUSCI_FLOAT64, &a);
    cusci_status st = cusci_linalg_logm(ctx, a, &l, &est);
    if (st == CUSCI_OK)
      cusci_array_to_host(ctx, l, lv, sizeof lv), cusci_array_to_host(ctx, est, &ev, sizeof ev);
    ok(st == CUSCI_OK && fabs(lv[0] - log(1e-20)) < 1e-12 && fabs(lv[1] / 1e20 - 1) < 1e-12 && lv[2] == 0 && ev >= 0,
       "logm of a singular matrix: %s, [[%.6g, %.6g], [%g, %.6g]], errest %.3g", cusci_status_name(st), lv[0], lv[1], lv[2], lv[3], ev);
    REL(a), REL(l), REL(est);
  }
  {
    /* Empty stacks keep their shape and the real dtype, as SciPy's. */
    int64_t s0[3] = { 0, 3, 3 }, s1[3] = { 2, 0, 0 };
    cusci_array *a = NULL, *b = NULL, *x = NULL, *y = NULL, *est = NULL;
    cusci_array_zeros(ctx, 3, s0, CUSCI_FLOAT64, &a);
    cusci_array_zeros(ctx, 3, s1, CUSCI_FLOAT32, &b);
    cusci_status st = cusci_linalg_sqrtm(ctx, a, &x, &est), st2 = cusci_linalg_logm(ctx, b, &y, NULL);
    ok(st == CUSCI_OK && st2 == CUSCI_OK && cusci_array_size(x) == 0 && cusci_array_shape(x)[0] == 0 && cusci_array_dtype(x) == CUSCI_FLOAT64 &&
           cusci_array_size(est) == 0 && cusci_array_shape(y)[0] == 2 && cusci_array_dtype(y) == CUSCI_FLOAT32,
       "empty stacks: %s, %s", cusci_status_name(st), cusci_status_name(st2));
    REL(a), REL(b), REL(x), REL(y), REL(est);
  }
  {
    /* 1x1 with a negative entry: sqrtm(-4) = 2i, logm(-4) = log 4 + i pi
     * (off the principal branch, through the Padé approximant). */
    double v = -4;
    int64_t sh[2] = { 1, 1 };
    cusci_array *a = NULL, *x = NULL, *l = NULL;
    cusci_array_from_host(ctx, &v, 2, sh, CUSCI_FLOAT64, &a);
    cusci_status st = cusci_linalg_sqrtm(ctx, a, &x, NULL), st2 = cusci_linalg_logm(ctx, a, &l, NULL);
    lu_c xv = 0, lv = 0;
    if (st == CUSCI_OK && st2 == CUSCI_OK && cusci_array_dtype(x) == CUSCI_COMPLEX128 && cusci_array_dtype(l) == CUSCI_COMPLEX128)
      cusci_array_to_host(ctx, x, &xv, sizeof xv), cusci_array_to_host(ctx, l, &lv, sizeof lv);
    ok(cabs(xv - 2 * I) < 1e-15 && cabs(lv - (log(4.0) + 3.14159265358979323846 * I)) < 1e-13, "1x1 negative: sqrtm %g%+gi, logm %g%+gi",
       creal(xv), cimag(xv), creal(lv), cimag(lv));
    REL(a), REL(x), REL(l);
  }
  {
    /* A real result into a given complex128 out, and into float64. */
    double v[4] = { 4, 1, 0.5, 3 };
    int64_t sh[2] = { 2, 2 };
    cusci_array *a = NULL, *xc = NULL, *xr = NULL, *x = NULL;
    cusci_array_from_host(ctx, v, 2, sh, CUSCI_FLOAT64, &a);
    cusci_array_empty(ctx, 2, sh, CUSCI_COMPLEX128, &xc);
    cusci_array_empty(ctx, 2, sh, CUSCI_FLOAT64, &xr);
    cusci_array *keep_c = xc, *keep_r = xr;
    cusci_status st = cusci_linalg_sqrtm(ctx, a, &xc, NULL), st2 = cusci_linalg_sqrtm(ctx, a, &xr, NULL), st3 = cusci_linalg_sqrtm(ctx, a, &x, NULL);
    double e1 = INFINITY, e2 = INFINITY;
    if (st == CUSCI_OK && st2 == CUSCI_OK && st3 == CUSCI_OK)
      e1 = rel_diff(xc, x), e2 = rel_diff(xr, x);
    ok(xc == keep_c && xr == keep_r && e1 == 0 && e2 == 0, "sqrtm into given complex128 and float64 outs: %g %g", e1, e2);
    REL(a), REL(xc), REL(xr), REL(x);
  }
  {
    /* A complex result refused by a float64 out, which stays as it was. */
    double v[4] = { -4, 1, 0, 3 };
    int64_t sh[2] = { 2, 2 };
    cusci_array *a = NULL, *xr = NULL;
    cusci_array_from_host(ctx, v, 2, sh, CUSCI_FLOAT64, &a);
    cusci_array_zeros(ctx, 2, sh, CUSCI_FLOAT64, &xr);
    cusci_status st = cusci_linalg_sqrtm(ctx, a, &xr, NULL);
    double got[4] = { 1, 1, 1, 1 };
    cusci_array_to_host(ctx, xr, got, sizeof got);
    ok(st == CUSCI_ERR_DTYPE && got[0] == 0 && got[3] == 0, "sqrtm: complex result into a float64 out: %s (%s)", cusci_status_name(st),
       cusci_ctx_last_error(ctx));
    REL(a), REL(xr);
  }
}

static void err_is(cusci_status st, cusci_status want, const char *part, const char *what)
{
  const char *msg = cusci_ctx_last_error(ctx);
  ok(st == want && (!part || strstr(msg, part)), "%s: %s (%s)", what, cusci_status_name(st), msg);
}

#define N_ERRORS 15

static void errors(void)
{
  int64_t s34[2] = { 3, 4 }, s4[1] = { 4 }, s44[2] = { 4, 4 }, s33[2] = { 3, 3 };
  double v[16] = { 1.5, 2.25, 0, 0, 3.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  cusci_array *rect = NULL, *vec = NULL, *nan = NULL, *sq = NULL, *half = NULL, *x = NULL, *wrong = NULL, *est = NULL;
  cusci_array_from_host(ctx, v, 2, s34, CUSCI_FLOAT64, &rect);
  cusci_array_from_host(ctx, v, 1, s4, CUSCI_FLOAT64, &vec);
  v[5] = NAN;
  cusci_array_from_host(ctx, v, 2, s44, CUSCI_FLOAT64, &nan);
  double w[16] = { 4, 1, 0, 0, 1, 5, 0, 0, 0, 0, 6, 1, 0, 0, 1, 7 };
  cusci_array_from_host(ctx, w, 2, s44, CUSCI_FLOAT64, &sq);
  cusci_array_astype(ctx, sq, CUSCI_FLOAT16, true, &half);
  err_is(cusci_linalg_sqrtm(ctx, rect, &x, NULL), CUSCI_ERR_SHAPE, "square", "sqrtm: not square");
  err_is(cusci_linalg_logm(ctx, rect, &x, NULL), CUSCI_ERR_SHAPE, "square", "logm: not square");
  err_is(cusci_linalg_funm(ctx, rect, f_sin, NULL, &x, NULL), CUSCI_ERR_SHAPE, "square", "funm: not square");
  err_is(cusci_linalg_sqrtm(ctx, vec, &x, NULL), CUSCI_ERR_NDIM, NULL, "sqrtm: 1-D");
  err_is(cusci_linalg_logm(ctx, vec, &x, NULL), CUSCI_ERR_NDIM, NULL, "logm: 1-D");
  err_is(cusci_linalg_funm(ctx, vec, f_sin, NULL, &x, NULL), CUSCI_ERR_NDIM, NULL, "funm: 1-D");
  err_is(cusci_linalg_sqrtm(ctx, nan, &x, NULL), CUSCI_ERR_VALUE, "inf", "sqrtm: NaN");
  err_is(cusci_linalg_logm(ctx, nan, &x, NULL), CUSCI_ERR_VALUE, "inf", "logm: NaN");
  err_is(cusci_linalg_funm(ctx, sq, NULL, NULL, &x, NULL), CUSCI_ERR_NULL_POINTER, "func", "funm: func NULL");
  err_is(cusci_linalg_sqrtm(ctx, NULL, &x, NULL), CUSCI_ERR_NULL_POINTER, NULL, "sqrtm: a NULL");
  err_is(cusci_linalg_logm(ctx, half, &x, NULL), CUSCI_ERR_DTYPE, NULL, "logm: float16");
  /* Outputs of the wrong shape or dtype. */
  cusci_array_empty(ctx, 2, s33, CUSCI_FLOAT64, &wrong);
  err_is(cusci_linalg_sqrtm(ctx, sq, &wrong, NULL), CUSCI_ERR_SHAPE, NULL, "sqrtm: out of the wrong shape");
  REL(wrong);
  cusci_array_empty(ctx, 2, s44, CUSCI_INT32, &wrong);
  err_is(cusci_linalg_logm(ctx, sq, &wrong, NULL), CUSCI_ERR_DTYPE, NULL, "logm: out of the wrong dtype");
  REL(wrong);
  cusci_array_empty(ctx, 1, s4, CUSCI_FLOAT64, &est);
  err_is(cusci_linalg_sqrtm(ctx, sq, &x, &est), CUSCI_ERR_SHAPE, NULL, "sqrtm: errest of the wrong shape");
  ok(x == NULL, "no failed call wrote an output");
  REL(rect), REL(vec), REL(nan), REL(sq), REL(half), REL(est);
}

int main(void)
{
  ctx = tk_host_ctx();
  plan(N_FIXTURES + N_PROPERTIES + N_ERRORS);
  uint64_t seed = 0x5eedf0;
  fixtures();
  properties(&seed);
  errors();
  cusci_ctx_destroy(ctx);
  return done_testing();
}
