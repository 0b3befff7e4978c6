/*
 * reference/linalg/reference.h: the host backend of liblinalg, on LAPACKE
 * and CBLAS, as seen from liblinalg/.
 *
 * Plain C, no CUDA header. Every matrix is C-contiguous (row-major), a batch
 * of `batch` matrices one after the other; arguments are already checked
 * and every extent fits a lapack_int. `dt` is a cusci_dtype among float32,
 * float64, complex64 and complex128. Functions that factor report the first
 * matrix that fails in *fail (info > 0, LAPACK's 1-based index) and stop
 * there; fail->info == 0 means every matrix succeeded. The return value is
 * 0, or LAPACK's negative info for an argument LAPACKE rejected (a bug), or
 * LAPACK_WORK_MEMORY_ERROR-like negative codes when LAPACKE cannot allocate.
 */
#ifndef CUSCI_REFERENCE_LINALG_H
#define CUSCI_REFERENCE_LINALG_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cusci__la_fail {
  int64_t batch; /* index of the failing matrix in the batch */
  int64_t info;  /* LAPACK's info: 0 none, > 0 the failing (1-based) index */
} cusci__la_fail;

/* Which matrices a solve assumes (cusci_linalg_assume_a's values). */
/* FACTORED: a already holds the Cholesky factor of the lower (lower) or
 * upper triangle, as cholesky returns it (cho_solve). TRIANGULAR: a is
 * triangular (lower or upper; the other triangle is not read), with a unit
 * diagonal when `unit` (solve_triangular). */
/* DIAGONAL, TRIDIAGONAL, BANDED: solve's structured kinds, read from the
 * dense a (reference/linalg/solvers.c). */
enum { CUSCI__LA_GEN = 0, CUSCI__LA_SYM, CUSCI__LA_HER, CUSCI__LA_POS, CUSCI__LA_FACTORED, CUSCI__LA_TRIANGULAR,
       CUSCI__LA_DIAGONAL, CUSCI__LA_TRIDIAGONAL, CUSCI__LA_BANDED };

/* True when any of the n elements (complex: either part) is inf or NaN. */
bool cusci__ref_la_nonfinite(int dt, int64_t n, const void *x);

/* c[i] = a[i] b[i], a (m, k), b (k, n), c (m, n); sa and sb are the batch
 * strides of a and b in elements (0 repeats one matrix). */
int cusci__ref_la_gemm(int dt, int64_t batch, int64_t m, int64_t n, int64_t k, const void *a, int64_t sa, const void *b, int64_t sb, void *c);

/* a (n, n) is destroyed (kept for FACTORED); b (n, k) becomes x. */
/* trans: 0 a x = b, 1 a^T x = b, 2 a^H x = b (GEN and TRIANGULAR only). */
int cusci__ref_la_solve(int dt, int assume, bool lower, int trans, bool unit, int64_t batch, int64_t n, int64_t k, void *a, void *b, cusci__la_fail *fail);

/* a (n, n) becomes its inverse. */
int cusci__ref_la_inv(int dt, int64_t batch, int64_t n, void *a, cusci__la_fail *fail);

/* a (n, n) is destroyed; det[i] (of dtype dt) its determinant. */
int cusci__ref_la_det(int dt, int64_t batch, int64_t n, void *a, void *det);

/* a (n, n) is destroyed; sign[i] (dtype dt) and logdet[i] (its real
 * dtype) are numpy.linalg.slogdet's. */
int cusci__ref_la_slogdet(int dt, int64_t batch, int64_t n, void *a, void *sign, void *logdet);

/* lu_factor: a (n, n) becomes L and U (getrf's), ipiv (n) LAPACK's 1-based
 * pivots. lu_solve: b (n, k) becomes x with op(a) x = b, trans 0, 1 or 2
 * (a, a^T, a^H), from those factors. */
int cusci__ref_la_lu_factor(int dt, int64_t batch, int64_t n, void *a, int32_t *ipiv);
int cusci__ref_la_lu_solve(int dt, int trans, int64_t batch, int64_t n, int64_t k, const void *lu, const int32_t *ipiv, void *b);
/* lu's split (reference/linalg/lu.c) of lu_factor's factors f (n, n) and
 * 0-based pivots piv (n), per matrix: rows (n) SciPy's p_indices; p (n, n,
 * dt's real dtype), unless NULL, the permutation matrix (a = p l u); l
 * (n, n) the unit lower triangle, its rows permuted (p l) when permute_l;
 * u (n, n) the upper triangle. Returns 0 (-1 for a dtype outside the four). */
int cusci__ref_la_lu_split(int dt, int64_t batch, int64_t n, const void *f, const int32_t *piv, bool permute_l, int32_t *rows, void *p,
                           void *l, void *u);

/* a (n, n) becomes its Cholesky factor, the other triangle zero. */
int cusci__ref_la_cholesky(int dt, int64_t batch, int64_t n, bool lower, void *a, cusci__la_fail *fail);

/* a (m, n) is destroyed; s (K) real; with uv, u (m, ucols) and vh (vrows,
 * n), ucols = vrows = m, n when full, else K. */
int cusci__ref_la_svd(int dt, int64_t batch, int64_t m, int64_t n, bool full, bool uv, void *a, void *u, void *s, void *vh, cusci__la_fail *fail);

/* a (n, n) becomes the eigenvectors (columns) when vectors, else is
 * destroyed; w (n) real, ascending. */
int cusci__ref_la_eigh(int dt, int64_t batch, int64_t n, bool upper, bool vectors, void *a, void *w, cusci__la_fail *fail);

/* ---- structured solvers (reference/linalg/solvers.c) */

/* solve's diagonal, tridiagonal and banded kinds from the dense a (n, n)
 * (a^T when trans), b (n, k) becoming x; fail as cusci__ref_la_solve. */
int cusci__ref_la_solve_structured(int dt, int assume, int trans, int64_t batch, int64_t n, int64_t k, const void *a, void *b, cusci__la_fail *fail);
/* solve_banded: ab (l + u + 1, n) in LAPACK's band storage (row-major as
 * SciPy's), b (n, k) becoming x. gtsv when l = u = 1, else gbsv. */
int cusci__ref_la_gbsv(int dt, int64_t batch, int64_t n, int64_t k, int64_t l, int64_t u, const void *ab, void *b, cusci__la_fail *fail);
/* solveh_banded: ab (u + 1, n), upper form or (lower) lower form; pbsv. */
int cusci__ref_la_pbsv(int dt, int64_t batch, int64_t n, int64_t k, int64_t u, bool lower, const void *ab, void *b, cusci__la_fail *fail);
/* solve_toeplitz by Levinson-Durbin: c, r (n) (r[0] unused), b (n, k)
 * becoming x; fail->info the order of the singular principal minor. */
int cusci__ref_la_levinson(int dt, int64_t n, int64_t k, const void *c, const void *r, void *b, cusci__la_fail *fail);
/* x (n, k) complex128 <- the DFT along axis 0 of x (inverse and scaled by
 * 1/n when inverse), a plain O(n^2) sum per column. */
int cusci__ref_la_dft(int64_t n, int64_t k, bool inverse, void *x);

#ifdef __cplusplus
}
#endif

#endif
