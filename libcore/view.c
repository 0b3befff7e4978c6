/*
 * libcore/view.c: copy, reshape, transpose, slice, squeeze, expand_dims,
 * broadcast_to and ascontiguousarray, as NumPy defines them.
 */
#include "libcore/internal.h"

#include <string.h>

/* The checks of a view function: ctx, the array, out. */
static cusci_status view_check(cusci_ctx *ctx, const char *fn, const cusci_array *a, cusci_array **out)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  if (!out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "out is NULL");
  return CUSCI_OK;
}

static cusci_status make_view(cusci_ctx *ctx, const char *fn, const cusci_array *a, int ndim, const int64_t *shape,
                              const int64_t *strides, char *data, cusci_array **out)
{
  cusci_array *v;
  CUSCI_TRY(cusci__array_view(ctx, fn, a, ndim, shape, strides, data, &v));
  return cusci__finish_view(ctx, fn, v, out);
}

cusci_status cusci_array_copy(cusci_ctx *ctx, const cusci_array *a, cusci_array **out)
{
  CUSCI_TRY(view_check(ctx, __func__, a, out));
  cusci_array *r;
  CUSCI_TRY(cusci_prepare_out(ctx, __func__, out, a->ndim, a->shape, a->dtype, &r));
  cusci_status st = cusci__copy_into(ctx, __func__, r, a);
  if (st == CUSCI_OK)
    *out = r;
  else if (r != *out)
    cusci_array_release(r);
  return st;
}

cusci_status cusci_array_ascontiguousarray(cusci_ctx *ctx, cusci_array *a, cusci_array **out)
{
  CUSCI_TRY(view_check(ctx, __func__, a, out));
  if (*out == NULL && cusci_array_is_c_contiguous(a)) {
    *out = cusci_array_retain(a);
    return CUSCI_OK;
  }
  return cusci_array_copy(ctx, a, out);
}

/*
 * Strides for `a` seen with a new shape of the same size, without a copy,
 * or false when none exist. The axes of `a` and of the new shape are
 * grouped into runs of equal size; each run of `a` must be contiguous in
 * itself (NumPy's _attempt_nocopy_reshape, C order).
 */
static bool reshape_strides(const cusci_array *a, int ndim, const int64_t *shape, int64_t *strides)
{
  int64_t oshape[CUSCI_MAX_NDIM], ostr[CUSCI_MAX_NDIM];
  int on = 0;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != 1) {
      oshape[on] = a->shape[i];
      ostr[on] = a->strides[i];
      on++;
    }
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < ndim && oi < on) {
    int64_t np = shape[ni], op = oshape[oi];
    while (np != op) {
      if (np < op)
        np *= shape[nj++];
      else
        op *= oshape[oj++];
    }
    for (int k = oi; k < oj - 1; k++)
      if (ostr[k] != oshape[k + 1] * ostr[k + 1])
        return false;
    strides[nj - 1] = ostr[oj - 1];
    for (int k = nj - 1; k > ni; k--)
      strides[k - 1] = strides[k] * shape[k];
    ni = nj++;
    oi = oj++;
  }
  /* Trailing axes of extent 1 take any stride; NumPy repeats the last. */
  for (int k = ni; k < ndim; k++)
    strides[k] = ni >= 1 ? strides[ni - 1] : 1;
  return true;
}

