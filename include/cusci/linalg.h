/*
 * cusci/linalg.h: scipy.linalg and numpy.linalg on cuBLAS and cuSOLVER,
 * with a host backend on LAPACKE and CBLAS.
 *
 * Every function takes stacks of matrices as NumPy does: the last two axes
 * of an array are the matrix, the leading axes are a batch, and batch axes
 * broadcast where NumPy's do (matmul, solve). Arrays may be strided views.
 * The dtypes are float32, float64, complex64 and complex128; bool and
 * integer inputs are converted to float64 as NumPy converts them, float16
 * is refused (CUSCI_ERR_DTYPE) as numpy.linalg refuses it. Results have the
 * input's dtype (real for singular values and eigenvalues of complex
 * input) and are C-contiguous.
 *
 * Numerical failure is CUSCI_ERR_LINALG, as scipy.linalg raises
 * LinAlgError, with the failing index and batch index in the message
 * (cusci_ctx_last_error). On a GPU context, knowing whether a factorization
 * failed means reading cuSOLVER's info back to the host: every function
 * that can return CUSCI_ERR_LINALG therefore waits for the context's stream
 * before it returns. matmul does not.
 *
 * `check_finite` is SciPy's default (on) for the functions that mirror a
 * scipy.linalg function: an input holding inf or NaN is CUSCI_ERR_VALUE.
 * The options structs can turn it off.
 *
 * Besides the statuses listed per function, every function can return
 * CUSCI_ERR_NULL_POINTER (ctx, an input or an output pointer is NULL),
 * CUSCI_ERR_DEVICE (an array on another device), CUSCI_ERR_DTYPE,
 * CUSCI_ERR_OUT_OF_MEMORY and, on a GPU, CUSCI_ERR_CUDA; and, when *out is
 * given, CUSCI_ERR_SHAPE / CUSCI_ERR_DTYPE / CUSCI_ERR_DEVICE if it does not
 * match the result.
 */
#ifndef CUSCI_LINALG_H
#define CUSCI_LINALG_H

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

/* ------------------------------------------------------- eigenproblems */
/*
 * General eigenproblems, Schur and Hessenberg forms, polar and LDL^T
 * decompositions, the pseudo-inverse of a Hermitian matrix, and
 * tridiagonal eigenproblems. Every function takes stacks of matrices
 * (leading axes are a batch) in float32, float64, complex64 and complex128
 * (bool and integers as float64). The host backend computes in double
 * precision (float32 and complex64 inputs are widened, the results
 * rounded back). Every function can return CUSCI_ERR_NULL_POINTER,
 * CUSCI_ERR_DEVICE, CUSCI_ERR_DTYPE, CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA
 * and the *out mismatches, besides those listed.
 */

/* scipy.linalg.eig's keywords that are not outputs; zero: SciPy's defaults. */
typedef struct cusci_linalg_eig_opts {
  bool no_check_finite; /* check_finite=False */
} cusci_linalg_eig_opts;

/*
 * scipy.linalg.eig(a, b, left, right): the eigenvalues w (...) and, when vl
 * or vr is not NULL, the left (vl^H a = diag(w) vl^H) and right (a vr = vr
 * diag(w)) eigenvectors (..., n, n) of a general a (..., n, n), or of the
 * pencil (a, b) when b is not NULL (w = alpha / beta, inf where beta is 0).
 * vl NULL is left=False, vr NULL is right=False.
 * Dtypes: w is always complex (complex64 for float32 and complex64 input,
 * complex128 otherwise), as scipy.linalg.eig's; the eigenvectors are
 * complex too, also when every eigenvalue is real (where SciPy returns
 * real vectors: take their real part). Eigenvectors have unit 2-norm, and
 * without b their largest component is real (LAPACK's geev); with b they
 * are scaled to unit 2-norm as SciPy scales ggev's. The order of the
 * eigenvalues is the solver's, not sorted, and may differ between the host
 * and the GPU. homogeneous_eigvals is not offered.
 * Host: LAPACKE geev / ggev. GPU without b: cuSOLVER Xgeev (right
 * eigenvectors only), the left ones as the columns of inv(vr)^H scaled to
 * unit norm, largest component real (an eigenvector matrix that is
 * singular, as a defective a gives, is CUSCI_ERR_LINALG). GPU with b:
 * cuSOLVER has no generalized nonsymmetric solver, so a and b are copied
 * to the host, solved by LAPACKE ggev and the results copied back.
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE (not square; b not a's shape),
 * CUSCI_ERR_VALUE (inf or NaN), CUSCI_ERR_LINALG (no convergence; waits
 * for the stream).
 */
CUSCI_API cusci_status cusci_linalg_eig(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_eig_opts *opts,
                                        cusci_array **w, cusci_array **vl, cusci_array **vr);
/* scipy.linalg.eigvals(a, b): w only, as cusci_linalg_eig. */
CUSCI_API cusci_status cusci_linalg_eigvals(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_eig_opts *opts,
                                            cusci_array **w);

