/*
 * tests/linalg-gpu.c: the CUDA backend of liblinalg against the host
 * backend (LAPACKE) on the same random inputs, in the four dtypes, batched
 * and strided, including ill-conditioned systems, with tolerances scaled by
 * n * eps * cond; then the property suite and the error paths on the GPU.
 * Skipped where there is no GPU.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-propsuite.h"

static cusci_ctx *gpu, *host;

/* The same values on both contexts. */
static void pair(cusci_dtype dt, int ndim, const int64_t *shape, const lu_c *vals, cusci_array **g, cusci_array **h)
{
  *g = lu_array(gpu, dt, ndim, shape, vals);
  *h = lu_array(host, dt, ndim, shape, vals);
}

/* |g - h| <= tol * max(1, |h|), shapes equal. */
static void cmp(cusci_status sg, cusci_status sh, cusci_array **gp, cusci_array **hp, double tol, const char *what, const char *dn)
{
  cusci_array *g = *gp, *h = *hp; /* read after the calls */
  double err = INFINITY, scale = 1;
  bool same = sg == CUSCI_OK && sh == CUSCI_OK && lu_same_shape(g, h, false);
  if (same)
    err = lu_array_diff(gpu, g, host, h, &scale);
  ok(same && err <= tol * scale, "%s %s: GPU vs host %.3g <= %.3g (%s / %s)", what, dn, err, tol * scale, cusci_status_name(sg),
     cusci_status_name(sh));
}

/* 2-norm condition number of each matrix of a batch, by the host svd. */
static double cond_of(cusci_array *h)
{
  cusci_array *s = NULL;
  double c = INFINITY;
  if (cusci_linalg_svd(host, h, false, false, NULL, &s, NULL) == CUSCI_OK) {
    int64_t k = cusci_array_shape(s)[cusci_array_ndim(s) - 1], n = cusci_array_size(s);
    lu_c *v = lu_values(host, s);
    c = 1;
    for (int64_t i = 0; i < n; i += k) {
      double ci = creal(v[i]) / creal(v[i + k - 1]);
      c = ci > c ? ci : c;
    }
    free(v);
  }
  cusci_array_release(s);
  return c;
}

#define PER_DTYPE 15

/* Release and forget, so that the next call allocates anew (an array left
 * in an output pointer would be written into). */
#define REL(x) (cusci_array_release(x), (x) = NULL)

