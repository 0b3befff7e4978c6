/*
 * kernels/linalg/lu.cu: the device side of lu_factor and lu_solve around
 * cuSOLVER's getrf and getrs: the pivots converted between SciPy's 0-based
 * int32 and cuSOLVER's 1-based int64, with lu_solve's range check, by the
 * formulas of reference/linalg/lu_ops.h, which the host backend shares.
 *
 * Every kernel is a grid-stride loop over 64-bit indices, so that any
 * count is covered by a grid of bounded size.
 */
#include <cuda_runtime.h>

#include <stdint.h>

#include "kernels/linalg/lu_launch.h"
#include "reference/linalg/lu_ops.h"

namespace {

constexpr int kThreads = 256;
/* Blocks of `threads` for n items, at least one, at most 65535 * 8: the
 * kernels loop over the rest. */
unsigned blocks_for(int64_t n, int threads)
{
  int64_t b = (n + threads - 1) / threads;
  return (unsigned)(b < 1 ? 1 : b > 65535 * 8 ? 65535 * 8 : b);
}

/* ------------------------------------------------------------ pivots */

__global__ void piv_from_lapack_kernel(const int64_t *__restrict__ ipiv, int64_t count, int32_t *__restrict__ piv)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
    piv[i] = cusci__lu_piv_from_lapack(ipiv[i]);
}

/* bad[0] keeps the smallest index of a pivot out of range (atomicMin on a
 * word that starts as all ones). */
__global__ void piv_to_lapack_kernel(const int32_t *__restrict__ piv, int64_t count, int64_t n, int64_t *__restrict__ ipiv,
                                     unsigned long long *bad)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    const int32_t p = piv[i];
    ipiv[i] = cusci__lu_piv_to_lapack(p, i % n, n);
    if (!cusci__lu_piv_ok(p, n))
      atomicMin(bad, (unsigned long long)i);
  }
}

/* bad[1] = the pivot at bad[0], when there is one; one thread, after
 * piv_to_lapack_kernel on the same stream. */
__global__ void piv_bad_value_kernel(const int32_t *__restrict__ piv, int64_t count, unsigned long long *bad)
{
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned long long at = bad[0];
    if (at < (unsigned long long)count)
      bad[1] = (unsigned long long)(long long)piv[at];
  }
}

} // namespace

extern "C" int cusci__launch_la_piv_from_lapack(void *stream, int64_t count, const int64_t *ipiv, int32_t *piv)
{
  if (count <= 0)
    return 0;
  piv_from_lapack_kernel<<<blocks_for(count, kThreads), kThreads, 0, (cudaStream_t)stream>>>(ipiv, count, piv);
  return (int)cudaGetLastError();
}

extern "C" int cusci__launch_la_piv_to_lapack(void *stream, int64_t count, int64_t n, const int32_t *piv, int64_t *ipiv, uint64_t *bad)
{
  cudaStream_t s = (cudaStream_t)stream;
  /* All ones: no bad pivot (bad[0]), and bad[1] defined whatever follows. */
  cudaError_t e = cudaMemsetAsync(bad, 0xff, CUSCI__LA_PIV_BAD_WORDS * sizeof *bad, s);
  if (e != cudaSuccess || count <= 0 || n <= 0)
    return (int)e;
  unsigned long long *w = (unsigned long long *)bad;
  piv_to_lapack_kernel<<<blocks_for(count, kThreads), kThreads, 0, s>>>(piv, count, n, ipiv, w);
  e = cudaGetLastError();
  if (e != cudaSuccess)
    return (int)e;
  piv_bad_value_kernel<<<1, 32, 0, s>>>(piv, count, w);
  return (int)cudaGetLastError();
}
