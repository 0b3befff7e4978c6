/*
 * reference/core/ufunc_ops.h: one element of every ufunc, for every dtype
 * it has a loop for.
 *
 * Like convert.h, this header compiles as C11 for the host backend and as
 * CUDA C++ for the kernels, so both apply the same arithmetic to each
 * element: cusci__e_<op>_<DTYPE>(a, b) or cusci__e_<op>_<DTYPE>(x). The
 * tables below say which (op, dtype) pairs exist; libcore picks the loop
 * dtype, reference/core/ufunc.c and kernels/core/ufunc*.cu instantiate the
 * pairs.
 *
 * Definitions follow NumPy's loops (numpy/_core/src/umath/loops*.c.src and
 * npy_math): Python's sign conventions for floor_divide and mod, NaN-
 * propagating maximum/minimum and NaN-ignoring fmax/fmin, lexicographic
 * complex ordering, Smith's complex division. float16 computes in float32
 * and rounds once to float16, as NumPy's half loops. Complex products are
 * written with the no-FMA helpers of convert.h so that nvcc cannot fuse them.
 */
#ifndef CUSCI_REFERENCE_UFUNC_OPS_H
#define CUSCI_REFERENCE_UFUNC_OPS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include <cusci/kit/complex.h>
#include <cusci/kit/convert.h>

/* ------------------------------------------------------ dtype lookups */

/* C type, kind (B bool, I signed, U unsigned, H float16, F float, C complex)
 * and a helper type (the unsigned type for integers, the part type for
 * complex, the type itself otherwise), by dtype name. */
#define CUSCI__CT_BOOL uint8_t
#define CUSCI__CT_INT8 int8_t
#define CUSCI__CT_INT16 int16_t
#define CUSCI__CT_INT32 int32_t
#define CUSCI__CT_INT64 int64_t
#define CUSCI__CT_UINT8 uint8_t
#define CUSCI__CT_UINT16 uint16_t
#define CUSCI__CT_UINT32 uint32_t
#define CUSCI__CT_UINT64 uint64_t
#define CUSCI__CT_FLOAT16 cusci_f16
#define CUSCI__CT_FLOAT32 float
#define CUSCI__CT_FLOAT64 double
#define CUSCI__CT_COMPLEX64 cusci_c64
#define CUSCI__CT_COMPLEX128 cusci_c128
#define CUSCI__KD_BOOL B
#define CUSCI__KD_INT8 I
#define CUSCI__KD_INT16 I
#define CUSCI__KD_INT32 I
#define CUSCI__KD_INT64 I
#define CUSCI__KD_UINT8 U
#define CUSCI__KD_UINT16 U
#define CUSCI__KD_UINT32 U
#define CUSCI__KD_UINT64 U
#define CUSCI__KD_FLOAT16 H
#define CUSCI__KD_FLOAT32 F
#define CUSCI__KD_FLOAT64 F
#define CUSCI__KD_COMPLEX64 C
#define CUSCI__KD_COMPLEX128 C
#define CUSCI__WT_BOOL uint8_t
#define CUSCI__WT_INT8 uint8_t
#define CUSCI__WT_INT16 uint16_t
#define CUSCI__WT_INT32 uint32_t
#define CUSCI__WT_INT64 uint64_t
#define CUSCI__WT_UINT8 uint8_t
#define CUSCI__WT_UINT16 uint16_t
#define CUSCI__WT_UINT32 uint32_t
#define CUSCI__WT_UINT64 uint64_t
#define CUSCI__WT_FLOAT16 float
#define CUSCI__WT_FLOAT32 float
#define CUSCI__WT_FLOAT64 double
#define CUSCI__WT_COMPLEX64 float
#define CUSCI__WT_COMPLEX128 double

/* Result C type of an op by its output rule: SAME as the loop dtype, BOOL,
 * or REAL (the part type of a complex loop dtype, else the same). */
#define CUSCI__OT_SAME(D) CUSCI__CT_##D
#define CUSCI__OT_BOOL(D) uint8_t
#define CUSCI__OT_REAL(D) CUSCI__RT_##D
#define CUSCI__RT_BOOL uint8_t
#define CUSCI__RT_INT8 int8_t
#define CUSCI__RT_INT16 int16_t
#define CUSCI__RT_INT32 int32_t
#define CUSCI__RT_INT64 int64_t
#define CUSCI__RT_UINT8 uint8_t
#define CUSCI__RT_UINT16 uint16_t
#define CUSCI__RT_UINT32 uint32_t
#define CUSCI__RT_UINT64 uint64_t
#define CUSCI__RT_FLOAT16 cusci_f16
#define CUSCI__RT_FLOAT32 float
#define CUSCI__RT_FLOAT64 double
#define CUSCI__RT_COMPLEX64 float
#define CUSCI__RT_COMPLEX128 double

