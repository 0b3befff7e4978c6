/*
 * reference/core/reduce.c: reductions on the host: a sequential loop over
 * the reduced axes for each kept element, with the steps of reduce_ops.h.
 */
#include "reference/core/reduce.h"

#include <string.h>

#include <cusci/core.h>

#include "reference/core/reduce_ops.h"

/* Offset in elements of element i of a loop, for operand k. */
static int64_t offset_of(const cusci_loop *l, int k, int64_t i)
{
  int64_t off = 0;
  for (int d = l->ndim - 1; d >= 0; d--) {
    int64_t n = l->shape[d];
    off += (i % n) * l->stride[k][d];
    i /= n;
  }
  return off;
}

#define HOST_REDUCE_(D, T, K, A)                                                          \
  static void reduce_##D(int op, const cusci_loop *kept, const cusci_loop *red, void *acc, \
                         const void *in)                                                  \
  {                                                                                       \
    const T *x = in;                                                                      \
    A *out = acc;                                                                         \
    int nd = red->ndim;                                                                   \
    for (int64_t m = 0; m < kept->size; m++) {                                            \
      const T *base = x + offset_of(kept, 1, m);                                          \
      A a = cusci__rinit_##K(op);                                                         \
      int64_t idx[32] = {0}, off = 0;                                                     \
      for (int64_t r = 0; r < red->size; r++) {                                           \
        a = cusci__rstep_##K(op, a, cusci_load_##D(base[off]));                          \
        for (int d = nd - 1; d >= 0; d--) { /* odometer */                                \
          off += red->stride[0][d];                                                       \
          if (++idx[d] < red->shape[d])                                                   \
            break;                                                                        \
          off -= red->stride[0][d] * red->shape[d];                                       \
          idx[d] = 0;                                                                     \
        }                                                                                 \
      }                                                                                   \
      out[m] = a;                                                                         \
    }                                                                                     \
  }
CUSCI__RTYPES(HOST_REDUCE_)

#define CASE_(D, T, K, A) \
  case CUSCI_##D:         \
    reduce_##D(op, kept, red, acc, in); \
    return;

void cusci__host_reduce(int op, int dtype, const cusci_loop *kept, const cusci_loop *red, void *acc, const void *in)
{
  switch (dtype) {
    CUSCI__RTYPES(CASE_)
  }
}
