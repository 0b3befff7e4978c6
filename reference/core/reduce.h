/*
 * reference/core/reduce.h: reductions on the host. libcore has checked the
 * arguments and split the input's axes into kept ones (the loop `kept`:
 * operand 0 the accumulator array, contiguous, operand 1 the input) and
 * reduced ones (`red`: operand 0 the input).
 */
#ifndef CUSCI_REFERENCE_REDUCE_H
#define CUSCI_REFERENCE_REDUCE_H

#include <cusci/kit/loop.h>

/* acc[m] = reduction over red of the input at kept element m, in the
 * accumulator type of `dtype` (int64, uint64, double or complex128). */
void cusci__host_reduce(int op, int dtype, const cusci_loop *kept, const cusci_loop *red, void *acc, const void *in);

#endif