/* ---------------------------------------------------------- dtype lists */

/* Each list calls X(DTYPE, op, out); float32 comes before float16 because
 * float16's elements are defined through float32's. */
#define CUSCI__TL_FLOAT(X, op, o) X(FLOAT32, op, o) X(FLOAT64, op, o) X(FLOAT16, op, o)
#define CUSCI__TL_CPLX(X, op, o) X(COMPLEX64, op, o) X(COMPLEX128, op, o)
#define CUSCI__TL_SINT(X, op, o)                                                                  \
  X(INT8, op, o) X(INT16, op, o) X(INT32, op, o) X(INT64, op, o) X(UINT8, op, o) X(UINT16, op, o) \
  X(UINT32, op, o) X(UINT64, op, o)
#define CUSCI__TL_BOOL(X, op, o) X(BOOL, op, o)
#define CUSCI__TL_INT(X, op, o) CUSCI__TL_BOOL(X, op, o) CUSCI__TL_SINT(X, op, o)
#define CUSCI__TL_REALNB(X, op, o) CUSCI__TL_SINT(X, op, o) CUSCI__TL_FLOAT(X, op, o)
#define CUSCI__TL_REAL(X, op, o) CUSCI__TL_INT(X, op, o) CUSCI__TL_FLOAT(X, op, o)
#define CUSCI__TL_INEXACT(X, op, o) CUSCI__TL_FLOAT(X, op, o) CUSCI__TL_CPLX(X, op, o)
#define CUSCI__TL_NUM(X, op, o) CUSCI__TL_REALNB(X, op, o) CUSCI__TL_CPLX(X, op, o)
#define CUSCI__TL_ALL(X, op, o) CUSCI__TL_REAL(X, op, o) CUSCI__TL_CPLX(X, op, o)

/*
 * The ops with element functions: X(NAME, op, out rule, dtype list).
 * greater and greater_equal are less and less_equal with the operands
 * swapped; logical functions run on bool after a cast, as the truth value
 * of any dtype is its cast to bool.
 */
#define CUSCI__UF_BINARY(X)                                                                   \
  X(ADD, add, SAME, ALL) X(SUBTRACT, subtract, SAME, NUM) X(MULTIPLY, multiply, SAME, ALL)     \
  X(DIVIDE, divide, SAME, INEXACT) X(FLOOR_DIVIDE, floor_divide, SAME, REALNB)                 \
  X(MOD, mod, SAME, REALNB) X(POWER, power, SAME, NUM) X(MAXIMUM, maximum, SAME, ALL)       \
  X(MINIMUM, minimum, SAME, ALL) X(FMAX, fmax, SAME, ALL) X(FMIN, fmin, SAME, ALL)             \
  X(ARCTAN2, arctan2, SAME, FLOAT) X(HYPOT, hypot, SAME, FLOAT) X(EQUAL, equal, BOOL, ALL)     \
  X(NOT_EQUAL, not_equal, BOOL, ALL) X(LESS, less, BOOL, ALL)                                  \
  X(LESS_EQUAL, less_equal, BOOL, ALL) X(LOGICAL_AND, logical_and, BOOL, BOOL)                 \
  X(LOGICAL_OR, logical_or, BOOL, BOOL) X(LOGICAL_XOR, logical_xor, BOOL, BOOL)                \
  X(BITWISE_AND, bitwise_and, SAME, INT) X(BITWISE_OR, bitwise_or, SAME, INT)                  \
  X(BITWISE_XOR, bitwise_xor, SAME, INT) X(LEFT_SHIFT, left_shift, SAME, SINT)                 \
  X(RIGHT_SHIFT, right_shift, SAME, SINT)

/* The transcendental functions: X(NAME, op, float function, double
 * function, dtype list): FLOAT, or INEXACT where complex has a loop too
 * (complex_math.h); cbrt, floor, ceil and trunc refuse complex, as NumPy. */
