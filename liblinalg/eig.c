/*
 * liblinalg/eig.c: the API layer of liblinalg's nonsymmetric eigenproblems
 * (eig, eigvals), Schur and Hessenberg forms, rsf2csf, polar, ldl and
 * pinvh; eigh is in liblinalg/eigh.c.
 *
 * Where the GPU has a solver (Xgeev, Xsyevdx, sygvdx) the work runs there
 * (kernels/linalg/eig.cu). Where cuSOLVER has none (Schur, Hessenberg, the
 * generalized nonsymmetric problem, LDL^T's pivot bookkeeping), the input
 * is staged to the host, solved by reference/linalg/eig.c and the results
 * copied back to the context's device: the same code serves both kinds of
 * context, and the headers say which functions do this. The host backend
 * computes in double precision.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA */
#endif

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/kit/dtypes.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"
#include "kernels/linalg/launch.h"
#include "reference/linalg/eig.h"

/* --------------------------------------------------------------- eig */

static cusci_status eig_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_array *b, const cusci_linalg_eig_opts *opts,
                             cusci_array **w, cusci_array **vl, cusci_array **vr)
{
  cusci_linalg_eig_opts o = opts ? *opts : (cusci_linalg_eig_opts){ 0 };
  TRY(cusci__la_check_square(ctx, fn, "a", a));
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  if (b) {
    cusci_dtype db;
    TRY(cusci__la_check_square(ctx, fn, "b", b));
    TRY(cusci__la_check_same_shape(ctx, fn, "a", a, "b", b));
    TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
    TRY(cusci_promote_types(dt, db, &dt));
  }
  cusci_dtype cdt = cusci_dtype_complex_of(dt);
  int nd = cusci_array_ndim(a), nb = nd - 2;
  const int64_t *sh = cusci_array_shape(a);
  int64_t n = sh[nd - 1], batch = cusci__la_prod(nb, sh);
  TRY(cusci_check_out(ctx, fn, w, nd - 1, sh, cdt, CUSCI_CASTING_NO));
  if (vl)
    TRY(cusci_check_out(ctx, fn, vl, nd, sh, cdt, CUSCI_CASTING_NO));
  if (vr)
    TRY(cusci_check_out(ctx, fn, vr, nd, sh, cdt, CUSCI_CASTING_NO));
  cusci_array *res[3] = { NULL, NULL, NULL };
  cusci__la_fail f = { 0, 0 };
  bool nonfinite = false;
  int info = 0;
  cusci_status st = CUSCI_OK;
  if (cusci__la_on_host(ctx) || b) {
    TRY(cusci__la_check_lapack(ctx, fn, n, n, true));
    cusci_dtype wdt = cusci__la_wide_of(dt);
    void *ha = NULL, *hb = NULL;
    size_t ca = 0, cb = 0, nn = (size_t)(batch * n * n);
    st = cusci__la_host_copy(ctx, fn, a, wdt, &ha, &ca);
    if (st == CUSCI_OK && b)
      st = cusci__la_host_copy(ctx, fn, b, wdt, &hb, &cb);
    cusci_cdouble *hw = cusci__la_xmalloc((size_t)(batch * n), sizeof *hw), *hl = vl ? cusci__la_xmalloc(nn, sizeof *hl) : NULL, *hr = vr ? cusci__la_xmalloc(nn, sizeof *hr) : NULL;
    if (st == CUSCI_OK && (!hw || (vl && !hl) || (vr && !hr)))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK && !o.no_check_finite)
      nonfinite = cusci__la_nonfinite_d(ha, ca) || (hb && cusci__la_nonfinite_d(hb, cb));
    if (st == CUSCI_OK && !nonfinite && batch > 0 && n > 0)
      info = cusci__ref_la_eig(cusci_dtype_is_complex(dt), batch, n, ha, hb, hw, hl, hr, &f);
    st = cusci__la_backend_status(ctx, fn, st, info, nonfinite);
    if (st == CUSCI_OK)
      st = cusci__la_put(ctx, hw, nd - 1, sh, CUSCI_COMPLEX128, cdt, &res[0]);
    if (st == CUSCI_OK && vl)
      st = cusci__la_put(ctx, hl, nd, sh, CUSCI_COMPLEX128, cdt, &res[1]);
    if (st == CUSCI_OK && vr)
      st = cusci__la_put(ctx, hr, nd, sh, CUSCI_COMPLEX128, cdt, &res[2]);
    free(ha), free(hb), free(hw), free(hl), free(hr);
  } else {
    cusci_array *wa = NULL, *vecs = NULL;
    st = cusci_array_astype(ctx, (cusci_array *)a, dt, true, &wa);
    if (st == CUSCI_OK)
      st = cusci_array_empty(ctx, nd - 1, sh, cdt, &res[0]);
    if (st == CUSCI_OK && (vl || vr))
      st = cusci_array_empty(ctx, nd, sh, cdt, &vecs);
    if (st == CUSCI_OK && batch > 0 && n > 0)
      CUSCI__LA_GPU(st, ctx, fn, batch, CUSCI__LA_WORDS, &f, &nonfinite, cusci__launch_la_eig, dt, !o.no_check_finite, batch, n,
                    cusci_array_data(wa), cusci_array_data(res[0]), vecs ? cusci_array_data(vecs) : NULL);
    cusci_array_release(wa);
    st = cusci__la_backend_status(ctx, fn, st, 0, nonfinite);
    /* Left eigenvectors: the rows of inv(vr) are u_j^H, so vl = inv(vr)^H,
     * scaled as geev scales them. */
    if (st == CUSCI_OK && f.info == 0 && vl) {
      cusci_array *inv = NULL, *t = NULL;
      int axes[CUSCI_MAX_NDIM];
      for (int i = 0; i < nd; i++)
        axes[i] = i;
      axes[nd - 2] = nd - 1, axes[nd - 1] = nd - 2;
      st = cusci_linalg_inv(ctx, vecs, &inv);
      if (st == CUSCI_ERR_LINALG)
        st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn,
                            "the right eigenvectors are linearly dependent (a is defective or nearly so): no left eigenvectors on the GPU");
      if (st == CUSCI_OK)
        st = cusci_array_transpose(ctx, inv, axes, &t);
      cusci_array *c = NULL;
      if (st == CUSCI_OK)
        st = cusci_conj(ctx, t, &c);
      /* The kernel below needs C order, whatever order conj chose. */
      if (st == CUSCI_OK)
        st = cusci_array_ascontiguousarray(ctx, c, &res[1]);
      cusci_array_release(c);
      if (st == CUSCI_OK)
        CUSCI__LA_GPU(st, ctx, fn, batch, 0, NULL, NULL, cusci__launch_la_eig_normalize, cdt, batch, n, cusci_array_data(res[1]));
      cusci_array_release(inv);
      cusci_array_release(t);
    }
    if (vr)
      res[2] = vecs;
    else
      cusci_array_release(vecs);
  }
  if (st == CUSCI_OK && f.info > 0) {
    char wh[300];
    st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "%s did not converge (only eigenvalues with order >= %lld have converged)%s",
                        b ? "the generalized eigenvalue solver (ggev)" : "the eigenvalue solver (geev)", (long long)f.info,
                        cusci__la_where(nb, sh, f.batch, wh, sizeof wh));
  }
  cusci_array **outs[3] = { w, vl, vr };
  return cusci__la_give_all(ctx, fn, st, 3, res, outs);
}

