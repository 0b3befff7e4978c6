/*
 * libcore/alloc.c: storage blocks for arrays, from the pools; the pools of
 * the GPUs, of the host and of pinned memory.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcore/internal.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcore/backend.h"
#include "libcore/pool.h"

#define MAX_DEVICES 64

static pthread_mutex_t registry_mu = PTHREAD_MUTEX_INITIALIZER;
static cusci_pool *device_pools[MAX_DEVICES];
static cusci_pool *host_pool, *pinned_pool;

size_t cusci__parse_limit(const char *text, size_t whole, bool *valid)
{
  char *end;
  *valid = false;
  while (isspace((unsigned char)*text))
    text++;
  if (!isdigit((unsigned char)*text) && *text != '.')
    return 0;
  double v = strtod(text, &end);
  while (isspace((unsigned char)*end))
    end++;
  double scale = 1;
  if (*end == '%') {
    if (v <= 0 || v > 100 || end[1] != '\0')
      return 0;
    *valid = true;
    return (size_t)(v / 100.0 * (double)whole);
  }
  switch (toupper((unsigned char)*end)) {
  case 'K': scale = 1024.0; end++; break;
  case 'M': scale = 1024.0 * 1024; end++; break;
  case 'G': scale = 1024.0 * 1024 * 1024; end++; break;
  case 'T': scale = 1024.0 * 1024 * 1024 * 1024; end++; break;
  }
  if (*end == 'i' || *end == 'I')
    end++;
  if (*end == 'B' || *end == 'b')
    end++;
  if (*end != '\0' || v < 0 || v * scale >= 1.8e19)
    return 0;
  *valid = true;
  return (size_t)(v * scale);
}

/* Apply CUSCI_MEMORY_LIMIT to a new pool; `whole` is what a percentage is of. */
static void limit_from_env(cusci_pool *p, size_t whole)
{
  const char *v = getenv("CUSCI_MEMORY_LIMIT");
  bool valid;
  if (v && *v) {
    size_t lim = cusci__parse_limit(v, whole, &valid);
    if (valid)
      cusci_pool_set_limit(p, lim);
  }
}

int cusci__pool_env(void)
{
  const char *v = getenv("CUSCI_POOL");
  if (!v || !*v || !strcmp(v, "on") || !strcmp(v, "1"))
    return 1;
  if (!strcmp(v, "off") || !strcmp(v, "0"))
    return 0;
  return -1;
}

static size_t host_memory(void)
{
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

cusci_pool *cusci__device_pool(int device, char *err, size_t len)
{
  if (device >= MAX_DEVICES || device < CUSCI__DEVICE_PINNED || device == CUSCI_DEVICE_DEFAULT) {
    snprintf(err, len, "no pool for device %d", device);
    return NULL;
  }
  cusci_pool **slot = device >= 0 ? &device_pools[device] : device == CUSCI_DEVICE_HOST ? &host_pool : &pinned_pool;
  pthread_mutex_lock(&registry_mu);
  cusci_pool *p = *slot;
  if (!p) {
    cusci_allocator up;
    cusci_stream_events ev;
    cusci_allocator_kind kind = device >= 0 ? CUSCI_ALLOCATOR_CUDA_MALLOC
                                : device == CUSCI_DEVICE_HOST ? CUSCI_ALLOCATOR_HOST
                                                              : CUSCI_ALLOCATOR_PINNED;
    cusci_status st = cusci_allocator_builtin(kind, device, &up);
    if (st == CUSCI_OK && device >= 0)
      st = cusci__gpu_stream_events(device, &ev);
    if (st == CUSCI_OK)
      st = cusci_pool_create(&up, device >= 0 ? &ev : NULL, cusci__pool_env() != 0, &p);
    if (st != CUSCI_OK) {
      snprintf(err, len, "cannot make the memory pool of device %d: %s", device, cusci_status_string(st));
      pthread_mutex_unlock(&registry_mu);
      return NULL;
    }
    cusci__pool_set_device(p, device);
    size_t whole = host_memory();
    if (device >= 0) {
      char e2[128];
      cusci__gpu_memory(device, NULL, &whole, e2, sizeof e2);
    }
    limit_from_env(p, whole);
    *slot = p;
  }
  pthread_mutex_unlock(&registry_mu);
  return p;
}

cusci_status cusci_pool_set_limit_fraction(cusci_pool *p, double fraction)
{
  if (!p)
    return CUSCI_ERR_NULL_POINTER;
  if (!(fraction > 0 && fraction <= 1))
    return CUSCI_ERR_VALUE;
  size_t whole = host_memory();
  int device = cusci__pool_device(p);
  if (device >= 0) {
    char err[128];
    CUSCI_TRY(cusci__gpu_memory(device, NULL, &whole, err, sizeof err));
  }
  return cusci_pool_set_limit(p, (size_t)(fraction * (double)whole));
}

cusci_pool *cusci_ctx_pool(cusci_ctx *ctx)
{
  return ctx ? ctx->pool : NULL;
}

cusci_pool *cusci_pinned_pool(void)
{
  char err[256];
  int n = 0;
  cusci_device_count(&n);
  return n > 0 ? cusci__device_pool(CUSCI__DEVICE_PINNED, err, sizeof err) : NULL;
}

cusci_status cusci_host_alloc_pinned(size_t bytes, void **ptr)
{
  if (!ptr)
    return CUSCI_ERR_NULL_POINTER;
  cusci_pool *p = cusci_pinned_pool();
  if (!p)
    return CUSCI_ERR_NO_DEVICE;
  return cusci_pool_malloc(p, bytes, NULL, ptr);
}

void cusci_host_free_pinned(void *ptr)
{
  if (ptr)
    cusci_pool_free(pinned_pool, ptr, NULL);
}

/* ------------------------------------------------------------ storage */

cusci_status cusci__storage_new(cusci_ctx *ctx, const char *fn, size_t nbytes, cusci__storage **out)
{
  cusci__storage *s = malloc(sizeof *s);
  if (!s)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for an array header");
  if (ctx->device >= 0) {
    cusci_status st = cusci__gpu_use(ctx, fn);
    if (st != CUSCI_OK) {
      free(s);
      return st;
    }
  }
  cusci_status st = cusci_pool_malloc(ctx->pool, nbytes, ctx->stream, &s->ptr);
  if (st != CUSCI_OK) {
    free(s);
    if (ctx->device >= 0)
      return cusci_ctx_fail(ctx, st, fn, "GPU %d: %s", ctx->device, cusci_pool_last_error(ctx->pool));
    return cusci_ctx_fail(ctx, st, fn, "host: %s", cusci_pool_last_error(ctx->pool));
  }
  atomic_init(&s->refs, 1);
  s->device = ctx->device;
  s->nbytes = nbytes;
  s->pool = ctx->pool;
  s->stream = ctx->stream;
  s->owned = true;
  s->release = NULL;
  s->owner = NULL;
  *out = s;
  return CUSCI_OK;
}

void cusci__storage_release(cusci__storage *s)
{
  if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
    return;
  if (s->owned)
    cusci_pool_free(s->pool, s->ptr, s->stream);
  if (s->release)
    s->release(s->owner);
  free(s);
}
