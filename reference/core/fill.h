/*
 * reference/core/fill.h: the values of arange and linspace, element by
 * element, for the host and the GPU alike (C11 and CUDA C++).
 */
#ifndef CUSCI_REFERENCE_FILL_H
#define CUSCI_REFERENCE_FILL_H

#include <math.h>

#include <cusci/kit/convert.h>

/*
 * numpy.arange fills as NumPy's per-dtype `fill` functions do: the first two
 * elements are start and start + step converted to the dtype, the rest
 * v0 + i * (v1 - v0), computed in the dtype's own arithmetic (float for
 * float32 and float16, double for float64, wrapping int64 for integers).
 */
typedef struct cusci__arange_args {
  double d0, d1, dd; /* float64 path */
  float f0, f1, fd;  /* float32 / float16 path */
  int64_t i0, i1, id; /* integer path */
} cusci__arange_args;

CUSCI_HD double cusci__arange_f64(int64_t i, const cusci__arange_args *a)
{
  return i == 0 ? a->d0 : i == 1 ? a->d1 : CUSCI_DADD(a->d0, CUSCI_DMUL((double)i, a->dd));
}

CUSCI_HD float cusci__arange_f32(int64_t i, const cusci__arange_args *a)
{
  return i == 0 ? a->f0 : i == 1 ? a->f1 : CUSCI_FADD(a->f0, CUSCI_FMUL((float)i, a->fd));
}

CUSCI_HD int64_t cusci__arange_i64(int64_t i, const cusci__arange_args *a)
{
  return (int64_t)((uint64_t)a->i0 + (uint64_t)i * (uint64_t)a->id);
}

/*
 * numpy.linspace: y = i * step + start in float64, with step = delta / div;
 * where step underflows to 0 with delta nonzero, y = (i / div) * delta +
 * start. With endpoint the last element is stop itself. Integer dtypes take
 * floor(y), as NumPy 2 does.
 */
typedef struct cusci__linspace_args {
  double start, step, delta, div, stop;
  int scaled;   /* step underflowed: use (i / div) * delta */
  int last_is_stop;
  int64_t n;
} cusci__linspace_args;

CUSCI_HD double cusci__linspace_value(int64_t i, const cusci__linspace_args *a)
{
  if (a->last_is_stop && i == a->n - 1)
    return a->stop;
  double y = a->scaled ? CUSCI_DMUL(CUSCI_DDIV((double)i, a->div), a->delta) : CUSCI_DMUL((double)i, a->step);
  return CUSCI_DADD(y, a->start);
}

/* One arange element of each dtype, by the path its dtype's fill takes. */
#define CUSCI__ARANGE_I(D, T) \
  CUSCI_HD T cusci__arange_##D(int64_t i, const cusci__arange_args *a) { return cusci_to_##D##_from_I(cusci__arange_i64(i, a)); }
#define CUSCI__ARANGE_F(D, T, PATH) \
  CUSCI_HD T cusci__arange_##D(int64_t i, const cusci__arange_args *a) { return cusci_to_##D##_from_F((double)cusci__arange_##PATH(i, a)); }
CUSCI__ARANGE_I(BOOL, uint8_t)
CUSCI__ARANGE_I(INT8, int8_t)
CUSCI__ARANGE_I(INT16, int16_t)
CUSCI__ARANGE_I(INT32, int32_t)
CUSCI__ARANGE_I(INT64, int64_t)
CUSCI__ARANGE_I(UINT8, uint8_t)
CUSCI__ARANGE_I(UINT16, uint16_t)
CUSCI__ARANGE_I(UINT32, uint32_t)
CUSCI__ARANGE_I(UINT64, uint64_t)
CUSCI__ARANGE_F(FLOAT16, cusci_f16, f32)
CUSCI__ARANGE_F(FLOAT32, float, f32)
CUSCI__ARANGE_F(FLOAT64, double, f64)
CUSCI__ARANGE_F(COMPLEX64, cusci_c64, f32)
CUSCI__ARANGE_F(COMPLEX128, cusci_c128, f64)

/* One linspace element of each dtype: integers floor, bool is y != 0. */
#define CUSCI__LINSPACE(D, T, K, unused) \
  CUSCI_HD T cusci__linspace_##D(int64_t i, const cusci__linspace_args *a) \
  { \
    double y = cusci__linspace_value(i, a); \
    return cusci_to_##D##_from_F((K) ? floor(y) : y); \
  }
#define CUSCI__IS_INT_I 1
#define CUSCI__IS_INT_U 1
#define CUSCI__IS_INT_F 0
#define CUSCI__IS_INT_C 0
#define CUSCI__LINSPACE_ROW(D, T, K, unused) CUSCI__LINSPACE(D, T, CUSCI__IS_INT_##K && !CUSCI__IS_BOOL_##D, unused)
#define CUSCI__IS_BOOL_BOOL 1
#define CUSCI__IS_BOOL_INT8 0
#define CUSCI__IS_BOOL_INT16 0
#define CUSCI__IS_BOOL_INT32 0
#define CUSCI__IS_BOOL_INT64 0
#define CUSCI__IS_BOOL_UINT8 0
#define CUSCI__IS_BOOL_UINT16 0
#define CUSCI__IS_BOOL_UINT32 0
#define CUSCI__IS_BOOL_UINT64 0
#define CUSCI__IS_BOOL_FLOAT16 0
#define CUSCI__IS_BOOL_FLOAT32 0
#define CUSCI__IS_BOOL_FLOAT64 0
#define CUSCI__IS_BOOL_COMPLEX64 0
#define CUSCI__IS_BOOL_COMPLEX128 0
CUSCI_TYPES_A(CUSCI__LINSPACE_ROW, 0)

#endif
