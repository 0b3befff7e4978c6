/*
 * tests/random-tails-gpu.c: librandom's kernels at the sizes where tails
 * break, every output guarded by sentinel bytes on both sides, GPU against
 * host bit for bit:
 *  - every distribution, both float dtypes, at multiples of the Philox
 *    groups (1, 2 or 4 elements) and of the 256-thread block, one more and
 *    one less;
 *  - the normals (the two deferring kernels), uniform, gamma, integers,
 *    poisson and binomial at the sizes where the grid's last round is
 *    partial and at 2^20 to 2^28 elements (to 2^22 under
 *    compute-sanitizer: tk_top_log2);
 *  - the normals again after the pool has been filled with 0xff bytes, so
 *    that scratch the first kernel leaves unwritten is garbage, not zeros;
 *  - permutation, choice and multinomial rows;
 *  - outputs that start one element into their allocation, and shuffle's
 *    row gather on rows so placed.
 * The pool caches for the garbage case and is off (exact allocations) for
 * the rest. Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#include "tests/random-stats.h"

static cusci_ctx *gpu, *host;

/* GPU (into a guarded out) and host (a new array) from one seed; 1 when
 * they agree bit for bit and the guard is intact. */
static int same(const char *name, cusci_dtype dt, int64_t n, uint64_t seed, char *why, size_t len)
{
  cusci_random_generator *gh = NULL, *gg = NULL;
  cusci_random_generator_create(host, CUSCI_BITGEN_PHILOX, seed, &gh);
  cusci_random_generator_create(gpu, CUSCI_BITGEN_PHILOX, seed, &gg);
  cusci_dtype odt = dt;
  for (const rcase *c = rs_cases; c->name; c++)
    if (!strcmp(c->name, name) && c->discrete)
      odt = CUSCI_INT64;
  tk_guard g;
  cusci_array *want = NULL;
  int good = 0;
  if (tk_guard_make(gpu, 1, &n, odt, 8 << 20, &g)) {
    cusci_status sg = rs_draw(gpu, gg, name, 1, &n, dt, &g.out), sh = rs_draw(host, gh, name, 1, &n, dt, &want);
    if (sg != CUSCI_OK || sh != CUSCI_OK)
      snprintf(why, len, "n = %lld: GPU %s (%s), host %s", (long long)n, cusci_status_name(sg), cusci_ctx_last_error(gpu),
               cusci_status_name(sh));
    else if (!tk_guard_intact(&g, name))
      snprintf(why, len, "n = %lld: a write outside the output", (long long)n);
    else if (!tk_agree(gpu, g.out, host, want, TK_EXACT, name))
      snprintf(why, len, "n = %lld: GPU and host differ", (long long)n);
    else
      good = 1;
  } else {
    snprintf(why, len, "no guard: %s", cusci_ctx_last_error(gpu));
  }
  tk_guard_free(&g);
  cusci_array_release(want);
  cusci_random_generator_destroy(gh);
  cusci_random_generator_destroy(gg);
  return good;
}

static const int64_t small_tails[] = {1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 4097};

static void every_distribution(void)
{
  static const cusci_dtype dts[2] = {CUSCI_FLOAT32, CUSCI_FLOAT64};
  for (const rcase *c = rs_cases; c->name; c++)
    for (int d = 0; d < (c->discrete ? 1 : 2); d++) {
      char why[512] = "";
      int good = 1;
      for (size_t s = 0; s < sizeof small_tails / sizeof *small_tails && good; s++)
        good = same(c->name, dts[d], small_tails[s], 1000 + (uint64_t)s, why, sizeof why);
      ok(good, "%s%s%s: GPU = host, guards intact, at %d sizes from 1 to 4097%s%s", c->name, c->discrete ? "" : " ",
         c->discrete ? "" : cusci_dtype_name(dts[d]), (int)(sizeof small_tails / sizeof *small_tails), good ? "" : ": ", why);
    }
}

