/*
 * libcore/internal.h: what libcore's files share and nothing outside sees.
 */
#ifndef CUSCI_LIBCORE_INTERNAL_H
#define CUSCI_LIBCORE_INTERNAL_H

#include "config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cusci/core.h>
#include <cusci/compute.h>
#include <cusci/core_ext.h>

#include <cusci/kit/loop.h>

#define CUSCI__ERRMSG_LEN 1024
#define CUSCI__ALIGN 256 /* bytes; a GPU allocation is at least this aligned */

/* A block of memory shared by an array and its views. */
typedef struct cusci__storage {
  atomic_int refs;
  int device; /* CUSCI_DEVICE_HOST or a GPU ordinal */
  void *ptr;
  size_t nbytes;
  cusci_pool *pool; /* where ptr returns */
  void *stream;     /* the stream it was taken on; freed in that stream's order */
  bool owned;       /* false: memory of the caller's, never freed */
  /* Memory of another owner (an imported DLPack tensor): release(owner) is
   * called once, when the last view goes. NULL for none. */
  void (*release)(void *owner);
  void *owner;
} cusci__storage;

struct cusci_array {
  atomic_int refs;
  int ndim;
  cusci_dtype dtype;
  int device;
  int64_t size;
  char *data; /* the first element */
  cusci__storage *storage;
  int64_t shape[CUSCI_MAX_NDIM];
  int64_t strides[CUSCI_MAX_NDIM]; /* in elements */
};

typedef struct cusci__ext {
  const void *key;
  void *state;
  cusci_ext_destroy_fn destroy;
} cusci__ext;

struct cusci_ctx {
  int device;
  cusci_pool *pool; /* the device's shared pool */
  cusci__ext *ext; /* module state, see cusci_ctx_ext_set */
  int n_ext, cap_ext;
  void *own_stream; /* the context's stream (cudaStream_t), NULL on the host */
  void *stream;     /* the stream in use: own_stream or the caller's */
  char err[CUSCI__ERRMSG_LEN];
};

struct cusci_event {
  int device;
  void *ev;       /* cudaEvent_t on a GPU */
  double host_ms; /* clock reading on the host */
  bool recorded;
};

/* Record a failure with the calling function's name. */
#define CUSCI__FAIL(ctx, st, ...) return cusci_ctx_fail((ctx), (st), __func__, __VA_ARGS__)

/* alloc.c: storage on the context's device. */
cusci_status cusci__storage_new(cusci_ctx *ctx, const char *fn, size_t nbytes, cusci__storage **out);
void cusci__storage_release(cusci__storage *s);

/* array.c */
/* A new array object over `storage` (retained), not checked. */
cusci_status cusci__array_view(cusci_ctx *ctx, const char *fn, const cusci_array *base, int ndim, const int64_t *shape, const int64_t *strides, char *data, cusci_array **out);
/* cusci_array_wrap for `fn`, with release(owner) called when the last view
 * of the memory goes (release may be NULL); on failure it is not called. */
cusci_status cusci__array_wrap(cusci_ctx *ctx, const char *fn, void *data, int ndim, const int64_t *shape,
                               const int64_t *strides, cusci_dtype dtype, void (*release)(void *), void *owner,
                               cusci_array **out);
/* Allocate a C-ordered array; shape already checked. */
cusci_status cusci__array_new(cusci_ctx *ctx, const char *fn, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Copy (converting dtype) all elements of src into dst of the same shape. */
cusci_status cusci__copy_into(cusci_ctx *ctx, const char *fn, cusci_array *dst, const cusci_array *src);
/* NumPy's name of a casting level: "same_kind", ... */
const char *cusci__casting_name(cusci_casting casting);
/* Give a view to the caller under the output convention: stored in *out,
 * or copied into a given *out and released. */
cusci_status cusci__finish_view(cusci_ctx *ctx, const char *fn, cusci_array *view, cusci_array **out);
void cusci__c_strides(int ndim, const int64_t *shape, int64_t *strides);

/* npy.c: .npy images in memory, and whole files. */
cusci_status cusci__npy_image(cusci_ctx *ctx, const char *fn, const cusci_array *a, unsigned char **out, size_t *len);
cusci_status cusci__npy_load_image(cusci_ctx *ctx, const char *fn, const unsigned char *buf, size_t len, cusci_array **out);
cusci_status cusci__write_file(cusci_ctx *ctx, const char *fn, const char *path, const void *buf, size_t len);
cusci_status cusci__read_file(cusci_ctx *ctx, const char *fn, const char *path, unsigned char **out, size_t *len);

/* dtype.c */
extern const size_t cusci__itemsize[CUSCI_N_DTYPES];
/* Whether the Python integer v is a value of dt (true for dtypes that are
 * not integers: floats take any, rounding). */
bool cusci__int_fits(cusci_dtype dt, int64_t v);

/* ufunc.c: a scalar operand's value in dtype dt, into buf (16 bytes): an
 * int out of dt's range is CUSCI_ERR_OVERFLOW naming `name`. */
cusci_status cusci__scalar_as(cusci_ctx *ctx, const char *fn, const char *name, const cusci_operand *o, cusci_dtype dt,
                              void *buf);

#endif
