/*
 * tests/linalg-lu-gpu.c: lu_factor, lu and lu_solve on the GPU against the
 * host backend, where the pivots' conversions, lu_solve's range check and
 * lu's split into p, l and u run on the device: orders 1, 2, 31, 32, 33
 * and 64 (the split's permutation is one thread a matrix up to 32, one
 * block above), one matrix (n, n) and a batch (3, n, n), in the four
 * dtypes.
 *
 * Inputs. Random row permutations of random matrices that are strictly
 * column diagonally dominant by a factor of two, which every Schur
 * complement stays (so partial pivoting picks the one dominant element of
 * each column by a wide margin: LAPACK and cuSOLVER must choose the same
 * pivots, which are compared exactly, while the rows are still swapped
 * at random), and condition numbers stay below 3. Plain random matrices
 * in float64 and complex128 too, where a tie between pivots is too
 * unlikely to matter. Outputs are guarded (a write past either end shows)
 * and the pool's blocks poisoned first (an element the split forgets
 * shows as NaN or -1). Besides the host's answer: p l u = a, rebuilt on
 * the host from the GPU's outputs; and for bad pivots, lu_solve's status,
 * its message naming the first one, x left alone, and a context that
 * still works. Last, the same in the deferred check mode.
 * Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/kit/dtypes.h>

#include "tests/linalg-util.h"

static cusci_ctx *gpu, *host;

static const int64_t orders[] = { 1, 2, 31, 32, 33, 64 };
enum { DOMINANT, RANDOM };
static const char *const kind_name[2] = { "dominant", "random" };
#define PAD 4096

/* ------------------------------------------------------------ inputs */

/* batch n x n matrices: row r of each is row sigma(r) of M, sigma a random
 * permutation, M with off-diagonal elements of modulus below 0.99 and
 * diagonal ones of modulus above 2n + 2 (random signs), so that each
 * column's diagonal element exceeds twice the sum of the others. */
static lu_c *dominant_values(uint64_t *seed, cusci_dtype dt, int64_t batch, int64_t n)
{
  bool cx = cusci_dtype_kind(dt) == 'c';
  lu_c *v = malloc(sizeof *v * (size_t)(batch * n * n));
  int64_t *sigma = malloc(sizeof *sigma * (size_t)n);
  for (int64_t b = 0; b < batch; b++) {
    for (int64_t i = 0; i < n; i++)
      sigma[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
      int64_t j = (int64_t)(tk_rand(seed) % (uint64_t)(i + 1)), t = sigma[i];
      sigma[i] = sigma[j];
      sigma[j] = t;
    }
    for (int64_t r = 0; r < n; r++)
      for (int64_t j = 0; j < n; j++) {
        double re, im = 0;
        if (j == sigma[r]) {
          re = (2.0 * (double)n + 2.0 + tk_rand_double(seed)) * (tk_rand_double(seed) < 0.5 ? -1 : 1);
          if (cx)
            im = 1.4 * tk_rand_double(seed) - 0.7;
        } else if (cx) {
          re = 1.4 * tk_rand_double(seed) - 0.7;
          im = 1.4 * tk_rand_double(seed) - 0.7;
        } else {
          re = 1.98 * tk_rand_double(seed) - 0.99;
        }
        v[(b * n + r) * n + j] = re + I * im;
      }
  }
  free(sigma);
  return v;
}

/* One shape: (n, n) when nd is 2, else (3, n, n). */
typedef struct shape_case {
  cusci_dtype dt;
  int nd;
  int64_t n, batch;
  int64_t sh[3];
  char name[64]; /* "float32 3x31x31" */
} shape_case;

static shape_case make_case(cusci_dtype dt, int nd, int64_t n)
{
  shape_case c = { .dt = dt, .nd = nd, .n = n, .batch = nd == 2 ? 1 : 3 };
  int64_t *s = c.sh;
  if (nd == 3)
    *s++ = 3;
  s[0] = n;
  s[1] = n;
  if (nd == 2)
    snprintf(c.name, sizeof c.name, "%s %lldx%lld", cusci_dtype_name(dt), (long long)n, (long long)n);
  else
    snprintf(c.name, sizeof c.name, "%s 3x%lldx%lld", cusci_dtype_name(dt), (long long)n, (long long)n);
  return c;
}

