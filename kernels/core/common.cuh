/*
 * kernels/core/common.cuh: what the core's kernels share: launch shapes and
 * the offset of an element in a strided walk.
 */
#ifndef CUSCI_KERNELS_CORE_COMMON_CUH
#define CUSCI_KERNELS_CORE_COMMON_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include <cusci/kit/loop.h>

namespace cusci {

constexpr int kThreads = 256;

/* Blocks for n elements, each thread taking `per_thread`, capped so that a
 * grid-stride loop covers the rest. */
inline unsigned blocks_for(int64_t n, int per_thread = 1)
{
  int64_t b = (n + (int64_t)kThreads * per_thread - 1) / ((int64_t)kThreads * per_thread);
  if (b > 65535LL * 32)
    b = 65535LL * 32;
  return (unsigned)(b > 0 ? b : 1);
}

/* Offsets (in elements) of element i of the loop in each operand. */
template <int NOPS>
__device__ __forceinline__ void loop_offsets(const cusci_loop &l, int64_t i, int64_t *off)
{
  for (int k = 0; k < NOPS; k++)
    off[k] = 0;
  for (int d = l.ndim - 1; d >= 0; d--) {
    int64_t n = l.shape[d];
    int64_t q = i / n;
    int64_t idx = i - q * n;
    i = q;
    for (int k = 0; k < NOPS; k++)
      off[k] += idx * l.stride[k][d];
  }
}

inline int launched()
{
  return (int)cudaGetLastError();
}

} // namespace cusci

#endif
