/*
 * tests/core-pool.c: the pool's logic on the host, through an upstream
 * allocator of the test's own that counts and can refuse, and fake stream
 * events the test completes by hand: rounding, split, merge, best fit,
 * limits, out of memory, stream order, free_all_blocks, no-caching mode.
 * Also the host context's pool and CUSCI_MEMORY_LIMIT parsing.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tests/testkit.h"

/* ---------------------------------------------- a counting upstream */

static struct {
  size_t held, calls, frees, refuse_above, fail_next;
} up;

static void *up_alloc(void *user, size_t n, void *stream)
{
  if ((up.refuse_above && up.held + n > up.refuse_above) || up.fail_next) {
    if (up.fail_next)
      up.fail_next--;
    return NULL;
  }
  up.calls++;
  up.held += n;
  void *p = NULL;
  return posix_memalign(&p, 512, n) == 0 ? p : NULL;
}

static void up_free(void *user, void *ptr, size_t n, void *stream)
{
  up.frees++;
  up.held -= n;
  free(ptr);
}

/* --------------------------------------------------- fake events */

typedef struct fake_event {
  void *stream;
  int done;
} fake_event;

static int n_events_live, n_recorded;
/* Events of a stream complete when the test says so. */
static void *completed_stream;

static void *ev_record(void *user, void *stream)
{
  fake_event *e = calloc(1, sizeof *e);
  e->stream = stream;
  n_events_live++;
  n_recorded++;
  return e;
}

static int ev_done(void *user, void *ev)
{
  fake_event *e = ev;
  return e->done || e->stream == completed_stream;
}

static void ev_wait(void *user, void *ev)
{
  ((fake_event *)ev)->done = 1;
}

static void ev_destroy(void *user, void *ev)
{
  n_events_live--;
  free(ev);
}

static const cusci_allocator counting = {up_alloc, up_free, NULL};
static const cusci_stream_events fake = {ev_record, ev_done, ev_wait, ev_destroy, NULL};

#define S1 ((void *)0x1001)
#define S2 ((void *)0x2002)

