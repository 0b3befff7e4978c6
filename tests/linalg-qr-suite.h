/*
 * tests/linalg-qr-suite.h: properties of qr, rq and lstsq that need no
 * reference, as static functions counted in the program that includes them
 * (tests/linalg-qr.c on the host, tests/linalg-qr-gpu.c on a GPU):
 * Q R = A[:, P] with Q orthonormal and R exactly upper triangular, R Q = A
 * with orthonormal rows, and the least-squares optimality A^H (b - A x) = 0.
 * Residuals are computed by plain loops in complex128 and bounded by
 * c * n * eps of the dtype times the scale of A.
 */
#ifndef CUSCI_TESTS_LINALG_QR_SUITE_H
#define CUSCI_TESTS_LINALG_QR_SUITE_H

#include <math.h>
#include <stdlib.h>

#include "tests/linalg-util.h"

/* max |X^H X - I| over a batch of rows x cols matrices. */
static double qs_orth_cols(const lu_c *x, int64_t batch, int64_t rows, int64_t cols)
{
  double e = 0;
  lu_c *g = malloc(sizeof *g * (size_t)(cols * cols + 1));
  for (int64_t b = 0; b < batch; b++) {
    lu_gemm('H', x + b * rows * cols, x + b * rows * cols, g, cols, cols, rows);
    for (int64_t i = 0; i < cols * cols; i++) {
      double d = cabs(g[i] - (i / cols == i % cols ? 1 : 0));
      e = d > e || d != d ? d : e;
    }
  }
  free(g);
  return e;
}

/* lstsq with the rank read back into a number (-1 when it failed). */
static cusci_status lstsq1(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_lstsq_opts *o, cusci_array **x,
                           cusci_array **res, int64_t *rank, cusci_array **s)
{
  cusci_array *rk = NULL;
  cusci_status st = cusci_linalg_lstsq(ctx, a, b, o, x, res, &rk, s);
  *rank = -1;
  if (st == CUSCI_OK && cusci_array_size(rk) == 1)
    cusci_array_to_host(ctx, rk, rank, sizeof *rank);
  cusci_array_release(rk);
  return st;
}

/* qr in every mode, and pivoted, on batches of tall, wide and square
 * matrices: 3 shapes x 4 checks. */
#define QS_QR_COUNT 12
static void qs_qr(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  double eps = lu_eps(dt);
  static const int64_t shapes[3][3] = { { 3, 7, 5 }, { 2, 4, 9 }, { 1, 6, 6 } };
  for (int c = 0; c < 3; c++) {
    const int64_t *sh = shapes[c];
    int64_t batch = sh[0], m = sh[1], n = sh[2], K = m < n ? m : n, mx = m > n ? m : n;
    lu_c *va = lu_rand_values(seed, dt, 3, sh, 0);
    cusci_array *a = lu_array(ctx, dt, 3, sh, va);
    lu_c *ra = lu_values(ctx, a);
    double scale = lu_maxabs(ra, batch * m * n) * (double)mx, tol = 32 * eps * scale;
    for (int mode = 0; mode < 4; mode++) {
      /* 0 full, 1 economic, 2 full pivoted, 3 mode r against full's R. */
      bool piv = mode == 2, econ = mode == 1;
      cusci_linalg_qr_opts o = { .mode = econ ? CUSCI_LINALG_QR_ECONOMIC : CUSCI_LINALG_QR_FULL, .pivoting = piv };
      cusci_array *q = NULL, *r = NULL, *p = NULL, *r2 = NULL;
      cusci_status st = cusci_linalg_qr(ctx, a, &o, &q, &r, piv ? &p : NULL);
      double eqr = INFINITY, eo = INFINITY, low = INFINITY, extra = 0;
      int64_t qc = econ ? K : m, rr = econ ? K : m;
      if (st == CUSCI_OK && mode == 3) {
        cusci_linalg_qr_opts orr = { .mode = CUSCI_LINALG_QR_R };
        st = cusci_linalg_qr(ctx, a, &orr, NULL, &r2, NULL);
      }
      if (st == CUSCI_OK) {
        lu_c *vq = lu_values(ctx, q), *vr = lu_values(ctx, r), *prod = malloc(sizeof *prod * (size_t)(m * n));
        int32_t *pv = NULL;
        if (piv) {
          pv = malloc(sizeof *pv * (size_t)(batch * n));
          cusci_array_to_host(ctx, p, pv, sizeof *pv * (size_t)(batch * n));
        }
        eqr = low = 0;
        for (int64_t b = 0; b < batch; b++) {
          lu_gemm('N', vq + b * m * qc, vr + b * rr * n, prod, m, n, qc);
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
              int64_t col = piv ? pv[b * n + j] : j;
              double d = col >= 0 && col < n ? cabs(prod[i * n + j] - ra[b * m * n + i * n + col]) : INFINITY;
              eqr = d > eqr || d != d ? d : eqr;
            }
          for (int64_t i = 0; i < rr; i++)
            for (int64_t j = 0; j < i && j < n; j++)
              low = fmax(low, cabs(vr[b * rr * n + i * n + j]));
          for (int64_t j = 1; piv && j < K; j++) /* |diag(R)| does not increase */
            if (cabs(vr[b * rr * n + j * n + j]) > cabs(vr[b * rr * n + (j - 1) * n + j - 1]) * (1 + 8 * eps))
              extra = INFINITY;
        }
        eo = qs_orth_cols(vq, batch, m, qc);
        if (mode == 3) {
          lu_c *v2 = lu_values(ctx, r2);
          extra = lu_maxdiff(v2, vr, batch * m * n) / scale;
          free(v2);
        }
        free(vq), free(vr), free(prod), free(pv);
      }
      static const char *names[4] = { "full", "economic", "pivoting", "r" };
      ok(st == CUSCI_OK && eqr <= tol && eo <= 32 * mx * eps && low == 0 && extra <= 64 * eps,
         "qr %s (%lld,%lld,%lld) %s: |QR - A%s| %.3g, |Q^H Q - I| %.3g, below-diagonal %.3g, %.3g (%s)", dn, (long long)batch, (long long)m,
         (long long)n, names[mode], piv ? "[:, P]" : "", eqr, eo, low, extra, cusci_status_name(st));
      cusci_array_release(q), cusci_array_release(r), cusci_array_release(p), cusci_array_release(r2);
    }
    cusci_array_release(a);
    free(va), free(ra);
  }
}

