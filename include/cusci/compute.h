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
 * Complex arguments of sqrt, exp, exp2, expm1, log, log2, log10, log1p,
 * the trigonometric and hyperbolic functions and their inverses, rint and
 * power follow NumPy: principal branches, the sign of a zero imaginary part
 * choosing the side of a branch cut, and C99 Annex G's special values of
 * infinities and NaN as NumPy gives them. One set of formulas
 * serves the host and the GPU, evaluated in double for complex64 too;
 * results agree with NumPy within 16 eps of |result| (power within 256, as
 * exp(b log a) magnifies rounding), and log1p is accurate near 0 where
 * NumPy's log(1 + z) is not. cbrt, floor, ceil, trunc, arctan2 and hypot
 * refuse complex (CUSCI_ERR_DTYPE), as NumPy does.
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
 * may be cusci_operand_none() (not both: CUSCI_ERR_INVALID_ARGUMENT); with
 * one bound, clip is that maximum or minimum ufunc, as NumPy's. Complex
 * values with both bounds follow NumPy's clip loop, which orders by the
 * real parts and looks at the imaginary parts only on a tie (a NaN
 * imaginary part of a bound is then ignored unless the real parts tie),
 * and keeps a NaN of a.
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
 * Complex min and max order lexicographically (real part, then imaginary
 * part) as NumPy's: min and max return the first element with a NaN part
 * when there is one; nanmin and nanmax skip such elements and return the
 * slice's first element when all are NaN. Their values are elements of a,
 * the same on the host and the GPU.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE,
 * CUSCI_ERR_AXIS (an axis out of range or repeated, or naxes < 0),
 * CUSCI_ERR_VALUE, CUSCI_ERR_SHAPE and CUSCI_ERR_CAST (a given *out), CUSCI_ERR_OUT_OF_MEMORY,
 * CUSCI_ERR_CUDA.
 */
#define CUSCI_REDUCE_MAP(X)                                                        \
  X(sum) X(prod) X(mean) X(var) X(std) X(min) X(max) X(any) X(all) X(nansum)        \
  X(nanmean) X(nanmin) X(nanmax)
#define CUSCI_REDUCE_DECL_(name) \
  CUSCI_API cusci_status cusci_##name(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out);
CUSCI_REDUCE_MAP(CUSCI_REDUCE_DECL_)
#undef CUSCI_REDUCE_DECL_

/* -------------------------------------------- arg-reductions and scans */

/*
 * numpy.argmax, argmin, nanargmax and nanargmin (a, axis, keepdims=...):
 * the int64 index of the largest (smallest) element, over the flattened
 * array (opts NULL or naxes 0: NumPy's axis=None, a flat C-order index
 * whatever a's strides) or along one axis (naxes 1; more axes are
 * CUSCI_ERR_AXIS, as NumPy takes one int). keepdims keeps the reduced axes
 * with extent 1; ddof is ignored. Ties give the first occurrence. NaN:
 * argmax and argmin return the index of the first NaN, as NumPy; nanargmax
 * and nanargmin treat NaN as -inf (+inf for nanargmin), as NumPy does, and
 * a slice of NaNs only is CUSCI_ERR_VALUE (NumPy's ValueError; on the GPU
 * this check waits for the result). Complex values order
 * lexicographically (real part, then imaginary part); one with a NaN part
 * is NaN. An empty slice is CUSCI_ERR_VALUE. Host and GPU agree exactly.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE, CUSCI_ERR_AXIS
 * (naxes not 0 or 1, an axis out of range), CUSCI_ERR_VALUE, CUSCI_ERR_SHAPE
 * and CUSCI_ERR_CAST (a given *out), CUSCI_ERR_OUT_OF_MEMORY,
 * CUSCI_ERR_CUDA.
 *
 * numpy.cumsum, cumprod, nancumsum and nancumprod (a, axis): the running
 * sum (product) along one axis (naxes 1), with a's shape, or over the
 * flattened array in C order (opts NULL or naxes 0: axis=None), 1-d; the
 * NaN variants count NaN as 0 (as 1 for the product); keepdims and ddof
 * are ignored. Result dtypes are NumPy's: bool and signed integers give
 * int64, unsigned ones uint64 (wrapping modulo 2^64, exact on host and
 * GPU); floating and complex types keep their dtype and scan in it, one
 * rounding per step as NumPy, except float16, whose running value is held
 * in float32 and rounded once per output (NumPy rounds the running value
 * to float16 at each step, so the two drift apart on long float16 scans).
 * The GPU scans in parallel, in another order than the host's sequential
 * loop: float results agree within a relative 1e-5 (float32, complex64),
 * 1e-13 (float64, complex128), 1e-2 (float16) of the running magnitude.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE, CUSCI_ERR_AXIS,
 * CUSCI_ERR_SHAPE and CUSCI_ERR_CAST (a given *out),
 * CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
#define CUSCI_ARGSCAN_MAP(X) \
  X(argmax) X(argmin) X(nanargmax) X(nanargmin) X(cumsum) X(cumprod) X(nancumsum) X(nancumprod)
#define CUSCI_ARGSCAN_DECL_(name) \
  CUSCI_API cusci_status cusci_##name(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts, cusci_array **out);
CUSCI_ARGSCAN_MAP(CUSCI_ARGSCAN_DECL_)
#undef CUSCI_ARGSCAN_DECL_

/* ------------------------------------------------- sorting and statistics */