static void basics(void)
{
  cusci_pool *p = NULL;
  ok(cusci_pool_create(&counting, NULL, true, &p) == CUSCI_OK, "a pool over a counting allocator");
  void *a = NULL, *b = NULL, *c = NULL;
  cusci_pool_malloc(p, 1, NULL, &a);
  ok(a && cusci_pool_used_bytes(p) == 512 && ((uintptr_t)a % 512) == 0, "1 byte takes one 512-byte block, aligned");
  ok(cusci_pool_total_bytes(p) == (2u << 20) && up.calls == 1, "small requests share a 2 MiB chunk");
  cusci_pool_malloc(p, 513, NULL, &b);
  ok(cusci_pool_used_bytes(p) == 512 + 1024 && (char *)b == (char *)a + 512 && up.calls == 1,
     "513 bytes round to 1024, split from the same chunk, right after");
  cusci_pool_malloc(p, 0, NULL, &c);
  ok(cusci_pool_used_bytes(p) == 2048, "0 bytes take a 512-byte block");
  is_int(cusci_pool_n_free_blocks(p), 1, "one free block: the chunk's tail");
  is_int(cusci_pool_free_bytes(p), (2 << 20) - 2048, "free = total - used");
  /* Free the middle one, then its neighbours: everything merges back. */
  cusci_pool_free(p, b, NULL);
  is_int(cusci_pool_n_free_blocks(p), 2, "freeing the middle block leaves a hole");
  cusci_pool_free(p, a, NULL);
  is_int(cusci_pool_n_free_blocks(p), 2, "freeing its left neighbour merges with the hole");
  cusci_pool_free(p, c, NULL);
  is_int(cusci_pool_n_free_blocks(p), 1, "freeing the last merges all into one block");
  ok(cusci_pool_used_bytes(p) == 0 && cusci_pool_total_bytes(p) == (2u << 20), "memory stays cached");
  void *again = NULL;
  cusci_pool_malloc(p, 4096, NULL, &again);
  ok(again == a && up.calls == 1, "a new request reuses the cached chunk");
  cusci_pool_free(p, again, NULL);
  ok(cusci_pool_free_all_blocks(p) == CUSCI_OK && cusci_pool_total_bytes(p) == 0 && up.held == 0 &&
         cusci_pool_n_free_blocks(p) == 0,
     "free_all_blocks gives every unused chunk back");

  /* Best fit: of holes of 3, 5 and 4 KiB, a 3.5 KiB request takes the 4. */
  void *blk[7];
  size_t sizes[7] = {3072, 512, 5120, 512, 4096, 512, 8192};
  for (int i = 0; i < 7; i++)
    cusci_pool_malloc(p, sizes[i], NULL, &blk[i]);
  cusci_pool_free(p, blk[0], NULL);
  cusci_pool_free(p, blk[2], NULL);
  cusci_pool_free(p, blk[4], NULL);
  void *fit = NULL;
  cusci_pool_malloc(p, 3584, NULL, &fit);
  ok(fit == blk[4], "best fit takes the smallest hole that fits");
  void *fit2 = NULL;
  cusci_pool_malloc(p, 2048, NULL, &fit2);
  ok(fit2 == blk[0], "and the next request the 3 KiB hole");
  cusci_pool_free(p, fit, NULL);
  cusci_pool_free(p, fit2, NULL);
  for (int i = 1; i < 7; i += 2)
    cusci_pool_free(p, blk[i], NULL);
  cusci_pool_free(p, blk[6], NULL);
  is_int(cusci_pool_n_free_blocks(p), 1, "all merged again");

  /* Large requests get their own chunk, rounded to 2 MiB. */
  void *big = NULL;
  cusci_pool_free_all_blocks(p);
  cusci_pool_malloc(p, (5u << 20) + 3, NULL, &big);
  ok(cusci_pool_total_bytes(p) == (6u << 20), "5 MiB + 3 bytes: a 6 MiB chunk");
  void *small = NULL;
  cusci_pool_malloc(p, 1000, NULL, &small);
  ok(cusci_pool_total_bytes(p) == (8u << 20), "a small request does not split the large chunk's tail");
  cusci_pool_free(p, small, NULL);
  cusci_pool_free(p, big, NULL);
  cusci_pool_free(p, (void *)0x12345, NULL); /* not from the pool: ignored, noted */
  ok(strstr(cusci_pool_last_error(p), "not taken from this pool") != NULL, "freeing a foreign pointer is noted, not fatal");
  cusci_pool_destroy(p);
  is_int(up.held, 0, "destroying the pool returns everything");
}

