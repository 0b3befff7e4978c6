/*
 * reference/core/scan_ops.h: one step of a cumulative sum or product
 * (numpy.cumsum, cumprod, nancumsum, nancumprod), for the host and the
 * kernels (compiled as C11 and as CUDA, like reduce_ops.h).
 *
 * Result dtypes are NumPy's: bool and signed integers scan in int64,
 * unsigned ones in uint64 (wrapping modulo 2^64, exactly on either side);
 * float32, float64 and the complex types keep their dtype and scan in it,
 * one rounding per step as NumPy's loop; float16 keeps its dtype but the
 * running value is held in float32 and each output rounded once to
 * float16 (NumPy rounds the running value itself to float16 at each step,
 * so long float16 scans drift further from the exact value in NumPy than
 * here).
 *
 * An element is prepared (the NaN variants replace NaN by 0 or 1; a complex
 * value is NaN when either part is, as numpy.isnan) and then combined with
 * the running value by `step`, which is also how two partial scans combine
 * on the GPU: a tree of partials and a sequential loop agree exactly for
 * integers, and within the rounding of the summation order for floats.
 */
#ifndef CUSCI_REFERENCE_SCAN_OPS_H
#define CUSCI_REFERENCE_SCAN_OPS_H

#include <stdint.h>

#include <cusci/kit/convert.h>

enum cusci__sop { CUSCI__S_SUM, CUSCI__S_PROD, CUSCI__S_NANSUM, CUSCI__S_NANPROD, CUSCI__S_NOPS };

CUSCI_HD int cusci__sop_is_prod(int op) { return op == CUSCI__S_PROD || op == CUSCI__S_NANPROD; }
CUSCI_HD int cusci__sop_is_nan(int op) { return op == CUSCI__S_NANSUM || op == CUSCI__S_NANPROD; }

/* Accumulator kinds: I int64, U uint64, S float, D double, CS and CD the
 * complex pairs. init is the identity; prep readies an element; step
 * combines. */
CUSCI_HD int64_t cusci__sinit_I(int op) { return cusci__sop_is_prod(op) ? 1 : 0; }
CUSCI_HD int64_t cusci__sprep_I(int op, int64_t x) { (void)op; return x; }
CUSCI_HD int64_t cusci__sstep_I(int op, int64_t a, int64_t b)
{
  return cusci__sop_is_prod(op) ? (int64_t)((uint64_t)a * (uint64_t)b) : (int64_t)((uint64_t)a + (uint64_t)b);
}
CUSCI_HD uint64_t cusci__sinit_U(int op) { return cusci__sop_is_prod(op) ? 1 : 0; }
CUSCI_HD uint64_t cusci__sprep_U(int op, uint64_t x) { (void)op; return x; }
CUSCI_HD uint64_t cusci__sstep_U(int op, uint64_t a, uint64_t b) { return cusci__sop_is_prod(op) ? a * b : a + b; }

CUSCI_HD float cusci__sinit_S(int op) { return cusci__sop_is_prod(op) ? 1.0f : 0.0f; }
CUSCI_HD float cusci__sprep_S(int op, float x) { return (cusci__sop_is_nan(op) && x != x) ? cusci__sinit_S(op) : x; }
CUSCI_HD float cusci__sstep_S(int op, float a, float b)
{
  return cusci__sop_is_prod(op) ? CUSCI_FMUL(a, b) : CUSCI_FADD(a, b);
}
CUSCI_HD double cusci__sinit_D(int op) { return cusci__sop_is_prod(op) ? 1.0 : 0.0; }
CUSCI_HD double cusci__sprep_D(int op, double x) { return (cusci__sop_is_nan(op) && x != x) ? cusci__sinit_D(op) : x; }
CUSCI_HD double cusci__sstep_D(int op, double a, double b)
{
  return cusci__sop_is_prod(op) ? CUSCI_DMUL(a, b) : CUSCI_DADD(a, b);
}

/* Complex: (a.re b.re - a.im b.im, a.re b.im + a.im b.re), each product
 * and sum rounded once in the part type, as NumPy's loop. */
#define CUSCI__SCOMPLEX(K, CT, PT, ADD, MUL)                                                     \
  CUSCI_HD CT cusci__sinit_##K(int op)                                                           \
  {                                                                                              \
    CT r;                                                                                        \
    r.re = cusci__sop_is_prod(op) ? (PT)1 : (PT)0;                                               \
    r.im = (PT)0;                                                                                \
    return r;                                                                                    \
  }                                                                                              \
  CUSCI_HD CT cusci__sprep_##K(int op, CT x)                                                     \
  {                                                                                              \
    return (cusci__sop_is_nan(op) && (x.re != x.re || x.im != x.im)) ? cusci__sinit_##K(op) : x; \
  }                                                                                              \
  CUSCI_HD CT cusci__sstep_##K(int op, CT a, CT b)                                               \
  {                                                                                              \
    CT r;                                                                                        \
    if (cusci__sop_is_prod(op)) {                                                                \
      r.re = ADD(MUL(a.re, b.re), -MUL(a.im, b.im));                                             \
      r.im = ADD(MUL(a.re, b.im), MUL(a.im, b.re));                                              \
    } else {                                                                                     \
      r.re = ADD(a.re, b.re);                                                                    \
      r.im = ADD(a.im, b.im);                                                                    \
    }                                                                                            \
    return r;                                                                                    \
  }
