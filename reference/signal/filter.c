/*
 * reference/signal/filter.c: filter.h for the four dtypes, from one body
 * (filter_body.h).
 */
#include "reference/signal/filter.h"

#include <complex.h>
#include <stdlib.h>

#include <cusci/kit/dtypes.h>

#include "reference/signal/select.h"

#define CUSCI__SIG_MAXD 32

#define T float
#define NAME(x) x##_s
#include "reference/signal/filter_body.h"
#undef T
#undef NAME
#define T double
#define NAME(x) x##_d
#include "reference/signal/filter_body.h"
#undef T
#undef NAME
#define T float complex
#define NAME(x) x##_c
#include "reference/signal/filter_body.h"
#undef T
#undef NAME
#define T double complex
#define NAME(x) x##_z
#include "reference/signal/filter_body.h"
#undef T
#undef NAME
#define T uint64_t
#define NAME(x) x##_u
#define CUSCI__SIG_CONVOLVE_ONLY
#include "reference/signal/filter_body.h"
#undef CUSCI__SIG_CONVOLVE_ONLY
#undef T
#undef NAME

/* A line's state while it runs: n values of the largest type, on the
 * stack when few. */
#define SCRATCH(n)                                                                                  \
  double complex stack_[64], *zz = (n) <= 64 ? stack_ : malloc(sizeof(double complex) * (size_t)(n)); \
  if (!zz)                                                                                          \
    return -1;

int cusci__sig_iir(int prec, bool sos, int64_t K, bool per_channel, const void *coef, int64_t outer, int64_t len, int64_t inner, const void *x,
                   void *y, void *z, const cusci__sig_anchor *an)
{
  SCRATCH(sos ? 2 * K : K)
  switch (prec) {
  case CUSCI__SIG_F32: iir_s(sos, K, per_channel, coef, outer, len, inner, x, y, z, an, (float *)zz); break;
  case CUSCI__SIG_F64: iir_d(sos, K, per_channel, coef, outer, len, inner, x, y, z, an, (double *)zz); break;
  case CUSCI__SIG_C64: iir_c(sos, K, per_channel, coef, outer, len, inner, x, y, z, an, (float complex *)zz); break;
  default: iir_z(sos, K, per_channel, coef, outer, len, inner, x, y, z, an, zz); break;
  }
  if (zz != stack_)
    free(zz);
  return 0;
}

void cusci__sig_iir_power(int prec, bool sos, int64_t K, const void *coef, void *M)
{
  const int64_t N = sos ? 2 * K : K;
  switch (prec) {
  case CUSCI__SIG_F32: iir_power_s(sos, K, coef, N, M); break;
  case CUSCI__SIG_F64: iir_power_d(sos, K, coef, N, M); break;
  case CUSCI__SIG_C64: iir_power_c(sos, K, coef, N, M); break;
  default: iir_power_z(sos, K, coef, N, M); break;
  }
}

void cusci__sig_convolve(int prec, int ndim, const int64_t *shape1, const void *in1, const int64_t *shape2, const void *in2,
                         const int64_t *start, const int64_t *oshape, void *out)
{
  switch (prec) {
  case CUSCI__SIG_F32: convolve_s(ndim, shape1, in1, shape2, in2, start, oshape, out); break;
  case CUSCI__SIG_F64: convolve_d(ndim, shape1, in1, shape2, in2, start, oshape, out); break;
  case CUSCI__SIG_C64: convolve_c(ndim, shape1, in1, shape2, in2, start, oshape, out); break;
  case CUSCI__SIG_U64: convolve_u(ndim, shape1, in1, shape2, in2, start, oshape, out); break;
  default: convolve_z(ndim, shape1, in1, shape2, in2, start, oshape, out); break;
  }
}

void cusci__sig_upfirdn(int prec, int64_t nh, const void *h, int64_t outer, int64_t n, int64_t inner, const void *x, int64_t up, int64_t down,
                        int64_t i0, int64_t j0, int64_t ntot, int64_t nout, void *y)
{
  switch (prec) {
  case CUSCI__SIG_F32: upfirdn_s(nh, h, outer, n, inner, x, up, down, i0, j0, ntot, nout, y); break;
  case CUSCI__SIG_F64: upfirdn_d(nh, h, outer, n, inner, x, up, down, i0, j0, ntot, nout, y); break;
  case CUSCI__SIG_C64: upfirdn_c(nh, h, outer, n, inner, x, up, down, i0, j0, ntot, nout, y); break;
  default: upfirdn_z(nh, h, outer, n, inner, x, up, down, i0, j0, ntot, nout, y); break;
  }
}