cusci_status cusci_array_reshape(cusci_ctx *ctx, cusci_array *a, int ndim, const int64_t *shape, cusci_array **out)
{
  CUSCI_TRY(view_check(ctx, __func__, a, out));
  if (ndim < 0 || ndim > CUSCI_MAX_NDIM)
    CUSCI__FAIL(ctx, CUSCI_ERR_NDIM, "ndim is %d, expected 0 to %d", ndim, CUSCI_MAX_NDIM);
  if (ndim > 0 && !shape)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "shape is NULL with ndim %d", ndim);
  int64_t s[CUSCI_MAX_NDIM];
  int infer = -1;
  int64_t known = 1;
  for (int i = 0; i < ndim; i++) {
    s[i] = shape[i];
    if (s[i] == -1) {
      if (infer >= 0)
        CUSCI__FAIL(ctx, CUSCI_ERR_SHAPE, "shape has more than one -1");
      infer = i;
      continue;
    }
    if (s[i] < 0)
      CUSCI__FAIL(ctx, CUSCI_ERR_SHAPE, "shape[%d] is %lld, extents must be >= 0 or -1", i, (long long)s[i]);
  }
  for (int i = 0; i < ndim; i++)
    if (i != infer) {
      if (s[i] && known > INT64_MAX / s[i])
        CUSCI__FAIL(ctx, CUSCI_ERR_OVERFLOW, "the shape's size overflows int64_t");
      known *= s[i];
    }
  char b1[256], b2[256];
  if (infer >= 0) {
    if (known == 0 || a->size % known != 0)
      CUSCI__FAIL(ctx, CUSCI_ERR_SHAPE, "cannot reshape an array of size %lld into shape %s with -1",
                  (long long)a->size, cusci_shape_str(ndim, shape, b1, sizeof b1));
    s[infer] = a->size / known;
    known = a->size;
  }
  if (known != a->size)
    CUSCI__FAIL(ctx, CUSCI_ERR_SHAPE, "cannot reshape an array of shape %s (size %lld) into shape %s",
                cusci_shape_str(a->ndim, a->shape, b1, sizeof b1), (long long)a->size,
                cusci_shape_str(ndim, s, b2, sizeof b2));
  int64_t strides[CUSCI_MAX_NDIM];
  if (a->size == 0) {
    cusci__c_strides(ndim, s, strides);
  } else if (!reshape_strides(a, ndim, s, strides)) {
    /* No view exists: copy, then view the copy with the new shape. */
    cusci_array *c = NULL;
    CUSCI_TRY(cusci_array_copy(ctx, a, &c));
    cusci__c_strides(ndim, s, strides);
    cusci_status st = make_view(ctx, __func__, c, ndim, s, strides, c->data, out);
    cusci_array_release(c);
    return st;
  }
  return make_view(ctx, __func__, a, ndim, s, strides, a->data, out);
}

cusci_status cusci_array_transpose(cusci_ctx *ctx, cusci_array *a, const int *axes, cusci_array **out)
{
  CUSCI_TRY(view_check(ctx, __func__, a, out));
  int n = a->ndim;
  int64_t shape[CUSCI_MAX_NDIM], strides[CUSCI_MAX_NDIM];
  bool seen[CUSCI_MAX_NDIM] = {false};
  for (int i = 0; i < n; i++) {
    int ax = axes ? axes[i] : n - 1 - i;
    if (ax < -n || ax >= n)
      CUSCI__FAIL(ctx, CUSCI_ERR_AXIS, "axes[%d] is %d, out of range for %d dimensions", i, ax, n);
    if (ax < 0)
      ax += n;
    if (seen[ax])
      CUSCI__FAIL(ctx, CUSCI_ERR_AXIS, "axes repeats axis %d", ax);
    seen[ax] = true;
    shape[i] = a->shape[ax];
    strides[i] = a->strides[ax];
  }
  return make_view(ctx, __func__, a, n, shape, strides, a->data, out);
}

/* Python's slice.indices(): clip start and stop, count the elements. */
static int64_t slice_indices(int64_t len, int64_t start, int64_t stop, int64_t step, int64_t *first)
{
  int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? len - 1 : len;
  if (start == CUSCI_SLICE_NONE) {
    start = step < 0 ? hi : lo;
  } else {
    if (start < 0)
      start = start + len < lo ? lo : start + len;
    else if (start > hi)
      start = hi;
  }
  if (stop == CUSCI_SLICE_NONE) {
    stop = step < 0 ? lo : hi;
  } else {
    if (stop < 0)
      stop = stop + len < lo ? lo : stop + len;
    else if (stop > hi)
      stop = hi;
  }
  *first = start;
  if (step > 0)
    return stop > start ? (stop - start - 1) / step + 1 : 0;
  return start > stop ? (start - stop - 1) / (-step) + 1 : 0;
}

cusci_status cusci_array_slice(cusci_ctx *ctx, cusci_array *a, const int64_t *start, const int64_t *stop,
                               const int64_t *step, cusci_array **out)
{
  CUSCI_TRY(view_check(ctx, __func__, a, out));
  int64_t shape[CUSCI_MAX_NDIM], strides[CUSCI_MAX_NDIM];
  int64_t offset = 0;
  for (int i = 0; i < a->ndim; i++) {
    int64_t st = step ? step[i] : 1;
    if (st == 0)
      CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "step[%d] is 0", i);
    if (st == INT64_MIN)
      CUSCI__FAIL(ctx, CUSCI_ERR_OVERFLOW, "step[%d] is INT64_MIN", i);
    int64_t first;
    shape[i] = slice_indices(a->shape[i], start ? start[i] : CUSCI_SLICE_NONE, stop ? stop[i] : CUSCI_SLICE_NONE,
                             st, &first);
    strides[i] = a->strides[i] * st;
    if (shape[i] > 0)
      offset += first * a->strides[i];
  }
  return make_view(ctx, __func__, a, a->ndim, shape, strides,
                   a->data + offset * (int64_t)cusci__itemsize[a->dtype], out);
}

