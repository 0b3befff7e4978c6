/*
 * cusci/compute.h: NumPy's element-wise functions (ufuncs) on cusci arrays.
 *
 * Semantics are NumPy 2's:
 *  - Broadcasting of the operands' shapes (CUSCI_ERR_BROADCAST when they do
 *    not broadcast).
 *  - Type promotion as numpy.result_type, then the ufunc's own loop choice:
 *    divide of integers gives float64; math functions of integers give the
 *    smallest float that holds them (int8 -> float16, int16 -> float32,
 *    wider -> float64); comparisons and logical functions give bool; bool
 *    operands of floor_divide, mod, power, shifts and square compute in int8.
 *    An operation NumPy refuses (bitwise_and of floats, subtract of bools,
 *    floor_divide of complex) is CUSCI_ERR_DTYPE.
 *  - Scalars (cusci_operand) are operands without device memory. A Python
 *    int, float or complex scalar is "weak" (NEP 50): it takes the dtype of
 *    the arrays it meets when its kind allows, so int8 array + 3 is int8 and
 *    float32 array + 2.5 is float32; a weak int out of range of an integer
 *    result is CUSCI_ERR_OVERFLOW, as NumPy's OverflowError. A typed scalar
 *    (a NumPy scalar such as np.float64(2)) promotes like an array.
 *  - Output: `out` as in core.h. A given *out must have the broadcast shape
 *    (CUSCI_ERR_SHAPE), live on the context's device (CUSCI_ERR_DEVICE), and
 *    hold the result under NumPy's "same_kind" casting (CUSCI_ERR_CAST);
 *    it may be one of the inputs (in place).
 *  - Integer arithmetic wraps modulo 2^bits as NumPy's does. Integer
 *    floor_divide and mod by zero give 0; an integer raised to a negative
 *    integer power gives 1/x**|n| truncated (1 for 1, +-1 for -1, else 0)
 *    where NumPy raises; shifts by a count outside [0, bits) give 0 (or -1
 *    for a right shift of a negative value).
 *
 * Accuracy: integer results, float arithmetic (+ - * /, comparisons,
 * floor_divide, mod, minimum and maximum, rounding) agree bit for bit
 * between the host and the GPU. Transcendental functions use libm on the
 * host and the CUDA math library on the GPU, which agree within 4 ulp for
 * float32 and float64 (1 ulp for float16, which computes in float32 as
 * NumPy does).
 *
 * Not yet: complex arguments of the transcendental functions (sqrt, exp,
 * log, the trigonometric and hyperbolic families) and of power, and complex
 * clip, return CUSCI_ERR_NOT_SUPPORTED.
 */
#ifndef CUSCI_COMPUTE_H
#define CUSCI_COMPUTE_H

#include <string.h>

#include <cusci/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ operands */

/* What a cusci_operand holds besides an array. NONE (0) is "no operand"
 * (Python's None), accepted where NumPy accepts None (clip's bounds). */
typedef enum cusci_scalar_kind {
  CUSCI_SCALAR_NONE = 0,
  CUSCI_SCALAR_INT,     /* a Python int: weak */
  CUSCI_SCALAR_FLOAT,   /* a Python float: weak */
  CUSCI_SCALAR_COMPLEX, /* a Python complex: weak */
  CUSCI_SCALAR_TYPED    /* a NumPy scalar of `dtype`: strong, as an array */
} cusci_scalar_kind;

/*
 * An operand of a ufunc, passed by value: an array when `array` is not
 * NULL, otherwise a scalar held in the struct. Make one with the
 * constructors below.
 */
typedef struct cusci_operand {
  const cusci_array *array;
  cusci_scalar_kind kind;
  cusci_dtype dtype; /* CUSCI_SCALAR_TYPED only */
  union {
    int64_t i;            /* CUSCI_SCALAR_INT */
    double f;             /* CUSCI_SCALAR_FLOAT */
    double c[2];          /* CUSCI_SCALAR_COMPLEX: real, imaginary */
    unsigned char raw[16]; /* CUSCI_SCALAR_TYPED: one element of dtype */
  } value;
} cusci_operand;

static inline cusci_operand cusci_operand_array(const cusci_array *a)
{
  cusci_operand o;
  memset(&o, 0, sizeof o);
  o.array = a;
  return o;
}
static inline cusci_operand cusci_operand_int(int64_t v)
{
  cusci_operand o;
  memset(&o, 0, sizeof o);
  o.kind = CUSCI_SCALAR_INT;
  o.value.i = v;
  return o;
}
static inline cusci_operand cusci_operand_float(double v)
{
  cusci_operand o;
  memset(&o, 0, sizeof o);
  o.kind = CUSCI_SCALAR_FLOAT;
  o.value.f = v;
  return o;
}
static inline cusci_operand cusci_operand_complex(double re, double im)
{
  cusci_operand o;
  memset(&o, 0, sizeof o);
  o.kind = CUSCI_SCALAR_COMPLEX;
  o.value.c[0] = re;
  o.value.c[1] = im;
  return o;
}
/* One element of `dtype` copied from host memory `value` (a NumPy scalar).
 * An invalid dtype is reported by the call the operand is passed to. */
