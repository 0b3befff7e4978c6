/*
 * libcore/ctx.c: contexts, devices, events, the error path and the
 * argument checks every module shares.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcore/internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libcore/backend.h"
#include "libcore/pool.h"

/* ------------------------------------------------------------- version */

const char *cusci_version(void)
{
  return CUSCI_VERSION_STRING;
}

int cusci_version_number(void)
{
  return CUSCI_VERSION_NUMBER;
}

/* ---------------------------------------------------------- the errors */

cusci_status cusci_ctx_vfail(cusci_ctx *ctx, cusci_status st, const char *fn, const char *fmt, va_list ap)
{
  if (!ctx)
    return st;
  int n = snprintf(ctx->err, sizeof ctx->err, "%s: ", fn ? fn : "cusci");
  if (n < 0 || (size_t)n >= sizeof ctx->err)
    return st;
  vsnprintf(ctx->err + n, sizeof ctx->err - (size_t)n, fmt, ap);
  return st;
}

cusci_status cusci_ctx_fail(cusci_ctx *ctx, cusci_status st, const char *fn, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  cusci_ctx_vfail(ctx, st, fn, fmt, ap);
  va_end(ap);
  return st;
}

const char *cusci_ctx_last_error(const cusci_ctx *ctx)
{
  return ctx ? ctx->err : "";
}

void cusci_ctx_clear_error(cusci_ctx *ctx)
{
  if (ctx)
    ctx->err[0] = '\0';
}

/* ------------------------------------------------------------- devices */

cusci_status cusci_device_count(int *count)
{
  char err[256];
  if (!count)
    return CUSCI_ERR_NULL_POINTER;
  /* A driver that fails counts as no device here; cusci_ctx_create on a
   * GPU ordinal reports the driver's message. */
  if (cusci__gpu_count(count, err, sizeof err) != CUSCI_OK)
    *count = 0;
  return CUSCI_OK;
}

cusci_status cusci_device_name(int device, char *name, size_t len)
{
  char err[256];
  if (!name)
    return CUSCI_ERR_NULL_POINTER;
  if (len == 0)
    return CUSCI_ERR_BUFFER_TOO_SMALL;
  return cusci__gpu_props(device, name, len, NULL, NULL, err, sizeof err);
}

cusci_status cusci_device_memory(int device, size_t *free_bytes, size_t *total_bytes)
{
  char err[256];
  return cusci__gpu_memory(device, free_bytes, total_bytes, err, sizeof err);
}

cusci_status cusci_device_compute_capability(int device, int *major, int *minor)
{
  char err[256];
  if (!major || !minor)
    return CUSCI_ERR_NULL_POINTER;
  return cusci__gpu_props(device, NULL, 0, major, minor, err, sizeof err);
}

/* ------------------------------------------------------------ contexts */

static _Thread_local char create_err[CUSCI__ERRMSG_LEN];

const char *cusci_ctx_create_error(void)
{
  return create_err;
}

static cusci_status create_fail(cusci_status st, const char *fmt, ...) CUSCI_PRINTF_(2, 3);
static cusci_status create_fail(cusci_status st, const char *fmt, ...)
{
  va_list ap;
  int n = snprintf(create_err, sizeof create_err, "cusci_ctx_create: ");
  va_start(ap, fmt);
  vsnprintf(create_err + n, sizeof create_err - (size_t)n, fmt, ap);
  va_end(ap);
  return st;
}

/* CUSCI_DEVICE: "host", "cuda" or "cuda:N". */
static cusci_status parse_device_env(const char *v, int *device)
{
  if (strcmp(v, "host") == 0 || strcmp(v, "cpu") == 0) {
    *device = CUSCI_DEVICE_HOST;
    return CUSCI_OK;
  }
  if (strcmp(v, "cuda") == 0) {
    *device = 0;
    return CUSCI_OK;
  }
  if (strncmp(v, "cuda:", 5) == 0 && v[5] >= '0' && v[5] <= '9') {
    char *end;
    errno = 0;
    long n = strtol(v + 5, &end, 10);
    if (*end == '\0' && errno == 0 && n <= 1 << 20) {
      *device = (int)n;
      return CUSCI_OK;
    }
  }
  return create_fail(CUSCI_ERR_INVALID_ARGUMENT,
                     "CUSCI_DEVICE is \"%s\", expected \"host\" or \"cuda:N\"", v);
}

