/*
 * tests/linalg-qr-gpu.c: the GPU paths of qr, rq, lstsq, norm, cond,
 * trace, null_space, orth, vdot, tensordot, multi_dot, matrix_power,
 * einsum, block_diag and convolution_matrix against the host backend on
 * the same random inputs, in the four dtypes, batched; then the property
 * suite (tests/linalg-qr-suite.h) and the error paths on the GPU. Where a
 * factor is unique only up to signs, the moduli are compared (|R|) and the
 * properties prove the rest. Skipped where there is no GPU.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-qr-suite.h"

static cusci_ctx *gpu, *host;

#define REL(x) (cusci_array_release(x), (x) = NULL)

static void pair(cusci_dtype dt, int ndim, const int64_t *shape, const lu_c *vals, cusci_array **g, cusci_array **h)
{
  *g = lu_array(gpu, dt, ndim, shape, vals);
  *h = lu_array(host, dt, ndim, shape, vals);
}

/* |g - h| <= tol * max(1, |h|) (moduli with absval), same shape and dtype;
 * releases both. */
static void cmp_ex(cusci_status sg, cusci_status sh, cusci_array **gp, cusci_array **hp, double tol, bool absval, const char *what, const char *dn)
{
  cusci_array *g = *gp, *h = *hp;
  double err = INFINITY, scale = 1;
  bool same = sg == CUSCI_OK && sh == CUSCI_OK && lu_same_shape(g, h, false);
  if (same) {
    int64_t n = cusci_array_size(h);
    lu_c *x = lu_values(gpu, g), *y = lu_values(host, h);
    if (absval)
      for (int64_t i = 0; i < n; i++)
        x[i] = cabs(x[i]), y[i] = cabs(y[i]);
    err = lu_maxdiff(x, y, n);
    scale = lu_maxabs(y, n);
    scale = scale > 1 ? scale : 1;
    free(x), free(y);
  }
  ok(same && err <= tol * scale, "%s %s: GPU vs host %.3g <= %.3g (%s / %s)", what, dn, err, tol * scale, cusci_status_name(sg), cusci_status_name(sh));
  REL(*gp), REL(*hp);
}
#define cmp(sg, sh, gp, hp, tol, what, dn) cmp_ex((sg), (sh), (gp), (hp), (tol), false, (what), (dn))

