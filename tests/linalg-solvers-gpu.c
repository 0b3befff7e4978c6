/*
 * tests/linalg-solvers-gpu.c: the CUDA backend of liblinalg's structured
 * solvers and matrix functions against the host backend on the same random
 * inputs, in the four dtypes and batched; the deferred checks and the TF32
 * math mode, which only a GPU context has. Skipped where there is no GPU.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-util.h"

static cusci_ctx *gpu, *host;

#define REL(a) (cusci_array_release(a), (a) = NULL)

static void pair(cusci_dtype dt, int ndim, const int64_t *shape, const lu_c *vals, cusci_array **g, cusci_array **h)
{
  *g = lu_array(gpu, dt, ndim, shape, vals);
  *h = lu_array(host, dt, ndim, shape, vals);
}

/* |g - h| <= tol * max(1, |h|), shapes and dtypes equal; releases both. */
static void cmp(cusci_status sg, cusci_status sh, cusci_array **gp, cusci_array **hp, double tol, const char *what, cusci_dtype dt)
{
  cusci_array *g = *gp, *h = *hp;
  double err = INFINITY, scale = 1;
  bool same = sg == CUSCI_OK && sh == CUSCI_OK && lu_same_shape(g, h, false);
  if (same)
    err = lu_array_diff(gpu, g, host, h, &scale);
  ok(same && err <= tol * scale, "%s %s: GPU vs host %.3g <= %.3g (%s / %s: %s)", what, cusci_dtype_name(dt), err, tol * scale,
     cusci_status_name(sg), cusci_status_name(sh), sg != CUSCI_OK ? cusci_ctx_last_error(gpu) : "");
  REL(*gp);
  REL(*hp);
}

/* Random values with `shift` added to the elements of row `row` of each
 * trailing (rows, n) matrix (the diagonal of band storage). */
static lu_c *band_values(uint64_t *seed, cusci_dtype dt, int ndim, const int64_t *shape, int64_t row, double shift)
{
  lu_c *v = lu_rand_values(seed, dt, ndim, shape, 0);
  int64_t rows = shape[ndim - 2], n = shape[ndim - 1], total = 1;
  for (int i = 0; i < ndim; i++)
    total *= shape[i];
  for (int64_t t = 0; t < total / (rows * n); t++)
    for (int64_t j = 0; j < n; j++)
      v[(t * rows + row) * n + j] += shift;
  return v;
}

