/*
 * cusci/linalg/matfuncs.h: the matrix functions: expm, the trigonometric and
 * hyperbolic cosm to tanhm, and the Schur-based sqrtm, logm and funm (part
 * of cusci/linalg.h, which says what every function shares).
 */
#ifndef CUSCI_LINALG_MATFUNCS_H
#define CUSCI_LINALG_MATFUNCS_H

#include <cusci/core.h>
#include <cusci/linalg/basic.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#endif /* CUSCI_LINALG_MATFUNCS_H */