cusci_status cusci_linalg_eig(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_eig_opts *opts,
                              cusci_array **w, cusci_array **vl, cusci_array **vr)
{
  return eig_impl(ctx, "cusci_linalg_eig", a, b, opts, w, vl, vr);
}

cusci_status cusci_linalg_eigvals(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_eig_opts *opts,
                                  cusci_array **w)
{
  return eig_impl(ctx, "cusci_linalg_eigvals", a, b, opts, w, NULL, NULL);
}


/* ------------------------------------------------ staged to the host */

/* scipy.linalg.schur (LAPACKE gees on the host, for either device). */
cusci_status cusci_linalg_schur(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_schur_opts *opts, cusci_array **t, cusci_array **z)
{
  static const char fn[] = "cusci_linalg_schur";
  cusci_linalg_schur_opts o = opts ? *opts : (cusci_linalg_schur_opts){ 0 };
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, true, &in));
  cusci_dtype dt = o.complex_output ? cusci_dtype_complex_of(in.dt) : in.dt;
  int nd = in.nd, nb = nd - 2;
  const int64_t *sh = in.sh;
  int64_t n = in.n, batch = in.batch;
  TRY(cusci_check_out(ctx, fn, t, nd, sh, dt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, z, nd, sh, dt, CUSCI_CASTING_NO));
  cusci_dtype wdt = cusci__la_wide_of(dt);
  void *ha = NULL, *hz = NULL;
  size_t ca = 0;
  cusci_status st = cusci__la_host_copy(ctx, fn, a, wdt, &ha, &ca);
  if (st == CUSCI_OK && !(hz = cusci__la_xmalloc((size_t)(batch * n * n), cusci_dtype_itemsize(wdt))))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  bool nonfinite = st == CUSCI_OK && !o.no_check_finite && cusci__la_nonfinite_d(ha, ca);
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && !nonfinite && batch > 0 && n > 0)
    info = cusci__ref_la_schur(cusci_dtype_is_complex(dt), batch, n, ha, hz, &f);
  st = cusci__la_backend_status(ctx, fn, st, info, nonfinite);
  if (st == CUSCI_OK && f.info > 0) {
    char wh[300];
    st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "Schur form not found: the QR algorithm failed (info %lld); possibly ill-conditioned%s",
                        (long long)f.info, cusci__la_where(nb, sh, f.batch, wh, sizeof wh));
  }
  cusci_array *res[2] = { NULL, NULL };
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, ha, nd, sh, wdt, dt, &res[0]);
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, hz, nd, sh, wdt, dt, &res[1]);
  free(ha), free(hz);
  cusci_array **outs[2] = { t, z };
  return cusci__la_give_all(ctx, fn, st, 2, res, outs);
}