static void solves(cusci_dtype dt, uint64_t *seed)
{
  double tol = 2000 * lu_eps(dt);
  /* solve with assume_a diagonal, tridiagonal, banded (dense a, batch 3,
   * n 9 and 33, the latter past the small-matrix kernels). */
  static const cusci_linalg_assume_a kinds[3] = { CUSCI_LINALG_ASSUME_DIAGONAL, CUSCI_LINALG_ASSUME_TRIDIAGONAL, CUSCI_LINALG_ASSUME_BANDED };
  for (int kk = 0; kk < 3; kk++)
    for (int64_t n = 9; n <= 33; n += 24) {
      int64_t sa[3] = { 3, n, n }, sb[3] = { 3, n, 2 };
      lu_c *a = lu_rand_values(seed, dt, 3, sa, 6.0), *b = lu_rand_values(seed, dt, 3, sb, 0);
      int64_t bw = kk == 0 ? 0 : kk == 1 ? 1 : 3;
      for (int64_t t = 0; t < 3; t++) /* zero outside the band (l = bw, u = bw - 1 for banded) */
        for (int64_t i = 0; i < n; i++)
          for (int64_t j = 0; j < n; j++)
            if (i - j > bw || j - i > (kk == 2 ? bw - 1 : bw))
              a[(t * n + i) * n + j] = 0;
      cusci_array *ga, *ha, *gb, *hb, *gx = NULL, *hx = NULL;
      pair(dt, 3, sa, a, &ga, &ha);
      pair(dt, 3, sb, b, &gb, &hb);
      bool tr = kk > 0 && (dt == CUSCI_FLOAT32 || dt == CUSCI_FLOAT64);
      cusci_linalg_solve_opts o = { .assume_a = kinds[kk], .transposed = tr };
      char what[96];
      snprintf(what, sizeof what, "solve assume_a %s n=%lld%s", kk == 0 ? "diagonal" : kk == 1 ? "tridiagonal" : "banded", (long long)n,
               tr ? " transposed" : "");
      cmp(cusci_linalg_solve(gpu, ga, gb, &o, &gx), cusci_linalg_solve(host, ha, hb, &o, &hx), &gx, &hx, tol, what, dt);
      REL(ga), REL(ha), REL(gb), REL(hb);
      free(a), free(b);
    }
  /* solve_banded: a batch of 4 (l, u) = (2, 3), n = 41, against one b;
   * and (1, 1). */
  for (int c = 0; c < 2; c++) {
    int64_t l = c ? 1 : 2, u = c ? 1 : 3, n = 41;
    int64_t sab[3] = { 4, l + u + 1, n }, sb[2] = { n, 3 };
    lu_c *ab = band_values(seed, dt, 3, sab, u, 8.0), *b = lu_rand_values(seed, dt, 2, sb, 0);
    cusci_array *ga, *ha, *gb, *hb, *gx = NULL, *hx = NULL;
    pair(dt, 3, sab, ab, &ga, &ha);
    pair(dt, 2, sb, b, &gb, &hb);
    char what[64];
    snprintf(what, sizeof what, "solve_banded (%lld, %lld) batch 4 n=41", (long long)l, (long long)u);
    cmp(cusci_linalg_solve_banded(gpu, l, u, ga, gb, NULL, &gx), cusci_linalg_solve_banded(host, l, u, ha, hb, NULL, &hx), &gx, &hx, tol, what, dt);
    REL(ga), REL(ha), REL(gb), REL(hb);
    free(ab), free(b);
  }
  /* solveh_banded, upper and lower forms: a diagonally dominant Hermitian
   * band (real diagonal 3 u + 4), batch 2, n = 37, u = 3. */
  for (int lower = 0; lower < 2; lower++) {
    int64_t u = 3, n = 37, sab[3] = { 2, u + 1, n }, sb[3] = { 2, n, 2 };
    lu_c *ab = lu_rand_values(seed, dt, 3, sab, 0), *b = lu_rand_values(seed, dt, 3, sb, 0);
    int64_t drow = lower ? 0 : u;
    for (int64_t t = 0; t < 2; t++)
      for (int64_t j = 0; j < n; j++)
        ab[(t * (u + 1) + drow) * n + j] = 3.0 * (double)u * 2.385 * 2 + 4.0;
    cusci_array *ga, *ha, *gb, *hb, *gx = NULL, *hx = NULL;
    pair(dt, 3, sab, ab, &ga, &ha);
    pair(dt, 3, sb, b, &gb, &hb);
    cusci_linalg_banded_opts o = { .lower = lower };
    cmp(cusci_linalg_solveh_banded(gpu, ga, gb, &o, &gx), cusci_linalg_solveh_banded(host, ha, hb, &o, &hx), &gx, &hx, tol,
        lower ? "solveh_banded lower n=37" : "solveh_banded upper n=37", dt);
    REL(ga), REL(ha), REL(gb), REL(hb);
    free(ab), free(b);
  }
  /* solve_toeplitz n = 300 (several block strides), k = 3. */
  {
    int64_t n = 300, sv[1] = { n }, sb[2] = { n, 3 };
    lu_c *c = lu_rand_values(seed, dt, 1, sv, 0), *r = lu_rand_values(seed, dt, 1, sv, 0), *b = lu_rand_values(seed, dt, 2, sb, 0);
    for (int64_t i = 1; i < n; i++) { /* decaying diagonals: well conditioned */
      c[i] /= (double)(i * i);
      r[i] /= (double)(i * i);
    }
    c[0] = 16.0; /* > the sum of |c[i]| + |r[i]|, i > 0: diagonally dominant */
    cusci_array *gc, *hc, *gr, *hr, *gb, *hb, *gx = NULL, *hx = NULL;
    pair(dt, 1, sv, c, &gc, &hc);
    pair(dt, 1, sv, r, &gr, &hr);
    pair(dt, 2, sb, b, &gb, &hb);
    cmp(cusci_linalg_solve_toeplitz(gpu, gc, gr, gb, false, &gx), cusci_linalg_solve_toeplitz(host, hc, hr, hb, false, &hx), &gx, &hx, tol,
        "solve_toeplitz n=300 k=3", dt);
    cmp(cusci_linalg_solve_toeplitz(gpu, gc, NULL, gb, false, &gx), cusci_linalg_solve_toeplitz(host, hc, NULL, hb, false, &hx), &gx, &hx, tol,
        "solve_toeplitz r=None n=300 k=3", dt);
    REL(gc), REL(hc), REL(gr), REL(hr), REL(gb), REL(hb);
    free(c), free(r), free(b);
  }
  /* solve_circulant n = 60 (not a power of 2), k = 2 and 1-D b. */
  {
    int64_t n = 60, sv[1] = { n }, sb[2] = { n, 2 };
    lu_c *c = lu_rand_values(seed, dt, 1, sv, 0), *b = lu_rand_values(seed, dt, 2, sb, 0);
    c[0] += 20.0;
    cusci_array *gc, *hc, *gb, *hb, *gv, *hv, *gx = NULL, *hx = NULL;
    pair(dt, 1, sv, c, &gc, &hc);
    pair(dt, 2, sb, b, &gb, &hb);
    pair(dt, 1, sv, b, &gv, &hv);
    cmp(cusci_linalg_solve_circulant(gpu, gc, gb, NULL, &gx), cusci_linalg_solve_circulant(host, hc, hb, NULL, &hx), &gx, &hx, tol,
        "solve_circulant n=60 k=2", dt);
    cmp(cusci_linalg_solve_circulant(gpu, gc, gv, NULL, &gx), cusci_linalg_solve_circulant(host, hc, hv, NULL, &hx), &gx, &hx, tol,
        "solve_circulant n=60 1-D b", dt);
    REL(gc), REL(hc), REL(gb), REL(hb), REL(gv), REL(hv);
    free(c), free(b);
  }
}
#define SOLVES_PER_DTYPE 14

