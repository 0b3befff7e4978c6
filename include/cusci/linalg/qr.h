/*
 * cusci/linalg/qr.h: qr, rq, lstsq, the norms and cond, trace, null_space
 * and orth, and the contractions: vdot, tensordot, multi_dot, matrix_power,
 * einsum, block_diag, convolution_matrix (part of cusci/linalg.h, which says
 * what every function shares).
 */
#ifndef CUSCI_LINALG_QR_H
#define CUSCI_LINALG_QR_H

#include <cusci/core.h>
#include <cusci/linalg/basic.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_LINALG_QR_H */
