/*
 * tests/core-dlpack.c: DLPack export and import. On the host: every field
 * of an exported tensor for all 14 dtypes, round trips of both forms
 * through views, byte_offset, NULL and negative strides, 0-d and size-0
 * tensors, writes through an imported array reaching the producer's
 * memory, the producer's deleter called exactly once and only after the
 * last view, and every error path (leaving the tensor untouched). On a GPU
 * (skipped without one): the same round trips with the context's stream
 * and with other streams, and device mismatches.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/testkit.h"

/* ------------------------------------------------- a producer of our own */

/* A managed tensor over a caller's buffer whose deleter counts its calls. */
typedef struct producer {
  cusci_dl_managed_tensor_versioned v;
  cusci_dl_managed_tensor l;
  int64_t shape[CUSCI_MAX_NDIM + 2];
  int64_t strides[CUSCI_MAX_NDIM + 2];
  int deleted;
} producer;

static void count_versioned(cusci_dl_managed_tensor_versioned *self)
{
  ((producer *)self->manager_ctx)->deleted++;
}

static void count_legacy(cusci_dl_managed_tensor *self)
{
  ((producer *)self->manager_ctx)->deleted++;
}

/* A producer of a float64 tensor over `data`, C order unless strides given. */
static void producer_init(producer *p, void *data, int device_type, int device_id, int ndim, const int64_t *shape,
                          const int64_t *strides)
{
  memset(p, 0, sizeof *p);
  for (int i = 0; i < ndim; i++) {
    p->shape[i] = shape[i];
    p->strides[i] = strides ? strides[i] : 0;
  }
  cusci_dl_tensor t = {data, {device_type, device_id}, ndim, {CUSCI_DL_FLOAT, 64, 1}, p->shape,
                       strides ? p->strides : NULL, 0};
  p->v.version.major = 1;
  p->v.version.minor = 0;
  p->v.manager_ctx = p;
  p->v.deleter = count_versioned;
  p->v.dl_tensor = t;
  p->l.dl_tensor = t;
  p->l.manager_ctx = p;
  p->l.deleter = count_legacy;
}

static const cusci_dl_data_type want_types[CUSCI_N_DTYPES] = {
  {CUSCI_DL_BOOL, 8, 1},  {CUSCI_DL_INT, 8, 1},    {CUSCI_DL_INT, 16, 1},   {CUSCI_DL_INT, 32, 1},
  {CUSCI_DL_INT, 64, 1},  {CUSCI_DL_UINT, 8, 1},   {CUSCI_DL_UINT, 16, 1},  {CUSCI_DL_UINT, 32, 1},
  {CUSCI_DL_UINT, 64, 1}, {CUSCI_DL_FLOAT, 16, 1}, {CUSCI_DL_FLOAT, 32, 1}, {CUSCI_DL_FLOAT, 64, 1},
  {CUSCI_DL_COMPLEX, 64, 1}, {CUSCI_DL_COMPLEX, 128, 1},
};

static const double vals[6] = {2.385, -0.75, 13.5, 1e-3, -41.25, 7.0625};

/* -------------------------------------------------------------- export */

