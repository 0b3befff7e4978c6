/*
 * libcore/loop.c: collapse a strided walk to as few axes as possible.
 */
#include <cusci/kit/loop.h>

#include <stdbool.h>
#include <string.h>

void cusci_loop_init(cusci_loop *loop, int ndim, const int64_t *shape, int nops, const int64_t *const *strides)
{
  memset(loop, 0, sizeof *loop);
  loop->nops = nops;
  loop->size = 1;
  for (int i = 0; i < ndim; i++)
    loop->size *= shape[i];
  int n = 0;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] == 1)
      continue;
    /* Merge axis i into the previous kept axis when, for every operand,
     * stepping the previous axis once equals walking axis i to its end. */
    bool merge = n > 0;
    for (int k = 0; merge && k < nops; k++)
      merge = strides[k][i] * shape[i] == loop->stride[k][n - 1];
    if (merge) {
      loop->shape[n - 1] *= shape[i];
      for (int k = 0; k < nops; k++)
        loop->stride[k][n - 1] = strides[k][i];
      continue;
    }
    loop->shape[n] = shape[i];
    for (int k = 0; k < nops; k++)
      loop->stride[k][n] = strides[k][i];
    n++;
  }
  if (n == 0) {
    loop->shape[0] = loop->size; /* 1 element, or 0 */
    for (int k = 0; k < nops; k++)
      loop->stride[k][0] = 1;
    n = 1;
  }
  loop->ndim = n;
}

int cusci_loop_contiguous(const cusci_loop *loop)
{
  if (loop->ndim != 1)
    return 0;
  for (int k = 0; k < loop->nops; k++)
    if (loop->stride[k][0] != 1)
      return 0;
  return 1;
}
