/*
 * liblinalg/eigh.c: the API layer of scipy.linalg.eigh and eigvalsh (with
 * a subset or b: cuSOLVER Xsyevdx and sygvd on a GPU, LAPACKE syevr and
 * sygvd on the host) and of eigh_tridiagonal and eigvalsh_tridiagonal.
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
    st = cusci_check_out(ctx, fn, w, nd - 1, wshape, rt, CUSCI_CASTING_NO);
  if (st == CUSCI_OK && v)
    st = cusci_check_out(ctx, fn, v, nd, shape, dt, CUSCI_CASTING_NO);
  cusci_array **outs[2] = { w, v };
  return cusci__la_give_all(ctx, fn, st, 2, res, outs);
}

/*
 * scipy.linalg.eigh with subset_by_index / subset_by_value and/or b, for
 * cusci_linalg_eigh (cusci__la_eigh_impl below hands such calls here).
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
    TRY(cusci__la_check_same_shape(ctx, fn, "a", a, "b", b));
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
  int64_t *m = cusci__la_xmalloc((size_t)batch, sizeof *m);
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
    cusci_dtype wdt = cusci__la_wide_of(dt);
    void *ha = NULL, *hb = NULL, *hv = NULL;
    size_t ca = 0, cb = 0;
    if (st == CUSCI_OK)
      st = cusci__la_host_copy(ctx, fn, a, wdt, &ha, &ca);
    if (st == CUSCI_OK && b)
      st = cusci__la_host_copy(ctx, fn, b, wdt, &hb, &cb);
    double *hw = cusci__la_xmalloc((size_t)(batch * n), sizeof *hw);
    if (v)
      hv = cusci__la_xmalloc((size_t)(batch * n * n), cusci_dtype_itemsize(wdt));
    if (st == CUSCI_OK && (!hw || (v && !hv)))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK && !o->no_check_finite)
      nonfinite = cusci__la_nonfinite_d(ha, ca) || (hb && cusci__la_nonfinite_d(hb, cb));
    if (st == CUSCI_OK && !nonfinite && batch > 0 && n > 0)
      info = cusci__ref_la_eigh_ex(cusci_dtype_is_complex(dt), batch, n, o->upper, r, type, ha, hb, hw, hv, m, &f);
    st = cusci__la_backend_status(ctx, fn, st, info, nonfinite);
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
    cusci_array *wa = NULL, *wb = NULL;
    if (b && n > INT_MAX / (n ? n : 1))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a %lldx%lld matrix exceeds cuSOLVER's int for sygvd", (long long)n, (long long)n);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, (cusci_array *)a, dt, true, &wa);
    if (st == CUSCI_OK && b)
      st = cusci_array_astype(ctx, (cusci_array *)b, dt, true, &wb);
    if (st == CUSCI_OK)
      st = cusci_array_zeros(ctx, nd - 1, sh, rt, &fw);
    if (st == CUSCI_OK && v)
      st = cusci_array_empty(ctx, nd, sh, dt, &fv);
    if (st == CUSCI_OK && batch > 0 && n > 0)
      CUSCI__LA_GPU(st, ctx, fn, batch, CUSCI__LA_WORDS, &f, &nonfinite, cusci__launch_la_eigh_ex, dt, !o->no_check_finite, batch, n, o->upper,
                    r, type, cusci_array_data(wa), wb ? cusci_array_data(wb) : NULL, cusci_array_data(fw), fv ? cusci_array_data(fv) : NULL, m);
    cusci_array_release(wa);
    cusci_array_release(wb);
    st = cusci__la_backend_status(ctx, fn, st, 0, nonfinite);
  }
  if (st == CUSCI_OK && f.info > 0) {
    char wh[300];
    cusci__la_where(nb, sh, f.batch, wh, sizeof wh);
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
  bool nonfinite = st == CUSCI_OK && !o.no_check_finite && (cusci__la_nonfinite_d(hd, cd) || cusci__la_nonfinite_d(he, ce));
  st = cusci__la_backend_status(ctx, fn, st, 0, nonfinite);
  if (st == CUSCI_OK && !cusci__la_on_host(ctx)) {
    /* GPU: the dense matrix, solved by eigh on the device. */
    double *dense = cusci__la_xmalloc((size_t)(batch * n * n), sizeof *dense);
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
  int64_t *m = cusci__la_xmalloc((size_t)batch, sizeof *m);
  if (st == CUSCI_OK) {
    hw = cusci__la_xmalloc((size_t)(batch * n), sizeof *hw);
    hz = v ? cusci__la_xmalloc((size_t)(batch * n * n), sizeof *hz) : NULL;
    if (!hw || !m || (v && !hz))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  for (int64_t i = 0; st == CUSCI_OK && i < batch; i++)
    m[i] = 0;
  if (st == CUSCI_OK && batch > 0 && n > 0)
    info = cusci__ref_la_eigh_tridiagonal(batch, n, hd, he, r, hw, hz, m, &f);
  st = cusci__la_backend_status(ctx, fn, st, info, false);
  if (st == CUSCI_OK && f.info > 0) {
    char wh[300];
    st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "the tridiagonal eigenvalue solver (stemr) failed (info %lld)%s", (long long)f.info,
                        cusci__la_where(nb, sd, f.batch, wh, sizeof wh));
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

/* ---------------------------------------------------------------- eigh */

/* scipy.linalg.eigh. */
cusci_status cusci__la_eigh_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_linalg_eigh_opts *opts, cusci_array **w,
                              cusci_array **v)
{
  cusci_linalg_eigh_opts o = opts ? *opts : (cusci_linalg_eigh_opts){ 0 };
  if (o.subset != CUSCI_LINALG_SUBSET_ALL || o.b)
    return cusci__la_eigh_ex(ctx, fn, a, &o, w, v); /* liblinalg/eig.c */
  if (o.type < 0 || o.type > 3)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "type is %d, expected 1, 2 or 3", o.type);
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  cusci_dtype dt = in.dt, rt = cusci_dtype_real_of(dt);
  int nd = in.nd, nb = nd - 2;
  const int64_t *sh = in.sh;
  int64_t n = in.n, batch = in.batch;
  TRY(cusci_check_out(ctx, fn, w, nd - 1, sh, rt, CUSCI_CASTING_NO));
  if (v)
    TRY(cusci_check_out(ctx, fn, v, nd, sh, dt, CUSCI_CASTING_NO));
  cusci_array *work = NULL, *rw = NULL, *rv = NULL;
  cusci_status st = cusci__la_work_copy(ctx, a, dt, &work);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd - 1, sh, rt, &rw);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK) {
    if (cusci__la_on_host(ctx)) {
      if (batch > 0 && n > 0) {
        nonfinite = !o.no_check_finite && cusci__la_host_nonfinite(work);
        if (!nonfinite)
          info = cusci__ref_la_eigh(dt, batch, n, o.upper, v != NULL, cusci_array_data(work), cusci_array_data(rw), &f);
      }
      if (v)
        rv = cusci_array_retain(work);
    } else {
      if (v)
        st = cusci_array_empty(ctx, nd, sh, dt, &rv);
      if (st == CUSCI_OK && batch > 0 && n > 0)
        CUSCI__LA_GPU(st, ctx, fn, batch, CUSCI__LA_WORDS, &f, &nonfinite, cusci__launch_la_eigh, dt, !o.no_check_finite, batch, n, o.upper,
                      cusci_array_data(work), cusci_array_data(rw), v ? cusci_array_data(rv) : NULL);
    }
  }
  cusci_array_release(work);
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, f, CUSCI__LA_FAIL_EIG, nb, sh);
  return cusci__la_give_all(ctx, fn, st, 2, (cusci_array *[]){ rv, rw }, (cusci_array **[]){ v, w });
}

cusci_status cusci_linalg_eigh(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_eigh_opts *opts, cusci_array **w, cusci_array **v)
{
  return cusci__la_eigh_impl(ctx, "cusci_linalg_eigh", a, opts, w, v);
}

cusci_status cusci_linalg_eigvalsh(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_eigh_opts *opts, cusci_array **w)
{
  return cusci__la_eigh_impl(ctx, "cusci_linalg_eigvalsh", a, opts, w, NULL);
}