/* scipy.linalg.rsf2csf (on the host, for either device). */
cusci_status cusci_linalg_rsf2csf(cusci_ctx *ctx, const cusci_array *t, const cusci_array *z, cusci_array **t2, cusci_array **z2)
{
  static const char fn[] = "cusci_linalg_rsf2csf";
  TRY(cusci__la_check_square(ctx, fn, "t", t));
  TRY(cusci__la_check_square(ctx, fn, "z", z));
  TRY(cusci__la_check_same_shape(ctx, fn, "t", t, "z", z));
  cusci_dtype dt, dz;
  TRY(cusci__la_work_dtype(ctx, fn, "t", cusci_array_dtype(t), &dt));
  TRY(cusci__la_work_dtype(ctx, fn, "z", cusci_array_dtype(z), &dz));
  TRY(cusci_promote_types(dt, dz, &dt));
  dt = cusci_dtype_complex_of(dt);
  int nd = cusci_array_ndim(t);
  const int64_t *sh = cusci_array_shape(t);
  int64_t n = sh[nd - 1], batch = cusci__la_prod(nd - 2, sh);
  TRY(cusci_check_out(ctx, fn, t2, nd, sh, dt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, z2, nd, sh, dt, CUSCI_CASTING_NO));
  void *ht = NULL, *hz = NULL;
  size_t ct = 0, cz = 0;
  cusci_status st = cusci__la_host_copy(ctx, fn, t, CUSCI_COMPLEX128, &ht, &ct);
  if (st == CUSCI_OK)
    st = cusci__la_host_copy(ctx, fn, z, CUSCI_COMPLEX128, &hz, &cz);
  bool nonfinite = st == CUSCI_OK && (cusci__la_nonfinite_d(ht, ct) || cusci__la_nonfinite_d(hz, cz));
  if (st == CUSCI_OK && !nonfinite)
    cusci__ref_la_rsf2csf(batch, n, ht, hz);
  st = cusci__la_backend_status(ctx, fn, st, 0, nonfinite);
  cusci_array *res[2] = { NULL, NULL };
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, ht, nd, sh, CUSCI_COMPLEX128, dt, &res[0]);
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, hz, nd, sh, CUSCI_COMPLEX128, dt, &res[1]);
  free(ht), free(hz);
  cusci_array **outs[2] = { t2, z2 };
  return cusci__la_give_all(ctx, fn, st, 2, res, outs);
}

