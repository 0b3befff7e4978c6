/*
 * cusci/linalg/special.h: the special matrices: toeplitz, circulant, hankel,
 * companion, leslie, hilbert, invhilbert, pascal, dft, hadamard, helmert
 * (part of cusci/linalg.h, which says what every function shares).
 */
#ifndef CUSCI_LINALG_SPECIAL_H
#define CUSCI_LINALG_SPECIAL_H

#include <cusci/core.h>
#include <cusci/linalg/basic.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ special matrices */
/*
 * The special matrices of scipy.linalg. They are built on the host, in
 * plain loops, and copied to the context's device. Vectors given as arrays
 * may carry leading batch axes (SciPy 1.17's rule): the result then has the
 * same batch axes (those of two inputs broadcast). Dtypes follow SciPy's:
 * toeplitz, circulant and hankel keep their inputs' promoted dtype (any of
 * the 14); companion and leslie compute in the linalg dtypes (integers as
 * float64). Every function can return CUSCI_ERR_NULL_POINTER,
 * CUSCI_ERR_DEVICE, CUSCI_ERR_OUT_OF_MEMORY and the *out mismatches.
 */

/* scipy.linalg.toeplitz: first column c (..., m) and first row r (..., n),
 * r NULL for conj(c) (r[0] is ignored: the diagonal is c[0]); (..., m, n).
 * CUSCI_ERR_NDIM for a 0-d input, CUSCI_ERR_BROADCAST. */
CUSCI_API cusci_status cusci_linalg_toeplitz(cusci_ctx *ctx, const cusci_array *c, const cusci_array *r, cusci_array **out);
/* scipy.linalg.circulant: first column c (..., n); (..., n, n). */
CUSCI_API cusci_status cusci_linalg_circulant(cusci_ctx *ctx, const cusci_array *c, cusci_array **out);
/* scipy.linalg.hankel: first column c (..., m), last row r (..., n) (r[0]
 * ignored), r NULL for zeros; (..., m, n). */
CUSCI_API cusci_status cusci_linalg_hankel(cusci_ctx *ctx, const cusci_array *c, const cusci_array *r, cusci_array **out);
/* scipy.linalg.companion of the polynomial coefficients a (..., n), n >= 2:
 * (..., n-1, n-1). CUSCI_ERR_SHAPE (n < 2), CUSCI_ERR_VALUE (a[..., 0] is 0). */
CUSCI_API cusci_status cusci_linalg_companion(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);
/* scipy.linalg.leslie: fecundity f (..., n), survival s (..., n-1);
 * (..., n, n). CUSCI_ERR_SHAPE when the lengths do not fit. */
CUSCI_API cusci_status cusci_linalg_leslie(cusci_ctx *ctx, const cusci_array *f, const cusci_array *s, cusci_array **out);
/* scipy.linalg.hilbert(n): float64 (n, n), 1 / (i + j + 1).
 * CUSCI_ERR_VALUE for n < 0. */
CUSCI_API cusci_status cusci_linalg_hilbert(cusci_ctx *ctx, int64_t n, cusci_array **out);
/* scipy.linalg.invhilbert(n, exact): float64, or int64 with exact (n <= 14,
 * CUSCI_ERR_OVERFLOW beyond, where SciPy returns Python integers). */
CUSCI_API cusci_status cusci_linalg_invhilbert(cusci_ctx *ctx, int64_t n, bool exact, cusci_array **out);

/* scipy.linalg.pascal's kind; 0 is its default. */
typedef enum cusci_linalg_pascal_kind {
  CUSCI_LINALG_PASCAL_SYMMETRIC = 0,
  CUSCI_LINALG_PASCAL_LOWER,
  CUSCI_LINALG_PASCAL_UPPER
} cusci_linalg_pascal_kind;
/* scipy.linalg.pascal(n, kind, exact): uint64 with exact (n <= 33,
 * CUSCI_ERR_OVERFLOW beyond), else float64. CUSCI_ERR_INVALID_ARGUMENT for
 * a kind outside the enum. */
CUSCI_API cusci_status cusci_linalg_pascal(cusci_ctx *ctx, int64_t n, cusci_linalg_pascal_kind kind, bool exact, cusci_array **out);

/* scipy.linalg.dft's scale; 0 is its default (None). */
typedef enum cusci_linalg_dft_scale {
  CUSCI_LINALG_DFT_SCALE_NONE = 0,
  CUSCI_LINALG_DFT_SCALE_SQRTN, /* "sqrtn": 1 / sqrt(n) */
  CUSCI_LINALG_DFT_SCALE_N      /* "n": 1 / n */
} cusci_linalg_dft_scale;
/* scipy.linalg.dft(n, scale): complex128 (n, n), exp(-2 pi i j k / n). */
CUSCI_API cusci_status cusci_linalg_dft(cusci_ctx *ctx, int64_t n, cusci_linalg_dft_scale scale, cusci_array **out);
/* scipy.linalg.hadamard(n, dtype): Sylvester's construction, n a power of
 * 2 (CUSCI_ERR_VALUE otherwise). */
CUSCI_API cusci_status cusci_linalg_hadamard(cusci_ctx *ctx, int64_t n, cusci_dtype dtype, cusci_array **out);
/* scipy.linalg.helmert(n, full): float64 (n - 1, n), or (n, n) with full.
 * CUSCI_ERR_VALUE for n < 1. */
CUSCI_API cusci_status cusci_linalg_helmert(cusci_ctx *ctx, int64_t n, bool full, cusci_array **out);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_LINALG_SPECIAL_H */