static void test_export_fields(cusci_ctx *ctx, int device)
{
  const char *where = device >= 0 ? "gpu" : "host";
  for (int d = 0; d < CUSCI_N_DTYPES; d++) {
    int64_t shape[2] = {2, 3};
    cusci_array *a = NULL;
    cusci_array_ones(ctx, 2, shape, (cusci_dtype)d, &a);
    cusci_dl_managed_tensor_versioned *v = NULL;
    cusci_dl_managed_tensor *l = NULL;
    cusci_status s1 = cusci_array_to_dlpack_versioned(ctx, a, cusci_ctx_stream(ctx), &v);
    cusci_status s2 = cusci_array_to_dlpack(ctx, a, cusci_ctx_stream(ctx), &l);
    int good = a && s1 == CUSCI_OK && s2 == CUSCI_OK;
    if (good) {
      const cusci_dl_tensor *t = &v->dl_tensor;
      good = v->version.major == 1 && v->version.minor == 0 && v->flags == 0 && v->deleter &&
             t->data == cusci_array_data(a) && t->byte_offset == 0 && t->ndim == 2 &&
             t->device.device_type == (device >= 0 ? CUSCI_DL_CUDA : CUSCI_DL_CPU) &&
             t->device.device_id == (device >= 0 ? device : 0) && t->dtype.code == want_types[d].code &&
             t->dtype.bits == want_types[d].bits && t->dtype.lanes == 1 && t->shape[0] == 2 && t->shape[1] == 3 &&
             t->strides[0] == 3 && t->strides[1] == 1 && memcmp(&l->dl_tensor, t, sizeof *t) != 0 &&
             l->dl_tensor.data == t->data && l->dl_tensor.dtype.code == t->dtype.code &&
             l->dl_tensor.dtype.bits == t->dtype.bits && l->dl_tensor.shape[1] == 3 && l->deleter;
    }
    ok(good, "%s: export of a 2x3 %s: version 1.0, device, dtype code %d bits %d, shape, strides, same data", where,
       cusci_dtype_name((cusci_dtype)d), want_types[d].code, want_types[d].bits);
    /* Round trip: the imported array has the dtype back. */
    cusci_array *b = NULL;
    if (v && cusci_array_from_dlpack_versioned(ctx, v, CUSCI_DL_STREAM_NONE, &b) == CUSCI_OK) {
      ok(cusci_array_dtype(b) == (cusci_dtype)d && cusci_array_data(b) == cusci_array_data(a),
         "%s: %s comes back as %s over the same memory", where, cusci_dtype_name((cusci_dtype)d),
         cusci_dtype_name(cusci_array_dtype(b)));
      cusci_array_release(b); /* calls v's deleter */
    } else {
      ok(0, "%s: import of an exported %s: %s", where, cusci_dtype_name((cusci_dtype)d), cusci_ctx_last_error(ctx));
      if (v)
        v->deleter(v);
    }
    if (l)
      l->deleter(l);
    cusci_array_release(a);
  }
}

/* The exported tensor keeps the array alive after the caller's release. */
static void test_export_lifetime(cusci_ctx *ctx)
{
  int64_t shape[2] = {2, 3};
  cusci_array *a = NULL, *t = NULL;
  cusci_array_from_host(ctx, vals, 2, shape, CUSCI_FLOAT64, &a);
  int axes[2] = {1, 0};
  cusci_array_transpose(ctx, a, axes, &t); /* a 3x2 view with strides 1, 3 */
  cusci_dl_managed_tensor_versioned *v = NULL;
  cusci_status st = cusci_array_to_dlpack_versioned(ctx, t, NULL, &v);
  ok(st == CUSCI_OK, "host: export of a transposed view");
  if (st != CUSCI_OK) {
    cusci_array_release(t);
    cusci_array_release(a);
    return;
  }
  cusci_array_release(t);
  cusci_array_release(a);
  const cusci_dl_tensor *d = &v->dl_tensor;
  ok(d->shape[0] == 3 && d->shape[1] == 2 && d->strides[0] == 1 && d->strides[1] == 3,
     "host: the view's strides are exported in elements (1, 3)");
  const double *p = d->data;
  ok(p[1 * d->strides[0] + 1 * d->strides[1]] == vals[4] && p[2 * d->strides[0]] == vals[2],
     "host: the memory stays readable through the tensor after every array is released");
  v->deleter(v); /* frees the storage: valgrind checks it */
}

/* ------------------------------------------------------------- import */

