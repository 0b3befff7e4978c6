/*
 * reference/core/sort_ops.h: NumPy's sort order, quantile positions and
 * interpolation, for the host and the kernels (C11 and CUDA, like
 * convert.h), so that both backends order, pick and round alike.
 *
 * Order. NumPy sorts real numbers by value with every NaN after +inf, and
 * -0.0 equal to +0.0 (a stable sort keeps their input order). cusci maps
 * each real element to an unsigned key of its width whose integer order is
 * that order: integers with the sign bit flipped; floats with -0.0 made
 * +0.0, every NaN made all ones, and the usual sign-magnitude flip. Equal
 * keys are exactly NumPy's equal elements (NaNs all equal, as
 * np.unique(equal_nan=True) needs). Complex numbers order as NumPy's:
 * lexicographic in (real, imag), then R + nanj, then nan + Rj, then
 * nan + nanj (numpy/_core/src/npysort: the CLT ordering).
 *
 * Quantiles follow numpy.quantile (numpy/lib/_function_base_impl.py):
 * a virtual index per method (Hyndman and Fan 1996), its neighbours
 * clamped to the sample, and NumPy's two-sided linear interpolation
 * a + (b - a) t for t < 0.5, b - (b - a)(1 - t) otherwise, each operation
 * rounded in NumPy's computing dtype.
 */
#ifndef CUSCI_REFERENCE_SORT_OPS_H
#define CUSCI_REFERENCE_SORT_OPS_H

#include <math.h>
#include <stdint.h>

#include <cusci/kit/convert.h>

/* --------------------------------------------------------------- keys */

