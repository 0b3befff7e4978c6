/*
 * liblinalg/eig.c: the API layer of liblinalg's eigenproblems (eig,
 * eigvals, eigh with a subset or b, eigh_tridiagonal), Schur and
 * Hessenberg forms, rsf2csf, polar, ldl and pinvh.
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
#include "reference/linalg/eig.h"
#ifdef CUSCI_HAVE_CUDA
#include "kernels/linalg/eig_launch.h"
#endif

/* The host backend's dtype for work in dt. */
static cusci_dtype wide_of(cusci_dtype dt) { return cusci_dtype_is_complex(dt) ? CUSCI_COMPLEX128 : CUSCI_FLOAT64; }

/* b has a's shape. */
static cusci_status check_same_shape(cusci_ctx *ctx, const char *fn, const char *na, const cusci_array *a, const char *nb, const cusci_array *b)
{
  int nd = cusci_array_ndim(a);
  bool same = cusci_array_ndim(b) == nd;
  for (int i = 0; same && i < nd; i++)
    same = cusci_array_shape(a)[i] == cusci_array_shape(b)[i];
  if (!same) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "%s has shape %s and %s %s: expected the same shape", na,
                          cusci_shape_str(nd, cusci_array_shape(a), b1, sizeof b1), nb,
                          cusci_shape_str(cusci_array_ndim(b), cusci_array_shape(b), b2, sizeof b2));
  }
  return CUSCI_OK;
}

/* " (batch index [i, j])" for flat index i of the batch shape, or "". */
static const char *where_str(int nb, const int64_t *bshape, int64_t i, char *buf, size_t len)
{
  if (nb <= 0) {
    buf[0] = 0;
    return buf;
  }
  int64_t idx[CUSCI_MAX_NDIM];
  for (int d = nb - 1; d >= 0; d--) {
    idx[d] = bshape[d] ? i % bshape[d] : 0;
    i = bshape[d] ? i / bshape[d] : 0;
  }
  size_t o = (size_t)snprintf(buf, len, " (batch index [");
  for (int d = 0; d < nb && o < len; d++)
    o += (size_t)snprintf(buf + o, len - o, d ? ", %lld" : "%lld", (long long)idx[d]);
  if (o < len)
    snprintf(buf + o, len - o, "])");
  return buf;
}

/* The status of a backend call, in SciPy's order: inf/NaN first, then
 * LAPACKE's own errors; numerical failures are the caller's to word. */
static cusci_status backend_status(cusci_ctx *ctx, const char *fn, cusci_status st, int info, bool nonfinite)
{
  if (st != CUSCI_OK)
    return st;
  if (nonfinite)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "array must not contain infs or NaNs");
  if (info == -1010 || info == -1011)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "LAPACKE could not allocate its workspace");
  if (info != 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "LAPACKE rejected argument %d", -info);
  return CUSCI_OK;
}

static bool nonfinite_d(const double *x, size_t count)
{
  for (size_t i = 0; i < count; i++)
    if (!isfinite(x[i]))
      return true;
  return false;
}

