/*
 * libsignal/fht.c: fht, ifht and fhtoffset: the FFTLog multipliers
 * (reference/signal/fftlog.c) applied between a real transform and its
 * inverse, with the bias as weights along the last axis, all through the
 * transforms of fft.h and core's ufuncs, on either device.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include <cusci/compute.h>

#include "reference/signal/reference.h"

/* x (..., n) times the float64 weights w (n) along the last axis, into a
 * new *out (float64, as NumPy promotes); releases x. */
static cusci_status weigh(cusci_ctx *ctx, cusci_array *x, const double *w, int64_t n, cusci_array **out)
{
  cusci_array *wa = NULL;
  *out = NULL;
  cusci_status st = cusci_array_from_host(ctx, w, 1, &n, CUSCI_FLOAT64, &wa);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, x, wa, out);
  cusci_array_release(wa);
  cusci_array_release(x);
  return st;
}

/* exp(sign bias ((j - j_c) dln + off)) for j in 0..n-1. */
static double *bias_weights(int64_t n, double bias, double dln, double off, double sign)
{
  double *w = malloc((size_t)n * sizeof *w);
  const double jc = (double)(n - 1) / 2;
  for (int64_t j = 0; w && j < n; j++)
    w[j] = exp(sign * bias * (((double)j - jc) * dln + off));
  return w;
}

static cusci_status fht(cusci_ctx *ctx, const char *fn, const cusci_array *a, double dln, double mu, double offset, double bias, bool inverse,
                        cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, a, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, inverse ? "A" : "a", a));
  const int nd = cusci_array_ndim(a);
  const cusci_dtype dt = cusci_array_dtype(a);
  if (cusci_dtype_kind(dt) == 'c')
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "the input is %s: the Hankel transform takes real input", cusci_dtype_name(dt));
  if (nd < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the input is 0-d: it has no axis to transform");
  if (!(isfinite(dln) && dln != 0) || !isfinite(mu) || !isfinite(offset) || !isfinite(bias))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "dln = %g, mu = %g, offset = %g, bias = %g: dln must be finite and not 0, the rest finite",
                          dln, mu, offset, bias);
  const int64_t n = cusci_array_shape(a)[nd - 1];
  if (n < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "invalid number of data points (0) along the last axis");
  const int64_t h = n / 2 + 1;
  double complex *m = malloc((size_t)h * sizeof *m);
  double *wi = bias ? bias_weights(n, bias, dln, inverse ? offset : 0, inverse ? 1 : -1) : NULL;
  double *wo = bias ? bias_weights(n, bias, dln, inverse ? 0 : offset, inverse ? 1 : -1) : NULL;
  if (!m || (bias && (!wi || !wo))) {
    free(m), free(wi), free(wo);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld coefficients", (long long)n);
  }
  cusci__fht_coeff(n, dln, mu, offset, bias, inverse, m);
  cusci_array *x = cusci_array_retain((cusci_array *)a), *X = NULL, *mc = NULL, *mm = NULL, *Y = NULL, *y = NULL, *r = NULL;
  cusci_status st = bias ? weigh(ctx, x, wi, n, &x) : CUSCI_OK;
  if (st == CUSCI_OK)
    st = cusci_fft_rfft(ctx, x, 0, -1, CUSCI_FFT_BACKWARD, &X);
  /* The multipliers in the transform's precision. */
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, m, 1, &h, CUSCI_COMPLEX128, &mc);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, mc, cusci_array_dtype(X), false, &mm);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, X, mm, &Y);
  if (st == CUSCI_OK)
    st = cusci_fft_irfft(ctx, Y, n, -1, CUSCI_FFT_BACKWARD, &y);
  /* Reversed along the last axis. */
  if (st == CUSCI_OK) {
    int64_t step[SIG_MAXD];
    for (int i = 0; i < nd; i++)
      step[i] = i == nd - 1 ? -1 : 1;
    cusci_array *v = NULL;
    st = cusci_array_slice(ctx, y, NULL, NULL, step, &v);
    if (st == CUSCI_OK)
      st = cusci_array_copy(ctx, v, &r);
    cusci_array_release(v);
  }
  if (st == CUSCI_OK && bias)
    st = weigh(ctx, r, wo, n, &r);
  free(m), free(wi), free(wo);
  cusci_array_release(x), cusci_array_release(X), cusci_array_release(mc), cusci_array_release(mm), cusci_array_release(Y),
    cusci_array_release(y);
  if (st != CUSCI_OK) {
    cusci_array_release(r);
    return st;
  }
  return cusci_give_out(ctx, fn, r, out);
}

cusci_status cusci_fft_fht(cusci_ctx *ctx, const cusci_array *a, double dln, double mu, double offset, double bias, cusci_array **out)
{
  return fht(ctx, "cusci_fft_fht", a, dln, mu, offset, bias, false, out);
}

cusci_status cusci_fft_ifht(cusci_ctx *ctx, const cusci_array *A, double dln, double mu, double offset, double bias, cusci_array **out)
{
  return fht(ctx, "cusci_fft_ifht", A, dln, mu, offset, bias, true, out);
}

cusci_status cusci_fft_fhtoffset(double dln, double mu, double initial, double bias, double *offset)
{
  if (!offset)
    return CUSCI_ERR_NULL_POINTER;
  if (!(isfinite(dln) && dln != 0) || !isfinite(mu) || !isfinite(initial) || !isfinite(bias))
    return CUSCI_ERR_VALUE;
  *offset = cusci__fhtoffset(dln, mu, initial, bias);
  return CUSCI_OK;
}