static lu_c *values_of(const shape_case *c, int kind, uint64_t *seed)
{
  return kind == DOMINANT ? dominant_values(seed, c->dt, c->batch, c->n) : lu_rand_values(seed, c->dt, c->nd, c->sh, 0);
}

/* Well conditioned (condition numbers below 3, growth below 2): a few
 * hundred roundings of the order's size. Random matrices: a margin for
 * their condition numbers (double precision only). */
static tk_tol tol_for(int64_t n, int kind)
{
  double f = (double)(n < 8 ? 8 : n);
  return kind == DOMINANT ? TK_REL(4e-6 * f, 1e-14 * f) : TK_REL(0, 1e-9);
}

/* Leave 0xff bytes in the blocks that a call on c's shape is about to
 * take from the pool: the working copy, l, u and p, the pivots and rows. */
static void poison(const shape_case *c)
{
  size_t mat = (size_t)(c->batch * c->n * c->n) * cusci_dtype_itemsize(c->dt), idx = (size_t)(c->batch * c->n) * sizeof(int32_t);
  size_t bytes[10] = { mat, mat, mat, mat, idx, idx, idx, 2 * idx, 2 * idx, mat / (cusci_dtype_kind(c->dt) == 'c' ? 2 : 1) };
  tk_poison_pool(gpu, 10, bytes);
}

/* A guarded GPU output of c's first nd axes (nd - 1: piv's shape). */
static int guard_for(const shape_case *c, tk_guard *g, int nd, cusci_dtype dt)
{
  return tk_guard_make(gpu, nd, c->sh, dt, PAD, g);
}

/* Whether every byte of g's array is still 0xff (the call wrote nothing). */
static int untouched(tk_guard *g)
{
  unsigned char *b = tk_to_host(g->ctx, g->out);
  size_t i = 0;
  while (i < g->nbytes && b[i] == 0xff)
    i++;
  free(b);
  if (i < g->nbytes)
    diag("byte %zu of %zu of the output changed", i, g->nbytes);
  return i == g->nbytes;
}

/* max |x - y| / max(1, max |y|) over n values. */
static double rel_diff(const lu_c *x, const lu_c *y, int64_t n)
{
  double s = lu_maxabs(y, n);
  return lu_maxdiff(x, y, n) / (s > 1 ? s : 1);
}

/* ------------------------------------------------------------ lu_factor */

static void factor_case(const shape_case *c, int kind, uint64_t *seed)
{
  lu_c *va = values_of(c, kind, seed);
  cusci_array *ha = lu_array(host, c->dt, c->nd, c->sh, va), *ga = lu_array(gpu, c->dt, c->nd, c->sh, va);
  cusci_array *hl = NULL, *hp = NULL;
  tk_guard gl = { 0 }, gp = { 0 };
  int made = guard_for(c, &gl, c->nd, c->dt) && guard_for(c, &gp, c->nd - 1, CUSCI_INT32);
  poison(c);
  cusci_status sh = cusci_linalg_lu_factor(host, ha, &hl, &hp);
  cusci_status sg = made ? cusci_linalg_lu_factor(gpu, ga, &gl.out, &gp.out) : CUSCI_ERR_INTERNAL;
  if (sg != CUSCI_OK || sh != CUSCI_OK)
    diag("lu_factor: GPU %s (%s), host %s", cusci_status_name(sg), sg ? cusci_ctx_last_error(gpu) : "", cusci_status_name(sh));
  int good = made && sg == CUSCI_OK && sh == CUSCI_OK;
  good = good && tk_guard_intact(&gl, "lu") && tk_guard_intact(&gp, "piv");
  good = good && tk_agree(gpu, gp.out, host, hp, TK_EXACT, "piv");
  good = good && tk_agree(gpu, gl.out, host, hl, tol_for(c->n, kind), "lu");
  ok(good, "lu_factor %s (%s): piv = host's, lu within tolerance, guards intact", c->name, kind_name[kind]);
  tk_guard_free(&gl), tk_guard_free(&gp);
  cusci_array_release(ha), cusci_array_release(ga), cusci_array_release(hl), cusci_array_release(hp);
  free(va);
}

