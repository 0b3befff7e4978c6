/*
 * libcore/pool.c: the caching memory pool, independent of where its memory
 * comes from.
 *
 * Chunks come from an upstream allocator and are cut into blocks kept in
 * address order, so that a freed block merges with free neighbours. Small
 * requests (up to 1 MiB) share 2 MiB chunks of their own; large ones get
 * chunks rounded to 2 MiB. Free
 * blocks sit in size-class bins (four per power of two); a request takes the
 * smallest free block that fits and that its stream may use (best fit),
 * splitting off the rest. Stream order: a block freed on stream S keeps S
 * and an event recorded on S; S reuses it at once, another stream once the
 * event has completed. Every public function takes the pool's mutex.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcore/internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcore/pool.h"

#define ROUND 512
#define SMALL_REQUEST (1u << 20)  /* requests up to this share chunks of: */
#define SMALL_CHUNK (2u << 20)
#define LARGE_GRAIN (2u << 20)   /* larger chunks are rounded to this */
#define NBINS 256

typedef struct chunk chunk;
typedef struct block block;

struct block {
  char *ptr;
  size_t size;
  block *prev, *next;   /* address neighbours within the chunk */
  block *fprev, *fnext; /* links in a free bin */
  chunk *chunk;
  bool free;
  void *stream; /* stream of the last use; NULL: any stream may use it */
  void *event;  /* recorded on `stream` once another stream asked; or NULL */
};

struct chunk {
  char *base;
  size_t size;
  bool small; /* serves requests up to SMALL_REQUEST, and only those */
  bool vmm;   /* the pool's virtual arena */
  void *stream; /* stream passed to the upstream allocator */
  chunk *prev, *next;
};

struct cusci_pool {
  pthread_mutex_t mu;
  cusci_allocator up;
  cusci_stream_events ev;
  bool has_events;
  bool caching;
  int device; /* for messages and limit fractions; CUSCI_DEVICE_HOST, or -3 for pinned */
  size_t used, total, limit;
  size_t n_free;
  block *bins[NBINS];
  chunk *chunks;
  /* Virtual memory: large requests come from one reserved range (the
   * arena) whose granules are mapped while a block needs them. */
  bool has_vmm;
  cusci_vmm_ops vmm;
  size_t arena_bytes;
  chunk *arena;
  void **granule; /* handle of each mapped granule of the arena, or NULL */
  /* ptr -> block of blocks in use: open addressing, linear probing */
  block **table;
  size_t table_cap, table_n;
  /* streams registered as live, with counts */
  void **streams;
  int *stream_refs;
  int n_streams, cap_streams;
  char err[512];
};

/* ------------------------------------------------------------ helpers */

static void pool_msg(cusci_pool *p, const char *fmt, ...) CUSCI_PRINTF_(2, 3);
static void pool_msg(cusci_pool *p, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err, sizeof p->err, fmt, ap);
  va_end(ap);
}

static int bin_of(size_t size)
{
  size_t units = size / ROUND; /* >= 1 */
  int log = 63 - __builtin_clzll((unsigned long long)units);
  int sub = log >= 2 ? (int)((units >> (log - 2)) & 3) : (int)((units << (2 - log)) & 3);
  int b = log * 4 + sub;
  return b < NBINS ? b : NBINS - 1;
}

static void bin_insert(cusci_pool *p, block *b)
{
  int i = bin_of(b->size);
  b->fprev = NULL;
  b->fnext = p->bins[i];
  if (b->fnext)
    b->fnext->fprev = b;
  p->bins[i] = b;
  p->n_free++;
}

static void bin_remove(cusci_pool *p, block *b)
{
  if (b->fprev)
    b->fprev->fnext = b->fnext;
  else
    p->bins[bin_of(b->size)] = b->fnext;
  if (b->fnext)
    b->fnext->fprev = b->fprev;
  b->fprev = b->fnext = NULL;
  p->n_free--;
}

static size_t hash_ptr(const void *ptr, size_t cap)
{
  uint64_t x = (uint64_t)(uintptr_t)ptr >> 9;
  x *= UINT64_C(0x9E3779B97F4A7C15);
  return (size_t)(x >> 17) & (cap - 1);
}

