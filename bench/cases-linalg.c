/*
 * bench/cases-linalg.c: liblinalg's benchmark cases: the large vendor-bound
 * factorizations and products, and batches of small matrices. CuPy's
 * equivalents are in bench/cupy_linalg.py under the same names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

typedef struct lstate {
  cusci_array *a, *b;
  int op;
} lstate;

enum { OP_MATMUL, OP_SOLVE, OP_CHOLESKY, OP_EIGH, OP_SVD, OP_INV, OP_DET, OP_QR, OP_LSTSQ, OP_EXPM, OP_TOEPLITZ,
       OP_SQRTM, OP_LOGM, OP_LU_FACTOR };

static int fail(char *why, size_t len, cusci_ctx *ctx, lstate *s)
{
  snprintf(why, len, "%s", cusci_ctx_last_error(ctx));
  if (s) {
    cusci_array_release(s->a);
    cusci_array_release(s->b);
    free(s);
  }
  return 1;
}

/* Uniform values in [-1, 1) of dtype dt (float32 or float64), from a
 * seeded generator; `spd` makes each trailing n x n matrix symmetric and
 * diagonally dominant (so positive definite), `shift` adds to the diagonal. */
static cusci_status make(cusci_ctx *ctx, cusci_dtype dt, int ndim, const int64_t *shape, int spd, double shift, cusci_array **out)
{
  int64_t size = 1;
  for (int i = 0; i < ndim; i++)
    size *= shape[i];
  int64_t n = shape[ndim - 1], mats = ndim >= 2 && shape[ndim - 2] == n ? size / (n * n) : 0;
  size_t isz = dt == CUSCI_FLOAT32 ? 4 : 8;
  char *buf = malloc((size_t)size * isz);
  if (!buf)
    return CUSCI_ERR_OUT_OF_MEMORY;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int64_t i = 0; i < size; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    double v = (double)(x >> 11) * (2.0 / 9007199254740992.0) - 1.0;
    if (mats) {
      int64_t r = (i / n) % n, c = i % n;
      if (spd && c < r) {
        int64_t j = i - (r - c) * (n - 1); /* element (c, r) of the same matrix */
        if (dt == CUSCI_FLOAT32)
          memcpy(&v, &(double){ ((float *)buf)[j] }, sizeof v);
        else
          v = ((double *)buf)[j];
      }
      if (r == c)
        v += spd ? (double)n : shift;
    }
    if (dt == CUSCI_FLOAT32)
      ((float *)buf)[i] = (float)v;
    else
      ((double *)buf)[i] = v;
  }
  cusci_status st = cusci_array_from_host(ctx, buf, ndim, shape, dt, out);
  free(buf);
  return st;
}

static int setup(cusci_ctx *ctx, void **state, int op, cusci_dtype dt, int ndim, const int64_t *sa, int bndim, const int64_t *sb, int spd,
                 char *why, size_t len)
{
  lstate *s = calloc(1, sizeof *s);
  s->op = op;
  int64_t n = sa[ndim - 1];
  if (make(ctx, dt, ndim, sa, spd, 2.0 * n, &s->a) != CUSCI_OK)
    return fail(why, len, ctx, s);
  if (bndim && make(ctx, dt, bndim, sb, 0, 0, &s->b) != CUSCI_OK)
    return fail(why, len, ctx, s);
  *state = s;
  return 0;
}

