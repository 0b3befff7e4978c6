/*
 * cusci/linalg/options.h: the context options: the math mode of float32
 * products and the deferred numerical checks (part of cusci/linalg.h, which
 * says what every function shares).
 */
#ifndef CUSCI_LINALG_OPTIONS_H
#define CUSCI_LINALG_OPTIONS_H

#include <cusci/core.h>
#include <cusci/linalg/basic.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------- context options */

/* How float32 and complex64 products may compute on a GPU; 0 is the default. */
typedef enum cusci_linalg_math_mode {
  CUSCI_LINALG_MATH_DEFAULT = 0, /* full float32 arithmetic */
  CUSCI_LINALG_MATH_TF32         /* TF32 tensor cores (10-bit mantissa inputs) */
} cusci_linalg_math_mode;

/*
 * Let float32 and complex64 products (matmul and everything built on
 * cuBLAS gemm: dot, kron, expm, ...) use TF32 tensor cores on this GPU
 * context: cublasSetMathMode on the context's cuBLAS handle and the
 * TF32-fast compute type in gemm. Off by default. On a host context it is
 * accepted, stored, and has no effect (CBLAS has no such mode).
 * Returns CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT (mode outside
 * the enum), CUSCI_ERR_OUT_OF_MEMORY.
 */
CUSCI_API cusci_status cusci_linalg_set_math_mode(cusci_ctx *ctx, cusci_linalg_math_mode mode);
/* The context's math mode (CUSCI_LINALG_MATH_DEFAULT unless set). */
CUSCI_API cusci_linalg_math_mode cusci_linalg_get_math_mode(const cusci_ctx *ctx);

/* When a GPU context learns of numerical failures; 0 is the default. */
typedef enum cusci_linalg_check_mode {
  CUSCI_LINALG_CHECK_IMMEDIATE = 0, /* each call waits and reports (SciPy's way) */
  CUSCI_LINALG_CHECK_DEFERRED       /* calls keep their info words on the device */
} cusci_linalg_check_mode;

/*
 * The check mode of a context. Immediate (the default): every function that
 * can fail numerically waits for the stream and returns CUSCI_ERR_LINALG
 * (or CUSCI_ERR_VALUE for inf or NaN) itself. Deferred, on a GPU context:
 * solve (every assume_a), solve_triangular, solve_banded, solveh_banded,
 * inv, det, slogdet, cholesky, cho_factor, cho_solve, lu_solve, svd,
 * svdvals, eigh and eigvalsh queue their work and return at once, with no
 * synchronisation; their cuSOLVER info words and inf/NaN flags stay on the
 * device until cusci_linalg_check. A result of a failed call is then
 * undefined. Functions that read results on the host (lu_factor's pivots,
 * lu, pinv, matrix_rank, solve_toeplitz, solve_circulant, expm and the
 * functions built on it) still wait, and report as in immediate mode. On a
 * host context the mode is stored and failures are still reported at once.
 * Setting the mode to immediate keeps the pending records for the next
 * cusci_linalg_check.
 * Returns CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT,
 * CUSCI_ERR_OUT_OF_MEMORY.
 */
CUSCI_API cusci_status cusci_linalg_set_check(cusci_ctx *ctx, cusci_linalg_check_mode mode);
/* The context's check mode (CUSCI_LINALG_CHECK_IMMEDIATE unless set). */
CUSCI_API cusci_linalg_check_mode cusci_linalg_get_check(const cusci_ctx *ctx);

/*
 * Wait for the context's stream and report the first failure among the
 * deferred calls since the last check, in call order: CUSCI_ERR_VALUE
 * (inf or NaN in an input) or CUSCI_ERR_LINALG, the message naming the
 * function, the failing index and the flat batch index. The records are
 * dropped either way, so a second check returns CUSCI_OK.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_VALUE,
 * CUSCI_ERR_LINALG, CUSCI_ERR_CUDA, CUSCI_ERR_OUT_OF_MEMORY.
 */
CUSCI_API cusci_status cusci_linalg_check(cusci_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_LINALG_OPTIONS_H */
