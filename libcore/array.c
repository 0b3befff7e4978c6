/*
 * libcore/array.c: the array object, creation, transfers and astype.
 */
#include "libcore/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/core/launch.h"
#include "libcore/backend.h"
#include "libcore/transfer.h"
#include "reference/core/reference.h"

/* ------------------------------------------------------------- objects */

void cusci__c_strides(int ndim, const int64_t *shape, int64_t *strides)
{
  int64_t s = 1;
  for (int i = ndim - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i] > 0 ? shape[i] : 1;
  }
}

static cusci_array *array_alloc(cusci_ctx *ctx, const char *fn)
{
  cusci_array *a = calloc(1, sizeof *a);
  if (!a)
    cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for an array header");
  return a;
}

cusci_status cusci__array_new(cusci_ctx *ctx, const char *fn, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  cusci_array *a = array_alloc(ctx, fn);
  if (!a)
    return CUSCI_ERR_OUT_OF_MEMORY;
  int64_t size = 1;
  for (int i = 0; i < ndim; i++)
    size *= shape[i];
  cusci_status st = cusci__storage_new(ctx, fn, (size_t)size * cusci__itemsize[dtype], &a->storage);
  if (st != CUSCI_OK) {
    free(a);
    return st;
  }
  atomic_init(&a->refs, 1);
  a->ndim = ndim;
  a->dtype = dtype;
  a->device = ctx->device;
  a->size = size;
  a->data = a->storage->ptr;
  if (ndim > 0)
    memcpy(a->shape, shape, (size_t)ndim * sizeof *shape);
  cusci__c_strides(ndim, shape, a->strides);
  *out = a;
  return CUSCI_OK;
}

cusci_status cusci__array_view(cusci_ctx *ctx, const char *fn, const cusci_array *base, int ndim, const int64_t *shape,
                               const int64_t *strides, char *data, cusci_array **out)
{
  cusci_array *a = array_alloc(ctx, fn);
  if (!a)
    return CUSCI_ERR_OUT_OF_MEMORY;
  atomic_init(&a->refs, 1);
  a->ndim = ndim;
  a->dtype = base->dtype;
  a->device = base->device;
  a->data = data;
  a->storage = base->storage;
  atomic_fetch_add(&a->storage->refs, 1);
  a->size = 1;
  for (int i = 0; i < ndim; i++) {
    a->shape[i] = shape[i];
    a->strides[i] = strides[i];
    a->size *= shape[i];
  }
  *out = a;
  return CUSCI_OK;
}

cusci_status cusci_array_wrap(cusci_ctx *ctx, void *data, int ndim, const int64_t *shape, const int64_t *strides,
                              cusci_dtype dtype, cusci_array **out)
{
  return cusci__array_wrap(ctx, __func__, data, ndim, shape, strides, dtype, NULL, NULL, out);
}

