/*
 * tests/core-gpu.c: the GPU path of the core against the host reference:
 * astype over all 196 pairs on odd sizes and strided views (bit for bit),
 * creation, views, transfers, contexts, streams and events.
 * Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "tests/testkit.h"

static cusci_ctx *gpu, *host;

/* A host array of dtype dt with varied values: integers from random bits,
 * floats and complex from a float64 spread over many magnitudes with a
 * sprinkling of NaN, infinities, signed zeros and float16 ties. */
static cusci_array *random_host(cusci_dtype dt, int64_t n, uint64_t seed)
{
  cusci_array *src = NULL, *out = NULL;
  char k = cusci_dtype_kind(dt);
  int64_t m = k == 'c' ? 2 * n : n;
  if (k == 'f' || k == 'c') {
    double *v = malloc((size_t)m * sizeof *v);
    for (int64_t i = 0; i < m; i++) {
      uint64_t r = tk_rand(&seed);
      switch (r % 16) {
      case 0: v[i] = 0.0 / 0.0; break;
      case 1: v[i] = (r & 32) ? 1.0 / 0.0 : -1.0 / 0.0; break;
      case 2: v[i] = (r & 32) ? 0.0 : -0.0; break;
      case 3: v[i] = 2049.0 + 2.0 * (double)((r >> 8) % 64); break; /* float16 ties */
      default: {
        double mag = tk_rand_double(&seed) * 90.0 - 45.0; /* 1e-45 .. 1e45 */
        double x = tk_rand_double(&seed) * 10.0;
        for (int e = 0; e < (mag > 0 ? (int)mag : (int)-mag); e++)
          x = mag > 0 ? x * 10.0 : x / 10.0;
        v[i] = (r & 64) ? -x : x;
      }
      }
    }
    if (k == 'c') {
      cusci_array *c128 = NULL;
      cusci_array_from_host(host, v, 1, &n, CUSCI_COMPLEX128, &c128);
      cusci_array_astype(host, c128, dt, true, &out);
      cusci_array_release(c128);
    } else {
      cusci_array_from_host(host, v, 1, &n, CUSCI_FLOAT64, &src);
      cusci_array_astype(host, src, dt, true, &out);
    }
    free(v);
  } else {
    uint64_t *v = malloc((size_t)n * sizeof *v);
    for (int64_t i = 0; i < n; i++) {
      uint64_t r = tk_rand(&seed);
      v[i] = (r & 3) == 0 ? r >> (r % 64) : r; /* small values too */
    }
    cusci_array_from_host(host, v, 1, &n, CUSCI_UINT64, &src);
    cusci_array_astype(host, src, dt, true, &out);
    free(v);
  }
  cusci_array_release(src);
  return out;
}

/* Copy a host array to the GPU context. */
static int equal_gpu_host(const cusci_array *g, const cusci_array *h, const char *what)
{
  if (!g || !h)
    return 0;
  void *gb = tk_to_host(gpu, g), *hb = tk_to_host(host, h);
  cusci_dtype dt = cusci_array_dtype(h);
  int64_t bad = cusci_array_size(g) == cusci_array_size(h) && cusci_array_dtype(g) == dt
                    ? tk_first_mismatch(dt, gb, hb, NULL, cusci_array_size(h))
                    : 0;
  if (bad >= 0) {
    char a[64], b[64];
    diag("%s: element %lld GPU %s, host %s", what, (long long)bad, tk_elem_str(dt, gb, bad, a, sizeof a),
         tk_elem_str(dt, hb, bad, b, sizeof b));
  }
  free(gb);
  free(hb);
  return bad < 0;
}

/* A 3-d strided, partly reversed view of a 1-d array of 2*3*n elements:
 * reshape (2, 3, n), transpose (2, 0, 1), slice [::-1, ::2, 1:]. */
