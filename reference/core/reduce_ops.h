/*
 * reference/core/reduce_ops.h: one step of a reduction, for the host and
 * the kernels (compiled as C11 and as CUDA, like convert.h).
 *
 * Each input dtype reduces in the widest value of its kind, which convert.h
 * loads: int64 for bool and signed integers (sums and products wrap modulo
 * 2^64, as NumPy's int64 accumulators), uint64 for unsigned ones, double for
 * the floats (so a float32 or float16 sum is accumulated in double and
 * rounded once at the end, more accurately than NumPy's pairwise float32
 * sum), and a pair of doubles for complex. The step and the combination of
 * two partial results are the same function, so a tree of partials (the
 * GPU) and a sequential loop (the host) reduce alike up to the rounding of
 * floating-point sums.
 */
#ifndef CUSCI_REFERENCE_REDUCE_OPS_H
#define CUSCI_REFERENCE_REDUCE_OPS_H

#include <math.h>
#include <stdint.h>

#include <cusci/kit/convert.h>

enum cusci__rop {
  CUSCI__R_SUM,
  CUSCI__R_PROD,
  CUSCI__R_MAX,    /* NaN propagates */
  CUSCI__R_MIN,
  CUSCI__R_ANY,
  CUSCI__R_ALL,
  CUSCI__R_NANSUM, /* NaN counts as 0 */
  CUSCI__R_NANMAX, /* NaN ignored; NaN when all are */
  CUSCI__R_NANMIN,
  CUSCI__R_NOPS
};

/* Identities. */
CUSCI_HD int64_t cusci__rinit_I(int op)
{
  switch (op) {
  case CUSCI__R_PROD: case CUSCI__R_ALL: return 1;
  case CUSCI__R_MAX: case CUSCI__R_NANMAX: return INT64_MIN;
  case CUSCI__R_MIN: case CUSCI__R_NANMIN: return INT64_MAX;
  default: return 0;
  }
}
CUSCI_HD uint64_t cusci__rinit_U(int op)
{
  switch (op) {
  case CUSCI__R_PROD: case CUSCI__R_ALL: return 1;
  case CUSCI__R_MIN: case CUSCI__R_NANMIN: return UINT64_MAX;
  default: return 0;
  }
}
CUSCI_HD double cusci__rinit_F(int op)
{
  switch (op) {
  case CUSCI__R_PROD: case CUSCI__R_ALL: return 1.0;
  case CUSCI__R_MAX: return -INFINITY;
  case CUSCI__R_MIN: return INFINITY;
  case CUSCI__R_NANMAX: case CUSCI__R_NANMIN: return NAN;
  default: return 0.0;
  }
}
CUSCI_HD cusci_c128 cusci__rinit_C(int op)
{
  cusci_c128 r;
  r.re = (op == CUSCI__R_PROD || op == CUSCI__R_ALL) ? 1.0 : 0.0;
  r.im = 0.0;
  return r;
}

