/*
 * liblinalg/options.c: the context options of liblinalg (the math mode of
 * float32 products, immediate or deferred checks of numerical failure) and
 * the records of deferred checks, kept in one context extension slot.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"

/* One deferred call: its status words (batch info words, then the inf/NaN
 * flag) in device memory, and what the message needs. */
typedef struct deferred {
  const char *fn;   /* a static string: the public function's name */
  cusci_array *words;
  int64_t batch;
  bool has_info;    /* false: only the inf/NaN flag is meaningful */
  int kind;         /* CUSCI__LA_FAIL_*, or -1 until the caller tags it */
} deferred;

typedef struct options {
  cusci_linalg_math_mode math;
  cusci_linalg_check_mode check;
  deferred *rec;
  size_t nrec, cap;
} options;

static char options_key; /* its address keys the state on the context */

static void drop_records(options *o)
{
  for (size_t i = 0; i < o->nrec; i++)
    cusci_array_release(o->rec[i].words);
  o->nrec = 0;
}

static void options_destroy(void *p)
{
  options *o = p;
  drop_records(o);
  free(o->rec);
  free(o);
}

static options *get(const cusci_ctx *ctx) { return ctx ? cusci_ctx_ext_get(ctx, &options_key) : NULL; }

static cusci_status get_or_make(cusci_ctx *ctx, const char *fn, options **out)
{
  options *o = get(ctx);
  if (!o) {
    o = calloc(1, sizeof *o);
    if (!o)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no memory for the linalg options");
    cusci_status st = cusci_ctx_ext_set(ctx, &options_key, o, options_destroy);
    if (st != CUSCI_OK) {
      free(o);
      return st;
    }
  }
  *out = o;
  return CUSCI_OK;
}

cusci_status cusci_linalg_set_math_mode(cusci_ctx *ctx, cusci_linalg_math_mode mode)
{
  static const char fn[] = "cusci_linalg_set_math_mode";
  CUSCI_ENTRY_CTX(ctx, fn);
  if ((int)mode < 0 || mode > CUSCI_LINALG_MATH_TF32)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "mode is %d, not a cusci_linalg_math_mode", (int)mode);
  options *o;
  cusci_status st = get_or_make(ctx, fn, &o);
  if (st == CUSCI_OK)
    o->math = mode;
  return st;
}

cusci_linalg_math_mode cusci_linalg_get_math_mode(const cusci_ctx *ctx)
{
  options *o = get(ctx);
  return o ? o->math : CUSCI_LINALG_MATH_DEFAULT;
}

cusci_status cusci_linalg_set_check(cusci_ctx *ctx, cusci_linalg_check_mode mode)
{
  static const char fn[] = "cusci_linalg_set_check";
  CUSCI_ENTRY_CTX(ctx, fn);
  if ((int)mode < 0 || mode > CUSCI_LINALG_CHECK_DEFERRED)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "mode is %d, not a cusci_linalg_check_mode", (int)mode);
  options *o;
  cusci_status st = get_or_make(ctx, fn, &o);
  if (st == CUSCI_OK)
    o->check = mode;
  return st;
}

cusci_linalg_check_mode cusci_linalg_get_check(const cusci_ctx *ctx)
{
  options *o = get(ctx);
  return o ? o->check : CUSCI_LINALG_CHECK_IMMEDIATE;
}

int cusci__la_math_mode(cusci_ctx *ctx) { return (int)cusci_linalg_get_math_mode(ctx); }

bool cusci__la_deferred(cusci_ctx *ctx)
{
  return cusci_ctx_device(ctx) != CUSCI_DEVICE_HOST && cusci_linalg_get_check(ctx) == CUSCI_LINALG_CHECK_DEFERRED;
}

cusci_status cusci__la_defer(cusci_ctx *ctx, const char *fn, cusci_array *words, int64_t batch, bool has_info)
{
  options *o;
  cusci_status st = get_or_make(ctx, fn, &o);
  if (st != CUSCI_OK)
    return st;
  if (o->nrec == o->cap) {
    size_t cap = o->cap ? 2 * o->cap : 16;
    deferred *r = realloc(o->rec, sizeof *r * cap);
    if (!r)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no memory to record a deferred check");
    o->rec = r;
    o->cap = cap;
  }
  o->rec[o->nrec++] = (deferred){ fn, cusci_array_retain(words), batch, has_info, -1 };
  return CUSCI_OK;
}

void cusci__la_defer_tag(cusci_ctx *ctx, int kind)
{
  options *o = get(ctx);
  for (size_t i = o ? o->nrec : 0; i > 0 && o->rec[i - 1].kind < 0; i--)
    o->rec[i - 1].kind = kind;
}

void cusci__la_defer_drop(cusci_ctx *ctx)
{
  options *o = get(ctx);
  while (o && o->nrec > 0 && o->rec[o->nrec - 1].kind < 0) {
    o->nrec--;
    cusci_array_release(o->rec[o->nrec].words);
  }
}

/* Read every record's words (each read waits for the stream; the first
 * does the waiting), report the first failure, drop them all. */
cusci_status cusci_linalg_check(cusci_ctx *ctx)
{
  static const char fn[] = "cusci_linalg_check";
  CUSCI_ENTRY_CTX(ctx, fn);
  options *o = get(ctx);
  if (!o || o->nrec == 0)
    return cusci_ctx_synchronize(ctx);
  cusci_status st = CUSCI_OK;
  int *h = NULL;
  size_t hcap = 0;
  for (size_t r = 0; r < o->nrec && st == CUSCI_OK; r++) {
    deferred *d = &o->rec[r];
    /* The words' array may hold more after the batch + 1 words (a summary). */
    size_t need = cusci_array_nbytes(d->words);
    if (need > hcap) {
      int *nh = realloc(h, need);
      if (!nh) {
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld info words", (long long)d->batch + 1);
        break;
      }
      h = nh;
      hcap = need;
    }
    st = cusci_array_to_host(ctx, d->words, h, need);
    if (st != CUSCI_OK)
      break;
    if (h[d->batch] != 0) {
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, d->fn, "array must not contain infs or NaNs (deferred check)");
      break;
    }
    for (int64_t i = 0; d->has_info && i < d->batch; i++) {
      if (h[i] < 0) {
        st = cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, d->fn, "cuSOLVER rejected argument %d (deferred check)", -h[i]);
        break;
      }
      if (h[i] > 0) {
        int64_t one = d->batch;
        st = cusci__la_fail_linalg(ctx, d->fn, d->kind < 0 ? CUSCI__LA_FAIL_SINGULAR : d->kind, (cusci__la_fail){ i, h[i] }, d->batch > 1 ? 1 : 0,
                                   &one);
        break;
      }
    }
  }
  free(h);
  drop_records(o);
  return st;
}