/* malloc that counts a zero size as one element. */
static void *xmalloc(size_t n, size_t size) { return malloc((n ? n : 1) * size); }

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
    TRY(check_same_shape(ctx, fn, "a", a, "b", b));
    TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
    TRY(cusci_promote_types(dt, db, &dt));
  }
  cusci_dtype cdt = cusci_dtype_complex_of(dt);
  int nd = cusci_array_ndim(a), nb = nd - 2;
  const int64_t *sh = cusci_array_shape(a);
  int64_t n = sh[nd - 1], batch = cusci__la_prod(nb, sh);
  TRY(cusci__la_check_out(ctx, fn, w, nd - 1, sh, cdt));
  if (vl)
    TRY(cusci__la_check_out(ctx, fn, vl, nd, sh, cdt));
  if (vr)
    TRY(cusci__la_check_out(ctx, fn, vr, nd, sh, cdt));
  cusci_array *res[3] = { NULL, NULL, NULL };
  cusci__la_fail f = { 0, 0 };
  bool nonfinite = false;
  int info = 0;
  cusci_status st = CUSCI_OK;
  if (cusci__la_on_host(ctx) || b) {
    TRY(cusci__la_check_lapack(ctx, fn, n, n, true));
    cusci_dtype wdt = wide_of(dt);
    void *ha = NULL, *hb = NULL;
    size_t ca = 0, cb = 0, nn = (size_t)(batch * n * n);
    st = cusci__la_host_copy(ctx, fn, a, wdt, &ha, &ca);
    if (st == CUSCI_OK && b)
      st = cusci__la_host_copy(ctx, fn, b, wdt, &hb, &cb);
    cusci_cdouble *hw = xmalloc((size_t)(batch * n), sizeof *hw), *hl = vl ? xmalloc(nn, sizeof *hl) : NULL, *hr = vr ? xmalloc(nn, sizeof *hr) : NULL;
    if (st == CUSCI_OK && (!hw || (vl && !hl) || (vr && !hr)))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK && !o.no_check_finite)
      nonfinite = nonfinite_d(ha, ca) || (hb && nonfinite_d(hb, cb));
    if (st == CUSCI_OK && !nonfinite && batch > 0 && n > 0)
      info = cusci__ref_la_eig(cusci_dtype_is_complex(dt), batch, n, ha, hb, hw, hl, hr, &f);
    st = backend_status(ctx, fn, st, info, nonfinite);
    if (st == CUSCI_OK)
      st = cusci__la_put(ctx, hw, nd - 1, sh, CUSCI_COMPLEX128, cdt, &res[0]);
    if (st == CUSCI_OK && vl)
      st = cusci__la_put(ctx, hl, nd, sh, CUSCI_COMPLEX128, cdt, &res[1]);
    if (st == CUSCI_OK && vr)
      st = cusci__la_put(ctx, hr, nd, sh, CUSCI_COMPLEX128, cdt, &res[2]);
    free(ha), free(hb), free(hw), free(hl), free(hr);
  } else {
#ifdef CUSCI_HAVE_CUDA
    cusci_array *wa = NULL, *vecs = NULL;
    st = cusci_array_astype(ctx, (cusci_array *)a, dt, true, &wa);
    if (st == CUSCI_OK)
      st = cusci_array_empty(ctx, nd - 1, sh, cdt, &res[0]);
    if (st == CUSCI_OK && (vl || vr))
      st = cusci_array_empty(ctx, nd, sh, cdt, &vecs);
    if (st == CUSCI_OK && batch > 0 && n > 0)
      st = cusci__gpu_la_eig(ctx, fn, dt, !o.no_check_finite, batch, n, cusci_array_data(wa), cusci_array_data(res[0]),
                             vecs ? cusci_array_data(vecs) : NULL, &f, &nonfinite);
    cusci_array_release(wa);
    st = backend_status(ctx, fn, st, 0, nonfinite);
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
        st = cusci__gpu_la_eig_normalize(ctx, fn, cdt, batch, n, cusci_array_data(res[1]));
      cusci_array_release(inv);
      cusci_array_release(t);
    }
    if (vr)
      res[2] = vecs;
    else
      cusci_array_release(vecs);
#else
    st = cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "this build has no CUDA backend");
#endif
  }
  if (st == CUSCI_OK && f.info > 0) {
    char wh[300];
    st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "%s did not converge (only eigenvalues with order >= %lld have converged)%s",
                        b ? "the generalized eigenvalue solver (ggev)" : "the eigenvalue solver (geev)", (long long)f.info,
                        where_str(nb, sh, f.batch, wh, sizeof wh));
  }
  cusci_array **outs[3] = { w, vl, vr };
  return cusci__la_give_all(ctx, st, 3, res, outs);
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

/* -------------------------------------------------- eigh: subsets, b */

/* The first M entries of the last axis of w (..., n) and the first M
 * columns of v (..., n, n), as new C-contiguous arrays. */