static void test_import_host(cusci_ctx *ctx)
{
  double buf[12];
  for (int i = 0; i < 12; i++)
    buf[i] = 2.385 * i - 5.5;

  /* Versioned, NULL strides, with views outliving the first array. */
  producer p;
  int64_t shape[2] = {3, 4};
  producer_init(&p, buf, CUSCI_DL_CPU, 0, 2, shape, NULL);
  cusci_array *a = NULL;
  cusci_status st = cusci_array_from_dlpack_versioned(ctx, &p.v, NULL, &a);
  ok(st == CUSCI_OK && cusci_array_data(a) == (void *)buf && cusci_array_ndim(a) == 2 &&
         cusci_array_strides(a)[0] == 4 && cusci_array_strides(a)[1] == 1 && cusci_array_dtype(a) == CUSCI_FLOAT64,
     "host: import with NULL strides is C order over the producer's memory");
  if (st == CUSCI_OK) {
    cusci_array *view = NULL, *sum = NULL;
    int64_t start[2] = {1, 0}, stop[2] = {3, 4}, step[2] = {1, 2};
    cusci_array_slice(ctx, a, start, stop, step, &view);
    cusci_array_release(a);
    ok(p.deleted == 0, "host: the deleter waits for the last view");
    /* Zero copy both ways: write through the view, read the producer's buffer. */
    cusci_add(ctx, view, view, &sum);
    cusci_array *out = view;
    st = cusci_multiply(ctx, view, view, &out);
    ok(st == CUSCI_OK && buf[4] == (2.385 * 4 - 5.5) * (2.385 * 4 - 5.5) && buf[6] == (2.385 * 6 - 5.5) * (2.385 * 6 - 5.5) &&
           buf[5] == 2.385 * 5 - 5.5,
       "host: writing into the imported view changes the producer's memory");
    double got[4] = {0};
    cusci_array_to_host(ctx, sum, got, sizeof got);
    ok(got[0] == 2 * (2.385 * 4 - 5.5) && got[3] == 2 * (2.385 * 10 - 5.5), "host: an op reads the imported values");
    cusci_array_release(sum);
    cusci_array_release(view);
    is_int(p.deleted, 1, "host: the versioned deleter ran once, when the last view went");
  }

  /* Legacy, explicit negative strides and a byte offset: the reversed rows. */
  int64_t sh2[2] = {3, 4}, str2[2] = {-4, 1};
  producer_init(&p, buf, CUSCI_DL_CPU, 0, 2, sh2, str2);
  p.l.dl_tensor.byte_offset = 8 * sizeof(double);
  a = NULL;
  st = cusci_array_from_dlpack(ctx, &p.l, NULL, &a);
  if (st == CUSCI_OK) {
    double got[12];
    cusci_array_to_host(ctx, a, got, sizeof got);
    ok(got[0] == buf[8] && got[4] == buf[4] && got[11] == buf[3] && cusci_array_strides(a)[0] == -4,
       "host: legacy import with byte_offset and negative strides");
    cusci_array_release(a);
    is_int(p.deleted, 1, "host: the legacy deleter ran once");
  } else {
    ok(0, "host: legacy import: %s", cusci_ctx_last_error(ctx));
  }

  /* 0-d and size-0 tensors. */
  int64_t none = 0;
  producer_init(&p, &buf[5], CUSCI_DL_CPU, 0, 0, &none, NULL);
  p.v.dl_tensor.shape = NULL;
  a = NULL;
  st = cusci_array_from_dlpack_versioned(ctx, &p.v, CUSCI_DL_STREAM_NONE, &a);
  double one = 0;
  if (st == CUSCI_OK)
    cusci_array_to_host(ctx, a, &one, sizeof one);
  ok(st == CUSCI_OK && cusci_array_ndim(a) == 0 && cusci_array_size(a) == 1 && one == buf[5],
     "host: a 0-d tensor (shape NULL) imports as a scalar array");
  cusci_array_release(a);
  is_int(p.deleted, st == CUSCI_OK ? 1 : 0, "host: 0-d: deleter once");

  int64_t sh0[2] = {0, 3};
  producer_init(&p, NULL, CUSCI_DL_CPU, 0, 2, sh0, NULL);
  a = NULL;
  st = cusci_array_from_dlpack_versioned(ctx, &p.v, NULL, &a);
  ok(st == CUSCI_OK && cusci_array_size(a) == 0 && cusci_array_shape(a)[1] == 3,
     "host: a size-0 tensor with NULL data imports");
  cusci_array_release(a);
  is_int(p.deleted, st == CUSCI_OK ? 1 : 0, "host: size 0: deleter once");

  /* A minor version above ours is readable; kDLCUDAHost is host memory. */
  producer_init(&p, buf, CUSCI_DL_CUDA_HOST, 0, 2, shape, NULL);
  p.v.version.minor = 3;
  a = NULL;
  st = cusci_array_from_dlpack_versioned(ctx, &p.v, NULL, &a);
  ok(st == CUSCI_OK, "host: version 1.3 and kDLCUDAHost are accepted");
  cusci_array_release(a);

  /* A tensor with no deleter. */
  producer_init(&p, buf, CUSCI_DL_CPU, 0, 2, shape, NULL);
  p.v.deleter = NULL;
  a = NULL;
  st = cusci_array_from_dlpack_versioned(ctx, &p.v, NULL, &a);
  ok(st == CUSCI_OK, "host: a NULL deleter is allowed");
  cusci_array_release(a);
}

