/*
 * libcore/transfer.c: copies between host memory and a GPU.
 *
 * Plain (pageable) host memory moves through pinned staging buffers: the
 * buffer of chunk k is filled (several threads copying) while the DMA of
 * chunk k-1 runs, with four 16 MiB buffers in flight, so that a malloc'ed buffer
 * moves at close to the pinned rate. Pinned memory, and small copies, go
 * straight to cudaMemcpyAsync.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcore/internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcore/backend.h"
#include "libcore/transfer.h"
#include "reference/core/reference.h"

#define STAGE_CHUNK (16u << 20)
#define STAGE_BUFS 4
#define DIRECT_BELOW (1u << 20)
#define MAX_WORKERS 16

/* ------------------------------------------ a parallel host memcpy */

/*
 * Worker threads that copy parts of one buffer. One job at a time (the
 * caller holds job_mu); workers sleep on a condition between jobs.
 */
static pthread_mutex_t job_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static int n_workers = -1;
static unsigned long generation;
static int pending;
static struct {
  char *dst;
  const char *src;
  size_t n, part;
} job;

static void copy_part(int k)
{
  size_t off = (size_t)k * job.part;
  if (off < job.n)
    memcpy(job.dst + off, job.src + off, off + job.part > job.n ? job.n - off : job.part);
}

static void *worker(void *arg)
{
  int k = (int)(intptr_t)arg;
  unsigned long seen = 0;
  pthread_mutex_lock(&mu);
  for (;;) {
    while (generation == seen)
      pthread_cond_wait(&go, &mu);
    seen = generation;
    pthread_mutex_unlock(&mu);
    copy_part(k);
    pthread_mutex_lock(&mu);
    if (--pending == 0)
      pthread_cond_signal(&done_cv);
  }
  return NULL;
}

/* Start the workers once: one per core beyond the caller's, at most 15. */
static int workers(void)
{
  pthread_mutex_lock(&mu);
  if (n_workers < 0) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int want = cores > 1 ? (int)(cores - 1 < MAX_WORKERS - 1 ? cores - 1 : MAX_WORKERS - 1) : 0;
    n_workers = 0;
    for (int i = 1; i <= want; i++) {
      pthread_t t;
      pthread_attr_t at;
      pthread_attr_init(&at);
      pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
      if (pthread_create(&t, &at, worker, (void *)(intptr_t)i) == 0)
        n_workers++;
      pthread_attr_destroy(&at);
    }
  }
  int n = n_workers;
  pthread_mutex_unlock(&mu);
  return n;
}

void cusci__parallel_memcpy(void *dst, const void *src, size_t n)
{
  int w = n >= (4u << 20) ? workers() : 0;
  if (w == 0) {
    memcpy(dst, src, n);
    return;
  }
  pthread_mutex_lock(&job_mu);
  pthread_mutex_lock(&mu);
  int parts = w + 1;
  job.dst = dst;
  job.src = src;
  job.n = n;
  job.part = ((n + (size_t)parts - 1) / (size_t)parts + 4095) & ~(size_t)4095;
  pending = w;
  generation++;
  pthread_cond_broadcast(&go);
  pthread_mutex_unlock(&mu);
  copy_part(0);
  pthread_mutex_lock(&mu);
  while (pending > 0)
    pthread_cond_wait(&done_cv, &mu);
  pthread_mutex_unlock(&mu);
  pthread_mutex_unlock(&job_mu);
}

/* ------------------------------------------------------- staging */

/* Pinned buffers and their events for one staged copy. */
typedef struct stage {
  void *buf[STAGE_BUFS];
  void *ev[STAGE_BUFS];
} stage;

static void stage_release(cusci_ctx *ctx, stage *sg)
{
  for (int i = 0; i < STAGE_BUFS; i++) {
    cusci_host_free_pinned(sg->buf[i]);
    if (sg->ev[i])
      cusci__gpu_event_destroy(ctx->device, sg->ev[i]);
  }
}

/* Take the buffers; false (nothing held, no error left) when there is no
 * pinned memory to stage through, and the driver must copy instead. */