static cusci_array *strided_view(cusci_ctx *ctx, cusci_array *flat, int64_t n)
{
  cusci_array *r = NULL, *t = NULL, *s = NULL;
  cusci_array_reshape(ctx, flat, 3, (const int64_t[]){2, 3, n}, &r);
  cusci_array_transpose(ctx, r, (const int[]){2, 0, 1}, &t);
  cusci_array_slice(ctx, t, (const int64_t[]){CUSCI_SLICE_NONE, CUSCI_SLICE_NONE, 1}, NULL,
                    (const int64_t[]){-1, 2, 1}, &s);
  cusci_array_release(r);
  cusci_array_release(t);
  return s;
}

static void test_astype(void)
{
  static const int64_t sizes[] = {1, 7, 4099, (1 << 20) + 3};
  for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
    int64_t n = sizes[z];
    int good = 0, good_strided = 0;
    for (int s = 0; s < 14; s++) {
      cusci_array *hs = random_host((cusci_dtype)s, n, 1000 + (uint64_t)s * 77 + (uint64_t)z);
      cusci_array *gs = tk_copy_to(gpu, host, hs);
      /* strided: the same data seen as (n, 2, 2) with steps and reversal,
       * for sizes that allow it */
      cusci_array *hv = NULL, *gv = NULL, *hbig = NULL, *gbig = NULL;
      if (n >= 7 && n < 100000) {
        hbig = random_host((cusci_dtype)s, 6 * n, 5000 + (uint64_t)s);
        gbig = tk_copy_to(gpu, host, hbig);
        hv = strided_view(host, hbig, n);
        gv = strided_view(gpu, gbig, n);
      }
      for (int d = 0; d < 14; d++) {
        char what[96];
        snprintf(what, sizeof what, "%s -> %s, n=%lld", cusci_dtype_name((cusci_dtype)s),
                 cusci_dtype_name((cusci_dtype)d), (long long)n);
        cusci_array *ho = NULL, *go = NULL;
        cusci_status a = cusci_array_astype(host, hs, (cusci_dtype)d, true, &ho);
        cusci_status b = cusci_array_astype(gpu, gs, (cusci_dtype)d, true, &go);
        if (a == CUSCI_OK && b == CUSCI_OK && equal_gpu_host(go, ho, what))
          good++;
        else if (b != CUSCI_OK)
          diag("%s: %s", what, cusci_ctx_last_error(gpu));
        cusci_array_release(ho);
        cusci_array_release(go);
        if (hv) {
          ho = go = NULL;
          strcat(what, " strided");
          a = cusci_array_astype(host, hv, (cusci_dtype)d, true, &ho);
          b = cusci_array_astype(gpu, gv, (cusci_dtype)d, true, &go);
          if (a == CUSCI_OK && b == CUSCI_OK && equal_gpu_host(go, ho, what))
            good_strided++;
          cusci_array_release(ho);
          cusci_array_release(go);
        }
      }
      cusci_array_release(hv);
      cusci_array_release(gv);
      cusci_array_release(hbig);
      cusci_array_release(gbig);
      cusci_array_release(hs);
      cusci_array_release(gs);
    }
    is_int(good, 196, "astype GPU == host bit for bit, all 196 pairs, contiguous");
    if (n >= 7 && n < 100000)
      is_int(good_strided, 196, "astype GPU == host bit for bit, all 196 pairs, strided reversed 3-d views");
  }
}