/* Round trips of cusci's own export, all views of a 4-d array. */
static void test_round_trip(cusci_ctx *ctx, const char *where)
{
  int64_t shape[3] = {2, 3, 4};
  double src[24];
  for (int i = 0; i < 24; i++)
    src[i] = 0.5 * i * i - 3.25;
  cusci_array *a = NULL, *v = NULL;
  cusci_array_from_host(ctx, src, 3, shape, CUSCI_FLOAT64, &a);
  /* a[::-1, ::-2, 1::2]: negative and non-unit strides. */
  int64_t start[3] = {CUSCI_SLICE_NONE, CUSCI_SLICE_NONE, 1};
  int64_t stop[3] = {CUSCI_SLICE_NONE, CUSCI_SLICE_NONE, CUSCI_SLICE_NONE}, step[3] = {-1, -2, 2};
  cusci_status st = cusci_array_slice(ctx, a, start, stop, step, &v);
  ok(st == CUSCI_OK, "%s: a strided view to export", where);
  if (st != CUSCI_OK) {
    cusci_array_release(a);
    return;
  }
  int64_t vstrides[3];
  memcpy(vstrides, cusci_array_strides(v), sizeof vstrides);
  size_t n = cusci_array_nbytes(v);
  double *want = malloc(n), *got = malloc(n), *got2 = malloc(n);
  cusci_array_to_host(ctx, v, want, n);

  cusci_dl_managed_tensor_versioned *t = NULL;
  cusci_dl_managed_tensor *lt = NULL;
  cusci_array *b = NULL, *c = NULL;
  st = cusci_array_to_dlpack_versioned(ctx, v, cusci_ctx_stream(ctx), &t);
  if (st == CUSCI_OK)
    st = cusci_array_from_dlpack_versioned(ctx, t, cusci_ctx_stream(ctx), &b);
  if (st == CUSCI_OK)
    st = cusci_array_to_dlpack(ctx, b, NULL, &lt);
  if (st == CUSCI_OK)
    st = cusci_array_from_dlpack(ctx, lt, NULL, &c);
  cusci_array_release(v);
  cusci_array_release(a);
  cusci_array_release(b);
  if (st == CUSCI_OK) {
    cusci_array_to_host(ctx, c, got, n);
    ok(memcmp(got, want, n) == 0 && cusci_array_ndim(c) == 3 &&
           memcmp(cusci_array_strides(c), vstrides, sizeof vstrides) == 0 && vstrides[0] == -12 && vstrides[2] == 2,
       "%s: versioned then legacy round trip of a strided view keeps values and strides", where);
    /* Writes through c reach the original storage: square c in place. */
    cusci_array *out = c;
    cusci_multiply(ctx, c, c, &out);
    cusci_array_to_host(ctx, c, got2, n);
    int good = 1;
    for (size_t i = 0; i < n / sizeof(double); i++)
      good &= got2[i] == want[i] * want[i];
    ok(good, "%s: an in-place op on the twice-imported array", where);
  } else {
    ok(0, "%s: round trip failed: %s", where, cusci_ctx_last_error(ctx));
    ok(0, "%s: an in-place op on the twice-imported array", where);
  }
  cusci_array_release(c); /* the chain of deleters frees everything */
  free(want);
  free(got);
  free(got2);
}

/* -------------------------------------------------------------- errors */

static void expect_import_fail(cusci_ctx *ctx, producer *p, bool versioned, void *stream, cusci_status want,
                               const char *what)
{
  cusci_array *sentinel = (cusci_array *)(uintptr_t)0x1234, *out = sentinel;
  cusci_status st = versioned ? cusci_array_from_dlpack_versioned(ctx, &p->v, stream, &out)
                              : cusci_array_from_dlpack(ctx, &p->l, stream, &out);
  const char *msg = cusci_ctx_last_error(ctx);
  const char *fn = versioned ? "cusci_array_from_dlpack_versioned" : "cusci_array_from_dlpack";
  ok(st == want && out == sentinel && p->deleted == 0 && strncmp(msg, fn, strlen(fn)) == 0, "%s: %s (%s)", what,
     cusci_status_name(want), msg);
  if (st != want)
    diag("got %s", cusci_status_name(st));
}

