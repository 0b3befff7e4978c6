/*
 * tests/linalg-small-gpu.c: solve, inv, det and slogdet of batches of small
 * matrices (n = 1..32, the register kernels) on the GPU against the host
 * backend (LAPACKE), in the four dtypes, for batches of 1, 31 and 1000
 * matrices given contiguous, transposed and strided, with one, three and
 * n + 2 right-hand sides (the first two through the warp kernel's
 * Gauss-Jordan solve, the last through its LU and substitutions, for
 * n >= 9); then singular matrices inside a batch (the failing index and
 * the batch index) and inf or NaN in a or b. Each matrix is judged alone, with a
 * tolerance of n * eps times its 1-norm condition number (from the host's
 * inverse). Random matrices without a diagonal shift, so that rows are
 * swapped. Skipped where there is no GPU.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-util.h"

static cusci_ctx *gpu, *host;

#define REL(x) (cusci_array_release(x), (x) = NULL)

/* The 1-norm of the n x n matrix m. */
static double norm1(const lu_c *m, int64_t n)
{
  double best = 0;
  for (int64_t j = 0; j < n; j++) {
    double s = 0;
    for (int64_t i = 0; i < n; i++)
      s += cabs(m[i * n + j]);
    best = s > best ? s : best;
  }
  return best;
}

/* The largest over the batch of |x_i - y_i| / (tol_i * max(1, |y_i|)),
 * per matrix of `per` values; <= 1 passes. */
static double worst(const lu_c *x, const lu_c *y, int64_t batch, int64_t per, const double *tol)
{
  double w = 0;
  for (int64_t i = 0; i < batch; i++) {
    double s = lu_maxabs(y + i * per, per);
    double r = lu_maxdiff(x + i * per, y + i * per, per) / (tol[i] * (s > 1 ? s : 1));
    w = r > w || r != r ? r : w;
  }
  return w;
}

/* An array of shape (batch, n, n) (or (n, n) for one matrix) holding
 * `vals`, laid out as `layout` says: 0 contiguous, 1 the transpose of a
 * contiguous array of the transposed values, 2 every other matrix of a
 * batch twice as long, with a padded last axis. */
static cusci_array *matrices(cusci_ctx *ctx, cusci_dtype dt, int64_t batch, int64_t n, const lu_c *vals, int layout)
{
  int64_t s3[3] = { batch, n, n };
  cusci_array *a = NULL, *v = NULL;
  if (layout == 0) {
    if (batch == 1)
      return lu_array(ctx, dt, 2, s3 + 1, vals);
    return lu_array(ctx, dt, 3, s3, vals);
  }
  if (layout == 1) {
    lu_c *t = malloc(sizeof *t * (size_t)(batch * n * n));
    for (int64_t b = 0; b < batch; b++)
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
          t[(b * n + j) * n + i] = vals[(b * n + i) * n + j];
    a = lu_array(ctx, dt, 3, s3, t);
    free(t);
    int axes[3] = { 0, 2, 1 };
    cusci_array_transpose(ctx, a, axes, &v);
  } else {
    int64_t sp[3] = { 2 * batch, n, n + 3 };
    lu_c *t = calloc((size_t)(2 * batch * n * (n + 3)), sizeof *t);
    for (int64_t b = 0; b < batch; b++)
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
          t[((2 * b) * n + i) * (n + 3) + j] = vals[(b * n + i) * n + j];
    a = lu_array(ctx, dt, 3, sp, t);
    free(t);
    int64_t start[3] = { 0, 0, 0 }, stop[3] = { CUSCI_SLICE_NONE, CUSCI_SLICE_NONE, n }, step[3] = { 2, 1, 1 };
    cusci_array_slice(ctx, a, start, stop, step, &v);
  }
  cusci_array_release(a);
  return v;
}

static const char *layout_name[3] = { "contiguous", "transposed", "strided" };

