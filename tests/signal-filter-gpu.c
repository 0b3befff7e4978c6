/*
 * tests/signal-filter-gpu.c: scipy.signal's filters and convolutions on
 * the GPU: every SciPy fixture against SciPy and against the host, bit
 * for bit for the filters and the direct method (tests/signal-filter-
 * suite.h); random input at lengths and batches around the kernels'
 * widths (one thread a signal, 128 a block; the state in registers to 16
 * values), the state in memory past them, a filter per channel, signals
 * of many blocks (the form parallel in time); the streaming filters on the
 * GPU over random chunks and over chunks on the blocks' edges = one call,
 * bit for bit;
 * upfirdn, the order filters and the padding kernel at their tails.
 * Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#include "tests/signal-filter-suite.h"

static cusci_ctx *gpu, *host;

/* lfilter or sosfilt of random input on both backends: equal bits. */
static int both_filter(bool sos, int64_t order, int ndim, const int64_t *shape, int axis, cusci_dtype dt, uint64_t seed, bool per_channel)
{
  uint64_t s1 = seed, s2 = seed ^ 0x55;
  int64_t lines = 1;
  for (int i = 0; i < ndim; i++)
    if (i != (axis < 0 ? axis + ndim : axis))
      lines *= shape[i];
  cusci_array *hb = NULL, *ha = NULL, *hx = tk_random(host, ndim, shape, dt, -2, 2, &s1), *gb = NULL, *ga = NULL, *gx = NULL;
  if (sos) {
    /* Stable sections: poles of radius 0.5 .. 0.9. */
    const int64_t ch = per_channel ? lines : 1;
    int64_t sh[3] = { ch, order, 6 };
    double *v = malloc(sizeof(double) * (size_t)(ch * order * 6));
    for (int64_t r = 0; r < ch * order; r++) {
      double rad = 0.5 + 0.4 * tk_rand_double(&s2), th = 3.0 * tk_rand_double(&s2);
      double *c = v + 6 * r;
      c[0] = tk_rand_double(&s2), c[1] = tk_rand_double(&s2) - 0.5, c[2] = tk_rand_double(&s2) - 0.5;
      c[3] = 1, c[4] = -2 * rad * cos(th), c[5] = rad * rad;
    }
    cusci_array_from_host(host, per_channel ? v : v, per_channel ? 3 : 2, per_channel ? sh : sh + 1, CUSCI_FLOAT64, &hb);
    free(v);
  } else {
    /* b random; a of the product of stable first-order factors. */
    double *bv = malloc(sizeof(double) * (size_t)(order + 1)), *av = calloc((size_t)(order + 1), sizeof(double));
    av[0] = 1;
    for (int64_t k = 0; k <= order; k++)
      bv[k] = tk_rand_double(&s2) - 0.3;
    for (int64_t k = 1; k <= order; k++) {
      double p = 0.9 * (2 * tk_rand_double(&s2) - 1);
      for (int64_t j = k; j >= 1; j--)
        av[j] -= p * av[j - 1];
    }
    int64_t n = order + 1;
    cusci_array_from_host(host, bv, 1, &n, CUSCI_FLOAT64, &hb);
    cusci_array_from_host(host, av, 1, &n, CUSCI_FLOAT64, &ha);
    free(bv), free(av);
  }
  gb = tk_copy_to(gpu, host, hb), ga = ha ? tk_copy_to(gpu, host, ha) : NULL, gx = tk_copy_to(gpu, host, hx);
  cusci_array *hy = NULL, *gy = NULL, *hz = NULL, *gz = NULL;
  cusci_status sh = sos ? cusci_signal_sosfilt(host, hb, hx, axis, NULL, &hy, &hz) : cusci_signal_lfilter(host, hb, ha, hx, axis, NULL, &hy, &hz);
  cusci_status sg = sos ? cusci_signal_sosfilt(gpu, gb, gx, axis, NULL, &gy, &gz) : cusci_signal_lfilter(gpu, gb, ga, gx, axis, NULL, &gy, &gz);
  double e = INFINITY, ez = INFINITY;
  int good = sh == CUSCI_OK && sg == CUSCI_OK && sf_close(gpu, gy, host, hy, 0, &e) && sf_close(gpu, gz, host, hz, 0, &ez);
  if (!good)
    diag("%s order %lld: host %s, GPU %s (%s), relative RMS %.3g, state %.3g", sos ? "sosfilt" : "lfilter", (long long)order, cusci_status_name(sh),
         cusci_status_name(sg), cusci_ctx_last_error(gpu), e, ez);
  cusci_array *rel[] = { hb, ha, hx, gb, ga, gx, hy, gy, hz, gz };
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
    cusci_array_release(rel[i]);
  return good;
}

