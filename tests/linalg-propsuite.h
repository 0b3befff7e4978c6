/*
 * tests/linalg-propsuite.h: the property suite of the linalg tests, as
 * static functions, so that its TAP lines count in the program that
 * includes it (tests/linalg-props.c on the host, tests/linalg-gpu.c).
 *
 * The properties need no reference: A x = b, A inv(A) = I,
 * det(A) det(inv(A)) = 1, L L^H = A, U diag(s) Vh = A with orthonormal U
 * and Vh, A v = v diag(w) with orthonormal v. Residuals are computed with
 * plain loops in complex128 and bounded by c * n * eps of the dtype times
 * the scale of the operands (the matrices are well conditioned, so cond is
 * a small constant folded into c).
 */
#ifndef CUSCI_TESTS_LINALG_PROPSUITE_H
#define CUSCI_TESTS_LINALG_PROPSUITE_H

#include <math.h>
#include <stdlib.h>

#include "tests/linalg-util.h"

/* max |X^H X - I| over a batch of (rows x cols) matrices (orthonormal
 * columns). */
static double orth_err(const lu_c *x, int64_t batch, int64_t rows, int64_t cols)
{
  double e = 0;
  lu_c *g = malloc(sizeof *g * (size_t)(cols > 0 ? cols * cols : 1));
  for (int64_t b = 0; b < batch; b++) {
    lu_gemm('H', x + b * rows * cols, x + b * rows * cols, g, cols, cols, rows);
    for (int64_t i = 0; i < cols * cols; i++) {
      double d = cabs(g[i] - (i / cols == i % cols ? 1 : 0));
      if (!(d <= e))
        e = d;
    }
  }
  free(g);
  return e;
}

/* Conjugate transpose of a batch of rows x cols matrices. */
static lu_c *ctrans(const lu_c *x, int64_t batch, int64_t rows, int64_t cols)
{
  lu_c *t = malloc(sizeof *t * (size_t)(batch * rows * cols > 0 ? batch * rows * cols : 1));
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++)
        t[b * rows * cols + j * rows + i] = conj(x[b * rows * cols + i * cols + j]);
  return t;
}

#define PROPS_PER_DTYPE 23

/* One piece per dtype (tk_part). */
static int lu_props_count(void) { return tk_part_count(4) * PROPS_PER_DTYPE; }