#define CUSCI__UF_MATH(X)                                                                              \
  X(SQRT, sqrt, sqrtf, sqrt, INEXACT) X(CBRT, cbrt, cbrtf, cbrt, FLOAT) X(EXP, exp, expf, exp, INEXACT) \
  X(EXP2, exp2, exp2f, exp2, INEXACT) X(EXPM1, expm1, expm1f, expm1, INEXACT)                            \
  X(LOG, log, logf, log, INEXACT) X(LOG2, log2, log2f, log2, INEXACT)                                  \
  X(LOG10, log10, log10f, log10, INEXACT) X(LOG1P, log1p, log1pf, log1p, INEXACT)                      \
  X(SIN, sin, sinf, sin, INEXACT) X(COS, cos, cosf, cos, INEXACT) X(TAN, tan, tanf, tan, INEXACT)      \
  X(ARCSIN, arcsin, asinf, asin, INEXACT) X(ARCCOS, arccos, acosf, acos, INEXACT)                      \
  X(ARCTAN, arctan, atanf, atan, INEXACT) X(SINH, sinh, sinhf, sinh, INEXACT)                          \
  X(COSH, cosh, coshf, cosh, INEXACT) X(TANH, tanh, tanhf, tanh, INEXACT)                              \
  X(ARCSINH, arcsinh, asinhf, asinh, INEXACT) X(ARCCOSH, arccosh, acoshf, acosh, INEXACT)              \
  X(ARCTANH, arctanh, atanhf, atanh, INEXACT) X(FLOOR, floor, floorf, floor, FLOAT)                    \
  X(CEIL, ceil, ceilf, ceil, FLOAT) X(TRUNC, trunc, truncf, trunc, FLOAT) X(RINT, rint, rintf, rint, INEXACT)

#define CUSCI__UF_UNARY(X)                                                                     \
  X(NEGATIVE, negative, SAME, NUM) X(ABS, abs, REAL, ALL) X(SIGN, sign, SAME, NUM)             \
  X(SQUARE, square, SAME, NUM) X(ISNAN, isnan, BOOL, INEXACT) X(ISINF, isinf, BOOL, INEXACT)   \
  X(ISFINITE, isfinite, BOOL, INEXACT) X(LOGICAL_NOT, logical_not, BOOL, BOOL)                 \
  X(BITWISE_NOT, bitwise_not, SAME, INT) X(CONJ, conj, SAME, CPLX) X(REAL, real, REAL, CPLX)   \
  X(IMAG, imag, REAL, CPLX) X(ANGLE, angle, REAL, INEXACT)

/* ----------------------------------------------------------- helpers */

CUSCI_HD float cusci__h2f(cusci_f16 h) { return (float)cusci_half_to_double(h); }
CUSCI_HD cusci_f16 cusci__f2h(float f) { return cusci_double_to_half((double)f); }
#define CUSCI__HW_SAME(e) cusci__f2h(e)
#define CUSCI__HW_REAL(e) cusci__f2h(e)
#define CUSCI__HW_BOOL(e) (e)

/* Element functions take (a, b) or (x); float16 calls the float32 one. */
#define CUSCI__E2DEF(D, op, o) CUSCI__E2DEF_(D, op, o, CUSCI__KD_##D, CUSCI__CT_##D, CUSCI__WT_##D, CUSCI__OT_##o(D))
#define CUSCI__E2DEF_(D, op, o, K, T, W, OT) CUSCI__E2DEF__(D, op, o, K, T, W, OT)
#define CUSCI__E2DEF__(D, op, o, K, T, W, OT) \
  CUSCI_HD OT cusci__e_##op##_##D(T a, T b) { CUSCI__B2_##K(op, T, W, o) }
#define CUSCI__B2_B(op, T, W, o) CUSCI__E2_##op##_B(T, W)
#define CUSCI__B2_I(op, T, W, o) CUSCI__E2_##op##_I(T, W)
#define CUSCI__B2_U(op, T, W, o) CUSCI__E2_##op##_U(T, W)
#define CUSCI__B2_F(op, T, W, o) CUSCI__E2_##op##_F(T, W)
#define CUSCI__B2_C(op, T, W, o) CUSCI__E2_##op##_C(T, W)
#define CUSCI__B2_H(op, T, W, o) return CUSCI__HW_##o(cusci__e_##op##_FLOAT32(cusci__h2f(a), cusci__h2f(b)));

#define CUSCI__E1DEF(D, op, o) CUSCI__E1DEF_(D, op, o, CUSCI__KD_##D, CUSCI__CT_##D, CUSCI__WT_##D, CUSCI__OT_##o(D))
#define CUSCI__E1DEF_(D, op, o, K, T, W, OT) CUSCI__E1DEF__(D, op, o, K, T, W, OT)
#define CUSCI__E1DEF__(D, op, o, K, T, W, OT) \
  CUSCI_HD OT cusci__e_##op##_##D(T x) { CUSCI__B1_##K(op, T, W, o) }
#define CUSCI__B1_B(op, T, W, o) CUSCI__E1_##op##_B(T, W)
#define CUSCI__B1_I(op, T, W, o) CUSCI__E1_##op##_I(T, W)
#define CUSCI__B1_U(op, T, W, o) CUSCI__E1_##op##_U(T, W)
#define CUSCI__B1_F(op, T, W, o) CUSCI__E1_##op##_F(T, W)
#define CUSCI__B1_C(op, T, W, o) CUSCI__E1_##op##_C(T, W)
#define CUSCI__B1_H(op, T, W, o) return CUSCI__HW_##o(cusci__e_##op##_FLOAT32(cusci__h2f(x)));

