/*
 * liblinalg/basic.c: scipy.linalg's basic functions (solve, with its
 * structured kinds, solve_triangular, inv, det, pinv) and numpy.linalg's
 * slogdet and matrix_rank.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA */
#endif

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"
#include "kernels/linalg/launch.h"
#include "reference/linalg/reference.h"

/*
 * scipy.linalg.solve. a is broadcast to the common batch and b to it as
 * well, b as one column when it is 1-D (NumPy 2's rule).
 */
cusci_status cusci__la_solve_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_array *b, const cusci_linalg_solve_opts *opts,
                               int special, int tri_trans, bool unit, cusci_array **x)
{
  cusci_linalg_solve_opts o = opts ? *opts : (cusci_linalg_solve_opts){ 0 };
  TRY(cusci__la_check_square(ctx, fn, "a", a));
  TRY(cusci__la_check_input(ctx, fn, "b", b, 1));
  if ((int)o.assume_a < 0 || o.assume_a > CUSCI_LINALG_ASSUME_LOWER_TRIANGULAR)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "assume_a is %d, not a cusci_linalg_assume_a", (int)o.assume_a);
  cusci_dtype da, db, dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &da));
  TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
  TRY(cusci_promote_types(da, db, &dt));
  if (o.transposed && cusci_dtype_is_complex(dt))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "transposed solves are for real matrices only (as SciPy)");
  cusci__la_rhs r;
  TRY(cusci__la_rhs_of(ctx, fn, "a", a, b, dt, x, &r));
  const int64_t n = r.n, k = r.k, batch = r.batch;
  const int nb = r.nb;
  const bool vec = r.vec;
  int64_t *shape = r.shape, *xshape = r.xshape;

  /* Working copies: a (batch, n, n) and b (batch, n, k), C-contiguous. */
  cusci_array *va = NULL, *vb = NULL, *wa = NULL, *wb = NULL, *res = NULL;
  shape[nb] = n;
  shape[nb + 1] = n;
  int assume = o.assume_a == CUSCI_LINALG_ASSUME_HER && !cusci_dtype_is_complex(dt) ? CUSCI__LA_SYM : (int)o.assume_a;
  if (special) /* cho_solve's factor, or solve_triangular's matrix */
    assume = special;
  /* solve's structured kinds (liblinalg/solvers.c's backends). */
  bool lower = o.lower;
  switch (o.assume_a) {
  case CUSCI_LINALG_ASSUME_DIAGONAL: assume = CUSCI__LA_DIAGONAL; break;
  case CUSCI_LINALG_ASSUME_TRIDIAGONAL: assume = CUSCI__LA_TRIDIAGONAL; break;
  case CUSCI_LINALG_ASSUME_BANDED: assume = CUSCI__LA_BANDED; break;
  case CUSCI_LINALG_ASSUME_UPPER_TRIANGULAR:
  case CUSCI_LINALG_ASSUME_LOWER_TRIANGULAR:
    assume = special = CUSCI__LA_TRIANGULAR;
    tri_trans = o.transposed;
    lower = o.assume_a == CUSCI_LINALG_ASSUME_LOWER_TRIANGULAR;
    break;
  default: break;
  }
  if (assume == CUSCI__LA_TRIANGULAR)
    TRY(cusci__la_check_int(ctx, fn, "cuBLAS's trsm", n, k));
  /* a^T = a for sym, her (real) and pos (real) and diagonal. */
  int trans = special == CUSCI__LA_TRIANGULAR ? tri_trans
                                              : o.transposed && (assume == CUSCI__LA_GEN || assume == CUSCI__LA_TRIDIAGONAL || assume == CUSCI__LA_BANDED);
  cusci_status st = cusci_array_broadcast_to(ctx, (cusci_array *)a, nb + 2, shape, &va);
  /* The small-matrix kernels read b (and a general a) where they are and
   * write x apart. */
  bool small = cusci__la_small_solve(assume, n);
  bool read_only = small && cusci__la_small_reads_a(assume);
  if (st == CUSCI_OK)
    st = cusci__la_read_copy(ctx, va, dt, read_only, &wa);
  if (st == CUSCI_OK)
    st = cusci__la_rhs_view(ctx, b, &r, &vb);
  /* rb: the right-hand sides, b itself where it serves as is; wb: x,
   * solved in place in rb's copy, or new. */
  cusci_array *rb = NULL;
  if (st == CUSCI_OK)
    st = cusci__la_read_copy(ctx, vb, dt, small, &rb);
  if (st == CUSCI_OK)
    st = rb == vb ? cusci_array_empty(ctx, nb + 2, shape, dt, &wb) : (wb = cusci_array_retain(rb), CUSCI_OK);
  cusci_array_release(va);
  cusci_array_release(vb);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && batch > 0 && n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = !o.no_check_finite && (cusci__la_host_nonfinite(wa) || cusci__la_host_nonfinite(wb));
      if (!nonfinite)
        info = cusci__ref_la_solve(dt, assume, lower, trans, unit, batch, n, k, cusci_array_data(wa), cusci_array_data(wb), &f);
    } else {
      CUSCI__LA_GPU(st, ctx, fn, batch, small ? CUSCI__LA_WORDS | CUSCI__LA_SUMMARIZED : CUSCI__LA_WORDS, &f, &nonfinite, cusci__launch_la_solve,
                    dt, assume, lower, trans, unit, !o.no_check_finite, batch, n, k, cusci_array_data(wa), cusci_array_data(rb),
                    cusci_array_data(wb));
    }
  }
  cusci_array_release(wa);
  cusci_array_release(rb);
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, f,
                assume == CUSCI__LA_POS ? CUSCI__LA_FAIL_NOT_PD : assume == CUSCI__LA_TRIANGULAR ? CUSCI__LA_FAIL_TRIANGULAR : CUSCI__LA_FAIL_SINGULAR, nb, shape);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, wb, nb + (vec ? 1 : 2), xshape, &res);
  cusci_array_release(wb);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, res, x);
}