static void props_solve(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed, const char *dn)
{
  const int64_t n = 7, k = 3, batch = 3;
  double eps = lu_eps(dt);
  int64_t sa[3] = { batch, n, n }, sb[3] = { batch, n, k };
  lu_c *va = lu_rand_values(seed, dt, 3, sa, 3.0 * sqrt((double)n)), *vb = lu_rand_values(seed, dt, 3, sb, 0);
  cusci_array *a = lu_array(ctx, dt, 3, sa, va), *b = lu_array(ctx, dt, 3, sb, vb), *x = NULL;
  lu_c *ra = lu_values(ctx, a), *rb = lu_values(ctx, b); /* rounded to dt */
  cusci_status st = cusci_linalg_solve(ctx, a, b, NULL, &x);
  double err = INFINITY, scale = 1;
  if (st == CUSCI_OK) {
    lu_c *vx = lu_values(ctx, x), *ax = malloc(sizeof *ax * (size_t)(batch * n * k));
    err = 0;
    for (int64_t i = 0; i < batch; i++)
      lu_gemm('N', ra + i * n * n, vx + i * n * k, ax + i * n * k, n, k, n);
    err = lu_maxdiff(ax, rb, batch * n * k);
    scale = lu_maxabs(ra, batch * n * n) * lu_maxabs(vx, batch * n * k) * n + lu_maxabs(rb, batch * n * k);
    free(vx);
    free(ax);
  }
  ok(st == CUSCI_OK && err <= 16 * eps * scale, "solve %s: |A x - b| = %.3g <= 16 eps (|A||x|n + |b|) = %.3g (%s)", dn, err, 16 * eps * scale,
     cusci_status_name(st));
  cusci_array_release(x);
  x = NULL;

  /* A strided view (a transposed copy of A transposed back) and the pos
   * path on a Hermitian positive definite matrix, lower triangle. */
  lu_c *vh = lu_hpd_values(seed, dt, 3, sa);
  cusci_array *h = lu_array(ctx, dt, 3, sa, vh), *ht = NULL, *hv = NULL;
  int axes[3] = { 0, 2, 1 };
  cusci_array_transpose(ctx, h, axes, &ht);
  cusci_array *htc = NULL;
  cusci_array_copy(ctx, ht, &htc); /* conj(H) as a C-contiguous array: H^T */
  cusci_array_transpose(ctx, htc, axes, &hv); /* H again, as a strided view */
  cusci_linalg_solve_opts po = { .assume_a = CUSCI_LINALG_ASSUME_POS, .lower = true };
  st = cusci_linalg_solve(ctx, hv, b, &po, &x);
  err = INFINITY;
  if (st == CUSCI_OK) {
    lu_c *rh = lu_values(ctx, h), *vx = lu_values(ctx, x), *ax = malloc(sizeof *ax * (size_t)(batch * n * k));
    for (int64_t i = 0; i < batch; i++)
      lu_gemm('N', rh + i * n * n, vx + i * n * k, ax + i * n * k, n, k, n);
    err = lu_maxdiff(ax, rb, batch * n * k);
    scale = lu_maxabs(rh, batch * n * n) * lu_maxabs(vx, batch * n * k) * n + lu_maxabs(rb, batch * n * k);
    free(rh);
    free(vx);
    free(ax);
  }
  ok(st == CUSCI_OK && err <= 16 * eps * scale, "solve pos %s on a strided view: residual %.3g (%s)", dn, err, cusci_status_name(st));
  cusci_array_release(x);
  x = NULL;

  /* A 1-D b, broadcast over the batch of a. */
  int64_t sv[1] = { n };
  cusci_array *bv = lu_array(ctx, dt, 1, sv, vb);
  st = cusci_linalg_solve(ctx, a, bv, NULL, &x);
  err = INFINITY;
  if (st == CUSCI_OK && cusci_array_ndim(x) == 2 && cusci_array_shape(x)[0] == batch && cusci_array_shape(x)[1] == n) {
    lu_c *vx = lu_values(ctx, x), *rbv = lu_values(ctx, bv), ax[7];
    err = 0;
    for (int64_t i = 0; i < batch; i++) {
      lu_gemm('N', ra + i * n * n, vx + i * n, ax, n, 1, n);
      double e = lu_maxdiff(ax, rbv, n);
      err = e > err ? e : err;
    }
    scale = lu_maxabs(ra, batch * n * n) * lu_maxabs(vx, batch * n) * n + lu_maxabs(rbv, n);
    free(vx);
    free(rbv);
  }
  ok(st == CUSCI_OK && err <= 16 * eps * scale, "solve %s with a 1-D b broadcast to (3, 7): residual %.3g", dn, err);
  cusci_array_release(x);
  cusci_array_release(bv);
  x = NULL;

  /* inv: A inv(A) = I; det(A) det(inv(A)) = 1. */
  cusci_array *ai = NULL, *d1 = NULL, *d2 = NULL;
  st = cusci_linalg_inv(ctx, a, &ai);
  err = INFINITY;
  if (st == CUSCI_OK) {
    lu_c *vi = lu_values(ctx, ai), *p = malloc(sizeof *p * (size_t)(n * n));
    err = 0;
    for (int64_t i = 0; i < batch; i++) {
      lu_gemm('N', ra + i * n * n, vi + i * n * n, p, n, n, n);
      for (int64_t j = 0; j < n * n; j++) {
        double e = cabs(p[j] - (j / n == j % n ? 1 : 0));
        err = e > err ? e : err;
      }
    }
    scale = lu_maxabs(ra, batch * n * n) * lu_maxabs(vi, batch * n * n) * n;
    free(vi);
    free(p);
  }
  ok(st == CUSCI_OK && err <= 16 * eps * scale, "inv %s: |A inv(A) - I| = %.3g", dn, err);
  cusci_status s1 = cusci_linalg_det(ctx, a, &d1), s2 = st == CUSCI_OK ? cusci_linalg_det(ctx, ai, &d2) : st;
  err = INFINITY;
  if (s1 == CUSCI_OK && s2 == CUSCI_OK && cusci_array_ndim(d1) == 1) {
    lu_c *x1 = lu_values(ctx, d1), *x2 = lu_values(ctx, d2);
    err = 0;
    for (int64_t i = 0; i < batch; i++) {
      double e = cabs(x1[i] * x2[i] - 1);
      err = e > err ? e : err;
    }
    free(x1);
    free(x2);
  }
  ok(s1 == CUSCI_OK && s2 == CUSCI_OK && err <= 64 * n * eps, "det %s: |det(A) det(inv(A)) - 1| = %.3g", dn, err);
  cusci_array_release(ai);
  cusci_array_release(d1);
  cusci_array_release(d2);

  /* lu_factor then lu_solve with each trans: op(A) x = b. */
  {
    double e = 0;
    cusci_array *lu = NULL, *piv = NULL;
    cusci_status s3 = cusci_linalg_lu_factor(ctx, a, &lu, &piv);
    for (int t = 0; t < 3 && s3 == CUSCI_OK; t++) {
      cusci_array *xl = NULL;
      s3 = cusci_linalg_lu_solve(ctx, lu, piv, b, (cusci_linalg_trans)t, &xl);
      if (s3 == CUSCI_OK) {
        lu_c *vx = lu_values(ctx, xl), *ax = malloc(sizeof *ax * (size_t)(batch * n * k));
        lu_c *opa = t == 0 ? NULL : ctrans(ra, batch, n, n);
        if (t == 1) /* the transpose without conjugation */
          for (int64_t i = 0; i < batch * n * n; i++)
            opa[i] = conj(opa[i]);
        for (int64_t i = 0; i < batch; i++)
          lu_gemm('N', (t ? opa : ra) + i * n * n, vx + i * n * k, ax + i * n * k, n, k, n);
        double ei = lu_maxdiff(ax, rb, batch * n * k) /
                    (lu_maxabs(ra, batch * n * n) * lu_maxabs(vx, batch * n * k) * n + lu_maxabs(rb, batch * n * k));
        e = ei > e ? ei : e;
        free(vx);
        free(ax);
        free(opa);
      }
      cusci_array_release(xl);
    }
    ok(s3 == CUSCI_OK && e <= 16 * eps, "lu_factor + lu_solve %s, trans N, T, C: relative residual %.3g (%s)", dn, e, cusci_status_name(s3));
    cusci_array_release(lu);
    cusci_array_release(piv);
  }

  /* solve_triangular with the factors of cholesky: L y = b, then L^H x = y
   * gives H x = b. */
  {
    cusci_array *L = NULL, *y = NULL, *xt = NULL;
    cusci_status s3 = cusci_linalg_cholesky(ctx, h, true, &L);
    cusci_linalg_solve_triangular_opts t1 = { .lower = true }, t2 = { .lower = true, .trans = CUSCI_LINALG_TRANS_C };
    if (s3 == CUSCI_OK)
      s3 = cusci_linalg_solve_triangular(ctx, L, b, &t1, &y);
    if (s3 == CUSCI_OK)
      s3 = cusci_linalg_solve_triangular(ctx, L, y, &t2, &xt);
    double e = INFINITY;
    if (s3 == CUSCI_OK) {
      lu_c *rh = lu_values(ctx, h), *vx = lu_values(ctx, xt), *ax = malloc(sizeof *ax * (size_t)(batch * n * k));
      for (int64_t i = 0; i < batch; i++)
        lu_gemm('N', rh + i * n * n, vx + i * n * k, ax + i * n * k, n, k, n);
      e = lu_maxdiff(ax, rb, batch * n * k) / (lu_maxabs(rh, batch * n * n) * lu_maxabs(vx, batch * n * k) * n + lu_maxabs(rb, batch * n * k));
      free(rh), free(vx), free(ax);
    }
    ok(s3 == CUSCI_OK && e <= 16 * eps, "solve_triangular %s: L y = b, L^H x = y solves H x = b: %.3g (%s)", dn, e, cusci_status_name(s3));
    cusci_array_release(L), cusci_array_release(y), cusci_array_release(xt);
  }

  /* cho_factor then cho_solve, both triangles: H x = b. */
  {
    double e = 0;
    cusci_status s3 = CUSCI_OK;
    for (int lower = 0; lower < 2 && s3 == CUSCI_OK; lower++) {
      cusci_array *c = NULL, *xc = NULL;
      s3 = cusci_linalg_cho_factor(ctx, h, lower, &c);
      if (s3 == CUSCI_OK)
        s3 = cusci_linalg_cho_solve(ctx, c, lower, b, &xc);
      if (s3 == CUSCI_OK) {
        lu_c *rh = lu_values(ctx, h), *vx = lu_values(ctx, xc), *ax = malloc(sizeof *ax * (size_t)(batch * n * k));
        for (int64_t i = 0; i < batch; i++)
          lu_gemm('N', rh + i * n * n, vx + i * n * k, ax + i * n * k, n, k, n);
        double ei = lu_maxdiff(ax, rb, batch * n * k) /
                    (lu_maxabs(rh, batch * n * n) * lu_maxabs(vx, batch * n * k) * n + lu_maxabs(rb, batch * n * k));
        e = ei > e ? ei : e;
        free(rh);
        free(vx);
        free(ax);
      }
      cusci_array_release(c);
      cusci_array_release(xc);
    }
    ok(s3 == CUSCI_OK && e <= 16 * eps, "cho_factor + cho_solve %s, lower and upper: relative residual %.3g (%s)", dn, e, cusci_status_name(s3));
  }

  /* cholesky, both triangles: L L^H = H, U^H U = H, the rest exactly 0. */
  for (int lower = 0; lower < 2; lower++) {
    cusci_array *c = NULL;
    st = cusci_linalg_cholesky(ctx, h, lower, &c);
    err = INFINITY;
    bool zero = false;
    if (st == CUSCI_OK) {
      lu_c *vc = lu_values(ctx, c), *rh = lu_values(ctx, h), *p = malloc(sizeof *p * (size_t)(n * n));
      lu_c *t = ctrans(vc, batch, n, n);
      err = 0;
      zero = true;
      for (int64_t i = 0; i < batch; i++) {
        if (lower)
          lu_gemm('N', vc + i * n * n, t + i * n * n, p, n, n, n);
        else
          lu_gemm('N', t + i * n * n, vc + i * n * n, p, n, n, n);
        double e = lu_maxdiff(p, rh + i * n * n, n * n);
        err = e > err ? e : err;
        for (int64_t r = 0; r < n; r++)
          for (int64_t q = 0; q < n; q++)
            if ((lower ? q > r : q < r) && vc[i * n * n + r * n + q] != 0)
              zero = false;
      }
      scale = lu_maxabs(rh, batch * n * n) * n;
      free(vc);
      free(rh);
      free(p);
      free(t);
    }
    ok(st == CUSCI_OK && zero && err <= 16 * eps * scale, "cholesky %s lower=%d: |L L^H - A| = %.3g, other triangle zero: %d", dn, lower, err,
       zero);
    cusci_array_release(c);
  }

  /* eigh: A v = v diag(w), v orthonormal, w ascending; then w alone. */
  for (int upper = 0; upper < 2; upper++) {
    cusci_array *w = NULL, *v = NULL;
    cusci_linalg_eigh_opts eo = { .upper = upper };
    st = cusci_linalg_eigh(ctx, h, &eo, &w, &v);
    double e1 = INFINITY, e2 = INFINITY;
    bool asc = false;
    if (st == CUSCI_OK) {
      lu_c *vw = lu_values(ctx, w), *vv = lu_values(ctx, v), *rh = lu_values(ctx, h), *av = malloc(sizeof *av * (size_t)(n * n));
      e1 = 0;
      asc = true;
      for (int64_t i = 0; i < batch; i++) {
        lu_gemm('N', rh + i * n * n, vv + i * n * n, av, n, n, n);
        for (int64_t r = 0; r < n; r++)
          for (int64_t q = 0; q < n; q++) {
            double e = cabs(av[r * n + q] - vv[i * n * n + r * n + q] * vw[i * n + q]);
            e1 = e > e1 ? e : e1;
          }
        for (int64_t q = 1; q < n; q++)
          if (creal(vw[i * n + q]) < creal(vw[i * n + q - 1]))
            asc = false;
      }
      e2 = orth_err(vv, batch, n, n);
      scale = lu_maxabs(rh, batch * n * n) * n;
      free(vw);
      free(vv);
      free(rh);
      free(av);
    }
    ok(st == CUSCI_OK && asc && e1 <= 32 * eps * scale && e2 <= 32 * n * eps, "eigh %s upper=%d: |A v - v w| = %.3g, |v^H v - I| = %.3g", dn, upper,
       e1, e2);
    cusci_array *w2 = NULL;
    cusci_status st2 = cusci_linalg_eigh(ctx, h, &eo, &w2, NULL);
    double e3 = INFINITY;
    if (st == CUSCI_OK && st2 == CUSCI_OK) {
      lu_c *x1 = lu_values(ctx, w), *x2 = lu_values(ctx, w2);
      e3 = lu_maxdiff(x1, x2, batch * n);
      free(x1);
      free(x2);
    }
    ok(st2 == CUSCI_OK && e3 <= 64 * eps * n * n, "eigh %s upper=%d, eigenvalues only: same w (%.3g)", dn, upper, e3);
    cusci_array_release(w);
    cusci_array_release(v);
    cusci_array_release(w2);
  }
  cusci_array_release(h);
  cusci_array_release(ht);
  cusci_array_release(htc);
  cusci_array_release(hv);
  free(vh);
  cusci_array_release(a);
  cusci_array_release(b);
  free(va);
  free(vb);
  free(ra);
  free(rb);
}