/* A NaN in the last matrix: CUSCI_ERR_VALUE as on the host, the outputs
 * left as they were. */
static void factor_nonfinite(const shape_case *c, uint64_t *seed)
{
  lu_c *va = values_of(c, DOMINANT, seed);
  va[c->batch * c->n * c->n - 1] = NAN;
  cusci_array *ga = lu_array(gpu, c->dt, c->nd, c->sh, va);
  tk_guard gl = { 0 }, gp = { 0 };
  int made = guard_for(c, &gl, c->nd, c->dt) && guard_for(c, &gp, c->nd - 1, CUSCI_INT32);
  char what[128];
  snprintf(what, sizeof what, "lu_factor %s with a NaN", c->name);
  tk_status(gpu, made ? cusci_linalg_lu_factor(gpu, ga, &gl.out, &gp.out) : CUSCI_ERR_INTERNAL, CUSCI_ERR_VALUE, "infs or NaNs", what);
  ok(made && untouched(&gl) && untouched(&gp) && tk_guard_intact(&gl, "lu") && tk_guard_intact(&gp, "piv"),
     "lu_factor %s with a NaN: lu and piv left as they were", c->name);
  tk_guard_free(&gl), tk_guard_free(&gp);
  cusci_array_release(ga);
  free(va);
}

/* ------------------------------------------------------------ lu */

enum { P_MATRIX, P_INDICES, PERMUTE_L };
static const char *const mode_name[3] = { "p", "p_indices", "permute_l" };

/* max |a - p l u| / max |a| over the batch, from the GPU's outputs read
 * on the host: p a matrix, row indices (a = (l u)[p]) or absent (l is
 * p l already). */
static double rebuild_error(const shape_case *c, int mode, const lu_c *va, cusci_array *p, cusci_array *l, cusci_array *u)
{
  int64_t n = c->n, nn = n * n;
  lu_c *lv = lu_values(gpu, l), *uv = lu_values(gpu, u), *pv = mode == P_MATRIX ? lu_values(gpu, p) : NULL;
  int32_t *idx = mode == P_INDICES ? tk_to_host(gpu, p) : NULL;
  lu_c *t = malloc(sizeof *t * (size_t)nn), *r = malloc(sizeof *r * (size_t)nn);
  double err = 0;
  for (int64_t b = 0; b < c->batch; b++) {
    lu_gemm('N', lv + b * nn, uv + b * nn, t, n, n, n);
    if (mode == P_MATRIX) {
      lu_gemm('N', pv + b * nn, t, r, n, n, n);
    } else if (mode == P_INDICES) {
      for (int64_t i = 0; i < n; i++) {
        int32_t k = idx[b * n + i];
        if (k < 0 || k >= n) {
          diag("p_indices holds %d in matrix %lld", (int)k, (long long)b);
          err = INFINITY;
          k = 0;
        }
        memcpy(r + i * n, t + (int64_t)k * n, sizeof *r * (size_t)n);
      }
    } else {
      memcpy(r, t, sizeof *r * (size_t)nn);
    }
    double e = rel_diff(r, va + b * nn, nn);
    err = e > err || e != e ? e : err;
  }
  free(lv), free(uv), free(pv), free(idx), free(t), free(r);
  return err;
}

/* Whether the GPU's u is exactly zero below the diagonal and, unless
 * permute_l, its l exactly zero above and one on it. */
static int triangles(const shape_case *c, int mode, cusci_array *l, cusci_array *u)
{
  int64_t n = c->n;
  lu_c *lv = lu_values(gpu, l), *uv = lu_values(gpu, u);
  int64_t bad = -1;
  for (int64_t at = 0; at < c->batch * n * n && bad < 0; at++) {
    int64_t i = at / n % n, j = at % n;
    if ((j < i && uv[at] != 0) || (mode != PERMUTE_L && ((j > i && lv[at] != 0) || (j == i && lv[at] != 1))))
      bad = at;
  }
  if (bad >= 0)
    diag("element %lld of l is %g%+gi, of u %g%+gi", (long long)bad, creal(lv[bad]), cimag(lv[bad]), creal(uv[bad]), cimag(uv[bad]));
  free(lv), free(uv);
  return bad < 0;
}