CUSCI__SCOMPLEX(CS, cusci_c64, float, CUSCI_FADD, CUSCI_FMUL)
CUSCI__SCOMPLEX(CD, cusci_c128, double, CUSCI_DADD, CUSCI_DMUL)

/* Per input dtype: load into the accumulator, store the accumulator as the
 * result. X(DTYPE, input C type, kind, accumulator, result C type) */
#define CUSCI__STYPES(X)                                                                              \
  X(BOOL, uint8_t, I, int64_t, int64_t) X(INT8, int8_t, I, int64_t, int64_t)                          \
  X(INT16, int16_t, I, int64_t, int64_t) X(INT32, int32_t, I, int64_t, int64_t)                       \
  X(INT64, int64_t, I, int64_t, int64_t) X(UINT8, uint8_t, U, uint64_t, uint64_t)                     \
  X(UINT16, uint16_t, U, uint64_t, uint64_t) X(UINT32, uint32_t, U, uint64_t, uint64_t)               \
  X(UINT64, uint64_t, U, uint64_t, uint64_t) X(FLOAT16, cusci_f16, S, float, cusci_f16)             \
  X(FLOAT32, float, S, float, float) X(FLOAT64, double, D, double, double)                            \
  X(COMPLEX64, cusci_c64, CS, cusci_c64, cusci_c64) X(COMPLEX128, cusci_c128, CD, cusci_c128, cusci_c128)

CUSCI_HD int64_t cusci__sload_BOOL(uint8_t x) { return x != 0; }
CUSCI_HD int64_t cusci__sload_INT8(int8_t x) { return x; }
CUSCI_HD int64_t cusci__sload_INT16(int16_t x) { return x; }
CUSCI_HD int64_t cusci__sload_INT32(int32_t x) { return x; }
CUSCI_HD int64_t cusci__sload_INT64(int64_t x) { return x; }
CUSCI_HD uint64_t cusci__sload_UINT8(uint8_t x) { return x; }
CUSCI_HD uint64_t cusci__sload_UINT16(uint16_t x) { return x; }
CUSCI_HD uint64_t cusci__sload_UINT32(uint32_t x) { return x; }
CUSCI_HD uint64_t cusci__sload_UINT64(uint64_t x) { return x; }
CUSCI_HD float cusci__sload_FLOAT16(cusci_f16 x) { return (float)cusci_half_to_double(x); } /* exact */
CUSCI_HD float cusci__sload_FLOAT32(float x) { return x; }
CUSCI_HD double cusci__sload_FLOAT64(double x) { return x; }
CUSCI_HD cusci_c64 cusci__sload_COMPLEX64(cusci_c64 x) { return x; }
CUSCI_HD cusci_c128 cusci__sload_COMPLEX128(cusci_c128 x) { return x; }

CUSCI_HD int64_t cusci__sstore_BOOL(int64_t a) { return a; }
CUSCI_HD int64_t cusci__sstore_INT8(int64_t a) { return a; }
CUSCI_HD int64_t cusci__sstore_INT16(int64_t a) { return a; }
CUSCI_HD int64_t cusci__sstore_INT32(int64_t a) { return a; }
CUSCI_HD int64_t cusci__sstore_INT64(int64_t a) { return a; }
CUSCI_HD uint64_t cusci__sstore_UINT8(uint64_t a) { return a; }
CUSCI_HD uint64_t cusci__sstore_UINT16(uint64_t a) { return a; }
CUSCI_HD uint64_t cusci__sstore_UINT32(uint64_t a) { return a; }
CUSCI_HD uint64_t cusci__sstore_UINT64(uint64_t a) { return a; }
CUSCI_HD cusci_f16 cusci__sstore_FLOAT16(float a) { return cusci_double_to_half((double)a); } /* one rounding */
CUSCI_HD float cusci__sstore_FLOAT32(float a) { return a; }
CUSCI_HD double cusci__sstore_FLOAT64(double a) { return a; }
CUSCI_HD cusci_c64 cusci__sstore_COMPLEX64(cusci_c64 a) { return a; }
CUSCI_HD cusci_c128 cusci__sstore_COMPLEX128(cusci_c128 a) { return a; }

#endif