static int run(cusci_ctx *ctx, void *state)
{
  lstate *s = state;
  cusci_array *o = NULL, *o2 = NULL, *o3 = NULL;
  cusci_status st;
  switch (s->op) {
  case OP_MATMUL:
    st = cusci_linalg_matmul(ctx, s->a, s->b, &o);
    break;
  case OP_SOLVE:
    st = cusci_linalg_solve(ctx, s->a, s->b, NULL, &o);
    break;
  case OP_CHOLESKY:
    st = cusci_linalg_cholesky(ctx, s->a, true, &o);
    break;
  case OP_EIGH:
    st = cusci_linalg_eigh(ctx, s->a, NULL, &o, &o2);
    break;
  case OP_SVD:
    st = cusci_linalg_svd(ctx, s->a, false, true, &o, &o2, &o3);
    break;
  case OP_INV:
    st = cusci_linalg_inv(ctx, s->a, &o);
    break;
  case OP_QR:
    st = cusci_linalg_qr(ctx, s->a, &(cusci_linalg_qr_opts){ .mode = CUSCI_LINALG_QR_ECONOMIC }, &o, &o2, NULL);
    break;
  case OP_LSTSQ: {
    cusci_array *rank = NULL;
    st = cusci_linalg_lstsq(ctx, s->a, s->b, NULL, &o, &o2, &rank, &o3);
    cusci_array_release(rank);
    break;
  }
  case OP_EXPM:
    st = cusci_linalg_expm(ctx, s->a, &o);
    break;
  case OP_SQRTM:
    st = cusci_linalg_sqrtm(ctx, s->a, &o, NULL);
    break;
  case OP_LOGM:
    st = cusci_linalg_logm(ctx, s->a, &o, NULL);
    break;
  case OP_LU_FACTOR:
    st = cusci_linalg_lu_factor(ctx, s->a, &o, &o2);
    break;
  case OP_TOEPLITZ: /* s->a holds c (first column) and s->b b */
    st = cusci_linalg_solve_toeplitz(ctx, s->a, NULL, s->b, false, &o);
    break;
  default:
    st = cusci_linalg_det(ctx, s->a, &o);
  }
  cusci_array_release(o);
  cusci_array_release(o2);
  cusci_array_release(o3);
  return st;
}

static void teardown(void *state)
{
  lstate *s = state;
  cusci_array_release(s->a);
  cusci_array_release(s->b);
  free(s);
}

static int need_gpu(cusci_ctx *ctx, char *why, size_t len)
{
  if (cusci_ctx_device(ctx) >= 0)
    return 0;
  snprintf(why, len, "a GPU-sized case");
  return 1;
}

#define N4K 4096

static int s_matmul(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t n = 8192, sh[2] = { n, n };
  *bytes = 3.0 * n * n * 4;
  *flops = 2.0 * n * n * n;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_MATMUL, CUSCI_FLOAT32, 2, sh, 2, sh, 0, why, len);
}

static int s_solve(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t n = N4K, sa[2] = { n, n }, sb[1] = { n };
  *bytes = 8.0 * (n * n + 2 * n);
  *flops = 2.0 / 3.0 * n * n * n + 2.0 * n * n;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_SOLVE, CUSCI_FLOAT64, 2, sa, 1, sb, 0, why, len);
}

static int s_cholesky(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t n = N4K, sa[2] = { n, n };
  *bytes = 8.0 * 2 * n * n;
  *flops = 1.0 / 3.0 * n * n * n;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_CHOLESKY, CUSCI_FLOAT64, 2, sa, 0, NULL, 1, why, len);
}

static int s_lu_factor(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t n = N4K, sa[2] = { n, n };
  *bytes = 8.0 * 2 * n * n;
  *flops = 2.0 / 3.0 * n * n * n;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_LU_FACTOR, CUSCI_FLOAT64, 2, sa, 0, NULL, 0, why, len);
}

static int s_eigh(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t n = N4K, sa[2] = { n, n };
  *bytes = 8.0 * (2 * n * n + n);
  *flops = 0;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_EIGH, CUSCI_FLOAT64, 2, sa, 0, NULL, 1, why, len);
}

static int s_svd(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t n = 2048, sa[2] = { n, n };
  *bytes = 4.0 * 3 * n * n;
  *flops = 0;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_SVD, CUSCI_FLOAT32, 2, sa, 0, NULL, 0, why, len);
}

#define NB 100000

static int s_solve_small(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t sa[3] = { NB, 8, 8 }, sb[3] = { NB, 8, 1 };
  *bytes = 8.0 * NB * (64 + 8 + 8);
  *flops = NB * (2.0 / 3.0 * 512 + 2.0 * 64);
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_SOLVE, CUSCI_FLOAT64, 3, sa, 3, sb, 0, why, len);
}