static void lu_case(const shape_case *c, int kind, int mode, uint64_t *seed)
{
  lu_c *va = values_of(c, kind, seed);
  cusci_array *ha = lu_array(host, c->dt, c->nd, c->sh, va), *ga = lu_array(gpu, c->dt, c->nd, c->sh, va);
  cusci_linalg_lu_opts o = { .p_indices = mode == P_INDICES, .permute_l = mode == PERMUTE_L };
  cusci_array *hp = NULL, *hl = NULL, *hu = NULL;
  tk_guard gp = { 0 }, gl = { 0 }, gu = { 0 };
  int made = guard_for(c, &gl, c->nd, c->dt) && guard_for(c, &gu, c->nd, c->dt);
  if (mode == P_MATRIX)
    made = made && guard_for(c, &gp, c->nd, cusci_dtype_real_of(c->dt));
  else if (mode == P_INDICES)
    made = made && guard_for(c, &gp, c->nd - 1, CUSCI_INT32);
  poison(c);
  cusci_status sg = made ? cusci_linalg_lu(gpu, ga, &o, mode == PERMUTE_L ? NULL : &gp.out, &gl.out, &gu.out) : CUSCI_ERR_INTERNAL;
  cusci_status sh = cusci_linalg_lu(host, ha, &o, mode == PERMUTE_L ? NULL : &hp, &hl, &hu);
  if (sg != CUSCI_OK || sh != CUSCI_OK)
    diag("lu: GPU %s (%s), host %s", cusci_status_name(sg), sg ? cusci_ctx_last_error(gpu) : "", cusci_status_name(sh));
  int good = made && sg == CUSCI_OK && sh == CUSCI_OK;
  good = good && tk_guard_intact(&gl, "l") && tk_guard_intact(&gu, "u") && tk_guard_all_written(&gl, "l") && tk_guard_all_written(&gu, "u");
  if (mode != PERMUTE_L)
    good = good && tk_guard_intact(&gp, "p") && tk_guard_all_written(&gp, "p") && tk_agree(gpu, gp.out, host, hp, TK_EXACT, "p");
  good = good && tk_agree(gpu, gl.out, host, hl, tol_for(c->n, kind), "l") && tk_agree(gpu, gu.out, host, hu, tol_for(c->n, kind), "u");
  good = good && triangles(c, mode, gl.out, gu.out);
  ok(good, "lu %s (%s, %s): p%s exactly, l and u within tolerance of the host's, every element written, guards intact", c->name,
     kind_name[kind], mode_name[mode], mode == PERMUTE_L ? " (none)" : "");
  double err = good ? rebuild_error(c, mode, va, gp.out, gl.out, gu.out) : INFINITY;
  double lim = (kind == DOMINANT ? 16 : 64) * (double)(c->n < 8 ? 8 : c->n) * lu_eps(c->dt);
  ok(err <= lim, "lu %s (%s, %s): p l u rebuilds a, relative error %.3g <= %.3g", c->name, kind_name[kind], mode_name[mode], err, lim);
  tk_guard_free(&gp), tk_guard_free(&gl), tk_guard_free(&gu);
  cusci_array_release(ha), cusci_array_release(ga);
  cusci_array_release(hp), cusci_array_release(hl), cusci_array_release(hu);
  free(va);
}

/* ------------------------------------------------------------ lu_solve */

/* b for c: a vector (n) for one matrix, else (3, n, 2). */
static int b_shape(const shape_case *c, int64_t *sb)
{
  if (c->nd == 2) {
    sb[0] = c->n;
    return 1;
  }
  sb[0] = 3, sb[1] = c->n, sb[2] = 2;
  return 3;
}