CUSCI_HD uint8_t cusci__key_u8(uint8_t x) { return x; }
CUSCI_HD uint16_t cusci__key_u16(uint16_t x) { return x; }
CUSCI_HD uint32_t cusci__key_u32(uint32_t x) { return x; }
CUSCI_HD uint64_t cusci__key_u64(uint64_t x) { return x; }
CUSCI_HD uint8_t cusci__key_i8(int8_t x) { return (uint8_t)((uint8_t)x ^ 0x80u); }
CUSCI_HD uint16_t cusci__key_i16(int16_t x) { return (uint16_t)((uint16_t)x ^ 0x8000u); }
CUSCI_HD uint32_t cusci__key_i32(int32_t x) { return (uint32_t)x ^ 0x80000000u; }
CUSCI_HD uint64_t cusci__key_i64(int64_t x) { return (uint64_t)x ^ 0x8000000000000000ull; }
CUSCI_HD uint16_t cusci__key_f16(cusci_f16 b)
{
  if ((b & 0x7c00u) == 0x7c00u && (b & 0x03ffu))
    return 0xffffu; /* NaN */
  if ((b & 0x7fffu) == 0)
    b = 0; /* -0.0 */
  return (b & 0x8000u) ? (uint16_t)~b : (uint16_t)(b | 0x8000u);
}
CUSCI_HD uint32_t cusci__key_f32(float f)
{
  uint32_t b;
  memcpy(&b, &f, 4);
  if (f != f)
    return 0xffffffffu;
  if (f == 0.0f)
    b = 0;
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
CUSCI_HD uint64_t cusci__key_f64(double f)
{
  uint64_t b;
  memcpy(&b, &f, 8);
  if (f != f)
    return 0xffffffffffffffffull;
  if (f == 0.0)
    b = 0;
  return (b >> 63) ? ~b : (b | 0x8000000000000000ull);
}

/*
 * The value order of cusci_sort (numpy.sort's default kind, which promises
 * no order among equal elements): a one-to-one map of a float's bits onto
 * an unsigned key, so that equal keys are identical elements and a sort of
 * the keys alone gives every element back, sign and NaN payload included.
 * The sign-magnitude flip above puts -0.0 just below +0.0 and the NaNs
 * with the sign bit set below -inf; subtracting their count (2^p - 1 for p
 * mantissa bits, modulo 2^w) moves those NaNs to the top. The order is:
 * -inf ... -0.0, +0.0 ... +inf, then the NaNs with the sign bit clear by
 * increasing payload, then those with it set by decreasing payload.
 * Integers and bools keep the keys above, which are one to one already.
 */
CUSCI_HD uint16_t cusci__vkey_f16(cusci_f16 b)
{
  uint16_t k = (b & 0x8000u) ? (uint16_t)~b : (uint16_t)(b | 0x8000u);
  return (uint16_t)(k - 0x3ffu);
}
CUSCI_HD cusci_f16 cusci__vval_f16(uint16_t k)
{
  k = (uint16_t)(k + 0x3ffu);
  return (k & 0x8000u) ? (cusci_f16)(k & 0x7fffu) : (cusci_f16)~k;
}
CUSCI_HD uint32_t cusci__vkey_f32(float f)
{
  uint32_t b;
  memcpy(&b, &f, 4);
  uint32_t k = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  return k - 0x7fffffu;
}
CUSCI_HD float cusci__vval_f32(uint32_t k)
{
  k += 0x7fffffu;
  uint32_t b = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
  float f;
  memcpy(&f, &b, 4);
  return f;
}
CUSCI_HD uint64_t cusci__vkey_f64(double f)
{
  uint64_t b;
  memcpy(&b, &f, 8);
  uint64_t k = (b >> 63) ? ~b : (b | 0x8000000000000000ull);
  return k - 0xfffffffffffffull;
}
CUSCI_HD double cusci__vval_f64(uint64_t k)
{
  k += 0xfffffffffffffull;
  uint64_t b = (k >> 63) ? (k & 0x7fffffffffffffffull) : ~k;
  double f;
  memcpy(&f, &b, 8);
  return f;
}

/*
 * The real dtypes with their key: X(NAME, C type, key type, key function,
 * kind of the value: I, U or F as convert.h loads it).
 */
#define CUSCI__SORT_REAL_TYPES(X)                                                              \
  X(BOOL, uint8_t, uint8_t, cusci__key_u8, I) X(INT8, int8_t, uint8_t, cusci__key_i8, I)         \
  X(INT16, int16_t, uint16_t, cusci__key_i16, I) X(INT32, int32_t, uint32_t, cusci__key_i32, I)  \
  X(INT64, int64_t, uint64_t, cusci__key_i64, I) X(UINT8, uint8_t, uint8_t, cusci__key_u8, U)    \
  X(UINT16, uint16_t, uint16_t, cusci__key_u16, U) X(UINT32, uint32_t, uint32_t, cusci__key_u32, U) \
  X(UINT64, uint64_t, uint64_t, cusci__key_u64, U) X(FLOAT16, cusci_f16, uint16_t, cusci__key_f16, F) \
  X(FLOAT32, float, uint32_t, cusci__key_f32, F) X(FLOAT64, double, uint64_t, cusci__key_f64, F)
#define CUSCI__SORT_COMPLEX_TYPES(X) \
  X(COMPLEX64, cusci_c64, float) X(COMPLEX128, cusci_c128, double)

/* NumPy's complex "less than": a < b in the order described above. */
CUSCI_HD int cusci__complex_less(double ar, double ai, double br, double bi)
{
  if (ar < br)
    return ai == ai || bi != bi;
  if (ar > br)
    return bi != bi && ai == ai;
  if (ar == br || (ar != ar && br != br))
    return ai < bi || (bi != bi && ai == ai);
  return br != br;
}

/* Equality of neighbours for np.unique: NaNs (a NaN part, for complex)
 * are equal to each other when equal_nan. */
CUSCI_HD int cusci__complex_same(double ar, double ai, double br, double bi, int equal_nan)
{
  if (ar == br && ai == bi)
    return 1;
  int an = ar != ar || ai != ai, bn = br != br || bi != bi;
  return equal_nan && an && bn;
}

/* ----------------------------------------------------------- quantiles */

/* Method numbers: cusci_quantile_method's values. */
enum {
  CUSCI__Q_LINEAR,
  CUSCI__Q_LOWER,
  CUSCI__Q_HIGHER,
  CUSCI__Q_NEAREST,
  CUSCI__Q_MIDPOINT,
  CUSCI__Q_INVERTED_CDF,
  CUSCI__Q_AVERAGED_INVERTED_CDF,
  CUSCI__Q_CLOSEST_OBSERVATION,
  CUSCI__Q_INTERPOLATED_INVERTED_CDF,
  CUSCI__Q_HAZEN,
  CUSCI__Q_WEIBULL,
  CUSCI__Q_MEDIAN_UNBIASED,
  CUSCI__Q_NORMAL_UNBIASED,
  CUSCI__Q_NMETHODS,
  CUSCI__Q_MEDIAN = CUSCI__Q_NMETHODS /* numpy.median: the mean of the middle one or two */
};

/* True for the methods that pick an element (no interpolation): their
 * result keeps the input's dtype. */
CUSCI_HD int cusci__q_discrete(int method)
{
  return method == CUSCI__Q_LOWER || method == CUSCI__Q_HIGHER || method == CUSCI__Q_NEAREST ||
         method == CUSCI__Q_INVERTED_CDF || method == CUSCI__Q_CLOSEST_OBSERVATION;
}

/* n q + alpha + q (1 - alpha - beta) - 1, as NumPy's _compute_virtual_index. */
CUSCI_HD double cusci__q_virtual(double n, double q, double alpha, double beta)
{
  double t = CUSCI_DMUL(q, CUSCI_DADD(CUSCI_DADD(1.0, -alpha), -beta));
  return CUSCI_DADD(CUSCI_DADD(CUSCI_DMUL(n, q), CUSCI_DADD(alpha, t)), -1.0);
}

/* A discrete method's element: floor or ceil by NumPy's rule, clamped. */
CUSCI_HD int64_t cusci__q_boundary(double index, int closest)
{
  double prev = floor(index), gamma = CUSCI_DADD(index, -prev);
  int take_prev = gamma == 0 && (!closest || fmod(prev, 2.0) == 1.0 || fmod(prev, 2.0) == -1.0);
  int64_t r = (int64_t)(take_prev ? prev : prev + 1);
  return r < 0 ? 0 : r;
}

/*
 * Where quantile q of n sorted elements lies: *lo and *hi (equal for the
 * discrete methods) and the weight *gamma of *hi, as NumPy computes them.
 */
CUSCI_HD void cusci__q_position(int method, int64_t n, double q, int64_t *lo, int64_t *hi, double *gamma)
{
  double dn = (double)n, v;
  *gamma = 0;
  switch (method) {
  case CUSCI__Q_LOWER: *lo = *hi = (int64_t)floor(CUSCI_DMUL(dn - 1, q)); return;
  case CUSCI__Q_HIGHER: *lo = *hi = (int64_t)ceil(CUSCI_DMUL(dn - 1, q)); return;
  case CUSCI__Q_NEAREST: *lo = *hi = (int64_t)rint(CUSCI_DMUL(dn - 1, q)); return;
  case CUSCI__Q_INVERTED_CDF: *lo = *hi = cusci__q_boundary(CUSCI_DADD(CUSCI_DMUL(dn, q), -1.0), 0); break;
  case CUSCI__Q_CLOSEST_OBSERVATION:
    *lo = *hi = cusci__q_boundary(CUSCI_DADD(CUSCI_DADD(CUSCI_DMUL(dn, q), -1.0), -0.5), 1);
    break;
  case CUSCI__Q_MIDPOINT: {
    double x = CUSCI_DMUL(dn - 1, q);
    v = CUSCI_DMUL(0.5, floor(x) + ceil(x));
    break;
  }
  case CUSCI__Q_AVERAGED_INVERTED_CDF: v = CUSCI_DADD(CUSCI_DMUL(dn, q), -1.0); break;
  case CUSCI__Q_INTERPOLATED_INVERTED_CDF: v = cusci__q_virtual(dn, q, 0, 1); break;
  case CUSCI__Q_HAZEN: v = cusci__q_virtual(dn, q, 0.5, 0.5); break;
  case CUSCI__Q_WEIBULL: v = cusci__q_virtual(dn, q, 0, 0); break;
  case CUSCI__Q_MEDIAN_UNBIASED: v = cusci__q_virtual(dn, q, 1 / 3.0, 1 / 3.0); break;
  case CUSCI__Q_NORMAL_UNBIASED: v = cusci__q_virtual(dn, q, 3 / 8.0, 3 / 8.0); break;
  default: v = CUSCI_DMUL(dn - 1, q); break; /* linear */
  }
  if (cusci__q_discrete(method)) {
    if (*lo > n - 1)
      *lo = *hi = n - 1;
    return;
  }
  double prev = floor(v), g = CUSCI_DADD(v, -prev);
  if (method == CUSCI__Q_AVERAGED_INVERTED_CDF)
    g = g == 0 ? 0.5 : 1.0;
  else if (method == CUSCI__Q_MIDPOINT)
    g = fmod(v, 1.0) == 0 ? 0.0 : 0.5;
  *gamma = g;
  if (v >= dn - 1) {
    *lo = *hi = n - 1;
  } else if (v < 0) {
    *lo = *hi = 0;
  } else {
    *lo = (int64_t)prev;
    *hi = *lo + 1;
  }
}

/* Round x to the computing dtype: 0 double, 1 float32, 2 float16 (which
 * NumPy computes in float32 and rounds to half). */
CUSCI_HD double cusci__q_round(int ct, double x)
{
  if (ct == 1)
    return (double)(float)x;
  if (ct == 2)
    return cusci_half_to_double(cusci_double_to_half((double)(float)x));
  return x;
}

/*
 * NumPy's _lerp(a, b, t) with diff = b - a already rounded in the data's
 * dtype, every operation rounded to the computing dtype ct. t is rounded
 * to ct first, as a weak Python float is.
 */
CUSCI_HD double cusci__q_lerp(int ct, double a, double b, double diff, double t)
{
  if (t >= 0.5) {
    double w = cusci__q_round(ct, CUSCI_DADD(1.0, -t));
    return cusci__q_round(ct, CUSCI_DADD(b, -cusci__q_round(ct, CUSCI_DMUL(diff, w))));
  }
  double w = cusci__q_round(ct, t);
  return cusci__q_round(ct, CUSCI_DADD(a, cusci__q_round(ct, CUSCI_DMUL(diff, w))));
}

/*
 * numpy.median of the middle elements a and b (equal for an odd count):
 * NumPy takes their mean, (0 + a + b) / 2 summed in double for integers and
 * in float32 for float16 and float32 (ct 2 and 1), then rounded to the
 * result dtype.
 */
CUSCI_HD double cusci__q_median(int ct, double a, double b, int odd)
{
  /* NumPy's sum starts from +0.0, so a zero median is +0.0. */
  if (odd)
    return CUSCI_DADD(0.0, a);
  double s = CUSCI_DADD(CUSCI_DADD(0.0, a), b);
  if (ct)
    s = (double)(float)s;
  s = CUSCI_DMUL(s, 0.5);
  return ct ? cusci__q_round(ct, s) : s;
}

/* ----------------------------------------------------------- histogram */

/*
 * The bin of x among nb bins with non-decreasing edges e[0..nb] (loaded as
 * double): the last i with e[i] <= x, the last bin closed on the right;
 * -1 when x lies outside [e[0], e[nb]] or is NaN.
 */
CUSCI_HD int64_t cusci__hist_bin(const double *e, int64_t nb, double x)
{
  if (!(x >= e[0] && x <= e[nb]))
    return -1;
  int64_t lo = 0, hi = nb + 1; /* first index with e[i] > x lies in (lo, hi] */
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if (e[mid] <= x)
      lo = mid;
    else
      hi = mid;
  }
  return lo < nb ? lo : nb - 1;
}

#endif