/*
 * NumPy's sorting, searching and statistics (numpy.sort, argsort, unique,
 * searchsorted, quantile, percentile, median, histogram, bincount).
 *
 * Order: NumPy's. Real numbers by value with NaNs last; -0.0 and +0.0 are
 * equal (a stable sort keeps their input order); complex numbers
 * lexicographically by (real, imag), then R + nanj, nan + Rj, nan + nanj.
 * argsort, unique and complex sorts are stable (NumPy's kind='stable'), so
 * argsort agrees with NumPy's stable argsort index for index. sort of
 * real values is NumPy's default kind, which promises no order among
 * equal elements; cusci fixes one (see cusci_sort). A sort along an axis
 * of an N-d array sorts every slice in one batched (segmented) pass on
 * the GPU.
 */

/* Stands for NumPy's axis=None (the flattened array) where an int axis is taken. */
#define CUSCI_AXIS_NONE (-2147483647 - 1)

/*
 * numpy.sort(a, axis) and numpy.argsort(a, axis, kind='stable'): a
 * (device) sorted along `axis` (negative counts from the end; NumPy's
 * default is -1; CUSCI_AXIS_NONE sorts the flattened array into a 1-d
 * result). sort keeps a's dtype and shape; argsort gives int64 positions
 * along the axis. Any dtype.
 * sort's values equal NumPy's; where NumPy's default sort leaves the order
 * of equal elements open, cusci_sort fixes it, the same on the host and
 * the GPU: in each slice every -0.0 comes before every +0.0; the NaNs come
 * last, each with its own sign and payload, first those with the sign bit
 * clear by increasing bits, then those with it set by decreasing bits.
 * (np.sort(kind='stable') keeps zeros in input order instead; complex
 * sorts are stable.)
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE, CUSCI_ERR_AXIS
 * (out of range, or a 0-d array with an axis), CUSCI_ERR_SHAPE and
 * CUSCI_ERR_DTYPE (a given *out that does not match),
 * CUSCI_ERR_NOT_SUPPORTED (on a GPU, a slice of 2^32 elements or more),
 * CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_sort(cusci_ctx *ctx, const cusci_array *a, int axis, cusci_array **out);
CUSCI_API cusci_status cusci_argsort(cusci_ctx *ctx, const cusci_array *a, int axis, cusci_array **out);

/* Options of cusci_unique; the zero value (or NULL) is np.unique's default. */
typedef struct cusci_unique_opts {
  bool return_index;   /* positions of the first occurrences */
  bool return_inverse; /* positions in the result of each element */
  bool return_counts;  /* occurrences of each unique value */
  bool nan_distinct;   /* equal_nan=False: every NaN is its own value */
} cusci_unique_opts;

