/*
 * libsignal/cache.c: the explicit plans of fft.h and the per-context cache
 * that the plain calls use: plans in a list, most recently used first,
 * under a count and a byte limit, and one cuFFT work area for them all.
 */
#include "libsignal/internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct sig_cache {
  size_t max_plans, max_bytes, count;
  uint64_t hits, misses;
  cusci_fft_plan *head, *tail;
  cusci_array *area; /* the shared work area */
  size_t area_bytes;
  void *area_stream; /* the stream it was last used on */
} sig_cache;

static const char cache_key;

static void unlink_plan(sig_cache *c, cusci_fft_plan *p)
{
  if (p->prev)
    p->prev->next = p->next;
  else
    c->head = p->next;
  if (p->next)
    p->next->prev = p->prev;
  else
    c->tail = p->prev;
  p->prev = p->next = NULL;
  c->count--;
}

static void push_front(sig_cache *c, cusci_fft_plan *p)
{
  p->prev = NULL;
  p->next = c->head;
  if (c->head)
    c->head->prev = p;
  c->head = p;
  if (!c->tail)
    c->tail = p;
  c->count++;
}

/* Plans past the count limit go, oldest first. */
static void trim(sig_cache *c)
{
  while (c->count > c->max_plans) {
    cusci_fft_plan *p = c->tail;
    unlink_plan(c, p);
    cusci__sig_plan_free(p);
  }
}

static void cache_destroy(void *state)
{
  sig_cache *c = state;
  c->max_plans = 0;
  trim(c);
  cusci_array_release(c->area);
  free(c);
}

static cusci_status cache_of(cusci_ctx *ctx, const char *fn, sig_cache **out)
{
  sig_cache *c = cusci_ctx_ext_get(ctx, &cache_key);
  if (!c) {
    c = calloc(1, sizeof *c);
    if (!c)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the plan cache");
    c->max_plans = 16;
    c->max_bytes = SIZE_MAX;
    cusci_status st = cusci_ctx_ext_set(ctx, &cache_key, c, cache_destroy);
    if (st != CUSCI_OK) {
      free(c);
      return st;
    }
  }
  *out = c;
  return CUSCI_OK;
}

static bool same_key(const sig_key *a, const sig_key *b)
{
  if (a->kind != b->kind || a->type != b->type || a->norm != b->norm || a->ndim != b->ndim || a->dtype != b->dtype || a->naxes != b->naxes)
    return false;
  const size_t nd = (size_t)a->ndim, na = (size_t)a->naxes;
  return !memcmp(a->axes, b->axes, na * sizeof *a->axes) && !memcmp(a->s, b->s, na * sizeof *a->s) &&
         !memcmp(a->shape, b->shape, nd * sizeof *a->shape) && !memcmp(a->strides, b->strides, nd * sizeof *a->strides);
}

/* The work area for p: the shared one, grown to p's need, or NULL with
 * *own set to scratch of its own when p needs more than the limit. */
static cusci_status area_for(cusci_ctx *ctx, const char *fn, sig_cache *c, const cusci_fft_plan *p, void **work, cusci_array **own)
{
  *work = NULL;
  *own = NULL;
  if (!p->work)
    return CUSCI_OK;
  if (p->work > c->max_bytes)
    return cusci_workspace_take(ctx, fn, NULL, 0, p->work, work, own);
  void *stream = cusci_ctx_stream(ctx);
  if (p->work > c->area_bytes || stream != c->area_stream) {
    /* The pool orders the old area's reuse after the work queued on it. */
    size_t bytes = p->work > c->area_bytes ? p->work : c->area_bytes;
    cusci_array_release(c->area);
    c->area = NULL;
    c->area_bytes = 0;
    void *ptr;
    CUSCI_TRY(cusci_workspace_take(ctx, fn, NULL, 0, bytes, &ptr, &c->area));
    c->area_bytes = bytes;
    c->area_stream = stream;
  }
  *work = cusci_array_data(c->area);
  return CUSCI_OK;
}

static cusci_status call(cusci_ctx *ctx, const char *fn, int kind, int type, const cusci_array *x, int naxes, const int64_t *s, const int *axes,
                         cusci_fft_norm norm, cusci_array **out);

/*
 * The DCT/DST of complex x, as SciPy's: of the real and the imaginary
 * parts apart, through x seen as real with a last axis of 2 (the parts),
 * into a complex result seen the same way.
 */