static void matfuncs(cusci_dtype dt, uint64_t *seed)
{
  /* expm of a batch whose norms span the degrees 3 .. 13 and squarings,
   * n = 12 and 70. */
  for (int64_t n = 12; n <= 70; n += 58) {
    int64_t sa[3] = { 4, n, n };
    lu_c *a = lu_rand_values(seed, dt, 3, sa, 0);
    double sc[4] = { 0.0005, 0.02, 0.1, 1.5 };
    for (int64_t t = 0; t < 4; t++)
      for (int64_t i = 0; i < n * n; i++)
        a[t * n * n + i] *= sc[t] / sqrt((double)n);
    cusci_array *ga, *ha, *gx = NULL, *hx = NULL;
    pair(dt, 3, sa, a, &ga, &ha);
    char what[64];
    snprintf(what, sizeof what, "expm batch 4 n=%lld", (long long)n);
    cmp(cusci_linalg_expm(gpu, ga, &gx), cusci_linalg_expm(host, ha, &hx), &gx, &hx, 200 * n * lu_eps(dt), what, dt);
    if (n == 12) {
      cmp(cusci_linalg_cosm(gpu, ga, &gx), cusci_linalg_cosm(host, ha, &hx), &gx, &hx, 200 * n * lu_eps(dt), "cosm batch 4 n=12", dt);
      cmp(cusci_linalg_tanhm(gpu, ga, &gx), cusci_linalg_tanhm(host, ha, &hx), &gx, &hx, 400 * n * lu_eps(dt), "tanhm batch 4 n=12", dt);
      cmp(cusci_linalg_sinm(gpu, ga, &gx), cusci_linalg_sinm(host, ha, &hx), &gx, &hx, 200 * n * lu_eps(dt), "sinm batch 4 n=12", dt);
      cmp(cusci_linalg_tanm(gpu, ga, &gx), cusci_linalg_tanm(host, ha, &hx), &gx, &hx, 400 * n * lu_eps(dt), "tanm batch 4 n=12", dt);
      cmp(cusci_linalg_coshm(gpu, ga, &gx), cusci_linalg_coshm(host, ha, &hx), &gx, &hx, 200 * n * lu_eps(dt), "coshm batch 4 n=12", dt);
      cmp(cusci_linalg_sinhm(gpu, ga, &gx), cusci_linalg_sinhm(host, ha, &hx), &gx, &hx, 200 * n * lu_eps(dt), "sinhm batch 4 n=12", dt);
    }
    REL(ga), REL(ha);
    free(a);
  }
}
#define MATFUNCS_PER_DTYPE 8

/* Deferred checks: a batch whose matrix 2 is singular; the solve returns at
 * once, cusci_linalg_check reports it; the next check is clean. */
