/*
 * libcore/layout.h: a strided walk over up to four arrays of one shape.
 *
 * Plain C, shared by libcore, reference/ and kernels/. Before any element
 * loop, cusci__loop_init drops extents of 1 and merges neighbouring axes
 * that are contiguous in every operand, so that most loops become one flat
 * axis and take the fast path.
 */
#ifndef CUSCI_LIBCORE_LAYOUT_H
#define CUSCI_LIBCORE_LAYOUT_H

#include <stdint.h>

#define CUSCI__LOOP_MAX_OPS 4 /* a ternary ufunc: output and three inputs */

typedef struct cusci__loop {
  int ndim;     /* >= 1 after init; axis ndim-1 varies fastest */
  int nops;     /* 1 to 4: operand 0 is the destination */
  int64_t size; /* product of shape */
  int64_t shape[32];
  int64_t stride[CUSCI__LOOP_MAX_OPS][32]; /* in elements */
} cusci__loop;

#ifdef __cplusplus
extern "C" {
#endif

/* Fill `loop` for nops operands of the given shape and element strides. */
void cusci__loop_init(cusci__loop *loop, int ndim, const int64_t *shape, int nops, const int64_t *const *strides);
/* True when every operand walks its elements contiguously (one axis, stride 1). */
int cusci__loop_contiguous(const cusci__loop *loop);

#ifdef __cplusplus
}
#endif

#endif
