/*
 * libcore/reduce.h: what the reductions (reduce.c) and the arg-reductions
 * and scans (argscan.c) share inside libcore.
 */
#ifndef CUSCI_LIBCORE_REDUCE_H
#define CUSCI_LIBCORE_REDUCE_H

#include <stdbool.h>

#include "libcore/internal.h"

/*
 * The checks every reduction makes (ctx, out, a) and the mask of the axes
 * opts names: all of them for naxes 0, at most max_axes (1 for the
 * arg-reductions and scans, which take one axis as NumPy an int).
 */
cusci_status cusci__reduce_check(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_reduce_opts *opts,
                                 int max_axes, cusci_array **out, bool *mask);

/*
 * Deliver `r` (C-ordered, the kept shape; released here) as the result of
 * dtype `result` and shape (nd, shape) under the output convention.
 */
cusci_status cusci__reduce_deliver(cusci_ctx *ctx, const char *fn, cusci_array *r, cusci_dtype result, int nd,
                                   const int64_t *shape, cusci_array **out);

/*
 * The elements of a picked by arg-reduction aop (enum cusci__aop) over the
 * axes in mask, into a new C-ordered array *vals of a's dtype and the kept
 * shape (an all-NaN slice of SKIPMAX or SKIPMIN gives its first element).
 * The reduced count must be nonzero.
 */
cusci_status cusci__argreduce_values(cusci_ctx *ctx, const char *fn, const cusci_array *a, const bool *mask, int aop,
                                     cusci_array **vals);

#endif
