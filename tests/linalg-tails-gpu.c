/*
 * tests/linalg-tails-gpu.c: liblinalg's kernels at the sizes where tails
 * break, with the pool off (every array its own exact allocation) and the
 * outputs of single-output functions guarded by sentinel bytes: matrix
 * orders around the register kernels' limits (8, 9 and 32), the 32 x 32
 * tiles of the transposes (31, 32, 33, 63, 64, 65), and batches around the
 * 32 matrices a warp takes (1, 31, 32, 33), in the four dtypes, GPU
 * against host. Inputs are Hermitian, strictly diagonally dominant and
 * scaled near 1, so every solve, inverse, determinant and factorization
 * is well conditioned and finite. Under compute-sanitizer, whose every
 * vendor kernel is many times slower, the orders 1, 8, 9, 32, 33, 64 and 65
 * with the batches 1 and 33 only (make check runs them all, the pool off
 * and the guards on); the pieces of CUSCI_TEST_PART are the dtypes.
 * Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#include "tests/testkit.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static cusci_ctx *gpu, *host;

static const cusci_dtype dts[4] = {CUSCI_FLOAT32, CUSCI_FLOAT64, CUSCI_COMPLEX64, CUSCI_COMPLEX128};
static const int64_t orders[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};
static const int64_t batches[] = {1, 31, 32, 33};

/* Whether order n and batch index bi are run: all of them, or under a
 * sanitizer the ones on either side of a limit. */
static bool sampled(int64_t n, size_t bi)
{
  if (!tk_sanitizing())
    return true;
  return (n == 1 || n == 8 || n == 9 || n == 32 || n == 33 || n == 64 || n == 65) && (bi == 0 || bi == 3);
}

/* batch Hermitian, strictly diagonally dominant n x n matrices of dt on
 * the host (so positive definite). */
static cusci_array *spd(int64_t batch, int64_t n, cusci_dtype dt, uint64_t *seed)
{
  size_t cnt = (size_t)(batch * n * n);
  double complex *m = malloc(cnt * sizeof *m);
  for (int64_t b = 0; b < batch; b++) {
    double complex *a = m + b * n * n;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j <= i; j++) {
        /* |a_ij| < 0.99 off the diagonal, a_ii > n + 1.375: the smallest
         * eigenvalue exceeds 2.37 (Gershgorin); all scaled by 1 / (n + 1). */
        double re = 1.4 * tk_rand_double(seed) - 0.7, im = cusci_dtype_kind(dt) == 'c' ? 1.4 * tk_rand_double(seed) - 0.7 : 0;
        double s = 1.0 / (double)(n + 1);
        if (i == j) {
          a[i * n + i] = ((double)n + 1.375 + tk_rand_double(seed)) * s;
        } else {
          a[i * n + j] = (re + I * im) * s;
          a[j * n + i] = (re - I * im) * s;
        }
      }
  }
  int64_t shape[3] = {batch, n, n};
  cusci_array *w = NULL, *r = NULL;
  cusci_array_from_host(host, m, 3, shape, CUSCI_COMPLEX128, &w);
  if (cusci_dtype_kind(dt) == 'c') {
    cusci_array_astype(host, w, dt, true, &r);
  } else {
    cusci_array *re = NULL;
    cusci_real(host, w, &re);
    cusci_array_astype(host, re, dt, true, &r);
    cusci_array_release(re);
  }
  cusci_array_release(w);
  free(m);
  return r;
}

static tk_tol tol_for(int64_t n)
{
  /* Well conditioned (condition number below 3): a few hundred roundings
   * of the order's size. */
  double f = (double)(n < 8 ? 8 : n);
  return TK_REL(4e-6 * f, 1e-14 * f);
}

typedef cusci_status (*one_out)(cusci_ctx *ctx, cusci_array *a, cusci_array *b, cusci_array **out);
static cusci_status f_inv(cusci_ctx *c, cusci_array *a, cusci_array *b, cusci_array **o) { return cusci_linalg_inv(c, a, o); }
static cusci_status f_det(cusci_ctx *c, cusci_array *a, cusci_array *b, cusci_array **o) { return cusci_linalg_det(c, a, o); }
static cusci_status f_solve(cusci_ctx *c, cusci_array *a, cusci_array *b, cusci_array **o) { return cusci_linalg_solve(c, a, b, NULL, o); }
static cusci_status f_solve_pos(cusci_ctx *c, cusci_array *a, cusci_array *b, cusci_array **o)
{
  const cusci_linalg_solve_opts opts = {.assume_a = CUSCI_LINALG_ASSUME_POS};
  return cusci_linalg_solve(c, a, b, &opts, o);
}
static cusci_status f_chol(cusci_ctx *c, cusci_array *a, cusci_array *b, cusci_array **o) { return cusci_linalg_cholesky(c, a, true, o); }
static cusci_status f_matmul(cusci_ctx *c, cusci_array *a, cusci_array *b, cusci_array **o) { return cusci_linalg_matmul(c, a, b, o); }
static cusci_status f_eigvalsh(cusci_ctx *c, cusci_array *a, cusci_array *b, cusci_array **o) { return cusci_linalg_eigvalsh(c, a, NULL, o); }
static cusci_status f_svdvals(cusci_ctx *c, cusci_array *a, cusci_array *b, cusci_array **o) { return cusci_linalg_svdvals(c, a, o); }

