/*
 * bench/host-fft-fftw.c: the host FFT of cusci-signal (cusci_fft_fft on a
 * host context, its plan cached) against FFTW's (a plan made once with
 * FFTW_ESTIMATE), same lengths, same input, single thread. Prints one JSON
 * line per case: the median time per call over 15 timed runs after a
 * warm-up, and FFTW's time over cusci's (above 1: cusci is faster).
 *
 *   bench/host-fft-fftw [--quick]
 */
#include <complex.h>
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cusci/cusci.h>

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median seconds per call of fn over `runs` runs of `reps` calls. */
#define MEDIAN(result, reps, runs, body)          \
  do {                                            \
    double t_[64];                                \
    for (int r_ = 0; r_ < (runs); r_++) {         \
      double t0_ = now();                         \
      for (int k_ = 0; k_ < (reps); k_++) {       \
        body;                                     \
      }                                           \
      t_[r_] = (now() - t0_) / (reps);            \
    }                                             \
    qsort(t_, (size_t)(runs), sizeof *t_, cmp);   \
    (result) = t_[(runs) / 2];                    \
  } while (0)

int main(int argc, char **argv)
{
  const bool quick = argc > 1 && !strcmp(argv[1], "--quick");
  cusci_ctx *ctx = NULL;
  if (cusci_ctx_create(CUSCI_DEVICE_HOST, &ctx) != CUSCI_OK) {
    fprintf(stderr, "no host context\n");
    return 1;
  }
  static const int64_t lens[] = { 1024, 4096, 65536, 1 << 20, 1000000, 1594323, (1 << 20) + 7 };
  for (int single = 0; single < 2; single++)
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
      const int64_t n = lens[i];
      if (quick && n > 65536)
        continue;
      const int reps = n <= 4096 ? 200 : n <= 65536 ? 20 : 2, runs = 15;
      const cusci_dtype dt = single ? CUSCI_COMPLEX64 : CUSCI_COMPLEX128;
      cusci_array *x = NULL, *out = NULL;
      int64_t sh[1] = { n };
      if (cusci_array_empty(ctx, 1, sh, dt, &x) != CUSCI_OK || cusci_array_empty(ctx, 1, sh, dt, &out) != CUSCI_OK)
        return 1;
      double t_cusci, t_fftw;
      if (single) {
        float complex *v = cusci_array_data(x);
        for (int64_t j = 0; j < n; j++)
          v[j] = (float)((j * 7919) % 1000) / 1000.0f - 0.5f + I * ((float)((j * 104729) % 997) / 997.0f - 0.5f);
        fftwf_complex *fi = fftwf_malloc(sizeof(fftwf_complex) * (size_t)n), *fo = fftwf_malloc(sizeof(fftwf_complex) * (size_t)n);
        fftwf_plan p = fftwf_plan_dft_1d((int)n, fi, fo, FFTW_FORWARD, FFTW_ESTIMATE);
        memcpy(fi, v, sizeof(fftwf_complex) * (size_t)n);
        fftwf_execute(p);
        MEDIAN(t_fftw, reps, runs, fftwf_execute(p));
        fftwf_destroy_plan(p), fftwf_free(fi), fftwf_free(fo);
      } else {
        double complex *v = cusci_array_data(x);
        for (int64_t j = 0; j < n; j++)
          v[j] = (double)((j * 7919) % 1000) / 1000.0 - 0.5 + I * ((double)((j * 104729) % 997) / 997.0 - 0.5);
        fftw_complex *fi = fftw_malloc(sizeof(fftw_complex) * (size_t)n), *fo = fftw_malloc(sizeof(fftw_complex) * (size_t)n);
        fftw_plan p = fftw_plan_dft_1d((int)n, fi, fo, FFTW_FORWARD, FFTW_ESTIMATE);
        memcpy(fi, v, sizeof(fftw_complex) * (size_t)n);
        fftw_execute(p);
        MEDIAN(t_fftw, reps, runs, fftw_execute(p));
        fftw_destroy_plan(p), fftw_free(fi), fftw_free(fo);
      }
      cusci_fft_fft(ctx, x, 0, 0, CUSCI_FFT_BACKWARD, &out);
      MEDIAN(t_cusci, reps, runs, cusci_fft_fft(ctx, x, 0, 0, CUSCI_FFT_BACKWARD, &out));
      printf("{\"case\": \"host.fft_%s_%lld\", \"cusci_us\": %.2f, \"fftw_estimate_us\": %.2f, \"fftw_over_cusci\": %.3f}\n",
             single ? "c64" : "c128", (long long)n, 1e6 * t_cusci, 1e6 * t_fftw, t_fftw / t_cusci);
      fflush(stdout);
      cusci_array_release(x), cusci_array_release(out);
    }
  cusci_ctx_destroy(ctx);
  return 0;
}