cusci_status cusci__array_wrap(cusci_ctx *ctx, const char *fn, void *data, int ndim, const int64_t *shape,
                               const int64_t *strides, cusci_dtype dtype, void (*release)(void *), void *owner,
                               cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, out);
  CUSCI_TRY(cusci_check_dtype(ctx, fn, "dtype", dtype));
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim, shape, cusci__itemsize[dtype]));
  int64_t size = 1;
  for (int i = 0; i < ndim; i++)
    size *= shape[i];
  if (!data && size)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "data is NULL");
  /* Kernels load an element whole (a complex128 as one 16-byte value), so
   * an element must start at a multiple of its size, as in every array
   * cusci makes. */
  size_t item = cusci__itemsize[dtype];
  if (data && size && (uintptr_t)data % item != 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "data (%p) is not aligned to %zu bytes, the size of a %s element", data, item,
                          cusci_dtype_name(dtype));
  if (data && size) {
    int where = cusci__gpu_pointer_device(data);
    if (ctx->device >= 0 && where != ctx->device)
      return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "data is not memory of GPU %d (%s)", ctx->device,
                            where == CUSCI_DEVICE_HOST ? "it is host memory" : "it belongs to another device");
    if (ctx->device < 0 && where >= 0)
      return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "data is memory of GPU %d, the context is on the host", where);
  }
  cusci__storage *st = calloc(1, sizeof *st);
  cusci_array *a = calloc(1, sizeof *a);
  if (!st || !a) {
    free(st);
    free(a);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for an array header");
  }
  atomic_init(&st->refs, 1);
  st->device = ctx->device;
  st->ptr = data;
  st->nbytes = (size_t)size * cusci__itemsize[dtype];
  st->owned = false;
  st->release = release;
  st->owner = owner;
  atomic_init(&a->refs, 1);
  a->ndim = ndim;
  a->dtype = dtype;
  a->device = ctx->device;
  a->size = size;
  a->data = data;
  a->storage = st;
  for (int i = 0; i < ndim; i++)
    a->shape[i] = shape[i];
  if (strides)
    for (int i = 0; i < ndim; i++)
      a->strides[i] = strides[i];
  else
    cusci__c_strides(ndim, shape, a->strides);
  *out = a;
  return CUSCI_OK;
}

cusci_array *cusci_array_retain(cusci_array *a)
{
  if (a)
    atomic_fetch_add(&a->refs, 1);
  return a;
}

void cusci_array_release(cusci_array *a)
{
  if (!a || atomic_fetch_sub(&a->refs, 1) != 1)
    return;
  cusci__storage_release(a->storage);
  free(a);
}

int cusci_array_ndim(const cusci_array *a) { return a ? a->ndim : 0; }
const int64_t *cusci_array_shape(const cusci_array *a) { return a ? a->shape : NULL; }
const int64_t *cusci_array_strides(const cusci_array *a) { return a ? a->strides : NULL; }
cusci_dtype cusci_array_dtype(const cusci_array *a) { return a ? a->dtype : CUSCI_BOOL; }
int64_t cusci_array_size(const cusci_array *a) { return a ? a->size : 0; }
size_t cusci_array_nbytes(const cusci_array *a) { return a ? (size_t)a->size * cusci__itemsize[a->dtype] : 0; }
int cusci_array_device(const cusci_array *a) { return a ? a->device : CUSCI_DEVICE_HOST; }
void *cusci_array_data(const cusci_array *a) { return a ? a->data : NULL; }

bool cusci_array_is_c_contiguous(const cusci_array *a)
{
  if (!a)
    return false;
  int64_t s = 1;
  for (int i = a->ndim - 1; i >= 0; i--) {
    if (a->shape[i] == 0)
      return true;
    if (a->shape[i] != 1 && a->strides[i] != s)
      return false;
    s *= a->shape[i];
  }
  return true;
}

/* ------------------------------------------------- element-wise copies */

static void loop_of(cusci_loop *loop, const cusci_array *dst, const cusci_array *src)
{
  const int64_t *strides[2] = {dst->strides, src ? src->strides : NULL};
  cusci_loop_init(loop, dst->ndim, dst->shape, src ? 2 : 1, strides);
}

cusci_status cusci__copy_into(cusci_ctx *ctx, const char *fn, cusci_array *dst, const cusci_array *src)
{
  if (dst->size == 0 || (dst->data == src->data && dst->dtype == src->dtype &&
                         memcmp(dst->strides, src->strides, (size_t)dst->ndim * sizeof(int64_t)) == 0))
    return CUSCI_OK;
  cusci_loop loop;
  loop_of(&loop, dst, src);
  bool plain = dst->dtype == src->dtype && cusci_loop_contiguous(&loop);
  size_t nbytes = (size_t)dst->size * cusci__itemsize[dst->dtype];
  if (ctx->device < 0) {
    if (plain)
      memmove(dst->data, src->data, nbytes);
    else
      cusci__host_astype(dst->dtype, src->dtype, &loop, dst->data, src->data);
    return CUSCI_OK;
  }
  if (plain)
    return cusci__gpu_memcpy_d2d(ctx, fn, dst->data, src->data, nbytes);
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  return cusci_ctx_gpu_status(ctx, fn, NULL, cusci__launch_astype(ctx->stream, dst->dtype, src->dtype, &loop, dst->data, src->data));
}

