/*
 * libcore/argscan.c: NumPy's arg-reductions (argmax, argmin, nanargmax,
 * nanargmin) and scans (cumsum, cumprod, nancumsum, nancumprod): argument
 * checks, the split of the input's axes, dispatch to the host loops
 * (reference/core/argscan.c) or the kernels (kernels/core/argreduce.cu,
 * kernels/core/scan.cu), and the output convention.
 *
 * Both take cusci_reduce_opts with one rule: naxes 0 is NumPy's axis=None
 * (argmax over the flattened array, giving a flat C-order index; a scan of
 * the flattened array, giving a 1-d result), naxes 1 names the one axis,
 * and more axes are CUSCI_ERR_AXIS, as NumPy takes a single int there.
 */
#include "libcore/internal.h"

#include <cusci/compute.h>

#include "kernels/core/launch.h"
#include "libcore/backend.h"
#include "libcore/reduce.h"
#include "reference/core/arg_ops.h"
#include "reference/core/argscan.h"
#include "reference/core/scan_ops.h"

/*
 * The loops of a split by mask: kept (operand 0: a C-ordered array of the
 * kept shape, operand 1: a) and red (operand 0: a). Returns the kept
 * shape's rank.
 */
static int split(const cusci_array *a, const bool *mask, int64_t *kshape, cusci_loop *kept, cusci_loop *red)
{
  int64_t kstr[CUSCI_MAX_NDIM], rshape[CUSCI_MAX_NDIM], rstr[CUSCI_MAX_NDIM], cstr[CUSCI_MAX_NDIM];
  int nk = 0, nr = 0;
  for (int d = 0; d < a->ndim; d++) {
    if (mask[d]) {
      rshape[nr] = a->shape[d];
      rstr[nr++] = a->strides[d];
    } else {
      kshape[nk] = a->shape[d];
      kstr[nk++] = a->strides[d];
    }
  }
  cusci__c_strides(nk, kshape, cstr);
  const int64_t *ks[2] = {cstr, kstr}, *rs[1] = {rstr};
  cusci_loop_init(kept, nk, kshape, 2, ks);
  cusci_loop_init(red, nr, rshape, 1, rs);
  return nk;
}

/* The int64 indices of arg-reduction aop over mask, C-ordered in the kept
 * shape, in *idx; the loops in kept and red. */
static cusci_status arg_indices(cusci_ctx *ctx, const char *fn, const cusci_array *a, const bool *mask, int aop,
                                cusci_array **idx, cusci_loop *kept, cusci_loop *red)
{
  int64_t kshape[CUSCI_MAX_NDIM];
  int nk = split(a, mask, kshape, kept, red);
  cusci_array *t = NULL;
  CUSCI_TRY(cusci__array_new(ctx, fn, nk, kshape, CUSCI_INT64, &t));
  cusci_status st = CUSCI_OK;
  if (t->size == 0) {
    /* nothing to reduce into */
  } else if (ctx->device < 0) {
    cusci__host_argreduce(aop, a->dtype, kept, red, (int64_t *)t->data, a->data);
  } else {
    /* About 4096 blocks in all, each over at least 2048 elements. */
    int64_t r = red->size, chunks = (r + 2047) / 2048, cap = t->size >= 4096 ? 1 : 4096 / t->size;
    if (chunks > cap)
      chunks = cap;
    if (chunks < 1)
      chunks = 1;
    cusci_array *scratch = NULL;
    int64_t n = t->size * chunks * 32; /* bytes: a pair is at most 32 */
    st = cusci__array_new(ctx, fn, 1, &n, CUSCI_UINT8, &scratch);
    if (st == CUSCI_OK)
      st = cusci__gpu_use(ctx, fn);
    if (st == CUSCI_OK)
      st = cusci_ctx_gpu_status(ctx, fn, NULL,
                               cusci__launch_argreduce(ctx->stream, aop, a->dtype, kept, red, (int64_t *)t->data,
                                                       a->data, scratch->data, (int)chunks));
    cusci_array_release(scratch);
  }
  if (st != CUSCI_OK) {
    cusci_array_release(t);
    return st;
  }
  *idx = t;
  return CUSCI_OK;
}