static void test_creation(void)
{
  int good = 0;
  for (int d = 0; d < 14; d++) {
    cusci_dtype dt = (cusci_dtype)d;
    cusci_array *h[7] = {NULL}, *g[7] = {NULL};
    double start = -3.3 + d, stop = 97.1 - 2 * d, step = 0.37 * (d + 1);
    int64_t shape[3] = {4, 5, 6};
    unsigned char val[16];
    for (int i = 0; i < 16; i++)
      val[i] = (unsigned char)(0x3c + 17 * i + d);
    if (dt == CUSCI_BOOL)
      stop = start + step * 1.5;
    cusci_array_arange(host, start, stop, step, dt, &h[0]);
    cusci_array_arange(gpu, start, stop, step, dt, &g[0]);
    cusci_array_linspace(host, -7.7, 1234.5, 1001, true, dt, &h[1]);
    cusci_array_linspace(gpu, -7.7, 1234.5, 1001, true, dt, &g[1]);
    cusci_array_eye(host, 37, 41, -3, dt, &h[2]);
    cusci_array_eye(gpu, 37, 41, -3, dt, &g[2]);
    cusci_array_zeros(host, 3, shape, dt, &h[3]);
    cusci_array_zeros(gpu, 3, shape, dt, &g[3]);
    cusci_array_ones(host, 3, shape, dt, &h[4]);
    cusci_array_ones(gpu, 3, shape, dt, &g[4]);
    cusci_array_full(host, 3, shape, dt, val, &h[5]);
    cusci_array_full(gpu, 3, shape, dt, val, &g[5]);
    cusci_array_linspace(host, 3.0, -1e6, 777, false, dt, &h[6]);
    cusci_array_linspace(gpu, 3.0, -1e6, 777, false, dt, &g[6]);
    int all = 1;
    for (int i = 0; i < 7; i++) {
      char what[64];
      snprintf(what, sizeof what, "creation %d of %s", i, cusci_dtype_name(dt));
      all &= equal_gpu_host(g[i], h[i], what);
      cusci_array_release(h[i]);
      cusci_array_release(g[i]);
    }
    good += all;
  }
  is_int(good, 14, "arange, linspace, eye, zeros, ones, full: GPU == host for all 14 dtypes");

  /* Writing arange into a strided out on the GPU. */
  cusci_array *buf = NULL, *view = NULL, *given, *hv = NULL;
  cusci_array_zeros(gpu, 1, (const int64_t[]){40}, CUSCI_FLOAT32, &buf);
  cusci_array_slice(gpu, buf, (const int64_t[]){-1}, (const int64_t[]){CUSCI_SLICE_NONE}, (const int64_t[]){-2}, &view);
  given = view;
  cusci_array_arange(host, 0.5, 20.5, 1, CUSCI_FLOAT32, &hv);
  ok(cusci_array_arange(gpu, 0.5, 20.5, 1, CUSCI_FLOAT32, &given) == CUSCI_OK && equal_gpu_host(view, hv, "arange out"),
     "arange into a reversed strided out on the GPU");
  cusci_array_release(buf);
  cusci_array_release(view);
  cusci_array_release(hv);
}

static void test_views(void)
{
  double v[120];
  for (int i = 0; i < 120; i++)
    v[i] = 1.5 * i - 7.25;
  int64_t shape[4] = {2, 3, 4, 5};
  cusci_array *hb = NULL, *gb = NULL;
  cusci_array_from_host(host, v, 4, shape, CUSCI_FLOAT64, &hb);
  cusci_array_from_host(gpu, v, 4, shape, CUSCI_FLOAT64, &gb);
  int good = 0, total = 0;
  for (int i = 0; tk_view_names[i]; i++, total++) {
    cusci_array *h = NULL, *g = NULL;
    cusci_status a = tk_view_case(host, hb, tk_view_names[i], &h), b = tk_view_case(gpu, gb, tk_view_names[i], &g);
    int same = a == CUSCI_OK && b == CUSCI_OK && cusci_array_ndim(g) == cusci_array_ndim(h) &&
               cusci_array_device(g) == 0;
    for (int d = 0; same && d < cusci_array_ndim(h); d++)
      same = cusci_array_shape(g)[d] == cusci_array_shape(h)[d] && cusci_array_strides(g)[d] == cusci_array_strides(h)[d];
    if (same && equal_gpu_host(g, h, tk_view_names[i]))
      good++;
    else
      diag("view %s differs on the GPU (%s)", tk_view_names[i], cusci_ctx_last_error(gpu));
    /* A copy of the view, made on the device, equals the host's too. */
    cusci_array *gc = NULL, *hc = NULL;
    cusci_array_copy(gpu, g, &gc);
    cusci_array_copy(host, h, &hc);
    if (!equal_gpu_host(gc, hc, tk_view_names[i]))
      good--;
    cusci_array_release(gc);
    cusci_array_release(hc);
    cusci_array_release(h);
    cusci_array_release(g);
  }
  is_int(good, total, "every view case: same shape, strides and values on the GPU as on the host");
  cusci_array_release(hb);
  cusci_array_release(gb);
}