cusci_status cusci_linalg_solve(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_solve_opts *opts, cusci_array **x)
{
  return cusci__la_solve_impl(ctx, "cusci_linalg_solve", a, b, opts, 0, 0, false, x);
}

/* scipy.linalg.solve_triangular: LAPACKE trtrs; cuBLAS trsm. */
cusci_status cusci_linalg_solve_triangular(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_solve_triangular_opts *opts,
                                           cusci_array **x)
{
  static const char fn[] = "cusci_linalg_solve_triangular";
  cusci_linalg_solve_triangular_opts t = opts ? *opts : (cusci_linalg_solve_triangular_opts){ 0 };
  if ((int)t.trans < 0 || t.trans > CUSCI_LINALG_TRANS_C)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "trans is %d, not a cusci_linalg_trans", (int)t.trans);
  cusci_linalg_solve_opts o = { .lower = t.lower, .no_check_finite = t.no_check_finite };
  return cusci__la_solve_impl(ctx, fn, a, b, &o, CUSCI__LA_TRIANGULAR, (int)t.trans, t.unit_diagonal, x);
}

/* scipy.linalg.inv. */
cusci_status cusci_linalg_inv(cusci_ctx *ctx, const cusci_array *a, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_inv";
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  TRY(cusci_check_out(ctx, fn, out, in.nd, in.sh, in.dt, CUSCI_CASTING_NO));
  cusci_array *w = NULL, *res = NULL;
  cusci_status st = cusci__la_read_copy(ctx, a, in.dt, in.n > 0 && in.n <= CUSCI__LA_SMALL_MAX && in.batch > 0, &w);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && in.batch > 0 && in.n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = cusci__la_host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_inv(in.dt, in.batch, in.n, cusci_array_data(w), &f);
      res = cusci_array_retain(w);
    } else {
      st = cusci_array_empty(ctx, in.nd, in.sh, in.dt, &res);
      if (st == CUSCI_OK)
        CUSCI__LA_GPU(st, ctx, fn, in.batch, in.n <= CUSCI__LA_SMALL_MAX ? CUSCI__LA_WORDS | CUSCI__LA_SUMMARIZED : CUSCI__LA_WORDS, &f,
                      &nonfinite, cusci__launch_la_inv, in.dt, true, in.batch, in.n, cusci_array_data(w), cusci_array_data(res));
    }
  } else if (st == CUSCI_OK) {
    res = cusci_array_retain(w);
  }
  cusci_array_release(w);
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, f, CUSCI__LA_FAIL_SINGULAR, in.nd - 2, in.sh);
  return cusci__la_give_all(ctx, fn, st, 1, &res, &out);
}

