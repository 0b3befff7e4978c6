/*
 * examples/batch_signal.c: batch signal processing with cusci-signal, on
 * the GPU when there is one, else on the host.
 *
 * A batch of 4 recordings of 3 channels each (12 lines of 2^17 samples at
 * 16 kHz): each channel a tone or a chirp and white noise, plus a 5 kHz
 * interferer. The batch goes through, in one call each,
 *   butter(8, 3 kHz) as sections -> sosfiltfilt -> resample_poly(1, 2)
 *   -> spectrogram (nperseg 256),
 * the spectrograms are written as PNG images (batch_signal_<r>_<c>.png,
 * time to the right, frequency up, power in dB) and a table gives each
 * channel's strongest frequency (the peak of its mean spectrum).
 *
 * Build: make batch_signal (libpng needed); run: make demo, or
 * ./examples/batch_signal [output folder].
 */
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cusci/compute.h>
#include <cusci/signal.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cusci_status st_ = (call);                                                         \
    if (st_ != CUSCI_OK) {                                                             \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, cusci_status_name(st_),   \
              cusci_ctx_last_error(ctx));                                              \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

enum { RECORDINGS = 4, CHANNELS = 3, LINES = RECORDINGS * CHANNELS, N = 1 << 17 };
static const double FS = 16000;

/* A standard normal from a xorshift generator (Box-Muller). */
static double gauss(uint64_t *s)
{
  double u[2];
  for (int i = 0; i < 2; i++) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    u[i] = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
  }
  return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/* Line l's samples: a tone of 300 + 250 l Hz (l even) or a chirp from 200
 * to 3000 Hz (l odd), noise, and the interferer. */
static void make_batch(double *x)
{
  uint64_t s = 88172645463325252u;
  for (int l = 0; l < LINES; l++)
    for (int i = 0; i < N; i++) {
      const double t = i / FS, T = N / FS;
      const double ph = l % 2 ? 2 * M_PI * (200 * t + 0.5 * (2800 / T) * t * t) : 2 * M_PI * (300 + 250 * l) * t;
      x[(size_t)l * N + i] = sin(ph) + 0.5 * sin(2 * M_PI * 5000 * t) + 0.3 * gauss(&s);
    }
}

/* The spectrogram of one line (nfreq x nseg, power) as an 8-bit image:
 * 10 log10, the top 40 dB on a dark-blue to yellow ramp, low frequencies
 * at the bottom. */
static double peak_db(const float *p, int count)
{
  double top = -1e300;
  for (int i = 0; i < count; i++)
    top = fmax(top, 10 * log10(p[i] + 1e-30));
  return top;
}

static int write_png(const char *path, const float *p, int nfreq, int nseg)
{
  const volatile double top = peak_db(p, nfreq * nseg); /* read after setjmp */
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  unsigned char *row = malloc((size_t)nseg * 3);
  if (!png || !info || !row || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(row);
    fclose(f);
    return -1;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, (png_uint_32)nseg, (png_uint_32)nfreq, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int k = nfreq - 1; k >= 0; k--) {
    for (int s = 0; s < nseg; s++) {
      double v = (10 * log10(p[(size_t)k * nseg + s] + 1e-30) - (top - 40)) / 40;
      v = v < 0 ? 0 : v > 1 ? 1 : v;
      row[3 * s] = (unsigned char)(255 * fmin(1, 2 * v * v));
      row[3 * s + 1] = (unsigned char)(255 * v);
      row[3 * s + 2] = (unsigned char)(255 * (0.4 + 0.6 * v) * (1 - v));
    }
    png_write_row(png, row);
  }
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(row);
  return fclose(f);
}