static inline cusci_operand cusci_operand_scalar(cusci_dtype dtype, const void *value)
{
  cusci_operand o;
  memset(&o, 0, sizeof o);
  o.kind = CUSCI_SCALAR_TYPED;
  o.dtype = dtype;
  size_t n = cusci_dtype_itemsize(dtype);
  if (value && n)
    memcpy(o.value.raw, value, n);
  return o;
}
static inline cusci_operand cusci_operand_none(void)
{
  cusci_operand o;
  memset(&o, 0, sizeof o);
  return o;
}

/* -------------------------------------------------------------- ufuncs */

/* X(NAME, numpy name, number of inputs) */
#define CUSCI_UFUNC_MAP(X)                                                     \
  X(ADD, add, 2) X(SUBTRACT, subtract, 2) X(MULTIPLY, multiply, 2)             \
  X(DIVIDE, divide, 2) X(FLOOR_DIVIDE, floor_divide, 2) X(MOD, mod, 2)         \
  X(POWER, power, 2) X(MAXIMUM, maximum, 2) X(MINIMUM, minimum, 2)             \
  X(FMAX, fmax, 2) X(FMIN, fmin, 2) X(ARCTAN2, arctan2, 2) X(HYPOT, hypot, 2)  \
  X(EQUAL, equal, 2) X(NOT_EQUAL, not_equal, 2) X(LESS, less, 2)               \
  X(LESS_EQUAL, less_equal, 2) X(GREATER, greater, 2)                          \
  X(GREATER_EQUAL, greater_equal, 2) X(LOGICAL_AND, logical_and, 2)            \
  X(LOGICAL_OR, logical_or, 2) X(LOGICAL_XOR, logical_xor, 2)                  \
  X(BITWISE_AND, bitwise_and, 2) X(BITWISE_OR, bitwise_or, 2)                  \
  X(BITWISE_XOR, bitwise_xor, 2) X(LEFT_SHIFT, left_shift, 2)                  \
  X(RIGHT_SHIFT, right_shift, 2)                                               \
  X(NEGATIVE, negative, 1) X(ABS, abs, 1) X(SIGN, sign, 1) X(SQRT, sqrt, 1)    \
  X(CBRT, cbrt, 1) X(SQUARE, square, 1) X(EXP, exp, 1) X(EXP2, exp2, 1)        \
  X(EXPM1, expm1, 1) X(LOG, log, 1) X(LOG2, log2, 1) X(LOG10, log10, 1)        \
  X(LOG1P, log1p, 1) X(SIN, sin, 1) X(COS, cos, 1) X(TAN, tan, 1)              \
  X(ARCSIN, arcsin, 1) X(ARCCOS, arccos, 1) X(ARCTAN, arctan, 1)               \
  X(SINH, sinh, 1) X(COSH, cosh, 1) X(TANH, tanh, 1) X(ARCSINH, arcsinh, 1)    \
  X(ARCCOSH, arccosh, 1) X(ARCTANH, arctanh, 1) X(FLOOR, floor, 1)             \
  X(CEIL, ceil, 1) X(TRUNC, trunc, 1) X(RINT, rint, 1) X(ISNAN, isnan, 1)      \
  X(ISINF, isinf, 1) X(ISFINITE, isfinite, 1) X(LOGICAL_NOT, logical_not, 1)   \
  X(BITWISE_NOT, bitwise_not, 1) X(CONJ, conj, 1) X(REAL, real, 1)             \
  X(IMAG, imag, 1) X(ANGLE, angle, 1)

typedef enum cusci_ufunc {
#define CUSCI_UFUNC_ENUM_(NAME, name, nin) CUSCI_UFUNC_##NAME,
  CUSCI_UFUNC_MAP(CUSCI_UFUNC_ENUM_)
#undef CUSCI_UFUNC_ENUM_
  CUSCI_N_UFUNCS
} cusci_ufunc;

/* NumPy's name ("add"); "invalid" outside the enum. */
CUSCI_API const char *cusci_ufunc_name(cusci_ufunc f);
/* 1 or 2; 0 outside the enum. */
CUSCI_API int cusci_ufunc_nin(cusci_ufunc f);

/*
 * The dtype of f's result for array inputs of the given dtypes (x2 is
 * ignored for a unary f): what numpy.<f>(x1, x2).dtype is.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT (f
 * outside the enum) or CUSCI_ERR_DTYPE (NumPy has no loop for these dtypes,
 * or a dtype outside the enum).
 */
CUSCI_API cusci_status cusci_ufunc_result_type(cusci_ufunc f, cusci_dtype x1, cusci_dtype x2, cusci_dtype *out);

