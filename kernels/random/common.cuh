/*
 * kernels/random/common.cuh: what librandom's CUDA files share: the block
 * size and the grid of a grid-stride loop.
 */
#ifndef CUSCI_KERNELS_RANDOM_COMMON_CUH
#define CUSCI_KERNELS_RANDOM_COMMON_CUH

#include <stdint.h>

namespace {

constexpr int kThreads = 256;

/* Blocks of kThreads for n items, at least 1, at most 65535 * 32. */
inline unsigned blocks_for(int64_t n)
{
  int64_t b = (n + kThreads - 1) / kThreads;
  if (b > 65535LL * 32)
    b = 65535LL * 32;
  return (unsigned)(b > 0 ? b : 1);
}

} // namespace

#endif