static void compare(cusci_dtype dt, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  double eps = lu_eps(dt);
  cusci_array *g = NULL, *h = NULL, *g2 = NULL, *h2 = NULL, *og = NULL, *oh = NULL;

  /* matmul: a broadcast batch times one matrix, and a 1-D operand. */
  int64_t sa[3] = { 4, 33, 17 }, sb[2] = { 17, 9 }, sv[1] = { 33 };
  lu_c *va = lu_rand_values(seed, dt, 3, sa, 0), *vb = lu_rand_values(seed, dt, 2, sb, 0), *vv = lu_rand_values(seed, dt, 1, sv, 0);
  pair(dt, 3, sa, va, &g, &h);
  pair(dt, 2, sb, vb, &g2, &h2);
  cmp(cusci_linalg_matmul(gpu, g, g2, &og), cusci_linalg_matmul(host, h, h2, &oh), &og, &oh, 4 * 17 * eps * 2.385 * 2.385 * 2, "matmul (4,33,17)@(17,9)", dn);
  REL(og), REL(oh), REL(g2), REL(h2);
  og = oh = NULL;
  pair(dt, 1, sv, vv, &g2, &h2);
  cmp(cusci_linalg_matmul(gpu, g2, g, &og), cusci_linalg_matmul(host, h2, h, &oh), &og, &oh, 4 * 33 * eps * 2.385 * 2.385 * 2, "matmul (33,)@(4,33,17)", dn);
  REL(og), REL(oh), REL(g2), REL(h2), REL(g), REL(h);
  og = oh = NULL;
  free(va), free(vb), free(vv);

  /* solve, inv, det on a batch of ill-conditioned matrices (a small
   * diagonal shift on random ones), given as transposed views. */
  const int64_t n = 40, batch = 5;
  int64_t sn[3] = { batch, n, n }, sk[3] = { batch, n, 3 };
  va = lu_rand_values(seed, dt, 3, sn, 0.05);
  vb = lu_rand_values(seed, dt, 3, sk, 0);
  cusci_array *gt = NULL, *ht = NULL;
  pair(dt, 3, sn, va, &gt, &ht);
  int axes[3] = { 0, 2, 1 };
  cusci_array_transpose(gpu, gt, axes, &g);
  cusci_array_transpose(host, ht, axes, &h);
  double cond = cond_of(h);
  diag("%s: condition number of the solve batch %.3g", dn, cond);
  pair(dt, 3, sk, vb, &g2, &h2);
  cmp(cusci_linalg_solve(gpu, g, g2, NULL, &og), cusci_linalg_solve(host, h, h2, NULL, &oh), &og, &oh, 8 * n * eps * cond, "solve (5,40,40) strided", dn);
  REL(og), REL(oh);
  og = oh = NULL;
  if (dt == CUSCI_FLOAT32 || dt == CUSCI_FLOAT64) {
    cusci_linalg_solve_opts to = { .transposed = true };
    cmp(cusci_linalg_solve(gpu, g, g2, &to, &og), cusci_linalg_solve(host, h, h2, &to, &oh), &og, &oh, 8 * n * eps * cond, "solve transposed", dn);
  } else {
    cusci_linalg_solve_opts so = { .assume_a = CUSCI_LINALG_ASSUME_HER, .lower = true };
    cmp(cusci_linalg_solve(gpu, g, g2, &so, &og), cusci_linalg_solve(host, h, h2, &so, &oh), &og, &oh, 8 * n * eps * cond * 100, "solve her", dn);
  }
  REL(og), REL(oh);
  og = oh = NULL;
  cmp(cusci_linalg_inv(gpu, g, &og), cusci_linalg_inv(host, h, &oh), &og, &oh, 8 * n * eps * cond, "inv (5,40,40) strided", dn);
  REL(og), REL(oh);
  og = oh = NULL;
  {
    cusci_status sg = cusci_linalg_det(gpu, g, &og), sh = cusci_linalg_det(host, h, &oh);
    /* det's relative error: n eps per factor, against |det| itself. */
    double err = INFINITY;
    if (sg == CUSCI_OK && sh == CUSCI_OK) {
      lu_c *x = lu_values(gpu, og), *y = lu_values(host, oh);
      err = 0;
      for (int64_t i = 0; i < batch; i++) {
        double e = cabs(x[i] - y[i]) / cabs(y[i]);
        err = e > err ? e : err;
      }
      free(x), free(y);
    }
    ok(err <= 8 * n * eps * cond, "det %s: relative GPU vs host %.3g", dn, err);
  }
  {
    /* lu_factor: the same factors and pivots. */
    cusci_array *lg_ = NULL, *pg = NULL, *lh_ = NULL, *ph = NULL;
    cusci_status s1 = cusci_linalg_lu_factor(gpu, g, &lg_, &pg), s2 = cusci_linalg_lu_factor(host, h, &lh_, &ph);
    double el = INFINITY;
    bool same_piv = false;
    if (s1 == CUSCI_OK && s2 == CUSCI_OK) {
      lu_c *x1 = lu_values(gpu, lg_), *y1 = lu_values(host, lh_);
      int32_t *p1 = tk_to_host(gpu, pg), *p2 = tk_to_host(host, ph);
      el = lu_maxdiff(x1, y1, batch * n * n) / lu_maxabs(y1, batch * n * n);
      same_piv = memcmp(p1, p2, sizeof *p1 * (size_t)(batch * n)) == 0;
      free(x1), free(y1), free(p1), free(p2);
    }
    ok(same_piv && el <= 8 * n * eps * cond, "lu_factor %s: same pivots %d, factors GPU vs host %.3g", dn, same_piv, el);
    REL(lg_), REL(pg), REL(lh_), REL(ph);
    /* lu: p, l, u assembled from those factors. */
    cusci_array *pg2 = NULL, *lg2 = NULL, *ug2 = NULL, *ph2 = NULL, *lh2 = NULL, *uh2 = NULL;
    s1 = cusci_linalg_lu(gpu, g, NULL, &pg2, &lg2, &ug2);
    s2 = cusci_linalg_lu(host, h, NULL, &ph2, &lh2, &uh2);
    double e3 = INFINITY;
    if (s1 == CUSCI_OK && s2 == CUSCI_OK) {
      cusci_array *gs[3] = { pg2, lg2, ug2 }, *hs[3] = { ph2, lh2, uh2 };
      e3 = 0;
      for (int q = 0; q < 3; q++) {
        lu_c *x1 = lu_values(gpu, gs[q]), *y1 = lu_values(host, hs[q]);
        double e = lu_maxdiff(x1, y1, batch * n * n) / lu_maxabs(y1, batch * n * n);
        e3 = e > e3 ? e : e3;
        free(x1), free(y1);
      }
    }
    ok(e3 <= 8 * n * eps * cond, "lu %s: p, l, u GPU vs host %.3g", dn, e3);
    REL(pg2), REL(lg2), REL(ug2), REL(ph2), REL(lh2), REL(uh2);
  }
  {
    cusci_array *sg = NULL, *lg = NULL, *sh = NULL, *lh = NULL;
    cusci_status s1 = cusci_linalg_slogdet(gpu, g, &sg, &lg), s2 = cusci_linalg_slogdet(host, h, &sh, &lh);
    double es = INFINITY, el = INFINITY;
    if (s1 == CUSCI_OK && s2 == CUSCI_OK) {
      lu_c *x1 = lu_values(gpu, sg), *y1 = lu_values(host, sh), *x2 = lu_values(gpu, lg), *y2 = lu_values(host, lh);
      es = lu_maxdiff(x1, y1, batch);
      el = lu_maxdiff(x2, y2, batch);
      free(x1), free(y1), free(x2), free(y2);
    }
    ok(es <= 8 * n * eps * cond && el <= 8 * n * eps * cond, "slogdet %s: sign %.3g, log|det| %.3g GPU vs host", dn, es, el);
    REL(sg), REL(lg), REL(sh), REL(lh);
  }
  REL(og), REL(oh), REL(g), REL(h);
  REL(g2), REL(h2), REL(gt), REL(ht);
  og = oh = NULL;
  free(va), free(vb);

  /* cholesky and eigh on Hermitian positive definite matrices (n = 45). */
  int64_t sp[3] = { 3, 45, 45 };
  va = lu_hpd_values(seed, dt, 3, sp);
  pair(dt, 3, sp, va, &g, &h);
  double hc = cond_of(h);
  for (int lower = 0; lower < 2; lower++) {
    cmp(cusci_linalg_cholesky(gpu, g, lower, &og), cusci_linalg_cholesky(host, h, lower, &oh), &og, &oh, 8 * 45 * eps * sqrt(hc), lower ? "cholesky lower" : "cholesky upper", dn);
    REL(og), REL(oh);
    og = oh = NULL;
  }
  cusci_array *vg = NULL, *vh = NULL;
  cmp(cusci_linalg_eigh(gpu, g, NULL, &og, &vg), cusci_linalg_eigh(host, h, NULL, &oh, &vh), &og, &oh, 8 * 45 * eps, "eigh w", dn);
  REL(og), REL(oh), REL(vg), REL(vh);
  og = oh = NULL;
  REL(g), REL(h);
  free(va);

  /* svd: singular values of tall and wide batches, and a 200x120 matrix. */
  static const int64_t shapes[3][3] = { { 3, 30, 12 }, { 2, 9, 41 }, { 1, 200, 120 } };
  for (int c = 0; c < 3; c++) {
    va = lu_rand_values(seed, dt, 3, shapes[c], 0);
    pair(dt, 3, shapes[c], va, &g, &h);
    cusci_array *ug = NULL, *vhg = NULL;
    char what[64];
    snprintf(what, sizeof what, "svd s of (%lld,%lld,%lld)", (long long)shapes[c][0], (long long)shapes[c][1], (long long)shapes[c][2]);
    int64_t mx = shapes[c][1] > shapes[c][2] ? shapes[c][1] : shapes[c][2];
    cmp(cusci_linalg_svd(gpu, g, false, true, &ug, &og, &vhg), cusci_linalg_svd(host, h, false, false, NULL, &oh, NULL), &og, &oh, 16 * mx * eps, what, dn);
    REL(og), REL(oh), REL(ug), REL(vhg);
    og = oh = NULL;
    REL(g), REL(h);
    free(va);
  }
}

