/*
 * tests/linalg-eig-suite.h: the property suite of liblinalg's
 * eigenproblems, as static functions, so that its TAP lines count in the
 * program that includes it (tests/linalg-eig.c on the host,
 * tests/linalg-eig-gpu.c on a GPU).
 *
 * Properties need no reference: A v = v diag(w) (and vl^H A = diag(w)
 * vl^H), unit eigenvectors, Z T Z^H = A with Z unitary and T
 * (quasi-)triangular, Q H Q^H = A with H Hessenberg, U P = A with U
 * orthonormal and P^2 = A^H A, lu d lu^H = A with lu[perm] triangular,
 * the Moore-Penrose conditions for pinvh, T v = v w for the tridiagonal
 * problem. Residuals are computed with plain loops in complex128 and
 * bounded by c * n * eps of the dtype times the scale of the operands.
 */
#ifndef CUSCI_TESTS_LINALG_EIG_SUITE_H
#define CUSCI_TESTS_LINALG_EIG_SUITE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-util.h"

static lu_c *le_alloc(int64_t n) { return calloc((size_t)(n > 0 ? n : 1), sizeof(lu_c)); }

/* Conjugate transpose of a batch of rows x cols matrices. */
static lu_c *le_ctrans(const lu_c *x, int64_t batch, int64_t rows, int64_t cols)
{
  lu_c *t = le_alloc(batch * rows * cols);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++)
        t[b * rows * cols + j * rows + i] = conj(x[b * rows * cols + i * cols + j]);
  return t;
}

/* c = a b for a batch: a (m, k), b (k, n). */
static void le_mm(const lu_c *a, const lu_c *b, lu_c *c, int64_t batch, int64_t m, int64_t n, int64_t k)
{
  for (int64_t i = 0; i < batch; i++)
    lu_gemm('N', a + i * m * k, b + i * k * n, c + i * m * n, m, n, k);
}

/* max |X^H X - I| over a batch of rows x cols matrices. */
static double le_orth_err(const lu_c *x, int64_t batch, int64_t rows, int64_t cols)
{
  double e = 0;
  lu_c *g = le_alloc(cols * cols);
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

/* max over columns of |norm - 1|. */
static double le_unit_err(const lu_c *v, int64_t batch, int64_t n, int64_t m)
{
  double e = 0;
  for (int64_t b = 0; b < batch; b++)
    for (int64_t j = 0; j < m; j++) {
      double s = 0;
      for (int64_t i = 0; i < n; i++)
        s += creal(v[(b * n + i) * m + j] * conj(v[(b * n + i) * m + j]));
      double d = fabs(sqrt(s) - 1);
      if (!(d <= e))
        e = d;
    }
  return e;
}

/* The largest distance in a greedy matching of two sets of n eigenvalues
 * per matrix (their orders may differ). */
static double le_match_eigs(const lu_c *x, const lu_c *y, int64_t batch, int64_t n)
{
  double worst = 0;
  bool *used = calloc((size_t)(n > 0 ? n : 1), 1);
  for (int64_t b = 0; b < batch; b++) {
    memset(used, 0, (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; i++) {
      double best = INFINITY;
      int64_t at = -1;
      for (int64_t j = 0; j < n; j++) {
        double d = cabs(x[b * n + i] - y[b * n + j]);
        if (!used[j] && d < best)
          best = d, at = j;
      }
      if (at >= 0)
        used[at] = true;
      if (!(best <= worst))
        worst = best;
    }
  }
  free(used);
  return worst;
}

/* max |a v - v diag(w)| per batch, v (n, m), w (m). */
static double le_eig_res(const lu_c *a, const lu_c *v, const lu_c *w, int64_t batch, int64_t n, int64_t m)
{
  lu_c *av = le_alloc(batch * n * m);
  le_mm(a, v, av, batch, n, m, n);
  double e = 0;
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < m; j++) {
        double d = cabs(av[(b * n + i) * m + j] - v[(b * n + i) * m + j] * w[b * m + j]);
        if (!(d <= e))
          e = d;
      }
  free(av);
  return e;
}

static cusci_array *le_get(cusci_ctx *ctx, cusci_dtype dt, int nd, const int64_t *sh, const lu_c *v) { return lu_array(ctx, dt, nd, sh, v); }

/* Random Hermitian values (a + a^H) / 2. */
static lu_c *le_herm(uint64_t *seed, cusci_dtype dt, int nd, const int64_t *sh)
{
  lu_c *a = lu_rand_values(seed, dt, nd, sh, 0);
  int64_t n = sh[nd - 1], batch = 1;
  for (int i = 0; i < nd - 2; i++)
    batch *= sh[i];
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j <= i; j++) {
        lu_c x = (a[(b * n + i) * n + j] + conj(a[(b * n + j) * n + i])) / 2;
        a[(b * n + i) * n + j] = x;
        a[(b * n + j) * n + i] = conj(x);
      }
  return a;
}