/* Complex arithmetic without fused multiply-adds, per part type. */
CUSCI_HD float cusci__radd_f(float a, float b) { return CUSCI_FADD(a, b); }
CUSCI_HD float cusci__rmul_f(float a, float b) { return CUSCI_FMUL(a, b); }
CUSCI_HD double cusci__radd_d(double a, double b) { return CUSCI_DADD(a, b); }
CUSCI_HD double cusci__rmul_d(double a, double b) { return CUSCI_DMUL(a, b); }
#define CUSCI__RADD(W, a, b) (sizeof(W) == 4 ? (W)cusci__radd_f((float)(a), (float)(b)) : (W)cusci__radd_d((a), (b)))
#define CUSCI__RMUL(W, a, b) (sizeof(W) == 4 ? (W)cusci__rmul_f((float)(a), (float)(b)) : (W)cusci__rmul_d((a), (b)))
#define CUSCI__RSUB(W, a, b) CUSCI__RADD(W, a, -(b))

/* NumPy's lexicographic complex order, NaN-aware (loops.c.src CGE etc.). */
#define CUSCI__CLT(xr, xi, yr, yi) (((xr) < (yr) && (xi) == (xi) && (yi) == (yi)) || ((xr) == (yr) && (xi) < (yi)))
#define CUSCI__CLE(xr, xi, yr, yi) (((xr) < (yr) && (xi) == (xi) && (yi) == (yi)) || ((xr) == (yr) && (xi) <= (yi)))
#define CUSCI__CGE(xr, xi, yr, yi) (((xr) > (yr) && (xi) == (xi) && (yi) == (yi)) || ((xr) == (yr) && (xi) >= (yi)))
/*
 * numpy.clip's own complex order (clip.cpp), which differs from maximum's
 * and minimum's: imaginary parts only break a tie of the real parts, NaN
 * imaginary parts included, and a NaN in the left operand is kept.
 */
#define CUSCI__CLIP_CGT(a, b) ((a).re == (b).re ? (a).im > (b).im : (a).re > (b).re)
#define CUSCI__CLIP_CLT(a, b) ((a).re == (b).re ? (a).im < (b).im : (a).re < (b).re)
#define CUSCI__CLIP_CMAX(a, b) (((a).re != (a).re || (a).im != (a).im || CUSCI__CLIP_CGT(a, b)) ? (a) : (b))
#define CUSCI__CLIP_CMIN(a, b) (((a).re != (a).re || (a).im != (a).im || CUSCI__CLIP_CLT(a, b)) ? (a) : (b))

#define CUSCI__CRET(T, R, I) \
  {                          \
    T r_;                    \
    r_.re = (R);             \
    r_.im = (I);             \
    return r_;               \
  }

/* --------------------------------------------------------- binary ops */

#define CUSCI__E2_add_B(T, W) return (T)(a | b);
#define CUSCI__E2_add_I(T, W) return (T)((W)a + (W)b);
#define CUSCI__E2_add_U(T, W) return (T)((W)a + (W)b);
#define CUSCI__E2_add_F(T, W) return a + b;
#define CUSCI__E2_add_C(T, W) CUSCI__CRET(T, a.re + b.re, a.im + b.im)
#define CUSCI__E2_subtract_I(T, W) return (T)((W)a - (W)b);
#define CUSCI__E2_subtract_U(T, W) return (T)((W)a - (W)b);
#define CUSCI__E2_subtract_F(T, W) return a - b;
#define CUSCI__E2_subtract_C(T, W) CUSCI__CRET(T, a.re - b.re, a.im - b.im)
/* Integer products wrap: multiply in uint64, where overflow is defined. */
#define CUSCI__E2_multiply_B(T, W) return (T)(a & b);
#define CUSCI__E2_multiply_I(T, W) return (T)((uint64_t)(int64_t)a * (uint64_t)(int64_t)b);
#define CUSCI__E2_multiply_U(T, W) return (T)((uint64_t)a * (uint64_t)b);
#define CUSCI__E2_multiply_F(T, W) return a * b;
#define CUSCI__E2_multiply_C(T, W)                                                       \
  CUSCI__CRET(T, CUSCI__RSUB(W, CUSCI__RMUL(W, a.re, b.re), CUSCI__RMUL(W, a.im, b.im)), \
              CUSCI__RADD(W, CUSCI__RMUL(W, a.re, b.im), CUSCI__RMUL(W, a.im, b.re)))