static cusci_status take_first(cusci_ctx *ctx, cusci_array *x, int64_t M, cusci_array **out)
{
  int nd = cusci_array_ndim(x);
  int64_t start[CUSCI_MAX_NDIM], stop[CUSCI_MAX_NDIM];
  for (int i = 0; i < nd; i++)
    start[i] = CUSCI_SLICE_NONE, stop[i] = CUSCI_SLICE_NONE;
  start[nd - 1] = 0;
  stop[nd - 1] = M;
  cusci_array *s = NULL;
  *out = NULL;
  TRY(cusci_array_slice(ctx, x, start, stop, NULL, &s));
  cusci_status st = cusci_array_copy(ctx, s, out);
  cusci_array_release(s);
  return st;
}

/* Check a range (eigh's subset or eigh_tridiagonal's select) against n. */
static cusci_status check_range(cusci_ctx *ctx, const char *fn, const char *what, cusci__la_range r, int64_t n)
{
  if (r.kind < 0 || r.kind > 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "%s is %d, not a cusci_linalg_eigh_subset", what, r.kind);
  if (r.kind == 1 && !(r.lo >= 0 && r.lo <= r.hi && r.hi < n))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the index range [%lld, %lld] is not within [0, %lld]", (long long)r.lo,
                          (long long)r.hi, (long long)n - 1);
  if (r.kind == 2 && !(r.vlo < r.vhi))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the value range (%g, %g] is empty or not a pair of numbers", r.vlo, r.vhi);
  if (r.kind == 2 && !(isfinite(r.vlo) || isfinite(r.vhi)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the value range (%g, %g] has no finite bound", r.vlo, r.vhi);
  return CUSCI_OK;
}

/* The number of eigenvalues found: the same for every matrix (by value it
 * may differ, which a stacked result cannot hold). */
static cusci_status count_found(cusci_ctx *ctx, const char *fn, cusci__la_range r, int64_t n, int64_t batch, const int64_t *m, int64_t *M)
{
  *M = r.kind == 0 ? n : r.kind == 1 ? r.hi - r.lo + 1 : batch > 0 ? m[0] : 0;
  for (int64_t i = 0; i < batch; i++)
    if (m[i] != *M)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "matrix %lld of the batch has %lld eigenvalues in the range and matrix 0 has %lld: they do not stack",
                            (long long)i, (long long)m[i], (long long)*M);
  return CUSCI_OK;
}

/* Results of size n cut to the M found and handed out. */
static cusci_status give_subset(cusci_ctx *ctx, const char *fn, cusci_status st, int64_t M, int nd, const int64_t *sh, cusci_dtype rt,
                                cusci_dtype dt, cusci_array *fw, cusci_array *fv, cusci_array **w, cusci_array **v)
{
  cusci_array *res[2] = { NULL, NULL };
  int64_t shape[CUSCI_MAX_NDIM], wshape[CUSCI_MAX_NDIM];
  memcpy(shape, sh, sizeof *shape * (size_t)nd);
  memcpy(wshape, sh, sizeof *shape * (size_t)nd);
  shape[nd - 1] = M;
  wshape[nd - 2] = M;
  if (st == CUSCI_OK && M == sh[nd - 1]) {
    res[0] = cusci_array_retain(fw);
    res[1] = fv ? cusci_array_retain(fv) : NULL;
  } else if (st == CUSCI_OK) {
    st = take_first(ctx, fw, M, &res[0]);
    if (st == CUSCI_OK && fv)
      st = take_first(ctx, fv, M, &res[1]);
  }
  cusci_array_release(fw);
  cusci_array_release(fv);
  if (st == CUSCI_OK)
    st = cusci__la_check_out(ctx, fn, w, nd - 1, wshape, rt);
  if (st == CUSCI_OK && v)
    st = cusci__la_check_out(ctx, fn, v, nd, shape, dt);
  cusci_array **outs[2] = { w, v };
  return cusci__la_give_all(ctx, st, 2, res, outs);
}

/*
 * scipy.linalg.eigh with subset_by_index / subset_by_value and/or b, for
 * cusci_linalg_eigh (liblinalg/linalg.c hands such calls here).
 */