/* x = lu_solve(lu, piv, b) on both, with the host's factors on both (so
 * that only the solve differs); GPU into a guarded x. */
static int solve_agrees(cusci_dtype dt, cusci_array *hl, cusci_array *hp, cusci_array *hb, cusci_array *gl, cusci_array *gp,
                        cusci_array *gb, int trans, tk_tol tol, const char *what)
{
  cusci_array *hx = NULL;
  tk_guard gx;
  cusci_status sh = cusci_linalg_lu_solve(host, hl, hp, hb, (cusci_linalg_trans)trans, &hx);
  int good = sh == CUSCI_OK;
  if (good) {
    good = tk_guard_make(gpu, cusci_array_ndim(hx), cusci_array_shape(hx), dt, PAD, &gx);
    cusci_status sg = good ? cusci_linalg_lu_solve(gpu, gl, gp, gb, (cusci_linalg_trans)trans, &gx.out) : CUSCI_ERR_INTERNAL;
    if (sg != CUSCI_OK)
      diag("%s: GPU %s (%s)", what, cusci_status_name(sg), cusci_ctx_last_error(gpu));
    good = good && sg == CUSCI_OK && tk_guard_intact(&gx, what) && tk_agree(gpu, gx.out, host, hx, tol, what);
    tk_guard_free(&gx);
  } else {
    diag("%s: host %s (%s)", what, cusci_status_name(sh), cusci_ctx_last_error(host));
  }
  cusci_array_release(hx);
  return good;
}

/* lu_solve with bad pivots `vals` at flat indices `at` (n of them): on
 * both backends CUSCI_ERR_VALUE and one message, naming the pivot at the
 * smallest index; x (given or NULL) left alone; then the good pivots
 * solve on the same context. */
static void bad_pivots(const shape_case *c, cusci_array *hl, cusci_array *hp, cusci_array *hb, cusci_array *gl, cusci_array *gp,
                       cusci_array *gb, int nbad, const int64_t *at, const int32_t *vals, const char *label)
{
  int64_t first = -1;
  int32_t *pv = tk_to_host(host, hp), want = 0;
  for (int i = 0; i < nbad; i++) {
    pv[at[i]] = vals[i];
    if (first < 0 || at[i] < first)
      first = at[i], want = vals[i];
  }
  cusci_array *hbad = NULL, *gbad = NULL, *hx = NULL, *xo = NULL;
  cusci_array_from_host(host, pv, c->nd - 1, c->sh, CUSCI_INT32, &hbad);
  gbad = tk_copy_to(gpu, host, hbad);
  char frag[96], what[160];
  snprintf(frag, sizeof frag, "piv holds %d, outside 0..%lld", (int)want, (long long)c->n - 1);
  snprintf(what, sizeof what, "lu_solve %s, %s", c->name, label);
  int64_t sb[3];
  int nbd = b_shape(c, sb);
  tk_guard gx;
  int made = tk_guard_make(gpu, nbd, sb, c->dt, PAD, &gx);
  cusci_status sg = made ? cusci_linalg_lu_solve(gpu, gl, gbad, gb, CUSCI_LINALG_TRANS_N, &gx.out) : CUSCI_ERR_INTERNAL;
  tk_status(gpu, sg, CUSCI_ERR_VALUE, frag, what);
  cusci_status sh = cusci_linalg_lu_solve(host, hl, hbad, hb, CUSCI_LINALG_TRANS_N, &hx);
  ok(sh == CUSCI_ERR_VALUE && strcmp(cusci_ctx_last_error(gpu), cusci_ctx_last_error(host)) == 0,
     "%s: the host's status and message (\"%s\")", what, cusci_ctx_last_error(host));
  ok(made && untouched(&gx) && tk_guard_intact(&gx, "x"), "%s: the given x left as it was, guards intact", what);
  sg = cusci_linalg_lu_solve(gpu, gl, gbad, gb, CUSCI_LINALG_TRANS_C, &xo);
  ok(sg == CUSCI_ERR_VALUE && xo == NULL, "%s, conjugate transposed: CUSCI_ERR_VALUE (%s), x left NULL", what, cusci_status_name(sg));
  ok(solve_agrees(c->dt, hl, hp, hb, gl, gp, gb, 0, tol_for(c->n, DOMINANT), "x"), "%s: then the good pivots solve on the same context",
     what);
  tk_guard_free(&gx);
  cusci_array_release(hbad), cusci_array_release(gbad), cusci_array_release(hx), cusci_array_release(xo);
  free(pv);
}