cusci_status cusci_give_out(cusci_ctx *ctx, const char *fn, cusci_array *res, cusci_array **out)
{
  if (!*out) {
    *out = res;
    return CUSCI_OK;
  }
  /* A result computed in *out's elements is there already. */
  cusci_status st = res == *out ? CUSCI_OK : cusci__copy_into(ctx, fn, *out, res);
  if (res != *out)
    cusci_array_release(res);
  return st;
}

/* Fill every element of `a` with the itemsize bytes at `value` (host memory). */
static cusci_status fill(cusci_ctx *ctx, const char *fn, cusci_array *a, const void *value)
{
  if (a->size == 0)
    return CUSCI_OK;
  cusci_loop loop;
  loop_of(&loop, a, NULL);
  int itemsize = (int)cusci__itemsize[a->dtype];
  if (ctx->device < 0) {
    cusci__host_fill(&loop, a->data, value, itemsize);
    return CUSCI_OK;
  }
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  return cusci_ctx_gpu_status(ctx, fn, NULL, cusci__launch_fill(ctx->stream, &loop, a->data, value, itemsize));
}

/* The value 1 (or 0) as one element of dtype, through the conversion table. */
static void scalar_of(cusci_dtype dtype, int64_t v, void *buf)
{
  cusci_loop loop;
  int64_t one = 1;
  const int64_t *strides[2] = {&one, &one};
  cusci_loop_init(&loop, 1, &one, 2, strides);
  cusci__host_astype(dtype, CUSCI_INT64, &loop, buf, &v);
}

/* ------------------------------------------------------------ creation */

/* The checks every creation function makes, then the output. */
static cusci_status create_check(cusci_ctx *ctx, const char *fn, int ndim, const int64_t *shape, cusci_dtype dtype,
                                 cusci_array **out, cusci_array **result)
{
  CUSCI_ENTRY(ctx, fn, out);
  CUSCI_TRY(cusci_check_dtype(ctx, fn, "dtype", dtype));
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim, shape, cusci__itemsize[dtype]));
  return cusci_prepare_out(ctx, fn, out, ndim, shape, dtype, result);
}

/* Store a finished result, or drop it after a failure. */
static cusci_status finish(cusci_status st, cusci_array **out, cusci_array *result)
{
  if (st == CUSCI_OK)
    *out = result;
  else if (result != *out)
    cusci_array_release(result);
  return st;
}

cusci_status cusci_array_empty(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  cusci_array *r;
  CUSCI_TRY(create_check(ctx, __func__, ndim, shape, dtype, out, &r));
  return finish(CUSCI_OK, out, r);
}

cusci_status cusci_array_full(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dtype, const void *value, cusci_array **out)
{
  if (ctx && !value)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "value is NULL");
  cusci_array *r;
  CUSCI_TRY(create_check(ctx, __func__, ndim, shape, dtype, out, &r));
  return finish(fill(ctx, __func__, r, value), out, r);
}

cusci_status cusci_array_zeros(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  cusci_array *r;
  CUSCI_TRY(create_check(ctx, __func__, ndim, shape, dtype, out, &r));
  cusci_status st;
  if (r->size && cusci_array_is_c_contiguous(r)) {
    size_t n = (size_t)r->size * cusci__itemsize[dtype];
    if (ctx->device < 0) {
      memset(r->data, 0, n);
      st = CUSCI_OK;
    } else {
      st = cusci__gpu_memset(ctx, __func__, r->data, 0, n);
    }
  } else {
    unsigned char zero[16] = {0};
    st = fill(ctx, __func__, r, zero);
  }
  return finish(st, out, r);
}

