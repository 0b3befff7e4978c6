/*
 * cusci/kit/convert.h: element conversions between the 14 dtypes. Part of
 * the module kit (docs/modules.md), installed with the core.
 *
 * This header compiles as C11 for the host backend and as CUDA C++ for the
 * kernels, so that the host and the GPU apply the same arithmetic to every
 * element and agree bit for bit.
 *
 * A conversion is a load then a store. A load turns a source element into
 * the widest value of its kind: I (int64_t: bool and signed integers),
 * U (uint64_t: unsigned integers), F (double: float16, float32, float64, all
 * exact in double) or C (a pair of doubles). A store turns one of those into
 * the destination type with one rounding, so no value is rounded twice:
 * int64 to float32 rounds once, from the integer itself.
 *
 * NumPy's rules: integer to narrower integer wraps modulo 2^bits; float to
 * integer truncates toward zero; complex to real keeps the real part; to
 * bool is x != 0; float16 rounds to nearest, ties to even. Where NumPy's
 * result is undefined (NaN or an out-of-range float to an integer) cusci
 * maps NaN to 0 and saturates to the integer type's range.
 */
#ifndef CUSCI_KIT_CONVERT_H
#define CUSCI_KIT_CONVERT_H

#include <stdint.h>
#include <string.h>

#include <cusci/kit/dtypes.h>


/*
 * Arithmetic rounded once per operation on both sides: the device
 * intrinsics keep nvcc from fusing a multiply and an add into one FMA,
 * which would round differently from the host.
 */
#ifdef __CUDA_ARCH__
#define CUSCI_DADD(a, b) __dadd_rn((a), (b))
#define CUSCI_DMUL(a, b) __dmul_rn((a), (b))
#define CUSCI_DDIV(a, b) __ddiv_rn((a), (b))
#define CUSCI_FADD(a, b) __fadd_rn((a), (b))
#define CUSCI_FMUL(a, b) __fmul_rn((a), (b))
#else
#define CUSCI_DADD(a, b) ((a) + (b))
#define CUSCI_DMUL(a, b) ((a) * (b))
#define CUSCI_DDIV(a, b) ((a) / (b))
#define CUSCI_FADD(a, b) ((a) + (b))
#define CUSCI_FMUL(a, b) ((a) * (b))
#endif


/*
 * The dtypes as the conversion code sees them: X(NAME, C type, kind).
 * Two identical tables, because a macro cannot expand itself and the
 * 14 x 14 pairs are made by nesting one table in the other.
 */
#define CUSCI_TYPES_A(X, arg)                                                \
  X(BOOL, uint8_t, I, arg) X(INT8, int8_t, I, arg) X(INT16, int16_t, I, arg)  \
  X(INT32, int32_t, I, arg) X(INT64, int64_t, I, arg)                         \
  X(UINT8, uint8_t, U, arg) X(UINT16, uint16_t, U, arg)                       \
  X(UINT32, uint32_t, U, arg) X(UINT64, uint64_t, U, arg)                     \
  X(FLOAT16, cusci_f16, F, arg) X(FLOAT32, float, F, arg)                    \
  X(FLOAT64, double, F, arg) X(COMPLEX64, cusci_c64, C, arg)                 \
  X(COMPLEX128, cusci_c128, C, arg)
#define CUSCI_TYPES_B(X, arg)                                                \
  X(BOOL, uint8_t, I, arg) X(INT8, int8_t, I, arg) X(INT16, int16_t, I, arg)  \
  X(INT32, int32_t, I, arg) X(INT64, int64_t, I, arg)                         \
  X(UINT8, uint8_t, U, arg) X(UINT16, uint16_t, U, arg)                       \
  X(UINT32, uint32_t, U, arg) X(UINT64, uint64_t, U, arg)                     \
  X(FLOAT16, cusci_f16, F, arg) X(FLOAT32, float, F, arg)                    \
  X(FLOAT64, double, F, arg) X(COMPLEX64, cusci_c64, C, arg)                 \
  X(COMPLEX128, cusci_c128, C, arg)

/* ------------------------------------------------------------ float16 */

CUSCI_HD uint64_t cusci_double_bits(double d)
{
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}

