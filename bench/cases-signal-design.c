/*
 * bench/cases-signal-design.c: cusci-signal's spectral estimates and
 * filter design at the sizes: welch of 2^24 float64 samples with
 * nperseg 1024, spectrogram and an stft/istft round trip of 2^24 (GPU
 * time), an 8th-order Butterworth low-pass as sections
 * and a bank of 1000 of them (host time per call: the design runs on the
 * host, its sections are uploaded). CuPy's twins: bench/cupy_signal.py.
 */
#include <stdio.h>
#include <stdlib.h>

#include <cusci/signal.h>

#include "bench/bench.h"

typedef enum { D_WELCH, D_SPECTROGRAM, D_STFT, D_BUTTER, D_BANK } dkind;

typedef struct dstate {
  dkind kind;
  cusci_array *x;
  double *wn;
  int *orders;
} dstate;

static void teardown(void *state)
{
  dstate *s = state;
  cusci_array_release(s->x);
  free(s->wn), free(s->orders);
  free(s);
}

enum { BANK = 1000 };

static int setup_kind(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t why_len, dkind kind)
{
  dstate *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(why, why_len, "no memory");
    return 1;
  }
  s->kind = kind;
  *bytes = *flops = 0;
  if (kind == D_WELCH || kind == D_SPECTROGRAM || kind == D_STFT) {
    const int64_t n = INT64_C(1) << 24;
    if (cusci_array_ones(ctx, 1, &n, CUSCI_FLOAT64, &s->x) != CUSCI_OK) {
      snprintf(why, why_len, "%s", cusci_ctx_last_error(ctx));
      teardown(s);
      return 1;
    }
    /* the round trip reads x and writes it back: a copy's bytes */
    *bytes = (double)cusci_array_nbytes(s->x) * (kind == D_STFT ? 2 : 1);
  } else if (kind == D_BANK) {
    s->wn = malloc(sizeof *s->wn * BANK);
    s->orders = malloc(sizeof *s->orders * BANK);
    if (!s->wn || !s->orders) {
      snprintf(why, why_len, "no memory");
      teardown(s);
      return 1;
    }
    for (int i = 0; i < BANK; i++)
      s->wn[i] = 0.05 + 0.9 * i / BANK, s->orders[i] = 8;
  }
  *state = s;
  return 0;
}

static int run(cusci_ctx *ctx, void *state)
{
  dstate *s = state;
  cusci_array *f = NULL, *p = NULL, *t = NULL, *z = NULL;
  cusci_status st;
  switch (s->kind) {
  case D_WELCH: st = cusci_signal_welch(ctx, s->x, 1.0, 1024, -1, NULL, &f, &p); break;
  case D_SPECTROGRAM: st = cusci_signal_spectrogram(ctx, s->x, 1.0, 0, -1, NULL, CUSCI_SIGNAL_SPECTROGRAM_PSD, &f, &t, &p); break;
  case D_STFT:
    st = cusci_signal_stft(ctx, s->x, 1.0, 0, -1, NULL, &f, &t, &z);
    cusci_array_release(t), t = NULL;
    if (st == CUSCI_OK)
      st = cusci_signal_istft(ctx, z, 1.0, -2, -1, NULL, &t, &p);
    break;
  case D_BUTTER: st = cusci_signal_butter_sos(ctx, 8, 1, (const double[]){ 0.2 }, CUSCI_SIGNAL_LOWPASS, NULL, &p); break;
  case D_BANK: st = cusci_signal_butter_sos_bank(ctx, BANK, s->orders, 1, s->wn, CUSCI_SIGNAL_LOWPASS, NULL, &p); break;
  default: return CUSCI_ERR_INTERNAL;
  }
  cusci_array_release(f), cusci_array_release(p), cusci_array_release(t), cusci_array_release(z);
  return st;
}

#define CASE(NAME, KIND)                                                                                 \
  static int setup_##NAME(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t wl) \
  {                                                                                                      \
    return setup_kind(ctx, state, bytes, flops, why, wl, KIND);                                          \
  }

CASE(welch, D_WELCH)
CASE(spectrogram, D_SPECTROGRAM)
CASE(stft, D_STFT)
CASE(butter, D_BUTTER)
CASE(bank, D_BANK)

const bench_case bench_cases_signal_design[] = {
  { "signal.welch_f64_2e24_1024", "welch, nperseg 1024 (Hann, half overlap), one signal of 2^24 float64", setup_welch, run, teardown, 0, NULL },
  { "signal.spectrogram_f64_2e24", "spectrogram, SciPy's defaults (nperseg 256, Tukey 0.25, noverlap 32), one signal of 2^24 float64", setup_spectrogram,
    run, teardown, 0, NULL },
  { "signal.stft_istft_f64_2e24", "stft then istft, SciPy's defaults (nperseg 256, Hann, half overlap), 2^24 float64: bytes of a copy",
    setup_stft, run, teardown, 0, NULL },
  { "signal.butter8_sos_host", "butter(8, 0.2) as sections: host time per call", setup_butter, run, teardown, 1, NULL },
  { "signal.butter8_sos_bank1000_host", "1000 8th-order Butterworth low-passes in one call: host time", setup_bank, run, teardown, 1, NULL },
  { NULL, NULL, NULL, NULL, NULL, 0, NULL },
};