/* scipy.linalg.det. */
cusci_status cusci_linalg_det(cusci_ctx *ctx, const cusci_array *a, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_det";
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  TRY(cusci_check_out(ctx, fn, out, in.nd - 2, in.sh, in.dt, CUSCI_CASTING_NO));
  cusci_array *w = NULL, *res = NULL;
  cusci_status st;
  if (in.n == 0) { /* the determinant of an empty matrix is 1 */
    TRY(cusci_array_ones(ctx, in.nd - 2, in.sh, in.dt, &res));
    return cusci_give_out(ctx, fn, res, out);
  }
  st = cusci__la_read_copy(ctx, a, in.dt, in.n <= CUSCI__LA_SMALL_MAX, &w);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, in.nd - 2, in.sh, in.dt, &res);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && in.batch > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = cusci__la_host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_det(in.dt, in.batch, in.n, cusci_array_data(w), cusci_array_data(res));
    } else {
      CUSCI__LA_GPU(st, ctx, fn, in.batch, in.n <= CUSCI__LA_SMALL_MAX ? CUSCI__LA_WORDS | CUSCI__LA_SUMMARIZED : CUSCI__LA_WORDS, NULL,
                    &nonfinite, cusci__launch_la_det, in.dt, true, in.batch, in.n, cusci_array_data(w), cusci_array_data(res));
    }
  }
  cusci_array_release(w);
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, f, CUSCI__LA_FAIL_SINGULAR, in.nd - 2, in.sh);
  return cusci__la_give_all(ctx, fn, st, 1, &res, &out);
}

/* numpy.linalg.slogdet. */
cusci_status cusci_linalg_slogdet(cusci_ctx *ctx, const cusci_array *a, cusci_array **sign, cusci_array **logabsdet)
{
  static const char fn[] = "cusci_linalg_slogdet";
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  cusci_dtype rt = cusci_dtype_real_of(in.dt);
  TRY(cusci_check_out(ctx, fn, sign, in.nd - 2, in.sh, in.dt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, logabsdet, in.nd - 2, in.sh, rt, CUSCI_CASTING_NO));
  cusci_array *w = NULL, *rs = NULL, *rl = NULL;
  cusci_status st;
  if (in.n == 0) { /* an empty matrix: sign 1, log|det| 0 */
    st = cusci_array_ones(ctx, in.nd - 2, in.sh, in.dt, &rs);
    if (st == CUSCI_OK)
      st = cusci_array_zeros(ctx, in.nd - 2, in.sh, rt, &rl);
  } else {
    st = cusci__la_work_copy(ctx, a, in.dt, &w);
    if (st == CUSCI_OK)
      st = cusci_array_empty(ctx, in.nd - 2, in.sh, in.dt, &rs);
    if (st == CUSCI_OK)
      st = cusci_array_empty(ctx, in.nd - 2, in.sh, rt, &rl);
  }
  bool nonfinite = false;
  int info = 0;
  if (st == CUSCI_OK && in.batch > 0 && in.n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = cusci__la_host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_slogdet(in.dt, in.batch, in.n, cusci_array_data(w), cusci_array_data(rs), cusci_array_data(rl));
    } else {
      CUSCI__LA_GPU(st, ctx, fn, in.batch, in.n <= CUSCI__LA_SMALL_MAX ? CUSCI__LA_WORDS | CUSCI__LA_SUMMARIZED : CUSCI__LA_WORDS, NULL,
                    &nonfinite, cusci__launch_la_slogdet, in.dt, true, in.batch, in.n, cusci_array_data(w), cusci_array_data(rs),
                    cusci_array_data(rl));
    }
  }
  cusci_array_release(w);
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, (cusci__la_fail){ 0, 0 }, CUSCI__LA_FAIL_SINGULAR, in.nd - 2, in.sh);
  return cusci__la_give_all(ctx, fn, st, 2, (cusci_array *[]){ rs, rl }, (cusci_array **[]){ sign, logabsdet });
}