/* scipy.linalg.schur's keywords; the zero value is SciPy's defaults
 * (output='real', sort=None; sorting is not offered). */
typedef struct cusci_linalg_schur_opts {
  bool complex_output;  /* output='complex' */
  bool no_check_finite; /* check_finite=False */
} cusci_linalg_schur_opts;

/*
 * scipy.linalg.schur of a (..., n, n): a = z t z^H with z unitary (..., n,
 * n) and t (..., n, n) upper triangular, or quasi-triangular (2x2 blocks
 * for complex pairs) for real a with output='real'. Complex output turns a
 * real a into complex first. Host: LAPACKE gees. GPU: cuSOLVER has no
 * Schur decomposition; a is copied to the host, decomposed by LAPACKE gees
 * and t and z copied back. Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE,
 * CUSCI_ERR_VALUE, CUSCI_ERR_LINALG ("Schur form not found").
 */
CUSCI_API cusci_status cusci_linalg_schur(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_schur_opts *opts, cusci_array **t,
                                          cusci_array **z);

/*
 * scipy.linalg.rsf2csf(T, Z): the complex Schur form (t2, z2) from a real
 * one (t, z) of schur, by a Givens rotation for each 2x2 block whose
 * subdiagonal is above eps * (|t[m-1, m-1]| + |t[m, m]|). Complex64 out
 * for float32 input, complex128 otherwise; t and z (..., n, n) alike.
 * Computed on the host (O(n^2) a block) and copied to the context's
 * device. Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_VALUE (inf or
 * NaN; check_finite is SciPy's default).
 */
CUSCI_API cusci_status cusci_linalg_rsf2csf(cusci_ctx *ctx, const cusci_array *t, const cusci_array *z, cusci_array **t2,
                                            cusci_array **z2);

/*
 * scipy.linalg.hessenberg(a, calc_q): h (..., n, n) upper Hessenberg
 * (zeros below the first subdiagonal) with a = q h q^H; q (..., n, n)
 * unitary when q is not NULL (calc_q=True). Host: LAPACKE gehrd and
 * orghr / unghr. GPU: cuSOLVER has no Hessenberg reduction; a is copied to
 * the host, reduced there and copied back. Returns CUSCI_ERR_NDIM,
 * CUSCI_ERR_SHAPE, CUSCI_ERR_VALUE.
 */
CUSCI_API cusci_status cusci_linalg_hessenberg(cusci_ctx *ctx, const cusci_array *a, cusci_array **h, cusci_array **q);

/* scipy.linalg.polar's side; 0 is its default. */
typedef enum cusci_linalg_polar_side {
  CUSCI_LINALG_POLAR_RIGHT = 0, /* a = u p */
  CUSCI_LINALG_POLAR_LEFT       /* a = p u */
} cusci_linalg_polar_side;

/*
 * scipy.linalg.polar of a (..., m, n): u (..., m, n) with orthonormal
 * columns (rows when m < n) and p Hermitian positive semidefinite, (...,
 * n, n) for side right (a = u p), (..., m, m) for side left (a = p u).
 * From the economic SVD a = W S V^H: u = W V^H, p = V S V^H (right) or
 * W S W^H (left); the SVD and the products run on the context's device
 * (cusci_linalg_svd, cusci_linalg_matmul). Returns CUSCI_ERR_NDIM,
 * CUSCI_ERR_INVALID_ARGUMENT (side), CUSCI_ERR_VALUE and svd's statuses.
 */
CUSCI_API cusci_status cusci_linalg_polar(cusci_ctx *ctx, const cusci_array *a, cusci_linalg_polar_side side, cusci_array **u,
                                          cusci_array **p);

/* scipy.linalg.ldl's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_ldl_opts {
  bool upper;           /* lower=False: a = u d u^H, u upper */
  bool not_hermitian;   /* hermitian=False: complex symmetric, a = l d l^T */
  bool no_check_finite; /* check_finite=False */
} cusci_linalg_ldl_opts;

/*
 * scipy.linalg.ldl of a symmetric or Hermitian a (..., n, n), one triangle
 * read: lu (..., n, n), d (..., n, n) block diagonal (1x1 and 2x2 blocks)
 * and perm (..., n) int64 with a = lu d lu^H (lu^T without hermitian) and
 * lu[perm] triangular, as SciPy builds them from LAPACK's Bunch-Kaufman
 * factors. A singular d is no error (as SciPy). Host: LAPACKE sytrf /
 * hetrf. GPU: the matrix is copied to the host, factored there and the
 * three results copied back (the factors' post-processing is sequential).
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_VALUE.
 */
CUSCI_API cusci_status cusci_linalg_ldl(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_ldl_opts *opts, cusci_array **lu,
                                        cusci_array **d, cusci_array **perm);