/* a (op) b for each accumulator type. */
CUSCI_HD int64_t cusci__rstep_I(int op, int64_t a, int64_t b)
{
  switch (op) {
  case CUSCI__R_SUM: case CUSCI__R_NANSUM: return (int64_t)((uint64_t)a + (uint64_t)b);
  case CUSCI__R_PROD: return (int64_t)((uint64_t)a * (uint64_t)b);
  case CUSCI__R_MAX: case CUSCI__R_NANMAX: return a >= b ? a : b;
  case CUSCI__R_MIN: case CUSCI__R_NANMIN: return a <= b ? a : b;
  case CUSCI__R_ANY: return (a != 0) | (b != 0);
  default: return (a != 0) & (b != 0);
  }
}
CUSCI_HD uint64_t cusci__rstep_U(int op, uint64_t a, uint64_t b)
{
  switch (op) {
  case CUSCI__R_SUM: case CUSCI__R_NANSUM: return a + b;
  case CUSCI__R_PROD: return a * b;
  case CUSCI__R_MAX: case CUSCI__R_NANMAX: return a >= b ? a : b;
  case CUSCI__R_MIN: case CUSCI__R_NANMIN: return a <= b ? a : b;
  case CUSCI__R_ANY: return (a != 0) | (b != 0);
  default: return (a != 0) & (b != 0);
  }
}
CUSCI_HD double cusci__rstep_F(int op, double a, double b)
{
  switch (op) {
  case CUSCI__R_SUM: return CUSCI_DADD(a, b);
  case CUSCI__R_NANSUM: return CUSCI_DADD(a != a ? 0.0 : a, b != b ? 0.0 : b);
  case CUSCI__R_PROD: return CUSCI_DMUL(a, b);
  /* Between -0.0 and +0.0, max keeps +0.0 and min keeps -0.0 whatever
   * their order (IEEE 754-2019 maximum and minimum), so that every
   * grouping of the steps, the host's loop and the GPU's tree, gives one
   * result. NumPy's own choice depends on the order and on its vector
   * width; this rule agrees with np.max([-0.0, 0.0]) == 0.0. */
  case CUSCI__R_MAX: return (a > b || a != a || (a == b && !signbit(a))) ? a : b;
  case CUSCI__R_MIN: return (a < b || a != a || (a == b && signbit(a))) ? a : b;
  case CUSCI__R_NANMAX: return (a > b || b != b || (a == b && !signbit(a))) ? a : b;
  case CUSCI__R_NANMIN: return (a < b || b != b || (a == b && signbit(a))) ? a : b;
  case CUSCI__R_ANY: return (a != 0 || b != 0) ? 1.0 : 0.0;
  default: return (a != 0 && b != 0) ? 1.0 : 0.0;
  }
}
CUSCI_HD cusci_c128 cusci__rstep_C(int op, cusci_c128 a, cusci_c128 b)
{
  cusci_c128 r;
  r.im = 0.0;
  switch (op) {
  case CUSCI__R_NANSUM:
    if (a.re != a.re || a.im != a.im)
      a.re = a.im = 0.0;
    if (b.re != b.re || b.im != b.im)
      b.re = b.im = 0.0;
    /* fall through */
  case CUSCI__R_SUM:
    r.re = CUSCI_DADD(a.re, b.re);
    r.im = CUSCI_DADD(a.im, b.im);
    return r;
  case CUSCI__R_PROD:
    r.re = CUSCI_DADD(CUSCI_DMUL(a.re, b.re), -CUSCI_DMUL(a.im, b.im));
    r.im = CUSCI_DADD(CUSCI_DMUL(a.re, b.im), CUSCI_DMUL(a.im, b.re));
    return r;
  case CUSCI__R_ANY:
    r.re = (a.re != 0 || a.im != 0 || b.re != 0 || b.im != 0) ? 1.0 : 0.0;
    return r;
  default: /* ALL; complex min and max are refused by libcore */
    r.re = ((a.re != 0 || a.im != 0) && (b.re != 0 || b.im != 0)) ? 1.0 : 0.0;
    return r;
  }
}

/* The accumulator kind of each dtype, as convert.h loads it. */
#define CUSCI__RTYPES(X)                                                                            \
  X(BOOL, uint8_t, I, int64_t) X(INT8, int8_t, I, int64_t) X(INT16, int16_t, I, int64_t)            \
  X(INT32, int32_t, I, int64_t) X(INT64, int64_t, I, int64_t) X(UINT8, uint8_t, U, uint64_t)        \
  X(UINT16, uint16_t, U, uint64_t) X(UINT32, uint32_t, U, uint64_t) X(UINT64, uint64_t, U, uint64_t) \
  X(FLOAT16, cusci_f16, F, double) X(FLOAT32, float, F, double) X(FLOAT64, double, F, double)      \
  X(COMPLEX64, cusci_c64, C, cusci_c128) X(COMPLEX128, cusci_c128, C, cusci_c128)

#endif
