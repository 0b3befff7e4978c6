/*
 * tests/linalg-util.h: what the linalg test programs share: random
 * matrices, host copies in complex128, residual norms computed by plain
 * loops (an independent route, not through cusci).
 */
#ifndef CUSCI_TESTS_LINALG_UTIL_H
#define CUSCI_TESTS_LINALG_UTIL_H

#include <complex.h>
#include <stdbool.h>

#include "tests/testkit.h"

typedef double complex lu_c;

/* The four linalg dtypes and their names. */
extern const cusci_dtype lu_dtypes[4];
/* Machine epsilon of a dtype's real part. */
double lu_eps(cusci_dtype dt);
/* The linalg fixture prefix + name on ctx; bails out when it is missing. */
cusci_array *lu_fixture(cusci_ctx *ctx, const char *prefix, const char *name);

/* A host buffer of complex128 values of shape `shape`: uniform in
 * [-2.385, 2.385] (imaginary parts zero for real dtypes), plus `shift` on
 * the diagonal of each trailing square matrix. Caller frees. */
lu_c *lu_rand_values(uint64_t *seed, cusci_dtype dt, int ndim, const int64_t *shape, double shift);
/* An array on ctx of dtype dt from complex128 host values. */
cusci_array *lu_array(cusci_ctx *ctx, cusci_dtype dt, int ndim, const int64_t *shape, const lu_c *vals);
/* An array's values as complex128 in C order, on the host. Caller frees. */
lu_c *lu_values(cusci_ctx *ctx, const cusci_array *a);
/* Hermitian positive definite: a a^H + n I, batched over the leading axes. */
lu_c *lu_hpd_values(uint64_t *seed, cusci_dtype dt, int ndim, const int64_t *shape);

/* max |x - y| over n values. */
double lu_maxdiff(const lu_c *x, const lu_c *y, int64_t n);
/* max |x| over n values. */
double lu_maxabs(const lu_c *x, int64_t n);
/* Whether got (not NULL) has want's shape, and its dtype too unless
 * any_dtype. */
bool lu_same_shape(const cusci_array *got, const cusci_array *want, bool any_dtype);
/* max |got - want| over the values of two arrays of one size, got read on
 * gctx and want on wctx; *scale = max(1, max |want|). */
double lu_array_diff(cusci_ctx *gctx, const cusci_array *got, cusci_ctx *wctx, const cusci_array *want, double *scale);
/* c (m x n) = op(a) (m x k) b (k x n), row-major; op: 'N', or 'H' when a
 * is stored k x m and its conjugate transpose is wanted. */
void lu_gemm(char op, const lu_c *a, const lu_c *b, lu_c *c, int64_t m, int64_t n, int64_t k);

#endif