/* scipy.linalg.pinvh's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_pinvh_opts {
  double atol;          /* absolute cutoff (default 0) */
  double rtol;          /* relative to max |w|; 0: SciPy's n * eps */
  bool upper;           /* lower=False: read the upper triangle */
  bool no_check_finite; /* check_finite=False */
} cusci_linalg_pinvh_opts;

/*
 * scipy.linalg.pinvh of a Hermitian a (..., n, n): V diag(1/w) V^H over
 * the eigenvalues with |w| > atol + rtol * max|w|. The eigendecomposition
 * runs on the context's device (cusci_linalg_eigh); the cut is made on
 * the host and the product is one matmul on the device. Returns
 * CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_VALUE (negative atol or rtol;
 * inf or NaN) and eigh's statuses.
 */
CUSCI_API cusci_status cusci_linalg_pinvh(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_pinvh_opts *opts, cusci_array **out);

/* scipy.linalg.eigh_tridiagonal's keywords; zero: SciPy's defaults
 * (select='a'). The by-index and by-value fields are eigh's. */
typedef struct cusci_linalg_eigh_tridiagonal_opts {
  cusci_linalg_eigh_subset select; /* 'a', 'i' (lo, hi) or 'v' (vlo, vhi] */
  int64_t lo, hi;
  double vlo, vhi;
  bool no_check_finite; /* check_finite=False */
} cusci_linalg_eigh_tridiagonal_opts;

/*
 * scipy.linalg.eigh_tridiagonal(d, e): the eigenvalues w (..., M),
 * ascending, and, when v is not NULL, the eigenvectors v (..., n, M) of
 * the real symmetric tridiagonal matrix with diagonal d (..., n) and off
 * diagonal e (..., n-1) (the same batch axes). float32 in, float32 out;
 * complex input is CUSCI_ERR_DTYPE, as SciPy refuses it. Host: LAPACKE
 * stemr (SciPy's tol, max_ptc and lapack_driver are not offered). GPU: the
 * dense tridiagonal matrix is formed and solved by cusci_linalg_eigh
 * (cuSOLVER syevd, or Xsyevdx for a subset). Returns CUSCI_ERR_NDIM,
 * CUSCI_ERR_SHAPE (e not n-1 long, batch axes differ), CUSCI_ERR_VALUE
 * (inf or NaN; a range out of bounds), CUSCI_ERR_INVALID_ARGUMENT
 * (select), CUSCI_ERR_LINALG.
 */
CUSCI_API cusci_status cusci_linalg_eigh_tridiagonal(cusci_ctx *ctx, const cusci_array *d, const cusci_array *e,
                                                     const cusci_linalg_eigh_tridiagonal_opts *opts, cusci_array **w,
                                                     cusci_array **v);
/* scipy.linalg.eigvalsh_tridiagonal: w only, as eigh_tridiagonal. */
CUSCI_API cusci_status cusci_linalg_eigvalsh_tridiagonal(cusci_ctx *ctx, const cusci_array *d, const cusci_array *e,
                                                         const cusci_linalg_eigh_tridiagonal_opts *opts, cusci_array **w);

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

/* ------------------------------------- structured solvers, matrix functions */

/* Keywords of solve_banded and solveh_banded; the zero value is SciPy's. */
typedef struct cusci_linalg_banded_opts {
  bool lower;           /* solveh_banded: ab holds the lower form (default upper) */
  bool no_check_finite; /* check_finite=False */
} cusci_linalg_banded_opts;

/*
 * scipy.linalg.solve_banded((l, u), ab, b): x with a x = b for the banded a
 * held in LAPACK's band storage, ab (..., l + u + 1, n) with
 * ab[u + i - j, j] = a[i, j]; b (..., n, k), or (n,) when 1-D; batch axes
 * broadcast as in cusci_linalg_solve. Host: LAPACKE gtsv (l = u = 1) or
 * gbsv. GPU: a kernel of banded LU with partial pivoting (LAPACK's gbtf2
 * order), one matrix per thread, in O(n (2l + u + 1)) device scratch.
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_VALUE (l or u negative; inf or NaN),
 * CUSCI_ERR_SHAPE (ab's rows are not l + u + 1, or b's not n),
 * CUSCI_ERR_BROADCAST, CUSCI_ERR_LINALG (singular; waits for the stream
 * unless checks are deferred).
 */
CUSCI_API cusci_status cusci_linalg_solve_banded(cusci_ctx *ctx, int64_t l, int64_t u, const cusci_array *ab, const cusci_array *b,
                                                 const cusci_linalg_banded_opts *opts, cusci_array **x);

/*
 * scipy.linalg.solveh_banded(ab, b, lower): x with a x = b for a Hermitian
 * positive definite banded a in band storage: ab (..., u + 1, n), upper form
 * ab[u + i - j, j] = a[i, j] (i <= j), or lower form ab[i - j, j] = a[i, j]
 * (i >= j) with opts->lower. b as in solve_banded. Host: LAPACKE pbsv.
 * GPU: a kernel of banded Cholesky, one matrix per thread.
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_BROADCAST,
 * CUSCI_ERR_VALUE, CUSCI_ERR_LINALG ("k-th leading minor not positive
 * definite"; waits for the stream unless checks are deferred).
 */