static void test_context(void)
{
  char name[256] = "";
  int major = 0, minor = 0;
  size_t fr = 0, tot = 0;
  cusci_status s1 = cusci_device_name(0, name, sizeof name);
  cusci_status s2 = cusci_device_compute_capability(0, &major, &minor);
  cusci_status s3 = cusci_device_memory(0, &fr, &tot);
  ok(s1 == CUSCI_OK && name[0], "device 0 is %s", name);
  ok(s2 == CUSCI_OK && major >= 5, "compute capability %d.%d", major, minor);
  ok(s3 == CUSCI_OK && tot > 0 && fr <= tot, "memory: %zu of %zu bytes free", fr, tot);
  cusci_ctx *def = NULL;
  unsetenv("CUSCI_DEVICE");
  ok(cusci_ctx_create(CUSCI_DEVICE_DEFAULT, &def) == CUSCI_OK && cusci_ctx_device(def) == 0,
     "CUSCI_DEVICE_DEFAULT picks GPU 0 where there is one");
  cusci_ctx_destroy(def);
  setenv("CUSCI_DEVICE", "host", 1);
  ok(cusci_ctx_create(CUSCI_DEVICE_DEFAULT, &def) == CUSCI_OK && cusci_ctx_device(def) == CUSCI_DEVICE_HOST,
     "CUSCI_DEVICE=host overrides the default");
  cusci_ctx_destroy(def);
  setenv("CUSCI_DEVICE", "cuda:0", 1);
  ok(cusci_ctx_create(CUSCI_DEVICE_DEFAULT, &def) == CUSCI_OK && cusci_ctx_device(def) == 0, "CUSCI_DEVICE=cuda:0");
  cusci_ctx_destroy(def);
  unsetenv("CUSCI_DEVICE");
  ok(cusci_ctx_stream(gpu) != NULL, "a GPU context owns a stream");

  /* Arrays on the wrong device are refused. */
  cusci_array *h = NULL, *g = NULL, *out = NULL;
  cusci_array_arange(host, 0, 10, 1, CUSCI_FLOAT32, &h);
  cusci_status st = cusci_array_astype(gpu, h, CUSCI_FLOAT64, true, &out);
  ok(st == CUSCI_ERR_DEVICE && strstr(cusci_ctx_last_error(gpu), "a lives on the host, the context on GPU 0") && !out,
     "a host array on a GPU context -> CUSCI_ERR_DEVICE (%s)", cusci_ctx_last_error(gpu));
  cusci_array_arange(gpu, 0, 10, 1, CUSCI_FLOAT32, &g);
  ok(cusci_array_device(g) == 0, "arrays made on a GPU context live on that GPU");
  float buf[10];
  ok(cusci_array_to_host(host, g, buf, sizeof buf) == CUSCI_ERR_DEVICE, "a GPU array on a host context -> CUSCI_ERR_DEVICE");

  /* Another context's stream, adopted; events time work on it. */
  cusci_ctx *c2 = NULL;
  cusci_ctx_create(0, &c2);
  cusci_event *e0 = NULL, *e1 = NULL;
  cusci_event_create(gpu, &e0);
  cusci_event_create(gpu, &e1);
  ok(cusci_ctx_set_stream(gpu, cusci_ctx_stream(c2)) == CUSCI_OK && cusci_ctx_stream(gpu) == cusci_ctx_stream(c2),
     "set_stream adopts a caller's stream");
  cusci_array *big = NULL, *conv = NULL;
  cusci_event_record(gpu, e0);
  cusci_array_ones(gpu, 1, (const int64_t[]){1 << 24}, CUSCI_FLOAT64, &big);
  cusci_array_astype(gpu, big, CUSCI_FLOAT16, true, &conv);
  cusci_event_record(gpu, e1);
  float ms = -1;
  cusci_status es = cusci_event_synchronize(gpu, e1);
  if (es == CUSCI_OK)
    es = cusci_event_elapsed_ms(gpu, e0, e1, &ms);
  ok(es == CUSCI_OK && ms > 0, "events record and time work on the adopted stream (%.3f ms)", ms);
  ok(cusci_event_wait(c2, e1) == CUSCI_OK, "a stream can wait on an event");
  ok(cusci_ctx_set_stream(gpu, NULL) == CUSCI_OK && cusci_ctx_stream(gpu) != cusci_ctx_stream(c2),
     "set_stream(NULL) returns to the context's own stream");
  ok(cusci_ctx_synchronize(gpu) == CUSCI_OK, "synchronize");
  cusci_event_destroy(e0);
  cusci_event_destroy(e1);

  /* An array outlives the context that made it. */
  cusci_ctx *c3 = NULL;
  cusci_array *orphan = NULL;
  cusci_ctx_create(0, &c3);
  cusci_array_arange(c3, 0, 1000, 1, CUSCI_INT32, &orphan);
  cusci_ctx_synchronize(c3);
  cusci_ctx_destroy(c3);
  int32_t ob[1000];
  ok(cusci_array_to_host(c2, orphan, ob, sizeof ob) == CUSCI_OK && ob[999] == 999,
     "an array outlives its context and is read through another");
  cusci_array_release(orphan);
  cusci_ctx_destroy(c2);
  cusci_array_release(big);
  cusci_array_release(conv);
  cusci_array_release(h);
  cusci_array_release(g);
}

