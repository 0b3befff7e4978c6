/*
 * libsignal/czt.c: scipy.signal's chirp z-transform (czt) and zoom FFT
 * (zoom_fft) by Bluestein's algorithm, where x is: the chirps w^(k^2 / 2)
 * and a^-k made on the host (as SciPy's CZT and ZoomFFT classes make
 * them), x times the chirp, its FFT of next_fast_len(n + m - 1) points
 * times that of the reciprocal chirp, the inverse FFT's n - 1 .. n + m - 2
 * times the chirp, by the module's FFT and the core's ufuncs. complex128
 * results, as SciPy's.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/fft.h>
#include <cusci/signal.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The transform of x's lines along axis by the host's chirps wk2 (max(m, n)
 * values) and awk2 (n values). */
static cusci_status bluestein(cusci_ctx *ctx, const char *fn, const cusci_array *x, int axis, int64_t n, int64_t m, const double complex *wk2,
                              const double complex *awk2, cusci_array **out)
{
  int64_t nfft = 0;
  CUSCI_TRY(cusci_fft_next_fast_len(n + m - 1, false, &nfft));
  /* 1 / (wk2[n-1], ..., wk2[1], wk2[0], ..., wk2[m-1]) */
  const int64_t nr = n - 1 + m;
  double complex *r = malloc(sizeof *r * (size_t)nr);
  if (!r)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  for (int64_t i = 0; i < n - 1; i++)
    r[i] = 1 / wk2[n - 1 - i];
  for (int64_t i = 0; i < m; i++)
    r[n - 1 + i] = 1 / wk2[i];
  const int nd = cusci_array_ndim(x);
  int64_t shape[SIG_MAXD];
  for (int i = 0; i < nd; i++)
    shape[i] = i == axis ? n : 1;
  cusci_array *rd = NULL, *F = NULL, *A = NULL, *W = NULL, *xa = NULL, *X = NULL, *y = NULL, *cut = NULL, *res = NULL;
  cusci_status st = cusci__sig_upload(ctx, r, 1, &nr, CUSCI_COMPLEX128, &rd);
  free(r);
  if (st == CUSCI_OK)
    st = cusci_fft_fft(ctx, rd, nfft, -1, CUSCI_FFT_BACKWARD, &F);
  if (st == CUSCI_OK)
    st = cusci__sig_upload(ctx, awk2, nd, shape, CUSCI_COMPLEX128, &A);
  shape[axis] = m;
  if (st == CUSCI_OK)
    st = cusci__sig_upload(ctx, wk2, nd, shape, CUSCI_COMPLEX128, &W);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, x, A, &xa);
  if (st == CUSCI_OK)
    st = cusci_fft_fft(ctx, xa, nfft, axis, CUSCI_FFT_BACKWARD, &X);
  /* F along axis */
  cusci_array *Fs = NULL;
  shape[axis] = nfft;
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, F, nd, shape, &Fs);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, Fs, X, &X);
  if (st == CUSCI_OK)
    st = cusci_fft_ifft(ctx, X, nfft, axis, CUSCI_FFT_BACKWARD, &y);
  if (st == CUSCI_OK)
    st = cusci__sig_along(ctx, y, axis, n - 1, n - 1 + m, 1, &cut);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, cut, W, &res);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, res, out);
  cusci_array *all[] = { rd, F, A, W, xa, X, y, cut, Fs };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  return st;
}

/* x's checks and its length along axis. */
static cusci_status sizes(cusci_ctx *ctx, const char *fn, const cusci_array *x, int axis, int64_t m_in, int *ax, int64_t *n, int64_t *m)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "x", cusci_array_ndim(x), axis, ax));
  *n = cusci_array_shape(x)[*ax];
  if (*n < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "x has no points along axis %d", *ax);
  if (m_in < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "m %lld must be positive (0: x's length)", (long long)m_in);
  *m = m_in ? m_in : *n;
  return CUSCI_OK;
}

cusci_status cusci_signal_czt(cusci_ctx *ctx, const cusci_array *x, int64_t m, const double *w, const double *a, int axis, cusci_array **out)
{
  static const char fn[] = "cusci_signal_czt";
  CUSCI_ENTRY(ctx, fn, x, out);
  int ax = 0;
  int64_t n = 0;
  CUSCI_TRY(sizes(ctx, fn, x, axis, m, &ax, &n, &m));
  const double complex wv = w ? w[0] + I * w[1] : cexp(-2 * I * M_PI / (double)m), av = a ? a[0] + I * a[1] : 1;
  if ((w && (!isfinite(w[0]) || !isfinite(w[1]) || wv == 0)) || (a && (!isfinite(a[0]) || !isfinite(a[1]) || av == 0)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "w and a must be finite and nonzero");
  const int64_t K = m > n ? m : n;
  double complex *wk2 = malloc(sizeof *wk2 * (size_t)K), *awk2 = malloc(sizeof *awk2 * (size_t)n);
  if (!wk2 || !awk2) {
    free(wk2), free(awk2);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  for (int64_t k = 0; k < K; k++) {
    const double k2 = (double)k * (double)k;
    /* the FFT's circle: k^2 modulo 2m keeps the angle exact */
    wk2[k] = w ? cpow(wv, k2 / 2) : cexp(-(I * M_PI * fmod(k2, 2.0 * (double)m)) / (double)m);
  }
  for (int64_t k = 0; k < n; k++)
    awk2[k] = cpow(av, -(double)k) * wk2[k];
  const cusci_status st = bluestein(ctx, fn, x, ax, n, m, wk2, awk2, out);
  free(wk2), free(awk2);
  return st;
}

cusci_status cusci_signal_zoom_fft(cusci_ctx *ctx, const cusci_array *x, int nfn, const double *fn_, int64_t m, double fs, bool endpoint, int axis,
                                   cusci_array **out)
{
  static const char fn[] = "cusci_signal_zoom_fft";
  CUSCI_ENTRY(ctx, fn, x, fn_, out);
  if (nfn != 1 && nfn != 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fn must be 1 (f2, from 0) or 2 (f1, f2) frequencies, not %d", nfn);
  if (fs == 0)
    fs = 2;
  if (!(fs > 0) || !isfinite(fs))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fs %g must be positive and finite (0: 2)", fs);
  const double f1 = nfn == 2 ? fn_[0] : 0, f2 = nfn == 2 ? fn_[1] : fn_[0];
  if (!isfinite(f1) || !isfinite(f2))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the frequencies %g, %g must be finite", f1, f2);
  int ax = 0;
  int64_t n = 0;
  CUSCI_TRY(sizes(ctx, fn, x, axis, m, &ax, &n, &m));
  if (endpoint && m == 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "an endpoint needs m of at least 2");
  const double scale = endpoint ? ((f2 - f1) * (double)m) / (fs * (double)(m - 1)) : (f2 - f1) / fs;
  const int64_t K = m > n ? m : n;
  double complex *wk2 = malloc(sizeof *wk2 * (size_t)K), *awk2 = malloc(sizeof *awk2 * (size_t)n);
  if (!wk2 || !awk2) {
    free(wk2), free(awk2);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  for (int64_t k = 0; k < K; k++)
    wk2[k] = cexp(-(I * M_PI * scale * ((double)k * (double)k)) / (double)m);
  for (int64_t k = 0; k < n; k++)
    awk2[k] = cexp(-2 * I * M_PI * f1 / fs * (double)k) * wk2[k];
  const cusci_status st = bluestein(ctx, fn, x, ax, n, m, wk2, awk2, out);
  free(wk2), free(awk2);
  return st;
}