/*
 * numpy.linalg.matrix_rank: S from svdvals (|w| from eigvalsh when
 * hermitian), then count S > tol on the host, where tol is opts->tol or
 * rtol * max(S), rtol defaulting to max(M, N) * eps (NumPy 2's rule).
 */
cusci_status cusci_linalg_matrix_rank(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_matrix_rank_opts *opts, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_matrix_rank";
  cusci_linalg_matrix_rank_opts o = opts ? *opts : (cusci_linalg_matrix_rank_opts){ 0 };
  TRY(cusci__la_check_input(ctx, fn, "a", a, 0));
  if ((o.has_tol && !(o.tol >= 0)) || !(o.rtol >= 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "tol and rtol must be non-negative numbers");
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  int nd = cusci_array_ndim(a);
  const int64_t *sh = cusci_array_shape(a);
  int nb = nd >= 2 ? nd - 2 : 0;
  TRY(cusci_check_out(ctx, fn, out, nb, sh, CUSCI_INT64, CUSCI_CASTING_NO));
  int64_t batch = cusci__la_prod(nb, sh);
  int64_t *rank = malloc(sizeof *rank * (size_t)(batch ? batch : 1));
  if (!rank)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array *sv = NULL, *c = NULL;
  cusci_status st = CUSCI_OK;
  if (nd < 2) {
    /* Any nonzero element: rank 1. */
    st = cusci_array_astype(ctx, (cusci_array *)a, CUSCI_COMPLEX128, true, &c);
    size_t bytes = cusci_array_nbytes(c);
    double *v = st == CUSCI_OK ? malloc(bytes ? bytes : 1) : NULL;
    if (st == CUSCI_OK && !v)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK)
      st = cusci_array_to_host(ctx, c, v, bytes);
    rank[0] = 0;
    for (int64_t i = 0; st == CUSCI_OK && i < 2 * cusci_array_size(c); i++)
      if (v[i] != 0)
        rank[0] = 1;
    free(v);
  } else {
    int64_t m = sh[nd - 2], n = sh[nd - 1];
    if (o.hermitian)
      st = cusci__la_eigh_impl(ctx, fn, a, NULL, &sv, NULL);
    else
      st = cusci__la_svd_impl(ctx, fn, a, false, false, NULL, &sv, NULL);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, sv, CUSCI_FLOAT64, false, &c);
    int64_t k = st == CUSCI_OK ? cusci_array_shape(c)[nb] : 0;
    double *s = st == CUSCI_OK ? malloc(sizeof *s * (size_t)(batch * k > 0 ? batch * k : 1)) : NULL;
    if (st == CUSCI_OK && !s)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK)
      st = cusci_array_to_host(ctx, c, s, sizeof *s * (size_t)(batch * k));
    double eps = dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
    double rtol = o.rtol > 0 ? o.rtol : (double)(m > n ? m : n) * eps;
    for (int64_t b = 0; st == CUSCI_OK && b < batch; b++) {
      double mx = 0;
      for (int64_t i = 0; i < k; i++)
        mx = fabs(s[b * k + i]) > mx ? fabs(s[b * k + i]) : mx;
      double tol = o.has_tol ? o.tol : rtol * mx;
      rank[b] = 0;
      for (int64_t i = 0; i < k; i++)
        rank[b] += fabs(s[b * k + i]) > tol;
    }
    free(s);
  }
  cusci_array_release(sv);
  cusci_array_release(c);
  cusci_array *r = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, rank, nb, sh, CUSCI_INT64, &r);
  free(rank);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, r, out);
}

/*
 * scipy.linalg.pinv = V diag(s+) U^H, s+ = 1/s above the cutoff, else 0.
 * From the economic SVD u (M, K), s (K), vh (K, N): the host forms
 * P = vh^H diag(s+) (N, K) and Q = u^H (K, M), and one matmul on the
 * device gives P Q.
 */