static void deferred(void)
{
  int64_t n = 12, sa[3] = { 4, n, n }, sb[3] = { 4, n, 1 };
  uint64_t seed = 77;
  lu_c *a = lu_rand_values(&seed, CUSCI_FLOAT64, 3, sa, 5.0), *b = lu_rand_values(&seed, CUSCI_FLOAT64, 3, sb, 0);
  for (int64_t j = 0; j < n; j++) /* row 5 of matrix 2 zero: singular */
    a[(2 * n + 5) * n + j] = 0;
  cusci_array *ga = lu_array(gpu, CUSCI_FLOAT64, 3, sa, a), *gb = lu_array(gpu, CUSCI_FLOAT64, 3, sb, b), *x = NULL;
  ok(cusci_linalg_set_check(gpu, CUSCI_LINALG_CHECK_DEFERRED) == CUSCI_OK, "set_check deferred");
  cusci_status st = cusci_linalg_solve(gpu, ga, gb, NULL, &x);
  ok(st == CUSCI_OK && x, "deferred: solve of a batch with a singular matrix returns CUSCI_OK (%s)", cusci_status_name(st));
  REL(x);
  cusci_array *c = NULL;
  st = cusci_linalg_cholesky(gpu, ga, true, &c); /* not PD: deferred too */
  REL(c);
  st = cusci_linalg_check(gpu);
  const char *msg = cusci_ctx_last_error(gpu);
  ok(st == CUSCI_ERR_LINALG && strstr(msg, "cusci_linalg_solve") && strstr(msg, "batch index [2]"), "check: the first failure, solve's (%s)",
     msg);
  ok(cusci_linalg_check(gpu) == CUSCI_OK, "check: nothing pending after a report");
  /* A banded solve and a non-finite input, deferred. */
  double nanv = NAN;
  int64_t one[1] = { 1 };
  (void)one;
  lu_c *an = malloc(sizeof *an * (size_t)(4 * n * n));
  memcpy(an, a, sizeof *an * (size_t)(4 * n * n));
  an[7] = nanv;
  cusci_array *gn = lu_array(gpu, CUSCI_FLOAT64, 3, sa, an);
  st = cusci_linalg_inv(gpu, gn, &x);
  REL(x);
  ok(st == CUSCI_OK, "deferred: inv of a NaN input returns at once");
  st = cusci_linalg_check(gpu);
  ok(st == CUSCI_ERR_VALUE && strstr(cusci_ctx_last_error(gpu), "cusci_linalg_inv"), "check: inv's NaN (%s)", cusci_ctx_last_error(gpu));
  cusci_linalg_set_check(gpu, CUSCI_LINALG_CHECK_IMMEDIATE);
  st = cusci_linalg_solve(gpu, ga, gb, NULL, &x);
  ok(st == CUSCI_ERR_LINALG && !x, "immediate again: solve reports the singular matrix itself");
  REL(ga), REL(gb), REL(gn);
  free(a), free(b), free(an);
}
#define DEFERRED_TESTS 7

/* TF32: a float32 product of values that TF32 rounds differs from the
 * full float32 one by about 2^-11 relative, and matches it again in the
 * default mode. */