cusci_status cusci_ctx_create(int device, cusci_ctx **ctx)
{
  create_err[0] = '\0';
  if (!ctx)
    return create_fail(CUSCI_ERR_NULL_POINTER, "ctx is NULL");
  if (device < CUSCI_DEVICE_DEFAULT)
    return create_fail(CUSCI_ERR_INVALID_ARGUMENT,
                       "device is %d, expected a GPU ordinal, CUSCI_DEVICE_HOST or CUSCI_DEVICE_DEFAULT", device);
  bool fallback = false;
  if (device == CUSCI_DEVICE_DEFAULT) {
    const char *env = getenv("CUSCI_DEVICE");
    if (env && *env) {
      cusci_status st = parse_device_env(env, &device);
      if (st != CUSCI_OK)
        return st;
    } else {
      device = 0;
      fallback = true;
    }
  }

  if (cusci__pool_env() < 0)
    return create_fail(CUSCI_ERR_INVALID_ARGUMENT, "CUSCI_POOL is \"%s\", expected \"on\" or \"off\"", getenv("CUSCI_POOL"));

  cusci_ctx *c = calloc(1, sizeof *c);
  if (!c)
    return create_fail(CUSCI_ERR_OUT_OF_MEMORY, "no host memory for a context");
  c->device = device;
  if (device >= 0) {
    char err[512] = "";
    cusci_status st = cusci__gpu_ctx_init(device, &c->own_stream, err, sizeof err);
    if (st != CUSCI_OK && fallback && st != CUSCI_ERR_DEVICE_FAULT) {
      c->device = CUSCI_DEVICE_HOST;
    } else if (st != CUSCI_OK) {
      free(c);
      return create_fail(st, "cannot use GPU %d: %s", device, err);
    }
    c->stream = c->own_stream;
  }
  char err[512] = "";
  c->pool = cusci__device_pool(c->device, err, sizeof err);
  if (!c->pool) {
    if (c->device >= 0)
      cusci__gpu_ctx_fini(c->device, c->own_stream);
    free(c);
    return create_fail(CUSCI_ERR_OUT_OF_MEMORY, "%s", err);
  }
  cusci_pool_stream_acquire(c->pool, c->stream);
  *ctx = c;
  return CUSCI_OK;
}

void cusci_ctx_destroy(cusci_ctx *ctx)
{
  if (!ctx)
    return;
  if (ctx->device >= 0) {
    cusci__gpu_use(ctx, __func__);
    cusci__gpu_stream_sync(ctx->stream);
    cusci__gpu_stream_sync(ctx->own_stream);
  }
  for (int i = ctx->n_ext - 1; i >= 0; i--)
    if (ctx->ext[i].destroy)
      ctx->ext[i].destroy(ctx->ext[i].state);
  free(ctx->ext);
  /* The stream is synchronised: what was freed on it is free for all. */
  cusci_pool_stream_release(ctx->pool, ctx->stream);
  if (ctx->stream != ctx->own_stream)
    cusci_pool_stream_release(ctx->pool, ctx->own_stream);
  if (ctx->device >= 0)
    cusci__gpu_ctx_fini(ctx->device, ctx->own_stream);
  free(ctx);
}

cusci_status cusci_ctx_use_device(cusci_ctx *ctx, const char *fn)
{
  if (!ctx)
    return CUSCI_ERR_NULL_POINTER;
  return ctx->device >= 0 ? cusci__gpu_use(ctx, fn) : CUSCI_OK;
}

void *cusci_ctx_ext_get(const cusci_ctx *ctx, const void *key)
{
  if (!ctx)
    return NULL;
  for (int i = 0; i < ctx->n_ext; i++)
    if (ctx->ext[i].key == key)
      return ctx->ext[i].state;
  return NULL;
}