/* The grid of the sampling kernels is the multiprocessors times up to 8
 * blocks of 256 threads, a group of up to 4 elements each: the sizes
 * around a whole number of such rounds on an H200 (132 multiprocessors;
 * on another GPU they are more sizes), and around 2^20 to 2^28. */
static void large(void)
{
  const int sms = 132;
  static const char *const names[] = {"standard_normal", "normal", "lognormal", "uniform", "gamma", "integers", "poisson", "binomial"};
  static const cusci_dtype dts[2] = {CUSCI_FLOAT32, CUSCI_FLOAT64};
  int64_t round4 = (int64_t)sms * 8 * 256 * 4;
  const int64_t sizes[] = {round4 - 1, round4, round4 + 1, 3 * round4 + 5, (1 << 20) - 1, 1 << 20, (1 << 20) + 1};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
    bool discrete = !strcmp(names[k], "integers") || !strcmp(names[k], "poisson") || !strcmp(names[k], "binomial");
    for (int d = 0; d < (discrete ? 1 : 2); d++) {
      char why[512] = "";
      int good = 1;
      for (size_t s = 0; s < sizeof sizes / sizeof *sizes && good; s++)
        good = same(names[k], dts[d], sizes[s], 77 + (uint64_t)s, why, sizeof why);
      /* 2^22 to 2^28: standard_normal and uniform, the rest to 2^24
       * (2^22 under compute-sanitizer). */
      int top = tk_top_log2(!strcmp(names[k], "standard_normal") || !strcmp(names[k], "uniform") ? 28 : 24);
      for (int e = 22; e <= top && good; e += 2)
        good = same(names[k], dts[d], INT64_C(1) << e, 500 + (uint64_t)e, why, sizeof why);
      ok(good, "%s%s%s: GPU = host, guards intact, around whole grid rounds and at 2^20 to 2^%d%s%s", names[k],
         discrete ? "" : " ", discrete ? "" : cusci_dtype_name(dts[d]), top, good ? "" : ": ", why);
    }
  }
}

/*
 * The deferring normals mark the elements their first kernel could not
 * finish in a scratch bitmap that the second kernel reads. Scratch comes
 * from the pool, uninitialised: with the pool's memory filled with 0xff,
 * any word the first kernel does not write marks elements that may lie
 * past the end. The guards must stay intact.
 */
static void garbage_scratch(void)
{
  static const char *const names[] = {"standard_normal", "normal", "lognormal"};
  static const cusci_dtype dts[2] = {CUSCI_FLOAT32, CUSCI_FLOAT64};
  const int64_t sizes[] = {(1 << 20) + 1, (1 << 20) + 4099, 3 * 1081344 + 7, (1 << 24) + 3};
  const size_t poison[] = {64 << 10, 256 << 10, 900 << 10, 4 << 20, 16 << 20, 64 << 20};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++)
    for (int d = 0; d < 2; d++) {
      char why[512] = "";
      int good = 1;
      for (size_t s = 0; s < sizeof sizes / sizeof *sizes && good; s++) {
        if (sizes[s] > INT64_C(1) << tk_top_log2(25))
          continue; /* past 2^22 under compute-sanitizer */
        tk_poison_pool(gpu, (int)(sizeof poison / sizeof *poison), poison);
        good = same(names[k], dts[d], sizes[s], 31 + (uint64_t)s, why, sizeof why);
      }
      ok(good, "%s %s with the pool's free memory all 0xff: GPU = host, nothing written past the end%s%s", names[k],
         cusci_dtype_name(dts[d]), good ? "" : ": ", why);
    }
}