static void solve_case(const shape_case *c, uint64_t *seed)
{
  static const char *const trans_name[3] = { "a x = b", "a^T x = b", "a^H x = b" };
  lu_c *va = values_of(c, DOMINANT, seed);
  int64_t sb[3];
  int nbd = b_shape(c, sb);
  lu_c *vb = lu_rand_values(seed, c->dt, nbd, sb, 0);
  cusci_array *ha = lu_array(host, c->dt, c->nd, c->sh, va), *hb = lu_array(host, c->dt, nbd, sb, vb), *hl = NULL, *hp = NULL;
  if (cusci_linalg_lu_factor(host, ha, &hl, &hp) != CUSCI_OK) {
    ok(0, "lu_solve %s: the host's lu_factor (%s)", c->name, cusci_ctx_last_error(host));
    cusci_array_release(ha), cusci_array_release(hb);
    free(va), free(vb);
    return;
  }
  cusci_array *gl = tk_copy_to(gpu, host, hl), *gp = tk_copy_to(gpu, host, hp), *gb = tk_copy_to(gpu, host, hb);
  tk_tol tol = tol_for(c->n, DOMINANT);
  for (int t = 0; t < 3; t++)
    ok(solve_agrees(c->dt, hl, hp, hb, gl, gp, gb, t, tol, "x"), "lu_solve %s, %s: x within tolerance of the host's, guards intact",
       c->name, trans_name[t]);
  if (c->nd == 2) {
    /* One matrix, a batch of right-hand sides: piv broadcast. */
    int64_t s3[3] = { 3, c->n, 2 };
    lu_c *v3 = lu_rand_values(seed, c->dt, 3, s3, 0);
    cusci_array *hb3 = lu_array(host, c->dt, 3, s3, v3), *gb3 = tk_copy_to(gpu, host, hb3);
    ok(solve_agrees(c->dt, hl, hp, hb3, gl, gp, gb3, 0, tol, "x"), "lu_solve %s against b 3x%lldx2: x within tolerance of the host's",
       c->name, (long long)c->n);
    cusci_array_release(hb3), cusci_array_release(gb3);
    free(v3);
  }

  /* Bad pivots: n (just past the end) in the last row of the second
   * matrix (of the only one), with a later -1 when there is room; the
   * most negative and the largest int32 at the two ends; -1 alone at
   * the very end. */
  int64_t n = c->n, count = c->batch * n;
  {
    int64_t at[2] = { (c->batch > 1 ? n : 0) + n - 1, count - 1 };
    int32_t vals[2] = { (int32_t)n, -1 };
    bad_pivots(c, hl, hp, hb, gl, gp, gb, at[1] > at[0] ? 2 : 1, at, vals, "piv = n, then -1");
  }
  {
    int64_t at[2] = { count - 1, 0 };
    int32_t vals[2] = { INT32_MAX, INT32_MIN };
    bad_pivots(c, hl, hp, hb, gl, gp, gb, count > 1 ? 2 : 1, count > 1 ? at : at + 1, count > 1 ? vals : vals + 1,
               "piv = INT32_MIN first, INT32_MAX last");
  }
  {
    int64_t at[1] = { count - 1 };
    int32_t vals[1] = { -1 };
    bad_pivots(c, hl, hp, hb, gl, gp, gb, 1, at, vals, "piv = -1 last");
  }
  {
    /* A bad pivot with a NaN in b: the pivot is reported, as on the host. */
    lu_c *vn = malloc(sizeof *vn * (size_t)cusci_array_size(hb));
    memcpy(vn, vb, sizeof *vn * (size_t)cusci_array_size(hb));
    vn[0] = NAN;
    cusci_array *hbn = lu_array(host, c->dt, nbd, sb, vn), *gbn = tk_copy_to(gpu, host, hbn);
    int32_t *pv = tk_to_host(host, hp);
    pv[count - 1] = (int32_t)n + 5;
    cusci_array *hbad = NULL, *gbad = NULL, *xg = NULL, *xh = NULL;
    cusci_array_from_host(host, pv, c->nd - 1, c->sh, CUSCI_INT32, &hbad);
    gbad = tk_copy_to(gpu, host, hbad);
    char frag[96], what[160];
    snprintf(frag, sizeof frag, "piv holds %d, outside 0..%lld", (int)n + 5, (long long)n - 1);
    snprintf(what, sizeof what, "lu_solve %s, piv = n + 5 and a NaN in b", c->name);
    tk_status(gpu, cusci_linalg_lu_solve(gpu, gl, gbad, gbn, CUSCI_LINALG_TRANS_N, &xg), CUSCI_ERR_VALUE, frag, what);
    ok(cusci_linalg_lu_solve(host, hl, hbad, hbn, CUSCI_LINALG_TRANS_N, &xh) == CUSCI_ERR_VALUE &&
           strcmp(cusci_ctx_last_error(gpu), cusci_ctx_last_error(host)) == 0 && xg == NULL,
       "%s: the host's message, x left NULL", what);
    cusci_array_release(hbn), cusci_array_release(gbn), cusci_array_release(hbad), cusci_array_release(gbad);
    cusci_array_release(xg), cusci_array_release(xh);
    free(pv), free(vn);
  }
  cusci_array_release(ha), cusci_array_release(hb), cusci_array_release(hl), cusci_array_release(hp);
  cusci_array_release(gl), cusci_array_release(gp), cusci_array_release(gb);
  free(va), free(vb);
}

