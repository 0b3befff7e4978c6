/*
 * bench/cases-signal-filter.c: cusci-signal's filters, convolutions and
 * resampling (signal.h) at the sizes of the CuPy figures: an
 * 8th-order Butterworth low-pass (cutoff 0.2) as b, a and as 4 sections,
 * on 256 signals of 65536 float64 samples and on one of 2^24; the
 * streaming filter fed chunks of 2^16; convolutions and resampling of
 * long float64 signals. Inputs are ones, made once; the outputs go into an
 * array made once where the function takes one. Bytes: each input read and
 * each output written once. CuPy's twins: bench/cupy_signal.py.
 */
#include <stdio.h>
#include <stdlib.h>

#include <cusci/signal.h>

#include "bench/bench.h"

static const double BUTTER_B[9] = { 2.395964410377617e-05, 0.00019167715283020936, 0.0006708700349057328, 0.0013417400698114655, 0.001677175087264332,
                                    0.0013417400698114655, 0.0006708700349057328, 0.00019167715283020936, 2.395964410377617e-05 };
static const double BUTTER_A[9] = { 1.0, -4.784514894995809, 10.445041065534665, -13.457719890241556, 11.12933103916398, -6.025260397297651,
                                    2.0792738030118767, -0.4172171569897821, 0.03720010070484524 };
static const double BUTTER_SOS[24] = { 2.395964410377617e-05, 4.791928820755234e-05, 2.395964410377617e-05, 1.0, -1.0263514742610553, 0.26864019099379005,
                                       1.0, 2.0, 1.0, 1.0, -1.0868584613628944, 0.343430940165366,
                                       1.0, 2.0, 1.0, 1.0, -1.2197253651240232, 0.5076634651740437,
                                       1.0, 2.0, 1.0, 1.0, -1.4515795942478362, 0.794251053241888 };

typedef enum { F_LFILTER, F_SOSFILT, F_FILTFILT, F_STREAM, F_FFTCONV, F_OACONV, F_DIRECT, F_RESAMPLE_POLY, F_MEDFILT } fkind;

typedef struct fstate {
  fkind kind;
  cusci_array *b, *a, *sos, *x, *h, *out;
  cusci_signal_filter *f;
} fstate;

static void teardown(void *state)
{
  fstate *s = state;
  cusci_array *all[] = { s->b, s->a, s->sos, s->x, s->h, s->out };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  cusci_signal_filter_destroy(s->f);
  free(s);
}

static int setup_kind(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t why_len, fkind kind, int64_t rows, int64_t n,
                      int64_t m)
{
  fstate *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(why, why_len, "no memory");
    return 1;
  }
  s->kind = kind;
  int64_t nb = 9, ss[2] = { 4, 6 }, sx[2] = { rows, n };
  cusci_status st = cusci_array_from_host(ctx, BUTTER_B, 1, &nb, CUSCI_FLOAT64, &s->b);
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, BUTTER_A, 1, &nb, CUSCI_FLOAT64, &s->a);
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, BUTTER_SOS, 2, ss, CUSCI_FLOAT64, &s->sos);
  if (st == CUSCI_OK)
    st = rows > 1 ? cusci_array_ones(ctx, 2, sx, CUSCI_FLOAT64, &s->x) : cusci_array_ones(ctx, 1, &n, CUSCI_FLOAT64, &s->x);
  if (st == CUSCI_OK && m > 0)
    st = cusci_array_ones(ctx, 1, &m, CUSCI_FLOAT64, &s->h);
  if (st == CUSCI_OK && kind == F_STREAM)
    st = cusci_signal_filter_create_sosfilt(ctx, s->sos, 2, sx, 1, CUSCI_FLOAT64, NULL, &s->f);
  double out_bytes = (double)cusci_array_nbytes(s->x);
  if (st == CUSCI_OK && (kind == F_LFILTER || kind == F_SOSFILT || kind == F_STREAM || kind == F_MEDFILT))
    st = cusci_array_empty(ctx, cusci_array_ndim(s->x), cusci_array_shape(s->x), CUSCI_FLOAT64, &s->out);
  if (st != CUSCI_OK) {
    snprintf(why, why_len, "%s", cusci_ctx_last_error(ctx));
    teardown(s);
    return 1;
  }
  if (kind == F_RESAMPLE_POLY)
    out_bytes *= 1.5;
  *bytes = (double)cusci_array_nbytes(s->x) + out_bytes + (s->h ? (double)cusci_array_nbytes(s->h) : 0);
  *flops = 0;
  *state = s;
  return 0;
}

