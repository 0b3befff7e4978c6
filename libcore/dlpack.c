/*
 * libcore/dlpack.c: DLPack export and import, zero copy.
 *
 * Export hands out a managed tensor that holds a reference to the array;
 * its deleter drops the reference. Import wraps the tensor's memory as an
 * array whose storage calls the producer's deleter when its last view goes
 * (the storage block's release callback). Streams are ordered with an
 * event, as the array API's __dlpack__(stream=...) asks.
 */
#include "libcore/internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/dlpack.h>

#include "libcore/backend.h"

/* The DLPack type of each cusci dtype, in enum order. */
static const cusci_dl_data_type dl_types[CUSCI_N_DTYPES] = {
  [CUSCI_BOOL] = {CUSCI_DL_BOOL, 8, 1},
  [CUSCI_INT8] = {CUSCI_DL_INT, 8, 1},
  [CUSCI_INT16] = {CUSCI_DL_INT, 16, 1},
  [CUSCI_INT32] = {CUSCI_DL_INT, 32, 1},
  [CUSCI_INT64] = {CUSCI_DL_INT, 64, 1},
  [CUSCI_UINT8] = {CUSCI_DL_UINT, 8, 1},
  [CUSCI_UINT16] = {CUSCI_DL_UINT, 16, 1},
  [CUSCI_UINT32] = {CUSCI_DL_UINT, 32, 1},
  [CUSCI_UINT64] = {CUSCI_DL_UINT, 64, 1},
  [CUSCI_FLOAT16] = {CUSCI_DL_FLOAT, 16, 1},
  [CUSCI_FLOAT32] = {CUSCI_DL_FLOAT, 32, 1},
  [CUSCI_FLOAT64] = {CUSCI_DL_FLOAT, 64, 1},
  [CUSCI_COMPLEX64] = {CUSCI_DL_COMPLEX, 64, 1},
  [CUSCI_COMPLEX128] = {CUSCI_DL_COMPLEX, 128, 1},
};

static const char *code_name(unsigned code)
{
  switch (code) {
  case CUSCI_DL_INT: return "kDLInt";
  case CUSCI_DL_UINT: return "kDLUInt";
  case CUSCI_DL_FLOAT: return "kDLFloat";
  case CUSCI_DL_OPAQUE_HANDLE: return "kDLOpaqueHandle";
  case CUSCI_DL_BFLOAT: return "kDLBfloat";
  case CUSCI_DL_COMPLEX: return "kDLComplex";
  case CUSCI_DL_BOOL: return "kDLBool";
  default: return "an unknown type code";
  }
}

static const char *device_name(int type)
{
  switch (type) {
  case CUSCI_DL_CPU: return "kDLCPU";
  case CUSCI_DL_CUDA: return "kDLCUDA";
  case CUSCI_DL_CUDA_HOST: return "kDLCUDAHost";
  case CUSCI_DL_CUDA_MANAGED: return "kDLCUDAManaged";
  case CUSCI_DL_OPENCL: return "kDLOpenCL";
  case CUSCI_DL_VULKAN: return "kDLVulkan";
  case CUSCI_DL_METAL: return "kDLMetal";
  case CUSCI_DL_ROCM: return "kDLROCM";
  case CUSCI_DL_ROCM_HOST: return "kDLROCMHost";
  case CUSCI_DL_ONEAPI: return "kDLOneAPI";
  default: return "a device type cusci does not know";
  }
}

/* A host context has no streams: only NULL and "no synchronisation". */
static cusci_status stream_check(cusci_ctx *ctx, const char *fn, void *stream)
{
  if (ctx->device < 0 && stream != NULL && stream != CUSCI_DL_STREAM_NONE)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn,
                          "stream is %p; a host context takes NULL or CUSCI_DL_STREAM_NONE (DLPack's kDLCPU "
                          "takes no stream)",
                          stream);
  return CUSCI_OK;
}

/* Make stream `to` wait for the work queued so far on stream `from`, with
 * one of the core's events; the host does not block. */
static cusci_status order_streams(cusci_ctx *ctx, const char *fn, void *from, void *to)
{
  if (ctx->device < 0 || from == to || to == CUSCI_DL_STREAM_NONE || from == CUSCI_DL_STREAM_NONE)
    return CUSCI_OK;
  cusci_event *ev;
  CUSCI_TRY(cusci_event_create(ctx, &ev));
  cusci_status st = cusci__gpu_event_record_on(ctx, fn, ev->ev, from);
  if (st == CUSCI_OK)
    st = cusci__gpu_event_wait_on(ctx, fn, ev->ev, to);
  /* The wait is queued: CUDA keeps the event until it has completed. */
  cusci_event_destroy(ev);
  return st;
}

/* --------------------------------------------------------------- export */

/* One allocation per exported tensor: the managed struct, the reference
 * it holds, and the shape and strides it points to. */
typedef struct export_block {
  union {
    cusci_dl_managed_tensor_versioned v;
    cusci_dl_managed_tensor l;
  } t;
  cusci_array *array;
  int64_t shape[CUSCI_MAX_NDIM];
  int64_t strides[CUSCI_MAX_NDIM];
} export_block;