static void random_filters(void)
{
  static const int64_t counts[] = { 1, 2, 127, 128, 129, 255, 256, 257 };
  static const int64_t orders[] = { 1, 2, 8, 15, 16, 17, 40 };
  static const cusci_dtype dts[] = { CUSCI_FLOAT64, CUSCI_FLOAT32, CUSCI_COMPLEX128, CUSCI_COMPLEX64 };
  for (int sos = 0; sos < 2; sos++)
    for (int d = 0; d < 4; d++) {
      int good = 1;
      size_t runs = 0;
      for (size_t o = 0; o < sizeof orders / sizeof *orders && good; o++) {
        /* sos: sections; the state is twice as long (in registers to 8). */
        const int64_t order = sos ? (orders[o] + 1) / 2 : orders[o];
        for (size_t c = 0; c < sizeof counts / sizeof *counts && good; c++) {
          /* The signals along the last axis (inner 1), and along the first
           * of a (len, count) array (inner = count: the loads of a warp
           * side by side). */
          int64_t s1[2] = { counts[c], 300 }, s2[2] = { 301, counts[c] };
          good = both_filter(sos, order, 2, s1, -1, dts[d], 7 * o + c, false) && both_filter(sos, order, 2, s2, 0, dts[d], 9 * o + c, false);
          runs += 2;
        }
      }
      ok(good, "%s %s: GPU = host bit for bit, output and final state, over %zu shapes (orders 1 to 40, 1 to 257 signals, both layouts)",
         sos ? "sosfilt" : "lfilter", cusci_dtype_name(dts[d]), runs);
    }
  /* Signals of at most one block, a thread per line over the whole signal
   * with its loads AHEAD (8) samples at a time: lengths around multiples
   * of 8, both layouts, states in registers and (orders 17 and 40) not. */
  for (int sos = 0; sos < 2; sos++) {
    static const int64_t lens[] = { 1, 7, 8, 9, 16, 17, 200, 255, 256 };
    static const int64_t ords[] = { 1, 2, 8, 16, 17, 40 };
    int good = 1;
    size_t runs = 0;
    for (size_t l = 0; l < sizeof lens / sizeof *lens && good; l++)
      for (size_t o = 0; o < sizeof ords / sizeof *ords && good; o++)
        for (int d = 0; d < 4 && good; d++) {
          const int64_t order = sos ? (ords[o] + 1) / 2 : ords[o];
          int64_t s1[2] = { 33, lens[l] }, s2[2] = { lens[l], 33 };
          good = both_filter(sos, order, 2, s1, -1, dts[d], 60 + 7 * l + o, false) && both_filter(sos, order, 2, s2, 0, dts[d], 90 + 7 * l + o, false);
          runs += 2;
        }
    ok(good, "%s of short signals (1 to 256 samples, every dtype, both layouts, orders 1 to 40): GPU = host bit for bit over %zu shapes",
       sos ? "sosfilt" : "lfilter", runs);
  }
  /* Many blocks of CUSCI__SIG_IIR_BLOCK samples, both layouts; along the
   * last axis the warps' tiles (32 segments of 32 samples) with whole and
   * partial warps, tiles and blocks, in every dtype. */
  for (int sos = 0; sos < 2; sos++) {
    static const int64_t ords[] = { 1, 2, 8, 16 };
    static const int64_t rows[][2] = { { 3, 5000 }, { 64, 8192 }, { 33, 8193 }, { 1, 65535 } };
    int good = 1;
    for (size_t o = 0; o < 4 && good; o++) {
      const int64_t order = sos ? (ords[o] + 1) / 2 : ords[o];
      int64_t s1[2] = { rows[o][0], rows[o][1] }, s2[2] = { 5001, 3 };
      for (int d = 0; d < 4 && good; d++)
        good = both_filter(sos, order, 2, s1, -1, dts[d], 31 + o + 5 * d, false);
      good = good && both_filter(sos, order, 2, s2, 0, CUSCI_COMPLEX64, 37 + o, false);
    }
    ok(good, "%s in blocks (3 x 5000, 64 x 8192, 33 x 8193 and 1 x 65535 in every dtype, 5001 x 3 along the first axis; orders 1 to 16): GPU = host bit for bit",
       sos ? "sosfilt" : "lfilter");
  }
  int64_t s3[3] = { 2, 65, 500 };
  ok(both_filter(true, 3, 3, s3, 2, CUSCI_FLOAT64, 5, true), "sosfilt with a filter per channel (130 channels of 3 sections): GPU = host");
  /* One thread walks the whole signal: 2^16 under compute-sanitizer. */
  int64_t big[1] = { INT64_C(1) << (tk_sanitizing() ? 16 : 20) };
  ok(both_filter(true, 4, 1, big, 0, CUSCI_FLOAT32, 6, false), "sosfilt of one signal of %lld float32 samples: GPU = host bit for bit", (long long)big[0]);
}