static void test_transfers(void)
{
  /* Round trips of odd sizes, and to_host of a strided view. */
  int good = 1;
  static const int64_t sizes[] = {0, 1, 3, 1000003};
  for (size_t i = 0; i < 4; i++) {
    int64_t n = sizes[i];
    uint16_t *src = malloc((size_t)(n ? n : 1) * 2), *back = malloc((size_t)(n ? n : 1) * 2);
    for (int64_t j = 0; j < n; j++)
      src[j] = (uint16_t)(j * 40503u);
    cusci_array *g = NULL;
    good &= cusci_array_from_host(gpu, src, 1, &n, CUSCI_UINT16, &g) == CUSCI_OK &&
            cusci_array_to_host(gpu, g, back, (size_t)n * 2) == CUSCI_OK && (n == 0 || !memcmp(src, back, (size_t)n * 2));
    cusci_array_release(g);
    free(src);
    free(back);
  }
  ok(good, "from_host / to_host round trips (0, 1, 3, 1000003 elements)");
  /* from_host into a given, non-contiguous out. */
  cusci_array *buf = NULL, *t = NULL, *given;
  cusci_array_zeros(gpu, 2, (const int64_t[]){3, 4}, CUSCI_INT32, &buf);
  cusci_array_transpose(gpu, buf, NULL, &t);
  int32_t in[12], outv[12];
  for (int i = 0; i < 12; i++)
    in[i] = i * i - 30;
  given = t;
  cusci_array_from_host(gpu, in, 2, (const int64_t[]){4, 3}, CUSCI_INT32, &given);
  cusci_array_to_host(gpu, buf, outv, sizeof outv);
  ok(outv[1 * 4 + 2] == in[2 * 3 + 1], "from_host into a transposed out lands transposed");
  cusci_array_release(t);
  cusci_array_release(buf);
}