int main(int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : ".";
  cusci_ctx *ctx = NULL;
  if (cusci_ctx_create(CUSCI_DEVICE_DEFAULT, &ctx) != CUSCI_OK) {
    fprintf(stderr, "no context: %s\n", cusci_ctx_create_error());
    return 1;
  }
  printf("batch_signal: %d recordings x %d channels x %d samples at %g Hz, on %s\n", RECORDINGS, CHANNELS, N, FS,
         cusci_ctx_device(ctx) >= 0 ? "the GPU" : "the host");
  double *hx = malloc(sizeof *hx * (size_t)LINES * N);
  if (!hx)
    return 1;
  make_batch(hx);
  cusci_array *x = NULL, *sos = NULL, *y = NULL, *z = NULL, *f = NULL, *t = NULL, *sxx = NULL, *mean = NULL, *peak = NULL, *s32 = NULL;
  CHECK(cusci_array_from_host(ctx, hx, 3, (const int64_t[]){ RECORDINGS, CHANNELS, N }, CUSCI_FLOAT64, &x));
  free(hx);
  /* an 8th-order Butterworth low-pass at 3 kHz: it removes the interferer */
  const cusci_signal_iir_opts iir = { .fs = FS };
  CHECK(cusci_signal_butter_sos(ctx, 8, 1, (const double[]){ 3000 }, CUSCI_SIGNAL_LOWPASS, &iir, &sos));
  CHECK(cusci_signal_sosfiltfilt(ctx, sos, x, -1, NULL, &y));      /* zero phase, every line at once */
  CHECK(cusci_signal_resample_poly(ctx, y, 1, 2, -1, &z));         /* to 8 kHz */
  const cusci_signal_spectral_opts so = { .window = "hann", .noverlap = 192 };
  CHECK(cusci_signal_spectrogram(ctx, z, FS / 2, 256, -1, &so, CUSCI_SIGNAL_SPECTROGRAM_PSD, &f, &t, &sxx));
  const int64_t *sh = cusci_array_shape(sxx); /* (recordings, channels, nfreq, nseg) */
  const int nfreq = (int)sh[2], nseg = (int)sh[3];
  /* each channel's mean spectrum over time, and its strongest frequency */
  CHECK(cusci_mean(ctx, sxx, &(cusci_reduce_opts){ .naxes = 1, .axes = (const int[]){ 3 } }, &mean));
  CHECK(cusci_argmax(ctx, mean, &(cusci_reduce_opts){ .naxes = 1, .axes = (const int[]){ 2 } }, &peak));
  CHECK(cusci_array_astype(ctx, sxx, CUSCI_FLOAT32, false, &s32));
  int64_t hp[LINES];
  double *hf = malloc(sizeof *hf * (size_t)nfreq);
  float *hs = malloc(sizeof *hs * (size_t)LINES * nfreq * nseg);
  if (!hf || !hs)
    return 1;
  CHECK(cusci_array_to_host(ctx, peak, hp, sizeof hp));
  CHECK(cusci_array_to_host(ctx, f, hf, sizeof *hf * (size_t)nfreq));
  CHECK(cusci_array_to_host(ctx, s32, hs, sizeof *hs * (size_t)LINES * nfreq * nseg));
  printf("spectrograms: %d frequencies x %d segments each (%.1f Hz, %.1f ms)\n", nfreq, nseg, FS / 2 / 256, 1000.0 * 64 / (FS / 2));
  printf("recording  channel  signal              strongest frequency\n");
  int bad = 0;
  for (int l = 0; l < LINES; l++) {
    char path[512], what[32];
    snprintf(path, sizeof path, "%s/batch_signal_%d_%d.png", dir, l / CHANNELS, l % CHANNELS);
    if (write_png(path, hs + (size_t)l * nfreq * nseg, nfreq, nseg) != 0) {
      fprintf(stderr, "cannot write %s\n", path);
      bad = 1;
    }
    if (l % 2)
      snprintf(what, sizeof what, "chirp 200-3000 Hz");
    else
      snprintf(what, sizeof what, "tone %d Hz", 300 + 250 * l);
    printf("%9d  %7d  %-18s  %8.1f Hz\n", l / CHANNELS, l % CHANNELS, what, hf[hp[l]]);
    /* a tone's peak within a bin of it; the interferer never wins */
    if ((l % 2 == 0 && fabs(hf[hp[l]] - (300 + 250 * l)) > FS / 2 / 256) || fabs(hf[hp[l]] - 5000) < 100)
      bad = 1;
  }
  printf("images: %s/batch_signal_<recording>_<channel>.png\n", dir);
  free(hf), free(hs);
  cusci_array *all[] = { x, sos, y, z, f, t, sxx, mean, peak, s32 };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  cusci_ctx_destroy(ctx);
  if (bad)
    fprintf(stderr, "batch_signal: a peak is not where it should be\n");
  return bad;
}
