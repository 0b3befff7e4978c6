/*
 * cusci/kit/loop.h: a strided walk over up to four arrays of one shape.
 * Part of the module kit (docs/modules.md), installed with the core; plain
 * C that also compiles as CUDA C++. The functions are libcusci-core's.
 *
 * Before any element
 * loop, cusci_loop_init drops extents of 1 and merges neighbouring axes
 * that are contiguous in every operand, so that most loops become one flat
 * axis and take the fast path.
 */
#ifndef CUSCI_KIT_LOOP_H
#define CUSCI_KIT_LOOP_H

#include <stdint.h>

#include <cusci/core.h>

#define CUSCI_LOOP_MAX_OPS 4 /* a ternary ufunc: output and three inputs */

typedef struct cusci_loop {
  int ndim;     /* >= 1 after init; axis ndim-1 varies fastest */
  int nops;     /* 1 to 4: operand 0 is the destination */
  int64_t size; /* product of shape */
  int64_t shape[CUSCI_MAX_NDIM];
  int64_t stride[CUSCI_LOOP_MAX_OPS][CUSCI_MAX_NDIM]; /* in elements */
} cusci_loop;

#ifdef __cplusplus
extern "C" {
#endif

/* Fill `loop` for nops operands of the given shape and element strides. */
CUSCI_API void cusci_loop_init(cusci_loop *loop, int ndim, const int64_t *shape, int nops, const int64_t *const *strides);
/* True when every operand walks its elements contiguously (one axis, stride 1). */
CUSCI_API int cusci_loop_contiguous(const cusci_loop *loop);

#ifdef __cplusplus
}
#endif

#endif
