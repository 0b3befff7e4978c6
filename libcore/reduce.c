/*
 * libcore/reduce.c: NumPy's reductions: argument checks, the split of the
 * input's axes into kept and reduced ones, dispatch to the host loop
 * (reference/core/reduce.c) or the kernels (kernels/core/reduce.cu), and
 * the output convention. mean, var, std and nanmean are built from the
 * reductions and the ufuncs, as NumPy builds them.
 */
#include "libcore/internal.h"

#include <string.h>

#include <cusci/compute.h>

#include "kernels/core/launch.h"
#include "libcore/backend.h"
#include "libcore/reduce.h"
#include "reference/core/arg_ops.h"
#include "reference/core/reduce.h"
#include "reference/core/reduce_ops.h"

static const char *const rop_names[CUSCI__R_NOPS] = {"sum", "prod", "max", "min", "any", "all",
                                                     "nansum", "nanmax", "nanmin"};

/* The dtype an input reduces in: its kind's widest type (reduce_ops.h). */
static cusci_dtype acc_dtype(cusci_dtype dt)
{
  switch (cusci_dtype_kind(dt)) {
  case 'b':
  case 'i': return CUSCI_INT64;
  case 'u': return CUSCI_UINT64;
  case 'f': return CUSCI_FLOAT64;
  default: return CUSCI_COMPLEX128;
  }
}

/* The axes of a that are reduced (mask[d] true). */
/* The axes a reduction runs over: all (naxes 0) or the named ones, at
 * most max_axes of them (argscan.c's take one, as NumPy an int). */
static cusci_status axes_mask(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_reduce_opts *o,
                              int max_axes, bool *mask)
{
  int nd = a->ndim;
  memset(mask, 0, CUSCI_MAX_NDIM * sizeof *mask);
  if (!o || o->naxes == 0) {
    for (int d = 0; d < nd; d++)
      mask[d] = true;
    return CUSCI_OK;
  }
  if (max_axes == 1 && o->naxes != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "naxes is %d; this function takes one axis or none (naxes 0)",
                          o->naxes);
  if (o->naxes < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "naxes is %d", o->naxes);
  if (!o->axes)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "opts->axes is NULL with naxes %d", o->naxes);
  for (int i = 0; i < o->naxes; i++) {
    int ax = o->axes[i];
    if (ax < -nd || ax >= nd)
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of bounds for an array of dimension %d", ax, nd);
    if (ax < 0)
      ax += nd;
    if (mask[ax])
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is repeated", o->axes[i]);
    mask[ax] = true;
  }
  return CUSCI_OK;
}

/* The result's shape: the kept axes, and the reduced ones as 1 with keepdims. */
static int out_shape(const cusci_array *a, const bool *mask, bool keepdims, int64_t *shape)
{
  int n = 0;
  for (int d = 0; d < a->ndim; d++) {
    if (!mask[d])
      shape[n++] = a->shape[d];
    else if (keepdims)
      shape[n++] = 1;
  }
  return n;
}

/*
 * Reduce a over the axes in mask into a new C-ordered array *acc of the
 * accumulator dtype and the kept axes' shape. *count is the number of
 * elements reduced into each result.
 */
