/*
 * libcore/sort.c: numpy.sort, argsort, unique and searchsorted: argument
 * checks, the move of the sorted axis to the end (a contiguous copy of m
 * rows of r elements), dispatch to the host loops (reference/core/sort.c)
 * or the kernels (kernels/core/sort.cu), and the output convention.
 */
#include "libcore/internal.h"

#include <string.h>

#include <cusci/compute.h>

#include "kernels/core/launch.h"
#include "libcore/backend.h"
#include "libcore/sort.h"
#include "reference/core/sort.h"

cusci_status cusci__scratch(cusci_ctx *ctx, const char *fn, size_t n, cusci_array **out)
{
  int64_t len = (int64_t)(n ? n : 1);
  return cusci__array_new(ctx, fn, 1, &len, CUSCI_UINT8, out);
}

cusci_status cusci__rows_of(cusci_ctx *ctx, const char *fn, const cusci_array *a, const bool *mask,
                            cusci_array **rows, int64_t *m, int64_t *r, int *perm)
{
  int64_t shape[CUSCI_MAX_NDIM], strides[CUSCI_MAX_NDIM];
  int k = 0;
  *m = 1;
  *r = 1;
  for (int d = 0; d < a->ndim; d++)
    if (!mask[d]) {
      perm[k] = d;
      shape[k] = a->shape[d];
      strides[k++] = a->strides[d];
      *m *= a->shape[d];
    }
  for (int d = 0; d < a->ndim; d++)
    if (mask[d]) {
      perm[k] = d;
      shape[k] = a->shape[d];
      strides[k++] = a->strides[d];
      *r *= a->shape[d];
    }
  cusci_array *v = NULL;
  CUSCI_TRY(cusci__array_view(ctx, fn, a, a->ndim, shape, strides, a->data, &v));
  if (cusci_array_is_c_contiguous(v)) {
    *rows = v;
    return CUSCI_OK;
  }
  cusci_array *c = NULL;
  cusci_status st = cusci__array_new(ctx, fn, a->ndim, shape, a->dtype, &c);
  if (st == CUSCI_OK)
    st = cusci__copy_into(ctx, fn, c, v);
  cusci_array_release(v);
  if (st != CUSCI_OK) {
    cusci_array_release(c);
    return st;
  }
  *rows = c;
  return CUSCI_OK;
}

cusci_status cusci__sort_rows(cusci_ctx *ctx, const char *fn, const cusci_array *rows, int64_t m, int64_t r,
                              cusci_array **vals, cusci_array **idx, bool stable)
{
  /* Values alone, where no stable order is asked for: the faster value order. */
  bool value_order = !stable && !idx;
  int64_t n = m * r;
  if (ctx->device >= 0 && r > (int64_t)UINT32_MAX)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn,
                          "a slice of %lld elements; the GPU sorts slices of up to 2^32 - 1", (long long)r);
  cusci_array *v = NULL, *ix = NULL, *scratch = NULL;
  cusci_status st = CUSCI_OK;
  if (vals)
    st = cusci__array_new(ctx, fn, 1, &n, rows->dtype, &v);
  if (st == CUSCI_OK && idx)
    st = cusci__array_new(ctx, fn, 1, &n, CUSCI_INT64, &ix);
  if (st == CUSCI_OK && n > 0) {
    void *vp = v ? v->data : NULL;
    int64_t *ip = ix ? (int64_t *)ix->data : NULL;
    if (ctx->device < 0) {
      st = cusci__scratch(ctx, fn, CUSCI__HOST_SORT_SCRATCH(r), &scratch);
      if (st == CUSCI_OK && value_order)
        cusci__host_sort_values(rows->dtype, m, r, rows->data, vp, scratch->data);
      else if (st == CUSCI_OK)
        cusci__host_sort_rows(rows->dtype, m, r, rows->data, vp, ip, scratch->data);
    } else {
      size_t tb = 0;
      st = cusci__gpu_use(ctx, fn);
      if (st == CUSCI_OK)
        st = cusci_ctx_gpu_status(ctx, fn, NULL,
                                 value_order ? cusci__launch_sort_values(ctx->stream, rows->dtype, m, r, rows->data,
                                                                         vp, NULL, &tb)
                                             : cusci__launch_sort_rows(ctx->stream, rows->dtype, m, r, rows->data, vp,
                                                                       ip, NULL, &tb));
      if (st == CUSCI_OK)
        st = cusci__scratch(ctx, fn, tb, &scratch);
      if (st == CUSCI_OK)
        st = cusci_ctx_gpu_status(ctx, fn, NULL,
                                 value_order ? cusci__launch_sort_values(ctx->stream, rows->dtype, m, r, rows->data,
                                                                         vp, scratch->data, &tb)
                                             : cusci__launch_sort_rows(ctx->stream, rows->dtype, m, r, rows->data, vp,
                                                                       ip, scratch->data, &tb));
    }
  }
  cusci_array_release(scratch);
  if (st != CUSCI_OK) {
    cusci_array_release(v);
    cusci_array_release(ix);
    return st;
  }
  if (vals)
    *vals = v;
  if (idx)
    *idx = ix;
  return CUSCI_OK;
}

