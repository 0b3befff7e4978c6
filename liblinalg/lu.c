/*
 * liblinalg/lu.c: scipy.linalg.lu, lu_factor and lu_solve.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA */
#endif

#include <stdint.h>
#include <string.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"
#include "kernels/linalg/launch.h"
#include "reference/linalg/lu_ops.h"
#include "reference/linalg/reference.h"

/* scipy.linalg.lu_factor. The pivots become SciPy's 0-based int32 where
 * they are: in place on the host (LAPACK's are int32), by a kernel from
 * cuSOLVER's 1-based int64 ones on a GPU. */
cusci_status cusci_linalg_lu_factor(cusci_ctx *ctx, const cusci_array *a, cusci_array **lu, cusci_array **piv)
{
  static const char fn[] = "cusci_linalg_lu_factor";
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  TRY(cusci_check_out(ctx, fn, lu, in.nd, in.sh, in.dt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, piv, in.nd - 1, in.sh, CUSCI_INT32, CUSCI_CASTING_NO));
  cusci_array *w = NULL, *p = NULL, *dp = NULL;
  cusci_status st = cusci__la_work_copy(ctx, a, in.dt, &w);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, in.nd - 1, in.sh, CUSCI_INT32, &p);
  bool nonfinite = false;
  int info = 0;
  int64_t np = in.batch * in.n;
  if (st == CUSCI_OK && np > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = cusci__la_host_nonfinite(w);
      int32_t *hp = cusci_array_data(p);
      if (!nonfinite)
        info = cusci__ref_la_lu_factor(in.dt, in.batch, in.n, cusci_array_data(w), hp);
      for (int64_t i = 0; !nonfinite && info == 0 && i < np; i++)
        hp[i] = cusci__lu_piv_from_lapack(hp[i]);
    } else {
      st = cusci_array_empty(ctx, 1, &np, CUSCI_INT64, &dp);
      if (st == CUSCI_OK)
        CUSCI__LA_GPU(st, ctx, fn, in.batch, CUSCI__LA_WORDS, NULL, &nonfinite, cusci__launch_la_lu_factor, in.dt, true, in.batch, in.n,
                      cusci_array_data(w), cusci_array_data(dp));
      /* Queued after getrf on the context's stream; dp goes back to the
       * pool, which orders its reuse on that stream. */
      if (st == CUSCI_OK && !nonfinite) {
        int e = cusci__launch_la_piv_from_lapack(cusci_ctx_stream(ctx), np, cusci_array_data(dp), cusci_array_data(p));
        if (e != 0)
          st = cusci_ctx_gpu_status(ctx, fn, "the pivots' conversion", e);
      }
    }
  }
  cusci_array_release(dp);
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, (cusci__la_fail){ 0, 0 }, CUSCI__LA_FAIL_SINGULAR, in.nd - 2, in.sh);
  return cusci__la_give_all(ctx, fn, st, 2, (cusci_array *[]){ w, p }, (cusci_array **[]){ lu, piv });
}

/*
 * scipy.linalg.lu from lu_factor, split on the factors' device in their
 * own dtype (reference/linalg/lu_ops.h has the formulas): the pivots give
 * SciPy's row indices r (a = (l u)[r]), from which p (p[i][r[i]] = 1), or
 * p l (row i is row r[i] of l) with permute_l, are written; l is the
 * strict lower part of the factors plus the identity, u the upper part.
 */
