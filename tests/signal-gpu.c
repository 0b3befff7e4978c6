/*
 * tests/signal-gpu.c: cusci-signal on the GPU against the host, on random
 * input:
 *  - fft, ifft, rfft, irfft, hfft and ihfft at lengths from 1 to 10^6 + 3
 *    (powers of two, one more and one less, primes, smooth lengths; to
 *    2^17 under compute-sanitizer), both precisions, every norm,
 *    a batch along the last axis, the first and a middle one (cuFFT's
 *    layout, its loop and the copies with the axis last), strided and
 *    reversed views, crops and pads;
 *  - the n-d forms over 2 and 3 axes, the DCT/DST of every type, the
 *    fast Hankel transform and its inverse;
 *  - explicit plans with a workspace and a given out, which allocate
 *    nothing;
 *  - the cache: a hundred plans of different large lengths hold one work
 *    area, the size of the largest need.
 * Each within a few eps log2(n) (relative RMS). Prints "1..0 # SKIP no
 * CUDA device" where there is none.
 */
#include <stdio.h>

#include "tests/signal-util.h"

static cusci_ctx *gpu, *host;

/* The same call on both backends from one random input (x on the host,
 * its copy on the GPU); 1 when they agree. strided: x is a strided,
 * reversed view. */
static int both(const char *func, int type, int64_t n, int axis, cusci_fft_norm norm, int naxes, const int64_t *s, const int *axes, int ndim,
                const int64_t *shape, cusci_dtype dt, bool strided, uint64_t seed, char *why, size_t len)
{
  /* The same values (and, strided, the same view) on both. */
  uint64_t sa = seed, sb = seed;
  cusci_array *hx = strided ? tk_random_strided(host, ndim, shape, dt, -2, 2, &sa) : tk_random(host, ndim, shape, dt, -2, 2, &sa);
  cusci_array *gx = strided ? tk_random_strided(gpu, ndim, shape, dt, -2, 2, &sb) : hx ? tk_copy_to(gpu, host, hx) : NULL;
  cusci_array *ho = NULL, *go = NULL;
  int good = 0;
  if (!hx || !gx) {
    snprintf(why, len, "no input");
    goto done;
  }
  cusci_status sh = sig_call(host, func, type, n, axis, norm, naxes, s, axes, hx, &ho);
  cusci_status sg = sig_call(gpu, func, type, n, axis, norm, naxes, s, axes, gx, &go);
  if (sh != CUSCI_OK || sg != CUSCI_OK) {
    snprintf(why, len, "host %s, GPU %s (%s)", cusci_status_name(sh), cusci_status_name(sg), cusci_ctx_last_error(sg != CUSCI_OK ? gpu : host));
    goto done;
  }
  int64_t longest = 1;
  for (int i = 0; i < ndim; i++)
    longest = shape[i] > longest ? shape[i] : longest;
  longest = n > longest ? n : longest;
  double e = sig_rel_rms(gpu, go, host, ho), tol = sig_tol(cusci_array_dtype(ho), longest);
  if (cusci_array_dtype(go) != cusci_array_dtype(ho) || !(e <= tol))
    snprintf(why, len, "%s against %s, relative RMS %.3g (tolerance %.3g)", cusci_dtype_name(cusci_array_dtype(go)),
             cusci_dtype_name(cusci_array_dtype(ho)), e, tol);
  else
    good = 1;
done:
  cusci_array_release(hx), cusci_array_release(gx), cusci_array_release(ho), cusci_array_release(go);
  return good;
}