static void test_memory(void)
{
  /* The GPU pool: stats move with arrays; cached memory is reused. */
  cusci_pool *p = cusci_ctx_pool(gpu);
  ok(p != NULL && p != cusci_ctx_pool(host), "a GPU context has the device's pool");
  cusci_ctx *other = NULL;
  cusci_ctx_create(0, &other);
  ok(cusci_ctx_pool(other) == p, "contexts on one device share its pool");
  size_t used0 = cusci_pool_used_bytes(p);
  cusci_array *a = NULL, *b = NULL;
  cusci_array_empty(gpu, 1, (const int64_t[]){(1 << 20) + 1}, CUSCI_FLOAT32, &a);
  /* Under CUSCI_POOL=off (make check-sanitize) the pool gives exact
   * allocations and caches nothing. */
  bool caching = cusci_pool_caching(p);
  is_int(cusci_pool_used_bytes(p) - used0, caching ? 4 * (1 << 20) + 512 : 4 * (1 << 20) + 4,
         caching ? "4 MiB + 4 bytes take 4 MiB + 512 of the pool" : "without caching, 4 MiB + 4 bytes take exactly that");
  void *where = cusci_array_data(a);
  cusci_array_release(a);
  cusci_array_empty(gpu, 1, (const int64_t[]){1 << 20}, CUSCI_FLOAT32, &b);
  if (caching)
    ok(cusci_array_data(b) == where, "the same stream reuses the freed block at once");
  else
    skip(1, "the pool does not cache (CUSCI_POOL=off)");
  cusci_array_release(b);
  size_t lim = cusci_pool_total_bytes(p) + (8u << 20);
  cusci_pool_set_limit(p, lim);
  a = NULL;
  cusci_status st = cusci_array_empty(gpu, 1, (const int64_t[]){1 << 30}, CUSCI_FLOAT32, &a);
  ok(st == CUSCI_ERR_OUT_OF_MEMORY && !a && strstr(cusci_ctx_last_error(gpu), "limit"),
     "4 GiB over the pool's limit: CUSCI_ERR_OUT_OF_MEMORY (%s)", cusci_ctx_last_error(gpu));
  cusci_pool_set_limit(p, 0);
  size_t fr = 0, tot = 0;
  cusci_device_memory(0, &fr, &tot);
  st = cusci_array_empty(gpu, 1, (const int64_t[]){(int64_t)(tot / 4) * 2}, CUSCI_FLOAT32, &a);
  ok(st == CUSCI_ERR_OUT_OF_MEMORY && !a && strstr(cusci_ctx_last_error(gpu), "out of memory"),
     "twice the device's memory: CUSCI_ERR_OUT_OF_MEMORY");
  ok(cusci_pool_free_all_blocks(p) == CUSCI_OK && cusci_pool_total_bytes(p) == cusci_pool_used_bytes(p),
     "free_all_blocks leaves only what is in use");
  cusci_ctx_destroy(other);

  /* Pinned memory. */
  void *pin = NULL;
  ok(cusci_host_alloc_pinned(3 << 20, &pin) == CUSCI_OK && pin != NULL, "pinned host memory");
  cusci_host_free_pinned(pin);
  cusci_host_free_pinned(NULL);

  /* Staged (pageable), pinned and async transfers of large odd sizes. */
  int64_t n = (37 << 20) + 12345;
  uint8_t *src = malloc((size_t)n), *back = malloc((size_t)n), *pbuf = NULL;
  for (int64_t i = 0; i < n; i++)
    src[i] = (uint8_t)(i * 131 + (i >> 13));
  cusci_array *g = NULL;
  ok(cusci_array_from_host(gpu, src, 1, &n, CUSCI_UINT8, &g) == CUSCI_OK &&
         cusci_array_to_host(gpu, g, back, (size_t)n) == CUSCI_OK && !memcmp(src, back, (size_t)n),
     "37 MiB + 12345 bytes through pageable staging, both ways");
  cusci_array_release(g);
  g = NULL;
  memset(back, 0, (size_t)n);
  ok(cusci_array_from_host_async(gpu, src, 1, &n, CUSCI_UINT8, &g) == CUSCI_OK &&
         cusci_array_to_host_async(gpu, g, back, (size_t)n) == CUSCI_OK && cusci_ctx_synchronize(gpu) == CUSCI_OK &&
         !memcmp(src, back, (size_t)n),
     "the async variants, pageable");
  cusci_host_alloc_pinned((size_t)n, (void **)&pbuf);
  cusci_array *g2 = NULL;
  ok(pbuf && cusci_array_to_host_async(gpu, g, pbuf, (size_t)n) == CUSCI_OK && cusci_ctx_synchronize(gpu) == CUSCI_OK &&
         !memcmp(src, pbuf, (size_t)n),
     "to_host_async into pinned memory");
  ok(cusci_array_from_host_async(gpu, pbuf, 1, &n, CUSCI_UINT8, &g2) == CUSCI_OK && cusci_ctx_synchronize(gpu) == CUSCI_OK &&
         cusci_array_to_host(gpu, g2, back, (size_t)n) == CUSCI_OK && !memcmp(src, back, (size_t)n),
     "from_host_async from pinned memory");
  cusci_host_free_pinned(pbuf);
  cusci_array_release(g);
  cusci_array_release(g2);
  free(src);
  free(back);
}

