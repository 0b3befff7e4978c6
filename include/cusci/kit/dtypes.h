/*
 * cusci/kit/dtypes.h: the dtypes as a module's code sees them. Part of the
 * module kit (docs/modules.md), installed with the core; plain C11 that
 * also compiles as C++ and CUDA C++, so that an API layer, a host
 * reference and CUDA launchers share it.
 *
 *  - element types: cusci_f16 (IEEE binary16 bits), cusci_c64 and
 *    cusci_c128 (two parts in memory, NumPy's layout), and in C the C99
 *    complex types cusci_cfloat and cusci_cdouble of the same layout;
 *  - questions about a dtype that compile to constants where it is one
 *    (cusci_dtype_is_complex, cusci_dtype_real_of, ...);
 *  - lists of dtypes by kind, as X-macros X(NAME, C type, ...) that pass
 *    the caller's extra arguments on, and one dispatch over a list.
 *
 * A module writes the instances of an operation once per list entry and
 * picks one by dtype with CUSCI_DISPATCH_SDCZ (C), or with cusci::by_sdcz
 * in CUDA code (<cusci/kit/dispatch.cuh>).
 */
#ifndef CUSCI_KIT_DTYPES_H
#define CUSCI_KIT_DTYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cusci/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ element types */

typedef uint16_t cusci_f16; /* IEEE binary16 bits */
typedef struct cusci_c64 {
  float re, im;
} cusci_c64;
typedef struct cusci_c128 {
  double re, im;
} cusci_c128;
#ifndef __cplusplus
/* The C99 complex types, as LAPACKE and CBLAS take them. */
typedef float _Complex cusci_cfloat;
typedef double _Complex cusci_cdouble;
#endif

/* ------------------------------------------------------------ questions */

/* A host and device inline function of the kit. */
#if defined(__CUDACC__)
#define CUSCI_HD static __host__ __device__ __forceinline__
#else
#define CUSCI_HD static inline
#endif

/* Bytes per element, from CUSCI_DTYPE_MAP; 0 outside the enum. */
CUSCI_HD size_t cusci_kit_itemsize(int dt)
{
  switch (dt) {
#define CUSCI_KIT_SIZE_(name, np, size, kind) \
  case CUSCI_##name:                          \
    return size;
    CUSCI_DTYPE_MAP(CUSCI_KIT_SIZE_)
#undef CUSCI_KIT_SIZE_
  default:
    return 0;
  }
}

CUSCI_HD bool cusci_dtype_is_complex(int dt) { return dt == CUSCI_COMPLEX64 || dt == CUSCI_COMPLEX128; }
CUSCI_HD bool cusci_dtype_is_float(int dt) { return dt == CUSCI_FLOAT16 || dt == CUSCI_FLOAT32 || dt == CUSCI_FLOAT64; }
CUSCI_HD bool cusci_dtype_is_inexact(int dt) { return cusci_dtype_is_float(dt) || cusci_dtype_is_complex(dt); }
CUSCI_HD bool cusci_dtype_is_integer(int dt) { return dt >= CUSCI_INT8 && dt <= CUSCI_UINT64; }
/* float32 and complex64: the single-precision dtypes. */
CUSCI_HD bool cusci_dtype_is_single(int dt) { return dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64; }
/* The real dtype of a complex one (complex64: float32); others as they are. */
CUSCI_HD cusci_dtype cusci_dtype_real_of(int dt)
{
  return dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : dt == CUSCI_COMPLEX128 ? CUSCI_FLOAT64 : (cusci_dtype)dt;
}
/* The complex dtype of a float32 or float64 one's precision (float16 and
 * float32: complex64; others: complex128). */
CUSCI_HD cusci_dtype cusci_dtype_complex_of(int dt)
{
  return dt == CUSCI_FLOAT16 || cusci_dtype_is_single(dt) ? CUSCI_COMPLEX64 : CUSCI_COMPLEX128;
}

/* ------------------------------------------------------------ lists */

/*
 * X(NAME, C type, ...): the dtypes of a kind, CUSCI_##NAME the enum value,
 * the caller's extra arguments (at least one) after the C type.
 */
#define CUSCI_DTYPES_SIGNED(X, ...) \
  X(INT8, int8_t, __VA_ARGS__) X(INT16, int16_t, __VA_ARGS__) X(INT32, int32_t, __VA_ARGS__) X(INT64, int64_t, __VA_ARGS__)
#define CUSCI_DTYPES_UNSIGNED(X, ...)                                                                                    \
  X(UINT8, uint8_t, __VA_ARGS__) X(UINT16, uint16_t, __VA_ARGS__) X(UINT32, uint32_t, __VA_ARGS__)                      \
  X(UINT64, uint64_t, __VA_ARGS__)
#define CUSCI_DTYPES_INTEGER(X, ...) CUSCI_DTYPES_SIGNED(X, __VA_ARGS__) CUSCI_DTYPES_UNSIGNED(X, __VA_ARGS__)
/* The floats with C arithmetic (float16 has none: its bits are cusci_f16). */
#define CUSCI_DTYPES_REAL(X, ...) X(FLOAT32, float, __VA_ARGS__) X(FLOAT64, double, __VA_ARGS__)
#define CUSCI_DTYPES_COMPLEX(X, ...) X(COMPLEX64, cusci_c64, __VA_ARGS__) X(COMPLEX128, cusci_c128, __VA_ARGS__)
#define CUSCI_DTYPES_INEXACT(X, ...) CUSCI_DTYPES_REAL(X, __VA_ARGS__) CUSCI_DTYPES_COMPLEX(X, __VA_ARGS__)

/*
 * The four dtypes of LAPACK, BLAS and the vendor solvers, with their
 * letters: X(NAME, C type, real C type, letter, ...). The C types of the
 * complex ones are the C99 complex types (in C++, where those do not
 * exist, X must not use the C type).
 */
#ifdef __cplusplus
#define CUSCI_KIT_CF_ cusci_c64
#define CUSCI_KIT_CD_ cusci_c128
#else
#define CUSCI_KIT_CF_ cusci_cfloat
#define CUSCI_KIT_CD_ cusci_cdouble
#endif
#define CUSCI_DTYPES_SDCZ(X, ...)                                                                                        \
  X(FLOAT32, float, float, s, __VA_ARGS__) X(FLOAT64, double, double, d, __VA_ARGS__)                                   \
  X(COMPLEX64, CUSCI_KIT_CF_, float, c, __VA_ARGS__) X(COMPLEX128, CUSCI_KIT_CD_, double, z, __VA_ARGS__)

/*
 * `return FN_<letter>(args...)` for dt among the four SDCZ dtypes (the
 * instance of FN for dt, as LAPACK names them: FN_s, FN_d, FN_c, FN_z), or
 * `return fallback` for any other value. A statement, for the body of a
 * function that returns what the instances return.
 */
#define CUSCI_KIT_SDCZ_CASE_(NAME, T, R, L, FN, ...) \
  case CUSCI_##NAME:                                \
    return FN##_##L(__VA_ARGS__);
#define CUSCI_DISPATCH_SDCZ(dt, fallback, FN, ...)                 \
  switch (dt) {                                                    \
    CUSCI_DTYPES_SDCZ(CUSCI_KIT_SDCZ_CASE_, FN, __VA_ARGS__)       \
  default:                                                         \
    return fallback;                                               \
  }

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_KIT_DTYPES_H */