static cusci_status reduce_acc(cusci_ctx *ctx, const char *fn, const cusci_array *a, const bool *mask, int op,
                               cusci_array **acc, int64_t *count)
{
  int64_t kshape[CUSCI_MAX_NDIM], kstr[CUSCI_MAX_NDIM], rshape[CUSCI_MAX_NDIM], rstr[CUSCI_MAX_NDIM];
  int nk = 0, nr = 0;
  int64_t r = 1;
  for (int d = 0; d < a->ndim; d++) {
    if (mask[d]) {
      rshape[nr] = a->shape[d];
      rstr[nr++] = a->strides[d];
      r *= a->shape[d];
    } else {
      kshape[nk] = a->shape[d];
      kstr[nk++] = a->strides[d];
    }
  }
  *count = r;
  cusci_array *t = NULL;
  CUSCI_TRY(cusci__array_new(ctx, fn, nk, kshape, acc_dtype(a->dtype), &t));
  cusci_loop kept, red;
  const int64_t *ks[2] = {t->strides, kstr}, *rs[1] = {rstr};
  cusci_loop_init(&kept, nk, kshape, 2, ks);
  cusci_loop_init(&red, nr, rshape, 1, rs);
  cusci_status st = CUSCI_OK;
  if (t->size == 0) {
    /* nothing to reduce into */
  } else if (ctx->device < 0) {
    cusci__host_reduce(op, a->dtype, &kept, &red, t->data, a->data);
  } else {
    /* About 4096 blocks in all, each over at least 2048 elements. */
    int64_t chunks = (r + 2047) / 2048, cap = t->size >= 4096 ? 1 : 4096 / t->size;
    if (chunks > cap)
      chunks = cap;
    if (chunks < 1)
      chunks = 1;
    cusci_array *scratch = NULL;
    if (chunks > 1) {
      int64_t n = t->size * chunks;
      st = cusci__array_new(ctx, fn, 1, &n, t->dtype, &scratch);
    }
    if (st == CUSCI_OK)
      st = cusci__gpu_use(ctx, fn);
    if (st == CUSCI_OK)
      st = cusci_ctx_gpu_status(ctx, fn, NULL,
                               cusci__launch_reduce(ctx->stream, op, a->dtype, &kept, &red, t->data, a->data,
                                                    scratch ? scratch->data : NULL, (int)chunks));
    cusci_array_release(scratch);
  }
  if (st != CUSCI_OK) {
    cusci_array_release(t);
    return st;
  }
  *acc = t;
  return CUSCI_OK;
}

/*
 * Deliver `r` (C-ordered, the kept shape; released here) as the result of
 * dtype `result` and shape (nd, shape) under the output convention.
 */
cusci_status cusci__reduce_deliver(cusci_ctx *ctx, const char *fn, cusci_array *r, cusci_dtype result, int nd,
                                   const int64_t *shape, cusci_array **out)
{
  int64_t strides[CUSCI_MAX_NDIM];
  cusci__c_strides(nd, shape, strides);
  cusci_array *v = NULL;
  cusci_status st = cusci__array_view(ctx, fn, r, nd, shape, strides, r->data, &v);
  cusci_array_release(r);
  if (st != CUSCI_OK)
    return st;
  cusci_array *given = *out, *target = given;
  if (given) {
    st = cusci_check_out(ctx, fn, out, nd, shape, result, CUSCI_CASTING_SAME_KIND);
  } else if (v->dtype == result) {
    *out = v;
    return CUSCI_OK;
  } else {
    st = cusci__array_new(ctx, fn, nd, shape, result, &target);
  }
  if (st == CUSCI_OK)
    st = cusci__copy_into(ctx, fn, target, v);
  cusci_array_release(v);
  if (st == CUSCI_OK)
    *out = target;
  else if (target != given)
    cusci_array_release(target);
  return st;
}

