/*
 * cusci/linalg/basic.h: the basic functions: matmul and its numpy relatives,
 * solve, inv, det, slogdet, cholesky, svd, eigh, lu, solve_triangular,
 * cho_factor and cho_solve, pinv and matrix_rank, with the options they
 * share (part of cusci/linalg.h, which says what every function shares).
 */
#ifndef CUSCI_LINALG_BASIC_H
#define CUSCI_LINALG_BASIC_H

#include <cusci/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* scipy.linalg.solve's assume_a; 0 is its default, a general matrix. */
typedef enum cusci_linalg_assume_a {
  CUSCI_LINALG_ASSUME_GEN = 0, /* "gen": LU with partial pivoting */
  CUSCI_LINALG_ASSUME_SYM,     /* "sym": symmetric, one triangle is read */
  CUSCI_LINALG_ASSUME_HER,     /* "her": Hermitian, one triangle is read */
  CUSCI_LINALG_ASSUME_POS,     /* "pos": positive definite (Cholesky) */
  CUSCI_LINALG_ASSUME_DIAGONAL,    /* "diagonal": only the diagonal is read */
  CUSCI_LINALG_ASSUME_TRIDIAGONAL, /* "tridiagonal": three diagonals are read */
  CUSCI_LINALG_ASSUME_BANDED,      /* "banded": the band of nonzeros is found */
  CUSCI_LINALG_ASSUME_UPPER_TRIANGULAR, /* "upper triangular" */
  CUSCI_LINALG_ASSUME_LOWER_TRIANGULAR  /* "lower triangular" */
} cusci_linalg_assume_a;

/* scipy.linalg.solve's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_solve_opts {
  cusci_linalg_assume_a assume_a;
  bool lower;           /* sym/her/pos: read the lower triangle (default upper) */
  bool transposed;      /* solve a^T x = b (real dtypes only, as SciPy) */
  bool no_check_finite; /* check_finite=False */
} cusci_linalg_solve_opts;

/* scipy.linalg.eigh's keywords; the zero value is SciPy's defaults. */
/* scipy.linalg.eigh's subset_by_index / subset_by_value; 0 is its default. */
typedef enum cusci_linalg_eigh_subset {
  CUSCI_LINALG_SUBSET_ALL = 0, /* every eigenvalue */
  CUSCI_LINALG_SUBSET_INDEX,   /* subset_by_index=[lo, hi]: 0-based, inclusive */
  CUSCI_LINALG_SUBSET_VALUE    /* subset_by_value=(vlo, vhi]: half-open */
} cusci_linalg_eigh_subset;

/* scipy.linalg.eigh's keywords; the zero value is SciPy's defaults. The
 * fields after no_check_finite were added later; a caller that does not
 * name them gets SciPy's defaults (all eigenvalues, b=None, type=1). */
typedef struct cusci_linalg_eigh_opts {
  bool upper;           /* read the upper triangle (SciPy: lower=False) */
  bool no_check_finite; /* check_finite=False */
  cusci_linalg_eigh_subset subset;
  int64_t lo, hi;           /* CUSCI_LINALG_SUBSET_INDEX: 0 <= lo <= hi < n */
  double vlo, vhi;          /* CUSCI_LINALG_SUBSET_VALUE: vlo < vhi */
  const cusci_array *b;     /* generalized problem: b (..., n, n) Hermitian
                               positive definite, on a's device; NULL: none */
  int type;                 /* with b: 1 a v = w b v, 2 a b v = w v, 3 b a v =
                               w v; 0 means 1 */
} cusci_linalg_eigh_opts;