/*
 * np.unique(ar, return_index, return_inverse, return_counts, equal_nan)
 * of the flattened array: the sorted unique values (1-d, ar's dtype) in
 * *unique, and, when asked for in opts, int64 *index (1-d), *inverse (ar's
 * shape, as NumPy 2 gives for axis=None) and *counts (1-d). An output not
 * asked for may be NULL and is left alone. Equal values are NumPy's (NaNs
 * are one value unless nan_distinct; -0.0 and +0.0 are one, shown as the
 * first in ar). Outputs follow the convention of core.h each.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER (ctx, ar, unique, or an output
 * asked for), CUSCI_ERR_DEVICE, CUSCI_ERR_SHAPE and CUSCI_ERR_DTYPE (a given
 * output that does not match), CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_unique(cusci_ctx *ctx, const cusci_array *ar, const cusci_unique_opts *opts,
                                    cusci_array **unique, cusci_array **index, cusci_array **inverse,
                                    cusci_array **counts);

/* numpy.searchsorted's side; LEFT (0) is NumPy's default. */
typedef enum cusci_side { CUSCI_SIDE_LEFT = 0, CUSCI_SIDE_RIGHT } cusci_side;

/*
 * numpy.searchsorted(a, v, side): for each element of v (any shape), the
 * position in the sorted 1-d a where it would be inserted to keep a sorted
 * (left: before equal elements; right: after them), int64 of v's shape.
 * a and v compare in their promoted dtype (numpy.result_type), in the
 * order above (NaN sorts last). a must be sorted; it is not checked.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE, CUSCI_ERR_NDIM
 * (a not 1-d), CUSCI_ERR_INVALID_ARGUMENT (side outside the enum),
 * CUSCI_ERR_SHAPE and CUSCI_ERR_DTYPE (a given *out), CUSCI_ERR_OUT_OF_MEMORY,
 * CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_searchsorted(cusci_ctx *ctx, const cusci_array *a, const cusci_array *v, cusci_side side,
                                          cusci_array **out);

/* numpy.quantile's methods (Hyndman and Fan's, and NumPy's own); LINEAR
 * (0) is NumPy's default. */
typedef enum cusci_quantile_method {
  CUSCI_QUANTILE_LINEAR = 0,
  CUSCI_QUANTILE_LOWER,
  CUSCI_QUANTILE_HIGHER,
  CUSCI_QUANTILE_NEAREST,
  CUSCI_QUANTILE_MIDPOINT,
  CUSCI_QUANTILE_INVERTED_CDF,
  CUSCI_QUANTILE_AVERAGED_INVERTED_CDF,
  CUSCI_QUANTILE_CLOSEST_OBSERVATION,
  CUSCI_QUANTILE_INTERPOLATED_INVERTED_CDF,
  CUSCI_QUANTILE_HAZEN,
  CUSCI_QUANTILE_WEIBULL,
  CUSCI_QUANTILE_MEDIAN_UNBIASED,
  CUSCI_QUANTILE_NORMAL_UNBIASED
} cusci_quantile_method;

/* Options of the quantiles; the zero value (or NULL) is NumPy's default:
 * all axes (axis=None), keepdims false, method 'linear'. */
typedef struct cusci_quantile_opts {
  int naxes;       /* entries of axes; 0: the flattened array */
  const int *axes; /* axes to reduce, negative counting from the end */
  bool keepdims;
  cusci_quantile_method method;
} cusci_quantile_opts;