static bool stage_acquire(cusci_ctx *ctx, const char *fn, stage *sg)
{
  memset(sg, 0, sizeof *sg);
  cusci_status st = CUSCI_OK;
  for (int i = 0; i < STAGE_BUFS && st == CUSCI_OK; i++) {
    st = cusci_host_alloc_pinned(STAGE_CHUNK, &sg->buf[i]);
    if (st == CUSCI_OK)
      st = cusci__gpu_event_create(ctx, fn, &sg->ev[i]);
  }
  if (st == CUSCI_OK)
    return true;
  stage_release(ctx, sg);
  cusci_ctx_clear_error(ctx);
  return false;
}

cusci_status cusci__h2d(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n, bool wait)
{
  if (n == 0)
    return CUSCI_OK;
  if (n < DIRECT_BELOW || cusci__gpu_is_pinned(src)) {
    CUSCI_TRY(cusci__gpu_memcpy_h2d(ctx, fn, dst, src, n));
    return wait ? cusci__gpu_sync(ctx, fn) : CUSCI_OK;
  }
  stage sg;
  if (!stage_acquire(ctx, fn, &sg)) {
    CUSCI_TRY(cusci__gpu_memcpy_h2d(ctx, fn, dst, src, n));
    return cusci__gpu_sync(ctx, fn);
  }
  void *const *buf = sg.buf, *const *ev = sg.ev;
  cusci_status st = CUSCI_OK;
  bool used[STAGE_BUFS] = {false};
  for (size_t off = 0, k = 0; off < n && st == CUSCI_OK; off += STAGE_CHUNK, k++) {
    int i = (int)(k % STAGE_BUFS);
    size_t len = n - off < STAGE_CHUNK ? n - off : STAGE_CHUNK;
    if (used[i])
      st = cusci__gpu_event_sync(ctx, fn, ev[i]); /* the buffer's last DMA is done */
    if (st != CUSCI_OK)
      break;
    cusci__parallel_memcpy(buf[i], (const char *)src + off, len);
    st = cusci__gpu_memcpy_h2d(ctx, fn, (char *)dst + off, buf[i], len);
    if (st == CUSCI_OK)
      st = cusci__gpu_event_record(ctx, fn, ev[i]);
    used[i] = true;
  }
  /* The buffers go back to the pinned pool only once their copies ran. */
  cusci_status st2 = cusci__gpu_sync(ctx, fn);
  stage_release(ctx, &sg);
  (void)wait; /* staging always waits: the buffers must be free on return */
  return st != CUSCI_OK ? st : st2;
}

cusci_status cusci__d2h(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n, bool wait)
{
  if (n == 0)
    return CUSCI_OK;
  if (n < DIRECT_BELOW || cusci__gpu_is_pinned(dst)) {
    CUSCI_TRY(cusci__gpu_memcpy_d2h(ctx, fn, dst, src, n));
    return wait ? cusci__gpu_sync(ctx, fn) : CUSCI_OK;
  }
  stage sg;
  if (!stage_acquire(ctx, fn, &sg)) {
    CUSCI_TRY(cusci__gpu_memcpy_d2h(ctx, fn, dst, src, n));
    return cusci__gpu_sync(ctx, fn);
  }
  void *const *buf = sg.buf, *const *ev = sg.ev;
  cusci_status st = CUSCI_OK;
  /* Queue up to STAGE_BUFS chunk copies ahead; drain each into dst when its
   * event completes, then queue the next into the freed buffer. */
  size_t nchunks = (n + STAGE_CHUNK - 1) / STAGE_CHUNK, queued = 0, drained = 0;
  while (drained < nchunks && st == CUSCI_OK) {
    while (queued < nchunks && queued - drained < STAGE_BUFS && st == CUSCI_OK) {
      int i = (int)(queued % STAGE_BUFS);
      size_t off = queued * STAGE_CHUNK, len = n - off < STAGE_CHUNK ? n - off : STAGE_CHUNK;
      st = cusci__gpu_memcpy_d2h(ctx, fn, buf[i], (const char *)src + off, len);
      if (st == CUSCI_OK)
        st = cusci__gpu_event_record(ctx, fn, ev[i]);
      queued++;
    }
    if (st != CUSCI_OK)
      break;
    int i = (int)(drained % STAGE_BUFS);
    size_t off = drained * STAGE_CHUNK, len = n - off < STAGE_CHUNK ? n - off : STAGE_CHUNK;
    st = cusci__gpu_event_sync(ctx, fn, ev[i]);
    if (st == CUSCI_OK)
      cusci__parallel_memcpy((char *)dst + off, buf[i], len);
    drained++;
  }
  cusci_status st2 = cusci__gpu_sync(ctx, fn);
  stage_release(ctx, &sg);
  (void)wait;
  return st != CUSCI_OK ? st : st2;
}