/*
 * numpy.matmul: the matrix product of the last two axes, batch axes
 * broadcast. a (..., m, k) and b (..., k, n) give (..., m, n); a 1-D a is
 * a row (its axis removed from the result), a 1-D b a column. Mixed dtypes
 * promote as NumPy's. On a GPU: cuBLAS gemm, strided-batched over the batch.
 * ctx: host or GPU; a, b: arrays on ctx's device; out: see core.h.
 * Returns CUSCI_ERR_NDIM (a 0-d operand), CUSCI_ERR_SHAPE (inner
 * dimensions differ), CUSCI_ERR_BROADCAST (batch shapes).
 */
CUSCI_API cusci_status cusci_linalg_matmul(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out);

/*
 * numpy.dot, numpy.inner, numpy.outer and numpy.kron, each one matrix
 * product (cusci_linalg_matmul) of reshaped and transposed views, in
 * float32, float64, complex64 and complex128 (mixed dtypes promote;
 * integer operands are CUSCI_ERR_DTYPE, as for matmul).
 *  - dot(a, b): NumPy's rules for 1-D and N-D operands (0-d operands are
 *    CUSCI_ERR_NDIM: use a multiplication); CUSCI_ERR_SHAPE when the
 *    summed axes differ.
 *  - inner(a, b): the sum over both last axes, a.shape[:-1] + b.shape[:-1].
 *  - outer(a, b): (a.size, b.size), the operands flattened.
 *  - kron(a, b): the Kronecker product, shapes padded with leading ones
 *    (at most 16 dimensions).
 */
CUSCI_API cusci_status cusci_linalg_dot(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out);
CUSCI_API cusci_status cusci_linalg_inner(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out);
CUSCI_API cusci_status cusci_linalg_outer(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out);
CUSCI_API cusci_status cusci_linalg_kron(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out);

/*
 * scipy.linalg.solve: x with a x = b, for a (..., n, n) and b (..., n, k),
 * or b (n,) when b is 1-D (numpy.linalg.solve's rule; x has b's shape,
 * batch axes broadcast). opts NULL: a general matrix, check_finite.
 * Host: LAPACKE gesv / sysv / hesv / posv. GPU: cuSOLVER getrf+getrs or
 * potrf+potrs (symmetric and Hermitian matrices are completed from the
 * triangle read, then solved by LU).
 * diagonal: x = b / diag(a) (an exactly zero diagonal element is singular).
 * tridiagonal: LAPACKE gtsv on the host; on a GPU a kernel of LU with
 * partial pivoting, one matrix per thread. banded: the band of nonzeros of
 * the whole batch is found, then LAPACKE gbsv on the host; on a GPU, where a
 * is dense in memory already, the general path (getrf+getrs). upper and
 * lower triangular: as cusci_linalg_solve_triangular. transposed applies to
 * every kind (a^T = a for sym, her and pos of a real dtype).
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE (a not square, b not matching),
 * CUSCI_ERR_BROADCAST, CUSCI_ERR_VALUE (inf or NaN), CUSCI_ERR_INVALID_ARGUMENT
 * (assume_a out of range), CUSCI_ERR_NOT_SUPPORTED (transposed with a
 * complex dtype, as SciPy), CUSCI_ERR_LINALG (singular or, for pos, not
 * positive definite; waits for the stream).
 */
CUSCI_API cusci_status cusci_linalg_solve(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_solve_opts *opts, cusci_array **x);

/*
 * scipy.linalg.inv of a (..., n, n). Host: LAPACKE getrf+getri. GPU:
 * cuSOLVER getrf, then getrs against the identity.
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE (not square), CUSCI_ERR_VALUE,
 * CUSCI_ERR_LINALG (singular; waits for the stream).
 */
CUSCI_API cusci_status cusci_linalg_inv(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);

/*
 * scipy.linalg.det of a (..., n, n): shape (...), a 0-d array for one
 * matrix. From the LU factors; a singular matrix gives 0, not an error.
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_VALUE.
 */
CUSCI_API cusci_status cusci_linalg_det(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);