static void test_wrap(void)
{
  /* A device pointer the caller holds, wrapped; host memory refused. */
  cusci_array *own = NULL, *w = NULL, *c = NULL;
  cusci_array_arange(gpu, 0, 20, 1, CUSCI_INT32, &own);
  ok(cusci_array_wrap(gpu, cusci_array_data(own), 2, (const int64_t[]){4, 5}, NULL, CUSCI_INT32, &w) == CUSCI_OK,
     "wrap device memory on a GPU context");
  cusci_array *t = NULL;
  cusci_array_transpose(gpu, w, NULL, &t);
  cusci_array_copy(gpu, t, &c);
  int32_t v[20];
  cusci_array_to_host(gpu, c, v, sizeof v);
  ok(v[1] == 5 && v[4] == 1, "kernels read it through views");
  int32_t hostmem[4] = {0};
  cusci_array *bad = NULL;
  ok(cusci_array_wrap(gpu, hostmem, 1, (const int64_t[]){4}, NULL, CUSCI_INT32, &bad) == CUSCI_ERR_DEVICE && !bad,
     "host memory on a GPU context: CUSCI_ERR_DEVICE (%s)", cusci_ctx_last_error(gpu));
  ok(cusci_array_wrap(host, cusci_array_data(own), 1, (const int64_t[]){4}, NULL, CUSCI_INT32, &bad) == CUSCI_ERR_DEVICE,
     "device memory on a host context: CUSCI_ERR_DEVICE");
  ok(cusci_array_wrap(gpu, (char *)cusci_array_data(own) + 2, 1, (const int64_t[]){4}, NULL, CUSCI_INT32, &bad) == CUSCI_ERR_VALUE && !bad,
     "device memory 2 bytes off int32's alignment: CUSCI_ERR_VALUE (%s)", cusci_ctx_last_error(gpu));
  cusci_array_release(t);
  cusci_array_release(c);
  cusci_array_release(w);
  cusci_array_release(own);
}