static bool table_put(cusci_pool *p, block *b)
{
  if ((p->table_n + 1) * 2 > p->table_cap) {
    size_t cap = p->table_cap ? p->table_cap * 2 : 256;
    block **t = calloc(cap, sizeof *t);
    if (!t)
      return false;
    for (size_t i = 0; i < p->table_cap; i++)
      if (p->table[i]) {
        size_t j = hash_ptr(p->table[i]->ptr, cap);
        while (t[j])
          j = (j + 1) & (cap - 1);
        t[j] = p->table[i];
      }
    free(p->table);
    p->table = t;
    p->table_cap = cap;
  }
  size_t j = hash_ptr(b->ptr, p->table_cap);
  while (p->table[j])
    j = (j + 1) & (p->table_cap - 1);
  p->table[j] = b;
  p->table_n++;
  return true;
}

static block *table_take(cusci_pool *p, const void *ptr)
{
  if (!p->table_cap)
    return NULL;
  size_t j = hash_ptr(ptr, p->table_cap);
  while (p->table[j] && p->table[j]->ptr != ptr)
    j = (j + 1) & (p->table_cap - 1);
  block *b = p->table[j];
  if (!b)
    return NULL;
  /* Remove with backward-shift deletion to keep probe chains intact. */
  p->table[j] = NULL;
  p->table_n--;
  size_t k = (j + 1) & (p->table_cap - 1);
  while (p->table[k]) {
    block *m = p->table[k];
    p->table[k] = NULL;
    size_t h = hash_ptr(m->ptr, p->table_cap);
    while (p->table[h])
      h = (h + 1) & (p->table_cap - 1);
    p->table[h] = m;
    k = (k + 1) & (p->table_cap - 1);
  }
  return b;
}

static bool stream_live(const cusci_pool *p, const void *stream)
{
  for (int i = 0; i < p->n_streams; i++)
    if (p->streams[i] == stream)
      return true;
  return false;
}

/* Drop a free block's event. */
static void drop_event(cusci_pool *p, block *b)
{
  if (b->event)
    p->ev.destroy(p->ev.user, b->event);
  b->event = NULL;
}

/* May `stream` use free block b? Another stream's block becomes free for
 * all once an event on that stream, recorded on the first ask, completes. */
static bool usable(cusci_pool *p, block *b, void *stream)
{
  if (!b->stream || b->stream == stream || !p->has_events)
    return true;
  if (!b->event)
    b->event = p->ev.record(p->ev.user, b->stream);
  if (b->event && p->ev.done(p->ev.user, b->event)) {
    drop_event(p, b);
    b->stream = NULL;
    return true;
  }
  return false;
}

/* Block the host until the work of b's stream is done; b is then free for all. */
static void wait_block(cusci_pool *p, block *b)
{
  if (b->stream && p->has_events) {
    if (!b->event)
      b->event = p->ev.record(p->ev.user, b->stream);
    if (b->event)
      p->ev.wait(p->ev.user, b->event);
  }
  drop_event(p, b);
  b->stream = NULL;
}

/* ------------------------------------------------------ the arena */

/* Granules [g0, g1) of the arena: unmap those mapped. */
static void unmap_granules(cusci_pool *p, size_t g0, size_t g1)
{
  size_t gr = p->vmm.granule;
  for (size_t g = g0; g < g1; g++)
    if (p->granule[g]) {
      p->vmm.unmap(p->vmm.user, p->arena->base + g * gr, gr, p->granule[g]);
      p->granule[g] = NULL;
      p->total -= gr;
    }
}

/* Unmap the granules lying wholly inside free block b of the arena. */
static void unmap_free_block(cusci_pool *p, block *b)
{
  size_t gr = p->vmm.granule, off = (size_t)(b->ptr - p->arena->base);
  size_t g0 = (off + gr - 1) / gr, g1 = (off + b->size) / gr;
  if (g1 > g0)
    unmap_granules(p, g0, g1);
}

/*
 * Map every unmapped granule under [ptr, ptr + size). False when the limit
 * or the device says no; granules mapped before the failure stay mapped
 * and count as cached memory, which the next release gives back.
 */
