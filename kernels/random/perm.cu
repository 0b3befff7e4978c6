/*
 * kernels/random/perm.cu: permutations and choice on the GPU: the keys of
 * reference/random/perm.h sorted by CUB's radix sort (stable, so ties keep
 * index order, as the host's comparison does), a bisection kernel for
 * choice with probabilities, and a row gather for shuffle.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include <cub/device/device_radix_sort.cuh>

#include "kernels/random/common.cuh"
#include "kernels/random/launch.h"
#include "reference/random/perm.h"

namespace {

__global__ void keys_kernel(uint64_t key, uint64_t ctr, int64_t n, const double *w, uint64_t *keys, int64_t *vals)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    keys[i] = cusci__rperm_key(key, ctr, i, w);
    vals[i] = i;
  }
}

__global__ void choice_kernel(uint64_t key, uint64_t ctr, const double *cdf, int64_t n, int64_t m, int64_t *out)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride)
    out[i] = cusci__rsearch_cdf(cdf, n, cusci__rchoice_u(key, ctr, i));
}

template <typename W>
__global__ void gather_kernel(const W *src, W *dst, const int64_t *idx, int64_t rows, int64_t words)
{
  int64_t total = rows * words;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += stride) {
    int64_t r = t / words, c = t - r * words;
    dst[t] = src[idx[r] * words + c];
  }
}

size_t align256(size_t b)
{
  return (b + 255) & ~(size_t)255;
}

size_t cub_bytes(int64_t n)
{
  size_t tb = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, tb, (const uint64_t *)nullptr, (uint64_t *)nullptr,
                                  (const int64_t *)nullptr, (int64_t *)nullptr, (int)n);
  return tb;
}

} // namespace

static size_t perm_bytes(int64_t n)
{
  return 3 * align256((size_t)n * 8) + align256(cub_bytes(n));
}

extern "C" int cusci__rperm_scratch(int64_t n, size_t *bytes)
{
  *bytes = perm_bytes(n);
  return 0;
}

extern "C" int cusci__launch_rperm(void *stream, uint64_t key, uint64_t ctr, int64_t n, const double *w, void *scratch,
                                   size_t scratch_bytes, int64_t *idx)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (n == 0)
    return 0;
  if (n > INT32_MAX || scratch_bytes < perm_bytes(n))
    return (int)cudaErrorInvalidValue;
  char *p = (char *)scratch;
  size_t a = align256((size_t)n * 8);
  uint64_t *kin = (uint64_t *)p, *kout = (uint64_t *)(p + a);
  int64_t *vin = (int64_t *)(p + 2 * a);
  void *tmp = p + 3 * a;
  size_t tb = cub_bytes(n);
  keys_kernel<<<blocks_for(n), kThreads, 0, s>>>(key, ctr, n, w, kin, vin);
  cudaError_t e = cub::DeviceRadixSort::SortPairs(tmp, tb, kin, kout, vin, idx, (int)n, 0, 64, s);
  if (e != cudaSuccess)
    return (int)e;
  return (int)cudaGetLastError();
}

extern "C" int cusci__launch_rchoice_cdf(void *stream, uint64_t key, uint64_t ctr, const double *cdf, int64_t n,
                                         int64_t m, int64_t *out)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (m == 0)
    return 0;
  choice_kernel<<<blocks_for(m), kThreads, 0, s>>>(key, ctr, cdf, n, m, out);
  return (int)cudaGetLastError();
}

extern "C" int cusci__launch_rgather(void *stream, const void *src, void *dst, const int64_t *idx, int64_t rows,
                                     size_t row_bytes)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (rows == 0 || row_bytes == 0)
    return 0;
  /* The widest word that the row length and both addresses allow (an
   * array's data may begin at any multiple of its item size). */
  uintptr_t align = (uintptr_t)row_bytes | (uintptr_t)src | (uintptr_t)dst;
  if (align % 8 == 0) {
    int64_t w = (int64_t)(row_bytes / 8);
    gather_kernel<uint64_t><<<blocks_for(rows * w), kThreads, 0, s>>>((const uint64_t *)src, (uint64_t *)dst, idx, rows, w);
  } else if (align % 4 == 0) {
    int64_t w = (int64_t)(row_bytes / 4);
    gather_kernel<uint32_t><<<blocks_for(rows * w), kThreads, 0, s>>>((const uint32_t *)src, (uint32_t *)dst, idx, rows, w);
  } else {
    int64_t w = (int64_t)row_bytes;
    gather_kernel<uint8_t><<<blocks_for(rows * w), kThreads, 0, s>>>((const uint8_t *)src, (uint8_t *)dst, idx, rows, w);
  }
  return (int)cudaGetLastError();
}