static const struct {
  const char *name;
  one_out fn;
  int k; /* columns of b: 0 none, -1 b is a matrix like a */
  bool guard;
} ops[] = {{"inv", f_inv, 0, true},           {"det", f_det, 0, true},        {"solve", f_solve, 3, true},
           {"solve (pos)", f_solve_pos, 1, true}, {"cholesky", f_chol, 0, true}, {"matmul", f_matmul, -1, true},
           {"eigvalsh", f_eigvalsh, 0, false},    {"svdvals", f_svdvals, 0, false}};

/* The shape of op's result for a batch of n x n matrices. */
static int result_shape(int op, int64_t batch, int64_t n, int64_t *sh)
{
  sh[0] = batch;
  if (ops[op].fn == f_det)
    return 1;
  sh[1] = n;
  if (ops[op].fn == f_eigvalsh || ops[op].fn == f_svdvals)
    return 2;
  sh[2] = ops[op].k > 0 ? ops[op].k : n;
  return 3;
}

static void square_tails(void)
{
  uint64_t seed = 4242;
  for (size_t op = 0; op < sizeof ops / sizeof *ops; op++)
    for (int d = 0; d < 4; d++) {
      if (!tk_part(d))
        continue;
      int good = 1;
      char why[512] = "";
      for (size_t o = 0; o < sizeof orders / sizeof *orders && good; o++)
        for (size_t bi = 0; bi < sizeof batches / sizeof *batches && good; bi++) {
          int64_t n = orders[o], batch = batches[bi];
          /* The larger orders with the batch of one and of 33 only. */
          if ((n > 17 && bi != 0 && bi != 3) || !sampled(n, bi))
            continue;
          cusci_array *ha = spd(batch, n, dts[d], &seed), *hb = NULL;
          if (ops[op].k > 0) {
            int64_t bs[3] = {batch, n, ops[op].k};
            hb = tk_random(host, 3, bs, dts[d], -2.5, 3.5, &seed);
          } else if (ops[op].k < 0) {
            hb = spd(batch, n, dts[d], &seed);
          }
          cusci_array *ga = tk_copy_to(gpu, host, ha), *gb = hb ? tk_copy_to(gpu, host, hb) : NULL, *rh = NULL, *rg = NULL;
          int64_t sh[3];
          int nd = result_shape((int)op, batch, n, sh);
          tk_guard g = {0};
          cusci_dtype rdt = ops[op].fn == f_eigvalsh || ops[op].fn == f_svdvals
                                ? (dts[d] == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : dts[d] == CUSCI_COMPLEX128 ? CUSCI_FLOAT64 : dts[d])
                                : dts[d];
          if (ops[op].guard && !tk_guard_make(gpu, nd, sh, rdt, 1 << 16, &g)) {
            good = 0;
            snprintf(why, sizeof why, "no guard");
          } else {
            cusci_status sh_ = ops[op].fn(host, ha, hb, &rh);
            cusci_status sg = ops[op].fn(gpu, ga, gb, ops[op].guard ? &g.out : &rg);
            const cusci_array *got = ops[op].guard ? g.out : rg;
            if (sh_ != CUSCI_OK || sg != CUSCI_OK) {
              good = 0;
              snprintf(why, sizeof why, "n %lld batch %lld: host %s, GPU %s (%s)", (long long)n, (long long)batch,
                       cusci_status_name(sh_), cusci_status_name(sg), cusci_ctx_last_error(gpu));
            } else if (ops[op].guard && !tk_guard_intact(&g, ops[op].name)) {
              good = 0;
              snprintf(why, sizeof why, "n %lld batch %lld: a write outside the output", (long long)n, (long long)batch);
            } else if (!tk_agree(gpu, got, host, rh, tol_for(n), ops[op].name)) {
              good = 0;
              snprintf(why, sizeof why, "n %lld batch %lld: GPU and host differ", (long long)n, (long long)batch);
            }
          }
          tk_guard_free(&g);
          cusci_array_release(ha), cusci_array_release(hb), cusci_array_release(ga), cusci_array_release(gb);
          cusci_array_release(rh), cusci_array_release(rg);
        }
      ok(good, "%s %s: GPU = host, guards intact, orders 1 to 65 and batches 1, 31, 32, 33%s%s%s", ops[op].name,
         cusci_dtype_name(dts[d]), tk_sanitizing() ? " (sampled)" : "", good ? "" : ": ", why);
    }
}