cusci_status cusci__argreduce_values(cusci_ctx *ctx, const char *fn, const cusci_array *a, const bool *mask, int aop,
                                     cusci_array **vals)
{
  cusci_loop kept, red;
  cusci_array *idx = NULL, *v = NULL;
  CUSCI_TRY(arg_indices(ctx, fn, a, mask, aop, &idx, &kept, &red));
  cusci_status st = cusci__array_new(ctx, fn, idx->ndim, idx->shape, a->dtype, &v);
  int itemsize = (int)cusci_dtype_itemsize(a->dtype);
  if (st == CUSCI_OK && v->size > 0) {
    if (ctx->device < 0)
      cusci__host_gather(itemsize, &kept, &red, v->data, (const int64_t *)idx->data, a->data);
    else
      st = cusci_ctx_gpu_status(ctx, fn, NULL,
                               cusci__launch_gather(ctx->stream, itemsize, &kept, &red, v->data,
                                                    (const int64_t *)idx->data, a->data));
  }
  cusci_array_release(idx);
  if (st != CUSCI_OK) {
    cusci_array_release(v);
    return st;
  }
  *vals = v;
  return CUSCI_OK;
}

/* True when some index is negative (an all-NaN slice); waits for the GPU. */
static cusci_status any_negative(cusci_ctx *ctx, const cusci_array *idx, bool *neg)
{
  *neg = false;
  if (idx->size == 0)
    return CUSCI_OK;
  if (ctx->device < 0) {
    const int64_t *p = (const int64_t *)idx->data;
    for (int64_t i = 0; i < idx->size; i++)
      if (p[i] < 0)
        *neg = true;
    return CUSCI_OK;
  }
  cusci_array *mn = NULL;
  int64_t v = 0;
  cusci_status st = cusci_min(ctx, idx, NULL, &mn);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, mn, &v, sizeof v);
  cusci_array_release(mn);
  *neg = v < 0;
  return st;
}

static const char *const aop_names[CUSCI__A_NOPS] = {"argmax", "argmin", "nanargmax", "nanargmin", "nanmax",
                                                     "nanmin"};

static cusci_status argreduce(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_reduce_opts *opts,
                              int aop, cusci_array **out)
{
  bool mask[CUSCI_MAX_NDIM];
  CUSCI_TRY(cusci__reduce_check(ctx, fn, a, opts, 1, out, mask));
  int64_t r = 1, shape[CUSCI_MAX_NDIM];
  int nd = 0;
  bool keep = opts && opts->keepdims;
  for (int d = 0; d < a->ndim; d++) {
    if (mask[d])
      r *= a->shape[d];
    if (!mask[d] || keep)
      shape[nd++] = mask[d] ? 1 : a->shape[d];
  }
  if (r == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "attempt to get %s of an empty sequence", aop_names[aop]);
  cusci_loop kept, red;
  cusci_array *idx = NULL;
  CUSCI_TRY(arg_indices(ctx, fn, a, mask, aop, &idx, &kept, &red));
  if (aop == CUSCI__A_NANARGMAX || aop == CUSCI__A_NANARGMIN) {
    bool neg = false;
    cusci_status st = any_negative(ctx, idx, &neg);
    if (st == CUSCI_OK && neg)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "All-NaN slice encountered");
    if (st != CUSCI_OK) {
      cusci_array_release(idx);
      return st;
    }
  }
  return cusci__reduce_deliver(ctx, fn, idx, CUSCI_INT64, nd, shape, out);
}

#define ARG_(name, AOP)                                                                                       \
  cusci_status cusci_##name(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out) \
  {                                                                                                           \
    return argreduce(ctx, __func__, a, opts, AOP, out);                                                       \
  }
