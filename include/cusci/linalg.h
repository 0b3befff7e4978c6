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
  CUSCI_LINALG_ASSUME_POS      /* "pos": positive definite (Cholesky) */
} cusci_linalg_assume_a;

/* scipy.linalg.solve's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_solve_opts {
  cusci_linalg_assume_a assume_a;
  bool lower;           /* sym/her/pos: read the lower triangle (default upper) */
  bool transposed;      /* solve a^T x = b (real dtypes only, as SciPy) */
  bool no_check_finite; /* check_finite=False */
} cusci_linalg_solve_opts;

/* scipy.linalg.eigh's keywords; the zero value is SciPy's defaults. */
typedef struct cusci_linalg_eigh_opts {
  bool upper;           /* read the upper triangle (SciPy: lower=False) */
  bool no_check_finite; /* check_finite=False */
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
 * cuSOLVER getrf). Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_VALUE.
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
 * Host: LAPACKE gesdd (SciPy's default driver). GPU: cuSOLVER gesvdp.
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
 * Returns CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_VALUE,
 * CUSCI_ERR_LINALG (no convergence; waits for the stream).
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

#endif /* CUSCI_LINALG_H */