/*
 * numpy.linalg.slogdet of a (..., n, n): sign (...) of a's dtype (a unit
 * complex number for complex input) and logabsdet (...) real, with
 * det = sign * exp(logabsdet) and no overflow. A singular matrix gives sign
 * 0 and logabsdet -inf, not an error. From the LU factors (LAPACKE getrf;
 * on the GPU a register kernel for n <= 32, cuSOLVER getrf above). Returns
 * CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_VALUE.
 */
CUSCI_API cusci_status cusci_linalg_slogdet(cusci_ctx *ctx, const cusci_array *a, cusci_array **sign, cusci_array **logabsdet);

/*
 * scipy.linalg.cholesky of a Hermitian positive definite a (..., n, n):
 * lower: L with a = L L^H (numpy.linalg.cholesky), else U with a = U^H U
 * (SciPy's default). Only that triangle of a is read; the other triangle of
 * the result is zero. Host: LAPACKE potrf. GPU: cuSOLVER potrf.
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_VALUE,
 * CUSCI_ERR_LINALG ("k-th leading minor not positive definite"; waits for
 * the stream).
 */
CUSCI_API cusci_status cusci_linalg_cholesky(cusci_ctx *ctx, const cusci_array *a, bool lower, cusci_array **out);

/*
 * scipy.linalg.svd of a (..., m, n) = u diag(s) vh, with K = min(m, n):
 * s (..., K) real, descending; with full_matrices u (..., m, m) and vh
 * (..., n, n), else u (..., m, K) and vh (..., K, n). With compute_uv false
 * only s is computed and u and vh may be NULL (they are not touched).
 * Host: LAPACKE gesdd (SciPy's default driver). GPU, economic or values
 * only: float32 and complex64 in float64 through the Gram matrix (syrk,
 * syevd, then the QR of A V for u; docs/linalg.md says why that keeps
 * single precision's accuracy); float64, complex128 and full_matrices by
 * cuSOLVER gesvd.
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_VALUE, CUSCI_ERR_LINALG (no
 * convergence; waits for the stream).
 */
CUSCI_API cusci_status cusci_linalg_svd(cusci_ctx *ctx, const cusci_array *a, bool full_matrices, bool compute_uv, cusci_array **u, cusci_array **s, cusci_array **vh);

/*
 * scipy.linalg.eigh of a Hermitian a (..., n, n): w (..., n) real,
 * ascending, and, when v is not NULL, v (..., n, n) whose columns are the
 * orthonormal eigenvectors (a v = v diag(w)). v NULL is eigvals_only=True.
 * One triangle of a is read (opts->upper; SciPy's default the lower).
 * Host: LAPACKE syevd / heevd. GPU: cuSOLVER syevd / heevd.
 * With opts->subset, only M eigenvalues come back: w (..., M), v (..., n,
 * M); M = hi - lo + 1 by index, or the count in (vlo, vhi] by value (the
 * same for every matrix of a batch, else CUSCI_ERR_VALUE). Host: LAPACKE
 * syevr / heevr. GPU: cuSOLVER Xsyevdx.
 * With opts->b, the generalized problem of opts->type, the same triangle
 * of b read, v normalized as LAPACK's (v^H b v = I for types 1 and 2).
 * Host: LAPACKE sygvd / hegvd (sygvx / hegvx with a subset). GPU: cuSOLVER
 * sygvd / hegvd (sygvdx / hegvdx with a subset).
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE (not square, or b not a's
 * shape), CUSCI_ERR_VALUE (inf or NaN; a subset out of range),
 * CUSCI_ERR_INVALID_ARGUMENT (subset or type out of range),
 * CUSCI_ERR_LINALG (no convergence, or b not positive definite; waits for
 * the stream).
 */
CUSCI_API cusci_status cusci_linalg_eigh(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_eigh_opts *opts, cusci_array **w, cusci_array **v);

/*
 * scipy.linalg.eigvalsh: the eigenvalues w (..., n) of a Hermitian a, as
 * cusci_linalg_eigh with v NULL. Same statuses as cusci_linalg_eigh.
 */
