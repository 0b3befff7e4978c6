/*
 * libsignal/fft.c: the transforms of fft.h, each a plain call of its kind
 * (libsignal/cache.c) with its axes and lengths.
 */
#include "libsignal/internal.h"

/* A 1-D call: n 0 (None) is the length -1 of the n-d form. */
static cusci_status one(cusci_ctx *ctx, const char *fn, int kind, int type, const cusci_array *x, int64_t n, int axis, cusci_fft_norm norm,
                        cusci_array **out)
{
  if (ctx && n < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "invalid number of data points (%lld) specified", (long long)n);
  const int64_t s = n ? n : -1;
  return cusci__sig_call(ctx, fn, kind, type, x, 1, &s, &axis, norm, out);
}

/* A 2-d call: axes NULL is (-2, -1). */
static cusci_status two(cusci_ctx *ctx, const char *fn, int kind, const cusci_array *x, const int64_t *s, const int *axes, cusci_fft_norm norm,
                        cusci_array **out)
{
  static const int last2[2] = { -2, -1 };
  return cusci__sig_call(ctx, fn, kind, 0, x, 2, s, axes ? axes : last2, norm, out);
}

#define ONE_AXIS(name, kind)                                                                                                   \
  cusci_status cusci_fft_##name(cusci_ctx *ctx, const cusci_array *x, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out) \
  {                                                                                                                            \
    return one(ctx, "cusci_fft_" #name, kind, 0, x, n, axis, norm, out);                                                       \
  }
#define N_AXES(name, kind)                                                                                                   \
  cusci_status cusci_fft_##name(cusci_ctx *ctx, const cusci_array *x, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, \
                                cusci_array **out)                                                                           \
  {                                                                                                                          \
    return cusci__sig_call(ctx, "cusci_fft_" #name, kind, 0, x, naxes, s, axes, norm, out);                                 \
  }
#define TWO_AXES(name, kind)                                                                                                 \
  cusci_status cusci_fft_##name(cusci_ctx *ctx, const cusci_array *x, const int64_t *s, const int *axes, cusci_fft_norm norm,     \
                                cusci_array **out)                                                                           \
  {                                                                                                                          \
    return two(ctx, "cusci_fft_" #name, kind, x, s, axes, norm, out);                                                        \
  }
#define TRIG(name, kind)                                                                                                       \
  cusci_status cusci_fft_##name(cusci_ctx *ctx, const cusci_array *x, int type, int64_t n, int axis, cusci_fft_norm norm,          \
                                cusci_array **out)                                                                             \
  {                                                                                                                            \
    return one(ctx, "cusci_fft_" #name, kind, type, x, n, axis, norm, out);                                                    \
  }                                                                                                                            \
  cusci_status cusci_fft_##name##n(cusci_ctx *ctx, const cusci_array *x, int type, int naxes, const int64_t *s, const int *axes,  \
                                   cusci_fft_norm norm, cusci_array **out)                                                     \
  {                                                                                                                            \
    return cusci__sig_call(ctx, "cusci_fft_" #name "n", kind, type, x, naxes, s, axes, norm, out);                            \
  }

ONE_AXIS(fft, CUSCI_FFT_KIND_FFT)
ONE_AXIS(ifft, CUSCI_FFT_KIND_IFFT)
ONE_AXIS(rfft, CUSCI_FFT_KIND_RFFT)
ONE_AXIS(irfft, CUSCI_FFT_KIND_IRFFT)
ONE_AXIS(hfft, CUSCI_FFT_KIND_HFFT)
ONE_AXIS(ihfft, CUSCI_FFT_KIND_IHFFT)
N_AXES(fftn, CUSCI_FFT_KIND_FFT)
N_AXES(ifftn, CUSCI_FFT_KIND_IFFT)
N_AXES(rfftn, CUSCI_FFT_KIND_RFFT)
N_AXES(irfftn, CUSCI_FFT_KIND_IRFFT)
N_AXES(hfftn, CUSCI_FFT_KIND_HFFT)
N_AXES(ihfftn, CUSCI_FFT_KIND_IHFFT)
TWO_AXES(fft2, CUSCI_FFT_KIND_FFT)
TWO_AXES(ifft2, CUSCI_FFT_KIND_IFFT)
TWO_AXES(rfft2, CUSCI_FFT_KIND_RFFT)
TWO_AXES(irfft2, CUSCI_FFT_KIND_IRFFT)
TWO_AXES(hfft2, CUSCI_FFT_KIND_HFFT)
TWO_AXES(ihfft2, CUSCI_FFT_KIND_IHFFT)
TRIG(dct, SIG_DCT)
TRIG(idct, SIG_IDCT)
TRIG(dst, SIG_DST)
TRIG(idst, SIG_IDST)