/*
 * Give the fresh contiguous result r (released here) to the caller under
 * the output convention, with the shape (nd, shape) and strides of a view
 * over it; a non-contiguous view is copied into C order.
 */
static cusci_status deliver(cusci_ctx *ctx, const char *fn, cusci_array *r, int nd, const int64_t *shape,
                            const int64_t *strides, cusci_array **out)
{
  cusci_array *v = NULL;
  cusci_status st = cusci__array_view(ctx, fn, r, nd, shape, strides, r->data, &v);
  cusci_array_release(r);
  if (st != CUSCI_OK)
    return st;
  if (!*out && !cusci_array_is_c_contiguous(v)) {
    cusci_array *c = NULL;
    st = cusci__array_new(ctx, fn, nd, shape, v->dtype, &c);
    if (st == CUSCI_OK)
      st = cusci__copy_into(ctx, fn, c, v);
    cusci_array_release(v);
    if (st != CUSCI_OK) {
      cusci_array_release(c);
      return st;
    }
    v = c;
  }
  return cusci__finish_view(ctx, fn, v, out);
}

static cusci_status sort_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, int axis, bool arg,
                              cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  bool mask[CUSCI_MAX_NDIM] = {false};
  int nd = a->ndim;
  bool flat = axis == CUSCI_AXIS_NONE;
  if (flat) {
    for (int d = 0; d < nd; d++)
      mask[d] = true;
  } else {
    if (axis < -nd || axis >= nd)
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of bounds for an array of dimension %d", axis, nd);
    mask[axis < 0 ? axis + nd : axis] = true;
  }
  cusci_dtype rdt = arg ? CUSCI_INT64 : a->dtype;
  int64_t flat_n = a->size;
  CUSCI_TRY(cusci_check_out(ctx, fn, out, flat ? 1 : nd, flat ? &flat_n : a->shape, rdt, CUSCI_CASTING_NO));
  cusci_array *rows = NULL, *res = NULL;
  int64_t m, r;
  int perm[CUSCI_MAX_NDIM];
  CUSCI_TRY(cusci__rows_of(ctx, fn, a, mask, &rows, &m, &r, perm));
  cusci_status st = cusci__sort_rows(ctx, fn, rows, m, r, arg ? NULL : &res, arg ? &res : NULL, false);
  cusci_array_release(rows);
  if (st != CUSCI_OK)
    return st;
  if (flat)
    return deliver(ctx, fn, res, 1, &flat_n, (const int64_t[]){1}, out);
  /* res holds a's axes in the order perm, C-contiguous; view it in a's order. */
  int64_t ms[CUSCI_MAX_NDIM], cs[CUSCI_MAX_NDIM], strides[CUSCI_MAX_NDIM];
  for (int k = 0; k < nd; k++)
    ms[k] = a->shape[perm[k]];
  cusci__c_strides(nd, ms, cs);
  for (int k = 0; k < nd; k++)
    strides[perm[k]] = cs[k];
  return deliver(ctx, fn, res, nd, a->shape, strides, out);
}

cusci_status cusci_sort(cusci_ctx *ctx, const cusci_array *a, int axis, cusci_array **out)
{
  return sort_impl(ctx, __func__, a, axis, false, out);
}

cusci_status cusci_argsort(cusci_ctx *ctx, const cusci_array *a, int axis, cusci_array **out)
{
  return sort_impl(ctx, __func__, a, axis, true, out);
}

/* --------------------------------------------------------------- unique */

/*
 * np.unique: a stable sort of the flattened array (values and positions),
 * the runs of equal neighbours numbered by a prefix sum, and one scatter
 * pass that writes every asked-for output.
 */