cusci_status cusci_ctx_ext_set(cusci_ctx *ctx, const void *key, void *state, cusci_ext_destroy_fn destroy)
{
  CUSCI_ENTRY(ctx, __func__, key);
  for (int i = 0; i < ctx->n_ext; i++)
    if (ctx->ext[i].key == key) {
      if (ctx->ext[i].destroy && ctx->ext[i].state != state)
        ctx->ext[i].destroy(ctx->ext[i].state);
      ctx->ext[i].state = state;
      ctx->ext[i].destroy = destroy;
      return CUSCI_OK;
    }
  if (ctx->n_ext == ctx->cap_ext) {
    int cap = ctx->cap_ext ? 2 * ctx->cap_ext : 8;
    cusci__ext *e = realloc(ctx->ext, (size_t)cap * sizeof *e);
    if (!e)
      CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "no host memory for module state");
    ctx->ext = e;
    ctx->cap_ext = cap;
  }
  ctx->ext[ctx->n_ext++] = (cusci__ext){key, state, destroy};
  return CUSCI_OK;
}

int cusci_ctx_device(const cusci_ctx *ctx)
{
  return ctx ? ctx->device : CUSCI_DEVICE_HOST;
}

cusci_status cusci_ctx_synchronize(cusci_ctx *ctx)
{
  CUSCI_ENTRY_CTX(ctx, __func__);
  if (ctx->device < 0)
    return CUSCI_OK;
  return cusci__gpu_sync(ctx, __func__);
}

cusci_status cusci_ctx_set_stream(cusci_ctx *ctx, void *stream)
{
  CUSCI_ENTRY_CTX(ctx, __func__);
  if (ctx->device < 0) {
    if (stream)
      CUSCI__FAIL(ctx, CUSCI_ERR_NOT_SUPPORTED, "a host context has no stream; only NULL is accepted");
    return CUSCI_OK;
  }
  void *next = stream ? stream : ctx->own_stream;
  if (next != ctx->stream) {
    /* The own stream stays registered for the context's life. */
    if (next != ctx->own_stream)
      cusci_pool_stream_acquire(ctx->pool, next);
    if (ctx->stream != ctx->own_stream) {
      /* Blocks freed on the stream left become free for all streams, so
       * its work must be finished first. */
      cusci__gpu_stream_sync(ctx->stream);
      cusci_pool_stream_release(ctx->pool, ctx->stream);
    }
    ctx->stream = next;
  }
  return CUSCI_OK;
}

void *cusci_ctx_stream(const cusci_ctx *ctx)
{
  return ctx ? ctx->stream : NULL;
}

/* -------------------------------------------------------------- events */

static double host_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

cusci_status cusci_event_create(cusci_ctx *ctx, cusci_event **ev)
{
  CUSCI_ENTRY(ctx, __func__, ev);
  cusci_event *e = calloc(1, sizeof *e);
  if (!e)
    CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "no host memory for an event");
  e->device = ctx->device;
  if (ctx->device >= 0) {
    cusci_status st = cusci__gpu_event_create(ctx, __func__, &e->ev);
    if (st != CUSCI_OK) {
      free(e);
      return st;
    }
  }
  *ev = e;
  return CUSCI_OK;
}

void cusci_event_destroy(cusci_event *ev)
{
  if (!ev)
    return;
  if (ev->device >= 0)
    cusci__gpu_event_destroy(ev->device, ev->ev);
  free(ev);
}

static cusci_status event_check(cusci_ctx *ctx, const char *fn, const cusci_event *ev, bool recorded)
{
  if (!ctx)
    return CUSCI_ERR_NULL_POINTER;
  /* After a device fault the fault is the answer, not a missing record. */
  CUSCI_TRY(cusci__gpu_fault_check(ctx, fn));
  if (!ev)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "event is NULL");
  if (ev->device != ctx->device)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "the event belongs to device %d, the context to device %d",
                          ev->device, ctx->device);
  if (recorded && !ev->recorded)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "the event was never recorded");
  return CUSCI_OK;
}

