/*
 * tests/signal-util.h: what the signal tests share: one call of any
 * scipy.fft function by its name, and the relative RMS distance between
 * two results.
 */
#ifndef CUSCI_TESTS_SIGNAL_UTIL_H
#define CUSCI_TESTS_SIGNAL_UTIL_H

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/fft.h>

#include "tests/testkit.h"

typedef cusci_status (*sig_fn1)(cusci_ctx *, const cusci_array *, int64_t, int, cusci_fft_norm, cusci_array **);
typedef cusci_status (*sig_fnn)(cusci_ctx *, const cusci_array *, int, const int64_t *, const int *, cusci_fft_norm, cusci_array **);
typedef cusci_status (*sig_fn2)(cusci_ctx *, const cusci_array *, const int64_t *, const int *, cusci_fft_norm, cusci_array **);
typedef cusci_status (*sig_fnt)(cusci_ctx *, const cusci_array *, int, int64_t, int, cusci_fft_norm, cusci_array **);
typedef cusci_status (*sig_fntn)(cusci_ctx *, const cusci_array *, int, int, const int64_t *, const int *, cusci_fft_norm, cusci_array **);

static const struct sig_entry {
  const char *name;
  sig_fn1 f1;
  sig_fnn fn;
  sig_fn2 f2;
  sig_fnt ft;
  sig_fntn ftn;
} sig_table[] = {
  { "fft", cusci_fft_fft, 0, 0, 0, 0 },       { "ifft", cusci_fft_ifft, 0, 0, 0, 0 },       { "rfft", cusci_fft_rfft, 0, 0, 0, 0 },
  { "irfft", cusci_fft_irfft, 0, 0, 0, 0 },   { "hfft", cusci_fft_hfft, 0, 0, 0, 0 },       { "ihfft", cusci_fft_ihfft, 0, 0, 0, 0 },
  { "fftn", 0, cusci_fft_fftn, 0, 0, 0 },     { "ifftn", 0, cusci_fft_ifftn, 0, 0, 0 },     { "rfftn", 0, cusci_fft_rfftn, 0, 0, 0 },
  { "irfftn", 0, cusci_fft_irfftn, 0, 0, 0 }, { "hfftn", 0, cusci_fft_hfftn, 0, 0, 0 },     { "ihfftn", 0, cusci_fft_ihfftn, 0, 0, 0 },
  { "fft2", 0, 0, cusci_fft_fft2, 0, 0 },     { "ifft2", 0, 0, cusci_fft_ifft2, 0, 0 },     { "rfft2", 0, 0, cusci_fft_rfft2, 0, 0 },
  { "irfft2", 0, 0, cusci_fft_irfft2, 0, 0 }, { "hfft2", 0, 0, cusci_fft_hfft2, 0, 0 },     { "ihfft2", 0, 0, cusci_fft_ihfft2, 0, 0 },
  { "dct", 0, 0, 0, cusci_fft_dct, 0 },       { "idct", 0, 0, 0, cusci_fft_idct, 0 },       { "dst", 0, 0, 0, cusci_fft_dst, 0 },
  { "idst", 0, 0, 0, cusci_fft_idst, 0 },     { "dctn", 0, 0, 0, 0, cusci_fft_dctn },       { "idctn", 0, 0, 0, 0, cusci_fft_idctn },
  { "dstn", 0, 0, 0, 0, cusci_fft_dstn },     { "idstn", 0, 0, 0, 0, cusci_fft_idstn },     { NULL, 0, 0, 0, 0, 0 },
};

/* One call: the 1-D forms take n and axis, the n-d ones naxes, s and axes
 * (s or axes NULL as the API has it). Unknown names: CUSCI_ERR_INTERNAL. */
static inline cusci_status sig_call(cusci_ctx *ctx, const char *func, int type, int64_t n, int axis, cusci_fft_norm norm, int naxes,
                                    const int64_t *s, const int *axes, const cusci_array *x, cusci_array **out)
{
  for (const struct sig_entry *e = sig_table; e->name; e++) {
    if (strcmp(e->name, func))
      continue;
    if (e->f1)
      return e->f1(ctx, x, n, axis, norm, out);
    if (e->fn)
      return e->fn(ctx, x, naxes, s, axes, norm, out);
    if (e->f2)
      return e->f2(ctx, x, s, axes, norm, out);
    if (e->ft)
      return e->ft(ctx, x, type, n, axis, norm, out);
    return e->ftn(ctx, x, type, naxes, s, axes, norm, out);
  }
  return CUSCI_ERR_INTERNAL;
}

static inline cusci_fft_norm sig_norm_of(const char *s)
{
  return !strcmp(s, "ortho") ? CUSCI_FFT_ORTHO : !strcmp(s, "forward") ? CUSCI_FFT_FORWARD : CUSCI_FFT_BACKWARD;
}

/* The values of a (any device, any dtype) as complex doubles, malloc'ed. */
static inline double complex *sig_values(cusci_ctx *ctx, const cusci_array *a)
{
  cusci_array *c = NULL;
  if (cusci_array_astype(ctx, (cusci_array *)a, CUSCI_COMPLEX128, true, &c) != CUSCI_OK)
    return NULL;
  double complex *v = tk_to_host(ctx, c);
  cusci_array_release(c);
  return v;
}

/* ||a - b|| / ||b|| over every element (0 for two empty or zero arrays;
 * INFINITY when the sizes differ or a copy fails). */
static inline double sig_rel_rms(cusci_ctx *ca, const cusci_array *a, cusci_ctx *cb, const cusci_array *b)
{
  if (cusci_array_size(a) != cusci_array_size(b))
    return INFINITY;
  double complex *x = sig_values(ca, a), *y = sig_values(cb, b);
  double num = 0, den = 0;
  if (!x || !y) {
    free(x), free(y);
    return INFINITY;
  }
  for (int64_t i = 0; i < cusci_array_size(a); i++) {
    double complex d = x[i] - y[i];
    num += creal(d) * creal(d) + cimag(d) * cimag(d);
    den += creal(y[i]) * creal(y[i]) + cimag(y[i]) * cimag(y[i]);
  }
  free(x), free(y);
  if (num != num)
    return INFINITY;
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* A few eps (log2 of the longest length + 1), the tolerance of a
 * transform's relative RMS error in dtype dt. */
static inline double sig_tol(cusci_dtype dt, int64_t longest)
{
  const double eps = dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? 1.1920929e-07 : 2.220446049250313e-16;
  return 8 * eps * (log2((double)(longest > 1 ? longest : 1)) + 1);
}

#endif
