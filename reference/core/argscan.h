/*
 * reference/core/argscan.h: arg-reductions and scans on the host.
 * libcore has checked the arguments and split the input's axes into kept
 * ones (the loop `kept`) and reduced or scanned ones (`red`); operands of
 * each loop are named below.
 */
#ifndef CUSCI_REFERENCE_ARGSCAN_H
#define CUSCI_REFERENCE_ARGSCAN_H

#include <cusci/kit/loop.h>

/* idx[m] (contiguous int64) = the index of arg-reduction op (enum
 * cusci__aop) over red (operand 0: the input) of the input at kept element
 * m (kept operand 1: the input). */
void cusci__host_argreduce(int op, int dtype, const cusci_loop *kept, const cusci_loop *red, int64_t *idx,
                           const void *in);

/* out[m] (contiguous, itemsize bytes each) = the input element at kept
 * element m (kept operand 1) and reduced index idx[m] (red operand 0), or
 * index 0 where idx[m] is negative. */
void cusci__host_gather(int itemsize, const cusci_loop *kept, const cusci_loop *red, void *out, const int64_t *idx,
                        const void *in);

/* Scan op (enum cusci__sop) of the input of `dtype` along red, into out of
 * the scan's result dtype; operand 0 of both loops is out, operand 1 the
 * input. */
void cusci__host_scan(int op, int dtype, const cusci_loop *kept, const cusci_loop *red, void *out, const void *in);

#endif
