/*
 * cusci/linalg/solvers.h: the structured solvers: solve_banded,
 * solveh_banded, solve_toeplitz, solve_circulant (part of cusci/linalg.h,
 * which says what every function shares).
 */
#ifndef CUSCI_LINALG_SOLVERS_H
#define CUSCI_LINALG_SOLVERS_H

#include <cusci/core.h>
#include <cusci/linalg/basic.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_LINALG_SOLVERS_H */