CUSCI_HD double cusci_bits_double(uint64_t b)
{
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

CUSCI_HD uint32_t cusci_float_bits(float f)
{
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

CUSCI_HD float cusci_bits_float(uint32_t b)
{
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

/* Round the top bits of m, shifted right by `shift`, to nearest even. */
CUSCI_HD uint64_t cusci_round_shift(uint64_t m, int shift)
{
  uint64_t q = m >> shift;
  uint64_t rem = m & ((UINT64_C(1) << shift) - 1);
  uint64_t half = UINT64_C(1) << (shift - 1);
  if (rem > half || (rem == half && (q & 1)))
    q++;
  return q;
}

/*
 * double to IEEE binary16, round to nearest even, directly from the
 * double's bits (never through float, which could round twice).
 */
CUSCI_HD cusci_f16 cusci_double_to_half(double d)
{
  uint64_t b = cusci_double_bits(d);
  uint16_t sign = (uint16_t)((b >> 48) & 0x8000u);
  int exp = (int)((b >> 52) & 0x7ff);
  uint64_t mant = b & ((UINT64_C(1) << 52) - 1);
  if (exp == 0x7ff) {
    if (mant == 0)
      return (cusci_f16)(sign | 0x7c00u);
    uint16_t m = (uint16_t)(mant >> 42);
    return (cusci_f16)(sign | 0x7c00u | (m ? m : 0x200u)); /* stays NaN */
  }
  int e = exp - 1023;
  if (e > 15)
    return (cusci_f16)(sign | 0x7c00u);
  uint64_t m = mant | (UINT64_C(1) << 52);
  if (e >= -14) {
    uint64_t hm = cusci_round_shift(m, 42); /* 11 bits with the implicit one */
    int he = e + 15;
    if (hm == 2048) {
      hm = 1024;
      he++;
    }
    if (he >= 31)
      return (cusci_f16)(sign | 0x7c00u);
    return (cusci_f16)(sign | (uint16_t)(he << 10) | (uint16_t)(hm & 0x3ffu));
  }
  if (e < -25)
    return (cusci_f16)sign;
  /* Subnormal: the unit is 2^-24; a carry into 0x400 is the smallest normal. */
  return (cusci_f16)(sign | (uint16_t)cusci_round_shift(m, 28 - e));
}

CUSCI_HD double cusci_half_to_double(cusci_f16 h)
{
  uint64_t sign = (uint64_t)(h & 0x8000u) << 48;
  int exp = (h >> 10) & 0x1f;
  uint64_t m = h & 0x3ffu;
  if (exp == 0) {
    double v = (double)m * 5.9604644775390625e-08; /* m * 2^-24, exact */
    return sign ? -v : v;
  }
  if (exp == 31)
    return cusci_bits_double(sign | (UINT64_C(0x7ff) << 52) | (m << 42));
  return cusci_bits_double(sign | ((uint64_t)(exp - 15 + 1023) << 52) | (m << 42));
}

/* -------------------------------------------------------------- loads */

#define CUSCI_LOAD_I(NAME, T) \
  CUSCI_HD int64_t cusci_load_##NAME(T x) { return (int64_t)x; }
#define CUSCI_LOAD_U(NAME, T) \
  CUSCI_HD uint64_t cusci_load_##NAME(T x) { return (uint64_t)x; }
CUSCI_HD int64_t cusci_load_BOOL(uint8_t x) { return x != 0; }
CUSCI_LOAD_I(INT8, int8_t)
CUSCI_LOAD_I(INT16, int16_t)
CUSCI_LOAD_I(INT32, int32_t)
CUSCI_LOAD_I(INT64, int64_t)
CUSCI_LOAD_U(UINT8, uint8_t)
CUSCI_LOAD_U(UINT16, uint16_t)
CUSCI_LOAD_U(UINT32, uint32_t)
CUSCI_LOAD_U(UINT64, uint64_t)
CUSCI_HD double cusci_load_FLOAT16(cusci_f16 x) { return cusci_half_to_double(x); }
CUSCI_HD double cusci_load_FLOAT32(float x) { return (double)x; }
CUSCI_HD double cusci_load_FLOAT64(double x) { return x; }
CUSCI_HD cusci_c128 cusci_load_COMPLEX64(cusci_c64 x)
{
  cusci_c128 r;
  r.re = x.re;
  r.im = x.im;
  return r;
}
CUSCI_HD cusci_c128 cusci_load_COMPLEX128(cusci_c128 x) { return x; }

/* ------------------------------------------------------------- stores */

/* A float to an integer type: truncate; NaN to 0; saturate out of range. */
#define CUSCI_F2I(T, LO, HI)         \
  if (d != d)                         \
    return 0;                         \
  if (d <= (double)(LO))              \
    return (T)(LO);                   \
  if (d >= (double)(HI))              \
    return (T)(HI);                   \
  return (T)d;

#define CUSCI_STORE_INT(NAME, T, LO, HI)                                         \
  CUSCI_HD T cusci_to_##NAME##_from_I(int64_t x) { return (T)x; }                \
  CUSCI_HD T cusci_to_##NAME##_from_U(uint64_t x) { return (T)x; }               \
  CUSCI_HD T cusci_to_##NAME##_from_F(double d) { CUSCI_F2I(T, LO, HI) }        \
  CUSCI_HD T cusci_to_##NAME##_from_C(cusci_c128 c) { return cusci_to_##NAME##_from_F(c.re); }

CUSCI_HD uint8_t cusci_to_BOOL_from_I(int64_t x) { return x != 0; }
CUSCI_HD uint8_t cusci_to_BOOL_from_U(uint64_t x) { return x != 0; }
CUSCI_HD uint8_t cusci_to_BOOL_from_F(double d) { return d != 0; }
CUSCI_HD uint8_t cusci_to_BOOL_from_C(cusci_c128 c) { return c.re != 0 || c.im != 0; }
CUSCI_STORE_INT(INT8, int8_t, INT8_MIN, INT8_MAX)
CUSCI_STORE_INT(INT16, int16_t, INT16_MIN, INT16_MAX)
CUSCI_STORE_INT(INT32, int32_t, INT32_MIN, INT32_MAX)
CUSCI_STORE_INT(INT64, int64_t, INT64_MIN, INT64_MAX)
CUSCI_STORE_INT(UINT8, uint8_t, 0, UINT8_MAX)
CUSCI_STORE_INT(UINT16, uint16_t, 0, UINT16_MAX)
CUSCI_STORE_INT(UINT32, uint32_t, 0, UINT32_MAX)
CUSCI_STORE_INT(UINT64, uint64_t, 0, UINT64_MAX)

/* Integers reach float16 through float: exact below 2^24, and anything
 * larger is infinite in float16 either way. */
CUSCI_HD cusci_f16 cusci_to_FLOAT16_from_I(int64_t x) { return cusci_double_to_half((double)(float)x); }
CUSCI_HD cusci_f16 cusci_to_FLOAT16_from_U(uint64_t x) { return cusci_double_to_half((double)(float)x); }
CUSCI_HD cusci_f16 cusci_to_FLOAT16_from_F(double d) { return cusci_double_to_half(d); }
CUSCI_HD cusci_f16 cusci_to_FLOAT16_from_C(cusci_c128 c) { return cusci_double_to_half(c.re); }

#define CUSCI_STORE_REAL(NAME, T)                                               \
  CUSCI_HD T cusci_to_##NAME##_from_I(int64_t x) { return (T)x; }               \
  CUSCI_HD T cusci_to_##NAME##_from_U(uint64_t x) { return (T)x; }              \
  CUSCI_HD T cusci_to_##NAME##_from_F(double d) { return (T)d; }                \
  CUSCI_HD T cusci_to_##NAME##_from_C(cusci_c128 c) { return (T)c.re; }
CUSCI_STORE_REAL(FLOAT32, float)
CUSCI_STORE_REAL(FLOAT64, double)

#define CUSCI_STORE_COMPLEX(NAME, T, R)                                         \
  CUSCI_HD T cusci_to_##NAME##_from_I(int64_t x) { T r; r.re = (R)x; r.im = 0; return r; }  \
  CUSCI_HD T cusci_to_##NAME##_from_U(uint64_t x) { T r; r.re = (R)x; r.im = 0; return r; } \
  CUSCI_HD T cusci_to_##NAME##_from_F(double d) { T r; r.re = (R)d; r.im = 0; return r; }   \
  CUSCI_HD T cusci_to_##NAME##_from_C(cusci_c128 c) { T r; r.re = (R)c.re; r.im = (R)c.im; return r; }
CUSCI_STORE_COMPLEX(COMPLEX64, cusci_c64, float)
CUSCI_STORE_COMPLEX(COMPLEX128, cusci_c128, double)

/* Convert one element of dtype S (kind SK) to dtype D. */
#define CUSCI_CONVERT(S, SK, D, x) cusci_to_##D##_from_##SK(cusci_load_##S(x))

#endif /* CUSCI_REFERENCE_CONVERT_H */