static void limits(void)
{
  cusci_pool *p = NULL;
  cusci_pool_create(&counting, NULL, true, &p);
  cusci_pool_set_limit(p, 5u << 20);
  is_int(cusci_pool_get_limit(p), 5u << 20, "get_limit returns the limit");
  void *a = NULL, *b = NULL, *c = NULL;
  ok(cusci_pool_malloc(p, 3u << 20, NULL, &a) == CUSCI_OK, "3 MiB under a 5 MiB limit");
  cusci_status st = cusci_pool_malloc(p, 3u << 20, NULL, &b);
  ok(st == CUSCI_ERR_OUT_OF_MEMORY && b == NULL, "another 3 MiB exceeds the limit: CUSCI_ERR_OUT_OF_MEMORY");
  const char *m = cusci_pool_last_error(p);
  ok(strstr(m, "asked for 3145728 bytes") && strstr(m, "3145728 in use") && strstr(m, "limit 5242880"),
     "the message gives asked, used, held and limit: %s", m);
  ok(cusci_pool_malloc(p, 1u << 20, NULL, &c) == CUSCI_OK, "1 MiB still fits (a 2 MiB chunk)");
  cusci_pool_free(p, c, NULL);
  /* Cached memory is given back to make room under the limit. */
  cusci_pool_free(p, a, NULL);
  ok(cusci_pool_malloc(p, 4u << 20, NULL, &b) == CUSCI_OK && cusci_pool_total_bytes(p) <= (5u << 20),
     "cached chunks are released to make room under the limit");
  cusci_pool_free(p, b, NULL);
  cusci_pool_set_limit(p, 0);

  /* Upstream out of memory: free the cache, retry once, then fail. */
  cusci_pool_free_all_blocks(p);
  cusci_pool_malloc(p, 1u << 20, NULL, &a);
  cusci_pool_free(p, a, NULL); /* a cached 2 MiB chunk */
  up.fail_next = 1;
  ok(cusci_pool_malloc(p, 4u << 20, NULL, &b) == CUSCI_OK && cusci_pool_total_bytes(p) == (4u << 20),
     "an upstream failure frees the cache and the retry succeeds");
  cusci_pool_free(p, b, NULL);
  up.fail_next = 2;
  b = NULL;
  ok(cusci_pool_malloc(p, 8u << 20, NULL, &b) == CUSCI_ERR_OUT_OF_MEMORY && b == NULL,
     "two upstream failures: CUSCI_ERR_OUT_OF_MEMORY");
  up.fail_next = 0;
  cusci_pool_free_all_blocks(p);
  ok(cusci_pool_total_bytes(p) == 0 && up.held == 0, "nothing leaks on the out-of-memory paths");
  cusci_pool_destroy(p);
}

static void streams(void)
{
  cusci_pool *p = NULL;
  cusci_pool_create(&counting, &fake, true, &p);
  cusci_pool_stream_acquire(p, S1);
  cusci_pool_stream_acquire(p, S2);
  void *a = NULL, *b = NULL, *c = NULL;
  cusci_pool_malloc(p, 1u << 20, S1, &a);
  cusci_pool_free(p, a, S1);
  is_int(n_recorded, 0, "a free records no event");
  cusci_pool_malloc(p, 1u << 20, S1, &b);
  ok(b == a, "the same stream reuses a block at once");
  cusci_pool_free(p, b, S1);
  size_t before = up.calls;
  cusci_pool_malloc(p, 3u << 19, S2, &c); /* 1.5 MiB: its chunk has no room for d below */
  ok(c != a && up.calls == before + 1, "another stream does not take it while S1's work may run");
  ok(n_recorded == 1, "asking records one event on S1");
  void *d = NULL;
  completed_stream = S1;
  cusci_pool_malloc(p, 1u << 20, S2, &d);
  ok(d == a, "once the event on S1 completes, S2 takes the block");
  completed_stream = NULL;
  cusci_pool_free(p, c, S2);
  cusci_pool_free(p, d, S2);
  /* Releasing a stream (its context ended, synchronised) frees its blocks for all. */
  void *e = NULL, *f = NULL;
  cusci_pool_malloc(p, 1u << 20, S1, &e);
  cusci_pool_free(p, e, S1);
  cusci_pool_stream_release(p, S1);
  cusci_pool_malloc(p, 1u << 20, S2, &f);
  ok(f == e, "blocks of a released stream serve every stream");
  cusci_pool_free(p, f, S2);
  /* A free on an unregistered stream is free for all. */
  void *g = NULL, *h = NULL;
  cusci_pool_malloc(p, 1u << 20, S1, &g);
  cusci_pool_free(p, g, S1);
  cusci_pool_malloc(p, 1u << 20, S2, &h);
  ok(h == g, "a block freed on a stream the pool does not know is free for all");
  cusci_pool_free(p, h, S2);
  cusci_pool_stream_release(p, S2);
  cusci_pool_free_all_blocks(p);
  ok(cusci_pool_total_bytes(p) == 0, "free_all_blocks waits for pending streams and frees");
  cusci_pool_destroy(p);
  is_int(n_events_live, 0, "every event recorded was destroyed");
}