cusci_status cusci_event_record(cusci_ctx *ctx, cusci_event *ev)
{
  CUSCI_TRY(event_check(ctx, __func__, ev, false));
  if (ctx->device >= 0)
    CUSCI_TRY(cusci__gpu_event_record(ctx, __func__, ev->ev));
  else
    ev->host_ms = host_ms();
  ev->recorded = true;
  return CUSCI_OK;
}

cusci_status cusci_event_wait(cusci_ctx *ctx, cusci_event *ev)
{
  CUSCI_TRY(event_check(ctx, __func__, ev, true));
  return ctx->device >= 0 ? cusci__gpu_event_wait(ctx, __func__, ev->ev) : CUSCI_OK;
}

cusci_status cusci_event_synchronize(cusci_ctx *ctx, cusci_event *ev)
{
  CUSCI_TRY(event_check(ctx, __func__, ev, true));
  return ctx->device >= 0 ? cusci__gpu_event_sync(ctx, __func__, ev->ev) : CUSCI_OK;
}

cusci_status cusci_event_elapsed_ms(cusci_ctx *ctx, cusci_event *start, cusci_event *end, float *ms)
{
  CUSCI_TRY(event_check(ctx, __func__, start, true));
  CUSCI_TRY(event_check(ctx, __func__, end, true));
  if (!ms)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "ms is NULL");
  if (ctx->device >= 0)
    return cusci__gpu_event_elapsed(ctx, __func__, start->ev, end->ev, ms);
  *ms = (float)(end->host_ms - start->host_ms);
  return CUSCI_OK;
}

/* ---------------------------------------------------- shared checks */

const char *cusci_shape_str(int ndim, const int64_t *shape, char *buf, size_t len)
{
  if (!buf || len == 0)
    return "";
  if (ndim <= 0 || !shape) {
    snprintf(buf, len, "()");
    return buf;
  }
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < ndim && n < len; i++) {
    int w = snprintf(buf + n, len - n, i ? "x%lld" : "%lld", (long long)shape[i]);
    if (w < 0)
      break;
    n += (size_t)w;
  }
  return buf;
}

cusci_status cusci_check_entry(cusci_ctx *ctx, const char *fn, const char *names, const void *const *ptrs, size_t n)
{
  if (!ctx)
    return CUSCI_ERR_NULL_POINTER;
  CUSCI_TRY(cusci__gpu_fault_check(ctx, fn));
  /* names is the macro's argument list as written, "a, b, out": the i-th
   * name runs from the i-th top-level comma to the next. */
  const char *at = names ? names : "";
  for (size_t i = 0; i < n; i++) {
    while (*at == ' ' || *at == ',')
      at++;
    const char *end = at;
    for (int depth = 0; *end && (depth > 0 || *end != ','); end++)
      depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
    if (!ptrs[i])
      return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "%.*s is NULL", (int)(end - at), at);
    at = end;
  }
  return CUSCI_OK;
}

cusci_status cusci_workspace_take(cusci_ctx *ctx, const char *fn, void *ws, size_t ws_bytes, size_t need, void **ptr,
                                  cusci_array **held)
{
  CUSCI_ENTRY(ctx, fn, ptr, held);
  *held = NULL;
  if (ws) {
    if (ws_bytes < need)
      return cusci_ctx_fail(ctx, CUSCI_ERR_BUFFER_TOO_SMALL, fn, "the workspace has %zu bytes, the work needs %zu", ws_bytes,
                            need);
    *ptr = ws;
    return CUSCI_OK;
  }
  int64_t n = (int64_t)(need ? need : 1);
  CUSCI_TRY(cusci__array_new(ctx, fn, 1, &n, CUSCI_UINT8, held));
  *ptr = (*held)->data;
  return CUSCI_OK;
}

cusci_status cusci_check_array(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a)
{
  if (!ctx)
    return CUSCI_ERR_NULL_POINTER;
  if (!a)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "%s is NULL", name);
  if (a->device != ctx->device) {
    char da[32], dc[32];
    snprintf(da, sizeof da, a->device < 0 ? "the host" : "GPU %d", a->device);
    snprintf(dc, sizeof dc, ctx->device < 0 ? "the host" : "GPU %d", ctx->device);
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "%s lives on %s, the context on %s", name, da, dc);
  }
  return CUSCI_OK;
}