static void delete_versioned(cusci_dl_managed_tensor_versioned *self)
{
  if (!self)
    return;
  export_block *b = self->manager_ctx;
  cusci_array_release(b->array);
  free(b);
}

static void delete_legacy(cusci_dl_managed_tensor *self)
{
  if (!self)
    return;
  export_block *b = self->manager_ctx;
  cusci_array_release(b->array);
  free(b);
}

static cusci_status export_block_new(cusci_ctx *ctx, const char *fn, cusci_array *a, void *stream, void *out,
                                     export_block **res, cusci_dl_tensor *dl)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  if (!out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "out is NULL");
  CUSCI_TRY(stream_check(ctx, fn, stream));
  export_block *b = calloc(1, sizeof *b);
  if (!b)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a DLPack tensor");
  /* The consumer may use the memory on its stream once what is queued on
   * ours has run. */
  cusci_status st = order_streams(ctx, fn, ctx->stream, stream);
  if (st != CUSCI_OK) {
    free(b);
    return st;
  }
  for (int i = 0; i < a->ndim; i++) {
    b->shape[i] = a->shape[i];
    b->strides[i] = a->strides[i];
  }
  b->array = cusci_array_retain(a);
  memset(dl, 0, sizeof *dl);
  dl->data = a->data;
  dl->device.device_type = ctx->device >= 0 ? CUSCI_DL_CUDA : CUSCI_DL_CPU;
  dl->device.device_id = ctx->device >= 0 ? ctx->device : 0;
  dl->ndim = a->ndim;
  dl->dtype = dl_types[a->dtype];
  dl->shape = b->shape;
  dl->strides = b->strides;
  dl->byte_offset = 0;
  *res = b;
  return CUSCI_OK;
}

cusci_status cusci_array_to_dlpack_versioned(cusci_ctx *ctx, cusci_array *a, void *stream,
                                             cusci_dl_managed_tensor_versioned **out)
{
  export_block *b;
  cusci_dl_tensor dl;
  CUSCI_TRY(export_block_new(ctx, __func__, a, stream, out, &b, &dl));
  cusci_dl_managed_tensor_versioned *t = &b->t.v;
  t->version.major = CUSCI_DL_MAJOR_VERSION;
  t->version.minor = CUSCI_DL_MINOR_VERSION;
  t->manager_ctx = b;
  t->deleter = delete_versioned;
  t->flags = 0;
  t->dl_tensor = dl;
  *out = t;
  return CUSCI_OK;
}

cusci_status cusci_array_to_dlpack(cusci_ctx *ctx, cusci_array *a, void *stream, cusci_dl_managed_tensor **out)
{
  export_block *b;
  cusci_dl_tensor dl;
  CUSCI_TRY(export_block_new(ctx, __func__, a, stream, out, &b, &dl));
  cusci_dl_managed_tensor *t = &b->t.l;
  t->dl_tensor = dl;
  t->manager_ctx = b;
  t->deleter = delete_legacy;
  *out = t;
  return CUSCI_OK;
}

/* --------------------------------------------------------------- import */

static void release_versioned(void *owner)
{
  cusci_dl_managed_tensor_versioned *t = owner;
  if (t->deleter)
    t->deleter(t);
}

static void release_legacy(void *owner)
{
  cusci_dl_managed_tensor *t = owner;
  if (t->deleter)
    t->deleter(t);
}

/* The device of a tensor must be the context's, as DLPack names it. */
static cusci_status device_check(cusci_ctx *ctx, const char *fn, const cusci_dl_device *d)
{
  if (ctx->device < 0) {
    if (d->device_type == CUSCI_DL_CPU || d->device_type == CUSCI_DL_CUDA_HOST)
      return CUSCI_OK;
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn,
                          "t is on %s (device type %d, id %d); a host context takes kDLCPU or kDLCUDAHost",
                          device_name(d->device_type), (int)d->device_type, (int)d->device_id);
  }
  if (d->device_type != CUSCI_DL_CUDA && d->device_type != CUSCI_DL_CUDA_MANAGED)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn,
                          "t is on %s (device type %d); the context is on GPU %d and takes kDLCUDA or kDLCUDAManaged",
                          device_name(d->device_type), (int)d->device_type, ctx->device);
  if (d->device_id != ctx->device)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "t is on GPU %d, the context on GPU %d", (int)d->device_id,
                          ctx->device);
  return CUSCI_OK;
}

static cusci_status dtype_of(cusci_ctx *ctx, const char *fn, cusci_dl_data_type t, cusci_dtype *dt)
{
  if (t.lanes != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "t has %u lanes of %s %u; cusci arrays have one lane",
                          (unsigned)t.lanes, code_name(t.code), (unsigned)t.bits);
  for (int i = 0; i < CUSCI_N_DTYPES; i++)
    if (dl_types[i].code == t.code && dl_types[i].bits == t.bits) {
      *dt = (cusci_dtype)i;
      return CUSCI_OK;
    }
  return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "t's dtype (%s, %u bits) has no cusci dtype", code_name(t.code),
                        (unsigned)t.bits);
}