static void growth(void)
{
  /* Temporaries of growing size: the pool gives back wholly free chunks
   * before it grows, instead of holding every size it has seen. */
  cusci_pool *p = NULL;
  cusci_pool_create(&counting, NULL, true, &p);
  size_t peak_total = 0, peak_used = 0;
  void *keep[4] = {NULL};
  for (int i = 0; i < 40; i++) {
    void *t = NULL;
    cusci_pool_malloc(p, (size_t)(4 + 3 * (i % 5) + i) << 20, NULL, &t);
    cusci_pool_free(p, keep[i % 4], NULL);
    cusci_pool_malloc(p, 32 << 10, NULL, &keep[i % 4]);
    if (cusci_pool_total_bytes(p) > peak_total)
      peak_total = cusci_pool_total_bytes(p);
    if (cusci_pool_used_bytes(p) > peak_used)
      peak_used = cusci_pool_used_bytes(p);
    cusci_pool_free(p, t, NULL);
  }
  ok((double)peak_total / (double)peak_used < 1.3, "growing temporaries: peak held / peak used = %.3f",
     (double)peak_total / (double)peak_used);
  for (int i = 0; i < 4; i++)
    cusci_pool_free(p, keep[i], NULL);
  cusci_pool_destroy(p);
}

/* --------------------------------------------- fake virtual memory */

#define GRAN (2u << 20)
static size_t vm_mapped, vm_maps, vm_unmaps;
static char *vm_base;

static void *vm_reserve(void *user, size_t bytes)
{
  vm_base = aligned_alloc(GRAN, bytes); /* host memory stands in for addresses */
  return vm_base;
}

static void vm_unreserve(void *user, void *va, size_t bytes)
{
  free(va);
}

static void *vm_map(void *user, void *va, size_t bytes)
{
  if (((char *)va - vm_base) % GRAN || bytes != GRAN || (up.refuse_above && vm_mapped + bytes > up.refuse_above))
    return NULL;
  vm_mapped += bytes;
  vm_maps++;
  return va;
}

static void vm_unmap(void *user, void *va, size_t bytes, void *handle)
{
  vm_mapped -= bytes;
  vm_unmaps++;
}

static const cusci_vmm_ops fake_vmm = {GRAN, vm_reserve, vm_unreserve, vm_map, vm_unmap, NULL};