CUSCI_API cusci_status cusci_linalg_solveh_banded(cusci_ctx *ctx, const cusci_array *ab, const cusci_array *b, const cusci_linalg_banded_opts *opts,
                                                  cusci_array **x);

/*
 * scipy.linalg.solve_toeplitz((c, r), b): x with T x = b, T the Toeplitz
 * matrix of first column c (n,) and first row r (n,) (r NULL: conj(c), a
 * Hermitian T; r[0] is ignored), b (n,) or (n, k), every column solved.
 * Levinson-Durbin recursion, O(n^2) per column: a plain loop on the host,
 * one thread block per column on a GPU. The dtype is the promoted one of
 * c, r and b (SciPy computes in float64 or complex128 only).
 * Returns CUSCI_ERR_NDIM (c or r not 1-D, b not 1-D or 2-D),
 * CUSCI_ERR_SHAPE (lengths differ), CUSCI_ERR_VALUE (inf or NaN, unless
 * no_check_finite), CUSCI_ERR_LINALG ("singular principal minor", as
 * SciPy's; waits for the stream).
 */
CUSCI_API cusci_status cusci_linalg_solve_toeplitz(cusci_ctx *ctx, const cusci_array *c, const cusci_array *r, const cusci_array *b,
                                                   bool no_check_finite, cusci_array **x);

/* scipy.linalg.solve_circulant's `singular`; 0 is its default. */
typedef enum cusci_linalg_singular {
  CUSCI_LINALG_SINGULAR_RAISE = 0, /* "raise": CUSCI_ERR_LINALG */
  CUSCI_LINALG_SINGULAR_LSTSQ      /* "lstsq": the least squares solution */
} cusci_linalg_singular;

/* scipy.linalg.solve_circulant's keywords; the zero value is SciPy's. */
typedef struct cusci_linalg_circulant_opts {
  cusci_linalg_singular singular;
  double tol;           /* eigenvalues with |.| <= tol count as zero; 0 (or
                           less): SciPy's tol=None, n * eps * max |eig| */
  bool no_check_finite; /* inputs are not checked (SciPy never checks) */
} cusci_linalg_circulant_opts;

/*
 * scipy.linalg.solve_circulant(c, b): x with C x = b, C the circulant
 * matrix of first column c (n,), b (n,) or (n, k) (SciPy's baxis=0), by
 * the discrete Fourier transform: x = ifft(fft(b) / fft(c)). The
 * eigenvalues fft(c) are computed on the host (a plain DFT, O(n^2)); b's
 * transforms run on the context's device (cuFFT on a GPU, the same plain
 * DFT on the host). Real c and b give a real x.
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_INVALID_ARGUMENT
 * (singular outside the enum), CUSCI_ERR_VALUE (inf or NaN),
 * CUSCI_ERR_LINALG ("near singular circulant matrix" with singular
 * raise). Waits for the stream (the eigenvalues are read on the host).
 */
CUSCI_API cusci_status cusci_linalg_solve_circulant(cusci_ctx *ctx, const cusci_array *c, const cusci_array *b,
                                                    const cusci_linalg_circulant_opts *opts, cusci_array **x);

/*
 * scipy.linalg.expm of a (..., n, n): the matrix exponential, by Al-Mohy
 * and Higham's scaling and squaring (SIAM J. Matrix Anal. Appl. 31, 2009):
 * a Pade approximant of degree 3, 5, 7, 9 or 13 chosen from 1-norms of
 * powers of a, a scaling by 2^-s, then s squarings. The same algorithm runs
 * on both backends, composed of cusci_linalg_matmul and cusci_linalg_solve
 * (CBLAS and LAPACKE on the host, cuBLAS and cuSOLVER on a GPU) and core
 * element-wise functions, so a batch is one batched call per step; the
 * degree and s are chosen per batch (the largest any matrix needs), which
 * only adds squarings for the others. The norms are read on the host:
 * waits for the stream. Integer input is computed in float64.
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE (not square), CUSCI_ERR_VALUE
 * (inf or NaN).
 */
CUSCI_API cusci_status cusci_linalg_expm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);

/*
 * scipy.linalg.cosm, sinm, tanm, coshm, sinhm and tanhm of a (..., n, n),
 * through expm as SciPy's: cosm = (e^{ia} + e^{-ia}) / 2 (the real part of
 * e^{ia} for real a), sinm likewise, tanm = solve(cosm, sinm),
 * coshm = (e^a + e^-a) / 2, sinhm = (e^a - e^-a) / 2,
 * tanhm = solve(coshm, sinhm). Real a gives a real result. Same statuses
 * as cusci_linalg_expm, and CUSCI_ERR_LINALG for tanm and tanhm when the
 * denominator is singular.
 */
