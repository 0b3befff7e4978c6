/*
 * cusci/linalg/eig.h: the eigenproblems: eig, schur and rsf2csf, hessenberg,
 * polar, ldl, pinvh, eigh_tridiagonal (part of cusci/linalg.h, which says
 * what every function shares).
 */
#ifndef CUSCI_LINALG_EIG_H
#define CUSCI_LINALG_EIG_H

#include <cusci/core.h>
#include <cusci/linalg/basic.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_LINALG_EIG_H */
