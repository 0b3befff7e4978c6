/*
 * kernels/core/reduce.cu: reductions on the GPU, one pair of kernels per
 * input dtype with the steps of reference/core/reduce_ops.h.
 *
 * Stage 1: block (g, m) reduces chunk g of the reduced elements of kept
 * element m into one partial (a grid-stride loop per thread, then a tree in
 * shared memory). Stage 2, when there is more than one chunk, reduces the
 * partials of each m. Few outputs get many chunks, so that a full reduction
 * of 2^28 elements still fills the GPU; many outputs get one chunk each.
 */
#include <cusci/core.h>

#include "kernels/core/common.cuh"
#include "kernels/core/launch.h"
#include "reference/core/reduce_ops.h"

namespace {

using namespace cusci;

template <class A>
struct step;
template <>
struct step<int64_t> {
  __device__ static int64_t init(int op) { return cusci__rinit_I(op); }
  __device__ static int64_t apply(int op, int64_t a, int64_t b) { return cusci__rstep_I(op, a, b); }
};
template <>
struct step<uint64_t> {
  __device__ static uint64_t init(int op) { return cusci__rinit_U(op); }
  __device__ static uint64_t apply(int op, uint64_t a, uint64_t b) { return cusci__rstep_U(op, a, b); }
};
template <>
struct step<double> {
  __device__ static double init(int op) { return cusci__rinit_F(op); }
  __device__ static double apply(int op, double a, double b) { return cusci__rstep_F(op, a, b); }
};
template <>
struct step<cusci__c128> {
  __device__ static cusci__c128 init(int op) { return cusci__rinit_C(op); }
  __device__ static cusci__c128 apply(int op, cusci__c128 a, cusci__c128 b) { return cusci__rstep_C(op, a, b); }
};

/* Tree reduction of one value per thread in shared memory. */
template <class A>
__device__ A block_reduce(int op, A v)
{
  __shared__ A sh[kThreads];
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if ((int)threadIdx.x < s)
      sh[threadIdx.x] = step<A>::apply(op, sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads();
  }
  return sh[0];
}

__device__ __forceinline__ int64_t offset_of(const cusci__loop &l, int k, int64_t i)
{
  int64_t off = 0;
  for (int d = l.ndim - 1; d >= 0; d--) {
    int64_t n = l.shape[d];
    int64_t q = i / n;
    off += (i - q * n) * l.stride[k][d];
    i = q;
  }
  return off;
}

template <class T, class A, class L>
__global__ void reduce_stage1(int op, const T *in, A *part, const cusci__loop kept, const cusci__loop red,
                              int64_t chunk, int nchunks)
{
  L load;
  bool flat = red.ndim == 1 && red.stride[0][0] == 1;
  for (int64_t m = blockIdx.y; m < kept.size; m += gridDim.y) {
    const T *base = in + offset_of(kept, 1, m);
    A a = step<A>::init(op);
    int64_t lo = (int64_t)blockIdx.x * chunk, hi = lo + chunk < red.size ? lo + chunk : red.size;
    if (flat) {
      /* Eight independent partials keep eight loads in flight per thread. */
      A p[8];
#pragma unroll
      for (int k = 0; k < 8; k++)
        p[k] = a;
      int64_t bd = blockDim.x, r = lo + threadIdx.x;
      for (; r + 7 * bd < hi; r += 8 * bd) {
#pragma unroll
        for (int k = 0; k < 8; k++)
          p[k] = step<A>::apply(op, p[k], load(base[r + k * bd]));
      }
      for (; r < hi; r += bd)
        p[0] = step<A>::apply(op, p[0], load(base[r]));
#pragma unroll
      for (int k = 1; k < 8; k++)
        p[0] = step<A>::apply(op, p[0], p[k]);
      a = p[0];
    } else {
      for (int64_t r = lo + threadIdx.x; r < hi; r += blockDim.x)
        a = step<A>::apply(op, a, load(base[offset_of(red, 0, r)]));
    }
    a = block_reduce<A>(op, a);
    if (threadIdx.x == 0)
      part[m * nchunks + blockIdx.x] = a;
    __syncthreads();
  }
}

template <class A>
__global__ void reduce_stage2(int op, const A *part, A *acc, int64_t m_count, int nchunks)
{
  for (int64_t m = blockIdx.x; m < m_count; m += gridDim.x) {
    A a = step<A>::init(op);
    for (int g = threadIdx.x; g < nchunks; g += blockDim.x)
      a = step<A>::apply(op, a, part[m * nchunks + g]);
    a = block_reduce<A>(op, a);
    if (threadIdx.x == 0)
      acc[m] = a;
    __syncthreads();
  }
}

template <class T, class A, class L>
int launch_reduce(cudaStream_t s, int op, const cusci__loop *kept, const cusci__loop *red, void *acc, const void *in,
                  void *scratch, int nchunks)
{
  int64_t chunk = (red->size + nchunks - 1) / nchunks;
  if (chunk < 1)
    chunk = 1;
  unsigned gy = kept->size < 65535 ? (unsigned)kept->size : 65535u;
  dim3 grid((unsigned)nchunks, gy > 0 ? gy : 1);
  A *part = nchunks > 1 ? (A *)scratch : (A *)acc;
  reduce_stage1<T, A, L><<<grid, kThreads, 0, s>>>(op, (const T *)in, part, *kept, *red, chunk, nchunks);
  if (nchunks > 1) {
    unsigned g2 = kept->size < 65535 ? (unsigned)kept->size : 65535u;
    reduce_stage2<A><<<g2, kThreads, 0, s>>>(op, part, (A *)acc, kept->size, nchunks);
  }
  return launched();
}

#define LOADER_(D, T, K, A) \
  struct load_##D {         \
    __device__ __forceinline__ A operator()(T x) const { return cusci__load_##D(x); } \
  };
CUSCI__RTYPES(LOADER_)

} // namespace

#define CASE_(D, T, K, A) \
  case CUSCI_##D:         \
    return launch_reduce<T, A, load_##D>((cudaStream_t)stream, op, kept, red, acc, in, scratch, nchunks);

extern "C" int cusci__launch_reduce(void *stream, int op, int dtype, const cusci__loop *kept, const cusci__loop *red,
                                    void *acc, const void *in, void *scratch, int nchunks)
{
  if (kept->size == 0)
    return 0;
  switch (dtype) {
    CUSCI__RTYPES(CASE_)
  }
  return (int)cudaErrorInvalidValue;
}
