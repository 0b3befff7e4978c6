/*
 * liblinalg/svd.c: scipy.linalg.svd and svdvals.
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

/* batch identities of n x n in dtype dt (svd's u and vh of an empty matrix
 * with full_matrices). */
static cusci_status batch_eye(cusci_ctx *ctx, int nb, const int64_t *bshape, int64_t n, cusci_dtype dt, cusci_array **out)
{
  cusci_array *e = NULL, *v = NULL;
  int64_t shape[CUSCI_MAX_NDIM];
  memcpy(shape, bshape, sizeof *shape * (size_t)nb);
  shape[nb] = n;
  shape[nb + 1] = n;
  TRY(cusci_array_eye(ctx, n, n, 0, dt, &e));
  cusci_status st = cusci_array_broadcast_to(ctx, e, nb + 2, shape, &v);
  if (st == CUSCI_OK) {
    *out = NULL;
    st = cusci_array_copy(ctx, v, out);
  }
  cusci_array_release(v);
  cusci_array_release(e);
  return st;
}

/* scipy.linalg.svd. */
cusci_status cusci__la_svd_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, bool full_matrices, bool compute_uv, cusci_array **u,
                             cusci_array **s, cusci_array **vh)
{
  TRY(cusci__la_check_input(ctx, fn, "a", a, 2));
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  cusci_dtype rt = cusci_dtype_real_of(dt);
  int nd = cusci_array_ndim(a), nb = nd - 2;
  const int64_t *sh = cusci_array_shape(a);
  int64_t m = sh[nd - 2], n = sh[nd - 1], K = m < n ? m : n, batch = cusci__la_prod(nb, sh);
  TRY(cusci__la_check_lapack(ctx, fn, m, n, false));
  if (cusci_dtype_is_single(dt) && !(compute_uv && full_matrices)) /* through a Gram matrix: cuBLAS */
    TRY(cusci__la_check_int(ctx, fn, "cuBLAS", m, n));
  int64_t ushape[CUSCI_MAX_NDIM], sshape[CUSCI_MAX_NDIM], vshape[CUSCI_MAX_NDIM];
  memcpy(ushape, sh, sizeof *sh * (size_t)nb);
  memcpy(sshape, sh, sizeof *sh * (size_t)nb);
  memcpy(vshape, sh, sizeof *sh * (size_t)nb);
  sshape[nb] = K;
  ushape[nb] = m;
  ushape[nb + 1] = full_matrices ? m : K;
  vshape[nb] = full_matrices ? n : K;
  vshape[nb + 1] = n;
  TRY(cusci_check_out(ctx, fn, s, nb + 1, sshape, rt, CUSCI_CASTING_NO));
  if (compute_uv) {
    TRY(cusci_check_out(ctx, fn, u, nb + 2, ushape, dt, CUSCI_CASTING_NO));
    TRY(cusci_check_out(ctx, fn, vh, nb + 2, vshape, dt, CUSCI_CASTING_NO));
  }
  cusci_array *w = NULL, *ru = NULL, *rs = NULL, *rv = NULL;
  cusci_status st = cusci__la_work_copy(ctx, a, dt, &w);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nb + 1, sshape, rt, &rs);
  if (st == CUSCI_OK && compute_uv) {
    if (K == 0 && full_matrices) {
      st = batch_eye(ctx, nb, sh, m, dt, &ru);
      if (st == CUSCI_OK)
        st = batch_eye(ctx, nb, sh, n, dt, &rv);
    } else {
      st = cusci_array_empty(ctx, nb + 2, ushape, dt, &ru);
      if (st == CUSCI_OK)
        st = cusci_array_empty(ctx, nb + 2, vshape, dt, &rv);
    }
  }
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && batch > 0 && K > 0) {
    void *pu = compute_uv ? cusci_array_data(ru) : NULL, *pv = compute_uv ? cusci_array_data(rv) : NULL;
    if (cusci__la_on_host(ctx)) {
      nonfinite = cusci__la_host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_svd(dt, batch, m, n, full_matrices, compute_uv, cusci_array_data(w), pu, cusci_array_data(rs), pv, &f);
    } else {
      CUSCI__LA_GPU(st, ctx, fn, batch, CUSCI__LA_WORDS, &f, &nonfinite, cusci__launch_la_svd, dt, true, batch, m, n, full_matrices, compute_uv,
                    cusci_array_data(w), pu, cusci_array_data(rs), pv);
    }
  }
  cusci_array_release(w);
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, f, CUSCI__LA_FAIL_SVD, nb, sh);
  /* Hand the results over only when all three can be: a caller's arrays
   * are checked above, so cusci_give_out() can fail only by a copy's own error. */
  return cusci__la_give_all(ctx, fn, st, 3, (cusci_array *[]){ ru, rv, rs },
                            (cusci_array **[]){ compute_uv ? u : NULL, compute_uv ? vh : NULL, s });
}

cusci_status cusci_linalg_svd(cusci_ctx *ctx, const cusci_array *a, bool full_matrices, bool compute_uv, cusci_array **u, cusci_array **s, cusci_array **vh)
{
  return cusci__la_svd_impl(ctx, "cusci_linalg_svd", a, full_matrices, compute_uv, u, s, vh);
}

cusci_status cusci_linalg_svdvals(cusci_ctx *ctx, const cusci_array *a, cusci_array **s)
{
  return cusci__la_svd_impl(ctx, "cusci_linalg_svdvals", a, false, false, NULL, s, NULL);
}