/* solve, inv and det of one batch on both backends. */
static void one_case(cusci_dtype dt, int64_t n, int64_t batch, int layout, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  double eps = lu_eps(dt);
  int64_t k = batch == 1 ? 1 : batch == 31 ? 3 : n + 2;
  int64_t sa[3] = { batch, n, n }, sb[3] = { batch, n, k };
  lu_c *va = lu_rand_values(seed, dt, 3, sa, 0), *vb = lu_rand_values(seed, dt, 3, sb, 0);
  cusci_array *g = matrices(gpu, dt, batch, n, va, layout), *h = matrices(host, dt, batch, n, va, layout);
  cusci_array *gb, *hb, *og = NULL, *oh = NULL;
  if (batch == 1) { /* one matrix, b a vector */
    gb = lu_array(gpu, dt, 1, sb + 1, vb);
    hb = lu_array(host, dt, 1, sb + 1, vb);
  } else {
    gb = lu_array(gpu, dt, 3, sb, vb);
    hb = lu_array(host, dt, 3, sb, vb);
  }
  double *tol = malloc(sizeof *tol * (size_t)batch);

  /* inv, and from it each matrix's condition number. */
  cusci_status sg = cusci_linalg_inv(gpu, g, &og), sh = cusci_linalg_inv(host, h, &oh);
  double w = INFINITY;
  if (sg == CUSCI_OK && sh == CUSCI_OK) {
    lu_c *x = lu_values(gpu, og), *y = lu_values(host, oh);
    for (int64_t i = 0; i < batch; i++)
      tol[i] = 16 * (double)n * eps * norm1(va + i * n * n, n) * norm1(y + i * n * n, n);
    w = worst(x, y, batch, n * n, tol);
    free(x), free(y);
  }
  ok(w <= 1, "inv %s n=%lld batch=%lld %s: worst error / tolerance %.3g (%s / %s)", dn, (long long)n, (long long)batch, layout_name[layout], w,
     cusci_status_name(sg), cusci_status_name(sh));
  REL(og), REL(oh);
  if (sh != CUSCI_OK) { /* no tolerances: the solve and det below fail */
    for (int64_t i = 0; i < batch; i++)
      tol[i] = NAN;
  }

  sg = cusci_linalg_solve(gpu, g, gb, NULL, &og);
  sh = cusci_linalg_solve(host, h, hb, NULL, &oh);
  w = INFINITY;
  if (sg == CUSCI_OK && sh == CUSCI_OK) {
    lu_c *x = lu_values(gpu, og), *y = lu_values(host, oh);
    w = worst(x, y, batch, n * k, tol);
    free(x), free(y);
  }
  ok(w <= 1, "solve %s n=%lld batch=%lld k=%lld %s: worst error / tolerance %.3g (%s / %s)", dn, (long long)n, (long long)batch, (long long)k,
     layout_name[layout], w, cusci_status_name(sg), cusci_status_name(sh));
  REL(og), REL(oh);

  if (batch == 31 && (dt == CUSCI_FLOAT32 || dt == CUSCI_FLOAT64)) {
    /* a^T x = b: the kernels read the matrix transposed. The transpose has
     * the same 1-norm condition number as a only up to a factor n. */
    cusci_linalg_solve_opts to = { .transposed = true };
    double *tt = malloc(sizeof *tt * (size_t)batch);
    for (int64_t i = 0; i < batch; i++)
      tt[i] = tol[i] * (double)n;
    sg = cusci_linalg_solve(gpu, g, gb, &to, &og);
    sh = cusci_linalg_solve(host, h, hb, &to, &oh);
    w = INFINITY;
    if (sg == CUSCI_OK && sh == CUSCI_OK) {
      lu_c *x = lu_values(gpu, og), *y = lu_values(host, oh);
      w = worst(x, y, batch, n * k, tt);
      free(x), free(y);
    }
    ok(w <= 1, "solve transposed %s n=%lld batch=%lld %s: worst error / tolerance %.3g (%s / %s)", dn, (long long)n, (long long)batch,
       layout_name[layout], w, cusci_status_name(sg), cusci_status_name(sh));
    REL(og), REL(oh);
    free(tt);
  }

  /* det: relative to |det| itself. */
  sg = cusci_linalg_det(gpu, g, &og);
  sh = cusci_linalg_det(host, h, &oh);
  w = INFINITY;
  if (sg == CUSCI_OK && sh == CUSCI_OK) {
    lu_c *x = lu_values(gpu, og), *y = lu_values(host, oh);
    w = 0;
    for (int64_t i = 0; i < batch; i++) {
      double r = cabs(x[i] - y[i]) / (cabs(y[i]) * tol[i]);
      w = r > w || r != r ? r : w;
    }
    free(x), free(y);
  }
  ok(w <= 1, "det %s n=%lld batch=%lld %s: worst relative error / tolerance %.3g (%s / %s)", dn, (long long)n, (long long)batch,
     layout_name[layout], w, cusci_status_name(sg), cusci_status_name(sh));
  REL(og), REL(oh);

  /* slogdet: the sign, and log|det| to an absolute error (a relative one
   * of |det|). */
  cusci_array *lg = NULL, *lh = NULL;
  sg = cusci_linalg_slogdet(gpu, g, &og, &lg);
  sh = cusci_linalg_slogdet(host, h, &oh, &lh);
  w = INFINITY;
  if (sg == CUSCI_OK && sh == CUSCI_OK) {
    lu_c *x = lu_values(gpu, og), *y = lu_values(host, oh), *lx = lu_values(gpu, lg), *ly = lu_values(host, lh);
    w = 0;
    for (int64_t i = 0; i < batch; i++) {
      double r = cabs(x[i] - y[i]) / tol[i], rl = cabs(lx[i] - ly[i]) / tol[i];
      r = rl > r || rl != rl ? rl : r;
      w = r > w || r != r ? r : w;
    }
    free(x), free(y), free(lx), free(ly);
  }
  ok(w <= 1, "slogdet %s n=%lld batch=%lld %s: worst error / tolerance %.3g (%s / %s)", dn, (long long)n, (long long)batch, layout_name[layout], w,
     cusci_status_name(sg), cusci_status_name(sh));
  REL(og), REL(oh), REL(lg), REL(lh);

  free(tol);
  free(va), free(vb);
  cusci_array *arrays[] = { g, h, gb, hb };
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
    cusci_array_release(arrays[i]);
}