/* The deferred check mode: lu_factor and lu queue the pivots' work
 * without a wait and still agree with the host; lu_solve still reports a
 * bad pivot itself, and leaves nothing of that call for
 * cusci_linalg_check (a NaN in b with a bad pivot is reported once). */
static void deferred_case(uint64_t *seed)
{
  shape_case c = make_case(CUSCI_COMPLEX64, 3, 33);
  ok(cusci_linalg_set_check(gpu, CUSCI_LINALG_CHECK_DEFERRED) == CUSCI_OK, "deferred checks: set_check");
  factor_case(&c, DOMINANT, seed);
  for (int m = 0; m < 3; m++)
    lu_case(&c, DOMINANT, m, seed);
  solve_case(&c, seed);
  cusci_status st = cusci_linalg_check(gpu);
  ok(st == CUSCI_OK, "deferred checks: cusci_linalg_check finds nothing left (%s%s%s)", cusci_status_name(st), st ? ": " : "",
     st ? cusci_ctx_last_error(gpu) : "");
  ok(cusci_linalg_set_check(gpu, CUSCI_LINALG_CHECK_IMMEDIATE) == CUSCI_OK, "deferred checks: set_check immediate again");
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  uint64_t seed = 0x1f2e3d4c5b6a7988ull;
  /* Pieces (tk_part): the dtypes; the deferred case goes with the first. */
  for (int d = 0; d < 4; d++) {
    if (!tk_part(d))
      continue;
    cusci_dtype dt = lu_dtypes[d];
    bool dbl = !cusci_dtype_is_single(dt);
    for (size_t o = 0; o < sizeof orders / sizeof *orders; o++)
      for (int nd = 2; nd <= 3; nd++) {
        shape_case c = make_case(dt, nd, orders[o]);
        factor_case(&c, DOMINANT, &seed);
        if (dbl)
          factor_case(&c, RANDOM, &seed);
        for (int m = 0; m < 3; m++) {
          lu_case(&c, DOMINANT, m, &seed);
          if (dbl)
            lu_case(&c, RANDOM, m, &seed);
        }
        solve_case(&c, &seed);
        if (orders[o] == 33)
          factor_nonfinite(&c, &seed);
      }
  }
  if (tk_part(0))
    deferred_case(&seed);
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