static void one_axis(void)
{
  static const char *const funcs[] = { "fft", "ifft", "rfft", "irfft", "hfft", "ihfft" };
  /* Under compute-sanitizer, where every cuFFT kernel (Bluestein's most)
   * is many times slower, to 2^17 and a prime and a power of 3 below. */
  const int top = tk_sanitizing() ? 17 : 20;
  const int64_t lens[] = { 1, 2, 3, 5, 16, 17, 30, 97, 127, 128, 129, 255, 256, 257, 1000, 1009, 4095, 4096, 4097, 65536, 65537,
                           (INT64_C(1) << top) - 1, INT64_C(1) << top, top >= 20 ? 1000003 : 40009, top >= 20 ? 1594323 : 59049 };
  for (int f = 0; f < 6; f++)
    for (int prec = 0; prec < 2; prec++) {
      const bool real_in = !strcmp(funcs[f], "rfft") || !strcmp(funcs[f], "ihfft");
      const cusci_dtype dt = real_in ? (prec ? CUSCI_FLOAT64 : CUSCI_FLOAT32) : (prec ? CUSCI_COMPLEX128 : CUSCI_COMPLEX64);
      char why[512] = "";
      int good = 1;
      size_t k = 0;
      for (; k < sizeof lens / sizeof *lens && good; k++) {
        const int64_t L = lens[k];
        const bool c2r = !strcmp(funcs[f], "irfft") || !strcmp(funcs[f], "hfft");
        const int64_t n = c2r ? L : 0, m = c2r ? L / 2 + 1 : L;
        int64_t sh[2] = { L > 65537 ? 1 : 3, m };
        good = both(funcs[f], 0, n, -1, (cusci_fft_norm)(k % 3), 0, NULL, NULL, 2, sh, dt, false, 1000 + k, why, sizeof why);
        if (!good)
          snprintf(why + strlen(why), sizeof why - strlen(why), " at length %lld", (long long)L);
      }
      ok(good, "%s %s: GPU = host at %zu lengths, 1 to %lld, along the last axis%s%s", funcs[f], cusci_dtype_name(dt), k,
         (long long)lens[sizeof lens / sizeof *lens - 3], good ? "" : ": ", why);
      /* The other layouts: the first axis (one batch dimension of stride
       * 1), a middle one (the loop), a middle one of a long outer axis
       * (the copies), a strided reversed view, a crop and a pad. */
      struct {
        int ndim;
        int64_t shape[3];
        int axis;
        bool strided;
        int64_t n;
      } cases[] = {
        { 2, { 33, 4 }, 0, false, 0 }, { 3, { 2, 30, 3 }, 1, false, 0 },   { 3, { 100, 17, 3 }, 1, false, 0 },
        { 2, { 3, 40 }, -1, true, 0 }, { 3, { 2, 9, 5 }, 1, true, 0 },      { 2, { 3, 40 }, -1, false, 31 },
        { 2, { 3, 40 }, -1, false, 50 }, { 2, { 5, 16 }, 0, false, 8 },
      };
      for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        good = both(funcs[f], 0, cases[c].n, cases[c].axis, CUSCI_FFT_ORTHO, 0, NULL, NULL, cases[c].ndim, cases[c].shape, dt, cases[c].strided,
                    77 + c, why, sizeof why);
        char shp[96];
        ok(good, "%s %s of shape %s along axis %d%s%s, n %lld: GPU = host%s%s", funcs[f], cusci_dtype_name(dt),
           cusci_shape_str(cases[c].ndim, cases[c].shape, shp, sizeof shp), cases[c].axis, cases[c].strided ? ", a strided reversed view" : "",
           "", (long long)cases[c].n, good ? "" : ": ", why);
      }
    }
}

static void n_axes(void)
{
  static const char *const funcs[] = { "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn" };
  const int64_t sh[3] = { 5, 6, 7 }, s2[2] = { 4, 9 };
  const int ax2[2] = { 0, 2 }, ax1[1] = { 1 };
  for (int f = 0; f < 6; f++)
    for (int prec = 0; prec < 2; prec++) {
      const bool real_in = !strcmp(funcs[f], "rfftn") || !strcmp(funcs[f], "ihfftn");
      const cusci_dtype dt = real_in ? (prec ? CUSCI_FLOAT64 : CUSCI_FLOAT32) : (prec ? CUSCI_COMPLEX128 : CUSCI_COMPLEX64);
      char why[512] = "";
      int good = both(funcs[f], 0, 0, 0, CUSCI_FFT_BACKWARD, 0, NULL, NULL, 3, sh, dt, false, 5, why, sizeof why);
      ok(good, "%s %s over every axis of (5, 6, 7)%s%s", funcs[f], cusci_dtype_name(dt), good ? "" : ": ", why);
      good = both(funcs[f], 0, 0, 0, CUSCI_FFT_FORWARD, 2, s2, ax2, 3, sh, dt, false, 6, why, sizeof why);
      ok(good, "%s %s over axes (0, 2) with s = (4, 9)%s%s", funcs[f], cusci_dtype_name(dt), good ? "" : ": ", why);
      good = both(funcs[f], 0, 0, 0, CUSCI_FFT_ORTHO, 1, NULL, ax1, 3, sh, dt, true, 7, why, sizeof why);
      ok(good, "%s %s over axis 1 of a strided view%s%s", funcs[f], cusci_dtype_name(dt), good ? "" : ": ", why);
    }
}

