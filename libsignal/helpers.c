/*
 * libsignal/helpers.c: fftfreq, rfftfreq, fftshift, ifftshift,
 * next_fast_len and prev_fast_len.
 */
#include "libsignal/internal.h"

#include <math.h>
#include <stdlib.h>

/* The frequencies, made on the host and copied to ctx's device. */
static cusci_status freq(cusci_ctx *ctx, const char *fn, int64_t n, double d, bool half, cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, out);
  if (n < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n = %lld: it must be at least 1", (long long)n);
  if (d == 0 || d != d)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the sample spacing d is %g", d);
  const int64_t m = half ? n / 2 + 1 : n;
  double *v = malloc((size_t)m * sizeof *v);
  if (!v)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld frequencies", (long long)m);
  /* numpy's: the integers 0 .. (n - 1) / 2, then -(n / 2) .. -1, times
   * 1 / (n d) as one value. */
  const double val = 1.0 / ((double)n * d);
  for (int64_t i = 0; i < m; i++)
    v[i] = (double)(half || i <= (n - 1) / 2 ? i : i - n) * val;
  cusci_array *r = NULL;
  cusci_status st = cusci_array_from_host(ctx, v, 1, &m, CUSCI_FLOAT64, &r);
  free(v);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, r, out);
}

cusci_status cusci_fft_fftfreq(cusci_ctx *ctx, int64_t n, double d, cusci_array **out)
{
  return freq(ctx, "cusci_fft_fftfreq", n, d, false, out);
}

cusci_status cusci_fft_rfftfreq(cusci_ctx *ctx, int64_t n, double d, cusci_array **out)
{
  return freq(ctx, "cusci_fft_rfftfreq", n, d, true, out);
}

/* x rolled by k along axis into a new array *r (two slice copies). */
static cusci_status roll(cusci_ctx *ctx, cusci_array *x, int axis, int64_t k, cusci_array **r)
{
  const int nd = cusci_array_ndim(x);
  const int64_t len = cusci_array_shape(x)[axis];
  CUSCI_TRY(cusci_array_empty(ctx, nd, cusci_array_shape(x), cusci_array_dtype(x), r));
  k = len ? ((k % len) + len) % len : 0;
  /* r[k:] = x[:len - k], r[:k] = x[len - k:] */
  cusci_status st = CUSCI_OK;
  for (int part = 0; part < 2 && st == CUSCI_OK; part++) {
    int64_t s0[SIG_MAXD], e0[SIG_MAXD], s1[SIG_MAXD], e1[SIG_MAXD];
    for (int i = 0; i < nd; i++)
      s0[i] = s1[i] = CUSCI_SLICE_NONE, e0[i] = e1[i] = CUSCI_SLICE_NONE;
    if (part == 0)
      s0[axis] = k, e1[axis] = len - k;
    else
      e0[axis] = k, s1[axis] = len - k;
    if ((part == 0 ? len - k : k) == 0)
      continue;
    cusci_array *dv = NULL, *sv = NULL;
    st = cusci_array_slice(ctx, *r, s0, e0, NULL, &dv);
    if (st == CUSCI_OK)
      st = cusci_array_slice(ctx, x, s1, e1, NULL, &sv);
    if (st == CUSCI_OK)
      st = cusci_array_copy(ctx, sv, &dv);
    cusci_array_release(dv), cusci_array_release(sv);
  }
  if (st != CUSCI_OK) {
    cusci_array_release(*r);
    *r = NULL;
  }
  return st;
}

static cusci_status shift(cusci_ctx *ctx, const char *fn, const cusci_array *x, int naxes, const int *axes, bool inverse, cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  const int nd = cusci_array_ndim(x);
  if (naxes < 0 || naxes > nd)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "%d axes for an array of %d dimensions", naxes, nd);
  if (naxes > 0 && !axes)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "axes is NULL with naxes %d", naxes);
  const int na = naxes ? naxes : nd;
  int ax[SIG_MAXD];
  for (int i = 0; i < na; i++) {
    int a = naxes ? axes[i] : i;
    if (a < -nd || a >= nd)
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of range for an array of %d dimensions", a, nd);
    ax[i] = a < 0 ? a + nd : a;
  }
  CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, cusci_array_shape(x), cusci_array_dtype(x), CUSCI_CASTING_NO));
  cusci_array *cur = cusci_array_retain((cusci_array *)x);
  cusci_status st = CUSCI_OK;
  for (int i = 0; i < na && st == CUSCI_OK; i++) {
    const int64_t len = cusci_array_shape(x)[ax[i]];
    cusci_array *next = NULL;
    st = roll(ctx, cur, ax[i], inverse ? -(len / 2) : len / 2, &next);
    cusci_array_release(cur);
    cur = next;
  }
  if (st == CUSCI_OK && na == 0)
    st = cusci_array_copy(ctx, x, &cur);
  if (st != CUSCI_OK) {
    cusci_array_release(cur);
    return st;
  }
  return cusci_give_out(ctx, fn, cur, out);
}

cusci_status cusci_fft_fftshift(cusci_ctx *ctx, const cusci_array *x, int naxes, const int *axes, cusci_array **out)
{
  return shift(ctx, "cusci_fft_fftshift", x, naxes, axes, false, out);
}

cusci_status cusci_fft_ifftshift(cusci_ctx *ctx, const cusci_array *x, int naxes, const int *axes, cusci_array **out)
{
  return shift(ctx, "cusci_fft_ifftshift", x, naxes, axes, true, out);
}

/* Whether n's prime factors are all among 2, 3 and 5 (real) or 2, 3, 5, 7
 * and 11 (complex), the lengths scipy.fft counts fast. */
static bool fast(int64_t n, bool real)
{
  static const int64_t ps[5] = { 2, 3, 5, 7, 11 };
  for (int i = 0; i < (real ? 3 : 5); i++)
    while (n % ps[i] == 0)
      n /= ps[i];
  return n == 1;
}

cusci_status cusci_fft_next_fast_len(int64_t target, bool real, int64_t *len)
{
  if (!len)
    return CUSCI_ERR_NULL_POINTER;
  if (target < 0)
    return CUSCI_ERR_VALUE;
  if (target == 0) {
    *len = 0;
    return CUSCI_OK;
  }
  for (int64_t n = target; n > 0; n++)
    if (fast(n, real)) {
      *len = n;
      return CUSCI_OK;
    }
  return CUSCI_ERR_OVERFLOW;
}

cusci_status cusci_fft_prev_fast_len(int64_t target, bool real, int64_t *len)
{
  if (!len)
    return CUSCI_ERR_NULL_POINTER;
  if (target < 0)
    return CUSCI_ERR_VALUE;
  for (int64_t n = target; n > 0; n--)
    if (fast(n, real)) {
      *len = n;
      return CUSCI_OK;
    }
  *len = 0;
  return CUSCI_OK;
}

cusci_status cusci__sig_give_two(cusci_ctx *ctx, const char *fn, cusci_status st, cusci_array *a, cusci_array **oa, cusci_array *b,
                                 cusci_array **ob)
{
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, a, oa), a = NULL;
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, b, ob), b = NULL;
  cusci_array_release(a), cusci_array_release(b);
  return st;
}

cusci_status cusci__sig_check_fs(cusci_ctx *ctx, const char *fn, double fs, bool analog)
{
  if (!(fs >= 0) || isinf(fs))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fs %g: the sampling frequency must be positive and finite (0: frequencies relative to Nyquist)", fs);
  if (analog && fs > 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fs %g: an analog filter takes no sampling frequency", fs);
  return CUSCI_OK;
}