#define CUSCI__E2_divide_F(T, W) return a / b;
/* Smith's algorithm, as NumPy's complex divide loop. */
#define CUSCI__E2_divide_C(T, W)                                                             \
  W br = b.re, bi = b.im;                                                                    \
  W abr = (W)fabs((double)br), abi = (W)fabs((double)bi);                                    \
  if (abr >= abi) {                                                                          \
    if (abr == 0 && abi == 0)                                                                \
      CUSCI__CRET(T, a.re / abr, a.im / abr)                                                 \
    W rat = bi / br;                                                                         \
    W scl = (W)1.0 / CUSCI__RADD(W, br, CUSCI__RMUL(W, bi, rat));                            \
    CUSCI__CRET(T, CUSCI__RMUL(W, CUSCI__RADD(W, a.re, CUSCI__RMUL(W, a.im, rat)), scl),     \
                CUSCI__RMUL(W, CUSCI__RSUB(W, a.im, CUSCI__RMUL(W, a.re, rat)), scl))        \
  }                                                                                          \
  W rat = br / bi;                                                                           \
  W scl = (W)1.0 / CUSCI__RADD(W, bi, CUSCI__RMUL(W, br, rat));                              \
  CUSCI__CRET(T, CUSCI__RMUL(W, CUSCI__RADD(W, CUSCI__RMUL(W, a.re, rat), a.im), scl),       \
              CUSCI__RMUL(W, CUSCI__RSUB(W, CUSCI__RMUL(W, a.im, rat), a.re), scl))

/* Python's floor division and modulo: the remainder has the divisor's
 * sign. Division by zero gives 0 for integers (NumPy warns and gives 0);
 * the most negative value divided by -1 wraps. */
#define CUSCI__E2_floor_divide_I(T, W)                         \
  if (b == 0)                                                  \
    return 0;                                                  \
  if (b == -1)                                                 \
    return (T)(0 - (W)a);                                      \
  T q = (T)(a / b);                                            \
  if ((T)(a % b) != 0 && ((a < 0) != (b < 0)))                 \
    q--;                                                       \
  return q;
#define CUSCI__E2_floor_divide_U(T, W) return b == 0 ? (T)0 : (T)(a / b);
#define CUSCI__E2_mod_I(T, W)                                  \
  if (b == 0 || b == -1)                                       \
    return 0;                                                  \
  T r = (T)(a % b);                                            \
  if (r != 0 && ((r < 0) != (b < 0)))                          \
    r = (T)(r + b);                                            \
  return r;
#define CUSCI__E2_mod_U(T, W) return b == 0 ? (T)0 : (T)(a % b);

/* npy_divmod: the float quotient and remainder with Python's conventions. */
#define CUSCI__DIVMOD_F(W, FMOD, FLOOR, COPYSIGN)                           \
  CUSCI_HD W cusci__divmod_##W(W a, W b, W *modulus)                        \
  {                                                                         \
    W mod = FMOD(a, b);                                                     \
    if (!b) {                                                               \
      *modulus = mod;                                                       \
      return a / b;                                                         \
    }                                                                       \
    W div = (a - mod) / b;                                                  \
    if (mod) {                                                              \
      if ((b < 0) != (mod < 0)) {                                           \
        mod += b;                                                           \
        div -= (W)1.0;                                                      \
      }                                                                     \
    } else {                                                                \
      mod = COPYSIGN((W)0.0, b);                                            \
    }                                                                       \
    W floordiv;                                                             \
    if (div) {                                                              \
      floordiv = FLOOR(div);                                                \
      if (div - floordiv > (W)0.5)                                          \
        floordiv += (W)1.0;                                                 \
    } else {                                                                \
      floordiv = COPYSIGN((W)0.0, a / b);                                   \
    }                                                                       \
    *modulus = mod;                                                         \
    return floordiv;                                                        \
  }
CUSCI__DIVMOD_F(float, fmodf, floorf, copysignf)
CUSCI__DIVMOD_F(double, fmod, floor, copysign)
#define CUSCI__E2_floor_divide_F(T, W) \
  W m_;                                \
  if (!b)                              \
    return a / b;                      \
  return cusci__divmod_##W(a, b, &m_);
#define CUSCI__E2_mod_F(T, W)              \
  W m_;                                    \
  if (!b)                                  \
    return sizeof(W) == 4 ? (W)fmodf((float)a, (float)b) : (W)fmod((double)a, (double)b); \
  cusci__divmod_##W(a, b, &m_);            \
  return m_;

/* Integer power by squaring, wrapping; negative exponents as documented. */
#define CUSCI__E2_power_I(T, W)                           \
  if (b < 0)                                              \
    return a == 1 ? (T)1 : a == -1 ? (T)((b & 1) ? -1 : 1) : (T)0; \
  W r = 1, base = (W)a;                                   \
  uint64_t e = (uint64_t)b;                               \
  while (e) {                                             \
    if (e & 1)                                            \
      r = (W)((uint64_t)r * (uint64_t)base);              \
    base = (W)((uint64_t)base * (uint64_t)base);          \
    e >>= 1;                                              \
  }                                                       \
  return (T)r;