static int s_inv_small(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t sa[3] = { NB, 8, 8 };
  *bytes = 8.0 * NB * 128;
  *flops = NB * 2.0 * 512;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_INV, CUSCI_FLOAT64, 3, sa, 0, NULL, 0, why, len);
}

static int s_det_small(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t sa[3] = { NB, 8, 8 };
  *bytes = 8.0 * NB * 65;
  *flops = NB * 2.0 / 3.0 * 512;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_DET, CUSCI_FLOAT64, 3, sa, 0, NULL, 0, why, len);
}

/* qr and lstsq: the QR of a 4096x4096 float64 matrix (Q and R, CuPy's
 * default 'reduced'), and a 4096x512 float64 least-squares problem. */
static int s_qr(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t n = N4K, sa[2] = { n, n };
  *bytes = 8.0 * 3 * n * n;
  *flops = 4.0 / 3.0 * n * n * n * 2; /* geqrf, then orgqr */
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_QR, CUSCI_FLOAT64, 2, sa, 0, NULL, 0, why, len);
}

static int s_lstsq(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t m = N4K, n = 512, sa[2] = { m, n }, sb[1] = { m };
  *bytes = 8.0 * (m * n + m + n);
  *flops = 0;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_LSTSQ, CUSCI_FLOAT64, 2, sa, 1, sb, 0, why, len);
}

/* Batches of 100000 16x16 and 32x32 float64 systems (solve, inv). */
static int s_solve_16(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t sa[3] = { NB, 16, 16 }, sb[3] = { NB, 16, 1 };
  *bytes = 8.0 * NB * (256 + 16 + 16);
  *flops = NB * (2.0 / 3.0 * 4096 + 2.0 * 256);
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_SOLVE, CUSCI_FLOAT64, 3, sa, 3, sb, 0, why, len);
}

static int s_solve_32(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t sa[3] = { NB, 32, 32 }, sb[3] = { NB, 32, 1 };
  *bytes = 8.0 * NB * (1024 + 32 + 32);
  *flops = NB * (2.0 / 3.0 * 32768 + 2.0 * 1024);
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_SOLVE, CUSCI_FLOAT64, 3, sa, 3, sb, 0, why, len);
}

static int s_inv_16(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t sa[3] = { NB, 16, 16 };
  *bytes = 8.0 * NB * 512;
  *flops = NB * 2.0 * 4096;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_INV, CUSCI_FLOAT64, 3, sa, 0, NULL, 0, why, len);
}

static int s_inv_32(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t sa[3] = { NB, 32, 32 };
  *bytes = 8.0 * NB * 2048;
  *flops = NB * 2.0 * 32768;
  return need_gpu(ctx, why, len) || setup(ctx, st, OP_INV, CUSCI_FLOAT64, 3, sa, 0, NULL, 0, why, len);
}

/* expm of a 1024x1024 float64 matrix of entries in [-1, 1) (degree 13
 * with squarings), and a 4096 float64 Toeplitz system (Levinson, O(n^2)). */
static int s_expm(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t n = 1024, sa[2] = { n, n };
  *bytes = 8.0 * 2 * n * n;
  *flops = 0;
  if (need_gpu(ctx, why, len))
    return 1;
  lstate *s = calloc(1, sizeof *s);
  s->op = OP_EXPM;
  if (make(ctx, CUSCI_FLOAT64, 2, sa, 0, 0.0, &s->a) != CUSCI_OK) /* no shift: e^(2n) would overflow */
    return fail(why, len, ctx, s);
  *st = s;
  return 0;
}

