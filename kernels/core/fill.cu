/*
 * kernels/core/fill.cu: fill, arange and linspace on the GPU, with the
 * element formulas of reference/core/fill.h.
 */
#include <string.h>

#include "kernels/core/common.cuh"
#include "kernels/core/launch.h"
#include "reference/core/fill.h"

namespace {

using namespace cusci;

template <typename T>
__global__ void fill_flat(T *__restrict__ dst, T v, int64_t n)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    dst[i] = v;
}

template <typename T>
__global__ void fill_strided(T *dst, T v, const cusci_loop l)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < l.size; i += stride) {
    int64_t off[1];
    loop_offsets<1>(l, i, off);
    dst[off[0]] = v;
  }
}

/* An element of `size` bytes, moved as one unit. */
template <int N>
struct alignas(N) bytes {
  unsigned char b[N];
};

template <int N>
int fill_n(cudaStream_t s, const cusci_loop *l, void *dst, const void *value)
{
  bytes<N> v;
  memcpy(v.b, value, N);
  if (cusci_loop_contiguous(l))
    fill_flat<<<blocks_for(l->size, 4), kThreads, 0, s>>>((bytes<N> *)dst, v, l->size);
  else
    fill_strided<<<blocks_for(l->size), kThreads, 0, s>>>((bytes<N> *)dst, v, *l);
  return launched();
}

#define GEN_KERNELS_(D, T, K, unused)                                                             \
  __global__ void arange_##D(T *dst, int64_t n, const cusci__arange_args a)                       \
  {                                                                                               \
    int64_t stride = (int64_t)gridDim.x * blockDim.x;                                             \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)          \
      dst[i] = cusci__arange_##D(i, &a);                                                          \
  }                                                                                               \
  __global__ void linspace_##D(T *dst, const cusci__linspace_args a)                              \
  {                                                                                               \
    int64_t stride = (int64_t)gridDim.x * blockDim.x;                                             \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.n; i += stride)        \
      dst[i] = cusci__linspace_##D(i, &a);                                                        \
  }
CUSCI_TYPES_A(GEN_KERNELS_, 0)

/* Dtype numbers follow the table's order, which is cusci_dtype's. */
#define ENUM_(D, T, K, unused) DT_##D,
enum { CUSCI_TYPES_A(ENUM_, 0) };

} // namespace

extern "C" int cusci__launch_fill(void *stream, const cusci_loop *loop, void *dst, const void *value, int itemsize)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (loop->size == 0)
    return 0;
  switch (itemsize) {
  case 1: return fill_n<1>(s, loop, dst, value);
  case 2: return fill_n<2>(s, loop, dst, value);
  case 4: return fill_n<4>(s, loop, dst, value);
  case 8: return fill_n<8>(s, loop, dst, value);
  case 16: return fill_n<16>(s, loop, dst, value);
  }
  return (int)cudaErrorInvalidValue;
}

#define ARANGE_CASE_(D, T, K, unused) \
  case DT_##D: arange_##D<<<blocks_for(n), kThreads, 0, s>>>((T *)dst, n, *args); break;
extern "C" int cusci__launch_arange(void *stream, int dtype, int64_t n, const cusci__arange_args *args, void *dst)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (n == 0)
    return 0;
  switch (dtype) { CUSCI_TYPES_A(ARANGE_CASE_, 0) }
  return launched();
}

#define LINSPACE_CASE_(D, T, K, unused) \
  case DT_##D: linspace_##D<<<blocks_for(args->n), kThreads, 0, s>>>((T *)dst, *args); break;
extern "C" int cusci__launch_linspace(void *stream, int dtype, const cusci__linspace_args *args, void *dst)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (args->n == 0)
    return 0;
  switch (dtype) { CUSCI_TYPES_A(LINSPACE_CASE_, 0) }
  return launched();
}