static void test_errors_host(cusci_ctx *ctx)
{
  double buf[6] = {0};
  int64_t shape[2] = {2, 3};
  producer p;
  cusci_array *out = NULL;

  producer_init(&p, buf, CUSCI_DL_CPU, 0, 2, shape, NULL);
  is_int(cusci_array_from_dlpack_versioned(NULL, &p.v, NULL, &out), CUSCI_ERR_NULL_POINTER, "import: ctx NULL");
  is_int(cusci_array_from_dlpack(NULL, &p.l, NULL, &out), CUSCI_ERR_NULL_POINTER, "legacy import: ctx NULL");
  is_int(cusci_array_from_dlpack_versioned(ctx, NULL, NULL, &out), CUSCI_ERR_NULL_POINTER, "import: t NULL");
  is_int(cusci_array_from_dlpack(ctx, NULL, NULL, &out), CUSCI_ERR_NULL_POINTER, "legacy import: t NULL");
  is_int(cusci_array_from_dlpack_versioned(ctx, &p.v, NULL, NULL), CUSCI_ERR_NULL_POINTER, "import: out NULL");
  is_int(cusci_array_from_dlpack(ctx, &p.l, NULL, NULL), CUSCI_ERR_NULL_POINTER, "legacy import: out NULL");
  is_int(p.deleted, 0, "import: no deleter call on NULL arguments");

  p.v.version.major = 2;
  expect_import_fail(ctx, &p, true, NULL, CUSCI_ERR_NOT_SUPPORTED, "import: major version 2");
  p.v.version.major = 0;
  expect_import_fail(ctx, &p, true, NULL, CUSCI_ERR_NOT_SUPPORTED, "import: major version 0");
  producer_init(&p, buf, CUSCI_DL_CPU, 0, 2, shape, NULL);
  p.v.flags = CUSCI_DL_FLAG_READ_ONLY;
  expect_import_fail(ctx, &p, true, NULL, CUSCI_ERR_INVALID_ARGUMENT, "import: READ_ONLY is refused");
  p.v.flags = CUSCI_DL_FLAG_IS_COPIED;
  out = NULL;
  ok(cusci_array_from_dlpack_versioned(ctx, &p.v, NULL, &out) == CUSCI_OK, "import: IS_COPIED alone is accepted");
  cusci_array_release(out);
  producer_init(&p, buf, CUSCI_DL_CPU, 0, 2, shape, NULL);

  for (int form = 0; form < 2; form++) {
    bool ver = form == 0;
    const char *tag = ver ? "versioned" : "legacy";
    char what[128];
#define FAIL_CASE(setup, want, text)                                        \
  do {                                                                      \
    producer_init(&p, buf, CUSCI_DL_CPU, 0, 2, shape, NULL);                \
    cusci_dl_tensor *t = ver ? &p.v.dl_tensor : &p.l.dl_tensor;             \
    setup;                                                                  \
    snprintf(what, sizeof what, "%s import: %s", tag, text);                \
    expect_import_fail(ctx, &p, ver, NULL, want, what);                     \
  } while (0)
    FAIL_CASE(t->device.device_type = CUSCI_DL_CUDA, CUSCI_ERR_DEVICE, "kDLCUDA on a host context");
    FAIL_CASE(t->device.device_type = CUSCI_DL_CUDA_MANAGED, CUSCI_ERR_DEVICE, "kDLCUDAManaged on a host context");
    FAIL_CASE(t->device.device_type = CUSCI_DL_OPENCL, CUSCI_ERR_DEVICE, "kDLOpenCL");
    FAIL_CASE(t->device.device_type = 99, CUSCI_ERR_DEVICE, "an unknown device type");
    FAIL_CASE(t->dtype.lanes = 4, CUSCI_ERR_DTYPE, "4 lanes");
    FAIL_CASE(t->dtype.lanes = 0, CUSCI_ERR_DTYPE, "0 lanes");
    FAIL_CASE((t->dtype.code = CUSCI_DL_BFLOAT, t->dtype.bits = 16), CUSCI_ERR_DTYPE, "bfloat16");
    FAIL_CASE(t->dtype.bits = 8, CUSCI_ERR_DTYPE, "float8");
    FAIL_CASE((t->dtype.code = CUSCI_DL_INT, t->dtype.bits = 1), CUSCI_ERR_DTYPE, "1-bit integers");
    FAIL_CASE((t->dtype.code = CUSCI_DL_BOOL, t->dtype.bits = 1), CUSCI_ERR_DTYPE, "1-bit bool");
    FAIL_CASE((t->dtype.code = CUSCI_DL_COMPLEX, t->dtype.bits = 32), CUSCI_ERR_DTYPE, "complex32");
    FAIL_CASE(t->dtype.code = CUSCI_DL_OPAQUE_HANDLE, CUSCI_ERR_DTYPE, "opaque handles");
    FAIL_CASE(t->ndim = 33, CUSCI_ERR_NDIM, "33 dimensions");
    FAIL_CASE(t->ndim = -1, CUSCI_ERR_NDIM, "negative ndim");
    FAIL_CASE(t->shape = NULL, CUSCI_ERR_NULL_POINTER, "shape NULL with ndim 2");
    FAIL_CASE(t->shape[1] = -3, CUSCI_ERR_SHAPE, "a negative extent");
    FAIL_CASE((t->shape[0] = INT64_MAX / 2, t->shape[1] = 5), CUSCI_ERR_OVERFLOW, "a size that overflows");
    FAIL_CASE(t->data = NULL, CUSCI_ERR_NULL_POINTER, "data NULL with 6 elements");
    FAIL_CASE(t->byte_offset = 4, CUSCI_ERR_VALUE, "float64 elements 4 bytes off their alignment");
#undef FAIL_CASE
    producer_init(&p, buf, CUSCI_DL_CPU, 0, 2, shape, NULL);
    snprintf(what, sizeof what, "%s import: a stream on a host context", tag);
    expect_import_fail(ctx, &p, ver, CUSCI_DL_STREAM_LEGACY, CUSCI_ERR_INVALID_ARGUMENT, what);
  }

  /* Export errors. */
  cusci_array *a = NULL;
  cusci_array_zeros(ctx, 2, shape, CUSCI_FLOAT32, &a);
  cusci_dl_managed_tensor_versioned *v = NULL;
  cusci_dl_managed_tensor *l = NULL;
  is_int(cusci_array_to_dlpack_versioned(NULL, a, NULL, &v), CUSCI_ERR_NULL_POINTER, "export: ctx NULL");
  is_int(cusci_array_to_dlpack_versioned(ctx, NULL, NULL, &v), CUSCI_ERR_NULL_POINTER, "export: a NULL");
  is_int(cusci_array_to_dlpack_versioned(ctx, a, NULL, NULL), CUSCI_ERR_NULL_POINTER, "export: out NULL");
  is_int(cusci_array_to_dlpack(ctx, NULL, NULL, &l), CUSCI_ERR_NULL_POINTER, "legacy export: a NULL");
  is_int(cusci_array_to_dlpack(ctx, a, NULL, NULL), CUSCI_ERR_NULL_POINTER, "legacy export: out NULL");
  is_int(cusci_array_to_dlpack_versioned(ctx, a, CUSCI_DL_STREAM_PER_THREAD, &v), CUSCI_ERR_INVALID_ARGUMENT,
         "export: a stream on a host context");
  ok(strstr(cusci_ctx_last_error(ctx), "cusci_array_to_dlpack_versioned: stream") != NULL,
     "export: the message names the function and the stream (%s)", cusci_ctx_last_error(ctx));
  is_int(cusci_array_to_dlpack(ctx, a, (void *)(intptr_t)0x10, &l), CUSCI_ERR_INVALID_ARGUMENT,
         "legacy export: a stream on a host context");
  ok(v == NULL && l == NULL, "export: failures leave out untouched");
  ok(cusci_array_to_dlpack(ctx, a, CUSCI_DL_STREAM_NONE, &l) == CUSCI_OK && l, "export: STREAM_NONE on the host");
  if (l)
    l->deleter(l);
  cusci_array_release(a);
}