static int s_toeplitz(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  int64_t n = N4K, sc[1] = { n };
  *bytes = 8.0 * 3 * n;
  *flops = 6.0 * n * n;
  if (need_gpu(ctx, why, len))
    return 1;
  lstate *s = calloc(1, sizeof *s);
  s->op = OP_TOEPLITZ;
  /* c decaying from c[0] = 2: a well conditioned symmetric T. */
  double *c = malloc(sizeof *c * (size_t)n);
  for (int64_t i = 0; i < n; i++)
    c[i] = i == 0 ? 2.0 : 0.5 / (double)(i * i);
  cusci_status e = cusci_array_from_host(ctx, c, 1, sc, CUSCI_FLOAT64, &s->a);
  free(c);
  if (e != CUSCI_OK || make(ctx, CUSCI_FLOAT64, 1, sc, 0, 0, &s->b) != CUSCI_OK)
    return fail(why, len, ctx, s);
  *st = s;
  return 0;
}

/* eig and the top of eigh's spectrum (liblinalg/eig.c). */
typedef struct estate {
  cusci_array *a;
  int top; /* eigh: the top `top` eigenpairs; 0: eig */
} estate;

static int e_setup(cusci_ctx *ctx, void **st, int64_t n, int spd, int top, char *why, size_t len)
{
  if (need_gpu(ctx, why, len))
    return 1;
  estate *s = calloc(1, sizeof *s);
  int64_t sh[2] = { n, n };
  s->top = top;
  if (make(ctx, CUSCI_FLOAT64, 2, sh, spd, 0.0, &s->a) != CUSCI_OK) {
    snprintf(why, len, "%s", cusci_ctx_last_error(ctx));
    free(s);
    return 1;
  }
  *st = s;
  return 0;
}

static int e_run(cusci_ctx *ctx, void *state)
{
  estate *s = state;
  cusci_array *w = NULL, *v = NULL;
  cusci_status st;
  if (s->top) {
    int64_t n = cusci_array_shape(s->a)[1];
    cusci_linalg_eigh_opts o = { .subset = CUSCI_LINALG_SUBSET_INDEX, .lo = n - s->top, .hi = n - 1 };
    st = cusci_linalg_eigh(ctx, s->a, &o, &w, &v);
  } else {
    st = cusci_linalg_eig(ctx, s->a, NULL, NULL, &w, NULL, &v);
  }
  cusci_array_release(w);
  cusci_array_release(v);
  return st;
}

static void e_teardown(void *state)
{
  estate *s = state;
  cusci_array_release(s->a);
  free(s);
}

static int s_eig(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  *bytes = 0, *flops = 0;
  return e_setup(ctx, st, 1024, 0, 0, why, len);
}

static int s_eigh_top10(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  *bytes = 0, *flops = 0;
  return e_setup(ctx, st, 4096, 1, 10, why, len);
}

/* sqrtm and logm of a 512x512 float64 matrix: entries in [-1, 1) plus 32
 * on the diagonal, so every eigenvalue is in the right half-plane and the
 * results are real. Both run on the host (Schur) for a GPU array too: the
 * time includes the copies. */
static int s_schurfun(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len, int op)
{
  int64_t n = 512, sa[2] = { n, n };
  *bytes = 8.0 * 2 * n * n;
  *flops = 0;
  if (need_gpu(ctx, why, len))
    return 1;
  lstate *s = calloc(1, sizeof *s);
  if (!s)
    return fail(why, len, ctx, NULL);
  s->op = op;
  if (make(ctx, CUSCI_FLOAT64, 2, sa, 0, 32.0, &s->a) != CUSCI_OK)
    return fail(why, len, ctx, s);
  *st = s;
  return 0;
}

static int s_sqrtm(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  return s_schurfun(ctx, st, bytes, flops, why, len, OP_SQRTM);
}

static int s_logm(cusci_ctx *ctx, void **st, double *bytes, double *flops, char *why, size_t len)
{
  return s_schurfun(ctx, st, bytes, flops, why, len, OP_LOGM);
}