/* The streaming filter on the GPU: random chunks = one call. */
static void streaming(void)
{
  static const double b[3] = { 0.2, 0.3, 0.1 }, a[3] = { 1, -0.9, 0.4 };
  int64_t n3 = 3, sh[2] = { 70, 4000 };
  cusci_array *gb = NULL, *ga = NULL;
  cusci_array_from_host(gpu, b, 1, &n3, CUSCI_FLOAT64, &gb);
  cusci_array_from_host(gpu, a, 1, &n3, CUSCI_FLOAT64, &ga);
  uint64_t seed = 3;
  cusci_array *x = tk_random(gpu, 2, sh, CUSCI_FLOAT32, -1, 1, &seed), *y = NULL, *zf = NULL, *all = NULL;
  cusci_status st = cusci_signal_lfilter(gpu, gb, ga, x, 1, NULL, &y, &zf);
  cusci_signal_filter *f = NULL;
  cusci_status sf = cusci_signal_filter_create_lfilter(gpu, gb, ga, 2, sh, 1, CUSCI_FLOAT32, NULL, &f);
  cusci_array_empty(gpu, 2, sh, CUSCI_FLOAT64, &all);
  int chunks = 0;
  int good = st == CUSCI_OK && sf == CUSCI_OK && sf_feed(gpu, f, x, all, 1, NULL, 0, &seed, 1, 700, false, &chunks);
  cusci_array *state = NULL;
  double e = INFINITY, ez = INFINITY;
  good = good && cusci_signal_filter_state(gpu, f, &state) == CUSCI_OK && sf_close(gpu, all, gpu, y, 0, &e) && sf_close(gpu, state, gpu, zf, 0, &ez);
  ok(good, "lfilter streaming on the GPU over %d random chunks = one call, bit for bit (%.3g, state %.3g)", chunks, e, ez);
  cusci_signal_filter_destroy(f);
  cusci_array *rel[] = { gb, ga, x, y, zf, all, state };
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
    cusci_array_release(rel[i]);
}

/* The streaming sosfilt on the GPU with chunks on the blocks' edges,
 * across several and empty = one call, in both layouts. */