cusci_status cusci_unique(cusci_ctx *ctx, const cusci_array *ar, const cusci_unique_opts *opts,
                          cusci_array **unique, cusci_array **index, cusci_array **inverse, cusci_array **counts)
{
  const char *fn = __func__;
  CUSCI_ENTRY_CTX(ctx, fn);
  cusci_unique_opts o = {0};
  if (opts)
    o = *opts;
  CUSCI_TRY(cusci_check_array(ctx, fn, "ar", ar));
  if (!unique)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "unique is NULL");
  if (o.return_index && !index)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "index is NULL with return_index");
  if (o.return_inverse && !inverse)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "inverse is NULL with return_inverse");
  if (o.return_counts && !counts)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "counts is NULL with return_counts");
  bool mask[CUSCI_MAX_NDIM];
  for (int d = 0; d < CUSCI_MAX_NDIM; d++)
    mask[d] = true;
  int64_t n = ar->size;
  if (o.return_inverse)
    CUSCI_TRY(cusci_check_out(ctx, fn, inverse, ar->ndim, ar->shape, CUSCI_INT64, CUSCI_CASTING_NO));
  bool want_perm = o.return_index || o.return_inverse;
  cusci_array *rows = NULL, *sorted = NULL, *perm = NULL, *gid = NULL, *scratch = NULL;
  cusci_array *u = NULL, *ix = NULL, *inv = NULL, *cnt = NULL;
  int64_t m, r, ng = 0;
  int order[CUSCI_MAX_NDIM];
  cusci_status st = cusci__rows_of(ctx, fn, ar, mask, &rows, &m, &r, order);
  if (st == CUSCI_OK)
    st = cusci__sort_rows(ctx, fn, rows, 1, n, &sorted, want_perm ? &perm : NULL, true);
  if (st == CUSCI_OK)
    st = cusci__array_new(ctx, fn, 1, &n, CUSCI_INT64, &gid);
  if (st == CUSCI_OK && n > 0) {
    if (ctx->device < 0) {
      ng = cusci__host_unique_mark(ar->dtype, n, sorted->data, !o.nan_distinct, (int64_t *)gid->data);
    } else {
      size_t tb = 0;
      st = cusci_ctx_gpu_status(ctx, fn, NULL, cusci__launch_unique_mark(ctx->stream, ar->dtype, n, sorted->data,
                                                                  !o.nan_distinct, (int64_t *)gid->data, NULL, &tb));
      if (st == CUSCI_OK)
        st = cusci__scratch(ctx, fn, tb, &scratch);
      if (st == CUSCI_OK)
        st = cusci_ctx_gpu_status(ctx, fn, NULL, cusci__launch_unique_mark(ctx->stream, ar->dtype, n, sorted->data,
                                                                    !o.nan_distinct, (int64_t *)gid->data,
                                                                    scratch->data, &tb));
      if (st == CUSCI_OK)
        st = cusci__gpu_memcpy_d2h(ctx, fn, &ng, (int64_t *)gid->data + n - 1, sizeof ng);
      if (st == CUSCI_OK)
        st = cusci__gpu_sync(ctx, fn);
      ng += 1;
    }
  }
  cusci_array_release(rows);
  cusci_array_release(scratch);
  /* Every given output must fit before any is written. */
  if (st == CUSCI_OK)
    st = cusci_check_out(ctx, fn, unique, 1, &ng, ar->dtype, CUSCI_CASTING_NO);
  if (st == CUSCI_OK && o.return_index)
    st = cusci_check_out(ctx, fn, index, 1, &ng, CUSCI_INT64, CUSCI_CASTING_NO);
  if (st == CUSCI_OK && o.return_counts)
    st = cusci_check_out(ctx, fn, counts, 1, &ng, CUSCI_INT64, CUSCI_CASTING_NO);
  if (st == CUSCI_OK)
    st = cusci__array_new(ctx, fn, 1, &ng, ar->dtype, &u);
  if (st == CUSCI_OK && o.return_index)
    st = cusci__array_new(ctx, fn, 1, &ng, CUSCI_INT64, &ix);
  if (st == CUSCI_OK && o.return_inverse)
    st = cusci__array_new(ctx, fn, 1, &n, CUSCI_INT64, &inv);
  if (st == CUSCI_OK && o.return_counts)
    st = cusci__array_new(ctx, fn, 1, &ng, CUSCI_INT64, &cnt);
  if (st == CUSCI_OK && n > 0) {
    int64_t *pp = perm ? (int64_t *)perm->data : NULL, *ipp = ix ? (int64_t *)ix->data : NULL,
            *invp = inv ? (int64_t *)inv->data : NULL, *cp = cnt ? (int64_t *)cnt->data : NULL;
    if (ctx->device < 0)
      cusci__host_unique_scatter(ar->dtype, n, sorted->data, pp, (int64_t *)gid->data, ng, u->data, ipp, invp, cp);
    else
      st = cusci_ctx_gpu_status(ctx, fn, NULL, cusci__launch_unique_scatter(ctx->stream, ar->dtype, n, sorted->data, pp,
                                                                     (int64_t *)gid->data, u->data, ipp, invp, cp));
  }
  cusci_array_release(sorted);
  cusci_array_release(perm);
  cusci_array_release(gid);
  if (st != CUSCI_OK) {
    cusci_array_release(u);
    cusci_array_release(ix);
    cusci_array_release(inv);
    cusci_array_release(cnt);
    return st;
  }
  /* The checks above make these deliveries fail only on a copy error. */
  int64_t one = 1, cs[CUSCI_MAX_NDIM];
  cusci__c_strides(ar->ndim, ar->shape, cs);
  st = deliver(ctx, fn, u, 1, &ng, &one, unique);
  if (ix) {
    cusci_status s2 = st == CUSCI_OK ? deliver(ctx, fn, ix, 1, &ng, &one, index) : (cusci_array_release(ix), st);
    st = s2;
  }
  if (inv) {
    cusci_status s2 = st == CUSCI_OK ? deliver(ctx, fn, inv, ar->ndim, ar->shape, cs, inverse)
                                     : (cusci_array_release(inv), st);
    st = s2;
  }
  if (cnt) {
    cusci_status s2 = st == CUSCI_OK ? deliver(ctx, fn, cnt, 1, &ng, &one, counts) : (cusci_array_release(cnt), st);
    st = s2;
  }
  return st;
}