/*
 * The bytes that t's strides reach from its first element, sum over axes of
 * |stride| (extent - 1) itemsize, must fit in int64_t; a stride beyond that
 * is a producer's error and would send every kernel out of bounds. (CuPy
 * 14's export divides a negative byte stride by an unsigned itemsize: -12
 * bytes of float32 arrive as 2^62 - 3 elements.) Negative extents are left
 * to the shape check, and an empty tensor reaches no byte.
 */
static cusci_status strides_check(cusci_ctx *ctx, const char *fn, const cusci_dl_tensor *dl, size_t itemsize)
{
  if (!dl->strides)
    return CUSCI_OK;
  for (int i = 0; i < dl->ndim; i++)
    if (dl->shape[i] <= 0)
      return CUSCI_OK;
  uint64_t span = 0, most = (uint64_t)INT64_MAX;
  for (int i = 0; i < dl->ndim; i++) {
    int64_t st = dl->strides[i];
    uint64_t a = st < 0 ? (uint64_t)0 - (uint64_t)st : (uint64_t)st, ext = (uint64_t)(dl->shape[i] - 1);
    if (ext == 0 || a == 0)
      continue;
    if (a > most / itemsize / ext || span > most - a * itemsize * ext)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn,
                            "t's stride %lld on axis %d (extent %lld) reaches beyond 2^63 bytes; strides are in "
                            "elements, signed",
                            (long long)st, i, (long long)dl->shape[i]);
    span += a * itemsize * ext;
  }
  return CUSCI_OK;
}

static cusci_status import(cusci_ctx *ctx, const char *fn, const cusci_dl_tensor *dl, void *stream,
                           void (*release)(void *), void *owner, cusci_array **out)
{
  CUSCI_TRY(stream_check(ctx, fn, stream));
  CUSCI_TRY(device_check(ctx, fn, &dl->device));
  cusci_dtype dt = CUSCI_BOOL;
  CUSCI_TRY(dtype_of(ctx, fn, dl->dtype, &dt));
  if (dl->ndim < 0 || dl->ndim > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "t has %d dimensions; cusci arrays have 0 to %d", (int)dl->ndim,
                          CUSCI_MAX_NDIM);
  if (dl->ndim > 0 && !dl->shape)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "t's shape is NULL with ndim %d", (int)dl->ndim);
  CUSCI_TRY(strides_check(ctx, fn, dl, cusci__itemsize[dt]));
  char *data = dl->data ? (char *)dl->data + dl->byte_offset : NULL;
  cusci_array *a;
  CUSCI_TRY(cusci__array_wrap(ctx, fn, data, dl->ndim, dl->shape, dl->strides, dt, NULL, NULL, &a));
  /* Our stream may use the memory once what is queued on the producer's
   * stream has run. */
  cusci_status st = order_streams(ctx, fn, stream, ctx->stream);
  if (st != CUSCI_OK) {
    cusci_array_release(a); /* the deleter is not attached yet */
    return st;
  }
  a->storage->release = release;
  a->storage->owner = owner;
  *out = a;
  return CUSCI_OK;
}

cusci_status cusci_array_from_dlpack_versioned(cusci_ctx *ctx, cusci_dl_managed_tensor_versioned *t, void *stream,
                                               cusci_array **out)
{
  CUSCI_ENTRY(ctx, __func__, t);
  if (!out)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "out is NULL");
  if (t->version.major != CUSCI_DL_MAJOR_VERSION)
    CUSCI__FAIL(ctx, CUSCI_ERR_NOT_SUPPORTED, "t has DLPack version %u.%u; cusci reads major version %d",
                (unsigned)t->version.major, (unsigned)t->version.minor, CUSCI_DL_MAJOR_VERSION);
  if (t->flags & CUSCI_DL_FLAG_READ_ONLY)
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT,
                "t is flagged READ_ONLY and cusci arrays are writable; import a writable tensor or a copy");
  return import(ctx, __func__, &t->dl_tensor, stream, release_versioned, t, out);
}

cusci_status cusci_array_from_dlpack(cusci_ctx *ctx, cusci_dl_managed_tensor *t, void *stream, cusci_array **out)
{
  CUSCI_ENTRY(ctx, __func__, t);
  if (!out)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "out is NULL");
  return import(ctx, __func__, &t->dl_tensor, stream, release_legacy, t, out);
}

/* The layout DLPack fixes, on the LP64 targets cusci builds for. */
_Static_assert(sizeof(cusci_dl_device) == 8, "DLDevice is 8 bytes");
_Static_assert(sizeof(cusci_dl_data_type) == 4, "DLDataType is 4 bytes");
_Static_assert(sizeof(cusci_dl_tensor) == 48, "DLTensor is 48 bytes");
_Static_assert(offsetof(cusci_dl_tensor, byte_offset) == 40, "DLTensor.byte_offset");
_Static_assert(offsetof(cusci_dl_managed_tensor, deleter) == 56, "DLManagedTensor.deleter");
_Static_assert(offsetof(cusci_dl_managed_tensor_versioned, dl_tensor) == 32, "DLManagedTensorVersioned.dl_tensor");