/* rq full and economic on a tall and a wide batch: 4 checks. */
#define QS_RQ_COUNT 4
static void qs_rq(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  double eps = lu_eps(dt);
  static const int64_t shapes[2][3] = { { 2, 4, 7 }, { 3, 6, 3 } };
  for (int c = 0; c < 2; c++) {
    const int64_t *sh = shapes[c];
    int64_t batch = sh[0], m = sh[1], n = sh[2], K = m < n ? m : n, mx = m > n ? m : n;
    lu_c *va = lu_rand_values(seed, dt, 3, sh, 0);
    cusci_array *a = lu_array(ctx, dt, 3, sh, va);
    lu_c *ra = lu_values(ctx, a);
    double scale = lu_maxabs(ra, batch * m * n) * (double)mx;
    for (int econ = 0; econ < 2; econ++) {
      cusci_linalg_rq_opts o = { .mode = econ ? CUSCI_LINALG_QR_ECONOMIC : CUSCI_LINALG_QR_FULL };
      cusci_array *r = NULL, *q = NULL;
      cusci_status st = cusci_linalg_rq(ctx, a, &o, &r, &q);
      int64_t k = econ ? K : n;
      double e = INFINITY, eo = INFINITY, low = INFINITY;
      if (st == CUSCI_OK) {
        lu_c *vr = lu_values(ctx, r), *vq = lu_values(ctx, q), *prod = malloc(sizeof *prod * (size_t)(m * n));
        e = low = 0;
        for (int64_t b = 0; b < batch; b++) {
          lu_gemm('N', vr + b * m * k, vq + b * k * n, prod, m, n, k);
          e = fmax(e, lu_maxdiff(prod, ra + b * m * n, m * n));
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < k; j++)
              if (j < i + k - m)
                low = fmax(low, cabs(vr[b * m * k + i * k + j]));
        }
        /* Orthonormal rows: the columns of Q^T. */
        lu_c *qt = malloc(sizeof *qt * (size_t)(batch * k * n));
        for (int64_t b = 0; b < batch; b++)
          for (int64_t i = 0; i < k; i++)
            for (int64_t j = 0; j < n; j++)
              qt[b * k * n + j * k + i] = conj(vq[b * k * n + i * n + j]);
        eo = qs_orth_cols(qt, batch, n, k);
        free(qt), free(vr), free(vq), free(prod);
      }
      ok(st == CUSCI_OK && e <= 32 * eps * scale && eo <= 32 * mx * eps && low <= 8 * eps * scale,
         "rq %s (%lld,%lld,%lld) %s: |RQ - A| %.3g, |Q Q^H - I| %.3g, R's zero part %.3g (%s)", dn, (long long)batch, (long long)m, (long long)n,
         econ ? "economic" : "full", e, eo, low, cusci_status_name(st));
      cusci_array_release(r), cusci_array_release(q);
    }
    cusci_array_release(a);
    free(va), free(ra);
  }
}