/* The kernels of perm.cu and the rows: permutation, choice, multinomial. */
static void perm_and_rows(void)
{
  static const int64_t ns[] = {1, 2, 255, 256, 257, 1023, 1024, 1025, 65537};
  int good = 1;
  char why[256] = "";
  for (size_t s = 0; s < sizeof ns / sizeof *ns && good; s++) {
    cusci_random_generator *gh = NULL, *gg = NULL;
    cusci_random_generator_create(host, CUSCI_BITGEN_PHILOX, 90 + s, &gh);
    cusci_random_generator_create(gpu, CUSCI_BITGEN_PHILOX, 90 + s, &gg);
    cusci_array *hp = NULL, *gp = NULL, *hc = NULL, *gc = NULL, *hm = NULL, *gm = NULL;
    int64_t m = ns[s] + 2, rows = ns[s];
    double pv[5] = {0.125, 0.3, 0.2, 0.075, 0.3};
    int64_t five = 5;
    cusci_array *hpv = NULL, *gpv = NULL;
    cusci_array_from_host(host, pv, 1, &five, CUSCI_FLOAT64, &hpv);
    cusci_array_from_host(gpu, pv, 1, &five, CUSCI_FLOAT64, &gpv);
    good = cusci_random_permutation(host, gh, ns[s], &hp) == CUSCI_OK && cusci_random_permutation(gpu, gg, ns[s], &gp) == CUSCI_OK &&
           tk_agree(gpu, gp, host, hp, TK_EXACT, "permutation");
    if (good)
      good = cusci_random_choice(host, gh, ns[s] + 5, 1, &m, true, NULL, &hc) == CUSCI_OK &&
             cusci_random_choice(gpu, gg, ns[s] + 5, 1, &m, true, NULL, &gc) == CUSCI_OK && tk_agree(gpu, gc, host, hc, TK_EXACT, "choice");
    if (good)
      good = cusci_random_multinomial(host, gh, 17, hpv, 1, &rows, &hm) == CUSCI_OK &&
             cusci_random_multinomial(gpu, gg, 17, gpv, 1, &rows, &gm) == CUSCI_OK && tk_agree(gpu, gm, host, hm, TK_EXACT, "multinomial");
    if (!good)
      snprintf(why, sizeof why, " (n = %lld: %s)", (long long)ns[s], cusci_ctx_last_error(gpu));
    cusci_array_release(hp), cusci_array_release(gp), cusci_array_release(hc), cusci_array_release(gc);
    cusci_array_release(hm), cusci_array_release(gm), cusci_array_release(hpv), cusci_array_release(gpv);
    cusci_random_generator_destroy(gh);
    cusci_random_generator_destroy(gg);
  }
  ok(good, "permutation, choice with replacement and multinomial rows: GPU = host at 9 sizes%s", why);
}

/* An output that is C-contiguous but starts one element into its
 * allocation (a slice [1:]): the kernels' whole-group stores must not
 * assume more than the item size's alignment. */
static cusci_status draw_into(cusci_ctx *ctx, cusci_random_generator *g, int which, int64_t n, cusci_array **out)
{
  switch (which) {
  case 0: return cusci_random_uniform(ctx, g, -1.5, 2.25, 1, &n, CUSCI_FLOAT32, out);
  case 1: return cusci_random_standard_normal(ctx, g, 1, &n, CUSCI_FLOAT32, out);
  case 2: return cusci_random_standard_normal(ctx, g, 1, &n, CUSCI_FLOAT64, out);
  case 3: return cusci_random_gamma(ctx, g, 2.5, 1.5, 1, &n, CUSCI_FLOAT32, out);
  case 4: return cusci_random_integers(ctx, g, -7, 1000, false, 1, &n, CUSCI_INT32, out);
  case 5: return cusci_random_integers(ctx, g, -7, 1000, false, 1, &n, CUSCI_INT16, out);
  default: return cusci_random_poisson(ctx, g, 3.5, 1, &n, out);
  }
}