/* A batch of 100 whose matrix 57 has column c zero: solve and inv fail
 * with pivot U[c, c] and batch index [57]; det is 0 there, as the host's,
 * and nowhere else (its values are judged by one_case). */
static void singular_case(cusci_dtype dt, int64_t n, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  const int64_t batch = 100, bad = 57, c = n / 2;
  int64_t sa[3] = { batch, n, n }, sb[3] = { batch, n, 2 };
  lu_c *va = lu_rand_values(seed, dt, 3, sa, 0), *vb = lu_rand_values(seed, dt, 3, sb, 0);
  for (int64_t i = 0; i < n; i++)
    va[(bad * n + i) * n + c] = 0;
  cusci_array *g = lu_array(gpu, dt, 3, sa, va), *h = lu_array(host, dt, 3, sa, va), *gb = lu_array(gpu, dt, 3, sb, vb), *out = NULL;
  char want[64], at[64];
  snprintf(want, sizeof want, "U[%lld, %lld]", (long long)c, (long long)c);
  snprintf(at, sizeof at, "batch index [%lld]", (long long)bad);
  cusci_status st = cusci_linalg_solve(gpu, g, gb, NULL, &out);
  const char *m = cusci_ctx_last_error(gpu);
  ok(st == CUSCI_ERR_LINALG && out == NULL && strstr(m, want) && strstr(m, at), "solve singular %s n=%lld: %s", dn, (long long)n, m);
  st = cusci_linalg_inv(gpu, g, &out);
  m = cusci_ctx_last_error(gpu);
  ok(st == CUSCI_ERR_LINALG && out == NULL && strstr(m, want) && strstr(m, at), "inv singular %s n=%lld: %s", dn, (long long)n, m);
  cusci_array *oh = NULL;
  st = cusci_linalg_det(gpu, g, &out);
  cusci_status sh = cusci_linalg_det(host, h, &oh);
  bool good = st == CUSCI_OK && sh == CUSCI_OK;
  if (good) {
    lu_c *x = lu_values(gpu, out), *y = lu_values(host, oh);
    good = x[bad] == 0 && y[bad] == 0;
    for (int64_t i = 0; i < batch; i++)
      good = good && (i == bad || x[i] != 0);
    free(x), free(y);
  }
  ok(good, "det singular %s n=%lld: 0 at the singular matrix only", dn, (long long)n);
  cusci_array *sgn = NULL, *lad = NULL;
  st = cusci_linalg_slogdet(gpu, g, &sgn, &lad);
  good = st == CUSCI_OK;
  if (good) {
    lu_c *x = lu_values(gpu, sgn), *l = lu_values(gpu, lad);
    good = x[bad] == 0 && isinf(creal(l[bad])) && creal(l[bad]) < 0;
    for (int64_t i = 0; i < batch; i++)
      good = good && (i == bad || (fabs(cabs(x[i]) - 1) < 1e3 * lu_eps(dt) && isfinite(creal(l[i]))));
    free(x), free(l);
  }
  ok(good, "slogdet singular %s n=%lld: sign 0 and -inf at the singular matrix only", dn, (long long)n);
  cusci_array_release(sgn), cusci_array_release(lad);
  cusci_array *arrays[] = { g, h, gb, out, oh };
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
    cusci_array_release(arrays[i]);
  free(va), free(vb);
}