#define PER_DTYPE 37
static void compare(cusci_dtype dt, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  double eps = lu_eps(dt);
  cusci_array *g = NULL, *h = NULL, *g2 = NULL, *h2 = NULL, *og = NULL, *oh = NULL, *qg = NULL, *qh = NULL, *pg = NULL, *ph = NULL;
  char what[96];

  /* qr: |R| in every mode on a tall and a wide batch (6); pivoted: R and
   * P exactly as the host's, since both run LAPACK's geqp3 (2). */
  static const int64_t shapes[2][3] = { { 3, 40, 25 }, { 2, 20, 33 } };
  for (int c = 0; c < 2; c++) {
    lu_c *va = lu_rand_values(seed, dt, 3, shapes[c], 0);
    pair(dt, 3, shapes[c], va, &g, &h);
    double tol = 64 * 40 * eps;
    for (int mode = 0; mode < 3; mode++) {
      cusci_linalg_qr_opts o = { .mode = (cusci_linalg_qr_mode)mode };
      bool wq = mode != CUSCI_LINALG_QR_R;
      cusci_status sg = cusci_linalg_qr(gpu, g, &o, wq ? &qg : NULL, &og, NULL), sh = cusci_linalg_qr(host, h, &o, wq ? &qh : NULL, &oh, NULL);
      snprintf(what, sizeof what, "qr (%lld,%lld,%lld) mode %d |R|", (long long)shapes[c][0], (long long)shapes[c][1], (long long)shapes[c][2], mode);
      cmp_ex(sg, sh, &og, &oh, tol, true, what, dn);
      REL(qg), REL(qh);
    }
    cusci_linalg_qr_opts po = { .pivoting = true, .mode = CUSCI_LINALG_QR_ECONOMIC };
    cusci_status sg = cusci_linalg_qr(gpu, g, &po, &qg, &og, &pg), sh = cusci_linalg_qr(host, h, &po, &qh, &oh, &ph);
    snprintf(what, sizeof what, "qr pivoting (%lld,%lld,%lld) R and P", (long long)shapes[c][0], (long long)shapes[c][1], (long long)shapes[c][2]);
    cmp(sg, sh, &og, &oh, 0, what, dn);
    REL(qg), REL(qh);
    cmp(sg, sh, &pg, &ph, 0, "qr pivoting P", dn);
    (void)0;
    REL(g), REL(h);
    free(va);
  }

  /* rq: |R| (2). */
  {
    int64_t sh3[3] = { 2, 6, 11 };
    lu_c *va = lu_rand_values(seed, dt, 3, sh3, 0);
    pair(dt, 3, sh3, va, &g, &h);
    for (int econ = 0; econ < 2; econ++) {
      cusci_linalg_rq_opts o = { .mode = econ ? CUSCI_LINALG_QR_ECONOMIC : CUSCI_LINALG_QR_FULL };
      cusci_status sg = cusci_linalg_rq(gpu, g, &o, &og, &qg), sh = cusci_linalg_rq(host, h, &o, &oh, &qh);
      cmp_ex(sg, sh, &og, &oh, 64 * 11 * eps, true, econ ? "rq (2,6,11) economic |R|" : "rq (2,6,11) full |R|", dn);
      REL(qg), REL(qh);
    }
    REL(g), REL(h);
    free(va);
  }

  /* lstsq: a tall full-rank system (x, residues, s, rank), a rank-deficient
   * one and a wide one (x) (5). */
  {
    int64_t sa[2] = { 30, 8 }, sb[2] = { 30, 3 };
    lu_c *va = lu_rand_values(seed, dt, 2, sa, 0), *vb = lu_rand_values(seed, dt, 2, sb, 0);
    pair(dt, 2, sa, va, &g, &h);
    pair(dt, 2, sb, vb, &g2, &h2);
    cusci_array *rg = NULL, *rh = NULL, *sgv = NULL, *shv = NULL;
    int64_t kg = -1, kh = -2;
    cusci_status sg = lstsq1(gpu, g, g2, NULL, &og, &rg, &kg, &sgv), sh = lstsq1(host, h, h2, NULL, &oh, &rh, &kh, &shv);
    cmp(sg, sh, &og, &oh, 256 * 30 * eps, "lstsq 30x8 x", dn);
    cmp(sg, sh, &rg, &rh, 256 * 30 * eps, "lstsq 30x8 residues", dn);
    cmp(sg, sh, &sgv, &shv, 64 * 30 * eps, "lstsq 30x8 s", dn);
    ok(kg == 8 && kh == 8, "lstsq 30x8 %s: rank %lld and %lld", dn, (long long)kg, (long long)kh);
    REL(g), REL(h), REL(g2), REL(h2);
    free(va), free(vb);
    /* Rank 3: a (12 x 3) (3 x 7) product; b a vector. */
    int64_t sl_[2] = { 12, 3 }, sr_[2] = { 3, 7 }, sv[1] = { 12 };
    lu_c *vl = lu_rand_values(seed, dt, 2, sl_, 0), *vr = lu_rand_values(seed, dt, 2, sr_, 0), *vv = lu_rand_values(seed, dt, 1, sv, 0);
    lu_c *prod = malloc(sizeof *prod * 84);
    lu_gemm('N', vl, vr, prod, 12, 7, 3);
    int64_t sp[2] = { 12, 7 };
    pair(dt, 2, sp, prod, &g, &h);
    pair(dt, 1, sv, vv, &g2, &h2);
    /* The product rounded to the dtype has rank 7, its four small singular
     * values some tenths of eps * s[0]; each side's SVD adds its own
     * rounding of a few eps * s[0] (the GPU's QR then SVD more than
     * gelsd), so SciPy's default cond = eps sits on the edge and the two
     * sides can count 3 and 4. A cond of 1000 eps decides rank 3 on both
     * with room on either side. */
    cusci_linalg_lstsq_opts lo = { .has_cond = true, .cond = 1000 * eps };
    sg = lstsq1(gpu, g, g2, &lo, &og, &rg, &kg, &sgv);
    sh = lstsq1(host, h, h2, &lo, &oh, &rh, &kh, &shv);
    bool ranks = kg == 3 && kh == 3 && sg == CUSCI_OK && cusci_array_size(rg) == 0;
    if (!ranks)
      diag("lstsq rank 3 %s: GPU %s rank %lld, %lld residues; host %s rank %lld", dn, cusci_status_name(sg),
           (long long)kg, sg == CUSCI_OK ? (long long)cusci_array_size(rg) : -1LL, cusci_status_name(sh), (long long)kh);
    cmp(ranks ? sg : CUSCI_ERR_INTERNAL, sh, &og, &oh, 1024 * 12 * eps, "lstsq rank 3 of 12x7, minimum-norm x", dn);
    REL(rg), REL(rh), REL(sgv), REL(shv), REL(g), REL(h), REL(g2), REL(h2);
    free(vl), free(vr), free(vv), free(prod);
  }

  /* norm over several ords and axes (6), cond (2), trace (1). */
  {
    int64_t st3[3] = { 3, 9, 7 };
    lu_c *va = lu_rand_values(seed, dt, 3, st3, 0);
    pair(dt, 3, st3, va, &g, &h);
    static const struct {
      cusci_linalg_norm_opts o;
      const char *what;
    } nc[] = { { { 0 }, "norm all" },
               { { .ord = CUSCI_LINALG_ORD_P, .p = 3, .naxes = 1, .axes = { 1 } }, "norm p=3 axis 1" },
               { { .ord = CUSCI_LINALG_ORD_P, .p = 0, .naxes = 1, .axes = { -1 }, .keepdims = true }, "norm p=0 axis -1 keepdims" },
               { { .ord = CUSCI_LINALG_ORD_NUC, .naxes = 2, .axes = { 1, 2 } }, "norm nuc axes (1,2)" },
               { { .ord = CUSCI_LINALG_ORD_P, .p = -2, .naxes = 2, .axes = { 2, 1 } }, "norm -2 axes (2,1)" },
               { { .ord = CUSCI_LINALG_ORD_NEG_INF, .naxes = 2, .axes = { 0, 2 }, .keepdims = true }, "norm -inf axes (0,2) keepdims" } };
    for (int i = 0; i < 6; i++)
      cmp(cusci_linalg_norm(gpu, g, &nc[i].o, &og), cusci_linalg_norm(host, h, &nc[i].o, &oh), &og, &oh, 64 * 9 * eps, nc[i].what, dn);
    cmp(cusci_linalg_cond(gpu, g, CUSCI_LINALG_ORD_NONE, 0, &og), cusci_linalg_cond(host, h, CUSCI_LINALG_ORD_NONE, 0, &oh), &og, &oh,
        256 * 9 * eps, "cond 2 (3,9,7)", dn);
    cmp(cusci_linalg_trace(gpu, g, 1, 1, 2, &og), cusci_linalg_trace(host, h, 1, 1, 2, &oh), &og, &oh, 16 * eps, "trace offset 1", dn);
    REL(g), REL(h);
    free(va);
    int64_t s44[3] = { 2, 6, 6 };
    va = lu_rand_values(seed, dt, 3, s44, 3.0);
    pair(dt, 3, s44, va, &g, &h);
    cmp(cusci_linalg_cond(gpu, g, CUSCI_LINALG_ORD_P, 1, &og), cusci_linalg_cond(host, h, CUSCI_LINALG_ORD_P, 1, &oh), &og, &oh, 256 * 6 * eps,
        "cond 1 (2,6,6)", dn);
    /* matrix_power -3 and 5 (2). */
    cmp(cusci_linalg_matrix_power(gpu, g, -3, &og), cusci_linalg_matrix_power(host, h, -3, &oh), &og, &oh, 1024 * 6 * eps, "matrix_power -3", dn);
    cmp(cusci_linalg_matrix_power(gpu, g, 5, &og), cusci_linalg_matrix_power(host, h, 5, &oh), &og, &oh, 256 * 6 * eps, "matrix_power 5", dn);
    REL(g), REL(h);
    free(va);
  }

  /* null_space and orth: the projectors (2). */
  {
    int64_t sl_[2] = { 4, 2 }, sr_[2] = { 2, 6 }, sp[2] = { 4, 6 };
    lu_c *vl = lu_rand_values(seed, dt, 2, sl_, 0), *vr = lu_rand_values(seed, dt, 2, sr_, 0), *prod = malloc(sizeof *prod * 24);
    lu_gemm('N', vl, vr, prod, 4, 6, 2);
    pair(dt, 2, sp, prod, &g, &h);
    for (int null = 0; null < 2; null++) {
      cusci_status sg = null ? cusci_linalg_null_space(gpu, g, 0, &og) : cusci_linalg_orth(gpu, g, 0, &og);
      cusci_status sh = null ? cusci_linalg_null_space(host, h, 0, &oh) : cusci_linalg_orth(host, h, 0, &oh);
      double err = INFINITY;
      if (sg == CUSCI_OK && sh == CUSCI_OK && cusci_array_shape(og)[1] == cusci_array_shape(oh)[1]) {
        int64_t r = cusci_array_shape(oh)[0], c = cusci_array_shape(oh)[1];
        lu_c *x = lu_values(gpu, og), *y = lu_values(host, oh), *px = malloc(sizeof *px * (size_t)(r * r)), *py = malloc(sizeof *py * (size_t)(r * r));
        lu_c *xt = malloc(sizeof *xt * (size_t)(r * c + 1)), *yt = malloc(sizeof *yt * (size_t)(r * c + 1));
        for (int64_t i = 0; i < r; i++)
          for (int64_t j = 0; j < c; j++)
            xt[j * r + i] = conj(x[i * c + j]), yt[j * r + i] = conj(y[i * c + j]);
        lu_gemm('N', x, xt, px, r, r, c);
        lu_gemm('N', y, yt, py, r, r, c);
        err = lu_maxdiff(px, py, r * r);
        free(x), free(y), free(px), free(py), free(xt), free(yt);
      }
      ok(err <= 256 * 6 * eps, "%s %s: projector GPU vs host %.3g", null ? "null_space" : "orth", dn, err);
      REL(og), REL(oh);
    }
    REL(g), REL(h);
    free(vl), free(vr), free(prod);
  }

  /* vdot, tensordot, multi_dot, einsum (5). */
  {
    int64_t sa[3] = { 3, 4, 5 }, sb[3] = { 4, 5, 6 };
    lu_c *va = lu_rand_values(seed, dt, 3, sa, 0), *vb = lu_rand_values(seed, dt, 3, sb, 0);
    pair(dt, 3, sa, va, &g, &h);
    pair(dt, 3, sb, vb, &g2, &h2);
    double tol = 64 * 20 * eps * 2.385 * 2.385;
    cmp(cusci_linalg_tensordot(gpu, g, g2, 2, NULL, NULL, &og), cusci_linalg_tensordot(host, h, h2, 2, NULL, NULL, &oh), &og, &oh, tol,
        "tensordot axes 2", dn);
    cmp(cusci_linalg_einsum(gpu, "bij,ijk->kb", g, g2, &og), cusci_linalg_einsum(host, "bij,ijk->kb", h, h2, &oh), &og, &oh, tol,
        "einsum bij,ijk->kb", dn);
    cmp(cusci_linalg_einsum(gpu, "bij->jb", g, NULL, &og), cusci_linalg_einsum(host, "bij->jb", h, NULL, &oh), &og, &oh, tol, "einsum bij->jb", dn);
    REL(g2), REL(h2);
    lu_c *vc = lu_rand_values(seed, dt, 3, sa, 0);
    pair(dt, 3, sa, vc, &g2, &h2);
    cmp(cusci_linalg_vdot(gpu, g, g2, &og), cusci_linalg_vdot(host, h, h2, &oh), &og, &oh, 64 * 60 * eps * 2.385 * 2.385, "vdot (3,4,5)", dn);
    REL(g), REL(h), REL(g2), REL(h2);
    int64_t s1[2] = { 30, 4 }, s2[2] = { 4, 50 }, s3[2] = { 50, 3 };
    lu_c *m1 = lu_rand_values(seed, dt, 2, s1, 0), *m2 = lu_rand_values(seed, dt, 2, s2, 0), *m3 = lu_rand_values(seed, dt, 2, s3, 0);
    cusci_array *gm[3], *hm[3];
    pair(dt, 2, s1, m1, &gm[0], &hm[0]);
    pair(dt, 2, s2, m2, &gm[1], &hm[1]);
    pair(dt, 2, s3, m3, &gm[2], &hm[2]);
    cmp(cusci_linalg_multi_dot(gpu, 3, (const cusci_array *const *)gm, &og), cusci_linalg_multi_dot(host, 3, (const cusci_array *const *)hm, &oh), &og,
        &oh, 64 * 50 * eps * 2.385 * 2.385 * 2.385 * 4, "multi_dot (30,4)(4,50)(50,3)", dn);
    for (int i = 0; i < 3; i++)
      cusci_array_release(gm[i]), cusci_array_release(hm[i]);
    free(va), free(vb), free(vc), free(m1), free(m2), free(m3);
  }

  /* block_diag and convolution_matrix (2). */
  {
    int64_t sa[2] = { 3, 2 }, sv[1] = { 5 };
    lu_c *va = lu_rand_values(seed, dt, 2, sa, 0), *vv = lu_rand_values(seed, dt, 1, sv, 0);
    pair(dt, 2, sa, va, &g, &h);
    pair(dt, 1, sv, vv, &g2, &h2);
    cmp(cusci_linalg_block_diag(gpu, 2, (const cusci_array *const[]){ g, g2 }, &og),
        cusci_linalg_block_diag(host, 2, (const cusci_array *const[]){ h, h2 }, &oh), &og, &oh, 0, "block_diag", dn);
    cmp(cusci_linalg_convolution_matrix(gpu, g2, 4, CUSCI_LINALG_CONV_SAME, &og),
        cusci_linalg_convolution_matrix(host, h2, 4, CUSCI_LINALG_CONV_SAME, &oh), &og, &oh, 0, "convolution_matrix same", dn);
    REL(g), REL(h), REL(g2), REL(h2);
    free(va), free(vv);
  }
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  plan(4 * PER_DTYPE + qs_count() + 1 + 3 + 4);
  uint64_t seed = 0x51ab;
  for (int i = 0; i < 4; i++)
    compare(lu_dtypes[i], &seed);
  qs_all(gpu);

  /* qr without the finite check: nothing waits for the stream; the next
   * read of the results must still see them. */
  {
    int64_t sh[3] = { 3, 40, 25 };
    lu_c *va = lu_rand_values(&seed, CUSCI_FLOAT64, 3, sh, 0);
    cusci_array *g = NULL, *h = NULL, *qg = NULL, *qh = NULL, *rg = NULL, *rh = NULL;
    pair(CUSCI_FLOAT64, 3, sh, va, &g, &h);
    cusci_linalg_qr_opts o = { .no_check_finite = true };
    cusci_status sg = cusci_linalg_qr(gpu, g, &o, &qg, &rg, NULL), sh2 = cusci_linalg_qr(host, h, &o, &qh, &rh, NULL);
    cmp_ex(sg, sh2, &rg, &rh, 64 * 40 * DBL_EPSILON, true, "qr no_check_finite (3,40,25) |R|", "float64");
    REL(qg), REL(qh), REL(g), REL(h);
    free(va);
  }

  /* lstsq on a stack of complex systems, b broadcast from one matrix:
   * x, residues and the ranks. */
  {
    int64_t sa[3] = { 3, 20, 6 }, sb[2] = { 20, 2 };
    lu_c *va = lu_rand_values(&seed, CUSCI_COMPLEX128, 3, sa, 0), *vb = lu_rand_values(&seed, CUSCI_COMPLEX128, 2, sb, 0);
    cusci_array *g = NULL, *h = NULL, *g2 = NULL, *h2 = NULL, *xg = NULL, *xh = NULL, *rg = NULL, *rh = NULL, *kg = NULL, *kh = NULL, *sg_ = NULL,
                *sh_ = NULL;
    pair(CUSCI_COMPLEX128, 3, sa, va, &g, &h);
    pair(CUSCI_COMPLEX128, 2, sb, vb, &g2, &h2);
    cusci_status sg = cusci_linalg_lstsq(gpu, g, g2, NULL, &xg, &rg, &kg, &sg_), sh2 = cusci_linalg_lstsq(host, h, h2, NULL, &xh, &rh, &kh, &sh_);
    cmp(sg, sh2, &xg, &xh, 256 * 20 * DBL_EPSILON, "lstsq (3,20,6) with b (20,2): x", "complex128");
    cmp(sg, sh2, &rg, &rh, 256 * 20 * DBL_EPSILON, "lstsq (3,20,6) with b (20,2): residues", "complex128");
    cmp(sg, sh2, &kg, &kh, 0, "lstsq (3,20,6) with b (20,2): ranks", "complex128");
    REL(sg_), REL(sh_), REL(g), REL(h), REL(g2), REL(h2);
    free(va), free(vb);
  }

  /* Errors on the GPU. */
  int64_t s2[2] = { 3, 3 };
  double nv[9] = { 1, 2, 3, 4, NAN, 6, 7, 8, 10 };
  cusci_array *an = NULL, *hn = NULL, *q = NULL, *r = NULL, *p = NULL, *x = NULL, *res = NULL, *s = NULL;
  cusci_array_from_host(gpu, nv, 2, s2, CUSCI_FLOAT64, &an);
  cusci_array_from_host(host, nv, 2, s2, CUSCI_FLOAT64, &hn);
  cusci_status st = cusci_linalg_qr(gpu, an, NULL, &q, &r, NULL);
  ok(st == CUSCI_ERR_VALUE && !q && !r, "qr NaN on the GPU: %s", cusci_ctx_last_error(gpu));
  st = cusci_linalg_qr(gpu, an, &(cusci_linalg_qr_opts){ .pivoting = true }, &q, &r, &p);
  ok(st == CUSCI_ERR_VALUE && !q && !r && !p, "qr pivoting NaN on the GPU: %s", cusci_ctx_last_error(gpu));
  int64_t rank = 0;
  st = lstsq1(gpu, an, an, NULL, &x, &res, &rank, &s);
  ok(st == CUSCI_ERR_VALUE && !x && !res && !s, "lstsq NaN on the GPU: %s", cusci_ctx_last_error(gpu));
  st = cusci_linalg_qr(gpu, hn, NULL, &q, &r, NULL);
  ok(st == CUSCI_ERR_DEVICE && !q && !r, "qr of a host array on a GPU context: %s", cusci_status_name(st));
  cusci_array_release(an), cusci_array_release(hn);
  cusci_ctx_destroy(host);
  cusci_ctx_destroy(gpu);
  return done_testing();
}