/* ------------------------------------------------ between devices */

/*
 * The elements of `a` in C order in a contiguous buffer on a's own device:
 * a->data itself when a is contiguous, else a gathered copy in *tmp (host
 * memory, or a block of that GPU's pool), which the caller frees.
 */
static cusci_status contiguous_source(cusci_ctx *ctx, const char *fn, const cusci_array *a, const void **src, void **tmp)
{
  *tmp = NULL;
  if (cusci_array_is_c_contiguous(a)) {
    *src = a->data;
    return CUSCI_OK;
  }
  size_t n = (size_t)a->size * cusci__itemsize[a->dtype];
  int64_t cstr[CUSCI_MAX_NDIM];
  cusci__c_strides(a->ndim, a->shape, cstr);
  const int64_t *strides[2] = {cstr, a->strides};
  cusci_loop loop;
  cusci_loop_init(&loop, a->ndim, a->shape, 2, strides);
  if (a->device < 0) {
    *tmp = malloc(n ? n : 1);
    if (!*tmp)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %zu bytes", n);
    cusci__host_astype(a->dtype, a->dtype, &loop, *tmp, a->data);
  } else {
    CUSCI_TRY(cusci__gpu_gather(ctx, fn, a->device, a->storage->pool, &loop, a->dtype, a->data, n, tmp));
  }
  *src = *tmp;
  return CUSCI_OK;
}

cusci_status cusci_array_to_device(cusci_ctx *ctx, const cusci_array *a, cusci_array **out)
{
  CUSCI_ENTRY(ctx, __func__, a, out);
  if (a->device == ctx->device)
    return cusci_array_copy(ctx, a, out);
  const char *fn = __func__;
  cusci_array *r;
  CUSCI_TRY(cusci_prepare_out(ctx, fn, out, a->ndim, a->shape, a->dtype, &r));
  cusci_array *t = r; /* contiguous landing place */
  cusci_status st = CUSCI_OK;
  if (!cusci_array_is_c_contiguous(r))
    st = cusci__array_new(ctx, fn, r->ndim, r->shape, r->dtype, &t);
  const void *src = NULL;
  void *tmp = NULL;
  if (st == CUSCI_OK)
    st = contiguous_source(ctx, fn, a, &src, &tmp);
  size_t n = (size_t)a->size * cusci__itemsize[a->dtype];
  if (st == CUSCI_OK && n) {
    if (ctx->device < 0)
      st = cusci__gpu_d2h_from(ctx, fn, a->device, t->data, src, n);
    else if (a->device < 0)
      st = cusci__h2d(ctx, fn, t->data, src, n, true);
    else
      st = cusci__gpu_memcpy_peer(ctx, fn, t->data, src, a->device, n);
  }
  if (tmp) {
    if (a->device < 0)
      free(tmp);
    else
      cusci_pool_free(a->storage->pool, tmp, NULL);
  }
  if (st == CUSCI_OK && t != r)
    st = cusci__copy_into(ctx, fn, r, t);
  if (t != r)
    cusci_array_release(t);
  if (st == CUSCI_OK)
    *out = r;
  else if (r != *out)
    cusci_array_release(r);
  return st;
}
