/*
 * tests/signal-design-gpu.c: filter design and windows on a GPU context:
 * every SciPy fixture against SciPy and against the host bit for bit (the
 * design runs on the host; the results are uploaded to the device), and a
 * filter bank against the host's; the short-time analysis' kernels
 * (frames, spectra, the mean over the segments, overlap-add) against the
 * host at the tails of their blocks and tiles and at a large power of two.
 * Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#include "tests/signal-design-suite.h"

/* x of n samples (lines of it) on ctx: a chirp and a ramp. */
static cusci_array *signal_of(cusci_ctx *ctx, int64_t lines, int64_t n, cusci_dtype dt)
{
  double *v = malloc(sizeof *v * (size_t)(lines * n));
  cusci_array *h = NULL, *a = NULL;
  for (int64_t i = 0; v && i < lines * n; i++)
    v[i] = sin(1e-4 * (double)(i % n) * (double)(i % n) + (double)(i / n)) + 1e-3 * (double)(i % 97);
  const int64_t shape[2] = { lines, n };
  if (v && cusci_array_from_host(ctx, v, 2, shape, CUSCI_FLOAT64, &h) == CUSCI_OK)
    cusci_array_astype(ctx, h, dt, false, &a);
  free(v);
  cusci_array_release(h);
  return a;
}

/* One short-time case on the GPU and the host: welch (mean and median),
 * spectrogram (psd; the unwrapped phase for an odd nperseg, without a
 * Nyquist bin whose zero imaginary part's sign would pick the angle's,
 * else the magnitude) and an stft/istft round trip. */
static void tails(cusci_ctx *gpu, cusci_ctx *host, int64_t lines, int64_t n, int64_t nperseg, int64_t noverlap, cusci_dtype dt)
{
  cusci_array *xg = signal_of(gpu, lines, n, dt), *xh = signal_of(host, lines, n, dt);
  double worst = 0;
  cusci_status st = xg && xh ? CUSCI_OK : CUSCI_ERR_OUT_OF_MEMORY;
  for (int c = 0; c < 5 && st == CUSCI_OK; c++) {
    cusci_array *r[2][3] = { { NULL } };
    for (int side = 0; side < 2 && st == CUSCI_OK; side++) {
      cusci_ctx *ctx = side ? host : gpu;
      const cusci_array *x = side ? xh : xg;
      const cusci_signal_spectral_opts o = { .noverlap = noverlap, .average = c == 1 ? CUSCI_SIGNAL_AVERAGE_MEDIAN : CUSCI_SIGNAL_AVERAGE_MEAN,
                                             .detrend = c == 1 ? CUSCI_SIGNAL_DETREND_LINEAR : CUSCI_SIGNAL_DETREND_CONSTANT };
      if (c < 2)
        st = cusci_signal_welch(ctx, x, 1, nperseg, -1, &o, &r[side][0], &r[side][1]);
      else if (c < 4)
        st = cusci_signal_spectrogram(ctx, x, 1, nperseg, -1, &(cusci_signal_spectral_opts){ .noverlap = noverlap, .detrend = CUSCI_SIGNAL_DETREND_NONE },
                                      c == 2 ? CUSCI_SIGNAL_SPECTROGRAM_PSD : nperseg % 2 ? CUSCI_SIGNAL_SPECTROGRAM_PHASE : CUSCI_SIGNAL_SPECTROGRAM_MAGNITUDE, &r[side][0], &r[side][1], &r[side][2]);
      else {
        cusci_array *f = NULL, *t = NULL, *z = NULL;
        st = cusci_signal_stft(ctx, x, 1, nperseg, -1, &(cusci_signal_stft_opts){ .noverlap = noverlap, .boundary = CUSCI_SIGNAL_STFT_BOUNDARY_ODD }, &f,
                               &t, &z);
        if (st == CUSCI_OK)
          st = cusci_signal_istft(ctx, z, 1, -2, -1, &(cusci_signal_istft_opts){ .nperseg = nperseg, .noverlap = noverlap }, &r[side][0], &r[side][1]);
        r[side][2] = z;
        cusci_array_release(f), cusci_array_release(t);
      }
    }
    for (int i = 0; i < 3 && st == CUSCI_OK; i++)
      if (r[0][i] || r[1][i]) {
        const bool same = r[0][i] && r[1][i] && sd_same_shape(r[0][i], r[1][i]);
        worst = fmax(worst, same ? sd_err(gpu, r[0][i], host, r[1][i]) : INFINITY);
      }
    for (int side = 0; side < 2; side++)
      for (int i = 0; i < 3; i++)
        cusci_array_release(r[side][i]);
  }
  const double tol = dt == CUSCI_FLOAT32 ? 1e-5 : 1e-12;
  ok(st == CUSCI_OK && worst <= tol, "welch, spectrogram, stft and istft of %lld x %lld %s samples, nperseg %lld, noverlap %lld: GPU = host to %.2g: %s",
     (long long)lines, (long long)n, dt == CUSCI_FLOAT32 ? "float32" : "float64", (long long)nperseg, (long long)noverlap, worst, cusci_status_name(st));
  cusci_array_release(xg), cusci_array_release(xh);
}

int main(void)
{
  cusci_ctx *gpu = tk_gpu_ctx_or_skip(), *host = tk_host_ctx();
  sd_fixtures(gpu, host);
  sd_chain(gpu);
  /* A bank designed on the GPU context = the host's bit for bit. */
  const int orders[3] = {4, 7, 1};
  const double edges[6] = {0.1, 0.3, 0.2, 0.25, 0.6, 0.9};
  cusci_array *bg = NULL, *bh = NULL;
  cusci_status st = cusci_signal_iirfilter_sos_bank(gpu, 3, orders, 2, edges, 1, 40, CUSCI_SIGNAL_BANDSTOP, CUSCI_SIGNAL_ELLIP, NULL, &bg);
  if (st == CUSCI_OK)
    st = cusci_signal_iirfilter_sos_bank(host, 3, orders, 2, edges, 1, 40, CUSCI_SIGNAL_BANDSTOP, CUSCI_SIGNAL_ELLIP, NULL, &bh);
  ok(st == CUSCI_OK && sd_same_shape(bg, bh) && sd_err(gpu, bg, host, bh) == 0, "iirfilter_sos_bank of 3 elliptic bandstops on the GPU = the host: %s",
     cusci_status_name(st));
  cusci_array_release(bg), cusci_array_release(bh);
  /* frames of a warp and a block (32, 256) and one either side; segments
   * a tile (32) and the mean's chunk (128) and one either side */
  static const struct { int64_t lines, n, nperseg, noverlap; } t[] = {
    { 1, 32 * 31 + 32, 32, 1 }, { 1, 33 * 31 + 33, 33, 2 }, { 2, 31 * 31 + 31, 31, 3 }, { 1, 256 * 128, 256, 0 },
    { 1, 128 * 129 + 1, 257, 129 }, { 3, 255 * 33, 255, 128 }, { 1, 1024 * 127, 1024, 0 }, { 1, 1 << 20, 1024, 0 },
  };
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    tails(gpu, host, t[i].lines, t[i].n, t[i].nperseg, t[i].noverlap, CUSCI_FLOAT64);
  tails(gpu, host, 2, 5000, 100, 0, CUSCI_FLOAT32);
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