cusci_status cusci__la_eigh_ex(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_linalg_eigh_opts *o, cusci_array **w,
                               cusci_array **v)
{
  TRY(cusci__la_check_square(ctx, fn, "a", a));
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  const cusci_array *b = o->b;
  if (b) {
    cusci_dtype db;
    TRY(cusci__la_check_square(ctx, fn, "b", b));
    TRY(check_same_shape(ctx, fn, "a", a, "b", b));
    TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
    TRY(cusci_promote_types(dt, db, &dt));
  }
  if (o->type < 0 || o->type > 3)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "type is %d, expected 1, 2 or 3", o->type);
  int nd = cusci_array_ndim(a), nb = nd - 2;
  const int64_t *sh = cusci_array_shape(a);
  int64_t n = sh[nd - 1], batch = cusci__la_prod(nb, sh);
  cusci__la_range r = { (int)o->subset, o->lo, o->hi, o->vlo, o->vhi };
  TRY(check_range(ctx, fn, "subset", r, n));
  if (!w)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "an output pointer is NULL");
  cusci_dtype rt = cusci_dtype_real_of(dt);
  int type = o->type ? o->type : 1;
  int64_t *m = xmalloc((size_t)batch, sizeof *m);
  if (!m)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  for (int64_t i = 0; i < batch; i++)
    m[i] = 0;
  cusci_array *fw = NULL, *fv = NULL;
  cusci__la_fail f = { 0, 0 };
  bool nonfinite = false;
  int info = 0;
  cusci_status st = CUSCI_OK;
  if (cusci__la_on_host(ctx)) {
    st = cusci__la_check_lapack(ctx, fn, n, n, true);
    cusci_dtype wdt = wide_of(dt);
    void *ha = NULL, *hb = NULL, *hv = NULL;
    size_t ca = 0, cb = 0;
    if (st == CUSCI_OK)
      st = cusci__la_host_copy(ctx, fn, a, wdt, &ha, &ca);
    if (st == CUSCI_OK && b)
      st = cusci__la_host_copy(ctx, fn, b, wdt, &hb, &cb);
    double *hw = xmalloc((size_t)(batch * n), sizeof *hw);
    if (v)
      hv = xmalloc((size_t)(batch * n * n), cusci_dtype_itemsize(wdt));
    if (st == CUSCI_OK && (!hw || (v && !hv)))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK && !o->no_check_finite)
      nonfinite = nonfinite_d(ha, ca) || (hb && nonfinite_d(hb, cb));
    if (st == CUSCI_OK && !nonfinite && batch > 0 && n > 0)
      info = cusci__ref_la_eigh_ex(cusci_dtype_is_complex(dt), batch, n, o->upper, r, type, ha, hb, hw, hv, m, &f);
    st = backend_status(ctx, fn, st, info, nonfinite);
    if (st == CUSCI_OK && batch > 0 && n > 0 && f.info == 0 && hv)
      /* Columns past m[i] are not written: zero them for a tidy copy. */
      for (int64_t i = 0; i < batch; i++)
        for (int64_t row = 0; row < n; row++)
          memset((char *)hv + (size_t)((i * n + row) * n + m[i]) * cusci_dtype_itemsize(wdt), 0,
                 (size_t)(n - m[i]) * cusci_dtype_itemsize(wdt));
    if (st == CUSCI_OK && f.info == 0) {
      for (int64_t i = 0; i < batch; i++)
        for (int64_t j = m[i]; j < n; j++)
          hw[i * n + j] = 0;
      st = cusci__la_put(ctx, hw, nd - 1, sh, CUSCI_FLOAT64, rt, &fw);
      if (st == CUSCI_OK && v)
        st = cusci__la_put(ctx, hv, nd, sh, wdt, dt, &fv);
    }
    free(ha), free(hb), free(hw), free(hv);
  } else {
#ifdef CUSCI_HAVE_CUDA
    cusci_array *wa = NULL, *wb = NULL;
    st = cusci_array_astype(ctx, (cusci_array *)a, dt, true, &wa);
    if (st == CUSCI_OK && b)
      st = cusci_array_astype(ctx, (cusci_array *)b, dt, true, &wb);
    if (st == CUSCI_OK)
      st = cusci_array_zeros(ctx, nd - 1, sh, rt, &fw);
    if (st == CUSCI_OK && v)
      st = cusci_array_empty(ctx, nd, sh, dt, &fv);
    if (st == CUSCI_OK && batch > 0 && n > 0)
      st = cusci__gpu_la_eigh_ex(ctx, fn, dt, !o->no_check_finite, batch, n, o->upper, r, type, cusci_array_data(wa),
                                 wb ? cusci_array_data(wb) : NULL, cusci_array_data(fw), fv ? cusci_array_data(fv) : NULL, m, &f, &nonfinite);
    cusci_array_release(wa);
    cusci_array_release(wb);
    st = backend_status(ctx, fn, st, 0, nonfinite);
#else
    st = cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "this build has no CUDA backend");