static void virtual_memory(void)
{
  cusci_pool *p = NULL;
  cusci_pool_create(&counting, NULL, true, &p);
  ok(cusci_pool_set_vmm(p, &fake_vmm, (size_t)1 << 30) == CUSCI_OK, "a pool over fake virtual memory (1 GiB)");
  void *a = NULL, *b = NULL, *c = NULL;
  cusci_pool_malloc(p, 10u << 20, NULL, &a);
  cusci_pool_malloc(p, 20u << 20, NULL, &b);
  cusci_pool_malloc(p, 6u << 20, NULL, &c);
  ok((char *)b == (char *)a + (10u << 20) && (char *)c == (char *)b + (20u << 20),
     "large blocks follow each other in one range: it grows in place");
  ok(cusci_pool_total_bytes(p) == (36u << 20) && vm_mapped == (36u << 20), "total counts mapped granules: 36 MiB");
  cusci_pool_free(p, b, NULL);
  is_int(cusci_pool_total_bytes(p), 36u << 20, "a freed block stays mapped, cached");
  void *b2 = NULL;
  size_t maps = vm_maps;
  cusci_pool_malloc(p, 18u << 20, NULL, &b2);
  ok(b2 == b && vm_maps == maps, "and is reused without mapping anything");
  cusci_pool_free(p, b2, NULL);
  cusci_pool_free_all_blocks(p);
  ok(cusci_pool_total_bytes(p) == (16u << 20) && vm_mapped == (16u << 20) && cusci_pool_used_bytes(p) == (16u << 20),
     "memory freed between two blocks in use goes back: 16 MiB held for 16 MiB used");
  /* A small request is served from its own chunk, not from the range. */
  void *s1 = NULL;
  cusci_pool_malloc(p, 4096, NULL, &s1);
  ok(((char *)s1 < vm_base || (char *)s1 >= vm_base + ((size_t)1 << 30)) && up.held == (2u << 20),
     "small requests come from a chunk of their own");
  cusci_pool_free(p, s1, NULL);
  /* The limit counts mapped memory. */
  cusci_pool_set_limit(p, 40u << 20);
  void *d = NULL;
  cusci_status st = cusci_pool_malloc(p, 30u << 20, NULL, &d);
  ok(st == CUSCI_ERR_OUT_OF_MEMORY && d == NULL && cusci_pool_used_bytes(p) == (16u << 20),
     "30 MiB more would map past a 40 MiB limit: CUSCI_ERR_OUT_OF_MEMORY, nothing leaked");
  cusci_pool_set_limit(p, 0);
  ok(cusci_pool_set_vmm(p, NULL, 0) == CUSCI_ERR_INVALID_ARGUMENT && strstr(cusci_pool_last_error(p), "in use"),
     "the backing cannot change while blocks are in use");
  cusci_pool_free(p, a, NULL);
  cusci_pool_free(p, c, NULL);
  /* Growing temporaries with small results kept: held stays near used. */
  size_t peak_total = 0, peak_used = 0;
  void *keep[4] = {NULL};
  for (int i = 0; i < 40; i++) {
    void *t = NULL;
    cusci_pool_malloc(p, (size_t)(4 + 3 * (i % 5) + i) << 20, NULL, &t);
    cusci_pool_free(p, keep[i % 4], NULL);
    cusci_pool_malloc(p, 3u << 20, NULL, &keep[i % 4]); /* large enough for the range */
    if (cusci_pool_total_bytes(p) > peak_total)
      peak_total = cusci_pool_total_bytes(p);
    if (cusci_pool_used_bytes(p) > peak_used)
      peak_used = cusci_pool_used_bytes(p);
    cusci_pool_free(p, t, NULL);
  }
  ok((double)peak_total / (double)peak_used < 1.3, "growing temporaries in the range: peak held / peak used = %.3f",
     (double)peak_total / (double)peak_used);
  for (int i = 0; i < 4; i++)
    cusci_pool_free(p, keep[i], NULL);
  ok(cusci_pool_set_vmm(p, NULL, 0) == CUSCI_OK && vm_mapped == 0, "leaving virtual memory unmaps everything");
  ok(cusci_pool_set_vmm(p, &(cusci_vmm_ops){100, vm_reserve, vm_unreserve, vm_map, vm_unmap, NULL}, 1 << 20) ==
         CUSCI_ERR_INVALID_ARGUMENT,
     "a granule that is not a multiple of 512 is refused");
  cusci_pool_destroy(p);
  is_int(up.held, 0, "nothing leaks");
}

/* Four threads allocate and free on one pool at once: the stats balance and
 * no block is handed out twice. */
static cusci_pool *shared_pool;
static int thread_bad;

static void *hammer(void *arg)
{
  uint64_t seed = (uint64_t)(uintptr_t)arg;
  void *held[8] = {NULL};
  for (int i = 0; i < 20000; i++) {
    int k = (int)(tk_rand(&seed) % 8);
    if (held[k]) {
      if (*(uint64_t *)held[k] != (uint64_t)(uintptr_t)held[k])
        __atomic_add_fetch(&thread_bad, 1, __ATOMIC_RELAXED);
      cusci_pool_free(shared_pool, held[k], NULL);
      held[k] = NULL;
    } else if (cusci_pool_malloc(shared_pool, 512 + tk_rand(&seed) % (3u << 20), NULL, &held[k]) == CUSCI_OK) {
      *(uint64_t *)held[k] = (uint64_t)(uintptr_t)held[k]; /* a mark another owner would overwrite */
    }
  }
  for (int k = 0; k < 8; k++)
    cusci_pool_free(shared_pool, held[k], NULL);
  return NULL;
}