static void tf32(void)
{
  int64_t n = 1024, s[2] = { n, n }; /* large enough for cuBLAS's tensor-core kernels */
  uint64_t seed = 99;
  lu_c *a = lu_rand_values(&seed, CUSCI_FLOAT32, 2, s, 0), *b = lu_rand_values(&seed, CUSCI_FLOAT32, 2, s, 0);
  cusci_array *ga = lu_array(gpu, CUSCI_FLOAT32, 2, s, a), *gb = lu_array(gpu, CUSCI_FLOAT32, 2, s, b);
  cusci_array *ha = lu_array(host, CUSCI_FLOAT32, 2, s, a), *hb = lu_array(host, CUSCI_FLOAT32, 2, s, b);
  cusci_array *hc = NULL, *gc = NULL, *gt = NULL;
  /* Each GPU product's memory was 0xff (NaN) before it, so that an
   * element it leaves unwritten cannot pass for a right one. */
  const size_t poison[2] = { (size_t)(n * n) * 4, (size_t)(n * n) * 8 };
  cusci_linalg_matmul(host, ha, hb, &hc);
  tk_poison_pool(gpu, 2, poison);
  cusci_linalg_matmul(gpu, ga, gb, &gc);
  cusci_status st = cusci_linalg_set_math_mode(gpu, CUSCI_LINALG_MATH_TF32);
  tk_poison_pool(gpu, 2, poison);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(gpu, ga, gb, &gt);
  double e_full = INFINITY, e_tf = INFINITY;
  if (st == CUSCI_OK && gc && hc) {
    lu_c *x = lu_values(host, hc), *y = lu_values(gpu, gc), *z = lu_values(gpu, gt);
    e_full = lu_maxdiff(x, y, n * n) / lu_maxabs(x, n * n);
    e_tf = lu_maxdiff(x, z, n * n) / lu_maxabs(x, n * n);
    free(x), free(y), free(z);
  }
  ok(st == CUSCI_OK && e_full < 1e-5, "TF32 off (default): float32 matmul within %.3g of the host", e_full);
  ok(st == CUSCI_OK && e_tf > 1e-5 && e_tf < 1e-2, "TF32 on: float32 matmul differs by %.3g (TF32 rounding)", e_tf);
  cusci_linalg_set_math_mode(gpu, CUSCI_LINALG_MATH_DEFAULT);
  REL(gc);
  tk_poison_pool(gpu, 2, poison);
  cusci_linalg_matmul(gpu, ga, gb, &gc);
  lu_c *x = lu_values(host, hc), *y = lu_values(gpu, gc);
  double e2 = lu_maxdiff(x, y, n * n) / lu_maxabs(x, n * n);
  ok(e2 < 1e-5, "TF32 off again: %.3g", e2);
  free(x), free(y), free(a), free(b);
  REL(ga), REL(gb), REL(ha), REL(hb), REL(hc), REL(gc), REL(gt);
}
#define TF32_TESTS 3

/* Numerical failures on the GPU path, immediate mode. */
static void gpu_errors(void)
{
  double abv[12] = { 0, 1, 1, 1, 2, 0, 2, 2, 1, 1, 1, 0 }; /* (1, 1), n = 4: column 1 all zero -> singular */
  int64_t s34[2] = { 3, 4 }, s4[1] = { 4 };
  double bv[4] = { 1, 2, 3, 4 };
  abv[1] = 0, abv[5] = 0, abv[9] = 0;
  cusci_array *ab = NULL, *b = NULL, *x = NULL;
  cusci_array_from_host(gpu, abv, 2, s34, CUSCI_FLOAT64, &ab);
  cusci_array_from_host(gpu, bv, 1, s4, CUSCI_FLOAT64, &b);
  cusci_status st = cusci_linalg_solve_banded(gpu, 1, 1, ab, b, NULL, &x);
  ok(st == CUSCI_ERR_LINALG && !x, "GPU solve_banded singular: %s", cusci_ctx_last_error(gpu));
  double hv[8] = { 0.5, 0.5, 0.5, 0, 2.0, -3.0, 2.0, 2.0 };
  int64_t s24[2] = { 2, 4 };
  cusci_array *h = NULL;
  cusci_array_from_host(gpu, hv, 2, s24, CUSCI_FLOAT64, &h);
  st = cusci_linalg_solveh_banded(gpu, h, b, NULL, &x);
  ok(st == CUSCI_ERR_LINALG && strstr(cusci_ctx_last_error(gpu), "2-th leading minor"), "GPU solveh_banded not PD: %s", cusci_ctx_last_error(gpu));
  double cv[4] = { 0, 1, 2, 3 };
  cusci_array *c = NULL;
  cusci_array_from_host(gpu, cv, 1, s4, CUSCI_FLOAT64, &c);
  st = cusci_linalg_solve_toeplitz(gpu, c, NULL, b, false, &x);
  ok(st == CUSCI_ERR_LINALG && strstr(cusci_ctx_last_error(gpu), "principal minor"), "GPU solve_toeplitz singular: %s", cusci_ctx_last_error(gpu));
  REL(ab), REL(b), REL(h), REL(c);
}
#define GPU_ERRORS 3

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  plan(4 * (SOLVES_PER_DTYPE + MATFUNCS_PER_DTYPE) + DEFERRED_TESTS + TF32_TESTS + GPU_ERRORS);
  uint64_t seed = 0xba4d;
  for (int i = 0; i < 4; i++)
    solves(lu_dtypes[i], &seed);
  for (int i = 0; i < 4; i++)
    matfuncs(lu_dtypes[i], &seed);
  deferred();
  tf32();
  gpu_errors();
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