/* Rectangular matrices through the transposes: matmul (m x k)(k x n) and
 * svdvals of m x n for m, n around the 32 x 32 tile. */
static void rectangular_tails(void)
{
  static const int64_t sides[] = {1, 31, 32, 33, 64, 65};
  uint64_t seed = 17;
  for (int d = 0; d < 4; d++) {
    if (!tk_part(d))
      continue;
    int good = 1;
    char why[256] = "";
    for (size_t i = 0; i < 6 && good; i++)
      for (size_t j = 0; j < 6 && good; j++) {
        int64_t m = sides[i], n = sides[j], k = sides[(i + j) % 6];
        int64_t as[3] = {2, m, k}, bs[3] = {2, k, n}, cs[3] = {2, m, n};
        cusci_array *ha = tk_random(host, 3, as, dts[d], -1.5, 1.25, &seed), *hb = tk_random(host, 3, bs, dts[d], -1.1, 1.7, &seed);
        cusci_array *ga = tk_copy_to(gpu, host, ha), *gb = tk_copy_to(gpu, host, hb), *hc = NULL, *hs = NULL, *gs = NULL;
        tk_guard g;
        double f = (double)(k < 8 ? 8 : k);
        tk_tol tol = TK_REL(1e-5 * f, 1e-14 * f);
        if (!tk_guard_make(gpu, 3, cs, dts[d], 1 << 16, &g) || cusci_linalg_matmul(gpu, ga, gb, &g.out) != CUSCI_OK ||
            cusci_linalg_matmul(host, ha, hb, &hc) != CUSCI_OK || !tk_guard_intact(&g, "matmul") ||
            !tk_agree(gpu, g.out, host, hc, tol, "matmul")) {
          good = 0;
          snprintf(why, sizeof why, " (matmul %lldx%lld by %lldx%lld: %s)", (long long)m, (long long)k, (long long)k, (long long)n,
                   cusci_ctx_last_error(gpu));
        }
        if (good && (cusci_linalg_svdvals(gpu, ga, &gs) != CUSCI_OK || cusci_linalg_svdvals(host, ha, &hs) != CUSCI_OK ||
                     !tk_agree(gpu, gs, host, hs, TK_REL(2e-5 * f, 1e-13 * f), "svdvals"))) {
          good = 0;
          snprintf(why, sizeof why, " (svdvals %lldx%lld: %s)", (long long)m, (long long)k, cusci_ctx_last_error(gpu));
        }
        tk_guard_free(&g);
        cusci_array_release(ha), cusci_array_release(hb), cusci_array_release(ga), cusci_array_release(gb);
        cusci_array_release(hc), cusci_array_release(hs), cusci_array_release(gs);
      }
    ok(good, "matmul and svdvals %s of sides 1, 31, 32, 33, 64, 65: GPU = host, guards intact%s", cusci_dtype_name(dts[d]), why);
  }
}

/* lu_factor's two outputs, and the lower-triangle path of solve. */
static void lu_tails(void)
{
  uint64_t seed = 5;
  for (int d = 0; d < 4; d++) {
    if (!tk_part(d))
      continue;
    int good = 1;
    char why[256] = "";
    for (size_t o = 0; o < sizeof orders / sizeof *orders && good; o++) {
      int64_t n = orders[o], batch = n > 17 ? 3 : 33;
      if (!sampled(n, 0))
        continue;
      cusci_array *ha = spd(batch, n, dts[d], &seed), *ga = tk_copy_to(gpu, host, ha);
      cusci_array *hl = NULL, *hp = NULL, *gl = NULL, *gp = NULL;
      if (cusci_linalg_lu_factor(host, ha, &hl, &hp) != CUSCI_OK || cusci_linalg_lu_factor(gpu, ga, &gl, &gp) != CUSCI_OK ||
          !tk_agree(gpu, gl, host, hl, tol_for(n), "lu") || !tk_agree(gpu, gp, host, hp, TK_EXACT, "piv")) {
        good = 0;
        snprintf(why, sizeof why, " (n %lld: %s)", (long long)n, cusci_ctx_last_error(gpu));
      }
      cusci_array_release(ha), cusci_array_release(ga), cusci_array_release(hl), cusci_array_release(hp);
      cusci_array_release(gl), cusci_array_release(gp);
    }
    ok(good, "lu_factor %s: lu and piv, GPU = host, orders 1 to 65%s", cusci_dtype_name(dts[d]), why);
  }
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  if (tk_part(0))
    ok(tk_pool_off(gpu), "the GPU's pool is off: every array its own allocation");
  else
    tk_pool_off(gpu);
  square_tails();
  rectangular_tails();
  lu_tails();
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
