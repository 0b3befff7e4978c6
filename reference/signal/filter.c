/*
 * reference/signal/filter.c: filter.h for the four dtypes, from one body
 * (filter_body.h).
 */
#include "reference/signal/filter.h"

#include <complex.h>
#include <stdlib.h>

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

/* A line's state while it runs: n values of the largest type, on the
 * stack when few. */
#define SCRATCH(n)                                                                                  \
  double complex stack_[64], *zz = (n) <= 64 ? stack_ : malloc(sizeof(double complex) * (size_t)(n)); \
  if (!zz)                                                                                          \
    return -1;

int cusci__sig_lfilter(int prec, int64_t K, const void *coef, int64_t outer, int64_t len, int64_t inner, const void *x, void *y, void *z)
{
  SCRATCH(K)
  switch (prec) {
  case CUSCI__SIG_F32: lfilter_s(K, coef, outer, len, inner, x, y, z, (float *)zz); break;
  case CUSCI__SIG_F64: lfilter_d(K, coef, outer, len, inner, x, y, z, (double *)zz); break;
  case CUSCI__SIG_C64: lfilter_c(K, coef, outer, len, inner, x, y, z, (float complex *)zz); break;
  default: lfilter_z(K, coef, outer, len, inner, x, y, z, zz); break;
  }
  if (zz != stack_)
    free(zz);
  return 0;
}

int cusci__sig_sosfilt(int prec, int64_t nsec, bool per_channel, const void *sos, int64_t outer, int64_t len, int64_t inner, const void *x,
                       void *y, void *z)
{
  SCRATCH(2 * nsec)
  switch (prec) {
  case CUSCI__SIG_F32: sosfilt_s(nsec, per_channel, sos, outer, len, inner, x, y, z, (float *)zz); break;
  case CUSCI__SIG_F64: sosfilt_d(nsec, per_channel, sos, outer, len, inner, x, y, z, (double *)zz); break;
  case CUSCI__SIG_C64: sosfilt_c(nsec, per_channel, sos, outer, len, inner, x, y, z, (float complex *)zz); break;
  default: sosfilt_z(nsec, per_channel, sos, outer, len, inner, x, y, z, zz); break;
  }
  if (zz != stack_)
    free(zz);
  return 0;
}

void cusci__sig_convolve(int prec, int ndim, const int64_t *shape1, const void *in1, const int64_t *shape2, const void *in2,
                         const int64_t *start, const int64_t *oshape, void *out)
{
  switch (prec) {
  case CUSCI__SIG_F32: convolve_s(ndim, shape1, in1, shape2, in2, start, oshape, out); break;
  case CUSCI__SIG_F64: convolve_d(ndim, shape1, in1, shape2, in2, start, oshape, out); break;
  case CUSCI__SIG_C64: convolve_c(ndim, shape1, in1, shape2, in2, start, oshape, out); break;
  default: convolve_z(ndim, shape1, in1, shape2, in2, start, oshape, out); break;
  }
}