cusci_status cusci_array_squeeze(cusci_ctx *ctx, cusci_array *a, int naxes, const int *axes, cusci_array **out)
{
  CUSCI_TRY(view_check(ctx, __func__, a, out));
  bool drop[CUSCI_MAX_NDIM] = {false};
  if (axes) {
    if (naxes < 0 || naxes > a->ndim)
      CUSCI__FAIL(ctx, CUSCI_ERR_AXIS, "naxes is %d for %d dimensions", naxes, a->ndim);
    for (int i = 0; i < naxes; i++) {
      int ax = axes[i];
      if (ax < -a->ndim || ax >= a->ndim)
        CUSCI__FAIL(ctx, CUSCI_ERR_AXIS, "axes[%d] is %d, out of range for %d dimensions", i, ax, a->ndim);
      if (ax < 0)
        ax += a->ndim;
      if (drop[ax])
        CUSCI__FAIL(ctx, CUSCI_ERR_AXIS, "axes repeats axis %d", ax);
      if (a->shape[ax] != 1)
        CUSCI__FAIL(ctx, CUSCI_ERR_SHAPE, "cannot squeeze axis %d of extent %lld", ax, (long long)a->shape[ax]);
      drop[ax] = true;
    }
  } else {
    for (int i = 0; i < a->ndim; i++)
      drop[i] = a->shape[i] == 1;
  }
  int64_t shape[CUSCI_MAX_NDIM], strides[CUSCI_MAX_NDIM];
  int n = 0;
  for (int i = 0; i < a->ndim; i++)
    if (!drop[i]) {
      shape[n] = a->shape[i];
      strides[n] = a->strides[i];
      n++;
    }
  return make_view(ctx, __func__, a, n, shape, strides, a->data, out);
}

cusci_status cusci_array_expand_dims(cusci_ctx *ctx, cusci_array *a, int axis, cusci_array **out)
{
  CUSCI_TRY(view_check(ctx, __func__, a, out));
  int n = a->ndim + 1;
  if (n > CUSCI_MAX_NDIM)
    CUSCI__FAIL(ctx, CUSCI_ERR_NDIM, "the result would have %d dimensions, at most %d are allowed", n, CUSCI_MAX_NDIM);
  if (axis < -n || axis >= n)
    CUSCI__FAIL(ctx, CUSCI_ERR_AXIS, "axis is %d, out of range for a result of %d dimensions", axis, n);
  if (axis < 0)
    axis += n;
  int64_t shape[CUSCI_MAX_NDIM], strides[CUSCI_MAX_NDIM];
  for (int i = 0, j = 0; i < n; i++) {
    if (i == axis) {
      shape[i] = 1;
      /* Any stride will do for an axis of extent 1; NumPy's choice keeps
       * C-contiguous arrays contiguous. */
      strides[i] = j < a->ndim ? a->strides[j] * a->shape[j] : (a->ndim ? a->strides[a->ndim - 1] : 1);
      continue;
    }
    shape[i] = a->shape[j];
    strides[i] = a->strides[j];
    j++;
  }
  return make_view(ctx, __func__, a, n, shape, strides, a->data, out);
}

cusci_status cusci_array_broadcast_to(cusci_ctx *ctx, cusci_array *a, int ndim, const int64_t *shape, cusci_array **out)
{
  CUSCI_TRY(view_check(ctx, __func__, a, out));
  CUSCI_TRY(cusci_check_shape(ctx, __func__, "shape", ndim, shape, cusci__itemsize[a->dtype]));
  char b1[256], b2[256];
  if (ndim < a->ndim)
    CUSCI__FAIL(ctx, CUSCI_ERR_BROADCAST, "cannot broadcast shape %s to the shorter shape %s",
                cusci_shape_str(a->ndim, a->shape, b1, sizeof b1), cusci_shape_str(ndim, shape, b2, sizeof b2));
  int64_t strides[CUSCI_MAX_NDIM];
  int lead = ndim - a->ndim;
  for (int i = 0; i < ndim; i++) {
    if (i < lead) {
      strides[i] = 0;
      continue;
    }
    int64_t e = a->shape[i - lead];
    if (e == shape[i])
      strides[i] = a->strides[i - lead];
    else if (e == 1)
      strides[i] = 0;
    else
      CUSCI__FAIL(ctx, CUSCI_ERR_BROADCAST, "cannot broadcast shape %s to %s (axis %d: %lld vs %lld)",
                  cusci_shape_str(a->ndim, a->shape, b1, sizeof b1), cusci_shape_str(ndim, shape, b2, sizeof b2), i,
                  (long long)e, (long long)shape[i]);
  }
  return make_view(ctx, __func__, a, ndim, shape, strides, a->data, out);
}