cusci_status cusci_linalg_lu(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_lu_opts *opts, cusci_array **p, cusci_array **l, cusci_array **u)
{
  static const char fn[] = "cusci_linalg_lu";
  cusci_linalg_lu_opts o = opts ? *opts : (cusci_linalg_lu_opts){ 0 };
  TRY(cusci__la_check_square(ctx, fn, "a", a));
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  cusci_dtype rt = cusci_dtype_real_of(dt);
  int nd = cusci_array_ndim(a);
  const int64_t *sh = cusci_array_shape(a);
  int64_t n = sh[nd - 1], batch = cusci__la_prod(nd - 2, sh);
  if (!o.permute_l)
    TRY(cusci_check_out(ctx, fn, p, o.p_indices ? nd - 1 : nd, sh, o.p_indices ? CUSCI_INT32 : rt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, l, nd, sh, dt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, u, nd, sh, dt, CUSCI_CASTING_NO));
  cusci_array *lu = NULL, *piv = NULL;
  TRY(cusci_linalg_lu_factor(ctx, a, &lu, &piv));
  /* The row indices are p itself with p_indices, else scratch. */
  cusci_array *rp = NULL, *rl = NULL, *ru = NULL, *rows = NULL;
  cusci_status st = cusci_array_empty(ctx, nd, sh, dt, &rl);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, sh, dt, &ru);
  if (st == CUSCI_OK && !o.permute_l)
    st = o.p_indices ? cusci_array_empty(ctx, nd - 1, sh, CUSCI_INT32, &rp) : cusci_array_empty(ctx, nd, sh, rt, &rp);
  if (st == CUSCI_OK && !o.p_indices)
    st = cusci_array_empty(ctx, nd - 1, sh, CUSCI_INT32, &rows);
  if (st == CUSCI_OK && batch * n > 0) {
    int32_t *r = cusci_array_data(o.p_indices ? rp : rows);
    void *pm = o.p_indices || o.permute_l ? NULL : cusci_array_data(rp);
    if (cusci__la_on_host(ctx)) {
      (void)cusci__ref_la_lu_split(dt, batch, n, cusci_array_data(lu), cusci_array_data(piv), o.permute_l, r, pm, cusci_array_data(rl),
                                   cusci_array_data(ru));
    } else {
      st = cusci_ctx_use_device(ctx, fn);
      int e = st == CUSCI_OK ? cusci__launch_la_lu_split(cusci_ctx_stream(ctx), dt, batch, n, cusci_array_data(lu), cusci_array_data(piv),
                                                         o.permute_l, r, pm, cusci_array_data(rl), cusci_array_data(ru))
                             : 0;
      if (e != 0)
        st = cusci_ctx_gpu_status(ctx, fn, "the split into p, l and u", e);
    }
  }
  /* Queued work on them is ordered before any reuse by the pool. */
  cusci_array_release(lu);
  cusci_array_release(piv);
  cusci_array_release(rows);
  return cusci__la_give_all(ctx, fn, st, 3, (cusci_array *[]){ rp, rl, ru }, (cusci_array **[]){ p, l, u });
}

/* scipy.linalg.lu_solve: the pivots are checked and made 1-based where
 * they are, in place on the host (int32 for LAPACKE) or by a kernel on a
 * GPU (int64 for cuSOLVER), whose first bad pivot is read back after the
 * solve. */
