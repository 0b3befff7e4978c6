/*
 * libcore/reduce.h: what the reductions (reduce.c) and the arg-reductions
 * and scans (argscan.c) share inside libcore.
 */
#ifndef CUSCI_LIBCORE_REDUCE_H
#define CUSCI_LIBCORE_REDUCE_H

#include <stdbool.h>

#include "libcore/internal.h"

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
