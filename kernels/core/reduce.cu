/*
 * kernels/core/reduce.cu: reductions on the GPU, one pair of kernels per
 * input dtype with the steps of reference/core/reduce_ops.h.
 *
 * Stage 1: block (g, m) reduces chunk g of the reduced elements of kept
 * element m into one partial (a block-stride loop per thread, with 16-byte
 * vector loads where the chunk is contiguous, then a tree in shared
 * memory). Stage 2, when there is more than one chunk, reduces the
 * partials of each m. Few outputs get many chunks, so that a full reduction
 * of 2^28 elements still fills the GPU (one contiguous reduction: exactly
 * one wave of blocks); many outputs get one chunk each.
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
struct step<cusci_c128> {
  __device__ static cusci_c128 init(int op) { return cusci__rinit_C(op); }
  __device__ static cusci_c128 apply(int op, cusci_c128 a, cusci_c128 b) { return cusci__rstep_C(op, a, b); }
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

__device__ __forceinline__ int64_t offset_of(const cusci_loop &l, int k, int64_t i)
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

/*
 * A contiguous run [lo, hi) of base, reduced by the threads of a block into
 * one partial per thread. Types of at most 8 bytes are read as 16-byte
 * vectors (from the first 16-byte boundary; the head and the tail one
 * element at a time), four vectors in flight per thread, into four
 * independent partials, so that the loop is bound by memory bandwidth.
 * OPC >= 0 fixes the operation at compile time (the sum), so that the
 * step's switch folds away in the inner loop.
 */
template <int OPC, class T, class A, class L>
__device__ A flat_partial(int op, const T *base, int64_t lo, int64_t hi)
{
  L load;
  constexpr int V = sizeof(T) <= 8 ? 16 / (int)sizeof(T) : 1;
  A p[4];
#pragma unroll
  for (int k = 0; k < 4; k++)
    p[k] = step<A>::init(op);
  int64_t bd = blockDim.x, t = threadIdx.x;
  if (V > 1) {
    uintptr_t addr = (uintptr_t)(base + lo);
    int64_t head = (int64_t)(((16 - (addr & 15)) & 15) / sizeof(T));
    if (head > hi - lo)
      head = hi - lo;
    if (t < head)
      p[0] = step<A>::apply(op, p[0], load(base[lo + t]));
    int64_t v0 = lo + head, nv = (hi - v0) / V;
    const uint4 *vp = reinterpret_cast<const uint4 *>(base + v0);
    int64_t j = t;
    for (; j + 3 * bd < nv; j += 4 * bd) {
      uint4 q[4];
#pragma unroll
      for (int k = 0; k < 4; k++)
        q[k] = __ldcs(vp + j + k * bd); /* streamed: read once */
#pragma unroll
      for (int k = 0; k < 4; k++) {
        T e[V];
        memcpy(e, &q[k], sizeof q[k]);
#pragma unroll
        for (int i = 0; i < V; i++)
          p[k] = step<A>::apply(op, p[k], load(e[i]));
      }
    }
    for (; j < nv; j += bd) {
      uint4 q = __ldcs(vp + j);
      T e[V];
      memcpy(e, &q, sizeof q);
#pragma unroll
      for (int i = 0; i < V; i++)
        p[0] = step<A>::apply(op, p[0], load(e[i]));
    }
    for (int64_t r = v0 + nv * V + t; r < hi; r += bd)
      p[1] = step<A>::apply(op, p[1], load(base[r]));
  } else {
    int64_t r = lo + t;
    for (; r + 3 * bd < hi; r += 4 * bd) {
#pragma unroll
      for (int k = 0; k < 4; k++)
        p[k] = step<A>::apply(op, p[k], load(base[r + k * bd]));
    }
    for (; r < hi; r += bd)
      p[0] = step<A>::apply(op, p[0], load(base[r]));
  }
  return step<A>::apply(op, step<A>::apply(op, p[0], p[1]), step<A>::apply(op, p[2], p[3]));
}