#endif
  }
  if (st == CUSCI_OK && f.info > 0) {
    char wh[300];
    where_str(nb, sh, f.batch, wh, sizeof wh);
    if (b && f.info > n)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "the leading minor of order %lld of b is not positive definite%s", (long long)(f.info - n), wh);
    else
      st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "the eigenvalue solver did not converge (info %lld)%s", (long long)f.info, wh);
  }
  int64_t M = 0;
  if (st == CUSCI_OK)
    st = count_found(ctx, fn, r, n, batch, m, &M);
  free(m);
  return give_subset(ctx, fn, st, M, nd, sh, rt, dt, fw, fv, w, v);
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
  TRY(cusci__la_check_out(ctx, fn, t, nd, sh, dt));
  TRY(cusci__la_check_out(ctx, fn, z, nd, sh, dt));
  cusci_dtype wdt = wide_of(dt);
  void *ha = NULL, *hz = NULL;
  size_t ca = 0;
  cusci_status st = cusci__la_host_copy(ctx, fn, a, wdt, &ha, &ca);
  if (st == CUSCI_OK && !(hz = xmalloc((size_t)(batch * n * n), cusci_dtype_itemsize(wdt))))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  bool nonfinite = st == CUSCI_OK && !o.no_check_finite && nonfinite_d(ha, ca);
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && !nonfinite && batch > 0 && n > 0)
    info = cusci__ref_la_schur(cusci_dtype_is_complex(dt), batch, n, ha, hz, &f);
  st = backend_status(ctx, fn, st, info, nonfinite);
  if (st == CUSCI_OK && f.info > 0) {
    char wh[300];
    st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "Schur form not found: the QR algorithm failed (info %lld); possibly ill-conditioned%s",
                        (long long)f.info, where_str(nb, sh, f.batch, wh, sizeof wh));
  }
  cusci_array *res[2] = { NULL, NULL };
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, ha, nd, sh, wdt, dt, &res[0]);
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, hz, nd, sh, wdt, dt, &res[1]);
  free(ha), free(hz);
  cusci_array **outs[2] = { t, z };
  return cusci__la_give_all(ctx, st, 2, res, outs);
}

/* scipy.linalg.rsf2csf (on the host, for either device). */
cusci_status cusci_linalg_rsf2csf(cusci_ctx *ctx, const cusci_array *t, const cusci_array *z, cusci_array **t2, cusci_array **z2)
{
  static const char fn[] = "cusci_linalg_rsf2csf";
  TRY(cusci__la_check_square(ctx, fn, "t", t));
  TRY(cusci__la_check_square(ctx, fn, "z", z));
  TRY(check_same_shape(ctx, fn, "t", t, "z", z));
  cusci_dtype dt, dz;
  TRY(cusci__la_work_dtype(ctx, fn, "t", cusci_array_dtype(t), &dt));
  TRY(cusci__la_work_dtype(ctx, fn, "z", cusci_array_dtype(z), &dz));
  TRY(cusci_promote_types(dt, dz, &dt));
  dt = cusci_dtype_complex_of(dt);
  int nd = cusci_array_ndim(t);
  const int64_t *sh = cusci_array_shape(t);
  int64_t n = sh[nd - 1], batch = cusci__la_prod(nd - 2, sh);
  TRY(cusci__la_check_out(ctx, fn, t2, nd, sh, dt));
  TRY(cusci__la_check_out(ctx, fn, z2, nd, sh, dt));
  void *ht = NULL, *hz = NULL;
  size_t ct = 0, cz = 0;
  cusci_status st = cusci__la_host_copy(ctx, fn, t, CUSCI_COMPLEX128, &ht, &ct);
  if (st == CUSCI_OK)
    st = cusci__la_host_copy(ctx, fn, z, CUSCI_COMPLEX128, &hz, &cz);
  bool nonfinite = st == CUSCI_OK && (nonfinite_d(ht, ct) || nonfinite_d(hz, cz));
  if (st == CUSCI_OK && !nonfinite)
    cusci__ref_la_rsf2csf(batch, n, ht, hz);
  st = backend_status(ctx, fn, st, 0, nonfinite);
  cusci_array *res[2] = { NULL, NULL };
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, ht, nd, sh, CUSCI_COMPLEX128, dt, &res[0]);
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, hz, nd, sh, CUSCI_COMPLEX128, dt, &res[1]);
  free(ht), free(hz);
  cusci_array **outs[2] = { t2, z2 };
  return cusci__la_give_all(ctx, st, 2, res, outs);
}

