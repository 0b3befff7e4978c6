/*
 * reference/linalg/eig.h: the host backend of liblinalg's eigenproblems,
 * Schur, Hessenberg and LDL^T forms, on LAPACKE.
 *
 * Plain C, no CUDA header. Every matrix is C-contiguous (row-major), a
 * batch of `batch` matrices one after the other, of double (cplx false) or
 * double complex (cplx true) elements: the API layer widens float32 and
 * complex64 to these and rounds the results back. Arguments are checked
 * and every extent fits a lapack_int. Failures and return values are as in
 * reference/linalg/reference.h.
 */
#ifndef CUSCI_REFERENCE_LINALG_EIG_H
#define CUSCI_REFERENCE_LINALG_EIG_H

#include <stdbool.h>
#include <stdint.h>

#include "reference/linalg/reference.h"

/* eig: a (n, n) and b (n, n) or NULL are destroyed; w (n) and, where not
 * NULL, vl and vr (n, n) double complex, the eigenvectors as columns. Without b
 * the vectors are geev's (unit norm, largest component real); with b
 * ggev's scaled to unit norm. */
int cusci__ref_la_eig(bool cplx, int64_t batch, int64_t n, void *a, void *b, void *w, void *vl, void *vr, cusci__la_fail *fail);

/* schur: a (n, n) becomes T (gees, no sorting), z (n, n) the vectors. */
int cusci__ref_la_schur(bool cplx, int64_t batch, int64_t n, void *a, void *z, cusci__la_fail *fail);

/* rsf2csf, in place on complex copies of a real Schur form t and its z. */
void cusci__ref_la_rsf2csf(int64_t batch, int64_t n, void *t, void *z);

/* hessenberg: a (n, n) becomes H (zeros below the subdiagonal); q (n, n)
 * the unitary factor when not NULL. */
int cusci__ref_la_hessenberg(bool cplx, int64_t batch, int64_t n, void *a, void *q);

/* ldl: a (n, n) becomes SciPy's lu, d (n, n) its block diagonal, perm (n)
 * SciPy's permutation. Returns 1 when LAPACK's pivots cannot be parsed. */
int cusci__ref_la_ldl(bool cplx, bool lower, bool hermitian, int64_t batch, int64_t n, void *a, void *d, int64_t *perm);

/* Which eigenvalues: all, by 0-based inclusive index [lo, hi], by value
 * (vlo, vhi]; cusci_linalg_eigh_subset's values. */
typedef struct cusci__la_range {
  int kind;
  int64_t lo, hi;
  double vlo, vhi;
} cusci__la_range;

/* eigh with a subset and/or b (type 1, 2, 3): a and b (n, n) are destroyed;
 * w (n) gets the m[i] eigenvalues found (ascending, the rest of the n
 * slots unspecified), v (n, n) when not NULL the eigenvectors in its first
 * m[i] columns (row stride n). A b that is not positive definite is
 * fail->info = n + k (LAPACK's convention). */
int cusci__ref_la_eigh_ex(bool cplx, int64_t batch, int64_t n, bool upper, cusci__la_range r, int type, void *a, void *b, double *w,
                          void *v, int64_t *m, cusci__la_fail *fail);

/* eigh_tridiagonal: d (n) and e (n - 1) per matrix (not changed); w and z
 * as in cusci__ref_la_eigh_ex (z NULL: values only). */
int cusci__ref_la_eigh_tridiagonal(int64_t batch, int64_t n, const double *d, const double *e, cusci__la_range r, double *w, double *z,
                                   int64_t *m, cusci__la_fail *fail);

#endif
