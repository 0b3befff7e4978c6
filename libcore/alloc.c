/*
 * libcore/alloc.c: storage blocks on the host or a GPU.
 */
#include "libcore/internal.h"

#include <stdlib.h>

#include "libcore/backend.h"

cusci_status cusci__storage_new(cusci_ctx *ctx, const char *fn, size_t nbytes, cusci__storage **out)
{
  cusci__storage *s = malloc(sizeof *s);
  if (!s)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for an array header");
  /* Round up to the alignment: aligned_alloc wants a multiple, and a GPU
   * allocation is at least this aligned anyway. */
  size_t rounded = nbytes + (CUSCI__ALIGN - 1);
  if (rounded < nbytes) {
    free(s);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "%zu bytes overflow size_t when aligned", nbytes);
  }
  rounded -= rounded % CUSCI__ALIGN;
  if (rounded == 0)
    rounded = CUSCI__ALIGN;
  atomic_init(&s->refs, 1);
  s->device = ctx->device;
  s->nbytes = nbytes;
  if (ctx->device < 0) {
    s->ptr = aligned_alloc(CUSCI__ALIGN, rounded);
    if (!s->ptr) {
      free(s);
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "out of host memory: asked for %zu bytes", nbytes);
    }
  } else {
    cusci_status st = cusci__gpu_malloc(ctx, fn, rounded, &s->ptr);
    if (st != CUSCI_OK) {
      free(s);
      return st;
    }
  }
  *out = s;
  return CUSCI_OK;
}

void cusci__storage_release(cusci__storage *s)
{
  if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
    return;
  if (s->device < 0)
    free(s->ptr);
  else
    cusci__gpu_free(s->device, s->ptr);
  free(s);
}