CUSCI_API cusci_status cusci_linalg_cosm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);
CUSCI_API cusci_status cusci_linalg_sinm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);
CUSCI_API cusci_status cusci_linalg_tanm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);
CUSCI_API cusci_status cusci_linalg_coshm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);
CUSCI_API cusci_status cusci_linalg_sinhm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);
CUSCI_API cusci_status cusci_linalg_tanhm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);

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

/* --------------------------------- qr, rq, lstsq, norms and contractions */

/* scipy.linalg.qr's and rq's mode; 0 is their default. */
typedef enum cusci_linalg_qr_mode {
  CUSCI_LINALG_QR_FULL = 0, /* "full": Q (M, M), R (M, N) */
  CUSCI_LINALG_QR_R,        /* "r": R (M, N) only */
  CUSCI_LINALG_QR_ECONOMIC  /* "economic": Q (M, K), R (K, N), K = min(M, N) */
} cusci_linalg_qr_mode;

/* scipy.linalg.qr's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_qr_opts {
  cusci_linalg_qr_mode mode;
  bool pivoting;        /* column pivoting: a[:, P] = Q R, |diag(R)| decreasing */
  bool no_check_finite; /* check_finite=False */
} cusci_linalg_qr_opts;

/*
 * scipy.linalg.qr of a (..., M, N): a = Q R, or a[..., :, P] = Q R with
 * pivoting. Q (..., M, M) or (..., M, K) with orthonormal columns, R upper
 * triangular (..., M, N) or (..., K, N), P (..., N) int32 (SciPy's dtype).
 * q may be NULL with mode r; p is written only with pivoting (may be NULL
 * otherwise). Host: LAPACKE geqrf (geqp3 with pivoting) + orgqr / ungqr.
 * GPU: cuSOLVER Xgeqrf + orgqr / ungqr (waits for the stream only to read
 * the finite check). cuSOLVER has no pivoted QR: with pivoting on a GPU, the
 * matrix is copied to the host, factored by LAPACKE geqp3 and the factors
 * copied back (a synchronous host path). Returns CUSCI_ERR_NDIM,
 * CUSCI_ERR_INVALID_ARGUMENT (mode), CUSCI_ERR_VALUE (inf or NaN),
 * CUSCI_ERR_OVERFLOW (extents beyond LAPACK's or orgqr's int).
 */
CUSCI_API cusci_status cusci_linalg_qr(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_qr_opts *opts, cusci_array **q, cusci_array **r,
                                       cusci_array **p);

/* scipy.linalg.rq's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_rq_opts {
  cusci_linalg_qr_mode mode; /* full: R (M, N), Q (N, N); economic: R (M, K), Q (K, N); r */
  bool no_check_finite;
} cusci_linalg_rq_opts;

/*
 * scipy.linalg.rq of a (..., M, N): a = R Q, R upper trapezoidal (zero
 * where j < i + N - M in full mode), Q with orthonormal rows; q may be NULL
 * with mode r. Computed on either backend as the QR factorization of
 * J a^H J (J the reversal), so R and Q may differ from LAPACK's gerqf in the
 * signs of R's columns and Q's rows (the factorization is unique only up to
 * them). Returns the statuses of cusci_linalg_qr.
 */
CUSCI_API cusci_status cusci_linalg_rq(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_rq_opts *opts, cusci_array **r, cusci_array **q);

/* scipy.linalg.lstsq's lapack_driver; 0 is its default. */
typedef enum cusci_linalg_lstsq_driver {
  CUSCI_LINALG_LSTSQ_GELSD = 0,
  CUSCI_LINALG_LSTSQ_GELSS,
  CUSCI_LINALG_LSTSQ_GELSY
} cusci_linalg_lstsq_driver;

/* scipy.linalg.lstsq's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_lstsq_opts {
  bool has_cond; /* use cond (SciPy's cond=None when false: eps of the dtype) */
  double cond;   /* singular values below cond * s[0] count as zero */
  cusci_linalg_lstsq_driver lapack_driver;
  bool no_check_finite;
} cusci_linalg_lstsq_opts;

/*
 * scipy.linalg.lstsq: the minimum-norm x minimizing |b - a x|, for a
 * (..., M, N) and b (M,) or (..., M, K), the batch axes broadcast (SciPy
 * 1.17's rule): x (..., N) or (..., N, K); residues (...) or (..., K) real,
 * the squared residual norms, computed when M > N and every rank is N
 * (gelsd, gelss), else an empty (..., 0) array of x's dtype; rank (...)
 * int64, the effective ranks (0-d for one matrix); s (..., min(M, N)) real,
 * the singular values (gelsd, gelss; with gelsy s is not touched and may be
 * NULL). Host: LAPACKE gelsd / gelss / gelsy, matrix by matrix. GPU:
 * x = V diag(1/s) U^H b with the same cutoff, whatever the driver, from the
 * SVD of the triangular factor of a QR factorization (Xgeqrf, then gesvd
 * of the square factor, whose small singular values are accurate, unlike
 * gesvdp's); waits for the stream to read s. Returns CUSCI_ERR_NDIM,
 * CUSCI_ERR_SHAPE, CUSCI_ERR_BROADCAST, CUSCI_ERR_VALUE (empty a, inf or
 * NaN, NaN cond), CUSCI_ERR_INVALID_ARGUMENT (driver), CUSCI_ERR_LINALG
 * (no convergence).
 */