ARG_(argmax, CUSCI__A_ARGMAX)
ARG_(argmin, CUSCI__A_ARGMIN)
ARG_(nanargmax, CUSCI__A_NANARGMAX)
ARG_(nanargmin, CUSCI__A_NANARGMIN)

/* The dtype a scan gives: NumPy's add.accumulate and multiply.accumulate. */
static cusci_dtype scan_dtype(cusci_dtype dt)
{
  switch (cusci_dtype_kind(dt)) {
  case 'b':
  case 'i': return CUSCI_INT64;
  case 'u': return CUSCI_UINT64;
  default: return dt;
  }
}

/*
 * A scan of a along the axis in mask (or all of them, flattened in C
 * order): the result is computed into a C-ordered array of a's shape, which
 * is then a's shape or, flattened, 1-d.
 */
static cusci_status scan(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_reduce_opts *opts, int sop,
                         cusci_array **out)
{
  bool mask[CUSCI_MAX_NDIM];
  CUSCI_TRY(cusci__reduce_check(ctx, fn, a, opts, 1, out, mask));
  bool flat = !opts || opts->naxes == 0;
  cusci_dtype result = scan_dtype(a->dtype);
  cusci_array *t = NULL;
  CUSCI_TRY(cusci__array_new(ctx, fn, a->ndim, a->shape, result, &t));
  int64_t kshape[CUSCI_MAX_NDIM], ko[CUSCI_MAX_NDIM], ki[CUSCI_MAX_NDIM], rshape[CUSCI_MAX_NDIM],
    ro[CUSCI_MAX_NDIM], ri[CUSCI_MAX_NDIM];
  int nk = 0, nr = 0;
  for (int d = 0; d < a->ndim; d++) {
    if (mask[d]) {
      rshape[nr] = a->shape[d];
      ro[nr] = t->strides[d];
      ri[nr++] = a->strides[d];
    } else {
      kshape[nk] = a->shape[d];
      ko[nk] = t->strides[d];
      ki[nk++] = a->strides[d];
    }
  }
  cusci_loop kept, red;
  const int64_t *ks[2] = {ko, ki}, *rs[2] = {ro, ri};
  cusci_loop_init(&kept, nk, kshape, 2, ks);
  cusci_loop_init(&red, nr, rshape, 2, rs);
  cusci_status st = CUSCI_OK;
  if (t->size == 0) {
    /* nothing to scan */
  } else if (ctx->device < 0) {
    cusci__host_scan(sop, a->dtype, &kept, &red, t->data, a->data);
  } else {
    size_t bytes = 0;
    cusci_array *scratch = NULL;
    st = cusci__gpu_use(ctx, fn);
    if (st == CUSCI_OK)
      st = cusci_ctx_gpu_status(ctx, fn, NULL, cusci__launch_scan_scratch(sop, a->dtype, &kept, &red, &bytes));
    if (st == CUSCI_OK && bytes > 0) {
      int64_t n = (int64_t)bytes;
      st = cusci__array_new(ctx, fn, 1, &n, CUSCI_UINT8, &scratch);
    }
    if (st == CUSCI_OK)
      st = cusci_ctx_gpu_status(ctx, fn, NULL,
                               cusci__launch_scan(ctx->stream, sop, a->dtype, &kept, &red, t->data, a->data,
                                                  scratch ? scratch->data : NULL, bytes));
    cusci_array_release(scratch);
  }
  if (st != CUSCI_OK) {
    cusci_array_release(t);
    return st;
  }
  int64_t n = a->size;
  return cusci__reduce_deliver(ctx, fn, t, result, flat ? 1 : a->ndim, flat ? &n : a->shape, out);
}

#define SCAN_(name, SOP)                                                                                      \
  cusci_status cusci_##name(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out) \
  {                                                                                                           \
    return scan(ctx, __func__, a, opts, SOP, out);                                                            \
  }
SCAN_(cumsum, CUSCI__S_SUM)
SCAN_(cumprod, CUSCI__S_PROD)
SCAN_(nancumsum, CUSCI__S_NANSUM)
SCAN_(nancumprod, CUSCI__S_NANPROD)