/* order_filter for one real type: each element's window gathered (zeros
 * outside, the mask's elements only), its rank-th value selected. */
#define CUSCI__SIG_ORDER_(NAME, T, ...)                                                                                   \
  static int order_##NAME(int ndim, const int64_t *shape, const int64_t *ks, const uint8_t *mask, int64_t rank, const T *x, T *y) \
  {                                                                                                                        \
    int64_t w = 1, total = 1, st[CUSCI__SIG_MAXD];                                                                         \
    for (int d = ndim - 1; d >= 0; d--) {                                                                                  \
      st[d] = total;                                                                                                       \
      total *= shape[d], w *= ks[d];                                                                                       \
    }                                                                                                                      \
    T *win = malloc(sizeof(T) * (size_t)(w ? w : 1));                                                                      \
    if (!win)                                                                                                              \
      return -1;                                                                                                           \
    for (int64_t e = 0; e < total; e++) {                                                                                  \
      int64_t at[CUSCI__SIG_MAXD], r[CUSCI__SIG_MAXD], rem = e, cnt = 0;                                                  \
      for (int d = ndim - 1; d >= 0; d--) {                                                                                \
        at[d] = rem % shape[d], rem /= shape[d];                                                                           \
        r[d] = 0;                                                                                                          \
      }                                                                                                                    \
      for (int64_t m = 0; m < w; m++) {                                                                                    \
        if (!mask || mask[m]) {                                                                                            \
          int64_t off = 0;                                                                                                 \
          int inside = 1;                                                                                                  \
          for (int d = 0; d < ndim; d++) {                                                                                 \
            const int64_t p = at[d] + r[d] - ks[d] / 2;                                                                    \
            inside &= p >= 0 && p < shape[d];                                                                              \
            off += p * st[d];                                                                                              \
          }                                                                                                                \
          win[cnt++] = inside ? x[off] : (T)0;                                                                             \
        }                                                                                                                  \
        for (int d = ndim - 1; d >= 0; d--) {                                                                              \
          if (++r[d] < ks[d])                                                                                              \
            break;                                                                                                         \
          r[d] = 0;                                                                                                        \
        }                                                                                                                  \
      }                                                                                                                    \
      CUSCI__SIG_SELECT(T, win, cnt, rank, y[e]);                                                                          \
    }                                                                                                                      \
    free(win);                                                                                                             \
    return 0;                                                                                                              \
  }
CUSCI_DTYPES_INTEGER(CUSCI__SIG_ORDER_, 0)
CUSCI_DTYPES_REAL(CUSCI__SIG_ORDER_, 0)

int cusci__sig_order(int dt, int ndim, const int64_t *shape, const int64_t *ks, const uint8_t *mask, int64_t rank, const void *x, void *y)
{
  switch (dt) {
#define CUSCI__SIG_ORDER_CASE_(NAME, T, ...) \
  case CUSCI_##NAME:                        \
    return order_##NAME(ndim, shape, ks, mask, rank, x, y);
    CUSCI_DTYPES_INTEGER(CUSCI__SIG_ORDER_CASE_, 0)
    CUSCI_DTYPES_REAL(CUSCI__SIG_ORDER_CASE_, 0)
#undef CUSCI__SIG_ORDER_CASE_
  default:
    return -1;
  }
}

void cusci__sig_pad(int prec, int ndim, const int64_t *shape, const int64_t *before, const int64_t *oshape, int mode, double fill_re, double fill_im,
                    const void *x, void *y)
{
  switch (prec) {
  case CUSCI__SIG_F32: pad_s(ndim, shape, before, oshape, mode, (float)fill_re, x, y); break;
  case CUSCI__SIG_F64: pad_d(ndim, shape, before, oshape, mode, fill_re, x, y); break;
  case CUSCI__SIG_C64: pad_c(ndim, shape, before, oshape, mode, (float)fill_re + (float)fill_im * I, x, y); break;
  default: pad_z(ndim, shape, before, oshape, mode, fill_re + fill_im * I, x, y); break;
  }
}