CUSCI_API cusci_status cusci_linalg_eigvalsh(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_eigh_opts *opts, cusci_array **w);

/*
 * scipy.linalg.svdvals: the singular values s (..., K) of a, descending, as
 * cusci_linalg_svd with compute_uv false. Same statuses as cusci_linalg_svd.
 */
CUSCI_API cusci_status cusci_linalg_svdvals(cusci_ctx *ctx, const cusci_array *a, cusci_array **s);

/*
 * scipy.linalg.lu_factor of a square a (..., n, n): lu (..., n, n) holds U
 * and the unit lower L below the diagonal, piv (..., n) int32 the 0-based
 * row interchanges (row i was swapped with row piv[i]), so that
 * a = P L U. An exactly zero pivot is no error (SciPy only warns). Host:
 * LAPACKE getrf. GPU: cuSOLVER getrf. Returns CUSCI_ERR_NDIM,
 * CUSCI_ERR_SHAPE (not square; SciPy also takes M x N), CUSCI_ERR_VALUE.
 */
CUSCI_API cusci_status cusci_linalg_lu_factor(cusci_ctx *ctx, const cusci_array *a, cusci_array **lu, cusci_array **piv);

/* scipy.linalg.lu's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_lu_opts {
  bool permute_l; /* return p l as l, and leave p alone (may be NULL) */
  bool p_indices; /* p as int32 row indices (a = l[p] u), not a matrix */
} cusci_linalg_lu_opts;

/*
 * scipy.linalg.lu of a square a (..., n, n): a = p l u with p a
 * permutation matrix (..., n, n) of a's real dtype, l unit lower and u
 * upper triangular (..., n, n). From cusci_linalg_lu_factor's factors;
 * p, l and u are then assembled on the host and copied to the context's
 * device (three transfers of the size of a). Returns the statuses of
 * lu_factor, and CUSCI_ERR_NULL_POINTER for p NULL without permute_l.
 */
CUSCI_API cusci_status cusci_linalg_lu(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_lu_opts *opts, cusci_array **p, cusci_array **l, cusci_array **u);

/* scipy.linalg.lu_solve's trans; 0 is its default. */
typedef enum cusci_linalg_trans {
  CUSCI_LINALG_TRANS_N = 0, /* a x = b */
  CUSCI_LINALG_TRANS_T,     /* a^T x = b */
  CUSCI_LINALG_TRANS_C      /* a^H x = b */
} cusci_linalg_trans;

/*
 * scipy.linalg.lu_solve((lu, piv), b, trans): x from lu_factor's lu
 * (..., n, n) and piv (..., n) (the same batch axes), b (..., n, k) or
 * (n,) when 1-D, batch axes broadcast. Host: LAPACKE getrs. GPU: cuSOLVER
 * getrs. Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_BROADCAST,
 * CUSCI_ERR_DTYPE (piv not int32), CUSCI_ERR_INVALID_ARGUMENT (trans),
 * CUSCI_ERR_VALUE (a pivot outside 0..n-1, or inf or NaN).
 */
CUSCI_API cusci_status cusci_linalg_lu_solve(cusci_ctx *ctx, const cusci_array *lu, const cusci_array *piv, const cusci_array *b, cusci_linalg_trans trans, cusci_array **x);

/* scipy.linalg.solve_triangular's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_solve_triangular_opts {
  cusci_linalg_trans trans; /* solve a x = b, a^T x = b or a^H x = b */
  bool lower;               /* a is lower triangular (default upper) */
  bool unit_diagonal;       /* the diagonal is taken as ones and not read */
  bool no_check_finite;     /* check_finite=False */
} cusci_linalg_solve_triangular_opts;