static void stream_edges(void)
{
  static const int64_t lens[] = { 256, 0, 256, 100, 156, 700, 1, 255, 256, 512, 1, 0, 507 };
  static const double sos[12] = { 0.0048, 0.0097, 0.0048, 1, -1.1, 0.31, 1, 2, 1, 1, -1.7, 0.8 };
  int64_t s2[2] = { 2, 6 };
  cusci_array *gs = NULL;
  cusci_array_from_host(gpu, sos, 2, s2, CUSCI_FLOAT64, &gs);
  for (int axis = 0; axis < 2; axis++) {
    int64_t sh[2] = { axis ? 70 : 3000, axis ? 3000 : 5 };
    uint64_t seed = 11 + axis;
    cusci_array *x = tk_random(gpu, 2, sh, CUSCI_FLOAT64, -1, 1, &seed), *y = NULL, *zf = NULL, *all = NULL, *state = NULL;
    cusci_status st = cusci_signal_sosfilt(gpu, gs, x, axis, NULL, &y, &zf);
    cusci_signal_filter *f = NULL;
    cusci_status sf = cusci_signal_filter_create_sosfilt(gpu, gs, 2, sh, axis, CUSCI_FLOAT64, NULL, &f);
    cusci_array_empty(gpu, 2, sh, CUSCI_FLOAT64, &all);
    int chunks;
    int good = st == CUSCI_OK && sf == CUSCI_OK && sf_feed(gpu, f, x, all, axis, lens, sizeof lens / sizeof *lens, NULL, 0, 0, false, &chunks);
    double e = INFINITY, ez = INFINITY;
    good = good && cusci_signal_filter_state(gpu, f, &state) == CUSCI_OK && sf_close(gpu, all, gpu, y, 0, &e) && sf_close(gpu, state, gpu, zf, 0, &ez);
    ok(good, "sosfilt streaming on the GPU along axis %d, chunks on the blocks' edges = one call, bit for bit (%.3g, state %.3g)", axis, e, ez);
    cusci_signal_filter_destroy(f);
    cusci_array *rel[] = { x, y, zf, all, state };
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
      cusci_array_release(rel[i]);
  }
  cusci_array_release(gs);
}

/* resample_poly streaming on the GPU: random chunks and finish = one
 * call on the GPU, bit for bit. */
static void resampler_stream(void)
{
  int64_t sh[2] = { 40, 5000 };
  uint64_t seed = 11;
  cusci_array *x = tk_random(gpu, 2, sh, CUSCI_FLOAT32, -1, 1, &seed), *want = NULL, *all = NULL;
  cusci_status st = cusci_signal_resample_poly(gpu, x, 3, 2, 1, &want);
  cusci_signal_resampler *r = NULL;
  cusci_status sr = cusci_signal_resampler_create_poly(gpu, 3, 2, 2, sh, 1, CUSCI_FLOAT32, &r);
  int good = st == CUSCI_OK && sr == CUSCI_OK;
  if (good)
    cusci_array_empty(gpu, 2, cusci_array_shape(want), CUSCI_FLOAT32, &all);
  int64_t at = 0, got = 0;
  for (int c = 0; good; c++) {
    const bool last = at == sh[1];
    int64_t len = last ? 0 : 1 + (int64_t)(tk_rand(&seed) % 900);
    len = at + len > sh[1] ? sh[1] - at : len;
    int64_t s0[2] = { 0, at }, e0[2] = { sh[0], at + len };
    cusci_array *xv = NULL, *yv = NULL, *dst = NULL;
    cusci_array_slice(gpu, x, s0, e0, NULL, &xv);
    good = (last ? cusci_signal_resampler_finish(gpu, r, &yv) : cusci_signal_resampler_process(gpu, r, xv, &yv)) == CUSCI_OK;
    const int64_t m = good ? cusci_array_shape(yv)[1] : 0;
    good = good && got + m <= cusci_array_shape(want)[1];
    if (good && m > 0) {
      int64_t d0[2] = { 0, got }, d1[2] = { sh[0], got + m };
      cusci_array_slice(gpu, all, d0, d1, NULL, &dst);
      good = cusci_array_copy(gpu, yv, &dst) == CUSCI_OK;
    }
    got += m;
    cusci_array_release(xv), cusci_array_release(yv), cusci_array_release(dst);
    if (last)
      break;
    at += len;
  }
  double e = INFINITY;
  good = good && sf_close(gpu, all, gpu, want, 0, &e);
  ok(good, "resample_poly 3/2 streaming on the GPU over random chunks and finish = one call, bit for bit (%lld outputs)", (long long)got);
  cusci_signal_resampler_destroy(r);
  cusci_array_release(x), cusci_array_release(want), cusci_array_release(all);
}