cusci_status cusci_array_ones(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  cusci_array *r;
  CUSCI_TRY(create_check(ctx, __func__, ndim, shape, dtype, out, &r));
  unsigned char one[16];
  scalar_of(dtype, 1, one);
  return finish(fill(ctx, __func__, r, one), out, r);
}

/*
 * Write n contiguous values of arange/linspace into r, computed on the
 * context's device. A given *out that is not contiguous gets them through a
 * contiguous temporary.
 */
static cusci_status generate(cusci_ctx *ctx, const char *fn, cusci_array *r, const cusci__arange_args *ar,
                             const cusci__linspace_args *ls)
{
  if (r->size == 0)
    return CUSCI_OK;
  cusci_array *t = r;
  if (!cusci_array_is_c_contiguous(r))
    CUSCI_TRY(cusci__array_new(ctx, fn, r->ndim, r->shape, r->dtype, &t));
  cusci_status st = CUSCI_OK;
  if (ctx->device < 0) {
    if (ar)
      cusci__host_arange(r->dtype, r->size, ar, t->data);
    else
      cusci__host_linspace(r->dtype, ls, t->data);
  } else {
    st = cusci__gpu_use(ctx, fn);
    if (st == CUSCI_OK)
      st = cusci_ctx_gpu_status(ctx, fn, NULL, ar ? cusci__launch_arange(ctx->stream, r->dtype, r->size, ar, t->data)
                                           : cusci__launch_linspace(ctx->stream, r->dtype, ls, t->data));
  }
  if (t != r) {
    if (st == CUSCI_OK)
      st = cusci__copy_into(ctx, fn, r, t);
    cusci_array_release(t);
  }
  return st;
}

cusci_status cusci_array_arange(cusci_ctx *ctx, double start, double stop, double step, cusci_dtype dtype, cusci_array **out)
{
  CUSCI_ENTRY_CTX(ctx, __func__);
  if (!isfinite(start) || !isfinite(stop) || !isfinite(step))
    CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "start, stop and step must be finite (got %g, %g, %g)", start, stop, step);
  if (step == 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "step is 0");
  double len = ceil((stop - start) / step);
  if (!(len < 9.2e18))
    CUSCI__FAIL(ctx, CUSCI_ERR_OVERFLOW, "arange(%g, %g, %g) has too many elements", start, stop, step);
  int64_t n = len > 0 ? (int64_t)len : 0;
  if (dtype == CUSCI_BOOL && n > 2)
    CUSCI__FAIL(ctx, CUSCI_ERR_DTYPE, "a bool arange has at most 2 elements, as in NumPy (this one has %lld)",
                (long long)n);
  cusci_array *r;
  CUSCI_TRY(create_check(ctx, __func__, 1, &n, dtype, out, &r));

  /* The first two elements, converted as NumPy's fill functions see them. */
  cusci__arange_args a;
  memset(&a, 0, sizeof a);
  double second = start + step;
  a.d0 = start;
  a.d1 = second;
  a.dd = second - start;
  if (dtype == CUSCI_FLOAT16) {
    a.f0 = (float)cusci_half_to_double(cusci_double_to_half(start));
    a.f1 = (float)cusci_half_to_double(cusci_double_to_half(second));
  } else {
    a.f0 = (float)start;
    a.f1 = (float)second;
  }
  a.fd = a.f1 - a.f0;
  a.i0 = cusci_to_INT64_from_F(start);
  a.i1 = cusci_to_INT64_from_F(second);
  a.id = (int64_t)((uint64_t)a.i1 - (uint64_t)a.i0);
  return finish(generate(ctx, __func__, r, &a, NULL), out, r);
}