/*
 * scipy.linalg.solve_triangular: x with a x = b (or a^T, a^H), a (..., n, n)
 * triangular (only that triangle is read), b (..., n, k) or (n,) when 1-D,
 * batch axes broadcast. Host: LAPACKE trtrs. GPU: cuBLAS trsm, after a
 * check of the diagonal. Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE,
 * CUSCI_ERR_BROADCAST, CUSCI_ERR_INVALID_ARGUMENT (trans), CUSCI_ERR_VALUE,
 * CUSCI_ERR_LINALG (an exactly zero diagonal element; waits for the stream).
 */
CUSCI_API cusci_status cusci_linalg_solve_triangular(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b,
                                                     const cusci_linalg_solve_triangular_opts *opts, cusci_array **x);

/*
 * scipy.linalg.cho_factor of a Hermitian positive definite a (..., n, n):
 * c holds the factor in its lower (lower) or upper triangle, as
 * cusci_linalg_cholesky returns it (SciPy leaves arbitrary values in the
 * other triangle; here it is zero). Give c and the same `lower` to
 * cusci_linalg_cho_solve. Same statuses as cusci_linalg_cholesky.
 */
CUSCI_API cusci_status cusci_linalg_cho_factor(cusci_ctx *ctx, const cusci_array *a, bool lower, cusci_array **c);

/*
 * scipy.linalg.cho_solve((c, lower), b): x with a x = b, from the factor c
 * (..., n, n) of cho_factor; b (..., n, k), or (n,) when 1-D, batch axes
 * broadcast as in cusci_linalg_solve. Only c's factor triangle is read.
 * Host: LAPACKE potrs. GPU: cuSOLVER potrs. Returns CUSCI_ERR_NDIM,
 * CUSCI_ERR_SHAPE, CUSCI_ERR_BROADCAST, CUSCI_ERR_VALUE (inf or NaN).
 */
CUSCI_API cusci_status cusci_linalg_cho_solve(cusci_ctx *ctx, const cusci_array *c, bool lower, const cusci_array *b, cusci_array **x);

/* scipy.linalg.pinv's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_pinv_opts {
  double atol; /* absolute cutoff for the singular values (default 0) */
  double rtol; /* relative to the largest; 0: SciPy's max(M, N) * eps */
} cusci_linalg_pinv_opts;

/*
 * scipy.linalg.pinv of a (..., M, N): (..., N, M), V diag(1/s) U^H over
 * the singular values s > atol + rtol * max(s) (the others count as 0).
 * The economic SVD runs on the context's device (cusci_linalg_svd); the
 * factors are scaled and conjugate-transposed on the host, and their
 * product is one matmul on the device. Returns CUSCI_ERR_NDIM,
 * CUSCI_ERR_VALUE (negative atol or rtol; inf or NaN) and svd's statuses.
 */
CUSCI_API cusci_status cusci_linalg_pinv(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_pinv_opts *opts, cusci_array **out);

/* numpy.linalg.matrix_rank's keywords; the zero value is NumPy's defaults. */
typedef struct cusci_linalg_matrix_rank_opts {
  bool has_tol;   /* use tol (NumPy's tol=None when false) */
  double tol;     /* singular values above tol count */
  double rtol;    /* relative to the largest; 0: max(M, N) * eps of the dtype */
  bool hermitian; /* a is Hermitian: |eigenvalues| instead of singular values */
} cusci_linalg_matrix_rank_opts;

/*
 * numpy.linalg.matrix_rank of a (..., M, N): int64 (...), the number of
 * singular values above tol (or above rtol times the largest). For a 0-d
 * or 1-D a, 1 when any element is nonzero, else 0 (NumPy's rule). The
 * singular values come from cusci_linalg_svdvals (or eigvalsh), the count
 * is made on the host. Returns CUSCI_ERR_VALUE (a negative tol or rtol, or
 * inf or NaN in a) and the statuses of svdvals.
 */
CUSCI_API cusci_status cusci_linalg_matrix_rank(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_matrix_rank_opts *opts, cusci_array **out);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_LINALG_BASIC_H */
