/*
 * reference/core/ufunc.h: the host backend of the ufuncs, where and clip.
 * Arguments are already checked and converted by libcore/ufunc.c.
 */
#ifndef CUSCI_REFERENCE_UFUNC_H
#define CUSCI_REFERENCE_UFUNC_H

#include "reference/core/reference.h"

/*
 * The row function of op (a cusci_ufunc with an element function: not
 * greater or greater_equal) for loop dtype `dtype`, or NULL when there is
 * none. Its operands are the output, then the inputs, each of the op's
 * result or loop dtype; a scalar input is an operand of stride 0 whose base
 * points at its value.
 */
cusci__row_fn cusci__ufunc2_row(int op, int dtype);
cusci__row_fn cusci__ufunc1_row(int op, int dtype);
/* numpy.where: operands out, condition (bool), x, y; arg points to the
 * itemsize (int) of x, y and out. */
void cusci__where_row(char *const *p, const int64_t *bs, int64_t n, const void *arg);
/* numpy.clip: operands out, a, a_min, a_max of one real dtype; NULL for
 * complex. */
cusci__row_fn cusci__clip_row(int dtype);

#endif