static void threads(void)
{
  static const cusci_allocator host_up = {up_alloc, up_free, NULL};
  cusci_pool_create(&host_up, NULL, true, &shared_pool);
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, hammer, (void *)(uintptr_t)(i + 1));
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  ok(thread_bad == 0 && cusci_pool_used_bytes(shared_pool) == 0, "four threads, 80000 operations: no block shared, used 0");
  cusci_pool_free_all_blocks(shared_pool);
  ok(cusci_pool_total_bytes(shared_pool) == 0, "and everything goes back");
  cusci_pool_destroy(shared_pool);
}

static void no_caching(void)
{
  cusci_pool *p = NULL;
  cusci_pool_create(&counting, NULL, true, &p);
  ok(cusci_pool_set_allocator(p, NULL) == CUSCI_OK, "set_allocator(NULL) turns caching off");
  void *a = NULL;
  size_t calls = up.calls;
  cusci_pool_malloc(p, 1000, NULL, &a);
  ok(up.calls == calls + 1 && cusci_pool_total_bytes(p) == 1000 && up.held == 1000,
     "without caching a request is its own allocation of exactly the bytes asked");
  void *b = NULL;
  cusci_pool_malloc(p, 1000, NULL, &b);
  ok(cusci_pool_set_allocator(p, &counting) == CUSCI_ERR_INVALID_ARGUMENT &&
         strstr(cusci_pool_last_error(p), "still holds"),
     "the allocator cannot change while memory is in use");
  cusci_pool_free(p, a, NULL);
  cusci_pool_free(p, b, NULL);
  ok(cusci_pool_total_bytes(p) == 0 && up.held == 0, "and every free returns memory at once");
  ok(cusci_pool_set_allocator(p, &counting) == CUSCI_OK, "with nothing held, a new allocator is set");
  cusci_pool_destroy(p);

  /* cusci_pool_set_caching, the switch that CUSCI_POOL=off sets. */
  p = NULL;
  cusci_pool_create(&counting, NULL, true, &p);
  ok(cusci_pool_caching(p) && !cusci_pool_caching(NULL), "a pool caches by default");
  cusci_pool_malloc(p, 3, NULL, &a);
  ok(cusci_pool_set_caching(p, false) == CUSCI_ERR_INVALID_ARGUMENT && strstr(cusci_pool_last_error(p), "in use") &&
         cusci_pool_caching(p),
     "caching cannot be turned off while a block is in use (%s)", cusci_pool_last_error(p));
  cusci_pool_free(p, a, NULL);
  size_t held = up.held;
  ok(cusci_pool_set_caching(p, false) == CUSCI_OK && !cusci_pool_caching(p) && up.held == 0 && held > 0,
     "turning caching off gives the cached chunks back");
  void *c[3] = {NULL, NULL, NULL};
  size_t sizes[3] = {1, 513, 0};
  calls = up.calls;
  for (int i = 0; i < 3; i++)
    cusci_pool_malloc(p, sizes[i], NULL, &c[i]);
  ok(up.calls == calls + 3 && up.held == 1 + 513 + 1 && cusci_pool_used_bytes(p) == 515 && c[0] && c[1] && c[2],
     "each request its own exact allocation (0 bytes: 1), nothing shared or rounded");
  for (int i = 0; i < 3; i++)
    cusci_pool_free(p, c[i], NULL);
  ok(up.held == 0 && cusci_pool_n_free_blocks(p) == 0, "and each comes back at its free");
  ok(cusci_pool_set_caching(p, true) == CUSCI_OK && cusci_pool_caching(p) && cusci_pool_set_caching(NULL, true) == CUSCI_ERR_NULL_POINTER,
     "caching on again; NULL refused");
  cusci_pool_destroy(p);
  cusci_allocator host_up;
  cusci_pool *h = NULL;
  void *hp = NULL;
  ok(cusci_allocator_builtin(CUSCI_ALLOCATOR_HOST, CUSCI_DEVICE_HOST, &host_up) == CUSCI_OK &&
         cusci_pool_create(&host_up, NULL, true, &h) == CUSCI_OK && cusci_pool_malloc(h, 12345, NULL, &hp) == CUSCI_OK &&
         ((uintptr_t)hp % 512) == 0,
     "the built-in host allocator under a pool of one's own");
  cusci_pool_free(h, hp, NULL);
  cusci_pool_destroy(h);
  ok(cusci_allocator_builtin((cusci_allocator_kind)42, 0, &host_up) == CUSCI_ERR_INVALID_ARGUMENT,
     "an unknown allocator kind is refused");
  cusci_pool *q = NULL;
  ok(cusci_pool_create(NULL, NULL, true, &q) == CUSCI_ERR_NULL_POINTER, "a pool needs an allocator");
  ok(cusci_pool_malloc(NULL, 8, NULL, &a) == CUSCI_ERR_NULL_POINTER && cusci_pool_set_limit(NULL, 1) == CUSCI_ERR_NULL_POINTER &&
         cusci_pool_free_all_blocks(NULL) == CUSCI_ERR_NULL_POINTER && cusci_pool_used_bytes(NULL) == 0,
     "NULL pools are refused");
}