cusci_status cusci__reduce_check(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_reduce_opts *opts,
                                 int max_axes, cusci_array **out, bool *mask)
{
  CUSCI_ENTRY(ctx, fn, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  return axes_mask(ctx, fn, a, opts, max_axes, mask);
}

/* sum, prod, min, max, any, all and the nan variants. */
static cusci_status plain(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_reduce_opts *opts, int op,
                          cusci_array **out)
{
  bool mask[CUSCI_MAX_NDIM];
  CUSCI_TRY(cusci__reduce_check(ctx, fn, a, opts, CUSCI_MAX_NDIM, out, mask));
  char k = cusci_dtype_kind(a->dtype);
  bool minmax = op == CUSCI__R_MAX || op == CUSCI__R_MIN || op == CUSCI__R_NANMAX || op == CUSCI__R_NANMIN;
  int64_t r = 1;
  for (int d = 0; d < a->ndim; d++)
    if (mask[d])
      r *= a->shape[d];
  if (minmax && r == 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "zero-size array to reduction operation %s which has no identity",
                rop_names[op]);
  cusci_dtype result = a->dtype;
  if (op == CUSCI__R_ANY || op == CUSCI__R_ALL)
    result = CUSCI_BOOL;
  else if (!minmax && (k == 'b' || k == 'i' || k == 'u'))
    result = acc_dtype(a->dtype);
  int64_t shape[CUSCI_MAX_NDIM];
  int nd = out_shape(a, mask, opts && opts->keepdims, shape);
  cusci_array *acc = NULL;
  if (minmax && k == 'c') {
    /* Complex values order lexicographically; the element an arg-reduction
     * picks is the one NumPy's maximum/fmax reductions return. */
    static const int aops[CUSCI__R_NOPS] = {[CUSCI__R_MAX] = CUSCI__A_ARGMAX, [CUSCI__R_MIN] = CUSCI__A_ARGMIN,
                                            [CUSCI__R_NANMAX] = CUSCI__A_SKIPMAX,
                                            [CUSCI__R_NANMIN] = CUSCI__A_SKIPMIN};
    CUSCI_TRY(cusci__argreduce_values(ctx, fn, a, mask, aops[op], &acc));
    return cusci__reduce_deliver(ctx, fn, acc, result, nd, shape, out);
  }
  int64_t count;
  CUSCI_TRY(reduce_acc(ctx, fn, a, mask, op, &acc, &count));
  return cusci__reduce_deliver(ctx, fn, acc, result, nd, shape, out);
}

#define PLAIN_(name, OP)                                                                                    \
  cusci_status cusci_##name(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out) \
  {                                                                                                         \
    return plain(ctx, __func__, a, opts, OP, out);                                                          \
  }
PLAIN_(sum, CUSCI__R_SUM)
PLAIN_(prod, CUSCI__R_PROD)
PLAIN_(min, CUSCI__R_MIN)
PLAIN_(max, CUSCI__R_MAX)
PLAIN_(any, CUSCI__R_ANY)
PLAIN_(all, CUSCI__R_ALL)
PLAIN_(nansum, CUSCI__R_NANSUM)
PLAIN_(nanmin, CUSCI__R_NANMIN)
PLAIN_(nanmax, CUSCI__R_NANMAX)

/* The float dtype of a mean: float64 for bool and integers. */
static cusci_dtype mean_dtype(cusci_dtype dt)
{
  char k = cusci_dtype_kind(dt);
  return (k == 'b' || k == 'i' || k == 'u') ? CUSCI_FLOAT64 : dt;
}

/*
 * numpy.mean: the sum in double (a pair for complex) divided by the count,
 * rounded once to the result dtype. nanmean divides the nansum by the
 * number of non-NaN elements.
 */
static cusci_status mean(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_reduce_opts *opts, bool nan,
                         cusci_array **out)
{
  bool mask[CUSCI_MAX_NDIM];
  CUSCI_TRY(cusci__reduce_check(ctx, fn, a, opts, CUSCI_MAX_NDIM, out, mask));
  int64_t shape[CUSCI_MAX_NDIM];
  int nd = out_shape(a, mask, opts && opts->keepdims, shape);
  /* Integers are summed as float64, as NumPy's mean does. */
  cusci_array *af = NULL;
  char k = cusci_dtype_kind(a->dtype);
  if (k == 'b' || k == 'i' || k == 'u')
    CUSCI_TRY(cusci_array_astype(ctx, (cusci_array *)a, CUSCI_FLOAT64, true, &af));
  const cusci_array *src = af ? af : a;
  cusci_array *acc = NULL, *q = NULL;
  int64_t count;
  cusci_status st = reduce_acc(ctx, fn, src, mask, nan ? CUSCI__R_NANSUM : CUSCI__R_SUM, &acc, &count);
  if (st == CUSCI_OK && !nan) {
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(acc), cusci_operand_float((double)count), &q);
  } else if (st == CUSCI_OK) {
    /* The count of non-NaN elements per result. */
    cusci_array *isn = NULL, *cnt = NULL;
    st = cusci_isnan(ctx, src, &isn);
    if (st == CUSCI_OK)
      st = cusci_logical_not(ctx, isn, &isn);
    int64_t c2;
    if (st == CUSCI_OK)
      st = reduce_acc(ctx, fn, isn, mask, CUSCI__R_SUM, &cnt, &c2);
    if (st == CUSCI_OK)
      st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(acc), cusci_operand_array(cnt), &q);
    cusci_array_release(isn);
    cusci_array_release(cnt);
  }
  cusci_array_release(acc);
  cusci_array_release(af);
  if (st != CUSCI_OK) {
    cusci_array_release(q);
    return st;
  }
  return cusci__reduce_deliver(ctx, fn, q, mean_dtype(a->dtype), nd, shape, out);
}