static bool map_block(cusci_pool *p, const char *ptr, size_t size)
{
  size_t gr = p->vmm.granule, off = (size_t)(ptr - p->arena->base);
  size_t g0 = off / gr, g1 = (off + size + gr - 1) / gr, need = 0;
  for (size_t g = g0; g < g1; g++)
    need += p->granule[g] == NULL;
  if (p->limit && p->total + need * gr > p->limit)
    return false;
  for (size_t g = g0; g < g1; g++) {
    if (p->granule[g])
      continue;
    p->granule[g] = p->vmm.map(p->vmm.user, p->arena->base + g * gr, gr);
    if (!p->granule[g])
      return false;
    p->total += gr;
  }
  return true;
}

static bool arena_create(cusci_pool *p)
{
  chunk *c = calloc(1, sizeof *c);
  block *b = calloc(1, sizeof *b);
  size_t n = p->arena_bytes / p->vmm.granule;
  void **g = calloc(n ? n : 1, sizeof *g);
  void *va = c && b && g ? p->vmm.reserve(p->vmm.user, n * p->vmm.granule) : NULL;
  if (!va) {
    free(c);
    free(b);
    free(g);
    return false;
  }
  c->base = va;
  c->size = n * p->vmm.granule;
  c->vmm = true;
  c->next = p->chunks;
  if (p->chunks)
    p->chunks->prev = c;
  p->chunks = c;
  b->ptr = va;
  b->size = c->size;
  b->chunk = c;
  b->free = true;
  p->arena = c;
  p->granule = g;
  bin_insert(p, b);
  return true;
}

static void arena_destroy(cusci_pool *p);

/* Drop the arena with its free blocks (none may be in use). */
static void arena_drop(cusci_pool *p)
{
  for (int i = 0; i < NBINS; i++)
    for (block *b = p->bins[i], *next; b; b = next) {
      next = b->fnext;
      if (b->chunk->vmm) {
        bin_remove(p, b);
        free(b);
      }
    }
  arena_destroy(p);
}

static void arena_destroy(cusci_pool *p)
{
  if (!p->arena)
    return;
  unmap_granules(p, 0, p->arena->size / p->vmm.granule);
  chunk *c = p->arena;
  if (c->prev)
    c->prev->next = c->next;
  else
    p->chunks = c->next;
  if (c->next)
    c->next->prev = c->prev;
  p->vmm.unreserve(p->vmm.user, c->base, c->size);
  free(c);
  free(p->granule);
  p->granule = NULL;
  p->arena = NULL;
}

/* ------------------------------------------------------------ chunks */

static void chunk_release(cusci_pool *p, chunk *c)
{
  if (c->prev)
    c->prev->next = c->next;
  else
    p->chunks = c->next;
  if (c->next)
    c->next->prev = c->prev;
  p->up.free(p->up.user, c->base, c->size, c->stream);
  p->total -= c->size;
  free(c);
}

/* Give back every chunk that is one free block; returns bytes freed.
 * Without `wait`, chunks whose stream may still be using them are kept. */
static size_t release_chunks(cusci_pool *p, bool wait)
{
  size_t freed = 0;
  for (int i = 0; i < NBINS; i++) {
    block *b = p->bins[i];
    while (b) {
      block *next = b->fnext;
      if (b->chunk->vmm) {
        if (wait || usable(p, b, NULL)) {
          size_t before = p->total;
          wait_block(p, b);
          unmap_free_block(p, b);
          freed += before - p->total;
        }
      } else if (b->size == b->chunk->size && (wait || usable(p, b, NULL))) {
        wait_block(p, b);
        bin_remove(p, b);
        freed += b->chunk->size;
        chunk_release(p, b->chunk);
        free(b);
      }
      b = next;
    }
  }
  return freed;
}

static size_t release_free_chunks(cusci_pool *p)
{
  return release_chunks(p, true);
}