/*
 * numpy.quantile(a, q, axis, method, keepdims) with q a Python float
 * (cusci_quantile: the result has the reduced shape) or a 1-d array of nq
 * quantiles in host memory (cusci_quantile_n: the result has a leading
 * axis of nq). q in [0, 1]; percentile takes [0, 100] and divides by 100
 * as NumPy does. a is real (bool only with the methods that pick an
 * element). A slice that holds a NaN gives NaN. Result dtype as NumPy's:
 * methods that pick an element (lower, higher, nearest, inverted_cdf,
 * closest_observation) keep a's dtype; the others give float64 for
 * integers, and for float16 and float32 their own dtype with a scalar q
 * (NEP 50) and float64 with an array q. As NumPy's, the difference of two
 * integer neighbours is taken in a's dtype and wraps on overflow.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE, CUSCI_ERR_AXIS,
 * CUSCI_ERR_VALUE (q out of range or NaN; an empty slice, where NumPy
 * raises IndexError), CUSCI_ERR_DTYPE (complex; bool with an interpolating
 * method), CUSCI_ERR_INVALID_ARGUMENT (method outside the enum, nq < 0),
 * CUSCI_ERR_SHAPE and CUSCI_ERR_DTYPE (a given *out),
 * CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_quantile(cusci_ctx *ctx, const cusci_array *a, double q, const cusci_quantile_opts *opts,
                                      cusci_array **out);
CUSCI_API cusci_status cusci_quantile_n(cusci_ctx *ctx, const cusci_array *a, int64_t nq, const double *q,
                                        const cusci_quantile_opts *opts, cusci_array **out);
CUSCI_API cusci_status cusci_percentile(cusci_ctx *ctx, const cusci_array *a, double q,
                                        const cusci_quantile_opts *opts, cusci_array **out);
CUSCI_API cusci_status cusci_percentile_n(cusci_ctx *ctx, const cusci_array *a, int64_t nq, const double *q,
                                          const cusci_quantile_opts *opts, cusci_array **out);
/* numpy.median(a, axis, keepdims): cusci_quantile at 0.5, linear
 * (ddof in opts is ignored). Returns the statuses of cusci_quantile. */
CUSCI_API cusci_status cusci_median(cusci_ctx *ctx, const cusci_array *a, const cusci_reduce_opts *opts,
                                    cusci_array **out);

/* Options of the histograms; the zero value (or NULL) is NumPy's default. */
typedef struct cusci_histogram_opts {
  bool has_range;             /* false: range=None, a's min and max */
  double range[2];            /* lower and upper edge, when has_range */
  const cusci_array *weights; /* NULL, or a's shape (device) */
  bool density;               /* counts / bin width / total */
} cusci_histogram_opts;

/*
 * numpy.histogram(a, bins, range, weights, density) over the flattened a
 * (real): `bins` equal bins over range (NumPy's default range is a's min
 * and max, widened by 0.5 both ways when they are equal, and (0, 1) for an
 * empty a), or, in cusci_histogram_edges, the bins between the given
 * monotonically increasing 1-d `bins` edges (device). Bins are half open
 * except the last, which is closed; values outside are ignored.
 * *hist: int64 counts; with weights the sums of the weights in the weights'
 * dtype (summed in double); with density float64 densities. *bin_edges
 * (may be NULL): the nb + 1 edges, of the dtype NumPy computes them in
 * (float64 for integer data, else a's float dtype; for given edges, a copy
 * of them).
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE, CUSCI_ERR_NDIM
 * (edges not 1-d), CUSCI_ERR_VALUE (bins < 1, fewer than 2 edges, edges
 * not monotonic, a range with lower > upper or not finite, an automatic
 * range that is not finite), CUSCI_ERR_SHAPE (weights not of a's shape),
 * CUSCI_ERR_DTYPE (complex a, weights or edges), CUSCI_ERR_OUT_OF_MEMORY,
 * CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_histogram(cusci_ctx *ctx, const cusci_array *a, int64_t bins,
                                       const cusci_histogram_opts *opts, cusci_array **hist, cusci_array **bin_edges);
CUSCI_API cusci_status cusci_histogram_edges(cusci_ctx *ctx, const cusci_array *a, const cusci_array *bins,
                                             const cusci_histogram_opts *opts, cusci_array **hist,
                                             cusci_array **bin_edges);

/*
 * numpy.bincount(x, weights, minlength): occurrences of each value of the
 * 1-d non-negative integer (or bool) x, of length max(max(x) + 1,
 * minlength); int64, or float64 sums of weights (1-d, x's length, real;
 * NULL for none).
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE, CUSCI_ERR_NDIM,
 * CUSCI_ERR_DTYPE (x not integer; complex weights), CUSCI_ERR_SHAPE
 * (weights of another length), CUSCI_ERR_VALUE (a negative value, or
 * minlength < 0), CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA; and CUSCI_ERR_SHAPE
 * or CUSCI_ERR_DTYPE for a given *out that does not match.
 */
CUSCI_API cusci_status cusci_bincount(cusci_ctx *ctx, const cusci_array *x, const cusci_array *weights,
                                      int64_t minlength, cusci_array **out);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_COMPUTE_H */
