/*
 * tests/random-tails-gpu.c: librandom's kernels at the sizes where tails
 * break, every output guarded by sentinel bytes on both sides, GPU against
 * host bit for bit:
 *  - every distribution, both float dtypes, at multiples of the Philox
 *    groups (1, 2 or 4 elements) and of the 256-thread block, one more and
 *    one less;
 *  - the normals (the two deferring kernels), uniform, gamma, integers,
 *    poisson and binomial at the sizes where the grid's last round is
 *    partial and at 2^20 to 2^28 elements;
 *  - the normals again after the pool has been filled with 0xff bytes, so
 *    that scratch the first kernel leaves unwritten is garbage, not zeros;
 *  - permutation, choice and multinomial rows.
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
      /* 2^22 to 2^28: the normals, uniform and integers, the rest to 2^24. */
      int top = !strcmp(names[k], "standard_normal") || !strcmp(names[k], "uniform") || !strcmp(names[k], "integers") ? 28 : 24;
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

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  garbage_scratch();
  ok(tk_pool_off(gpu), "the GPU's pool is off: every array its own allocation from here on");
  every_distribution();
  large();
  perm_and_rows();
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