static cusci_status complex_trig(cusci_ctx *ctx, const char *fn, int kind, int type, const cusci_array *x, int naxes, const int64_t *s,
                                 const int *axes, cusci_fft_norm norm, cusci_array **out)
{
  const int nd = cusci_array_ndim(x);
  if (nd >= SIG_MAXD)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "x has %d dimensions: a complex DCT/DST takes at most %d", nd, SIG_MAXD - 1);
  if (naxes < 0 || naxes > nd)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "%d axes for an array of %d dimensions", naxes, nd);
  /* The axes in x's numbering, which the real view shares. */
  int ax[SIG_MAXD];
  const int na = naxes == 0 && !axes && !s ? nd : naxes;
  for (int i = 0; i < na; i++) {
    int a = axes ? axes[i] : nd - na + i;
    if (a < -nd || a >= nd)
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of range for an array of %d dimensions", a, nd);
    ax[i] = a < 0 ? a + nd : a;
  }
  const cusci_dtype dt = cusci_array_dtype(x), rt = dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : CUSCI_FLOAT64;
  int64_t shape[SIG_MAXD], strides[SIG_MAXD], oshape[SIG_MAXD];
  for (int i = 0; i < nd; i++) {
    shape[i] = cusci_array_shape(x)[i];
    strides[i] = 2 * cusci_array_strides(x)[i];
    oshape[i] = shape[i];
  }
  shape[nd] = 2, strides[nd] = 1, oshape[nd] = 2;
  for (int i = 0; i < na; i++)
    if (s && s[i] != -1)
      oshape[ax[i]] = s[i];
  cusci_array *xr = NULL, *res = NULL, *rr = NULL;
  cusci_status st = cusci_array_wrap(ctx, cusci_array_data(x), nd + 1, shape, strides, rt, &xr);
  for (int i = 0; st == CUSCI_OK && i < na; i++)
    if (oshape[ax[i]] < 1)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "invalid number of data points (%lld) along axis %d", (long long)oshape[ax[i]], ax[i]);
  if (st == CUSCI_OK)
    st = cusci_check_out(ctx, fn, out, nd, oshape, dt, CUSCI_CASTING_NO);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, oshape, dt, &res);
  if (st == CUSCI_OK)
    st = cusci_array_wrap(ctx, cusci_array_data(res), nd + 1, oshape, NULL, rt, &rr);
  if (st == CUSCI_OK)
    st = call(ctx, fn, kind, type, xr, na, s, ax, norm, &rr);
  cusci_array_release(xr);
  cusci_array_release(rr);
  if (st != CUSCI_OK) {
    cusci_array_release(res);
    return st;
  }
  return cusci_give_out(ctx, fn, res, out);
}

cusci_status cusci__sig_call(cusci_ctx *ctx, const char *fn, int kind, int type, const cusci_array *x, int naxes, const int64_t *s,
                             const int *axes, cusci_fft_norm norm, cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (kind >= SIG_DCT && cusci_dtype_kind(cusci_array_dtype(x)) == 'c') {
    return complex_trig(ctx, fn, kind, type, x, naxes, s, axes, norm, out);
  }
  return call(ctx, fn, kind, type, x, naxes, s, axes, norm, out);
}

static cusci_status call(cusci_ctx *ctx, const char *fn, int kind, int type, const cusci_array *x, int naxes, const int64_t *s, const int *axes,
                         cusci_fft_norm norm, cusci_array **out)
{
  sig_key key;
  CUSCI_TRY(cusci__sig_key(ctx, fn, kind, type, cusci_array_ndim(x), cusci_array_shape(x), cusci_array_strides(x), cusci_array_dtype(x), naxes,
                           s, axes, norm, &key));
  sig_cache *c;
  CUSCI_TRY(cache_of(ctx, fn, &c));
  cusci_fft_plan *p = c->head;
  while (p && !same_key(&p->key, &key))
    p = p->next;
  if (p) {
    c->hits++;
    if (p != c->head) {
      unlink_plan(c, p);
      push_front(c, p);
    }
  } else {
    c->misses++;
    CUSCI_TRY(cusci__sig_plan(ctx, fn, &key, &p));
    if (c->max_plans && p->work <= c->max_bytes) {
      p->cached = true;
      push_front(c, p);
      trim(c);
    }
  }
  void *work;
  cusci_array *own;
  cusci_status st = area_for(ctx, fn, c, p, &work, &own);
  if (st == CUSCI_OK)
    st = cusci__sig_run(ctx, fn, p, x, NULL, work, out);
  cusci_array_release(own);
  if (!p->cached)
    cusci__sig_plan_free(p);
  return st;
}

/* ------------------------------------------------------------ the API */

cusci_status cusci_fft_cache_set_limits(cusci_ctx *ctx, size_t max_plans, size_t max_work_bytes)
{
  static const char fn[] = "cusci_fft_cache_set_limits";
  CUSCI_ENTRY_CTX(ctx, fn);
  sig_cache *c;
  CUSCI_TRY(cache_of(ctx, fn, &c));
  c->max_plans = max_plans;
  c->max_bytes = max_work_bytes;
  for (cusci_fft_plan *p = c->head, *next; p; p = next) {
    next = p->next;
    if (p->work > max_work_bytes) {
      unlink_plan(c, p);
      cusci__sig_plan_free(p);
    }
  }
  trim(c);
  if (c->area_bytes > max_work_bytes) {
    cusci_array_release(c->area);
    c->area = NULL;
    c->area_bytes = 0;
  }
  return CUSCI_OK;
}