static int run(cusci_ctx *ctx, void *state)
{
  fstate *s = state;
  cusci_array *r = NULL; /* a result the call makes: back to the pool at once */
  cusci_status st;
  switch (s->kind) {
  case F_LFILTER: return cusci_signal_lfilter(ctx, s->b, s->a, s->x, -1, NULL, &s->out, NULL);
  case F_SOSFILT: return cusci_signal_sosfilt(ctx, s->sos, s->x, -1, NULL, &s->out, NULL);
  case F_STREAM: return cusci_signal_filter_process(ctx, s->f, s->x, &s->out);
  case F_MEDFILT: return cusci_signal_medfilt(ctx, s->x, 1, (int64_t[]){ 5 }, &s->out);
  case F_FILTFILT: st = cusci_signal_filtfilt(ctx, s->b, s->a, s->x, -1, NULL, &r); break;
  case F_FFTCONV: st = cusci_signal_fftconvolve(ctx, s->x, s->h, CUSCI_SIGNAL_FULL, 0, NULL, &r); break;
  case F_OACONV: st = cusci_signal_oaconvolve(ctx, s->x, s->h, CUSCI_SIGNAL_FULL, 0, NULL, &r); break;
  case F_DIRECT: st = cusci_signal_convolve(ctx, s->x, s->h, CUSCI_SIGNAL_FULL, CUSCI_SIGNAL_DIRECT, &r); break;
  case F_RESAMPLE_POLY: st = cusci_signal_resample_poly(ctx, s->x, 3, 2, -1, &r); break;
  default: return CUSCI_ERR_INTERNAL;
  }
  cusci_array_release(r);
  return st;
}

#define CASE(NAME, KIND, ROWS, N, M)                                                                     \
  static int setup_##NAME(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t wl) \
  {                                                                                                      \
    return setup_kind(ctx, state, bytes, flops, why, wl, KIND, ROWS, N, M);                              \
  }

CASE(lfilter_256, F_LFILTER, 256, 65536, 0)
CASE(sosfilt_256, F_SOSFILT, 256, 65536, 0)
CASE(filtfilt_256, F_FILTFILT, 256, 65536, 0)
CASE(stream_256, F_STREAM, 256, 65536, 0)
CASE(sosfilt_2e24, F_SOSFILT, 1, INT64_C(1) << 24, 0)
CASE(sosfilt_4096, F_SOSFILT, 1, 4096, 0)
CASE(sosfilt_200, F_SOSFILT, 1, 200, 0)
CASE(sosfilt_4096x200, F_SOSFILT, 4096, 200, 0)
CASE(fftconvolve, F_FFTCONV, 1, INT64_C(1) << 22, 4096)
CASE(oaconvolve, F_OACONV, 1, INT64_C(1) << 22, 4096)
CASE(direct, F_DIRECT, 1, INT64_C(1) << 20, 64)
CASE(resample_poly, F_RESAMPLE_POLY, 1, INT64_C(1) << 24, 0)
CASE(medfilt, F_MEDFILT, 1, INT64_C(1) << 22, 0)

const bench_case bench_cases_signal_filter[] = {
  { "signal.lfilter_f64_256x65536", "lfilter, 8th-order Butterworth (b, a), 256 signals of 65536 float64", setup_lfilter_256, run, teardown, 0, NULL },
  { "signal.sosfilt_f64_256x65536", "sosfilt, the same as 4 sections, 256 x 65536 float64", setup_sosfilt_256, run, teardown, 0, NULL },
  { "signal.filtfilt_f64_256x65536", "filtfilt, 8th-order Butterworth (b, a), 256 x 65536 float64", setup_filtfilt_256, run, teardown, 0, NULL },
  { "signal.sosfilt_stream_f64_256x65536", "a streaming sosfilt fed chunks of 256 x 65536 float64", setup_stream_256, run, teardown, 0, NULL },
  { "signal.sosfilt_f64_2e24", "sosfilt, 4 sections, one signal of 2^24 float64", setup_sosfilt_2e24, run, teardown, 0, NULL },
  { "signal.sosfilt_f64_1x4096_host", "sosfilt, 4 sections, 4096 float64: host time per call", setup_sosfilt_4096, run, teardown, 1, NULL },
  { "signal.sosfilt_f64_1x4096", "sosfilt, 4 sections, 4096 float64: GPU time per call", setup_sosfilt_4096, run, teardown, 0, NULL },
  { "signal.sosfilt_f64_1x200", "sosfilt, 4 sections, 200 float64: GPU time per call", setup_sosfilt_200, run, teardown, 0, NULL },
  { "signal.sosfilt_f64_4096x200", "sosfilt, 4 sections, 4096 signals of 200 float64", setup_sosfilt_4096x200, run, teardown, 0, NULL },
  { "signal.fftconvolve_f64_2e22_2e12", "fftconvolve full, 2^22 by 2^12 float64", setup_fftconvolve, run, teardown, 0, NULL },
  { "signal.oaconvolve_f64_2e22_2e12", "oaconvolve full, 2^22 by 2^12 float64", setup_oaconvolve, run, teardown, 0, NULL },
  { "signal.convolve_direct_f64_2e20_64", "convolve direct full, 2^20 by 64 float64", setup_direct, run, teardown, 0, NULL },
  { "signal.resample_poly_f64_2e24_3_2", "resample_poly up 3 down 2, 2^24 float64", setup_resample_poly, run, teardown, 0, NULL },
  { "signal.medfilt_f64_2e22_k5", "medfilt, kernel 5, 2^22 float64", setup_medfilt, run, teardown, 0, NULL },
  { NULL, NULL, NULL, NULL, NULL, 0, NULL },
};