/*
 * numpy.<f>(x1, x2, out=out) for a binary f, and numpy.<f>(x, out=out) for a
 * unary one, with operands that are arrays or scalars (see the top of this
 * file). Arrays are in the context's device memory; scalars travel in the
 * operand itself. When every operand is a scalar the result is a 0-d array.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER (ctx, out, or an operand that is
 * neither array nor scalar), CUSCI_ERR_INVALID_ARGUMENT (f outside the enum
 * or of the other arity), CUSCI_ERR_DEVICE, CUSCI_ERR_BROADCAST,
 * CUSCI_ERR_DTYPE, CUSCI_ERR_OVERFLOW (a weak int out of range),
 * CUSCI_ERR_SHAPE and CUSCI_ERR_CAST (a given *out), CUSCI_ERR_NOT_SUPPORTED,
 * CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_ufunc_binary(cusci_ctx *ctx, cusci_ufunc f, cusci_operand x1, cusci_operand x2, cusci_array **out);
CUSCI_API cusci_status cusci_ufunc_unary(cusci_ctx *ctx, cusci_ufunc f, cusci_operand x, cusci_array **out);

/*
 * One function per ufunc with array operands, under NumPy's name:
 * cusci_add(ctx, a, b, &out), cusci_exp(ctx, a, &out), ... Each is
 * cusci_ufunc_binary / cusci_ufunc_unary with cusci_operand_array operands
 * and returns the same statuses.
 */
#define CUSCI_UFUNC_DECL_1_(name) \
  CUSCI_API cusci_status cusci_##name(cusci_ctx *ctx, const cusci_array *x, cusci_array **out);
#define CUSCI_UFUNC_DECL_2_(name) \
  CUSCI_API cusci_status cusci_##name(cusci_ctx *ctx, const cusci_array *x1, const cusci_array *x2, cusci_array **out);
#define CUSCI_UFUNC_DECL_(NAME, name, nin) CUSCI_UFUNC_DECL_##nin##_(name)
CUSCI_UFUNC_MAP(CUSCI_UFUNC_DECL_)
#undef CUSCI_UFUNC_DECL_

/*
 * numpy.where(condition, x, y): x where condition is true, else y, in the
 * promoted dtype of x and y (weak scalars as above). condition is an array
 * of any dtype, read as bool (nonzero is true); all three broadcast.
 * Returns the statuses of cusci_ufunc_binary.
 */
CUSCI_API cusci_status cusci_where(cusci_ctx *ctx, const cusci_array *condition, cusci_operand x, cusci_operand y, cusci_array **out);

/*
 * numpy.clip(a, a_min, a_max): minimum(maximum(a, a_min), a_max), NaN
 * propagating, in the promoted dtype of the three operands. Either bound
 * may be cusci_operand_none() (not both: CUSCI_ERR_INVALID_ARGUMENT).
 * Returns the statuses of cusci_ufunc_binary.
 */
CUSCI_API cusci_status cusci_clip(cusci_ctx *ctx, const cusci_array *a, cusci_operand a_min, cusci_operand a_max, cusci_array **out);

/* ---------------------------------------------------------- reductions */

/*
 * Options of the reductions; the zero value (or NULL) is NumPy's default:
 * all axes (axis=None), keepdims false, ddof 0.
 */
typedef struct cusci_reduce_opts {
  int naxes;        /* entries of axes; 0: reduce over all axes */
  const int *axes;  /* axes to reduce, negative counting from the end */
  bool keepdims;    /* keep reduced axes with extent 1 */
  int ddof;         /* var and std: divide by N - ddof */
} cusci_reduce_opts;

/*
 * numpy.<name>(a, axis=axes, keepdims=keepdims[, ddof=ddof], out=out).
 * Result dtypes are NumPy's: sum and prod of bool and signed integers give
 * int64, of unsigned ones uint64; mean, var and std of integers give
 * float64, var and std of complex give its part type; any and all give
 * bool; min and max keep the dtype. Integer sums and products wrap modulo
 * 2^64 and agree exactly between the host and the GPU; floating-point
 * values accumulate in double (complex in a pair of doubles) and are
 * rounded once to the result, so they agree within a few ulp of the result
 * dtype (the summation order differs). min, max, nanmin and nanmax of an
 * empty selection have no identity: CUSCI_ERR_VALUE, as NumPy's ValueError.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE,
 * CUSCI_ERR_AXIS (an axis out of range or repeated, or naxes < 0),
 * CUSCI_ERR_VALUE, CUSCI_ERR_NOT_SUPPORTED (min and max of complex),
 * CUSCI_ERR_SHAPE and CUSCI_ERR_CAST (a given *out), CUSCI_ERR_OUT_OF_MEMORY,
 * CUSCI_ERR_CUDA.
 */
#define CUSCI_REDUCE_MAP(X)                                                        \
  X(sum) X(prod) X(mean) X(var) X(std) X(min) X(max) X(any) X(all) X(nansum)        \
  X(nanmean) X(nanmin) X(nanmax)
#define CUSCI_REDUCE_DECL_(name) \
  CUSCI_API cusci_status cusci_##name(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out);
CUSCI_REDUCE_MAP(CUSCI_REDUCE_DECL_)
#undef CUSCI_REDUCE_DECL_

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_COMPUTE_H */