/* A new chunk holding at least `size` bytes, as one free block. */
static block *chunk_new(cusci_pool *p, size_t size, void *stream)
{
  size_t csize;
  if (!p->caching)
    csize = size;
  else if (size <= SMALL_REQUEST)
    csize = SMALL_CHUNK;
  else
    csize = (size + LARGE_GRAIN - 1) / LARGE_GRAIN * LARGE_GRAIN;
  if (csize < size)
    csize = size; /* overflow of the rounding */
  if (p->limit && p->total + csize > p->limit && p->total + size <= p->limit)
    csize = size; /* the rounding alone would break the limit */
  if (p->limit && p->total + csize > p->limit) {
    release_free_chunks(p);
    if (p->total + csize > p->limit)
      return NULL;
  }
  /*
   * Growing while holding cached memory that could not serve this request
   * is how a caching pool ends up holding far more than it uses. When the
   * cache is as large as the new chunk, or a quarter of what is in use,
   * give back the chunks that are wholly free before taking more.
   */
  size_t cached = p->total - p->used;
  if (p->caching && cached > 0 && (cached >= csize || cached > p->used / 4))
    release_chunks(p, false);
  chunk *c = calloc(1, sizeof *c);
  block *b = calloc(1, sizeof *b);
  if (!c || !b) {
    free(c);
    free(b);
    return NULL;
  }
  void *mem = p->up.alloc(p->up.user, csize, stream);
  if (!mem) {
    /* Out of memory upstream: give back what is cached and try once more. */
    release_free_chunks(p);
    mem = p->up.alloc(p->up.user, csize, stream);
    if (!mem && csize > size) {
      csize = size;
      mem = p->up.alloc(p->up.user, csize, stream);
    }
  }
  if (!mem) {
    free(c);
    free(b);
    return NULL;
  }
  c->base = mem;
  c->size = csize;
  c->small = size <= SMALL_REQUEST;
  c->stream = stream;
  c->next = p->chunks;
  if (p->chunks)
    p->chunks->prev = c;
  p->chunks = c;
  p->total += csize;
  b->ptr = mem;
  b->size = csize;
  b->chunk = c;
  b->free = true;
  b->stream = NULL;
  return b;
}

/* ------------------------------------------------------------ the API */

cusci_status cusci_pool_create(const cusci_allocator *upstream, const cusci_stream_events *events, bool caching,
                               cusci_pool **out)
{
  if (!upstream || !out || !upstream->alloc || !upstream->free)
    return CUSCI_ERR_NULL_POINTER;
  cusci_pool *p = calloc(1, sizeof *p);
  if (!p)
    return CUSCI_ERR_OUT_OF_MEMORY;
  pthread_mutex_init(&p->mu, NULL);
  p->up = *upstream;
  if (events && events->record && events->done && events->wait && events->destroy) {
    p->ev = *events;
    p->has_events = true;
  }
  p->caching = caching;
  p->device = CUSCI_DEVICE_HOST;
  *out = p;
  return CUSCI_OK;
}

void cusci__pool_set_device(cusci_pool *p, int device)
{
  p->device = device;
}

int cusci__pool_device(const cusci_pool *p)
{
  return p->device;
}