static void trig(void)
{
  static const char *const funcs[] = { "dct", "idct", "dst", "idst" };
  const int64_t lens[] = { 2, 3, 5, 16, 17, 97, 128, 1000, 4097 };
  for (int f = 0; f < 4; f++)
    for (int t = 1; t <= 4; t++)
      for (int prec = 0; prec < 2; prec++) {
        const cusci_dtype dt = prec ? CUSCI_FLOAT64 : CUSCI_FLOAT32;
        char why[512] = "";
        int good = 1;
        for (size_t k = 0; k < sizeof lens / sizeof *lens && good; k++) {
          int64_t sh[2] = { 3, lens[k] };
          good = both(funcs[f], t, 0, -1, (cusci_fft_norm)(k % 3), 0, NULL, NULL, 2, sh, dt, false, 300 + k, why, sizeof why);
        }
        int64_t sh0[2] = { 17, 4 };
        if (good)
          good = both(funcs[f], t, 20, 0, CUSCI_FFT_ORTHO, 0, NULL, NULL, 2, sh0, dt, true, 9, why, sizeof why);
        ok(good, "%s type %d %s: GPU = host at lengths 2 to 4097, and padded along axis 0 of a strided view%s%s", funcs[f], t,
           cusci_dtype_name(dt), good ? "" : ": ", why);
      }
  int64_t sh[3] = { 4, 5, 6 };
  char why[512] = "";
  int good = both("dctn", 2, 0, 0, CUSCI_FFT_ORTHO, 0, NULL, NULL, 3, sh, CUSCI_FLOAT64, false, 12, why, sizeof why);
  ok(good, "dctn type 2 over (4, 5, 6)%s%s", good ? "" : ": ", why);
  good = both("idstn", 3, 0, 0, CUSCI_FFT_BACKWARD, 0, NULL, NULL, 3, sh, CUSCI_FLOAT32, false, 13, why, sizeof why);
  ok(good, "idstn type 3 over (4, 5, 6), float32%s%s", good ? "" : ": ", why);
  good = both("dct", 2, 9, 1, CUSCI_FFT_ORTHO, 0, NULL, NULL, 3, sh, CUSCI_COMPLEX128, true, 14, why, sizeof why);
  ok(good, "dct type 2 of a complex128 strided view, padded along axis 1%s%s", good ? "" : ": ", why);
}

static void hankel(void)
{
  int64_t sh[2] = { 3, 65 };
  for (int prec = 0; prec < 2; prec++)
    for (int inv = 0; inv < 2; inv++)
      for (int b = 0; b < 2; b++) {
        const cusci_dtype dt = prec ? CUSCI_FLOAT64 : CUSCI_FLOAT32;
        uint64_t seed = 40 + 4 * prec + 2 * inv + b, s2 = seed;
        cusci_array *hx = tk_random(host, 2, sh, dt, 0, 1, &seed), *gx = tk_random(gpu, 2, sh, dt, 0, 1, &s2), *ho = NULL, *go = NULL;
        const double bias = b ? 0.3 : 0.0;
        cusci_status sh_ = inv ? cusci_fft_ifht(host, hx, 0.05, 0.5, 0.01, bias, &ho) : cusci_fft_fht(host, hx, 0.05, 0.5, 0.01, bias, &ho);
        cusci_status sg = inv ? cusci_fft_ifht(gpu, gx, 0.05, 0.5, 0.01, bias, &go) : cusci_fft_fht(gpu, gx, 0.05, 0.5, 0.01, bias, &go);
        double e = sh_ == CUSCI_OK && sg == CUSCI_OK ? sig_rel_rms(gpu, go, host, ho) : INFINITY;
        ok(e <= sig_tol(prec ? CUSCI_FLOAT64 : CUSCI_FLOAT32, 65) && cusci_array_dtype(go) == cusci_array_dtype(ho),
           "%s %s, bias %g: GPU = host within %.3g", inv ? "ifht" : "fht", cusci_dtype_name(dt), bias, e);
        cusci_array_release(hx), cusci_array_release(gx), cusci_array_release(ho), cusci_array_release(go);
      }
}

