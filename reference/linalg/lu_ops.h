/*
 * reference/linalg/lu_ops.h: the pivot formulas of lu_factor and
 * lu_solve, for the host and the kernels (C11 and CUDA), so that both
 * backends convert and check the pivots alike.
 *
 * Pivots. LAPACK's getrf (and cuSOLVER's) returns 1-based row
 * interchanges: row i of the matrix was swapped with row ipiv[i] - 1, for
 * i = 0, 1, ..., n - 1 in turn. SciPy's lu_factor hands them out 0-based,
 * as int32 (scipy/linalg/_decomp_lu.py).
 */
#ifndef CUSCI_REFERENCE_LINALG_LU_OPS_H
#define CUSCI_REFERENCE_LINALG_LU_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include <cusci/kit/dtypes.h>

/* ------------------------------------------------------------ pivots */

/* Whether p is a row of an n x n matrix (0..n-1), as lu_solve requires. */
CUSCI_HD bool cusci__lu_piv_ok(int64_t p, int64_t n) { return p >= 0 && p < n; }
/* LAPACK's 1-based pivot as SciPy's 0-based one. */
CUSCI_HD int32_t cusci__lu_piv_from_lapack(int64_t ipiv) { return (int32_t)(ipiv - 1); }
/* SciPy's 0-based pivot of row `row` as LAPACK's 1-based one. A pivot
 * outside 0..n-1 (which lu_solve reports) becomes row + 1, a swap of the
 * row with itself, so that no solver reads past the matrix. */
CUSCI_HD int64_t cusci__lu_piv_to_lapack(int32_t p, int64_t row, int64_t n) { return cusci__lu_piv_ok(p, n) ? (int64_t)p + 1 : row + 1; }

#endif