/* Direct convolution at sizes around the block (256) and the FFT method
 * of a long signal, GPU against host. */
static void convolutions(void)
{
  static const int64_t lens[] = { 1, 255, 256, 257, 4096, 100003 };
  int good = 1;
  for (size_t i = 0; i < sizeof lens / sizeof *lens && good; i++)
    for (int m = 0; m < 3 && good; m++) {
      uint64_t s1 = 40 + i, s2 = 50 + i;
      int64_t n1 = lens[i], n2 = 64;
      cusci_array *h1 = tk_random(host, 1, &n1, CUSCI_FLOAT64, -1, 1, &s1), *h2 = tk_random(host, 1, &n2, CUSCI_FLOAT64, -1, 1, &s2);
      cusci_array *g1 = tk_copy_to(gpu, host, h1), *g2 = tk_copy_to(gpu, host, h2), *hy = NULL, *gy = NULL;
      cusci_status sh = cusci_signal_convolve(host, h1, h2, (cusci_signal_mode)m, CUSCI_SIGNAL_DIRECT, &hy);
      cusci_status sg = cusci_signal_convolve(gpu, g1, g2, (cusci_signal_mode)m, CUSCI_SIGNAL_DIRECT, &gy);
      double e = INFINITY;
      good = sh == sg && (sh != CUSCI_OK || sf_close(gpu, gy, host, hy, 0, &e));
      if (!good)
        diag("convolve direct of %lld by 64, mode %d: host %s, GPU %s, %.3g", (long long)n1, m, cusci_status_name(sh), cusci_status_name(sg), e);
      cusci_array *rel[] = { h1, h2, g1, g2, hy, gy };
      for (size_t k = 0; k < sizeof rel / sizeof *rel; k++)
        cusci_array_release(rel[k]);
    }
  ok(good, "convolve, direct, every mode, lengths 1 to 100003 by 64 taps: GPU = host bit for bit");
  uint64_t s1 = 1, s2 = 2;
  int64_t n1 = 1 << 18, n2 = 4095;
  cusci_array *h1 = tk_random(host, 1, &n1, CUSCI_FLOAT32, -1, 1, &s1), *h2 = tk_random(host, 1, &n2, CUSCI_FLOAT32, -1, 1, &s2);
  cusci_array *g1 = tk_copy_to(gpu, host, h1), *g2 = tk_copy_to(gpu, host, h2), *hy = NULL, *gy = NULL;
  cusci_status sh = cusci_signal_fftconvolve(host, h1, h2, CUSCI_SIGNAL_SAME, 0, NULL, &hy);
  cusci_status sg = cusci_signal_fftconvolve(gpu, g1, g2, CUSCI_SIGNAL_SAME, 0, NULL, &gy);
  double e = INFINITY;
  ok(sh == CUSCI_OK && sg == CUSCI_OK && sf_close(gpu, gy, host, hy, 1e-5, &e), "fftconvolve 2^18 by 4095 float32, same: GPU = host (%.3g)", e);
  cusci_array *rel[] = { h1, h2, g1, g2, hy, gy };
  for (size_t k = 0; k < sizeof rel / sizeof *rel; k++)
    cusci_array_release(rel[k]);
}

/* One call on both backends of random input of the given shape and dtype
 * (f picks the function): equal bits, or within tol when tol > 0. */
typedef cusci_status (*on_one)(cusci_ctx *, const cusci_array *, cusci_array **);
static int both_one(on_one f, int ndim, const int64_t *shape, cusci_dtype dt, uint64_t seed, double tol, const char *what)
{
  cusci_array *hx = tk_random(host, ndim, shape, dt, -3, 3, &seed), *gx = tk_copy_to(gpu, host, hx), *hy = NULL, *gy = NULL;
  cusci_status sh = f(host, hx, &hy), sg = f(gpu, gx, &gy);
  double e = INFINITY;
  int good = sh == CUSCI_OK && sg == CUSCI_OK && sf_close(gpu, gy, host, hy, tol, &e);
  if (!good)
    diag("%s: host %s, GPU %s (%s), relative RMS %.3g", what, cusci_status_name(sh), cusci_status_name(sg), cusci_ctx_last_error(gpu), e);
  cusci_array_release(hx), cusci_array_release(gx), cusci_array_release(hy), cusci_array_release(gy);
  return good;
}