cusci_status cusci_mean(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out)
{
  return mean(ctx, __func__, a, opts, false, out);
}

cusci_status cusci_nanmean(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out)
{
  return mean(ctx, __func__, a, opts, true, out);
}

/*
 * numpy.var: mean(|x - mean(x)|^2) with the divisor N - ddof (numpy's
 * _var: the deviations from the mean kept as the input's float dtype, their
 * squared magnitudes summed). std is its square root.
 */
static cusci_status var(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_reduce_opts *opts, bool sd,
                        cusci_array **out)
{
  bool mask[CUSCI_MAX_NDIM];
  CUSCI_TRY(cusci__reduce_check(ctx, fn, a, opts, CUSCI_MAX_NDIM, out, mask));
  int64_t shape[CUSCI_MAX_NDIM];
  int nd = out_shape(a, mask, opts && opts->keepdims, shape);
  cusci_reduce_opts keep = {0};
  if (opts)
    keep = *opts;
  keep.keepdims = true;
  cusci_array *m = NULL, *dev = NULL, *sq = NULL, *acc = NULL, *q = NULL;
  int64_t count = 0;
  cusci_status st = mean(ctx, fn, a, &keep, false, &m);
  if (st == CUSCI_OK)
    st = cusci_subtract(ctx, a, m, &dev);
  if (st == CUSCI_OK && cusci_dtype_kind(dev->dtype) == 'c')
    st = cusci_abs(ctx, dev, &sq);
  if (st == CUSCI_OK)
    st = cusci_square(ctx, sq ? sq : dev, &sq);
  if (st == CUSCI_OK)
    st = reduce_acc(ctx, fn, sq, mask, CUSCI__R_SUM, &acc, &count);
  double div = (double)(count - (opts ? opts->ddof : 0));
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(acc),
                            cusci_operand_float(div > 0 ? div : 0.0), &q);
  if (st == CUSCI_OK && sd)
    st = cusci_sqrt(ctx, q, &q);
  cusci_array *arrs[] = {m, dev, sq, acc};
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
    cusci_array_release(arrs[i]);
  if (st != CUSCI_OK) {
    cusci_array_release(q);
    return st;
  }
  cusci_dtype result = mean_dtype(a->dtype);
  if (result == CUSCI_COMPLEX64)
    result = CUSCI_FLOAT32;
  else if (result == CUSCI_COMPLEX128)
    result = CUSCI_FLOAT64;
  return cusci__reduce_deliver(ctx, fn, q, result, nd, shape, out);
}

cusci_status cusci_var(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out)
{
  return var(ctx, __func__, a, opts, false, out);
}

cusci_status cusci_std(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out)
{
  return var(ctx, __func__, a, opts, true, out);
}
