/*
 * bench/cases-signal.c: cusci-signal's benchmark cases: the plain calls
 * (their plans from the context's cache) into an out made once, and, for
 * the large ones, cuFFT called directly on the same arrays
 * (signal.cufft_*), the figure a call should come within 5% of. Bytes are
 * the input read and the output written once. CuPy's equivalents are in
 * bench/cupy_signal.py under the same names.
 */
#include <stdio.h>
#include <stdlib.h>

#ifdef CUSCI_BENCH_CUDA
#include <cuda_runtime.h>
#include <cufft.h>
#endif

#include "bench/bench.h"

typedef enum { K_FFT, K_RFFT, K_CUFFT_C2C, K_CUFFT_R2C } skind;

typedef struct sstate {
  skind kind;
  cusci_array *x, *out;
  int64_t rows, n;
#ifdef CUSCI_BENCH_CUDA
  cufftHandle plan;
  bool has_plan;
#endif
} sstate;

static void teardown(void *state)
{
  sstate *s = state;
#ifdef CUSCI_BENCH_CUDA
  if (s->has_plan)
    cufftDestroy(s->plan);
#endif
  cusci_array_release(s->x);
  cusci_array_release(s->out);
  free(s);
}

static int setup_kind(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t why_len, skind kind, int64_t rows, int64_t n)
{
  sstate *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(why, why_len, "no memory");
    return 1;
  }
  s->kind = kind, s->rows = rows, s->n = n;
  const bool real = kind == K_RFFT || kind == K_CUFFT_R2C;
  int64_t shx[2] = { rows, n }, sho[2] = { rows, real ? n / 2 + 1 : n };
  cusci_status st = cusci_array_ones(ctx, 2, shx, real ? CUSCI_FLOAT32 : CUSCI_COMPLEX64, &s->x);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, 2, sho, CUSCI_COMPLEX64, &s->out);
  if (st != CUSCI_OK) {
    snprintf(why, why_len, "%s", cusci_ctx_last_error(ctx));
    teardown(s);
    return 1;
  }
  if (kind == K_CUFFT_C2C || kind == K_CUFFT_R2C) {
#ifdef CUSCI_BENCH_CUDA
    if (cusci_ctx_device(ctx) < 0) {
      snprintf(why, why_len, "cuFFT needs a GPU");
      teardown(s);
      return 1;
    }
    int len = (int)n;
    cufftResult r = cufftPlanMany(&s->plan, 1, &len, NULL, 1, len, NULL, 1, real ? len / 2 + 1 : len, real ? CUFFT_R2C : CUFFT_C2C, (int)rows);
    if (r == CUFFT_SUCCESS)
      r = cufftSetStream(s->plan, (cudaStream_t)cusci_ctx_stream(ctx));
    s->has_plan = r == CUFFT_SUCCESS;
    if (r != CUFFT_SUCCESS) {
      snprintf(why, why_len, "cufftPlanMany: %d", (int)r);
      teardown(s);
      return 1;
    }
#else
    snprintf(why, why_len, "a build without CUDA");
    teardown(s);
    return 1;
#endif
  }
  *bytes = (double)cusci_array_nbytes(s->x) + (double)cusci_array_nbytes(s->out);
  *flops = 0;
  *state = s;
  return 0;
}

static int run(cusci_ctx *ctx, void *state)
{
  sstate *s = state;
  switch (s->kind) {
  case K_FFT: return cusci_fft_fft(ctx, s->x, 0, -1, CUSCI_FFT_BACKWARD, &s->out);
  case K_RFFT: return cusci_fft_rfft(ctx, s->x, 0, -1, CUSCI_FFT_BACKWARD, &s->out);
#ifdef CUSCI_BENCH_CUDA
  case K_CUFFT_C2C:
    return cufftExecC2C(s->plan, cusci_array_data(s->x), cusci_array_data(s->out), CUFFT_FORWARD) == CUFFT_SUCCESS ? CUSCI_OK : CUSCI_ERR_CUDA;
  case K_CUFFT_R2C: return cufftExecR2C(s->plan, cusci_array_data(s->x), cusci_array_data(s->out)) == CUFFT_SUCCESS ? CUSCI_OK : CUSCI_ERR_CUDA;
#endif
  default: return CUSCI_ERR_INTERNAL;
  }
}

#define CASE(NAME, KIND, ROWS, N)                                                                        \
  static int setup_##NAME(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t wl) \
  {                                                                                                      \
    return setup_kind(ctx, state, bytes, flops, why, wl, KIND, ROWS, N);                                 \
  }

CASE(fft_2e24, K_FFT, 1, INT64_C(1) << 24)
CASE(cufft_2e24, K_CUFFT_C2C, 1, INT64_C(1) << 24)
CASE(rfft_4096x4096, K_RFFT, 4096, 4096)
CASE(cufft_r2c_4096x4096, K_CUFFT_R2C, 4096, 4096)
CASE(fft_1024, K_FFT, 1, 1024)
CASE(fft_2e20, K_FFT, 1, INT64_C(1) << 20)
CASE(fft_prime, K_FFT, 1, (INT64_C(1) << 20) + 7)
CASE(cufft_prime, K_CUFFT_C2C, 1, (INT64_C(1) << 20) + 7)
CASE(fft_3e13, K_FFT, 1, 1594323)
CASE(cufft_3e13, K_CUFFT_C2C, 1, 1594323)
CASE(fft_1e6, K_FFT, 1, 1000000)
CASE(cufft_1e6, K_CUFFT_C2C, 1, 1000000)

const bench_case bench_cases_signal[] = {
  { "signal.fft_c64_2e24", "fft of 2^24 complex64 (a cached plan)", setup_fft_2e24, run, teardown, 0, NULL },
  { "signal.cufft_c64_2e24", "cufftExecC2C of 2^24 complex64, called directly", setup_cufft_2e24, run, teardown, 0, NULL },
  { "signal.rfft_f32_4096x4096", "rfft of 4096 rows of 4096 float32", setup_rfft_4096x4096, run, teardown, 0, NULL },
  { "signal.cufft_r2c_f32_4096x4096", "cufftExecR2C of 4096 rows of 4096 float32, called directly", setup_cufft_r2c_4096x4096, run, teardown, 0,
    NULL },
  { "signal.fft_c64_1024_host", "fft of 1024 complex64: host time per call", setup_fft_1024, run, teardown, 1, NULL },
  { "signal.fft_c64_2e20", "fft of 2^20 complex64", setup_fft_2e20, run, teardown, 0, NULL },
  { "signal.fft_c64_2e20p7", "fft of 2^20 + 7 (a prime) complex64", setup_fft_prime, run, teardown, 0, NULL },
  { "signal.cufft_c64_2e20p7", "cuFFT directly, 2^20 + 7 complex64", setup_cufft_prime, run, teardown, 0, NULL },
  { "signal.fft_c64_3e13", "fft of 3^13 complex64", setup_fft_3e13, run, teardown, 0, NULL },
  { "signal.cufft_c64_3e13", "cuFFT directly, 3^13 complex64", setup_cufft_3e13, run, teardown, 0, NULL },
  { "signal.fft_c64_1e6", "fft of 10^6 complex64", setup_fft_1e6, run, teardown, 0, NULL },
  { "signal.cufft_c64_1e6", "cuFFT directly, 10^6 complex64", setup_cufft_1e6, run, teardown, 0, NULL },
  { NULL, NULL, NULL, NULL, NULL, 0, NULL },
};