/* scipy.linalg.hessenberg (LAPACKE gehrd on the host, for either device). */
cusci_status cusci_linalg_hessenberg(cusci_ctx *ctx, const cusci_array *a, cusci_array **h, cusci_array **q)
{
  static const char fn[] = "cusci_linalg_hessenberg";
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, true, &in));
  TRY(cusci_check_out(ctx, fn, h, in.nd, in.sh, in.dt, CUSCI_CASTING_NO));
  if (q)
    TRY(cusci_check_out(ctx, fn, q, in.nd, in.sh, in.dt, CUSCI_CASTING_NO));
  cusci_dtype wdt = cusci__la_wide_of(in.dt);
  void *ha = NULL, *hq = NULL;
  size_t ca = 0;
  cusci_status st = cusci__la_host_copy(ctx, fn, a, wdt, &ha, &ca);
  if (st == CUSCI_OK && q && !(hq = cusci__la_xmalloc((size_t)(in.batch * in.n * in.n), cusci_dtype_itemsize(wdt))))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  bool nonfinite = st == CUSCI_OK && cusci__la_nonfinite_d(ha, ca);
  int info = 0;
  if (st == CUSCI_OK && !nonfinite && in.batch > 0 && in.n > 0)
    info = cusci__ref_la_hessenberg(cusci_dtype_is_complex(in.dt), in.batch, in.n, ha, hq);
  st = cusci__la_backend_status(ctx, fn, st, info, nonfinite);
  cusci_array *res[2] = { NULL, NULL };
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, ha, in.nd, in.sh, wdt, in.dt, &res[0]);
  if (st == CUSCI_OK && q)
    st = cusci__la_put(ctx, hq, in.nd, in.sh, wdt, in.dt, &res[1]);
  free(ha), free(hq);
  cusci_array **outs[2] = { h, q };
  return cusci__la_give_all(ctx, fn, st, 2, res, outs);
}

/* scipy.linalg.ldl (LAPACKE sytrf / hetrf and SciPy's post-processing on
 * the host, for either device). */