template <int OPC, class T, class A, class L>
__global__ void reduce_stage1(int op_rt, const T *in, A *part, const cusci_loop kept, const cusci_loop red,
                              int64_t chunk, int nchunks)
{
  const int op = OPC >= 0 ? OPC : op_rt;
  L load;
  bool flat = red.ndim == 1 && red.stride[0][0] == 1;
  for (int64_t m = blockIdx.y; m < kept.size; m += gridDim.y) {
    const T *base = in + offset_of(kept, 1, m);
    A a = step<A>::init(op);
    int64_t lo = (int64_t)blockIdx.x * chunk, hi = lo + chunk < red.size ? lo + chunk : red.size;
    if (flat) {
      if (lo < hi)
        a = flat_partial<OPC, T, A, L>(op, base, lo, hi);
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

/*
 * Blocks of the stage-1 kernel that fit on the device at once, cached per
 * device (a benign race: every thread stores the same value).
 */
template <int OPC, class T, class A, class L>
int resident_blocks()
{
  static int cache[64];
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64)
    return 0;
  if (cache[dev] == 0) {
    int sms = 0, per = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, reduce_stage1<OPC, T, A, L>, kThreads, 0) != cudaSuccess)
      return 0;
    cache[dev] = sms * per;
  }
  return cache[dev];
}

template <int OPC, class T, class A, class L>
int launch_reduce_op(cudaStream_t s, int op, const cusci_loop *kept, const cusci_loop *red, void *acc,
                     const void *in, void *scratch, int nchunks)
{
  /*
   * One large contiguous reduction: exactly one wave of blocks, each over
   * one contiguous run, so that no block waits for a second wave and the
   * partials are few (libcore's scratch holds nchunks of them).
   */
  if (kept->size == 1 && nchunks > 1 && red->ndim == 1 && red->stride[0][0] == 1) {
    int wave = resident_blocks<OPC, T, A, L>();
    if (wave > 0 && wave < nchunks)
      nchunks = wave;
  }
  int64_t chunk = (red->size + nchunks - 1) / nchunks;
  if (chunk < 1)
    chunk = 1;
  unsigned gy = kept->size < 65535 ? (unsigned)kept->size : 65535u;
  dim3 grid((unsigned)nchunks, gy > 0 ? gy : 1);
  A *part = nchunks > 1 ? (A *)scratch : (A *)acc;
  reduce_stage1<OPC, T, A, L><<<grid, kThreads, 0, s>>>(op, (const T *)in, part, *kept, *red, chunk, nchunks);
  if (nchunks > 1) {
    unsigned g2 = kept->size < 65535 ? (unsigned)kept->size : 65535u;
    reduce_stage2<A><<<g2, kThreads, 0, s>>>(op, part, (A *)acc, kept->size, nchunks);
  }
  return launched();
}

template <class T, class A, class L>
int launch_reduce(cudaStream_t s, int op, const cusci_loop *kept, const cusci_loop *red, void *acc, const void *in,
                  void *scratch, int nchunks)
{
  if (op == CUSCI__R_SUM)
    return launch_reduce_op<CUSCI__R_SUM, T, A, L>(s, op, kept, red, acc, in, scratch, nchunks);
  return launch_reduce_op<-1, T, A, L>(s, op, kept, red, acc, in, scratch, nchunks);
}

#define LOADER_(D, T, K, A) \
  struct load_##D {         \
    __device__ __forceinline__ A operator()(T x) const { return cusci_load_##D(x); } \
  };
CUSCI__RTYPES(LOADER_)

} // namespace

#define CASE_(D, T, K, A) \
  case CUSCI_##D:         \
    return launch_reduce<T, A, load_##D>((cudaStream_t)stream, op, kept, red, acc, in, scratch, nchunks);

extern "C" int cusci__launch_reduce(void *stream, int op, int dtype, const cusci_loop *kept, const cusci_loop *red,
                                    void *acc, const void *in, void *scratch, int nchunks)
{
  if (kept->size == 0)
    return 0;
  switch (dtype) {
    CUSCI__RTYPES(CASE_)
  }
  return (int)cudaErrorInvalidValue;
}