/* scipy.linalg.hessenberg (LAPACKE gehrd on the host, for either device). */
cusci_status cusci_linalg_hessenberg(cusci_ctx *ctx, const cusci_array *a, cusci_array **h, cusci_array **q)
{
  static const char fn[] = "cusci_linalg_hessenberg";
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, true, &in));
  TRY(cusci__la_check_out(ctx, fn, h, in.nd, in.sh, in.dt));
  if (q)
    TRY(cusci__la_check_out(ctx, fn, q, in.nd, in.sh, in.dt));
  cusci_dtype wdt = wide_of(in.dt);
  void *ha = NULL, *hq = NULL;
  size_t ca = 0;
  cusci_status st = cusci__la_host_copy(ctx, fn, a, wdt, &ha, &ca);
  if (st == CUSCI_OK && q && !(hq = xmalloc((size_t)(in.batch * in.n * in.n), cusci_dtype_itemsize(wdt))))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  bool nonfinite = st == CUSCI_OK && nonfinite_d(ha, ca);
  int info = 0;
  if (st == CUSCI_OK && !nonfinite && in.batch > 0 && in.n > 0)
    info = cusci__ref_la_hessenberg(cusci_dtype_is_complex(in.dt), in.batch, in.n, ha, hq);
  st = backend_status(ctx, fn, st, info, nonfinite);
  cusci_array *res[2] = { NULL, NULL };
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, ha, in.nd, in.sh, wdt, in.dt, &res[0]);
  if (st == CUSCI_OK && q)
    st = cusci__la_put(ctx, hq, in.nd, in.sh, wdt, in.dt, &res[1]);
  free(ha), free(hq);
  cusci_array **outs[2] = { h, q };
  return cusci__la_give_all(ctx, st, 2, res, outs);
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
  TRY(cusci__la_check_out(ctx, fn, lu, nd, sh, dt));
  TRY(cusci__la_check_out(ctx, fn, d, nd, sh, dt));
  TRY(cusci__la_check_out(ctx, fn, perm, nd - 1, sh, CUSCI_INT64));
  cusci_dtype wdt = wide_of(dt);
  void *ha = NULL, *hd = NULL;
  int64_t *hp = NULL;
  size_t ca = 0;
  cusci_status st = cusci__la_host_copy(ctx, fn, a, wdt, &ha, &ca);
  hd = xmalloc((size_t)(batch * n * n), cusci_dtype_itemsize(wdt));
  hp = xmalloc((size_t)(batch * n), sizeof *hp);
  if (st == CUSCI_OK && (!hd || !hp))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  bool nonfinite = st == CUSCI_OK && !o.no_check_finite && nonfinite_d(ha, ca);
  int info = 0;
  if (st == CUSCI_OK && !nonfinite && batch > 0 && n > 0)
    info = cusci__ref_la_ldl(cusci_dtype_is_complex(dt), !o.upper, !o.not_hermitian, batch, n, ha, hd, hp);
  if (st == CUSCI_OK && !nonfinite && info == 1)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "LAPACK's pivot array could not be parsed");
  else
    st = backend_status(ctx, fn, st, info, nonfinite);
  cusci_array *res[3] = { NULL, NULL, NULL };
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, ha, nd, sh, wdt, dt, &res[0]);
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, hd, nd, sh, wdt, dt, &res[1]);
  if (st == CUSCI_OK)
    st = cusci__la_put(ctx, hp, nd - 1, sh, CUSCI_INT64, CUSCI_INT64, &res[2]);
  free(ha), free(hd), free(hp);
  cusci_array **outs[3] = { lu, d, perm };
  return cusci__la_give_all(ctx, st, 3, res, outs);
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
  TRY(cusci__la_check_out(ctx, fn, u, nd, sh, dt));
  TRY(cusci__la_check_out(ctx, fn, p, nd, pshape, dt));
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
  return cusci__la_give_all(ctx, st, 2, res, outs);
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
  TRY(cusci__la_check_out(ctx, fn, out, nd, sh, dt));
  cusci_array *w = NULL, *v = NULL, *w64 = NULL, *f = NULL, *vf = NULL, *vh = NULL, *r = NULL;
  cusci_linalg_eigh_opts eo = { .upper = o.upper, .no_check_finite = o.no_check_finite };
  cusci_status st = cusci_linalg_eigh(ctx, a, &eo, &w, &v);
  double *hw = xmalloc((size_t)(batch * n), sizeof *hw);
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
  if (st != CUSCI_OK) {
    cusci_array_release(r);
    return st;
  }
  return cusci__la_give(ctx, r, out);
}