cusci_status cusci_linalg_ldl(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_ldl_opts *opts, cusci_array **lu, cusci_array **d,
                              cusci_array **perm)
{
  static const char fn[] = "cusci_linalg_ldl";
  cusci_linalg_ldl_opts o = opts ? *opts : (cusci_linalg_ldl_opts){ 0 };
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, true, &in));
  cusci_dtype dt = in.dt;
  int nd = in.nd;
  const int64_t *sh = in.sh;
  int64_t n = in.n, batch = in.batch;
  TRY(cusci_check_out(ctx, fn, lu, nd, sh, dt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, d, nd, sh, dt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, perm, nd - 1, sh, CUSCI_INT64, CUSCI_CASTING_NO));
  cusci_dtype wdt = cusci__la_wide_of(dt);
  void *ha = NULL, *hd = NULL;
  int64_t *hp = NULL;
  size_t ca = 0;
  cusci_status st = cusci__la_host_copy(ctx, fn, a, wdt, &ha, &ca);
  hd = cusci__la_xmalloc((size_t)(batch * n * n), cusci_dtype_itemsize(wdt));
  hp = cusci__la_xmalloc((size_t)(batch * n), sizeof *hp);
  if (st == CUSCI_OK && (!hd || !hp))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  bool nonfinite = st == CUSCI_OK && !o.no_check_finite && cusci__la_nonfinite_d(ha, ca);
  int info = 0;
  if (st == CUSCI_OK && !nonfinite && batch > 0 && n > 0)
    info = cusci__ref_la_ldl(cusci_dtype_is_complex(dt), !o.upper, !o.not_hermitian, batch, n, ha, hd, hp);
  if (st == CUSCI_OK && !nonfinite && info == 1)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "LAPACK's pivot array could not be parsed");
  else
    st = cusci__la_backend_status(ctx, fn, st, info, nonfinite);
  cusci_array *res[3] = { NULL, NULL, NULL };
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, ha, nd, sh, wdt, dt, &res[0]);
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, hd, nd, sh, wdt, dt, &res[1]);
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, hp, nd - 1, sh, CUSCI_INT64, CUSCI_INT64, &res[2]);
  free(ha), free(hd), free(hp);
  cusci_array **outs[3] = { lu, d, perm };
  return cusci__la_give_all(ctx, fn, st, 3, res, outs);
}

/* ------------------------------------------------- compositions */

/* The view of x with its last two axes swapped, conjugated (a copy). */
static cusci_status conj_t(cusci_ctx *ctx, cusci_array *x, cusci_array **out)
{
  int nd = cusci_array_ndim(x), axes[CUSCI_MAX_NDIM];
  for (int i = 0; i < nd; i++)
    axes[i] = i;
  axes[nd - 2] = nd - 1, axes[nd - 1] = nd - 2;
  cusci_array *t = NULL;
  *out = NULL;
  TRY(cusci_array_transpose(ctx, x, axes, &t));
  cusci_status st = cusci_conj(ctx, t, out);
  cusci_array_release(t);
  return st;
}

/* x (..., r, k) times s (..., k) on its columns: x * s[..., None, :]. */
static cusci_status scale_columns(cusci_ctx *ctx, cusci_array *x, cusci_array *s, cusci_array **out)
{
  cusci_array *e = NULL;
  *out = NULL;
  TRY(cusci_array_expand_dims(ctx, s, cusci_array_ndim(s) - 1, &e));
  cusci_status st = cusci_multiply(ctx, x, e, out);
  cusci_array_release(e);
  return st;
}

/*
 * scipy.linalg.polar: from the economic SVD a = W S V^H, u = W V^H and
 * p = V S V^H (right) or W S W^H (left).
 */
cusci_status cusci_linalg_polar(cusci_ctx *ctx, const cusci_array *a, cusci_linalg_polar_side side, cusci_array **u, cusci_array **p)
{
  static const char fn[] = "cusci_linalg_polar";
  TRY(cusci__la_check_input(ctx, fn, "a", a, 2));
  if ((int)side < 0 || side > CUSCI_LINALG_POLAR_LEFT)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "side is %d, not a cusci_linalg_polar_side", (int)side);
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  int nd = cusci_array_ndim(a);
  const int64_t *sh = cusci_array_shape(a);
  int64_t pshape[CUSCI_MAX_NDIM];
  memcpy(pshape, sh, sizeof *pshape * (size_t)nd);
  int64_t k = side == CUSCI_LINALG_POLAR_RIGHT ? sh[nd - 1] : sh[nd - 2];
  pshape[nd - 2] = pshape[nd - 1] = k;
  TRY(cusci_check_out(ctx, fn, u, nd, sh, dt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, p, nd, pshape, dt, CUSCI_CASTING_NO));
  cusci_array *w = NULL, *s = NULL, *vh = NULL, *left = NULL, *right = NULL, *sc = NULL;
  cusci_array *res[2] = { NULL, NULL };
  cusci_status st = cusci_linalg_svd(ctx, a, false, true, &w, &s, &vh);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(ctx, w, vh, &res[0]);
  if (st == CUSCI_OK && side == CUSCI_LINALG_POLAR_RIGHT) {
    st = conj_t(ctx, vh, &left); /* V */
    if (st == CUSCI_OK)
      st = scale_columns(ctx, left, s, &sc);
    if (st == CUSCI_OK)
      st = cusci_linalg_matmul(ctx, sc, vh, &res[1]);
  } else if (st == CUSCI_OK) {
    st = conj_t(ctx, w, &right); /* W^H */
    if (st == CUSCI_OK)
      st = scale_columns(ctx, w, s, &sc);
    if (st == CUSCI_OK)
      st = cusci_linalg_matmul(ctx, sc, right, &res[1]);
  }
  cusci_array_release(w), cusci_array_release(s), cusci_array_release(vh);
  cusci_array_release(left), cusci_array_release(right), cusci_array_release(sc);
  cusci_array **outs[2] = { u, p };
  return cusci__la_give_all(ctx, fn, st, 2, res, outs);
}