void cusci_pool_destroy(cusci_pool *p)
{
  if (!p)
    return;
  pthread_mutex_lock(&p->mu);
  release_free_chunks(p);
  arena_drop(p);
  /* Blocks still in use keep their chunks; give those back too. */
  while (p->chunks)
    chunk_release(p, p->chunks);
  for (size_t i = 0; i < p->table_cap; i++)
    free(p->table[i]);
  free(p->table);
  free(p->streams);
  free(p->stream_refs);
  pthread_mutex_unlock(&p->mu);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

/* May free blocks b and n (n follows b) merge? Not across chunks, and not
 * when each is tagged with a different stream. */
static bool can_merge(const block *b, const block *n)
{
  return n && b->free && n->free && n->chunk == b->chunk && (!b->stream || !n->stream || b->stream == n->stream);
}

/* Merge `gone`, which directly follows `keep`. The result carries whichever
 * stream tag they had; a pending event no longer covers the whole, so it is
 * dropped and recorded afresh when another stream asks. */
static void absorb(cusci_pool *p, block *keep, block *gone)
{
  keep->size += gone->size;
  keep->next = gone->next;
  if (gone->next)
    gone->next->prev = keep;
  if (!keep->stream)
    keep->stream = gone->stream;
  drop_event(p, keep);
  drop_event(p, gone);
  free(gone);
}

/* Put free block b back: merge it with free neighbours, then into a bin. */
static void release_block(cusci_pool *p, block *b)
{
  if (can_merge(b, b->next)) {
    block *n = b->next;
    bin_remove(p, n);
    absorb(p, b, n);
  }
  if (b->prev && can_merge(b->prev, b)) {
    block *q = b->prev;
    bin_remove(p, q);
    absorb(p, q, b);
    b = q;
  }
  bin_insert(p, b);
}

cusci_status cusci_pool_malloc(cusci_pool *p, size_t bytes, void *stream, void **ptr)
{
  if (!p || !ptr)
    return CUSCI_ERR_NULL_POINTER;
  /* Without caching every request is its own allocation of exactly the
   * bytes asked (one for none), so that a memory checker sees each array's
   * end; with caching, sizes are rounded and blocks share chunks. */
  size_t size = !p->caching ? (bytes ? bytes : 1) : bytes ? (bytes + ROUND - 1) / ROUND * ROUND : ROUND;
  if (size < bytes) {
    pool_msg(p, "out of memory: %zu bytes cannot be rounded up to a multiple of %d", bytes, ROUND);
    return CUSCI_ERR_OUT_OF_MEMORY;
  }
  pthread_mutex_lock(&p->mu);
  block *best = NULL;
  /* Small and large requests use separate chunks, so that a small block
   * kept alive never pins a large chunk that is otherwise free. */
  bool small = size <= SMALL_REQUEST;
  bool arena = p->has_vmm && p->caching && !small;
  if (arena && !p->arena && !arena_create(p)) {
    pool_msg(p, "out of memory: cannot reserve %zu bytes of addresses for the pool", p->arena_bytes);
    pthread_mutex_unlock(&p->mu);
    return CUSCI_ERR_OUT_OF_MEMORY;
  }
  if (p->caching) {
    /* Best fit: the smallest usable block in the first bin that has one. */
    for (int i = bin_of(size); i < NBINS && !best; i++)
      for (block *b = p->bins[i]; b; b = b->fnext)
        if (b->size >= size && b->chunk->small == small && b->chunk->vmm == arena &&
            (!best || b->size < best->size) && usable(p, b, stream))
          best = b;
    if (best)
      bin_remove(p, best);
  }
  if (!best && arena) {
    pool_msg(p, "out of memory: the pool's %zu bytes of addresses are used up", p->arena_bytes);
    pthread_mutex_unlock(&p->mu);
    return CUSCI_ERR_OUT_OF_MEMORY;
  }
  if (!best) {
    best = chunk_new(p, size, stream);
    if (!best) {
      pool_msg(p, "out of memory: asked for %zu bytes; %zu in use, %zu held by the pool, limit %zu%s", bytes, p->used,
               p->total, p->limit, p->limit ? "" : " (none)");
      pthread_mutex_unlock(&p->mu);
      return CUSCI_ERR_OUT_OF_MEMORY;
    }
  }
  /* Split off what this request does not need; the rest keeps the tag. */
  if (best->size - size >= ROUND && p->caching) {
    block *rest = calloc(1, sizeof *rest);
    if (rest) {
      rest->ptr = best->ptr + size;
      rest->size = best->size - size;
      rest->chunk = best->chunk;
      rest->prev = best;
      rest->next = best->next;
      if (best->next)
        best->next->prev = rest;
      best->next = rest;
      rest->free = true;
      rest->stream = best->stream;
      best->size = size;
      bin_insert(p, rest);
    }
  }
  drop_event(p, best);
  if (arena) {
    /* Back the block with memory. Granules it already has need nothing;
     * if mapping the rest would leave the pool holding, elsewhere, more
     * than a quarter of what is in use, give that back first. */
    size_t gr = p->vmm.granule, off = (size_t)(best->ptr - p->arena->base), own = 0;
    for (size_t g = off / gr; g < (off + best->size + gr - 1) / gr; g++)
      own += p->granule[g] ? gr : 0;
    size_t elsewhere = p->total - p->used - own;
    if (own < best->size && elsewhere > (p->used + best->size) / 4)
      release_chunks(p, false);
    bool mapped = map_block(p, best->ptr, best->size);
    if (!mapped) {
      release_free_chunks(p);
      mapped = map_block(p, best->ptr, best->size);
    }
    if (!mapped) {
      best->stream = NULL;
      release_block(p, best);
      pool_msg(p, "out of memory: asked for %zu bytes; %zu in use, %zu held by the pool, limit %zu%s", bytes, p->used,
               p->total, p->limit, p->limit ? "" : " (none)");
      pthread_mutex_unlock(&p->mu);
      return CUSCI_ERR_OUT_OF_MEMORY;
    }
  }
  best->free = false;
  best->stream = stream;
  if (!table_put(p, best)) {
    best->free = true;
    best->stream = NULL;
    bin_insert(p, best);
    pool_msg(p, "out of host memory for the pool's table");
    pthread_mutex_unlock(&p->mu);
    return CUSCI_ERR_OUT_OF_MEMORY;
  }
  p->used += best->size;
  *ptr = best->ptr;
  pthread_mutex_unlock(&p->mu);
  return CUSCI_OK;
}

void cusci_pool_free(cusci_pool *p, void *ptr, void *stream)
{
  if (!p || !ptr)
    return;
  pthread_mutex_lock(&p->mu);
  block *b = table_take(p, ptr);
  if (!b) {
    pool_msg(p, "cusci_pool_free: %p was not taken from this pool", ptr);
    pthread_mutex_unlock(&p->mu);
    return;
  }
  p->used -= b->size;
  b->free = true;
  /* Tag the stream of the last use, if it is one the pool knows to be live;
   * an unknown stream has been synchronised by its context's end. */
  b->stream = p->has_events && stream && stream_live(p, stream) ? stream : NULL;
  if (!p->caching) {
    wait_block(p, b);
    chunk_release(p, b->chunk);
    free(b);
    pthread_mutex_unlock(&p->mu);
    return;
  }
  release_block(p, b);
  pthread_mutex_unlock(&p->mu);
}

size_t cusci_pool_used_bytes(const cusci_pool *p) { return p ? p->used : 0; }
size_t cusci_pool_total_bytes(const cusci_pool *p) { return p ? p->total : 0; }
size_t cusci_pool_free_bytes(const cusci_pool *p) { return p ? p->total - p->used : 0; }
size_t cusci_pool_n_free_blocks(const cusci_pool *p) { return p ? p->n_free : 0; }
size_t cusci_pool_get_limit(const cusci_pool *p) { return p ? p->limit : 0; }
const char *cusci_pool_last_error(const cusci_pool *p) { return p ? p->err : ""; }

cusci_status cusci_pool_free_all_blocks(cusci_pool *p)
{
  if (!p)
    return CUSCI_ERR_NULL_POINTER;
  pthread_mutex_lock(&p->mu);
  release_free_chunks(p);
  pthread_mutex_unlock(&p->mu);
  return CUSCI_OK;
}

cusci_status cusci_pool_set_limit(cusci_pool *p, size_t bytes)
{
  if (!p)
    return CUSCI_ERR_NULL_POINTER;
  pthread_mutex_lock(&p->mu);
  p->limit = bytes;
  pthread_mutex_unlock(&p->mu);
  return CUSCI_OK;
}

cusci_status cusci_pool_set_allocator(cusci_pool *p, const cusci_allocator *upstream)
{
  if (!p)
    return CUSCI_ERR_NULL_POINTER;
  if (upstream && (!upstream->alloc || !upstream->free)) {
    pool_msg(p, "cusci_pool_set_allocator: the allocator lacks alloc or free");
    return CUSCI_ERR_NULL_POINTER;
  }
  pthread_mutex_lock(&p->mu);
  release_free_chunks(p);
  if (p->total) {
    pool_msg(p, "cusci_pool_set_allocator: the pool still holds %zu bytes in use; release them first", p->total);
    pthread_mutex_unlock(&p->mu);
    return CUSCI_ERR_INVALID_ARGUMENT;
  }
  if (upstream) {
    p->up = *upstream;
    p->caching = true;
  } else {
    p->caching = false;
  }
  pthread_mutex_unlock(&p->mu);
  return CUSCI_OK;
}

cusci_status cusci_pool_set_caching(cusci_pool *p, bool caching)
{
  if (!p)
    return CUSCI_ERR_NULL_POINTER;
  pthread_mutex_lock(&p->mu);
  if (p->used) {
    pool_msg(p, "cusci_pool_set_caching: the pool has %zu bytes in use; release them first", p->used);
    pthread_mutex_unlock(&p->mu);
    return CUSCI_ERR_INVALID_ARGUMENT;
  }
  release_free_chunks(p);
  p->caching = caching;
  pthread_mutex_unlock(&p->mu);
  return CUSCI_OK;
}

bool cusci_pool_caching(const cusci_pool *p)
{
  return p && p->caching;
}

void cusci_pool_stream_acquire(cusci_pool *p, void *stream)
{
  if (!p || !stream)
    return;
  pthread_mutex_lock(&p->mu);
  for (int i = 0; i < p->n_streams; i++)
    if (p->streams[i] == stream) {
      p->stream_refs[i]++;
      pthread_mutex_unlock(&p->mu);
      return;
    }
  if (p->n_streams == p->cap_streams) {
    int cap = p->cap_streams ? 2 * p->cap_streams : 8;
    void **s = realloc(p->streams, (size_t)cap * sizeof *s);
    int *r = s ? realloc(p->stream_refs, (size_t)cap * sizeof *r) : NULL;
    if (s)
      p->streams = s;
    if (!s || !r) {
      /* Unregistered streams are treated as finished, which is only safe
       * once they are; without room we order by waiting instead. */
      pthread_mutex_unlock(&p->mu);
      return;
    }
    p->stream_refs = r;
    p->cap_streams = cap;
  }
  p->streams[p->n_streams] = stream;
  p->stream_refs[p->n_streams] = 1;
  p->n_streams++;
  pthread_mutex_unlock(&p->mu);
}

void cusci_pool_stream_release(cusci_pool *p, void *stream)
{
  if (!p || !stream)
    return;
  pthread_mutex_lock(&p->mu);
  for (int i = 0; i < p->n_streams; i++)
    if (p->streams[i] == stream) {
      if (--p->stream_refs[i] == 0) {
        p->streams[i] = p->streams[p->n_streams - 1];
        p->stream_refs[i] = p->stream_refs[p->n_streams - 1];
        p->n_streams--;
        /* The stream is finished (its owner synchronised it): its cached
         * blocks become available to all. */
        for (int k = 0; k < NBINS; k++)
          for (block *b = p->bins[k]; b; b = b->fnext)
            if (b->stream == stream) {
              drop_event(p, b);
              b->stream = NULL;
            }
      }
      break;
    }
  pthread_mutex_unlock(&p->mu);
}

cusci_status cusci_pool_set_vmm(cusci_pool *p, const cusci_vmm_ops *ops, size_t reserve_bytes)
{
  if (!p)
    return CUSCI_ERR_NULL_POINTER;
  if (ops && (!ops->reserve || !ops->unreserve || !ops->map || !ops->unmap || ops->granule == 0 ||
              ops->granule % ROUND != 0)) {
    pool_msg(p, "cusci_pool_set_vmm: the ops lack a function, or the granule is not a multiple of %d", ROUND);
    return CUSCI_ERR_INVALID_ARGUMENT;
  }
  if (ops && reserve_bytes < ops->granule) {
    pool_msg(p, "cusci_pool_set_vmm: reserve_bytes %zu is less than one granule", reserve_bytes);
    return CUSCI_ERR_INVALID_ARGUMENT;
  }
  pthread_mutex_lock(&p->mu);
  if (p->used) {
    pool_msg(p, "cusci_pool_set_vmm: the pool has %zu bytes in use; release them first", p->used);
    pthread_mutex_unlock(&p->mu);
    return CUSCI_ERR_INVALID_ARGUMENT;
  }
  release_free_chunks(p);
  arena_drop(p);
  p->has_vmm = ops != NULL;
  if (ops) {
    p->vmm = *ops;
    p->arena_bytes = reserve_bytes / ops->granule * ops->granule;
  }
  pthread_mutex_unlock(&p->mu);
  return CUSCI_OK;
}