/* ----------------------------------------------------- tridiagonal */

static cusci_status tridiagonal_impl(cusci_ctx *ctx, const char *fn, const cusci_array *d, const cusci_array *e,
                                     const cusci_linalg_eigh_tridiagonal_opts *opts, cusci_array **w, cusci_array **v)
{
  cusci_linalg_eigh_tridiagonal_opts o = opts ? *opts : (cusci_linalg_eigh_tridiagonal_opts){ 0 };
  TRY(cusci__la_check_input(ctx, fn, "d", d, 1));
  TRY(cusci__la_check_input(ctx, fn, "e", e, 1));
  cusci_dtype dd, de, dt;
  if (cusci_dtype_is_complex(cusci_array_dtype(d)) || cusci_dtype_is_complex(cusci_array_dtype(e)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "d and e must be real (a complex Hermitian tridiagonal matrix is not supported, as SciPy)");
  TRY(cusci__la_work_dtype(ctx, fn, "d", cusci_array_dtype(d), &dd));
  TRY(cusci__la_work_dtype(ctx, fn, "e", cusci_array_dtype(e), &de));
  TRY(cusci_promote_types(dd, de, &dt));
  int nd = cusci_array_ndim(d), nb = nd - 1;
  const int64_t *sd = cusci_array_shape(d), *se = cusci_array_shape(e);
  int64_t n = sd[nd - 1], batch = cusci__la_prod(nb, sd);
  bool ok = cusci_array_ndim(e) == nd && (n == 0 ? se[nd - 1] == 0 : se[nd - 1] == n - 1);
  for (int i = 0; ok && i < nb; i++)
    ok = sd[i] == se[i];
  if (!ok) {
    char b1[256], b2[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "d has shape %s and e %s: expected (..., n) and (..., n - 1)", cusci_shape_str(nd, sd, b1, sizeof b1),
                          cusci_shape_str(cusci_array_ndim(e), se, b2, sizeof b2));
  }
  if (nd + 1 > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the eigenvectors would have %d dimensions", nd + 1);
  cusci__la_range r = { (int)o.select, o.lo, o.hi, o.vlo, o.vhi };
  TRY(check_range(ctx, fn, "select", r, n));
  TRY(cusci__la_check_lapack(ctx, fn, n, n, true));
  if (!w)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "an output pointer is NULL");
  int64_t vshape[CUSCI_MAX_NDIM];
  memcpy(vshape, sd, sizeof *vshape * (size_t)nd);
  vshape[nd] = n;
  double *hd = NULL, *he = NULL;
  size_t cd = 0, ce = 0;
  cusci_status st = cusci__la_host_copy(ctx, fn, d, CUSCI_FLOAT64, (void **)&hd, &cd);
  if (st == CUSCI_OK)
    st = cusci__la_host_copy(ctx, fn, e, CUSCI_FLOAT64, (void **)&he, &ce);
  bool nonfinite = st == CUSCI_OK && !o.no_check_finite && (nonfinite_d(hd, cd) || nonfinite_d(he, ce));
  st = backend_status(ctx, fn, st, 0, nonfinite);
  if (st == CUSCI_OK && !cusci__la_on_host(ctx)) {
    /* GPU: the dense matrix, solved by eigh on the device. */
    double *dense = xmalloc((size_t)(batch * n * n), sizeof *dense);
    cusci_array *ad = NULL;
    if (!dense)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    for (int64_t b = 0; st == CUSCI_OK && b < batch; b++) {
      double *x = dense + b * n * n;
      memset(x, 0, sizeof *x * (size_t)(n * n));
      for (int64_t i = 0; i < n; i++) {
        x[i * n + i] = hd[b * n + i];
        if (i + 1 < n)
          x[(i + 1) * n + i] = x[i * n + i + 1] = he[b * (n - 1) + i];
      }
    }
    if (st == CUSCI_OK)
      st = cusci__la_put(ctx, dense, nd + 1, vshape, CUSCI_FLOAT64, dt, &ad);
    free(dense);
    cusci_linalg_eigh_opts eo = { .no_check_finite = true, .subset = o.select, .lo = o.lo, .hi = o.hi, .vlo = o.vlo, .vhi = o.vhi };
    if (st == CUSCI_OK)
      st = cusci_linalg_eigh(ctx, ad, &eo, w, v);
    cusci_array_release(ad);
    free(hd), free(he);
    return st;
  }
  double *hw = NULL, *hz = NULL;
  int64_t *m = xmalloc((size_t)batch, sizeof *m);
  if (st == CUSCI_OK) {
    hw = xmalloc((size_t)(batch * n), sizeof *hw);
    hz = v ? xmalloc((size_t)(batch * n * n), sizeof *hz) : NULL;
    if (!hw || !m || (v && !hz))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  for (int64_t i = 0; st == CUSCI_OK && i < batch; i++)
    m[i] = 0;
  if (st == CUSCI_OK && batch > 0 && n > 0)
    info = cusci__ref_la_eigh_tridiagonal(batch, n, hd, he, r, hw, hz, m, &f);
  st = backend_status(ctx, fn, st, info, false);
  if (st == CUSCI_OK && f.info > 0) {
    char wh[300];
    st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "the tridiagonal eigenvalue solver (stemr) failed (info %lld)%s", (long long)f.info,
                        where_str(nb, sd, f.batch, wh, sizeof wh));
  }
  cusci_array *fw = NULL, *fv = NULL;
  if (st == CUSCI_OK) {
    for (int64_t i = 0; i < batch; i++)
      for (int64_t j = m[i]; j < n; j++) {
        hw[i * n + j] = 0;
        for (int64_t row = 0; hz && row < n; row++)
          hz[(i * n + row) * n + j] = 0;
      }
    st = cusci__la_put(ctx, hw, nd, sd, CUSCI_FLOAT64, dt, &fw);
    if (st == CUSCI_OK && v)
      st = cusci__la_put(ctx, hz, nd + 1, vshape, CUSCI_FLOAT64, dt, &fv);
  }
  int64_t M = 0;
  if (st == CUSCI_OK)
    st = count_found(ctx, fn, r, n, batch, m, &M);
  free(hd), free(he), free(hw), free(hz), free(m);
  return give_subset(ctx, fn, st, M, nd + 1, vshape, dt, dt, fw, fv, w, v);
}

cusci_status cusci_linalg_eigh_tridiagonal(cusci_ctx *ctx, const cusci_array *d, const cusci_array *e,
                                           const cusci_linalg_eigh_tridiagonal_opts *opts, cusci_array **w, cusci_array **v)
{
  return tridiagonal_impl(ctx, "cusci_linalg_eigh_tridiagonal", d, e, opts, w, v);
}

cusci_status cusci_linalg_eigvalsh_tridiagonal(cusci_ctx *ctx, const cusci_array *d, const cusci_array *e,
                                               const cusci_linalg_eigh_tridiagonal_opts *opts, cusci_array **w)
{
  return tridiagonal_impl(ctx, "cusci_linalg_eigvalsh_tridiagonal", d, e, opts, w, NULL);
}