/* svd of tall and wide matrices, full and economic: U diag(s) Vh = A,
 * orthonormal U and Vh, s descending and non-negative; and s alone. */
static void props_svd(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed, const char *dn)
{
  double eps = lu_eps(dt);
  static const int64_t shapes[2][3] = { { 2, 9, 4 }, { 2, 3, 8 } };
  for (int c = 0; c < 2; c++) {
    const int64_t *sh = shapes[c];
    int64_t batch = sh[0], m = sh[1], n = sh[2], K = m < n ? m : n;
    lu_c *va = lu_rand_values(seed, dt, 3, sh, 0);
    cusci_array *a = lu_array(ctx, dt, 3, sh, va);
    lu_c *ra = lu_values(ctx, a);
    for (int full = 0; full < 2; full++) {
      cusci_array *u = NULL, *s = NULL, *vh = NULL;
      cusci_status st = cusci_linalg_svd(ctx, a, full, true, &u, &s, &vh);
      double er = INFINITY, eu = INFINITY, ev = INFINITY;
      bool order = false;
      int64_t uc = full ? m : K, vr = full ? n : K;
      if (st == CUSCI_OK) {
        lu_c *vu = lu_values(ctx, u), *vs = lu_values(ctx, s), *vv = lu_values(ctx, vh);
        lu_c *us = malloc(sizeof *us * (size_t)(m * K)), *p = malloc(sizeof *p * (size_t)(m * n));
        er = 0;
        order = true;
        for (int64_t b = 0; b < batch; b++) {
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < K; j++)
              us[i * K + j] = vu[b * m * uc + i * uc + j] * vs[b * K + j];
          lu_gemm('N', us, vv + b * vr * n, p, m, n, K);
          double e = lu_maxdiff(p, ra + b * m * n, m * n);
          er = e > er ? e : er;
          for (int64_t j = 0; j < K; j++)
            if (creal(vs[b * K + j]) < 0 || (j && creal(vs[b * K + j]) > creal(vs[b * K + j - 1])))
              order = false;
        }
        eu = orth_err(vu, batch, m, uc);
        lu_c *vt = ctrans(vv, batch, vr, n);
        ev = orth_err(vt, batch, n, vr);
        free(vt);
        free(vu);
        free(vs);
        free(vv);
        free(us);
        free(p);
      }
      double scale = lu_maxabs(ra, batch * m * n) * (m > n ? m : n);
      ok(st == CUSCI_OK && order && er <= 32 * eps * scale && eu <= 32 * m * eps && ev <= 32 * n * eps,
         "svd %s %lldx%lld full=%d: |U S Vh - A| = %.3g, |U^H U - I| = %.3g, |Vh Vh^H - I| = %.3g", dn, (long long)m, (long long)n, full, er, eu,
         ev);
      cusci_array *s2 = NULL;
      cusci_status st2 = cusci_linalg_svd(ctx, a, full, false, NULL, &s2, NULL);
      double es = INFINITY;
      if (st == CUSCI_OK && st2 == CUSCI_OK) {
        lu_c *x1 = lu_values(ctx, s), *x2 = lu_values(ctx, s2);
        es = lu_maxdiff(x1, x2, batch * K);
        free(x1);
        free(x2);
      }
      if (full)
        ok(st2 == CUSCI_OK && es <= 64 * eps * scale, "svd %s %lldx%lld, values only: same s (%.3g)", dn, (long long)m, (long long)n, es);
      if (!full) {
        /* pinv: A pinv(A) A = A (the Moore-Penrose condition). */
        cusci_array *pi = NULL;
        cusci_status sp = cusci_linalg_pinv(ctx, a, NULL, &pi);
        double ep = INFINITY;
        if (sp == CUSCI_OK) {
          lu_c *vp = lu_values(ctx, pi), *t1 = malloc(sizeof *t1 * (size_t)(m * m)), *t2 = malloc(sizeof *t2 * (size_t)(m * n));
          ep = 0;
          for (int64_t b = 0; b < batch; b++) {
            lu_gemm('N', ra + b * m * n, vp + b * n * m, t1, m, m, n);
            lu_gemm('N', t1, ra + b * m * n, t2, m, n, m);
            double e = lu_maxdiff(t2, ra + b * m * n, m * n);
            ep = e > ep ? e : ep;
          }
          free(vp), free(t1), free(t2);
        }
        ok(sp == CUSCI_OK && ep <= 64 * eps * scale * (m > n ? m : n), "pinv %s %lldx%lld: |A pinv(A) A - A| = %.3g", dn, (long long)m, (long long)n,
           ep);
        cusci_array_release(pi);
      }
      cusci_array_release(u);
      cusci_array_release(s);
      cusci_array_release(vh);
      cusci_array_release(s2);
    }
    cusci_array_release(a);
    free(va);
    free(ra);
  }
}