cusci_status cusci_fft_cache_get_info(cusci_ctx *ctx, cusci_fft_cache_info *info)
{
  static const char fn[] = "cusci_fft_cache_get_info";
  CUSCI_ENTRY(ctx, fn, info);
  sig_cache *c;
  CUSCI_TRY(cache_of(ctx, fn, &c));
  info->plans = c->count;
  info->max_plans = c->max_plans;
  info->work_bytes = c->area_bytes;
  info->max_work_bytes = c->max_bytes;
  info->hits = c->hits;
  info->misses = c->misses;
  return CUSCI_OK;
}

cusci_status cusci_fft_cache_clear(cusci_ctx *ctx)
{
  static const char fn[] = "cusci_fft_cache_clear";
  CUSCI_ENTRY_CTX(ctx, fn);
  sig_cache *c;
  CUSCI_TRY(cache_of(ctx, fn, &c));
  size_t keep = c->max_plans;
  c->max_plans = 0;
  trim(c);
  c->max_plans = keep;
  cusci_array_release(c->area);
  c->area = NULL;
  c->area_bytes = 0;
  return CUSCI_OK;
}

cusci_status cusci_fft_plan_create(cusci_ctx *ctx, cusci_fft_kind kind, int ndim, const int64_t *shape, const int64_t *strides, cusci_dtype dtype,
                                   int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_fft_plan **plan)
{
  static const char fn[] = "cusci_fft_plan_create";
  CUSCI_ENTRY(ctx, fn, plan);
  *plan = NULL;
  if (ndim > 0 && !shape)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "shape is NULL");
  if ((int)kind < CUSCI_FFT_KIND_FFT || kind > CUSCI_FFT_KIND_IHFFT)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "kind %d is not a cusci_fft_kind", (int)kind);
  sig_key key;
  CUSCI_TRY(cusci__sig_key(ctx, fn, (int)kind, 0, ndim, shape, strides, dtype, naxes, s, axes, norm, &key));
  return cusci__sig_plan(ctx, fn, &key, plan);
}

size_t cusci_fft_plan_workspace_size(const cusci_fft_plan *plan)
{
  return plan ? plan->stage_bytes + (plan->work + 255) / 256 * 256 : 0;
}

void cusci_fft_plan_result(const cusci_fft_plan *plan, int64_t *shape, cusci_dtype *dtype)
{
  if (!plan)
    return;
  if (shape)
    memcpy(shape, plan->oshape, (size_t)plan->key.ndim * sizeof *shape);
  if (dtype)
    *dtype = plan->odt;
}

cusci_status cusci_fft_plan_execute(cusci_ctx *ctx, cusci_fft_plan *plan, const cusci_array *x, void *workspace, size_t workspace_bytes,
                                    cusci_array **out)
{
  static const char fn[] = "cusci_fft_plan_execute";
  CUSCI_ENTRY(ctx, fn, plan, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (plan->ctx != ctx)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "the plan belongs to another context");
  const sig_key *k = &plan->key;
  if (cusci_array_dtype(x) != k->dtype)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "x is %s, the plan's arrays %s", cusci_dtype_name(cusci_array_dtype(x)),
                          cusci_dtype_name(k->dtype));
  bool same = cusci_array_ndim(x) == k->ndim;
  for (int i = 0; same && i < k->ndim; i++)
    same = cusci_array_shape(x)[i] == k->shape[i] && (k->shape[i] < 2 || cusci_array_strides(x)[i] == k->strides[i]);
  if (!same) {
    char a[160], b[160];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "x has shape %s (or other strides); the plan's arrays %s",
                          cusci_shape_str(cusci_array_ndim(x), cusci_array_shape(x), a, sizeof a), cusci_shape_str(k->ndim, k->shape, b, sizeof b));
  }
  size_t need = cusci_fft_plan_workspace_size(plan);
  if (workspace && workspace_bytes < need)
    return cusci_ctx_fail(ctx, CUSCI_ERR_BUFFER_TOO_SMALL, fn, "the workspace has %zu bytes; the plan needs %zu", workspace_bytes, need);
  void *stage = workspace, *work = workspace ? (char *)workspace + plan->stage_bytes : NULL;
  cusci_array *held = NULL;
  if (!workspace && plan->work)
    CUSCI_TRY(cusci_workspace_take(ctx, fn, NULL, 0, plan->work, &work, &held));
  cusci_status st = cusci__sig_run(ctx, fn, plan, x, stage, work, out);
  cusci_array_release(held);
  return st;
}

void cusci_fft_plan_destroy(cusci_fft_plan *plan)
{
  if (!plan)
    return;
  if (plan->gpu)
    cusci_ctx_use_device(plan->ctx, "cusci_fft_plan_destroy");
  cusci__sig_plan_free(plan);
}