/*
 * scipy.linalg.pinvh: w, v = eigh(a); the cut |w| > atol + rtol max|w| and
 * the factors 1/w are made on the host (n values a matrix), then
 * (v * f) v^H on the device.
 */
cusci_status cusci_linalg_pinvh(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_pinvh_opts *opts, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_pinvh";
  cusci_linalg_pinvh_opts o = opts ? *opts : (cusci_linalg_pinvh_opts){ 0 };
  TRY(cusci__la_check_square(ctx, fn, "a", a));
  if (!(o.atol >= 0) || !(o.rtol >= 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "atol and rtol must be non-negative numbers");
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  int nd = cusci_array_ndim(a);
  const int64_t *sh = cusci_array_shape(a);
  int64_t n = sh[nd - 1], batch = cusci__la_prod(nd - 2, sh);
  TRY(cusci_check_out(ctx, fn, out, nd, sh, dt, CUSCI_CASTING_NO));
  cusci_array *w = NULL, *v = NULL, *w64 = NULL, *f = NULL, *vf = NULL, *vh = NULL, *r = NULL;
  cusci_linalg_eigh_opts eo = { .upper = o.upper, .no_check_finite = o.no_check_finite };
  cusci_status st = cusci_linalg_eigh(ctx, a, &eo, &w, &v);
  double *hw = cusci__la_xmalloc((size_t)(batch * n), sizeof *hw);
  if (st == CUSCI_OK && !hw)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, w, CUSCI_FLOAT64, true, &w64);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, w64, hw, sizeof *hw * (size_t)(batch * n));
  double eps = cusci_dtype_is_single(dt) ? 1.1920928955078125e-07 : 2.220446049250313e-16;
  double rtol = o.rtol > 0 ? o.rtol : (double)n * eps;
  for (int64_t b = 0; st == CUSCI_OK && b < batch; b++) {
    double mx = 0;
    for (int64_t j = 0; j < n; j++)
      mx = fabs(hw[b * n + j]) > mx ? fabs(hw[b * n + j]) : mx;
    double cut = o.atol + rtol * mx;
    for (int64_t j = 0; j < n; j++)
      hw[b * n + j] = fabs(hw[b * n + j]) > cut ? 1.0 / hw[b * n + j] : 0.0;
  }
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, hw, nd - 1, sh, CUSCI_FLOAT64, cusci_dtype_real_of(dt), &f);
  free(hw);
  if (st == CUSCI_OK)
    st = scale_columns(ctx, v, f, &vf);
  if (st == CUSCI_OK)
    st = conj_t(ctx, v, &vh);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(ctx, vf, vh, &r);
  cusci_array_release(w), cusci_array_release(v), cusci_array_release(w64);
  cusci_array_release(f), cusci_array_release(vf), cusci_array_release(vh);
  return cusci__la_give_all(ctx, fn, st, 1, &r, &out);
}