/* A random batch (b, m, n) of rank r: X (m x r) times Y (r x n). */
static lu_c *rank_values(uint64_t *seed, cusci_dtype dt, const int64_t *sh, int64_t r)
{
  int64_t b = sh[0], m = sh[1], n = sh[2], xs[3] = { b, m, r }, ys[3] = { b, r, n };
  lu_c *x = lu_rand_values(seed, dt, 3, xs, 0), *y = lu_rand_values(seed, dt, 3, ys, 0), *a = malloc(sizeof *a * (size_t)(b * m * n));
  for (int64_t i = 0; i < b; i++)
    lu_gemm('N', x + i * m * r, y + i * r * n, a + i * m * n, m, n, r);
  free(x), free(y);
  return a;
}

/* svd on the GPU over tall, wide and square batches, full and economic,
 * with vectors and values only, each call made twice (a reused pool block
 * must not change the result): U diag(s) Vh = A with orthonormal U and Vh,
 * and s against the host's. Besides random matrices: a tall batch of half
 * rank (singular values at rounding level) and a wide one whose columns
 * are graded over six decades. 5 shapes x (2 + 1) checks per dtype. */
#define SVD_SHAPES_PER_DTYPE 15
static void svd_shapes(cusci_dtype dt, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  double eps = lu_eps(dt);
  /* batch, m, n, kind: 0 random, 1 rank n / 2, 2 graded columns */
  static const int64_t shapes[5][4] = { { 3, 9, 4, 0 }, { 2, 4, 9, 0 }, { 2, 6, 6, 0 }, { 2, 40, 24, 1 }, { 2, 24, 40, 2 } };
  for (int c = 0; c < 5; c++) {
    const int64_t *sh = shapes[c];
    int64_t batch = sh[0], m = sh[1], n = sh[2], K = m < n ? m : n, mx = m > n ? m : n;
    lu_c *va = sh[3] == 1 ? rank_values(seed, dt, sh, n / 2) : lu_rand_values(seed, dt, 3, sh, 0);
    if (sh[3] == 2)
      for (int64_t i = 0; i < batch * m * n; i++)
        va[i] *= pow(10.0, -6.0 * (double)(i % n) / (double)(n - 1));
    cusci_array *g, *h, *sh_host = NULL;
    pair(dt, 3, sh, va, &g, &h);
    cusci_status sth = cusci_linalg_svd(host, h, false, false, NULL, &sh_host, NULL);
    lu_c *hs = sth == CUSCI_OK ? lu_values(host, sh_host) : NULL, *ra = lu_values(host, h);
    double scale = lu_maxabs(ra, batch * m * n) * (double)mx;
    for (int full = 0; full < 2; full++) {
      double er = INFINITY, eu = INFINITY, ev = INFINITY, es = INFINITY;
      cusci_status st = CUSCI_OK;
      for (int rep = 0; rep < 2 && st == CUSCI_OK; rep++) {
        cusci_array *u = NULL, *s = NULL, *vh = NULL;
        st = cusci_linalg_svd(gpu, g, full, true, &u, &s, &vh);
        int64_t uc = full ? m : K, vr = full ? n : K;
        if (st == CUSCI_OK && hs) {
          lu_c *vu = lu_values(gpu, u), *vs = lu_values(gpu, s), *vv = lu_values(gpu, vh);
          lu_c *us = malloc(sizeof *us * (size_t)(m * K)), *p = malloc(sizeof *p * (size_t)(m * n));
          double e = 0;
          for (int64_t b = 0; b < batch; b++) {
            for (int64_t i = 0; i < m; i++)
              for (int64_t j = 0; j < K; j++)
                us[i * K + j] = vu[b * m * uc + i * uc + j] * vs[b * K + j];
            lu_gemm('N', us, vv + b * vr * n, p, m, n, K);
            double d = lu_maxdiff(p, ra + b * m * n, m * n);
            e = d > e ? d : e;
          }
          double d = lu_maxdiff(vs, hs, batch * K);
          lu_c *vt = ctrans(vv, batch, vr, n);
          double ou = orth_err(vu, batch, m, uc), ov = orth_err(vt, batch, n, vr);
          er = rep == 0 || e > er ? e : er;
          eu = rep == 0 || ou > eu ? ou : eu;
          ev = rep == 0 || ov > ev ? ov : ev;
          es = rep == 0 || d > es ? d : es;
          free(vt), free(vu), free(vs), free(vv), free(us), free(p);
        } else if (st == CUSCI_OK) {
          st = CUSCI_ERR_INTERNAL;
        }
        REL(u), REL(s), REL(vh);
      }
      ok(st == CUSCI_OK && er <= 32 * eps * scale && eu <= 32 * mx * eps && ev <= 32 * mx * eps && es <= 16 * mx * eps * scale,
         "svd %s (%lld,%lld,%lld) full=%d on the GPU, twice: |U S Vh - A| %.3g, |U^H U - I| %.3g, |Vh Vh^H - I| %.3g, s vs host %.3g (%s)", dn,
         (long long)batch, (long long)m, (long long)n, full, er, eu, ev, es, cusci_status_name(st));
    }
    /* Values only, economic and full, twice each, against the host. */
    double es = INFINITY;
    cusci_status st = CUSCI_OK;
    for (int rep = 0; rep < 4 && st == CUSCI_OK; rep++) {
      cusci_array *s = NULL;
      st = rep < 2 ? cusci_linalg_svd(gpu, g, rep & 1, false, NULL, &s, NULL) : cusci_linalg_svdvals(gpu, g, &s);
      if (st == CUSCI_OK && hs && cusci_array_size(s) == batch * K) {
        lu_c *vs = lu_values(gpu, s);
        double d = lu_maxdiff(vs, hs, batch * K);
        es = rep == 0 || d > es ? d : es;
        free(vs);
      } else if (st == CUSCI_OK) {
        st = CUSCI_ERR_INTERNAL;
      }
      REL(s);
    }
    ok(st == CUSCI_OK && es <= 16 * mx * eps * scale, "svd %s (%lld,%lld,%lld) values only on the GPU: s vs host %.3g (%s)", dn, (long long)batch,
       (long long)m, (long long)n, es, cusci_status_name(st));
    REL(g), REL(h), REL(sh_host);
    free(hs);
    free(ra);
    free(va);
  }
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  /* Pieces (tk_part): the dtypes; the products and the errors go with the
   * first. */
  plan(tk_part_count(4) * (PER_DTYPE + SVD_SHAPES_PER_DTYPE) + lu_props_count() + (tk_part(0) ? 5 + 8 : 0));
  uint64_t seed = 0xc0ffee;
  for (int i = 0; i < 4; i++)
    if (tk_part(i))
      compare(lu_dtypes[i], &seed);
  for (int i = 0; i < 4; i++)
    if (tk_part(i))
      svd_shapes(lu_dtypes[i], &seed);
  lu_props(gpu);
  if (!tk_part(0)) {
    cusci_ctx_destroy(host);
    cusci_ctx_destroy(gpu);
    return done_testing();
  }

  /* dot, inner, outer, kron: reshapes and transposes around one gemm. */
  {
    int64_t sa[3] = { 2, 3, 4 }, sb[3] = { 5, 4, 6 }, sc[2] = { 5, 4 };
    lu_c *va = lu_rand_values(&seed, CUSCI_COMPLEX128, 3, sa, 0), *vb = lu_rand_values(&seed, CUSCI_COMPLEX128, 3, sb, 0);
    lu_c *vc = lu_rand_values(&seed, CUSCI_COMPLEX128, 2, sc, 0);
    cusci_array *ga, *ha, *gb, *hb2, *gc, *hc, *og = NULL, *oh = NULL;
    pair(CUSCI_COMPLEX128, 3, sa, va, &ga, &ha);
    pair(CUSCI_COMPLEX128, 3, sb, vb, &gb, &hb2);
    pair(CUSCI_COMPLEX128, 2, sc, vc, &gc, &hc);
    double tol = 64 * DBL_EPSILON * 2.385 * 2.385 * 4;
    cmp(cusci_linalg_dot(gpu, ga, gb, &og), cusci_linalg_dot(host, ha, hb2, &oh), &og, &oh, tol, "dot (2,3,4).(5,4,6)", "complex128");
    REL(og), REL(oh);
    cmp(cusci_linalg_inner(gpu, ga, gc, &og), cusci_linalg_inner(host, ha, hc, &oh), &og, &oh, tol, "inner (2,3,4).(5,4)", "complex128");
    REL(og), REL(oh);
    cmp(cusci_linalg_outer(gpu, ga, gc, &og), cusci_linalg_outer(host, ha, hc, &oh), &og, &oh, tol, "outer (2,3,4) x (5,4)", "complex128");
    REL(og), REL(oh);
    cmp(cusci_linalg_kron(gpu, gc, ga, &og), cusci_linalg_kron(host, hc, ha, &oh), &og, &oh, tol, "kron (5,4) x (2,3,4)", "complex128");
    REL(og), REL(oh);
    /* matrix_rank of (2,3,4) matrices of rank 3 (the svdvals path). */
    cmp(cusci_linalg_matrix_rank(gpu, ga, NULL, &og), cusci_linalg_matrix_rank(host, ha, NULL, &oh), &og, &oh, 0, "matrix_rank (2,3,4)", "complex128");
    REL(og), REL(oh);
    REL(ga), REL(ha), REL(gb), REL(hb2), REL(gc), REL(hc);
    free(va), free(vb), free(vc);
  }

  /* Errors on the GPU: the failing index and batch index come back from
   * cuSOLVER's info, a NaN from the finite check, a host array is refused. */
  int64_t s233[3] = { 2, 3, 3 }, s33[2] = { 3, 3 }, s3[1] = { 3 };
  double sing[2][9] = { { 2.385, 1, 0, 1, 2.385, 1, 0, 1, 2.385 }, { 1, 2, 3, 2, 4, 6, 1, 0, 1 } };
  double npd[2][9] = { { 4, 1, 0, 1, 3, 1, 0, 1, 5 }, { 4, 1, 0, 1, -3, 1, 0, 1, 5 } };
  double nanv[9] = { 1, 2, 3, 4, NAN, 6, 7, 8, 10 }, bv[3] = { 1.5, -2.25, 0.5 };
  cusci_array *as = NULL, *anp = NULL, *an = NULL, *b = NULL, *hb = NULL, *out = NULL;
  cusci_array_from_host(gpu, sing, 3, s233, CUSCI_FLOAT64, &as);
  cusci_array_from_host(gpu, npd, 3, s233, CUSCI_FLOAT64, &anp);
  cusci_array_from_host(gpu, nanv, 2, s33, CUSCI_FLOAT64, &an);
  cusci_array_from_host(gpu, bv, 1, s3, CUSCI_FLOAT64, &b);
  cusci_array_from_host(host, bv, 1, s3, CUSCI_FLOAT64, &hb);
  cusci_status st = cusci_linalg_inv(gpu, as, &out);
  const char *m = cusci_ctx_last_error(gpu);
  ok(st == CUSCI_ERR_LINALG && out == NULL && strstr(m, "U[2, 2]") && strstr(m, "batch index [1]"), "inv singular on the GPU: %s", m);
  st = cusci_linalg_solve(gpu, as, b, NULL, &out);
  ok(st == CUSCI_ERR_LINALG && out == NULL && strstr(cusci_ctx_last_error(gpu), "batch index [1]"), "solve singular on the GPU: %s", cusci_ctx_last_error(gpu));
  st = cusci_linalg_cholesky(gpu, anp, false, &out);
  m = cusci_ctx_last_error(gpu);
  ok(st == CUSCI_ERR_LINALG && out == NULL && strstr(m, "2-th leading minor") && strstr(m, "batch index [1]"), "cholesky not PD on the GPU: %s", m);
  st = cusci_linalg_solve(gpu, anp, b, &(cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_POS }, &out);
  ok(st == CUSCI_ERR_LINALG && out == NULL, "solve pos, not PD, on the GPU: %s", cusci_ctx_last_error(gpu));
  st = cusci_linalg_det(gpu, as, &out);
  double dd[2] = { -1, -1 };
  if (st == CUSCI_OK)
    cusci_array_to_host(gpu, out, dd, sizeof dd);
  ok(st == CUSCI_OK && dd[1] == 0 && fabs(dd[0] - 2.385 * (2.385 * 2.385 - 2)) < 1e-12, "det on the GPU: %g, %g", dd[0], dd[1]);
  cusci_array_release(out);
  out = NULL;
  st = cusci_linalg_eigh(gpu, an, NULL, &out, NULL);
  ok(st == CUSCI_ERR_VALUE && out == NULL, "eigh NaN on the GPU: %s", cusci_ctx_last_error(gpu));
  st = cusci_linalg_svd(gpu, an, false, false, NULL, &out, NULL);
  ok(st == CUSCI_ERR_VALUE && out == NULL, "svd NaN on the GPU: %s", cusci_ctx_last_error(gpu));
  st = cusci_linalg_solve(gpu, as, hb, NULL, &out);
  ok(st == CUSCI_ERR_DEVICE && out == NULL, "solve with a host b on a GPU context: %s", cusci_status_name(st));
  cusci_array *arrays[] = { as, anp, an, b, hb };
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
    cusci_array_release(arrays[i]);
  cusci_ctx_destroy(host);
  cusci_ctx_destroy(gpu);
  return done_testing();
}