static cusci_status f_upfirdn(cusci_ctx *c, const cusci_array *x, cusci_array **y)
{
  static const double h[7] = { 0.1, -0.3, 0.7, 1, 0.7, -0.3, 0.1 };
  int64_t n = 7;
  cusci_array *ha = NULL;
  cusci_status st = cusci_array_from_host(c, h, 1, &n, CUSCI_FLOAT64, &ha);
  if (st == CUSCI_OK)
    st = cusci_signal_upfirdn(c, ha, x, 3, 2, -1, y);
  cusci_array_release(ha);
  return st;
}
static cusci_status f_medfilt(cusci_ctx *c, const cusci_array *x, cusci_array **y) { return cusci_signal_medfilt(c, x, 1, (int64_t[]){ 5 }, y); }
static cusci_status f_medfilt33(cusci_ctx *c, const cusci_array *x, cusci_array **y) { return cusci_signal_medfilt(c, x, 0, NULL, y); }
static cusci_status f_conv2d(cusci_ctx *c, const cusci_array *x, cusci_array **y)
{
  int64_t ks[2] = { 5, 4 };
  uint64_t seed = 77;
  cusci_array *k = tk_random(c, 2, ks, cusci_array_dtype(x), -1, 1, &seed);
  cusci_status st = cusci_signal_convolve2d(c, x, k, CUSCI_SIGNAL_SAME, CUSCI_SIGNAL_BOUNDARY_SYMM, 0, y);
  cusci_array_release(k);
  return st;
}
static cusci_status f_savgol(cusci_ctx *c, const cusci_array *x, cusci_array **y)
{
  return cusci_signal_savgol_filter(c, x, 11, 3, 0, 1, -1, CUSCI_SIGNAL_SAVGOL_MIRROR, 0, y);
}

/* The kernels of upfirdn, the order filters and the padding at sizes
 * around their blocks (256 and 128 threads) and large. */
static void kernels_at_tails(void)
{
  const int64_t lens[] = { 1, 127, 128, 129, 255, 256, 257, INT64_C(1) << (tk_sanitizing() ? 16 : 20) };
  int good = 1;
  for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
    int64_t s1[2] = { 3, lens[i] };
    good &= both_one(f_upfirdn, 2, s1, CUSCI_FLOAT64, 10 + i, 0, "upfirdn 3/2");
    good &= both_one(f_medfilt, 1, &lens[i], CUSCI_FLOAT32, 20 + i, 0, "medfilt 5");
    good &= both_one(f_savgol, 1, &lens[i], CUSCI_FLOAT64, 30 + i, 0, "savgol_filter mirror");
  }
  ok(good, "upfirdn, medfilt and savgol_filter (mirror) at lengths 1 to 2^20: GPU = host bit for bit");
  int64_t s2[2] = { 255, 257 }, s3[2] = { 64, 64 };
  ok(both_one(f_medfilt33, 2, s2, CUSCI_UINT8, 5, 0, "medfilt 3x3 uint8") && both_one(f_medfilt33, 2, s3, CUSCI_INT64, 6, 0, "medfilt 3x3 int64"),
     "medfilt 3x3 of 255x257 uint8 and 64x64 int64: GPU = host");
  ok(both_one(f_conv2d, 2, s2, CUSCI_FLOAT64, 7, 0, "convolve2d symm") && both_one(f_conv2d, 2, s3, CUSCI_COMPLEX64, 8, 0, "convolve2d symm c64"),
     "convolve2d same, symm boundary, 255x257 float64 and 64x64 complex64: GPU = host bit for bit");
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  sf_fixtures(gpu, host);
  random_filters();
  streaming();
  stream_edges();
  resampler_stream();
  convolutions();
  kernels_at_tails();
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