#define CUSCI__E2_power_U(T, W)                           \
  W r = 1, base = a;                                      \
  uint64_t e = (uint64_t)b;                               \
  while (e) {                                             \
    if (e & 1)                                            \
      r = (W)((uint64_t)r * (uint64_t)base);              \
    base = (W)((uint64_t)base * (uint64_t)base);          \
    e >>= 1;                                              \
  }                                                       \
  return (T)r;
#define CUSCI__E2_power_F(T, W) return sizeof(W) == 4 ? (W)powf((float)a, (float)b) : (W)pow((double)a, (double)b);
#define CUSCI__E2_power_C(T, W)                                                               \
  cusci_cm pw_ = cusci_cm_pow(cusci_cm_c((double)a.re, (double)a.im), cusci_cm_c((double)b.re, (double)b.im)); \
  CUSCI__CRET(T, (W)pw_.re, (W)pw_.im)

/* maximum/minimum propagate NaN; fmax/fmin prefer the non-NaN operand.
 * Between equal floats (-0.0 and +0.0) maximum and minimum return the
 * second operand, as NumPy's float32 and float64 loops do (maximum(-0.0,
 * 0.0) is 0.0, maximum(0.0, -0.0) is -0.0); fmax and fmin return the first,
 * as C's fmax and NumPy's scalar loops. Complex ties return the first, as
 * NumPy's complex loops. */
#define CUSCI__E2_maximum_B(T, W) return a >= b ? a : b;
#define CUSCI__E2_maximum_I(T, W) return a >= b ? a : b;
#define CUSCI__E2_maximum_U(T, W) return a >= b ? a : b;
#define CUSCI__E2_maximum_F(T, W) return (a > b || a != a) ? a : b;
#define CUSCI__E2_maximum_C(T, W) \
  return (CUSCI__CGE(a.re, a.im, b.re, b.im) || a.re != a.re || a.im != a.im) ? a : b;
#define CUSCI__E2_minimum_B(T, W) return a <= b ? a : b;
#define CUSCI__E2_minimum_I(T, W) return a <= b ? a : b;
#define CUSCI__E2_minimum_U(T, W) return a <= b ? a : b;
#define CUSCI__E2_minimum_F(T, W) return (a < b || a != a) ? a : b;
#define CUSCI__E2_minimum_C(T, W) \
  return (CUSCI__CLE(a.re, a.im, b.re, b.im) || a.re != a.re || a.im != a.im) ? a : b;
#define CUSCI__E2_fmax_B CUSCI__E2_maximum_B
#define CUSCI__E2_fmax_I CUSCI__E2_maximum_I
#define CUSCI__E2_fmax_U CUSCI__E2_maximum_U
#define CUSCI__E2_fmax_F(T, W) return (a >= b || b != b) ? a : b;
#define CUSCI__E2_fmax_C(T, W) \
  return (CUSCI__CGE(a.re, a.im, b.re, b.im) || b.re != b.re || b.im != b.im) ? a : b;
#define CUSCI__E2_fmin_B CUSCI__E2_minimum_B
#define CUSCI__E2_fmin_I CUSCI__E2_minimum_I
#define CUSCI__E2_fmin_U CUSCI__E2_minimum_U
#define CUSCI__E2_fmin_F(T, W) return (a <= b || b != b) ? a : b;
#define CUSCI__E2_fmin_C(T, W) \
  return (CUSCI__CLE(a.re, a.im, b.re, b.im) || b.re != b.re || b.im != b.im) ? a : b;

#define CUSCI__E2_arctan2_F(T, W) return sizeof(W) == 4 ? (W)atan2f((float)a, (float)b) : (W)atan2((double)a, (double)b);
#define CUSCI__E2_hypot_F(T, W) return sizeof(W) == 4 ? (W)hypotf((float)a, (float)b) : (W)hypot((double)a, (double)b);

#define CUSCI__E2_equal_B(T, W) return a == b;
#define CUSCI__E2_equal_I(T, W) return a == b;
#define CUSCI__E2_equal_U(T, W) return a == b;
#define CUSCI__E2_equal_F(T, W) return a == b;
#define CUSCI__E2_equal_C(T, W) return a.re == b.re && a.im == b.im;
#define CUSCI__E2_not_equal_B(T, W) return a != b;
#define CUSCI__E2_not_equal_I(T, W) return a != b;
#define CUSCI__E2_not_equal_U(T, W) return a != b;
#define CUSCI__E2_not_equal_F(T, W) return a != b;
#define CUSCI__E2_not_equal_C(T, W) return a.re != b.re || a.im != b.im;
#define CUSCI__E2_less_B(T, W) return a < b;
#define CUSCI__E2_less_I(T, W) return a < b;
#define CUSCI__E2_less_U(T, W) return a < b;
#define CUSCI__E2_less_F(T, W) return a < b;
#define CUSCI__E2_less_C(T, W) return CUSCI__CLT(a.re, a.im, b.re, b.im);
#define CUSCI__E2_less_equal_B(T, W) return a <= b;
#define CUSCI__E2_less_equal_I(T, W) return a <= b;
#define CUSCI__E2_less_equal_U(T, W) return a <= b;
#define CUSCI__E2_less_equal_F(T, W) return a <= b;
#define CUSCI__E2_less_equal_C(T, W) return CUSCI__CLE(a.re, a.im, b.re, b.im);