const bench_case bench_cases_linalg[] = {
  { .name = "linalg.matmul_f32_8192", .desc = "matmul of two 8192x8192 float32 matrices (cuBLAS sgemm, no TF32)", .setup = s_matmul, .run = run, .teardown = teardown },
  { .name = "linalg.solve_f64_4096", .desc = "solve a 4096x4096 float64 system, one right-hand side", .setup = s_solve, .run = run, .teardown = teardown },
  { .name = "linalg.cholesky_f64_4096", .desc = "cholesky of a 4096x4096 float64 SPD matrix", .setup = s_cholesky, .run = run, .teardown = teardown },
  { .name = "linalg.lu_factor_f64_4096", .desc = "lu_factor of a 4096x4096 float64 matrix", .setup = s_lu_factor, .run = run, .teardown = teardown },
  { .name = "linalg.eigh_f64_4096", .desc = "eigh (values and vectors) of a 4096x4096 float64 symmetric matrix", .setup = s_eigh, .run = run, .teardown = teardown },
  { .name = "linalg.svd_f32_2048", .desc = "svd (economic, with vectors) of a 2048x2048 float32 matrix", .setup = s_svd, .run = run, .teardown = teardown },
  { .name = "linalg.solve_batched_8x8_f64", .desc = "solve 100000 8x8 float64 systems, one column each", .setup = s_solve_small, .run = run, .teardown = teardown },
  { .name = "linalg.inv_batched_8x8_f64", .desc = "inv of 100000 8x8 float64 matrices", .setup = s_inv_small, .run = run, .teardown = teardown },
  { .name = "linalg.det_batched_8x8_f64", .desc = "det of 100000 8x8 float64 matrices", .setup = s_det_small, .run = run, .teardown = teardown },
  { .name = "linalg.qr_f64_4096", .desc = "qr (Q and R) of a 4096x4096 float64 matrix (cuSOLVER geqrf + orgqr)", .setup = s_qr, .run = run, .teardown = teardown },
  { .name = "linalg.lstsq_f64_4096x512", .desc = "lstsq of a 4096x512 float64 system, one right-hand side (SVD route)", .setup = s_lstsq, .run = run, .teardown = teardown },
  { .name = "linalg.solve_batched_16x16_f64", .desc = "solve 100000 16x16 float64 systems, one column each", .setup = s_solve_16, .run = run, .teardown = teardown },
  { .name = "linalg.solve_batched_32x32_f64", .desc = "solve 100000 32x32 float64 systems, one column each", .setup = s_solve_32, .run = run, .teardown = teardown },
  { .name = "linalg.inv_batched_16x16_f64", .desc = "inv of 100000 16x16 float64 matrices", .setup = s_inv_16, .run = run, .teardown = teardown },
  { .name = "linalg.inv_batched_32x32_f64", .desc = "inv of 100000 32x32 float64 matrices", .setup = s_inv_32, .run = run, .teardown = teardown },
  { .name = "linalg.expm_f64_1024", .desc = "expm of a 1024x1024 float64 matrix, entries uniform in [-1, 1)", .setup = s_expm, .run = run, .teardown = teardown },
  { .name = "linalg.solve_toeplitz_f64_4096", .desc = "solve_toeplitz of a 4096 float64 symmetric Toeplitz system (Levinson-Durbin)", .setup = s_toeplitz, .run = run, .teardown = teardown },
  { .name = "linalg.eig_f64_1024", .desc = "eig (eigenvalues and right eigenvectors) of a 1024x1024 float64 general matrix (cuSOLVER Xgeev)", .setup = s_eig, .run = e_run, .teardown = e_teardown },
  { .name = "linalg.eigh_top10_f64_4096", .desc = "eigh subset_by_index: the 10 largest eigenpairs of a 4096x4096 float64 symmetric matrix (cuSOLVER Xsyevdx)", .setup = s_eigh_top10, .run = e_run, .teardown = e_teardown },
  { .name = "linalg.sqrtm_f64_512", .desc = "sqrtm of a 512x512 float64 matrix (blocked Schur method, on the host)", .setup = s_sqrtm, .run = run, .teardown = teardown },
  { .name = "linalg.logm_f64_512", .desc = "logm of a 512x512 float64 matrix (inverse scaling and squaring on the Schur form, on the host)", .setup = s_logm, .run = run, .teardown = teardown },
  { .name = NULL },
};