static void host_context(void)
{
  cusci_ctx *bad = NULL;
  setenv("CUSCI_POOL", "sometimes", 1);
  cusci_status st0 = cusci_ctx_create(CUSCI_DEVICE_HOST, &bad);
  ok(st0 == CUSCI_ERR_INVALID_ARGUMENT && bad == NULL && strstr(cusci_ctx_create_error(), "CUSCI_POOL is \"sometimes\""),
     "a CUSCI_POOL other than on or off is refused by name (%s)", cusci_ctx_create_error());
  unsetenv("CUSCI_POOL");
  cusci_ctx *ctx = tk_host_ctx();
  cusci_pool *p = cusci_ctx_pool(ctx);
  ok(p != NULL, "a host context has a pool");
  is_int(cusci_pool_get_limit(p), 96u << 20, "CUSCI_MEMORY_LIMIT=96M set the host pool's limit");
  cusci_pool_set_limit(p, 0);
  size_t used0 = cusci_pool_used_bytes(p);
  cusci_array *a = NULL;
  cusci_array_empty(ctx, 1, (const int64_t[]){1000}, CUSCI_FLOAT64, &a);
  is_int(cusci_pool_used_bytes(p) - used0, 8192, "8000 bytes of an array round to 8192 in the host pool");
  cusci_array_release(a);
  is_int(cusci_pool_used_bytes(p), used0, "released arrays return their block");
  ok(cusci_pool_set_limit_fraction(p, 0.5) == CUSCI_OK && cusci_pool_get_limit(p) > 0, "a limit as a fraction of memory");
  ok(cusci_pool_set_limit_fraction(p, 0) == CUSCI_ERR_VALUE && cusci_pool_set_limit_fraction(p, 1.5) == CUSCI_ERR_VALUE,
     "fractions outside (0, 1] are refused");
  size_t lim = cusci_pool_total_bytes(p) + (1u << 20);
  cusci_pool_set_limit(p, lim);
  a = NULL;
  cusci_status st = cusci_array_empty(ctx, 1, (const int64_t[]){64 << 20}, CUSCI_UINT8, &a);
  ok(st == CUSCI_ERR_OUT_OF_MEMORY && a == NULL && strstr(cusci_ctx_last_error(ctx), "cusci_array_empty: host: out of memory"),
     "an array over the limit: CUSCI_ERR_OUT_OF_MEMORY (%s)", cusci_ctx_last_error(ctx));
  cusci_pool_set_limit(p, 0);
  cusci_ctx_destroy(ctx);
}

int main(void)
{
  setenv("CUSCI_MEMORY_LIMIT", "96M", 1); /* read when the host pool is made */
  basics();
  limits();
  streams();
  growth();
  virtual_memory();
  threads();
  no_caching();
  host_context();
  return done_testing();
}