/* ----------------------------------------------------------------- GPU */

static void test_gpu(cusci_ctx *gpu, cusci_ctx *host)
{
  test_export_fields(gpu, cusci_ctx_device(gpu));
  test_round_trip(gpu, "gpu");

  int64_t shape[2] = {2, 3};
  cusci_array *a = NULL, *b = NULL;
  cusci_array_from_host(gpu, vals, 2, shape, CUSCI_FLOAT64, &a);

  /* Other streams: the default stream, the legacy and per-thread ones, and
   * none. Each round trip squares the values into a new array. */
  void *streams[4] = {NULL, CUSCI_DL_STREAM_LEGACY, CUSCI_DL_STREAM_PER_THREAD, CUSCI_DL_STREAM_NONE};
  const char *names[4] = {"NULL", "legacy", "per-thread", "none"};
  for (int i = 0; i < 4; i++) {
    cusci_dl_managed_tensor_versioned *t = NULL;
    cusci_array *c = NULL, *sq = NULL;
    cusci_status st = cusci_array_to_dlpack_versioned(gpu, a, streams[i], &t);
    if (st == CUSCI_OK)
      st = cusci_array_from_dlpack_versioned(gpu, t, streams[i], &c);
    else
      t = NULL;
    if (st == CUSCI_OK)
      st = cusci_multiply(gpu, c, c, &sq);
    double got[6] = {0};
    if (st == CUSCI_OK)
      st = cusci_array_to_host(gpu, sq, got, sizeof got);
    int good = st == CUSCI_OK && cusci_array_data(c) == cusci_array_data(a);
    for (int k = 0; k < 6; k++)
      good &= got[k] == vals[k] * vals[k];
    ok(good, "gpu: round trip with the consumer's stream %s: same pointer, values (%s)", names[i],
       st == CUSCI_OK ? "ok" : cusci_ctx_last_error(gpu));
    if (st != CUSCI_OK && t && !c)
      t->deleter(t);
    cusci_array_release(sq);
    cusci_array_release(c);
  }

  /* Device mismatches. */
  producer p;
  void *ptr = cusci_array_data(a);
  producer_init(&p, ptr, CUSCI_DL_CPU, 0, 2, shape, NULL);
  expect_import_fail(gpu, &p, true, NULL, CUSCI_ERR_DEVICE, "gpu import: kDLCPU on a GPU context");
  producer_init(&p, ptr, CUSCI_DL_CUDA_HOST, 0, 2, shape, NULL);
  expect_import_fail(gpu, &p, true, NULL, CUSCI_ERR_DEVICE, "gpu import: kDLCUDAHost on a GPU context");
  producer_init(&p, ptr, CUSCI_DL_CUDA, cusci_ctx_device(gpu) + 1, 2, shape, NULL);
  expect_import_fail(gpu, &p, false, NULL, CUSCI_ERR_DEVICE, "gpu import: another GPU's id");
  producer_init(&p, ptr, CUSCI_DL_CUDA, cusci_ctx_device(gpu), 2, shape, NULL);
  expect_import_fail(host, &p, true, NULL, CUSCI_ERR_DEVICE, "host import: kDLCUDA memory");
  double hbuf[6];
  producer_init(&p, hbuf, CUSCI_DL_CUDA, cusci_ctx_device(gpu), 2, shape, NULL);
  expect_import_fail(gpu, &p, true, NULL, CUSCI_ERR_DEVICE, "gpu import: host memory labelled kDLCUDA");
  cusci_dl_managed_tensor_versioned *t = NULL;
  is_int(cusci_array_to_dlpack_versioned(host, a, NULL, &t), CUSCI_ERR_DEVICE, "export: a GPU array, host context");

  /* A producer's tensor over device memory, with a deleter that counts. */
  producer_init(&p, ptr, CUSCI_DL_CUDA, cusci_ctx_device(gpu), 2, shape, NULL);
  cusci_status st = cusci_array_from_dlpack(gpu, &p.l, cusci_ctx_stream(gpu), &b);
  double got[6] = {0};
  if (st == CUSCI_OK)
    st = cusci_array_to_host(gpu, b, got, sizeof got);
  ok(st == CUSCI_OK && memcmp(got, vals, sizeof got) == 0, "gpu: legacy import of device memory");
  cusci_array_release(b);
  is_int(p.deleted, st == CUSCI_OK ? 1 : 0, "gpu: deleter once");
  cusci_array_release(a);
}

int main(void)
{
  cusci_ctx *host = tk_host_ctx();
  test_export_fields(host, CUSCI_DEVICE_HOST);
  test_export_lifetime(host);
  test_import_host(host);
  test_round_trip(host, "host");
  test_errors_host(host);

  int n = 0;
  cusci_device_count(&n);
  cusci_ctx *gpu = NULL;
  if (n > 0 && cusci_ctx_create(0, &gpu) == CUSCI_OK) {
    test_gpu(gpu, host);
    cusci_ctx_destroy(gpu);
  } else {
    skip(1, "no CUDA device");
  }
  cusci_ctx_destroy(host);
  return done_testing();
}