#define CUSCI__E2_logical_and_B(T, W) return (a != 0) & (b != 0);
#define CUSCI__E2_logical_or_B(T, W) return (a != 0) | (b != 0);
#define CUSCI__E2_logical_xor_B(T, W) return (a != 0) ^ (b != 0);

#define CUSCI__E2_bitwise_and_B(T, W) return (T)(a & b);
#define CUSCI__E2_bitwise_and_I(T, W) return (T)(a & b);
#define CUSCI__E2_bitwise_and_U(T, W) return (T)(a & b);
#define CUSCI__E2_bitwise_or_B(T, W) return (T)(a | b);
#define CUSCI__E2_bitwise_or_I(T, W) return (T)(a | b);
#define CUSCI__E2_bitwise_or_U(T, W) return (T)(a | b);
#define CUSCI__E2_bitwise_xor_B(T, W) return (T)(a ^ b);
#define CUSCI__E2_bitwise_xor_I(T, W) return (T)(a ^ b);
#define CUSCI__E2_bitwise_xor_U(T, W) return (T)(a ^ b);
/* npy_lshift / npy_rshift: a count outside [0, bits) shifts everything out. */
#define CUSCI__E2_left_shift_I(T, W) \
  return (uint64_t)(int64_t)b < sizeof(T) * 8 ? (T)((W)a << b) : (T)0;
#define CUSCI__E2_left_shift_U(T, W) return (uint64_t)b < sizeof(T) * 8 ? (T)((W)a << b) : (T)0;
#define CUSCI__E2_right_shift_I(T, W) \
  return (uint64_t)(int64_t)b < sizeof(T) * 8 ? (T)(a >> b) : (T)(a < 0 ? -1 : 0);
#define CUSCI__E2_right_shift_U(T, W) return (uint64_t)b < sizeof(T) * 8 ? (T)(a >> b) : (T)0;

/* ---------------------------------------------------------- unary ops */

#define CUSCI__E1_negative_I(T, W) return (T)(0 - (W)x);
#define CUSCI__E1_negative_U(T, W) return (T)(0 - (W)x);
#define CUSCI__E1_negative_F(T, W) return -x;
#define CUSCI__E1_negative_C(T, W) CUSCI__CRET(T, -x.re, -x.im)
#define CUSCI__E1_abs_B(T, W) return x;
#define CUSCI__E1_abs_I(T, W) return x < 0 ? (T)(0 - (W)x) : x;
#define CUSCI__E1_abs_U(T, W) return x;
#define CUSCI__E1_abs_F(T, W) return sizeof(W) == 4 ? (W)fabsf((float)x) : (W)fabs((double)x);
#define CUSCI__E1_abs_C(T, W) return sizeof(W) == 4 ? (W)hypotf((float)x.re, (float)x.im) : (W)hypot((double)x.re, (double)x.im);
#define CUSCI__E1_sign_I(T, W) return (T)((x > 0) - (x < 0));
#define CUSCI__E1_sign_U(T, W) return (T)(x > 0);
#define CUSCI__E1_sign_F(T, W) return x > 0 ? (W)1 : x < 0 ? (W)-1 : x == 0 ? (W)0 : x;
/* NumPy 2: sign(z) = z / |z|, 0 for 0; an infinite part gives +-1 along it,
 * two infinite parts or a NaN give NaN. */
#define CUSCI__E1_sign_C(T, W)                                                                        \
  W m_ = sizeof(W) == 4 ? (W)hypotf((float)x.re, (float)x.im) : (W)hypot((double)x.re, (double)x.im); \
  W inf_ = (W)INFINITY;                                                                               \
  if (m_ != m_)                                                                                       \
    CUSCI__CRET(T, (W)NAN, (W)NAN)                                                                    \
  if (m_ == inf_) {                                                                                   \
    bool ri_ = x.re == inf_ || x.re == -inf_, ii_ = x.im == inf_ || x.im == -inf_;                   \
    if (ri_ && ii_)                                                                                   \
      CUSCI__CRET(T, (W)NAN, (W)NAN)                                                                  \
    if (ri_)                                                                                          \
      CUSCI__CRET(T, x.re > 0 ? (W)1 : (W)-1, (W)0)                                                   \
    CUSCI__CRET(T, (W)0, x.im > 0 ? (W)1 : (W)-1)                                                     \
  }                                                                                                   \
  if (m_ == 0)                                                                                        \
    CUSCI__CRET(T, (W)0, (W)0)                                                                        \
  CUSCI__CRET(T, x.re / m_, x.im / m_)