static const char *le_dn(cusci_dtype dt) { return cusci_dtype_name(dt); }

/* ----------------------------------------------------------- eig */

#define LE_EIG_TESTS 6
static void le_props_eig(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed)
{
  const int64_t n = 6, batch = 2;
  int64_t sh[3] = { batch, n, n };
  double tol = 200 * n * lu_eps(dt) * 2.385 * n;
  lu_c *va = lu_rand_values(seed, dt, 3, sh, 0);
  cusci_array *a = le_get(ctx, dt, 3, sh, va), *w = NULL, *vl = NULL, *vr = NULL, *w2 = NULL;
  cusci_status st = cusci_linalg_eig(ctx, a, NULL, NULL, &w, &vl, &vr);
  cusci_dtype cdt = dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? CUSCI_COMPLEX64 : CUSCI_COMPLEX128;
  bool good = st == CUSCI_OK && cusci_array_dtype(w) == cdt && cusci_array_dtype(vr) == cdt && cusci_array_ndim(w) == 2;
  ok(good, "eig %s: ran, complex outputs (%s)", le_dn(dt), st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
  if (good) {
    lu_c *hw = lu_values(ctx, w), *hl = lu_values(ctx, vl), *hr = lu_values(ctx, vr);
    double r = le_eig_res(va, hr, hw, batch, n, n);
    ok(r <= tol, "eig %s: A vr = vr diag(w), residual %.3g <= %.3g", le_dn(dt), r, tol);
    /* vl^H A = diag(w) vl^H  <=>  A^H vl = vl diag(conj(w)) */
    lu_c *ah = le_ctrans(va, batch, n, n), *cw = le_alloc(batch * n);
    for (int64_t i = 0; i < batch * n; i++)
      cw[i] = conj(hw[i]);
    double rl = le_eig_res(ah, hl, cw, batch, n, n);
    ok(rl <= tol, "eig %s: vl^H A = diag(w) vl^H, residual %.3g <= %.3g", le_dn(dt), rl, tol);
    double u = fmax(le_unit_err(hl, batch, n, n), le_unit_err(hr, batch, n, n));
    ok(u <= 16 * n * lu_eps(dt), "eig %s: unit eigenvectors (%.3g)", le_dn(dt), u);
    st = cusci_linalg_eigvals(ctx, a, NULL, &(cusci_linalg_eig_opts){ .no_check_finite = true }, &w2);
    lu_c *hw2 = st == CUSCI_OK ? lu_values(ctx, w2) : NULL;
    double d = hw2 ? le_match_eigs(hw, hw2, batch, n) : INFINITY;
    ok(d <= tol, "eigvals %s: eig's eigenvalues (%.3g)", le_dn(dt), d);
    free(hw), free(hl), free(hr), free(ah), free(cw), free(hw2);
  } else {
    skip(4, "eig failed");
  }
  cusci_array_release(w), cusci_array_release(vl), cusci_array_release(vr), cusci_array_release(w2);
  /* Generalized: A vr = B vr diag(w). */
  int64_t s2[2] = { n, n };
  lu_c *ga = lu_rand_values(seed, dt, 2, s2, 0), *gb = lu_rand_values(seed, dt, 2, s2, 3.0 * n);
  cusci_array *A = le_get(ctx, dt, 2, s2, ga), *B = le_get(ctx, dt, 2, s2, gb);
  w = vr = NULL;
  st = cusci_linalg_eig(ctx, A, B, NULL, &w, NULL, &vr);
  double r = INFINITY, gt = 200 * n * lu_eps(dt) * 4 * n * n;
  if (st == CUSCI_OK) {
    lu_c *hw = lu_values(ctx, w), *hr = lu_values(ctx, vr), *av = le_alloc(n * n), *bv = le_alloc(n * n);
    le_mm(ga, hr, av, 1, n, n, n);
    le_mm(gb, hr, bv, 1, n, n, n);
    r = 0;
    for (int64_t i = 0; i < n * n; i++) {
      double d = cabs(av[i] - bv[i] * hw[i % n]);
      r = d > r ? d : r;
    }
    free(hw), free(hr), free(av), free(bv);
  }
  ok(r <= gt, "eig %s with b: A vr = B vr diag(w), residual %.3g <= %.3g (%s)", le_dn(dt), r, gt,
     st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
  cusci_array_release(w), cusci_array_release(vr), cusci_array_release(A), cusci_array_release(B);
  cusci_array_release(a);
  free(va), free(ga), free(gb);
}

/* ---------------------------------------------------- eigh subsets, b */

#define LE_EIGH_TESTS 9
static void le_props_eigh(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed)
{
  const int64_t n = 7, batch = 2;
  int64_t sh[3] = { batch, n, n };
  double tol = 100 * n * lu_eps(dt) * 2.385 * n;
  lu_c *va = le_herm(seed, dt, 3, sh);
  cusci_array *a = le_get(ctx, dt, 3, sh, va), *wall = NULL, *w = NULL, *v = NULL;
  cusci_status st0 = cusci_linalg_eigvalsh(ctx, a, NULL, &wall);
  lu_c *hall = st0 == CUSCI_OK ? lu_values(ctx, wall) : NULL;
  /* By index, reading the upper triangle. */
  cusci_linalg_eigh_opts o = { .subset = CUSCI_LINALG_SUBSET_INDEX, .lo = 2, .hi = 4 };
  cusci_status st = cusci_linalg_eigh(ctx, a, &o, &w, &v);
  bool good = st == CUSCI_OK && hall && cusci_array_shape(w)[1] == 3 && cusci_array_shape(v)[2] == 3 && cusci_array_shape(v)[1] == n;
  ok(good, "eigh %s subset_by_index [2, 4]: shapes (2, 3) and (2, 7, 3) (%s)", le_dn(dt), st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
  if (good) {
    lu_c *hw = lu_values(ctx, w), *hv = lu_values(ctx, v);
    double d = 0;
    for (int64_t b = 0; b < batch; b++)
      for (int64_t j = 0; j < 3; j++)
        d = fmax(d, cabs(hw[b * 3 + j] - hall[b * n + 2 + j]));
    ok(d <= tol, "eigh %s subset_by_index: eigenvalues 2..4 of the full set (%.3g)", le_dn(dt), d);
    double r = le_eig_res(va, hv, hw, batch, n, 3), oe = le_orth_err(hv, batch, n, 3);
    ok(r <= tol && oe <= tol, "eigh %s subset_by_index: A v = v w (%.3g), v^H v = I (%.3g)", le_dn(dt), r, oe);
    free(hw), free(hv);
  } else {
    skip(2, "subset failed");
  }
  cusci_array_release(w), cusci_array_release(v);
  w = v = NULL;
  /* By value, on one matrix: the half-open interval around eigenvalues 1..4. */
  cusci_array *a0 = NULL;
  int64_t start[3] = { 0, CUSCI_SLICE_NONE, CUSCI_SLICE_NONE }, stop[3] = { 1, CUSCI_SLICE_NONE, CUSCI_SLICE_NONE };
  cusci_array_slice(ctx, a, start, stop, NULL, &a0);
  if (hall) {
    o = (cusci_linalg_eigh_opts){ .upper = true, .subset = CUSCI_LINALG_SUBSET_VALUE, .vlo = (creal(hall[0]) + creal(hall[1])) / 2,
                                  .vhi = (creal(hall[4]) + creal(hall[5])) / 2 };
    st = cusci_linalg_eigh(ctx, a0, &o, &w, &v);
  }
  good = hall && st == CUSCI_OK && cusci_array_shape(w)[1] == 4;
  ok(good, "eigh %s subset_by_value: 4 eigenvalues (%s)", le_dn(dt), st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
  if (good) {
    lu_c *hw = lu_values(ctx, w), *hv = lu_values(ctx, v);
    double r = le_eig_res(va, hv, hw, 1, n, 4), d = 0;
    for (int64_t j = 0; j < 4; j++)
      d = fmax(d, cabs(hw[j] - hall[1 + j]));
    ok(r <= tol && d <= tol, "eigh %s subset_by_value: A v = v w (%.3g), the full set's values (%.3g)", le_dn(dt), r, d);
    free(hw), free(hv);
  } else {
    skip(1, "subset failed");
  }
  cusci_array_release(w), cusci_array_release(v), cusci_array_release(a0);
  /* Generalized, types 1, 2, 3. */
  lu_c *vb = lu_hpd_values(seed, dt, 3, sh);
  cusci_array *b = le_get(ctx, dt, 3, sh, vb);
  for (int type = 1; type <= 3; type++) {
    w = v = NULL;
    o = (cusci_linalg_eigh_opts){ .b = b, .type = type };
    st = cusci_linalg_eigh(ctx, a, &o, &w, &v);
    double r = INFINITY, oe = INFINITY;
    if (st == CUSCI_OK) {
      lu_c *hw = lu_values(ctx, w), *hv = lu_values(ctx, v), *lhs = le_alloc(batch * n * n), *rhs = le_alloc(batch * n * n),
           *t = le_alloc(batch * n * n);
      /* 1: A v = B v w; 2: A B v = v w; 3: B A v = v w. */
      if (type == 1) {
        le_mm(va, hv, lhs, batch, n, n, n);
        le_mm(vb, hv, rhs, batch, n, n, n);
      } else {
        le_mm(type == 2 ? vb : va, hv, t, batch, n, n, n);
        le_mm(type == 2 ? va : vb, t, lhs, batch, n, n, n);
        memcpy(rhs, hv, sizeof *rhs * (size_t)(batch * n * n));
      }
      r = 0;
      double scale = lu_maxabs(hw, batch * n) + 1;
      for (int64_t i = 0; i < batch * n * n; i++)
        r = fmax(r, cabs(lhs[i] - rhs[i] * hw[(i / (n * n)) * n + i % n]) / scale);
      /* v^H B v = I for types 1 and 2. */
      if (type != 3) {
        le_mm(vb, hv, t, batch, n, n, n);
        oe = 0;
        for (int64_t bb = 0; bb < batch; bb++) {
          lu_gemm('H', hv + bb * n * n, t + bb * n * n, lhs, n, n, n);
          for (int64_t i = 0; i < n * n; i++)
            oe = fmax(oe, cabs(lhs[i] - (i / n == i % n ? 1 : 0)));
        }
      } else {
        oe = 0;
      }
      free(hw), free(hv), free(lhs), free(rhs), free(t);
    }
    double gt = 1000 * n * lu_eps(dt) * n;
    ok(r <= gt && oe <= gt, "eigh %s with b, type %d: residual %.3g, B-orthonormal %.3g <= %.3g (%s)", le_dn(dt), type, r, oe, gt,
       st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
    cusci_array_release(w), cusci_array_release(v);
  }
  /* b with a subset: the first three of the full generalized set. */
  w = NULL;
  cusci_array *wg = NULL;
  o = (cusci_linalg_eigh_opts){ .b = b };
  st = cusci_linalg_eigvalsh(ctx, a, &o, &wg);
  o.subset = CUSCI_LINALG_SUBSET_INDEX, o.lo = 0, o.hi = 2;
  if (st == CUSCI_OK)
    st = cusci_linalg_eigvalsh(ctx, a, &o, &w);
  double d = INFINITY;
  if (st == CUSCI_OK) {
    lu_c *h1 = lu_values(ctx, wg), *h2 = lu_values(ctx, w);
    d = 0;
    for (int64_t bb = 0; bb < batch; bb++)
      for (int64_t j = 0; j < 3; j++)
        d = fmax(d, cabs(h1[bb * n + j] - h2[bb * 3 + j]));
    free(h1), free(h2);
  }
  ok(d <= tol, "eigvalsh %s with b and subset_by_index: the full set's first three (%.3g)", le_dn(dt), d);
  cusci_array_release(w), cusci_array_release(wg), cusci_array_release(b), cusci_array_release(wall), cusci_array_release(a);
  free(va), free(vb), free(hall);
}

/* ------------------------------------------- schur, rsf2csf, hessenberg */

/* max |z t z^H - a| over a batch. */
static double le_recon_err(const lu_c *z, const lu_c *t, const lu_c *a, int64_t batch, int64_t n)
{
  lu_c *zt = le_alloc(n * n), *zh = le_ctrans(z, batch, n, n), *r = le_alloc(n * n);
  double e = 0;
  for (int64_t b = 0; b < batch; b++) {
    lu_gemm('N', z + b * n * n, t + b * n * n, zt, n, n, n);
    lu_gemm('N', zt, zh + b * n * n, r, n, n, n);
    for (int64_t i = 0; i < n * n; i++)
      e = fmax(e, cabs(r[i] - a[b * n * n + i]));
  }
  free(zt), free(zh), free(r);
  return e;
}

/* Largest |t[i, j]| below the k-th subdiagonal (k = 0: below the diagonal). */
static double le_below(const lu_c *t, int64_t batch, int64_t n, int64_t k)
{
  double e = 0;
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j + k < i; j++)
        e = fmax(e, cabs(t[(b * n + i) * n + j]));
  return e;
}

/* A real Schur form: no two consecutive nonzero subdiagonal entries. */
static bool le_quasi(const lu_c *t, int64_t batch, int64_t n)
{
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 2; i < n; i++)
      if (t[(b * n + i) * n + i - 1] != 0 && t[(b * n + i - 1) * n + i - 2] != 0)
        return false;
  return true;
}

#define LE_SCHUR_TESTS 7
static void le_props_schur(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed)
{
  const int64_t n = 6, batch = 3;
  int64_t sh[3] = { batch, n, n };
  double tol = 100 * n * lu_eps(dt) * 2.385 * n;
  lu_c *va = lu_rand_values(seed, dt, 3, sh, 0);
  cusci_array *a = le_get(ctx, dt, 3, sh, va), *t = NULL, *z = NULL, *t2 = NULL, *z2 = NULL;
  bool real = dt == CUSCI_FLOAT32 || dt == CUSCI_FLOAT64;
  for (int cplx = 0; cplx < 2; cplx++) {
    t = z = NULL;
    cusci_status st = cusci_linalg_schur(ctx, a, &(cusci_linalg_schur_opts){ .complex_output = cplx }, &t, &z);
    double r = INFINITY, oe = INFINITY, bl = INFINITY, r2 = INFINITY, b2 = INFINITY, o2 = INFINITY;
    bool q = false;
    if (st == CUSCI_OK) {
      lu_c *ht = lu_values(ctx, t), *hz = lu_values(ctx, z);
      r = le_recon_err(hz, ht, va, batch, n);
      oe = le_orth_err(hz, batch, n, n);
      bl = le_below(ht, batch, n, real && !cplx ? 1 : 0);
      q = real && !cplx ? le_quasi(ht, batch, n) : true;
      /* rsf2csf of this form (a complex one comes back as it is). */
      cusci_status s2 = cusci_linalg_rsf2csf(ctx, t, z, &t2, &z2);
      if (s2 == CUSCI_OK) {
        lu_c *h2 = lu_values(ctx, t2), *hz2 = lu_values(ctx, z2);
        r2 = le_recon_err(hz2, h2, va, batch, n);
        b2 = le_below(h2, batch, n, 0);
        o2 = le_orth_err(hz2, batch, n, n);
        free(h2), free(hz2);
      }
      cusci_array_release(t2), cusci_array_release(z2);
      t2 = z2 = NULL;
      free(ht), free(hz);
    }
    ok(r <= tol && oe <= tol, "schur %s %s: Z T Z^H = A (%.3g), Z unitary (%.3g) (%s)", le_dn(dt), cplx ? "complex" : "real", r, oe,
       st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
    ok(bl == 0 && q, "schur %s %s: T %s (below: %.3g)", le_dn(dt), cplx ? "complex" : "real", real && !cplx ? "quasi-triangular" : "triangular", bl);
    ok(r2 <= tol && b2 <= tol && o2 <= tol, "rsf2csf %s of the %s form: Z T Z^H = A (%.3g), T triangular (%.3g), Z unitary (%.3g)", le_dn(dt),
       cplx ? "complex" : "real", r2, b2, o2);
    cusci_array_release(t), cusci_array_release(z);
  }
  /* Hessenberg. */
  cusci_array *h = NULL, *qq = NULL;
  cusci_status st = cusci_linalg_hessenberg(ctx, a, &h, &qq);
  double r = INFINITY, oe = INFINITY, bl = INFINITY;
  if (st == CUSCI_OK) {
    lu_c *hh = lu_values(ctx, h), *hq = lu_values(ctx, qq);
    r = le_recon_err(hq, hh, va, batch, n);
    oe = le_orth_err(hq, batch, n, n);
    bl = le_below(hh, batch, n, 1);
    free(hh), free(hq);
  }
  ok(r <= tol && oe <= tol && bl == 0, "hessenberg %s: Q H Q^H = A (%.3g), Q unitary (%.3g), zeros below the subdiagonal (%.3g)", le_dn(dt), r,
     oe, bl);
  cusci_array_release(h), cusci_array_release(qq), cusci_array_release(a);
  free(va);
}

/* ------------------------------------------------- polar, ldl, pinvh */

#define LE_MISC_TESTS 5
static void le_props_misc(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed)
{
  const int64_t m = 5, n = 3, batch = 2;
  double tol = 200 * m * lu_eps(dt) * 2.385 * m;
  for (int side = 0; side < 2; side++) {
    /* right on a tall stack, left on a wide one */
    int64_t r_ = side ? n : m, c_ = side ? m : n, sh[3] = { batch, r_, c_ };
    lu_c *va = lu_rand_values(seed, dt, 3, sh, 0);
    cusci_array *a = le_get(ctx, dt, 3, sh, va), *u = NULL, *p = NULL;
    cusci_status st = cusci_linalg_polar(ctx, a, side, &u, &p);
    double rec = INFINITY, oe = INFINITY, sq = INFINITY;
    if (st == CUSCI_OK) {
      lu_c *hu = lu_values(ctx, u), *hp = lu_values(ctx, p);
      int64_t k = side ? r_ : c_;
      lu_c *up = le_alloc(batch * r_ * c_), *pp = le_alloc(batch * k * k), *aa = le_alloc(batch * k * k), *ah = le_ctrans(va, batch, r_, c_);
      if (side == 0) {
        le_mm(hu, hp, up, batch, r_, c_, c_);
        le_mm(ah, va, aa, batch, c_, c_, r_);
        oe = le_orth_err(hu, batch, r_, c_);
      } else {
        le_mm(hp, hu, up, batch, r_, c_, r_);
        le_mm(va, ah, aa, batch, r_, r_, c_);
        lu_c *uh = le_ctrans(hu, batch, r_, c_);
        oe = le_orth_err(uh, batch, c_, r_);
        free(uh);
      }
      le_mm(hp, hp, pp, batch, k, k, k);
      rec = lu_maxdiff(up, va, batch * r_ * c_);
      sq = lu_maxdiff(pp, aa, batch * k * k) / (1 + lu_maxabs(aa, batch * k * k));
      free(hu), free(hp), free(up), free(pp), free(aa), free(ah);
    }
    ok(rec <= tol && oe <= tol && sq <= tol, "polar %s %s: U P = A (%.3g), U orthonormal (%.3g), P^2 = A^H A (%.3g) (%s)", le_dn(dt),
       side ? "left" : "right", rec, oe, sq, st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
    cusci_array_release(a), cusci_array_release(u), cusci_array_release(p);
    free(va);
  }
  /* ldl, lower and upper: lu d lu^H = A, lu[perm] triangular. */
  const int64_t k = 6;
  int64_t sh[3] = { batch, k, k };
  for (int upper = 0; upper < 2; upper++) {
    lu_c *va = le_herm(seed, dt, 3, sh);
    va[0] = 0; /* an indefinite start: a 2x2 block */
    cusci_array *a = le_get(ctx, dt, 3, sh, va), *lu = NULL, *d = NULL, *perm = NULL;
    cusci_status st = cusci_linalg_ldl(ctx, a, &(cusci_linalg_ldl_opts){ .upper = upper }, &lu, &d, &perm);
    double rec = INFINITY, tri = INFINITY;
    if (st == CUSCI_OK && cusci_array_dtype(perm) == CUSCI_INT64) {
      lu_c *hl = lu_values(ctx, lu), *hd = lu_values(ctx, d), *hp = lu_values(ctx, perm), *ld = le_alloc(batch * k * k),
           *lh = le_ctrans(hl, batch, k, k), *r = le_alloc(batch * k * k);
      le_mm(hl, hd, ld, batch, k, k, k);
      le_mm(ld, lh, r, batch, k, k, k);
      rec = lu_maxdiff(r, va, batch * k * k);
      tri = 0;
      for (int64_t b = 0; b < batch; b++)
        for (int64_t i = 0; i < k; i++)
          for (int64_t j = 0; j < k; j++) {
            int64_t row = (int64_t)creal(hp[b * k + i]);
            if (upper ? j < i : j > i)
              tri = fmax(tri, cabs(hl[(b * k + row) * k + j]));
          }
      free(hl), free(hd), free(hp), free(ld), free(lh), free(r);
    }
    ok(rec <= tol && tri == 0, "ldl %s %s: lu d lu^H = A (%.3g), lu[perm] triangular (%.3g) (%s)", le_dn(dt), upper ? "upper" : "lower", rec,
       tri, st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
    cusci_array_release(a), cusci_array_release(lu), cusci_array_release(d), cusci_array_release(perm);
    free(va);
  }
  /* pinvh of a singular Hermitian matrix: A X A = A, X A X = X. */
  {
    int64_t sx[3] = { batch, k, 3 };
    lu_c *x = lu_rand_values(seed, dt, 3, sx, 0), *xh = le_ctrans(x, batch, k, 3), *va = le_alloc(batch * k * k);
    le_mm(x, xh, va, batch, k, k, 3);
    cusci_array *a = le_get(ctx, dt, 3, sh, va), *p = NULL;
    lu_c *va2 = lu_values(ctx, a); /* rounded to dt */
    cusci_status st = cusci_linalg_pinvh(ctx, a, NULL, &p);
    double e1 = INFINITY, e2 = INFINITY;
    if (st == CUSCI_OK) {
      lu_c *hp = lu_values(ctx, p), *t = le_alloc(batch * k * k), *r = le_alloc(batch * k * k);
      le_mm(va2, hp, t, batch, k, k, k);
      le_mm(t, va2, r, batch, k, k, k);
      e1 = lu_maxdiff(r, va2, batch * k * k) / (1 + lu_maxabs(va2, batch * k * k));
      le_mm(hp, va2, t, batch, k, k, k);
      le_mm(t, hp, r, batch, k, k, k);
      e2 = lu_maxdiff(r, hp, batch * k * k) / (1 + lu_maxabs(hp, batch * k * k));
      free(hp), free(t), free(r);
    }
    double pt = 1e4 * k * lu_eps(dt);
    ok(e1 <= pt && e2 <= pt, "pinvh %s: A X A = A (%.3g), X A X = X (%.3g) (%s)", le_dn(dt), e1, e2, st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
    cusci_array_release(a), cusci_array_release(p);
    free(x), free(xh), free(va), free(va2);
  }
}

/* ------------------------------------------------------ tridiagonal */

#define LE_TRI_TESTS 2
static void le_props_tri(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed)
{
  if (dt == CUSCI_COMPLEX64 || dt == CUSCI_COMPLEX128) {
    cusci_array *d = NULL, *w = NULL;
    int64_t sh[1] = { 4 };
    lu_c vals[4] = { 1, 2, 3, 4 };
    d = le_get(ctx, dt, 1, sh, vals);
    ok(cusci_linalg_eigvalsh_tridiagonal(ctx, d, d, NULL, &w) == CUSCI_ERR_DTYPE && !w, "eigh_tridiagonal %s: refused", le_dn(dt));
    ok(cusci_linalg_eigh_tridiagonal(ctx, NULL, d, NULL, &w, NULL) == CUSCI_ERR_NULL_POINTER, "eigh_tridiagonal: NULL d");
    cusci_array_release(d);
    return;
  }
  const int64_t n = 9, batch = 2;
  int64_t sd[2] = { batch, n }, se[2] = { batch, n - 1 };
  lu_c *hd = lu_rand_values(seed, dt, 2, sd, 0), *he = lu_rand_values(seed, dt, 2, se, 0);
  cusci_array *d = le_get(ctx, dt, 2, sd, hd), *e = le_get(ctx, dt, 2, se, he), *w = NULL, *v = NULL;
  lu_c *dd = lu_values(ctx, d), *ee = lu_values(ctx, e), *T = le_alloc(batch * n * n);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < n; i++) {
      T[(b * n + i) * n + i] = dd[b * n + i];
      if (i + 1 < n)
        T[(b * n + i + 1) * n + i] = T[(b * n + i) * n + i + 1] = ee[b * (n - 1) + i];
    }
  double tol = 100 * n * lu_eps(dt) * 2.385 * 3;
  cusci_status st = cusci_linalg_eigh_tridiagonal(ctx, d, e, NULL, &w, &v);
  double r = INFINITY, oe = INFINITY;
  if (st == CUSCI_OK) {
    lu_c *hw = lu_values(ctx, w), *hv = lu_values(ctx, v);
    r = le_eig_res(T, hv, hw, batch, n, n);
    oe = le_orth_err(hv, batch, n, n);
    free(hw), free(hv);
  }
  ok(r <= tol && oe <= tol, "eigh_tridiagonal %s: T v = v w (%.3g), v orthonormal (%.3g) (%s)", le_dn(dt), r, oe,
     st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
  cusci_array_release(w), cusci_array_release(v);
  w = v = NULL;
  cusci_linalg_eigh_tridiagonal_opts o = { .select = CUSCI_LINALG_SUBSET_INDEX, .lo = 3, .hi = 6 };
  st = cusci_linalg_eigh_tridiagonal(ctx, d, e, &o, &w, &v);
  r = INFINITY;
  if (st == CUSCI_OK && cusci_array_shape(v)[2] == 4) {
    lu_c *hw = lu_values(ctx, w), *hv = lu_values(ctx, v);
    r = le_eig_res(T, hv, hw, batch, n, 4);
    free(hw), free(hv);
  }
  ok(r <= tol, "eigh_tridiagonal %s select='i' (3, 6): T v = v w on 4 columns (%.3g) (%s)", le_dn(dt), r,
     st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
  cusci_array_release(w), cusci_array_release(v), cusci_array_release(d), cusci_array_release(e);
  free(hd), free(he), free(dd), free(ee), free(T);
}

#define LE_PER_DTYPE (LE_EIG_TESTS + LE_EIGH_TESTS + LE_SCHUR_TESTS + LE_MISC_TESTS + LE_TRI_TESTS)
/* One piece per dtype (tk_part). */
static int le_props_count(void) { return tk_part_count(4) * LE_PER_DTYPE; }

static void le_props(cusci_ctx *ctx)
{
  uint64_t seed = 0x5eed2385u;
  for (int i = 0; i < 4; i++) {
    if (!tk_part(i))
      continue;
    cusci_dtype dt = lu_dtypes[i];
    le_props_eig(ctx, dt, &seed);
    le_props_eigh(ctx, dt, &seed);
    le_props_schur(ctx, dt, &seed);
    le_props_misc(ctx, dt, &seed);
    le_props_tri(ctx, dt, &seed);
  }
}

#endif