CUSCI_API cusci_status cusci_linalg_lstsq(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_lstsq_opts *opts,
                                          cusci_array **x, cusci_array **residues, cusci_array **rank, cusci_array **s);

/* numpy.linalg.norm's and cond's ord; 0 is ord=None. */
typedef enum cusci_linalg_ord {
  CUSCI_LINALG_ORD_NONE = 0, /* vectors: 2-norm; matrices: Frobenius */
  CUSCI_LINALG_ORD_FRO,      /* "fro" (matrices) */
  CUSCI_LINALG_ORD_NUC,      /* "nuc" (matrices): sum of singular values */
  CUSCI_LINALG_ORD_INF,      /* inf */
  CUSCI_LINALG_ORD_NEG_INF,  /* -inf */
  CUSCI_LINALG_ORD_P         /* the number in p: 0, 1, -1, 2, -2, or any p for vectors */
} cusci_linalg_ord;

/* numpy.linalg.norm's keywords; the zero value is NumPy's defaults. */
typedef struct cusci_linalg_norm_opts {
  cusci_linalg_ord ord;
  double p;      /* with CUSCI_LINALG_ORD_P */
  int naxes;     /* 0: axis=None; 1: a vector norm; 2: a matrix norm */
  int axes[2];   /* negative counts from the end */
  bool keepdims; /* keep the reduced axes with extent 1 */
} cusci_linalg_norm_opts;

/*
 * numpy.linalg.norm of x (integers as float64): the result has x's real
 * dtype. axis=None with ord NONE is the 2-norm of x flattened; with another
 * ord, x must be 1-D or 2-D. Vector ords: inf max|x|, -inf min|x|, 0 the
 * count of nonzeros, else (sum |x|^p)^(1/p). Matrix ords: fro / NONE,
 * nuc and 2 / -2 (the largest / smallest singular value, by
 * cusci_linalg_svdvals), 1 / -1 (max / min column sum of |x|), inf / -inf
 * (max / min row sum). Composed of core's element-wise functions and
 * reductions, so it runs on x's device. Returns CUSCI_ERR_AXIS (an axis
 * out of range, repeated, or naxes outside 0..2), CUSCI_ERR_NDIM (ord with
 * axis=None and x not 1-D or 2-D), CUSCI_ERR_VALUE (an ord invalid for
 * vectors or matrices, or min / max of an empty selection).
 */
CUSCI_API cusci_status cusci_linalg_norm(cusci_ctx *ctx, const cusci_array *x, const cusci_linalg_norm_opts *opts, cusci_array **out);

/*
 * numpy.linalg.cond of x (..., M, N): (...) of x's real dtype. ord NONE, 2
 * and -2: the ratio of the extreme singular values (any shape; inf for a
 * singular matrix); others (fro, nuc, inf, -inf, 1, -1): norm(x) *
 * norm(inv(x)) of square matrices, inf where x is singular. Returns
 * CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE (not square for those ords),
 * CUSCI_ERR_VALUE (ord p other than +-1, +-2), and the statuses of svd,
 * inv and norm.
 */
CUSCI_API cusci_status cusci_linalg_cond(cusci_ctx *ctx, const cusci_array *x, cusci_linalg_ord ord, double p, cusci_array **out);

/*
 * numpy.trace(a, offset, axis1, axis2): the sums along the diagonals of the
 * 2-D subarrays given by axis1 and axis2 (NumPy's defaults 0 and 1); the
 * dtype of cusci_sum of a (integers as int64 / uint64). Returns
 * CUSCI_ERR_NDIM (a not at least 2-D), CUSCI_ERR_AXIS (an axis out of
 * range, or axis1 == axis2).
 */
CUSCI_API cusci_status cusci_linalg_trace(cusci_ctx *ctx, const cusci_array *a, int64_t offset, int axis1, int axis2, cusci_array **out);

/*
 * scipy.linalg.null_space(a, rcond) and scipy.linalg.orth(a, rcond) of a
 * 2-D a (M, N): orthonormal bases (N, k) of the null space and (M, r) of
 * the range, from the SVD (full, by gesvd on a GPU, for null_space; for
 * orth on a GPU, the SVD of a QR factor, as lstsq's), with
 * the singular values above rcond * max(s) counting (rcond <= 0: SciPy's
 * default, eps * max(M, N)). Returns CUSCI_ERR_NDIM and svd's statuses.
 */