cusci_status cusci_linalg_lu_solve(cusci_ctx *ctx, const cusci_array *lu, const cusci_array *piv, const cusci_array *b, cusci_linalg_trans trans, cusci_array **x)
{
  static const char fn[] = "cusci_linalg_lu_solve";
  TRY(cusci__la_check_square(ctx, fn, "lu", lu));
  TRY(cusci__la_check_input(ctx, fn, "piv", piv, 1));
  TRY(cusci__la_check_input(ctx, fn, "b", b, 1));
  if ((int)trans < 0 || trans > CUSCI_LINALG_TRANS_C)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "trans is %d, not a cusci_linalg_trans", (int)trans);
  if (cusci_array_dtype(piv) != CUSCI_INT32)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "piv has dtype %s, expected int32 (lu_factor's)", cusci_dtype_name(cusci_array_dtype(piv)));
  cusci_dtype da, db, dt;
  TRY(cusci__la_work_dtype(ctx, fn, "lu", cusci_array_dtype(lu), &da));
  TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
  TRY(cusci_promote_types(da, db, &dt));
  int nl = cusci_array_ndim(lu), np_ = cusci_array_ndim(piv);
  const int64_t *sl = cusci_array_shape(lu), *sp = cusci_array_shape(piv);
  int64_t n = sl[nl - 1];
  bool same = np_ == nl - 1 && sp[np_ - 1] == n;
  for (int i = 0; same && i < nl - 2; i++)
    same = sp[i] == sl[i];
  if (!same) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "lu has shape %s and piv %s: piv must be lu's shape without its last axis",
                          cusci_shape_str(nl, sl, b1, sizeof b1), cusci_shape_str(np_, sp, b2, sizeof b2));
  }
  cusci__la_rhs r;
  TRY(cusci__la_rhs_of(ctx, fn, "lu", lu, b, dt, x, &r));
  const int64_t k = r.k, batch = r.batch;
  const int nb = r.nb;
  const bool vec = r.vec;
  int64_t *shape = r.shape, *xshape = r.xshape;

  /* Working copies broadcast to the common batch: lu, piv and b. */
  cusci_array *vl = NULL, *vp = NULL, *pc = NULL, *vb = NULL, *wl = NULL, *wb = NULL, *dp = NULL, *bad = NULL, *res = NULL;
  shape[nb] = n;
  shape[nb + 1] = n;
  cusci_status st = cusci_array_broadcast_to(ctx, (cusci_array *)lu, nb + 2, shape, &vl);
  if (st == CUSCI_OK)
    st = cusci__la_work_copy(ctx, vl, dt, &wl);
  if (st == CUSCI_OK)
    st = cusci_array_broadcast_to(ctx, (cusci_array *)piv, nb + 1, shape, &vp);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, vp, &pc);
  int64_t np = batch * n;
  if (st == CUSCI_OK && cusci__la_on_host(ctx)) {
    int32_t *hp = cusci_array_data(pc);
    for (int64_t i = 0; st == CUSCI_OK && i < np; i++) {
      if (!cusci__lu_piv_ok(hp[i], n))
        st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "piv holds %d, outside 0..%lld", (int)hp[i], (long long)n - 1);
      else
        hp[i] = (int32_t)cusci__lu_piv_to_lapack(hp[i], i % n, n);
    }
  }
  if (st == CUSCI_OK)
    st = cusci__la_rhs_view(ctx, b, &r, &vb);
  if (st == CUSCI_OK)
    st = cusci__la_work_copy(ctx, vb, dt, &wb);
  cusci_array_release(vl);
  cusci_array_release(vp);
  cusci_array_release(vb);
  bool nonfinite = false;
  int info = 0;
  if (st == CUSCI_OK && batch > 0 && n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = cusci__la_host_nonfinite(wl) || cusci__la_host_nonfinite(wb);
      if (!nonfinite)
        info = cusci__ref_la_lu_solve(dt, (int)trans, batch, n, k, cusci_array_data(wl), cusci_array_data(pc), cusci_array_data(wb));
    } else {
      /* An out-of-range pivot is made harmless for getrs and noted in
       * bad, which is read once the solve is done. */
      int64_t nbad = CUSCI__LA_PIV_BAD_WORDS;
      st = cusci_array_empty(ctx, 1, &np, CUSCI_INT64, &dp);
      if (st == CUSCI_OK)
        st = cusci_array_empty(ctx, 1, &nbad, CUSCI_UINT64, &bad);
      if (st == CUSCI_OK)
        st = cusci_ctx_use_device(ctx, fn);
      if (st == CUSCI_OK) {
        int e = cusci__launch_la_piv_to_lapack(cusci_ctx_stream(ctx), np, n, cusci_array_data(pc), cusci_array_data(dp), cusci_array_data(bad));
        if (e != 0)
          st = cusci_ctx_gpu_status(ctx, fn, "the pivots' conversion", e);
      }
      if (st == CUSCI_OK)
        CUSCI__LA_GPU(st, ctx, fn, batch, CUSCI__LA_WORDS, NULL, &nonfinite, cusci__launch_la_lu_solve, dt, true, batch, n, k, (int)trans,
                      cusci_array_data(wl), cusci_array_data(dp), cusci_array_data(wb));
      uint64_t hb[CUSCI__LA_PIV_BAD_WORDS];
      if (st == CUSCI_OK)
        st = cusci_array_to_host(ctx, bad, hb, sizeof hb);
      if (st == CUSCI_OK && hb[0] != UINT64_MAX) {
        cusci__la_defer_drop(ctx);
        st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "piv holds %d, outside 0..%lld", (int)(int64_t)hb[1], (long long)n - 1);
      }
    }
  }
  cusci_array_release(pc);
  cusci_array_release(dp);
  cusci_array_release(bad);
  cusci_array_release(wl);
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, (cusci__la_fail){ 0, 0 }, CUSCI__LA_FAIL_SINGULAR, nb, shape);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, wb, nb + (vec ? 1 : 2), xshape, &res);
  cusci_array_release(wb);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, res, x);
}