/* matmul against the loop product, with a broadcast batch and a
 * transposed (strided) operand. */
static void props_matmul(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed, const char *dn)
{
  double eps = lu_eps(dt);
  int64_t sa[3] = { 3, 5, 6 }, sb[2] = { 4, 6 };
  lu_c *va = lu_rand_values(seed, dt, 3, sa, 0), *vb = lu_rand_values(seed, dt, 2, sb, 0);
  cusci_array *a = lu_array(ctx, dt, 3, sa, va), *b = lu_array(ctx, dt, 2, sb, vb), *bt = NULL, *c = NULL;
  cusci_array_transpose(ctx, b, NULL, &bt); /* (6, 4), strided */
  cusci_status st = cusci_linalg_matmul(ctx, a, bt, &c);
  double err = INFINITY;
  if (st == CUSCI_OK && cusci_array_ndim(c) == 3 && cusci_array_shape(c)[2] == 4) {
    lu_c *ra = lu_values(ctx, a), *rb = lu_values(ctx, bt), *vc = lu_values(ctx, c), p[20];
    err = 0;
    for (int64_t i = 0; i < 3; i++) {
      lu_gemm('N', ra + i * 30, rb, p, 5, 4, 6);
      double e = lu_maxdiff(p, vc + i * 20, 20);
      err = e > err ? e : err;
    }
    free(ra);
    free(rb);
    free(vc);
  }
  ok(st == CUSCI_OK && err <= 8 * 6 * eps * 2.385 * 2.385 * 2, "matmul %s (3,5,6) @ (4,6)^T: %.3g", dn, err);
  cusci_array_release(a);
  cusci_array_release(b);
  cusci_array_release(bt);
  cusci_array_release(c);
  free(va);
  free(vb);
}

static int lu_props(cusci_ctx *ctx)
{
  uint64_t seed = 0x5eed1ea1;
  for (int i = 0; i < 4; i++) {
    if (!tk_part(i))
      continue;
    cusci_dtype dt = lu_dtypes[i];
    const char *dn = cusci_dtype_name(dt);
    props_solve(ctx, dt, &seed, dn);   /* 14 tests */
    props_svd(ctx, dt, &seed, dn);     /* 8 */
    props_matmul(ctx, dt, &seed, dn);  /* 1 */
  }
  return lu_props_count();
}

#endif