/* lstsq: the normal equations A^H (b - A x) = 0 for a tall A, A x = b for
 * a wide one, and residues = |b - A x|^2; each driver: 3 checks. */
#define QS_LSTSQ_COUNT 3
static void qs_lstsq(cusci_ctx *ctx, cusci_dtype dt, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  double eps = lu_eps(dt);
  for (int drv = 0; drv < 3; drv++) {
    bool tall = drv != 1;
    int64_t m = tall ? 12 : 4, n = tall ? 5 : 9, k = 2, sa[2] = { m, n }, sb[2] = { m, k };
    lu_c *va = lu_rand_values(seed, dt, 2, sa, 0), *vb = lu_rand_values(seed, dt, 2, sb, 0);
    cusci_array *a = lu_array(ctx, dt, 2, sa, va), *b = lu_array(ctx, dt, 2, sb, vb), *x = NULL, *res = NULL, *s = NULL;
    lu_c *ra = lu_values(ctx, a), *rb = lu_values(ctx, b);
    int64_t rank = -1;
    cusci_linalg_lstsq_opts o = { .lapack_driver = (cusci_linalg_lstsq_driver)drv };
    cusci_status st = lstsq1(ctx, a, b, &o, &x, &res, &rank, &s);
    double e = INFINITY, er = drv == 2 ? 0 : INFINITY;
    double scale = lu_maxabs(ra, m * n) * lu_maxabs(rb, m * k) * (double)m * (double)n;
    if (st == CUSCI_OK) {
      lu_c *vx = lu_values(ctx, x), *ax = malloc(sizeof *ax * (size_t)(m * k)), *g = malloc(sizeof *g * (size_t)(n * k));
      lu_gemm('N', ra, vx, ax, m, k, n);
      for (int64_t i = 0; i < m * k; i++)
        ax[i] = rb[i] - ax[i];
      if (tall) {
        lu_gemm('H', ra, ax, g, n, k, m);
        e = lu_maxabs(g, n * k);
      } else {
        e = lu_maxabs(ax, m * k);
      }
      if (drv == 0 && cusci_array_size(res) == k) {
        lu_c *vr = lu_values(ctx, res);
        er = 0;
        for (int64_t j = 0; j < k; j++) {
          double r2 = 0;
          for (int64_t i = 0; i < m; i++)
            r2 += creal(ax[i * k + j] * conj(ax[i * k + j]));
          er = fmax(er, fabs(creal(vr[j]) - r2) / (r2 > 1 ? r2 : 1));
        }
        free(vr);
      } else if (drv == 1) {
        er = cusci_array_size(res) == 0 ? 0 : INFINITY; /* wide: no residues */
      }
      free(vx), free(ax), free(g);
    }
    static const char *names[3] = { "gelsd", "gelss", "gelsy" };
    ok(st == CUSCI_OK && rank == (tall ? n : m) && e <= 64 * eps * scale && er <= 64 * m * eps,
       "lstsq %s %lldx%lld %s: rank %lld, %s %.3g, residues %.3g (%s)", dn, (long long)m, (long long)n, names[drv], (long long)rank,
       tall ? "|A^H (b - Ax)|" : "|b - Ax|", e, er, cusci_status_name(st));
    cusci_array_release(a), cusci_array_release(b), cusci_array_release(x), cusci_array_release(res), cusci_array_release(s);
    free(va), free(vb), free(ra), free(rb);
  }
}

static int qs_count(void) { return 4 * (QS_QR_COUNT + QS_RQ_COUNT + QS_LSTSQ_COUNT); }

static void qs_all(cusci_ctx *ctx)
{
  uint64_t seed = 0x9a7e11;
  for (int i = 0; i < 4; i++) {
    qs_qr(ctx, lu_dtypes[i], &seed);
    qs_rq(ctx, lu_dtypes[i], &seed);
    qs_lstsq(ctx, lu_dtypes[i], &seed);
  }
}

#endif
