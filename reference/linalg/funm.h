/*
 * reference/linalg/funm.h: the host backend of liblinalg's Schur-based
 * matrix functions (sqrtm, logm, funm), on LAPACKE and CBLAS.
 *
 * Plain C, no CUDA header. Every matrix is C-contiguous (row-major), a
 * batch of `batch` matrices one after the other. The input a holds double
 * (cplx false) or double complex (cplx true) elements and is not changed;
 * the result x is always double complex (the API layer keeps the real part
 * where SciPy returns a real array). Failures and return values are as in
 * reference/linalg/reference.h: fail->info > 0 is a Schur decomposition
 * (gees) that did not converge.
 */
#ifndef CUSCI_REFERENCE_LINALG_FUNM_H
#define CUSCI_REFERENCE_LINALG_FUNM_H

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#include "reference/linalg/reference.h"

/* The principal square root of each matrix. *neg_real is set when some
 * matrix has an eigenvalue on the negative real axis (a real input then
 * has no real principal root). errest (batch doubles, or NULL) gets
 * SciPy's ||x x - a||_F^2 / ||a||_F. */
int cusci__ref_la_sqrtm(bool cplx, int64_t batch, int64_t n, const void *a, double complex *x, bool *neg_real, double *errest,
                        cusci__la_fail *fail);

/* The principal logarithm of each matrix; an exactly singular matrix has
 * its zero Schur eigenvalues replaced by 1e-20, as SciPy does. */
int cusci__ref_la_logm(bool cplx, int64_t batch, int64_t n, const void *a, double complex *x, cusci__la_fail *fail);

/* f(a) by the Schur-Parlett recurrence, f applied to the eigenvalues.
 * errest (batch doubles, or NULL) gets SciPy's estimate with unit
 * roundoff tol. */
int cusci__ref_la_funm(bool cplx, int64_t batch, int64_t n, const void *a, double complex (*f)(double complex, void *), void *user,
                       double tol, double complex *x, double *errest, cusci__la_fail *fail);

#endif
