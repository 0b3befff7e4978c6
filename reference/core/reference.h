/*
 * reference/core/reference.h: the host backend of the core: plain C loops,
 * which are also the specification the GPU kernels are tested against.
 * Arguments are already checked by libcore.
 */
#ifndef CUSCI_REFERENCE_CORE_H
#define CUSCI_REFERENCE_CORE_H

#include <stdint.h>

#include <cusci/kit/loop.h>
#include "reference/core/fill.h"

/* dst[i] = convert(src[i]) over the loop (operand 0 dst, 1 src). */
void cusci__host_astype(int dst_dtype, int src_dtype, const cusci_loop *loop, void *dst, const void *src);
/* Every element of dst (operand 0) set to the itemsize bytes at value. */
void cusci__host_fill(const cusci_loop *loop, void *dst, const void *value, int itemsize);
/* n contiguous elements of numpy.arange / numpy.linspace. */
void cusci__host_arange(int dtype, int64_t n, const cusci__arange_args *args, void *dst);
void cusci__host_linspace(int dtype, const cusci__linspace_args *args, void *dst);

/*
 * Walk the outer axes of a loop and call row(...) once per innermost row,
 * with byte offsets. Used by every host loop over strided operands.
 */
typedef void (*cusci__row_fn)(char *const *ptrs, const int64_t *byte_strides, int64_t n, const void *arg);
void cusci__host_walk(const cusci_loop *loop, char *const *base, const int *itemsizes, cusci__row_fn row, const void *arg);

#endif