/* --------------------------------------------------------- searchsorted */

/* a converted to dtype dt (a itself when it already is), C-contiguous. */
static cusci_status contiguous_as(cusci_ctx *ctx, const cusci_array *a, cusci_dtype dt, cusci_array **out)
{
  cusci_array *t = NULL;
  CUSCI_TRY(cusci_array_astype(ctx, (cusci_array *)a, dt, false, &t));
  cusci_status st = cusci_array_ascontiguousarray(ctx, t, out);
  cusci_array_release(t);
  return st;
}

cusci_status cusci_searchsorted(cusci_ctx *ctx, const cusci_array *a, const cusci_array *v, cusci_side side,
                                cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, __func__, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  CUSCI_TRY(cusci_check_array(ctx, fn, "v", v));
  if (a->ndim != 1)
    CUSCI__FAIL(ctx, CUSCI_ERR_NDIM, "a has %d dimensions, expected 1", a->ndim);
  if (side != CUSCI_SIDE_LEFT && side != CUSCI_SIDE_RIGHT)
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "side is %d, expected CUSCI_SIDE_LEFT or CUSCI_SIDE_RIGHT",
                (int)side);
  CUSCI_TRY(cusci_check_out(ctx, fn, out, v->ndim, v->shape, CUSCI_INT64, CUSCI_CASTING_NO));
  cusci_dtype dt;
  CUSCI_TRY(cusci_promote_types(a->dtype, v->dtype, &dt));
  cusci_array *ac = NULL, *vc = NULL, *res = NULL;
  cusci_status st = contiguous_as(ctx, a, dt, &ac);
  if (st == CUSCI_OK)
    st = contiguous_as(ctx, v, dt, &vc);
  int64_t nv = v->size;
  if (st == CUSCI_OK)
    st = cusci__array_new(ctx, fn, 1, &nv, CUSCI_INT64, &res);
  if (st == CUSCI_OK && nv > 0) {
    if (ctx->device < 0)
      cusci__host_searchsorted(dt, a->size, ac->data, nv, vc->data, side == CUSCI_SIDE_RIGHT, (int64_t *)res->data);
    else if ((st = cusci__gpu_use(ctx, fn)) == CUSCI_OK)
      st = cusci_ctx_gpu_status(ctx, fn, NULL, cusci__launch_searchsorted(ctx->stream, dt, a->size, ac->data, nv, vc->data,
                                                                   side == CUSCI_SIDE_RIGHT, (int64_t *)res->data));
  }
  cusci_array_release(ac);
  cusci_array_release(vc);
  if (st != CUSCI_OK) {
    cusci_array_release(res);
    return st;
  }
  int64_t cs[CUSCI_MAX_NDIM];
  cusci__c_strides(v->ndim, v->shape, cs);
  return deliver(ctx, fn, res, v->ndim, v->shape, cs, out);
}