static void test_to_device(void)
{
  /* host -> GPU and GPU -> host from strided views, and GPU -> GPU. */
  double v[60];
  for (int i = 0; i < 60; i++)
    v[i] = i * 1.25 - 3;
  int64_t shape[3] = {3, 4, 5};
  cusci_array *h = NULL, *ht = NULL, *g = NULL, *gt = NULL, *back = NULL, *want = NULL;
  cusci_array_from_host(host, v, 3, shape, CUSCI_FLOAT64, &h);
  cusci_array_transpose(host, h, (const int[]){2, 0, 1}, &ht);
  cusci_array_copy(host, ht, &want);
  ok(cusci_array_to_device(gpu, ht, &g) == CUSCI_OK && cusci_array_device(g) == 0 && equal_gpu_host(g, want, "to_device"),
     "to_device: a strided host view to the GPU");
  cusci_array_transpose(gpu, g, (const int[]){1, 2, 0}, &gt); /* back to a's layout, as a view */
  ok(cusci_array_to_device(host, gt, &back) == CUSCI_OK && cusci_array_device(back) == CUSCI_DEVICE_HOST,
     "to_device: a strided GPU view to the host");
  double b[60];
  cusci_array_to_host(host, back, b, sizeof b);
  ok(!memcmp(b, v, sizeof v), "the values survive both ways");
  int ngpu = 0;
  cusci_device_count(&ngpu);
  if (ngpu >= 2) {
    cusci_ctx *g1 = NULL;
    cusci_array *p = NULL, *pp = NULL;
    cusci_ctx_create(1, &g1);
    ok(cusci_array_to_device(g1, gt, &p) == CUSCI_OK && cusci_array_device(p) == 1, "to_device: GPU 0 view -> GPU 1");
    ok(cusci_array_to_device(gpu, p, &pp) == CUSCI_OK && equal_gpu_host(pp, back, "peer"), "and back to GPU 0, same values");
    cusci_array_release(p);
    cusci_array_release(pp);
    cusci_ctx_destroy(g1);
  } else {
    skip(2, "one GPU: no peer copy to test");
  }
  cusci_array_release(h);
  cusci_array_release(ht);
  cusci_array_release(g);
  cusci_array_release(gt);
  cusci_array_release(back);
  cusci_array_release(want);
}

/* The out convention's calls on GPU arrays: cusci_check_out refuses a
 * mismatched *out, cusci_give_out copies (casting) into a given one. */
static void test_out_convention(void)
{
  const int64_t n = 1025;
  cusci_array *res = NULL, *given = NULL, *small = NULL, *none = NULL;
  cusci_array_arange(gpu, 0, (double)n, 1, CUSCI_FLOAT32, &res);
  cusci_array_zeros(gpu, 1, &n, CUSCI_FLOAT64, &given);
  cusci_array_zeros(gpu, 1, (const int64_t[]){n - 1}, CUSCI_FLOAT64, &small);
  cusci_array *keep = given;
  ok(cusci_check_out(gpu, "t", &given, 1, &n, CUSCI_FLOAT32, CUSCI_CASTING_SAME_KIND) == CUSCI_OK &&
         cusci_check_out(gpu, "t", &small, 1, &n, CUSCI_FLOAT32, CUSCI_CASTING_SAME_KIND) == CUSCI_ERR_SHAPE &&
         cusci_check_out(gpu, "t", &given, 1, &n, CUSCI_FLOAT32, CUSCI_CASTING_NO) == CUSCI_ERR_DTYPE,
     "cusci_check_out on GPU arrays: same_kind takes float64 for float32, a shorter *out and exact casting refuse");
  cusci_array *r2 = cusci_array_retain(res);
  double *got = malloc(sizeof *got * (size_t)n);
  cusci_status st = cusci_give_out(gpu, "t", res, &given);
  int good = st == CUSCI_OK && given == keep && cusci_array_to_host(gpu, given, got, sizeof *got * (size_t)n) == CUSCI_OK;
  for (int64_t i = 0; good && i < n; i++)
    good = got[i] == (double)i;
  ok(good, "cusci_give_out on the GPU: a float32 result copied, cast, into a given float64 *out");
  ok(cusci_give_out(gpu, "t", r2, &none) == CUSCI_OK && none == r2, "cusci_give_out on the GPU into NULL: *out is the result");
  free(got);
  cusci_array_release(none), cusci_array_release(given), cusci_array_release(small);
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  test_context();
  test_memory();
  test_transfers();
  test_to_device();
  test_wrap();
  test_creation();
  test_views();
  test_astype();
  test_out_convention();
  cusci_ctx_destroy(host);
  cusci_ctx_destroy(gpu);
  return done_testing();
}