cusci_status cusci_check_dtype(cusci_ctx *ctx, const char *fn, const char *name, cusci_dtype dt)
{
  if (!cusci_dtype_valid(dt))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "%s is %d, not a cusci_dtype", name, (int)dt);
  return CUSCI_OK;
}

cusci_status cusci_check_shape(cusci_ctx *ctx, const char *fn, const char *name, int ndim, const int64_t *shape, size_t itemsize)
{
  if (ndim < 0 || ndim > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "ndim is %d, expected 0 to %d", ndim, CUSCI_MAX_NDIM);
  if (ndim > 0 && !shape)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "%s is NULL with ndim %d", name, ndim);
  int64_t size = 1;
  bool zero = false;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0)
      return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "%s[%d] is %lld, extents must not be negative", name, i,
                            (long long)shape[i]);
    if (shape[i] == 0)
      zero = true;
  }
  /* A zero extent makes the size 0, but NumPy still refuses shapes whose
   * other extents overflow; check the product of the nonzero extents. */
  for (int i = 0; i < ndim; i++) {
    if (shape[i] == 0)
      continue;
    if (size > INT64_MAX / shape[i]) {
      char buf[256];
      return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "%s %s has more than 2^63-1 elements", name,
                            cusci_shape_str(ndim, shape, buf, sizeof buf));
    }
    size *= shape[i];
  }
  if (zero)
    size = 0;
  if (itemsize && (uint64_t)size > SIZE_MAX / itemsize) {
    char buf[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "%s %s needs more bytes than size_t holds", name,
                          cusci_shape_str(ndim, shape, buf, sizeof buf));
  }
  if (itemsize && (uint64_t)size > (uint64_t)INT64_MAX / itemsize) {
    char buf[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "%s %s needs more than 2^63-1 bytes", name,
                          cusci_shape_str(ndim, shape, buf, sizeof buf));
  }
  return CUSCI_OK;
}

cusci_status cusci_check_out(cusci_ctx *ctx, const char *fn, cusci_array *const *out, int ndim, const int64_t *shape,
                             cusci_dtype dtype, cusci_casting casting)
{
  if (!ctx)
    return CUSCI_ERR_NULL_POINTER;
  if (!out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "out is NULL");
  const cusci_array *o = *out;
  if (!o)
    return CUSCI_OK;
  CUSCI_TRY(cusci_check_array(ctx, fn, "*out", o));
  bool same = o->ndim == ndim;
  for (int i = 0; same && i < ndim; i++)
    same = o->shape[i] == shape[i];
  if (!same) {
    char got[256], want[256];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "*out has shape %s, expected %s",
                          cusci_shape_str(o->ndim, o->shape, got, sizeof got),
                          cusci_shape_str(ndim, shape, want, sizeof want));
  }
  if (casting == CUSCI_CASTING_NO && o->dtype != dtype)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "*out has dtype %s, expected %s", cusci_dtype_name(o->dtype),
                          cusci_dtype_name(dtype));
  if (!cusci_can_cast(dtype, o->dtype, casting))
    return cusci_ctx_fail(ctx, CUSCI_ERR_CAST, fn, "the result (%s) cannot be cast to *out's %s under %s",
                          cusci_dtype_name(dtype), cusci_dtype_name(o->dtype), cusci__casting_name(casting));
  return CUSCI_OK;
}

cusci_status cusci_prepare_out(cusci_ctx *ctx, const char *fn, cusci_array **out, int ndim, const int64_t *shape,
                               cusci_dtype dtype, cusci_array **result)
{
  if (!ctx)
    return CUSCI_ERR_NULL_POINTER;
  if (!out || !result)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "out is NULL");
  if (!*out)
    return cusci__array_new(ctx, fn, ndim, shape, dtype, result);
  CUSCI_TRY(cusci_check_out(ctx, fn, out, ndim, shape, dtype, CUSCI_CASTING_NO));
  *result = *out;
  return CUSCI_OK;
}