CUSCI_API cusci_status cusci_linalg_null_space(cusci_ctx *ctx, const cusci_array *a, double rcond, cusci_array **out);
CUSCI_API cusci_status cusci_linalg_orth(cusci_ctx *ctx, const cusci_array *a, double rcond, cusci_array **out);

/*
 * numpy.vdot(a, b): sum(conj(a) * b) over both flattened (equal sizes): a
 * 0-d array; CUSCI_ERR_SHAPE when the sizes differ. One matmul.
 */
CUSCI_API cusci_status cusci_linalg_vdot(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out);

/*
 * numpy.tensordot: with axes_a NULL, the sum over the last n axes of a and
 * the first n of b (axes=n); else over axes_a[i] of a and axes_b[i] of b,
 * i < n (axes=(axes_a, axes_b)). The result has a's free axes then b's.
 * A transpose, a reshape and one matmul. Returns CUSCI_ERR_AXIS,
 * CUSCI_ERR_SHAPE (summed extents differ), CUSCI_ERR_VALUE (n < 0 or
 * beyond an operand's ndim), and matmul's statuses.
 */
CUSCI_API cusci_status cusci_linalg_tensordot(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, int n, const int *axes_a,
                                              const int *axes_b, cusci_array **out);

/*
 * numpy.linalg.multi_dot of n >= 2 arrays: the first may be 1-D (a row),
 * the last 1-D (a column), the others 2-D; the product is evaluated in the
 * order that minimizes the scalar multiplications (the classic dynamic
 * program over the matrix chain). Returns CUSCI_ERR_VALUE (n < 2),
 * CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, and matmul's statuses.
 */
CUSCI_API cusci_status cusci_linalg_multi_dot(cusci_ctx *ctx, int n, const cusci_array *const *arrays, cusci_array **out);

/*
 * numpy.linalg.matrix_power of square a (..., M, M): n > 0 by repeated
 * squaring, 0 the identity (a's dtype, a's shape), n < 0 the power of
 * cusci_linalg_inv(a). Float and complex dtypes (integers are
 * CUSCI_ERR_DTYPE, as for matmul). Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE,
 * CUSCI_ERR_LINALG (singular, for n < 0).
 */
CUSCI_API cusci_status cusci_linalg_matrix_power(cusci_ctx *ctx, const cusci_array *a, int64_t n, cusci_array **out);

/*
 * numpy.einsum for one operand (b NULL) or two: subscripts such as
 * "ij,jk->ik", "bij,bjk->bik", "ij,ij->", "i,i->", "ij->ji", "ii->i",
 * "ij,j->i", or without "->" (the output is the labels seen once, in
 * alphabetical order). Two operands are contracted by a permutation, a
 * reshape and one batched matmul; labels found in one operand only and not
 * in the output are summed first. One operand: transposes, diagonals
 * ("ii->i") and sums. Returns CUSCI_ERR_VALUE (a malformed string, a label
 * count that does not match ndim, extents that differ for one label),
 * CUSCI_ERR_NOT_SUPPORTED (ellipsis "...", or a label repeated within an
 * operand of a two-operand expression), and matmul's statuses.
 */
CUSCI_API cusci_status cusci_linalg_einsum(cusci_ctx *ctx, const char *subscripts, const cusci_array *a, const cusci_array *b, cusci_array **out);

/*
 * scipy.linalg.block_diag of n arrays (0-d as (1, 1), 1-D as a row, 2-D):
 * the block-diagonal matrix of the promoted dtype; n == 0 gives (1, 0).
 * Built on the host and copied to the context's device, as the special
 * matrices are. Returns CUSCI_ERR_NDIM (an input with more than 2 axes).
 */
CUSCI_API cusci_status cusci_linalg_block_diag(cusci_ctx *ctx, int n, const cusci_array *const *arrays, cusci_array **out);

/* scipy.linalg.convolution_matrix's mode; 0 is its default. */
typedef enum cusci_linalg_conv_mode {
  CUSCI_LINALG_CONV_FULL = 0, /* (m + n - 1, n) */
  CUSCI_LINALG_CONV_SAME,     /* (max(m, n), n) */
  CUSCI_LINALG_CONV_VALID     /* (max(m, n) - min(m, n) + 1, n) */
} cusci_linalg_conv_mode;

/*
 * scipy.linalg.convolution_matrix(a, n, mode) of a 1-D a (m,): A with
 * A @ v = numpy.convolve(a, v, mode) for v (n,); a's dtype. Built on the
 * host and copied to the context's device. Returns CUSCI_ERR_NDIM,
 * CUSCI_ERR_VALUE (n < 1, or a empty), CUSCI_ERR_INVALID_ARGUMENT (mode).
 */
CUSCI_API cusci_status cusci_linalg_convolution_matrix(cusci_ctx *ctx, const cusci_array *a, int64_t n, cusci_linalg_conv_mode mode,
                                                       cusci_array **out);