cusci_status cusci_array_linspace(cusci_ctx *ctx, double start, double stop, int64_t num, bool endpoint, cusci_dtype dtype,
                                  cusci_array **out)
{
  CUSCI_ENTRY_CTX(ctx, __func__);
  if (num < 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "num is %lld, must be non-negative", (long long)num);
  if (!isfinite(start) || !isfinite(stop))
    CUSCI__FAIL(ctx, CUSCI_ERR_VALUE, "start and stop must be finite (got %g, %g)", start, stop);
  cusci_array *r;
  CUSCI_TRY(create_check(ctx, __func__, 1, &num, dtype, out, &r));
  cusci__linspace_args a;
  memset(&a, 0, sizeof a);
  int64_t div = endpoint ? num - 1 : num;
  a.start = start;
  a.stop = stop;
  a.delta = stop - start;
  a.div = (double)div;
  a.n = num;
  a.last_is_stop = endpoint && num > 1;
  if (div > 0) {
    a.step = a.delta / a.div;
    a.scaled = a.step == 0 && a.delta != 0;
  } else {
    a.step = 0; /* only element 0 exists: start */
  }
  return finish(generate(ctx, __func__, r, NULL, &a), out, r);
}

cusci_status cusci_array_eye(cusci_ctx *ctx, int64_t n, int64_t m, int64_t k, cusci_dtype dtype, cusci_array **out)
{
  CUSCI_ENTRY(ctx, __func__, out);
  if (m < 0)
    m = n;
  int64_t shape[2] = {n, m};
  /* zeros applies the output convention and every check. */
  cusci_array *given = *out, *r = given;
  CUSCI_TRY(cusci_array_zeros(ctx, 2, shape, dtype, &r));
  /* The k-th diagonal as a 1-d view: start (max(0,-k), max(0,k)), step
   * one row and one column. */
  int64_t i0 = k < 0 ? -k : 0, j0 = k > 0 ? k : 0;
  int64_t len = 0;
  if (i0 < n && j0 < m)
    len = (n - i0 < m - j0) ? n - i0 : m - j0;
  cusci_status st = CUSCI_OK;
  if (len > 0) {
    cusci_array *diag;
    int64_t stride = r->strides[0] + r->strides[1];
    char *data = r->data + (i0 * r->strides[0] + j0 * r->strides[1]) * (int64_t)cusci__itemsize[dtype];
    st = cusci__array_view(ctx, __func__, r, 1, &len, &stride, data, &diag);
    if (st == CUSCI_OK) {
      unsigned char one[16];
      scalar_of(dtype, 1, one);
      st = fill(ctx, __func__, diag, one);
      cusci_array_release(diag);
    }
  }
  if (st != CUSCI_OK) {
    if (r != given)
      cusci_array_release(r);
    return st;
  }
  *out = r;
  return CUSCI_OK;
}

/* ----------------------------------------------------------- transfers */

static cusci_status from_host(cusci_ctx *ctx, const char *fn, const void *src, int ndim, const int64_t *shape,
                              cusci_dtype dtype, bool wait, cusci_array **out)
{
  cusci_array *r;
  CUSCI_TRY(create_check(ctx, fn, ndim, shape, dtype, out, &r));
  size_t n = (size_t)r->size * cusci__itemsize[dtype];
  if (!src && n) {
    finish(CUSCI_ERR_NULL_POINTER, out, r);
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "src is NULL");
  }
  cusci_status st = CUSCI_OK;
  bool contiguous = cusci_array_is_c_contiguous(r);
  if (ctx->device < 0) {
    if (contiguous) {
      if (n)
        memcpy(r->data, src, n);
    } else {
      cusci_array tmp = *r;
      tmp.data = (char *)src;
      cusci__c_strides(ndim, shape, tmp.strides);
      st = cusci__copy_into(ctx, fn, r, &tmp);
    }
    return finish(st, out, r);
  }
  cusci_array *t = r;
  if (!contiguous)
    st = cusci__array_new(ctx, fn, ndim, shape, dtype, &t);
  if (st == CUSCI_OK)
    st = cusci__h2d(ctx, fn, t->data, src, n, wait);
  if (st == CUSCI_OK && t != r)
    st = cusci__copy_into(ctx, fn, r, t);
  if (t != r)
    cusci_array_release(t);
  return finish(st, out, r);
}