cusci_status cusci_linalg_pinv(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_pinv_opts *opts, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_pinv";
  cusci_linalg_pinv_opts o = opts ? *opts : (cusci_linalg_pinv_opts){ 0 };
  TRY(cusci__la_check_input(ctx, fn, "a", a, 2));
  if (!(o.atol >= 0) || !(o.rtol >= 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "atol and rtol must be non-negative numbers");
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  int nd = cusci_array_ndim(a), nb = nd - 2;
  const int64_t *sh = cusci_array_shape(a);
  int64_t m = sh[nd - 2], n = sh[nd - 1], K = m < n ? m : n, batch = cusci__la_prod(nb, sh);
  int64_t oshape[CUSCI_MAX_NDIM], pshape[CUSCI_MAX_NDIM], qshape[CUSCI_MAX_NDIM];
  memcpy(oshape, sh, sizeof *sh * (size_t)nb);
  memcpy(pshape, sh, sizeof *sh * (size_t)nb);
  memcpy(qshape, sh, sizeof *sh * (size_t)nb);
  oshape[nb] = n, oshape[nb + 1] = m;
  pshape[nb] = n, pshape[nb + 1] = K;
  qshape[nb] = K, qshape[nb + 1] = m;
  TRY(cusci_check_out(ctx, fn, out, nd, oshape, dt, CUSCI_CASTING_NO));
  cusci_array *u = NULL, *s = NULL, *vh = NULL;
  TRY(cusci__la_svd_impl(ctx, fn, a, false, true, &u, &s, &vh));
  size_t nu = (size_t)(batch * m * K), nv = (size_t)(batch * K * n), ns = (size_t)(batch * K);
  double complex *hu = malloc(sizeof *hu * (nu ? nu : 1)), *hv = malloc(sizeof *hv * (nv ? nv : 1));
  double complex *P = malloc(sizeof *P * (nv ? nv : 1)), *Q = malloc(sizeof *Q * (nu ? nu : 1));
  double *hs = malloc(sizeof *hs * (ns ? ns : 1));
  cusci_status st = hu && hv && P && Q && hs ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array *cu = NULL, *cs = NULL, *cv = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, u, CUSCI_COMPLEX128, true, &cu);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, s, CUSCI_FLOAT64, true, &cs);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, vh, CUSCI_COMPLEX128, true, &cv);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, cu, hu, sizeof *hu * nu);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, cs, hs, sizeof *hs * ns);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, cv, hv, sizeof *hv * nv);
  cusci_array_release(u), cusci_array_release(s), cusci_array_release(vh);
  cusci_array_release(cu), cusci_array_release(cs), cusci_array_release(cv);
  double eps = dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
  double rtol = o.rtol > 0 ? o.rtol : (double)(m > n ? m : n) * eps;
  for (int64_t b = 0; st == CUSCI_OK && b < batch; b++) {
    const double *sb = hs + b * K;
    double smax = K ? sb[0] : 0; /* descending */
    double cut = o.atol + rtol * smax;
    for (int64_t j = 0; j < K; j++) {
      double inv = sb[j] > cut ? 1.0 / sb[j] : 0.0;
      for (int64_t i = 0; i < n; i++)
        P[b * n * K + i * K + j] = conj(hv[b * K * n + j * n + i]) * inv;
      for (int64_t i = 0; i < m; i++)
        Q[b * K * m + j * m + i] = conj(hu[b * m * K + i * K + j]);
    }
  }
  cusci_array *tp = NULL, *tq = NULL, *pp = NULL, *qq = NULL, *r = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, P, nd, pshape, CUSCI_COMPLEX128, &tp);
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, Q, nd, qshape, CUSCI_COMPLEX128, &tq);
  free(hu), free(hv), free(P), free(Q), free(hs);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, tp, dt, false, &pp);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, tq, dt, false, &qq);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(ctx, pp, qq, &r);
  cusci_array_release(tp), cusci_array_release(tq), cusci_array_release(pp), cusci_array_release(qq);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, r, out);
}