/* An inf in b and a NaN in a, where each kernel reads them: the register
 * kernel (n = 6, b staged for k <= 6, read in place above), and rows read
 * straight from a (n = 16 and 32), with one, a few and many columns. */
static void finite_checks(uint64_t *seed)
{
  const int64_t ns[3] = { 6, 16, 32 }, ks[3] = { 1, 3, 40 };
  for (int i = 0; i < 3; i++) {
    int64_t n = ns[i], sa[3] = { 40, n, n };
    lu_c *va = lu_rand_values(seed, CUSCI_FLOAT64, 3, sa, 0);
    cusci_array *g = lu_array(gpu, CUSCI_FLOAT64, 3, sa, va), *out = NULL;
    for (int j = 0; j < 3; j++) {
      int64_t k = ks[j], sb[3] = { 40, n, k };
      lu_c *vb = lu_rand_values(seed, CUSCI_FLOAT64, 3, sb, 0);
      vb[(33 * n + n - 1) * k + k - 1] = INFINITY;
      cusci_array *gb = lu_array(gpu, CUSCI_FLOAT64, 3, sb, vb);
      cusci_status st = cusci_linalg_solve(gpu, g, gb, NULL, &out);
      ok(st == CUSCI_ERR_VALUE && out == NULL, "solve with an inf in b, %lldx%lld, k=%lld: %s", (long long)n, (long long)n, (long long)k,
         cusci_ctx_last_error(gpu));
      cusci_array_release(gb);
      free(vb);
    }
    cusci_array_release(g);
    va[(21 * n + 2) * n + n - 2] = NAN;
    g = lu_array(gpu, CUSCI_FLOAT64, 3, sa, va);
    cusci_status st = cusci_linalg_inv(gpu, g, &out);
    ok(st == CUSCI_ERR_VALUE && out == NULL, "inv with a NaN, %lldx%lld: %s", (long long)n, (long long)n, cusci_ctx_last_error(gpu));
    cusci_array_release(g);
    free(va);
  }
}

/* a whose data starts one element (4 or 8 bytes) past a 16-byte
 * boundary: the kernels take any start at a multiple of the element's
 * size, and the results are an aligned copy's bit for bit. */
static void misaligned_case(cusci_dtype dt, int64_t n, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  const int64_t batch = 70, total = batch * n * n + 1, sa[3] = { batch, n, n }, sb[3] = { batch, n, 1 };
  lu_c *va = lu_rand_values(seed, dt, 1, &total, 0), *vb = lu_rand_values(seed, dt, 3, sb, 0);
  cusci_array *flat = lu_array(gpu, dt, 1, &total, va), *tail = NULL, *mis = NULL;
  int64_t start = 1, stop = CUSCI_SLICE_NONE, step = 1;
  cusci_status st = cusci_array_slice(gpu, flat, &start, &stop, &step, &tail);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(gpu, tail, 3, sa, &mis);
  cusci_array *al = lu_array(gpu, dt, 3, sa, va + 1), *gb = lu_array(gpu, dt, 3, sb, vb);
  ok(st == CUSCI_OK && ((uintptr_t)cusci_array_data(mis) & 15) != 0 && ((uintptr_t)cusci_array_data(al) & 15) == 0,
     "misaligned %s n=%lld: a view 1 element in", dn, (long long)n);
  const char *what[2] = { "inv", "solve" };
  for (int op = 0; op < 2; op++) {
    cusci_array *x = NULL, *y = NULL;
    cusci_status s1 = op ? cusci_linalg_solve(gpu, mis, gb, NULL, &x) : cusci_linalg_inv(gpu, mis, &x);
    cusci_status s2 = op ? cusci_linalg_solve(gpu, al, gb, NULL, &y) : cusci_linalg_inv(gpu, al, &y);
    bool same = s1 == CUSCI_OK && s2 == CUSCI_OK;
    if (same) {
      size_t nb = cusci_array_nbytes(x);
      void *hx = malloc(nb), *hy = malloc(nb);
      same = cusci_array_to_host(gpu, x, hx, nb) == CUSCI_OK && cusci_array_to_host(gpu, y, hy, nb) == CUSCI_OK && memcmp(hx, hy, nb) == 0;
      free(hx), free(hy);
    }
    ok(same, "%s %s n=%lld: misaligned a gives the aligned a's result bit for bit (%s / %s)", what[op], dn, (long long)n, cusci_status_name(s1),
       cusci_status_name(s2));
    cusci_array_release(x), cusci_array_release(y);
  }
  cusci_array *arrays[] = { flat, tail, mis, al, gb };
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
    cusci_array_release(arrays[i]);
  free(va), free(vb);
}

