/*
 * liblinalg/internal.h: what the files of liblinalg's API layer share.
 */
#ifndef CUSCI_LIBLINALG_INTERNAL_H
#define CUSCI_LIBLINALG_INTERNAL_H

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/kit/dtypes.h>

/* Return a failing status from the enclosing function. */
#define TRY(expr) CUSCI_TRY(expr)

#include <stdbool.h>
#include <stdint.h>

/* Small questions every file asks (the dtype's are the kit's). */
static inline bool cusci__la_on_host(cusci_ctx *ctx) { return cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST; }
/* The product of x[0..n) (1 for n = 0): a batch's count. */
static inline int64_t cusci__la_prod(int n, const int64_t *x)
{
  int64_t p = 1;
  for (int i = 0; i < n; i++)
    p *= x[i];
  return p;
}
/* A C-contiguous host copy (malloc'ed, the caller frees) of a, from either
 * device, in the wide dtype wdt (float64 or complex128); *count, when
 * count is not NULL, is the number of doubles in it. */
cusci_status cusci__la_host_copy(cusci_ctx *ctx, const char *fn, const cusci_array *a, cusci_dtype wdt, void **buf, size_t *count);
/* An array of dtype dt on ctx's device from host values of dtype wdt. */
cusci_status cusci__la_put(cusci_ctx *ctx, const void *buf, int nd, const int64_t *shape, cusci_dtype wdt, cusci_dtype dt, cusci_array **out);
/* Check ctx and an array argument with at least min_ndim dimensions. */
cusci_status cusci__la_check_input(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, int min_ndim);
/* The same, and a (..., n, n): square in its last two axes. */
cusci_status cusci__la_check_square(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a);
/* LAPACKE counts in int: an m x n matrix LAPACK sees must fit, on a host
 * context, and on any when `staged` (computed on a host copy). */
cusci_status cusci__la_check_lapack(cusci_ctx *ctx, const char *fn, int64_t m, int64_t n, bool staged);

/* The dtype linalg computes in for an input of dtype dt (the four float and
 * complex dtypes as they are, bool and integers as float64, float16
 * refused with CUSCI_ERR_DTYPE naming `name`). */
cusci_status cusci__la_work_dtype(cusci_ctx *ctx, const char *fn, const char *name, cusci_dtype dt, cusci_dtype *out);
/* A square input (..., n, n) as the one-matrix functions take it: checked
 * square, its working dtype, n within LAPACK's int (cusci__la_check_lapack
 * with `staged`), and its batch of matrices. */
typedef struct {
  cusci_dtype dt; /* the working dtype */
  int nd;
  const int64_t *sh;
  int64_t n, batch;
} cusci__la_square;
cusci_status cusci__la_square_input(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, bool staged, cusci__la_square *q);
/* Check a caller's output pointer (not NULL) and, when *out is given, its
 * shape, dtype and device against the result's. */
cusci_status cusci__la_check_out(cusci_ctx *ctx, const char *fn, cusci_array **out, int ndim, const int64_t *shape, cusci_dtype dt);
/* Hand a finished result to the caller: as *out when *out is NULL, else
 * copied into *out. Takes the reference to res. */
cusci_status cusci__la_give(cusci_ctx *ctx, cusci_array *res, cusci_array **out);
/* Hand n results over in order while st is and stays CUSCI_OK: res[i] to
 * out[i], where both are given; releases every res[i] not handed over.
 * Returns the first failure. */
cusci_status cusci__la_give_all(cusci_ctx *ctx, cusci_status st, int n, cusci_array **res, cusci_array ***out);
/* Broadcast two batch shapes by NumPy's rule into out (*nout axes);
 * CUSCI_ERR_BROADCAST when they do not. */
cusci_status cusci__la_broadcast_batch(cusci_ctx *ctx, const char *fn, int na, const int64_t *sa, int nb, const int64_t *sb, int *nout, int64_t *out);


/* ---- numerical failures, deferred checks (liblinalg/options.c) */
#include <stdbool.h>
#include "reference/linalg/reference.h"

/* What a failure is called (SciPy's words) in CUSCI_ERR_LINALG messages. */
enum {
  CUSCI__LA_FAIL_SINGULAR,
  CUSCI__LA_FAIL_NOT_PD,
  CUSCI__LA_FAIL_SVD,
  CUSCI__LA_FAIL_EIG,
  CUSCI__LA_FAIL_TRIANGULAR,
  CUSCI__LA_FAIL_TOEPLITZ
};
/* CUSCI_ERR_LINALG for failure f of kind `kind`, with the batch index
 * formatted over the batch shape (nb axes; none when nb is 0). */
cusci_status cusci__la_fail_linalg(cusci_ctx *ctx, const char *fn, int kind, cusci__la_fail f, int nb, const int64_t *bshape);
/* The status of a backend call: st, then a non-finite input, then LAPACKE's
 * own error (lapack_info < 0), then the failure f. Tags the call's deferred
 * records (if any) with `kind`. */
cusci_status cusci__la_outcome(cusci_ctx *ctx, const char *fn, cusci_status st, int lapack_info, bool nonfinite, cusci__la_fail f, int kind,
                               int nb, const int64_t *bshape);
/* The context's cusci_linalg_math_mode; whether its checks are deferred
 * (a GPU context in CUSCI_LINALG_CHECK_DEFERRED). */
int cusci__la_math_mode(cusci_ctx *ctx);
bool cusci__la_deferred(cusci_ctx *ctx);
/* Keep a call's status words (batch info words then the inf/NaN flag, ints
 * in device memory) for cusci_linalg_check; has_info false: only the flag. */
cusci_status cusci__la_defer(cusci_ctx *ctx, const char *fn, cusci_array *words, int64_t batch, bool has_info);
/* Name the failure kind of the records made since the last tag. */
void cusci__la_defer_tag(cusci_ctx *ctx, int kind);

/* eigh with a subset or b (liblinalg/eig.c), for cusci_linalg_eigh. */
struct cusci_linalg_eigh_opts;
cusci_status cusci__la_eigh_ex(cusci_ctx *ctx, const char *fn, const cusci_array *a, const struct cusci_linalg_eigh_opts *o, cusci_array **w,
                               cusci_array **v);

#endif
