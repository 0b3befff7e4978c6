/*
 * reference/linalg/lu_ops.h: the pivot and permutation formulas of
 * lu_factor, lu_solve and lu, for the host and the kernels (C11 and CUDA),
 * so that both backends compute the same p, l and u.
 *
 * Pivots. LAPACK's getrf (and cuSOLVER's) returns 1-based row
 * interchanges: row i of the matrix was swapped with row ipiv[i] - 1, for
 * i = 0, 1, ..., n - 1 in turn. SciPy's lu_factor hands them out 0-based,
 * as int32 (scipy/linalg/_decomp_lu.py).
 *
 * Permutation. Applying those swaps in turn to the identity order gives
 * perm with (P a)[i] = a[perm[i]] = (l u)[i]. SciPy's lu returns
 * a = p l u, so p[perm[i]][i] = 1; with p_indices it returns the rows
 * r = perm^-1 (a = (l u)[r], that is l[r] u), and with permute_l the
 * product p l, whose row r is row r[r] of l. Every output is thus written
 * from r alone: p[i][j] = (r[i] == j) and (p l)[i] = l[r[i]].
 *
 * perm = t_0 t_1 ... t_(n-1), the product of the transpositions
 * t_i = (i, piv[i]) applied to the array in that order, so its inverse is
 * t_(n-1) ... t_0: the same swaps of an identity array, from the last
 * pivot to the first, give r directly, with no array for perm.
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

/* ------------------------------------------------------------ permutation */

/* rows[0..n) = SciPy's p_indices of one matrix from its 0-based pivots
 * piv[0..n): the swaps of the identity from the last pivot to the first
 * (see above). A pivot outside 0..n-1 swaps nothing, so that rows is a
 * permutation of 0..n-1 whatever piv holds. Sequential: O(n). */
CUSCI_HD void cusci__lu_rows(const int32_t *piv, int64_t n, int32_t *rows)
{
  for (int64_t i = 0; i < n; i++)
    rows[i] = (int32_t)i;
  for (int64_t i = n - 1; i >= 0; i--) {
    int64_t j = piv[i];
    if (cusci__lu_piv_ok(j, n) && j != i) {
      int32_t t = rows[i];
      rows[i] = rows[j];
      rows[j] = t;
    }
  }
}

/* ------------------------------------------------------------ elements */

/* What an element of l or u is: 0, 1, or the factors' element. */
enum { CUSCI__LU_ZERO = 0, CUSCI__LU_ONE = 1, CUSCI__LU_FACTOR = 2 };

/* Element (i, j) of l: the strict lower triangle of the factors, 1 on the
 * diagonal, 0 above. */
CUSCI_HD int cusci__lu_l_part(int64_t i, int64_t j) { return j < i ? CUSCI__LU_FACTOR : j == i ? CUSCI__LU_ONE : CUSCI__LU_ZERO; }
/* Element (i, j) of u: the upper triangle of the factors, 0 below. */
CUSCI_HD int cusci__lu_u_part(int64_t i, int64_t j) { return j >= i ? CUSCI__LU_FACTOR : CUSCI__LU_ZERO; }
/* The row of l that row i of the output l is: i, or rows[i] for
 * permute_l (p l). */
CUSCI_HD int64_t cusci__lu_l_row(const int32_t *rows, int64_t i, bool permute_l) { return permute_l ? (int64_t)rows[i] : i; }
/* Whether p[i][j] is 1. */
CUSCI_HD bool cusci__lu_p_one(const int32_t *rows, int64_t i, int64_t j) { return (int64_t)rows[i] == j; }

#endif