#define NMAX 32
static const int64_t batches[3] = { 1, 31, 1000 };
/* misaligned_case's orders: the per-thread kernel's, then the warp kernel's two classes. */
static const int64_t mis_n[] = { 3, 8, 16, 32 };
#define MIS_COUNT ((int)(sizeof mis_n / sizeof *mis_n))

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  plan(4 * NMAX * 3 * 4 + 2 * NMAX + 4 * 3 * 4 + 7 + 3 * 4 + 2 * MIS_COUNT * 3);
  uint64_t seed = 0x5eed5a11;
  for (int d = 0; d < 4; d++)
    for (int64_t n = 1; n <= NMAX; n++)
      for (int b = 0; b < 3; b++)
        one_case(lu_dtypes[d], n, batches[b], (int)((n + b) % 3), &seed);
  for (int d = 0; d < 4; d++) {
    singular_case(lu_dtypes[d], 12, &seed);
    singular_case(lu_dtypes[d], 17, &seed);
    singular_case(lu_dtypes[d], 32, &seed);
  }
  /* check_finite: a NaN in one matrix of a batch of 20x20. */
  {
    int64_t sa[3] = { 3, 20, 20 }, sb[3] = { 3, 20, 1 };
    lu_c *va = lu_rand_values(&seed, CUSCI_FLOAT64, 3, sa, 0), *vb = lu_rand_values(&seed, CUSCI_FLOAT64, 3, sb, 0);
    va[20 * 20 + 7] = NAN;
    cusci_array *g = lu_array(gpu, CUSCI_FLOAT64, 3, sa, va), *gb = lu_array(gpu, CUSCI_FLOAT64, 3, sb, vb), *out = NULL;
    cusci_status st = cusci_linalg_solve(gpu, g, gb, NULL, &out);
    ok(st == CUSCI_ERR_VALUE && out == NULL, "solve with a NaN, 20x20: %s", cusci_ctx_last_error(gpu));
    st = cusci_linalg_inv(gpu, g, &out);
    ok(st == CUSCI_ERR_VALUE && out == NULL, "inv with a NaN, 20x20: %s", cusci_ctx_last_error(gpu));
    st = cusci_linalg_det(gpu, g, &out);
    ok(st == CUSCI_ERR_VALUE && out == NULL, "det with a NaN, 20x20: %s", cusci_ctx_last_error(gpu));
    cusci_array *lad = NULL;
    st = cusci_linalg_slogdet(gpu, g, &out, &lad);
    ok(st == CUSCI_ERR_VALUE && out == NULL && lad == NULL, "slogdet with a NaN, 20x20: %s", cusci_ctx_last_error(gpu));
    st = cusci_linalg_solve(gpu, g, gb, &(cusci_linalg_solve_opts){ .no_check_finite = true }, &out);
    ok(st == CUSCI_OK, "solve with a NaN and check_finite off, 20x20: %s", cusci_status_name(st));
    cusci_array_release(out);
    out = NULL;
    cusci_array_release(g), cusci_array_release(gb);
    free(va), free(vb);
    /* A NaN in b: staged (k = 2) and read in place (k = 60). */
    int64_t kk[2] = { 2, 60 };
    for (int i = 0; i < 2; i++) {
      int64_t sk[3] = { 3, 20, kk[i] };
      va = lu_rand_values(&seed, CUSCI_FLOAT64, 3, sa, 0);
      vb = lu_rand_values(&seed, CUSCI_FLOAT64, 3, sk, 0);
      vb[2 * 20 * kk[i] + 19 * kk[i] + kk[i] - 1] = INFINITY;
      g = lu_array(gpu, CUSCI_FLOAT64, 3, sa, va);
      gb = lu_array(gpu, CUSCI_FLOAT64, 3, sk, vb);
      st = cusci_linalg_solve(gpu, g, gb, NULL, &out);
      ok(st == CUSCI_ERR_VALUE && out == NULL, "solve with an inf in b, 20x20, k=%lld: %s", (long long)kk[i], cusci_ctx_last_error(gpu));
      cusci_array_release(g), cusci_array_release(gb);
      free(va), free(vb);
    }
  }
  finite_checks(&seed);
  for (int d = 0; d < 2; d++)
    for (int i = 0; i < MIS_COUNT; i++)
      misaligned_case(d ? CUSCI_FLOAT32 : CUSCI_FLOAT64, mis_n[i], &seed);
  cusci_ctx_destroy(host);
  cusci_ctx_destroy(gpu);
  return done_testing();
}