#define CUSCI__E1_square_I(T, W) return (T)((uint64_t)(int64_t)x * (uint64_t)(int64_t)x);
#define CUSCI__E1_square_U(T, W) return (T)((uint64_t)x * (uint64_t)x);
#define CUSCI__E1_square_F(T, W) return x * x;
#define CUSCI__E1_square_C(T, W)                                                      \
  CUSCI__CRET(T, CUSCI__RSUB(W, CUSCI__RMUL(W, x.re, x.re), CUSCI__RMUL(W, x.im, x.im)), \
              CUSCI__RADD(W, CUSCI__RMUL(W, x.re, x.im), CUSCI__RMUL(W, x.im, x.re)))
#define CUSCI__E1_isnan_F(T, W) return x != x;
#define CUSCI__E1_isnan_C(T, W) return x.re != x.re || x.im != x.im;
#define CUSCI__E1_isinf_F(T, W) return x == (W)INFINITY || x == -(W)INFINITY;
#define CUSCI__E1_isinf_C(T, W) \
  return x.re == (W)INFINITY || x.re == -(W)INFINITY || x.im == (W)INFINITY || x.im == -(W)INFINITY;
#define CUSCI__E1_isfinite_F(T, W) return x - x == x - x; /* NaN for inf and NaN */
#define CUSCI__E1_isfinite_C(T, W) return x.re - x.re == x.re - x.re && x.im - x.im == x.im - x.im;
#define CUSCI__E1_logical_not_B(T, W) return x == 0;
#define CUSCI__E1_bitwise_not_B(T, W) return x == 0;
#define CUSCI__E1_bitwise_not_I(T, W) return (T)~x;
#define CUSCI__E1_bitwise_not_U(T, W) return (T)~x;
#define CUSCI__E1_conj_C(T, W) CUSCI__CRET(T, x.re, -x.im)
#define CUSCI__E1_real_C(T, W) return x.re;
#define CUSCI__E1_imag_C(T, W) return x.im;
#define CUSCI__E1_angle_F(T, W) return sizeof(W) == 4 ? (W)atan2f(0.0f, (float)x) : (W)atan2(0.0, (double)x);
#define CUSCI__E1_angle_C(T, W) return sizeof(W) == 4 ? (W)atan2f((float)x.im, (float)x.re) : (W)atan2((double)x.im, (double)x.re);

/* The transcendental functions: F bodies from the function names; C
 * bodies, for the INEXACT rows, from complex_math.h in double. */
#define CUSCI__MATH_BODIES_(NAME, op, ff, df, TL) \
  CUSCI_HD float cusci__e_##op##_FLOAT32(float x) { return ff(x); } \
  CUSCI_HD double cusci__e_##op##_FLOAT64(double x) { return df(x); } \
  CUSCI_HD cusci_f16 cusci__e_##op##_FLOAT16(cusci_f16 x) { return cusci__f2h(ff(cusci__h2f(x))); }
CUSCI__UF_MATH(CUSCI__MATH_BODIES_)
#define CUSCI__CMATH_FLOAT(op, cf)
#define CUSCI__CMATH_INEXACT(op, cf)                                                                        \
  CUSCI_HD cusci_c128 cusci__e_##op##_COMPLEX128(cusci_c128 x) { return cf(x); }                      \
  CUSCI_HD cusci_c64 cusci__e_##op##_COMPLEX64(cusci_c64 x)                                             \
  {                                                                                                       \
    cusci_cm r = cf##_64(cusci_cm_c((double)x.re, (double)x.im));                                     \
    cusci_c64 o;                                                                                         \
    o.re = (float)r.re;                                                                                   \
    o.im = (float)r.im;                                                                                   \
    return o;                                                                                             \
  }
#define CUSCI__CMATH_BODIES_(NAME, op, ff, df, TL) CUSCI__CMATH_##TL(op, cusci_cm_##df)
CUSCI__UF_MATH(CUSCI__CMATH_BODIES_)

/* Every element function of the tables. */
#define CUSCI__E2DEFS_(NAME, op, o, TL) CUSCI__TL_##TL(CUSCI__E2DEF, op, o)
CUSCI__UF_BINARY(CUSCI__E2DEFS_)
#define CUSCI__E1DEFS_(NAME, op, o, TL) CUSCI__TL_##TL(CUSCI__E1DEF, op, o)
CUSCI__UF_UNARY(CUSCI__E1DEFS_)

#endif /* CUSCI_REFERENCE_UFUNC_OPS_H */