/* ---------------------------------- Schur-based matrix functions (sqrtm, logm, funm) */

/*
 * These three compute from a complex Schur form a = Z T Z^H, with LAPACKE
 * gees (a real matrix by its real Schur form, then rsf2csf, as SciPy) and
 * plain loops. cuSOLVER has no Schur decomposition, so on a GPU context
 * the input is copied to the host, computed there and the result copied
 * back to the device: these calls wait for the stream. float32 and
 * complex64 input is computed in double precision and rounded back.
 * Integer input is computed in float64.
 *
 * Dtype of the result, as SciPy: complex input gives its own dtype; real
 * input gives the real dtype unless the result is complex (sqrtm, logm: an
 * eigenvalue on the negative real axis; funm and logm: an imaginary part
 * beyond SciPy's _maybe_real tolerance, 1e6 eps for float64 and 1e3 eps
 * for float32), then the complex dtype of the same precision, for the
 * whole batch. A given *out may have either that dtype or, for a real
 * result, the complex one.
 *
 * errest (NULL to skip; SciPy's disp=False): float64 of a's batch shape
 * (0-d for one matrix), one error estimate per matrix, as SciPy computes
 * it. The library never prints: SciPy's disp=True warnings are these
 * numbers, for the caller to judge.
 *
 * Every one returns CUSCI_ERR_NULL_POINTER, CUSCI_ERR_NDIM (fewer than 2
 * dimensions), CUSCI_ERR_SHAPE (not square; *out's shape), CUSCI_ERR_DTYPE
 * (float16; *out's dtype), CUSCI_ERR_DEVICE (*out elsewhere),
 * CUSCI_ERR_VALUE (inf or NaN: gees would fail on them, as SciPy's schur
 * refuses them), CUSCI_ERR_LINALG (the Schur QR algorithm did not converge,
 * with the batch index), CUSCI_ERR_OUT_OF_MEMORY.
 */

/*
 * scipy.linalg.sqrtm of a (..., n, n): the principal square root X with
 * X X = a, by the Schur method of Bjorck and Hammarling (1983) in the
 * blocked form of Deadman, Higham and Ralha (2013): 64 x 64 diagonal
 * blocks by the point recurrence, the blocks above them by Sylvester
 * equations (a gemm, then substitution). A singular a may have no square
 * root: the result then holds infs or NaNs, or is inaccurate, and errest
 * says so. errest: SciPy's ||X X - a||_F^2 / ||a||_F.
 */
CUSCI_API cusci_status cusci_linalg_sqrtm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out, cusci_array **errest);

/*
 * scipy.linalg.logm of a (..., n, n): the principal logarithm, by the
 * inverse scaling and squaring algorithm of Al-Mohy and Higham (2012,
 * Algorithm 4.1) on the triangular Schur factor: square roots until a Pade
 * approximant of degree m <= 7 (Gauss-Legendre partial fractions,
 * triangular solves) is accurate, then 2^s times it, with the diagonal and
 * first superdiagonal recomputed exactly. The 1-norms of the powers of
 * T - I that choose m are computed exactly rather than estimated. A
 * singular a has no logarithm; as SciPy, its zero eigenvalues are moved to
 * 1e-20 and the (huge, inaccurate) result returned: errest, SciPy's
 * ||expm(X) - a||_1 / ||a||_1 (computed with cusci_linalg_expm on the
 * context's device), shows it.
 */
CUSCI_API cusci_status cusci_linalg_logm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out, cusci_array **errest);

/* A scalar function for cusci_linalg_funm: f(z), with the caller's data.
 * double _Complex is C99's double complex, spelt without <complex.h> so
 * that this header does not define `complex` and `I` for its includers. */
typedef double _Complex (*cusci_linalg_funm_fn)(double _Complex z, void *user);

/*
 * scipy.linalg.funm(a, func) of a (..., n, n): f(a) by the Schur-Parlett
 * recurrence (Golub and Van Loan, Algorithm 9.1.1), f called on the host
 * once for each eigenvalue (the diagonal of T) with `user`. As SciPy's,
 * this is the simple recurrence: it divides by differences of eigenvalues,
 * so it is inaccurate for close eigenvalues, and a repeated eigenvalue
 * (zero difference) leaves that term undivided, which is wrong unless f is
 * locally linear there. errest says how far to trust it:
 * min(1, max(u, u / minden * ||triu(T, 1)||_1)) with u the unit roundoff
 * of the result's precision and minden the smallest |t_jj - t_ii| (u where
 * that is 0); inf when the result holds an inf or NaN (SciPy: only when
 * every element does). On a GPU context f still runs on the host copy.
 * f must not be NULL (CUSCI_ERR_NULL_POINTER).
 */
CUSCI_API cusci_status cusci_linalg_funm(cusci_ctx *ctx, const cusci_array *a, cusci_linalg_funm_fn f, void *user, cusci_array **out,
                                         cusci_array **errest);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_LINALG_H */