static void offset_outputs(void)
{
  static const char *const names[] = {"uniform float32", "standard_normal float32", "standard_normal float64", "gamma float32",
                                      "integers int32", "integers int16", "poisson int64"};
  static const cusci_dtype dts[] = {CUSCI_FLOAT32, CUSCI_FLOAT32, CUSCI_FLOAT64, CUSCI_FLOAT32, CUSCI_INT32, CUSCI_INT16, CUSCI_INT64};
  static const int64_t ns[] = {1, 5, 1027, 65541};
  for (int w = 0; w < 7; w++) {
    int good = 1;
    char why[256] = "";
    for (size_t s = 0; s < sizeof ns / sizeof *ns && good; s++) {
      int64_t n = ns[s], big = n + 1;
      cusci_random_generator *gh = NULL, *gg = NULL;
      cusci_random_generator_create(host, CUSCI_BITGEN_PHILOX, 8 + s, &gh);
      cusci_random_generator_create(gpu, CUSCI_BITGEN_PHILOX, 8 + s, &gg);
      cusci_array *base = NULL, *view = NULL, *want = NULL;
      const int64_t one = 1;
      cusci_status st = cusci_array_zeros(gpu, 1, &big, dts[w], &base);
      if (st == CUSCI_OK)
        st = cusci_array_slice(gpu, base, &one, NULL, NULL, &view);
      if (st == CUSCI_OK)
        st = draw_into(gpu, gg, w, n, &view);
      cusci_status sh = draw_into(host, gh, w, n, &want);
      if (st != CUSCI_OK || sh != CUSCI_OK || !tk_agree(gpu, view, host, want, TK_EXACT, names[w])) {
        good = 0;
        snprintf(why, sizeof why, ": n = %lld: %s", (long long)n, st ? cusci_ctx_last_error(gpu) : "GPU and host differ");
      }
      cusci_array_release(base), cusci_array_release(view), cusci_array_release(want);
      cusci_random_generator_destroy(gh);
      cusci_random_generator_destroy(gg);
    }
    ok(good, "%s into a contiguous out one element into its allocation: GPU = host%s", names[w], why);
  }

  /* shuffle's row gather in place, on rows of 8 bytes that start 4 bytes
   * into their allocation. */
  int good = 1;
  const char *why = "";
  for (int64_t rows = 1; rows <= 1025 && good; rows = rows * 4 + 1) {
    int64_t big = 2 * rows + 1, one = 1, sh2[2] = {rows, 2};
    uint64_t seed = 3;
    cusci_array *hx = tk_random(host, 1, &big, CUSCI_INT32, -1000, 1000, &seed), *gx = tk_copy_to(gpu, host, hx);
    cusci_array *hv = NULL, *gv = NULL, *hr = NULL, *gr = NULL;
    cusci_random_generator *gh = NULL, *gg = NULL;
    cusci_random_generator_create(host, CUSCI_BITGEN_PHILOX, 55, &gh);
    cusci_random_generator_create(gpu, CUSCI_BITGEN_PHILOX, 55, &gg);
    cusci_array_slice(host, hx, &one, NULL, NULL, &hv);
    cusci_array_slice(gpu, gx, &one, NULL, NULL, &gv);
    cusci_array_reshape(host, hv, 2, sh2, &hr);
    cusci_array_reshape(gpu, gv, 2, sh2, &gr);
    if (cusci_random_shuffle(host, gh, hr) != CUSCI_OK || cusci_random_shuffle(gpu, gg, gr) != CUSCI_OK ||
        !tk_agree(gpu, gx, host, hx, TK_EXACT, "shuffle")) {
      good = 0;
      why = cusci_ctx_last_error(gpu);
    }
    cusci_array_release(hx), cusci_array_release(gx), cusci_array_release(hv), cusci_array_release(gv);
    cusci_array_release(hr), cusci_array_release(gr);
    cusci_random_generator_destroy(gh);
    cusci_random_generator_destroy(gg);
  }
  ok(good, "shuffle of int32 rows of 8 bytes, 4 bytes into their allocation: GPU = host %s", why);
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  garbage_scratch();
  ok(tk_pool_off(gpu), "the GPU's pool is off: every array its own allocation from here on");
  every_distribution();
  large();
  perm_and_rows();
  offset_outputs();
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