static void plans(void)
{
  int64_t sh[2] = { 8, 1000 };
  uint64_t seed = 21;
  cusci_array *x = tk_random(gpu, 2, sh, CUSCI_FLOAT32, -2, 2, &seed), *want = NULL, *out = NULL, *ws = NULL;
  int ax = -1;
  int64_t n = 1200;
  cusci_fft_rfft(gpu, x, n, -1, CUSCI_FFT_BACKWARD, &want);
  cusci_fft_plan *p = NULL;
  cusci_status st = cusci_fft_plan_create(gpu, CUSCI_FFT_KIND_RFFT, 2, sh, NULL, CUSCI_FLOAT32, 1, &n, &ax, CUSCI_FFT_BACKWARD, &p);
  int64_t osh[2];
  cusci_dtype odt;
  cusci_fft_plan_result(p, osh, &odt);
  size_t need = cusci_fft_plan_workspace_size(p);
  int64_t wlen = (int64_t)need;
  if (st == CUSCI_OK)
    st = cusci_array_empty(gpu, 1, &wlen, CUSCI_UINT8, &ws);
  if (st == CUSCI_OK)
    st = cusci_array_empty(gpu, 2, osh, odt, &out);
  cusci_pool *pool = cusci_ctx_pool(gpu);
  size_t used0 = cusci_pool_used_bytes(pool);
  cusci_array *o = out;
  if (st == CUSCI_OK)
    st = cusci_fft_plan_execute(gpu, p, x, cusci_array_data(ws), need, &o);
  size_t used1 = cusci_pool_used_bytes(pool);
  ok(st == CUSCI_OK && o == out && used1 == used0, "rfft plan with a workspace (%zu bytes) and a given out: no allocation (%zu -> %zu bytes in use)",
     need, used0, used1);
  ok(st == CUSCI_OK && sig_rel_rms(gpu, out, gpu, want) == 0, "the plan's result = the plain call's, bit for bit");
  cusci_fft_plan_destroy(p);
  cusci_array_release(x), cusci_array_release(want), cusci_array_release(out), cusci_array_release(ws);
}

/* A hundred plans of different large lengths, kept, in one work area: the
 * largest one's need, not their sum. */
static void cache(void)
{
  cusci_fft_cache_clear(gpu);
  cusci_fft_cache_set_limits(gpu, 128, SIZE_MAX);
  size_t largest = 0, sum = 0;
  int good = 1;
  const int64_t base = INT64_C(1) << (tk_sanitizing() ? 14 : 20);
  for (int k = 0; k < 100 && good; k++) {
    int64_t len = base + 7919 * k + 1, sh[1] = { len };
    uint64_t seed = 50 + k;
    cusci_array *x = tk_random(gpu, 1, sh, CUSCI_COMPLEX64, -1, 1, &seed), *o = NULL;
    cusci_fft_plan *p = NULL;
    int ax = 0;
    good = x && cusci_fft_fft(gpu, x, 0, 0, CUSCI_FFT_BACKWARD, &o) == CUSCI_OK &&
           cusci_fft_plan_create(gpu, CUSCI_FFT_KIND_FFT, 1, sh, NULL, CUSCI_COMPLEX64, 1, NULL, &ax, CUSCI_FFT_BACKWARD, &p) == CUSCI_OK;
    size_t w = cusci_fft_plan_workspace_size(p);
    sum += w;
    largest = w > largest ? w : largest;
    cusci_fft_plan_destroy(p);
    cusci_array_release(x), cusci_array_release(o);
  }
  cusci_fft_cache_info info;
  cusci_fft_cache_get_info(gpu, &info);
  ok(good && info.plans == 100, "a hundred lengths from %lld: a hundred cached plans (%zu)", (long long)base, info.plans);
  ok(good && info.work_bytes <= largest && info.work_bytes + 256 >= largest && sum > 10 * largest,
     "they hold one work area of %zu bytes, the largest need (%zu), where their own areas would take %zu", info.work_bytes, largest, sum);
  cusci_fft_cache_set_limits(gpu, 16, SIZE_MAX);
  cusci_fft_cache_get_info(gpu, &info);
  ok(info.plans == 16, "a limit of 16 plans keeps 16");
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  one_axis();
  n_axes();
  trig();
  hankel();
  plans();
  cache();
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
