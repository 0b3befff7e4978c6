/*
 * libcore/sort.h: what libcore/sort.c gives libcore/stats.c: the rows of
 * an array along a set of axes, and their sort on either backend.
 */
#ifndef CUSCI_LIBCORE_SORT_H
#define CUSCI_LIBCORE_SORT_H

#include "libcore/internal.h"

/*
 * A C-contiguous array (a itself, retained, when it already is one) with
 * a's axes reordered: those not in mask first, then those in mask, each in
 * order. *m is the product of the first ones' extents, *r of the others'.
 * perm (CUSCI_MAX_NDIM entries) receives the order.
 */
cusci_status cusci__rows_of(cusci_ctx *ctx, const char *fn, const cusci_array *a, const bool *mask,
                            cusci_array **rows, int64_t *m, int64_t *r, int *perm);

/*
 * Sort of the m rows of r elements of the contiguous `rows`: new
 * contiguous arrays of shape (m * r) with the sorted values (rows' dtype)
 * and their int64 positions in the row. Either output pointer may be NULL
 * (not wanted). Positions always come from the stable sort; values alone
 * too when `stable`, else in cusci_sort's value order (-0.0 before +0.0,
 * NaNs by their bits; see reference/core/sort_ops.h), which is faster.
 */
cusci_status cusci__sort_rows(cusci_ctx *ctx, const char *fn, const cusci_array *rows, int64_t m, int64_t r,
                              cusci_array **vals, cusci_array **idx, bool stable);

/* Scratch memory of n bytes from the pool, as a 1-d uint8 array. */
cusci_status cusci__scratch(cusci_ctx *ctx, const char *fn, size_t n, cusci_array **out);

#endif