cusci_status cusci_array_from_host(cusci_ctx *ctx, const void *src, int ndim, const int64_t *shape, cusci_dtype dtype,
                                   cusci_array **out)
{
  return from_host(ctx, __func__, src, ndim, shape, dtype, true, out);
}

cusci_status cusci_array_from_host_async(cusci_ctx *ctx, const void *src, int ndim, const int64_t *shape,
                                         cusci_dtype dtype, cusci_array **out)
{
  return from_host(ctx, __func__, src, ndim, shape, dtype, false, out);
}

static cusci_status to_host(cusci_ctx *ctx, const char *fn, const cusci_array *a, void *dst, size_t dst_bytes, bool wait)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  size_t n = (size_t)a->size * cusci__itemsize[a->dtype];
  if (!dst && n)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "dst is NULL");
  if (dst_bytes < n)
    return cusci_ctx_fail(ctx, CUSCI_ERR_BUFFER_TOO_SMALL, fn, "dst_bytes is %zu, the array needs %zu", dst_bytes, n);
  if (n == 0)
    return CUSCI_OK;
  bool contiguous = cusci_array_is_c_contiguous(a);
  if (ctx->device < 0) {
    if (contiguous) {
      memcpy(dst, a->data, n);
      return CUSCI_OK;
    }
    cusci_array tmp = *a;
    tmp.data = dst;
    cusci__c_strides(a->ndim, a->shape, tmp.strides);
    return cusci__copy_into(ctx, fn, &tmp, a);
  }
  const cusci_array *src = a;
  cusci_array *t = NULL;
  if (!contiguous) {
    CUSCI_TRY(cusci__array_new(ctx, fn, a->ndim, a->shape, a->dtype, &t));
    cusci_status st = cusci__copy_into(ctx, fn, t, a);
    if (st != CUSCI_OK) {
      cusci_array_release(t);
      return st;
    }
    src = t;
  }
  cusci_status st = cusci__d2h(ctx, fn, dst, src->data, n, wait);
  cusci_array_release(t);
  return st;
}

cusci_status cusci_array_to_host(cusci_ctx *ctx, const cusci_array *a, void *dst, size_t dst_bytes)
{
  return to_host(ctx, __func__, a, dst, dst_bytes, true);
}

cusci_status cusci_array_to_host_async(cusci_ctx *ctx, const cusci_array *a, void *dst, size_t dst_bytes)
{
  return to_host(ctx, __func__, a, dst, dst_bytes, false);
}

/* -------------------------------------------------------------- astype */

cusci_status cusci_array_astype(cusci_ctx *ctx, cusci_array *a, cusci_dtype dtype, bool copy, cusci_array **out)
{
  CUSCI_TRY(cusci_check_array(ctx, __func__, "a", a));
  CUSCI_TRY(cusci_check_dtype(ctx, __func__, "dtype", dtype));
  if (!out)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "out is NULL");
  if (!copy && dtype == a->dtype && *out == NULL) {
    *out = cusci_array_retain(a);
    return CUSCI_OK;
  }
  cusci_array *r;
  CUSCI_TRY(cusci_prepare_out(ctx, __func__, out, a->ndim, a->shape, dtype, &r));
  return finish(cusci__copy_into(ctx, __func__, r, a), out, r);
}

cusci_status cusci__finish_view(cusci_ctx *ctx, const char *fn, cusci_array *view, cusci_array **out)
{
  if (*out == NULL) {
    *out = view;
    return CUSCI_OK;
  }
  cusci_array *r;
  cusci_status st = cusci_prepare_out(ctx, fn, out, view->ndim, view->shape, view->dtype, &r);
  if (st == CUSCI_OK)
    st = cusci__copy_into(ctx, fn, r, view);
  cusci_array_release(view);
  return st;
}
